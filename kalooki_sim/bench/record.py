"""The performance record: one committed CSV row per figure per ``make bench``, and its chart.

The record (``reports/performance.csv``) replaces the README's dated paragraphs: each row says
which commit was timed, when, on what CPU, with how many threads, under what load, and the
figure's value. Ratios against another tree are rows too (figure ``NAME ÷ REF``), since only a
ratio from one run is a speed claim on a shared machine. :func:`chart` draws it.
"""

from __future__ import annotations

import csv
import datetime as _dt
import os
from pathlib import Path

from .against import ROOT

RECORD = ROOT / "reports" / "performance.csv"
CHART = ROOT / "reports" / "performance.png"
COLUMNS = ("commit", "date", "cpu", "threads", "load", "figure", "value")

#: threads each figure runs on (the others use one)
THREADS = {"greedy_mix_2t": 2, "advise_s": 2, "advise_history_s": 2, "call_decisions_h9": 2,
           "review_h9_s": 2}


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``), or what :mod:`platform` knows."""
    from ..report.publish import _cpu_model

    return _cpu_model()


def rows(result, load: float, date: str | None = None) -> list[dict]:
    """The record's rows for one :func:`~kalooki_sim.bench.against.compare` result: this tree's
    best per figure, and the speed ratio against the other tree when there is one."""
    date = date or _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M")
    head = result["sides"][0]
    base = {"commit": head, "date": date, "cpu": cpu_model(), "load": f"{load:.2f}"}
    out = []
    for name, f in result["figures"].items():
        th = THREADS.get(name, 1)
        v = f["best"][head]
        if v is not None:
            out.append({**base, "threads": th, "figure": name, "value": f"{v:.6g}"})
        if f["ratio"] is not None:
            out.append({**base, "threads": th, "figure": f"{name} ÷ {result['sides'][1]}",
                        "value": f"{f['ratio']:.4g}"})
    return out


def append(new_rows, path=RECORD) -> Path:
    """Append ``new_rows`` to the record at ``path`` (written with its header when new)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        if fresh:
            w.writeheader()
        w.writerows(new_rows)
    return path


def chart(path=RECORD, out=CHART) -> Path | None:
    """One small panel per figure: its value at each run of the record, in order, the commit
    under each point; ratios against another tree with a line at 1. None if no record."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    path = Path(path)
    if not path.exists():
        return None
    df = pd.read_csv(path)
    if df.empty:
        return None
    figs = list(dict.fromkeys(df["figure"]))
    ncol = 3
    nrow = (len(figs) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(12, 2.6 * nrow), squeeze=False)
    for ax, name in zip(axes.flat, figs, strict=False):
        d = df[df["figure"] == name].reset_index(drop=True)
        x = range(len(d))
        ax.plot(x, d["value"], "o-", color="#0072B2")
        if "÷" in name:
            ax.axhline(1, color="0.5", lw=1, ls="--")
        ax.set_title(name, fontsize=10)
        ax.set_xticks(list(x))
        ax.set_xticklabels([f"{c}\n{dt[5:10]}" for c, dt in zip(d["commit"], d["date"],
                                                                   strict=True)], fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(figs):]:
        ax.set_visible(False)
    fig.suptitle("make bench: each figure at each recorded run (reports/performance.csv)",
                 fontsize=11)
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return out


def load_average() -> float:
    """The one-minute load average (0 where the system has none)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0
