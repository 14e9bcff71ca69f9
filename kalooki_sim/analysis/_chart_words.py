"""The call chart in words (issue 28): a rule of thumb per contract built from the chart's
verdicts, the reasons (the opening double; own points against points against the table), and
the share of decisions the chart decides. Every number comes from the chart or its statistics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..game._checks import check_columns
from ._chart import (
    DECIDED,
    NEED_LEVELS,
    STOCK_BANDS,
    _moments,
    _typed_stats,
    decided_share,
)
from ._words import fixed

#: how the card changes the cards still needed, in the rule's order
CHANGES = ("completes", "cuts", "no help", "cannot lay")
_CHANGE_WORDS = {"completes": "one that completes the contract",
                 "cuts": "one that cuts the need",
                 "no help": "one that does not help",
                 "cannot lay": "any while the contract cannot be laid"}
_VERBS = {"call": "call", "pass": "pass on", "take": "take", "draw": "draw, not take,",
          "either": "either way on"}


def change_of(needed_before, needed_after) -> np.ndarray:
    """What the card does to the cards still needed (:data:`CHANGES`), from the chart's need
    levels: ``completes`` (after is 0, before was not), ``cuts``, ``no help`` (the same count,
    0 -> 0 included: the contract was complete without it) or ``cannot lay`` (no card that can
    still come lays the contract, even with this one).

    Examples
    --------
    >>> change_of(["1", "2", "4+", "0", "cannot lay it"], ["0", "1", "4+", "0", "cannot lay it"]
    ...           ).tolist()
    ['completes', 'cuts', 'no help', 'no help', 'cannot lay']
    """
    order = {lv: i for i, lv in enumerate(NEED_LEVELS)}
    b = np.array([order[str(x)] for x in needed_before])
    a = np.array([order[str(x)] for x in needed_after])
    cannot = order["cannot lay it"]
    out = np.where((a == 0) & (b > 0), "completes",
                   np.where(a == cannot, "cannot lay",
                            np.where((a < b) | (b == cannot), "cuts", "no help")))
    return out.astype(object)


def _fmt(v: float) -> str:
    """``-15.23 -> '−15.2'``, ``3 -> '+3.0'``: one decimal, signed, a true minus."""
    return fixed(v, 1, signed=True)


def _bands_words(bands, everywhere) -> str:
    order = list(STOCK_BANDS)
    bands = [b for b in order if b in bands]
    if set(bands) >= set(everywhere):
        return ""
    return ", " + " or ".join(b.replace("-", "–") for b in bands) + " cards left"


def _opened_words(opened, everywhere) -> str:
    if set(opened) >= set(everywhere) or len(set(opened)) != 1:
        return ""
    return ", once an opponent opened" if next(iter(opened)) else ", nobody opened yet"


def rule_table(chart: pd.DataFrame) -> pd.DataFrame:
    """The rule of thumb as a table: per contract, decision, :func:`change_of` and verdict,
    the decided cells that say it (``cells``, ``decisions``), their decision-weighted mean
    ``d_relative`` and the span of their intervals (``lo`` = lowest ``d_relative_lo``, ``hi`` =
    highest ``d_relative_hi``), and where they lie (``where``: stock bands and openings, named
    only when the other cells of the same change say something else). Unsure and blank cells
    say nothing here: they are never read as "pass".

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 1, "decision": "call", "needed_before": ["1", "1", "2"],
    ...     "needed_after": ["0", "0", "2"], "stock_band": ["40+", "0-19", "40+"],
    ...     "opponents_opened": False, "decisions": [100, 50, 300],
    ...     "d_relative": [-10.0, -4.0, 6.0], "d_relative_lo": [-14.0, -7.0, 3.0],
    ...     "d_relative_hi": [-6.0, -1.0, 9.0], "verdict": ["call", "call", "pass"]})
    >>> rule_table(c)[["change", "verdict", "cells", "d_relative", "lo", "hi"]].values.tolist()
    [['completes', 'call', 2, -8.0, -14.0, -1.0], ['no help', 'pass', 1, 6.0, 3.0, 9.0]]
    """
    check_columns("chart", chart, ["hand", "decision", "needed_before", "needed_after",
                                   "stock_band", "opponents_opened", "decisions", "d_relative",
                                   "d_relative_lo", "d_relative_hi", "verdict"])
    c = chart.copy()
    c["verdict"] = c["verdict"].fillna("").astype(str)
    c = c[c["verdict"].isin(DECIDED)]
    c["change"] = change_of(c["needed_before"], c["needed_after"])
    c["decision"] = c["decision"].astype(str)
    c["stock_band"] = c["stock_band"].astype(str)
    rows = []
    for (h, dec, ch), g in c.groupby(["hand", "decision", "change"], sort=False):
        for v, gv in g.groupby("verdict", sort=False):
            w = gv["decisions"].to_numpy(float)
            rows.append({
                "hand": int(h), "decision": dec, "change": ch, "verdict": v,
                "cells": len(gv), "decisions": int(w.sum()),
                "d_relative": float(np.average(gv["d_relative"], weights=w)),
                "lo": float(gv["d_relative_lo"].min()), "hi": float(gv["d_relative_hi"].max()),
                "where": _bands_words(set(gv["stock_band"]), set(g["stock_band"]))
                + _opened_words(set(gv["opponents_opened"].astype(bool)),
                                set(g["opponents_opened"].astype(bool)))})
    cols = ["hand", "decision", "change", "verdict", "cells", "decisions", "d_relative", "lo",
            "hi", "where"]
    t = pd.DataFrame(rows, columns=cols)
    if t.empty:
        return t
    t["_d"] = t["decision"].map({"call": 0, "take": 1})
    t["_c"] = t["change"].map({k: i for i, k in enumerate(CHANGES)})
    t = t.sort_values(["hand", "_d", "_c", "decisions"], ascending=[True, True, True, False])
    return t.drop(columns=["_d", "_c"]).reset_index(drop=True)


def _clauses(t: pd.DataFrame, decision: str) -> list[str]:
    """``"call if it completes the contract (−19.3 [−23.8, −5.8]) or it cuts ..."`` per
    verdict of one decision kind, verdicts in the order of the most decisions."""
    t = t[t["decision"] == decision]
    out = []
    order = t.groupby("verdict", sort=False)["decisions"].sum().sort_values(ascending=False)
    for v in order.index:
        g = t[t["verdict"] == v]
        what = " or ".join(f"{_CHANGE_WORDS[r.change]}{r.where} ({_fmt(r.d_relative)} "
                           f"[{_fmt(r.lo)}, {_fmt(r.hi)}])" for r in g.itertuples())
        out.append(f"{_VERBS[v]} {what}")
    return out


def call_rule(chart: pd.DataFrame, hand: int, contract: str | None = None) -> str:
    r"""One contract's rule of thumb, from the verdicts of :func:`call_chart` rows: each clause
    is what a group of decided cells says, with its number (points against the table, act minus
    pass, the cells' mean weighted by decisions) and the span of the cells' intervals; then the
    share of the contract's decisions the chart leaves undecided.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 1, "decision": ["call", "call", "take"],
    ...     "needed_before": ["1", "2", "1"], "needed_after": ["0", "2", "1"],
    ...     "stock_band": "40+", "opponents_opened": False, "decisions": [100, 300, 100],
    ...     "d_relative": [-10.0, 6.0, 0.5], "d_relative_lo": [-14.0, 3.0, -3.0],
    ...     "d_relative_hi": [-6.0, 9.0, 4.0], "verdict": ["call", "pass", "unsure"]})
    >>> print(call_rule(c, 1, "2 groups").replace("; ", ";\n"))
    Hand 1 (2 groups): pass on one that does not help (+6.0 [+3.0, +9.0]);
    call one that completes the contract (−10.0 [−14.0, −6.0]). Undecided: 20% of its decisions.
    """
    check_columns("chart", chart, ["hand", "decisions", "verdict"])
    name = f"Hand {int(hand)}" + (f" ({contract})" if contract else "")
    mine = chart[chart["hand"] == hand]
    if mine.empty:
        return f"{name}: no decisions in the chart."
    t = rule_table(mine)
    share = decided_share(mine)
    tail = f"Undecided: {1 - share:.0%} of its decisions."
    if t.empty:
        return f"{name}: no cell is decided yet. {tail}"
    calls, takes = _clauses(t, "call"), _clauses(t, "take")
    text = "; ".join(calls)
    if takes:
        text += (". Next in turn: " if calls else "Next in turn: ") + "; ".join(takes)
    return f"{name}: {text}. {tail}"


def decided_sentence(chart: pd.DataFrame) -> str:
    r"""How much of the chart is decided, overall and per contract (lowest and highest).

    Examples
    --------
    >>> c = pd.DataFrame({"hand": [1, 1, 2], "decisions": [90, 10, 50],
    ...                   "verdict": ["pass", "unsure", "either"]})
    >>> print(decided_sentence(c).replace(": ", ":\n"))
    The chart decides 93% of the 150 decisions (call, pass, take, draw or either):
    from 90% in hand 1 to 100% in hand 2.
    """
    share = decided_share(chart, "hand")
    lo, hi = share.idxmin(), share.idxmax()
    return (f"The chart decides {decided_share(chart):.0%} of the "
            f"{int(chart['decisions'].sum()):,} decisions (call, pass, take, draw or either): "
            f"from {share[lo]:.0%} in hand {lo} to {share[hi]:.0%} in hand {hi}.")


def why_line(chart: pd.DataFrame, stats_: pd.DataFrame, hand: int) -> str:
    """Why, for one contract, with numbers: how a call that completes the contract changes the
    caller's chance of going out on the opening (which doubles every other seat, R12), in its
    largest such cell where nobody has opened yet (else its largest); and the cells where own
    points and points against the table point different ways (both decided, opposite signs),
    with the largest of them.

    ``stats_``: the :func:`chart_stats` the chart was built from (for ``d_doubler``); the
    intervals are at the chart's own level (``chart.attrs["level"]``, 95% if absent).
    """
    check_columns("chart", chart, ["hand", "decision", "needed_after", "d_penalty_lo",
                                   "d_penalty_hi", "d_relative_lo", "d_relative_hi"])
    level = float(chart.attrs.get("level", 0.95))
    parts = []
    s = _typed_stats(stats_[stats_["hand"] == hand])
    s = s[(s["decision"].astype(str) == "call") & (s["needed_after"].astype(str) == "0")]
    if len(s):
        # where nobody has opened the double is still to be had: its largest such cell first
        fresh = ~s["opponents_opened"].to_numpy(bool)
        pool = np.flatnonzero(fresh) if fresh.any() else np.arange(len(s))
        k = int(pool[np.argmax(s["decisions"].to_numpy()[pool])])
        m, se, g = _moments(s.iloc[[k]], "d_doubler")
        if np.isfinite(se[0]):
            t = stats.t.ppf(0.5 + level / 2, max(g[0] - 1, 1))
            r = s.iloc[k]
            parts.append(
                f"a call that completes the contract changes your chance of going out on the "
                f"opening, which doubles every other seat (R12), by "
                f"{_fmt(100 * m[0])} percentage points [{_fmt(100 * (m[0] - t * se[0]))}, "
                f"{_fmt(100 * (m[0] + t * se[0]))}] (its largest cell: needing "
                f"{r['needed_before']} before, {r['stock_band'].replace('-', '–')} cards in "
                f"the stock, {'an opponent opened' if r['opponents_opened'] else 'nobody opened'})")
    c = chart[chart["hand"] == hand]
    own_act = c["d_penalty_hi"] < 0
    own_not = c["d_penalty_lo"] > 0
    tab_act = c["d_relative_hi"] < 0
    tab_not = c["d_relative_lo"] > 0
    split = c[(own_act & tab_not) | (own_not & tab_act)]
    if len(split):
        r = split.loc[split["decisions"].idxmax()]
        dec = str(r["decision"])
        own = dec if r["d_penalty_hi"] < 0 else ("pass" if dec == "call" else "draw")
        tab = dec if r["d_relative_hi"] < 0 else ("pass" if dec == "call" else "draw")
        parts.append(
            f"in {len(split)} cell{'s' * (len(split) != 1)} ({int(split['decisions'].sum()):,} "
            f"decisions) your own points and points against the table disagree, e.g. "
            f"{dec}s needing {r['needed_before']} → {r['needed_after']}: own points say {own} "
            f"({_fmt(r['d_penalty'])} [{_fmt(r['d_penalty_lo'])}, {_fmt(r['d_penalty_hi'])}]), "
            f"the table says {tab} ({_fmt(r['d_relative'])} [{_fmt(r['d_relative_lo'])}, "
            f"{_fmt(r['d_relative_hi'])}])")
    else:
        parts.append("wherever both are decided, your own points and points against the table "
                     "agree")
    return f"Hand {int(hand)}, why: " + "; ".join(parts) + "."


def agreement_sentence(agreement: pd.DataFrame, command: str) -> str:
    r"""How a re-run on other deals agrees with the chart, from
    :func:`kalooki_sim.analysis.chart_agreement` rows (``command``: the re-run's own).

    Examples
    --------
    >>> ag = pd.DataFrame({"decisions": [300, 100], "inside": [True, False],
    ...                    "diff_ok": [True, True], "flip": [False, False]})
    >>> print(agreement_sentence(ag, "kalooki call-chart --hand 5").replace("; ", ";\n")
    ...       .replace("cells: ", "cells:\n"))
    A re-run on other deals (`kalooki call-chart --hand 5`) matches 2 of the chart's cells:
    its estimate lies inside the chart's interval in 50% of them (75% of their decisions;
    about 84% is expected of a re-run as large as the study);
    the two differ by less than their own 95% interval in 100%;
    no verdict turns from act to not act or back.
    """
    check_columns("agreement", agreement, ["decisions", "inside", "diff_ok", "flip"])
    n = len(agreement)
    w = agreement["decisions"].astype(float)
    inside_w = float((w * agreement["inside"]).sum() / w.sum()) if n else float("nan")
    flips = int(agreement["flip"].sum())
    flip = ("no verdict turns from act to not act or back" if flips == 0 else
            f"{flips} verdict{'s' * (flips != 1)} turn{'s' * (flips == 1)} from act to not "
            "act or back")
    return (f"A re-run on other deals (`{command}`) matches {n} of the chart's cells: its "
            f"estimate lies inside the chart's interval in {agreement['inside'].mean():.0%} of "
            f"them ({inside_w:.0%} of their decisions; about 84% is expected of a re-run as "
            f"large as the study); the two differ by less than their own 95% interval in "
            f"{agreement['diff_ok'].mean():.0%}; {flip}.")
