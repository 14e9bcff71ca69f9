"""Deal phase (R1, R2, C1): reset a hand's state, seed each seat's stream (C3), shuffle and deal,
turn up the first discard.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from . import rng as R
from .reading import _solve_seat, need
from .table import (
    EV_DEAL,
    EV_UPCARD,
    GS_CALLED_BY,
    GS_COLS,
    GS_DISC_N,
    GS_DISCARDER,
    GS_FIRST_DOWN,
    GS_LIVE,
    GS_LOG_ON,
    GS_OUT,
    GS_STOCK_N,
    GS_TAKEN_BY,
    JOKER,
    N_CODES,
    PS_COLS,
    PS_MEETS,
    PS_NC_HVAL,
    PS_NC_VAL0,
    PS_NC_VAL1,
    PS_OPEN_TURN,
    R_CARDS,
    R_DECKS,
    R_GROUPS,
    R_JOKERS,
    R_PLAYERS,
    R_RUNS,
    R_V6,
    _log,
)

# -- phases of a hand ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _reset_hand(rules, t, deal):
    """Clear the table ``t`` and key the streams of ``deal`` (C3): deal, reshuffle, one per
    seat's policy."""
    P = rules[R_PLAYERS]
    hand, ps, gs, rstates = t.hand, t.ps, t.gs, t.streams
    seed, game, hand_no, attempt = deal.seed, deal.game, deal.hand_no, deal.attempt
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
        ps[p, PS_NC_HVAL] = -1
    for i in range(2):
        rstates[i, 0] = R.stream_key(seed, game, hand_no, attempt, i)
        rstates[i, 1] = uint64(0)
    for p in range(P):
        rstates[2 + p, 0] = R.stream_key(seed, game, hand_no, attempt, R.STREAM_POLICY + p)
        rstates[2 + p, 1] = uint64(0)


@njit(cache=True, _nrt=False)
def _deal(rules, t, dealer):
    """R1, R2, C1: shuffle the pack, deal one card at a time from the dealer's left, turn the
    upcard as the dealer's discard. Writes t's hand, ps (PS_MEETS), gs, stock, disc."""
    hand, ps, gs, stock, disc, log, rstates = t.hand, t.ps, t.gs, t.stock, t.disc, t.log, t.streams
    cnt, ws = t.count.cnt, t.solve
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
            v, _ = _solve_seat(hand[p], g, r, v6, 0, 0, cnt, ws)
            ps[p, PS_MEETS] = 1 if v >= 0 else 0
    n -= 1
    disc[0] = stock[n]
    gs[GS_DISC_N] = 1
    gs[GS_STOCK_N] = n
    gs[GS_LIVE] = 1
    gs[GS_DISCARDER] = dealer
    _log(log, gs, EV_UPCARD, dealer, disc[0], 0, 0, 0)


@njit(cache=True, _nrt=False)
def first_dealer(seed, game, players):
    """R2: the first dealer of a game, drawn from its own stream (its first draw, as
    :func:`.rng.below` makes it, without a state array)."""
    key = R.stream_key(seed, game, 0, 0, R.STREAM_DEALER)
    return np.int64(R._splitmix(key ^ R._splitmix(uint64(0))) % uint64(players))
