"""The chart a table plays: the call chart's study made again with players who
follow the chart at the table, until its verdicts settle.

Round 0 is the study with four ``expert`` players (:func:`call_chart_study`); its chart is
``chart-0.csv``. Round ``k`` plays the same deals (the study's seed) with four players who
follow round ``k - 1``'s chart (``preset("chart:<out>/chart-<k-1>.csv")``: the expert, but at
each take and call its cell's verdict where the cell decides), and makes ``chart-<k>.csv``.
After each round the share of its decisions in cells whose verdict turned from act to not act
or back (:func:`~kalooki_sim.analysis.verdict_flips`) is recorded. The rounds go on until at
least ``min_rounds`` are done and fewer than ``settle`` (2%) of the decisions flip, or
``max_rounds`` are done; a chart that does not settle shows its cycle in the rounds' table.

Each round is a resumable study of its own (``<out>/round-<k>/``), so a stopped run of this
command continues where it stopped. :func:`publish_round` then copies the last round's
statistics where the report reads them and its chart where the ``chart`` preset reads it.

Made with::

    python -m kalooki_sim.analysis.chart_rounds --deals 10000 --out .study/rounds --publish
"""

from __future__ import annotations

import argparse
import shutil
import time
from importlib import resources
from pathlib import Path

import pandas as pd

from .._lib import check_int, check_real, log
from ..engine.policies import preset
from ._calls import THIN_DEALS
from ._chart import (
    call_chart,
    read_chart_stats,
    verdict_flips,
    write_chart_stats,
    write_play_chart,
)
from ._thumb import thumb_rules, write_thumb
from .chart_study import SEED, call_chart_study

#: a chart has settled when fewer than this share of its decisions flip in a round
SETTLE = 0.02
ROUND_COLUMNS = ["round", "table", "hand", "decisions", "decided", "flipped",
                 "decided_changed", "seconds"]


def _table_words(k: int) -> str:
    return ("four expert players" if k == 0 else
            f"four players following round {k - 1}'s chart (the expert where it is undecided)")


def chart_rounds(deals=10_000, out=".study/rounds", seed=SEED, min_rounds=2, max_rounds=5,
                 settle=SETTLE, threads=None, scheduler=None, min_deals=THIN_DEALS,
                 progress=None) -> pd.DataFrame:
    """Run (or resume) the chart's fixed point (see the module docstring) and return its
    rounds: per round and contract (``hand``; <NA>: all nine), the decisions, the decided share
    and the shares that ``flipped`` (act to not act or back) or changed between decided and
    not since the round before (<NA> for round 0), and the round's wall ``seconds``.

    Parameters
    ----------
    deals : int
        Deals per contract of every round's study.
    out : str or path
        Where the rounds' studies (``round-<k>/``) and charts (``chart-<k>.csv``) are kept.
    seed : int
        The studies' seed: every round plays the same deals.
    min_rounds, max_rounds : int
        Rounds after round 0: at least ``min_rounds``, at most ``max_rounds``.
    settle : float
        Stop once fewer than this share of a round's decisions flip.
    threads, scheduler, progress
        As :func:`~kalooki_sim.analysis.chart_study.call_chart_study`.
    min_deals : int
        Fewest deals a cell needs for a verdict (the chart's).
    """
    deals = check_int("deals", deals, 1)
    min_rounds = check_int("min_rounds", min_rounds, 1)
    max_rounds = check_int("max_rounds", max_rounds, min_rounds)
    settle = check_real("settle", settle, 0, 1, open_lo=True)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows, prev = [], None
    for k in range(max_rounds + 1):
        pol = "expert" if k == 0 else preset(f"chart:{out / f'chart-{k - 1}.csv'}")
        t0 = time.perf_counter()
        st = call_chart_study(deals, out / f"round-{k}", policies=pol, seed=seed, resume=True,
                              threads=threads, scheduler=scheduler, progress=progress)
        seconds = float(st.manifest.get("wall_s", time.perf_counter() - t0))
        prov = dict(st.provenance, table=_table_words(k), round=k)
        write_chart_stats(st.stats, out / f"round-{k}" / "call_chart_stats.csv", prov)
        chart = write_play_chart(st.stats, out / f"chart-{k}.csv",
                                 {"statistics": str(out / f"round-{k}" /
                                                    "call_chart_stats.csv"),
                                  "round": k, "table": _table_words(k)}, min_deals)
        per = (verdict_flips(prev, chart) if prev is not None else
               verdict_flips(chart, chart).assign(flipped=float("nan"),
                                                   decided_changed=float("nan")))
        tot = per["decisions"].sum()
        every = {"hand": pd.NA, "decisions": int(tot),
                 "decided": float((per["decided_after"] * per["decisions"]).sum() / tot),
                 "flipped": float((per["flipped"] * per["decisions"]).sum() / tot),
                 "decided_changed": float((per["decided_changed"] * per["decisions"]).sum()
                                          / tot)}
        for r in [every] + [dict(hand=int(x.hand), decisions=int(x.decisions),
                                 decided=x.decided_after, flipped=x.flipped,
                                 decided_changed=x.decided_changed)
                            for x in per.itertuples()]:
            rows.append(dict(r, round=k, table=_table_words(k), seconds=seconds))
        log.warning("chart round %d (%s): %.2f%% of the decisions flipped", k, _table_words(k),
                    100 * every["flipped"] if k else float("nan"))
        prev = chart
        if k >= min_rounds and every["flipped"] < settle:
            break
    t = pd.DataFrame(rows, columns=ROUND_COLUMNS)
    t["hand"] = t["hand"].astype("Int64")
    return t


def publish_round(out, k: int, stats_path=None, chart_path=None, thumb_path=None,
                  min_deals=THIN_DEALS) -> None:
    """Make round ``k`` of the fixed point in ``out`` the published chart: its statistics to
    ``kalooki_sim/analysis/call_chart_stats.csv`` (what the report reads), its chart to
    ``kalooki_sim/engine/chart.csv`` (what the ``chart`` preset plays) and its rules of thumb
    (:func:`~kalooki_sim.analysis.thumb_rules`) to ``kalooki_sim/engine/thumb.csv`` (what
    the ``thumb`` preset plays and the page prints), each with its provenance and the table it
    assumes."""
    out = Path(out)
    stats_path = Path(stats_path or resources.files("kalooki_sim.analysis")
                      / "call_chart_stats.csv")
    chart_path = Path(chart_path or resources.files("kalooki_sim.engine") / "chart.csv")
    thumb_path = Path(thumb_path or resources.files("kalooki_sim.engine") / "thumb.csv")
    s, prov = read_chart_stats(out / f"round-{k}" / "call_chart_stats.csv")
    chart = call_chart(s, min_deals=min_deals)
    if chart.empty:
        raise ValueError(f"round {k} in {str(out)!r} has an empty chart")
    write_chart_stats(s, stats_path, prov)
    shutil.copyfile(out / f"chart-{k}.csv", chart_path)
    write_thumb(thumb_rules(chart, s, min_deals=min_deals), thumb_path,
                {"what": "rules of thumb true to the chart (kalooki_sim.analysis.thumb_rules)",
                 "chart": f"round {k} of the fixed point, {prov.get('table', '')}",
                 "statistics": prov.get("command", "?"), "date": prov.get("date", "?")})


def _main(argv=None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m kalooki_sim.analysis.chart_rounds",
        description="The chart's fixed point: the call chart's study again with chart players "
                    "at the table, round after round, until its verdicts settle.")
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--out", default=".study/rounds")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--min-rounds", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--write", default=None, help="write the rounds' table (CSV) here")
    ap.add_argument("--publish", action="store_true",
                    help="make the last round the published chart (package data)")
    a = ap.parse_args(argv)
    t = chart_rounds(a.deals, a.out, a.seed, a.min_rounds, a.max_rounds, threads=a.threads,
                     scheduler=a.scheduler)
    print(t.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if a.write:
        cmd = (f"python -m kalooki_sim.analysis.chart_rounds --deals {a.deals} --out {a.out} "
               f"--seed {a.seed} --min-rounds {a.min_rounds} --max-rounds {a.max_rounds}")
        head = f"# made by: {cmd}\n# date: {time.strftime('%Y-%m-%d')}\n"
        Path(a.write).write_text(head + t.to_csv(index=False, float_format="%.6g"),
                                 encoding="utf-8")
    if a.publish:
        publish_round(a.out, int(t["round"].max()))


if __name__ == "__main__":
    _main()
