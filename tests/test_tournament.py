"""Duplicate tournaments: rotations on the same deals, pooled seats, deal-sequence intervals."""

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks


def test_one_policy_everywhere_gets_exactly_the_fair_share():
    t, p = ks.tournament(["greedy"] * 4, games=30, seed=2, paired=True)
    assert list(t["policy"]) == ["greedy"] and t["seats"].item() == 4
    assert t["win_share"].item() == pytest.approx(0.25)
    assert t["rel_total"].item() == pytest.approx(0.0)
    assert p.empty


def test_shares_add_up_and_paired_differences_are_antisymmetric():
    pols = ["call-1", "never-call", "greedy", "greedy"]
    t, p = ks.tournament(pols, games=40, seed=3, paired=True)
    t = t.set_index("policy")
    assert (t["win_share"] * t["seats"]).sum() == pytest.approx(1.0)
    assert (t["rel_total"] * t["seats"]).sum() == pytest.approx(0.0, abs=1e-9)
    assert (t["win_share_lo"] < t["win_share"]).all() and (t["win_share"] < t["win_share_hi"]).all()
    row = p[(p["policy_a"] == "call-1") & (p["policy_b"] == "never-call")].iloc[0]
    assert row["d_mean_total"] == pytest.approx(t.loc["call-1", "mean_total"]
                                                - t.loc["never-call", "mean_total"])
    # never-call never calls, so its calls interval is exactly zero
    assert t.loc["never-call", ["calls_per_hand", "calls_per_hand_hi"]].tolist() == [0, 0]


def test_every_policy_sits_in_every_seat_on_the_same_cards():
    """The tournament's totals equal the rotations played by hand through play_games."""
    pols = ["call-2", "never-call", "never-call"]
    t = ks.tournament(pols, games=15, players=3, seed=5).set_index("policy")
    totals = []
    for k in range(3):
        rot = [pols[(s + k) % 3] for s in range(3)]
        df = ks.play_games(15, policies=rot, seed=5, players=3)
        seat = (0 - k) % 3  # the seat call-2 holds in rotation k
        totals.append(df[df["seat"] == seat].groupby("game")["total"].first().astype(float))
    expect = pd.concat(totals, axis=1).mean(axis=1).mean()
    assert t.loc["call-2", "mean_total"] == pytest.approx(expect)


@pytest.mark.parametrize("kwargs, err, msg", [
    (dict(policies="greedy", games=5), TypeError, "one policy per seat"),
    (dict(policies=["greedy"] * 3, games=5), ValueError, "one per seat"),
    (dict(policies=["greedy"] * 4, games=0), ValueError, "games=0"),
    (dict(policies=[ks.Policy("x"), ks.Policy("x", call_gain=2), "greedy", "greedy"], games=2),
     ValueError, "both named 'x'"),
])
def test_tournament_bad_input_is_a_clear_error(kwargs, err, msg):
    with pytest.raises(err, match=msg):
        ks.tournament(**kwargs)


def test_intervals_cover_with_the_deal_sequence_as_unit():
    t = ks.tournament(["call-1", "greedy", "greedy", "greedy"], games=60, seed=9)
    w = (t["mean_total_hi"] - t["mean_total_lo"]).to_numpy()
    assert np.isfinite(w).all() and (w > 0).all()


def test_tables_concatenate_like_any_frame():
    a = ks.tournament(["call-1", "greedy", "greedy", "greedy"], games=5, seed=1)
    b = ks.tournament(["call-2", "greedy", "greedy", "greedy"], games=5, seed=1)
    both = pd.concat([a, b], ignore_index=True)
    assert len(both) == 4 and both.attrs.get("players") == 4
