"""Parts of the guide written from the committed tables when the site is built.

A guide source (``kalooki_sim/report/guide/*.md``) holds a line ``<!-- data: NAME -->`` where
a block of :data:`BLOCKS` goes: its numbers and the sentences about them come from the data
each time the page is built, so a new table cannot leave an old copy behind (issue 29: a fixed
phrase that can turn false is a bug).

Examples
--------
>>> fill("Before.\\n<!-- data: nothing -->\\n")
Traceback (most recent call last):
...
ValueError: the guide asks for a data block 'nothing'; the blocks are search-gap
"""

from __future__ import annotations

import re

import pandas as pd

MARK = re.compile(r"^<!-- data: ([A-Za-z0-9_-]+) -->$", re.M)


def _cells(values, fmt) -> str:
    return " | ".join(fmt(v) for v in values)


def _signed(x: float) -> str:
    """``−0.42`` / ``+0.02``, a true minus sign; unlike :func:`..analysis._words.fixed`, a
    bound just below zero stays ``−0.00`` (its side of zero is what the reader looks for)."""
    return f"{x:+.2f}".replace("-", "−")


def search_gap_block(table: pd.DataFrame | None = None) -> str:
    """The search-versus-expert table as the guide shows it: the command that made it (its
    ``#`` header), the sentence of :func:`~kalooki_sim.analysis.search_gap_sentence`, the
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
    from ..analysis import search_gap_sentence, search_gap_tally
    from ..analysis._multiplicity import p_from_ci
    from ..analysis._words import _p, screened

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


#: the blocks a guide source may ask for: name -> function returning markdown
BLOCKS = {"search-gap": search_gap_block}


def fill(text: str) -> str:
    """``text`` with each ``<!-- data: NAME -->`` line replaced by block ``NAME``'s markdown.

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
        return BLOCKS[name]()

    return MARK.sub(one, text)
