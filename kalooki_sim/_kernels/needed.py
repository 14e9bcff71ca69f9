"""Cards needed to lay a contract (issue 8): the Kalooki counterpart of Mahjong's shanten.

Problem
-------
A hand ``counts[suit, rank]`` plus ``jokers``, a contract of ``g`` groups and ``r`` runs, and
the copies the pack can still supply ``avail[code]`` (codes of :mod:`kalooki_sim.cards`, 52 =
joker). Find the least number of cards to add so that the hand can lay the contract (R3-R5,
R7); the hand may keep cards it does not use.

Method
------
* Minimal melds suffice (cards can only be kept, never forced into a meld): a run of 5+ cards
  holds a valid 4-card run (any 4 consecutive positions keep R4), and a group of 4+ cards holds a
  valid 3-card group with 2 naturals (R3). So runs are 4-card windows ``lo..lo+3`` with one of
  the 8 joker masks without adjacent jokers, groups are 3 cards. Under V6 a complete suit (13
  cards, any joker mask) may stand for the three runs.
* Each run option costs its natural slots the hand lacks (``N_NADD``, each needs a copy left in
  the pack) and its jokers (``N_JOK``). Options are listed per suit (:func:`_list_options`) and
  sorted by the slots they leave uncovered.
* Given the runs, the groups are a small DP over ranks (:func:`_group_cost`): per rank the
  naturals the runs left (``H``) and the copies still addable (``A``); a group of 3 naturals
  adds ``max(0, 3 - H)``, a group of 2 naturals and a joker adds ``max(0, 2 - H)`` plus the
  joker when the hand's jokers are used up. Exactly ``g`` ranks are chosen (R5).
* The suits are searched with nested loops (branch and bound): a lower bound (the cheapest
  runs of the suits still open and the cheapest groups of the whole hand, sharing jokers) cuts
  the tree. Iterative deepening: searches capped at the root bound, then one and two above it,
  each stopping at its first hit; then one uncapped search.

Workspace layout
----------------
``opts[4, CAPACITY, N_COLS]`` (int64): run options per suit, columns ``N_*``.
``scratch[SCRATCH]`` (int64): offsets ``W_*`` below (per-rank ``H``/``A``, group DP, bounds).
Nothing is allocated in the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .solver import pos_rank

#: returned when no number of addable cards lays the contract
NO_WAY = 1 << 40
JOKER = 52
# columns of a run option
N_LO, N_HI, N_JMASK, N_NMASK, N_NADD, N_JOK, N_W, N_KEY = range(8)
N_COLS = 8
NKEYS = 14 * 14 + 14
#: options per suit: 11 windows x 8 masks, plus 2 x 610 complete-suit masks (V6)
CAPACITY = 11 * 8 + 2 * 610 + 8
# scratch offsets
TMAX = 8  # jokers the bound tracks for the runs still open (2 per 4-card window)
W_H, W_A, W_NOPT, W_CHOICE = 0, 14, 28, 32
W_DP = 36  # group DP, (g + 1) x (g + 1), g <= 13
W_C0 = W_DP + 196
W_C1 = W_C0 + 14
W_G = W_C1 + 14  # root group cost by group jokers m = 0..g
W_GN = W_G + 14  # the same after the runs chosen so far (a node's bound)
W_NS = W_GN + 14  # [4 suits, 3]: least naturals to add for a run with <= t jokers
W_R = W_NS + 12  # [5, 5, TMAX + 1]: least naturals for k runs from suits d..3 with <= t jokers
W_ORDER = W_R + 5 * 5 * (TMAX + 1)  # [4, CAPACITY]: options of each suit, cheapest first
W_CNT = W_ORDER + 4 * CAPACITY  # [NKEYS + 1] counting-sort buckets
SCRATCH = W_CNT + NKEYS + 1
# joker masks of a 4-card window with no two jokers adjacent (R4)
WINDOW_MASKS = (0, 1, 2, 4, 8, 5, 9, 10)


@njit(cache=True)
def _popcount(x):
    """Set bits of a non-negative int."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _add_option(opts_s, n, counts, avail, s, lo, hi, jmask, w, max_jok, free_held):
    """Append the run ``lo..hi`` of suit ``s`` with jokers at ``jmask``; return the new count.

    Skipped (count unchanged) when a missing natural has no copy left or it needs more jokers
    than the hand and the pack hold together.
    """
    t = _popcount(jmask)
    if free_held == 0:
        for p in range(lo, hi + 1):
            if (jmask >> p) & 1 and counts[s, pos_rank(p)] > 0:
                return n  # a joker over a held natural pays only by freeing it for a group
    if t > max_jok:
        return n
    nadd = 0
    nmask = 0
    for p in range(lo, hi + 1):
        if (jmask >> p) & 1:
            continue
        k = pos_rank(p)
        nmask |= 1 << p
        if counts[s, k] == 0:
            if avail[s * 13 + k - 1] == 0:
                return n
            nadd += 1
    opts_s[n, N_LO] = lo
    opts_s[n, N_HI] = hi
    opts_s[n, N_JMASK] = jmask
    opts_s[n, N_NMASK] = nmask
    opts_s[n, N_NADD] = nadd
    opts_s[n, N_JOK] = t
    opts_s[n, N_W] = w
    opts_s[n, N_KEY] = (nadd + t) * 14 + nadd  # < NKEYS
    return n + 1


@njit(cache=True)
def _list_options(counts, avail, s, jokers, g, complete, opts_s):
    """Every useful run option of suit ``s`` into ``opts_s``; return the count.

    4-card windows with any of the 8 joker masks (a joker over a held natural frees it for a
    group, so only when ``g > 0``). With ``complete`` (V6 and ``r == 3``) also 13-card runs
    with weight 3.
    """
    max_jok = jokers + avail[JOKER]
    n = 0
    for lo in range(1, 12):
        for m in WINDOW_MASKS:
            n = _add_option(opts_s, n, counts, avail, s, lo, lo + 3, m << lo, 1, max_jok, g)
    if complete:
        for lo in range(1, 3):
            held = 0
            for p in range(lo, lo + 13):
                if counts[s, pos_rank(p)] > 0:
                    held |= 1 << p
            for m in range(1 << 13):
                if m & (m >> 1):
                    continue
                jm = m << lo
                if g == 0 and jm & held:
                    continue
                n = _add_option(opts_s, n, counts, avail, s, lo, lo + 12, jm, 3, max_jok, g)
    return n


@njit(cache=True)
def _rank_supply(counts, avail, opts, choice, upto, scratch):
    """Per rank: naturals the runs chosen in suits ``< upto`` leave in hand (``H``) and copies
    still addable (``A``).

    A run slot takes a held copy when there is one, else an added copy (already paid for).
    """
    for k in range(1, 14):
        h = 0
        a = 0
        for s in range(4):
            h += counts[s, k]
            a += avail[s * 13 + k - 1]
        scratch[W_H + k] = h
        scratch[W_A + k] = a
    for s in range(upto):
        i = choice[s]
        if i < 0:
            continue
        nm = opts[s, i, N_NMASK]
        for p in range(opts[s, i, N_LO], opts[s, i, N_HI] + 1):
            if (nm >> p) & 1:
                k = pos_rank(p)
                if counts[s, k] > 0:
                    scratch[W_H + k] -= 1
                else:
                    scratch[W_A + k] -= 1


@njit(cache=True)
def _group_cost(g, free_jok, avail_jok, scratch):
    """Least cards to add for ``g`` groups of distinct ranks (R3, R5), or NO_WAY.

    Per rank (from ``H``, ``A`` in scratch) ``c0`` adds for 3 naturals and ``c1`` for 2
    naturals beside a joker. A DP over ranks keeps, per (groups chosen, jokers used), the least
    naturals added; a joker beyond the ``free_jok`` the runs left costs one card, at most
    ``avail_jok`` of them.
    """
    if g == 0:
        return 0
    _group_table(g, scratch)
    side = g + 1
    best = NO_WAY
    for m in range(g + 1):
        cur = scratch[W_DP + g * side + m]
        extra = max(0, m - free_jok)
        if cur < NO_WAY and extra <= avail_jok:
            best = min(best, cur + extra)
    return best


@njit(cache=True)
def _group_table(g, scratch):
    """The group DP: ``dp[c, m]`` (at ``W_DP``, side ``g + 1``) least naturals to add for ``c``
    groups of distinct ranks with ``m`` jokers, from ``H``, ``A`` in scratch (R3, R5)."""
    c0 = scratch[W_C0:W_C0 + 14]
    c1 = scratch[W_C1:W_C1 + 14]
    for k in range(1, 14):
        h = scratch[W_H + k]
        a = scratch[W_A + k]
        need0 = max(0, 3 - h)
        need1 = max(0, 2 - h)
        c0[k] = need0 if need0 <= a else NO_WAY
        c1[k] = need1 if need1 <= a else NO_WAY
    side = g + 1
    dp = scratch[W_DP:W_DP + side * side]
    for i in range(side * side):
        dp[i] = NO_WAY
    dp[0] = 0
    for k in range(1, 14):
        for c in range(g - 1, -1, -1):
            for m in range(c, -1, -1):
                cur = dp[c * side + m]
                if cur >= NO_WAY:
                    continue
                if c0[k] < NO_WAY:
                    d = (c + 1) * side + m
                    dp[d] = min(dp[d], cur + c0[k])
                if c1[k] < NO_WAY:
                    d = (c + 1) * side + m + 1
                    dp[d] = min(dp[d], cur + c1[k])


@njit(cache=True)
def _leaf(counts, jokers, g, avail, opts, choice, nadd, jok, scratch):
    """Total cards to add for the chosen runs (``choice``) plus the best groups, or NO_WAY."""
    run_extra = max(0, jok - jokers)
    if run_extra > avail[JOKER]:
        return NO_WAY
    _rank_supply(counts, avail, opts, choice, 4, scratch)
    gc = _group_cost(g, max(0, jokers - jok), avail[JOKER] - run_extra, scratch)
    if gc >= NO_WAY:
        return NO_WAY
    return nadd + run_extra + gc


@njit(cache=True)
def _root_groups(counts, avail, g, scratch):
    """``G[m]`` (at ``W_G``): least naturals to add for ``g`` groups using ``m`` jokers, from the
    whole hand (runs only take naturals away, so this bounds every leaf)."""
    for k in range(1, 14):
        h = 0
        a = 0
        for s in range(4):
            h += counts[s, k]
            a += avail[s * 13 + k - 1]
        scratch[W_H + k] = h
        scratch[W_A + k] = a
    _group_table(g, scratch)
    side = g + 1
    for m in range(g + 1):
        scratch[W_G + m] = scratch[W_DP + g * side + m] if g > 0 else 0


@njit(cache=True)
def _order(opts_s, n, order_s, cnt):
    """Indices of the ``n`` options in ``order_s``, cheapest key first (counting sort)."""
    for i in range(NKEYS + 1):
        cnt[i] = 0
    for i in range(n):
        cnt[opts_s[i, N_KEY] + 1] += 1
    for i in range(1, NKEYS + 1):
        cnt[i] += cnt[i - 1]
    for i in range(n):
        key = opts_s[i, N_KEY]
        order_s[cnt[key]] = i
        cnt[key] += 1


@njit(cache=True)
def _r_at(d, k, t):
    """Scratch offset of the open-suits table entry (from suit ``d``, ``k`` runs, ``t`` jokers)."""
    return W_R + (d * 5 + k) * (TMAX + 1) + t


@njit(cache=True)
def _run_tables(opts, nopt, scratch):
    """Relaxed run costs for the bound: per suit, then for ``k`` runs from suits ``d..3``.

    ``NS[s, t]``: least naturals to add for a 4-card run of suit ``s`` with at most ``t``
    jokers (t = 0..2); ``R[d, k, t]``: least over ``k`` distinct suits of ``d..3`` with at most
    ``t`` jokers in all, the groups ignored (they only take naturals away).
    """
    for s in range(4):
        for t in range(3):
            scratch[W_NS + s * 3 + t] = NO_WAY
        for i in range(nopt[s]):
            if opts[s, i, N_W] != 1:
                continue
            for t in range(opts[s, i, N_JOK], 3):
                o = W_NS + s * 3 + t
                scratch[o] = min(scratch[o], opts[s, i, N_NADD])
    for k in range(5):
        for t in range(TMAX + 1):
            scratch[_r_at(4, k, t)] = 0 if k == 0 else NO_WAY
    for d in range(3, -1, -1):
        for k in range(5):
            for t in range(TMAX + 1):
                v = scratch[_r_at(d + 1, k, t)]
                if k > 0:
                    for u in range(min(t, 2) + 1):
                        a = scratch[W_NS + d * 3 + u]
                        b = scratch[_r_at(d + 1, k - 1, t - u)]
                        if a < NO_WAY and b < NO_WAY:
                            v = min(v, a + b)
                scratch[_r_at(d, k, t)] = v


@njit(cache=True)
def _bound(st, d, r, g, w, jokers, avail_jok, scratch, goff=W_G):
    """Lower bound on every leaf below a node: runs so far ``st``, suits ``d..3`` still open.

    The relaxation: the runs still missing at their cheapest (``R``), the groups at their
    cheapest from the whole hand (``G``), the jokers shared, a joker beyond the hand's costing
    one card. No run bound under V6 (``w == 3``). ``goff``: the group costs to use, ``W_G``
    (from the whole hand) or ``W_GN`` (after the runs chosen so far, :func:`_node_groups`).
    """
    nadd, unc, jok, runs = st
    k = max(0, r - runs) if w == 1 else 0
    if k > 4 - d:
        return NO_WAY
    best = NO_WAY
    for t in range(min(2 * k, TMAX) + 1):
        rc = scratch[_r_at(d, k, t)]
        if rc >= NO_WAY:
            continue
        for m in range(g + 1):
            gc = scratch[goff + m]
            extra = max(0, jok + t + m - jokers)
            if gc >= NO_WAY or extra > avail_jok:
                continue
            best = min(best, nadd + rc + gc + extra)
    return best


@njit(cache=True)
def _search(counts, jokers, g, r, complete, avail, opts, nopt, choice, scratch, root, limit):
    """Branch and bound over the run option of each suit (-1 = no run).

    Returns the least cost if it is at most ``limit``, stopping at the first leaf that costs at
    most ``limit`` or reaches the ``root`` bound; a value above ``limit`` otherwise.
    """
    w = 3 if complete else 1
    aj = avail[JOKER]
    order = scratch[W_ORDER:W_ORDER + 4 * CAPACITY]
    best = limit + 1
    for i0 in range(-1, nopt[0]):
        c0 = _state(opts, 0, _pick(order, 0, i0), 0, 0, 0, 0)
        if c0[3] + _runs_left(nopt, 1, w) < r:
            continue
        if _bound(c0, 1, r, g, w, jokers, aj, scratch) >= best:
            continue
        choice[0] = _pick(order, 0, i0)
        if not _tight(c0, 1, r, g, w, jokers, aj, best, counts, avail, opts, choice,
                      scratch):
            continue
        for i1 in range(-1, nopt[1]):
            if c0[3] >= r and i1 >= 0:
                break
            c1 = _state(opts, 1, _pick(order, 1, i1), c0[0], c0[1], c0[2], c0[3])
            if c1[3] + _runs_left(nopt, 2, w) < r:
                continue
            if _bound(c1, 2, r, g, w, jokers, aj, scratch) >= best:
                continue
            choice[1] = _pick(order, 1, i1)
            if not _tight(c1, 2, r, g, w, jokers, aj, best, counts, avail, opts, choice,
                          scratch):
                continue
            for i2 in range(-1, nopt[2]):
                if c1[3] >= r and i2 >= 0:
                    break
                c2 = _state(opts, 2, _pick(order, 2, i2), c1[0], c1[1], c1[2], c1[3])
                if c2[3] + _runs_left(nopt, 3, w) < r:
                    continue
                if _bound(c2, 3, r, g, w, jokers, aj, scratch) >= best:
                    continue
                choice[2] = _pick(order, 2, i2)
                if not _tight(c2, 3, r, g, w, jokers, aj, best, counts, avail, opts, choice,
                              scratch):
                    continue
                for i3 in range(-1, nopt[3]):
                    if c2[3] >= r and i3 >= 0:
                        break
                    c3 = _state(opts, 3, _pick(order, 3, i3), c2[0], c2[1], c2[2], c2[3])
                    if c3[3] < r:
                        continue
                    if _bound(c3, 4, r, g, w, jokers, aj, scratch) >= best:
                        continue
                    choice[3] = _pick(order, 3, i3)
                    v = _leaf(counts, jokers, g, avail, opts, choice, c3[0], c3[2], scratch)
                    if v < best:
                        best = v
                        if best <= root or best <= limit:
                            return best
    return best


@njit(cache=True)
def _node_groups(counts, avail, opts, choice, d, g, scratch):
    """``W_GN[m]``: the group costs of :func:`_root_groups` after the runs of suits ``< d``."""
    _rank_supply(counts, avail, opts, choice, d, scratch)
    _group_table(g, scratch)
    side = g + 1
    for m in range(g + 1):
        scratch[W_GN + m] = scratch[W_DP + g * side + m]


@njit(cache=True)
def _tight(st, d, r, g, w, jokers, aj, best, counts, avail, opts, choice, scratch):
    """True if the node's bound, with the groups recomputed after the runs of suits ``< d``
    (runs only take naturals away), still beats ``best``. Skipped (True) when no groups are
    wanted or the node's own suit has no run (its parent's check stands)."""
    if g == 0 or choice[d - 1] < 0:
        return True
    _node_groups(counts, avail, opts, choice, d, g, scratch)
    return _bound(st, d, r, g, w, jokers, aj, scratch, W_GN) < best


@njit(cache=True)
def _pick(order, s, i):
    """The ``i``-th cheapest option of suit ``s`` (-1 stays -1: no run)."""
    return -1 if i < 0 else order[s * CAPACITY + i]


@njit(cache=True)
def _state(opts, s, i, nadd, unc, jok, runs):
    """Running (naturals to add, uncovered slots, jokers, runs) after option ``i`` of suit ``s``."""
    if i < 0:
        return nadd, unc, jok, runs
    o = opts[s, i]
    return (nadd + o[N_NADD], unc + o[N_NADD] + o[N_JOK], jok + o[N_JOK], runs + o[N_W])


@njit(cache=True)
def _runs_left(nopt, s, w):
    """Runs the suits ``s..3`` could still add (``w`` = 3 per suit under V6, else 1)."""
    n = 0
    for t in range(s, 4):
        if nopt[t] > 0:
            n += w
    return n


@njit(cache=True)
def needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch):
    """Least number of cards to add so the hand can lay ``g`` groups and ``r`` runs.

    Parameters
    ----------
    counts : int64[4, 14]
        Naturals in hand, ``counts[s, k]`` for ranks 1-13 (column 0 unused).
    jokers : int
        Jokers in hand.
    g, r : int
        The contract (R7): at least ``g`` groups (R3) and ``r`` runs (R4), R5 distinct.
    v6 : bool
        V6: a complete 13-card run stands for the three runs when ``r == 3``.
    avail : int64[53]
        Copies the pack can still supply per code (52 = joker).
    opts : int64[4, CAPACITY, N_COLS]
        Workspace for run options.
    scratch : int64[SCRATCH]
        Workspace (offsets ``W_*``).

    Returns
    -------
    int
        The number of cards, 0 exactly when the hand can open; ``NO_WAY`` if no addable cards
        lay the contract. Writes ``opts`` and ``scratch``.
    """
    nopt = scratch[W_NOPT:W_NOPT + 4]
    choice = scratch[W_CHOICE:W_CHOICE + 4]
    complete = v6 and r == 3
    for s in range(4):
        nopt[s] = _list_options(counts, avail, s, jokers, g, complete, opts[s]) if r > 0 else 0
        choice[s] = -1
        _order(opts[s], nopt[s], scratch[W_ORDER + s * CAPACITY:W_ORDER + (s + 1) * CAPACITY],
               scratch[W_CNT:W_CNT + NKEYS + 1])
    _run_tables(opts, nopt, scratch)
    _root_groups(counts, avail, g, scratch)
    w = 3 if complete else 1
    root = _bound((0, 0, 0, 0), 0, r, g, w, jokers, avail[JOKER], scratch)
    if root >= NO_WAY:
        return NO_WAY
    # iterative deepening: the answer is nearly always the root bound or one or two above it,
    # and a search capped there prunes far more than one that starts from no incumbent
    for limit in range(root, root + 3):
        v = _search(counts, jokers, g, r, complete, avail, opts, nopt, choice, scratch, root,
                    limit)
        if v <= limit:
            return v
    return _search(counts, jokers, g, r, complete, avail, opts, nopt, choice, scratch, root,
                   NO_WAY - 1)


@njit(cache=True)
def outs_kernel(counts, jokers, g, r, v6, avail, opts, scratch, out):
    """``out[code]`` = cards needed after adding one ``code`` (addable ones), else -1.

    Returns the cards needed before. ``counts``, ``avail`` are restored on return; writes
    ``out``, ``opts``, ``scratch``.
    """
    before = needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch)
    for c in range(53):
        out[c] = -1
        if avail[c] <= 0:
            continue
        avail[c] -= 1
        if c == JOKER:
            out[c] = needed_kernel(counts, jokers + 1, g, r, v6, avail, opts, scratch)
        else:
            counts[c // 13, c % 13 + 1] += 1
            out[c] = needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch)
            counts[c // 13, c % 13 + 1] -= 1
        avail[c] += 1
    return before


def new_workspace():
    """Preallocated workspaces for :func:`needed_kernel`: ``(opts, scratch)``."""
    return np.zeros((4, CAPACITY, N_COLS), np.int64), np.zeros(SCRATCH, np.int64)
