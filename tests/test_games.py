"""Whole games at every table size (R13, R14, V1), rows that cannot mislead, R9 and V8 fixes."""

import warnings

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks


def _after(recs, event):
    """The records that follow each ``event`` record, up to the next draw."""
    for i, r in enumerate(recs):
        if r["event"] == event:
            yield [x["event"] for x in recs[i + 1:i + 6]]


@pytest.mark.parametrize("rules", [ks.Rules(players=3, jokers=16), ks.Rules(players=4, jokers=30)])
def test_R9_C2_nothing_is_offered_after_a_turn_with_no_discard(rules):
    # joker-rich packs and random play reach a hand of only jokers (C2) within a few games
    seen = []
    for game in range(200):
        recs = ks.trace(seed=78, game=game, hand=4, policies="random", rules=rules).records
        seen = list(_after(recs, "no_discard"))
        if any(nxt[0] == "turn" for nxt in seen):
            break
    assert seen, "no turn without a discard in 200 games"
    for nxt in seen:
        if nxt[0] == "turn":  # the hand went on: the next player must draw from the stock
            assert nxt[1] == "draw", nxt


def test_R9_every_offer_is_logged_in_priority_order():
    recs = ks.trace(11, game=2, hand=7, policies="greedy").records
    declines = [r for r in recs if r["event"] == "decline"]
    assert {r["as"] for r in declines} == {"take", "call"}


@pytest.mark.parametrize("policy, limit, most", [
    ("greedy", 5, 5),          # no number in the name: the rules' limit (V8)
    ("random", 3, 3),          # random too: the rules' limit, not its own
    ("random", 5, 5),
    ("call-2", 5, 2),          # call-<k>: the smaller of k and the rules' limit
    ("call-4", 3, 3),
    (ks.Policy("mine", call_limit=1), 3, 1),  # a Policy's own limit, if smaller
])
def test_V8_call_limits_of_the_presets(policy, limit, most):
    df = ks.play_hands(400, hand=8, policies=policy, seed=6, rules=ks.Rules(call_limit=limit))
    assert df["calls"].max() == most


@pytest.mark.parametrize("players", [5, 6])
def test_R13_R14_games_at_five_and_six_players_score_all_nine_hands(players):
    df = ks.play_games(40, players=players, seed=3)
    scored = df.groupby("game")["hand"].nunique()
    assert (scored == 9).all() and df["complete"].all()
    assert df["penalty"].notna().all() and not df["void"].any()
    assert len(df) == 40 * 9 * players
    # the replays are counted, and at this size the late contracts need them (R13)
    per_hand = df[df["seat"] == 0].groupby("hand")["attempts"].mean()
    assert per_hand.loc[9] > 1.5 and (per_hand >= 1).all()


def test_R13_void_attempts_are_rows_only_when_asked_for():
    full = ks.play_hands(150, hand=9, players=5, seed=2, voids=True)
    default = ks.play_hands(150, hand=9, players=5, seed=2)
    assert full["void"].any() and not default["void"].any()
    assert default.reset_index(drop=True).equals(
        full[~full["void"]].reset_index(drop=True))
    # a void attempt's penalty is missing, so the plain mean is the mean over scored hands
    assert full.loc[full["void"], "penalty"].isna().all()
    assert full["penalty"].mean() == pytest.approx(default["penalty"].mean())
    per_game = full.groupby("game").size() // 5
    assert (per_game.values == default.groupby("game")["attempts"].first().values).all()


def test_R14_a_game_that_hits_max_replays_is_marked_and_warned_about():
    rules = ks.Rules(players=6, max_replays=0)
    with pytest.warns(RuntimeWarning, match="max_replays"):
        df = ks.play_games(20, rules=rules, seed=1)
    assert not df["complete"].all()
    bad = df.loc[df["void"], "game"].unique()
    assert set(df.loc[~df["complete"], "game"]) == set(bad)
    assert df.loc[df["void"], "penalty"].isna().all()
    # totals of incomplete games cover the hands that were scored; nothing is silently dropped
    assert (df.groupby(["game", "hand"]).size() == 6).all()


def test_stalling_policy_warns_once_with_the_share():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = ks.play_hands(60, hand=1, policies=ks.Policy(call_gain=0, take_gain=0), seed=1)
    msgs = [str(x.message) for x in w if "stalled" in str(x.message)]
    assert len(msgs) == 1
    share = df.groupby("game")["stalled"].first().mean()
    assert f"({share:.1%})" in msgs[0]


def test_rows_doubled_is_per_losing_seat():
    df = ks.play_hands(400, hand=1, policies="hold-for-double", seed=4)
    assert df["doubled"].any()
    assert not (df["doubled"] & df["went_out"]).any()
    won_on_opening = df.groupby("game")["out_on_opening"].transform("any")
    assert (df["doubled"] == (won_on_opening & ~df["went_out"])).all()


def test_rows_use_compact_dtypes_and_missing_open_turn():
    df = ks.play_games(30, seed=5)
    assert df["penalty"].dtype == "Int16" and df["open_turn"].dtype == "Int16"
    assert df.loc[~df["opened"], "open_turn"].isna().all()
    assert df.loc[df["opened"], "open_turn"].min() >= 1
    ints = df.select_dtypes("number").columns
    assert all(df[c].dtype.itemsize <= 4 for c in ints)
    assert df.memory_usage(deep=True).sum() / len(df) < 60  # bytes per row (was 180)


def test_V1_pack_by_table_plays_five_and_six_players_with_three_decks():
    rules = ks.Rules(players=6, pack="by-table")
    assert (rules.decks, rules.jokers, rules.pack_size) == (3, 6, 162)
    df = ks.play_games(20, rules=rules, seed=2)
    card = ks.play_games(20, players=6, seed=2)
    assert df["complete"].all()
    per = df[df["seat"] == 0].groupby("hand")["attempts"].mean()
    per_card = card[card["seat"] == 0].groupby("hand")["attempts"].mean()
    assert per.loc[9] < per_card.loc[9]


def test_seven_and_eight_players_with_more_decks():
    for players in (7, 8):
        df = ks.play_games(5, rules=ks.Rules(players=players, pack="by-table"), seed=1)
        assert df["complete"].all() and set(df["seat"]) == set(range(players))
        assert isinstance(df, pd.DataFrame) and np.isfinite(df["penalty"].mean())


def test_stalled_hand_is_logged_and_refereed():
    from kalooki_sim.game.referee import check

    pol = ks.Policy("stubborn", call_gain=0, take_gain=0)
    with pytest.warns(RuntimeWarning, match="stalled"):
        df = ks.play_hands(12, hand=1, policies=pol, seed=1, voids=True)
    game = int(df.loc[df["stalled"], "game"].iloc[0])
    t = ks.trace(1, game=game, hand=1, policies=pol)
    last = [r for r in t.records if r["event"] == "void"]
    assert last and last[-1]["stalled"] and "STALLED" in t.play_by_play()
    assert check(t.records, t.rules, df[df["game"] == game]) == 1
