"""The cheapest groups (R3, R5) of a hand's ranks, in closed form, for :mod:`.needed`.

Per rank the naturals held ``h`` and the copies still addable ``a`` (at scratch offsets
``ho``, ``ao``). A group of 3 naturals adds ``3 - h`` of them; a group of 2 naturals and a
joker adds ``2 - h`` and the joker. So a rank holding 3 costs nothing either way (free), a
rank holding fewer saves exactly one natural with a joker, and a rank without copies enough
for a natural group must take the joker. Taking the cheapest ranks of each kind is then
optimal: what the group DP finds (its twin, ``_groups`` of ``tests/needed_original.py``), far
cheaper (the search asks it at every node).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .windows import NO_WAY


@njit(cache=True, _nrt=False, inline="always")
def _cheapest_of(n0, n1, n2, lo, n):
    """Sum of the ``n`` smallest costs when ``n0``, ``n1``, ``n2`` entries cost ``lo``,
    ``lo + 1``, ``lo + 2``; ``NO_WAY`` if there are fewer."""
    t0 = min(n, n0)
    t1 = min(n - t0, n1)
    t2 = min(n - t0 - t1, n2)
    if t0 + t1 + t2 < n:
        return NO_WAY
    return t0 * lo + t1 * (lo + 1) + t2 * (lo + 2)


@njit(cache=True, _nrt=False, inline="always")
def group_options(h, a):
    """Naturals a rank holding ``h`` with ``a`` copies addable adds for a group of 3 naturals
    and for one of 2 naturals and a joker (R3): ``(c0, c1)``, ``NO_WAY`` where it cannot."""
    need0 = max(0, 3 - h)
    need1 = max(0, 2 - h)
    return (need0 if need0 <= a else NO_WAY), (need1 if need1 <= a else NO_WAY)


def _kind_table():
    """The kind of a rank by ``min(h, 3) * 4 + min(a, 3)`` (``h`` naturals held, ``a`` copies
    addable; more change nothing): 0 free, 1-3 adds ``3 - h`` naturals, 4-6 must take a joker
    and adds ``2 - h`` (0, 1, 2), 7 no group (:func:`group_options`)."""
    out = np.zeros(16, np.int64)
    for h in range(4):
        for a in range(4):
            c0, c1 = max(0, 3 - h), max(0, 2 - h)
            if c0 == 0:
                out[h * 4 + a] = 0
            elif c0 <= a:
                out[h * 4 + a] = c0
            elif c1 <= a:
                out[h * 4 + a] = 4 + c1
            else:
                out[h * 4 + a] = 7
    return out


_KIND = _kind_table()
#: one in the byte of each kind: summed over ranks, the bytes count the ranks of each kind
_KIND_BITS = np.left_shift(1, 8 * _KIND).astype(np.int64)


@njit(cache=True, _nrt=False, inline="always")
def _kinds(rel, ho, ao, scratch):
    """The ranks of mask ``rel`` by kind: ``(free, n1, n2, n3, j0, j1, j2)``: free ones, those
    able to add all naturals by ``3 - h`` (1, 2, 3), those that must take a joker by
    ``2 - h`` (0, 1, 2). One table look-up per rank, the kinds counted in the bytes of one
    word (``_KIND_BITS``)."""
    acc = 0
    for k in range(1, 14):
        h = min(scratch[ho + k], 3)
        a = min(scratch[ao + k], 3)
        acc += _KIND_BITS[h * 4 + a] * ((rel >> k) & 1)
    return (acc & 255, (acc >> 8) & 255, (acc >> 16) & 255, (acc >> 24) & 255,
            (acc >> 32) & 255, (acc >> 40) & 255, (acc >> 48) & 255)


@njit(cache=True, _nrt=False, inline="always")
def group_costs(g, rel, ho, ao, out, scratch):
    """``out[m]`` (m = 0..g): least naturals to add for ``g`` groups of distinct ranks in the
    rank mask ``rel`` using ``m`` jokers (``NO_WAY`` where none): the group DP's answer.

    With ``i`` ranks that must take a joker (the cheapest ``i``), the other ``g - i`` ranks
    are the free ones first, then the cheapest by ``3 - h``, and the other ``m - i`` jokers
    each save one natural there (a joker on a free rank saves none).
    """
    free, n1, n2, n3, j0, j1, j2 = _kinds(rel, ho, ao, scratch)
    _costs_of_kinds(g, free, n1, n2, n3, j0, j1, j2, out)


@njit(cache=True, _nrt=False, inline="always")
def group_costs_pair(g, ho, ao, out, out1, scratch):
    """:func:`group_costs` of every rank for ``g`` groups into ``out`` and for ``g - 1`` into
    ``out1`` (``g >= 1``), the ranks' kinds counted once: the root's two group tables."""
    free, n1, n2, n3, j0, j1, j2 = _kinds(0x3FFE, ho, ao, scratch)
    _costs_of_kinds(g, free, n1, n2, n3, j0, j1, j2, out)
    _costs_of_kinds(g - 1, free, n1, n2, n3, j0, j1, j2, out1)


@njit(cache=True, _nrt=False, inline="always")
def _costs_of_kinds(g, free, n1, n2, n3, j0, j1, j2, out):
    """:func:`group_costs` from the number of ranks of each kind (:func:`_kinds`). One body
    per number of groups, 0-3 (the mixed contracts' and one fewer), whose loops the compiler
    unrolls (the search asks it at every node that takes naturals)."""
    if g == 0:
        out[0] = 0
    elif g == 1:
        _costs_body(1, free, n1, n2, n3, j0, j1, j2, out)
    elif g == 2:
        _costs_body(2, free, n1, n2, n3, j0, j1, j2, out)
    elif g == 3:
        _costs_body(3, free, n1, n2, n3, j0, j1, j2, out)
    else:
        _costs_body(g, free, n1, n2, n3, j0, j1, j2, out)


@njit(cache=True, _nrt=False, inline="always")
def _costs_body(g, free, n1, n2, n3, j0, j1, j2, out):
    """:func:`_costs_of_kinds`' body."""
    jt = j0 + j1 + j2
    nt = n1 + n2 + n3
    for m in range(g + 1):
        best = NO_WAY
        for i in range(min(m, jt) + 1):
            rest = g - i
            if rest > free + nt:
                continue
            nn = rest - min(free, rest)
            v = (_cheapest_of(j0, j1, j2, 0, i) + _cheapest_of(n1, n2, n3, 1, nn)
                 - min(m - i, nn))
            if v < best:
                best = v
        out[m] = best


@njit(cache=True, _nrt=False, inline="always")
def kind_of(h, a):
    """The kind of a rank holding ``h`` naturals with ``a`` copies addable, as :func:`_kinds`
    counts it (:func:`_kind_table`)."""
    return _KIND[min(h, 3) * 4 + min(a, 3)]


@njit(cache=True, _nrt=False)
def groups_alone(g, jokers, aj, ho, ao, scratch):
    """The count of an all-group contract (R3, R5): the cheapest ``g`` groups of all ranks,
    the hand's ``jokers`` shared and at most ``aj`` more bought, in closed form (the
    all-group contracts ask it of every card one on or off).

    Free ranks are taken first. With ``i`` ranks that must take a joker, the cheapest of each
    kind are taken, the hand's jokers go to the forced ranks first, then save one natural
    each, and the jokers beyond the hand's are bought.
    """
    free, n1, n2, n3, j0, j1, j2 = _kinds(0x3FFE, ho, ao, scratch)
    return groups_of_kinds(g, jokers, aj, free, n1, n2, n3, j0, j1, j2)


@njit(cache=True, _nrt=False)
def groups_of_kinds(g, jokers, aj, free, n1, n2, n3, j0, j1, j2):
    """:func:`groups_alone` from the number of ranks of each kind (:func:`kind_of`): a card
    on or off moves one rank from one kind to another (:func:`.plus.root_moved`)."""
    left = g - min(free, g)
    if left == 0:
        return 0
    best = NO_WAY
    for i in range(min(left, j0 + j1 + j2) + 1):
        bought = max(0, i - jokers)
        if bought > aj:
            break
        nat = _cheapest_of(n1, n2, n3, 1, left - i)
        if nat >= NO_WAY:
            continue
        saved = min(max(0, jokers - i), left - i)
        v = _cheapest_of(j0, j1, j2, 0, i) + bought + nat - saved
        if v < best:
            best = v
    return best
