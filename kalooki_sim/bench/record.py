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
           "review_h9_s": 2, "time_to_decided_s": 2, "review_s_per_hand": 2}


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``), or what :mod:`platform` knows."""
    from ..report.publish import cpu_model

    return cpu_model()


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


#: the floors each figure must keep ("must"): (value, True when the figure must be at least it)
MUSTS = {"greedy_mix_1t ÷ 01f82fe": (1.0, True), "greedy_mix_2t ÷ 01f82fe": (1.0, True),
         "expert ÷ greedy": (0.5, True), "cards_needed_py_us": (10.0, False),
         "advise_s": (1.0, False), "advise_history_s": (2.0, False),
         "call_decisions_h9": (60.0, True), "review_h9_s": (10.0, False),
         "slowest_expert_ms": (50.0, False), "time_to_decided_s": (1.0, False)}

#: the derived panel: the expert's speed over greedy's in the same run, 1 thread
EXPERT_OVER_GREEDY = "expert ÷ greedy"


def panels(df):
    """The chart's panels from the record's rows: ``[(name, runs, must)]``, ``runs`` the
    figure's rows in record order (columns ``commit``, ``date``, ``value``), ``must`` its
    :data:`MUSTS` entry or None. After ``expert_mix_1t`` comes :data:`EXPERT_OVER_GREEDY`:
    ``expert_mix_1t / greedy_mix_1t`` of each run that timed both (a run: one commit and date).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"commit": ["a", "a", "b", "b"], "date": ["d1", "d1", "d2", "d2"],
    ...                    "figure": ["greedy_mix_1t", "expert_mix_1t"] * 2,
    ...                    "value": [100.0, 25.0, 100.0, 50.0]})
    >>> [(n, list(r["value"]), m) for n, r, m in panels(df)][-1]
    ('expert ÷ greedy', [0.25, 0.5], (0.5, True))
    """
    import pandas as pd

    out = []
    for name in dict.fromkeys(df["figure"]):
        runs = df[df["figure"] == name][["commit", "date", "value"]].reset_index(drop=True)
        out.append((name, runs, MUSTS.get(name)))
        if name == "expert_mix_1t":
            g = df[df["figure"] == "greedy_mix_1t"][["commit", "date", "value"]]
            both = runs.merge(g, on=["commit", "date"], suffixes=("", "_g"))
            if len(both):
                ratio = pd.DataFrame({"commit": both["commit"], "date": both["date"],
                                      "value": both["value"] / both["value_g"]})
                out.append((EXPERT_OVER_GREEDY, ratio, MUSTS[EXPERT_OVER_GREEDY]))
    return out


def chart(path=RECORD, out=CHART) -> Path | None:
    """One small panel per figure (:func:`panels`): its value at each run of the record, in
    order, the commit under each point; the figure's floor as a dashed red line ("must"); a log
    scale where the values span more than 50 times. None if no record."""
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
    pans = panels(df)
    ncol = 3
    nrow = (len(pans) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(12, 2.8 * nrow), squeeze=False)
    for ax, (name, d, must) in zip(axes.flat, pans, strict=False):
        x = range(len(d))
        v = d["value"].astype(float)
        ax.plot(x, v, "o-", color="#0072B2")
        if must is not None:
            ax.axhline(must[0], color="#D55E00", lw=1, ls="--",
                       label=f"must {'≥' if must[1] else '≤'} {must[0]:g}")
            ax.legend(fontsize=7, loc="best", frameon=False)
        if v.min() > 0 and v.max() / v.min() > 50:
            ax.set_yscale("log")
        ax.set_title(name, fontsize=10)
        ax.set_xticks(list(x))
        ax.set_xticklabels([str(c)[:7] for c in d["commit"]], fontsize=7, rotation=60,
                           ha="right")
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(pans):]:
        ax.set_visible(False)
    first, last = str(df["date"].iloc[0])[:10], str(df["date"].iloc[-1])[:10]
    fig.suptitle("make bench: each figure at each recorded run, by commit, "
                 f"{first} to {last} (reports/performance.csv)", fontsize=11)
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
