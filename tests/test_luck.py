"""Luck terms of the rollouts' stock draws (``engine.kernels.luck``): control variates whose
expectation is exactly zero (R6.1 draws and R9.2 penalty cards from a uniformly shuffled stock,
R13), played without changing play."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.engine.kernels import engine as E
from kalooki_sim.engine.kernels import history as H
from kalooki_sim.engine.kernels import luck as LK
from kalooki_sim.engine.play import rules_vector, setup
from kalooki_sim.game.cards import parse_codes
from kalooki_sim.game.kernels import layoff as L
from kalooki_sim.studies.advisor import read_history
from kalooki_sim.studies.situation import _build

# the luck kernel answers no question yet (its variance ratio is measured by
# bench.luck_ratio, not wired into an estimator): its compile stays out of `make test`
pytestmark = pytest.mark.slow

HAND = "K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣"
HISTORY = [(3, "discard", "9♣"), (0, "pass", "9♣"), (2, "draw"), (2, "discard", "6♦")]


def _sit(history=None):
    rules = ks.Rules()
    return _build(HAND, "6♦", 1, 2, None, None, (), (), (), None, None, False, history, rules)


def _rollouts(sit, n, luck, seed=3):
    """``n`` paired rollouts of ``sit`` with the expert model, through the luck kernel or the
    advisor's own (:func:`.history.rollout_block`)."""
    pol = setup(4, "expert", 0, None, None)[2]
    r, rules = sit.rollout, sit.rules
    P = sit.players
    res, logw = np.zeros((n, 10)), np.zeros(n)
    ranks = np.zeros((n, P, H.RANK_COLS), np.int64)
    lk = np.zeros((n, 2, P, LK.LK_COLS))
    args = (seed, rules_vector(rules, sit.hand_no), pol, r.base,
            H.Hidden(r.flat, len(r.flat), r.opp, r.pile_extra), read_history(sit),
            0, r.mask, 0, n, E.Run(rules.pack_size, max(1, 4 * numba.get_num_threads()), 0,
                                   False))
    if luck:
        LK.rollout_luck_block(*args, LK.LuckRollouts(res, logw, ranks, lk))
    else:
        H.rollout_block(*args, H.Rollouts(res, logw, ranks, np.zeros((n, 2), np.int64)))
    return res, logw, ranks, lk


def test_luck_rollouts_play_as_the_advisor_R6_R9():
    """Valuing the draws changes nothing of play: the same outcomes, weights and ranks as the
    advisor's rollouts, sample by sample."""
    sit = _sit(HISTORY)
    plain = _rollouts(sit, 40, False)
    lucky = _rollouts(sit, 40, True)
    for a, b in zip(plain[:3], lucky[:3], strict=True):
        np.testing.assert_array_equal(a, b)
    assert np.abs(lucky[3]).sum() > 0


def test_luck_terms_average_zero_R6_R13():
    """Each seat's summed luck terms, in each branch, average zero: the mean over 1,000
    rollouts lies within 4 standard errors of 0, where a term's spread is large (a drawn card's
    penalty varies by tens of points)."""
    n = 1000
    lk = _rollouts(_sit(), n, True)[3].reshape(n, -1)
    sd = lk.std(0, ddof=1)
    assert (sd[LK.LK_PEN::LK.LK_COLS] > 5).all()  # LK_PEN: large terms
    # a seat that can already open has no outs, a seat not opened no lay-offs: those are 0
    live = sd > 0
    assert live.sum() >= 16 and not lk[:, ~live].any()
    z = lk[:, live].mean(0) / (sd[live] / np.sqrt(n))
    assert np.all(np.abs(z) < 4), z


def _twin_turn(rules, rv, pre, log, n_log):
    """The luck terms of one logged turn, recomputed slowly from the table before it: the
    stock's cards as a list, outs from :func:`kalooki_sim.outs`, lay-offs meld by meld."""
    P = rules.players
    g, r = int(rv[E.R_GROUPS]), int(rv[E.R_RUNS])
    hand, ps, gs = pre.hand, pre.ps, pre.gs
    stock = [int(c) for c in pre.stock[:gs[E.GS_STOCK_N]]]
    dead = [c for c in range(53) for _ in range(int(hand[P, c]))]
    out = np.zeros((P, LK.LK_COLS))
    called = -1

    def points(c):  # R1: a joker 50, a black ace 15, a red ace 1, 10 to K 10, else face value
        suit, rank = divmod(c, 13)
        if c == 52:
            return 50
        if rank == 0:
            return 15 if suit in (0, 3) else 1
        return min(rank + 1, 10)

    def pen(s, c):
        if ps[s, E.PS_OPENED] == 1:
            for m in range(gs[E.GS_N_MELDS]):
                tmp = np.zeros(L.MELD_COLS, np.int64)
                if L.lay_off_kernel(pre.melds[m], c, s, bool(rv[E.R_FREE_EXT]),
                                    bool(rv[E.R_JOKERS_OTHERS]), tmp) != L.ILLEGAL:
                    return 0.0
        return -float(points(c))

    for i in range(n_log):
        ev, s, c = (int(x) for x in log[i, :3])
        if ev == E.EV_RESHUFFLE:
            break
        if ev == E.EV_CALL:
            called = c
        if ev not in (E.EV_PENALTY, E.EV_DRAW):
            continue
        if ps[s, E.PS_OPENED] == 0:
            cards = [x for x in range(53) for _ in range(int(hand[s, x]))]
            if ev == E.EV_PENALTY:
                cards.append(called)
            df = ks.outs(cards, (g, r), rules, seen=dead)
            outs_codes = {int(parse_codes([x])[0]) for x in df.card} if len(df) else set()
            hits = sum(1 for x in stock if x in outs_codes)
            term = (c in outs_codes) - hits / len(stock)
            out[s, LK.LK_OUT] += term
            need = df.attrs["needed"]
            if need in (1, 2):
                out[s, LK.LK_OUT1 if need == 1 else LK.LK_OUT2] += term
        else:
            lays = [pen(s, x) == 0.0 for x in stock]
            term = (pen(s, c) == 0.0) - sum(lays) / len(stock)
            out[s, LK.LK_LAY] += term
            if hand[s].sum() <= 2:
                out[s, LK.LK_LAY_END] += term
        out[s, LK.LK_PEN] += pen(s, c) - sum(pen(s, x) for x in stock) / len(stock)
        stock.remove(c)
    return out


@pytest.mark.parametrize("hand_no", [1, 4, 7])
def test_luck_kernel_matches_its_slow_twin_R6_R9(hand_no):
    """:func:`luck.turn_luck` against :func:`_twin_turn` over a whole expert hand, turn by
    turn (draws, callers' penalty cards, opened seats' lay-offs)."""
    rules, _, pol, _, _ = setup(4, "expert", 0, None, None)
    rv = rules_vector(rules, hand_no)
    t = E.new_table(4, rules.pack_size, log_on=True)
    E.start_hand(rv, t, E.Deal(5, 0, hand_no, 0, 0))
    sc = np.zeros(53, np.int64)
    draws = opened_draws = 0
    for _ in range(200):
        pre = E.copy_table(t)
        t.gs[E.GS_LOG_N] = 0
        done = E.one_turn(rv, pol, t)
        lk = np.zeros((4, LK.LK_COLS))
        LK.turn_luck(rv, t, E.copy_table(pre), sc, lk)
        n_log = int(t.gs[E.GS_LOG_N])
        np.testing.assert_allclose(lk, _twin_turn(rules, rv, pre, t.log, n_log), atol=1e-9)
        for i in range(n_log):
            if int(t.log[i, 0]) in (E.EV_DRAW, E.EV_PENALTY):
                draws += 1
                opened_draws += int(pre.ps[int(t.log[i, 1]), E.PS_OPENED])
        if done:
            break
    assert done and draws >= 10 and opened_draws >= 1
