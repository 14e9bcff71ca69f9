"""The call chart in words (issues 28, 49): the rules of thumb of a contract (clauses true to
the chart, :mod:`._thumb`), the reasons (the opening double; own points against points against
the table), and the share of decisions the chart decides. Every number comes from the chart or
its statistics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import check_columns
from .._stats import fixed, share_text
from ._chart import (
    NEED_LEVELS,
    _moments,
    _typed_stats,
    decided_share,
)

#: how the card changes the cards still needed, in the rule's order
CHANGES = ("completes", "cuts", "no help", "cannot lay")


def change_of(needed_before, needed_after) -> np.ndarray:
    """What the card does to the cards still needed (:data:`CHANGES`), from the chart's need
    levels: ``completes`` (after is 0, before was not), ``cuts``, ``no help`` (the same count,
    0 -> 0 included: the contract was complete without it) or ``cannot lay`` (no card that can
    still come lays the contract, even with this one).

    Examples
    --------
    >>> change_of(["1", "2", "6+", "0", "cannot lay it"], ["0", "1", "6+", "0", "cannot lay it"]
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


def call_rule(chart: pd.DataFrame, hand: int, contract: str | None = None,
              rules: pd.DataFrame | None = None) -> str:
    r"""One contract's rules of thumb in a sentence: the clauses of ``rules``
    (:func:`~kalooki_sim.analysis.thumb_rules` rows; by default made from ``chart`` itself),
    each true to the chart (at least 95% of the decisions it covers in cells of its verdict,
    none in a cell of the opposite one) with its number (points against the table, act minus
    pass, the decisions-weighted mean of the cells it covers, with its interval when the
    statistics were given); then the share of the contract's decisions the chart leaves
    undecided.

    Examples
    --------
    >>> c = pd.DataFrame({"hand": 1, "decision": ["call", "call", "take"],
    ...     "needed_before": ["1", "2", "1"], "needed_after": ["0", "2", "1"],
    ...     "stock_band": "40+", "opponents_opened": False, "decisions": [100, 300, 100],
    ...     "deals": 60, "d_relative": [-10.0, 6.0, 0.5], "d_relative_lo": [-14.0, 3.0, -3.0],
    ...     "d_relative_hi": [-6.0, 9.0, 4.0], "verdict": ["call", "pass", "unsure"]})
    >>> print(call_rule(c, 1, "3 groups").replace("; ", ";\n"))
    Hand 1 (3 groups): Pass on one that does not help (+6.0);
    Call a card that helps (−10.0). Undecided: 20% of its decisions.
    """
    from ._thumb import thumb_rules

    check_columns("chart", chart, ["hand", "decisions", "verdict"])
    name = f"Hand {int(hand)}" + (f" ({contract})" if contract else "")
    mine = chart[chart["hand"] == hand]
    if mine.empty:
        return f"{name}: no decisions in the chart."
    r = thumb_rules(mine) if rules is None else rules[rules["hand"] == hand]
    tail = f"Undecided: {1 - decided_share(mine):.0%} of its decisions."
    if r.empty:
        return f"{name}: no rule of thumb holds for 95% of its decisions. {tail}"
    return f"{name}: " + "; ".join(r["text"]) + f". {tail}"


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


def rounds_sentence(rounds: pd.DataFrame, settle: float = 0.02) -> str:
    r"""How the chart's fixed point went (:func:`~kalooki_sim.analysis.chart_rounds`' table):
    each round's share of decisions whose verdict flipped between act and not act, whether
    the last one is under ``settle``, and the contract that flipped most.

    Examples
    --------
    >>> r = pd.DataFrame({"round": [0, 1, 1, 1, 2, 2, 2], "hand": [None, None, 5, 6,
    ...     None, 5, 6], "flipped": [None, 0.03, 0.01, 0.09, 0.004, 0.0, 0.02],
    ...     "decided": [0.96, 0.95, 0.9, 0.97, 0.96, 0.92, 0.97]})
    >>> print(rounds_sentence(r).replace("; ", ";\n").replace(": ", ":\n"))
    Round 1 flipped 3.0% of the decisions, round 2 0.4%:
    the chart settled (under 2%) after round 2, which decides 96.0% of its decisions;
    the most in hand 6, 9.0% of its decisions in round 1.
    """
    check_columns("rounds", rounds, ["round", "hand", "flipped", "decided"])
    every = rounds[rounds["hand"].isna() & (rounds["round"] > 0)].sort_values("round")
    if every.empty:
        return "Only round 0 (a table of experts) has been played."
    steps = ", ".join(f"{'Round' if i == 0 else 'round'} {int(r['round'])} "
                      + (f"flipped {share_text(r['flipped'], 1)} of the decisions" if i == 0
                         else share_text(r["flipped"], 1))
                      for i, (_, r) in enumerate(every.iterrows()))
    last = every.iloc[-1]
    k = int(last["round"])
    state = (f"the chart settled (under {settle:.0%}) after round {k}" if last["flipped"] <
             settle else f"the chart did not settle in {k} rounds (the last flipped "
             f"{share_text(last['flipped'], 1)})")
    per = rounds[rounds["hand"].notna() & (rounds["round"] > 0)]
    top = per.loc[per["flipped"].idxmax()]
    return (f"{steps}: {state}, which decides {share_text(last['decided'], 1)} of its "
            "decisions; "
            f"the most in hand {int(top['hand'])}, {share_text(top['flipped'], 1)} of its "
            f"decisions in round {int(top['round'])}.")


def card_penalty_sentence(by_card: pd.DataFrame, contracts: dict | None = None,
                          measure: str = "d_penalty") -> str:
    r"""Does the called card's own penalty (R1) change what a useful call is worth? From
    :func:`~kalooki_sim.analysis.value_map` rows by ``hand`` and card bin (``card``, in
    order of penalty, with ``thin`` marking cells too thin to read): per contract with two
    readable bins, the costliest bin minus the cheapest, with a 95% interval from the two
    bins' own (independent deals assumed: a normal approximation); Holm over the contracts
    compared says which differences are shown.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 1, 5, 5], "card": ["6-9", "10, J, Q, K"] * 2,
    ...     "thin": False, "d_penalty": [-15.0, -10.0, -24.0, -2.0],
    ...     "d_penalty_lo": [-20.0, -15.0, -28.0, -6.0],
    ...     "d_penalty_hi": [-10.0, -5.0, -20.0, 2.0]})
    >>> print(card_penalty_sentence(t).replace(": ", ":\n").replace("; ", ";\n")
    ...       .replace("), ", "),\n").replace(") (", ")\n("))
    Useful calls, call minus pass in your own points, the costliest card bin minus the cheapest:
    +5.0 [−2.1, +12.1] in hand 1 (10, J, Q, K − 6-9),
    +22.0 [+16.3, +27.7] in hand 5 (10, J, Q, K − 6-9)
    (above 0:
    the costlier card saves fewer points);
    the card's penalty makes a difference shown after Holm in hand 5 only.
    """
    check_columns("by_card", by_card, ["hand", "card", "thin", measure, f"{measure}_lo",
                                       f"{measure}_hi"])
    name = (lambda h: contracts[h]) if contracts else (lambda h: f"hand {h}")
    rows = []
    for h, g in by_card[~by_card["thin"].astype(bool)].groupby("hand", sort=True):
        if len(g) < 2:
            continue
        lo_b, hi_b = g.iloc[0], g.iloc[-1]
        d = hi_b[measure] - lo_b[measure]
        se = np.hypot((hi_b[f"{measure}_hi"] - hi_b[f"{measure}_lo"]) / (2 * 1.959964),
                      (lo_b[f"{measure}_hi"] - lo_b[f"{measure}_lo"]) / (2 * 1.959964))
        p = float(2 * stats.norm.sf(abs(d) / se)) if se > 0 else float(d != 0)
        rows.append((int(h), lo_b["card"], hi_b["card"], d, d - 1.959964 * se,
                     d + 1.959964 * se, p))
    if not rows:
        return ("No contract has two readable card bins of useful calls: the sample says "
                "nothing of the card's own penalty.")
    from .._stats import holm_adjust

    adj = holm_adjust(np.array([r[6] for r in rows]))
    parts = [f"{_fmt(d)} [{_fmt(lo)}, {_fmt(hi)}] in {name(h)} ({b} − {a})"
             for h, a, b, d, lo, hi, _ in rows]
    shown = [name(r[0]) for r, q in zip(rows, adj, strict=True) if q < 0.05]
    tail = ("the card's penalty makes a difference shown after Holm in "
            + (", ".join(shown) + (" only" if len(shown) < len(rows) else "")
               if shown else "no contract"))
    return ("Useful calls, call minus pass in your own points, the costliest card bin minus "
            "the cheapest: " + ", ".join(parts) + " (above 0: the costlier card saves fewer "
            "points); " + tail + ".")
