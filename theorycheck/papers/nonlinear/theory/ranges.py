"""Supported parameter ranges of the theory of paper 004 (double-precision safe).

The ratios τ = n/d², α = ℓ/d and a finite κ = k/d lie in [:data:`MIN_RATIO`, :data:`MAX_VALUE`]; noise variances,
ridge penalties and feature scales are at most :data:`MAX_VALUE`. Beyond these the closed forms lose every digit.

>>> MIN_RATIO < 1 < MAX_VALUE
True
"""
__all__ = ["MIN_RATIO", "MAX_VALUE"]

MIN_RATIO, MAX_VALUE = 1e-8, 1e16
