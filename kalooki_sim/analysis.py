"""Analysis: pandas tables with 95% confidence intervals over the engine's per-seat rows.

Proportions use the Wilson score interval, means the Student t interval. Every table has the
estimate and its ``lo`` / ``hi`` bounds, plus ``n`` (what the estimate averages over).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import (
    check_choice,
    check_columns,
    check_int,
    check_real,
    check_seed,
    not_allowed,
)
from .play import play_hands
from .policies import Policy, preset
from .rules import Rules, as_rules

Z95 = float(stats.norm.ppf(0.975))


# -- intervals -------------------------------------------------------------------------------


def wilson(k, n, z: float = Z95):
    """Wilson score interval for ``k`` successes in ``n`` trials: ``(p, lo, hi)`` arrays.

    ``k`` and ``n`` are counts (or, from :func:`cluster_wilson`, effective counts): finite,
    ``0 <= k <= n``; ``n = 0`` (with ``k = 0``) gives NaN.

    Raises
    ------
    ValueError
        If some ``k`` is outside ``0..n`` or a count is not finite, naming the first such pair.
    """
    k, n = _checked_counts(k, n)
    z = check_real("z", z, 0, open_lo=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        den = 1 + z**2 / n
        mid = (p + z**2 / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / den
    # exact ends at k = 0 and k = n (the formula leaves rounding dust there)
    lo = np.where(k == 0, 0.0, np.clip(mid - half, 0.0, 1.0))
    hi = np.where(k == n, 1.0, np.clip(mid + half, 0.0, 1.0))
    if p.ndim == 0:
        return float(p), float(lo), float(hi)
    return p, lo, hi


def _checked_counts(k, n):
    """``k``, ``n`` as float arrays with ``0 <= k <= n``, both finite (for :func:`wilson`)."""
    try:
        k = np.asarray(k, dtype=float)
        n = np.asarray(n, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(not_allowed("k, n", (k, n), "numbers or arrays of numbers")) from None
    kb, nb = np.broadcast_arrays(k, n)
    bad = ~(np.isfinite(kb) & np.isfinite(nb) & (kb >= 0) & (kb <= nb))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        kk, nn = kb.flat[i].item(), nb.flat[i].item()
        raise ValueError(f"k={kk:g} with n={nn:g} is not allowed; give counts with 0 <= k <= n")
    return k, n


def _check_conf(conf) -> float:
    return check_real("conf", conf, 0, 1, open_lo=True, open_hi=True)


def mean_ci(x, conf: float = 0.95):
    """Mean of ``x`` with a Student t interval: ``(mean, lo, hi, n)``; NaN bounds if n < 2."""
    conf = _check_conf(conf)
    x = np.asarray(x, dtype=float)
    n = x.size
    m = x.mean() if n else np.nan
    if n < 2:
        return m, np.nan, np.nan, n
    half = stats.t.ppf(0.5 + conf / 2, n - 1) * x.std(ddof=1) / np.sqrt(n)
    return m, m - half, m + half, n


def welch_diff(a, b, conf: float = 0.95):
    """Difference of two independent means with a Welch t interval: ``(diff, lo, hi)``."""
    conf = _check_conf(conf)
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.size < 2 or b.size < 2:
        return a.mean() - b.mean() if a.size and b.size else np.nan, np.nan, np.nan
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = np.sqrt(va + vb)
    d = a.mean() - b.mean()
    if se == 0:
        return d, d, d
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = stats.t.ppf(0.5 + conf / 2, df) * se
    return d, d - half, d + half


def _cluster_var(y, cluster):
    """``(mean, variance of the mean, clusters)``: the ratio estimator's cluster-robust variance.

    ``G / (G - 1) * sum_g (y_g - mean * n_g)**2 / n**2`` over ``G`` clusters with sums ``y_g``
    of ``n_g`` rows; with one row per cluster it is the usual ``s**2 / n``.
    """
    y = np.asarray(y, dtype=float)
    n = y.size
    if n == 0:
        return np.nan, np.nan, 0
    m = y.mean()
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    g = int(inv.max()) + 1
    if g < 2:
        return m, np.nan, g
    ys = np.bincount(inv, weights=y)
    ns = np.bincount(inv)
    return m, g / (g - 1) * np.sum((ys - m * ns) ** 2) / n**2, g


def cluster_mean_ci(y, cluster, conf: float = 0.95):
    """Mean of ``y`` with a t interval that allows for correlation within clusters.

    The seats of one deal share a deck, a stock and each other's play, so their rows are not
    independent. Uses the cluster-robust variance of :func:`_cluster_var` and ``G - 1`` degrees
    of freedom; with one row per cluster it is the ordinary t interval.
    Returns ``(mean, lo, hi, n)``.
    """
    conf = _check_conf(conf)
    m, var, g = _cluster_var(y, cluster)
    n = int(np.asarray(y).size)
    if g < 2:
        return m, np.nan, np.nan, n
    half = stats.t.ppf(0.5 + conf / 2, g - 1) * np.sqrt(var)
    return m, m - half, m + half, n


def cluster_wilson(hits, cluster, z: float = Z95):
    """Wilson interval for a proportion over clustered rows, at the effective sample size.

    The design effect ``deff`` is the cluster-robust variance over the binomial one, floored
    at 1 (never narrower than plain Wilson); the Wilson interval is taken at ``n / deff``
    trials (Kish). Returns ``(p, lo, hi)``.
    """
    n = int(np.asarray(hits).size)
    p, var, g = _cluster_var(hits, cluster)
    if n == 0:
        return np.nan, np.nan, np.nan
    # the binomial variance of the mean with the same n - 1 as the cluster formula's singletons
    var_srs = p * (1 - p) / (n - 1) if n > 1 else np.nan
    deff = max(1.0, var / var_srs) if var_srs > 0 and np.isfinite(var) else 1.0
    n_eff = n / deff
    _, lo, hi = wilson(p * n_eff, n_eff, z)
    return p, float(lo), float(hi)


def _prop_row(k, n):
    p, lo, hi = wilson(k, n)
    return {"p": float(p), "lo": float(lo), "hi": float(hi), "n": int(n)}


def _mean_row(x):
    m, lo, hi, n = mean_ci(x)
    return {"mean": float(m), "lo": float(lo), "hi": float(hi), "n": int(n)}


# -- contract difficulty ----------------------------------------------------------------------


_ROWS = "the per-seat rows of play_hands or play_games"
_DIFFICULTY_COLUMNS = ("hand", "players", "game", "attempt", "attempts", "groups", "runs",
                       "void", "dealt_meets_contract", "out_on_opening", "opened",
                       "open_turn", "went_out", "penalty")


def _rows(df, columns) -> pd.DataFrame:
    return check_columns("df", df, columns, _ROWS)


def scored(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of hands that were played out (void attempts and given-up hands dropped)."""
    return _rows(df, ["void"]).loc[~df["void"]]


def void_rate(df: pd.DataFrame):
    """Share of hand attempts that were void (R13): ``(p, lo, hi, hands)``.

    From the ``attempts`` column: a hand that took ``a`` attempts had ``a - 1`` void ones (a
    hand given up counts all of its attempts as void), so the rate is a ratio of sums over
    hands; its interval is the delta-method (cluster-robust) one with the hand as the unit.
    """
    d = _rows(df, ["game", "hand", "attempts", "void"])
    last = d.groupby(["game", "hand"], sort=False).agg(a=("attempts", "first"),
                                                      gave_up=("void", "all"))
    a = last["a"].to_numpy(float)
    y = a - 1 + last["gave_up"].to_numpy(float)
    n = a.size
    if n == 0:
        return np.nan, np.nan, np.nan, 0
    p = y.sum() / a.sum()
    if n < 2:
        return float(p), np.nan, np.nan, n
    resid = y - p * a
    se = np.sqrt(n / (n - 1) * np.sum(resid**2)) / a.sum()
    half = Z95 * se
    return float(p), float(max(0.0, p - half)), float(min(1.0, p + half)), n


def contract_difficulty(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (hand, players): how hard the contract is, each figure with its 95% CI.

    Per-seat figures (``p_dealt``, ``mean_open_turn``, ``loser_penalty``) use intervals that
    allow for the seats of one deal being correlated (:func:`cluster_wilson`,
    :func:`cluster_mean_ci`); per-deal figures use plain Wilson intervals.

    Columns (each with ``_lo``/``_hi``): ``p_dealt`` (the deal alone lays the contract; per
    seat, over each hand's first deal: it needs ``play_hands(..., voids=True)`` rows, else
    NaN, since the scored attempts alone are not a random sample of deals),
    ``mean_open_turn`` (own turns to open, among seats that opened), ``p_out_on_opening`` (a
    hand won by going out on the opening, doubling, R12), ``p_void`` (per attempt, R13, from
    ``attempts``: :func:`void_rate`), ``mean_attempts`` (deals until a hand is scored),
    ``loser_penalty`` (mean penalty of seats that did not go out), plus ``hands`` scored.
    """
    _rows(df, _DIFFICULTY_COLUMNS)
    out = []
    for (hand, players), d in df.groupby(["hand", "players"], sort=True):
        s = scored(d)
        per_hand = s.groupby("game")
        row = {"hand": hand, "players": players, "contract": f"{d['groups'].iat[0]}g+"
               f"{d['runs'].iat[0]}r", "hands": int(per_hand.ngroups)}
        # every first deal is an unbiased deal; later attempts exist only in voids=True rows
        first = d[d["attempt"] == 0]
        if first["game"].nunique() == d["game"].nunique():
            p, lo, hi = cluster_wilson(first["dealt_meets_contract"], first["game"])
        else:
            p = lo = hi = np.nan  # scored attempts alone are not a random sample of deals
        row.update(p_dealt=p, p_dealt_lo=lo, p_dealt_hi=hi)
        r = _prop_row(per_hand["out_on_opening"].any().sum(), per_hand.ngroups)
        row.update(p_out_on_opening=r["p"], p_out_on_opening_lo=r["lo"],
                   p_out_on_opening_hi=r["hi"])
        p, lo, hi, _ = void_rate(d)
        row.update(p_void=p, p_void_lo=lo, p_void_hi=hi)
        m, lo, hi, _ = mean_ci(d.groupby("game")["attempts"].first())
        row.update(mean_attempts=m, mean_attempts_lo=lo, mean_attempts_hi=hi)
        for name, rows in [
            ("mean_open_turn", s.loc[s["opened"], ["open_turn", "game"]]),
            ("loser_penalty", s.loc[~s["went_out"], ["penalty", "game"]]),
        ]:
            m, lo, hi, _ = cluster_mean_ci(rows.iloc[:, 0].astype(float), rows["game"])
            row.update({name: m, f"{name}_lo": lo, f"{name}_hi": hi})
        out.append(row)
    return pd.DataFrame(out)


def open_curve(df: pd.DataFrame, max_turn: int = 20) -> pd.DataFrame:
    """Chance a seat has opened by its own turn ``t`` (t = 1..max_turn), per hand and players.

    Over scored seat-hands; a hand that ended before turn ``t`` counts as not opened by then
    (the curve answers "by turn t, had I opened?", not a survival estimate). ``max_turn`` is
    an integer >= 1.
    """
    _rows(df, ["hand", "players", "void", "opened", "open_turn"])
    max_turn = check_int("max_turn", max_turn, 1)
    rows = []
    for (hand, players), d in scored(df).groupby(["hand", "players"], sort=True):
        ot = d["open_turn"].astype("Float64").to_numpy(dtype=float, na_value=np.inf)
        for t in range(1, max_turn + 1):
            r = _prop_row(int((ot <= t).sum()), len(d))
            rows.append({"hand": hand, "players": players, "turn": t, **r})
    return pd.DataFrame(rows)


def seat_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """Chance of going out by position after the dealer (1 = dealer's left, who plays first)."""
    _rows(df, ["void", "seat", "dealer", "players", "went_out"])
    s = scored(df).assign(position=lambda d: (d["seat"] - d["dealer"]) % d["players"])
    s["position"] = s["position"].where(s["position"] != 0, s["players"])
    rows = []
    for (players, pos), d in s.groupby(["players", "position"], sort=True):
        rows.append({"players": players, "position": pos,
                     **_prop_row(int(d["went_out"].sum()), len(d))})
    return pd.DataFrame(rows)


# -- call value versus penalty exposure ------------------------------------------------------


CALL_POLICIES = {
    "never": preset("never-call"),
    "call-1": preset("call-1"),
    "call-2": preset("call-2"),
    "call-3": preset("call-3"),
    "call-3, gain 2": Policy("call-3, gain 2", call_limit=3, call_gain=2),
}


def focal_outcomes(n, hand, focal, others="greedy", players=4, seed=0, rules=None,
                   threads=None) -> pd.DataFrame:
    """Seat 0 plays ``focal``, the others ``others``; one row per game: its final scored hand.

    The deal and every other random choice come from the seed's streams, so two calls with the
    same ``seed`` play the *same deals* (common random numbers); each seat's policy randomness
    has its own stream.
    """
    rules = as_rules(rules) if rules is not None else Rules(players=players)
    pols = [focal] + [others] * (rules.players - 1)
    df = play_hands(n, hand=hand, policies=pols, seed=seed, rules=rules, threads=threads,
                    progress=False)
    s = scored(df)
    me = s[s["seat"] == 0].set_index("game")
    return pd.DataFrame({
        "win": me["went_out"].astype(float),
        "penalty": me["penalty"].astype(float),
        "calls": me["calls"].astype(float),
        "cards_left": me["cards_left"].astype(float),
    })


def call_value(n, hand, policies=None, baseline="never", others="greedy", players=4, seed=0,
               threads=None) -> pd.DataFrame:
    """Paired comparison of call policies on the same deals, against ``baseline``.

    For each policy (a dict name -> Policy; :data:`CALL_POLICIES` by default) seat 0 plays it on
    the same ``n`` deals. Columns: per policy the win rate and mean penalty with CIs, the mean
    penalty when caught (not out), the paired differences to the baseline (``d_win``,
    ``d_penalty`` with CIs), the change in the penalty when caught (``d_caught_penalty``, a Welch
    interval: the caught hands differ between policies) and ``vr_penalty``, the variance of the
    unpaired
    difference over that of the paired one (how much the common random numbers bought).

    ``baseline`` must be one of the names in ``policies``; it is checked before any game is
    played.
    """
    if policies is None:
        policies = CALL_POLICIES
    if not isinstance(policies, dict) or not policies:
        raise TypeError(not_allowed("policies", policies,
                                    "a non-empty dict of name -> Policy or preset name, or None"))
    check_int("n", n, 1)
    check_choice("baseline", baseline, list(policies))
    res = {name: focal_outcomes(n, hand, pol, others, players, seed, threads=threads)
           for name, pol in policies.items()}
    base = res[baseline]
    rows = []
    for name, r in res.items():
        common = r.index.intersection(base.index)
        a, b = r.loc[common], base.loc[common]
        row = {"hand": hand, "policy": name, "games": len(r)}
        w = _prop_row(int(r["win"].sum()), len(r))
        row.update(win=w["p"], win_lo=w["lo"], win_hi=w["hi"])
        for col in ("penalty", "calls"):
            m = _mean_row(r[col])
            row.update({col: m["mean"], f"{col}_lo": m["lo"], f"{col}_hi": m["hi"]})
        caught = _mean_row(r.loc[r["win"] == 0, "penalty"])
        row.update(caught_penalty=caught["mean"], caught_penalty_lo=caught["lo"],
                   caught_penalty_hi=caught["hi"])
        # caught in one run is not caught in the other, so this difference is unpaired (Welch)
        d, lo, hi = welch_diff(r.loc[r["win"] == 0, "penalty"],
                               base.loc[base["win"] == 0, "penalty"])
        row.update(d_caught_penalty=d, d_caught_penalty_lo=lo, d_caught_penalty_hi=hi)
        for col in ("win", "penalty"):
            d = a[col] - b[col]
            m = _mean_row(d)
            row.update({f"d_{col}": m["mean"], f"d_{col}_lo": m["lo"], f"d_{col}_hi": m["hi"]})
        vp = (a["penalty"] - b["penalty"]).var(ddof=1)
        vu = a["penalty"].var(ddof=1) + b["penalty"].var(ddof=1)
        row["vr_penalty"] = float(vu / vp) if vp > 0 else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


# -- exact probabilities (teaching) ----------------------------------------------------------


def p_deal_lays_groups(groups: int, cards: int, rules=None) -> Fraction:
    """Exact chance that ``cards`` dealt from the pack can lay ``groups`` groups (R3, R5).

    Only groups: a deal lays them iff (ranks with 3+ naturals) + min(ranks with exactly 2,
    jokers) >= groups, since runs never help a group-only contract. Counted by a dynamic
    programme over the 13 ranks (each rank has ``4 * decks`` copies) and the jokers, exactly.
    ``groups`` is 0-13 (R5), ``cards`` 0 up to the pack's size.
    """
    rules = as_rules(rules)
    groups = check_int("groups", groups, 0, 13, why="R5")
    cards = check_int("cards", cards, 0, rules.pack_size, why="the pack's size")
    return _group_deal_fraction(groups, cards, 13, 4 * rules.decks, rules.jokers)


def _group_deal_fraction(groups, cards, ranks, copies, jokers) -> Fraction:
    """The DP of :func:`p_deal_lays_groups` for a pack of ``ranks`` x ``copies`` + jokers."""
    # dp[(t, a, b)]: ways with t naturals so far, a ranks with >= 3, b ranks with exactly 2
    # (both capped at `groups`, which is all the test needs)
    dp = {(0, 0, 0): 1}
    for _ in range(ranks):
        nxt: dict[tuple[int, int, int], int] = {}
        for (t, a, b), w in dp.items():
            for m in range(0, min(copies, cards - t) + 1):
                key = (t + m, min(groups, a + (m >= 3)), min(groups, b + (m == 2)))
                nxt[key] = nxt.get(key, 0) + w * comb(copies, m)
        dp = nxt
    good = 0
    for j in range(0, min(jokers, cards) + 1):
        for (t, a, b), w in dp.items():
            if t == cards - j and a + min(b, j) >= groups:
                good += w * comb(jokers, j)
    return Fraction(good, comb(ranks * copies + jokers, cards))


def p_outs(outs: int, unseen: int, draws: int = 1) -> float:
    """Hypergeometric chance of at least one of ``outs`` cards among the next ``draws`` draws
    from ``unseen`` cards: ``1 - C(unseen - outs, draws) / C(unseen, draws)``."""
    unseen = check_int("unseen", unseen, 0)
    outs = check_int("outs", outs, 0, unseen, why=f"at most unseen={unseen}")
    draws = check_int("draws", draws, 0, unseen, why=f"at most unseen={unseen}")
    return 1.0 - comb(unseen - outs, draws) / comb(unseen, draws)


def simulate_outs(outs: int, unseen: int, draws: int, n: int, seed: int = 0) -> np.ndarray:
    """Monte Carlo twin of :func:`p_outs`: ``n`` booleans, did an out come up."""
    unseen = check_int("unseen", unseen, 0)
    outs = check_int("outs", outs, 0, unseen, why=f"at most unseen={unseen}")
    draws = check_int("draws", draws, 0, unseen, why=f"at most unseen={unseen}")
    n = check_int("n", n, 0)
    seed = check_seed(seed)
    rng = np.random.default_rng([seed, outs, unseen, draws])
    # positions of the outs in a random order of the unseen cards: hit if any is < draws
    keys = rng.random((n, unseen))
    ranks = keys.argsort(axis=1)[:, :draws]
    return (ranks < outs).any(axis=1)


def simulate_deals(n, contract, cards, seed=0, rules=None) -> np.ndarray:
    """``n`` random deals of ``cards`` cards: can each lay ``contract`` ((groups, runs))?

    Compiled: a million 9-card deals take about a second. Returns a boolean array.
    """
    from ._kernels.sampling import deals_meet
    from .melds import resolve_contract

    rules = as_rules(rules)
    g, r = resolve_contract(contract, rules)
    n = check_int("n", n, 0)
    cards = check_int("cards", cards, 1, rules.pack_size, why="the pack's size")
    seed = check_seed(seed)
    out = np.zeros(n, np.int64)
    deals_meet(seed, n, cards, g, r, rules.decks, rules.jokers, out)
    return out.astype(bool)


def dealt_meets(n, hand, seed=0, players=4, rules=None) -> pd.Series:
    """Does the dealer's left-hand seat's deal lay the contract? One boolean per deal.

    From :func:`play_hands`, one seat per deal so the draws are independent.
    """
    rules = as_rules(rules) if rules is not None else Rules(players=players)
    df = play_hands(n, hand=hand, seed=seed, rules=rules, progress=False, voids=True)
    first = df[(df["attempt"] == 0) & (df["seat"] == (df["dealer"] + 1) % df["players"])]
    return first.set_index("game")["dealt_meets_contract"]


def convergence(hits, exact=None, points: int = 60) -> pd.DataFrame:
    """Running estimate and Wilson CI of a proportion after 1..N trials (log-spaced points).

    ``hits`` is a non-empty 1-D array of booleans (or 0/1); ``exact``, if given, a probability
    0-1; ``points`` an integer >= 1. The first point is at 10 trials (or N if fewer).
    """
    hits = np.asarray(hits)
    if hits.ndim != 1 or hits.size == 0:
        raise ValueError(not_allowed("hits", hits, "a non-empty 1-D array of booleans"))
    if hits.dtype != bool:
        if hits.dtype.kind not in "iuf" or not np.isin(hits, (0, 1)).all():
            raise ValueError(not_allowed("hits", hits, "a non-empty 1-D array of booleans"))
        hits = hits.astype(bool)
    points = check_int("points", points, 1)
    if exact is not None:
        exact = check_real("exact", exact, 0, 1)
    n = np.unique(np.geomspace(min(10, len(hits)), len(hits), points).astype(int))
    k = np.cumsum(hits)[n - 1]
    p, lo, hi = wilson(k, n)
    out = pd.DataFrame({"n": n, "p": p, "lo": lo, "hi": hi})
    if exact is not None:
        out["exact"] = float(exact)
        out["covers"] = (out["lo"] <= float(exact)) & (float(exact) <= out["hi"])
    return out
