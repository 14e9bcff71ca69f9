"""Cards needed to lay a contract: the Kalooki counterpart of Mahjong's shanten.

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
* Given the runs, the groups are a small DP over ranks: per rank the naturals the runs left
  (``h``) and the copies still addable (``a``); a group of 3 naturals adds ``max(0, 3 - h)``,
  a group of 2 naturals and a joker adds ``max(0, 2 - h)`` plus the joker when the hand's
  jokers are used up. Exactly ``g`` ranks are chosen (R5). The search asks its answer in
  closed form (:func:`.groups.group_costs`); the DP is its twin in the tests.
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
  runs of the open suits and its groups, the jokers shared. Taking naturals only raises the
  group costs, so a child is first bounded with its parent's group costs and the group DP is
  run only for the children that pass.

Workspace layout
----------------
``opts[4, OPT_ROWS, N_COLS]`` (int64): run options per suit, columns ``N_*``, cheapest first,
from row ``W_OBASE`` of the suit (kept listings have rows of their own).
``scratch[SCRATCH]`` (int64): offsets ``W_*`` of :mod:`.workspace`. Nothing is allocated in
the search. The run options of a suit are listed by :mod:`.listing`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bounds import (  # noqa: F401  (NK.* of the other kernels)
    ALL_POSITIONS,
    _bound,
    _bound_of,
    _cheapest_runs,
    _cheapest_runs_masks,
    _cheapest_runs_of,
    _group_at,
    _r_at,
    _relevant,
    _rest_of_group_at,
    _run_table,
    _run_table_upto,
    _suit_masks,
    group_at_bound,
    suit_runs,
    window_minima,
)
from .groups import group_costs, group_costs_pair, groups_alone
from .listing import _list_suit
from .windows import _WINDOW_N, NO_WAY
from .workspace import (
    COMPLETE,
    GMAX,
    JOKER,
    N_COLS,
    N_FPA,
    N_FPH,
    N_JOK,
    N_KA,
    N_KH,
    N_NADD,
    N_W,
    OPT_ROWS,
    ROOT_RUNS,
    RUNS_MEMO,
    SCRATCH,
    TMAX,
    W_A,
    W_G0,
    W_G1,
    W_GI,
    W_GL,
    W_H,
    W_IDX,
    W_LAZY,
    W_LB,
    W_LEAF,
    W_MASKS,
    W_NOPT,
    W_NS,
    W_PERM,
    W_ROOT_RUNS,
    W_RUNS_MEMO,
    W_SKEY,
    W_ST,
    WINDOWS,
    W_a,
    W_h,
    _memo_slot,
    _memo_store,
    _opt_row,
    _popcount,
    _ranks_of,
)
from .workspace import RANKS13 as RANKS13  # the rank bits: read by the tests
from .workspace import W_PLANS as W_PLANS  # the seats' plans: read by .reading


@njit(cache=True, _nrt=False, inline="always")
def _apply(opts, s, i, sign, scratch):
    """Take (sign -1) or give back (+1) the relevant naturals option ``i`` of suit ``s`` uses."""
    i = _opt_row(scratch, s, i)
    _add_ranks(scratch, W_h, opts[s, i, N_KH], sign)
    _add_ranks(scratch, W_a, opts[s, i, N_KA], sign)


@njit(cache=True, _nrt=False, inline="always")
def _add_ranks(scratch, base, mask, sign):
    """``scratch[base + k] += sign`` for every rank bit ``k`` of ``mask``."""
    while mask:
        low = mask & -mask
        scratch[base + _popcount(low - 1)] += sign
        mask ^= low


@njit(cache=True, _nrt=False, inline="always")
def _listed_levels(nopt, perm, scratch):
    """Bit ``e`` set: the suit of search level ``e`` has options (could add a run). A suit
    not listed yet has some exactly when it has a window at all: its cheapest run with the
    jokers to be had (``NS``) is finite (a window listed with jokers over held naturals has
    its twin with those naturals, so no window is lost to the listing's rules)."""
    listed = 0
    for e in range(4):
        s = perm[e]
        n = nopt[s]
        if n > 0 or (n < 0 and scratch[W_NS + s * 3 + 2] < NO_WAY):
            listed |= 1 << e
    return listed


@njit(cache=True, _nrt=False, inline="always")
def _ensure_listed(opts, nopt, s, scratch):
    """List suit ``s``'s window options (:func:`.listing._list_suit`) if this deepening has not
    yet (``nopt[s] < 0``), with its relevant ranks and jokers (``W_LAZY``), pruned
    (a search that fails at its first levels never lists the suits of the later ones)."""
    if nopt[s] < 0:
        nopt[s] = _list_suit(s, scratch[W_LAZY + 2], scratch[W_LAZY], scratch[W_LAZY + 1],
                             WINDOWS, opts[s], scratch)


@njit(cache=True, _nrt=False, inline="always")
def _lazy_rank(s, rel_h, rel_a, scratch):
    """Search order key of suit ``s`` before it is listed (:func:`_suit_rank`'s stand-in):
    the suits touching no relevant rank last, else by the joker masks their windows through
    a relevant rank may take (about the options they will list). Only the search's work
    depends on the order, never its count."""
    held = scratch[W_MASKS + 2 * s]
    add = scratch[W_MASKS + 2 * s + 1]
    touch = (rel_h & _ranks_of(held)) | (rel_a & _ranks_of(add))
    mj = min(scratch[W_LAZY + 2], 2)
    n = 0
    for lo in range(1, 12):
        if _ranks_of(15 << lo) & touch:
            n += _WINDOW_N[mj, (held >> lo) & 15, (add >> lo) & 15]
    return n + (1 << 20 if n == 0 else 0)


@njit(cache=True, _nrt=False)
def _search(opts, g, r, w, jokers, aj, rel, limit, stop, scratch):
    """Depth-first search over the suits (level ``d`` = suit ``perm[d]``), each taking one of
    its options or none (index -1). Returns the least leaf cost found that is at most
    ``limit`` (stopping at the first one at most ``stop``), else ``NO_WAY``."""
    nopt = scratch[W_NOPT:W_NOPT + 4]
    perm = scratch[W_PERM:W_PERM + 4]
    idx = scratch[W_IDX:W_IDX + 5]
    st = scratch[W_ST:W_ST + 15]
    gi = scratch[W_GI:W_GI + 5]
    # per level: the last option's shape, its bound with the level's group costs, and
    # whether its naturals are taken
    lkey = scratch[W_LB:W_LB + 5]
    lpb = scratch[W_LB + 5:W_LB + 10]
    taken = scratch[W_LB + 10:W_LB + 15]
    for k in range(1, 14):
        scratch[W_h + k] = scratch[W_H + k]
        scratch[W_a + k] = scratch[W_A + k]
    group_costs(g, rel, W_h, W_a, scratch[W_GL:W_GL + GMAX], scratch)
    _ensure_listed(opts, nopt, perm[0], scratch)
    listed = _listed_levels(nopt, perm, scratch)
    gi[0] = 0
    st[0] = 0
    st[1] = 0
    st[2] = 0
    lkey[0] = -1
    taken[0] = 0
    # runs the levels d..3 could still add
    best = NO_WAY
    bound_lim = limit
    d = 0
    idx[0] = -2
    while d >= 0:
        s = perm[d]
        i = idx[d]
        if taken[d]:
            _apply(opts, s, i, 1, scratch)
            taken[d] = 0
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
            row = _opt_row(scratch, s, i)
            na = opts[s, row, N_NADD]
            t = opts[s, row, N_JOK]
            wi = opts[s, row, N_W]
            nadd += na
            jok += t
            runs += wi
            k = max(0, r - runs) if w == 1 else 0
            if d == 3 and runs < r:
                continue
            # the bound with the level's group costs depends on the option's naturals, jokers
            # and width alone (taking naturals only raises the group costs, so it bounds the
            # options that take some too): options come cheapest first, alike in runs
            key = (na * 64 + t) * 8 + wi
            if key != lkey[d]:
                lkey[d] = key
                lpb[d] = _bound(nadd, jok, d + 1, k, g, jokers, aj, scratch,
                                W_GL + level_g * GMAX)
            b = lpb[d]
            if b > bound_lim:
                continue
            if opts[s, row, N_KH] | opts[s, row, N_KA]:
                _apply(opts, s, i, -1, scratch)
                taken[d] = 1
                level_g = d + 1
                go = W_GL + level_g * GMAX
                group_costs(g, rel, W_h, W_a, scratch[go:go + GMAX], scratch)
                b = _bound(nadd, jok, d + 1, k, g, jokers, aj, scratch, go)
        else:
            left = w * _popcount(listed >> (d + 1))  # runs the later levels could add
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
                if w == 1:
                    _keep_leaf(opts, d, scratch)
                if b <= stop:
                    break
            continue
        d += 1
        _ensure_listed(opts, nopt, perm[d], scratch)
        idx[d] = -2
        st[d * 3] = nadd
        st[d * 3 + 1] = jok
        st[d * 3 + 2] = runs
        gi[d] = level_g
        lkey[d] = -1
        taken[d] = 0
    # give back what the open levels still hold
    while d >= 0:
        if taken[d]:
            _apply(opts, perm[d], idx[d], 1, scratch)
            taken[d] = 0
        d -= 1
    return best


@njit(cache=True, _nrt=False)
def _keep_leaf(opts, d, scratch):
    """Record the runs of a leaf at level ``d`` at ``W_LEAF``: per suit its held and added
    ranks and jokers (held ranks -1: no run), then 1 ("set"). A later check may try this plan
    first (:func:`.plus.plan_cost`)."""
    for s in range(4):
        scratch[W_LEAF + 4 * s] = -1
    for e in range(d + 1):
        s = scratch[W_PERM + e]
        i = scratch[W_IDX + e]
        if i >= 0:
            i = _opt_row(scratch, s, i)
            scratch[W_LEAF + 4 * s] = opts[s, i, N_FPH]
            scratch[W_LEAF + 4 * s + 1] = opts[s, i, N_FPA]
            scratch[W_LEAF + 4 * s + 2] = opts[s, i, N_JOK]
    scratch[W_LEAF + 16] = 1


@njit(cache=True, _nrt=False)
def needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch):
    """Least number of cards to add so the hand can lay ``g`` groups and ``r`` runs.

    :func:`needed_upto` with no cap; the parameters and return value are described there.
    """
    return needed_upto(counts, jokers, g, r, v6, avail, opts, scratch, NO_WAY)


@njit(cache=True, _nrt=False)
def needed_upto(counts, jokers, g, r, v6, avail, opts, scratch, cap, floor=0):
    """Least number of cards to add so the hand can lay ``g`` groups and ``r`` runs, when it
    is at most ``cap``; else some number above ``cap`` (a lower bound of the answer).

    Most questions a player asks are "does this card cut the count?" or "does this discard
    keep it?": the answer is below a known number. The iterative deepening below proves
    every level it fails, so it can stop at the first level above ``cap`` instead of
    searching on to the answer.

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
    opts : int64[4, OPT_ROWS, N_COLS]
        Workspace for run options.
    scratch : int64[SCRATCH]
        Workspace (offsets ``W_*``).
    cap : int
        Stop once the answer is known to exceed ``cap`` (``NO_WAY`` for the exact answer).
    floor : int
        A number the answer is known not to be below: the deepening starts there (a card
        on or off moves a known count by at most one, so a keep or cut check searches one
        level). A wrong floor gives a wrong answer.

    Returns
    -------
    int
        The number of cards when it is at most ``cap`` (0 exactly when the hand can open;
        ``NO_WAY`` if no addable cards lay the contract and ``cap`` is ``NO_WAY``); otherwise
        a number above ``cap`` and at most the answer. Writes ``opts`` and ``scratch``.
    """
    if floor > cap:
        return floor
    if not (v6 and r == 3):
        return _upto(counts, jokers, g, r, WINDOWS, avail, opts, scratch, cap, floor)
    # V6: the least of three runs of windows and of one complete suit, each searched alone.
    # A complete suit needs every position its suit lacks, so most hands never search it.
    n0 = _upto(counts, jokers, g, r, WINDOWS, avail, opts, scratch, cap, floor)
    lbc = _complete_bound(counts, jokers)
    if lbc > min(n0, cap):
        return n0 if n0 <= cap else min(n0, lbc)
    cap2 = min(cap, n0 - 1)
    nc = _upto(counts, jokers, g, r, COMPLETE, avail, opts, scratch, cap2, floor)
    if nc <= cap2:
        return nc
    return n0 if n0 <= cap else min(n0, nc)


@njit(cache=True, _nrt=False)
def _complete_bound(counts, jokers):
    """A lower bound of the cards V6's complete suit needs: the fewest positions any suit
    lacks, in either place of the ace, less the jokers held."""
    best = 13
    for s in range(4):
        for lo in range(1, 3):
            miss = 0
            for p in range(lo, lo + 13):
                if counts[s, 1 if p == 14 else p] == 0:
                    miss += 1
            best = min(best, miss)
    return max(0, best - jokers)


@njit(cache=True, _nrt=False)
def _upto(counts, jokers, g, r, mode, avail, opts, scratch, cap, floor):
    """:func:`needed_upto` with runs of one kind: 4-card windows (``mode`` :data:`WINDOWS`) or
    V6's complete suit standing for the three (:data:`COMPLETE`, ``r == 3``)."""
    complete = mode == COMPLETE
    w = 3 if complete else 1
    aj = avail[JOKER]
    _hand_tables(counts, jokers, r, avail, scratch)
    if g == 0 and not complete:
        return _runs_count(r, jokers, aj, scratch)  # the bound is exact: runs share jokers
    root = _root(g, r, w, jokers, aj, scratch)
    if root >= NO_WAY:
        return NO_WAY
    if complete:
        root = max(root, _complete_bound(counts, jokers))
    if r == 0 or (g == 0 and not complete):
        return root  # the bound is exact: no runs, or runs sharing only the jokers
    if root > cap:
        return root
    return _deepen(jokers, g, r, mode, avail, opts, scratch, cap, root, floor)


@njit(cache=True, _nrt=False, inline="always")
def _ns_key(scratch):
    """The suits' cheapest runs (``NS``, at most 4 naturals each, or ``NO_WAY`` as 7) as one
    36-bit key: what the memos of :func:`_runs_count` and :func:`_root_runs` are keyed by."""
    key = 0
    for i in range(12):
        v = scratch[W_NS + i]
        key = key * 8 + (7 if v >= NO_WAY else min(v, 6))
    return key


@njit(cache=True, _nrt=False)
def _runs_count(r, jokers, aj, scratch):
    """The count of an all-run contract (no groups, not V6's complete suit): the root bound,
    a function of the suits' cheapest runs (``NS``) and the jokers alone, so remembered by
    them (the seats ask it after every card that dies, and it seldom moves). Jokers
    held or addable beyond ``TMAX`` change nothing (four runs take at most eight)."""
    key = ((_ns_key(scratch) * 16 + min(jokers, TMAX)) * 16 + min(aj, TMAX)) * 8 + r
    o, hit = _memo_slot(scratch, W_RUNS_MEMO, RUNS_MEMO, key)
    if hit:
        return scratch[o + 1]
    v = _root(0, r, 1, jokers, aj, scratch)
    _memo_store(scratch, o, key, v)
    return v


@njit(cache=True, _nrt=False)
def _deepen(jokers, g, r, mode, avail, opts, scratch, cap, root, floor):
    """The iterative deepening of :func:`_upto` from its root bound ``root`` (at most
    ``cap``) or the answer's known ``floor``, with the hand's tables (:func:`_hand_tables`,
    :func:`_root`) in ``scratch``."""
    complete = mode == COMPLETE
    w = 3 if complete else 1
    aj = avail[JOKER]
    maxj = jokers + aj
    nopt = scratch[W_NOPT:W_NOPT + 4]
    perm = scratch[W_PERM:W_PERM + 4]
    rel_prev = -1
    limit = max(root, floor)
    while True:
        if limit > cap:
            return limit  # every level below failed
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
            # suits touching relevant ranks first, fewest options first; windows are listed
            # as the search reaches their suit, complete suits (V6) all at once
            scratch[W_LAZY] = rel_h
            scratch[W_LAZY + 1] = rel_a
            scratch[W_LAZY + 2] = maxj
            for s in range(4):
                perm[s] = s
                if complete:
                    nopt[s] = _list_suit(s, maxj, rel_h, rel_a, mode, opts[s], scratch)
                    scratch[W_SKEY + s] = _suit_rank(opts, nopt, s, _opt_row(scratch, s, 0))
                else:
                    nopt[s] = -1
                    scratch[W_SKEY + s] = _lazy_rank(s, rel_h, rel_a, scratch)
            for a_ in range(4):
                for b_ in range(a_ + 1, 4):
                    sa = perm[a_]
                    sb = perm[b_]
                    if scratch[W_SKEY + sb] < scratch[W_SKEY + sa]:
                        perm[a_] = sb
                        perm[b_] = sa
            _run_table(scratch, r)
            rel_prev = rel
        if last:
            return _search(opts, g, r, w, jokers, aj, rel, NO_WAY - 1, limit, scratch)
        v = _search(opts, g, r, w, jokers, aj, rel, limit, limit, scratch)
        if v <= limit:
            return v
        limit += 1


@njit(cache=True, _nrt=False, inline="always")
def rank_totals(counts, avail, ho, ao, scratch):
    """Per rank 1-13 the naturals held, at ``scratch[ho + k]``, and the copies addable, at
    ``scratch[ao + k]`` (all suits)."""
    for k in range(1, 14):
        scratch[ho + k], scratch[ao + k] = rank_total(counts, avail, k)


@njit(cache=True, _nrt=False, inline="always")
def rank_total(counts, avail, k):
    """Rank ``k``'s naturals held and copies addable, all suits: ``(h, a)``."""
    h = 0
    a = 0
    for s in range(4):
        h += counts[s, k]
        a += avail[s * 13 + k - 1]
    return h, a


@njit(cache=True, _nrt=False, inline="always")
def _hand_tables(counts, jokers, r, avail, scratch):
    """Per rank the naturals held (``H``) and addable (``A``), and per suit the cheapest runs
    (``NS``; none wanted when ``r == 0``): what the root bound is built from."""
    rank_totals(counts, avail, W_H, W_A, scratch)
    if r > 0:
        _cheapest_runs(counts, avail, jokers + avail[JOKER], scratch)
    else:
        for i in range(12):
            scratch[W_NS + i] = NO_WAY


@njit(cache=True, _nrt=False)
def _root(g, r, w, jokers, aj, scratch):
    """The root bound of :func:`needed_upto` from ``H``, ``A`` and ``NS`` in ``scratch``;
    leaves the run row ``R[0]`` (of ``r`` runs, and of none), the group costs ``G0`` and
    ``G1`` for the search (which builds the rest of the run table in its own suit order)."""
    scratch[_r_at(0, 0, 0)] = 0  # all the bound asks of no runs: none wanted
    if r == 0:
        if g > 0:
            return groups_alone(g, jokers, aj, W_H, W_A, scratch)
        for t in range(TMAX + 1):
            scratch[_r_at(0, 0, t)] = 0
    else:
        _root_runs(r, scratch)
    if g > 0:
        # the group DP's answers for g and g - 1 groups, in closed form
        group_costs_pair(g, W_H, W_A, scratch[W_G0:W_G0 + GMAX], scratch[W_G1:W_G1 + GMAX],
                         scratch)
    else:
        scratch[W_G0] = 0
    return _bound(0, 0, 0, r if w == 1 else 0, g, jokers, aj, scratch, W_G0)


@njit(cache=True, _nrt=False)
def _root_runs(r, scratch):
    """The run row ``R[0, r, t]`` (``t <= 2r``) of :func:`_run_table`, all that the root
    bound and the ranks' relevance read: a function of the suits' cheapest runs (``NS``, at
    most 4 each) and ``r`` alone, so remembered by them (the one-card moves of a
    decision leave most suits' cheapest runs as they were)."""
    key = _ns_key(scratch) * 8 + r
    o, hit = _memo_slot(scratch, W_ROOT_RUNS, ROOT_RUNS, key)
    if hit:
        v = scratch[o + 1]
        for t in range(2 * r + 1):
            f = (v >> (5 * t)) & 31
            scratch[_r_at(0, r, t)] = NO_WAY if f == 31 else f
        return
    for s in range(4):
        scratch[W_PERM + s] = s
    _run_table(scratch, r)
    v = 0
    for t in range(2 * r + 1):
        x = scratch[_r_at(0, r, t)]
        v |= (31 if x >= NO_WAY else x) << (5 * t)
    _memo_store(scratch, o, key, v)


@njit(cache=True, _nrt=False)
def _suit_rank(opts, nopt, s, row):
    """Search order key of suit ``s``: the suits whose options all leave the groups alone
    (one key) last, else by their number of options."""
    free = True
    for i in range(row, row + nopt[s]):
        if opts[s, i, N_KH] | opts[s, i, N_KA]:
            free = False
            break
    return nopt[s] + (1 << 20 if free else 0)


def new_workspace():
    """Preallocated workspaces for :func:`needed_kernel`: ``(opts, scratch)``."""
    return np.zeros((4, OPT_ROWS, N_COLS), np.int64), np.zeros(SCRATCH, np.int64)
