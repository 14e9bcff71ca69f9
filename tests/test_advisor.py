"""The position advisor (issue 9): situations typed in, sampled consistently, played both ways."""

from __future__ import annotations

import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.engine._kernels import branch as B
from kalooki_sim.engine._kernels import engine as E

COMPLETE = dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", card="6♦", contract=1)


def test_R7_R9_taking_the_card_that_completes_the_contract_is_advised():
    a = ks.advise(**COMPLETE, discarder=1, rollouts=300, policies="greedy", seed=1)
    assert a.action == "take" and a.rollouts == 300
    assert a.difference["penalty_hi"] < -10
    assert list(a.table["action"]) == ["take", "draw"]
    # taking it opens at once and goes out (9 + 1 cards: 3 groups and the discard, R12)
    assert a.table["out"].iat[0] == 1.0 and a.table["penalty"].iat[0] == 0
    for col in ("penalty", "out", "doubled", "void"):
        assert (a.table[f"{col}_lo"] <= a.table[col]).all()
        assert (a.table[col] <= a.table[f"{col}_hi"]).all()
    assert "Take 6♦" in a.recommendation and "300" in a.recommendation


def test_R9_a_call_is_call_or_pass_and_the_same_seed_gives_the_same_advice():
    kw = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♥", contract=6,
              discarder=2, rollouts=250, policies="greedy", seed=5)
    a, b = ks.advise(**kw), ks.advise(**kw)
    assert list(a.table["action"]) == ["call", "pass"]
    assert a.action in ("call", "pass", "unsure")
    assert a.difference == b.difference
    assert a.difference["penalty_lo"] <= a.difference["penalty"] <= a.difference["penalty_hi"]
    # the action follows the interval
    d = a.difference
    want = "call" if d["penalty_hi"] < 0 else "pass" if d["penalty_lo"] > 0 else "unsure"
    assert a.action == want


def test_advice_stops_at_the_margin_or_the_time_limit():
    a = ks.advise(**COMPLETE, discarder=1, rollouts=5000, margin=8.0, policies="greedy")
    assert a.stopped_by == "margin" and a.rollouts < 5000
    assert (a.difference["penalty_hi"] - a.difference["penalty_lo"]) / 2 <= 8.0
    b = ks.advise(**COMPLETE, discarder=1, rollouts=10**6, time_limit=0.01, policies="greedy")
    assert b.stopped_by == "time_limit" and b.rollouts < 10**6
    assert "stopped by time limit" in b.recommendation


def test_situation_with_table_opened_and_seen_cards():
    a = ks.advise("4♣ 5♣ 6♣ 9♦ 9♠ 2♥ 3♥ K♦ K♣ 8♠", "9♥", 2, discarder=3, opened=[1],
                  table=["Q♠ Q♥ Q♦", "5♥ 6♥ 7♥ 8♥"], seen="A♦ 3♠", stock_left=30,
                  rollouts=100, policies="greedy", seed=2)
    assert a.situation["opened"] == [1] and len(a.situation["table"]) == 2
    assert a.situation["stock_left"] == 30 and a.rollouts == 100


def test_sampled_tables_are_full_legal_tables():
    """Every sample holds the whole pack: the player's hand, the table and the pile as typed,
    the hidden cards dealt to the opponents (sizes as documented), the pile and the stock."""
    from kalooki_sim.studies.advisor import _situation

    rules = ks.Rules()
    t, hand_no, flat, opp, extra, mask, info = _situation(
        "4♣ 5♣ 6♣ 9♦ 9♠ 2♥ 3♥ K♦ K♣ 8♠", "9♥", 2, 4, 3, 30, 0, [1],
        ["Q♠ Q♥ Q♦", "5♥ 6♥ 7♥ 8♥"], "A♦ 3♠", rules)
    samp = E.new_table(4, rules.pack_size)
    for i in range(20):
        st = np.array([B.R.stream_key(9, i, 0, 0, 7), 0], np.uint64)
        B._sample_situation(t, samp, flat, len(flat), opp, extra, st)
        hand, gs = samp[0], samp[2]
        total = (hand[:4].sum(0) + hand[4] + np.bincount(samp[3][:gs[E.GS_STOCK_N]],
                 minlength=53) + np.bincount(samp[4][:gs[E.GS_DISC_N]], minlength=53))
        want = np.full(53, 2)
        want[52] = 4
        assert (total == want).all()
        assert (hand[0] == t[0][0]).all() and gs[E.GS_STOCK_N] == 30
        assert hand[1:4].sum(1).tolist() == [10, 10, 3]  # seat 3 (1 to the right) laid 7
        assert samp[4][gs[E.GS_DISC_N] - 1] == ks.to_codes("9♥")[0]  # the live card on top


@pytest.mark.parametrize("kw, msg", [
    (dict(hand="7♥ 7♥ 2♣ 3♣ 4♣ 5♣ 6♣ 8♣ 9♣", card="7♥"), "copies of 7♥"),
    (dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥", card="6♦"), "hand has 8 cards"),
    (dict(card="JK"), "joker is never discarded"),
    (dict(card="7♥ 8♥"), "exactly one card"),
    (dict(stock_left=72), "stock_left=72"),  # 108 - 4 x 9 - 1 = 71 right after the deal
    (dict(stock_left=60, seen=" ".join(["3♣"] * 2 + ["4♣"] * 2 + ["5♣"] * 2 + ["7♣"] * 2
                                      + ["8♦"] * 2 + ["9♦"] * 2 + ["10♦"] * 2)),
     "stock_left=60 is not allowed: with 4 players"),
    (dict(discarder=4), "discarder=4"),
    (dict(discarder=2, calls_made=3, hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 2♦ 3♦ 4♦ 5♦ 7♦ 8♦"),
     "calls_made=3"),
    (dict(table=["Q♣ Q♣ 2♦"], opened=[1]), "not a meld"),
    (dict(table=["5♥ 6♥ 7♥ 8♥"]), "opened is empty"),
    (dict(opened=[0]), "opened=0"),
    (dict(contract=(5, 0)), "contract"),
    (dict(hand="K♠ K♥ X♦"), "X♦"),
    (dict(rollouts=1), "rollouts=1"),
    (dict(margin=-1.0), "margin=-1"),
    (dict(rules=ks.Rules(players=2, tuluki=True)), "tuluki=True"),
])
def test_impossible_situations_are_clear_errors(kw, msg):
    args = {**COMPLETE, "rollouts": 10, "policies": "greedy", **kw}
    with pytest.raises((ValueError, TypeError), match=msg):
        ks.advise(**args)
