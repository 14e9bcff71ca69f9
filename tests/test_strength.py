"""strength_table: one policy against a field, per contract, on the same deals (issue 17)."""

import pytest

import kalooki_sim as ks
from kalooki_sim.analysis import strength_table

COLUMNS = ["hand", "field", "policy", "deals", "d_penalty", "d_penalty_lo", "d_penalty_hi"]


def test_a_policy_against_itself_gives_exactly_zero_on_every_contract_asked():
    """Every seat plays alike, so the rotations' differences cancel exactly (R12 integers)."""
    t = strength_table("greedy", "greedy", deals=30, seed=5, hands=[1, 9], threads=1)
    assert list(t.columns) == COLUMNS
    assert t["hand"].tolist() == [1, 9] and (t["deals"] == 30).all()
    assert (t[["d_penalty", "d_penalty_lo", "d_penalty_hi"]] == 0.0).all().all()


def test_never_calling_is_worse_than_greedy_in_hand_7_and_the_interval_holds_the_mean():
    """R9.2: a player that never calls in hand 7 (14 cards, 2 groups + 2 runs) falls behind;
    measured at about +50 points a deal against three greedy players."""
    t = strength_table("never-call", ["greedy", "never-call"], deals=300, seed=2, hands=7,
                       threads=1)
    assert t["field"].tolist() == ["greedy", "never-call"]
    assert (t["policy"] == "never-call").all()
    assert (t["d_penalty_lo"] <= t["d_penalty"]).all()
    assert (t["d_penalty"] <= t["d_penalty_hi"]).all()
    g = t.set_index("field").loc["greedy"]
    assert g["d_penalty_lo"] > 10 and g["d_penalty_hi"] > g["d_penalty_lo"]
    # against itself: exactly zero again
    assert t.set_index("field").loc["never-call", "d_penalty"] == 0.0


def test_same_seed_same_table_and_policies_as_objects():
    pol = ks.Policy("cautious", call_limit=1)
    a = strength_table(pol, ks.preset("greedy"), deals=20, seed=8, hands=[2], threads=1)
    b = strength_table(pol, "greedy", deals=20, seed=8, hands=(2,), threads=1)
    assert a.equals(b) and a["policy"].iloc[0] == "cautious"


@pytest.mark.parametrize("kwargs, err, text", [
    ({"policy": "nobody"}, ValueError, "unknown policy"),
    ({"policy": 3}, TypeError, "policy=3"),
    ({"field": []}, ValueError, "field"),
    ({"field": None}, TypeError, "field"),
    ({"deals": 1}, ValueError, "deals=1"),
    ({"deals": 2.5}, TypeError, "deals"),
    ({"hands": [0]}, ValueError, "hands=0"),
    ({"hands": [1, 1]}, ValueError, "distinct"),
    ({"hands": []}, ValueError, "hands"),
    ({"hands": "1"}, TypeError, "hands"),
    ({"seed": -1}, ValueError, "seed"),
    ({"threads": 0}, ValueError, "threads=0"),
])
def test_bad_inputs_are_clear_errors(kwargs, err, text):
    with pytest.raises(err, match=text):
        strength_table(**{"deals": 2, "hands": [1], **kwargs})
