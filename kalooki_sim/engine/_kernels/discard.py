"""Discard phase (R8, R12): which card a seat lets go (greedy, expert, random) and the discard
itself.
"""

from __future__ import annotations

from numba import njit

from ...game.kernels import card_value
from . import needed as NK
from . import plus as NP
from . import rng as R
from .memo import (
    _memo_sums,
    _needed_memo_sums,
    _row_sums,
    _sums_moved,
)
from .reading import (
    _avail,
    _best_of_held,
    _buckets_moved,
    _cost_hist,
    _distance_to_play,
    _group_cost,
    _hand_size,
    _keep_count,
    _keepers,
    _keepers_load,
    _known_row,
    _leaves_hand,
    _live_partners,
    _needed,
    _outs_scan,
    _plan_keeps,
    _plan_ok,
    _position_bit,
    _prepare_keeps,
    _rank_count,
    _run_cost,
    _seen_row,
    _suit_windows,
)
from .table import (
    EV_DISCARD,
    EV_NO_DISCARD,
    GS_DISC_N,
    GS_DISCARDER,
    GS_LIVE,
    GS_RESHUFFLED,
    JOKER,
    NO_WAY_RANK,
    P_DEFEND,
    P_EXACT,
    P_OUTS,
    P_OUTS_MIXED,
    P_PLAN_DISCARD,
    P_RANDOM,
    PS_OPENED,
    PS_TOOK,
    R_GROUPS,
    R_PLAYERS,
    R_RUNS,
    R_V6,
    _log,
)

ALL_CODES = (1 << (JOKER + 1)) - 1


@njit(cache=True, _nrt=False)
def _expert_discard(seat, hand, ps, rules, pol, pw):
    """Before opening, with ``P_EXACT``: the card whose loss leaves the fewest cards needed
    (exact); among those, the highest penalty (what is caught if another player goes out,
    R12), then the one with the fewest live partners (so the hand keeps the most live outs),
    then (``P_DEFEND``) not a rank the next player has taken or called; then the lowest code.

    Losing one card raises the exact count by 0 or 1 (the card itself can come back), so the
    candidates are tried in tie-break order and the first that keeps the count wins; if none
    does, every loss costs one and the first candidate wins. Same choice as scoring every card,
    with far fewer exact counts.
    """
    P = rules[R_PLAYERS]
    hrow = hand[seat]
    nxt = (seat + 1) % P
    risky = ps[nxt, PS_TOOK] if (pol[seat, P_DEFEND] > 0 and ps[nxt, PS_OPENED] == 0) else 0
    av = hand[_seen_row(hand) + 2]
    _avail(seat, hand, rules, av)
    # candidates with their tie-break keys, insertion-sorted (at most 52)
    cand = hand[_seen_row(hand) + 3]
    m = 0
    for c in range(JOKER):
        if hrow[c] == 0:
            continue
        safe = 0 if (risky >> (c % 13 + 1)) & 1 else 1
        # the penalty before the live partners: measured, keeping partners first loses points
        key = ((15 - card_value(c // 13, c % 13 + 1)) * 64 + _live_partners(c, av)) * 2 \
            + (1 - safe)
        key = key * 64 + c
        i = m
        while i > 0 and cand[i - 1] > key:
            cand[i] = cand[i - 1]
            i -= 1
        cand[i] = key
        m += 1
    if m == 0:
        return -1
    hs, ds = _row_sums(seat, hand)  # the memo's keys of the hand, and less a card
    now = _needed_memo_sums(seat, hand, ps, rules, pol, pw, NK.NO_WAY, hs, ds)
    if now >= NO_WAY_RANK:
        # no card that can still come lays it: the ranking falls back on the bound, which a
        # lost card may move by more than one, so score every card
        best = -1
        best_key = (1 << 40, 0)
        for i in range(m):
            c = cand[i] % 64
            hrow[c] -= 1
            nd = _needed(seat, hand, rules, pol, pw)
            hrow[c] += 1
            if (nd, cand[i]) < best_key:
                best_key = (nd, cand[i])
                best = c
        return best
    if pol[seat, P_OUTS] > 0 and (pol[seat, P_OUTS_MIXED] > 0 or rules[R_GROUPS] == 0
                                  or rules[R_RUNS] == 0):
        return _outs_discard(seat, hand, ps, rules, pol, pw, cand, m, now, hs, ds)
    mixed, av, j = _prepare_keeps(seat, hand, rules, pw, av)
    if mixed and pol[seat, P_PLAN_DISCARD] > 0 and _plan_ok(seat, rules):
        c = _plan_discard(seat, hand, rules, pw, av, j, cand, m, now)
        if c >= 0:
            _memo_sums(seat, ps, _sums_moved(hs, c, -1), ds, now)
            return c
    for i in range(m):
        c = cand[i] % 64
        nd = _keep_count(seat, hand, rules, pol, pw, av, j, c, now, mixed)
        if nd <= now:
            # the hand after this discard: what the next offers to this seat will ask about
            _memo_sums(seat, ps, _sums_moved(hs, c, -1), ds, nd)
            return c
    c = cand[0] % 64
    _memo_sums(seat, ps, _sums_moved(hs, c, -1), ds, now + 1)
    return c


@njit(cache=True, _nrt=False)
def _plan_discard(seat, hand, rules, pw, av, j, cand, m, now):
    """``P_PLAN_DISCARD``: the first candidate of ``cand[:m]`` (in tie-break order) that the
    seat's plan leaves free with the count kept at ``now`` (:func:`.reading._plan_keeps`),
    or -1 if the plan frees none (or there is none). After :func:`.reading._prepare_keeps`
    of a mixed contract's hand."""
    for i in range(m):
        c = cand[i] % 64
        if _plan_keeps(seat, hand, rules, pw, av, j, c, now):
            return c
    return -1


@njit(cache=True, _nrt=False)
def _best_keeper(seat, hand, rules, pol, pw, live, now, cand, m, w):
    """Among the marked candidates (those that keep the count at ``now``), the highest
    penalty + ``w`` x live outs, ties by the candidates' order.

    An out of the hand less c is an out of the whole hand (a card more never raises the
    count), so the whole hand's outs are found once and only they are asked again; and a
    candidate is asked only while the outs it could still have might beat the best so far,
    the candidates with the most to gain first. The same card as asking every candidate about
    every code."""
    hrow = hand[seat]
    # right after _keepers: the hand is loaded and its tables kept
    outs_h, all_live = _outs_scan(seat, hand, rules, pw, live, now, ALL_CODES, 0.0, 0.0,
                                  -1e300, _keepers_load(rules))
    NP.keep_whole(pw.scratch)  # the base of each candidate's tables
    stand = _stand_mask(seat, hand, rules, pw, cand, m)
    best = -1
    best_i = m
    best_score = -1e300
    while True:
        # the unasked candidate with the highest bound, lowest index first among equals
        pick = -1
        pick_ub = -1e300
        for i in range(m):
            if cand[i] < (1 << 40) or cand[i] >= (1 << 41):
                continue
            c = (cand[i] & ((1 << 40) - 1)) % 64
            own = live[c] if (outs_h >> c) & 1 else 0  # c is never an out of the hand less c
            ub = card_value(c // 13, c % 13 + 1) + w * (all_live - own)
            if ub > pick_ub:
                pick_ub = ub
                pick = i
        if pick < 0 or pick_ub < best_score or (pick_ub == best_score and pick > best_i):
            break
        cand[pick] += 1 << 41  # asked
        c = (cand[pick] & ((1 << 40) - 1)) % 64
        pen = card_value(c // 13, c % 13 + 1)
        asked = outs_h & ~(1 << c)
        kept = 0
        if (stand >> pick) & 1:
            own_suit = ((1 << 13) - 1) << (13 * (c // 13))
            for x in range(JOKER + 1):
                if (asked >> x) & 1 and not (own_suit >> x) & 1:
                    kept += live[x]
            asked &= own_suit
        o = 0
        if asked != 0:
            hrow[c] -= 1
            _, o = _outs_scan(seat, hand, rules, pw, live, now, asked, pen + w * kept, w,
                              best_score, True, c)
            hrow[c] += 1
        sc = pen + w * (kept + o)
        if sc > best_score or (sc == best_score and pick < best_i):
            best_score = sc
            best = c
            best_i = pick
    return best


@njit(cache=True, _nrt=False)
def _stand_mask(seat, hand, rules, pw, cand, m):
    """Bit ``i``: marked candidate ``i``'s loss leaves every suit's cheapest runs, in an
    all-run contract (:func:`.plus.runs_stand`), so the hand's outs of the other suits and the
    joker stay outs and only its own suit's are asked again. Right after the whole hand's
    outs were found (its tables and counts are in ``pw``)."""
    stand = 0
    if NP.runs_only(rules[R_GROUPS], rules[R_RUNS], rules[R_V6] == 1):
        av = hand[_seen_row(hand) + 1]  # the whole hand's, as its outs were found
        for i in range(m):
            if cand[i] >= (1 << 40):
                c = (cand[i] & ((1 << 40) - 1)) % 64
                if NP.runs_stand(pw.cnt, hand[seat, JOKER], av, pw.scratch, c):
                    stand |= 1 << i
    return stand


@njit(cache=True, _nrt=False)
def _outs_discard(seat, hand, ps, rules, pol, pw, cand, m, now, hs, ds):
    """:func:`_expert_discard` with ``P_OUTS``: among the candidates (``cand``, in tie-break
    order) that keep the count at ``now`` (or all of them if none does), the highest penalty +
    ``P_OUTS`` x live outs of the hand left; ties by the candidates' order. ``hs``, ``ds``:
    the hand's sums (:func:`.memo._row_sums`)."""
    hrow = hand[seat]
    # the copies still to come, less those known in another hand: the same for every candidate
    # (the exact counts below use their own availability row, not this scratch row)
    live = hand[_seen_row(hand) + 2]
    for p in range(rules[R_PLAYERS]):
        if p != seat:
            k = _known_row(hand, p)
            for x in range(JOKER + 1):
                live[x] -= hand[k, x]
    w = pol[seat, P_OUTS]
    keeps = _keepers(seat, hand, rules, pol, pw, cand, m, now)
    target = now if keeps > 0 else now + 1
    best = -1
    if keeps == 1 or target <= 0:
        # one candidate keeps the count (or the hand can lay): no outs to weigh
        for i in range(m):
            if keeps == 0 or cand[i] >= (1 << 40):
                best = (cand[i] & ((1 << 40) - 1)) % 64
                break
    elif keeps > 1:
        best = _best_keeper(seat, hand, rules, pol, pw, live, now, cand, m, w)
    else:
        best_score = -1e300
        for i in range(m):
            c = cand[i] % 64
            hrow[c] -= 1
            _, o = _outs_scan(seat, hand, rules, pw, live, target, ALL_CODES, 0.0, 0.0,
                              -1e300)
            hrow[c] += 1
            sc = card_value(c // 13, c % 13 + 1) + w * o
            if sc > best_score:
                best_score = sc
                best = c
    for i in range(m):
        cand[i] &= (1 << 40) - 1
    _memo_sums(seat, ps, _sums_moved(hs, best, -1), ds, target)
    return best


@njit(cache=True, _nrt=False)
def _choose_discard(seat, hand, ps, gs, melds, rules, pol, pstate, pw):
    """R6: a non-joker card, or -1 if the hand holds only jokers (C2).

    Greedy, before opening: the costliest of the cards whose loss raises :func:`need` least.
    After opening: the costliest of the cards farthest from being laid off.
    """
    hrow = hand[seat]
    n_nat = 0
    for c in range(JOKER):
        n_nat += hrow[c]
    if n_nat == 0:
        return -1
    if pol[seat, P_RANDOM] > 0:
        # uniform over the cards held (copies count separately)
        j = R.below(pstate, n_nat)
        for c in range(JOKER):
            if j < hrow[c]:
                return c
            j -= hrow[c]
    if pol[seat, P_EXACT] > 0 and ps[seat, PS_OPENED] == 0:
        return _expert_discard(seat, hand, ps, rules, pol, pw)
    best = -1
    best_need = 1 << 30
    best_val = -1
    opened = ps[seat, PS_OPENED] == 1
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    # need() without each card, from cached parts: only the card's rank and suit change
    h0, h1, h2, h3 = _cost_hist(hrow)
    m0, m1, m2, m3, w0, w1, w2, w3 = _suit_windows(hrow)
    for c in range(JOKER):
        if hrow[c] == 0:
            continue
        s = c // 13
        k = c % 13 + 1
        v = card_value(s, k)
        nd = 0
        if opened:
            # keep what may still be laid off: rank the card by how far it is from playable
            nd = -_distance_to_play(seat, c, hrow, ps, gs, melds)
        else:
            # the rank moves from cost bucket of n naturals to that of n - 1
            b0, b1, b2, b3 = _buckets_moved(h0, h1, h2, h3, _rank_count(hrow, k), -1)
            # a second copy keeps its position held: the suit's best window stands
            ms = m0 if s == 0 else (m1 if s == 1 else (m2 if s == 2 else m3))
            ws = w0 if s == 0 else (w1 if s == 1 else (w2 if s == 2 else w3))
            if hrow[c] == 1:
                ws = _best_of_held(ms & ~_position_bit(k))
            rc = _run_cost(ws if s == 0 else w0, ws if s == 1 else w1, ws if s == 2 else w2,
                           ws if s == 3 else w3, r)
            nd = _group_cost(b0, b1, b2, b3, g) + rc - hrow[JOKER]
            if nd < 0:
                nd = 0
        if nd < best_need or (nd == best_need and v > best_val):
            best = c
            best_need = nd
            best_val = v
    return best


@njit(cache=True, _nrt=False)
def _discard_phase(rules, pol, t, cur):
    """R6.3: discard a natural card, which goes live for R9; a hand of jokers only ends the turn
    with no discard and nothing on offer (C2). Writes t's hand, gs, disc."""
    hand, ps, gs, melds, log = t.hand, t.ps, t.gs, t.melds, t.log
    pst, pw = t.streams[2 + cur], t.count
    if _hand_size(hand[cur]) == 0:
        return
    dc = _choose_discard(cur, hand, ps, gs, melds, rules, pol, pst, pw)
    if dc < 0:
        gs[GS_LIVE] = 0
        _log(log, gs, EV_NO_DISCARD, cur, -1, 0, 0, 0)
        return
    discard_card(t, cur, dc)


@njit(cache=True, _nrt=False)
def discard_card(t, cur, dc):
    """Seat ``cur`` lets natural ``dc`` go (R6.3): it leaves the hand for the pile and goes
    live for R9 (the discard phase's move, and the advisor's discard candidates played as
    chosen). Writes t's hand, gs, disc."""
    hand, gs, disc, log = t.hand, t.gs, t.disc, t.log
    hand[cur, dc] -= 1
    _leaves_hand(hand, cur, dc)
    if gs[GS_RESHUFFLED] == 1:  # no second reshuffle: a discard never comes back (R13)
        hand[_seen_row(hand), dc] += 1
    disc[gs[GS_DISC_N]] = dc
    gs[GS_DISC_N] += 1
    gs[GS_LIVE] = 1
    gs[GS_DISCARDER] = cur
    _log(log, gs, EV_DISCARD, cur, dc, 0, 0, 0)
