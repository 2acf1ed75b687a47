r"""Perfect matchings of ``range(n)`` — the pairings of Isserlis' theorem, listed explicitly.

:math:`E[X_{i_1}\cdots X_{i_n}] = \sum_{\text{pairings } p}\prod_{\{k,l\}\in p}\Sigma_{i_k i_l}` sums over the
:math:`(n-1)!!` perfect matchings of the positions; :func:`pairings` lists them (for tests, oracles and small
symbolic work — the moment engines never enumerate them).

>>> len(pairings(6))
15
"""
from __future__ import annotations

from ..validate import check_int

__all__ = ["pairings", "PAIRINGS_MAX_N"]

PAIRINGS_MAX_N = 14


def pairings(n) -> list[tuple[tuple[int, int], ...]]:
    r"""All perfect matchings of ``range(n)``; :math:`(n-1)!!` of them for even ``n``.

    Each matching is a tuple of pairs ``(i, j)`` with ``i < j``, pairs sorted by their first
    element; the list is in lexicographic order. ``n = 0`` gives ``[()]`` (one empty matching),
    odd ``n`` gives ``[]``. ``n`` must be an integer in ``[0, 14]``.

    >>> pairings(4)
    [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    >>> pairings(3), pairings(0)
    ([], [()])
    """
    n = check_int("n", n, minimum=0, maximum=PAIRINGS_MAX_N)
    if n % 2:
        return []
    return list(_pairings(tuple(range(n))))


def _pairings(items: tuple[int, ...]):
    if not items:
        yield ()
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        remaining = rest[:k] + rest[k + 1:]
        for tail in _pairings(remaining):
            yield ((first, partner),) + tail
