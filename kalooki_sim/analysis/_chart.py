"""The call chart a player can keep (issue 18): the value of a call (and of a take) by the
cards still needed after it and the cards left in the stock, one verdict per cell.

Exposed as :func:`kalooki_sim.analysis.call_chart`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..game._checks import check_choice, check_columns, check_int, check_real, not_allowed
from ._calls import THIN_DEALS, _deal_ids
from ._intervals import cluster_mean_ci
from ._multiplicity import _holm, p_from_ci

#: the CSV's columns, in order
CALL_CHART_COLUMNS = ("hand", "decision", "needed_after", "stock_band", "decisions", "deals",
                      "d_penalty", "d_penalty_lo", "d_penalty_hi", "verdict")

#: bands of cards left in the stock, from a full stock (early in the hand) to an empty one:
#: label -> (lowest, highest) cards left, both included
STOCK_BANDS = {"50+": (50, 10_000), "35-49": (35, 49), "20-34": (20, 34), "10-19": (10, 19),
               "0-9": (0, 9)}

#: the levels of cards still needed after the card, in order: 0 (the card completes the
#: contract) to 3, then 4 or more, then "cannot lay it" (no card that can still come lays it)
NEED_LEVELS = ("0", "1", "2", "3", "4+", "cannot lay it")
#: needed_after at or above this is "4+"
NEED_CAP = 4

#: what a cell says: act ("call" or "take"), "pass", "unsure", or "too few" (blank)
VERDICTS = ("call", "take", "pass", "unsure", "too few")


def stock_band(stock_left) -> pd.Categorical:
    """The :data:`STOCK_BANDS` label of each count of cards left in the stock, as an ordered
    categorical (``"50+"`` first: the order of play).

    Examples
    --------
    >>> stock_band([71, 40, 20, 9, 0]).tolist()
    ['50+', '35-49', '20-34', '0-9', '0-9']
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


def need_level(needed_after) -> pd.Categorical:
    """The :data:`NEED_LEVELS` label of each ``needed_after``: ``0``..``3``, ``"4+"`` from
    :data:`NEED_CAP` on, ``"cannot lay it"`` for ``<NA>``; an ordered categorical.

    Examples
    --------
    >>> need_level(pd.array([0, 2, 7, None], dtype="Int16")).tolist()
    ['0', '2', '4+', 'cannot lay it']
    """
    s = pd.array(needed_after, dtype="Float64")
    if ((s < 0).fillna(False)).any():
        raise ValueError(not_allowed("needed_after", s[(s < 0).fillna(False)][0],
                                     "cards still needed, 0 or more, or <NA>"))
    v = s.to_numpy(dtype=float, na_value=np.nan)
    labels = np.where(np.isnan(v), "cannot lay it",
                      np.where(v >= NEED_CAP, f"{NEED_CAP}+",
                               np.nan_to_num(v).astype(int).astype(str)))
    return pd.Categorical(labels, categories=list(NEED_LEVELS), ordered=True)


def call_chart(decisions: pd.DataFrame, min_deals: int = THIN_DEALS, adjust: str = "holm",
               alpha: float = 0.05) -> pd.DataFrame:
    """The call chart: what a call (or a take) is worth, by the cards still needed after it
    and the cards left in the stock, with a verdict per cell.

    Each cell holds the decisions of one contract and kind (``call`` or ``take``) with the
    same :func:`need_level` of ``needed_after`` (0-3, ``"4+"``, ``"cannot lay it"``) and
    :func:`stock_band` of ``stock_left`` (``"50+"``, ``"35-49"``, ``"20-34"``, ``"10-19"``,
    ``"0-9"``). Its value is the mean paired ``d_penalty`` (points, act minus pass: below
    zero, acting saved points) with a 95% t interval clustered by deal (the unit is the deal,
    ``(hand, game, attempt)``: a deal's decisions share its cards, so many decisions of one
    deal count as one deal, :func:`cluster_mean_ci`).

    Verdict: ``"call"`` (``"take"`` for a take) when acting clearly saves points, ``"pass"``
    when it clearly costs them, ``"unsure"`` otherwise, ``"too few"`` (left blank on the
    chart) when fewer than ``min_deals`` deals contribute. With ``adjust="holm"`` (default)
    "clearly" is a sign claim that survives Holm's adjustment over the cells of one chart (one
    contract and kind, the cells with enough deals), each cell's p-value recovered from its
    interval (:func:`p_from_ci`): so a cell whose own interval just excludes zero may still
    be ``"unsure"``. With ``adjust=None`` it is the cell's interval alone lying wholly below
    (or above) zero.

    Parameters
    ----------
    decisions : DataFrame
        Rows of :func:`kalooki_sim.call_decisions`, of one contract or several: at least
        ``hand, game, attempt, decision, needed_after, stock_left, d_penalty``.
    min_deals : int
        Fewest deals a cell needs for a verdict (at least 2).
    adjust : {"holm", None}
        Adjust the sign claims over each chart's family of cells, or not.
    alpha : float
        Familywise error level of the Holm-adjusted claims (``adjust="holm"``), in (0, 1).

    Returns
    -------
    DataFrame
        One row per cell with at least one decision, columns :data:`CALL_CHART_COLUMNS`
        (``hand, decision, needed_after, stock_band, decisions, deals, d_penalty,
        d_penalty_lo, d_penalty_hi, verdict``), sorted by hand, decision (take, call), cards
        needed and stock band (full stock first); ``needed_after`` and ``stock_band`` are
        ordered categoricals.

    Raises
    ------
    ValueError
        If a column is missing, a value is out of range, or ``min_deals`` / ``adjust`` /
        ``alpha`` is not allowed.

    Examples
    --------
    >>> rows = pd.DataFrame({"hand": 1, "game": range(40), "attempt": 0, "decision": "call",
    ...                      "needed_after": 1, "stock_left": 55,
    ...                      "d_penalty": [-10.0, -6.0] * 20})
    >>> c = call_chart(rows)
    >>> c[["needed_after", "stock_band", "deals", "d_penalty", "verdict"]].values.tolist()
    [['1', '50+', 40, -8.0, 'call']]
    >>> call_chart(rows, min_deals=50)["verdict"].tolist()
    ['too few']
    """
    check_columns("decisions", decisions, ["hand", "game", "attempt", "decision",
                                           "needed_after", "stock_left", "d_penalty"])
    min_deals = check_int("min_deals", min_deals, 2)
    adjust = check_choice("adjust", adjust, ("holm", None))
    alpha = check_real("alpha", alpha, 0, 1, open_lo=True, open_hi=True)
    kinds = set(pd.unique(decisions["decision"].astype(object)))
    if not kinds <= {"take", "call"}:
        raise ValueError(not_allowed("decision", sorted(kinds - {"take", "call"}, key=str)[0],
                                     '"take" or "call"'))
    d = pd.DataFrame({
        "hand": decisions["hand"].to_numpy(),
        "decision": pd.Categorical(decisions["decision"].astype(object),
                                   categories=["take", "call"]),
        "needed_after": need_level(decisions["needed_after"]),
        "stock_band": stock_band(decisions["stock_left"]),
        "d_penalty": decisions["d_penalty"].to_numpy(float),
        "_deal": _deal_ids(decisions),
    })
    if not np.isfinite(d["d_penalty"]).all():
        raise ValueError(not_allowed("d_penalty", d["d_penalty"][~np.isfinite(d["d_penalty"])]
                                     .iloc[0], "finite points (act minus pass)"))
    keys = ["hand", "decision", "needed_after", "stock_band"]
    rows = []
    for key, g in d.groupby(keys, observed=True, sort=True):
        m, lo, hi, n = cluster_mean_ci(g["d_penalty"].to_numpy(), g["_deal"].to_numpy())
        rows.append(dict(zip(keys, key, strict=True), decisions=n,
                         deals=int(g["_deal"].nunique()), d_penalty=float(m),
                         d_penalty_lo=float(lo), d_penalty_hi=float(hi)))
    out = pd.DataFrame(rows, columns=list(CALL_CHART_COLUMNS[:-1]))
    for col in ("decision", "needed_after", "stock_band"):
        out[col] = pd.Categorical(out[col], categories=d[col].cat.categories,
                                  ordered=d[col].cat.ordered)
    out["verdict"] = _verdicts(out, min_deals, adjust, alpha)
    return out.reset_index(drop=True)


def _verdicts(cells: pd.DataFrame, min_deals: int, adjust, alpha: float) -> np.ndarray:
    """One verdict per row of ``cells``; Holm runs within each (hand, decision) chart."""
    verdict = np.full(len(cells), "too few", dtype=object)
    enough = (cells["deals"] >= min_deals).to_numpy()
    est = cells["d_penalty"].to_numpy(float)
    lo, hi = cells["d_penalty_lo"].to_numpy(float), cells["d_penalty_hi"].to_numpy(float)
    act = cells["decision"].astype(str).to_numpy()
    if adjust == "holm":
        clear = np.zeros(len(cells), bool)
        chart = cells.groupby(["hand", "decision"], observed=True, sort=False).ngroup()
        for k in np.unique(chart):
            i = np.flatnonzero((chart == k).to_numpy() & enough)
            if i.size:
                clear[i] = _holm(np.asarray(p_from_ci(est[i], lo[i], hi[i]), float)
                                 .reshape(-1)) < alpha
        below, above = clear & (est < 0), clear & (est > 0)
    else:
        below, above = hi < 0, lo > 0
    verdict[enough] = "unsure"
    verdict[enough & below] = act[enough & below]
    verdict[enough & above] = "pass"
    return verdict
