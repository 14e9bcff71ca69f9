"""Rule sets side by side (issue 12): compare_rules and the lay-off superset of V3."""

import itertools

import pytest

import kalooki_sim as ks
from kalooki_sim.analysis import MEASURES, compare_rules
from kalooki_sim.game.cards import card_text


def test_a_rule_set_against_itself_differs_by_exactly_zero():
    t = compare_rules({"card": ks.Rules(), "card again": ks.Rules()}, 60, hands=[2, 8], seed=4)
    assert list(t["rules"]) == ["card", "card again"] * 2
    for m in MEASURES:
        assert (t[f"d_{m}"].fillna(0) == 0).all()
        assert (t[f"d_{m}_lo"].fillna(0) == 0).all() and (t[f"d_{m}_hi"].fillna(0) == 0).all()
    # and the measures are the same numbers
    a, b = t.iloc[0], t.iloc[1]
    assert a["turns"] == b["turns"] and a["loser_penalty"] == b["loser_penalty"]


def test_V2_V8_differences_are_paired_on_the_same_deals():
    t = compare_rules({"card": ks.Rules(), "V8 two calls": ks.Rules(call_limit=2),
                       "by name": "jamaican"}, 300, hands=[1], seed=3)
    assert t.loc[t.rules == "by name", "d_turns"].iat[0] == 0
    row = t[t.rules == "V8 two calls"].iloc[0]
    assert row["d_turns_lo"] <= row["d_turns"] <= row["d_turns_hi"]
    # the difference is of paired deals: its interval is far narrower than the measures'
    assert row["d_turns_hi"] - row["d_turns_lo"] < row["turns_hi"] - row["turns_lo"]
    assert {f"d_{m}{s}" for m in MEASURES for s in ("", "_lo", "_hi")} <= set(t.columns)


def test_compare_rules_errors():
    with pytest.raises(TypeError, match="rule_sets"):
        compare_rules([ks.Rules()], 10)
    with pytest.raises(ValueError, match="rule set 'short'"):
        compare_rules({"card": ks.Rules(), "short": "kalooki"}, 10, hands=[9])
    with pytest.raises(ValueError, match="n=1"):
        compare_rules({"card": ks.Rules()}, 1)


def _runs():
    """Every run of 4-6 naturals of one suit, and some with a joker (R4)."""
    for s in "♣♥":
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        for lo in range(0, 11):
            for ln in (4, 5, 6):
                if lo + ln > 14:
                    continue
                cards = [f"{r}{s}" for r in ranks[lo:lo + ln]]
                yield cards
                yield cards[:1] + ["JK"] + cards[2:]


def test_V3_free_extension_allows_every_lay_off_up_first_allows_and_more():
    up, free = ks.Rules(), ks.Rules(free_extension=True)
    cards = [card_text(c) for c in range(52)] + ["JK"]
    more = 0
    for meld, card, own in itertools.product(_runs(), cards, (True, False)):
        a = ks.can_lay_off(meld, card, own=own, rules=up)
        b = ks.can_lay_off(meld, card, own=own, rules=free)
        assert b or not a, (meld, card, own)
        more += b and not a
    assert more > 50  # e.g. the card below a run whose top is not yet the ace (R10)
