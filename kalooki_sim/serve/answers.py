"""The pages' answers from the Python API: the advice (its sentence, table and a picture of
the two outcomes), the review of a record or of a simulated hand, and the call chart's cells
with their numbers and rules."""

from __future__ import annotations

import html
import math
import warnings
from functools import lru_cache

from .forms import FieldError, field_of

REVIEW_NAMES = {"hand": "hand_no", "seed": "seed", "seat": "seat", "players": "players",
                "policies": "policies", "rollouts": "rollouts"}


def _pct(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def outcome_svg(table, objective: str) -> str:
    """The two outcomes side by side: each action's expected points (``objective``) with its
    95% interval, and its chance of going out first, as an inline SVG."""
    rows = table.to_dict("records")
    lo = min(0.0, *(r[f"{objective}_lo"] for r in rows))
    hi = max(0.0, *(r[f"{objective}_hi"] for r in rows))
    span = (hi - lo) or 1.0
    w, left, right = 560, 70, 20
    x = lambda v: left + (v - lo) / span * (w - left - right)  # noqa: E731
    colours = ("#2166ac", "#d6604d")
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w} 150' role='img' "
           f"aria-label='expected {objective} points of each action with 95% intervals' "
           "class='outcomes'>",
           f"<text x='{left}' y='14' font-size='12'>expected {objective} points (lower is "
           "better), 95% interval; out first</text>",
           f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='22' y2='120' stroke='#888' "
           "stroke-dasharray='3 3'/>"]
    for i, r in enumerate(rows):
        y = 40 + 40 * i
        v = r[objective]
        out += [f"<text x='4' y='{y + 5}' font-size='14' font-weight='bold'>{r['action']}"
                "</text>",
                f"<rect x='{min(x(0), x(v)):.1f}' y='{y - 9}' width='{abs(x(v) - x(0)):.1f}' "
                f"height='18' fill='{colours[i]}' opacity='0.75'/>",
                f"<line x1='{x(r[objective + '_lo']):.1f}' x2='{x(r[objective + '_hi']):.1f}' "
                f"y1='{y}' y2='{y}' stroke='#000' stroke-width='2'/>",
                f"<text x='{x(v) + (6 if v >= 0 else -6):.1f}' y='{y - 12}' font-size='12' "
                f"text-anchor='{'start' if v >= 0 else 'end'}'>{v:+.1f}; out {_pct(r['out'])}"
                "</text>"]
    out += [f"<text x='{x(lo):.1f}' y='140' font-size='11'>{lo:+.0f}</text>",
            f"<text x='{x(hi):.1f}' y='140' font-size='11' text-anchor='end'>{hi:+.0f}</text>",
            "</svg>"]
    return "".join(out)


def advise_answer(kwargs: dict) -> dict:
    """:func:`~kalooki_sim.advise` on the form's arguments: the sentence, the table (rows of
    text), the picture, and what was asked; a refusal is a :class:`FieldError`."""
    import kalooki_sim as ks

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            a = ks.advise(**kwargs, progress=True)
    except (ValueError, TypeError) as e:
        msg = str(e).splitlines()[0]
        raise FieldError(field_of(msg), msg) from None
    obj = a.objective
    rows = [{"action": r["action"], "points": f"{r[obj]:+.1f}",
             "interval": f"[{r[obj + '_lo']:+.1f}, {r[obj + '_hi']:+.1f}]",
             "own penalty": f"{r['penalty']:.1f}", "out first": _pct(r["out"]),
             "doubled": _pct(r["doubled"]), "void": _pct(r["void"])}
            for r in a.table.to_dict("records")]
    d = a.difference
    rows.append({"action": "difference", "points": f"{d[obj]:+.1f}",
                 "interval": f"[{d[obj + '_lo']:+.1f}, {d[obj + '_hi']:+.1f}]",
                 "own penalty": f"{d['penalty']:+.1f}", "out first": _pct(d["out"]),
                 "doubled": "", "void": ""})
    return dict(action=a.action, confidence=a.confidence, sentence=a.recommendation,
                rows=rows, svg=outcome_svg(a.table, obj), rollouts=a.rollouts,
                seconds=round(a.seconds, 2), objective=obj, needed=a.needed)


def review_answer(args: dict) -> dict:
    """The review of a record or of a simulated hand: the decisions, the hand's totals and
    the replay page (the review page's HTML)."""
    import kalooki_sim as ks
    from kalooki_sim.report.review_page import review_html
    from kalooki_sim.studies.record import RecordError, check_record

    if "record" in args:
        try:
            t = check_record(args["record"])
        except RecordError as e:
            raise FieldError("record", str(e)) from None
        except ValueError as e:
            raise FieldError("record", str(e).splitlines()[0]) from None
        seat, title = t.record_seat, f"Review of your record (seat {t.record_seat})"
    else:
        try:
            t = ks.trace(args["deal_seed"], hand=args["hand"], players=args["players"],
                         policies=args["policies"])
            seat = args["seat"]
            if not isinstance(seat, int) or not 0 <= seat < t.rules.players:
                raise ValueError(f"seat={seat!r} is not allowed; give a seat 0-"
                                 f"{t.rules.players - 1}")
        except (ValueError, TypeError) as e:
            msg = str(e).splitlines()[0]
            raise FieldError(REVIEW_NAMES.get(field_of(msg, tuple(REVIEW_NAMES)), "seed"),
                             msg) from None
        title = (f"Review of seat {seat}: seed {args['deal_seed']}, hand {args['hand']}, "
                 f"{t.rules.players} players")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            df = ks.review(t, seat, rollouts=args["rollouts"], seed=args["seed"],
                           progress=True)
    except (ValueError, TypeError) as e:
        msg = str(e).splitlines()[0]
        raise FieldError(REVIEW_NAMES.get(field_of(msg, tuple(REVIEW_NAMES)), "rollouts"),
                         msg) from None
    lines = []
    if "record" in args:
        from kalooki_sim.studies.record import review_lines

        lines = review_lines(t, seat, df)
    rows, lost = [], 0.0
    for i, r in enumerate(df.to_dict("records")):
        did = (r["value_act"] if r["action"] in ("take", "call", "discard")
               else r["value_pass"])
        best = min(r["value_act"], r["value_pass"])
        if r["verdict"] == "mistake":
            lost += did - best
        rows.append({"line": lines[i] if lines else "", "turn": int(r["turn"]),
                     "decision": r["decision"], "card": r["card"], "you": r["action"],
                     "advisor": r["advice"] + ("" if r["advice"] == "unsure" else
                                               f" ({r['confidence']})"),
                     "act − not": f"{r['d_value']:+.1f} [{r['d_value_lo']:+.1f}, "
                                  f"{r['d_value_hi']:+.1f}]",
                     "verdict": r["verdict"]})
    counts = df["verdict"].value_counts().to_dict()
    score = [x for x in t.records if x["event"] == "score" and x["seat"] == seat]
    total = dict(decisions=len(df), good=counts.get("good", 0), close=counts.get("close", 0),
                 mistake=counts.get("mistake", 0), points_lost=round(lost, 1),
                 score=score[-1]["penalty"] if score else None)
    page = review_html(t, seat, df, title=title)
    return dict(rows=rows, total=total, replay=page, title=title, seat=seat)


@lru_cache(maxsize=1)
def chart_frames():
    """The published chart (``kalooki_sim/engine/chart.csv``) and its rules of thumb
    (``thumb.csv``), read once."""
    from importlib.resources import files

    import pandas as pd

    from kalooki_sim.analysis import read_thumb

    chart = pd.read_csv(files("kalooki_sim.engine") / "chart.csv", comment="#",
                        dtype={"needed_before": str, "needed_after": str})
    thumb = read_thumb(files("kalooki_sim.engine") / "thumb.csv")
    return chart, thumb


def chart_cells() -> list[dict]:
    """Every cell of the chart as JSON-ready rows (its keys, numbers and verdict)."""
    chart, _ = chart_frames()
    out = []
    for i, r in enumerate(chart.to_dict("records")):
        out.append({k: (None if isinstance(v, float) and math.isnan(v) else v)
                    for k, v in r.items()} | {"id": i})
    return out


def chart_cell(i: int) -> dict:
    """One cell: its numbers, interval, the rules of thumb that cover it and the rule of the
    game it is about (R9.1 take, R9.2 call)."""
    from kalooki_sim.analysis import call_rule, thumb_check

    chart, thumb = chart_frames()
    if not 0 <= i < len(chart):
        raise FieldError("cell", f"cell={i} is not allowed; give a cell 0-{len(chart) - 1}")
    c = chart.iloc[[i]]
    r = c.iloc[0]
    mine = thumb[(thumb["hand"] == r["hand"]) & (thumb["decision"] == r["decision"])]
    cover = []
    if len(mine):
        chk = thumb_check(mine, c)
        cover = [t for t, n in zip(mine["text"], chk["decisions"], strict=True) if n > 0]
    rule = ("R9.1: the next seat, not opened, may take the discard as its draw"
            if r["decision"] == "take" else
            "R9.2: a seat after the next, not opened and under 3 calls, may call the discard "
            "and takes a penalty card")
    return dict(cell={k: (None if isinstance(v, float) and math.isnan(v) else
                          (v.item() if hasattr(v, "item") else v)) for k, v in r.items()},
                covering=cover, rule=rule,
                contract_rules=call_rule(chart, int(r["hand"]), rules=thumb),
                text=html.escape(str(r["verdict"])))
