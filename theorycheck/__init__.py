"""theorycheck — placeholder, docstring written below."""
__version__ = "0.1.0"
