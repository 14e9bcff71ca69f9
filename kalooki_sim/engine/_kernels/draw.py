"""Draw phase (R6, R9, R13): the offer of the discard, the round of calls with its penalty card,
the draw from the stock and its one reshuffle; which seat wants a card (take or call).
"""

from __future__ import annotations

from numba import njit

from ...game.kernels import card_value
from . import needed as NK
from . import rng as R
from .memo import (
    _count_drawn,
    _cut_memo_sums,
    _needed_memo_sums,
    _row_sums,
    _sums_moved,
)
from .reading import (
    _avail,
    _call_limit,
    _danger,
    _fill_counts,
    _from_pile,
    _hand_penalty,
    _opened_others,
    _seen_row,
    need_with,
)
from .table import (
    CHART_BANDS,
    CHART_LEVELS,
    EV_CALL,
    EV_DECLINE,
    EV_DRAW,
    EV_PENALTY,
    EV_RESHUFFLE,
    EV_TAKE,
    GS_CALLED_BY,
    GS_DISC_N,
    GS_DISCARDER,
    GS_FORCE_ACTS,
    GS_FORCE_MASK,
    GS_LIVE,
    GS_RESHUFFLED,
    GS_SEAT_DRAWS,
    GS_SEAT_FIRST,
    GS_SEAT_STOCK,
    GS_SEAT_TOP,
    GS_STOCK_N,
    GS_TAKEN_BY,
    GS_VOID,
    NO_WAY_RANK,
    P_CALL_DANGER,
    P_CALL_GAIN,
    P_CALL_MAX_CARD,
    P_CALL_MAX_HAND,
    P_CALL_MAX_NEED,
    P_CALL_MAX_OPENED,
    P_CALL_MIN_STOCK,
    P_CHART,
    P_CHART0,
    P_EXACT,
    P_RANDOM,
    P_TAKE_GAIN,
    PS_CALLS,
    PS_OPENED,
    R_CALL_LIMIT,
    R_GROUPS,
    R_PLAYERS,
    R_RUNS,
    R_TULUKI,
    R_V6,
    _log,
)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _wants_card(seat, card, hand, ps, gs, rules, pol, pstate, gain_col, pw):
    """Take (or call) ``card``? Random: a coin. Else it must cut the cards still needed by the
    policy's gain; a call that does not complete the contract must also pass the policy's
    checks on the need left, the stock, the card's penalty and an opponent near going out."""
    if pol[seat, P_RANDOM] > 0:
        return R.below(pstate, 2) == 1
    hrow = hand[seat]
    if pol[seat, P_EXACT] <= 0:
        before, after = need_with(hrow, rules[R_GROUPS], rules[R_RUNS], card)
    else:
        hs, ds = _row_sums(seat, hand)  # the memo's keys of the hand, and with the card
        before = _needed_memo_sums(seat, hand, ps, rules, pol, pw, NK.NO_WAY, hs, ds)
        # only "does it cut the count by the gain?" matters, then the exact count left; a
        # chart reads the count after the card exactly: a cut by one is all a card can do
        cut_to = before - pol[seat, gain_col]
        if pol[seat, P_CHART] > 0 and cut_to < before - 1:
            cut_to = before - 1
        hrow[card] += 1
        after = _cut_memo_sums(seat, hand, ps, rules, pol, pw, card, before, cut_to,
                               _sums_moved(hs, card, 1), ds)
        hrow[card] -= 1
        if pol[seat, P_CHART] > 0:
            v = _chart_answer(seat, ps, gs, rules, pol, gain_col == P_TAKE_GAIN, before, after)
            if v != 0:
                return v > 0
    if before - after < pol[seat, gain_col]:
        return False
    if gain_col != P_CALL_GAIN:
        return True
    if after == 0 and pol[seat, P_EXACT] <= 0 and not _completes(seat, card, hand, rules, pw):
        after = 1  # the bound's 0 did not promise the contract: the call checks still apply
    if after == 0:
        return True
    return (after <= pol[seat, P_CALL_MAX_NEED]
            and gs[GS_STOCK_N] >= pol[seat, P_CALL_MIN_STOCK]
            and card_value(card // 13, card % 13 + 1) <= pol[seat, P_CALL_MAX_CARD]
            and _danger(seat, hand, ps, rules[R_PLAYERS]) > pol[seat, P_CALL_DANGER]
            and _opened_others(seat, ps, rules[R_PLAYERS]) < pol[seat, P_CALL_MAX_OPENED]
            and _hand_penalty(hand[seat]) <= pol[seat, P_CALL_MAX_HAND])


@njit(cache=True, _nrt=False, inline="always")
def _need_level(before, after):
    """The chart's level (:data:`kalooki_sim.engine.charts.NEED_LEVELS`) of the exact count
    ``after`` of a hand whose count was ``before`` (``after = before`` for the count before):
    0-5, 6 for "6+ (cut)" (6 or more, fewer than before), 7 for "6+", 8 for "cannot lay
    it" (no card that can still come lays it)."""
    if after >= NO_WAY_RANK:
        return CHART_LEVELS - 1
    if after < CHART_LEVELS - 3:
        return after
    return CHART_LEVELS - 3 if after < before < NO_WAY_RANK else CHART_LEVELS - 2


@njit(cache=True, _nrt=False, inline="always")
def _contract_index(g, r):
    """The card's hand (0-8) whose contract is ``g`` groups and ``r`` runs (R2), or -1."""
    if g + r == 3:
        return r
    if g + r == 4:
        return 4 + r
    return -1


@njit(cache=True, _nrt=False)
def _chart_answer(seat, ps, gs, rules, pol, take, before, after):
    """The seat's chart at this offer: 1 act, -1 pass, 0 the policy's own rule
    (the cell is either, unsure, blank or not charted). The cell: the contract, take or
    call, the exact count before and after the card (``before``, ``after``), the cards left
    in the stock (bands 40+, 20-39, 0-19) and whether an opponent has opened, as a player
    sees them and as :func:`kalooki_sim.call_decisions` records them. The two-player game
    (V9) has no chart."""
    h = _contract_index(rules[R_GROUPS], rules[R_RUNS])
    if h < 0 or rules[R_TULUKI] == 1:
        return 0
    n = gs[GS_STOCK_N]
    band = 0 if n >= 40 else (1 if n >= 20 else 2)
    opened = 1 if _opened_others(seat, ps, rules[R_PLAYERS]) > 0 else 0
    b = int(before)
    i = ((((h * 2 + (0 if take else 1)) * CHART_LEVELS + _need_level(b, b))
           * CHART_LEVELS + _need_level(b, int(after))) * CHART_BANDS + band) * 2 + opened
    return int(pol[seat, P_CHART0 + i])


@njit(cache=True, _nrt=False)
def _completes(seat, card, hand, rules, pw):
    """Would ``card`` complete ``seat``'s contract (R7)? The exact count (:mod:`.needed`) is 0
    exactly then; the quick bound :func:`need` may be 0 for a hand that cannot open."""
    av = hand[_seen_row(hand) + 1]
    _avail(seat, hand, rules, av)
    hand[seat, card] += 1
    j = _fill_counts(hand[seat], pw.cnt)
    # only "is it 0?" is asked: the search stops at its first level (a count capped at 0)
    n = NK.needed_upto(pw.cnt, j, rules[R_GROUPS], rules[R_RUNS], rules[R_V6] == 1, av, pw.opts,
                       pw.scratch, 0)
    hand[seat, card] -= 1
    return n == 0


@njit(cache=True, _nrt=False)
def _decide(seat, wants, gs):
    """The seat's take-or-call answer: the policy's ``wants``, unless a branch forces it (the
    policy is still asked first, so its random stream advances the same way)."""
    if (gs[GS_FORCE_MASK] >> seat) & 1:
        return (gs[GS_FORCE_ACTS] >> seat) & 1 == 1
    return wants


@njit(cache=True, _nrt=False)
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
        return _draw_counted(cs, EV_PENALTY, rules, pol, hand, ps, gs, stock, disc, log,
                             rstates, pw)
    return True


@njit(cache=True, _nrt=False)
def _draw_to(seat, ev, hand, gs, stock, disc, log, rstates):
    """The top of the stock to ``seat`` (a draw, or a caller's penalty card, R9), logged as
    ``ev``; False if the stock is exhausted again (R13: the hand is void)."""
    return _draw_card(seat, ev, hand, gs, stock, disc, log, rstates) >= 0


@njit(cache=True, _nrt=False)
def _draw_card(seat, ev, hand, gs, stock, disc, log, rstates):
    """:func:`_draw_to`, returning the card drawn (-1: the hand is void)."""
    c = _draw_stock(stock, disc, gs, rstates[1], log, hand[_seen_row(hand)], seat,
                    _seen_row(hand))
    if c < 0:
        return -1
    hand[seat, c] += 1
    _log(log, gs, ev, seat, c, 0, 0, 0)
    return c


@njit(cache=True, _nrt=False)
def _draw_phase(rules, pol, t, cur):
    """R9 then R6.1: the live discard to the next player (take) or a caller, then the draw.

    Writes t's hand, ps, gs, stock, disc. Returns False if the hand became void (R13).
    """
    hand, ps, gs, stock, disc, log, rstates = t.hand, t.ps, t.gs, t.stock, t.disc, t.log, t.streams
    pw = t.count
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
    if took:
        return True
    return _draw_counted(cur, EV_DRAW, rules, pol, hand, ps, gs, stock, disc, log, rstates, pw)


@njit(cache=True, _nrt=False)
def _draw_counted(seat, ev, rules, pol, hand, ps, gs, stock, disc, log, rstates, pw):
    """:func:`_draw_to` (a draw, or a caller's penalty card), and for a seat not yet opened
    its count with the card, by "does it cut?" alone (:func:`_count_drawn`): what its discard
    or next offer asks next."""
    c = _draw_card(seat, ev, hand, gs, stock, disc, log, rstates)
    if c < 0:
        return False
    if ps[seat, PS_OPENED] == 0:
        _count_drawn(seat, hand, ps, rules, pol, pw, c)
    return True


# -- V9 Tuluki: the two-player discard step ------------------------------------------------------


@njit(cache=True, _nrt=False)
def _may_call(seat, ps, rules):
    """R8, R9, V8: ``seat`` is offered a call at all (not opened, under the rules' limit)."""
    return ps[seat, PS_OPENED] == 0 and ps[seat, PS_CALLS] < rules[R_CALL_LIMIT]


@njit(cache=True, _nrt=False)
def _wants_call(seat, card, hand, ps, gs, rules, pol, rstates, pw):
    """The policy's call answer (its own limit first, then :func:`_wants_card`)."""
    return ps[seat, PS_CALLS] < _call_limit(seat, rules, pol) and _wants_card(
        seat, card, hand, ps, gs, rules, pol, rstates[2 + seat], P_CALL_GAIN, pw)
