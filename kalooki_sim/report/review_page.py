"""A game review as one self-contained HTML page: the seat's timeline of a hand,
its cards after each turn, and every take and call decision annotated by the advisor.

``kalooki review --out review.html`` writes it; nothing is fetched when it is opened (inline
CSS, no scripts).
"""

from __future__ import annotations

import html

import pandas as pd

from ..studies.advisor import LEGEND, OBJECTIVES, contract_text
from ..studies.review import RATINGS, VERDICTS, review_total, walk

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;
 max-width:1180px;color:#1d1d1f;padding:0 16px}
h1{font-size:1.5em;margin:0 0 4px} h2{font-size:1.2em;margin:28px 0 6px}
.lead{color:#444;margin:0 0 12px}
table{border-collapse:collapse;width:100%;margin:6px 0 18px}
caption{text-align:left;font-weight:600;padding:4px 0 6px;color:#333}
th,td{border-bottom:1px solid #ddd;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f5;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.c{font-family:ui-monospace,Menlo,Consolas,monospace}
.c span{white-space:nowrap}
.r{color:#c1121f} .k{color:#111}
col.t{width:9%} col.w{width:25%} col.h{width:27%} col.d{width:39%}
tr.bad td{background:#fff1f1}
.v{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:.9em}
.good{background:#d8f3dc;color:#1b4332} .mistake{background:#ffd6d6;color:#7a0010}
.close{background:#eceff3;color:#333}
tr.offer td{background:#fafafa;color:#333}
.legend{background:#f7f7f9;border:1px solid #e3e3e8;border-radius:6px;padding:8px 12px;
 font-size:.92em;color:#333}
.note{color:#555;font-size:.92em}
.scroll{overflow-x:auto}
"""


def _card(c: str) -> str:
    cls = "r" if c.endswith(("♥", "♦")) else "k"
    return f'<span class="{cls}">{html.escape(c)}</span>'


def _cards(cards) -> str:
    if isinstance(cards, str):
        cards = cards.split()
    return '<span class="c">' + " ".join(_card(c) for c in cards) + "</span>" if cards else "—"


def _sorted(cards):
    """Cards by suit then rank, jokers last: how a player holds them."""
    ranks = {r: i for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                         "Q", "K"])}
    suits = {s: i for i, s in enumerate("♣♦♥♠")}

    def key(c):
        return (9, 0) if c == "JK" else (suits[c[-1]], ranks[c[:-1]])

    return sorted(cards, key=key)


def _decision_text(row) -> str:
    """One decision in words: the offer, what was done, the advisor's values and the verdict."""
    act = "take" if row["decision"] == "take" else "call"
    pas = "draw" if act == "take" else "pass"
    d, lo, hi = row["d_value"], row["d_value_lo"], row["d_value_hi"]
    advice = ("too close to call" if row["advice"] == "unsure" else
              f"{row['advice']} ({row['confidence']})")
    return (f'<span class="v {row["verdict"]}">{row["verdict"]}</span> '
            f"{act} {_card(row['card'])}? you <b>{row['action']}</b>; advisor: {advice}<br>"
            f"{act} {row['value_act']:+.1f} vs {pas} {row['value_pass']:+.1f} points; "
            f"difference {d:+.1f} [{lo:+.1f}, {hi:+.1f}], p {row['p_value']:.3f}, "
            f"after Holm {row['p_holm']:.3f}<br>"
            f'<span class="note">{html.escape(row["reason"])}</span>')


def _discard_text(row) -> str:
    """One discard in words (R6.3): the card let go against its comparator, the values and
    the verdict (:mod:`kalooki_sim.studies.review_discard`)."""
    d, lo, hi = row["d_value"], row["d_value_lo"], row["d_value_hi"]
    return (f'<span class="v {row["verdict"]}">{row["verdict"]}</span> '
            f"discard: you let {_card(row['card'])} go; against {_card(row['compared'])}: "
            f"{row['value_act']:+.1f} vs {row['value_pass']:+.1f} points; difference {d:+.1f} "
            f"[{lo:+.1f}, {hi:+.1f}], p {row['p_value']:.3f}, after Holm "
            f"{row['p_holm']:.3f}; {html.escape(str(row['rating']))}<br>"
            f'<span class="note">{html.escape(row["reason"])}</span>')


def _na(v) -> str:
    return "—" if v is None or pd.isna(v) else str(int(v))


def _events(e, me) -> str:
    """What happened in one timeline entry, in words."""
    if e["kind"] == "deal":
        return "dealt"
    if e["kind"] == "end":
        return "; ".join(html.escape(n) for n in e.get("notes", [])) or "end of the hand"
    parts = []
    if e["kind"] == "offer":
        parts.append(f"seat {e.get('discarded_by', '?')} discarded "
                     f"{_card(e['offered'])}" if e.get("offered") else "")
        if e.get("called"):
            parts.append(f"you <b>called</b> it, penalty card {_card(e['penalty'])}"
                         if e.get("penalty") else "you <b>called</b> it")
        elif e.get("offered"):
            parts.append("you passed")
        return "; ".join(p for p in parts if p)
    for how, c in e["got"]:
        parts.append(f"<b>took</b> the discard {_card(c)}" if how == "take"
                     else f"drew {_card(c)}")
    if e.get("opened"):
        parts.append("<b>opened</b>")
    for m in e["laid"]:
        parts.append(f"laid down {_cards(m)}")
    if e["layoffs"]:
        parts.append(f"laid off {_cards(e['layoffs'])}")
    if e.get("discard"):
        parts.append(f"discarded {_card(e['discard'])}")
    return "; ".join(parts)


def replayed_text(table: pd.DataFrame) -> str:
    """How many times the decisions of ``table`` were replayed: its ``rollouts`` column (each
    decision stops once decided or equal, or at its budget).

    >>> replayed_text(pd.DataFrame({"rollouts": [1000, 4000, 1000]}))
    'Each was replayed 1,000 to 4,000 times (until decided, equal or at its budget)'
    >>> replayed_text(pd.DataFrame({"rollouts": [500, 500]}))
    'Each was replayed 500 times'
    """
    if not len(table):
        return "Nothing was replayed"
    lo, hi = int(table["rollouts"].min()), int(table["rollouts"].max())
    if lo == hi:
        return f"Each was replayed {lo:,} times"
    return f"Each was replayed {lo:,} to {hi:,} times (until decided, equal or at its budget)"


def review_html(trace, seat, table: pd.DataFrame, title: str = "") -> str:
    """The review page of ``seat`` in ``trace``: a timeline per hand attempt (captioned table)
    with each decision of ``table`` (from :func:`kalooki_sim.review`) in its row, then the
    decisions table."""
    _, timeline = walk(trace, seat)
    objective = table["objective"].iat[0] if len(table) else "relative"
    counts = table["verdict"].value_counts() if len(table) else pd.Series(dtype=int)
    rows = [r for r in table.itertuples(index=False) if r.decision != "discard"]
    discards = {(r.game, r.hand, r.attempt, r.turn): r for r in table.itertuples(index=False)
                if r.decision == "discard"}
    n_disc = len(discards)
    out = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
           f"<title>{html.escape(title or f'Review of seat {seat}')}</title>"
           f"<style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title or f'Review of seat {seat}')}</h1>",
           f"<p class='lead'>{len(rows)} take and call decisions"
           + (f" and {n_disc} discards" if n_disc else "")
           + f" of seat {seat}; their verdicts after Holm: "
           + ", ".join(f"<span class='v {v}'>{counts.get(v, 0)} {v}</span>"
                       for v in ("good", "close", "mistake"))
           + f". {replayed_text(table)} both ways from what the seat knew then (its cards, "
           "what each opponent took or called, the pile, the table, hand sizes, the stock), "
           "never the hidden cards. "
           f"Values are <b>{objective}</b>: {html.escape(OBJECTIVES[objective])}; in points, "
           "lower is better.</p>",
           "<div class='legend'><b>Verdicts.</b> "
           + " ".join(f"<span class='v {k}'>{k}</span> {html.escape(v)}."
                      for k, v in VERDICTS.items())
           + " The attempts are numbered as the trace and the table number them, from 0."
           + "<br><b>Advisor.</b> clearly: the 95% interval of the difference excludes zero; "
             "probably: only the one-sided 80% bound does. "
           + f"<br><b>Columns.</b> {html.escape(LEGEND)}"
           + _ratings_text(table) + "</div>"]
    for h in timeline:
        entries = h["entries"]
        is_void = any("void" in n for e in entries if e["kind"] == "end"
                      for n in e.get("notes", []))
        head = (f"Game {h['game']}, hand {h['hand']} ({contract_text(h['groups'], h['runs'])})"
                f", attempt {h['attempt']}" + (" — void, dealt again (R13)" if is_void
                                                   else ""))
        out.append(f"<h2>{html.escape(head)}</h2>")
        out.append("<table><caption>Timeline of seat "
                   f"{seat}: each own turn (what it took or drew, laid down and discarded, its "
                   "cards after), each discard it was offered out of turn, and the advisor's "
                   "note on every decision</caption><colgroup><col class='t'><col class='w'>"
                   "<col class='h'><col class='d'></colgroup><thead><tr><th>table turn</th>"
                   "<th>what happened</th><th>your cards after</th><th>decision</th></tr>"
                   "</thead><tbody>")
        for e in entries:
            notes = [_decision_text(rows[i]._asdict()) for i in e["decisions"]]
            bad = any(rows[i].verdict == "mistake" for i in e["decisions"])
            d = (discards.get((h["game"], h["hand"], h["attempt"], e["turn"]))
                 if e["kind"] == "turn" else None)
            if d is not None:
                notes.append(_discard_text(d._asdict()))
                bad = bad or d.verdict == "mistake"
            notes = "<br>".join(notes)
            cls = " class='bad'" if bad else " class='offer'" if e["kind"] == "offer" else ""
            turn = ("deal" if e["kind"] == "deal" else "end" if e["kind"] == "end" else
                    f"{e['turn']}" + (f" (your turn {e['own_turn']})"
                                      if e["kind"] == "turn" else f" (seat {e['seat']})"))
            out.append(f"<tr{cls}><td class='num'>{turn}</td><td>{_events(e, seat)}</td>"
                       f"<td>{_cards(_sorted(e.get('hand', [])))}</td><td>{notes}</td></tr>")
        out.append("</tbody></table>")
    out.append(_decisions_table(table))
    out.append("</body></html>")
    return "\n".join(out)


def _ratings_text(table) -> str:
    """The ratings' legend and each hand's points lost (:func:`kalooki_sim.review_total`)."""
    if "rating" not in table.columns or not len(table):
        return ""
    tot = review_total(table)
    lost = "; ".join(f"hand {int(r.hand)}: {r.lost:.1f} [{r.lost_lo:.1f}, {r.lost_hi:.1f}] "
                     f"over {int(r.blunder + r.mistake + r.inaccuracy)} errors"
                     for r in tot.itertuples(index=False))
    return ("<br><b>Ratings.</b> " + " ".join(f"<b>{k}</b>: {html.escape(v)}."
                                               for k, v in RATINGS.items())
            + f"<br><b>Points lost</b> at the errors, measured again on fresh rollouts, with "
              f"95% intervals: {html.escape(lost)}.")


def _decisions_table(table) -> str:
    """Every decision in one captioned table (the DataFrame of :func:`kalooki_sim.review`)."""
    head = ["hand", "attempt", "turn", "decision", "card", "you", "advisor", "act", "not act",
            "act − not act [95%]", "p (Holm)", "needed", "outs", "verdict (Holm)", "lost [95%]",
            "rating"]
    # sixteen columns: the table scrolls on its own, not the page (a 1280 px screen)
    out = ["<div class='scroll'><table><caption>Every decision: the objective's expected value "
           "of acting (take or call) and of not (draw or pass), points, lower is better; cards "
           "needed and outs before → with the card; at a discard, the card let go (act) against "
           "its comparator (not act)</caption><thead><tr>"
           + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for r in table.itertuples(index=False):
        adv = "unsure" if r.advice == "unsure" else f"{r.advice} ({r.confidence})"
        out.append(
            f"<tr><td class='num'>{r.hand}</td><td class='num'>{r.attempt}</td>"
            f"<td class='num'>{r.turn}</td><td>{r.decision}</td><td>{_cards([r.card])}</td>"
            f"<td>{r.action}</td><td>{adv}</td><td class='num'>{r.value_act:+.1f}</td>"
            f"<td class='num'>{r.value_pass:+.1f}</td><td class='num'>{r.d_value:+.1f} "
            f"[{r.d_value_lo:+.1f}, {r.d_value_hi:+.1f}]</td>"
            f"<td class='num'>{r.p_holm:.3f}</td>"
            f"<td class='num'>{_na(r.needed_before)} → {_na(r.needed_after)}</td>"
            f"<td class='num'>{_na(r.outs_before)} → {_na(r.outs_after)}</td>"
            f"<td><span class='v {r.verdict}'>{r.verdict}</span></td>"
            + (f"<td class='num'>{r.lost:.1f} [{r.lost_lo:.1f}, {r.lost_hi:.1f}]</td>"
               f"<td>{html.escape(str(r.rating))}</td>" if hasattr(r, "rating") else
               "<td></td><td></td>") + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)
