"""The advisor reads the table (issue 29): a typed history, the opponents' past turns and the
weights of what they were seen to do, each kernel beside a plain-Python twin."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.engine._kernels import branch as B
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import history as H
from kalooki_sim.engine._kernels import memo as MEMO
from kalooki_sim.engine._kernels import reading as RD
from kalooki_sim.engine._kernels import rng as R
from kalooki_sim.engine._kernels.workspace import W_PLANS
from kalooki_sim.engine.play import rules_vector, setup
from kalooki_sim.game.kernels import card_value
from kalooki_sim.studies._history import check_history, engine_events
from kalooki_sim.studies.advisor import _situation

CASE = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♥", contract=6,
            discarder=2)


def _inputs(stock_left=45, policies="expert"):
    rules, _, pol, _, _ = setup(None, policies, 0, ks.Rules(), None)
    t, hand_no, flat, opp, extra, mask, info = _situation(
        CASE["hand"], CASE["card"], 6, 4, 2, stock_left, 0, (), (), (), rules)
    return rules, pol, rules_vector(rules, hand_no), t, flat, opp, extra, mask


def test_without_history_or_past_turns_the_rollouts_are_the_uniform_ones():
    rules, pol, rv, t, flat, opp, extra, mask = _inputs()
    n = 24
    # the plain rollouts, one by one from Python: a sample of the hidden cards, then the pair
    old = np.zeros((n, 2 * B.ROLL_COLS))
    samp, br = E.new_table(4, rules.pack_size), E.new_table(4, rules.pack_size)
    rst = np.empty(2, np.uint64)
    for i in range(n):
        rst[:] = R.stream_key(7, i, 0, 0, B.STREAM_ROLLOUT), 0
        B._sample_situation(t, samp, flat, len(flat), opp, extra, rst)
        for s in range(samp.streams.shape[0]):
            samp.streams[s] = R.stream_key(7, i, 0, 1, s), 0
        B.play_pair(rv, pol, samp, br, 0, mask, old[i])
    new = np.zeros_like(old)
    logw = np.ones(n)
    ranks = np.zeros((n, 4, H.RANK_COLS), np.int64)
    moves = np.ones((n, 2), np.int64)
    ev = np.zeros((0, 3), np.int64)
    H.rollout_block(7, rv, pol, t, H.Hidden(flat, len(flat), opp, extra),
                    H.History(ev, 0, False, 20, np.ones(4, np.int64)), 0, mask, 0, n,
                    E.Run(rules.pack_size, 3, 0, False), H.Rollouts(new, logw, ranks, moves))
    assert (old == new).all() and (logw == 0).all() and (moves == 0).all()
    # the ranks counted are the sample's hands: 13 cards for each seat
    assert (ranks.sum(2) == 13).all()


# -- plain-Python twins of the kernels ----------------------------------------------------------


def forward_prior(rules, pol, t, me, rst):
    """Twin of :func:`history.forward_prior`: every unopened opponent replays its turns, a draw
    from the top of the stock and the model's discard going back in its place."""
    hand, ps, gs, stock = t[0], t[1], t[2], t[3]
    P = ps.shape[0]
    n = gs[E.GS_STOCK_N]
    if n == 0:
        return 0
    pw = t.count
    pos, done = n - 1, 0
    for s in range(P):
        if s == me or ps[s, E.PS_OPENED] == 1:
            continue
        known = hand[E._known_row(hand, s)].copy()
        hand[s] -= known
        for _ in range(ps[s, E.PS_TURNS]):
            c = stock[pos]
            hand[s, c] += 1
            d = E._choose_discard(s, hand, ps, gs, t[5], rules, pol, rst, pw)
            d = c if d < 0 else d
            hand[s, d] -= 1
            stock[pos] = d
            pos = pos - 1 if pos > 0 else n - 1
            done += 1
        hand[s] += known
    R.shuffle(rst, stock, n)
    return done


def seat_logw(rules, pol, t, s, ev, n_ev, rst):
    """Twin of :func:`history.seat_logw`: seat ``s``'s events backwards, each weighed by the
    model's own answer on the hand as it was then (approximately)."""
    hand, ps = t.hand, t.ps
    pw = t.count

    def give_back_unknown():
        k = E._known_row(hand, s)
        free = np.maximum(hand[s] - hand[k], 0)
        if free.sum() == 0:
            return
        j = R.below(rst, int(free.sum()))
        c = int(np.searchsorted(np.cumsum(free), j, side="right"))
        hand[s, c] -= 1

    def wants(c, kind):
        gain = E.P_TAKE_GAIN if kind in (H.H_TAKE, H.H_PASS_TAKE) else E.P_CALL_GAIN
        if gain == E.P_CALL_GAIN and ps[s, E.PS_CALLS] >= min(
                rules[E.R_CALL_LIMIT], pol[s, E.P_CALL_LIMIT] if pol[s, E.P_CALL_LIMIT] >= 0
                else rules[E.R_CALL_LIMIT]):
            return False
        return H._wants_card(s, c, hand, ps, t.gs, rules, pol, rst, gain, pw)

    def points(code):
        return card_value(code // 13, code % 13 + 1)

    lw = 0.0
    mine = [(int(k), int(c)) for sj, k, c in ev[:n_ev] if sj == s]
    for i in reversed(range(len(mine))):
        kind, c = mine[i]
        if kind == H.H_DRAW:
            # the card thrown in the same turn is taken to be the one drawn, if still unknown
            thrown = mine[i + 1][1] if i + 1 < len(mine) and mine[i + 1][0] == H.H_DISCARD \
                else None
            k = E._known_row(hand, s)
            if thrown is not None and hand[s, thrown] > hand[k, thrown]:
                hand[s, thrown] -= 1
            else:
                give_back_unknown()
        elif kind == H.H_DISCARD:
            hand[s, c] += 1
            d = E._choose_discard(s, hand, ps, t.gs, t.melds, rules, pol, rst, pw)
            if d == c:
                continue
            now = MEMO._needed_memo(s, hand, ps, rules, pol, pw)
            hand[s, c] -= 1
            keeps = RD._needed_upto(s, hand, rules, pol, pw, now, 0) <= now
            hand[s, c] += 1
            # a cheaper card thrown while a costlier one was free (R12) is not the model's
            lw += math.log(H.W_KEEP if keeps and points(c) >= points(d) else H.EPS)
        elif kind in (H.H_TAKE, H.H_CALL):
            if hand[s, c] > 0:
                hand[s, c] -= 1
                k = E._known_row(hand, s)
                hand[k, c] = max(0, hand[k, c] - 1)
            if kind == H.H_CALL:
                give_back_unknown()
            if not wants(c, kind):
                lw += math.log(H.EPS)
        elif wants(c, kind):
            lw += math.log(H.EPS)
    return lw


def history_logw(rules, pol, t, me, ev, n_ev, key):
    """Twin of :func:`history.history_logw`: the sum of the weighed seats' terms, each from
    its own stream and without a run plan."""
    lw = 0.0
    for s in range(t.ps.shape[0]):
        if s != me and t.ps[s, E.PS_OPENED] == 0:
            rst = np.array([R.stream_key(key, s, 0, 0, H.STREAM_HISTORY), 0], np.uint64)
            t.count.scratch[W_PLANS + 20 * s + 16] = 0
            lw += seat_logw(rules, pol, t, s, ev, n_ev, rst)
    return lw


def _sample(i, stock_left=45):
    rules, pol, rv, t, flat, opp, extra, mask = _inputs(stock_left)
    samp = E.new_table(4, rules.pack_size)
    st = np.array([R.stream_key(11, i, 0, 0, 5), 0], np.uint64)
    B._sample_situation(t, samp, flat, len(flat), opp, extra, st)
    return rv, pol, samp


def _copy(t):
    return E.copy_table(t)


@pytest.mark.parametrize("stock_left", [45, 5])
def test_forward_prior_is_its_twin_and_keeps_every_card(stock_left):
    for i in range(6):
        rv, pol, samp = _sample(i, stock_left)
        a, b = _copy(samp), _copy(samp)
        before = np.bincount(samp[3][:samp[2][E.GS_STOCK_N]], minlength=53) + samp[0][1:4].sum(0)
        sa = np.array([R.stream_key(3, i, 0, 0, 9), 0], np.uint64)
        sb = sa.copy()
        na = H.forward_prior(rv, pol, a, 0, sa)
        nb = forward_prior(rv, pol, b, 0, sb)
        assert na == nb == 3 * a[1][1, E.PS_TURNS]  # R2: each seat its own turns
        for x, y in zip(a[:6], b[:6], strict=True):
            assert (x == y).all()
        n = a[2][E.GS_STOCK_N]
        after = np.bincount(a[3][:n], minlength=53) + a[0][1:4].sum(0)
        assert (after == before).all()  # the hidden cards move, none comes or goes
        assert (a[0][1:4].sum(1) == 13).all() and (a[0][0] == samp[0][0]).all()


# a legal history (R9: the next player takes, the others call; seat k+1 plays before seat k)
EVENTS = [(2, "discard", "7♦"), (1, "pass", "7♦"), (1, "draw"), (1, "discard", "7♣"),
          (0, "pass", "7♣"), (3, "call", "7♣"), (0, "draw"), (0, "discard", "4♣"),
          (3, "pass", "4♣"), (3, "draw"), (3, "discard", "9♦"), (2, "take", "9♦"),
          (2, "discard", "K♦")]


def test_history_logw_is_its_twin():
    rules = ks.Rules()
    ev = engine_events(check_history(EVENTS, 4, ks.to_codes("K♦")[0], 2, rules), 4)
    seen = set()
    for i in range(12):
        rv, pol, samp = _sample(i)
        a, b = _copy(samp), _copy(samp)
        key = np.uint64(R.stream_key(5, i, 0, 0, 9))
        la = H.history_logw(rv, pol, a, 0, ev, len(ev), key, np.zeros(2, np.uint64))
        lb = history_logw(rv, pol, b, 0, ev, len(ev), key)
        assert la == pytest.approx(lb) and la <= 0
        assert (a[0] == b[0]).all()
        seen.add(round(la, 6))
    assert len(seen) > 2  # the weights tell samples apart


# -- the history typed in ------------------------------------------------------------------------


@pytest.mark.parametrize("history, msg", [
    ([(1, "fold", "7♦")], r"history\[0\] action='fold' is not allowed; give one of discard, "
                          "pass, take, call, draw"),
    ([(4, "draw")], r"history\[0\] seat=4 is not allowed; give a seat to your right 0-3"),
    ([(2, "discard", "7♦"), (1, "pass", "7X")], r"history\[1\]: .*7X"),
    ([(1, "pass", "7♦")], r"history\[0\]: seat 1 cannot pass 7♦: no discard is live \(R9"),
    ([(3, "discard", "7♦"), (1, "take", "7♦")],
     r"history\[1\]: only the next player, seat 2, takes the discard of seat 3 \(R9.1\)"),
    ([(3, "discard", "7♦"), (2, "call", "7♦")], r"history\[1\]: seat 2 is next after seat 3"),
    ([(3, "discard", "7♦"), (3, "pass", "7♦")], r"history\[1\]: seat 3 discarded 7♦ itself"),
    ([(3, "discard", "7♦"), (2, "draw"), (1, "call", "7♦")],
     r"history\[2\]: seat 1 cannot call 7♦: no discard is live"),
    ([(3, "discard", "JK")], r"history\[0\]: a joker is never discarded \(R6\)"),
    ([(1, "draw", "7♦")], r"history\[0\]: seat 1 drew '7♦' from the stock, but a stock draw is "
                          r"face down \(R6\)"),
    ([(1, "discard")], r"history\[0\]: discard needs its card"),
    ([(3, "discard", "9♣")], r"history ends with seat 3's discard of 9♣ still live, but the "
                             r"offer advised is 7♥ by seat 2"),
    # R9's order: the next player, then round from it, each once; the offer advised is
    # answered by the seats asked before you, never by you or a seat asked after you
    ([(3, "discard", "9♣"), (1, "pass", "9♣"), (2, "pass", "9♣")],
     r"history\[2\]: seat 2 answers 9♣ after seat 1, but R9 asks seat 2 first"),
    ([(3, "discard", "9♣"), (2, "pass", "9♣"), (2, "pass", "9♣")],
     r"history\[2\]: seat 2 answers 9♣ twice \(R9 asks each seat once\)"),
    ([(2, "discard", "7♥"), (1, "pass", "7♥"), (0, "pass", "7♥")],
     r"history\[2\]: you answered the offer being advised \(7♥ by seat 2\)"),
    ([(2, "discard", "7♥"), (0, "pass", "7♥"), (3, "pass", "7♥")],
     r"history\[1\]: you answered the offer being advised"),
    ([(2, "discard", "7♥"), (3, "pass", "7♥")],
     r"history\[1\]: seat 3, asked after you \(R9\), answered the offer being advised"),
    ([("x",)], r"history\[0\]=\('x',\) is not allowed"),
    ("1-discard-7♦", r"history\[0\]=\('1-discard-7♦',\) is not allowed"),
])
def test_R9_a_bad_history_is_a_clear_error_naming_the_entry(history, msg):
    with pytest.raises(ValueError, match=msg):
        ks.advise(**CASE, history=history, rollouts=4, policies="greedy")


def test_a_history_as_text_is_the_same_as_tuples():
    text = "3:discard:7♦, 2:pass:7♦, 2:draw, 2:discard:7♥"
    kw = dict(CASE, rollouts=200, policies="greedy", seed=3)
    a = ks.advise(**kw, history=text)
    b = ks.advise(**kw, history=[(3, "discard", "7♦"), (2, "pass", "7♦"), (2, "draw", None),
                                 (2, "discard", "7♥")])
    assert a.difference == b.difference
    assert a.situation["history"][:4] == [(3, "discard", "7♦"), (2, "pass", "7♦"),
                                          (2, "draw", None), (2, "discard", "7♥")]
    # the offer implies seat 1's pass (R9.1: it was next and did not take it)
    assert a.situation["history"][4] == (1, "pass", "7♥")


def _uniform_count(a, seat, rank):
    """Expected copies of ``rank`` in ``seat``'s hidden cards under uniform dealing."""
    out = a.situation
    shown = out["hand"] + [out["card"]] + out["seen"]
    copies = 8 - sum(c[:-1] == rank for c in shown)
    return out["hand_sizes"][seat] * copies / out["hidden"]


def test_R6_R9_a_seat_that_threw_a_7_and_passed_on_one_holds_fewer_7s():
    # seat 1 passed on seat 2's 7♦ (R9.1) and later discarded 7♣ (R6): a model player with
    # a 7 or two would have taken the 7♦ and kept the 7♣
    hist = [(2, "discard", "7♦"), (1, "pass", "7♦"), (1, "draw"), (1, "discard", "7♣")]
    kw = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♣", contract=6,
              discarder=1, stock_left=40, rollouts=800, seed=4)
    uniform = ks.advise(**kw, past_turns=False)
    read = ks.advise(**kw, past_turns=False, history=hist)
    assert read.situation["seen"] == ["7♦"]  # the discard nobody took lies in the pile (R9)
    assert uniform.sampled_ranks.loc[1, "7"] == pytest.approx(_uniform_count(uniform, 1, "7"),
                                                              rel=0.15)
    assert read.sampled_ranks.loc[1, "7"] < 0.8 * _uniform_count(read, 1, "7")
    # late in the hand (stock 40) the history leaves seat 1's turns out: it keeps its past
    # turns and weighs by importance; the chain moves no seat
    assert read.history_events == 4 and read.ess < read.rollouts and np.isnan(read.acceptance)
    # with the past turns replayed too (the default), against the same without the history
    before = ks.advise(**kw)
    after = ks.advise(**kw, history=hist)
    assert after.sampled_ranks.loc[1, "7"] < before.sampled_ranks.loc[1, "7"] - 0.1
    assert list(after.sampled_ranks.columns) == ["A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "10", "J", "Q", "K", "JK"]
    assert after.sampled_ranks.index.tolist() == [1, 2, 3]
    assert np.allclose(after.sampled_ranks.sum(axis=1), 13)  # R2: 13 cards each in hand 6
    assert "effective sample size" in str(after)


HAND6 = dict(hand="K♠ K♥ K♦ 7♦ 7♣ 2♥ 3♥ 4♥ 5♥ Q♦ Q♣ 9♠ 8♣", card="7♥", contract=6,
             discarder=2)


def test_R2_R6_late_in_the_hand_the_opponents_are_closer_to_opening():
    # issue 29's hand-6 example: a call that cuts the cards needed from 2 to 1
    assert ks.cards_needed(HAND6["hand"], 6) == 2
    assert ks.cards_needed(HAND6["hand"].split() + ["7♥"], 6) == 1
    early = ks.advise(**HAND6, stock_left=45, rollouts=800, seed=3)
    late = ks.advise(**HAND6, stock_left=5, rollouts=800, seed=3)
    p_early = early.table.set_index("action").loc["pass"]
    p_late = late.table.set_index("action").loc["pass"]
    assert p_late["out_hi"] < p_early["out_lo"] or p_late["out"] < p_early["out"] - 0.05
    # dealt uniformly (the old reading) the stock left changes nothing of the sort
    flat = [ks.advise(**HAND6, stock_left=s, rollouts=800, seed=3, past_turns=False)
            for s in (45, 5)]
    outs = [a.table.set_index("action").loc["pass", "out"] for a in flat]
    assert abs(outs[0] - outs[1]) < p_early["out"] - p_late["out"]


# -- the command line ----------------------------------------------------------------------------

_ARGS = ["advise", "--cards", CASE["hand"], "--card", "7♥", "--contract", "6", "--rollouts",
         "300", "--policies", "greedy", "--seed", "2", "--quiet"]


def _run(capsys, *args):
    from kalooki_sim import cli

    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_history_text_or_file(capsys, tmp_path):
    text = "3:discard:7♦, 2:pass:7♦, 2:draw, 2:discard:7♥"
    code, out, err = _run(capsys, *_ARGS, "--history", text)
    assert code == 0 and "5 opponent events read" in out
    f = tmp_path / "events.txt"
    f.write_text("# seat:action:card\n3:discard:7♦\n2:pass:7♦\n2:draw\n2:discard:7♥\n",
                 encoding="utf-8")
    code, out2, _ = _run(capsys, *_ARGS, "--history", f"@{f}")
    assert code == 0 and out2 == out


@pytest.mark.parametrize("history, words", [
    ("3:discard:7♦,1:take:7♦", "history[1]: only the next player, seat 2"),
    ("3:fold:7♦", "history[0] action='fold' is not allowed"),
    ("@/nonexistent/events.txt", "history='@/nonexistent/events.txt' is not allowed"),
])
def test_cli_a_bad_history_is_one_line(capsys, history, words):
    code, out, err = _run(capsys, *_ARGS, "--history", history)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalooki advise: error: ")
    assert words in lines[0] and "Traceback" not in err


# -- decide only what the rollouts decide ----------------------------------------------------------


def test_the_sequential_rule_keeps_its_error_rate_under_the_null():
    """``decide=True``'s rule (Bonferroni over the looks): on differences of mean zero, the
    chance of deciding at any of the looks stays at most 5% (a plain-numpy null simulation,
    heavy tails included), while a real difference is found."""
    from kalooki_sim.studies.advisor import BATCH, _decided

    rng = np.random.default_rng(1)
    looks = 8
    false = 0
    trials = 300
    for _ in range(trials):
        d = rng.standard_t(3, size=looks * BATCH) * 20
        lw = np.zeros(d.size)
        false += any(_decided(d[:k * BATCH], lw[:k * BATCH], looks)
                     for k in range(1, looks + 1))
    assert false / trials <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / trials)
    d = rng.normal(-5, 20, size=looks * BATCH)
    assert _decided(d[:2 * BATCH], np.zeros(2 * BATCH), looks)
    # uncorrected, the same looks would decide far more often than 5%
    fixed = 0
    for _ in range(trials):
        d = rng.standard_t(3, size=looks * BATCH) * 20
        fixed += any(_decided(d[:k * BATCH], np.zeros(k * BATCH), 1)
                     for k in range(1, looks + 1))
    assert fixed > false


def test_decide_stops_when_decided_and_claims_nothing_otherwise():
    COMPLETE = dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", card="6♦", contract=1, discarder=1)
    a = ks.advise(**COMPLETE, rollouts=5000, decide=True, policies="greedy", seed=1)
    assert a.stopped_by == "decided" and a.rollouts == 250 and a.action == "take"
    assert "sequential test decided" in a.recommendation
    # the late, nearly void hand 6 (R13): the two options are equal, found so at a look before
    # the budget, and no action is claimed
    late = dict(HAND6, stock_left=2, reshuffled=True, seen="2♣ 3♣ 4♣ 5♣ 6♣")
    b = ks.advise(**late, rollouts=5000, decide=True, seed=3)
    assert b.stopped_by == "equal" and b.rollouts < 5000
    assert b.action == "unsure" and b.confidence == "unsure"
    assert "within ±2 points" in b.recommendation
    lo, hi = b.difference["relative_lo"], b.difference["relative_hi"]
    assert -2 <= lo and hi <= 2


# -- the why in words ------------------------------------------------------------------------------


def test_the_sentence_says_a_likely_void_and_when_own_points_differ():
    late = dict(HAND6, stock_left=2, reshuffled=True, seen="2♣ 3♣ 4♣ 5♣ 6♣")
    a = ks.advise(**late, rollouts=600, seed=3)
    assert a.table["void"].max() >= 0.5
    assert "the hand is likely void (R13" in a.recommendation
    assert "from 0% to 0%" not in a.recommendation
    if abs(a.difference["relative"]) < 1:
        assert "clearly" not in a.recommendation
    b = ks.advise(**HAND6, stock_left=45, rollouts=600, seed=3)
    dp, dr = b.difference["penalty"], b.difference["relative"]
    said = f"changes your own expected penalty by {dp:+.1f}" in b.recommendation
    assert said == (abs(dp - dr) >= max(2, abs(dr) / 2) or np.sign(dp) != np.sign(dr))


def test_the_sentence_names_the_opening_double_when_its_chance_moves():
    import pandas as pd

    from kalooki_sim.studies import advisor as adv

    diff = {"relative": -3.0, "relative_lo": -5.0, "relative_hi": -1.0, "out": 0.0,
            "out_lo": 0.0, "out_hi": 0.0, "penalty": -3.0, "penalty_lo": -5.0,
            "penalty_hi": -1.0}

    def text(q_act, q_pass):
        table = pd.DataFrame({"out": [0.3, 0.3], "doubled": [q_act, q_pass], "void": [0, 0]})
        return adv._sentence("call", "clearly", "call", "7♥", diff, table, 2000, "rollouts",
                             "relative", {})

    assert "opening double (R12" in text(0.30, 0.20)
    assert "from 20% to 30%: passing keeps you out of it more often" in text(0.30, 0.20)
    assert "opening double" not in text(0.21, 0.20)
    t = text(0.1, 0.2)
    assert "lowers your chance of being caught by an opening double" in t
    s = adv._sentence("call", "clearly", "call", "7♥", {**diff, "relative": -0.4,
                                                         "relative_lo": -0.6,
                                                         "relative_hi": -0.2},
                      pd.DataFrame({"out": [0.3, 0.3]}), 2000, "rollouts", "relative", {})
    assert "clearly" not in s and "slightly" in s


def rank_counts(t, out):
    """Twin of :func:`history.rank_counts`: copies of each rank (and jokers) per seat."""
    hand = t[0]
    for p in range(out.shape[0]):
        out[p, :13] = [sum(hand[p, s * 13 + r] for s in range(4)) for r in range(13)]
        out[p, 13] = hand[p, 52]


def test_rank_counts_is_its_twin_and_the_uniform_ranks_are_uniform():
    rv, pol, samp = _sample(3)
    a = np.zeros((4, H.RANK_COLS), np.int64)
    b = np.ones((4, H.RANK_COLS), np.int64)
    H.rank_counts(samp, a)
    rank_counts(samp, b)
    assert (a == b).all() and (a.sum(1) == 13).all()
    # dealt uniformly (and no pass implied: you are next, R9.1), each opponent's mean count
    # of a rank is its share of the hidden cards
    adv = ks.advise(**dict(CASE, discarder=1), stock_left=45, rollouts=1500, past_turns=False,
                    seed=8, policies="greedy")
    assert adv.ess == 1500
    for rank in ("A", "7", "K", "JK"):
        expect = (_uniform_count(adv, 1, rank) if rank != "JK"
                  else 13 * 4 / adv.situation["hidden"])
        for seat in (1, 2, 3):
            assert adv.sampled_ranks.loc[seat, rank] == pytest.approx(expect, rel=0.2)


def test_the_advisor_guide_states_the_likelihoods_weights():
    """The guide's sentence on how a sample is weighed names the kernel's own weights: a new
    EPS or W_KEEP cannot leave the old numbers on the page (a fixed phrase that can turn false)."""
    from pathlib import Path

    guide = (Path(H.__file__).resolve().parents[2] / "report" / "guide" / "advisor.md").read_text()
    text = " ".join(guide.split())
    assert (f"1 when it would have, {H.EPS:g} when not, {H.W_KEEP:g} for a discard it would not "
            "choose") in text
