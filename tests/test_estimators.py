"""Honest statistics (issue 10): each estimator against a case with a known answer."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis import _survival


def _censored_geometric(n, p_open, p_end, seed):
    """Seats open at a geometric turn; the hand ends at an independent geometric turn."""
    rng = np.random.default_rng(seed)
    t_open = rng.geometric(p_open, n)
    t_end = rng.geometric(p_end, n)
    opened = t_open <= t_end
    return pd.DataFrame({"hand": 1, "players": 4, "opened": opened,
                         "open_turn": pd.Series(t_open, dtype="Int16").where(opened),
                         "void": False,
                         "turns": np.where(opened, t_open, t_end)})


def test_kaplan_meier_recovers_a_known_curve_that_the_naive_share_misses():
    df = _censored_geometric(20_000, 0.1, 0.08, seed=1)
    curve, summary = A.open_survival(df, max_turn=20, n_boot=200, seed=2)
    truth = 1 - 0.9 ** curve["turn"].to_numpy()
    covered = (curve["lo"] <= truth) & (truth <= curve["hi"])
    assert covered.mean() >= 0.8, covered.mean()
    assert np.abs(curve["p_opened"] - truth).max() < 0.03
    # the old estimate (opened by t among all seats) is biased low: censoring is not "never"
    naive = [(df["opened"] & (df["turns"] <= t)).mean() for t in curve["turn"]]
    assert (truth[-1] - naive[-1]) > 0.3
    # median of a geometric(0.1): first t with 1 - 0.9**t >= 1/2, i.e. 7
    row = summary.iloc[0]
    assert row["median_lo"] <= 7 <= row["median_hi"]
    rmst_true = sum(0.9**t for t in range(20))  # E[min(T, 20)] = sum_{t<20} P(T > t)
    assert row["rmst_lo"] <= rmst_true <= row["rmst_hi"]
    assert row["opened"] + row["censored"] == row["seats"] == 20_000


def test_restricted_mean_and_median_equal_the_plain_ones_without_censoring():
    rng = np.random.default_rng(3)
    t = rng.integers(1, 30, 500)
    df = pd.DataFrame({"hand": 2, "players": 3, "opened": True, "open_turn": t,
                       "void": False, "turns": t})
    curve, s = A.open_survival(df, max_turn=20, n_boot=0)
    assert s["rmst"].iat[0] == pytest.approx(np.minimum(t, 20).mean())
    emp = [(t <= k).mean() for k in range(1, 21)]
    assert curve["p_opened"].to_numpy() == pytest.approx(emp)
    assert s["median"].iat[0] == np.min(np.flatnonzero(np.array(emp) >= 0.5)) + 1


def test_bootstrap_form_of_kaplan_meier_is_scipys():
    df = _censored_geometric(3000, 0.15, 0.1, seed=4)
    ot = A.open_times(df)
    fit = A.km_fit(ot["time"], ot["opened"])
    E, C = _survival._km_counts(ot["time"].to_numpy(), ot["opened"].to_numpy(),
                                ot["deal"].to_numpy(), 25)
    S = _survival._km_from_counts(E.sum(0), C.sum(0))
    assert 1 - S[1:26] == pytest.approx(fit.cdf.evaluate(np.arange(1, 26)), abs=1e-12)


def test_open_times_keeps_void_deals_and_refuses_scored_rows_alone():
    full = ks.play_hands(150, hand=9, players=4, seed=8, voids=True)
    ot = A.open_times(full)
    assert len(ot) == len(full)
    v = full["void"].to_numpy()
    # every seat of a void deal that had not opened is censored, not "never opens"
    assert (~ot.loc[v & ~full["opened"].to_numpy(), "opened"]).all()
    scored_only = ks.play_hands(150, hand=9, players=4, seed=8)
    assert (scored_only["attempts"] > 1).any()
    with pytest.raises(ValueError, match="voids=True"):
        A.open_times(scored_only)


def test_holm_on_a_known_family():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted 0.005*4, 0.01*3, 0.03*2, 0.04*1 -> 0.02, 0.03, 0.06, max(0.06, 0.04)
    assert A.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    omit = A.holm([0.2, np.nan], nan_policy="omit")
    assert np.isnan(omit[1]) and omit[0] == 0.2
    claims = A.sign_claims(["a", "b", "c", "d"], [-1, 2, -3, 1], p)
    assert claims == {"lower": ["a"], "higher": [], "unclear": ["b", "c"] + ["d"]} or \
        claims == {"lower": ["a"], "higher": ["d"], "unclear": ["b", "c"]}
    assert A.sign_claims(["x"], [1.0], [0.049])["higher"] == ["x"]


def test_holm_controls_the_familywise_error_under_the_null():
    rng = np.random.default_rng(5)
    fw = np.mean([(A.holm(rng.random(9)) < 0.05).any() for _ in range(4000)])
    assert fw < 0.06


def test_rank_intervals_separate_a_clear_leader_and_tie_the_close_ones():
    rng = np.random.default_rng(6)
    samples = {"a": rng.random(4000) < 0.30, "b": rng.random(4000) < 0.20,
               "c": rng.random(4000) < 0.201}
    draws = A.bootstrap_means(samples, n_boot=1000, seed=1)
    r = A.rank_intervals({k: v.mean() for k, v in samples.items()}, draws)
    assert A.first_set(r) == ["a"]
    low = A.rank_intervals({k: v.mean() for k, v in samples.items()}, draws,
                           higher_first=False)
    assert sorted(A.first_set(low)) == ["b", "c"]


def test_quantile_interval_covers_the_true_quantile():
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        x = rng.exponential(1.0, 300)
        _, lo, hi = A.quantile_ci(x, 0.9)
        hits += lo <= np.log(10) <= hi
    assert 0.92 <= hits / 400 <= 0.99


def test_confidence_sequence_covers_at_all_times_and_the_pointwise_band_does_not():
    rng = np.random.default_rng(8)
    ever_cs = ever_pw = 0
    for _ in range(300):
        hits = rng.random(3000) < 0.3
        c = A.confidence_sequence(hits, points=40)
        ever_cs += ((c["cs_lo"] > 0.3) | (c["cs_hi"] < 0.3)).any()
        ever_pw += ((c["lo"] > 0.3) | (c["hi"] < 0.3)).any()
    assert ever_cs / 300 <= 0.05
    assert ever_pw / 300 > 0.1  # watched along the way, the 95% band misses far more often
    # the boundary itself: t = 100, rho = 10, alpha = 0.05
    c = A.confidence_sequence(np.r_[np.ones(50, bool), np.zeros(50, bool)], rho=10.0, points=2)
    v = 100 / 4 + 10
    assert c["cs_hi"].iat[-1] - 0.5 == pytest.approx(np.sqrt(v * np.log(v / (10 * 0.05**2)))
                                                      / 100)


def test_compare_calls_on_constructed_outcomes():
    rng = np.random.default_rng(9)
    g = 2000
    base = pd.DataFrame({"win": (rng.random(g) < 0.2).astype(float),
                         "penalty": rng.integers(0, 300, g).astype(float),
                         "calls": 0.0, "cards_left": 5.0, "attempts": 1.0})
    minus10 = base.assign(penalty=base["penalty"] - 10, calls=1.0,
                          attempts=np.where(np.arange(g) < 200, 2.0, 1.0))
    t = A.compare_calls({"never": base, "minus10": minus10}, "never", hand=4, n_boot=200)
    r = t.set_index("policy").loc["minus10"]
    assert r["d_penalty"] == pytest.approx(-10) and r["d_penalty_lo"] == pytest.approx(-10)
    assert r["d_penalty_p"] == 0.0
    assert r["pct_penalty"] == pytest.approx(-1000 / base["penalty"].mean())
    assert r["same_deal"] == pytest.approx(0.9) and r["d_attempts"] == pytest.approx(0.1)
    assert r["p_void"] == pytest.approx(200 / 2200)
    assert r["d_pen_sd"] == pytest.approx(0.0, abs=1e-9)
    assert np.isnan(r["vr_penalty"])  # the paired difference has no variance at all
    assert r["p_pen100"] == pytest.approx((base["penalty"] - 10 >= 100).mean())
    assert r["d_p_pen100"] == pytest.approx(-((base["penalty"] >= 100)
                                              & (base["penalty"] < 110)).mean())


def test_p_dealt_once_per_contract_exact_where_it_can_be():
    t = A.p_dealt_table(20_000, seed=1, hands=[1, 2, 5])
    assert list(t["method"]) == ["exact", "simulated", "exact"]
    assert t["p_dealt"].iat[0] == float(A.p_deal_lays_groups(3, 9)) == t["lo"].iat[0]
    assert t["lo"].iat[1] <= t["p_dealt"].iat[1] <= t["hi"].iat[1]
    assert t["contract"].tolist() == ["3 groups", "2 groups + 1 run", "4 groups"]
    assert A.p_deal_lays_groups(3, 9) == Fraction(3863552, 25073050525)


def test_some_seat_dealt_counts_deals_not_seats():
    toy = pd.DataFrame({"hand": 1, "players": 3, "game": [0, 0, 0, 1, 1, 1, 1, 1, 1],
                        "attempt": [0, 0, 0, 0, 0, 0, 1, 1, 1],
                        "attempts": [1, 1, 1, 2, 2, 2, 2, 2, 2],
                        "dealt_meets_contract": [True, True, False, False, False, False,
                                                 False, True, False]})
    t = A.p_some_seat_dealt(toy)
    assert t["p_any"].item() == pytest.approx(2 / 3) and t["deals"].item() == 3
    ref = stats.binomtest(2, 3).proportion_ci(method="wilson")
    assert t["lo"].item() == pytest.approx(ref.low)


def test_call_games_reports_win_share_and_relative_total():
    t = A.call_games({"never": "never-call", "call-3": "call-3"}, games=12, seed=2)
    assert list(t["policy"]) == ["never", "call-3"]
    for c in ("win_share", "rel_total", "d_win_share"):
        assert ((t[f"{c}_lo"] <= t[c]) & (t[c] <= t[f"{c}_hi"])).all()
    assert (t["fair"] == 0.25).all()


def test_p_from_ci_matches_the_normal_test_it_replaces():
    """The p-values the notebooks computed by hand from 95% intervals (rule_sets: two-sided;
    should_i_call: one-sided, gain below zero) now come from ``A.p_from_ci``."""

    rng = np.random.default_rng(3)
    est = rng.normal(0, 5, 200)
    half = rng.uniform(0.5, 8, 200)
    lo, hi = est - half, est + half
    z = est / ((hi - lo) / (2 * stats.norm.ppf(0.975)))
    assert np.array_equal(A.p_from_ci(est, lo, hi, alternative="less"), stats.norm.cdf(z))
    assert np.allclose(A.p_from_ci(est, lo, hi), 2 * stats.norm.sf(np.abs(z)), rtol=1e-12)
    assert np.allclose(A.p_from_ci(est, lo, hi, alternative="greater"), stats.norm.sf(z))
    # exact values (zero width) and estimates that are not finite
    p = A.p_from_ci([0.0, 3.0, -3.0, np.nan], [0.0, 3.0, -3.0, 0.0], [0.0, 3.0, -3.0, 1.0])
    assert p.tolist() == [1.0, 0.0, 0.0, 1.0]
    assert A.p_from_ci(-3.0, -3.0, -3.0, alternative="less") == 0.0
    assert A.p_from_ci(3.0, 3.0, 3.0, alternative="less") == 1.0
    with pytest.raises(ValueError, match="alternative"):
        A.p_from_ci(1.0, 0.0, 2.0, alternative="below")
