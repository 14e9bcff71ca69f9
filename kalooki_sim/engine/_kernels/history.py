"""The advisor's hidden hands, read from the table: a prior that plays each unopened
opponent's past turns, and a weight for what each opponent was seen to do.

The advisor deals the cards a player cannot see at random (:func:`.branch._sample_situation`).
Two kernels here make a dealt sample look like a hand a model player (the policy of the
rollouts, ``expert`` by default) would hold at this point of the hand:

* :func:`forward_prior` (the stock left, R2, R6): each opponent that has not opened has had
  ``PS_TURNS`` turns; it replays them from its dealt hand, each a draw from the sampled stock
  and the model's own discard (:func:`.discard._choose_discard`), the discards going back into
  the stock, which is shuffled again. A seat deep into the hand is then as close to its
  contract as the model typically is by then.
* :func:`history_logw` (the public history, R6, R9): the log-likelihood of each opponent's
  typed events under the model, replayed backwards on the sampled hand (the hand at the time of
  an event is approximated by the hand now, with the later discards given back, the later
  takes and calls taken away, and one random unknown card taken away for each later draw or
  penalty card). A ``discard`` weighs 1 when the model discards that very card, ``W_KEEP``
  when losing it at least keeps the model's exact count of cards needed (its first criterion),
  ``EPS`` otherwise; a ``take`` or ``call`` weighs 1 when the model wants the card
  (:func:`.draw._wants_card`), ``EPS`` otherwise; a ``pass`` the reverse; a stock ``draw``
  weighs nothing. The rest of the table (stock, opened seats, hand sizes) is read as it is
  now. Events of seat 0 (the player) and of seats that have opened carry no weight.

History events are rows ``(seat, kind, card)`` (``int64``), engine seats, kinds ``H_*``.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit, prange, uint64

from . import branch as B
from . import engine as E
from . import rng as R
from .discard import _choose_discard
from .draw import _wants_card
from .memo import _needed_memo
from .reading import _call_limit, _known_row, _needed_upto
from .table import (
    GS_STOCK_N,
    JOKER,
    N_CODES,
    P_CALL_GAIN,
    P_TAKE_GAIN,
    PS_CALLS,
    PS_OPENED,
    PS_TURNS,
)

H_DISCARD, H_PASS_TAKE, H_PASS_CALL, H_TAKE, H_CALL, H_DRAW = range(6)
H_COLS = 3  # seat, kind, card
EPS = 0.1  # weight of an event the model would not have made
W_KEEP = 0.5  # weight of a discard the model would not choose but whose loss keeps its count
STREAM_PRIOR = 1 << 25  # the advisor's past turns of each sample (apart from search's 1 << 23)
STREAM_HISTORY = 1 << 26  # the random unknown cards given back in the backwards replay
RANK_COLS = 14  # A, 2, ..., K, joker

#: the cards a player cannot see, as the rollouts deal them (:func:`.branch._sample_situation`):
#: ``pool[:n_pool]`` the hidden cards, ``opp_sizes[p]`` of them to each seat ``p``,
#: ``pile_extra`` under the pile's top card, the rest to the stock
Hidden = namedtuple("Hidden", ["pool", "n_pool", "opp_sizes", "pile_extra"])
#: the table's public history (rows ``ev[:n_ev]``, :func:`history_logw`) and whether each
#: sample replays the unopened opponents' past turns (``prior``, :func:`forward_prior`)
History = namedtuple("History", ["ev", "n_ev", "prior"])
#: what each rollout writes: ``res[j]`` (:func:`.branch.play_pair`'s row), ``logw[j]`` and
#: ``ranks[j]`` (:func:`rank_counts` of the sample)
Rollouts = namedtuple("Rollouts", ["res", "logw", "ranks"])


@njit(cache=True, _nrt=False)
def _drop_known(hand, seat, sign):
    """Take (``sign`` -1) or give back (+1) the cards of ``seat`` the table knows of."""
    k = _known_row(hand, seat)
    for c in range(N_CODES):
        hand[seat, c] += sign * hand[k, c]


@njit(cache=True, _nrt=False)
def forward_prior(rules, pol, t, me, rst):
    """Replay the past turns of every opponent of ``me`` that has not opened on the sampled
    table ``t``: ``ps[seat, PS_TURNS]`` times a draw from the stock and the model's discard
    (:func:`.discard._choose_discard` on the seat's unknown cards; the cards the table knows it
    holds stay out of the choice), the discard going back in the draw's place; then the stock
    is shuffled again (``rst``). Hand sizes and the stock's size and contents as a multiset of
    the hidden cards are kept. Writes t's hands, stock, memo; returns the turns replayed."""
    hand = t.hand
    ps = t.ps
    gs = t.gs
    stock = t.stock
    P = ps.shape[0]
    n = gs[GS_STOCK_N]
    if n == 0:
        return 0
    pw = t.count
    pos = n - 1
    done = 0
    for s in range(P):
        if s == me or ps[s, PS_OPENED] == 1:
            continue
        _drop_known(hand, s, -1)
        for _ in range(ps[s, PS_TURNS]):
            c = stock[pos]
            hand[s, c] += 1
            d = _choose_discard(s, hand, ps, gs, t.melds, rules, pol, rst, pw)
            if d < 0:  # only jokers (C2): the card stays, the draw is undone
                d = c
            hand[s, d] -= 1
            stock[pos] = d
            pos = pos - 1 if pos > 0 else n - 1
            done += 1
        _drop_known(hand, s, 1)
    R.shuffle(rst, stock, n)
    return done


@njit(cache=True, _nrt=False)
def _give_back_unknown(hand, seat, rst):
    """Take one card, uniformly among the copies of ``seat``'s hand the table does not know
    of, out of its hand (a draw undone); False if there is none."""
    k = _known_row(hand, seat)
    m = 0
    for c in range(N_CODES):
        x = hand[seat, c] - hand[k, c]
        if x > 0:
            m += x
    if m == 0:
        return False
    j = R.below(rst, m)
    for c in range(N_CODES):
        x = hand[seat, c] - hand[k, c]
        if x <= 0:
            continue
        if j < x:
            hand[seat, c] -= 1
            return True
        j -= x
    return False


@njit(cache=True, _nrt=False)
def _discard_weight(rules, pol, t, seat, card, rst):
    """Weight of ``seat`` discarding ``card`` from its hand (which holds it): 1 if the model
    chooses it, ``W_KEEP`` if its loss keeps the model's count of cards needed, else ``EPS``."""
    hand = t.hand
    ps = t.ps
    pw = t.count
    if _choose_discard(seat, hand, ps, t.gs, t.melds, rules, pol, rst, pw) == card:
        return 1.0
    now = _needed_memo(seat, hand, ps, rules, pol, pw)
    hand[seat, card] -= 1
    nd = _needed_upto(seat, hand, rules, pol, pw, now, now)
    hand[seat, card] += 1
    return W_KEEP if nd <= now else EPS


@njit(cache=True, _nrt=False)
def _wants(rules, pol, t, seat, card, kind, rst):
    """Would the model of ``seat`` take (``kind`` take) or call this card now (R9)?"""
    hand = t.hand
    ps = t.ps
    pw = t.count
    if kind == H_TAKE or kind == H_PASS_TAKE:
        return _wants_card(seat, card, hand, ps, t.gs, rules, pol, rst, P_TAKE_GAIN, pw)
    return ps[seat, PS_CALLS] < _call_limit(seat, rules, pol) and _wants_card(
        seat, card, hand, ps, t.gs, rules, pol, rst, P_CALL_GAIN, pw)


@njit(cache=True, _nrt=False)
def history_logw(rules, pol, t, me, ev, n_ev, rst):
    """Log-weight of the sampled table ``t`` given the history ``ev[:n_ev]`` (rows seat, kind,
    card, in table order): the events are replayed backwards on each opponent's hand (see the
    module docstring); ``rst`` gives the unknown cards undone. Writes t's hands (use a copy)."""
    ps = t.ps
    hand = t.hand
    lw = 0.0
    log_eps = math.log(EPS)
    log_keep = math.log(W_KEEP)
    for i in range(n_ev - 1, -1, -1):
        s = ev[i, 0]
        kind = ev[i, 1]
        c = ev[i, 2]
        if s == me or ps[s, PS_OPENED] == 1:
            continue
        if kind == H_DRAW:
            _give_back_unknown(hand, s, rst)
        elif kind == H_DISCARD:
            hand[s, c] += 1
            w = _discard_weight(rules, pol, t, s, c, rst)
            lw += 0.0 if w == 1.0 else (log_keep if w == W_KEEP else log_eps)
        elif kind == H_TAKE or kind == H_CALL:
            if hand[s, c] > 0:
                hand[s, c] -= 1
                k = _known_row(hand, s)
                if hand[k, c] > 0:
                    hand[k, c] -= 1
            if kind == H_CALL:  # its penalty card, unknown (R9)
                _give_back_unknown(hand, s, rst)
            if not _wants(rules, pol, t, s, c, kind, rst):
                lw += log_eps
        else:  # a pass on a take (R9.1) or a call (R9.2)
            if _wants(rules, pol, t, s, c, kind, rst):
                lw += log_eps
    return lw


@njit(cache=True, _nrt=False)
def rank_counts(t, out):
    """``out[p, r]``: the copies of rank ``r + 1`` (r = 13: jokers) in seat ``p``'s hand."""
    hand = t.hand
    for p in range(out.shape[0]):
        for r in range(RANK_COLS):
            out[p, r] = 0
        for c in range(JOKER):
            out[p, c % 13] += hand[p, c]
        out[p, 13] = hand[p, JOKER]


@njit(cache=True, _nrt=False)
def _sample_read(seed, i, rules, pol, base, hidden, history, me, samp, br, rst, out_j):
    """Rollout ``i``'s sample of the hidden cards around ``base`` into ``samp``: dealt
    (:func:`.branch._sample_situation`), the past turns replayed (``history.prior``), its rank
    counts and log-weight (:func:`history_logw` on ``br``) into ``out_j`` (``ranks, logw``
    rows: ``(ranks[j], logw, j)``), the play's streams keyed (C3)."""
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior = history
    ranks_j, logw, j = out_j
    rst[0] = R.stream_key(seed, i, 0, 0, B.STREAM_ROLLOUT)
    rst[1] = uint64(0)
    B._sample_situation(base, samp, pool, n_pool, opp_sizes, pile_extra, rst)
    if prior:
        rst[0] = R.stream_key(seed, i, 0, 0, STREAM_PRIOR)
        rst[1] = uint64(0)
        forward_prior(rules, pol, samp, me, rst)
    rank_counts(samp, ranks_j)
    if n_ev > 0:
        B.copy_state(samp, br, False)
        rst[0] = R.stream_key(seed, i, 0, 0, STREAM_HISTORY)
        rst[1] = uint64(0)
        logw[j] = history_logw(rules, pol, br, me, ev, n_ev, rst)
    else:
        logw[j] = 0.0
    for s in range(samp.streams.shape[0]):
        samp.streams[s, 0] = R.stream_key(seed, i, 0, 1, s)
        samp.streams[s, 1] = uint64(0)


@njit(cache=True, parallel=True)
def rollout_block(seed, rules, pol, base, hidden, history, me, force_mask, first, count, run, out):
    """The advisor's rollouts ``first .. first + count - 1`` read from the table: each deals the
    ``hidden`` cards (a :data:`Hidden`) around ``base`` (:func:`.branch._sample_situation`, its
    own stream), replays the opponents' past turns when ``history.prior``
    (:func:`forward_prior`), weighs the sample by the history (:func:`history_logw`, on a copy)
    and plays it both ways (:func:`.branch.play_pair`) over ``run.workers`` workers (a
    :data:`.table.Run`). Writes ``out`` (a :data:`Rollouts`) at ``j = i - first``."""
    P = rules[E.R_PLAYERS]
    per = (count + run.workers - 1) // run.workers
    # a namedtuple's arrays are read into locals before prange: Numba's parallel loops do not
    # write through to arrays reached inside a tuple argument
    flat = E.flat_table(base)
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior = history
    res, logw, ranks = out
    for w in prange(run.workers):
        samp = E.new_table_jit(P, run.pack_size, 1)
        br = E.new_table_jit(P, run.pack_size, 1)
        rst = np.empty(2, np.uint64)
        for j in range(w * per, min(count, w * per + per)):
            _sample_read(seed, first + j, rules, pol, E.table_of(flat),
                         Hidden(pool, n_pool, opp_sizes, pile_extra), History(ev, n_ev, prior),
                         me, samp, br, rst, (ranks[j], logw, j))
            B.play_pair(rules, pol, samp, br, me, force_mask, res[j])


@njit(cache=True, parallel=True)
def rollout_discard_block(seed, rules, pol, base, hidden, history, me, cands, first, count, run,
                          out):
    """The discard advisor's rollouts ``first .. first + count - 1``: each samples the hidden
    cards once as :func:`rollout_block` does (the same streams, so the same samples and
    weights), deals the rest of the stock by seat from the next seat on
    (:func:`.engine.seat_stock`), and plays the hand on once per candidate ``cands[k]``:
    ``me`` discards it (:func:`.engine.play_from_discard`) and the play goes on with the next
    seat, offered it (R9). Every candidate sees the same cards and the same later random
    draws (paired). Writes ``out`` (a :data:`Rollouts`; ``res[j, k]`` penalty, out, doubled,
    void, relative of candidate ``k``) at ``j = i - first``."""
    P = rules[E.R_PLAYERS]
    per = (count + run.workers - 1) // run.workers
    flat = E.flat_table(base)  # read into locals before prange (see rollout_block)
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior = history
    res, logw, ranks = out
    for w in prange(run.workers):
        samp = E.new_table_jit(P, run.pack_size, 1)
        br = E.new_table_jit(P, run.pack_size, 1)
        rst = np.empty(2, np.uint64)
        for j in range(w * per, min(count, w * per + per)):
            _sample_read(seed, first + j, rules, pol, E.table_of(flat),
                         Hidden(pool, n_pool, opp_sizes, pile_extra), History(ev, n_ev, prior),
                         me, samp, br, rst, (ranks[j], logw, j))
            E.seat_stock(samp.gs, (me + 1) % P, P)
            for k in range(cands.shape[0]):
                B.copy_state(samp, br, False)
                E.play_from_discard(rules, pol, br, me, cands[k], False)
                pen, o, dbl, void = B.seat_outcome(rules, br, me)
                res[j, k, 0] = pen
                res[j, k, 1] = o
                res[j, k, 2] = dbl
                res[j, k, 3] = void
                res[j, k, 4] = pen - B._table_mean(rules, br)
