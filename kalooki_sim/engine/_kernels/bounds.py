"""Lower bounds of the cards needed (:mod:`.needed`): the cheapest runs of each suit (4-card
windows, joker masks), the run tables by suits and jokers, the node bound of the search and
the groups' bound at a rank. Layouts as in :mod:`.needed` and :mod:`.workspace`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .groups import group_options
from .windows import _WINDOW_COST, NO_WAY
from .workspace import (
    RUNS_OF,
    TMAX,
    W_A,
    W_G1,
    W_H,
    W_MASKS,
    W_NS,
    W_PERM,
    W_R,
    W_RUNS_OF,
    _memo_slot,
    _memo_store,
)


@njit(cache=True, _nrt=False, inline="always")
def _suit_masks(counts, avail, s):
    """Position masks of suit ``s``: held naturals and missing-but-addable naturals."""
    held = 0
    add = 0
    for k in range(1, 14):
        # branch-free: the hand's tables build the four suits' masks at every count
        h = np.int64(counts[s, k] > 0)
        held |= h << k
        add |= (np.int64(avail[s * 13 + k - 1] > 0) & (1 - h)) << k
    # the ace also stands at position 14
    return held | ((held & 2) << 13), add | ((add & 2) << 13)


@njit(cache=True, _nrt=False, inline="always")
def _cheapest_runs(counts, avail, maxj, scratch):
    """``NS[s, t]``: least naturals to add for a 4-card run of suit ``s`` with <= t jokers."""
    for s in range(4):
        _cheapest_runs_of(counts, avail, maxj, scratch, s)


@njit(cache=True, _nrt=False, inline="always")
def _cheapest_runs_of(counts, avail, maxj, scratch, s):
    """``NS[s, t]`` of :func:`_cheapest_runs` for the one suit ``s`` (a look-up per window);
    with the suit's masks at ``W_MASKS``."""
    held, add = _suit_masks(counts, avail, s)
    scratch[W_MASKS + 2 * s] = held
    scratch[W_MASKS + 2 * s + 1] = add
    _cheapest_runs_masks(held, add, maxj, scratch, s)


#: run positions 1-14 (the ace at both ends): every window passes through one
ALL_POSITIONS = 0x7FFE


@njit(cache=True, _nrt=False, inline="always")
def window_minima(held, add, maxj, through):
    """Least naturals to add for a 4-card run of one suit (held / addable position masks)
    with at most 0, 1, 2 jokers (``maxj`` to be had), among the windows touching a position
    of ``through``; ``NO_WAY`` where none (R4)."""
    mj = min(maxj, 2)
    b0 = b1 = b2 = NO_WAY
    for lo in range(1, 12):
        if not (through >> lo) & 15:
            continue
        h4 = (held >> lo) & 15
        a4 = (add >> lo) & 15
        b0 = min(b0, _WINDOW_COST[mj, h4, a4, 0])
        b1 = min(b1, _WINDOW_COST[mj, h4, a4, 1])
        b2 = min(b2, _WINDOW_COST[mj, h4, a4, 2])
    return b0, b1, b2


@njit(cache=True, _nrt=False, inline="always")
def suit_runs(held, add, maxj, scratch):
    """:func:`window_minima` of a whole suit (every window), remembered by the suit's masks
    and the jokers to be had (the one-card moves of a decision ask the same suit
    masks again and again, candidate after candidate): ``(b0, b1, b2)``."""
    key = held | (add << 15) | (min(maxj, 2) << 30)
    o, hit = _memo_slot(scratch, W_RUNS_OF, RUNS_OF, key)
    if hit:
        v = scratch[o + 1]
        b0 = v & 255
        b1 = (v >> 8) & 255
        b2 = v >> 16
        return (NO_WAY if b0 == 255 else b0, NO_WAY if b1 == 255 else b1,
                NO_WAY if b2 == 255 else b2)
    b0, b1, b2 = window_minima(held, add, maxj, ALL_POSITIONS)
    _memo_store(scratch, o, key, min(b0, 255) | (min(b1, 255) << 8) | (min(b2, 255) << 16))
    return b0, b1, b2


@njit(cache=True, _nrt=False, inline="always")
def _cheapest_runs_masks(held, add, maxj, scratch, s):
    """:func:`_cheapest_runs_of` from the suit's held and addable position masks."""
    b0, b1, b2 = suit_runs(held, add, maxj, scratch)
    scratch[W_NS + s * 3] = b0
    scratch[W_NS + s * 3 + 1] = b1
    scratch[W_NS + s * 3 + 2] = b2


@njit(cache=True, _nrt=False, inline="always")
def _r_at(d, k, t):
    """Scratch offset of the open-suits table entry (from level ``d``, ``k`` runs, ``t``
    jokers)."""
    return W_R + (d * 5 + k) * (TMAX + 1) + t


@njit(cache=True, _nrt=False)
def _run_table(scratch, r):
    """``R[d, k, t]``: least naturals for ``k`` runs of distinct suits among the levels
    ``d..3`` (suit ``perm[level]``) with at most ``t`` jokers, the groups ignored. Filled for
    ``k <= r`` (the contract's runs) and ``t <= 2k`` only, all that is read: no node wants
    more runs than the contract, and a run takes at most two jokers, so more allowed jokers
    change nothing (``R[d, k, t] = R[d, k, 2k]``)."""
    # one body per contract's runs: constant loop bounds, which the compiler unrolls
    if r <= 1:
        _run_table_upto(scratch, 1)
    elif r == 2:
        _run_table_upto(scratch, 2)
    elif r == 3:
        _run_table_upto(scratch, 3)
    else:
        _run_table_upto(scratch, 4)


@njit(cache=True, _nrt=False, inline="always")
def _run_table_upto(scratch, kmax):
    """:func:`_run_table` for ``k <= kmax``."""
    for k in range(kmax + 1):
        for t in range(2 * k + 1):
            scratch[_r_at(4, k, t)] = 0 if k == 0 else NO_WAY
    for d in range(3, -1, -1):
        s = scratch[W_PERM + d]
        for k in range(kmax + 1):
            for t in range(2 * k + 1):
                v = scratch[_r_at(d + 1, k, t)]
                if k > 0:
                    for u in range(min(t, 2) + 1):
                        a = scratch[W_NS + s * 3 + u]
                        b = scratch[_r_at(d + 1, k - 1, min(t - u, 2 * k - 2))]
                        if a < NO_WAY and b < NO_WAY and a + b < v:
                            v = a + b
                scratch[_r_at(d, k, t)] = v


@njit(cache=True, _nrt=False, inline="always")
def _bound(nadd, jok, d, k, g, jokers, aj, scratch, go):
    """Least cost of a node: ``nadd`` naturals and ``jok`` jokers in its runs, ``k`` runs still
    wanted from the levels ``d..3`` at their cheapest (``R``), the groups from ``G`` at ``go``,
    the jokers shared (a joker beyond the hand's costs one card, at most ``aj`` of them).

    One body per contract's groups, 1-3 (the mixed contracts'): with the loop over the groups'
    jokers of constant length, which the compiler unrolls (the search asks it at
    every node)."""
    if g == 1:
        return _bound_of(nadd, jok, d, k, 1, jokers, aj, scratch, go)
    if g == 2:
        return _bound_of(nadd, jok, d, k, 2, jokers, aj, scratch, go)
    if g == 3:
        return _bound_of(nadd, jok, d, k, 3, jokers, aj, scratch, go)
    return _bound_of(nadd, jok, d, k, g, jokers, aj, scratch, go)


@njit(cache=True, _nrt=False, inline="always")
def _bound_of(nadd, jok, d, k, g, jokers, aj, scratch, go):
    """:func:`_bound`'s body."""
    if k > 4 - d:
        return NO_WAY
    best = NO_WAY
    for t in range(min(2 * k, TMAX) + 1):
        rc = scratch[_r_at(d, k, t)]
        if rc >= NO_WAY:
            continue
        for m in range(g + 1):
            gc = scratch[go + m]
            if gc >= NO_WAY:
                continue
            extra = jok + t + m - jokers
            if extra < 0:
                extra = 0
            if extra > aj:
                continue
            v = nadd + rc + gc + extra
            if v < best:
                best = v
    return best


@njit(cache=True, _nrt=False)
def _relevant(g, r, w, jokers, aj, limit, scratch):
    """Rank mask of the ranks that may hold a group in a contract costing at most ``limit``.

    A contract with a group at rank ``k`` costs at least the cheapest runs, that group and
    ``g - 1`` groups at their cheapest from the whole hand (``k`` possibly among them), the
    jokers shared (``G`` for ``g - 1`` groups at ``W_G1``): :func:`group_at_bound`, whose
    part that is not the rank's is worked out once here.
    """
    k_runs = r if w == 1 else 0
    b0, b1 = _rest_of_group_at(g, k_runs, jokers, aj, scratch)
    rel = 0
    for k in range(1, 14):
        if _group_at(k, b0, b1, scratch) <= limit:
            rel |= 1 << k
    return rel


@njit(cache=True, _nrt=False, inline="always")
def _group_at(k, b0, b1, scratch):
    """:func:`group_at_bound` of rank ``k`` from the rest of the contract
    (:func:`_rest_of_group_at`): the rank's own group of 3 naturals or of 2 and a joker."""
    c0, c1 = group_options(scratch[W_H + k], scratch[W_A + k])
    v = NO_WAY
    if c1 < NO_WAY:
        if c0 < NO_WAY and b0 < NO_WAY:
            v = c0 + b0
        if b1 < NO_WAY:
            v = min(v, c1 + b1)
    return v


@njit(cache=True, _nrt=False, inline="always")
def _rest_of_group_at(g, k_runs, jokers, aj, scratch):
    """What :func:`group_at_bound` adds to the rank's own group, for a group of 3 naturals
    and for one of 2 naturals and a joker: ``(b0, b1)`` (``NO_WAY`` where none)."""
    b0 = NO_WAY
    b1 = NO_WAY
    for t in range(min(2 * k_runs, TMAX) + 1):
        rc = scratch[_r_at(0, k_runs, t)]
        if rc >= NO_WAY:
            continue
        for m in range(g):
            gc = scratch[W_G1 + m]
            if gc >= NO_WAY:
                continue
            e0 = max(0, t + m - jokers)
            if e0 <= aj:
                b0 = min(b0, rc + gc + e0)
            e1 = max(0, t + m + 1 - jokers)
            if e1 <= aj:
                b1 = min(b1, rc + gc + e1)
    return b0, b1


@njit(cache=True, _nrt=False, inline="always")
def group_at_bound(k, g, k_runs, jokers, aj, scratch):
    """Least cost of a contract with a group at rank ``k`` (R3): ``k_runs`` runs at their
    cheapest (``R`` of the root), that group and ``g - 1`` groups at their cheapest from the
    whole hand (``G`` at ``W_G1``), the jokers shared; ``NO_WAY`` if the rank cannot hold
    one."""
    b0, b1 = _rest_of_group_at(g, k_runs, jokers, aj, scratch)
    return _group_at(k, b0, b1, scratch)
