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
    r = ks.review(hand6, 2, rollouts=40, policies="greedy", seed=1, discards=False)
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
    r = ks.review(hand6, 2, rollouts=20, policies="greedy", seed=2, discards=False)
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
    kw = dict(rollouts=60, policies="greedy", seed=1, discards=False)  # the takes and calls
    with_h = ks.review(hand6, 2, **kw)
    without = ks.review(hand6, 2, **kw, history=False)
    assert (without["ess"] == 60).all() or (without["history_strength"] == 1).all()
    # the review draws the samples by chains (review_discard.HISTORY_SWAPS), each played on
    # HISTORY_REUSE rollouts: the samples are the intervals' unit
    from kalooki_sim.studies.review_discard import HISTORY_REUSE

    assert (with_h["ess"] <= with_h["rollouts"] + 1e-9).all()
    assert (with_h["ess"] <= with_h["rollouts"] / HISTORY_REUSE + 1e-9).any()
    assert (with_h["history_strength"] <= 1).all() and (with_h["ess"] < without["ess"]).any()
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
    # the lead says how often each decision was replayed: the table's least and most
    lo, hi = int(table["rollouts"].min()), int(table["rollouts"].max())
    said = f"replayed {lo:,} to {hi:,} times" if lo < hi else f"replayed {lo:,} times"
    assert said in page and "their verdicts after Holm" in page


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


# -- the sequential budget (issue 51): looks until decided, equal or spent ----------------------


def _normal_source(mu, sd, seed):
    """A synthetic decision: each block's paired differences from its own stream
    ``(seed, first)`` (the engine's streams are per rollout, C3); equal weights."""
    def play(first, count):
        return np.random.default_rng((seed, first)).normal(mu, sd, count), np.zeros(count)
    return play


def test_the_looks_double_from_the_block_to_the_cap():
    from kalooki_sim.studies._sequential import schedule

    for block, cap in [(500, 16_000), (20, 45), (7, 7), (100, 50), (3, 1000)]:
        s = schedule(block, cap)
        assert s[-1] == cap and s[0] == min(block, cap)
        assert all(b == 2 * a for a, b in zip(s[:-2], s[1:-1], strict=True))
        assert all(a < b <= 2 * a for a, b in zip(s, s[1:], strict=False))


def test_the_sequential_rule_stops_a_clear_difference_early_and_spends_no_more_than_the_budget():
    from kalooki_sim.studies._sequential import run_hand

    sources = [_normal_source(-20, 10, 1),    # clear: decided at the first look
               _normal_source(0, 1, 2),       # equal: inside +-2 at the first look
               _normal_source(0.5, 60, 3),    # hard: runs to the cap or the budget
               _normal_source(0.5, 60, 4)]
    out, K = run_hand(sources, block=40, cap=640, budget=None)
    assert K == 5
    assert [o.stopped_by for o in out[:2]] == ["decided", "equal"]
    assert [o.n for o in out[:2]] == [40, 40] and out[0].hi < 0
    assert -2 <= out[1].lo and out[1].hi <= 2
    assert all(o.stopped_by in ("rollouts", "decided", "futile") for o in out[2:])
    assert all(o.n == 640 for o in out[2:] if o.stopped_by == "rollouts")
    # a budget: what a round cannot pay is shared by the decisions still open, then stop
    out, _ = run_hand(sources, block=40, cap=2560, budget=1000)
    assert sum(o.n for o in out) <= 1000
    assert [o.stopped_by for o in out[2:]] == ["budget", "budget"]
    assert out[2].n == out[3].n > 320                # the last round shared equally
    # a fixed-size review: one look of the cap, whatever it shows
    out, K = run_hand(sources, block=40, cap=640, budget=None, sequential=False)
    assert K == 1 and all(o.n == 640 and o.looks == 1 for o in out)


def test_the_stopping_interval_keeps_its_95_coverage_and_the_naive_one_does_not():
    """Optional stopping: reading every look at 95% and stopping when zero is excluded covers
    the true difference less often than 95%; the rule's level 0.05 / K keeps it (Bonferroni
    over the looks). 1,500 synthetic decisions whose two actions are worth the same."""
    from kalooki_sim.studies._sequential import run_hand

    mu, reps = 0.0, 1500
    src = [_normal_source(mu, 30, 100 + k) for k in range(reps)]
    out, K = run_hand(src, block=8, cap=512, budget=None)
    cover = np.mean([o.lo <= mu <= o.hi for o in out])
    naive, _ = run_hand(src, block=8, cap=512, budget=None, alpha=0.05 * K)  # 95% each look
    cover_naive = np.mean([o.lo <= mu <= o.hi for o in naive])
    assert cover >= 0.94, cover
    assert cover_naive < 0.93, cover_naive


def test_a_decided_decision_plays_one_more_look_when_it_would_tell_its_size():
    """``width``: a decided decision wider than it plays the next look when that look would
    bring it within (its size told to ±width/2), and stops ``decided`` there; one the next
    look could not narrow enough, or any decided one without ``width``, stops at once."""
    from kalooki_sim.studies._sequential import run_hand

    near = _normal_source(-12, 45, 5)   # at 400: about 11 wide, decided; at 800: about 8
    far = _normal_source(-40, 200, 6)   # at 400: about 49 wide, decided; 800 cannot narrow it
    plain, _ = run_hand([near, far], block=400, cap=1600, budget=None)
    sized, _ = run_hand([near, far], block=400, cap=1600, budget=None, width=9.0)
    assert [o.stopped_by for o in plain] == ["decided", "decided"]
    assert [o.n for o in plain] == [400, 400] and plain[0].hi - plain[0].lo > 9
    assert plain[0].hi - plain[0].lo < 9 * np.sqrt(2)     # so the next look reaches 9
    assert sized[0].n == 800 and sized[0].stopped_by == "decided"
    assert sized[0].hi - sized[0].lo <= 9
    assert sized[1].n == 400 and sized[1].stopped_by == "decided"


class _SampleSource:
    """A synthetic decision whose rollouts come in samples of ``reuse``: the rollouts of one
    sample share its draw (the hidden hands), so the rollout is not the unit."""

    def __init__(self, mu, reuse, seed):
        self.mu, self.reuse, self.seed = mu, reuse, seed

    def __call__(self, first, count):
        i = np.arange(first, first + count)
        shared = np.array([np.random.default_rng((self.seed, k)).normal(0, 20)
                           for k in i // self.reuse])
        own = np.array([np.random.default_rng((self.seed, 10**6 + k)).normal(0, 5) for k in i])
        return self.mu + shared + own, np.zeros(count)


def test_the_looks_read_samples_not_rollouts_when_a_sample_is_reused():
    """A source that plays each sample on ``reuse`` rollouts is read per sample (its
    interval is the t interval of the samples' means, not the narrower one of the rollouts),
    and a round the budget shortens still ends on a whole sample."""
    from kalooki_sim.studies._sequential import look, run_hand
    from kalooki_sim.studies._weighted import per_sample

    src = [_SampleSource(1.0, 10, k) for k in range(3)]
    out, K = run_hand(src, block=100, cap=400, budget=None, sequential=False)
    for s, o in zip(src, out, strict=True):
        d, lw = s(0, 400)
        by_sample = look(*per_sample(d, lw, 10), 0.05)
        by_rollout = look(d, lw, 0.05)
        assert np.isclose(o.lo, by_sample[1]) and np.isclose(o.hi, by_sample[2])
        assert by_rollout[2] - by_rollout[1] < 0.6 * (o.hi - o.lo)  # the rollouts would lie
    out, _ = run_hand(src, block=100, cap=1600, budget=700)
    assert all(o.n % 10 == 0 for o in out) and sum(o.n for o in out) <= 700
    assert any(o.stopped_by == "budget" for o in out)


def _synthetic_review(mus, sd, seed):
    """A review's table of synthetic decisions with true differences ``mus`` (the seat acted
    every time): the sequential rule, the ratings, and the errors' fresh re-measure, as
    :func:`kalooki_sim.review` does them."""
    from kalooki_sim.studies._sequential import fresh, run_hand
    from kalooki_sim.studies.review import ERRORS, rating

    src = [_normal_source(m, sd, seed + k) for k, m in enumerate(mus)]
    out, _ = run_hand(src, block=16, cap=256, budget=None)
    rows = []
    for s, o in zip(src, out, strict=True):
        rate = rating(True, o.lo, o.hi)
        f = fresh(s, o.n, o.n) if rate in ERRORS else (np.nan,) * 3
        rows.append(dict(game=0, hand=1, rating=rate, lost_fresh=f[0], lost_fresh_lo=f[1],
                         lost_fresh_hi=f[2], rollouts=o.n, fresh_rollouts=0, mean=o.mean))
    return pd.DataFrame(rows)


@pytest.mark.parametrize("mus", [
    [-8.0, -3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 4.0, 6.0, 15.0],
    [0.0] * 10,
    [4.0] * 10,
])
def test_the_hands_total_covers_the_points_lost_at_its_errors(mus):
    """The total of the decisions rated an error covers their true total at least 95% of the
    time (300 synthetic hands of 10 decisions, within two binomial standard errors); summing
    the stopped means instead, as a naive review would, does not: a mean stopped as soon as
    its interval leaves zero overshoots."""
    from kalooki_sim.studies.review import ERRORS

    mus = np.array(mus)
    hits, naive = [], []
    for rep in range(300):
        t = _synthetic_review(mus, 25, 10_000 * rep)
        tot = ks.review_total(t).iloc[0]
        err = t["rating"].isin(ERRORS).to_numpy()
        truth = float(mus[err].sum())
        hits.append(tot["lost_lo"] <= max(0.0, truth) <= tot["lost_hi"])
        m = float(t.loc[err, "mean"].sum())
        h = float(np.sqrt((((t.loc[err, "lost_fresh_hi"] - t.loc[err, "lost_fresh_lo"]) / 2)
                           ** 2).sum()))
        naive.append(max(0.0, m - h) <= max(0.0, truth) <= m + h)
    assert np.mean(hits) >= 0.95 - 2 * np.sqrt(0.95 * 0.05 / 300), np.mean(hits)
    if mus[0] == 4.0:
        assert np.mean(naive) < 0.8, np.mean(naive)


@pytest.mark.parametrize("acted, lo, hi, want", [
    (True, -1.9, 2.0, "equal"),       # R12 points: inside +-2, whatever the sign
    (True, 0.3, 1.5, "equal"),        # decided, but too small to matter
    (True, -9.0, -0.1, "best"),
    (False, 0.1, 9.0, "best"),
    (True, 0.1, 9.0, "inaccuracy"),   # worse, by at least 0.1 as far as the interval tells
    (True, 5.0, 30.0, "mistake"),     # at least 5: half a ten-point card (R1)
    (False, -30.0, -10.0, "blunder"),  # at least 10: a ten-point card
    (True, -0.5, 2.5, "unsure"),
    (True, 0.0, 12.0, "unsure"),      # touching zero is not excluding it
    (True, float("nan"), float("nan"), "unsure"),
])
def test_R12_a_rating_names_only_a_size_its_interval_supports(acted, lo, hi, want):
    from kalooki_sim.studies.review import rating

    assert rating(acted, lo, hi) == want


def test_R12_the_equal_band_is_the_call_charts():
    from kalooki_sim.analysis._chart import EITHER_POINTS
    from kalooki_sim.studies._sequential import EQUAL

    assert EQUAL == EITHER_POINTS


@pytest.fixture(scope="module")
def seq6(hand6):
    return ks.review(hand6, 1, rollouts=800, block=60, hand_rollouts=1500, discards=False,
                     policies="greedy", seed=3)


def test_the_sequential_review_rates_each_decision_from_its_interval(hand6, seq6):
    from kalooki_sim.studies._sequential import schedule
    from kalooki_sim.studies.review import BLUNDER, MISTAKE, rating

    r = seq6
    acted = r["action"].isin(["take", "call"])
    lo, hi = r["d_value_lo"], r["d_value_hi"]
    # the budget: per hand at most hand_rollouts; looks at the schedule or a shared last look
    assert r.groupby(["game", "hand"])["rollouts"].sum().max() <= 1500
    plan = schedule(60, 800)
    # off the schedule only at the budget's shared last look, where a decision may still be
    # decided or equal (a look read like any other) rather than stopped by the budget
    off = ~r["rollouts"].isin(plan)
    assert r.loc[off, "stopped_by"].isin(["budget", "decided", "equal"]).all()
    assert r.loc[off & (r["stopped_by"] != "budget"), "looks"].ge(1).all()
    assert (r["looks"] <= len(plan)).all()
    # the looks read the advisor's weighted means: act minus pass, paired
    assert np.allclose(r["d_value"], r["value_act"] - r["value_pass"])
    assert ((lo <= r["d_value"]) & (r["d_value"] <= hi)).all()
    # the rule: decided exactly when the interval excludes zero; a clear one stops early
    dec = (lo > 0) | (hi < 0)
    assert (dec == (r["stopped_by"] == "decided")).all()
    assert ((r["stopped_by"] == "equal") == (~dec & (lo >= -2) & (hi <= 2))).all()
    assert (dec & (r["rollouts"] < 800)).any()
    assert ((r["p_value"] < 0.05) == dec).all()
    # the ratings: from the interval alone, consistent with lost and best
    assert r["rating"].tolist() == [rating(a, x, y) for a, x, y in
                                    zip(acted, lo, hi, strict=True)]
    taken_minus = np.where(acted, r["d_value"], -r["d_value"])
    assert np.allclose(r["lost"], np.maximum(0, taken_minus))
    assert ((r["lost_lo"] <= r["lost"]) & (r["lost"] <= r["lost_hi"])).all()
    assert ((r["best"] == r["action"]) == (r["lost"] == 0)).all()
    inside = (lo >= -2) & (hi <= 2)
    assert ((r["rating"] == "equal") == inside).all()
    sized = r["rating"].isin(["inaccuracy", "mistake", "blunder"])
    assert (r.loc[sized, "lost_lo"] > 0).all()
    assert (r.loc[r["rating"] == "mistake", "lost_lo"] >= MISTAKE).all()
    assert (r.loc[r["rating"] == "blunder", "lost_lo"] >= BLUNDER).all()
    assert set(r["rating"]) <= set(ks.studies.review.RATINGS)
    # each error measured again on as many fresh rollouts; the others are not
    assert r.loc[~sized, "lost_fresh"].isna().all() and (r.loc[~sized, "fresh_rollouts"] == 0).all()
    e = r[sized]
    assert (e["fresh_rollouts"] == e["rollouts"]).all()
    assert ((e["lost_fresh_lo"] <= e["lost_fresh"]) & (e["lost_fresh"] <= e["lost_fresh_hi"])).all()
    # the hand's total: a naive twin
    tot = ks.review_total(r)
    assert len(tot) == 1 and tot["decisions"].iat[0] == len(r)
    half = np.sqrt((((e["lost_fresh_hi"] - e["lost_fresh_lo"]) / 2) ** 2).sum())
    total = e["lost_fresh"].sum()
    assert tot["lost"].iat[0] == pytest.approx(max(0, total))
    assert tot["lost_hi"].iat[0] == pytest.approx(max(0, total + half))
    assert tot["lost_lo"].iat[0] == pytest.approx(max(0, total - half))
    assert tot["rollouts"].iat[0] == r["rollouts"].sum() + e["rollouts"].sum()
    assert sum(tot[k].iat[0] for k in ks.studies.review.RATINGS) == len(r)


def test_C3_the_sequential_review_is_the_same_for_the_same_seed_on_one_or_two_threads(hand6,
                                                                                       seq6):
    kw = dict(rollouts=800, block=60, hand_rollouts=1500, discards=False, policies="greedy",
              seed=3)
    one = ks.review(hand6, 1, threads=1, **kw)
    two = ks.review(hand6, 1, threads=2, **kw)
    for r in (one, two):
        pd.testing.assert_frame_equal(r, seq6)
    assert (seq6["stopped_by"] == "budget").any()  # the budget bound here
    other = ks.review(hand6, 1, **{**kw, "seed": 4})
    assert not other["d_value"].equals(seq6["d_value"])


def test_a_single_look_is_the_fixed_size_review_and_the_advisors_answer(hand6):
    """``rollouts`` at or below ``block``: one look of exactly that many, the advisor's own
    rollouts (the first ``n`` rollouts of a decision are the same whatever the budget)."""
    from kalooki_sim.studies.review import _seed_of

    r = ks.review(hand6, 2, rollouts=60, policies="greedy", seed=1, history=False,
                  discards=False)
    fixed = ks.review(hand6, 2, rollouts=60, block=10, sequential=False, policies="greedy",
                      seed=1, history=False, discards=False)
    pd.testing.assert_frame_equal(r.drop(columns="stopped_by"),
                                  fixed.drop(columns="stopped_by"))
    assert (fixed["stopped_by"] == "rollouts").all()
    assert (r["looks"] == 1).all() and (r["rollouts"] == 60).all()
    # a take (R9.1): no seat was asked before it, so no event to read; a call's implied passes
    # are read by the advisor's chains and the review's (review_discard.HISTORY_SWAPS)
    k, m = next((k, m) for k, m in enumerate(walk(hand6, 2)[0]) if m.decision == "take")
    sit = {k: v for k, v in m.situation.items() if k != "history"}
    a = ks.advise(**sit, rollouts=60, policies="greedy", seed=_seed_of(1, m),
                  rules=hand6.rules)
    assert r["d_value"].iat[k] == pytest.approx(a.difference["relative"])
    assert r["d_value_lo"].iat[k] == pytest.approx(a.difference["relative_lo"])


@pytest.mark.parametrize("kw, err, msg", [
    (dict(block=1), ValueError, "block=1 is not allowed; give an integer 2-"),
    (dict(hand_rollouts=0), ValueError, "hand_rollouts=0 is not allowed"),
    (dict(sequential="yes"), TypeError, "sequential='yes' is not allowed; give True or False"),
    (dict(rollouts=2.5), TypeError, "rollouts=2.5"),
])
def test_bad_sequential_arguments_are_clear_errors(hand6, kw, err, msg):
    with pytest.raises(err, match=msg):
        ks.review(hand6, 0, **kw)


def test_bad_review_total_arguments_are_clear_errors(seq6):
    with pytest.raises(ValueError, match="by='seat' is not allowed"):
        ks.review_total(seq6, by="seat")
    with pytest.raises(ValueError, match=r"lacks the review's columns \['lost_fresh'"):
        ks.review_total(seq6.drop(columns="lost_fresh"))
    assert len(ks.review_total(seq6, by="all")) == 1


@pytest.mark.slow
def test_the_review_of_27_expert_hands_decides_within_its_budget():
    """The review's measure: three deals of each contract 1-9 (seat 0, expert, two threads)
    at the default budget, discards included, leave at most 30% of decisions undecided with a
    median 95% interval of at most 8 points (``python -m kalooki_sim.studies.review_measure``
    prints the same numbers). The rollouts are the seed's whatever the threads (C3), so these
    do not depend on the machine; its seconds a hand do, and are the bench's
    (``review_s_per_hand`` of ``make bench``), not a test's."""
    from kalooki_sim.studies.review_measure import TARGETS, measure_review

    rows, s = measure_review()
    assert s["hands"] == 27 and s["decisions"] == len(rows) > 0 and s["discards"] > 0
    assert s["undecided"] + s["decided"] + s["equal"] == pytest.approx(1.0)
    assert s["meets"]["undecided"] and s["meets"]["median_width"], (s, TARGETS)


def test_the_guide_states_the_reviews_defaults():
    """The review's section of the advisor guide says the defaults the code has."""
    import inspect
    from pathlib import Path

    from kalooki_sim.studies._sequential import EQUAL, SIZE_WIDTH, schedule
    from kalooki_sim.studies.review import BLOCK, BLUNDER, HAND_ROLLOUTS, MISTAKE, ROLLOUTS

    text = (Path(ks.__file__).parent / "report" / "guide" / "advisor.md").read_text("utf-8")
    text = " ".join(text.split())
    sig = inspect.signature(ks.review).parameters
    assert (sig["rollouts"].default, sig["block"].default,
            sig["hand_rollouts"].default) == (ROLLOUTS, BLOCK, HAND_ROLLOUTS)
    six = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}[len(schedule(BLOCK,
                                                                             ROLLOUTS))]
    from kalooki_sim.studies.review_discard import (
        DISCARD_HAND_ROLLOUTS,
        DISCARD_ROLLOUTS,
        HISTORY_REUSE,
    )

    assert (sig["discard_rollouts"].default,
            sig["discard_hand_rollouts"].default) == (DISCARD_ROLLOUTS, DISCARD_HAND_ROLLOUTS)
    for said in (f"`block` ({BLOCK:,})", f"({ROLLOUTS:,} at most)",
                 f"`discard_rollouts`, {DISCARD_ROLLOUTS:,} a discard",
                 f"`discard_hand_rollouts`, {DISCARD_HAND_ROLLOUTS:,} a hand",
                 f"plays each sample on {HISTORY_REUSE} rollouts",
                 f"wider than {SIZE_WIDTH:.0f} points plays one look more",
                 f"bring it within {SIZE_WIDTH:.0f} (the width",
                 f"then to about ±{SIZE_WIDTH / 2:.0f} points",
                 f"`hand_rollouts` ({HAND_ROLLOUTS:,} over", f"({six} at the defaults)",
                 f"inside ±{EQUAL:.0f} points", f"at least {MISTAKE:.0f} — half",
                 f"at least {BLUNDER:.0f} — a ten-point card"):
        assert said in text, said


def test_a_decision_neither_answer_can_reach_stops_as_futile_and_leaves_the_budget():
    """From a quarter of the cap on, a decision whose interval projected to the cap would
    still hold zero and reach past ±2 stops (no claim), and the rollouts go to the others."""
    from kalooki_sim.studies._sequential import futile, run_hand

    hopeless = [_normal_source(0.0, 80, k) for k in range(20)]  # at 640: half-width ~10
    out, _ = run_hand(hopeless, block=40, cap=640, budget=None)
    stops = [o for o in out if o.stopped_by == "futile"]
    assert len(stops) >= 12, [o.stopped_by for o in out]
    assert all(160 <= o.n < 640 and futile(o.mean, o.lo, o.hi, o.n, 640) for o in stops)
    assert sum(o.n for o in out) < 20 * 640 * 0.6  # the budget they leave
    # never before a quarter of the cap, never at the cap, never without an interval
    assert not futile(0.0, -10.0, 10.0, 159, 640)
    assert not futile(0.0, -10.0, 10.0, 640, 640)
    assert not futile(0.0, float("nan"), float("nan"), 320, 640)
    assert futile(0.0, -10.0, 10.0, 160, 640)
    # a small mean with an interval the cap can bring inside ±2 is not futile
    assert not futile(0.1, -2.5, 2.7, 320, 640)


def test_the_page_and_the_terminal_show_each_rating_and_the_hands_total(seq6, hand6):
    from kalooki_sim.report.review_page import review_html
    from kalooki_sim.report.terminal import review_table

    page = review_html(hand6, 1, seq6, title="Review")
    tot = ks.review_total(seq6).iloc[0]
    assert (f"hand 6: {tot['lost']:.1f} [{tot['lost_lo']:.1f}, {tot['lost_hi']:.1f}]"
            in page)
    for r in seq6.itertuples(index=False):
        assert (f"<td class='num'>{r.lost:.1f} [{r.lost_lo:.1f}, {r.lost_hi:.1f}]</td>"
                f"<td>{r.rating}</td>") in page
    shown = review_table(seq6)
    assert shown["rating"].tolist() == seq6["rating"].tolist()
    assert shown["lost [95%]"].iat[0] == (f"{seq6['lost'].iat[0]:.1f} "
                                          f"[{seq6['lost_lo'].iat[0]:.1f}, "
                                          f"{seq6['lost_hi'].iat[0]:.1f}]")
