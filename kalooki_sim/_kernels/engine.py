"""The compiled hand engine (R2, R6-R14, C1-C3).

One hand is played by :func:`play_hand` on preallocated arrays; nothing is allocated per turn.
Layouts (all ``int64`` unless said):

* ``hand[2P + 4, 53]``: card counts per seat (codes as in :mod:`kalooki_sim.cards`); row
  ``P`` (:func:`_seen_row`) counts the dead cards, those that can never come from the stock:
  on the table, or in the discard pile once its one reshuffle (R13) is spent;
  rows ``P + 1`` to ``P + 3`` are scratch for the policies (availability for the needed count,
  for live outs, and per-card counts of a discard choice); row ``P + 4 + p``
  (:func:`_known_row`) counts the cards of seat ``p``'s hand the whole table knows of (taken
  or called from the pile and not yet seen to leave it).
* ``ps[P, PS_COLS]``: per-seat state, columns ``PS_*``.
* ``gs[GS_COLS]``: hand state, columns ``GS_*``.
* ``stock``, ``disc``: the stock (top = last) and the discard pile (top = last).
* ``melds[MAX_MELDS, MELD_COLS]``: melds on the table, records of :mod:`.layoff`.
* ``log[MAX_LOG, 7]``: the move log when ``gs[GS_LOG_ON]``; rows ``(event, seat, card, a, b, c,
  d)`` with events ``EV_*`` documented in :mod:`kalooki_sim.trace`.
* ``pol[P, NPARAM]`` (float64): each seat's policy parameters ``P_*``.
* ``rules``: ``R_*`` fields of the rules, flattened.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from . import layoff as L
from . import needed as NK
from . import rng as R
from .solver import OPT_COLS, SCRATCH, card_value, solve_kernel

JOKER = 52
N_CODES = 53
MAX_MELDS = 160
MAX_LOG = 65536  # room for a stalled hand: MAX_TURNS turns with every offer logged
# run options per suit in a worker's solver workspace: room for 4 jokers beside 13 naturals of a
# suit; a hand that still overflows it (solver returns -2) is treated as unable to open
SOLVER_CAPACITY = 8192
NO_WAY_RANK = 1000  # exact needed count of a hand no available card completes (see _needed)
MAX_TURNS = 3000  # engine safeguard: a hand longer than this is declared void (stalled)

# per-seat state
# PS_TOOK: bit mask of the ranks the seat took or called from the pile this hand (public).
# PS_NC_*: a two-entry memo of the seat's exact needed count (:func:`_needed_memo`), keyed by
# a hash of its hand and the dead cards; a value of -1 is an empty entry.
(PS_OPENED, PS_CALLS, PS_OPEN_TURN, PS_TURNS, PS_BAN_R, PS_BAN_S, PS_MEETS, PS_TOOK,
 PS_NC_KEY0, PS_NC_VAL0, PS_NC_KEY1, PS_NC_VAL1, PS_NC_NEXT) = range(13)
PS_COLS = 13
# hand state
# GS_LIVE: the top discard is on offer under R9 (after a discard or the upcard, C1; not after a
# turn that ended with no discard, C2, nor once taken or called); GS_DISCARDER: who put it there.
# GS_CUR: whose turn is next. GS_FORCE_MASK / GS_FORCE_ACTS: seats whose take-or-call decision
# on the next offer is forced (bit set) to act (bit set) or pass, for branching (call values,
# the advisor); cleared after the draw phase. GS_TAKEN_BY / GS_CALLED_BY: who took / called in
# the current turn (-1: nobody). GS_SEAT_STOCK: the stock is dealt by seat (see
# :func:`seat_stock`), from a stock of GS_SEAT_TOP cards, the queues starting at GS_SEAT_FIRST;
# GS_SEAT_DRAWS + p counts seat p's draws from it.
(GS_STOCK_N, GS_DISC_N, GS_RESHUFFLED, GS_VOID, GS_N_MELDS, GS_LOG_N, GS_LOG_ON, GS_OUT,
 GS_FIRST_DOWN, GS_STALLED, GS_TURNS, GS_DOUBLED, GS_OUT_ON_OPENING, GS_LIVE,
 GS_DISCARDER, GS_CUR, GS_FORCE_MASK, GS_FORCE_ACTS, GS_TAKEN_BY, GS_CALLED_BY,
 GS_SEAT_STOCK, GS_SEAT_TOP, GS_SEAT_FIRST, GS_SEAT_DRAWS) = range(24)
GS_COLS = GS_SEAT_DRAWS + 8
# rules vector
# (R_TULUKI: V9, the two-player game's discard step, :func:`_tuluki_draw_phase`)
(R_PLAYERS, R_CARDS, R_GROUPS, R_RUNS, R_CALL_LIMIT, R_FREE_EXT, R_JOKERS_OTHERS, R_V6,
 R_V4, R_DECKS, R_JOKERS, R_TULUKI) = range(12)
R_COLS = 12
# policy parameters (P_CALL_LIMIT < 0: the rules' limit), documented on policies.Policy
(P_RANDOM, P_CALL_LIMIT, P_CALL_GAIN, P_TAKE_GAIN, P_HOLD, P_HOLD_TURNS, P_EXACT,
 P_CALL_MAX_NEED, P_CALL_MIN_STOCK, P_CALL_MAX_CARD, P_CALL_DANGER, P_HOLD_DANGER,
 P_DEFEND, P_CALL_MAX_OPENED, P_CALL_MAX_HAND) = range(15)
NPARAM = 15
# log events
(EV_DEAL, EV_UPCARD, EV_TURN, EV_TAKE, EV_CALL, EV_PENALTY, EV_DRAW, EV_RESHUFFLE, EV_OPEN,
 EV_MELD, EV_MELD_CARD, EV_LAYOFF, EV_JOKER_MOVE, EV_DISCARD, EV_OUT, EV_VOID,
 EV_SCORE, EV_DECLINE, EV_NO_DISCARD, EV_TURN_UP, EV_REFUSE, EV_BURY) = range(1, 23)
# EV_DECLINE's ``a``: what was passed on (R9 take, R9 call; V9 the turned card by B, then by A)
DECLINE_TAKE, DECLINE_CALL, DECLINE_TURNED_TAKE, DECLINE_TURNED_CALL = range(4)
LOG_COLS = 7

# result columns (int32), one row per seat per hand attempt kept; O_GAME is the game's index in
# the block, O_ATTEMPTS the attempts its hand took in all (R13), O_DOUBLED per seat (a loser of a
# doubled hand, R12)
(O_GAME, O_HAND, O_ATTEMPT, O_SEAT, O_DEALER, O_MEETS, O_OPENED, O_OPEN_TURN, O_CALLS,
 O_WENT_OUT, O_OUT_ON_OPENING, O_DOUBLED, O_CARDS_LEFT, O_PENALTY, O_TURNS, O_RESHUFFLED,
 O_VOID, O_STALLED, O_ATTEMPTS) = range(19)
O_COLS = 19


@njit(cache=True)
def _log(log, gs, ev, seat, card, a, b, c, d=0):
    if gs[GS_LOG_ON] == 0:
        return
    n = gs[GS_LOG_N]
    if n < log.shape[0]:
        log[n, 0] = ev
        log[n, 1] = seat
        log[n, 2] = card
        log[n, 3] = a
        log[n, 4] = b
        log[n, 5] = c
        log[n, 6] = d
    gs[GS_LOG_N] = n + 1


@njit(cache=True)
def _fill_counts(hrow, cnt):
    """Count view (4x14) of one seat's hand; returns its jokers."""
    for s in range(4):
        cnt[s, 0] = 0
        for k in range(1, 14):
            cnt[s, k] = hrow[s * 13 + k - 1]
    return hrow[JOKER]


@njit(cache=True)
def _best_window(hrow, s):
    """Fewest cards of suit ``s`` missing from any 4 consecutive run positions (R4)."""
    best = 4
    for lo in range(1, 12):
        have = 0
        for p in range(lo, lo + 4):
            k = 1 if p == 14 else p
            if hrow[s * 13 + k - 1] > 0:
                have += 1
        if 4 - have < best:
            best = 4 - have
    return best


@njit(cache=True)
def _group_cost(h0, h1, h2, h3, g):
    """Cheapest ``g`` groups when ``h_c`` ranks need ``c`` more cards (c = 0..3)."""
    left = g
    t = min(left, h0)
    left -= t
    t = min(left, h1)
    total = t
    left -= t
    t = min(left, h2)
    total += 2 * t
    left -= t
    return total + 3 * min(left, h3)


@njit(cache=True)
def _run_cost(a0, a1, a2, a3, r):
    """Sum of the ``r`` smallest of four per-suit run costs (a sorting network)."""
    if a0 > a1:
        a0, a1 = a1, a0
    if a2 > a3:
        a2, a3 = a3, a2
    if a0 > a2:
        a0, a2 = a2, a0
    if a1 > a3:
        a1, a3 = a3, a1
    if a1 > a2:
        a1, a2 = a2, a1
    total = 0
    if r >= 1:
        total += a0
    if r >= 2:
        total += a1
    if r >= 3:
        total += a2
    if r >= 4:
        total += a3
    return total


@njit(cache=True)
def _rank_count(hrow, k):
    return hrow[k - 1] + hrow[13 + k - 1] + hrow[26 + k - 1] + hrow[39 + k - 1]


@njit(cache=True)
def _cost_hist(hrow):
    """Ranks needing 0, 1, 2, 3 more cards for a group (R3)."""
    h0 = 0
    h1 = 0
    h2 = 0
    h3 = 0
    for k in range(1, 14):
        c = _rank_count(hrow, k)
        if c >= 3:
            h0 += 1
        elif c == 2:
            h1 += 1
        elif c == 1:
            h2 += 1
        else:
            h3 += 1
    return h0, h1, h2, h3


@njit(cache=True)
def _solve_seat(hrow, g, r, v6, ban_r, ban_s, cnt, ws_opts, ws_scratch, ws_runs, ws_groups):
    """The solver on one seat's hand: ``(value, cards)``; melds land in ws_runs / ws_groups."""
    j = _fill_counts(hrow, cnt)
    return solve_kernel(cnt, j, g, r, v6, ws_opts, ws_scratch, ws_runs, ws_groups, ban_r, ban_s)


@njit(cache=True)
def need(hrow, g, r):
    """Cards still needed for the contract: a lower bound, 0 whenever the hand can open.

    Each group of rank k needs ``max(0, 3 - naturals)``; each run the fewest missing cards in any
    4-window of its suit; the cheapest ``g`` ranks and ``r`` suits are summed and jokers subtract.
    A hand that can lay the contract always scores 0 (its melds' ranks and suits cost at most the
    jokers they use), but cards shared by a group and a run are not detected, so 0 does not
    promise an opening: the solver decides that. (V6's complete suit is not seen: callers skip
    the bound under V6.)
    """
    h0, h1, h2, h3 = _cost_hist(hrow)
    total = _group_cost(h0, h1, h2, h3, g)
    total += _run_cost(_best_window(hrow, 0), _best_window(hrow, 1), _best_window(hrow, 2),
                       _best_window(hrow, 3), r)
    total -= hrow[JOKER]
    return total if total > 0 else 0


@njit(cache=True)
def _seen_row(hand):
    """Index of the row of ``hand`` that counts the dead cards (table; pile after R13's
    reshuffle); it is also the number of seats."""
    return (hand.shape[0] - 4) // 2


@njit(cache=True)
def _known_row(hand, seat):
    """Index of the row of ``hand`` counting the cards of ``seat`` the table knows of."""
    return _seen_row(hand) + 4 + seat


@njit(cache=True)
def _leaves_hand(hand, seat, c):
    """Card ``c`` left ``seat``'s hand (meld, lay-off, discard): copies are alike, so the table
    knows one copy fewer of it there."""
    k = _known_row(hand, seat)
    if hand[k, c] > 0:
        hand[k, c] -= 1


@njit(cache=True)
def seat_stock(gs, first, P):
    """Deal the rest of the stock by seat: from now on seat ``p``'s ``k``-th draw is the card
    ``k * P + (p - first) % P`` from the top, and a seat whose queue is spent takes the lowest
    card left. The stock is a uniformly random order of unseen cards and which card a draw
    gets does not depend on the cards, so play is distributed exactly as with draws from the
    top; but two branches of a hand then give each seat the same cards whatever the other
    seats drew (common random numbers by seat, for :mod:`.branch`)."""
    gs[GS_SEAT_STOCK] = 1
    gs[GS_SEAT_TOP] = gs[GS_STOCK_N]
    gs[GS_SEAT_FIRST] = first
    for p in range(P):
        gs[GS_SEAT_DRAWS + p] = 0


@njit(cache=True)
def _seat_draw(stock, gs, seat, P):
    """The card ``seat`` draws from a stock dealt by seat (:func:`seat_stock`)."""
    j = gs[GS_SEAT_DRAWS + seat] * P + (seat - gs[GS_SEAT_FIRST]) % P
    gs[GS_SEAT_DRAWS + seat] += 1
    pos = gs[GS_SEAT_TOP] - 1 - j
    if pos < 0 or stock[pos] < 0:
        pos = 0
        while stock[pos] < 0:
            pos += 1
    c = stock[pos]
    stock[pos] = -1
    return c


@njit(cache=True)
def _draw_stock(stock, disc, gs, rstate, log, seen, seat, P):
    """Top card of the stock, reshuffling once when empty (R13); -1 means the hand is void.

    The card left on the pile by the reshuffle can never come again (``seen`` counts it). A
    stock dealt by seat (:func:`seat_stock`) stays so after the reshuffle."""
    if gs[GS_STOCK_N] == 0:
        if gs[GS_RESHUFFLED] == 1 or gs[GS_DISC_N] <= 1:
            gs[GS_VOID] = 1
            return -1
        n = gs[GS_DISC_N] - 1  # all but the top card
        top = disc[n]
        for i in range(n):
            stock[i] = disc[i]
        seen[top] += 1
        R.shuffle(rstate, stock, n)
        disc[0] = top
        gs[GS_DISC_N] = 1
        gs[GS_STOCK_N] = n
        gs[GS_RESHUFFLED] = 1
        _log(log, gs, EV_RESHUFFLE, -1, -1, n, 0, 0)
        if gs[GS_SEAT_STOCK] == 1:
            seat_stock(gs, seat, P)
    gs[GS_STOCK_N] -= 1
    if gs[GS_SEAT_STOCK] == 1:
        return _seat_draw(stock, gs, seat, P)
    return stock[gs[GS_STOCK_N]]


@njit(cache=True)
def _contract_runs(out_runs, r, v6):
    """Bit mask of the suits whose runs make the contract's ``r`` runs (R7; V6 a complete suit).

    The first ``r`` runs in suit order; under V6 with fewer than three runs laid, the first
    13-card run stands for the three.
    """
    n = 0
    for s in range(4):
        if out_runs[s, 0] > 0:
            n += 1
    mask = 0
    if v6 and r == 3 and n < 3:
        for s in range(4):
            if out_runs[s, 0] > 0 and out_runs[s, 1] - out_runs[s, 0] == 12:
                return 1 << s
    k = 0
    for s in range(4):
        if out_runs[s, 0] > 0 and k < r:
            mask |= 1 << s
            k += 1
    return mask


@njit(cache=True)
def _lay_run(seat, s, contract, hand, ps, gs, melds, log, out_runs):
    """Lay the solver's run of suit ``s``; writes hand (and the dead cards), ps, melds."""
    lo = out_runs[s, 0]
    hi = out_runs[s, 1]
    jm = out_runs[s, 2]
    m = gs[GS_N_MELDS]
    gs[GS_N_MELDS] = m + 1
    nj = 0
    for p in range(lo, hi + 1):
        if (jm >> p) & 1:
            nj += 1
    melds[m, L.KIND] = L.RUN
    melds[m, L.OWNER] = seat
    melds[m, L.KEY] = s
    melds[m, L.LO] = lo
    melds[m, L.HI] = hi
    melds[m, L.JMASK] = jm
    melds[m, L.NAT] = hi - lo + 1 - nj
    melds[m, L.JOK] = nj
    _log(log, gs, EV_MELD, seat, -1, m, L.RUN, hi - lo + 1, contract)
    for p in range(lo, hi + 1):
        c = JOKER if (jm >> p) & 1 else s * 13 + (0 if p == 14 else p - 1)
        hand[seat, c] -= 1
        hand[_seen_row(hand), c] += 1
        _leaves_hand(hand, seat, c)
        _log(log, gs, EV_MELD_CARD, seat, c, m, p, 0)
    ps[seat, PS_BAN_S] |= 1 << s


@njit(cache=True)
def _lay_group(seat, k, nj, contract, hand, ps, gs, melds, log, reserved):
    """Lay a group of rank ``k``: every natural of the rank not ``reserved`` for a run still to
    be laid, and ``nj`` jokers; writes hand (and the dead cards), ps, melds."""
    m = gs[GS_N_MELDS]
    gs[GS_N_MELDS] = m + 1
    nat = 0
    for s in range(4):
        c = s * 13 + k - 1
        nat += hand[seat, c] - reserved[c]
    melds[m, L.KIND] = L.GROUP
    melds[m, L.OWNER] = seat
    melds[m, L.KEY] = k
    melds[m, L.LO] = 0
    melds[m, L.HI] = 0
    melds[m, L.JMASK] = 0
    melds[m, L.NAT] = nat
    melds[m, L.JOK] = nj
    _log(log, gs, EV_MELD, seat, -1, m, L.GROUP, nat + nj, contract)
    for s in range(4):
        c = s * 13 + k - 1
        while hand[seat, c] > reserved[c]:
            hand[seat, c] -= 1
            hand[_seen_row(hand), c] += 1
            _leaves_hand(hand, seat, c)
            _log(log, gs, EV_MELD_CARD, seat, c, m, 0, 0)
    for _ in range(nj):
        hand[seat, JOKER] -= 1
        hand[_seen_row(hand), JOKER] += 1
        _log(log, gs, EV_MELD_CARD, seat, JOKER, m, 0, 0)
    ps[seat, PS_BAN_R] |= 1 << k


@njit(cache=True)
def _add_meld_from_solver(seat, hand, ps, gs, melds, log, out_runs, out_groups, g, r, v6):
    """Lay the solver's melds for ``seat``: first those making a contract of ``g`` groups and
    ``r`` runs (logged as the contract, R7), then the extra own melds (all of them when
    ``g = r = 0``, after the opening). Writes hand, ps, gs, melds."""
    cmask = _contract_runs(out_runs, r, v6)
    # naturals of the extra runs, kept back from the contract groups laid before them
    reserved = hand[_seen_row(hand) + 1]
    for c in range(N_CODES):
        reserved[c] = 0
    for s in range(4):
        if out_runs[s, 0] > 0 and not (cmask >> s) & 1:
            for p in range(out_runs[s, 0], out_runs[s, 1] + 1):
                if not (out_runs[s, 2] >> p) & 1:
                    reserved[s * 13 + (0 if p == 14 else p - 1)] += 1
    for s in range(4):
        if (cmask >> s) & 1:
            _lay_run(seat, s, 1, hand, ps, gs, melds, log, out_runs)
    first_extra = 14  # rank of the first group beyond the contract's g
    left = g
    for k in range(1, 14):
        if out_groups[k] >= 0:
            if left == 0:
                first_extra = k
                break
            _lay_group(seat, k, out_groups[k], 1, hand, ps, gs, melds, log, reserved)
            left -= 1
    for s in range(4):
        if out_runs[s, 0] > 0 and not (cmask >> s) & 1:
            _lay_run(seat, s, 0, hand, ps, gs, melds, log, out_runs)
    for c in range(N_CODES):
        reserved[c] = 0
    for k in range(first_extra, 14):
        if out_groups[k] >= 0:
            _lay_group(seat, k, out_groups[k], 0, hand, ps, gs, melds, log, reserved)


@njit(cache=True)
def _lay_offs(seat, hand, gs, melds, log, rules, pol, pstate, tmp):
    """R10/R11: lay off cards on any melds; greedy lays every legal one, random each with p=1/2."""
    rnd = pol[seat, P_RANDOM] > 0
    changed = True
    while changed:
        changed = False
        for m in range(gs[GS_N_MELDS]):
            # only the meld's rank (group) or suit (run) and the joker can go on it; in code
            # order, as a scan of every code would meet them
            is_group = melds[m, L.KIND] == L.GROUP
            key = melds[m, L.KEY]
            for i in range(5 if is_group else 14):
                if is_group:
                    c = i * 13 + key - 1 if i < 4 else JOKER
                else:
                    c = key * 13 + i if i < 13 else JOKER
                if hand[seat, c] == 0:
                    continue
                res = L.lay_off_kernel(melds[m], c, seat, rules[R_FREE_EXT] == 1,
                                       rules[R_JOKERS_OTHERS] == 1, tmp)
                if res == L.ILLEGAL:
                    continue
                if rnd and R.below(pstate, 2) == 0:
                    continue
                pos = 0
                if not is_group:
                    if res == L.JOKER_MOVED:
                        gone = melds[m, L.JMASK] & ~tmp[L.JMASK]
                        # the cleared joker bit is the card's position
                        pos = 0
                        while (gone >> pos) & 1 == 0:
                            pos += 1
                    elif tmp[L.LO] < melds[m, L.LO]:
                        pos = tmp[L.LO]
                    else:
                        pos = tmp[L.HI]
                _log(log, gs, EV_LAYOFF, seat, c, m, pos, 0)
                if res == L.JOKER_MOVED:
                    to = tmp[L.LO] if tmp[L.LO] < melds[m, L.LO] else tmp[L.HI]
                    _log(log, gs, EV_JOKER_MOVE, seat, JOKER, m, pos, to)
                melds[m, :] = tmp
                hand[seat, c] -= 1
                hand[_seen_row(hand), c] += 1
                _leaves_hand(hand, seat, c)
                changed = True
                if _hand_size(hand[seat]) == 0:
                    return


@njit(cache=True)
def _hand_size(hrow):
    n = 0
    for c in range(N_CODES):
        n += hrow[c]
    return n


@njit(cache=True)
def _distance_to_play(seat, c, hrow, ps, gs, melds):
    """Cards that must come before natural ``c`` can be laid (0-13, 13 = nowhere in sight).

    A rank with a group on the table: 0. A run of its suit: the positions between its next
    growth point and the card (R10 order). A pair in hand of a rank the seat has no group of
    yet: 1 (a new own meld, R5).
    """
    s = c // 13
    k = c % 13 + 1
    best = 13
    if _rank_count(hrow, k) >= 2 and not (ps[seat, PS_BAN_R] >> k) & 1:
        best = 1
    for m in range(gs[GS_N_MELDS]):
        if melds[m, L.KIND] == L.GROUP:
            if melds[m, L.KEY] == k:
                return 0
            continue
        if melds[m, L.KEY] != s:
            continue
        lo = melds[m, L.LO]
        hi = melds[m, L.HI]
        if hi - lo + 1 >= 13:
            continue
        for p in (k, 14):
            if p == 14 and k != 1:
                break
            if hi < 14 and p > hi:
                d = p - hi - 1
            elif hi < 14 and p < lo:
                d = (14 - hi) + (lo - 1 - p)
            elif hi == 14 and p < lo:
                d = lo - 1 - p
            else:
                continue
            if d < best:
                best = d
    return best


@njit(cache=True)
def _from_pile(seat, card, hand, ps, gs):
    """The top discard goes to ``seat``'s hand (a take or call, R9): its rank marks the seat,
    and it leaves the dead cards, where it was counted once the reshuffle was spent."""
    gs[GS_DISC_N] -= 1
    hand[seat, card] += 1
    hand[_known_row(hand, seat), card] += 1
    if gs[GS_RESHUFFLED] == 1:
        hand[_seen_row(hand), card] -= 1
    ps[seat, PS_TOOK] |= 1 << (card % 13 + 1)


@njit(cache=True)
def _danger(seat, hand, ps, P):
    """Fewest cards held by an opponent who has opened (99 if none): how near an out is."""
    best = 99
    for p in range(P):
        if p != seat and ps[p, PS_OPENED] == 1:
            n = _hand_size(hand[p])
            if n < best:
                best = n
    return best


@njit(cache=True)
def _avail(seat, hand, rules, out):
    """Copies of each code ``seat`` may still get: the pack less its hand and the dead cards."""
    dead = hand[_seen_row(hand)]
    for c in range(N_CODES):
        a = (rules[R_JOKERS] if c == JOKER else rules[R_DECKS]) - hand[seat, c] - dead[c]
        out[c] = a if a > 0 else 0


@njit(cache=True)
def _needed(seat, hand, rules, pol, pw):
    """Cards still needed for the contract: exact with ``P_EXACT`` (:mod:`.needed`; dead cards
    cannot come), else the quick lower bound :func:`need`. ``pw`` = (cnt, opts, scratch)."""
    if pol[seat, P_EXACT] > 0:
        av = hand[_seen_row(hand) + 1]
        _avail(seat, hand, rules, av)
        j = _fill_counts(hand[seat], pw[0])
        n = NK.needed_kernel(pw[0], j, rules[R_GROUPS], rules[R_RUNS], rules[R_V6] == 1, av,
                             pw[1], pw[2])
        if n < NK.NO_WAY:
            return n
        # no card that can still come lays it: rank such hands after every possible one, by
        # the bound, so the player keeps trying rather than freezing
        return NO_WAY_RANK + need(hand[seat], rules[R_GROUPS], rules[R_RUNS])
    return need(hand[seat], rules[R_GROUPS], rules[R_RUNS])


@njit(cache=True)
def _state_key(seat, hand):
    """A 62-bit hash of ``seat``'s hand and the dead cards: what its exact count depends on."""
    dead = hand[_seen_row(hand)]
    k = uint64(seat)
    for c in range(N_CODES):
        k = R._splitmix(k ^ uint64(hand[seat, c] + 8 * dead[c] + 64 * c))
    return np.int64(k >> uint64(2))


@njit(cache=True)
def _memo_put(seat, ps, key, val):
    """Remember ``val`` for ``key`` in the seat's memo, replacing the older entry."""
    i = ps[seat, PS_NC_NEXT]
    ps[seat, PS_NC_KEY0 + 2 * i] = key
    ps[seat, PS_NC_VAL0 + 2 * i] = val
    ps[seat, PS_NC_NEXT] = 1 - i


@njit(cache=True)
def _needed_memo(seat, hand, ps, rules, pol, pw):
    """:func:`_needed`, remembered per seat: a seat is asked about the same hand many times
    (every offer until its own turn), and the exact count is the policy's dearest step."""
    if pol[seat, P_EXACT] <= 0:
        return _needed(seat, hand, rules, pol, pw)
    key = _state_key(seat, hand)
    for i in range(2):
        if ps[seat, PS_NC_VAL0 + 2 * i] >= 0 and ps[seat, PS_NC_KEY0 + 2 * i] == key:
            return ps[seat, PS_NC_VAL0 + 2 * i]
    v = _needed(seat, hand, rules, pol, pw)
    _memo_put(seat, ps, key, v)
    return v


@njit(cache=True)
def _live_partners(c, av):
    """Live copies of the cards that would meld with natural ``c``: its rank in every suit and
    its suit's two neighbours on each side (R3, R4), plus the jokers. ``av`` counts the copies
    that can still come (dead cards, in the pile or on the table, cannot)."""
    s = c // 13
    k = c % 13 + 1
    n = av[JOKER]
    for t in range(4):
        n += av[t * 13 + k - 1]
    for d in (-2, -1, 1, 2):
        p = k + d
        if p == 0 or p == 14:
            p = 1  # the ace stands below 2 and above K
        if 1 <= p <= 13:
            n += av[s * 13 + p - 1]
    return n


@njit(cache=True)
def _expert_discard(seat, hand, ps, rules, pol, pw):
    """Before opening, with ``P_EXACT``: the card whose loss leaves the fewest cards needed
    (exact); among those, the one with the fewest live partners (so the hand keeps the most
    live outs), then the highest penalty, then (``P_DEFEND``) not a rank the next player has
    taken or called; then the lowest code.

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
        key = (_live_partners(c, av) * 64 + (15 - card_value(c // 13, c % 13 + 1))) * 2 \
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
    now = _needed_memo(seat, hand, ps, rules, pol, pw)
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
    for i in range(m):
        c = cand[i] % 64
        hrow[c] -= 1
        nd = _needed(seat, hand, rules, pol, pw)
        if nd <= now:
            # the hand after this discard: what the next offers to this seat will ask about
            _memo_put(seat, ps, _state_key(seat, hand), nd)
            hrow[c] += 1
            return c
        hrow[c] += 1
    c = cand[0] % 64
    hrow[c] -= 1
    _memo_put(seat, ps, _state_key(seat, hand), now + 1)
    hrow[c] += 1
    return c


@njit(cache=True)
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
    w0 = _best_window(hrow, 0)
    w1 = _best_window(hrow, 1)
    w2 = _best_window(hrow, 2)
    w3 = _best_window(hrow, 3)
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
            n = _rank_count(hrow, k)
            # the rank moves from cost bucket of n naturals to that of n - 1
            b0, b1, b2, b3 = h0, h1, h2, h3
            if n == 3:
                b0 -= 1
                b1 += 1
            elif n == 2:
                b1 -= 1
                b2 += 1
            elif n == 1:
                b2 -= 1
                b3 += 1
            hrow[c] -= 1
            ws = _best_window(hrow, s)
            hrow[c] += 1
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


@njit(cache=True)
def _wants_card(seat, card, hand, ps, gs, rules, pol, pstate, gain_col, pw):
    """Take (or call) ``card``? Random: a coin. Else it must cut the cards still needed by the
    policy's gain; a call that does not complete the contract must also pass the policy's
    checks on the need left, the stock, the card's penalty and an opponent near going out."""
    if pol[seat, P_RANDOM] > 0:
        return R.below(pstate, 2) == 1
    hrow = hand[seat]
    before = _needed_memo(seat, hand, ps, rules, pol, pw)
    hrow[card] += 1
    after = _needed_memo(seat, hand, ps, rules, pol, pw)
    hrow[card] -= 1
    if before - after < pol[seat, gain_col]:
        return False
    if gain_col != P_CALL_GAIN or after == 0:
        return True
    return (after <= pol[seat, P_CALL_MAX_NEED]
            and gs[GS_STOCK_N] >= pol[seat, P_CALL_MIN_STOCK]
            and card_value(card // 13, card % 13 + 1) <= pol[seat, P_CALL_MAX_CARD]
            and _danger(seat, hand, ps, rules[R_PLAYERS]) > pol[seat, P_CALL_DANGER]
            and _opened_others(seat, ps, rules[R_PLAYERS]) < pol[seat, P_CALL_MAX_OPENED]
            and _hand_penalty(hand[seat]) <= pol[seat, P_CALL_MAX_HAND])


@njit(cache=True)
def _opened_others(seat, ps, P):
    """Opponents who have opened (R7): each can go out and catch what a call adds."""
    n = 0
    for p in range(P):
        if p != seat and ps[p, PS_OPENED] == 1:
            n += 1
    return n


@njit(cache=True)
def _hand_penalty(hrow):
    """R1 penalty of the cards in a hand (what is caught if someone goes out now, R12)."""
    pen = 50 * hrow[JOKER]
    for c in range(JOKER):
        pen += hrow[c] * card_value(c // 13, c % 13 + 1)
    return pen


@njit(cache=True)
def _call_limit(seat, rules, pol):
    """Calls ``seat`` may make this hand: the rules' limit (R9, V8), or the policy's if smaller."""
    lim = rules[R_CALL_LIMIT]
    own = pol[seat, P_CALL_LIMIT]
    if own >= 0 and own < lim:
        return np.int64(own)
    return lim


# -- phases of a hand ---------------------------------------------------------------------------


@njit(cache=True)
def _reset_hand(P, hand, ps, gs, rstates, seed, game, hand_no, attempt):
    """Clear the table and key the streams (C3): deal, reshuffle, one per seat's policy."""
    for i in range(GS_COLS):
        if i != GS_LOG_ON:
            gs[i] = 0
    gs[GS_OUT] = -1
    gs[GS_FIRST_DOWN] = -1
    gs[GS_TAKEN_BY] = -1
    gs[GS_CALLED_BY] = -1
    for p in range(hand.shape[0]):
        for c in range(N_CODES):
            hand[p, c] = 0
    for p in range(P):
        for i in range(PS_COLS):
            ps[p, i] = 0
        ps[p, PS_OPEN_TURN] = -1
        ps[p, PS_NC_VAL0] = -1
        ps[p, PS_NC_VAL1] = -1
    for i in range(2):
        rstates[i, 0] = R.stream_key(seed, game, hand_no, attempt, i)
        rstates[i, 1] = uint64(0)
    for p in range(P):
        rstates[2 + p, 0] = R.stream_key(seed, game, hand_no, attempt, R.STREAM_POLICY + p)
        rstates[2 + p, 1] = uint64(0)


@njit(cache=True)
def _deal(dealer, rules, hand, ps, gs, stock, disc, log, rstates, cnt, ws):
    """R1, R2, C1: shuffle the pack, deal one card at a time from the dealer's left, turn the
    upcard as the dealer's discard. Writes hand, ps (PS_MEETS), gs, stock, disc."""
    P = rules[R_PLAYERS]
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    v6 = rules[R_V6] == 1
    n = 0
    for c in range(JOKER):
        for _ in range(rules[R_DECKS]):
            stock[n] = c
            n += 1
    for _ in range(rules[R_JOKERS]):
        stock[n] = JOKER
        n += 1
    R.shuffle(rstates[0], stock, n)
    # the top of the stock is the end of the array
    for i in range(rules[R_CARDS] * P):
        seat = (dealer + 1 + i) % P
        n -= 1
        c = stock[n]
        hand[seat, c] += 1
        _log(log, gs, EV_DEAL, seat, c, 0, 0, 0)
    for p in range(P):
        if v6 or need(hand[p], g, r) == 0:
            v, _ = _solve_seat(hand[p], g, r, v6, 0, 0, cnt, ws[0], ws[1], ws[2], ws[3])
            ps[p, PS_MEETS] = 1 if v >= 0 else 0
    n -= 1
    disc[0] = stock[n]
    gs[GS_DISC_N] = 1
    gs[GS_STOCK_N] = n
    gs[GS_LIVE] = 1
    gs[GS_DISCARDER] = dealer
    _log(log, gs, EV_UPCARD, dealer, disc[0], 0, 0, 0)


@njit(cache=True)
def _decide(seat, wants, gs):
    """The seat's take-or-call answer: the policy's ``wants``, unless a branch forces it (the
    policy is still asked first, so its random stream advances the same way)."""
    if (gs[GS_FORCE_MASK] >> seat) & 1:
        return (gs[GS_FORCE_ACTS] >> seat) & 1 == 1
    return wants


@njit(cache=True)
def _call_round(cur, D, rules, pol, hand, ps, gs, stock, disc, log, rstates, pw):
    """R9.2: offer the live discard ``D`` clockwise from the next player's left, never to its
    discarder; the first eligible seat that wants it calls it and takes a penalty card.

    Eligible: not opened (R8) and under the call limit (R9, V8); every eligible seat that passes
    is logged as declining. Writes hand, ps, gs, disc, stock. Returns False if the penalty card
    found the stock exhausted (R13: the hand is void).
    """
    P = rules[R_PLAYERS]
    discarder = gs[GS_DISCARDER]
    for i in range(1, P - 1):
        cs = (cur + i) % P
        if cs == discarder:
            break
        if ps[cs, PS_OPENED] == 1 or ps[cs, PS_CALLS] >= rules[R_CALL_LIMIT]:
            continue
        wants = ps[cs, PS_CALLS] < _call_limit(cs, rules, pol) and _wants_card(
            cs, D, hand, ps, gs, rules, pol, rstates[2 + cs], P_CALL_GAIN, pw)
        if not _decide(cs, wants, gs):
            _log(log, gs, EV_DECLINE, cs, D, 1, 0, 0)
            continue
        _from_pile(cs, D, hand, ps, gs)
        ps[cs, PS_CALLS] += 1
        gs[GS_CALLED_BY] = cs
        _log(log, gs, EV_CALL, cs, D, discarder, 0, 0)
        return _draw_to(cs, EV_PENALTY, hand, gs, stock, disc, log, rstates)
    return True


@njit(cache=True)
def _draw_to(seat, ev, hand, gs, stock, disc, log, rstates):
    """The top of the stock to ``seat`` (a draw, or a caller's penalty card, R9), logged as
    ``ev``; False if the stock is exhausted again (R13: the hand is void)."""
    c = _draw_stock(stock, disc, gs, rstates[1], log, hand[_seen_row(hand)], seat,
                    _seen_row(hand))
    if c < 0:
        return False
    hand[seat, c] += 1
    _log(log, gs, ev, seat, c, 0, 0, 0)
    return True


@njit(cache=True)
def _draw_phase(cur, rules, pol, hand, ps, gs, stock, disc, log, rstates, pw):
    """R9 then R6.1: the live discard to the next player (take) or a caller, then the draw.

    Writes hand, ps, gs, stock, disc. Returns False if the hand became void (R13).
    """
    took = False
    if gs[GS_LIVE] == 1:
        gs[GS_LIVE] = 0
        D = disc[gs[GS_DISC_N] - 1]
        # R9.1: the next player may take the discard as its draw, if not opened (R8)
        if ps[cur, PS_OPENED] == 0:
            wants = _wants_card(cur, D, hand, ps, gs, rules, pol, rstates[2 + cur], P_TAKE_GAIN,
                                pw)
            if _decide(cur, wants, gs):
                _from_pile(cur, D, hand, ps, gs)
                gs[GS_TAKEN_BY] = cur
                took = True
                _log(log, gs, EV_TAKE, cur, D, 0, 0, 0)
            else:
                _log(log, gs, EV_DECLINE, cur, D, 0, 0, 0)
        if not took and not _call_round(cur, D, rules, pol, hand, ps, gs, stock, disc, log,
                                        rstates, pw):
            return False
    return took or _draw_to(cur, EV_DRAW, hand, gs, stock, disc, log, rstates)


# -- V9 Tuluki: the two-player discard step ------------------------------------------------------


@njit(cache=True)
def _may_call(seat, ps, rules):
    """R8, R9, V8: ``seat`` is offered a call at all (not opened, under the rules' limit)."""
    return ps[seat, PS_OPENED] == 0 and ps[seat, PS_CALLS] < rules[R_CALL_LIMIT]


@njit(cache=True)
def _wants_call(seat, card, hand, ps, gs, rules, pol, rstates, pw):
    """The policy's call answer (its own limit first, then :func:`_wants_card`)."""
    return ps[seat, PS_CALLS] < _call_limit(seat, rules, pol) and _wants_card(
        seat, card, hand, ps, gs, rules, pol, rstates[2 + seat], P_CALL_GAIN, pw)


@njit(cache=True)
def _wants_turned(b, T, hand, ps, gs, rules, pol, rstates, melds, pw):
    """V9 (b): does B take the turned card ``T`` as its draw? A joker always (the rule); before
    opening, if it cuts the cards needed by the policy's take gain (:func:`_wants_card`); once
    opened, if it can be laid off now (:func:`_distance_to_play` 0)."""
    if T == JOKER:
        return True
    if ps[b, PS_OPENED] == 0:
        return _wants_card(b, T, hand, ps, gs, rules, pol, rstates[2 + b], P_TAKE_GAIN, pw)
    if pol[b, P_RANDOM] > 0:
        return R.below(rstates[2 + b], 2) == 1
    return _distance_to_play(b, T, hand[b], ps, gs, melds) == 0


@njit(cache=True)
def _from_turn_up(seat, T, hand, ps):
    """The turned card goes to ``seat``'s hand, in sight of the table (a natural is known to be
    there and marks its rank, as a card from the pile does)."""
    hand[seat, T] += 1
    if T != JOKER:
        hand[_known_row(hand, seat), T] += 1
        ps[seat, PS_TOOK] |= 1 << (T % 13 + 1)


@njit(cache=True)
def _allows(b, a, T, ps, pol):
    """V9 (b): does B allow A's call of the turned card? An opened B must (R8); otherwise B
    refuses only with ``P_DEFEND`` and a rank A has taken or called this hand (``PS_TOOK``)."""
    if ps[b, PS_OPENED] == 1 or pol[b, P_DEFEND] <= 0:
        return True
    return (ps[a, PS_TOOK] >> (T % 13 + 1)) & 1 == 0


@njit(cache=True)
def _tuluki_draw_phase(cur, rules, pol, hand, ps, gs, stock, disc, melds, log, rstates, pw):
    """V9 then R6.1, for B = ``cur`` after A's discard D (or the upcard, C1): B may call D (with
    a penalty card, never take it); A turns up the stock's top card T; B takes T as its draw if
    it wants it (a joker: must); else A may call T (a penalty card) if B allows; else T is
    buried face up, never live; then B draws. After a turn with no discard (C2) B just draws.

    Writes hand, ps, gs, stock, disc. Returns False if the hand became void (R13).
    """
    if gs[GS_LIVE] == 1:
        gs[GS_LIVE] = 0
        a = gs[GS_DISCARDER]
        D = disc[gs[GS_DISC_N] - 1]
        # V9 (a): B may claim D only as a call (R8, R9, V8), the one branchable answer
        if _may_call(cur, ps, rules):
            wants = _wants_call(cur, D, hand, ps, gs, rules, pol, rstates, pw)
            if _decide(cur, wants, gs):
                _from_pile(cur, D, hand, ps, gs)
                ps[cur, PS_CALLS] += 1
                gs[GS_CALLED_BY] = cur
                _log(log, gs, EV_CALL, cur, D, a, 0, 0)
                if not _draw_to(cur, EV_PENALTY, hand, gs, stock, disc, log, rstates):
                    return False
            else:
                _log(log, gs, EV_DECLINE, cur, D, DECLINE_CALL, 0, 0)
        # V9 (b): A turns up the top of the stock (R13 as for a draw)
        T = _draw_stock(stock, disc, gs, rstates[1], log, hand[_seen_row(hand)], cur,
                        _seen_row(hand))
        if T < 0:
            return False
        _log(log, gs, EV_TURN_UP, a, T, 0, 0, 0)
        if _wants_turned(cur, T, hand, ps, gs, rules, pol, rstates, melds, pw):
            _from_turn_up(cur, T, hand, ps)
            _log(log, gs, EV_TAKE, cur, T, 0, 1, 0)
            return True  # B's draw: D stays buried (R9)
        _log(log, gs, EV_DECLINE, cur, T, DECLINE_TURNED_TAKE, 0, 0)
        called = False
        if _may_call(a, ps, rules):
            if not _wants_call(a, T, hand, ps, gs, rules, pol, rstates, pw):
                _log(log, gs, EV_DECLINE, a, T, DECLINE_TURNED_CALL, 0, 0)
            elif not _allows(cur, a, T, ps, pol):
                _log(log, gs, EV_REFUSE, cur, T, a, 0, 0)
            else:
                _from_turn_up(a, T, hand, ps)
                ps[a, PS_CALLS] += 1
                _log(log, gs, EV_CALL, a, T, a, 1, 0)
                if not _draw_to(a, EV_PENALTY, hand, gs, stock, disc, log, rstates):
                    return False
                called = True
        if not called:
            # nobody took it: face up on the pile, not live; dead once the reshuffle is spent
            disc[gs[GS_DISC_N]] = T
            gs[GS_DISC_N] += 1
            if gs[GS_RESHUFFLED] == 1:
                hand[_seen_row(hand), T] += 1
            _log(log, gs, EV_BURY, a, T, 0, 0, 0)
    return _draw_to(cur, EV_DRAW, hand, gs, stock, disc, log, rstates)


@njit(cache=True)
def _meld_phase(cur, rules, pol, hand, ps, gs, melds, log, pst, cnt, ws):
    """R7: open with the contract (plus extra own melds), or, once opened, lay further own melds
    of ranks and suits not yet owned (R5). Returns True if ``cur`` opened this turn."""
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    v6 = rules[R_V6] == 1
    if ps[cur, PS_OPENED] == 1:
        if _hand_size(hand[cur]) > 0 and (pol[cur, P_RANDOM] <= 0 or R.below(pst, 2) == 1):
            v, _ = _solve_seat(hand[cur], 0, 0, v6, ps[cur, PS_BAN_R], ps[cur, PS_BAN_S], cnt,
                               ws[0], ws[1], ws[2], ws[3])
            if v > 0:
                _add_meld_from_solver(cur, hand, ps, gs, melds, log, ws[2], ws[3], 0, 0, v6)
        return False
    # need() is 0 whenever the hand can open, so the solver runs only then
    if not (v6 or need(hand[cur], g, r) == 0):
        return False
    v, nc = _solve_seat(hand[cur], g, r, v6, 0, 0, cnt, ws[0], ws[1], ws[2], ws[3])
    if v < 0:
        return False
    go = True
    if pol[cur, P_RANDOM] > 0:
        go = R.below(pst, 2) == 1
    elif (pol[cur, P_HOLD] > 0 and ps[cur, PS_TURNS] < pol[cur, P_HOLD_TURNS]
          and _danger(cur, hand, ps, rules[R_PLAYERS]) > pol[cur, P_HOLD_DANGER]):
        # hold for the double (R12): open only if at most one card would remain
        go = _hand_size(hand[cur]) - nc <= 1
    if not go:
        return False
    _log(log, gs, EV_OPEN, cur, -1, 0, 0, 0)
    _add_meld_from_solver(cur, hand, ps, gs, melds, log, ws[2], ws[3], g, r, v6)
    ps[cur, PS_OPENED] = 1
    ps[cur, PS_OPEN_TURN] = ps[cur, PS_TURNS]
    if gs[GS_FIRST_DOWN] < 0:
        gs[GS_FIRST_DOWN] = cur
    return True


@njit(cache=True)
def _discard_phase(cur, rules, pol, hand, ps, gs, disc, melds, log, pst, pw):
    """R6.3: discard a natural card, which goes live for R9; a hand of jokers only ends the turn
    with no discard and nothing on offer (C2). Writes hand, gs, disc."""
    if _hand_size(hand[cur]) == 0:
        return
    dc = _choose_discard(cur, hand, ps, gs, melds, rules, pol, pst, pw)
    if dc < 0:
        gs[GS_LIVE] = 0
        _log(log, gs, EV_NO_DISCARD, cur, -1, 0, 0, 0)
        return
    hand[cur, dc] -= 1
    _leaves_hand(hand, cur, dc)
    if gs[GS_RESHUFFLED] == 1:  # no second reshuffle: a discard never comes back (R13)
        hand[_seen_row(hand), dc] += 1
    disc[gs[GS_DISC_N]] = dc
    gs[GS_DISC_N] += 1
    gs[GS_LIVE] = 1
    gs[GS_DISCARDER] = cur
    _log(log, gs, EV_DISCARD, cur, dc, 0, 0, 0)


@njit(cache=True)
def hand_doubled(rules, gs):
    """1 if the hand's penalties double (R12: out on the opening; V4: only by the first down)."""
    if gs[GS_VOID] == 0 and gs[GS_OUT_ON_OPENING] == 1:
        if rules[R_V4] == 1 and gs[GS_FIRST_DOWN] != gs[GS_OUT]:
            return 0
        return 1
    return 0


@njit(cache=True)
def _score(rules, hand, ps, gs, log, out, row0, game, hand_no, attempt, dealer):
    """R12: penalties of the cards left, doubled after an out on the opening (V4: only by the
    first down); nothing scores in a void hand (R13). Writes ``out[row0:row0+P]``."""
    P = rules[R_PLAYERS]
    out_seat = gs[GS_OUT]
    doubled = hand_doubled(rules, gs)
    gs[GS_DOUBLED] = doubled
    for p in range(P):
        pen = 0
        left = 0
        for c in range(N_CODES):
            k = hand[p, c]
            if k > 0:
                left += k
                pen += k * (50 if c == JOKER else card_value(c // 13, c % 13 + 1))
        if gs[GS_VOID] == 1:
            pen = 0
        else:
            pen *= 1 + doubled
            _log(log, gs, EV_SCORE, p, -1, pen, doubled, 0)
        o = out[row0 + p]
        o[O_GAME] = game
        o[O_HAND] = hand_no
        o[O_ATTEMPT] = attempt
        o[O_SEAT] = p
        o[O_DEALER] = dealer
        o[O_MEETS] = ps[p, PS_MEETS]
        o[O_OPENED] = ps[p, PS_OPENED]
        o[O_OPEN_TURN] = ps[p, PS_OPEN_TURN]
        o[O_CALLS] = ps[p, PS_CALLS]
        o[O_WENT_OUT] = 1 if p == out_seat else 0
        o[O_OUT_ON_OPENING] = 1 if (p == out_seat and gs[GS_OUT_ON_OPENING] == 1) else 0
        o[O_DOUBLED] = 1 if (doubled == 1 and p != out_seat) else 0
        o[O_CARDS_LEFT] = left
        o[O_PENALTY] = pen
        o[O_TURNS] = ps[p, PS_TURNS]
        o[O_RESHUFFLED] = gs[GS_RESHUFFLED]
        o[O_VOID] = gs[GS_VOID]
        o[O_STALLED] = gs[GS_STALLED]
        o[O_ATTEMPTS] = attempt + 1


@njit(cache=True)
def _turn(rules, pol, hand, ps, gs, stock, disc, melds, log, rstates, cnt, ws, pw, tmp):
    """The turn of seat ``gs[GS_CUR]``: draw and calls (R6, R9), melds (R7), lay-offs (R10,
    R11), the discard (R6, C2). Returns True when the hand is over: someone went out (R12), the
    stock ran out twice (R13) or the engine's turn cap was reached (stalled)."""
    P = rules[R_PLAYERS]
    cur = gs[GS_CUR]
    if gs[GS_TURNS] >= MAX_TURNS:
        gs[GS_VOID] = 1
        gs[GS_STALLED] = 1
        _log(log, gs, EV_VOID, -1, -1, 1, 0, 0)
        return True
    gs[GS_TURNS] += 1
    ps[cur, PS_TURNS] += 1
    # C3: each table turn restarts the policy streams at its own counter, so two branches of a
    # hand that differ earlier still share their randomness for the same seat and turn
    for p in range(P):
        rstates[2 + p, 1] = uint64(gs[GS_TURNS]) << uint64(32)
    gs[GS_TAKEN_BY] = -1
    gs[GS_CALLED_BY] = -1
    pst = rstates[2 + cur]
    _log(log, gs, EV_TURN, cur, -1, ps[cur, PS_TURNS], 0, 0)
    if rules[R_TULUKI] == 1:
        drew = _tuluki_draw_phase(cur, rules, pol, hand, ps, gs, stock, disc, melds, log,
                                  rstates, pw)
    else:
        drew = _draw_phase(cur, rules, pol, hand, ps, gs, stock, disc, log, rstates, pw)
    gs[GS_FORCE_MASK] = 0
    if not drew:
        _log(log, gs, EV_VOID, -1, -1, 0, 0, 0)
        return True
    opened_now = _meld_phase(cur, rules, pol, hand, ps, gs, melds, log, pst, cnt, ws)
    if ps[cur, PS_OPENED] == 1 and _hand_size(hand[cur]) > 0:
        _lay_offs(cur, hand, gs, melds, log, rules, pol, pst, tmp)
    _discard_phase(cur, rules, pol, hand, ps, gs, disc, melds, log, pst, pw)
    if _hand_size(hand[cur]) == 0:
        gs[GS_OUT] = cur
        gs[GS_OUT_ON_OPENING] = 1 if opened_now else 0
        _log(log, gs, EV_OUT, cur, -1, 1 if opened_now else 0, 0, 0)
        return True
    gs[GS_CUR] = (cur + 1) % P
    return False


@njit(cache=True)
def one_turn(rules, pol, t):
    """:func:`_turn` on table ``t``; True when the hand is over."""
    ws = (t[7], t[8], t[9], t[10])
    pw = (t[11], t[14], t[15])
    return _turn(rules, pol, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[13], t[11], ws, pw,
                 t[12])


@njit(cache=True)
def score_hand(rules, t, out, row0, game, hand_no, attempt, dealer):
    """:func:`_score` on table ``t``."""
    _score(rules, t[0], t[1], t[2], t[6], out, row0, game, hand_no, attempt, dealer)


@njit(cache=True)
def play_out(rules, pol, t):
    """Play the hand on table ``t`` (a :func:`new_table` tuple) from its current state to its
    end; the score is left to the caller."""
    ws = (t[7], t[8], t[9], t[10])
    pw = (t[11], t[14], t[15])
    while not _turn(rules, pol, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[13], t[11], ws, pw,
                    t[12]):
        pass


@njit(cache=True)
def start_hand(seed, game, hand_no, attempt, dealer, rules, t):
    """Reset table ``t``, key the hand's streams and deal (R2, C1); the next player is on."""
    P = rules[R_PLAYERS]
    ws = (t[7], t[8], t[9], t[10])
    _reset_hand(P, t[0], t[1], t[2], t[13], seed, game, hand_no, attempt)
    _deal(dealer, rules, t[0], t[1], t[2], t[3], t[4], t[6], t[13], t[11], ws)
    t[2][GS_CUR] = (dealer + 1) % P


@njit(cache=True)
def play_hand(seed, game, hand_no, attempt, dealer, rules, pol, hand, ps, gs, stock, disc,
              melds, log, ws_opts, ws_scratch, ws_runs, ws_groups, cnt, tmp, rstates, n_opts,
              n_scratch, out, row0):
    """Play one hand attempt; write one row per seat into ``out[row0:row0+P]``; return void.

    Phases: reset and streams, the deal (R2, C1), then turns (:func:`_turn`) until a hand is
    empty (R12) or the stock is exhausted twice (R13), then the score (R12).
    """
    t = (hand, ps, gs, stock, disc, melds, log, ws_opts, ws_scratch, ws_runs, ws_groups, cnt,
         tmp, rstates, n_opts, n_scratch)
    start_hand(seed, game, hand_no, attempt, dealer, rules, t)
    play_out(rules, pol, t)
    _score(rules, hand, ps, gs, log, out, row0, game, hand_no, attempt, dealer)
    return gs[GS_VOID]


@njit(cache=True)
def first_dealer(seed, game, players):
    """R2: the first dealer of a game, drawn from its own stream."""
    st = np.empty(2, np.uint64)
    st[0] = R.stream_key(seed, game, 0, 0, R.STREAM_DEALER)
    st[1] = uint64(0)
    return R.below(st, players)


def new_table(players, pack_size, log_on=False):
    """Preallocated arrays for one worker (see the module docstring for the layouts)."""
    t = new_table_jit(players, pack_size, MAX_LOG if log_on else 1)
    t[2][GS_LOG_ON] = 1 if log_on else 0
    return t


@njit(cache=True)
def new_table_jit(players, pack_size, log_rows):
    """The worker's arrays: hand, ps, gs, stock, disc, melds, log, the solver's workspace
    (opts, scratch, runs, groups), cnt, tmp, the stream states and the needed-count workspace
    (opts, scratch)."""
    return (
        np.zeros((2 * players + 4, N_CODES), np.int64),
        np.zeros((players, PS_COLS), np.int64),
        np.zeros(GS_COLS, np.int64),
        np.zeros(pack_size, np.int64),
        np.zeros(pack_size, np.int64),
        np.zeros((MAX_MELDS, L.MELD_COLS), np.int64),
        np.zeros((log_rows, LOG_COLS), np.int64),
        np.zeros((4, SOLVER_CAPACITY, OPT_COLS), np.int64),
        np.zeros(SCRATCH + 64, np.int64),
        np.zeros((4, 3), np.int64),
        np.zeros(14, np.int64),
        np.zeros((4, 14), np.int64),
        np.zeros(L.MELD_COLS, np.int64),
        np.zeros((players + 2, 2), np.uint64),
        np.zeros((4, NK.CAPACITY, NK.N_COLS), np.int64),
        np.zeros(NK.SCRATCH, np.int64),
    )


@njit(cache=True)
def hand_done(void, stalled, attempt, max_replays):
    """R13, R14: a hand is over when scored; a void one is dealt again by the same dealer, up to
    ``max_replays`` times. A stalled hand (the engine's turn cap, not a rule) is not replayed:
    the policy, not the cards, stopped it."""
    return void == 0 or stalled == 1 or attempt > max_replays


@njit(cache=True)
def _play_game(seed, i, game, hand_nos, rules_by_hand, pol, max_replays, keep_voids, t, hrows,
               out, off, cap):
    """Every hand of game ``game`` (block index ``i``), void ones replayed (R13, R14), the deal
    passing left after each finished hand. Rows go to ``out[off : off + cap]``; returns the rows
    the game needs (more than ``cap`` means the caller must play it again with more room)."""
    P = rules_by_hand[0, R_PLAYERS]
    dealer = first_dealer(seed, game, P)
    n = 0
    for h in range(hand_nos.shape[0]):
        attempt = 0
        first = n
        while True:
            void = play_hand(seed, game, hand_nos[h], attempt, dealer, rules_by_hand[h], pol,
                             t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10],
                             t[11], t[12], t[13], t[14], t[15], hrows, 0)
            done = hand_done(void, t[2][GS_STALLED], attempt + 1, max_replays)
            if done or keep_voids:
                for p in range(P):
                    if n < cap:
                        for j in range(O_COLS):
                            out[off + n, j] = hrows[p, j]
                        out[off + n, O_GAME] = i
                    n += 1
            attempt += 1
            if done:
                break
        for k in range(first, min(n, cap)):
            out[off + k, O_ATTEMPTS] = attempt
        dealer = (dealer + 1) % P
    return n


@njit(cache=True, parallel=True)
def play_block(seed, games, hand_nos, rules_by_hand, pol, pack_size, n_workers, max_replays,
               keep_voids, out, offsets, caps, n_rows):
    """Play ``len(games)`` games (each a list of hands) across ``n_workers`` workers.

    Game ``i`` has id ``games[i]`` and plays the hands ``hand_nos`` in order (one hand for
    :func:`play_hands`, the schedule for :func:`play_games`). Its rows (scored attempts, plus
    void ones with ``keep_voids``) go to ``out[offsets[i] : offsets[i] + caps[i]]``, with
    ``O_GAME = i``; ``n_rows[i]`` receives the rows it needed. Work is split by game, so output
    does not depend on workers. Writes out, n_rows.
    """
    n = games.shape[0]
    P = rules_by_hand[0, R_PLAYERS]
    per = (n + n_workers - 1) // n_workers
    for w in prange(n_workers):
        t = new_table_jit(P, pack_size, 1)
        hrows = np.zeros((P, O_COLS), np.int32)
        for i in range(w * per, min(n, w * per + per)):
            n_rows[i] = _play_game(seed, i, games[i], hand_nos, rules_by_hand, pol, max_replays,
                                   keep_voids, t, hrows, out, offsets[i], caps[i])
