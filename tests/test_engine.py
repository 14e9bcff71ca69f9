"""The compiled engine against the plain-Python referee, determinism, and the API's errors."""

import copy
import dataclasses

import numpy as np
import pytest
import reference

import kalooki_sim as ks
from kalooki_sim.game.referee import RefereeError, check

#: every per-seat result column the referee re-derives from the log
COLS = ["seat", "dealer", "attempt", "penalty", "went_out", "calls", "opened", "cards_left",
        "void", "doubled", "out_on_opening", "open_turn", "turns", "reshuffled", "stalled"]


def twin_can_lay(rules):
    """``can_lay`` for the referee from the exhaustive twin (hands of up to 13 cards: beyond
    that the twin is too slow for a sweep, and ``None`` skips the seat)."""

    def can_lay(cards, groups, runs):
        if len(cards) > 13:
            return None
        ref = [c if c == "JK" else (ks.to_codes([c])[0] // 13, ks.to_codes([c])[0] % 13 + 1)
               for c in cards]
        return reference.best_opening_value(ref, groups, runs,
                                            rules.complete_suit_for_three_runs) is not None

    return can_lay


def referee_hands(n, hand, players, policies, seed, rules=None, dealt=False):
    """Play n hands (void attempts kept), trace each, referee it against the engine's rows;
    with ``dealt``, also each seat's ``dealt_meets_contract`` against the exhaustive twin."""
    kw = {"rules": rules} if rules is not None else {"players": players}
    df = ks.play_hands(n, hand=hand, policies=policies, seed=seed, voids=True, **kw)
    logs = []
    for game in range(n):
        t = ks.trace(seed, game=game, hand=hand, policies=policies, **kw)
        cols = COLS + (["dealt_meets_contract"] if dealt else [])
        rows = df.loc[df["game"] == game, cols]
        can_lay = twin_can_lay(t.rules) if dealt else None
        assert check(t.records, t.rules, rows, can_lay=can_lay) >= 1
        logs.append(t)
    return df, logs


def events(logs, name):
    return [r for t in logs for r in t.records if r["event"] == name]


@pytest.mark.parametrize("hand", range(1, 10))
def test_referee_passes_every_contract_with_mixed_policies(hand):
    players = 3 + hand % 4  # 3-6 players across the contracts
    pols = (["greedy", "random", "call-1", "hold-for-double", "never-call", "call-2"])[:players]
    df, logs = referee_hands(40, hand, players, pols, seed=hand)
    assert len(df) >= 40 * players


def test_referee_passes_a_search_seat_every_contract():
    """R1-R14 re-checked on hands where seat 0 decides its takes and calls (R9) by rollouts
    (the search preset, issue 19), beside expert, greedy and random seats."""
    fast = dataclasses.replace(ks.preset("search"), name="search-8", rollouts=8)
    for hand in range(1, 10):
        referee_hands(2, hand, 4, [fast, "expert", "greedy", "random"], seed=900 + hand)


def test_referee_on_random_play_everywhere():
    for players in (3, 4, 5, 6):
        referee_hands(25, 1 + players, players, "random", seed=100 + players)


def test_R13_reshuffle_and_void_paths_are_played_and_refereed():
    # five players in hand 9 leave a 27-card stock: reshuffles and voids are common
    df, logs = referee_hands(40, 9, 5, "greedy", seed=5)
    assert events(logs, "reshuffle"), "no reshuffle happened"
    assert events(logs, "void"), "no void hand happened"
    void_games = df.loc[df["void"], "game"].unique()
    # a void hand is replayed by the same dealer (R13)
    for g in void_games:
        rows = df[df["game"] == g]
        assert rows["dealer"].nunique() == 1 and rows["attempt"].max() >= 1


def test_R11_joker_moves_and_R9_calls_from_every_seat_are_refereed():
    df, logs = referee_hands(150, 7, 4, "greedy", seed=11)
    assert events(logs, "joker_move"), "no joker replacement happened"
    callers = {r["seat"] for r in events(logs, "call")}
    assert callers == {0, 1, 2, 3}
    assert (df["calls"] <= 3).all() and (df["calls"] == 3).any()


def test_R2_check_figure_four_players_hand_one():
    t = ks.trace(0, hand=1)
    recs = t.records
    assert sum(r["event"] == "deal" for r in recs) == 36
    assert sum(r["event"] == "upcard" for r in recs) == 1
    first = next(i for i, r in enumerate(recs) if r["event"] == "upcard")
    # everything after the deal: 108 - 36 - 1 = 71 in the stock, checked by the referee's count
    assert 108 - 36 - 1 == 71 and first == 37
    dealer = recs[0]["dealer"]
    assert [r["seat"] for r in recs[1:5]] == [(dealer + 1 + i) % 4 for i in range(4)]


def _valid_trace():
    return ks.trace(7, game=3, hand=6, policies=["greedy", "random", "greedy", "call-3"])


@pytest.mark.parametrize(
    "corrupt",
    ["draw_card", "drop_discard", "joker_discard", "score", "extra_call", "deal_order",
     "layoff_position", "duplicate_draw", "open_short", "bad_run", "call_by_opened",
     "score_missing", "void_early"],
)
def test_referee_catches_corrupted_logs(corrupt):
    t = _valid_trace()
    check(t.records, t.rules)
    recs = copy.deepcopy(t.records)
    idx = {e: [i for i, r in enumerate(recs) if r["event"] == e] for e in
           ("draw", "discard", "score", "call", "deal", "layoff", "turn")}
    if corrupt == "draw_card":
        r = recs[idx["draw"][3]]
        r["card"] = "A♠" if r["card"] != "A♠" else "2♠"
        # make it certainly wrong: draw a card the dealer can no longer hold three of
        r["card"] = "JK" if recs[idx["draw"][3]]["card"] != "JK" else "K♠"
        recs.insert(idx["draw"][3], dict(recs[idx["draw"][3]]))
    elif corrupt == "drop_discard":
        del recs[idx["discard"][2]]
    elif corrupt == "joker_discard":
        recs[idx["discard"][1]]["card"] = "JK"
    elif corrupt == "score":
        recs[idx["score"][0]]["penalty"] += 1
    elif corrupt == "extra_call":
        t0 = idx["turn"][5]
        recs.insert(t0 + 1, {"event": "call", "seat": (recs[t0]["seat"] + 1) % 4,
                             "card": "Q♦", "discarder": 0})
    elif corrupt == "deal_order":
        recs[1], recs[2] = recs[2], recs[1]
        recs[1]["seat"], recs[2]["seat"] = recs[2]["seat"], recs[1]["seat"]
        recs[1]["seat"] = (recs[1]["seat"] + 2) % 4
    elif corrupt == "layoff_position":
        if not idx["layoff"]:
            pytest.skip("no lay-off in this hand")
        recs[idx["layoff"][0]]["position"] = 99
        recs[idx["layoff"][0]]["meld"] = max(r.get("meld", 0) for r in recs) + 5
    elif corrupt == "duplicate_draw":
        i = idx["draw"][0]
        recs.insert(i + 1, dict(recs[i]))
    elif corrupt == "open_short":
        # R7: drop the last meld of the first opening; its cards stay in hand
        o = next(i for i, r in enumerate(recs) if r["event"] == "open")
        last = o
        while recs[last + 1]["event"] == "meld":
            last += 1
        del recs[last]
    elif corrupt == "bad_run":
        # R4: a run whose cards are out of order
        i = next(i for i, r in enumerate(recs) if r["event"] == "meld" and r["kind"] == "run")
        cards = recs[i]["cards"]
        cards[0], cards[1] = (cards[1][0], cards[0][1]), (cards[0][0], cards[1][1])
    elif corrupt == "call_by_opened":
        # R8: a seat that has opened calls the next discard
        o = next(i for i, r in enumerate(recs) if r["event"] == "open")
        s_open = recs[o]["seat"]
        ti = next(i for i, r in enumerate(recs) if i > o and r["event"] == "turn"
                  and r["seat"] not in (s_open, (s_open + 1) % 4))
        top = next(r["card"] for r in reversed(recs[:ti]) if r["event"] == "discard")
        disc = next(r["seat"] for r in reversed(recs[:ti]) if r["event"] == "discard")
        recs.insert(ti + 1, {"event": "call", "seat": s_open, "card": top, "discarder": disc})
    elif corrupt == "score_missing":
        del recs[idx["score"][-1]]
    elif corrupt == "void_early":
        recs.insert(idx["draw"][0] + 1, {"event": "void", "seat": -1})
    expected = {"open_short": "R7", "bad_run": "R4", "call_by_opened": "R8",
                "score_missing": "scores missing", "void_early": "R13",
                "joker_discard": "joker was discarded", "score": "R12",
                "deal_order": "R2", "drop_discard": "R6"}
    with pytest.raises(RefereeError, match=expected.get(corrupt)):
        check(recs, t.rules)


def test_determinism_threads_and_batch_size():
    a = ks.play_hands(300, hand=4, seed=9, threads=1)
    b = ks.play_hands(300, hand=4, seed=9, threads=2)
    pd_equal = a.equals(b)
    assert pd_equal
    c = ks.play_hands(40, hand=4, seed=9)
    assert c.reset_index(drop=True).equals(a[a["game"] < 40].reset_index(drop=True))
    assert not a.equals(ks.play_hands(300, hand=4, seed=10))


def test_trace_matches_play_hands_and_play_games_row():
    df = ks.play_games(5, seed=2, threads=1, voids=True)
    t = ks.trace(2, game=3, whole_game=True)
    rows = df.loc[df["game"] == 3, COLS + ["total", "winner", "complete"]]
    assert check(t.records, t.rules, rows) >= 9
    text = t.play_by_play()
    assert "== hand 9" in text and "scores" in text


def test_play_games_totals_and_shared_wins():
    df = ks.play_games(30, players=3, seed=4)
    assert set(df["hand"]) == set(range(1, 10))
    per = df.groupby(["game", "seat"])["penalty"].sum()
    tot = df.groupby(["game", "seat"])["total"].first()
    assert (per == tot).all()
    for _, g in df.groupby("game"):
        s = g.groupby("seat")["total"].first()
        w = g.groupby("seat")["winner"].first()
        assert (w == (s == s.min())).all() and w.any()


def test_dealt_meets_contract_agrees_with_solver():
    t = ks.trace(1, game=0, hand=5)
    dealt = {}
    for r in t.records:
        if r["event"] == "deal":
            dealt.setdefault(r["seat"], []).append(r["card"])
    df = ks.play_hands(1, hand=5, seed=1)
    for seat, cards in dealt.items():
        meets = ks.solve_opening(cards, 5) is not None
        assert df.loc[df["seat"] == seat, "dealt_meets_contract"].item() == meets


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"policies": "bogus"}, "unknown policy 'bogus'"),
        ({"policies": ["greedy"] * 3}, "one per seat"),
        ({"hand": 10}, "hand=10"),
        ({"players": 9}, "players=9"),
        ({"seed": -1}, "seed=-1"),
        ({"threads": 0}, "threads=0"),
        ({"threads": 10_000}, "threads=10000"),
        ({"rules": ks.Rules(players=5), "players": 4}, "disagrees"),
    ],
)
def test_play_hands_bad_input_is_a_clear_error(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        ks.play_hands(2, **kwargs)


def test_policies_change_behaviour():
    never = ks.play_hands(300, hand=3, policies="never-call", seed=3)
    always = ks.play_hands(300, hand=3, policies="call-3", seed=3)
    one = ks.play_hands(300, hand=3, policies="call-1", seed=3)
    assert never["calls"].max() == 0
    assert one["calls"].max() == 1 and always["calls"].max() > 1
    hold = ks.play_hands(300, hand=6, policies="hold-for-double", seed=3)
    base = ks.play_hands(300, hand=6, policies="greedy", seed=3)

    def doubled_share(d):
        won = d[d["went_out"]]
        return won["out_on_opening"].mean()

    # holding the opening to go out on it doubles more often among the hands it wins (R12)
    assert doubled_share(hold) > doubled_share(base)
    greedy = ks.play_hands(300, hand=1, seed=3)
    # the greedy baseline usually ends hands by someone going out (not by void)
    assert greedy.groupby("game")["went_out"].any().mean() > 0.9
    assert np.isfinite(greedy["penalty"].mean())


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*void in every one of their attempts:RuntimeWarning")
def test_referee_over_thousands_of_hands():
    """3,240 logged hands: every contract, 3-6 players, greedy/random/call/hold mixes.

    R13's replays are bounded at 300 void deals a hand: random players at 6 players rarely
    lay hand 9 from the card's pack (a run of this test once traced 11.9 million rows of
    100,000 void deals per hand); a hand given up is refereed like any other."""
    mixes = ["greedy", "random", ["random", "greedy", "call-1", "hold-for-double", "never-call",
                                  "call-2"]]
    total = 0
    for hand in range(1, 10):
        for players in (3, 4, 5, 6):
            rules = ks.Rules(players=players).with_(max_replays=300)
            for i, mix in enumerate(mixes):
                pols = mix[:players] if isinstance(mix, list) else mix
                df, logs = referee_hands(30, hand, players, pols, seed=1000 * hand + 10 * i,
                                         rules=rules)
                total += 30
    assert total == 3240


def test_C3_pure_python_kernels_play_the_same_games_as_compiled():
    """NUMBA_DISABLE_JIT=1 runs the kernels as plain Python: same seeds, same games, move by move.

    This is C3's "any machine" in miniature, and it catches numpy-vs-Numba typing differences
    (e.g. bool + bool) that would make the pure-Python twin of a kernel disagree.
    """
    import os
    import subprocess
    import sys

    code = (
        "import kalooki_sim as k, sys;"
        "df = k.play_games(2, seed=4, threads=1, "
        "policies=['greedy', 'random', 'call-1', 'hold-for-double']);"
        "sys.stdout.write(df.drop(columns=['policy']).to_csv(index=False))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    df = ks.play_games(2, seed=4, threads=1,
                       policies=["greedy", "random", "call-1", "hold-for-double"])
    assert out == df.drop(columns=["policy"]).to_csv(index=False)


def test_play_by_play_has_a_line_for_every_move():
    t = ks.trace(5, game=1, hand=9, players=5)
    text = t.play_by_play()
    counts = {e: sum(r["event"] == e for r in t.records) for e in
              ("turn", "draw", "discard", "call", "reshuffle", "void")}
    assert counts["void"] and counts["reshuffle"]  # this hand exercises R13
    assert text.count("-- seat") == counts["turn"]
    assert text.count("   draws ") == counts["draw"]
    assert text.count("   discards ") == counts["discard"]
    assert text.count(" calls ") == counts["call"]
    assert text.count("reshuffled into a new stock") == counts["reshuffle"]
    assert text.count("VOID (R13)") == counts["void"]


#: every preset, and a mix of them, for the referee sweeps
MIXES = ["greedy", "random", "never-call", "call-1", "hold-for-double", "expert",
         ["random", "expert", "call-1", "hold-for-double", "never-call", "call-2", "greedy",
          "random"]]
#: the variants V1-V8 and joker-rich packs, each as Rules changes
VARIANTS = {
    "V1 three decks": dict(decks=3, jokers=6),
    "V2 early big deal": dict(early_big_deal=True),
    "V3 free extension": dict(free_extension=True),
    "V4 double first down": dict(double_only_first_down=True),
    "V5 jokers on others": dict(jokers_on_others=True),
    "V6 complete suit": dict(complete_suit_for_three_runs=True, jokers=16),
    "V7 custom schedule": dict(schedule=((8, 2, 0), (10, 1, 1), (13, 0, 3))),
    "V8 call limit 2": dict(call_limit=2),
    "V8 call limit 5": dict(call_limit=5),
    "16 jokers": dict(jokers=16),
    "30 jokers": dict(jokers=30),
}


def _pols(mix, players):
    return mix[:players] if isinstance(mix, list) else mix


@pytest.mark.parametrize("players", range(3, 9))
def test_referee_sweep_every_contract_and_preset_at_every_table_size(players):
    """R1-R14 over every contract x every preset at 3-8 players (7-8 with V1's by-table pack;
    5-6 with both packs), dealt_meets_contract against the exhaustive twin where affordable."""
    packs = ["card", "by-table"] if players in (5, 6) else (
        ["card"] if players <= 4 else ["by-table"])
    for pack in packs:
        rules = ks.Rules(players=players, pack=pack)
        for hand in range(1, 10):
            if pack == "card" and players == 6 and hand >= 8:
                continue  # thousands of void attempts per hand: in the slow sweep
            mix = MIXES[(hand + players) % len(MIXES)]
            referee_hands(4, hand, players, _pols(mix, players), seed=100 * players + hand,
                          rules=rules, dealt=hand <= 3)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_referee_sweep_variants_and_joker_rich_packs(variant):
    rules = ks.Rules(players=4, **VARIANTS[variant])
    for hand in range(1, rules.hands + 1):
        mix = MIXES[hand % len(MIXES)]
        referee_hands(4, hand, 4, _pols(mix, 4), seed=hand, rules=rules, dealt=hand <= 2)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*void in every one of their attempts:RuntimeWarning")
@pytest.mark.parametrize("players", range(3, 9))
def test_referee_sweep_slow(players):
    """The sweep again with many more hands, every variant at this table size, and the card's
    pack at six players in hand 8 (about 180 void deals per scored hand)."""
    packs = ["card", "by-table"] if players <= 6 else ["by-table"]
    for pack in packs:
        for change in VARIANTS.values():
            if "decks" in change and pack == "by-table":
                continue
            rules = ks.Rules(players=players, pack=pack, **change) if pack == "card" else \
                ks.Rules(players=players, pack=pack,
                         **{k: v for k, v in change.items() if k != "jokers"})
            # R13's replays bounded: a tight pack can take thousands of void deals to score a
            # hand with callers (the expert calls more since issue 17), and each is traced in
            # memory; a hand given up after 300 void deals is refereed like any other
            rules = rules.with_(max_replays=300)
            for hand in range(1, rules.hands + 1):
                if players == 6 and pack == "card" and hand == 9:
                    continue  # ~5,600 void deals per scored hand: their traces outgrow memory
                n = 1 if (players == 6 and pack == "card" and hand == 8) else 4
                for i, mix in enumerate(MIXES):
                    referee_hands(n, hand, players, _pols(mix, players),
                                  seed=1000 * players + 10 * hand + i, rules=rules)


#: V9 Tuluki, the two-player game
TULUKI = ks.Rules(players=2, tuluki=True)


@pytest.mark.parametrize("hand", range(1, 10))
def test_referee_sweep_tuluki_every_contract(hand):
    """V9 (and R1-R14 under it) over every contract, a preset or mix per contract."""
    mix = MIXES[hand % len(MIXES)]
    referee_hands(3, hand, 2, _pols(mix, 2), seed=200 + hand, rules=TULUKI, dealt=hand <= 2)


@pytest.mark.slow
@pytest.mark.parametrize("change", [{}, dict(call_limit=2), dict(free_extension=True),
                                    dict(jokers=16), dict(early_big_deal=True)])
def test_referee_sweep_tuluki_slow(change):
    rules = TULUKI.with_(**change)
    for hand in range(1, 10):
        for i, mix in enumerate(MIXES):
            referee_hands(4, hand, 2, _pols(mix, 2), seed=3000 + 10 * hand + i, rules=rules)


def test_C3_pure_python_kernels_play_the_same_tuluki_hands_as_compiled():
    """V9's draw phase typed alike compiled and as plain Python (see the C3 test above)."""
    import os
    import subprocess
    import sys

    code = (
        "import kalooki_sim as k, sys;"
        "df = k.play_hands(3, hand=2, seed=4, threads=1, policies=['greedy', 'random'], "
        "rules=k.Rules(players=2, tuluki=True));"
        "sys.stdout.write(df.drop(columns=['policy']).to_csv(index=False))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    df = ks.play_hands(3, hand=2, seed=4, threads=1, policies=["greedy", "random"],
                       rules=TULUKI)
    assert out == df.drop(columns=["policy"]).to_csv(index=False)
