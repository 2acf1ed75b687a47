from ..deprecation import moved

moved(__name__, "theorycheck.papers.<key>.generated")
