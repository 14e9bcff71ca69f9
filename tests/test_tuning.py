"""Tuned call policies: racing on common deals, paired intervals, the published table."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim.players import tuning as T

EXPERT = ks.preset("expert")
NEVER = replace(EXPERT, name="never", call_limit=0)           # expert that never calls (R9.2)
ZERO = replace(EXPERT, name="zero", call_gain=0, take_gain=0)  # calls and takes everything
NEED2 = replace(EXPERT, name="need2", call_max_need=2)


def test_racing_keeps_the_better_and_drops_the_clearly_worse():
    """Hand 1: never calling or calling every card costs ~25-45 points a hand (measured in
    play); both must go out in the first round of four, the two near-experts go on."""
    r = T.tune_calls(1, candidates=[ZERO, NEVER, EXPERT, NEED2], budget=3000, seed=3)
    t = r.table.set_index("candidate")
    assert [s["alive"] for s in r.schedule] == [4, 2]
    assert t.loc["zero", "rounds"] == 1 and t.loc["never", "rounds"] == 1
    assert t.loc["expert", "rounds"] == 2 and t.loc["need2", "rounds"] == 2
    assert r.best.name in ("expert", "need2") and r.table["candidate"].iloc[0] == r.best.name
    # the losers are clearly worse: their paired intervals lie above zero
    assert (t.loc[["zero", "never"], "gain_lo"] > 0).all()
    # survivors played the later batch too, on the same deals as each other
    assert t.loc["expert", "deals"] == t.loc["need2", "deals"] > t.loc["zero", "deals"]
    assert r.hands_played <= 3000 + 4 * 2 * 4


def test_common_random_numbers_identical_candidates_differ_by_exactly_zero():
    copy = replace(EXPERT, name="copy")
    r = T.tune_calls(5, candidates=[NEED2, copy], budget=400, seed=1)
    t = r.table.set_index("candidate")
    assert t.loc["copy", ["gain", "gain_lo", "gain_hi"]].tolist() == [0.0, 0.0, 0.0]
    assert t.loc["need2", "gain_hi"] > t.loc["need2", "gain_lo"]  # a real policy change is noisy
    c = T.confirm(copy, 5, deals=10, seed=4)
    assert (c["gain"], c["gain_lo"], c["gain_hi"]) == (0.0, 0.0, 0.0)
    assert c["penalty"] == c["expert_penalty"]


def test_confirm_scores_the_candidate_in_every_seat_as_play_hands_does():
    """An oracle from play_hands itself: rotation k seats the policy at k, the field after it."""
    n, seed = 12, 5
    c = T.confirm(NEVER, 2, deals=n, seed=seed)
    s = T._stream_seed(seed, T._TAG_CONFIRM, 2, 0)
    own = []
    for k in range(4):
        seats = ["expert"] * 4
        seats[k], seats[(k + 2) % 4] = NEVER, "greedy"
        df = ks.play_hands(n, hand=2, policies=seats, seed=s)
        own.append(df.loc[df["seat"] == k, "penalty"].astype(float).mean())
    assert c["penalty"] == pytest.approx(np.mean(own))
    assert c["calls"] == 0 and c["deals"] == n


def test_confirm_interval_covers_the_pooled_gain():
    """20 independent confirmations of never-call in hand 1: their 95% intervals should cover
    the mean of all of them (a far better estimate) in about 19 of 20."""
    runs = [T.confirm(NEVER, 1, deals=40, seed=s) for s in range(20)]
    truth = np.mean([r["gain"] for r in runs])
    covered = sum(r["gain_lo"] <= truth <= r["gain_hi"] for r in runs)
    assert covered >= 16
    assert all(r["gain_lo"] < r["gain"] < r["gain_hi"] for r in runs)
    assert truth > 0  # never calling costs points in hand 1


def test_composed_games_are_play_games_move_for_move():
    """Hand h of play_games is play_hands of h with the seats turned by h - 1 (R14): the game
    totals built from rotations equal play_games' with the candidate in each seat."""
    n, seed = 8, 11
    opp = T._opponents(("never-call", "greedy"), 4)
    rules = ks.Rules(players=4)
    rots = [T._rotations(ks.preset("call-1"), opp, h, n, seed, rules, None) for h in range(1, 10)]
    own, share = T._game_seats(rots)
    for s in range(4):
        seats = [None] * 4
        seats[s] = "call-1"
        for j, p in enumerate(opp):
            seats[(s + 1 + j) % 4] = p
        g = ks.play_games(n, policies=seats, seed=seed)
        me = g[g["seat"] == s].groupby("game")
        np.testing.assert_array_equal(own[:, s], me["total"].first().astype(float))
        winners = g.groupby("game")["winner"].sum() / 9
        expect = me["winner"].first().astype(float) / winners
        np.testing.assert_allclose(share[:, s], expect)


def test_confirm_games_rows():
    g = T.confirm_games({9: NEED2}, games=6, seed=2)
    assert list(g["hand"]) == list(range(1, 10)) + ["game"]
    same = g[g["hand"].isin(range(1, 9))]
    assert (same[["gain", "gain_lo", "gain_hi"]] == 0).all().all()  # expert vs expert
    game, h9 = g.iloc[-1], g.iloc[8]
    assert game["gain"] == pytest.approx(h9["gain"])  # only hand 9 differs: totals add up
    assert 0 < game["expert_win_share"] < 1 and game["deals"] == 6
    one = T.confirm(NEED2, 9, deals=6, seed=2)
    assert h9["gain"] == one["gain"] and h9["penalty"] == one["penalty"]


def test_schedule_halves_to_one():
    plan = T._schedule(33, 2, 40_000, 4, min_deals=2)
    assert [a for a, _ in plan] == [33, 17, 9, 5, 3, 2]
    assert sum((a + 1) * 4 * d for a, d in plan) <= 40_000
    assert [d for _, d in plan] == sorted(d for _, d in plan)  # survivors get more deals


def test_call_grid_starts_from_expert_with_distinct_names():
    pols = T.call_grid(5, seed=1)
    names = [p.name for p in pols]
    assert names[0] == "expert" and pols[0] == EXPERT and len(set(names)) == len(names)
    assert len(pols) == 1 + sum(len(v) - 1 for v in T.GRID.values()) + 5
    for p in pols:  # only call parameters change
        assert replace(p, name="x", **{f: getattr(EXPERT, f) for f in T.CALL_FIELDS}) == \
            replace(EXPERT, name="x")


@pytest.mark.parametrize("h", range(1, 10))
def test_tuned_policy_is_a_valid_policy_for_every_contract(h):
    p = T.tuned_policy(h)
    assert isinstance(p, ks.Policy) and p.name == f"tuned-{h}" and p.exact and p.defend
    row = T.tuned_table().set_index("hand").loc[h]
    assert bool(row["adopted"]) == (row["gain_hi"] < 0)
    for f in T.CALL_FIELDS:
        tuned = None if pd.isna(row[f]) else int(row[f])
        assert getattr(p, f) == (tuned if row["adopted"] else getattr(EXPERT, f)), f
    df = ks.play_hands(3, hand=h, policies=[p, "expert", "greedy", "expert"], seed=1)
    assert df["penalty"].notna().all()


def test_tuned_table_holds_every_contract_with_intervals():
    t = T.tuned_table()
    assert list(t["hand"]) == list(range(1, 10))
    assert (t["gain_lo"] <= t["gain"]).all() and (t["gain"] <= t["gain_hi"]).all()
    assert (t["search_gain_lo"] <= t["search_gain_hi"]).all()
    assert any(line.startswith("made by: python -m kalooki_sim.tuning")
               for line in t.attrs["header"])


@pytest.mark.parametrize("call, err, msg", [
    (lambda: T.tuned_policy(0), ValueError, r"hand=0 is not allowed; give an integer 1-9"),
    (lambda: T.tuned_policy(10), ValueError, r"hand=10 is not allowed"),
    (lambda: T.tuned_policy("9"), TypeError, r"hand='9' is not allowed"),
    (lambda: T.tuned_policy(True), TypeError, r"hand=True is not allowed"),
    (lambda: T.tune_calls(0), ValueError, r"hand=0 is not allowed; give an integer 1-9"),
    (lambda: T.tune_calls(1, budget=0), ValueError, r"budget=0 is not allowed"),
    (lambda: T.tune_calls(1, eta=1), ValueError, r"eta=1 is not allowed"),
    (lambda: T.tune_calls(1, field=[]), ValueError, r"field=\[\] is not allowed"),
    (lambda: T.tune_calls(1, field=3), TypeError, r"field=3 is not allowed"),
    (lambda: T.tune_calls(1, candidates=["greedy", "greedy"]), ValueError,
     r"distinct names"),
    (lambda: T.tune_calls(1, candidates=["nope"]), ValueError, r"unknown policy 'nope'"),
    (lambda: T.confirm("expert", 1, deals=1), ValueError, r"deals=1 is not allowed"),
    (lambda: T.confirm_games([EXPERT] * 8), ValueError, r"a list of 9"),
    (lambda: T.confirm_games({10: EXPERT}), ValueError, r"hand=10 is not allowed"),
])
def test_bad_input_is_a_clear_error(call, err, msg):
    with pytest.raises(err, match=msg):
        call()
