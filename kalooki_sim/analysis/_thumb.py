"""Rules of thumb the chart agrees with: a few clauses per contract, each a
condition a player can check at the table and the chart's verdict wherever it holds.

A clause is a row of :data:`~kalooki_sim.engine.charts.RULE_COLUMNS`: the contract and kind
(take or call), the verdict (act or not), and a condition on what the card does to the cards
still needed (``change``: it helps, it does not, or either), the cards needed before it (a
range of levels), the cards left in the stock (bands) and whether an opponent has opened.
:func:`thumb_rules` picks them from the chart:

* **true to the chart**: of the decisions the condition covers (every cell it selects, blank
  and undecided ones too), at least ``purity`` (95%) are in cells with the clause's verdict
  and none in a cell with the opposite verdict;
* **few**: at most ``max_clauses`` per contract, chosen greedily by the points they decide
  (decisions times ``|d_relative|`` over the cells of their verdict not already covered by an
  earlier clause), each the broadest condition among equals; two clauses never give one cell
  opposite verdicts;
* **with a number**: the decisions-weighted mean of ``d_relative`` over the cells it covers
  (points against the table, act minus pass), and a **conservative 95% interval**: the cells'
  deal-clustered standard errors added as if perfectly correlated, which bounds the standard
  error of the pooled mean whatever the cells' correlation (they share deals).

The ``thumb`` preset plays the clauses alone (:func:`kalooki_sim.engine.charts.rule_cells`: a
clause's verdict in every cell it selects, the expert's own answer elsewhere), from the same
table the ``should_i_call`` page prints (``kalooki_sim/engine/thumb.csv``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import check_columns, check_int, check_real
from .._stats import fixed
from ..engine.charts import (
    BEFORE_LEVELS,
    KINDS,
    NEED_LEVELS,
    RULE_COLUMNS,
    STOCK_BANDS,
    cell_index,
    rule_selection,
)
from ._calls import THIN_DEALS
from ._chart import CELL_KEYS, _moments, _typed_stats

#: a clause's columns: its condition (:data:`RULE_COLUMNS`), then what the chart says of it
THUMB_COLUMNS = RULE_COLUMNS + ["decisions", "in_verdict", "opposite", "cells", "d_relative",
                                "lo", "hi", "text"]
_ACT = {"take": "take", "call": "call"}
_NOT = {"take": "draw", "call": "pass"}
_BANDS = list(STOCK_BANDS)


def _band_sets():
    """The contiguous runs of stock bands, widest first (``"any"`` for all three)."""
    out = []
    for w in range(len(_BANDS), 0, -1):
        for i in range(len(_BANDS) - w + 1):
            out.append(_BANDS[i:i + w])
    return out


def _before_ranges():
    """Ranges of the levels needed before the card, widest first, as level indices."""
    idx = [NEED_LEVELS.index(b) for b in BEFORE_LEVELS]
    out = []
    for w in range(len(idx), 0, -1):
        for i in range(len(idx) - w + 1):
            out.append((idx[i], idx[i + w - 1]))
    return out


def _candidates(hand: int, kind: str):
    """Every condition of one contract and kind: ``(fields, cell indices)``: what the card
    does first by the words a player checks (helps, does not), then the widest ranges."""
    for change in ("helps", "no help", "any"):
        for lo, hi in _before_ranges():
            for bands in _band_sets():
                for opened in ("any", "no", "yes"):
                    sel = rule_selection(hand, kind, change, lo, hi, bands, opened)
                    if sel:
                        yield ({"hand": hand, "decision": kind, "change": change,
                                "before_lo": NEED_LEVELS[lo], "before_hi": NEED_LEVELS[hi],
                                "bands": "any" if len(bands) == len(_BANDS)
                                else ";".join(bands), "opened": opened}, np.array(sel))


def _cells_frame(chart: pd.DataFrame, stats_: pd.DataFrame | None) -> pd.DataFrame:
    """The chart's rows with their flat cell index and standard error (from the statistics,
    NaN without them)."""
    c = chart.copy()
    c["verdict"] = c["verdict"].fillna("").astype(str)
    c["cell"] = [cell_index(*k) for k in c[CELL_KEYS].itertuples(index=False)]
    c["se"] = np.nan
    if stats_ is not None:
        s = _typed_stats(stats_)
        _, se, _ = _moments(s, "d_relative")
        key = {cell_index(*k): v for k, v in zip(s[CELL_KEYS].itertuples(index=False), se,
                                                   strict=True)}
        c["se"] = c["cell"].map(key)
    return c


def _measure(c: pd.DataFrame, verdict: str, opposite: str):
    w = c["decisions"].to_numpy(float)
    tot = w.sum()
    inv = w[(c["verdict"] == verdict).to_numpy()].sum()
    opp = w[(c["verdict"] == opposite).to_numpy()].sum()
    return tot, inv, opp


def _number(c: pd.DataFrame, min_deals: int):
    """Decisions-weighted mean of ``d_relative`` over the covered cells the chart reads (at
    least ``min_deals`` deals), with a conservative 95% interval (standard errors added)."""
    c = c[c["deals"] >= max(min_deals, 2)]
    if c.empty:
        return np.nan, np.nan, np.nan
    w = c["decisions"].to_numpy(float)
    w = w / w.sum()
    m = float((w * c["d_relative"].to_numpy(float)).sum())
    se = float((w * c["se"].to_numpy(float)).sum())  # NaN without the statistics
    t = stats.t.ppf(0.975, max(int(c["deals"].min()) - 1, 1))
    return m, m - t * se, m + t * se


def _contract_clauses(h, ch, max_clauses, purity, min_share, min_deals) -> list[dict]:
    """The greedy choice of one contract's clauses (see :func:`thumb_rules`). Every candidate
    condition is a set of table cells; ``ch`` holds the contract's chart rows."""
    n_rows = len(ch)
    w = ch["decisions"].to_numpy(float)
    val = w * np.abs(ch["d_relative"].to_numpy(float))
    verdict = ch["verdict"].to_numpy(object)
    row_of = {int(x): i for i, x in enumerate(ch["cell"])}
    fields, sels, masks, verdicts = [], [], [], []
    for kind in KINDS:
        for f, sel in _candidates(h, kind):
            m = np.zeros(n_rows, bool)
            m[[row_of[x] for x in sel.tolist() if x in row_of]] = True
            if not m.any():
                continue
            tot = w[m].sum()
            for v, opposite in ((_ACT[kind], _NOT[kind]), (_NOT[kind], _ACT[kind])):
                inv = w[m & (verdict == v)].sum()
                if w[m & (verdict == opposite)].sum() == 0 and inv > 0 and inv >= purity * tot:
                    fields.append(f | {"verdict": v})
                    sels.append(sel)
                    masks.append(m)
                    verdicts.append(v)
    if not fields:
        return []
    masks = np.array(masks)
    mine = masks & (np.array(verdicts)[:, None] == verdict[None, :])
    total_value = float(val[np.isin(verdict, list(_ACT.values()) + list(_NOT.values()))].sum())
    codes = np.array([1 if v in _ACT.values() else -1 for v in verdicts])
    sign: dict = {}
    covered = np.zeros(n_rows, bool)
    alive = np.ones(len(fields), bool)
    out = []
    while len(out) < max_clauses and alive.any():
        gain = (mine & ~covered[None, :]).astype(float) @ val
        gain[~alive] = -1.0
        best = int(np.argmax(gain))  # the first (broadest) of equals
        if gain[best] <= 0 or gain[best] < min_share * total_value:
            break
        f, sel, code = fields[best], sels[best], codes[best]
        for x in sel.tolist():
            sign[x] = code
        covered |= masks[best]
        alive[best] = False
        # a later clause may not give any cell of this one the opposite verdict
        for i in np.flatnonzero(alive & (codes != code)):
            if not set(sels[i].tolist()).isdisjoint(sel.tolist()):
                alive[i] = False
        cov = ch[masks[best]]
        tot = w[masks[best]].sum()
        m, lo, hi = _number(cov, min_deals)
        out.append(f | {"decisions": int(tot), "in_verdict": float(w[mine[best]].sum() / tot),
                        "opposite": 0, "cells": int(masks[best].sum()), "d_relative": m,
                        "lo": lo, "hi": hi})
    return out


def thumb_rules(chart: pd.DataFrame, stats_: pd.DataFrame | None = None,
                max_clauses: int = 5, purity: float = 0.95,
                min_share: float = 0.01, min_deals: int = THIN_DEALS) -> pd.DataFrame:
    """Rules of thumb from a :func:`~kalooki_sim.analysis.call_chart` (see the module
    docstring): per contract at most ``max_clauses`` clauses, each covering at least
    ``purity`` of its decisions in cells of its verdict and none in cells of the opposite
    one; a clause is added while it decides at least ``min_share`` of the contract's decided
    points not yet covered. ``stats_``: the chart's statistics, for each clause's interval;
    a clause's number is read from the cells it covers with at least ``min_deals`` deals
    (those the chart gives a verdict).

    Returns one row per clause, :data:`THUMB_COLUMNS` (``in_verdict``: the share of its
    decisions in cells of its verdict; ``opposite``: decisions in cells of the opposite one,
    0), clauses of a contract in the order chosen.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 1, "decision": "take", "needed_before": ["1", "2", "2"],
    ...     "needed_after": ["0", "1", "2"], "stock_band": "40+", "opponents_opened": False,
    ...     "decisions": [100, 200, 300], "deals": 50, "d_relative": [-30.0, -10.0, 5.0],
    ...     "d_relative_lo": [-35.0, -12.0, 3.0], "d_relative_hi": [-25.0, -8.0, 7.0],
    ...     "verdict": ["take", "take", "draw"]})
    >>> r = thumb_rules(c)
    >>> r[["verdict", "change", "decisions", "in_verdict"]].values.tolist()
    [['take', 'helps', 300, 1.0], ['draw', 'no help', 300, 1.0]]
    >>> print(r["text"].iloc[0])
    Take a card that helps (−16.7)
    """
    check_columns("chart", chart, CELL_KEYS + ["decisions", "deals", "d_relative", "verdict"])
    max_clauses = check_int("max_clauses", max_clauses, 1, 20)
    purity = check_real("purity", purity, 0.5, 1)
    min_share = check_real("min_share", min_share, 0, 1)
    c = _cells_frame(chart, stats_)
    rows = []
    for h in sorted(c["hand"].unique()):
        ch = c[c["hand"] == h].reset_index(drop=True)
        rows += _contract_clauses(int(h), ch, max_clauses, purity, min_share, min_deals)
    t = pd.DataFrame(rows, columns=[c for c in THUMB_COLUMNS if c != "text"])
    t["text"] = [clause_text(r) for r in t.itertuples()]
    return t[THUMB_COLUMNS]


_VERB = {"take": "Take", "draw": "Draw, not take,", "call": "Call", "pass": "Pass on"}
_WHAT = {"helps": "a card that helps", "no help": "one that does not help", "any": "any card"}


def _before_words(lo: str, hi: str) -> str:
    """``", needing 1–3"``, ``", needing 4 or more"``...: the range of cards needed before
    the card, empty when it is every level."""
    if (lo, hi) == (BEFORE_LEVELS[0], BEFORE_LEVELS[-1]):
        return ""
    cannot = "cannot lay it"
    word = {"6+": "6 or more"}
    if lo == hi:
        return {"0": ", the contract already complete",
                cannot: ", while the contract cannot be laid"}.get(
                    lo, f", needing {word.get(lo, lo)}")
    if hi == cannot:
        return f", needing {lo} or more (or it cannot be laid)" if lo != "6+" else \
            ", needing 6 or more (or it cannot be laid)"
    if hi == "6+":
        return ", while the contract can still be laid" if lo == "0" else \
            f", needing {lo} or more"
    if lo == "0":
        return f", needing at most {hi}"
    return f", needing {lo}–{hi}"


def _bands_words(bands: str) -> str:
    if bands == "any":
        return ""
    b = bands.split(";")
    if b == ["40+", "20-39"]:
        return ", 20 or more cards left"
    if b == ["20-39", "0-19"]:
        return ", fewer than 40 cards left"
    return ", " + b[0].replace("-", "–") + " cards left"


def clause_text(r) -> str:
    """A clause in words, with its number: ``"Call one that does not help, needing 4 or
    more, 40+ cards left, nobody opened yet (−3.2 [−4.1, −2.3])"``."""
    opened = {"any": "", "no": ", nobody opened yet", "yes": ", once an opponent opened"}
    text = (f"{_VERB[r.verdict]} {_WHAT[r.change]}{_before_words(r.before_lo, r.before_hi)}"
            f"{_bands_words(r.bands)}{opened[r.opened]}")
    num = fixed(r.d_relative, 1, signed=True) if np.isfinite(r.d_relative) else "n/a"
    if np.isfinite(getattr(r, "lo", np.nan)):
        num += f" [{fixed(r.lo, 1, signed=True)}, {fixed(r.hi, 1, signed=True)}]"
    return f"{text} ({num})"


def thumb_check(rules: pd.DataFrame, chart: pd.DataFrame) -> pd.DataFrame:
    """Each clause measured against a chart: ``decisions`` it covers, ``in_verdict`` (share of
    them in cells of its verdict) and ``opposite`` (decisions in cells of the opposite
    verdict): the check that the rules of thumb agree with the chart they summarise.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 2, "decision": "call", "needed_before": ["1", "1"],
    ...     "needed_after": ["0", "1"], "stock_band": "40+", "opponents_opened": True,
    ...     "decisions": [90, 10], "verdict": ["call", "pass"]})
    >>> r = pd.DataFrame({"hand": 2, "decision": "call", "verdict": "call", "change": "any",
    ...     "before_lo": "1", "before_hi": "1", "bands": "any", "opened": "any"}, index=[0])
    >>> thumb_check(r, c)[["decisions", "in_verdict", "opposite"]].values.tolist()
    [[100.0, 0.9, 10.0]]
    """
    check_columns("rules", rules, RULE_COLUMNS)
    check_columns("chart", chart, CELL_KEYS + ["decisions", "verdict"])
    c = chart.copy()
    c["verdict"] = c["verdict"].fillna("").astype(str)
    c["cell"] = [cell_index(*k) for k in c[CELL_KEYS].itertuples(index=False)]
    c = c.set_index("cell")
    out = []
    for r in rules.itertuples():
        lo, hi = NEED_LEVELS.index(str(r.before_lo)), NEED_LEVELS.index(str(r.before_hi))
        bands = _BANDS if r.bands == "any" else str(r.bands).split(";")
        sel = rule_selection(int(r.hand), str(r.decision), str(r.change), lo, hi, bands,
                              str(r.opened))
        cov = c.loc[c.index.intersection(sel)]
        kind = str(r.decision)
        opposite = _NOT[kind] if r.verdict == _ACT[kind] else _ACT[kind]
        tot, inv, opp = _measure(cov, str(r.verdict), opposite)
        out.append({"decisions": tot, "in_verdict": inv / tot if tot else np.nan,
                    "opposite": opp})
    return pd.DataFrame(out, index=rules.index)


def write_thumb(rules: pd.DataFrame, path, provenance: dict) -> Path:
    """Write rules of thumb as the CSV the ``thumb`` preset and the page read, with ``# key:
    value`` provenance lines on top."""
    check_columns("rules", rules, THUMB_COLUMNS)
    head = "".join(f"# {k}: {str(v).replace(chr(10), ' ')}\n" for k, v in provenance.items())
    Path(path).write_text(head + rules[THUMB_COLUMNS].to_csv(index=False, float_format="%.4g"),
                          encoding="utf-8")
    return Path(path)


def read_thumb(path) -> pd.DataFrame:
    """Rules of thumb written by :func:`write_thumb` (levels and bands as text)."""
    t = pd.read_csv(path, comment="#", dtype={"before_lo": str, "before_hi": str},
                    keep_default_na=False, na_values={"d_relative": [""], "lo": [""],
                                                      "hi": [""]})
    check_columns(str(path), t, THUMB_COLUMNS)
    return t
