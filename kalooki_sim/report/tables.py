"""Readable numbers and tables for the pages: shares and intervals in words (``pct``,
``pct_ci``, ``one_in``, ``num_ci``, ``count``), CSV files with a header, and frames as HTML
tables with human labels and no index (``table``, ``details``). :mod:`.plots` re-exports them.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np

from .._stats import bound, decimals, fixed


def pct(p, digits: int = 1) -> str:
    """A probability as a percentage a reader can take in: ``pct(0.1234) == '12.3%'``,
    ``pct(0.00003) == '< 0.01%'``, small ones with two significant digits.

    Examples
    --------
    >>> pct(0.1234), pct(0.00003), pct(0.00154), pct(0), pct(1)
    ('12.3%', '< 0.01%', '0.15%', '0%', '100%')
    """
    if p is None or not np.isfinite(p):
        return "n/a"
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    v = 100 * p
    if v < 0.01:
        return "< 0.01%"
    if v > 99.99:
        return "> 99.99%"
    if v < 1 or v > 99:
        return f"{v:.2g}%" if v < 1 else f"{v:.2f}%"
    return f"{v:.{digits}f}%"


def pct_ci(p, lo, hi, digits: int = 1, n=None) -> str:
    """``'12.3% [11.9%, 12.7%]'``, with the decimals the interval supports (:func:`decimals`);
    at the ends the one-sided bound (``'100% (≥ 99.97%)'``); a zero seen in ``n`` trials as
    ``'0 of n (≤ 0.012%)'``.

    Examples
    --------
    >>> pct_ci(1.0, 0.99967, 1.0), pct_ci(0.0, 0.0, 0.00012), pct_ci(0.25, 0.24, 0.26)
    ('100% (≥ 99.97%)', '0% (≤ 0.012%)', '25.0% [24.0%, 26.0%]')
    >>> pct_ci(0.0, 0.0, 0.000015, n=250_000)
    '0 of 250,000 (≤ 0.0015%)'
    >>> pct_ci(0.00003, 0.00001, 0.00006), pct_ci(0.99986, 0.9998, 0.99992)
    ('0.003% [0.001%, 0.006%]', '99.986% [99.980%, 99.992%]')
    >>> pct_ci(0.00025, 0.000044, 0.0014), pct_ci(0.002, 0.0004, 0.006)
    ('0.03% [0.004%, 0.14%]', '0.2% [0.04%, 0.6%]')
    """
    if not np.isfinite(p):
        return "n/a"
    if lo == hi == p:
        return pct(p, digits)
    if p == 1:
        return f"100% (≥ {100 * lo:.2f}%)" if lo > 0.99 else f"100% (≥ {pct(lo)})"
    if p == 0:
        top = f"{100 * hi:.2g}%" if hi < 0.01 else pct(hi)
        seen = n is not None and np.isfinite(n) and n > 0
        return f"0 of {int(n):,} (≤ {top})" if seen else f"0% (≤ {top})"
    d = decimals(100 * lo, 100 * hi)
    if d is None:
        return f"{pct(p, digits)} [{pct(lo, digits)}, {pct(hi, digits)}]"
    d = max(d, 0)
    # an end the decimals would print as 0% or 100% that it is not gets the digits to say so
    return (f"{fixed(100 * p, d)}% [{bound(100 * lo, d)}%, "
            f"{bound(100 * hi, d, limit=100.0)}%]")


def one_in(p, lo=None, hi=None, n=None) -> str:
    """A rare chance as "1 in N" (three significant digits), with its interval, or "none in
    n" with the interval's upper end when nothing was seen.

    Examples
    --------
    >>> one_in(1 / 6490), one_in(0.0001, 0.00007, 0.00012)
    ('1 in 6,490', '1 in 10,000 (1 in 14,300 to 1 in 8,330)')
    >>> one_in(0.0, 0.0, 1.9e-6, 2_000_000)
    'none in 2,000,000 (at most 1 in 526,000)'
    """
    def n_of(x):
        v = 1 / x
        digits = max(0, int(np.floor(np.log10(v))) - 2) if v >= 1000 else 0
        return f"{round(v, -digits):,.0f}"

    if p is None or not np.isfinite(p):
        return "n/a"
    if p == 0:
        seen = f"none in {int(n):,}" if n else "none seen"
        return f"{seen} (at most 1 in {n_of(hi)})" if hi and hi > 0 else seen
    if p >= 0.5:
        return pct(p)
    if lo is None or hi is None or lo == hi:
        return f"1 in {n_of(p)}"
    lo_t = "1 in more than a million" if lo <= 1e-6 else f"1 in {n_of(lo)}"
    return f"1 in {n_of(p)} ({lo_t} to 1 in {n_of(hi)})"


def num_ci(m, lo, hi, digits: int = 1, signed: bool = False, unit: str = "",
           at_least: int | None = None) -> str:
    """``'13.9 [13.8, 14.0]'`` (``signed``: ``'-46.2 [-53.9, -38.5]'`` with a plus sign for
    gains); ``'n/a'`` for NaN; ``inf`` as ``'> max'`` is the caller's business.

    The decimals are the interval's (:func:`decimals`: no digit beyond what it supports, none
    hidden that it does), or ``at_least`` where more are wanted (a wide interval in points is
    otherwise rounded to tens, each end moved by up to 5); ``digits`` serves when there is no
    interval. An interval of no width is the number alone. A bound that would print as 0
    without being 0 keeps its side of zero (:func:`bound`).

    Examples
    --------
    >>> num_ci(13.91, 13.79, 14.03), num_ci(-4.2, -5.0, -3.4, signed=True, unit=" pts")
    ('13.91 [13.79, 14.03]', '−4.2 pts [−5.0, −3.4]')
    >>> num_ci(0.0008, -0.0028, 0.0044, signed=True), num_ci(0.0, 0.0, 0.0, 2, signed=True)
    ('+0.001 [−0.003, +0.004]', '0')
    >>> num_ci(7224.93, 5076.2, 12658.4), num_ci(0.004, -0.012, 0.021, signed=True)
    ('7,000 [5,000, 13,000]', '+0.004 [−0.012, +0.021]')
    >>> num_ci(0.19, -24.8, 25.2, signed=True), num_ci(0.19, -24.8, 25.2, 1, True, at_least=1)
    ('+0 [−20, +30]', '+0.2 [−24.8, +25.2]')
    >>> num_ci(12.0, 0.012, 24.06, signed=True, at_least=1)
    '+12.0 [+0.01, +24.1]'
    """
    if m is None or not np.isfinite(m):
        return "n/a"
    if lo is not None and hi is not None and lo == hi == m:
        return ("0" if m == 0 else fixed(m, digits, signed)) + unit
    d = decimals(lo, hi)
    if d is None:
        return f"{fixed(m, digits, signed)}{unit}"
    if at_least is not None:
        d = max(d, at_least)
    m_t, lo_t, hi_t = fixed(m, d, signed), bound(lo, d, signed), bound(hi, d, signed)
    if unit == "%":
        return f"{m_t}% [{lo_t}%, {hi_t}%]"
    return f"{m_t}{unit} [{lo_t}, {hi_t}]"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"5 cards"``, ``"1 mistake"``, ``"0 mistakes"``.

    >>> count(1, "mistake"), count(3, "mistake"), count(2, "deal sequence")
    ('1 mistake', '3 mistakes', '2 deal sequences')
    """
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def write_csv(df, path, header=()) -> Path:
    """``df`` as a CSV at ``path`` (no index), ``header`` lines first as ``# `` comments (its
    provenance: command, wall time, machine); read it back with ``pd.read_csv(path,
    comment="#")``."""
    path = Path(path)
    with open(path, "w", encoding="utf-8", newline="") as f:
        for line in header:
            f.write(f"# {line}\n")
        df.to_csv(f, index=False)
    return path


_TABLE_CSS = ("<style>table.kt{border-collapse:collapse;font-size:0.9em;margin:0.5em 0}"
              "table.kt th,table.kt td{border-bottom:1px solid #ddd;padding:3px 8px;"
              "text-align:right}table.kt th{background:#f4f4f4}"
              "table.kt td:first-child,table.kt th:first-child{text-align:left}</style>")


def table_html(df, caption: str = "") -> str:
    """A readable HTML table of ``df`` (already formatted strings): no index, a caption."""
    body = df.to_html(index=False, escape=True, classes="kt", border=0)
    # the <table> tag's attributes differ across pandas versions (pandas 3 writes no border)
    body = re.sub(r"<table[^>]*>", '<table class="dataframe kt">', body, count=1)
    if caption:
        body = body.replace('<table class="dataframe kt">',
                            f'<table class="dataframe kt"><caption style="caption-side:top;'
                            f'text-align:left;font-weight:bold">{html.escape(caption)}'
                            f"</caption>", 1)
    return _TABLE_CSS + body


def table(df, caption: str = ""):
    """Show :func:`table_html` in a notebook."""
    from IPython.display import HTML, display

    display(HTML(table_html(df, caption)))


def details(df, summary: str, csv: str | None = None):
    """Show a wide table collapsed under ``summary`` (click to open), with a link to its CSV."""
    from IPython.display import HTML, display

    link = f' <small>(also <a href="{html.escape(csv)}">{html.escape(csv)}</a>)</small>' \
        if csv else ""
    display(HTML(f"<details><summary>{html.escape(summary)}{link}</summary>"
                 f"{table_html(df, summary)}</details>"))
