"""A chart a player follows: the call chart's verdicts, or rules of thumb, as the
table of cells the compiled take-and-call rule reads (``Policy(chart=...)``, the ``chart``
and ``thumb`` presets).

A **cell** is what a player sees at a take (R9.1) or a call (R9.2): the contract, the kind of
decision, the cards still needed before and after the card (:data:`NEED_LEVELS`: 0-3, 4 or
more, or "cannot lay it" when no card that can still come lays it), the cards left in the
stock (:data:`STOCK_BANDS`) and whether any opponent has opened. These are the cells of
:func:`kalooki_sim.analysis.call_chart`, which imports its levels and bands from here (one
home). A cell's code is :data:`ACT` (take, call), :data:`PASS` (draw, pass) or :data:`OWN`
(``either``, ``unsure``, blank, or no such cell: the player's own rule answers).

Two sources compile to the same table:

* a **chart** (:func:`chart_cells`): one row per cell with its ``verdict``, e.g.
  ``reports/call_chart.csv`` or :func:`kalooki_sim.analysis.call_chart`'s frame;
* **rules of thumb** (:func:`rule_cells`): one row per clause, a verdict for every cell its
  condition selects (:data:`RULE_COLUMNS`); the ``thumb`` preset plays the clauses the
  ``should_i_call`` page prints.

The contract is found from its groups and runs, so a chart made for the card's nine applies to
the same contract wherever a schedule deals it (Super Kalooki, V2's twelve cards). The chart
the ``chart`` preset plays is package data (``chart.csv`` here), made from the committed
study's statistics by :func:`kalooki_sim.analysis.play_chart`.

Examples
--------
>>> c = pd.DataFrame({"hand": [1, 1], "decision": ["call", "take"], "needed_before": ["1", "2"],
...     "needed_after": ["0", "2"], "stock_band": "40+", "opponents_opened": False,
...     "verdict": ["call", "draw"]})
>>> ch = Chart.of(c)
>>> ch
Chart('a DataFrame': 1 cells act, 1 pass)
>>> int(ch.codes_array()[cell_index(1, "call", "1", "0", "40+", False)])
1
"""

from __future__ import annotations

import dataclasses
import hashlib
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .._lib import check_columns, not_allowed
from ..game.rules import JAMAICAN_SCHEDULE

#: the contracts of the card's nine hands (R2) as (groups, runs), hand 1 first
CONTRACTS = tuple((g, r) for _, g, r in JAMAICAN_SCHEDULE)
KINDS = ("take", "call")
#: the levels of cards still needed: 0 (complete) to 5, then 6 or more, then "cannot lay it"
#: (no card that can still come lays it); after the card, "6+ (cut)" is 6 or more but fewer
#: than before. A cell then holds decisions the expert answers alike (it takes what cuts the
#: count, and calls it while at most 5 would be left): a cell that pooled a card that helps
#: a far hand with one that does not (or a call the expert makes with one it refuses) would
#: speak for both with the larger part's value
NEED_LEVELS = ("0", "1", "2", "3", "4", "5", "6+ (cut)", "6+", "cannot lay it")
#: needed at or above this is "6+" (or "6+ (cut)")
NEED_CAP = 6
CUT_LEVEL = "6+ (cut)"
#: the levels of cards needed before the card (no cut there)
BEFORE_LEVELS = tuple(x for x in NEED_LEVELS if x != CUT_LEVEL)
#: bands of cards left in the stock, from a full stock (early in the hand) to an empty one:
#: label -> (lowest, highest) cards left, both included
STOCK_BANDS = {"40+": (40, 10_000), "20-39": (20, 39), "0-19": (0, 19)}
#: what a chart's cell says: act ("call"/"take"), not act ("pass" a call, "draw" instead of a
#: take), "either" (no difference), "unsure", "" (too few deals: blank)
VERDICTS = ("call", "pass", "take", "draw", "either", "unsure", "")
ACT, PASS, OWN = 1, -1, 0
_CODE = {"call": ACT, "take": ACT, "pass": PASS, "draw": PASS, "either": OWN, "unsure": OWN,
         "": OWN}
_SHAPE = (len(CONTRACTS), len(KINDS), len(NEED_LEVELS), len(NEED_LEVELS), len(STOCK_BANDS), 2)
#: cells of the table: contract x kind x needed before x after x stock band x opened
N_CELLS = int(np.prod(_SHAPE))
CELL_COLUMNS = ["hand", "decision", "needed_before", "needed_after", "stock_band",
                "opponents_opened"]
#: a rule of thumb's columns: its verdict for every cell of contract ``hand`` and kind
#: ``decision`` whose card does what ``change`` says ("helps": fewer needed after it; "no
#: help": as many; "any"), needed before it within ``before_lo``..``before_hi`` (levels of
#: :data:`NEED_LEVELS`), stock band in ``bands`` (labels joined by ";", or "any") and
#: ``opened`` ("yes": an opponent has opened, "no", or "any")
RULE_COLUMNS = ["hand", "decision", "verdict", "change", "before_lo", "before_hi", "bands",
                "opened"]
CHANGES = ("helps", "no help", "any")


def cell_index(hand, decision, needed_before, needed_after, stock_band, opened) -> int:
    """The flat index of a cell in a chart's table (:data:`N_CELLS` of them)."""
    return int(np.ravel_multi_index(
        (int(hand) - 1, KINDS.index(str(decision)), NEED_LEVELS.index(str(needed_before)),
         NEED_LEVELS.index(str(needed_after)), list(STOCK_BANDS).index(str(stock_band)),
         int(bool(opened))), _SHAPE))


@dataclasses.dataclass(frozen=True, eq=True)
class Chart:
    """A compiled chart: one code per cell (:data:`ACT`, :data:`PASS`, :data:`OWN`), and where
    it came from. Make one with :meth:`of`; two charts are equal when their codes are."""

    codes: bytes
    source: str = dataclasses.field(default="", compare=False)

    @classmethod
    def of(cls, chart, source: str | None = None) -> Chart:
        """A :class:`Chart` from a chart or rules of thumb: a DataFrame (cells with a
        ``verdict``, or clauses with :data:`RULE_COLUMNS`), the path of such a CSV (``#``
        lines on top are skipped), or a :class:`Chart` (returned as it is)."""
        if isinstance(chart, Chart):
            return chart
        if isinstance(chart, (str, Path)):
            path = Path(chart)
            if not path.is_file():
                raise FileNotFoundError(not_allowed("chart", str(chart), "the path of a chart "
                                                    "CSV (e.g. reports/call_chart.csv)",
                                                    "no such file"))
            frame = pd.read_csv(path, comment="#", dtype=str, keep_default_na=False)
            return cls.of(frame, source or str(chart))
        if not isinstance(chart, pd.DataFrame):
            raise TypeError(not_allowed("chart", chart, "a chart (DataFrame or CSV path with "
                                        "the columns " + ", ".join(CELL_COLUMNS)
                                        + ", verdict), rules of thumb, or a Chart"))
        src = source or "a DataFrame"
        if "change" in chart.columns:
            return cls(rule_cells(chart).tobytes(), src)
        return cls(chart_cells(chart).tobytes(), src)

    def codes_array(self) -> np.ndarray:
        """The codes as an int8 array of :data:`N_CELLS`."""
        return np.frombuffer(self.codes, np.int8)

    def sha256(self) -> str:
        """A hash of the codes (what a study's manifest keeps of a chart)."""
        return hashlib.sha256(self.codes).hexdigest()

    def __repr__(self) -> str:
        c = self.codes_array()
        return (f"Chart({self.source!r}: {int((c == ACT).sum())} cells act, "
                f"{int((c == PASS).sum())} pass)")


def _levels(name, values, allowed=NEED_LEVELS) -> np.ndarray:
    v = pd.Series(values).astype(str).str.strip()
    bad = ~v.isin(allowed)
    if bad.any():
        raise ValueError(not_allowed(name, v[bad].iloc[0], "one of " + ", ".join(
            repr(x) for x in allowed)))
    return v.map({x: i for i, x in enumerate(NEED_LEVELS)}).to_numpy()


def _flags(name, values) -> np.ndarray:
    v = pd.Series(values).astype(str).str.strip().str.lower()
    ok = {"true": 1, "1": 1, "false": 0, "0": 0}
    bad = ~v.isin(list(ok))
    if bad.any():
        raise ValueError(not_allowed(name, pd.Series(values)[bad.to_numpy()].iloc[0],
                                     "True or False"))
    return v.map(ok).to_numpy()


def _choices(name, values, allowed) -> np.ndarray:
    v = pd.Series(values).astype(str).str.strip()
    bad = ~v.isin(list(allowed))
    if bad.any():
        raise ValueError(not_allowed(name, v[bad].iloc[0], "one of " + ", ".join(
            repr(x) for x in allowed)))
    return v.to_numpy()


def _hands(values) -> np.ndarray:
    v = pd.Series(values).astype(str).str.strip()
    ok = v.isin([str(h) for h in range(1, len(CONTRACTS) + 1)])
    if not ok.all():
        raise ValueError(not_allowed("hand", v[~ok].iloc[0], f"a contract 1-{len(CONTRACTS)}"))
    return v.astype(int).to_numpy()


def chart_cells(chart: pd.DataFrame) -> np.ndarray:
    """The codes of a chart's rows (one per cell, :data:`CELL_COLUMNS` and ``verdict``): int8
    :data:`N_CELLS`, :data:`OWN` where no row is. A verdict must fit its row's kind (``call``
    or ``pass`` a call, ``take`` or ``draw`` a take); a cell given twice is refused.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 5, "decision": "call", "needed_before": "3",
    ...     "needed_after": "3", "stock_band": "40+", "opponents_opened": False,
    ...     "verdict": "take"}, index=[0])
    >>> chart_cells(c)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: verdict='take' is not allowed; give one of 'call', 'pass', ... call's verdict)
    """
    check_columns("chart", chart, CELL_COLUMNS + ["verdict"],
                  "a call chart, e.g. reports/call_chart.csv")
    hand = _hands(chart["hand"])
    kind = _choices("decision", chart["decision"], KINDS)
    nb = _levels("needed_before", chart["needed_before"], BEFORE_LEVELS)
    na = _levels("needed_after", chart["needed_after"])
    band = _choices("stock_band", chart["stock_band"], STOCK_BANDS)
    opened = _flags("opponents_opened", chart["opponents_opened"])
    verdict = chart["verdict"].fillna("").astype(str).str.strip().replace("nan", "")
    verdict = _choices("verdict", verdict, VERDICTS)
    for i, (k, v) in enumerate(zip(kind, verdict, strict=True)):
        wrong = ("take", "draw") if k == "call" else ("call", "pass")
        if v in wrong:
            allowed = [x for x in VERDICTS if x not in wrong]
            raise ValueError(not_allowed("verdict", v, "one of " + ", ".join(
                repr(x) for x in allowed), f"row {i}: a {k}'s verdict"))
    idx = np.ravel_multi_index(
        (hand - 1, np.array([KINDS.index(k) for k in kind]), nb, na,
         np.array([list(STOCK_BANDS).index(b) for b in band]), opened), _SHAPE)
    uniq, counts = np.unique(idx, return_counts=True)
    if (counts > 1).any():
        i = int(np.flatnonzero(idx == uniq[counts > 1][0])[1])
        raise ValueError(not_allowed("chart", f"row {i}", "one row per cell",
                                     "a cell given twice"))
    codes = np.zeros(N_CELLS, np.int8)
    codes[idx] = [_CODE[v] for v in verdict]
    return codes


def rule_cells(rules: pd.DataFrame) -> np.ndarray:
    """The codes of rules of thumb (:data:`RULE_COLUMNS`): each clause's verdict in every
    cell its condition selects, :data:`OWN` elsewhere. Two clauses that give one cell opposite
    verdicts are refused (a player could not follow both).

    Examples
    --------
    >>> r = pd.DataFrame({"hand": 7, "decision": "call", "verdict": "call", "change": "helps",
    ...     "before_lo": "1", "before_hi": "5", "bands": "40+;20-39", "opened": "any"},
    ...     index=[0])
    >>> c = rule_cells(r)
    >>> int((c == ACT).sum())   # 15 (before, fewer after) pairs x 2 bands x 2 openings
    60
    """
    check_columns("rules", rules, RULE_COLUMNS, "rules of thumb")
    codes = np.zeros(N_CELLS, np.int8)
    owner = np.full(N_CELLS, -1)
    hand = _hands(rules["hand"])
    kind = _choices("decision", rules["decision"], KINDS)
    verdict = _choices("verdict", rules["verdict"], ("call", "pass", "take", "draw"))
    change = _choices("change", rules["change"], CHANGES)
    lo = _levels("before_lo", rules["before_lo"], BEFORE_LEVELS)
    hi = _levels("before_hi", rules["before_hi"], BEFORE_LEVELS)
    opened = _choices("opened", rules["opened"], ("yes", "no", "any"))
    bands = rules["bands"].astype(str).str.strip()
    for i in range(len(rules)):
        names = list(STOCK_BANDS) if bands.iloc[i] == "any" else bands.iloc[i].split(";")
        _choices("bands", [b.strip() for b in names], STOCK_BANDS)
        if lo[i] > hi[i]:
            raise ValueError(not_allowed("before_lo", NEED_LEVELS[lo[i]], "a level at most "
                                         f"before_hi ({NEED_LEVELS[hi[i]]!r})", f"row {i}"))
        code = _CODE[verdict[i]]
        for sel in rule_selection(hand[i], kind[i], change[i], lo[i], hi[i],
                                   [b.strip() for b in names], opened[i]):
            if codes[sel] == -code:
                raise ValueError(not_allowed("rules", f"row {i}", "clauses that never give "
                                             "one cell opposite verdicts",
                                             f"row {owner[sel]} says the opposite"))
            codes[sel] = code
            owner[sel] = i
    return codes


def rule_selection(hand, kind, change, lo, hi, bands, opened):
    """The flat cell indices of the chart that a rule of thumb's condition selects: contract
    ``hand``, decision ``kind``, the cards-needed change ``change`` over the levels ``lo..hi``,
    the stock ``bands`` and ``opened`` (``"yes"``, ``"no"`` or ``"any"``)."""
    out = []
    opens = {"yes": (1,), "no": (0,), "any": (0, 1)}[opened]
    cut = NEED_LEVELS.index(CUT_LEVEL)
    for nb in range(lo, hi + 1):
        if nb == cut:
            continue
        for na in range(len(NEED_LEVELS)):
            if not _transition_possible(nb, na):
                continue
            helps = _helps(nb, na)
            if (change == "helps" and not helps) or (change == "no help" and helps):
                continue
            for b in bands:
                for o in opens:
                    out.append(int(np.ravel_multi_index(
                        (hand - 1, KINDS.index(kind), nb, na, list(STOCK_BANDS).index(b), o),
                        _SHAPE)))
    return out


def _helps(nb: int, na: int) -> bool:
    """Does a card that moves the need from level ``nb`` to ``na`` help (fewer needed)?"""
    cannot = len(NEED_LEVELS) - 1
    if nb == cannot:
        return na != cannot
    return na < nb


def _transition_possible(nb: int, na: int) -> bool:
    """One card cuts the need by one or leaves it (a card from the dead pile after R13's
    reshuffle may cut more: every lower level is kept); from "cannot lay it" any level but
    a cut one; "6+ (cut)" only from "6+"."""
    cannot = len(NEED_LEVELS) - 1
    cut = NEED_LEVELS.index(CUT_LEVEL)
    if nb == cannot:
        return na != cut
    if na == cannot:
        return False
    if na == cut:
        return nb == NEED_LEVELS.index("6+")
    return na <= nb


def chart_table(pol_chart: Chart | None) -> np.ndarray:
    """The codes the kernels read (float64, :data:`N_CELLS`; zeros for no chart)."""
    if pol_chart is None:
        return np.zeros(N_CELLS)
    return pol_chart.codes_array().astype(np.float64)


_PACKAGE_CHARTS: dict = {}


def package_chart(name: str) -> Chart:
    """The chart the ``chart`` preset plays (``"chart.csv"``) or the rules of thumb the
    ``thumb`` preset plays (``"thumb.csv"``): package data of :mod:`kalooki_sim.engine`, read
    once."""
    if name not in _PACKAGE_CHARTS:
        f = resources.files("kalooki_sim.engine").joinpath(name)
        _PACKAGE_CHARTS[name] = Chart.of(str(f), f"kalooki_sim/engine/{name}")
    return _PACKAGE_CHARTS[name]
