"""The exact opening solver (R3-R5, R7) as a Numba kernel.

Problem
-------
Given a hand as counts ``counts[suit, rank]`` plus ``jokers``, and a contract of ``g`` groups
and ``r`` runs, choose own melds -- at most one group per rank and one run per suit (R5), at
least ``g`` groups and ``r`` runs (R7: the contract plus any further own melds) -- that lay down
the largest penalty value, i.e. leave the smallest penalty in hand. Ties go to the lay-down that
leaves fewer cards. Any pack the rules allow: several copies of a card, up to 64 jokers.

Method
------
Three exchange facts cut the search without losing the optimum:

* E1. Once any group is laid, every joker left over goes into it (R3 caps no jokers beside two
  naturals): it lays 50 more.
* E2. A group takes every natural of its rank that no run uses.
* E3. With a group laid, a joker standing where the hand holds the natural ("freeing" it) only
  pays when that natural completes a group of its rank to exactly two naturals, with no natural
  of the rank left in hand (otherwise put the natural back and the joker in a group: as good or
  better). So a freed rank ``k`` has ``a_k >= 2`` naturals in hand and ``a_k - (suits holding
  k) <= 1``, and each freed position costs a second joker in its group: a run frees at most
  ``(jokers - forced jokers) // 2`` positions.

The search then has two parts, and the better result wins:

* Runs and groups (the main search). For each suit every legal run (span ``lo..hi`` of positions
  1-14, 4-13 long, never both 1 and 14, jokers where the hand lacks the natural, no two jokers
  adjacent), plus the freed positions E3 allows, is listed once into a workspace. Once the runs
  are fixed the groups are forced (:func:`_groups`, by E1 and E2). The four suits are searched
  with nested loops, pruned by the joker budget, the runs still reachable and a value bound.
* Runs only (``g == 0``). With no group, jokers are laid only in runs, and a joker may then
  stand over a held natural that stays in hand (``A♣ JK 3♣ JK`` keeps the 2♣ and lays both
  jokers). :func:`_runs_only` finds per suit the best run with exactly ``e`` jokers
  (:func:`_suit_table`, a DP along each span) and combines the suits by a knapsack on jokers.
  It only runs when a bound says it could beat the main search.

No allocation: every array is a caller-owned workspace, laid out as :func:`solve_kernel` says.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

# columns of one listed run option
O_LO, O_HI, O_JMASK, O_NJOK, O_VALUE, O_NCARDS = 0, 1, 2, 3, 4, 5
OPT_COLS = 6
#: the contract a search lays: groups, runs, whether V6's complete suit stands for three runs
Contract = namedtuple("Contract", ["groups", "runs", "v6"])
#: run options per suit that the default workspace can hold; the wrapper grows it if needed
DEFAULT_CAPACITY = 2048
#: status when ``opts`` is too small for the hand's run options (grow it and retry)
OVERFLOW = -2
#: status when the hand cannot lay the contract
NO_OPENING = -1
# objective = value * SCALE + cards laid (penalty first, then fewer left); above any 480 cards
SCALE = 4096
# runs-only part: jokers one run can hold (13 positions, none adjacent) and in four runs
RUN_JOKERS = 7
ALL_RUN_JOKERS = 4 * RUN_JOKERS
# scratch layout (int64 offsets); see solve_kernel
S_REM_N, S_REM_V, S_SWP, S_NOPT, S_BEST, S_COMB = 0, 14, 28, 42, 46, 50
S_DP = 64  # 4 blocks of 2 * (RUN_JOKERS + 2): dp value / mask, current and next
DP_W = 2 * (RUN_JOKERS + 2)
S_TAB = S_DP + 4 * DP_W  # [4 suits, 2 kinds, RUN_JOKERS + 1, 4 fields]
T_OBJ, T_LO, T_HI, T_MASK = 0, 1, 2, 3
S_KNAP = S_TAB + 4 * 2 * (RUN_JOKERS + 1) * 4  # [5 layers, ALL_RUN_JOKERS + 1, 5]
#: fixed length of the scratch workspace (older callers add the joker count; it is unused)
SCRATCH = S_KNAP + 5 * (ALL_RUN_JOKERS + 1) * 5


@njit(cache=True, _nrt=False)
def card_value(suit, rank):
    """R1 penalty of a natural card: black ace 15, red ace 1, 10-K 10, else face value."""
    if rank == 1:
        return 15 if (suit == 0 or suit == 3) else 1
    if rank >= 10:
        return 10
    return rank


@njit(cache=True, _nrt=False)
def pos_rank(p):
    """Rank held at run position ``p`` (1-14); 14 is the ace played high (R4)."""
    return 1 if p == 14 else p


@njit(cache=True, _nrt=False)
def _freeable_ranks(counts, rem_n, ban_ranks):
    """Bit mask of ranks whose natural a run's joker may free for a group (E3).

    ``rem_n[k]`` holds the hand's naturals of rank ``k``. A freed rank has 2+ naturals, at most
    one more than the suits holding it, and no group of it on the table yet (R5).
    """
    mask = 0
    for k in range(1, 14):
        if (ban_ranks >> k) & 1 or rem_n[k] < 2:
            continue
        hold = 0
        for s in range(4):
            if counts[s, k] > 0:
                hold += 1
        if rem_n[k] - hold <= 1:
            mask |= 1 << k
    return mask


@njit(cache=True, _nrt=False)
def _list_runs(counts, suit, jokers, free_mask, opts, cap, swp, comb):
    """List every useful legal run of ``suit`` into ``opts``; return the count, -2 if over ``cap``.

    Forced jokers stand where the hand lacks the natural; on top of them up to
    ``(jokers - forced) // 2`` jokers may stand over held naturals of the ranks in ``free_mask``
    (E3). ``swp`` (>= 14) and ``comb`` (>= 14) are scratch.
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
            # held positions a joker may free for a group (E3)
            m = 0
            for p in range(lo, hi + 1):
                if not (fmask >> p) & 1 and (free_mask >> pos_rank(p)) & 1:
                    swp[m] = p
                    m += 1
            top = min((jokers - forced) // 2, m)
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
                            return OVERFLOW
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


@njit(cache=True, _nrt=False)
def _has(nopt, suit):
    """1 if the suit has any run option, else 0 (an int: numpy bools would OR, not add)."""
    return 1 if nopt[suit] > 0 else 0


@njit(cache=True, _nrt=False)
def _take(opts, suit, idx, complete_counts_three, nj, runs, value, cards):
    """Running (jokers, runs, value, cards) after choosing run option ``idx`` of ``suit``.

    ``idx = -1`` (no run) changes nothing; under V6 a 13-card run counts as three runs.
    """
    if idx < 0:
        return nj, runs, value, cards
    o = opts[suit, idx]
    w = 3 if (complete_counts_three and o[O_HI] - o[O_LO] == 12) else 1
    return nj + o[O_NJOK], runs + w, value + o[O_VALUE], cards + o[O_NCARDS]


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _tab_at(s, kind, e):
    """Scratch offset of the runs-only table entry (suit ``s``, ``kind``, ``e`` jokers)."""
    return S_TAB + ((s * 2 + kind) * (RUN_JOKERS + 1) + e) * 4


@njit(cache=True, _nrt=False)
def _knap_at(layer, j, rc):
    """Scratch offset of the knapsack cell (suits done ``layer``, jokers ``j``, runs ``rc``)."""
    return S_KNAP + (layer * (ALL_RUN_JOKERS + 1) + j) * 5 + rc


@njit(cache=True, _nrt=False)
def _span_step(counts, s, p, first, em, scratch):
    """Extend the runs-only DP of one span by position ``p`` (R4); False if no state is left.

    Current states sit at ``S_DP`` (values) and ``S_DP + DP_W`` (joker masks), index
    ``2 * e + b``: ``e`` jokers so far, ``b`` = 1 if position ``p - 1`` holds a joker. A value
    of -1 marks an impossible state. A joker may stand anywhere (also over a held natural, which
    then stays in hand) but never beside another joker.
    """
    cur = S_DP
    nxt = S_DP + 2 * DP_W
    k = pos_rank(p)
    held = counts[s, k] > 0
    v = card_value(s, k)
    bit = 1 << p
    for i in range(DP_W):
        scratch[nxt + i] = -1
    if first:
        if held:
            scratch[nxt] = v
            scratch[nxt + DP_W] = 0
        if em >= 1:
            scratch[nxt + 3] = 50
            scratch[nxt + 3 + DP_W] = bit
    else:
        for e in range(em + 1):
            a = scratch[cur + 2 * e]
            b = scratch[cur + 2 * e + 1]
            if held and max(a, b) >= 0:
                src = cur + 2 * e + (0 if a >= b else 1)
                scratch[nxt + 2 * e] = scratch[src] + v
                scratch[nxt + 2 * e + DP_W] = scratch[src + DP_W]
            if a >= 0 and e < em:
                scratch[nxt + 2 * e + 3] = a + 50
                scratch[nxt + 2 * e + 3 + DP_W] = scratch[cur + 2 * e + DP_W] | bit
    alive = False
    for i in range(DP_W):
        scratch[cur + i] = scratch[nxt + i]
        scratch[cur + DP_W + i] = scratch[nxt + DP_W + i]
        if scratch[nxt + i] >= 0:
            alive = True
    return alive


@njit(cache=True, _nrt=False)
def _suit_table(counts, s, em, kind13, scratch):
    """Best run of suit ``s`` with exactly ``e`` jokers, for ``e = 0..em`` (runs-only part).

    Fills the table entries ``(objective, lo, hi, joker mask)`` at :func:`_tab_at`: kind 1
    holds 13-card runs when ``kind13`` (V6: they count as three runs), kind 0 every other run.
    Every span ``lo..hi`` (R4: 4-13 long, never both 1 and 14) is grown one position at a time.
    """
    for lo in range(1, 12):
        for hi in range(lo, min(14, lo + 12) + 1):
            if not _span_step(counts, s, hi, hi == lo, em, scratch):
                break
            length = hi - lo + 1
            if length < 4:
                continue
            kind = 1 if (kind13 and length == 13) else 0
            for e in range(em + 1):
                a = scratch[S_DP + 2 * e]
                b = scratch[S_DP + 2 * e + 1]
                if max(a, b) < 0:
                    continue
                src = S_DP + 2 * e + (0 if a >= b else 1)
                obj = scratch[src] * SCALE + length
                t = _tab_at(s, kind, e)
                if obj > scratch[t + T_OBJ]:
                    scratch[t + T_OBJ] = obj
                    scratch[t + T_LO] = lo
                    scratch[t + T_HI] = hi
                    scratch[t + T_MASK] = scratch[src + DP_W]


@njit(cache=True, _nrt=False)
def _runs_only(counts, jokers, r, v6, ban_suits, scratch):
    """Best objective of a lay-down of runs only (at least ``r``), or -1; tables in scratch.

    Per suit :func:`_suit_table`, then a knapsack over the suits on jokers used and runs laid
    (capped at ``r``; V6 13-card runs count three when ``r == 3``).
    """
    kind13 = v6 and r == 3
    em = min(jokers, RUN_JOKERS)
    jmax = min(jokers, ALL_RUN_JOKERS)
    for s in range(4):
        for kind in range(2):
            for e in range(RUN_JOKERS + 1):
                scratch[_tab_at(s, kind, e) + T_OBJ] = -1
        if not (ban_suits >> s) & 1:
            _suit_table(counts, s, em, kind13, scratch)
    for i in range(S_KNAP, SCRATCH):
        scratch[i] = -1
    scratch[_knap_at(0, 0, 0)] = 0
    for s in range(4):
        for j in range(jmax + 1):
            for rc in range(r + 1):
                base = scratch[_knap_at(s, j, rc)]
                if base < 0:
                    continue
                dst = _knap_at(s + 1, j, rc)
                scratch[dst] = max(scratch[dst], base)  # no run in suit s
                for kind in range(2):
                    rc2 = min(r, rc + (3 if kind == 1 else 1))
                    for e in range(min(em, jmax - j) + 1):
                        t = scratch[_tab_at(s, kind, e) + T_OBJ]
                        if t >= 0:
                            dst = _knap_at(s + 1, j + e, rc2)
                            scratch[dst] = max(scratch[dst], base + t)
    best = -1
    for j in range(jmax + 1):
        best = max(best, scratch[_knap_at(4, j, r)])
    return best


@njit(cache=True, _nrt=False)
def _runs_only_melds(jokers, r, best, scratch, out_runs):
    """Write the runs of the runs-only optimum ``best`` into ``out_runs`` (knapsack backtrack)."""
    jmax = min(jokers, ALL_RUN_JOKERS)
    j = 0
    for jj in range(jmax + 1):
        if scratch[_knap_at(4, jj, r)] == best:
            j = jj
            break
    rc = r
    for s in range(3, -1, -1):
        target = scratch[_knap_at(s + 1, j, rc)]
        out_runs[s, 0] = 0
        out_runs[s, 1] = 0
        out_runs[s, 2] = 0
        if scratch[_knap_at(s, j, rc)] == target:
            continue
        found = False
        for kind in range(2):
            w = 3 if kind == 1 else 1
            for e in range(min(j, RUN_JOKERS) + 1):
                t = _tab_at(s, kind, e)
                if scratch[t + T_OBJ] < 0:
                    continue
                for rc0 in range(r + 1):
                    if min(r, rc0 + w) == rc and \
                            scratch[_knap_at(s, j - e, rc0)] + scratch[t + T_OBJ] == target:
                        out_runs[s, 0] = scratch[t + T_LO]
                        out_runs[s, 1] = scratch[t + T_HI]
                        out_runs[s, 2] = scratch[t + T_MASK]
                        j -= e
                        rc = rc0
                        found = True
                        break
                if found:
                    break
            if found:
                break


@njit(cache=True, _nrt=False)
def _count_ranks(counts, rem_n, rem_v):
    """Naturals (``rem_n``) and their penalty (``rem_v``) per rank 1-13 of the whole hand."""
    for k in range(14):
        rem_n[k] = 0
        rem_v[k] = 0
    for s in range(4):
        for k in range(1, 14):
            c = counts[s, k]
            rem_n[k] += c
            rem_v[k] += c * card_value(s, k)


@njit(cache=True, _nrt=False)
def _cannot_lay(nopt, rem_n, jokers, g, r, w3, ban_ranks):
    """Quick refusal: too few suits with a run or ranks with a group for the contract."""
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
    return suits_ok < r or n3 + min(n2, jokers) < g


@njit(cache=True, _nrt=False)
def _bounds(counts, jokers, opts, nopt, rem_n, rem_v, suf):
    """Upper bounds on what can be laid: ``(gub, live, runs_only_ub)``; fills ``suf``.

    ``suf[t]`` bounds the runs of suits ``t..3`` (best option value of each); ``gub`` bounds the
    groups (every natural of a rank with a possible group, plus the jokers); ``live`` bounds the
    whole lay-down (the search stops once it lays that much); ``runs_only_ub`` bounds the
    runs-only part (every natural a run of its suit can hold, plus as many jokers as runs hold).
    """
    gub = 50 * jokers
    for k in range(1, 14):
        if rem_n[k] >= 3 or (rem_n[k] == 2 and jokers > 0):
            gub += rem_v[k]
    live = gub
    nat_ub = 0
    run_suits = 0
    suf[4] = 0
    for t in range(3, -1, -1):
        mv = 0
        nv = 0
        um = 0  # positions any run option of suit t uses a natural at
        for i in range(nopt[t]):
            mv = max(mv, opts[t, i, O_VALUE])
            nv = max(nv, opts[t, i, O_VALUE] - 50 * opts[t, i, O_NJOK])
            span = ((1 << (opts[t, i, O_HI] + 1)) - 1) ^ ((1 << opts[t, i, O_LO]) - 1)
            um |= span & ~opts[t, i, O_JMASK]
        suf[t] = suf[t + 1] + mv
        nat_ub += nv
        if nopt[t] > 0:
            run_suits += 1
        for k in range(1, 14):
            if counts[t, k] == 0:
                continue
            if rem_n[k] >= 3 or (rem_n[k] == 2 and jokers > 0):
                continue  # already counted in full
            if (um >> k) & 1 or (k == 1 and (um >> 14) & 1):
                live += card_value(t, k)
    runs_only_ub = nat_ub + 50 * min(jokers, RUN_JOKERS * run_suits)
    return gub, live, runs_only_ub


@njit(cache=True, _nrt=False)
def _search(opts, nopt, jokers, contract, ban_ranks, rem_n, rem_v, suf, gub, live, best_i):
    """The main search: best ``(objective, value)`` over run options and forced groups for
    ``contract`` (a :data:`Contract`).

    Nested loops over the four suits (option -1 = no run in that suit), pruned by the joker
    budget, the runs still reachable and the value bound; stops once ``live`` is laid. Writes
    the winning option per suit to ``best_i``; ``rem_n`` / ``rem_v`` are restored on return.
    """
    g, r, v6 = contract.groups, contract.runs, contract.v6
    v6r = v6 and r == 3
    w3 = 3 if v6r else 1
    suits_ok = 0
    for t in range(4):
        suits_ok += w3 * _has(nopt, t)
    best = -1
    best_val = -1
    no_out = best_i[:0]
    for i0 in range(-1, nopt[0]):
        nj0, ru0, rv0, rc0 = _take(opts, 0, i0, v6r, 0, 0, 0, 0)
        if nj0 > jokers or ru0 + suits_ok - w3 * _has(nopt, 0) < r:
            continue
        if rv0 + suf[1] + gub < best_val:
            continue
        if i0 >= 0:
            _apply(opts[0], i0, 0, -1, rem_n, rem_v)
        for i1 in range(-1, nopt[1]):
            nj1, ru1, rv1, rc1 = _take(opts, 1, i1, v6r, nj0, ru0, rv0, rc0)
            if nj1 > jokers or ru1 + w3 * (_has(nopt, 2) + _has(nopt, 3)) < r:
                continue
            if rv1 + suf[2] + gub < best_val:
                continue
            if i1 >= 0:
                _apply(opts[1], i1, 1, -1, rem_n, rem_v)
            for i2 in range(-1, nopt[2]):
                nj2, ru2, rv2, rc2 = _take(opts, 2, i2, v6r, nj1, ru1, rv1, rc1)
                if nj2 > jokers or ru2 + w3 * _has(nopt, 3) < r:
                    continue
                if rv2 + suf[3] + gub < best_val:
                    continue
                if i2 >= 0:
                    _apply(opts[2], i2, 2, -1, rem_n, rem_v)
                for i3 in range(-1, nopt[3]):
                    nj, runs, rv, rc = _take(opts, 3, i3, v6r, nj2, ru2, rv2, rc2)
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
    return best, best_val


@njit(cache=True, _nrt=False)
def _rebuild(opts, best_i, jokers, g, ban_ranks, rem_n, rem_v, out_runs, out_groups):
    """Write the main search's winner (``best_i``) as runs and groups (consumes ``rem_n``)."""
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


@njit(cache=True, _nrt=False)
def solve_kernel(counts, jokers, g, r, v6, opts, scratch, out_runs, out_groups,
                 ban_ranks=0, ban_suits=0):
    """Best opening of a hand for the contract (g groups, r runs).

    Parameters
    ----------
    counts : int64[4, 14]
        ``counts[s, k]`` natural cards of suit ``s`` and rank ``k`` (1-13); column 0 unused.
        Any number of copies (more decks, V1).
    jokers : int
        Jokers in hand (any number up to the pack's 64).
    g, r : int
        The contract: at least ``g`` groups and ``r`` runs.
    v6 : bool
        Rule V6: a complete 13-card run stands for three runs when ``r == 3``.
    opts : int64[4, cap, 6]
        Workspace for listed run options (columns ``O_*``).
    scratch : int64[SCRATCH] (longer is fine)
        Workspace. Offsets: ``S_REM_N`` / ``S_REM_V`` naturals and penalty per rank (14 each),
        ``S_SWP`` (14) and ``S_COMB`` (14) for the run listing, ``S_NOPT`` (4) options per suit,
        ``S_BEST`` (4) chosen option per suit, ``S_DP`` the runs-only DP (4 x ``DP_W``),
        ``S_TAB`` its per-suit tables, ``S_KNAP`` its knapsack; the upper bounds per suit reuse
        ``S_SWP``.
    out_runs : int64[4, 3]
        Receives ``(lo, hi, joker mask)`` of the chosen run per suit; ``lo = 0`` for none.
        Bit ``p`` of the mask is set where a joker stands at position ``p``. Naturals of the
        span not under a joker are in the run.
    out_groups : int64[14]
        Receives the jokers in each rank's group, -1 where that rank has no group. Every
        natural of a grouped rank not used by a run is in its group.

    ban_ranks, ban_suits : int
        Bit masks of ranks (bit k) and suits (bit s) the player already has a meld of (R5):
        used for the further melds of an opened player, with ``g = r = 0``.

    Returns
    -------
    (value, cards) : (int, int)
        Penalty laid down and cards laid down by the best opening, or ``(NO_OPENING, 0)``
        (-1) if the hand cannot lay the contract; ``(OVERFLOW, 0)`` (-2) if ``opts`` was too
        small (grow it and retry). Writes ``opts``, ``scratch``, ``out_runs``, ``out_groups``.
    """
    cap = opts.shape[1]
    rem_n = scratch[S_REM_N:S_REM_N + 14]
    rem_v = scratch[S_REM_V:S_REM_V + 14]
    swp = scratch[S_SWP:S_SWP + 14]
    nopt = scratch[S_NOPT:S_NOPT + 4]
    best_i = scratch[S_BEST:S_BEST + 4]
    comb = scratch[S_COMB:S_COMB + 14]
    _count_ranks(counts, rem_n, rem_v)
    free_mask = _freeable_ranks(counts, rem_n, ban_ranks)
    for s in range(4):
        nopt[s] = 0
        if not (ban_suits >> s) & 1:
            n = _list_runs(counts, s, jokers, free_mask, opts[s], cap, swp, comb)
            if n < 0:
                return OVERFLOW, 0
            nopt[s] = n
        best_i[s] = -1
    w3 = 3 if (v6 and r == 3) else 1
    if _cannot_lay(nopt, rem_n, jokers, g, r, w3, ban_ranks):
        return NO_OPENING, 0
    suf = swp[:5]
    gub, live, ro_ub = _bounds(counts, jokers, opts, nopt, rem_n, rem_v, suf)
    best, best_val = _search(opts, nopt, jokers, Contract(g, r, v6), ban_ranks, rem_n, rem_v,
                             suf, gub, live, best_i)
    if best < 0:
        return NO_OPENING, 0
    # with no group to take them, jokers may pay more over held naturals in runs (E3)
    if g == 0 and jokers > 0 and best_val <= ro_ub:
        ro = _runs_only(counts, jokers, r, v6, ban_suits, scratch)
        if ro > best:
            _runs_only_melds(jokers, r, ro, scratch, out_runs)
            for k in range(14):
                out_groups[k] = -1
            return ro // SCALE, ro % SCALE
    _rebuild(opts, best_i, jokers, g, ban_ranks, rem_n, rem_v, out_runs, out_groups)
    return best // SCALE, best % SCALE


def new_workspace(max_jokers, capacity=DEFAULT_CAPACITY):
    """Preallocated workspaces for :func:`solve_kernel`: ``(opts, scratch, runs, groups)``
    (``max_jokers``, no longer needed as the scratch has a fixed length, kept for callers)."""
    return (
        np.zeros((4, capacity, OPT_COLS), np.int64),
        np.zeros(SCRATCH, np.int64),
        np.zeros((4, 3), np.int64),
        np.zeros(14, np.int64),
    )
