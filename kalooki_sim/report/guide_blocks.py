"""Parts of the guide written from the committed tables when the site is built.

A guide source (``kalooki_sim/report/guide/*.md``) holds a line ``<!-- data: NAME -->`` where
a block of :data:`BLOCKS` goes: its numbers and the sentences about them come from the data
each time the page is built, so a new table cannot leave an old copy behind (a fixed
phrase that can turn false is a bug).

Examples
--------
>>> fill("Before.\\n<!-- data: nothing -->\\n")
Traceback (most recent call last):
...
ValueError: the guide asks for a data block 'nothing'; the blocks are search-gap, \
variance-ratio, void-calls
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

MARK = re.compile(r"^<!-- data: ([A-Za-z0-9_-]+) -->$", re.M)
#: the published report (``make report`` writes it); a block reads a table from the folder the
#: site is built into first, so the guide and the notebook pages of one build agree
REPORTS = Path(__file__).resolve().parents[2] / "reports"


def _cells(values, fmt) -> str:
    return " | ".join(fmt(v) for v in values)


def _signed(x: float) -> str:
    """``−0.42`` / ``+0.02``, a true minus sign; unlike :func:`kalooki_sim._stats.fixed`, a
    bound just below zero stays ``−0.00`` (its side of zero is what the reader looks for)."""
    return f"{x:+.2f}".replace("-", "−")


def search_gap_block(table: pd.DataFrame | None = None) -> str:
    """The search-versus-expert table as the guide shows it: the command that made it (its
    ``#`` header), the sentence of :func:`~kalooki_sim.report.player_words.search_gap_sentence`, the
    table per contract with unadjusted p-values, and :func:`~kalooki_sim.analysis.
    search_gap_tally`.

    ``table``: default the committed one (:func:`kalooki_sim.analysis.search_gap.search_table`),
    with its header lines in ``.attrs["header"]``.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 5], "deals": 1000, "d_penalty": [-4.0, 0.5],
    ...                   "d_penalty_lo": [-6.0, -1.5], "d_penalty_hi": [-2.0, 2.5],
    ...                   "rollouts": 96, "screen": False})
    >>> t.attrs["header"] = ["made by: python -m kalooki_sim.analysis.search_gap --seed 5",
    ...                      "wall time: 900 s; machine: x86_64, 2 cores"]
    >>> b = search_gap_block(t)
    >>> "`python -m kalooki_sim.analysis.search_gap --seed 5`" in b
    True
    >>> "| search − expert, points per hand | −4.00 | +0.50 |" in b
    True
    >>> "every take and call" in b and "one is below zero (hand 1)" in b
    True
    """
    from ..analysis import p_from_ci
    from .player_words import _p, screened, search_gap_sentence, search_gap_tally

    if table is None:
        from ..analysis.search_gap import search_table

        table = search_table()
    head = table.attrs.get("header", [])
    made = next((h.split("made by: ", 1)[1] for h in head if h.startswith("made by: ")), None)
    wall = next((h.split("wall time: ", 1)[1] for h in head if h.startswith("wall time: ")),
                None)
    deals = int(table["deals"].min()) if "deals" in table else None
    about = []
    if "screen" in table:
        about.append("Searched: " + ("only the takes and calls of a card that cuts its cards "
                                     "still needed (`screen=True`)." if screened(table) else
                                     "every take and call (`screen=False`)."))
    if wall:
        about.append(f"Wall time: {wall}.")
    p = p_from_ci(table["d_penalty"], table["d_penalty_lo"], table["d_penalty_hi"])
    lines = [f"`{made}`", ""] if made else []
    lines += [" ".join(about), "", "> " + search_gap_sentence(table), ""]
    caption = "Search minus expert per contract, points per hand"
    if deals:
        caption += f", {deals:,} deals each"
    lines += [f"Table: {caption} (kalooki_sim/analysis/search_vs_expert.csv).", "",
              "| hand | " + _cells(table["hand"], lambda h: str(int(h))) + " |",
              "|---|" + "---|" * len(table),
              "| search − expert, points per hand | "
              + _cells(table["d_penalty"], _signed) + " |",
              "| 95% interval | " + _cells(zip(table["d_penalty_lo"], table["d_penalty_hi"],
                                              strict=True),
                                          lambda b: f"[{_signed(b[0])}, {_signed(b[1])}]")
              + " |",
              "| p, unadjusted | " + _cells(p, lambda x: _p(float(x))) + " |", "",
              search_gap_tally(table)]
    return "\n".join(lines)


def published(name: str, data=None) -> Path:
    """The published table ``name``: ``data/name`` when the folder ``data`` (the site's
    build folder) has it, else the committed ``reports/name``.

    Raises
    ------
    FileNotFoundError
        When neither holds it, naming both places.
    """
    places = ([Path(data) / name] if data is not None else []) + [REPORTS / name]
    for f in places:
        if f.is_file():
            return f
    raise FileNotFoundError(f"no {name} in " + " or ".join(str(f.parent) for f in places)
                            + "; make report writes it (the should_i_call notebook)")


def _ratio_text(r) -> str:
    """``2.61 [2.54, 2.70]``: the decimals its interval supports; the ratio alone without
    one."""
    from .._stats import ci_text, fixed

    if not (np.isfinite(r["lo"]) and np.isfinite(r["hi"])):
        return f"{fixed(r['ratio'], 2)} (no interval: too few deals)"
    return ci_text(r["ratio"], r["lo"], r["hi"])


def variance_ratio_block(table: pd.DataFrame | None = None, data=None) -> str:
    """What the pairing of ``call_decisions`` buys, as the guide says it, from the report's
    ``variance_ratio.csv`` (the ``should_i_call`` notebook writes it with
    :func:`kalooki_sim.analysis.variance_ratio`): the per-decision ratio with its interval, the
    whole-policy one, and how many times as sharp the first is.

    ``table``: default :func:`published` ``("variance_ratio.csv", data)``; its
    ``comparison`` column names a ``per decision ...`` row and a ``whole policy (...)`` row.

    Examples
    --------
    >>> t = pd.DataFrame({"comparison": ["per decision (branch at the offer)",
    ...                                  "whole policy (expert vs never calling, hands 1, 5, 9)"],
    ...                   "ratio": [2.6111, 1.379], "lo": [2.5388, 1.2767],
    ...                   "hi": [2.6953, 1.5737], "decisions": [41570, 1200],
    ...                   "deals": [13782, 1200]})
    >>> b = variance_ratio_block(t)
    >>> "**2.61** [2.54, 2.70] per decision" in b, "41,570 decisions in 13,782 deals" in b
    (True, True)
    >>> "1.38 [1.28, 1.57] for the whole-policy comparison (expert vs never calling" in b
    True
    >>> "1.9 times as sharp" in b, "A ratio of 5 was not reached" in b
    (True, True)
    """
    if table is None:
        table = pd.read_csv(published("variance_ratio.csv", data))
    rows = {}
    for kind in ("per decision", "whole policy"):
        hit = table[table["comparison"].str.startswith(kind)]
        if len(hit) != 1:
            raise ValueError(f"variance_ratio.csv has {len(hit)} rows whose comparison starts "
                             f"with {kind!r}; it needs one (rows: "
                             + "; ".join(table["comparison"]) + ")")
        rows[kind] = hit.iloc[0]
    dec, pol = rows["per decision"], rows["whole policy"]
    about = re.search(r"\((.*)\)\s*$", pol["comparison"])
    first = _ratio_text(dec)
    if " [" in first:  # the estimate in bold, not its interval
        first = f"**{first.split(' [', 1)[0]}** [{first.split(' [', 1)[1]}"
    sharp = dec["ratio"] / pol["ratio"]
    reached = dec["lo"] >= 5 if np.isfinite(dec["lo"]) else dec["ratio"] >= 5
    return (
        "How much the pairing buys, from the report's page [Should I call this card, now?]"
        f"(should_i_call.html) (its table `variance_ratio.csv`: {int(dec['decisions']):,} "
        f"decisions in {int(dec['deals']):,} deals): the variance of an unpaired difference "
        f"over that of the paired one is {first} per decision (95% interval, bootstrap over "
        f"deals), against {_ratio_text(pol)} for the whole-policy comparison"
        + (f" ({about.group(1)}; {int(pol['deals']):,} deals)" if about else "")
        + f": per-decision pairing is {sharp:.1f} times as sharp. "
        + ("A ratio of 5 was reached." if reached else
           "A ratio of 5 was not reached: with the stock dealt from the top "
           '(`pairing="stock"`) the ratio was about 1.3 when the pairing was chosen, dealing '
           "it by seat lifted it to the value above, and what remains is the game's own chaos "
           "(one card more or less changes who goes out first, and that decides the penalty)."))


#: the guide's measurement of void deals and calls, expert against greedy tables
#: (:func:`make_void_calls` writes it; ``kalooki_sim/report/guide/void_calls.csv``)
VOID_CALLS = Path(__file__).with_name("guide") / "void_calls.csv"
VOID_CALLS_COLUMNS = ("hand", "policy", "hands", "deals", "void_deals", "p_void", "p_void_lo",
                      "p_void_hi", "calls")


def void_calls_table(deals: int = 2000, seed: int = 7, threads: int = 2,
                     policies=("expert", "greedy")) -> pd.DataFrame:
    """Void deals and calls of four-seat tables of one policy, per contract, on the same
    deals: ``ks.play_hands(deals, hand=h, policies=p, seed=seed)`` for each.

    Columns :data:`VOID_CALLS_COLUMNS`: ``hands`` scored, ``deals`` played (void ones
    too), ``void_deals``, the void share of deals with its 95% interval
    (:func:`kalooki_sim.analysis.void_rate`: Wilson's, the hand as the cluster) and ``calls``
    per seat per scored hand.
    """
    from ..analysis import scored, void_rate
    from ..engine.play import play_hands

    rows = []
    for h in range(1, 10):
        for pol in policies:
            d = play_hands(deals, hand=h, policies=pol, seed=seed, threads=threads,
                           progress=False)
            last = d.groupby("game").agg(a=("attempts", "first"), gave_up=("void", "all"))
            p, lo, hi, n = void_rate(d)
            rows.append({"hand": h, "policy": pol, "hands": n, "deals": int(last["a"].sum()),
                         "void_deals": int((last["a"] - 1 + last["gave_up"]).sum()),
                         "p_void": p, "p_void_lo": lo, "p_void_hi": hi,
                         "calls": float(scored(d)["calls"].mean())})
    return pd.DataFrame(rows, columns=list(VOID_CALLS_COLUMNS))


def make_void_calls(path=VOID_CALLS, deals: int = 2000, seed: int = 7,
                    threads: int = 2) -> pd.DataFrame:
    """Measure :func:`void_calls_table` and write it to ``path`` with its ``#`` header (the
    command, the wall time, the machine), as the guide reads it."""
    import os
    import platform
    import time

    from .plots import write_csv

    t0 = time.perf_counter()
    table = void_calls_table(deals, seed, threads)
    write_csv(table, path, [
        f"made by: python -m kalooki_sim.report.guide_blocks void-calls --deals {deals} "
        f"--seed {seed} --threads {threads}",
        f"wall time: {time.perf_counter() - t0:.0f} s; machine: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}",
        "4 players of one policy per table, the card's rules; void share of deals with its "
        "95% interval (Wilson, the hand as the cluster); calls per seat per scored hand"])
    return table


def void_calls_block(table: pd.DataFrame | None = None) -> str:
    """The guide's table of void deals and calls, expert tables against greedy ones on the
    same deals, and the sentence that compares them, from :data:`VOID_CALLS` (or ``table``,
    :func:`void_calls_table`'s columns).

    A contract's tables are void "less often" only where the expert's 95% interval lies wholly
    below greedy's (and "more often" where wholly above).

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 1, 2, 2], "policy": ["expert", "greedy"] * 2,
    ...                   "hands": 2000, "deals": [2000, 2000, 2001, 2090],
    ...                   "void_deals": [0, 0, 1, 90], "p_void": [0, 0, 1 / 2001, 90 / 2090],
    ...                   "p_void_lo": [0, 0, 8.8e-5, 0.035], "p_void_hi": [0.0019, 0.0019,
    ...                   0.0028, 0.053], "calls": [1.3, 1.2, 1.1, 1.2]})
    >>> b = void_calls_block(t)
    >>> "| 2 | 0.05% [0.01%, 0.28%] | 4.3% [3.5%, 5.3%] | 1.10 | 1.20 |" in b
    True
    >>> "calls at least as often as greedy in hand 1 and less often in hand 2 (1.100" in b
    True
    >>> "void less often in hand 2 (the expert's interval wholly below greedy's)" in b
    True
    """
    from ..analysis import join_words
    from .plots import pct_ci

    if table is None:
        table = pd.read_csv(VOID_CALLS, comment="#")
        head = [ln[1:].strip() for ln in VOID_CALLS.read_text(encoding="utf-8").splitlines()
                if ln.startswith("#")]
    else:
        head = table.attrs.get("header", [])
    made = next((h.split("made by: ", 1)[1] for h in head if h.startswith("made by: ")), None)
    e = table[table["policy"] == "expert"].set_index("hand")
    g = table[table["policy"] == "greedy"].set_index("hand")
    hands = [h for h in e.index if h in g.index]

    def share(r):
        return pct_ci(r["p_void"], r["p_void_lo"], r["p_void_hi"], n=r["deals"])

    lines = [f"Four `expert` players against four `greedy` ones, the same deals (`{made}`; "
             if made else "Four `expert` players against four `greedy` ones, the same deals ("]
    lines[0] += ("void share of deals from `analysis.void_rate`, 95% Wilson intervals with "
                 "the hand as the cluster; calls per seat per scored hand):")
    deals = int(e["hands"].min()) if len(e) else 0
    lines += ["", "Table: Void deals and calls, four experts against four greedy players on "
              f"the same {deals:,} deals per contract.", "",
              "| hand | void deals, expert | void deals, greedy | calls, expert | calls, greedy |",
              "|---|---|---|---|---|"]
    lines += [f"| {h} | {share(e.loc[h])} | {share(g.loc[h])} | {e.loc[h, 'calls']:.2f} | "
              f"{g.loc[h, 'calls']:.2f} |" for h in hands]
    more_calls = [h for h in hands if e.loc[h, "calls"] >= g.loc[h, "calls"]]
    fewer_calls = [h for h in hands if h not in more_calls]
    below = [h for h in hands if e.loc[h, "p_void_hi"] < g.loc[h, "p_void_lo"]]
    above = [h for h in hands if e.loc[h, "p_void_lo"] > g.loc[h, "p_void_hi"]]

    def of(hs):
        return f"hand{'s' * (len(hs) != 1)} {join_words(hs)}"

    if not fewer_calls:
        calls = "The expert calls at least as often as greedy in every contract"
    elif not more_calls:
        calls = "The expert calls less often than greedy in every contract"
    else:
        calls = (f"The expert calls at least as often as greedy in {of(more_calls)} and less "
                 f"often in {of(fewer_calls)} ("
                 + "; ".join(f"{e.loc[h, 'calls']:.3f} against {g.loc[h, 'calls']:.3f}"
                             for h in fewer_calls) + ")")
    if above:
        voids = f"; its tables are void more often in {of(above)}"
        if below:
            voids += f" and less often in {of(below)}"
        voids += " (where the intervals do not overlap)"
    elif below:
        voids = (f"; its tables are void less often in {of(below)} (the expert's interval "
                 "wholly below greedy's) and clearly more often in none")
    else:
        voids = "; in no contract are its tables clearly void more or less often"
    lines += ["", calls + voids + ". Voids are replayed (R13), so they cost time, not points."]
    return "\n".join(lines)


def _search_gap(data=None) -> str:
    return search_gap_block()


def _variance_ratio(data=None) -> str:
    return variance_ratio_block(data=data)


def _void_calls(data=None) -> str:
    return void_calls_block()


#: the blocks a guide source may ask for: name -> function of the build folder (or None)
#: returning markdown
BLOCKS = {"search-gap": _search_gap, "variance-ratio": _variance_ratio,
          "void-calls": _void_calls}


def fill(text: str, data=None) -> str:
    """``text`` with each ``<!-- data: NAME -->`` line replaced by block ``NAME``'s markdown.

    ``data``: the folder the site is built into; a block that reads a published table takes
    it from there when it is there (:func:`published`).

    Raises
    ------
    ValueError
        For a name that is not in :data:`BLOCKS`.
    """
    def one(m):
        name = m.group(1)
        if name not in BLOCKS:
            raise ValueError(f"the guide asks for a data block {name!r}; the blocks are "
                             + ", ".join(sorted(BLOCKS)))
        return BLOCKS[name](data)

    return MARK.sub(one, text)


def main(argv=None):
    """``python -m kalooki_sim.report.guide_blocks void-calls [--deals N] [--seed S]
    [--threads T]``: measure the guide's void-and-calls table again and write
    :data:`VOID_CALLS` (the results are the same on any number of threads)."""
    import argparse

    ap = argparse.ArgumentParser(description="Measure a committed table of the guide.")
    ap.add_argument("table", choices=["void-calls"], help="the table to measure")
    ap.add_argument("--deals", type=int, default=2000, help="deals per contract (default 2000)")
    ap.add_argument("--seed", type=int, default=7, help="seed of the deals (default 7)")
    ap.add_argument("--threads", type=int, default=2, help="threads (default 2)")
    a = ap.parse_args(argv)
    t = make_void_calls(deals=a.deals, seed=a.seed, threads=a.threads)
    print(f"{len(t)} rows written to {VOID_CALLS}")


if __name__ == "__main__":
    main()
