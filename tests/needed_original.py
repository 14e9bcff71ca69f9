"""Frozen copy of the cards-needed kernel (kalooki_sim/engine/_kernels/needed.py) before its
speed-up: the tests compare the two.

Cards needed to lay a contract: the Kalooki counterpart of Mahjong's shanten.

Problem
-------
A hand ``counts[suit, rank]`` plus ``jokers``, a contract of ``g`` groups and ``r`` runs, and
the copies the pack can still supply ``avail[code]`` (codes of :mod:`kalooki_sim.game.cards`, 52 =
joker). Find the least number of cards to add so that the hand can lay the contract (R3-R5,
R7); the hand may keep cards it does not use.

Method
------
* Minimal melds suffice (cards can only be kept, never forced into a meld): a run of 5+ cards
  holds a valid 4-card run (any 4 consecutive positions keep R4), and a group of 4+ cards holds a
  valid 3-card group with 2 naturals (R3). So runs are 4-card windows ``lo..lo+3`` with one of
  the 8 joker masks without adjacent jokers, groups are 3 cards. Under V6 a complete suit (13
  cards, any joker mask) may stand for the three runs.
* A run option costs its natural slots the hand lacks (``N_NADD``, each needs a copy left in
  the pack) and its jokers (``N_JOK``); it takes held naturals (rank mask ``N_FPH``) and
  addable copies (``N_FPA``) away from the groups.
* Given the runs, the groups are a small DP over ranks (:func:`_groups`): per rank the
  naturals the runs left (``h``) and the copies still addable (``a``); a group of 3 naturals
  adds ``max(0, 3 - h)``, a group of 2 naturals and a joker adds ``max(0, 2 - h)`` plus the
  joker when the hand's jokers are used up. Exactly ``g`` ranks are chosen (R5).
* With no groups (or no runs) the lower bound below is exact: the suits (or ranks) are
  independent but for the jokers they share.
* Otherwise iterative deepening on the answer ``L`` from the root bound. For a given ``L``
  only *relevant* ranks may hold groups: a rank whose cheapest contract using it (runs at their
  cheapest, the other groups at their cheapest) exceeds ``L`` is in no answer ``<= L``. The runs
  then matter to the groups only through relevant ranks, so per suit the options are reduced
  to the non-dominated ones (fewer added naturals, fewer jokers, a subset of the relevant
  ranks touched), and a joker over a held natural of an irrelevant rank is never useful.
  A depth-first search over the suits (the suits touching relevant ranks first) keeps ``h``,
  ``a`` and the group costs per level incrementally; a node's bound is its runs, the cheapest
  runs of the open suits and its groups, the jokers shared.

Workspace layout
----------------
``opts[4, CAPACITY, N_COLS]`` (int64): run options per suit, columns ``N_*``, cheapest first.
``scratch[SCRATCH]`` (int64): offsets ``W_*`` below. Nothing is allocated in the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: returned when no number of addable cards lays the contract
NO_WAY = 1 << 40
JOKER = 52
# columns of a run option
N_NADD, N_JOK, N_W, N_FPH, N_FPA, N_KH, N_KA, N_KEY = range(8)
N_COLS = 8
SKEYS = 7 * 3  # sort keys of window options: (added + jokers) * 3 + jokers
#: options per suit: 11 windows x 8 masks, plus 2 x 610 complete-suit masks (V6)
CAPACITY = 11 * 8 + 2 * 610 + 8
TMAX = 8  # jokers the bound tracks for the runs still open (2 per 4-card window)
GMAX = 14  # groups tracked (g <= 13)
# scratch offsets
W_H, W_A = 0, 14  # per rank, whole hand
W_h, W_a = 28, 42  # per rank, after the runs chosen so far
W_C0, W_C1 = 56, 70  # per rank group costs
W_NOPT, W_PERM = 84, 88
W_NS = 92  # [4 suits, 3]: least naturals to add for a run of the suit with <= t jokers
W_R = W_NS + 12  # [5, 5, TMAX + 1]: least naturals for k runs from open suits d..3, <= t jokers
W_DP = W_R + 5 * 5 * (TMAX + 1)  # group DP (g + 1) x (g + 1)
W_G0 = W_DP + GMAX * GMAX  # root group costs by jokers, all ranks
W_G1 = W_G0 + GMAX  # the same for g - 1 groups
W_GL = W_G1 + GMAX  # [5 levels, GMAX]: group costs after the runs of the first levels
W_IDX = W_GL + 5 * GMAX  # search stack: option index per level
W_ST = W_IDX + 5  # [5, 3]: (naturals added, jokers, runs) per level
W_GI = W_ST + 15  # level whose group costs stand for this level
W_CNT = W_GI + 5  # counting-sort buckets
W_TMP = W_CNT + SKEYS + 1  # candidate options before sorting, [CAPACITY, N_COLS]
SCRATCH = W_TMP + CAPACITY * N_COLS
# joker masks of a 4-card window with no two jokers adjacent (R4), and their joker counts
WINDOW_MASKS = (0, 1, 2, 4, 8, 5, 9, 10)
WINDOW_JOK = (0, 1, 1, 1, 1, 2, 2, 2)
RANKS13 = 0x3FFE  # rank bits 1..13


@njit(cache=True, inline="always")
def _popcount(x):
    """Set bits of a non-negative int."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _ranks_of(pos):
    """Position mask (bits 1..14) to rank mask (bits 1..13): position 14 is the ace."""
    return (pos & RANKS13) | ((pos >> 13) & 2)


@njit(cache=True)
def _suit_masks(counts, avail, s):
    """Position masks of suit ``s``: held naturals and missing-but-addable naturals."""
    held = 0
    add = 0
    for p in range(1, 15):
        k = 1 if p == 14 else p
        if counts[s, k] > 0:
            held |= 1 << p
        elif avail[s * 13 + k - 1] > 0:
            add |= 1 << p
    return held, add


@njit(cache=True)
def _cheapest_runs(counts, avail, maxj, scratch):
    """``NS[s, t]``: least naturals to add for a 4-card run of suit ``s`` with <= t jokers."""
    for s in range(4):
        held, add = _suit_masks(counts, avail, s)
        for t in range(3):
            scratch[W_NS + s * 3 + t] = NO_WAY
        for lo in range(1, 12):
            w = 15 << lo
            for i in range(8):
                t = WINDOW_JOK[i]
                if t > maxj:
                    continue
                jm = WINDOW_MASKS[i] << lo
                if jm & held:
                    continue
                miss = w & ~jm & ~held
                if miss & ~add:
                    continue
                n = _popcount(miss)
                for u in range(t, 3):
                    o = W_NS + s * 3 + u
                    if n < scratch[o]:
                        scratch[o] = n


@njit(cache=True)
def _r_at(d, k, t):
    """Scratch offset of the open-suits table entry (from level ``d``, ``k`` runs, ``t``
    jokers)."""
    return W_R + (d * 5 + k) * (TMAX + 1) + t


@njit(cache=True)
def _run_table(scratch):
    """``R[d, k, t]``: least naturals for ``k`` runs of distinct suits among the levels
    ``d..3`` (suit ``perm[level]``) with at most ``t`` jokers, the groups ignored."""
    for k in range(5):
        for t in range(TMAX + 1):
            scratch[_r_at(4, k, t)] = 0 if k == 0 else NO_WAY
    for d in range(3, -1, -1):
        s = scratch[W_PERM + d]
        for k in range(5):
            for t in range(TMAX + 1):
                v = scratch[_r_at(d + 1, k, t)]
                if k > 0:
                    for u in range(min(t, 2) + 1):
                        a = scratch[W_NS + s * 3 + u]
                        b = scratch[_r_at(d + 1, k - 1, t - u)]
                        if a < NO_WAY and b < NO_WAY and a + b < v:
                            v = a + b
                scratch[_r_at(d, k, t)] = v


@njit(cache=True)
def _groups(g, rel, ho, ao, out, scratch):
    """``out[m]`` (m = 0..g): least naturals to add for ``g`` groups of distinct ranks in the
    rank mask ``rel`` using ``m`` jokers, from ``h`` at ``ho`` and ``a`` at ``ao`` (R3, R5);
    the DP table is left at ``W_DP`` (side ``g + 1``)."""
    side = g + 1
    for i in range(side * side):
        scratch[W_DP + i] = NO_WAY
    scratch[W_DP] = 0
    seen = 0
    for k in range(1, 14):
        if not (rel >> k) & 1:
            continue
        h = scratch[ho + k]
        a = scratch[ao + k]
        need0 = max(0, 3 - h)
        need1 = max(0, 2 - h)
        c0 = need0 if need0 <= a else NO_WAY
        c1 = need1 if need1 <= a else NO_WAY
        if c1 >= NO_WAY:
            continue
        seen += 1
        top = min(seen, g)
        for c in range(top - 1, -1, -1):
            for m in range(c, -1, -1):
                cur = scratch[W_DP + c * side + m]
                if cur >= NO_WAY:
                    continue
                d0 = W_DP + (c + 1) * side + m
                if cur + c0 < scratch[d0]:
                    scratch[d0] = cur + c0
                if cur + c1 < scratch[d0 + 1]:
                    scratch[d0 + 1] = cur + c1
    for m in range(g + 1):
        out[m] = scratch[W_DP + g * side + m]


@njit(cache=True)
def _bound(nadd, jok, d, k, g, jokers, aj, scratch, go):
    """Least cost of a node: ``nadd`` naturals and ``jok`` jokers in its runs, ``k`` runs still
    wanted from the levels ``d..3`` at their cheapest (``R``), the groups from ``G`` at ``go``,
    the jokers shared (a joker beyond the hand's costs one card, at most ``aj`` of them)."""
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


@njit(cache=True)
def _relevant(g, r, w, jokers, aj, limit, scratch):
    """Rank mask of the ranks that may hold a group in a contract costing at most ``limit``.

    A contract with a group at rank ``k`` costs at least the cheapest runs, that group and
    ``g - 1`` groups at their cheapest from the whole hand (``k`` possibly among them), the
    jokers shared (``G`` for ``g - 1`` groups at ``W_G1``).
    """
    k_runs = r if w == 1 else 0
    rel = 0
    for k in range(1, 14):
        h = scratch[W_H + k]
        a = scratch[W_A + k]
        need0 = max(0, 3 - h)
        need1 = max(0, 2 - h)
        c0 = need0 if need0 <= a else NO_WAY
        c1 = need1 if need1 <= a else NO_WAY
        if c1 >= NO_WAY:
            continue
        best = NO_WAY
        for t in range(min(2 * k_runs, TMAX) + 1):
            rc = scratch[_r_at(0, k_runs, t)]
            if rc >= NO_WAY:
                continue
            for m in range(g):
                gc = scratch[W_G1 + m]
                if gc >= NO_WAY:
                    continue
                for ty in range(2):
                    cc = c0 if ty == 0 else c1
                    if cc >= NO_WAY:
                        continue
                    extra = max(0, t + m + ty - jokers)
                    if extra > aj:
                        continue
                    best = min(best, rc + gc + cc + extra)
        if best <= limit:
            rel |= 1 << k
    return rel


@njit(cache=True)
def _list_suit(counts, avail, s, maxj, rel_h, rel_a, complete, opts_s, scratch):
    """The useful run options of suit ``s`` into ``opts_s``, cheapest first; return the count.

    An option touching no relevant rank (``rel_h`` held, ``rel_a`` addable ranks the groups may
    miss) is kept only if no such option has fewer or as many added naturals and jokers; an
    option touching one is dropped if an option touching none is as cheap in both. A joker
    over a held natural is listed only when that rank is in ``rel_h``.
    """
    held, add = _suit_masks(counts, avail, s)
    # the cheapest option touching no relevant rank, per joker count (NO_WAY: none)
    z0 = NO_WAY
    z1 = NO_WAY
    z2 = NO_WAY
    zi0 = -1
    zi1 = -1
    zi2 = -1
    n = 0
    for lo in range(1, 12):
        w = 15 << lo
        for i in range(8):
            t = WINDOW_JOK[i]
            if t > maxj:
                continue
            jm = WINDOW_MASKS[i] << lo
            jh = jm & held
            if jh and _ranks_of(jh) & ~rel_h:
                continue
            nat = w & ~jm
            miss = nat & ~held
            if miss & ~add:
                continue
            na = _popcount(miss)
            fph = _ranks_of(nat & held)
            fpa = _ranks_of(miss)
            kh = fph & rel_h
            ka = fpa & rel_a
            if kh | ka == 0:
                if t == 0:
                    if na >= z0:
                        continue
                    z0 = na
                    if zi0 >= 0:
                        o = W_TMP + zi0 * N_COLS
                        scratch[o + N_NADD] = na
                        scratch[o + N_FPH] = fph
                        scratch[o + N_FPA] = fpa
                        scratch[o + N_KEY] = na * 3
                        continue
                    zi0 = n
                elif t == 1:
                    if na >= z1:
                        continue
                    z1 = na
                    if zi1 >= 0:
                        o = W_TMP + zi1 * N_COLS
                        scratch[o + N_NADD] = na
                        scratch[o + N_FPH] = fph
                        scratch[o + N_FPA] = fpa
                        scratch[o + N_KEY] = (na + 1) * 3 + 1
                        continue
                    zi1 = n
                else:
                    if na >= z2:
                        continue
                    z2 = na
                    if zi2 >= 0:
                        o = W_TMP + zi2 * N_COLS
                        scratch[o + N_NADD] = na
                        scratch[o + N_FPH] = fph
                        scratch[o + N_FPA] = fpa
                        scratch[o + N_KEY] = (na + 2) * 3 + 2
                        continue
                    zi2 = n
            o = W_TMP + n * N_COLS
            scratch[o + N_NADD] = na
            scratch[o + N_JOK] = t
            scratch[o + N_W] = 1
            scratch[o + N_FPH] = fph
            scratch[o + N_FPA] = fpa
            scratch[o + N_KH] = kh
            scratch[o + N_KA] = ka
            scratch[o + N_KEY] = (na + t) * 3 + t
            n += 1
    # drop what a free option beats (the free ones beat themselves only when worse)
    lt1 = z0  # best free option with fewer jokers than 1, 2
    lt2 = min(z0, z1)
    cnt = W_CNT
    for i in range(SKEYS + 1):
        scratch[cnt + i] = 0
    for i in range(n):
        o = W_TMP + i * N_COLS
        na = scratch[o + N_NADD]
        t = scratch[o + N_JOK]
        zlt = NO_WAY if t == 0 else (lt1 if t == 1 else lt2)
        if (scratch[o + N_KH] | scratch[o + N_KA]) != 0:
            zlt = min(zlt, z0 if t == 0 else (z1 if t == 1 else z2))
        if zlt <= na:
            scratch[o + N_KEY] = -1
            continue
        scratch[cnt + scratch[o + N_KEY] + 1] += 1
    for i in range(1, SKEYS + 1):
        scratch[cnt + i] += scratch[cnt + i - 1]
    kept = 0
    for i in range(n):
        o = W_TMP + i * N_COLS
        key = scratch[o + N_KEY]
        if key < 0:
            continue
        q = scratch[cnt + key]
        scratch[cnt + key] += 1
        for c in range(N_COLS):
            opts_s[q, c] = scratch[o + c]
        kept += 1
    if complete:
        for lo in range(1, 3):
            w = 0x1FFF << lo
            for m in range(1 << 13):
                if m & (m >> 1):
                    continue
                jm = m << lo
                t = _popcount(m)
                if t > maxj:
                    continue
                jh = jm & held
                if jh and _ranks_of(jh) & ~rel_h:
                    continue
                nat = w & ~jm
                miss = nat & ~held
                if miss & ~add:
                    continue
                na = _popcount(miss)
                fph = _ranks_of(nat & held)
                fpa = _ranks_of(miss)
                opts_s[kept, N_NADD] = na
                opts_s[kept, N_JOK] = t
                opts_s[kept, N_W] = 3
                opts_s[kept, N_FPH] = fph
                opts_s[kept, N_FPA] = fpa
                opts_s[kept, N_KH] = fph & rel_h
                opts_s[kept, N_KA] = fpa & rel_a
                opts_s[kept, N_KEY] = (na + t) * 14 + t
                kept += 1
    return kept


@njit(cache=True)
def _prune(opts_s, n):
    """Drop, in place, the options another one dominates: fewer or as many added naturals and
    jokers, and a subset of the relevant ranks touched (options sorted cheapest first, so a
    dominating one comes first unless both are alike). Return the new count."""
    kept = 0
    for q in range(n):
        na = opts_s[q, N_NADD]
        t = opts_s[q, N_JOK]
        kh = opts_s[q, N_KH]
        ka = opts_s[q, N_KA]
        w = opts_s[q, N_W]
        dominated = False
        for j in range(kept):
            if (opts_s[j, N_NADD] <= na and opts_s[j, N_JOK] <= t and opts_s[j, N_W] >= w
                    and (opts_s[j, N_KH] & ~kh) == 0 and (opts_s[j, N_KA] & ~ka) == 0):
                dominated = True
                break
        if dominated:
            continue
        if kept != q:
            for c in range(N_COLS):
                opts_s[kept, c] = opts_s[q, c]
        kept += 1
    return kept


@njit(cache=True)
def _apply(opts, s, i, sign, scratch):
    """Take (sign -1) or give back (+1) the relevant naturals option ``i`` of suit ``s`` uses."""
    kh = opts[s, i, N_KH]
    while kh:
        low = kh & -kh
        k = _popcount(low - 1)
        scratch[W_h + k] += sign
        kh ^= low
    ka = opts[s, i, N_KA]
    while ka:
        low = ka & -ka
        k = _popcount(low - 1)
        scratch[W_a + k] += sign
        ka ^= low


@njit(cache=True)
def _search(opts, g, r, w, jokers, aj, rel, limit, stop, scratch):
    """Depth-first search over the suits (level ``d`` = suit ``perm[d]``), each taking one of
    its options or none (index -1). Returns the least leaf cost found that is at most
    ``limit`` (stopping at the first one at most ``stop``), else ``NO_WAY``."""
    nopt = scratch[W_NOPT:W_NOPT + 4]
    perm = scratch[W_PERM:W_PERM + 4]
    idx = scratch[W_IDX:W_IDX + 5]
    st = scratch[W_ST:W_ST + 15]
    gi = scratch[W_GI:W_GI + 5]
    for k in range(1, 14):
        scratch[W_h + k] = scratch[W_H + k]
        scratch[W_a + k] = scratch[W_A + k]
    _groups(g, rel, W_h, W_a, scratch[W_GL:W_GL + GMAX], scratch)
    gi[0] = 0
    st[0] = 0
    st[1] = 0
    st[2] = 0
    # runs the levels d..3 could still add
    best = NO_WAY
    bound_lim = limit
    d = 0
    idx[0] = -2
    while d >= 0:
        s = perm[d]
        i = idx[d]
        if i >= 0 and opts[s, i, N_KH] | opts[s, i, N_KA]:
            _apply(opts, s, i, 1, scratch)
        i += 1
        idx[d] = i
        runs = st[d * 3 + 2]
        if i >= nopt[s] or (i >= 0 and runs >= r):
            d -= 1
            continue
        nadd = st[d * 3]
        jok = st[d * 3 + 1]
        level_g = gi[d]
        if i >= 0:
            nadd += opts[s, i, N_NADD]
            jok += opts[s, i, N_JOK]
            runs += opts[s, i, N_W]
            if opts[s, i, N_KH] | opts[s, i, N_KA]:
                _apply(opts, s, i, -1, scratch)
                level_g = d + 1
                go = W_GL + level_g * GMAX
                _groups(g, rel, W_h, W_a, scratch[go:go + GMAX], scratch)
        else:
            left = 0
            for e in range(d + 1, 4):
                if nopt[perm[e]] > 0:
                    left += w
            if runs + left < r:
                continue
        k = max(0, r - runs) if w == 1 else 0
        if d == 3 and runs < r:
            continue
        b = _bound(nadd, jok, d + 1, k, g, jokers, aj, scratch, W_GL + level_g * GMAX)
        if b > bound_lim:
            continue
        if d == 3 or runs >= r:
            # a leaf: the later suits take no run, the bound is the exact cost
            if b < best:
                best = b
                bound_lim = b - 1
                if b <= stop:
                    break
            continue
        d += 1
        idx[d] = -2
        st[d * 3] = nadd
        st[d * 3 + 1] = jok
        st[d * 3 + 2] = runs
        gi[d] = level_g
    # give back what the open levels still hold
    while d >= 0:
        s = perm[d]
        i = idx[d]
        if 0 <= i < nopt[s] and opts[s, i, N_KH] | opts[s, i, N_KA]:
            _apply(opts, s, i, 1, scratch)
        d -= 1
    return best


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
    complete = v6 and r == 3
    w = 3 if complete else 1
    aj = avail[JOKER]
    maxj = jokers + aj
    for k in range(1, 14):
        h = 0
        a = 0
        for s in range(4):
            h += counts[s, k]
            a += avail[s * 13 + k - 1]
        scratch[W_H + k] = h
        scratch[W_A + k] = a
    if r > 0:
        _cheapest_runs(counts, avail, maxj, scratch)
    else:
        for i in range(12):
            scratch[W_NS + i] = NO_WAY
    for s in range(4):
        scratch[W_PERM + s] = s
    _run_table(scratch)
    all_ranks = RANKS13
    if g > 0:
        _groups(g, all_ranks, W_H, W_A, scratch[W_G0:W_G0 + GMAX], scratch)
        for m in range(g):
            scratch[W_G1 + m] = scratch[W_DP + (g - 1) * (g + 1) + m]
    else:
        scratch[W_G0] = 0
    root = _bound(0, 0, 0, r if w == 1 else 0, g, jokers, aj, scratch, W_G0)
    if root >= NO_WAY:
        return NO_WAY
    if r == 0 or (g == 0 and not complete):
        return root  # the bound is exact: no runs, or runs sharing only the jokers
    nopt = scratch[W_NOPT:W_NOPT + 4]
    perm = scratch[W_PERM:W_PERM + 4]
    rel_prev = -1
    pruned = False
    limit = root
    while True:
        last = limit >= root + 4
        if g > 0:
            rel = _relevant(g, r, w, jokers, aj, NO_WAY - 1 if last else limit, scratch)
        else:
            rel = 0
        if rel != rel_prev:
            rel_h = 0
            rel_a = 0
            for k in range(1, 14):
                if not (rel >> k) & 1:
                    continue
                h = scratch[W_H + k]
                a = scratch[W_A + k]
                if h - r < 3:
                    rel_h |= 1 << k
                if a - r < 3 - max(0, h - r):
                    rel_a |= 1 << k
            for s in range(4):
                nopt[s] = _list_suit(counts, avail, s, maxj, rel_h, rel_a, complete, opts[s],
                                     scratch)
            # suits touching relevant ranks first, fewest options first
            for s in range(4):
                perm[s] = s
            for a_ in range(4):
                for b_ in range(a_ + 1, 4):
                    sa = perm[a_]
                    sb = perm[b_]
                    if _suit_rank(opts, nopt, sb) < _suit_rank(opts, nopt, sa):
                        perm[a_] = sb
                        perm[b_] = sa
            _run_table(scratch)
            rel_prev = rel
            pruned = False
        if limit > root and not pruned and not complete:
            for s in range(4):
                nopt[s] = _prune(opts[s], nopt[s])
            pruned = True
        if last:
            return _search(opts, g, r, w, jokers, aj, rel, NO_WAY - 1, limit, scratch)
        v = _search(opts, g, r, w, jokers, aj, rel, limit, limit, scratch)
        if v <= limit:
            return v
        limit += 1


@njit(cache=True)
def _suit_rank(opts, nopt, s):
    """Search order key of suit ``s``: the suits whose options all leave the groups alone
    (one key) last, else by their number of options."""
    free = True
    for i in range(nopt[s]):
        if opts[s, i, N_KH] | opts[s, i, N_KA]:
            free = False
            break
    return nopt[s] + (1 << 20 if free else 0)


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
