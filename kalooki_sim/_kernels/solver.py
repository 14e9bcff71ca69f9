"""The exact opening solver (R3-R5, R7) as a Numba kernel.

Problem
-------
Given a hand as counts ``counts[suit, rank]`` plus ``jokers``, and a contract of ``g`` groups
and ``r`` runs, choose own melds -- at most one group per rank and one run per suit (R5), at
least ``g`` groups and ``r`` runs (R7: the contract plus any further own melds) -- that lay down
the largest penalty value, i.e. leave the smallest penalty in hand. Ties go to the lay-down that
leaves fewer cards.

Method
------
* Runs: for each suit, every legal run (span ``lo..hi`` of positions 1-14, 4-13 long, never
  both 1 and 14, jokers where the hand lacks the natural, no two jokers adjacent) is listed
  once into a workspace. A joker may also stand where the hand *has* the natural, which frees
  that natural for a group of its rank; this is only listed when the hand holds another natural
  of that rank (otherwise the freed card could never be laid, so the listing would be dominated).
* Groups: once the runs are fixed the groups are forced. Every rank with >= 3 natural cards
  left is a group; a rank with exactly 2 left is a group if a joker completes it (R3), best
  pairs first; once any group is down every remaining joker is laid in one (R3 puts no cap on
  jokers beside two naturals).
* The four suits are searched with nested loops, pruned by the joker budget and by the number
  of runs still reachable. No allocation: every array is a caller-owned workspace.

The workspace layout is documented on :func:`solve_kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# columns of one listed run option
O_LO, O_HI, O_JMASK, O_NJOK, O_VALUE, O_NCARDS = 0, 1, 2, 3, 4, 5
OPT_COLS = 6
#: run options per suit that the default workspace can hold; the wrapper grows it if needed
DEFAULT_CAPACITY = 2048
SCRATCH = 54  # fixed part of the scratch workspace; the joker count is added to it
# objective = value * SCALE + cards laid: penalty first, then fewer leftover cards
SCALE = 256


@njit(cache=True)
def card_value(suit, rank):
    """R1 penalty of a natural card: black ace 15, red ace 1, 10-K 10, else face value."""
    if rank == 1:
        return 15 if (suit == 0 or suit == 3) else 1
    if rank >= 10:
        return 10
    return rank


@njit(cache=True)
def pos_rank(p):
    """Rank held at run position ``p`` (1-14); 14 is the ace played high (R4)."""
    return 1 if p == 14 else p


@njit(cache=True)
def _list_runs(counts, suit, jokers, rank_total, opts, cap, swp, comb):
    """List every legal run of ``suit`` into ``opts``; return the count, or -1 if over ``cap``.

    ``swp`` (>= 14) and ``comb`` (>= jokers) are scratch.
    """
    n = 0
    for lo in range(1, 12):
        hi_max = min(14, lo + 12)
        forced = 0
        fmask = 0
        fval = 0
        fcards = 0
        # grow the span one position at a time; forced jokers where the natural is missing
        for hi in range(lo, hi_max + 1):
            k = pos_rank(hi)
            if counts[suit, k] == 0:
                forced += 1
                fmask |= 1 << hi
                if (fmask >> (hi - 1)) & 1 and hi > lo:
                    break  # two forced jokers adjacent: every longer span fails too
                if forced > jokers:
                    break
            else:
                fval += card_value(suit, k)
                fcards += 1
            if hi - lo + 1 < 4:
                continue
            # positions whose natural may be freed for a group (hand has another of the rank)
            m = 0
            for p in range(lo, hi + 1):
                if not (fmask >> p) & 1:
                    kk = pos_rank(p)
                    if rank_total[kk] >= 2:
                        swp[m] = p
                        m += 1
            budget = jokers - forced
            top = min(budget, m)
            for size in range(0, top + 1):
                # combinations of `size` freed positions, in lexicographic order
                for i in range(size):
                    comb[i] = i
                while True:
                    jmask = fmask
                    val = fval
                    nc = fcards
                    for i in range(size):
                        p = swp[comb[i]]
                        jmask |= 1 << p
                        val -= card_value(suit, pos_rank(p))
                        nc -= 1
                    if (jmask & (jmask >> 1)) == 0:
                        if n >= cap:
                            return -1
                        nj = forced + size
                        opts[n, O_LO] = lo
                        opts[n, O_HI] = hi
                        opts[n, O_JMASK] = jmask
                        opts[n, O_NJOK] = nj
                        opts[n, O_VALUE] = val + 50 * nj
                        opts[n, O_NCARDS] = nc + nj
                        n += 1
                    # next combination
                    i = size - 1
                    while i >= 0 and comb[i] == m - size + i:
                        i -= 1
                    if i < 0:
                        break
                    comb[i] += 1
                    for j in range(i + 1, size):
                        comb[j] = comb[j - 1] + 1
    return n


@njit(cache=True)
def _has(nopt, suit):
    """1 if the suit has any run option, else 0 (an int: numpy bools would OR, not add)."""
    return 1 if nopt[suit] > 0 else 0


@njit(cache=True)
def _take(opts, suit, idx, complete_counts_three, nj, runs, value, cards):
    """Running (jokers, runs, value, cards) after choosing run option ``idx`` of ``suit``.

    ``idx = -1`` (no run) changes nothing; under V6 a 13-card run counts as three runs.
    """
    if idx < 0:
        return nj, runs, value, cards
    o = opts[suit, idx]
    w = 3 if (complete_counts_three and o[O_HI] - o[O_LO] == 12) else 1
    return nj + o[O_NJOK], runs + w, value + o[O_VALUE], cards + o[O_NCARDS]


@njit(cache=True)
def _apply(opts, idx, suit, sign, rem_n, rem_v):
    """Take (sign=-1) or give back (+1) the naturals that run option ``idx`` uses."""
    lo = opts[idx, O_LO]
    hi = opts[idx, O_HI]
    jm = opts[idx, O_JMASK]
    for p in range(lo, hi + 1):
        if not (jm >> p) & 1:
            k = pos_rank(p)
            rem_n[k] += sign
            rem_v[k] += sign * card_value(suit, k)


@njit(cache=True)
def _groups(rem_n, rem_v, jokers_left, g, ban_ranks, out_groups):
    """Best groups from what the runs left. Returns (value, cards, groups) or value -1.

    If ``out_groups`` has length 14 it receives, per rank, the jokers in that rank's group
    (-1 for no group); extra jokers go to the lowest-ranked group.
    """
    value = 0
    cards = 0
    ngroups = 0
    npairs = 0
    for k in range(1, 14):
        if (ban_ranks >> k) & 1:
            continue
        if rem_n[k] >= 3:
            value += rem_v[k]
            cards += rem_n[k]
            ngroups += 1
        elif rem_n[k] == 2:
            npairs += 1
    used_pairs = min(jokers_left, npairs)
    # the best `used_pairs` pairs by value: repeated max selection (at most a few jokers)
    taken = 0  # bitmask of ranks already taken
    for _ in range(used_pairs):
        best_k = -1
        best_v = -1
        for k in range(1, 14):
            if rem_n[k] == 2 and not ((taken | ban_ranks) >> k) & 1 and rem_v[k] > best_v:
                best_v = rem_v[k]
                best_k = k
        taken |= 1 << best_k
        value += best_v
        cards += 2
    ngroups += used_pairs
    if ngroups < g:
        return -1, 0, 0
    if ngroups > 0:
        value += 50 * jokers_left
        cards += jokers_left
    if out_groups.shape[0] == 14:
        extra = jokers_left - used_pairs
        for k in range(14):
            out_groups[k] = -1
        for k in range(1, 14):
            if (ban_ranks >> k) & 1:
                continue
            if rem_n[k] >= 3:
                out_groups[k] = 0
            elif (taken >> k) & 1:
                out_groups[k] = 1
        if ngroups > 0:
            for k in range(1, 14):
                if out_groups[k] >= 0:
                    out_groups[k] += extra
                    break
    return value, cards, ngroups


@njit(cache=True)
def solve_kernel(counts, jokers, g, r, v6, opts, scratch, out_runs, out_groups,
                 ban_ranks=0, ban_suits=0):
    """Best opening of a hand for the contract (g groups, r runs).

    Parameters
    ----------
    counts : int64[4, 14]
        ``counts[s, k]`` natural cards of suit ``s`` and rank ``k`` (1-13); column 0 unused.
    jokers : int
        Jokers in hand.
    g, r : int
        The contract: at least ``g`` groups and ``r`` runs.
    v6 : bool
        Rule V6: a complete 13-card run stands for three runs when ``r == 3``.
    opts : int64[4, cap, 6]
        Workspace for listed run options.
    scratch : int64[SCRATCH + jokers]
        Workspace (see :func:`new_workspace`).
    out_runs : int64[4, 3]
        Receives ``(lo, hi, joker mask)`` of the chosen run per suit; ``lo = 0`` for none.
        Bit ``p`` of the mask is set where a joker stands at position ``p``.
    out_groups : int64[14]
        Receives the jokers in each rank's group, -1 where that rank has no group. Every
        natural of a grouped rank not used by a run is in its group.

    ban_ranks, ban_suits : int
        Bit masks of ranks (bit k) and suits (bit s) the player already has a meld of (R5):
        used for the further melds of an opened player, with ``g = r = 0``.

    Returns
    -------
    (value, cards) : (int, int)
        Penalty laid down and cards laid down by the best opening, or ``(-1, 0)`` if the hand
        cannot lay the contract; ``(-2, 0)`` if ``opts`` was too small (grow it and retry).
    """
    cap = opts.shape[1]
    rem_n = scratch[0:14]
    rem_v = scratch[14:28]
    swp = scratch[28:42]
    nopt = scratch[42:46]
    best_i = scratch[46:50]
    comb = scratch[SCRATCH:]
    for k in range(14):
        rem_n[k] = 0
        rem_v[k] = 0
    for s in range(4):
        for k in range(1, 14):
            c = counts[s, k]
            rem_n[k] += c
            rem_v[k] += c * card_value(s, k)
    for s in range(4):
        if (ban_suits >> s) & 1:
            nopt[s] = 0
        else:
            n = _list_runs(counts, s, jokers, rem_n, opts[s], cap, swp, comb)
            if n < 0:
                return -2, 0
            nopt[s] = n
        best_i[s] = -1
    # quick refusals: not enough suits with a run, or ranks with a group, for the contract
    w3 = 3 if (v6 and r == 3) else 1
    suits_ok = 0
    for t in range(4):
        if nopt[t] > 0:
            suits_ok += w3
    n3 = 0
    n2 = 0
    for k in range(1, 14):
        if (ban_ranks >> k) & 1:
            continue
        if rem_n[k] >= 3:
            n3 += 1
        elif rem_n[k] == 2:
            n2 += 1
    if suits_ok < r or n3 + min(n2, jokers) < g:
        return -1, 0
    # upper bounds: per suit the best run value; the groups at most every natural of a rank
    # with a possible group, plus the jokers. `live` bounds the whole lay-down.
    m1 = 0
    m2 = 0
    m3 = 0
    for t in range(1, 4):
        mv = 0
        for i in range(nopt[t]):
            if opts[t, i, O_VALUE] > mv:
                mv = opts[t, i, O_VALUE]
        if t == 1:
            m1 = mv
        elif t == 2:
            m2 = mv
        else:
            m3 = mv
    gub = 50 * jokers
    for k in range(1, 14):
        if rem_n[k] >= 3 or (rem_n[k] == 2 and jokers > 0):
            gub += rem_v[k]
    live = gub
    for t in range(4):
        um = 0  # positions any run option of suit t uses a natural at
        for i in range(nopt[t]):
            span = ((1 << (opts[t, i, O_HI] + 1)) - 1) ^ ((1 << opts[t, i, O_LO]) - 1)
            um |= span & ~opts[t, i, O_JMASK]
        for k in range(1, 14):
            if counts[t, k] == 0:
                continue
            if rem_n[k] >= 3 or (rem_n[k] == 2 and jokers > 0):
                continue  # already counted in full
            if (um >> k) & 1 or (k == 1 and (um >> 14) & 1):
                live += card_value(t, k)
    suf1 = m1 + m2 + m3
    suf2 = m2 + m3
    suf3 = m3
    best = -1
    best_val = -1
    no_out = out_groups[:0]
    # nested search over suits, option -1 = no run in that suit, pruned by the joker budget,
    # the runs still reachable and the value bound; stops once every live card is laid
    for i0 in range(-1, nopt[0]):
        nj0, ru0, rv0, rc0 = _take(opts, 0, i0, v6 and r == 3, 0, 0, 0, 0)
        if nj0 > jokers or ru0 + suits_ok - w3 * _has(nopt, 0) < r:
            continue
        if rv0 + suf1 + gub < best_val:
            continue
        if i0 >= 0:
            _apply(opts[0], i0, 0, -1, rem_n, rem_v)
        for i1 in range(-1, nopt[1]):
            nj1, ru1, rv1, rc1 = _take(opts, 1, i1, v6 and r == 3, nj0, ru0, rv0, rc0)
            if nj1 > jokers or ru1 + w3 * (_has(nopt, 2) + _has(nopt, 3)) < r:
                continue
            if rv1 + suf2 + gub < best_val:
                continue
            if i1 >= 0:
                _apply(opts[1], i1, 1, -1, rem_n, rem_v)
            for i2 in range(-1, nopt[2]):
                nj2, ru2, rv2, rc2 = _take(opts, 2, i2, v6 and r == 3, nj1, ru1, rv1, rc1)
                if nj2 > jokers or ru2 + w3 * _has(nopt, 3) < r:
                    continue
                if rv2 + suf3 + gub < best_val:
                    continue
                if i2 >= 0:
                    _apply(opts[2], i2, 2, -1, rem_n, rem_v)
                for i3 in range(-1, nopt[3]):
                    nj, runs, rv, rc = _take(opts, 3, i3, v6 and r == 3, nj2, ru2, rv2, rc2)
                    if nj > jokers or runs < r or rv + gub < best_val:
                        continue
                    if i3 >= 0:
                        _apply(opts[3], i3, 3, -1, rem_n, rem_v)
                    gv, gc, ng = _groups(rem_n, rem_v, jokers - nj, g, ban_ranks, no_out)
                    if i3 >= 0:
                        _apply(opts[3], i3, 3, 1, rem_n, rem_v)
                    if gv < 0:
                        continue
                    obj = (rv + gv) * SCALE + rc + gc
                    if obj > best:
                        best = obj
                        best_val = rv + gv
                        best_i[0] = i0
                        best_i[1] = i1
                        best_i[2] = i2
                        best_i[3] = i3
                        if best_val >= live:
                            break
                if i2 >= 0:
                    _apply(opts[2], i2, 2, 1, rem_n, rem_v)
                if best_val >= live:
                    break
            if i1 >= 0:
                _apply(opts[1], i1, 1, 1, rem_n, rem_v)
            if best_val >= live:
                break
        if i0 >= 0:
            _apply(opts[0], i0, 0, 1, rem_n, rem_v)
        if best_val >= live:
            break
    if best < 0:
        return -1, 0
    # rebuild the winner's melds
    nj = 0
    for s in range(4):
        if best_i[s] >= 0:
            o = opts[s, best_i[s]]
            out_runs[s, 0] = o[O_LO]
            out_runs[s, 1] = o[O_HI]
            out_runs[s, 2] = o[O_JMASK]
            nj += o[O_NJOK]
            _apply(opts[s], best_i[s], s, -1, rem_n, rem_v)
        else:
            out_runs[s, 0] = 0
            out_runs[s, 1] = 0
            out_runs[s, 2] = 0
    _groups(rem_n, rem_v, jokers - nj, g, ban_ranks, out_groups)
    return best // SCALE, best % SCALE


def new_workspace(max_jokers, capacity=DEFAULT_CAPACITY):
    """Preallocated workspaces for :func:`solve_kernel`: ``(opts, scratch, runs, groups)``."""
    return (
        np.zeros((4, capacity, OPT_COLS), np.int64),
        np.zeros(SCRATCH + max(int(max_jokers), 1), np.int64),
        np.zeros((4, 3), np.int64),
        np.zeros(14, np.int64),
    )
