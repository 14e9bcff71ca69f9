"""V9 Tuluki: the two-player discard step (the next player's call, the turned card, refuse,
bury).
"""

from __future__ import annotations

from numba import njit

from ...game.kernels import layoff as L
from . import rng as R
from .draw import _decide, _draw_stock, _draw_to, _may_call, _wants_call, _wants_card
from .reading import _from_pile, _known_row, _seen_row
from .table import (
    DECLINE_CALL,
    DECLINE_TURNED_CALL,
    DECLINE_TURNED_TAKE,
    EV_BURY,
    EV_CALL,
    EV_DECLINE,
    EV_DRAW,
    EV_PENALTY,
    EV_REFUSE,
    EV_TAKE,
    EV_TURN_UP,
    GS_CALLED_BY,
    GS_DISC_N,
    GS_DISCARDER,
    GS_LIVE,
    GS_N_MELDS,
    GS_RESHUFFLED,
    JOKER,
    P_DEFEND,
    P_RANDOM,
    P_TAKE_GAIN,
    PS_CALLS,
    PS_OPENED,
    PS_TOOK,
    R_FREE_EXT,
    R_JOKERS_OTHERS,
    _log,
)


@njit(cache=True, _nrt=False)
def _wants_turned(b, T, hand, ps, gs, rules, pol, rstates, melds, pw, tmp):
    """V9 (b): does B take the turned card ``T`` as its draw? A joker always (the rule); before
    opening, if it cuts the cards needed by the policy's take gain (:func:`_wants_card`); once
    opened, if it can be laid off now on some meld (R10, R11 in place of a joker, V3 at either
    end: :func:`.layoff.lay_off_kernel`; writes ``tmp``)."""
    if T == JOKER:
        return True
    if ps[b, PS_OPENED] == 0:
        return _wants_card(b, T, hand, ps, gs, rules, pol, rstates[2 + b], P_TAKE_GAIN, pw)
    if pol[b, P_RANDOM] > 0:
        return R.below(rstates[2 + b], 2) == 1
    for m in range(gs[GS_N_MELDS]):
        if L.lay_off_kernel(melds[m], T, b, rules[R_FREE_EXT] == 1, rules[R_JOKERS_OTHERS] == 1,
                            tmp) != L.ILLEGAL:
            return True
    return False


@njit(cache=True, _nrt=False)
def _from_turn_up(seat, T, hand, ps):
    """The turned card goes to ``seat``'s hand, in sight of the table (a natural is known to be
    there and marks its rank, as a card from the pile does)."""
    hand[seat, T] += 1
    if T != JOKER:
        hand[_known_row(hand, seat), T] += 1
        ps[seat, PS_TOOK] |= 1 << (T % 13 + 1)


@njit(cache=True, _nrt=False)
def _allows(b, a, T, ps, pol):
    """V9 (b): does B allow A's call of the turned card? An opened B must (R8); otherwise B
    refuses only with ``P_DEFEND`` and a rank A has taken or called this hand (``PS_TOOK``)."""
    if ps[b, PS_OPENED] == 1 or pol[b, P_DEFEND] <= 0:
        return True
    return (ps[a, PS_TOOK] >> (T % 13 + 1)) & 1 == 0


@njit(cache=True, _nrt=False)
def _tuluki_draw_phase(rules, pol, t, cur):
    """V9 then R6.1, for B = ``cur`` after A's discard D (or the upcard, C1): B may call D (with
    a penalty card, never take it); A turns up the stock's top card T; B takes T as its draw if
    it wants it (a joker: must); else A may call T (a penalty card) if B allows; else T is
    buried face up, never live; then B draws. After a turn with no discard (C2) B just draws.

    Writes t's hand, ps, gs, stock, disc. Returns False if the hand became void (R13).
    """
    hand, ps, gs, stock, disc, melds, log = t.hand, t.ps, t.gs, t.stock, t.disc, t.melds, t.log
    rstates, pw, tmp = t.streams, t.count, t.tmp
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
        if _wants_turned(cur, T, hand, ps, gs, rules, pol, rstates, melds, pw, tmp):
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
