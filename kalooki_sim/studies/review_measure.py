"""How decided the review is: the review of expert hands at its default budget,
measured as the issue measured it: the share of decisions left undecided, the median width of
their 95% intervals and the seconds per hand and seat.

``python -m kalooki_sim.studies.review_measure`` prints the measurement of 27 hands (three
deals of each contract 1-9, seat 0, two threads); ``--history off`` measures the review
without the table's history.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from .._lib import check_int
from ..engine.trace import trace
from .review import review, review_total

#: the issue's targets: undecided share, median interval width (points), seconds per hand
TARGETS = {"undecided": 0.30, "median_width": 8.0, "seconds_per_hand": 10.0}


def measure_review(contracts=range(1, 10), deals: int = 3, seat: int = 0, *, threads=2,
                   **kwargs) -> tuple[pd.DataFrame, dict]:
    """Review ``deals`` expert hands of each contract (trace seeds 1..deals, game 0) for
    ``seat`` with :func:`~kalooki_sim.review` (``kwargs``: its arguments, its defaults
    otherwise) and measure them.

    Returns
    -------
    (DataFrame, dict)
        Every decision's row (with the trace ``deal`` seed), and the summary: ``hands``,
        ``decisions``, ``discards`` (of them), ``undecided`` (share neither decided nor
        equal: the interval holds zero and reaches past ±2), ``decided`` and ``equal``
        (shares), ``median_width`` (of ``d_value_hi - d_value_lo``, points), ``width_q1``,
        ``width_q3``, ``seconds_per_hand`` (the reviews' time alone, mean per hand and seat),
        ``rollouts_per_hand`` (mean), ``lost_per_hand`` (mean of :func:`review_total`), and
        ``meets`` (each of :data:`TARGETS` met).

    Examples
    --------
    >>> rows, s = measure_review([1], deals=1, rollouts=40, block=20, policies="greedy")
    >>> s["hands"], 0 <= s["undecided"] <= 1, sorted(s["meets"])
    (1, True, ['median_width', 'seconds_per_hand', 'undecided'])
    """
    deals = check_int("deals", deals, 1, 1000)
    tables, seconds = [], []
    for h in contracts:
        for s in range(1, deals + 1):
            t = trace(seed=s, game=0, hand=h, policies="expert")
            t0 = time.perf_counter()
            r = review(t, seat, threads=threads, **kwargs)
            seconds.append(time.perf_counter() - t0)
            tables.append(r.assign(deal=s))
    rows = pd.concat(tables, ignore_index=True)
    lo, hi = rows["d_value_lo"], rows["d_value_hi"]
    decided = (lo > 0) | (hi < 0)
    equal = (lo >= -2) & (hi <= 2)
    undecided = ~decided & ~equal
    width = (hi - lo).to_numpy(float)
    totals = review_total(rows.assign(game=rows["deal"]))
    summary = dict(hands=len(seconds), decisions=len(rows),
                   discards=int((rows["decision"] == "discard").sum()),
                   undecided=float(undecided.mean()), decided=float(decided.mean()),
                   equal=float((equal & ~decided).mean()),
                   median_width=float(np.median(width)),
                   width_q1=float(np.quantile(width, 0.25)),
                   width_q3=float(np.quantile(width, 0.75)),
                   seconds_per_hand=float(np.mean(seconds)),
                   rollouts_per_hand=float(rows["rollouts"].sum() / len(seconds)),
                   lost_per_hand=float(totals["lost"].mean()))
    summary["meets"] = {k: summary[k] <= v for k, v in TARGETS.items()}
    return rows, summary


def _text(s: dict) -> str:
    """The summary in lines."""
    return "\n".join([
        f"{s['hands']} hands, {s['decisions']} decisions of seat 0 ({s['discards']} of them "
        "discards)",
        f"undecided: {s['undecided']:.0%} (target at most {TARGETS['undecided']:.0%}); "
        f"decided {s['decided']:.0%}, equal {s['equal']:.0%}",
        f"median 95% interval: {s['median_width']:.1f} points (quartiles "
        f"{s['width_q1']:.1f}-{s['width_q3']:.1f}; target at most "
        f"{TARGETS['median_width']:.0f})",
        f"seconds per hand and seat: {s['seconds_per_hand']:.1f} (target at most "
        f"{TARGETS['seconds_per_hand']:.0f}); rollouts per hand {s['rollouts_per_hand']:,.0f}",
        f"points lost per hand: {s['lost_per_hand']:.1f}",
    ])


def main(argv=None) -> int:
    """``python -m kalooki_sim.studies.review_measure``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--history", choices=("on", "off"), default="on")
    p.add_argument("--deals", type=int, default=3)
    p.add_argument("--csv", help="write every decision's row here")
    a = p.parse_args(argv)
    rows, s = measure_review(deals=a.deals, history=a.history == "on")
    if a.csv:
        rows.to_csv(a.csv, index=False)
    print(_text(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
