"""Scoring (R12): penalties of the cards caught in hand, doubling, the result rows.
"""

from __future__ import annotations

from numba import njit

from ...game.kernels import card_value
from .table import (
    EV_SCORE,
    GS_DOUBLED,
    GS_FIRST_DOWN,
    GS_OUT,
    GS_OUT_ON_OPENING,
    GS_RESHUFFLED,
    GS_STALLED,
    GS_VOID,
    JOKER,
    N_CODES,
    O_ATTEMPT,
    O_ATTEMPTS,
    O_CALLS,
    O_CARDS_LEFT,
    O_DEALER,
    O_DOUBLED,
    O_GAME,
    O_HAND,
    O_MEETS,
    O_OPEN_TURN,
    O_OPENED,
    O_OUT_ON_OPENING,
    O_PENALTY,
    O_RESHUFFLED,
    O_SEAT,
    O_STALLED,
    O_TURNS,
    O_VOID,
    O_WENT_OUT,
    PS_CALLS,
    PS_MEETS,
    PS_OPEN_TURN,
    PS_OPENED,
    PS_TURNS,
    R_PLAYERS,
    R_V4,
    _log,
)


@njit(cache=True, _nrt=False)
def hand_doubled(rules, gs):
    """1 if the hand's penalties double (R12: out on the opening; V4: only by the first down)."""
    if gs[GS_VOID] == 0 and gs[GS_OUT_ON_OPENING] == 1:
        if rules[R_V4] == 1 and gs[GS_FIRST_DOWN] != gs[GS_OUT]:
            return 0
        return 1
    return 0


@njit(cache=True, _nrt=False)
def _score(rules, t, deal, out, row0):
    """R12: penalties of the cards left on table ``t``, doubled after an out on the opening (V4:
    only by the first down); nothing scores in a void hand (R13). Writes ``out[row0:row0+P]``
    (rows of ``deal``)."""
    hand, ps, gs, log = t.hand, t.ps, t.gs, t.log
    game, hand_no, attempt, dealer = deal.game, deal.hand_no, deal.attempt, deal.dealer
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
