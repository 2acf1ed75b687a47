r"""Matrices of quadratic forms: :math:`X^\top M X = \sum_{(i,j)\in\text{pairs}} X_i X_j` with :math:`M` symmetric.

>>> quadratic_form_matrix([(0, 0)], 2).tolist()
[[1.0, 0.0], [0.0, 0.0]]
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ..validate import check_int

__all__ = ["quadratic_form_matrix"]


def quadratic_form_matrix(pairs, n, exact: bool = False):
    r"""Symmetric :math:`M` with :math:`X^\top M X = \sum_{(i,j)\in \text{pairs}} X_i X_j`.

    Off-diagonal pairs put 1/2 at ``(i, j)`` and ``(j, i)``; ``(i, i)`` puts 1 on the diagonal;
    repeated pairs add up. ``exact=True`` returns a SymPy Matrix with rational entries.
    Example: the lag-1 sum :math:`\sum_{i=0}^{n-2} X_i X_{i+1}`:

    >>> quadratic_form_matrix([(i, i + 1) for i in range(2)], 3)
    array([[0. , 0.5, 0. ],
           [0.5, 0. , 0.5],
           [0. , 0.5, 0. ]])
    """
    n = check_int("n", n, minimum=1)
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise ValueError("pairs must be a sequence of (i, j) index pairs")
    M = sp.zeros(n, n) if exact else np.zeros((n, n))
    half = sp.Rational(1, 2) if exact else 0.5
    for k, pr in enumerate(pairs):
        try:
            i, j = pr
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{k}] must be an (i, j) pair, got {pr!r}") from None
        i = check_int(f"pairs[{k}][0]", i, minimum=0, maximum=n - 1)
        j = check_int(f"pairs[{k}][1]", j, minimum=0, maximum=n - 1)
        if i == j:
            M[i, i] += 1
        else:
            M[i, j] += half
            M[j, i] += half
    return M
