"""Call value against penalty exposure: call policies on the same deal sequences (voids and
attempts kept), paired differences, exposure quantiles, whole-game results.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import (
    check_choice,
    check_columns,
    check_int,
    check_seed,
    not_allowed,
)
from ..engine.play import play_hands
from ..engine.policies import Policy, preset
from ..game.rules import Rules, as_rules
from ._difficulty import scored
from ._intervals import (
    _boot_pct,
    _prop_row,
    cluster_mean_ci,
    mean_ci,
    quantile_ci,
    wilson_of_sums,
)

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
        # void deals among each sequence's deals: Wilson's interval with the sequence as the
        # cluster (a normal one reached below 0 with one void seen)
        p_void, lo, hi = wilson_of_sums(a - 1, a)
        row.update(p_void=float(p_void), p_void_lo=float(lo), p_void_hi=float(hi))
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
    from ..studies.tournament import tournament

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


# -- summaries of call_decisions --------------------------------------------------------------

#: a cell of a call-value map with fewer decisions, or fewer deals, is marked thin
THIN_DECISIONS = 200
THIN_DEALS = 30


def _deal_ids(d: pd.DataFrame) -> np.ndarray:
    """One id per deal: ``(hand, game, attempt)`` (the hand where present, since tables of
    several contracts reuse game numbers)."""
    keys = [k for k in ("hand", "game", "attempt") if k in d.columns]
    return d.groupby(keys, sort=False, observed=True).ngroup().to_numpy()


def value_map(decisions: pd.DataFrame, by, decision="call") -> pd.DataFrame:
    """Mean paired values of one kind of decision per cell of ``by``, with 95% intervals.

    The unit is the deal: a deal's decisions share its cards, so the intervals are
    cluster-robust by ``(game, attempt)`` (:func:`kalooki_sim.analysis.cluster_mean_ci`).

    Parameters
    ----------
    decisions : DataFrame
        Rows of :func:`kalooki_sim.call_decisions`.
    by : str or list of str
        Columns (or binned columns) to group by, e.g. ``["needed_before", "needed_after"]``.
    decision : {"call", "take", None}
        Only this kind of decision (None: both).

    Returns
    -------
    DataFrame
        One row per cell: the ``by`` columns, ``decisions``, ``deals``, ``d_penalty``,
        ``d_penalty_lo``, ``d_penalty_hi``, ``d_out`` (and ``_lo``/``_hi``), ``taken`` (the
        share the policy took), ``thin`` (fewer than :data:`THIN_DECISIONS` decisions or
        :data:`THIN_DEALS` deals: too thin to trust).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> d = ks.call_decisions(20, hand=1, policies="greedy", seed=2)
    >>> m = value_map(d, "needed_after", decision=None)
    >>> bool((m["d_penalty_lo"] <= m["d_penalty_hi"]).all() or m["thin"].any())
    True
    """
    check_choice("decision", decision, ("call", "take", None))
    by = [by] if isinstance(by, str) else list(by)
    check_columns("decisions", decisions, by + ["game", "attempt", "d_penalty", "d_out",
                                                "decision", "taken"])
    d = decisions if decision is None else decisions[decisions["decision"] == decision]
    rows = []
    for key, g in d.groupby(by, observed=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        cl = _deal_ids(g)
        row = dict(zip(by, key, strict=True))
        row["decisions"] = len(g)
        row["deals"] = int(len(np.unique(cl)))
        for col in ("d_penalty", "d_out"):
            m, lo, hi, _ = cluster_mean_ci(g[col].to_numpy(float), cl)
            row.update({col: m, f"{col}_lo": lo, f"{col}_hi": hi})
        row["taken"] = float(g["taken"].mean())
        row["thin"] = row["decisions"] < THIN_DECISIONS or row["deals"] < THIN_DEALS
        rows.append(row)
    cols = by + ["decisions", "deals", "d_penalty", "d_penalty_lo", "d_penalty_hi", "d_out",
                 "d_out_lo", "d_out_hi", "taken", "thin"]
    return pd.DataFrame(rows, columns=cols)


def variance_ratio(decisions: pd.DataFrame, column="penalty", boot=200, seed=0) -> dict:
    """How much the pairing sharpens a decision's value: ``(var(act) + var(pass)) /
    var(act - pass)``, the variance of an unpaired difference over the paired one, with a
    bootstrap 95% interval over deals (percentile; resampling whole deals).

    Returns a dict ``ratio, lo, hi, decisions, deals``.
    """
    check_columns("decisions", decisions, ["game", "attempt", f"{column}_act",
                                           f"{column}_pass"])
    boot = check_int("boot", boot, 10)
    a = decisions[f"{column}_act"].to_numpy(float)
    b = decisions[f"{column}_pass"].to_numpy(float)
    cl = _deal_ids(decisions)

    def ratio(idx):
        x, y = a[idx], b[idx]
        dv = np.var(x - y, ddof=1)
        return (np.var(x, ddof=1) + np.var(y, ddof=1)) / dv if dv > 0 else np.nan

    r = ratio(np.arange(len(a)))
    groups = [np.flatnonzero(cl == k) for k in range(cl.max() + 1)] if len(cl) else []
    rng = np.random.default_rng(seed)
    reps = []
    for _ in range(boot):
        pick = rng.integers(0, len(groups), len(groups))
        reps.append(ratio(np.concatenate([groups[k] for k in pick])))
    lo, hi = (np.nanpercentile(reps, [2.5, 97.5]) if len(groups) > 1 else (np.nan, np.nan))
    return {"ratio": float(r), "lo": float(lo), "hi": float(hi), "decisions": len(a),
            "deals": len(groups)}
