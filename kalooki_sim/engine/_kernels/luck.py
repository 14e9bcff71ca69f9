"""Luck terms of a continuation: control variates for paired rollouts.

Every card a seat takes from the stock (its draw, R6.1, or a caller's penalty card, R9.2) is
luck. The stock is a uniformly random order of the cards not yet seen and which position a
draw reads does not depend on the cards (also when dealt by seat, :func:`.draw.seat_stock`,
and after R13's reshuffle), so given everything before it the card drawn is uniform over the
cards left in the stock. A luck term ``l = v(c) - mean of v over the stock`` for any value
``v`` fixed before the draw therefore has expectation exactly zero, and a sum of them is a
valid control variate for the hand's outcome (Backgammon's "luck adjustment").

Two values per draw (columns ``LK_*``), accumulated per seat:

* ``LK_OUT`` (a seat that has not opened): 1 if the card is an out, a copy that cuts the exact
  cards needed for the contract (R7; :func:`.branch.needed_and_outs`), else 0;
* ``LK_PEN``: minus the card's penalty points (R1, R12), 0 for an opened seat when some meld
  on the table takes it (R10, R11: it can be laid off);
* ``LK_OUT1``, ``LK_OUT2``: ``LK_OUT``'s terms of the draws when the seat needed exactly 1
  (the card opens) or 2 cards;
* ``LK_LAY`` (an opened seat): 1 if some meld takes the card, else 0; ``LK_LAY_END`` the same
  when the seat holds at most 2 cards (the card may let it go out, R12).

The hand is played turn by turn exactly as :func:`.engine.play_out` plays it (the same
kernels, the same streams: the outcomes are the same), with the move log of one turn at a time
on; before each turn the table is copied (``pre``), and the turn's draws are read from its log
(``EV_CALL``, ``EV_PENALTY``, ``EV_DRAW``) and valued on the copy. A draw in a turn after
R13's reshuffle is left out (its term is 0; whether the stock runs out is known before the
draw, so leaving it out keeps the expectation zero).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from ...game.kernels import card_value
from ...game.kernels import layoff as L
from . import branch as B
from . import engine as E
from . import history as H
from . import needed as NK
from . import table as T
from .reading import _seen_row

LK_OUT, LK_PEN, LK_OUT1, LK_OUT2, LK_LAY, LK_LAY_END = range(6)
LK_COLS = 6
LOG_ROWS = 512  # one turn's move log (a turn logs a few dozen rows at most)

#: what each luck-measured rollout writes: :data:`.history.Rollouts`' ``res``, ``logw`` and
#: ``ranks``, and ``luck[j, b, p, k]``: the sum of seat ``p``'s luck terms ``k`` (``LK_*``) in
#: branch ``b`` (0 acting, 1 passing)
LuckRollouts = namedtuple("LuckRollouts", ["res", "logw", "ranks", "luck"])


@njit(cache=True, _nrt=False)
def snap_turn(t, pre):
    """Copy what a turn's draws are valued on (hands, seat and hand state, stock, melds) from
    table ``t`` into ``pre``."""
    B._copy2(pre.hand, t.hand, t.hand.shape[0])
    B._copy2(pre.ps, t.ps, t.ps.shape[0])
    B._copy1(pre.gs, t.gs)
    B._copy1(pre.stock, t.stock)
    B._copy2(pre.melds, t.melds, t.gs[T.GS_N_MELDS])


@njit(cache=True, _nrt=False)
def stock_counts(t, sc):
    """``sc[c]``: the copies of code ``c`` left in the stock of ``t`` (drawn positions of a
    stock dealt by seat hold -1); returns how many cards."""
    gs = t.gs
    for c in range(T.N_CODES):
        sc[c] = 0
    top = gs[T.GS_SEAT_TOP] if gs[T.GS_SEAT_STOCK] == 1 else gs[T.GS_STOCK_N]
    n = 0
    for i in range(top):
        c = t.stock[i]
        if c >= 0:
            sc[c] += 1
            n += 1
    return n


@njit(cache=True, _nrt=False)
def card_points(c):
    """R1 penalty points of card code ``c`` (a joker 50)."""
    if c == T.JOKER:
        return 50
    return card_value(c // 13, c % 13 + 1)


@njit(cache=True, _nrt=False)
def lays_off(rules, t, seat, c):
    """Can ``seat`` lay card ``c`` off on some meld of ``t`` (R10, R11)?"""
    for m in range(t.gs[T.GS_N_MELDS]):
        if L.lay_off_kernel(t.melds[m], c, seat, rules[T.R_FREE_EXT] == 1,
                            rules[T.R_JOKERS_OTHERS] == 1, t.tmp) != L.ILLEGAL:
            return True
    return False


@njit(cache=True, _nrt=False)
def pen_value(rules, t, seat, c):
    """``LK_PEN``'s value of ``seat`` drawing ``c`` on ``t``: minus its points, 0 when the seat
    has opened and can lay it off."""
    if t.ps[seat, T.PS_OPENED] == 1 and lays_off(rules, t, seat, c):
        return 0.0
    return -float(card_points(c))


@njit(cache=True, _nrt=False)
def draw_luck(rules, pre, seat, extra, card, sc, n, out):
    """Add ``seat``'s luck terms of drawing ``card`` to ``out[LK_*]``: ``pre`` the table before
    the draw, the seat holding ``extra`` more (a called card, -1: none), ``sc`` the stock's
    ``n`` cards by code (:func:`stock_counts`, ``card`` among them)."""
    if n <= 0:
        return
    if pre.ps[seat, T.PS_OPENED] == 0:
        before, _ = B.needed_and_outs(seat, pre, rules, extra)
        if before < NK.NO_WAY:
            res = pre.hand[_seen_row(pre.hand) + 2]  # needed with each code added
            mean = 0.0
            for c in range(T.N_CODES):
                if sc[c] > 0 and res[c] >= 0 and res[c] < before:
                    mean += sc[c]
            hit = 1.0 if res[card] >= 0 and res[card] < before else 0.0
            out[LK_OUT] += hit - mean / n
            if before == 1:
                out[LK_OUT1] += hit - mean / n
            elif before == 2:
                out[LK_OUT2] += hit - mean / n
    else:
        mean = 0.0
        for c in range(T.N_CODES):
            if sc[c] > 0 and lays_off(rules, pre, seat, c):
                mean += sc[c]
        hit = 1.0 if lays_off(rules, pre, seat, card) else 0.0
        out[LK_LAY] += hit - mean / n
        held = 0
        for c in range(T.N_CODES):
            held += pre.hand[seat, c]
        if held <= 2:
            out[LK_LAY_END] += hit - mean / n
    mean = 0.0
    for c in range(T.N_CODES):
        if sc[c] > 0:
            mean += sc[c] * pen_value(rules, pre, seat, c)
    out[LK_PEN] += pen_value(rules, pre, seat, card) - mean / n


@njit(cache=True, _nrt=False)
def turn_luck(rules, t, pre, sc, lk):
    """The luck terms of the turn just played on ``t`` (its log from row 0; ``pre`` the table
    before it) added to ``lk[p, LK_*]``."""
    n = stock_counts(pre, sc)
    called = -1  # the card the seat of a call holds before its penalty card
    rows = min(t.gs[T.GS_LOG_N], t.log.shape[0])
    for i in range(rows):
        ev = t.log[i, 0]
        if ev == T.EV_RESHUFFLE:
            return  # the stock is new: the rest of the turn's draws are left out (R13)
        if ev == T.EV_CALL:
            called = t.log[i, 2]
        elif ev == T.EV_PENALTY or ev == T.EV_DRAW:
            s, c = t.log[i, 1], t.log[i, 2]
            draw_luck(rules, pre, s, called if ev == T.EV_PENALTY else -1, c, sc, n, lk[s])
            sc[c] -= 1
            n -= 1


@njit(cache=True, _nrt=False)
def play_out_luck(rules, pol, t, pre, sc, lk):
    """:func:`.engine.play_out` on ``t`` (a table with a log of :data:`LOG_ROWS` rows), the
    luck terms of every draw added to ``lk[p, LK_*]``; ``pre`` a table for the copies, ``sc``
    (``int64[53]``) scratch. The hand is played exactly as :func:`.engine.play_out` plays it."""
    t.gs[T.GS_LOG_ON] = 1
    while True:
        snap_turn(t, pre)
        t.gs[T.GS_LOG_N] = 0
        done = E.one_turn(rules, pol, t)
        turn_luck(rules, t, pre, sc, lk)
        if done:
            break
    t.gs[T.GS_LOG_ON] = 0
    t.gs[T.GS_LOG_N] = 0


@njit(cache=True, _nrt=False)
def play_pair_luck(rules, pol, samp, br, pre, me, force_mask, res_row, lk, sc):
    """:func:`.branch.play_pair` with the luck of both continuations: ``lk[b, p, LK_*]``
    (``b`` 0 acting, 1 passing; zeroed here). ``br`` has a log of :data:`LOG_ROWS` rows,
    ``sc`` is scratch (``int64[53]``)."""
    E.seat_stock(samp.gs, samp.gs[T.GS_CUR], rules[T.R_PLAYERS])
    for b in range(2):
        for p in range(lk.shape[1]):
            for k in range(LK_COLS):
                lk[b, p, k] = 0.0
    for act in (1, 0):
        B.copy_state(samp, br, False)
        br.gs[T.GS_FORCE_MASK] = force_mask
        br.gs[T.GS_FORCE_ACTS] = (1 << me) if act else 0
        play_out_luck(rules, pol, br, pre, sc, lk[1 - act])
        pen, out, dbl, void = B.seat_outcome(rules, br, me)
        o = 0 if act else B.ROLL_COLS
        res_row[o] = pen
        res_row[o + 1] = out
        res_row[o + 2] = dbl
        res_row[o + 3] = void
        res_row[o + 4] = pen - B._table_mean(rules, br)


@njit(cache=True, parallel=True)
def rollout_luck_block(seed, rules, pol, base, hidden, history, me, force_mask, first, count,
                       run, out):
    """:func:`.history.rollout_block` with each rollout's luck: the same samples, weights and
    outcomes, and ``out.luck`` (a :data:`LuckRollouts`)."""
    P = rules[T.R_PLAYERS]
    per = (count + run.workers - 1) // run.workers
    flat = E.flat_table(base)
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior, swaps, cover, reuse = history
    res, logw, ranks, luck = out
    moves = np.zeros((count, 2), np.int64)  # the chain's moves: not returned here
    for w in prange(run.workers):
        samp, scratch, rst, work = H._worker_state(P, run.pack_size)
        br = E.new_table_jit(P, run.pack_size, LOG_ROWS)
        pre = E.new_table_jit(P, run.pack_size, 1)
        sc = np.empty(T.N_CODES, np.int64)
        for j in range(w * per, min(count, w * per + per)):
            H._sample_once(seed, first + j, rules, pol, E.table_of(flat),
                           H.Hidden(pool, n_pool, opp_sizes, pile_extra),
                           H.History(ev, n_ev, prior, swaps, cover, reuse), me, (samp, scratch),
                           rst, work, (ranks, logw, moves, j, j == w * per))
            play_pair_luck(rules, pol, samp, br, pre, me, force_mask, res[j], luck[j], sc)
