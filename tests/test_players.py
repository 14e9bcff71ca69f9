"""Players worth studying (issue 8): the expert preset, hold-for-double, in duplicate play."""

import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.game.referee import check


def test_expert_preset_counts_exactly_and_defends():
    p = ks.preset("expert")
    assert p.exact and p.defend and p.call_limit is None
    assert "expert" in ks.engine.policies.PRESETS


def test_expert_tables_are_refereed_every_contract():
    """Every contract, 3 to 8 players (hand 1: 4, ..., hand 5: 8, hand 6: 3, ...; 7 and 8
    players with V1's pack for the table)."""
    for hand in range(1, 10):
        players = 3 + hand % 6
        rules = ks.Rules(players=players, pack="by-table" if players > 6 else "card")
        df = ks.play_hands(3, hand=hand, policies="expert", seed=hand, rules=rules, voids=True)
        for game in range(3):
            t = ks.trace(hand, game=game, hand=hand, policies="expert", rules=rules)
            assert check(t.records, t.rules, df[df["game"] == game]) >= 1


def test_expert_beats_three_greedy_players_on_the_same_cards():
    """Duplicate format: the whole 95% interval of the win share is above the fair 1/4."""
    t = ks.tournament(["expert", "greedy", "greedy", "greedy"], games=150, seed=5)
    e = t.set_index("policy").loc["expert"]
    assert e["win_share_lo"] > 0.25 and e["rel_total_hi"] < 0


def test_exact_need_changes_decisions_but_not_legality():
    a = ks.play_hands(200, hand=7, policies="greedy", seed=4)
    b = ks.play_hands(200, hand=7, policies="expert", seed=4)
    assert not np.array_equal(a["penalty"].to_numpy(), b["penalty"].to_numpy())
    # the same deals: dealt_meets_contract does not depend on the policy
    assert (a.groupby("game")["dealt_meets_contract"].sum()
            == b.groupby("game")["dealt_meets_contract"].sum()).all()


def test_hold_for_double_calls_only_to_complete_and_doubles_more():
    hold = ks.play_hands(400, hand=6, policies="hold-for-double", seed=3)
    greedy = ks.play_hands(400, hand=6, policies="greedy", seed=3)
    assert hold["calls"].mean() < greedy["calls"].mean() / 3

    def doubled_share(d):
        return d[d["went_out"]]["out_on_opening"].mean()

    assert doubled_share(hold) > doubled_share(greedy)


@pytest.mark.slow
def test_expert_against_greedy_and_never_call_2000_deal_sequences():
    for field in ("greedy", "never-call"):
        t = ks.tournament(["expert", field, field, field], games=2000, seed=2026)
        assert t.set_index("policy").loc["expert", "win_share_lo"] > 0.25


@pytest.mark.parametrize("field, value", [
    ("call_max_need", 0), ("call_min_stock", 200), ("call_max_card", 0), ("call_danger", 30),
    ("call_max_opened", 1), ("call_max_hand", 0),
])
def test_each_call_parameter_holds_calls_back(field, value):
    """A parameter set to a strict value cuts the calls of an otherwise greedy player (those
    about opponents only bite once someone has opened, so by less)."""
    free = ks.play_hands(300, hand=8, policies=ks.Policy("free"), seed=2)
    held = ks.play_hands(300, hand=8, policies=ks.Policy("held", **{field: value}), seed=2)
    share = 0.9 if field in ("call_danger", "call_max_opened") else 0.5
    assert held["calls"].sum() < share * free["calls"].sum()
