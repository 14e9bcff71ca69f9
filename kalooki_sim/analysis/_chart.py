"""The call chart a player can keep (issues 18, 28): what a call (or a take) is worth against
the table, by what a player sees at the table, one verdict per cell.

A cell is one contract x decision (take / call) x cards needed before -> after the card x
cards left in the stock (a band) x whether any opponent has opened. Its value is the mean
paired ``d_relative`` of :func:`kalooki_sim.call_decisions` rows (points against the table,
act minus pass, R12/R14), beside the seat's own ``d_penalty`` and its chance to go out first.

The chart is built from **sufficient statistics** (:func:`chart_stats`): per cell the counts,
sums and the cluster terms of the deal-clustered variance. They add up over runs of disjoint
deals, so a study can be made once in chunks, resumed, kept as a small CSV
(:func:`write_chart_stats`), and the chart rebuilt from it in a second.

Exposed as :func:`kalooki_sim.analysis.call_chart` and friends.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import check_columns, check_int, check_real, not_allowed
from ..engine.charts import (  # noqa: F401 (their one home)
    CUT_LEVEL,
    NEED_CAP,
    NEED_LEVELS,
    STOCK_BANDS,
    VERDICTS,
)
from ._calls import THIN_DEALS, _deal_ids

#: the chart's columns, in order (``reports/call_chart.csv``)
CALL_CHART_COLUMNS = ("hand", "decision", "needed_before", "needed_after", "stock_band",
                      "opponents_opened", "decisions", "deals", "d_relative", "d_relative_lo",
                      "d_relative_hi", "d_penalty", "d_penalty_lo", "d_penalty_hi", "d_out",
                      "verdict")

#: what identifies a cell
CELL_KEYS = ["hand", "decision", "needed_before", "needed_after", "stock_band",
             "opponents_opened"]

#: the measures a cell sums: paired differences act minus pass (points against the table, own
#: points, went out first, went out on the opening and doubled the table)
MEASURES = ("d_relative", "d_penalty", "d_out", "d_doubler")

#: the sufficient statistics of a cell, after :data:`CELL_KEYS`: ``decisions``, ``deals``,
#: ``n_sq`` (sum over deals of the deal's decisions squared), ``taken`` (decisions where the
#: policy acted), and per measure ``x``: ``x_sum`` (sum), ``x_csq`` (sum over deals of the
#: deal's sum squared), ``x_cn`` (sum over deals of the deal's sum times its decisions)
STATS_COLUMNS = tuple(CELL_KEYS + ["decisions", "deals", "n_sq", "taken"]
                      + [f"{m}_{s}" for m in MEASURES for s in ("sum", "csq", "cn")])

#: points against the table inside which a decision "makes no difference" (verdict "either")
EITHER_POINTS = 2.0

#: the verdicts that decide
DECIDED = ("call", "pass", "take", "draw", "either")
_NOT_ACT = {"call": "pass", "take": "draw"}


def stock_band(stock_left) -> pd.Categorical:
    """The :data:`STOCK_BANDS` label of each count of cards left in the stock, as an ordered
    categorical (``"40+"`` first: the order of play).

    Examples
    --------
    >>> stock_band([71, 40, 20, 9, 0]).tolist()
    ['40+', '40+', '20-39', '0-19', '0-19']
    """
    s = np.asarray(stock_left, dtype=float)
    bad = ~np.isfinite(s) | (s < 0)
    if bad.any():
        raise ValueError(not_allowed("stock_left", s[bad][0],
                                     "whole counts of cards left in the stock, 0 or more"))
    labels = np.empty(s.shape, dtype=object)
    for name, (lo, hi) in STOCK_BANDS.items():
        labels[(s >= lo) & (s <= hi)] = name
    return pd.Categorical(labels, categories=list(STOCK_BANDS), ordered=True)


def need_level(needed, name: str = "needed_after", before=None) -> pd.Categorical:
    """The :data:`NEED_LEVELS` label of each count of cards needed: ``0``..``5``, ``"6+"``
    from :data:`NEED_CAP` on, ``"cannot lay it"`` for ``<NA>``; an ordered categorical.
    With ``before`` (the counts before the card), a count of 6 or more below its ``before``
    is ``"6+ (cut)"``: the card helped a hand that still needs many.

    Examples
    --------
    >>> need_level(pd.array([0, 2, 7, None], dtype="Int16")).tolist()
    ['0', '2', '6+', 'cannot lay it']
    >>> need_level(pd.array([7, 7, 5], dtype="Int16"), before=pd.array([8, 7, 6],
    ...            dtype="Int16")).tolist()
    ['6+ (cut)', '6+', '5']
    """
    v = _counts(needed, name)
    labels = np.where(np.isnan(v), "cannot lay it",
                      np.where(v >= NEED_CAP, f"{NEED_CAP}+",
                               np.nan_to_num(v).astype(int).astype(str)))
    if before is not None:
        b = _counts(before, "needed_before")
        with np.errstate(invalid="ignore"):
            labels = np.where((v >= NEED_CAP) & (v < b), CUT_LEVEL, labels)
    return pd.Categorical(labels, categories=list(NEED_LEVELS), ordered=True)


def _counts(needed, name) -> np.ndarray:
    s = pd.array(needed, dtype="Float64")
    if ((s < 0).fillna(False)).any():
        raise ValueError(not_allowed(name, s[(s < 0).fillna(False)][0],
                                     "cards still needed, 0 or more, or <NA>"))
    return s.to_numpy(dtype=float, na_value=np.nan)


def _cells(decisions: pd.DataFrame) -> pd.DataFrame:
    """Decision rows keyed by cell and deal, with the measures (checked)."""
    check_columns("decisions", decisions, ["hand", "game", "attempt", "decision",
                                           "needed_before", "needed_after", "stock_left",
                                           "opponents_opened", "taken", *MEASURES])
    kinds = set(pd.unique(decisions["decision"].astype(object)))
    if not kinds <= {"take", "call"}:
        raise ValueError(not_allowed("decision", sorted(kinds - {"take", "call"}, key=str)[0],
                                     '"take" or "call"'))
    d = pd.DataFrame({
        "hand": decisions["hand"].to_numpy().astype(np.int64),
        "decision": pd.Categorical(decisions["decision"].astype(object),
                                   categories=["take", "call"]),
        "needed_before": need_level(decisions["needed_before"], "needed_before"),
        "needed_after": need_level(decisions["needed_after"],
                                   before=decisions["needed_before"]),
        "stock_band": stock_band(decisions["stock_left"]),
        "opponents_opened": decisions["opponents_opened"].to_numpy() > 0,
        "_deal": _deal_ids(decisions),
        "taken": decisions["taken"].to_numpy().astype(np.int64),
    })
    for m in MEASURES:
        v = decisions[m].to_numpy(float)
        if not np.isfinite(v).all():
            raise ValueError(not_allowed(m, v[~np.isfinite(v)][0],
                                         "finite values (act minus pass)"))
        d[m] = v
    return d


def chart_stats(decisions: pd.DataFrame) -> pd.DataFrame:
    """The sufficient statistics of the chart's cells (:data:`STATS_COLUMNS`) from
    :func:`kalooki_sim.call_decisions` rows.

    Statistics of runs on disjoint deals add up (:func:`merge_chart_stats`) to those of the
    rows together, exactly: a deal's decisions are all in one run.

    Examples
    --------
    >>> rows = pd.DataFrame({"hand": 1, "game": [0, 0, 1], "attempt": 0, "decision": "call",
    ...     "needed_before": 1, "needed_after": 0, "stock_left": 45, "opponents_opened": 0,
    ...     "taken": [1, 0, 1], "d_relative": [-3.0, -1.0, -2.0], "d_penalty": -4.0,
    ...     "d_out": 0.0, "d_doubler": 0.0})
    >>> s = chart_stats(rows)
    >>> s.loc[0, ["decisions", "deals", "n_sq", "taken"]].tolist()
    [3, 2, 5, 2]
    >>> s.loc[0, ["d_relative_sum", "d_relative_csq", "d_relative_cn"]].tolist()
    [-6.0, 20.0, -10.0]
    """
    d = _cells(decisions)
    per = d.groupby(CELL_KEYS + ["_deal"], observed=True, sort=False)
    g = per[list(MEASURES)].sum()
    g["n"] = per.size()
    g["taken"] = per["taken"].sum()
    out = pd.DataFrame(index=g.index)
    out["n_sq"] = g["n"] ** 2
    for m in MEASURES:
        out[f"{m}_sum"] = g[m]
        out[f"{m}_csq"] = g[m] ** 2
        out[f"{m}_cn"] = g[m] * g["n"]
    out["decisions"] = g["n"]
    out["deals"] = 1
    out["taken"] = g["taken"]
    s = out.groupby(level=CELL_KEYS, observed=True, sort=True).sum().reset_index()
    return _typed_stats(s[list(STATS_COLUMNS)])


def _typed_stats(s: pd.DataFrame) -> pd.DataFrame:
    s = s.copy()
    s["hand"] = s["hand"].astype(np.int64)
    s["decision"] = pd.Categorical(s["decision"].astype(str), categories=["take", "call"])
    for k in ("needed_before", "needed_after"):
        s[k] = pd.Categorical(s[k].astype(str), categories=list(NEED_LEVELS), ordered=True)
    s["stock_band"] = pd.Categorical(s["stock_band"].astype(str), categories=list(STOCK_BANDS),
                                     ordered=True)
    s["opponents_opened"] = s["opponents_opened"].astype(str).str.lower().isin(["true", "1"])
    for c in ("decisions", "deals", "n_sq", "taken"):
        s[c] = s[c].astype(np.int64)
    for c in STATS_COLUMNS[len(CELL_KEYS) + 4:]:
        s[c] = s[c].astype(np.float64)
    return s.sort_values(CELL_KEYS, kind="stable").reset_index(drop=True)


def merge_chart_stats(parts) -> pd.DataFrame:
    """The sum of several :func:`chart_stats` tables (runs of disjoint deals), cell by cell.

    Examples
    --------
    >>> rows = pd.DataFrame({"hand": 1, "game": [0, 1], "attempt": 0, "decision": "take",
    ...     "needed_before": 2, "needed_after": 2, "stock_left": 30, "opponents_opened": 1,
    ...     "taken": 0, "d_relative": [1.0, 2.0], "d_penalty": 1.0, "d_out": 0.0,
    ...     "d_doubler": 0.0})
    >>> both = merge_chart_stats([chart_stats(rows[:1]), chart_stats(rows[1:])])
    >>> both.equals(chart_stats(rows))
    True
    """
    parts = [p for p in parts if p is not None and len(p)]
    if not parts:
        return _typed_stats(pd.DataFrame(columns=list(STATS_COLUMNS)))
    for i, p in enumerate(parts):
        check_columns(f"parts[{i}]", p, list(STATS_COLUMNS))
    allp = pd.concat([_typed_stats(p[list(STATS_COLUMNS)]) for p in parts], ignore_index=True)
    s = allp.groupby(CELL_KEYS, observed=True, sort=True).sum().reset_index()
    return _typed_stats(s[list(STATS_COLUMNS)])


def _moments(s: pd.DataFrame, m: str):
    """Mean, standard error (deal-clustered, the ratio estimator's) and deals of measure ``m``
    per row of sufficient statistics ``s``."""
    n = s["decisions"].to_numpy(float)
    g = s["deals"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s[f"{m}_sum"].to_numpy(float) / n
        ss = (s[f"{m}_csq"].to_numpy(float) - 2 * mean * s[f"{m}_cn"].to_numpy(float)
              + mean**2 * s["n_sq"].to_numpy(float))
        var = g / (g - 1) * np.maximum(ss, 0.0) / n**2
    var[g < 2] = np.nan
    return mean, np.sqrt(var), g


def decision_pvalues(mean, se, deals, either: float = EITHER_POINTS) -> np.ndarray:
    """Per cell, the smallest ``alpha`` at which the cell's two-sided ``1 - alpha`` t interval
    (``deals - 1`` degrees of freedom) decides it: excludes zero, or lies inside
    ``[-either, either]``. The p-values :func:`call_chart` feeds to its false-coverage
    adjustment.

    Examples
    --------
    >>> decision_pvalues([-6.0, 0.1, 3.0], [1.0, 0.5, 3.0], [400, 400, 400]).round(4).tolist()
    [0.0, 0.0002, 0.3179]
    """
    mean, se = np.asarray(mean, float), np.asarray(se, float)
    df = np.maximum(np.asarray(deals, float) - 1, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z_sign = np.abs(mean) / se
        z_eq = (either - np.abs(mean)) / se
    p_sign = np.where(np.isfinite(z_sign), 2 * stats.t.sf(z_sign, df),
                      np.where((se == 0) & (mean != 0), 0.0, 1.0))
    p_eq = np.where(np.abs(mean) < either,
                    np.where(np.isfinite(z_eq), 2 * stats.t.sf(z_eq, df),
                             np.where(se == 0, 0.0, 1.0)), 1.0)
    p = np.minimum(p_sign, p_eq)
    p[~np.isfinite(mean) | ~(se >= 0)] = 1.0
    return np.clip(p, 0.0, 1.0)


def fcr_level(pvalues, q: float = 0.05) -> tuple[float, int]:
    """Benjamini–Yekutieli's false coverage-statement rate: with ``R`` cells selected by the
    Benjamini–Hochberg step-up at ``q`` on ``pvalues``, every interval is built at level
    ``1 - R q / m`` (``m`` cells); then among the selected cells the expected share whose
    interval misses its true value is at most ``q`` (independent cells). Returns
    ``(level, R)``; with no cell selected, the Bonferroni level ``1 - q / m``.

    Examples
    --------
    >>> fcr_level([0.001, 0.01, 0.04, 0.5], 0.05)
    (0.975, 2)
    """
    p = np.sort(np.asarray(pvalues, float))
    m = p.size
    if m == 0:
        return 1 - q, 0
    ok = np.flatnonzero(p <= q * np.arange(1, m + 1) / m)
    r = int(ok[-1]) + 1 if ok.size else 0
    return 1 - max(r, 1) * q / m, r


def call_chart(data: pd.DataFrame, min_deals: int = THIN_DEALS, q: float = 0.05,
               either: float = EITHER_POINTS) -> pd.DataFrame:
    """The call chart: what a call (or a take) is worth against the table, per cell, with a
    verdict a reader can check against the cell's own interval.

    Each cell holds the decisions of one contract and kind (``take``/``call``) with the same
    cards needed before and after the card (:func:`need_level`), :func:`stock_band` and
    whether any opponent had opened. Its value ``d_relative`` is the mean paired difference in
    points against the table (the seat's penalty minus the mean penalty of all seats, doubles
    counted: what decides a game, R12, R14), act minus pass, so below zero acting gains;
    beside it the seat's own ``d_penalty`` and ``d_out`` (change in the chance to go out
    first). Intervals are t intervals clustered by deal (a deal's decisions share its cards,
    ``(hand, game, attempt)`` is the unit), **adjusted over the chart's cells** by
    Benjamini–Yekutieli's false coverage-statement rate (:func:`fcr_level`): each cell's
    decision p-value (:func:`decision_pvalues`) goes into a Benjamini–Hochberg step-up at
    ``q`` over all cells with at least ``min_deals`` deals; with ``R`` of ``m`` selected, every
    published interval (``d_relative`` and ``d_penalty``) has level ``1 - R q / m``. Among
    the decided cells the expected share of intervals that miss their true value is then at
    most ``q``.

    Verdict, read from the published ``d_relative_lo``/``_hi``: ``call`` (``take``) when
    ``hi < 0``; ``pass`` (``draw``) when ``lo > 0``; ``either`` when
    ``-either <= lo and hi <= either`` (it makes no difference) and zero is inside;
    ``unsure`` otherwise; ``""`` (blank) with fewer than ``min_deals`` deals.

    Parameters
    ----------
    data : DataFrame
        :func:`kalooki_sim.call_decisions` rows (one contract or several), or their
        :func:`chart_stats` (e.g. :func:`read_chart_stats` of a study).
    min_deals : int
        Fewest deals a cell needs for a verdict (at least 2).
    q : float
        False coverage-statement rate, in (0, 1).
    either : float
        Points against the table inside which acting or not "makes no difference" (> 0).

    Returns
    -------
    DataFrame
        One row per cell, columns :data:`CALL_CHART_COLUMNS`, sorted by the cell keys; the
        attributes ``attrs["level"]``, ``attrs["selected"]``, ``attrs["family"]`` give the
        interval level and the counts behind it.

    Examples
    --------
    >>> rows = pd.DataFrame({"hand": 1, "game": range(40), "attempt": 0, "decision": "call",
    ...     "needed_before": 1, "needed_after": 0, "stock_left": 55, "opponents_opened": 0,
    ...     "taken": 1, "d_relative": [-10.0, -6.0] * 20, "d_penalty": -4.0, "d_out": 0.1,
    ...     "d_doubler": 0.0})
    >>> c = call_chart(rows)
    >>> c[["needed_before", "needed_after", "stock_band", "deals", "d_relative", "verdict"]
    ...   ].values.tolist()
    [['1', '0', '40+', 40, -8.0, 'call']]
    >>> call_chart(rows, min_deals=50)["verdict"].tolist()
    ['']
    """
    min_deals = check_int("min_deals", min_deals, 2)
    q = check_real("q", q, 0, 1, open_lo=True, open_hi=True)
    either = check_real("either", either, 0, open_lo=True)
    if not isinstance(data, pd.DataFrame):
        raise TypeError(not_allowed("data", type(data).__name__,
                                    "a DataFrame of call_decisions rows or chart_stats"))
    s = (_typed_stats(data[list(STATS_COLUMNS)]) if set(STATS_COLUMNS) <= set(data.columns)
         else chart_stats(data))
    mean, se, g = _moments(s, "d_relative")
    pmean, pse, _ = _moments(s, "d_penalty")
    omean, _, _ = _moments(s, "d_out")
    enough = g >= min_deals
    p = decision_pvalues(mean, se, g, either)
    level, selected = fcr_level(p[enough], q)
    with np.errstate(invalid="ignore"):
        t = stats.t.ppf(0.5 + level / 2, np.maximum(g - 1, 1))
    out = s[CELL_KEYS].copy()
    out["decisions"] = s["decisions"].to_numpy()
    out["deals"] = s["deals"].to_numpy()
    out["d_relative"] = mean
    out["d_relative_lo"] = mean - t * se
    out["d_relative_hi"] = mean + t * se
    out["d_penalty"] = pmean
    out["d_penalty_lo"] = pmean - t * pse
    out["d_penalty_hi"] = pmean + t * pse
    out["d_out"] = omean
    out["verdict"] = verdicts(out, min_deals, either)
    out = out[list(CALL_CHART_COLUMNS)].reset_index(drop=True)
    out.attrs.update(level=float(level), selected=int(selected), family=int(enough.sum()), q=q,
                     either=either, min_deals=min_deals)
    return out


def verdicts(chart: pd.DataFrame, min_deals: int = THIN_DEALS,
             either: float = EITHER_POINTS) -> np.ndarray:
    """The verdict of each chart row, read from its own ``d_relative_lo``/``_hi`` (see
    :func:`call_chart`): a reader can check every verdict by eye.

    Examples
    --------
    >>> c = pd.DataFrame({"decision": ["call", "take", "call", "take"], "deals": 50,
    ...                   "d_relative_lo": [-9.0, 1.0, -1.5, -4.0],
    ...                   "d_relative_hi": [-2.0, 5.0, 1.0, 3.0]})
    >>> verdicts(c).tolist()
    ['call', 'draw', 'either', 'unsure']
    """
    lo = chart["d_relative_lo"].to_numpy(float)
    hi = chart["d_relative_hi"].to_numpy(float)
    act = chart["decision"].astype(str).to_numpy()
    out = np.full(len(chart), "unsure", dtype=object)
    not_act = np.array([_NOT_ACT.get(a, "pass") for a in act], dtype=object)
    inside = (lo >= -either) & (hi <= either)
    out[inside] = "either"
    out[hi < 0] = act[hi < 0]
    out[lo > 0] = not_act[lo > 0]
    out[~(chart["deals"].to_numpy() >= min_deals)] = ""
    return out


def decided_share(chart: pd.DataFrame, by: str | None = None):
    """The share of decisions that fall in decided cells (call, pass, take, draw or either)
    over all decisions of the chart (blank cells count as undecided); per ``by`` (e.g.
    ``"hand"``) as a Series when given.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": [1, 1, 2], "decisions": [90, 10, 50],
    ...                   "verdict": ["pass", "unsure", ""]})
    >>> decided_share(c)
    0.6
    >>> decided_share(c, "hand").tolist()
    [0.9, 0.0]
    """
    check_columns("chart", chart, ["decisions", "verdict"])
    ok = chart["verdict"].fillna("").astype(str).isin(DECIDED)
    w = chart["decisions"].astype(float)
    if by is None:
        total = w.sum()
        return float((w * ok).sum() / total) if total else float("nan")
    num = (w * ok).groupby(chart[by]).sum()
    return num / w.groupby(chart[by]).sum()


# -- the committed statistics: a CSV with a provenance header -----------------------------------


def write_chart_stats(stats_: pd.DataFrame, path, provenance: dict) -> Path:
    """Write sufficient statistics as CSV with ``# key: value`` provenance lines on top (the
    command, commit, machine, wall time ...); :func:`read_chart_stats` reads both back."""
    path = Path(path)
    check_columns("stats", stats_, list(STATS_COLUMNS))
    head = "".join(f"# {k}: {str(v).replace(chr(10), ' ')}\n" for k, v in provenance.items())
    body = stats_[list(STATS_COLUMNS)].to_csv(index=False, float_format="%.17g")
    path.write_text(head + body, encoding="utf-8")
    return path


def read_chart_stats(path) -> tuple[pd.DataFrame, dict]:
    """``(stats, provenance)`` from a CSV written by :func:`write_chart_stats`.

    Examples
    --------
    >>> import tempfile, os
    >>> rows = pd.DataFrame({"hand": 2, "game": [0, 1], "attempt": 0, "decision": "call",
    ...     "needed_before": 2, "needed_after": 1, "stock_left": 10, "opponents_opened": 0,
    ...     "taken": 1, "d_relative": [1.0, 2.0], "d_penalty": 1.5, "d_out": 0.0,
    ...     "d_doubler": 0.0})
    >>> p = os.path.join(tempfile.mkdtemp(), "s.csv")
    >>> _ = write_chart_stats(chart_stats(rows), p, {"command": "kalooki call-chart"})
    >>> s, prov = read_chart_stats(p)
    >>> prov["command"], s.equals(chart_stats(rows))
    ('kalooki call-chart', True)
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no call-chart statistics at {str(path)!r}; run "
                                "`kalooki call-chart --deals N --out DIR` (or `make study`)")
    text = path.read_text(encoding="utf-8")
    prov, body = {}, []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") and not body:
            k, _, v = line[1:].strip().partition(":")
            prov[k.strip()] = v.strip()
        else:
            body.append(line)
    s = pd.read_csv(io.StringIO("".join(body)), dtype={"needed_before": str,
                                                       "needed_after": str})
    check_columns(str(path), s, list(STATS_COLUMNS))
    return _typed_stats(s), prov


def chart_agreement(base: pd.DataFrame, rerun: pd.DataFrame, conf: float = 0.95
                    ) -> pd.DataFrame:
    """Cell by cell, does a re-run (other deals) agree with a chart? For the cells both charts
    decide or call unsure (not blank): ``inside``, the re-run's ``d_relative`` lies within
    ``base``'s interval; ``diff_ok``, their difference lies within its own ``conf`` t interval
    (each side's standard error recovered from its interval at the chart's level); ``flip``,
    one says act where the other says not. Returns the matched cells with those flags.

    Examples
    --------
    >>> a = pd.DataFrame({"hand": 1, "decision": "call", "needed_before": "1",
    ...     "needed_after": "0", "stock_band": "40+", "opponents_opened": False,
    ...     "deals": 400, "decisions": 900, "d_relative": -10.0, "d_relative_lo": -14.0,
    ...     "d_relative_hi": -6.0, "verdict": "call"}, index=[0])
    >>> b = a.assign(d_relative=-7.0, d_relative_lo=-11.0, d_relative_hi=-3.0)
    >>> chart_agreement(a, b)[["inside", "diff_ok", "flip"]].values.tolist()
    [[True, True, False]]
    """
    conf = check_real("conf", conf, 0, 1, open_lo=True, open_hi=True)
    cols = CELL_KEYS + ["decisions", "deals", "d_relative", "d_relative_lo", "d_relative_hi",
                        "verdict"]
    for name, c in (("base", base), ("rerun", rerun)):
        check_columns(name, c, cols)

    def norm(c):
        c = c[cols].copy()
        for k in ("decision", "needed_before", "needed_after", "stock_band"):
            c[k] = c[k].astype(str)
        c["opponents_opened"] = c["opponents_opened"].astype(str).str.lower().isin(
            ["true", "1"])
        c["verdict"] = c["verdict"].fillna("").astype(str)
        return c[c["verdict"] != ""]

    a, b = norm(base), norm(rerun)
    m = a.merge(b, on=CELL_KEYS, suffixes=("", "_rerun"))

    def se(c, sfx, lvl):
        half = (c[f"d_relative_hi{sfx}"] - c[f"d_relative_lo{sfx}"]) / 2
        lv = lvl if np.isfinite(lvl) else 0.95
        return half / stats.t.ppf(0.5 + lv / 2, np.maximum(c[f"deals{sfx}"] - 1, 1))

    s = np.sqrt(se(m, "", base.attrs.get("level", np.nan)) ** 2
                + se(m, "_rerun", rerun.attrs.get("level", np.nan)) ** 2)
    t = stats.t.ppf(0.5 + conf / 2, np.maximum(np.minimum(m["deals"], m["deals_rerun"]) - 1, 1))
    m["inside"] = ((m["d_relative_rerun"] >= m["d_relative_lo"])
                   & (m["d_relative_rerun"] <= m["d_relative_hi"]))
    m["diff_ok"] = (m["d_relative"] - m["d_relative_rerun"]).abs() <= t * s
    acts = {"call", "take"}
    nots = {"pass", "draw"}
    m["flip"] = ((m["verdict"].isin(acts) & m["verdict_rerun"].isin(nots))
                 | (m["verdict"].isin(nots) & m["verdict_rerun"].isin(acts)))
    return m.reset_index(drop=True)


# -- the chart a player follows: package data of the engine --------------------------


def write_play_chart(stats_: pd.DataFrame, path, provenance: dict,
                     min_deals: int = THIN_DEALS) -> pd.DataFrame:
    """Write the chart the ``chart`` preset plays: :func:`call_chart` of the statistics
    ``stats_`` (its every column, one row per cell), with ``# key: value`` provenance lines
    on top (the statistics' own, and how the chart was made); returns the chart.

    ``kalooki_sim/engine/chart.csv`` is made so from the committed statistics
    (``kalooki_sim/analysis/call_chart_stats.csv``); a test holds the two together.
    """
    chart = call_chart(stats_, min_deals=min_deals)
    head = dict(provenance)
    head["chart"] = (f"kalooki_sim.analysis.call_chart(statistics, min_deals={min_deals}): "
                     f"intervals at level {chart.attrs['level']:.4f}, "
                     f"{decided_share(chart):.4f} of the decisions decided")
    lines = "".join(f"# {k}: {str(v).replace(chr(10), ' ')}\n" for k, v in head.items())
    Path(path).write_text(lines + chart.to_csv(index=False, float_format="%.6g"),
                          encoding="utf-8")
    return chart


_ACTS = ("call", "take")
_NOTS = ("pass", "draw")


def verdict_flips(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Cell by cell, how a chart's verdicts changed from one round of its fixed point to the
    next: per contract, the share of ``after``'s decisions in cells whose verdict
    turned from act to not act or back (``flipped``), in cells that were decided in one and
    not the other (``decided_changed``), and the decided share of each. A cell missing from
    a chart is blank there.

    Examples
    --------
    >>> k = {"hand": 1, "decision": "call", "needed_after": "0", "stock_band": "40+",
    ...      "opponents_opened": False}
    >>> a = pd.DataFrame([k | {"needed_before": "1", "decisions": 10, "verdict": "call"},
    ...                   k | {"needed_before": "2", "decisions": 30, "verdict": "pass"}])
    >>> b = a.assign(decisions=[40, 60], verdict=["pass", "pass"])
    >>> f = verdict_flips(a, b).iloc[0]
    >>> int(f["hand"]), int(f["decisions"]), float(f["flipped"])
    (1, 100, 0.4)
    """
    cols = CELL_KEYS + ["decisions", "verdict"]
    check_columns("before", before, cols)
    check_columns("after", after, cols)

    def norm(c):
        c = c[cols].copy()
        for k in ("decision", "needed_before", "needed_after", "stock_band"):
            c[k] = c[k].astype(str)
        c["hand"] = c["hand"].astype(int)
        c["opponents_opened"] = c["opponents_opened"].astype(str).str.lower().isin(
            ["true", "1"])
        c["verdict"] = c["verdict"].fillna("").astype(str)
        return c

    m = norm(after).merge(norm(before).drop(columns="decisions"), on=CELL_KEYS, how="left",
                          suffixes=("", "_before"))
    m["verdict_before"] = m["verdict_before"].fillna("")
    v, w = m["verdict"], m["verdict_before"]
    m["flip"] = (v.isin(_ACTS) & w.isin(_NOTS)) | (v.isin(_NOTS) & w.isin(_ACTS))
    m["dchange"] = v.isin(DECIDED) != w.isin(DECIDED)
    m["dec_now"] = v.isin(DECIDED)
    m["dec_before"] = w.isin(DECIDED)
    n = m["decisions"].astype(float)
    g = pd.DataFrame({"n": n, "flip": n * m["flip"], "dchange": n * m["dchange"],
                      "dn": n * m["dec_now"], "db": n * m["dec_before"]}).groupby(
                          m["hand"]).sum()
    out = pd.DataFrame({"hand": g.index.astype(int), "decisions": g["n"].astype(int),
                        "flipped": g["flip"] / g["n"], "decided_changed": g["dchange"] / g["n"],
                        "decided_before": g["db"] / g["n"], "decided_after": g["dn"] / g["n"]})
    return out.reset_index(drop=True)
