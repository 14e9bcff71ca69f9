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
from .compare import compare_rules  # noqa: E402, F401  (issue 12: rule sets side by side)
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

    Per-seat figures (``p_dealt``, ``loser_penalty``) use intervals that
    allow for the seats of one deal being correlated (:func:`cluster_wilson`,
    :func:`cluster_mean_ci`); per-deal figures use plain Wilson intervals.

    Columns (each with ``_lo``/``_hi``): ``p_dealt`` (the deal alone lays the contract; per
    seat, over each hand's first deal: it needs ``play_hands(..., voids=True)`` rows, else
    NaN, since the scored attempts alone are not a random sample of deals),
    ``p_out_on_opening`` (a
    hand won by going out on the opening, doubling, R12), ``p_void`` (per attempt, R13, from
    ``attempts``: :func:`void_rate`), ``mean_attempts`` (deals until a hand is scored),
    ``loser_penalty`` (mean penalty of seats that did not go out), plus ``hands`` scored.
    How fast seats open is :func:`open_survival`'s business: a mean over the seats that
    opened ignores the ones whose hand ended first (censoring).
    """
    _rows(df, _DIFFICULTY_COLUMNS)
    out = []
    for (hand, players), d in df.groupby(["hand", "players"], sort=True):
        s = scored(d)
        per_hand = s.groupby("game")
        row = {"hand": hand, "players": players,
               "contract": contract_label(int(d["groups"].iat[0]), int(d["runs"].iat[0])),
               "hands": int(per_hand.ngroups)}
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
            ("loser_penalty", s.loc[~s["went_out"], ["penalty", "game"]]),
        ]:
            m, lo, hi, _ = cluster_mean_ci(rows.iloc[:, 0].astype(float), rows["game"])
            row.update({name: m, f"{name}_lo": lo, f"{name}_hi": hi})
        out.append(row)
    return pd.DataFrame(out)


# -- opening speed: a survival estimate ------------------------------------------------------


def open_times(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat and deal: the own turn it opened on, or the turn it was censored at.

    A seat that opened has ``time = open_turn`` and ``opened = True``. A seat whose hand ended
    before it opened (someone went out, or the deal was void, R13) is *censored* at its last own
    turn (``time = turns``, ``opened = False``): it had not opened by then, and nobody knows
    when it would have. Void attempts are deals like any other, so they are kept; rows of the
    scored attempts alone (``play_hands`` without ``voids=True``) are a biased sample of deals
    whenever a hand was replayed, and are refused.

    Returns
    -------
    pandas.DataFrame
        Columns ``hand, players, deal, time, opened``; ``deal`` numbers the (game, attempt)
        pairs of each (hand, players) cell from 0, the unit for the bootstrap.

    Raises
    ------
    ValueError
        If a hand took more deals (``attempts``) than it has rows for.
    """
    d = _rows(df, ["hand", "players", "opened", "open_turn", "void"])
    if "attempts" in d and "attempt" in d and "game" in d:
        seen = d.groupby(["hand", "players", "game"])["attempt"].nunique()
        took = d.groupby(["hand", "players", "game"])["attempts"].first()
        if (seen < took).any():
            raise ValueError("df holds only the scored deals of hands that were dealt again "
                             "(R13); give the rows of play_hands(..., voids=True), every deal "
                             "is data")
    opened = d["opened"].to_numpy(bool)
    if (~opened).any():
        _rows(d, ["turns"])
        cens = d["turns"].to_numpy(float)
    else:
        cens = np.zeros(len(d))
    ot = d["open_turn"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    time = np.where(opened, ot, cens)
    keys = [c for c in ("game", "attempt") if c in d]
    deal = (d.groupby(["hand", "players"] + keys, sort=False).ngroup().to_numpy()
            if keys else np.arange(len(d)))
    out = pd.DataFrame({"hand": d["hand"].to_numpy(), "players": d["players"].to_numpy(),
                        "deal": deal, "time": time, "opened": opened})
    # renumber the deals from 0 within each cell
    out["deal"] = out.groupby(["hand", "players"])["deal"].rank(method="dense").astype(int) - 1
    return out


def km_fit(time, opened):
    """Kaplan-Meier chance of having opened by each turn, by :func:`scipy.stats.ecdf`.

    Parameters
    ----------
    time : array of numbers
        Own turn of opening, or the last own turn of a seat censored before opening.
    opened : array of bool
        True where ``time`` is an opening, False where it is a censoring time.

    Returns
    -------
    scipy.stats._survival.ECDFResult
        ``.cdf.evaluate(t)`` is the chance of having opened by turn ``t``.

    Examples
    --------
    >>> r = km_fit([1, 2, 2, 3], [True, True, False, True])
    >>> [round(float(x), 4) for x in r.cdf.evaluate([1, 2, 3])]
    [0.25, 0.5, 1.0]
    """
    time = np.asarray(time, float)
    opened = np.asarray(opened, bool)
    data = stats.CensoredData(uncensored=time[opened], right=time[~opened])
    return stats.ecdf(data)


def _km_counts(time, opened, deal, max_turn):
    """Per-deal counts of openings ``E`` and censorings ``C`` at turns ``0..max_turn + 1``.

    Times beyond ``max_turn`` are censorings at ``max_turn + 1`` (they are at risk through the
    whole window, which is all the estimate to ``max_turn`` uses).
    """
    t = np.minimum(np.asarray(time, float), max_turn + 1).astype(int)
    ev = np.asarray(opened, bool) & (np.asarray(time) <= max_turn)
    g = int(deal.max()) + 1 if len(deal) else 0
    width = max_turn + 2
    E = np.bincount(deal[ev] * width + t[ev], minlength=g * width).reshape(g, width)
    C = np.bincount(deal[~ev] * width + t[~ev], minlength=g * width).reshape(g, width)
    return E.astype(np.float64), C.astype(np.float64)


def _km_from_counts(d, c):
    """Product-limit survival ``S(t)``, ``t = 0..`` from event and censoring counts (rows).

    The same estimator as :func:`km_fit` on the expanded data (tested), in the form the
    bootstrap replicates need: ``S(t) = prod_{s <= t} (1 - d_s / n_s)``, ``n_s`` the seats with
    time ``>= s``.
    """
    n = np.cumsum((d + c)[..., ::-1], axis=-1)[..., ::-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        h = np.where(n > 0, d / n, 0.0)
    return np.cumprod(1.0 - h, axis=-1)


def _median_turn(F, turns):
    """First turn with ``F >= 1/2`` along the last axis; ``inf`` if none (beyond the window)."""
    hit = F >= 0.5 - 1e-12
    first = np.argmax(hit, axis=-1)
    return np.where(hit.any(axis=-1), turns[first], np.inf)


def open_survival(df: pd.DataFrame, max_turn: int = 20, n_boot: int = 200, seed: int = 0,
                  return_boot: bool = False, min_at_risk: int = 20):
    """How fast seats open, censoring-aware: Kaplan-Meier curves, medians and restricted means.

    The chance ``p_opened`` that a seat has opened by its own turn ``t`` is the Kaplan-Meier
    estimate (:func:`km_fit`, :func:`scipy.stats.ecdf`) over the seats of every deal, void
    deals included; a seat whose hand ended first is censored at its last own turn
    (:func:`open_times`). It answers "had the hand gone on, how likely would I have opened by
    turn t?". Intervals are 95% percentile intervals of a bootstrap over deals (the seats of a
    deal share the cards and each other's play, so the deal is the unit), ``n_boot``
    replicates from ``seed``.

    Parameters
    ----------
    df : pandas.DataFrame
        Rows of ``play_hands(..., voids=True)`` (or ``play_games``), any hands and players.
    max_turn : int
        Last own turn of the curve and the horizon of the restricted mean (>= 1).
    n_boot : int
        Bootstrap replicates (>= 0; 0 gives NaN bounds).
    seed : int
        Seed of the bootstrap.
    return_boot : bool
        Also return ``{(hand, players): rmst replicates}`` (for :func:`rank_intervals`).
    min_at_risk : int
        The curve is left blank (NaN) from the first turn with fewer seats still at risk
        (not opened, hand not over); the median is NaN if not reached before, ``p_by`` NaN
        unless every turn to ``max_turn`` is supported, and the restricted mean NaN unless
        the unsupported tail could move it by at most 0.1 turn.

    Returns
    -------
    curve : pandas.DataFrame
        One row per (hand, players, turn), ``turn = 1..max_turn``: ``hand, players, turn,
        p_opened, lo, hi``.
    summary : pandas.DataFrame
        One row per (hand, players): ``seats, deals, opened, censored``, ``last_turn`` (the
        last supported turn, see ``min_at_risk``), ``p_last`` (``p_opened`` there),
        ``median`` (first own
        turn by which half the seats have opened; ``inf`` if after ``max_turn``), ``rmst``
        (restricted mean: expected own turns without opening up to ``max_turn``, i.e.
        ``E[min(T, max_turn)]``), ``p_by`` (``p_opened`` at ``max_turn``), each with
        ``_lo``/``_hi``.
    """
    max_turn = check_int("max_turn", max_turn, 1)
    n_boot = check_int("n_boot", n_boot, 0)
    seed = check_seed(seed)
    min_at_risk = check_int("min_at_risk", min_at_risk, 1)
    ot = open_times(df)
    rng = np.random.default_rng([seed, max_turn])
    curves, rows = [], []
    turns = np.arange(0, max_turn + 2)
    for (hand, players), d in ot.groupby(["hand", "players"], sort=True):
        fit = km_fit(d["time"], d["opened"])
        F = np.asarray(fit.cdf.evaluate(turns[1:max_turn + 1]), float)
        S_full = 1.0 - np.asarray(fit.cdf.evaluate(turns[:max_turn]), float)
        E, C = _km_counts(d["time"].to_numpy(), d["opened"].to_numpy(),
                          d["deal"].to_numpy(), max_turn)
        g = E.shape[0]
        # seats still at risk at each turn: past the last turn with enough of them the curve
        # is an extrapolation (KM stays flat), so it is left blank there
        at_risk = np.cumsum((E + C).sum(axis=0)[::-1])[::-1][1:max_turn + 1]
        ok = at_risk >= min_at_risk
        last = int(np.argmin(ok)) if not ok.all() else max_turn  # turns 1..last are supported
        boot_F = np.full((n_boot, max_turn), np.nan)
        for start in range(0, n_boot, 50):
            b = min(50, n_boot - start)
            w = np.stack([np.bincount(rng.integers(0, g, g), minlength=g) for _ in range(b)])
            S = _km_from_counts(w @ E, w @ C)
            boot_F[start:start + b] = 1.0 - S[:, 1:max_turn + 1]
        q = (2.5, 97.5)
        lo, hi = (np.nanpercentile(boot_F, q, axis=0) if n_boot else
                  (np.full(max_turn, np.nan),) * 2)
        blank = np.arange(1, max_turn + 1) > last
        curves.append(pd.DataFrame({"hand": hand, "players": players,
                                    "turn": turns[1:max_turn + 1],
                                    "p_opened": np.where(blank, np.nan, F),
                                    "lo": np.where(blank, np.nan, lo),
                                    "hi": np.where(blank, np.nan, hi)}))
        full = last == max_turn
        # the tail the data do not reach can move the restricted mean by at most
        # S(last) * (max_turn - last) turns: report it when that is below 0.1 turn
        tail = (1.0 - F[last - 1]) * (max_turn - last) if last else np.inf
        rmst = float(S_full.sum()) if tail <= 0.1 else np.nan
        med = float(_median_turn(F[:last], turns[1:last + 1])) if last else np.nan
        if not full and np.isinf(med):
            med = np.nan  # not reached where the data reach
        row = {"hand": hand, "players": players, "seats": len(d), "deals": g,
               "opened": int(d["opened"].sum()), "censored": int((~d["opened"]).sum()),
               "last_turn": last, "median": med, "rmst": rmst,
               "p_by": float(F[-1]) if full else np.nan,
               "p_last": float(F[last - 1]) if last else np.nan}
        if n_boot:
            bF = np.concatenate([np.zeros((n_boot, 1)), boot_F], axis=1)
            b_rmst = (1.0 - bF[:, :max_turn]).sum(axis=1)
            b_med = _median_turn(boot_F, turns[1:max_turn + 1])
            for name, b in (("median", b_med), ("rmst", b_rmst), ("p_by", boot_F[:, -1])):
                if np.isnan(row[name]):
                    row[f"{name}_lo"] = row[f"{name}_hi"] = np.nan
                    continue
                row[f"{name}_lo"], row[f"{name}_hi"] = (float(v) for v in
                                                        np.percentile(b, q, method="lower"))
            row["_boot_rmst"] = b_rmst
        else:
            for name in ("median", "rmst", "p_by"):
                row[f"{name}_lo"] = row[f"{name}_hi"] = np.nan
        rows.append(row)
    curve = pd.concat(curves, ignore_index=True) if curves else pd.DataFrame(
        columns=["hand", "players", "turn", "p_opened", "lo", "hi"])
    boots = {(r["hand"], r["players"]): r.pop("_boot_rmst") for r in rows if "_boot_rmst" in r}
    summary = pd.DataFrame(rows)
    if return_boot:
        return curve, summary, boots
    return curve, summary


def open_curve(df: pd.DataFrame, max_turn: int = 20, n_boot: int = 200,
               seed: int = 0) -> pd.DataFrame:
    """Censoring-aware chance of having opened by own turn ``t``: ``hand, players, turn,
    p_opened, lo, hi`` (the curve of :func:`open_survival`; ``max_turn`` an integer >= 1)."""
    return open_survival(df, max_turn, n_boot, seed)[0]


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
    """Seat 0 plays ``focal``, the others ``others``; one row per game (deal sequence).

    Game ``i`` deals the same cards in every call with the same ``seed``: its first deal,
    and, if that one is void and dealt again (R13), the same second deal, and so on (the
    streams are keyed by seed, game, hand and attempt; each seat's policy has its own
    stream). So two policies are compared on the same *deal sequence*. The outcome of a game
    is the hand as the player lives it: the deal that was finally scored, after any void ones.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``game``: ``win`` (seat 0 went out), ``penalty`` (its penalty, 0 when it
        went out), ``calls``, ``cards_left``, ``attempts`` (deals the hand took; ``attempts -
        1`` were void).
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
        "attempts": me["attempts"].astype(float),
    })


def _paired_row(prefix, d):
    """``{prefix: mean, prefix_lo, prefix_hi, prefix_p}``: paired t interval and p-value."""
    m, lo, hi, n = mean_ci(d)
    if n >= 2 and np.ptp(d) == 0:
        p = 1.0 if m == 0 else 0.0
        lo = hi = m
    elif n >= 2:
        p = float(stats.ttest_1samp(d, 0.0).pvalue)
    else:
        p = np.nan
    return {prefix: float(m), f"{prefix}_lo": float(lo), f"{prefix}_hi": float(hi),
            f"{prefix}_p": p}


def quantile_ci(x, q, conf: float = 0.95):
    """Sample quantile ``q`` of ``x`` with a distribution-free interval from order statistics.

    The interval ``[x_(l), x_(u)]`` uses the binomial count of observations below the true
    quantile (as in Conover's *Practical Nonparametric Statistics*), so it needs no
    resampling. Returns ``(quantile, lo, hi)``.

    Examples
    --------
    >>> x = np.arange(1, 1001)
    >>> quantile_ci(x, 0.5)
    (500.0, 469.0, 532.0)
    """
    conf = _check_conf(conf)
    q = check_real("q", q, 0, 1)
    x = np.sort(np.asarray(x, float))
    n = x.size
    if n == 0:
        return np.nan, np.nan, np.nan
    est = float(np.quantile(x, q, method="inverted_cdf"))
    a = (1 - conf) / 2
    lo_k = int(stats.binom.ppf(a, n, q))  # order statistics, 1-based: x_(lo_k) .. x_(hi_k)
    hi_k = int(stats.binom.ppf(1 - a, n, q)) + 1
    lo = x[lo_k - 1] if lo_k >= 1 else -np.inf
    hi = x[hi_k - 1] if hi_k <= n else np.inf
    return est, float(lo), float(hi)


def _boot_pct(x, q=(2.5, 97.5)):
    lo, hi = np.nanpercentile(x, q)
    return float(lo), float(hi)


#: penalty thresholds of the exposure table (points)
EXPOSURE_LEVELS = (100, 200)
#: quantiles of the exposure table
EXPOSURE_QUANTILES = (0.5, 0.9, 0.99)


def compare_calls(res: dict, baseline: str, hand=None, n_boot: int = 400,
                  seed: int = 0) -> pd.DataFrame:
    """Summarise :func:`focal_outcomes` tables of several policies on the same deal sequences.

    Parameters
    ----------
    res : dict
        Policy name -> the :func:`focal_outcomes` table (games as index).
    baseline : str
        The policy every difference is taken against (a key of ``res``).
    hand : int, optional
        Written to the ``hand`` column.
    n_boot, seed : int
        Bootstrap over deal sequences (the same resampled games for every policy: paired).

    Returns
    -------
    pandas.DataFrame
        One row per policy; every estimate has ``_lo``/``_hi`` (95%), and the paired
        differences to the baseline (``d_*``) a ``_p`` p-value (paired t) for Holm:

        * ``games`` (deal sequences, on which every policy played), ``calls``;
        * voids: ``attempts`` (deals per scored hand), ``p_void`` (void share of deals,
          :func:`void_rate`), ``d_attempts`` (paired), ``same_deal`` (share of games scored
          on the same deal as the baseline's);
        * ``win``, ``d_win``; ``penalty`` (mean), ``d_penalty`` (paired, points per hand),
          ``pct_penalty`` (``d_penalty`` as a percent of the baseline's mean penalty,
          bootstrap interval);
        * exposure: ``pen_sd`` (standard deviation of the penalty), ``d_pen_sd`` (paired
          bootstrap), ``pen_q50``, ``pen_q90``, ``pen_q99`` (order-statistic intervals),
          ``p_pen100``, ``p_pen200`` (chance of a penalty of at least 100 / 200 points) and
          their paired differences ``d_p_pen100``, ``d_p_pen200``;
        * ``vr_penalty``: the variance of the unpaired difference over that of the paired
          one (how much sharing the deals bought), with a bootstrap interval.
    """
    check_choice("baseline", baseline, list(res))
    n_boot = check_int("n_boot", n_boot, 0)
    seed = check_seed(seed)
    common = None
    for r in res.values():
        common = r.index if common is None else common.intersection(r.index)
    common = common.sort_values()
    res = {k: v.loc[common] for k, v in res.items()}
    base = res[baseline]
    g = len(common)
    rng = np.random.default_rng([seed, hand or 0, g])
    idx = rng.integers(0, g, (n_boot, g)) if n_boot and g else np.zeros((0, g), int)
    bp = base["penalty"].to_numpy()
    rows = []
    for name, r in res.items():
        row = {"hand": hand, "policy": name, "games": g}
        for col in ("calls", "attempts", "penalty"):
            m, lo, hi, _ = mean_ci(r[col])
            row.update({col: float(m), f"{col}_lo": float(lo), f"{col}_hi": float(hi)})
        a = r["attempts"].to_numpy()
        p_void = (a - 1).sum() / a.sum() if g else np.nan
        if g >= 2:
            se = np.sqrt(g / (g - 1) * np.sum(((a - 1) - p_void * a) ** 2)) / a.sum()
        else:
            se = np.nan
        row.update(p_void=float(p_void), p_void_lo=float(max(0.0, p_void - Z95 * se)),
                   p_void_hi=float(min(1.0, p_void + Z95 * se)))
        row.update(_paired_row("d_attempts", a - base["attempts"].to_numpy()))
        row["same_deal"] = float((a == base["attempts"].to_numpy()).mean()) if g else np.nan
        w = _prop_row(int(r["win"].sum()), g)
        row.update(win=w["p"], win_lo=w["lo"], win_hi=w["hi"])
        row.update(_paired_row("d_win", r["win"].to_numpy() - base["win"].to_numpy()))
        x = r["penalty"].to_numpy()
        row.update(_paired_row("d_penalty", x - bp))
        for q in EXPOSURE_QUANTILES:
            v, lo, hi = quantile_ci(x, q)
            k = f"pen_q{int(round(q * 100))}"
            row.update({k: v, f"{k}_lo": lo, f"{k}_hi": hi})
        for level in EXPOSURE_LEVELS:
            k = f"p_pen{level}"
            w = _prop_row(int((x >= level).sum()), g)
            row.update({k: w["p"], f"{k}_lo": w["lo"], f"{k}_hi": w["hi"]})
            row.update(_paired_row(f"d_{k}", (x >= level).astype(float)
                                   - (bp >= level).astype(float)))
        row["pen_sd"] = float(x.std(ddof=1)) if g >= 2 else np.nan
        row["d_pen_sd"] = row["pen_sd"] - float(bp.std(ddof=1)) if g >= 2 else np.nan
        vp = np.var(x - bp, ddof=1) if g >= 2 else np.nan
        vu = np.var(x, ddof=1) + np.var(bp, ddof=1) if g >= 2 else np.nan
        row["vr_penalty"] = float(vu / vp) if vp > 0 else np.nan
        bmean = bp.mean() if g else np.nan
        row["pct_penalty"] = float(100 * (x.mean() - bmean) / bmean) if bmean else np.nan
        if len(idx):
            xb, bb = x[idx], bp[idx]
            sd_x, sd_b = xb.std(axis=1, ddof=1), bb.std(axis=1, ddof=1)
            dd = xb - bb
            v_p = dd.var(axis=1, ddof=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                vr = np.where(v_p > 0, (sd_x**2 + sd_b**2) / v_p, np.nan)
                pct = 100 * dd.mean(axis=1) / bb.mean(axis=1)
            row["pen_sd_lo"], row["pen_sd_hi"] = _boot_pct(sd_x)
            row["d_pen_sd_lo"], row["d_pen_sd_hi"] = _boot_pct(sd_x - sd_b)
            if np.isfinite(vr).any():
                row["vr_penalty_lo"], row["vr_penalty_hi"] = _boot_pct(vr)
            else:
                row["vr_penalty_lo"] = row["vr_penalty_hi"] = np.nan
            row["pct_penalty_lo"], row["pct_penalty_hi"] = _boot_pct(pct)
        else:
            for k in ("pen_sd", "d_pen_sd", "vr_penalty", "pct_penalty"):
                row[f"{k}_lo"] = row[f"{k}_hi"] = np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def call_value(n, hand, policies=None, baseline="never", others="greedy", players=4, seed=0,
               threads=None, n_boot: int = 400, return_outcomes: bool = False):
    """Call policies compared on the same deal sequences, against ``baseline``.

    For each policy (a dict name -> Policy; :data:`CALL_POLICIES` by default) seat 0 plays it
    on the same ``n`` deal sequences (:func:`focal_outcomes`), the other seats ``others``;
    :func:`compare_calls` gives the table (win, penalty and its exposure, voids and deals per
    scored hand, paired differences with p-values, the variance ratio).

    ``baseline`` must be one of the names in ``policies``; it is checked before any game is
    played. With ``return_outcomes=True`` also returns the per-game tables, name -> frame.
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
    table = compare_calls(res, baseline, hand=hand, n_boot=n_boot, seed=seed)
    return (table, res) if return_outcomes else table


def call_games(policies=None, games: int = 1000, field="greedy", players: int = 4,
               seed: int = 0, threads=None) -> pd.DataFrame:
    """Whole nine-hand games: each call policy against a field, seat-rotated, shared deals.

    For every policy a duplicate tournament (:func:`kalooki_sim.tournament` with
    ``paired=True``) puts it at a table with ``players - 1`` seats of ``field``; every
    policy's tournament uses the same ``seed``, so all play the same deal sequences.

    Returns
    -------
    pandas.DataFrame
        One row per policy: ``policy, games, win_share, rel_total`` (game total minus the
        table's mean; lower is better), ``calls_per_hand``, ``void_per_hand`` and
        ``d_win_share`` (its win share minus a field seat's, paired over deal sequences), each
        with ``_lo``/``_hi`` (95%, deal sequence as the unit); ``fair`` is ``1 / players``.
    """
    from .tournament import tournament

    if policies is None:
        policies = CALL_POLICIES
    if not isinstance(policies, dict) or not policies:
        raise TypeError(not_allowed("policies", policies,
                                    "a non-empty dict of name -> Policy or preset name, or None"))
    rows = []
    fname = preset(field).name
    for name, pol in policies.items():
        p = preset(pol)
        if p.name == fname:
            raise ValueError(f"policy {name!r} is the field {field!r}; compare it with another "
                             "field")
        t, pairs = tournament([p] + [field] * (players - 1), games=games, players=players,
                              seed=seed, threads=threads, paired=True)
        me = t.set_index("policy").loc[p.name]
        row = {"policy": name, "games": int(me["games"]), "fair": 1 / players}
        for m in ("win_share", "rel_total", "calls_per_hand", "void_per_hand"):
            row.update({m: me[m], f"{m}_lo": me[f"{m}_lo"], f"{m}_hi": me[f"{m}_hi"]})
        pr = pairs.iloc[0]
        sign = 1 if pr["policy_a"] == p.name else -1
        lo, hi = sign * pr["d_win_share_lo"], sign * pr["d_win_share_hi"]
        row.update(d_win_share=sign * pr["d_win_share"], d_win_share_lo=min(lo, hi),
                   d_win_share_hi=max(lo, hi))
        rows.append(row)
    return pd.DataFrame(rows)


# -- multiplicity and ranks ------------------------------------------------------------------


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (controls the familywise error).

    The ``i``-th smallest of ``m`` p-values is multiplied by ``m - i + 1``, made
    non-decreasing in that order and capped at 1; reject where the adjusted value is below the
    level. NaN p-values are left out of the family and stay NaN.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(pvalues, float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    out[order] = adj
    return out


def sign_claims(names, estimate, pvalues, alpha: float = 0.05) -> dict:
    """Which of a family of differences are below / above zero, Holm-adjusted.

    Returns ``{"lower": [...], "higher": [...], "unclear": [...]}``: a name is ``lower`` when
    its Holm-adjusted p-value is below ``alpha`` and its estimate is negative.
    """
    alpha = check_real("alpha", alpha, 0, 1, open_lo=True, open_hi=True)
    adj = holm(pvalues)
    est = np.asarray(estimate, float)
    out = {"lower": [], "higher": [], "unclear": []}
    for name, e, p in zip(names, est, adj, strict=True):
        key = "unclear" if not (p < alpha) else ("lower" if e < 0 else "higher")
        out[key].append(name)
    return out


def bootstrap_means(samples: dict, n_boot: int = 1000, seed: int = 0) -> dict:
    """Bootstrap replicates of the mean of each sample (one value per deal), independently.

    ``samples`` maps a name to a 1-D array of per-deal values (0/1 for a proportion), or to a
    number (an exact value, repeated). Returns name -> ``n_boot`` replicate means.
    """
    n_boot = check_int("n_boot", n_boot, 1)
    rng = np.random.default_rng(check_seed(seed))
    out = {}
    for name, x in samples.items():
        x = np.asarray(x, float)
        if x.ndim == 0:
            out[name] = np.full(n_boot, float(x))
            continue
        if x.size and set(np.unique(x)) <= {0.0, 1.0}:
            out[name] = rng.binomial(x.size, x.mean(), n_boot) / x.size
        else:
            out[name] = np.array([x[rng.integers(0, x.size, x.size)].mean()
                                  for _ in range(n_boot)])
    return out


def rank_intervals(estimates: dict, draws: dict, higher_first: bool = True,
                   conf: float = 0.95) -> pd.DataFrame:
    """Simultaneous confidence intervals for ranks, from bootstrap replicates.

    Each replicate ranks the items (1 = largest if ``higher_first``, else smallest); an item's
    rank interval holds the central ``1 - (1 - conf) / K`` of its replicate ranks (Bonferroni
    over the ``K`` items, so all intervals hold together). Say an item is "the most" only when
    it is the only one whose interval contains rank 1.

    Returns
    -------
    pandas.DataFrame
        ``item, estimate, rank, rank_lo, rank_hi``, sorted by ``rank``.

    Examples
    --------
    >>> hits = {"a": np.r_[np.ones(300), np.zeros(700)], "b": np.r_[np.ones(200), np.zeros(800)],
    ...         "c": np.r_[np.ones(195), np.zeros(805)]}   # 30%, 20%, 19.5% of 1,000 deals
    >>> draws = bootstrap_means(hits, n_boot=1000, seed=1)
    >>> r = rank_intervals({k: v.mean() for k, v in hits.items()}, draws)
    >>> r[["item", "rank_lo", "rank_hi"]].values.tolist()
    [['a', 1, 1], ['b', 2, 3], ['c', 2, 3]]
    """
    conf = _check_conf(conf)
    names = list(estimates)
    if not names:
        return pd.DataFrame(columns=["item", "estimate", "rank", "rank_lo", "rank_hi"])
    est = np.array([estimates[k] for k in names], float)
    B = np.column_stack([np.asarray(draws[k], float) for k in names])
    sgn = -1.0 if higher_first else 1.0
    ranks = stats.rankdata(sgn * B, axis=1, method="min")
    a = (1 - conf) / len(names) / 2
    lo = np.quantile(ranks, a, axis=0, method="lower").astype(int)
    hi = np.quantile(ranks, 1 - a, axis=0, method="higher").astype(int)
    point = stats.rankdata(sgn * est, method="min").astype(int)
    out = pd.DataFrame({"item": names, "estimate": est, "rank": point, "rank_lo": lo,
                        "rank_hi": hi})
    return out.sort_values(["rank", "item"], kind="stable").reset_index(drop=True)


def first_set(ranks: pd.DataFrame) -> list:
    """The items a :func:`rank_intervals` table cannot rule out of first place."""
    return ranks.loc[ranks["rank_lo"] == 1, "item"].tolist()


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


def confidence_sequence(hits, alpha: float = 0.05, rho: float | None = None,
                        points: int = 60) -> pd.DataFrame:
    """Running estimate of a proportion with a pointwise Wilson band and a confidence sequence.

    The pointwise 95% interval promises: *at each fixed* number of trials, fixed in advance,
    it covers the true value with probability 95%. Watched as it grows, the same running
    interval misses *somewhere* far more often, and once it misses it tends to stay out for a
    while (successive estimates share most of their data). A confidence sequence covers the
    true value at *every* number of trials at once with probability ``1 - alpha``, so it may
    be watched and stopped at will; it is wider. Here the normal-mixture boundary of Robbins
    (1970), as in Howard, Ramdas, McAuliffe and Sekhon (2021, Annals of Statistics 49(2),
    eq. 14), for 0/1 trials (sub-Gaussian with variance 1/4):
    ``|mean - p| <= sqrt((t/4 + rho) * log((t/4 + rho) / (rho * alpha**2))) / t``.

    Parameters
    ----------
    hits : 1-D array of bool
        The trials in order.
    alpha : float
        1 minus the confidence level, 0 < alpha < 1.
    rho : float, optional
        The mixture's tuning; by default tight near ``t = N / 10`` (``rho = N / 40``).
    points : int
        Log-spaced checkpoints (as :func:`convergence`).

    Returns
    -------
    pandas.DataFrame
        :func:`convergence`'s ``n, p, lo, hi`` (Wilson, pointwise) plus ``cs_lo, cs_hi``.

    Examples
    --------
    >>> cs = confidence_sequence(np.ones(400, bool), points=3)
    >>> bool((cs["cs_lo"] <= cs["lo"]).all()), float(cs["cs_hi"].iat[-1])
    (True, 1.0)
    """
    alpha = check_real("alpha", alpha, 0, 1, open_lo=True, open_hi=True)
    out = convergence(hits, points=points)
    N = int(np.asarray(hits).size)
    rho = check_real("rho", rho, 0, open_lo=True) if rho is not None else max(N / 40, 1.0)
    t = out["n"].to_numpy(float)
    v = t / 4 + rho
    half = np.sqrt(v * np.log(v / (rho * alpha**2))) / t
    out["cs_lo"] = np.clip(out["p"] - half, 0, 1)
    out["cs_hi"] = np.clip(out["p"] + half, 0, 1)
    return out


# -- the deal: one seat, and some seat at the table ------------------------------------------


def p_dealt_table(n: int = 1_000_000, seed: int = 0, rules=None, hands=None,
                  return_samples: bool = False):
    """Chance that one seat's deal alone lays its contract, once per contract.

    A seat's deal does not depend on the table size (it is ``cards`` cards from the same
    pack), so there is one number per contract: exact (:func:`p_deal_lays_groups`) for the
    contracts of groups only, otherwise from ``n`` simulated deals (:func:`simulate_deals`,
    Wilson interval; each contract its own stream ``seed + hand``).

    Returns
    -------
    pandas.DataFrame
        ``hand, contract, cards, method ("exact"/"simulated"), p_dealt, lo, hi, deals``; with
        ``return_samples=True`` also name -> per-deal 0/1 array (or the exact value), for
        :func:`bootstrap_means`.
    """
    rules = as_rules(rules)
    n = check_int("n", n, 1)
    seed = check_seed(seed)
    hands = range(1, rules.hands + 1) if hands is None else hands
    rows, samples = [], {}
    for h in hands:
        cards, g, r = rules.deal(h)
        label = contract_label(g, r)
        if r == 0:
            p = float(p_deal_lays_groups(g, cards, rules))
            rows.append({"hand": h, "contract": label, "cards": cards, "method": "exact",
                         "p_dealt": p, "lo": p, "hi": p, "deals": np.nan})
            samples[h] = p
        else:
            hits = simulate_deals(n, (g, r), cards, seed=seed + h, rules=rules)
            p, lo, hi = wilson(int(hits.sum()), n)
            rows.append({"hand": h, "contract": label, "cards": cards, "method": "simulated",
                         "p_dealt": p, "lo": lo, "hi": hi, "deals": n})
            samples[h] = hits
    out = pd.DataFrame(rows)
    return (out, samples) if return_samples else out


def contract_label(groups: int, runs: int) -> str:
    """Human label of a contract: ``contract_label(3, 1) == "3 groups + 1 run"``.

    Examples
    --------
    >>> contract_label(3, 0), contract_label(1, 2), contract_label(0, 4)
    ('3 groups', '1 group + 2 runs', '4 runs')
    """
    parts = []
    if groups:
        parts.append(f"{groups} group{'s' * (groups != 1)}")
    if runs:
        parts.append(f"{runs} run{'s' * (runs != 1)}")
    return " + ".join(parts) or "nothing"


def p_some_seat_dealt(df: pd.DataFrame) -> pd.DataFrame:
    """Chance that *some* seat at the table is dealt its contract, per hand and player count.

    Over every deal in ``df`` (each (game, attempt); rows of ``play_hands(..., voids=True)``,
    or of hands that took one deal): a deal counts when any seat's ``dealt_meets_contract``.
    Wilson intervals over deals. Returns ``hand, players, p_any, lo, hi, deals``.
    """
    d = _rows(df, ["hand", "players", "game", "attempt", "attempts", "dealt_meets_contract"])
    seen = d.groupby(["hand", "players", "game"])["attempt"].nunique()
    took = d.groupby(["hand", "players", "game"])["attempts"].first()
    if (seen < took).any():
        raise ValueError("df holds only the scored deals of hands that were dealt again (R13); "
                         "give the rows of play_hands(..., voids=True)")
    per = d.groupby(["hand", "players", "game", "attempt"])["dealt_meets_contract"].any()
    rows = []
    for (h, p), x in per.groupby(level=["hand", "players"]):
        r = _prop_row(int(x.sum()), len(x))
        rows.append({"hand": h, "players": p, "p_any": r["p"], "lo": r["lo"], "hi": r["hi"],
                     "deals": r["n"]})
    return pd.DataFrame(rows)


def draws_from_interval(est, lo, hi, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    """Normal draws matching a 95% interval: ``est + se * z`` with ``se = (hi - lo) / 3.92``.

    For :func:`rank_intervals` over estimates that come from independent runs when only their
    intervals are at hand (a parametric bootstrap). An exact value (``lo == hi``) is constant.
    """
    n_boot = check_int("n_boot", n_boot, 1)
    rng = np.random.default_rng(check_seed(seed))
    se = (float(hi) - float(lo)) / (2 * Z95)
    return float(est) + (se if np.isfinite(se) else 0.0) * rng.standard_normal(n_boot)


def join_words(items, empty: str = "none") -> str:
    """``'1, 2 and 3'`` for a list; ``empty`` for none.

    Examples
    --------
    >>> join_words([7, 9]), join_words([1, 2, 3]), join_words([])
    ('7 and 9', '1, 2 and 3', 'none')
    """
    items = [str(x) for x in items]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def first_phrase(ranks: pd.DataFrame, noun: str = "hand", nouns: str | None = None) -> str:
    """What a :func:`rank_intervals` table allows one to say about first place.

    ``'hand 7'`` when one item alone can be first; otherwise ``'one of hands 7 and 9 (their
    rank intervals overlap: no single one is clearly first)'``.
    """
    first = sorted(first_set(ranks), key=str)
    if len(first) == 1:
        return f"{noun} {first[0]}"
    return (f"one of {nouns or noun + 's'} {join_words(first)} (their rank intervals "
            "overlap: no single one is clearly first)")
