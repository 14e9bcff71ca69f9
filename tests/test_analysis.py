"""Analysis layer: intervals, exact probabilities against simulation, tables and charts."""

from fractions import Fraction

import matplotlib.figure
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis import _exact
from kalooki_sim.report import plots


def test_wilson_matches_scipy():
    for k, n in [(0, 10), (3, 10), (10, 10), (57, 1000), (1, 2)]:
        p, lo, hi = A.wilson(k, n)
        ci = stats.binomtest(k, n).proportion_ci(method="wilson")
        assert p == k / n
        assert lo == pytest.approx(ci.low, abs=1e-9) and hi == pytest.approx(ci.high, abs=1e-9)


def test_mean_ci_matches_scipy_t_interval():
    x = np.random.default_rng(0).normal(3, 2, 50)
    m, lo, hi, n = A.mean_ci(x)
    ref = stats.t.interval(0.95, 49, loc=x.mean(), scale=stats.sem(x))
    assert (lo, hi) == pytest.approx(ref) and n == 50 and m == pytest.approx(x.mean())


def _brute_groups(groups, cards, ranks, copies, jokers):
    """Enumerate every deal of a toy pack card by card (cards are distinct objects)."""
    from itertools import combinations

    pack = [(r, c) for r in range(ranks) for c in range(copies)] + [("JK", i) for i in
                                                                    range(jokers)]
    good = total = 0
    for deal in combinations(pack, cards):
        total += 1
        counts = [sum(1 for r, _ in deal if r == k) for k in range(ranks)]
        j = sum(1 for r, _ in deal if r == "JK")
        if sum(n >= 3 for n in counts) + min(sum(n == 2 for n in counts), j) >= groups:
            good += 1
    return Fraction(good, total)


@pytest.mark.parametrize("groups, cards, ranks, copies, jokers",
                         [(1, 5, 3, 4, 2), (2, 6, 3, 4, 2), (2, 7, 4, 3, 1), (3, 8, 4, 3, 2)])
def test_exact_group_dp_equals_card_by_card_enumeration(groups, cards, ranks, copies, jokers):
    assert _exact._group_deal_fraction(groups, cards, ranks, copies, jokers) == _brute_groups(
        groups, cards, ranks, copies, jokers)


def test_exact_group_probability_dp_is_a_probability_and_matches_simulation():
    # the DP sums to one over all outcomes: P(>=0 groups) == 1
    assert A.p_deal_lays_groups(0, 9) == 1
    # against 200,000 simulated deals of 9 cards for one and two groups: within 4 standard errors
    for g in (1, 2):
        exact = float(A.p_deal_lays_groups(g, 9))
        hits = A.simulate_deals(200_000, (g, 0), 9, seed=5)
        se = np.sqrt(exact * (1 - exact) / hits.size)
        assert abs(hits.mean() - exact) < 4 * se, (g, hits.mean(), exact)


def test_simulate_deals_agrees_with_solve_opening_on_the_same_cards():
    # the compiled sampler is the solver: check a small batch through the public API
    rules = ks.Rules()
    hits = A.simulate_deals(50, 2, 10, seed=3, rules=rules)
    assert hits.dtype == bool and hits.shape == (50,)
    with pytest.raises(ValueError, match="cards=200"):
        A.simulate_deals(5, 1, 200)


def test_outs_exact_vs_simulated():
    assert A.p_outs(2, 80, 1) == pytest.approx(2 / 80)
    assert A.p_outs(0, 80, 5) == 0 and A.p_outs(80, 80, 1) == 1
    for outs, unseen, draws in [(2, 80, 5), (6, 70, 3)]:
        exact = A.p_outs(outs, unseen, draws)
        assert exact == pytest.approx(stats.hypergeom.sf(0, unseen, outs, draws))
        hits = A.simulate_outs(outs, unseen, draws, 100_000, seed=2)
        _, lo, hi = A.wilson(hits.sum(), hits.size)
        assert abs(hits.mean() - exact) < 4 * np.sqrt(exact * (1 - exact) / hits.size)
    with pytest.raises(ValueError, match="outs=5"):
        A.p_outs(5, 3, 1)


def test_welch_diff_matches_scipy():
    rng = np.random.default_rng(5)
    a, b = rng.normal(1, 2, 40), rng.normal(0, 1, 70)
    d, lo, hi = A.welch_diff(a, b)
    ref = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert d == pytest.approx(a.mean() - b.mean())
    assert (lo, hi) == pytest.approx((ref.low, ref.high))


def test_cluster_intervals_reduce_to_plain_ones_without_clusters():
    rng = np.random.default_rng(6)
    x = rng.normal(5, 2, 80)
    m, lo, hi, n = A.cluster_mean_ci(x, np.arange(80))
    m2, lo2, hi2, _ = A.mean_ci(x)
    assert (m, lo, hi) == pytest.approx((m2, lo2, hi2)) and n == 80
    hits = rng.random(500) < 0.3
    assert A.cluster_wilson(hits, np.arange(500)) == pytest.approx(A.wilson(hits.sum(), 500),
                                                                   rel=1e-6)


def test_cluster_intervals_widen_for_correlated_rows():
    # four identical rows per cluster carry the information of one row: the interval is
    # (close to) the one from the cluster means alone, twice as wide as the naive one
    rng = np.random.default_rng(7)
    base = rng.normal(0, 1, 300)
    y = np.repeat(base, 4)
    cl = np.repeat(np.arange(300), 4)
    _, lo, hi, _ = A.cluster_mean_ci(y, cl)
    _, blo, bhi, _ = A.mean_ci(base)
    _, nlo, nhi, _ = A.mean_ci(y)
    assert hi - lo == pytest.approx(bhi - blo, rel=0.01)
    assert (hi - lo) / (nhi - nlo) == pytest.approx(2.0, rel=0.02)
    hits = np.repeat(rng.random(300) < 0.4, 4)
    p, lo, hi = A.cluster_wilson(hits, cl)
    _, plo, phi = A.wilson(hits[::4].sum(), 300)
    assert (lo, hi) == pytest.approx((plo, phi), abs=0.002)


def test_convergence_table():
    hits = np.random.default_rng(1).random(5000) < 0.3
    c = A.convergence(hits, exact=0.3)
    assert c["n"].is_monotonic_increasing and c["n"].iat[-1] == 5000
    assert (c["lo"] <= c["p"]).all() and (c["p"] <= c["hi"]).all()
    assert c["covers"].mean() > 0.8


@pytest.fixture(scope="module")
def small_runs():
    return ks.play_hands(300, hand=2, players=4, seed=3, voids=True)


def test_contract_difficulty_table(small_runs):
    t = A.contract_difficulty(small_runs)
    assert list(t["hand"]) == [2] and t["contract"].iat[0] == "2 groups + 1 run"
    s = small_runs[~small_runs["void"]]
    first = small_runs[small_runs["attempt"] == 0]
    assert t["p_dealt"].iat[0] == pytest.approx(first["dealt_meets_contract"].mean())
    # without the void attempts the first deals are missing: no biased p_dealt
    scored_only = A.contract_difficulty(ks.play_hands(300, hand=9, players=5, seed=3))
    assert np.isnan(scored_only["p_dealt"].iat[0])
    assert t["loser_penalty"].iat[0] == pytest.approx(s.loc[~s["went_out"], "penalty"].mean())
    for c in ("p_dealt", "p_void", "loser_penalty", "p_out_on_opening"):
        assert t[f"{c}_lo"].iat[0] <= t[c].iat[0] <= t[f"{c}_hi"].iat[0]


def test_open_curve_is_monotone_with_the_contract_columns(small_runs):
    c = A.open_curve(small_runs, max_turn=10, n_boot=50)
    assert list(c.columns) == ["hand", "players", "turn", "p_opened", "lo", "hi"]
    assert c["p_opened"].is_monotonic_increasing and len(c) == 10
    assert ((c["lo"] <= c["p_opened"] + 1e-12) & (c["p_opened"] <= c["hi"] + 1e-12)).all()


def test_seat_advantage_sums_to_one_winner_per_hand(small_runs):
    sa = A.seat_advantage(small_runs)
    hands = small_runs[~small_runs["void"]]["game"].nunique()
    assert (sa["p"] * sa["n"]).sum() == pytest.approx(hands)


def test_call_value_pairs_the_same_deal_sequences():
    cv = A.call_value(200, 3, policies={"never": ks.preset("never-call"),
                                        "call-3": ks.preset("call-3")}, seed=4, n_boot=50)
    never = cv.set_index("policy").loc["never"]
    assert never["d_penalty"] == 0 and never["d_win"] == 0 and never["same_deal"] == 1
    assert never["d_penalty_lo"] == never["d_penalty_hi"] == 0  # exactly 0, not +-1.3
    c3 = cv.set_index("policy").loc["call-3"]
    assert c3["calls"] > 0 and c3["d_penalty_lo"] <= c3["d_penalty"] <= c3["d_penalty_hi"]
    assert c3["vr_penalty_lo"] <= c3["vr_penalty"] <= c3["vr_penalty_hi"]
    assert c3["pct_penalty_lo"] <= c3["pct_penalty"] <= c3["pct_penalty_hi"]
    assert c3["pct_penalty"] == pytest.approx(100 * c3["d_penalty"] / never["penalty"])
    assert 1 <= c3["attempts"] and 0 <= c3["p_void"] <= 1


def test_plots_return_labelled_figures(small_runs):
    t = A.contract_difficulty(small_runs)
    figs = [
        plots.difficulty(t, "p_dealt", "chance", "title"),
        plots.open_curve(A.open_curve(small_runs, n_boot=20)),
        plots.seat_advantage(A.seat_advantage(small_runs)),
        plots.convergence(A.convergence(np.ones(100, bool), 1.0), "t"),
    ]
    for f in figs:
        assert isinstance(f, matplotlib.figure.Figure)
        ax = f.axes[0]
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    # whole-number turn ticks on the opening curves
    ticks = figs[1].axes[0].get_xticks()
    assert np.allclose(ticks, np.round(ticks))


def test_thin_cells_are_hollow_and_named():
    t = pd.DataFrame({"hand": [1, 2], "players": 4, "contract": ["3 groups", "x"],
                      "hands": [5000, 200], "p_void": [0.1, 0.2], "p_void_lo": [0.09, 0.1],
                      "p_void_hi": [0.11, 0.3]})
    f = plots.difficulty(t, "p_void", "chance", "voids")
    notes = " ".join(x.get_text() for x in f.texts)
    assert "hand 2 at 4 players" in notes and "hand 1 at" not in notes
    hollow = [ln for ln in f.axes[0].get_lines() if ln.get_markerfacecolor() == "white"]
    assert len(hollow) == 1 and list(hollow[0].get_xdata()) == [2]


def test_saved_charts_are_byte_identical(tmp_path):
    for name in ("a", "b"):
        plots.save(plots.seat_advantage(pd.DataFrame({"players": 4, "position": [1, 2],
                                                      "p": [0.3, 0.2], "lo": [0.2, 0.1],
                                                      "hi": [0.4, 0.3]})),
                   tmp_path / f"{name}.png")
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_R13_void_rate_counts_every_attempt_from_the_attempts_column():
    toy = pd.DataFrame({"game": [0, 1, 2], "hand": 9, "attempts": [1, 3, 2],
                        "void": [False, False, False]})
    p, lo, hi, n = A.void_rate(toy)
    assert p == pytest.approx(3 / 6) and n == 3 and lo < p < hi
    full = ks.play_hands(300, hand=9, players=5, seed=8, voids=True)
    default = ks.play_hands(300, hand=9, players=5, seed=8)
    direct = full.groupby(["game", "attempt"])["void"].first().mean()
    assert A.void_rate(default)[0] == pytest.approx(direct)
    assert A.void_rate(full)[0] == pytest.approx(direct)
    table = A.contract_difficulty(default)
    assert table["p_void"].item() == pytest.approx(direct)
    assert table["mean_attempts"].item() == pytest.approx(
        default.groupby("game")["attempts"].first().mean())


def test_R13_deals_per_scored_hand_and_the_void_share_give_one_interval():
    # hand 9 at 6 players said void [99.98%, 99.992%] and [4,011, 10,439] deals per scored
    # hand; 1 / (1 - 99.98%) is 5,000: the deals' interval now comes from the void share's
    rows = ks.play_hands(40, hand=9, players=5, seed=8)
    t = A.contract_difficulty(rows).iloc[0]
    for end in ("", "_lo", "_hi"):
        assert t[f"mean_attempts{end}"] == pytest.approx(1 / (1 - t[f"p_void{end}"]))
    assert t["mean_attempts_lo"] < t["mean_attempts"] < t["mean_attempts_hi"]
    # every deal counted: deals played over hands scored
    assert t["mean_attempts"] == pytest.approx(rows.groupby("game")["attempts"].first().mean())
