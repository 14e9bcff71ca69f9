"""Game review (issue 19): a seat's take and call decisions judged from what it knew (R9)."""

from __future__ import annotations

import copy
import shutil
import subprocess
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim.studies._history import check_history
from kalooki_sim.studies.review import verdict, walk


@pytest.fixture(scope="module")
def hand6():
    return ks.trace(seed=4, game=0, hand=6, policies="expert")


# -- the verdict ---------------------------------------------------------------------------------


@pytest.mark.parametrize("acted, lo, hi, want", [
    (True, -9.0, -2.0, "good"),       # acting is better, the interval below zero, it acted
    (False, -9.0, -2.0, "mistake"),   # ... and it passed
    (False, 1.5, 7.0, "good"),        # passing is better and it passed
    (True, 1.5, 7.0, "mistake"),
    (True, -3.0, 4.0, "close"),       # the interval holds zero
    (False, -3.0, 4.0, "close"),
    (True, -3.0, 0.0, "close"),       # touching zero is not excluding it
    (False, 0.0, 2.0, "close"),
])
def test_verdict_reads_the_95_interval_of_act_minus_pass(acted, lo, hi, want):
    assert verdict(acted, lo, hi) == want


# -- what the seat knew: a naive twin of the table from every record ----------------------------


def _real_hands(records):
    """Every seat's true hand just before each record (the test sees every card; the review
    must not)."""
    hands = {}
    for r in records:
        e, s = r["event"], r["seat"]
        if e == "hand":
            hands = {p: Counter() for p in range(r["players"])}
        yield r, {p: +h for p, h in hands.items()}
        if e in ("deal", "take", "call", "penalty", "draw"):
            hands[s][r["card"]] += 1
        elif e == "meld":
            for c, _ in r["cards"]:
                hands[s][c] -= 1
        elif e in ("layoff", "discard"):
            hands[s][r["card"]] -= 1


@pytest.mark.parametrize("seed, hand, whole", [(4, 6, False), (1, 9, False), (2, 0, True)])
def test_R9_each_situation_is_the_seats_knowledge_and_agrees_with_the_table(seed, hand, whole):
    """At every decision the seat's hand is its real hand, every card known in an opponent's
    hand is really there, the hand sizes are the real ones, and the pile, table, stock and
    sizes leave no card unaccounted for (nothing buried unseen: the seat saw every discard)."""
    from kalooki_sim.studies.advisor import _situation

    t = ks.trace(seed=seed, game=0, hand=hand or 1, policies="expert", whole_game=whole)
    rules = t.rules
    for seat in range(rules.players):
        moments, _ = walk(t, seat)
        real = [h for r, h in _real_hands(t.records)
                if r["seat"] == seat and r["event"] in ("take", "call", "decline")
                and r.get("as", "x") in ("take", "call", "x") and not r.get("turned")]
        assert len(real) == len(moments) > 0
        for m, h in zip(moments, real, strict=True):
            sit = m.situation
            assert Counter(sit["hand"]) == h[seat]
            for k, cards in sit["known"].items():
                owner = (seat - k) % rules.players
                assert not Counter(cards) - h[owner], (m, cards, h[owner])
            for k, n in sit["hand_sizes"].items():
                assert n == sum(h[(seat - k) % rules.players].values())
            args = {k: v for k, v in sit.items()
                    if k not in ("known", "hand_sizes", "reshuffled", "history")}
            *_, info = _situation(**args, players=rules.players, rules=rules,
                                  known=sit["known"], hand_sizes=sit["hand_sizes"],
                                  reshuffled=sit["reshuffled"])
            assert info["buried_unknown"] == 0
            # the public history read from the records is a legal one (R6, R9) ending at
            # this offer, with no card of a draw but the seat's own
            ev = check_history(sit["history"], rules.players, ks.to_codes(m.card)[0],
                               sit["discarder"], rules)
            assert len(ev) == len(sit["history"])
            assert all(c is None for _, a, c in sit["history"] if a == "draw")


def test_R9_the_review_never_reads_hidden_cards(hand6):
    """The same move log with every card the seat could not see replaced (the others' deals,
    draws and penalty cards) gives the same situations at every decision."""
    seat = 1
    blind = copy.deepcopy(hand6)
    for r in blind.records:
        if r["event"] in ("deal", "draw", "penalty") and r["seat"] != seat:
            r["card"] = "??"
    a, _ = walk(hand6, seat)
    b, _ = walk(blind, seat)
    assert [m.situation for m in a] == [m.situation for m in b]


def test_R12_the_timeline_ends_with_the_seats_score(hand6):
    for seat in range(4):
        _, timeline = walk(hand6, seat)
        score = next(r for r in hand6.records if r["event"] == "score" and r["seat"] == seat)
        end = timeline[-1]["entries"][-1]
        assert end["kind"] == "end"
        assert ks.penalty(end["hand"]) * (2 if score["doubled"] else 1) == score["penalty"]


# -- the table ------------------------------------------------------------------------------------


def test_review_table_has_a_row_per_decision_and_its_verdict_follows_the_interval(hand6):
    r = ks.review(hand6, 2, rollouts=40, policies="greedy", seed=1)
    moments, _ = walk(hand6, 2)
    assert len(r) == len(moments) > 0
    for col in ("turn", "decision", "card", "action", "value_act", "value_pass", "d_value",
                "d_value_lo", "d_value_hi", "needed_before", "outs_after", "verdict",
                "advice", "confidence", "objective", "cards_held"):
        assert col in r.columns
    assert (r["objective"] == "relative").all() and (r["rollouts"] == 40).all()
    acted = r["action"].isin(["take", "call"])
    assert set(r.loc[r["decision"] == "take", "action"]) <= {"take", "draw"}
    assert set(r.loc[r["decision"] == "call", "action"]) <= {"call", "pass"}
    assert acted.tolist() == [m.acted for m in moments]
    assert np.allclose(r["d_value"], r["value_act"] - r["value_pass"])
    assert (r["d_value_lo"] <= r["d_value"]).all() and (r["d_value"] <= r["d_value_hi"]).all()
    want = [verdict(a, lo, hi) for a, lo, hi in zip(acted, r["d_value_lo"], r["d_value_hi"],
                                                    strict=True)]
    assert r["verdict_95"].tolist() == want
    # the verdict is read over the hand's decisions: Holm's step-down, a naive twin
    p = r["p_value"].to_numpy(float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    adj = np.empty(m)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        adj[j] = running
    assert np.allclose(r["p_holm"], adj)
    for a, dv, ph, v in zip(acted, r["d_value"], adj, r["verdict"], strict=True):
        assert v == ("close" if ph >= 0.05 else "good" if (dv < 0) == a else "mistake")
    # an adjusted verdict is never bolder than the decision's own 95% reading
    assert not ((r["verdict"] != "close") & (r["verdict_95"] == "close")).any()
    # the p-value is the test the interval inverts: below 5% exactly when it excludes zero
    assert ((r["p_value"] < 0.05) == ((r["d_value_hi"] < 0) | (r["d_value_lo"] > 0))).all()


def test_each_decision_has_its_reason_in_words(hand6):
    r = ks.review(hand6, 2, rollouts=20, policies="greedy", seed=2)
    for row in r.itertuples(index=False):
        nb = "-" if pd.isna(row.needed_before) else str(row.needed_before)
        assert row.reason.startswith(f"cards needed {nb} -> ")
        assert "caught by an opening double" in row.reason
        assert 0 <= row.doubled_act <= 1 and 0 <= row.doubled_pass <= 1


def test_V1_R3_a_seven_player_trace_with_a_three_copy_group_is_reviewed():
    # V1: pack="by-table" gives seven players more decks; a group of three copies (R3) was
    # read with the default pack and raised
    rules = ks.Rules(players=7, pack="by-table")
    t = ks.trace(seed=9036, game=0, hand=2, policies="expert", rules=rules)
    groups = [r["cards"] for r in t.records if r["event"] == "meld"]
    assert any(Counter(c for c, _ in g).most_common(1)[0][1] > 2 for g in groups)
    r = ks.review(t, 0, rollouts=4, policies="greedy")
    assert len(r) > 0 and set(r["verdict"]) <= {"good", "mistake", "close"}


def test_R9_the_review_reads_the_hands_history_into_the_samples(hand6):
    with_h = ks.review(hand6, 2, rollouts=60, policies="greedy", seed=1)
    without = ks.review(hand6, 2, rollouts=60, policies="greedy", seed=1, history=False)
    assert (without["ess"] == 60).all() or (without["history_strength"] == 1).all()
    assert (with_h["ess"] <= 60 + 1e-9).all() and (with_h["history_strength"] <= 1).all()
    assert (with_h["ess"] < without["ess"]).any()
    assert not with_h["d_value"].equals(without["d_value"])


def test_the_page_numbers_attempts_as_the_table_does(hand6):
    from kalooki_sim.report.review_page import review_html

    table = ks.review(hand6, 0, rollouts=10, policies="greedy")
    page = review_html(hand6, 0, table, title="Review")
    assert set(table["attempt"]) == {0}
    assert ", attempt 0" in page and ", attempt 1" not in page


def test_C3_the_review_is_the_same_on_one_or_two_threads():
    t = ks.trace(seed=3, game=0, hand=1, policies="expert")
    one = ks.review(t, 0, rollouts=30, policies="greedy", threads=1, seed=5)
    two = ks.review(t, 0, rollouts=30, policies="greedy", threads=2, seed=5)
    pd.testing.assert_frame_equal(one, two)
    other = ks.review(t, 0, rollouts=30, policies="greedy", threads=2, seed=6)
    assert not one["d_value"].equals(other["d_value"])  # the seed matters


@pytest.mark.parametrize("kw, err, msg", [
    (dict(seat=4), ValueError, "seat=4 is not allowed; give an integer 0-3"),
    (dict(rollouts=1), ValueError, "rollouts=1"),
    (dict(objective="win"), ValueError, "objective='win'"),
])
def test_bad_review_arguments_are_clear_errors(hand6, kw, err, msg):
    args = {"seat": 0, **kw}
    with pytest.raises(err, match=msg):
        ks.review(hand6, **args)


def test_review_wants_a_kalooki_trace():
    with pytest.raises(TypeError, match="give a Trace"):
        ks.review([], 0)
    t = ks.trace(seed=1, hand=1, rules=ks.Rules(players=2, tuluki=True))
    with pytest.raises(ValueError, match="tuluki=True"):
        ks.review(t, 0)


# -- the page -------------------------------------------------------------------------------------


def test_review_page_is_a_self_contained_timeline(hand6):
    from kalooki_sim.report.review_page import review_html

    table = ks.review(hand6, 0, rollouts=20, policies="greedy")
    page = review_html(hand6, 0, table, title="Review")
    assert page.startswith("<!doctype html>") and "<script" not in page
    assert "http://" not in page and "https://" not in page
    assert page.count("<caption>Timeline of seat 0") == 1
    assert "<caption>Every decision" in page
    # every decision annotated twice: in the timeline and in the decisions table
    for v in ("good", "mistake", "close"):
        n = int((table["verdict"] == v).sum())
        assert page.count(f"<span class='v {v}'>{v}</span></td>") == n
        assert page.count(f'<span class="v {v}">{v}</span>') == n
    assert "your cards after" in page and "discarded" in page


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium on this machine")
def test_review_page_renders_in_a_real_browser(hand6, tmp_path):
    from kalooki_sim.report.review_page import review_html

    page = tmp_path / "review.html"
    page.write_text(review_html(hand6, 0, ks.review(hand6, 0, rollouts=10, policies="greedy")),
                    encoding="utf-8")
    shot = tmp_path / "review.png"
    r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--window-size=1280,1600",
                        f"--screenshot={shot}", page.as_uri()], capture_output=True,
                       timeout=120, check=False)
    assert r.returncode == 0 and shot.stat().st_size > 20_000
