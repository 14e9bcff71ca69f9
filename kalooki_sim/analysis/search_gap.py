"""How far the expert's take and call rule is from a player that searches.

The question: in each contract, how many points per hand does ``expert``'s take and call rule
(R9) leave on the table against a player that asks the advisor's paired rollouts at every take
and call (the ``"search"`` preset: expert everywhere else)? Measured with
:func:`~kalooki_sim.analysis.strength_table`: four players, ``search`` in one seat and three
``expert``, each deal played once with ``search`` in every seat (duplicate format), the value
of a deal the mean of search's penalty minus the three experts' mean (R12, doubles counted),
a 95% Student t interval over deals. Negative: search pays fewer points, so the expert's rule
leaves that many on the table; positive: the expert's rule is the better one (for a searcher of
this many rollouts).

The published table
-------------------
``kalooki_sim/analysis/search_vs_expert.csv`` (package data) holds one row per contract, with
``#`` header lines recording the command, the wall time and the machine. The
``should_i_call`` page reads it with :func:`search_table` and words it with
:func:`~kalooki_sim.report.player_words.search_gap_sentence`. Made with::

    python -m kalooki_sim.analysis.search_gap --deals 1000 --seed 19 --threads 2

Examples
--------
>>> t = search_table()
>>> list(t.columns[:6])
['hand', 'deals', 'd_penalty', 'd_penalty_lo', 'd_penalty_hi', 'rollouts']
>>> sorted(t["hand"]) == list(range(1, 10))
True
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from dataclasses import replace
from importlib import resources
from io import StringIO
from pathlib import Path

import pandas as pd

from .._lib import check_bool, check_int, check_seed
from ..engine.policies import preset
from ..players.tuning import read_committed, write_committed
from ._strength import strength_table

_CSV = "search_vs_expert.csv"
COLUMNS = ["hand", "deals", "d_penalty", "d_penalty_lo", "d_penalty_hi", "rollouts",
           "seconds", "screen"]


def make_search_table(deals=1000, seed=19, hands=range(1, 10), threads=2, rollouts=None,
                      path=None, progress=True, screen=None) -> pd.DataFrame:
    """Play ``search`` against three ``expert`` in each contract and return the table.

    Parameters
    ----------
    deals : int
        Deals per contract (each played four times, search in every seat), >= 2.
    seed : int
        The run's seed (C3); the same deals for every contract's run.
    hands : iterable of int
        Contracts 1-9 (R2).
    threads : int
        Worker threads; results do not depend on it.
    rollouts : int, optional
        Rollouts per decision of the search player (default: the ``search`` preset's).
    path : str or Path, optional
        Where to write the CSV with its ``#`` header (default: nothing written).
    progress : bool
        Print one line per contract as it finishes.
    screen : bool, optional
        Search only the offers whose card cuts the cards still needed (default: the
        ``search`` preset's); False searches every take and call.

    Returns
    -------
    pandas.DataFrame
        One row per contract, columns ``hand, deals, d_penalty, d_penalty_lo, d_penalty_hi,
        rollouts, seconds`` (search minus expert, points per hand; wall time of the contract).
    """
    deals = check_int("deals", deals, 2)
    seed = check_seed(seed)
    threads = check_int("threads", threads, 1)
    base = preset("search")
    rollouts = check_int("rollouts", base.rollouts if rollouts is None else rollouts, 1)
    screen = base.screen if screen is None else check_bool("screen", screen)
    changed = {}
    if rollouts != base.rollouts:
        changed["rollouts"] = rollouts
    if screen != base.screen:
        changed["screen"] = screen
    name = "search" + (f"-{rollouts}" if "rollouts" in changed else "") + (
        ("-screened" if screen else "-unscreened") if "screen" in changed else "")
    search = replace(base, name=name, **changed) if changed else base
    rows, t0 = [], time.perf_counter()
    for h in hands:
        t = time.perf_counter()
        r = strength_table(search, "expert", deals=deals, seed=seed, hands=[h],
                           threads=threads).iloc[0]
        rows.append({"hand": int(h), "deals": int(r["deals"]), "d_penalty": r["d_penalty"],
                     "d_penalty_lo": r["d_penalty_lo"], "d_penalty_hi": r["d_penalty_hi"],
                     "rollouts": rollouts, "seconds": round(time.perf_counter() - t, 1),
                     "screen": screen})
        if progress:
            x = rows[-1]
            print(f"hand {h}: {x['d_penalty']:+.2f} [{x['d_penalty_lo']:+.2f}, "
                  f"{x['d_penalty_hi']:+.2f}] over {x['deals']} deals, {x['seconds']} s",
                  flush=True)
    table = pd.DataFrame(rows, columns=COLUMNS)
    if path is not None:
        head = _header(deals, seed, threads, rollouts, table["hand"],
                       "--screen" if screen else "--no-screen",
                       f"{time.perf_counter() - t0:.0f} s")
        write_committed(path, head, table)
    return table


def _header(deals, seed, threads, rollouts, hands, screen_flag, wall) -> list[str]:
    """The ``#`` lines of a search table: the command that makes it (``screen_flag``:
    ``"--screen"``, ``"--no-screen"`` or ``""``), its wall time (text), the machine and what
    the columns mean."""
    hands_arg = ",".join(str(int(h)) for h in hands)
    command = (f"python -m kalooki_sim.analysis.search_gap --deals {deals} --seed {seed} "
               f"--threads {threads} --rollouts {rollouts} --hands {hands_arg}")
    return [
        f"made by: {command}" + (f" {screen_flag}" if screen_flag else ""),
        f"wall time: {wall}; machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "4 players: search in one seat, expert in three, every seat in turn on the same "
        "deals; d_penalty = search - the experts' mean, points per hand, 95% t interval "
        "over deals",
    ]


def _command_fields(line: str) -> dict:
    """The flags of a ``made by:`` header line, as strings (``--no-screen``: ``"1"``)."""
    words = line.split("made by: ", 1)[1].split()
    out = {}
    for i, w in enumerate(words):
        if w.startswith("--"):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            out[w[2:]] = "1" if not nxt or nxt.startswith("--") else nxt
    return out


def combine_tables(paths, path=None) -> pd.DataFrame:
    """One table from tables made by :func:`make_search_table` for different contracts with
    the same deals, seed, rollouts and screen (a long table made in pieces).

    A contract's rows depend only on the seed, the contract and the searcher (C3), not on the
    other contracts run with it, so the pieces are the rows the whole command gives. The
    header is the whole command's, with the wall times added and the pieces named.

    Parameters
    ----------
    paths : list of str or Path
        CSVs written by :func:`make_search_table` (``--out``), each with its ``#`` header.
    path : str or Path, optional
        Where to write the combined CSV (default: nothing written).

    Returns
    -------
    pandas.DataFrame
        The rows of every piece, by contract.
    """
    if len(paths) == 0:
        raise ValueError("paths=[] is not allowed; give the CSVs of the pieces")
    parts, fields, walls = [], [], 0.0
    for p in paths:
        text = Path(p).read_text(encoding="utf-8")
        head = [ln[2:] for ln in text.splitlines() if ln.startswith("# ")]
        made = [ln for ln in head if ln.startswith("made by: ")]
        wall = [ln for ln in head if ln.startswith("wall time: ")]
        if not made or not wall:
            raise ValueError(f"{p} has no 'made by:' and 'wall time:' header; give CSVs "
                             "written by make_search_table")
        fields.append(_command_fields(made[0]))
        walls += float(wall[0].split("wall time: ")[1].split(" s")[0])
        parts.append(pd.read_csv(StringIO(text), comment="#"))
    # what a piece's rows depend on: everything but its contracts and threads (C3)
    same = [{k: v for k, v in f.items() if k not in ("hands", "threads", "out")}
            for f in fields]
    for p, f in zip(paths, same, strict=True):
        if f != same[0]:
            raise ValueError(f"{p} was made with {f}, {paths[0]} with {same[0]}; combine "
                             "only pieces of the same deals, seed, rollouts and screen")
    table = pd.concat(parts, ignore_index=True)
    if table["hand"].duplicated().any():
        dup = sorted(set(table.loc[table["hand"].duplicated(), "hand"].astype(int)))
        raise ValueError(f"hands {dup} are in more than one piece; give each contract once")
    table = table.sort_values("hand", ignore_index=True)
    if path is not None:
        f = fields[0]
        flag = "--no-screen" if "no-screen" in f else ("--screen" if "screen" in f else "")
        head = _header(f["deals"], f["seed"], f.get("threads", "2"), f["rollouts"],
                       table["hand"], flag,
                       f"{walls:.0f} s (the {len(paths)} pieces' added, each a run of this "
                       "command with its own --hands)")
        write_committed(path, head, table)
    return table


def search_table() -> pd.DataFrame:
    """The committed table ``kalooki_sim/analysis/search_vs_expert.csv``: one row per contract
    (see the module docstring); its ``#`` header lines are in ``.attrs["header"]``."""
    return read_committed("kalooki_sim.analysis", _CSV)


def _main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m kalooki_sim.analysis.search_gap",
                                 description="Regenerate kalooki_sim/players/" + _CSV)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rollouts", type=int, default=None,
                    help="rollouts per decision (default: the search preset's)")
    ap.add_argument("--hands", type=str, default="1,2,3,4,5,6,7,8,9", help="e.g. 9 or 1,5,9")
    ap.add_argument("--screen", action=argparse.BooleanOptionalAction, default=None,
                    help="search only the offers whose card cuts the cards still needed "
                         "(--no-screen: every take and call; default: the search preset's)")
    ap.add_argument("--out", type=str, default=None, help="default: the package's CSV")
    ap.add_argument("--combine", nargs="+", default=None, metavar="CSV",
                    help="write one table (--out) from pieces made with --out for other "
                         "contracts; nothing is played")
    a = ap.parse_args(argv)
    out = a.out or str(resources.files("kalooki_sim.analysis").joinpath(_CSV))
    if a.combine:
        table = combine_tables(a.combine, out)
    else:
        hands = [int(x) for x in a.hands.split(",")]
        table = make_search_table(a.deals, a.seed, hands, a.threads, a.rollouts, out,
                                  screen=a.screen)
    print(table.to_string(index=False))
    print(f"wrote {out}")


if __name__ == "__main__":
    _main()
