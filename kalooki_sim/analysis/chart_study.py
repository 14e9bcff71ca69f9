"""The call-chart study: every take and call of many deals, branched, kept.

:func:`call_chart_study` is the one code path of ``kalooki call-chart`` and ``make study``. The
deals of each contract are cut into chunks of consecutive game ids; every chunk is played by
:func:`~kalooki_sim.call_decisions` (on numba threads here, or as a future on a
``dask.distributed`` cluster) and gives

* its per-decision rows, one Parquet file (``decisions/hand-H/chunk-NNNNNN.parquet``), and
* the chart cells' sufficient statistics (:func:`kalooki_sim.analysis.chart_stats`), a small
  CSV (``stats/hand-H-chunk-NNNNNN.csv``).

Files are written through a temporary name and ``os.replace``, then the manifest; a killed
study loses at most the chunks in flight and ``resume=True`` (``--resume``) plays only the
missing ones. Play depends only on (seed, game id) (C3), so the result does not depend on the
chunking, threads, cluster or interruptions. When every chunk is done the statistics are
merged (they add up exactly over disjoint deals) into ``call_chart_stats.csv`` with a
provenance header (command, commit, machine, wall time), and the chart is written beside it.

Layout of ``out``::

    manifest.json
    decisions/hand-1/chunk-000000.parquet ...
    stats/hand-1-chunk-000000.csv ...
    call_chart_stats.csv        (merged, with the provenance header)
    call_chart.csv              (the chart, :func:`kalooki_sim.analysis.call_chart`)
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import platform
import shlex
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .._lib import (
    check_bool,
    check_int,
    check_real,
    check_writable_dir,
    log,
    not_allowed,
    progress_bar,
    resumed_note,
)
from ..engine.play import defer_players, setup
from ..engine.policies import policy_args
from ..game.rules import Rules
from ..studies import runner
from ..studies.runner import MANIFEST, check_cluster
from . import _chart as C

FORMAT = 1
STATS = "call_chart_stats.csv"
CHART = "call_chart.csv"
#: the study's default seed (the report's tables use others)
SEED = 2028
#: deals per chunk unless ``chunk_deals`` is given
CHUNK_DEALS = 250


@dataclasses.dataclass(frozen=True)
class ChartSpec:
    """Everything that decides a study's results."""

    deals: int
    hands: tuple
    seed: int
    rules: Rules
    policies: tuple
    sample: float
    chunk_deals: int

    def args(self) -> dict:
        """The JSON form kept in the manifest and compared on resume."""
        return {"format": FORMAT, "deals": self.deals, "hands": list(self.hands),
                "seed": self.seed, "rules": runner.rules_args(self.rules),
                "policies": [policy_args(p) for p in self.policies],
                "sample": self.sample, "chunk_deals": self.chunk_deals}

    def key(self) -> str:
        """A short hash of :meth:`args` (names dask tasks)."""
        return runner.args_key(self.args())

    def chunks(self) -> list[tuple[int, int, int, int]]:
        """``(index, hand, first game id, deals)`` of every chunk, contract by contract."""
        out = []
        for h in self.hands:
            for g0 in range(0, self.deals, self.chunk_deals):
                out.append((len(out), h, g0, min(self.chunk_deals, self.deals - g0)))
        return out


def play_chunk(spec: ChartSpec, hand: int, first: int, n: int, threads=None) -> dict:
    """One chunk: ``n`` deals of ``hand`` from game ``first``: Parquet bytes of its decision
    rows and CSV bytes of its cells' sufficient statistics, and the seconds it took."""
    from ..studies.decisions import call_decisions

    t0 = time.perf_counter()
    d = call_decisions(n, hand, players=spec.rules.players, policies=list(spec.policies),
                       seed=spec.seed, rules=spec.rules, threads=threads, progress=False,
                       sample=spec.sample, first_game=first)
    buf = io.BytesIO()
    d.to_parquet(buf, index=False)
    s = C.chart_stats(d)
    return {"rows": buf.getvalue(), "stats": s.to_csv(index=False, float_format="%.17g")
            .encode(), "seconds": time.perf_counter() - t0, "decisions": len(d)}


@dataclasses.dataclass
class ChartStudy:
    """A finished (or read back) call-chart study.

    Attributes
    ----------
    path : pathlib.Path
        The study directory.
    manifest : dict
        ``manifest.json``: the arguments, version, commit, chunks with their SHA-256, wall time.
    stats : DataFrame
        The merged sufficient statistics (:data:`kalooki_sim.analysis.STATS_COLUMNS`).
    provenance : dict
        The header of ``call_chart_stats.csv``.
    """

    path: Path
    manifest: dict
    stats: pd.DataFrame
    provenance: dict

    def chart(self, **kw) -> pd.DataFrame:
        """The call chart of the study (:func:`kalooki_sim.analysis.call_chart`)."""
        return C.call_chart(self.stats, **kw)

    def decisions(self, hand=None) -> pd.DataFrame:
        """The per-decision rows (all contracts, or ``hand``'s), read from Parquet."""
        files = sorted((self.path / "decisions").glob(
            "hand-*/chunk-*.parquet" if hand is None else f"hand-{int(hand)}/chunk-*.parquet"))
        if not files:
            raise ValueError(f"no decision rows in {str(self.path)!r}"
                             + ("" if hand is None else f" for hand={hand}"))
        return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def _command(spec: ChartSpec, out: Path, cluster) -> str:
    """The ``kalooki call-chart`` command line that makes this study."""
    parts = ["kalooki", "call-chart", "--deals", str(spec.deals), "--out", str(out),
             "--seed", str(spec.seed)]
    if list(spec.hands) != list(range(1, spec.rules.hands + 1)):
        for h in spec.hands:
            parts += ["--hand", str(h)]
    if spec.rules.players != 4:
        parts += ["--players", str(spec.rules.players)]
    names = [p.name for p in spec.policies]
    if set(names) != {"expert"}:
        parts += ["--policies", names[0] if len(set(names)) == 1 else ",".join(names)]
    if spec.sample != 1.0:
        parts += ["--sample", repr(spec.sample)]
    if cluster:
        parts += ["--scheduler", cluster]
    return shlex.join(parts)


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()}, Python " \
           f"{platform.python_version()}"


def call_chart_study(deals, out, hand=None, players=4, policies="expert", seed=SEED,
                     rules=None, sample=1.0, *, resume=False, force=False, scheduler=None,
                     threads=None, chunk_deals=None, progress=None) -> ChartStudy:
    """Make the call chart's data: every take and call of ``deals`` deals of each contract,
    each played both ways (:func:`~kalooki_sim.call_decisions`), kept on disk and summed into
    the chart's sufficient statistics.

    Parameters
    ----------
    deals : int
        Deals per contract (>= 1).
    out : str or path
        The study directory (created; see the module's layout).
    hand : int or list of int, optional
        Contracts to study (default: all nine).
    players : int
        Seats (4 by default).
    policies : str, Policy or list
        Every seat's policy (``"expert"`` by default), as :func:`~kalooki_sim.call_decisions`.
    seed : int
        The study's seed (C3); :data:`SEED` by default.
    rules : Rules, optional
        Jamaican defaults otherwise.
    sample : float
        Share of decisions branched, in (0, 1] (:func:`~kalooki_sim.call_decisions`).
    resume : bool
        Continue the study in ``out`` (same arguments), or read it back when finished.
    force : bool
        Delete a study in ``out`` and start again.
    scheduler : str, optional
        ``None``: numba threads here. ``"local"``/``"local:N"``: a dask LocalCluster;
        ``"tcp://HOST:PORT"``: an existing dask scheduler (workers need kalooki_sim).
    threads : int, optional
        Numba threads per chunk.
    chunk_deals : int, optional
        Deals per chunk (:data:`CHUNK_DEALS` by default; from the manifest when resuming).
    progress : bool, optional
        A progress bar (default: on in a terminal).

    Returns
    -------
    ChartStudy
        ``.stats``, ``.provenance``, ``.chart()``, ``.decisions(hand)``.

    Examples
    --------
    >>> import tempfile
    >>> s = call_chart_study(6, tempfile.mkdtemp(), hand=1, policies="greedy", chunk_deals=3)
    >>> len(s.manifest["chunks"]), int(s.stats["decisions"].sum()) == len(s.decisions())
    (2, True)
    >>> s.provenance["command"].startswith("kalooki call-chart --deals 6 --out ")
    True
    """
    deals = check_int("deals", deals, 1)
    rules, pols, _, seed, threads = setup(defer_players(players, rules), policies, seed,
                                           rules, threads)
    from ..engine.policies import no_search

    no_search(pols, "call_chart_study")
    if hand is None:
        hands = tuple(range(1, rules.hands + 1))
    else:
        hl = list(hand) if isinstance(hand, (list, tuple, np.ndarray)) else [hand]
        if not hl:
            raise ValueError(not_allowed("hand", hand, "a hand number or a non-empty list"))
        hands = tuple(check_int("hand", h, 1, rules.hands, why="a contract of the schedule")
                      for h in hl)
        if len(set(hands)) != len(hands):
            raise ValueError(not_allowed("hand", hand, "each contract at most once"))
    for h in hands:
        rules.deal(h)
    sample = check_real("sample", sample, 0, 1, open_lo=True)
    resume, force = check_bool("resume", resume), check_bool("force", force)
    if resume and force:
        raise ValueError("resume=True and force=True exclude each other; give one")
    try:
        cluster = check_cluster(scheduler)
    except (TypeError, ValueError) as e:
        raise type(e)(str(e).replace("cluster=", "scheduler=", 1)) from None
    if progress is not None:
        progress = check_bool("progress", progress)
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(not_allowed("out", out, "a directory path"))
    check_writable_dir("out", out)
    out = Path(out)
    given_chunk = chunk_deals is not None
    chunk_deals = CHUNK_DEALS if chunk_deals is None else check_int("chunk_deals",
                                                                    chunk_deals, 1)
    spec = ChartSpec(deals, hands, seed, rules, tuple(pols), float(sample),
                     min(chunk_deals, deals))
    man = _prepare(out, spec, resume, force, given_chunk)
    if man is not None:
        spec = dataclasses.replace(spec, chunk_deals=man["args"]["chunk_deals"])
    done = runner.valid_chunks(out, man) if man else {}
    todo = [c for c in spec.chunks() if c[0] not in done]
    if done:
        log.info(resumed_note(sorted(done), len(spec.chunks())))
    out.mkdir(parents=True, exist_ok=True)
    man = {"args": spec.args(), "format": FORMAT, "version": runner.package_version(),
           "commit": runner.git_commit(), "created": (man or {}).get("created", time.time()),
           "chunks": [done[i] for i in sorted(done)], "wall_s": (man or {}).get("wall_s", 0.0),
           "command": _command(spec, out, cluster), "finished": False}
    for sub in ("decisions", "stats"):
        (out / sub).mkdir(exist_ok=True)
    runner.write_manifest(out, man)
    if todo:
        executor = runner.make_executor(cluster, threads, play_chunk, "kalooki-chart")
        t0 = time.perf_counter()
        try:
            _play(out, spec, man, todo, executor, progress, t0)
        finally:
            executor.close()
    stats_ = C.merge_chart_stats([pd.read_csv(out / c["files"]["stats"]["file"],
                                              dtype={"needed_before": str,
                                                     "needed_after": str})
                                  for c in sorted(man["chunks"], key=lambda c: c["index"])])
    prov = {
        "what": "sufficient statistics of the call chart's cells (kalooki_sim.analysis."
                "chart_stats), summed over the study's deals",
        "command": man["command"],
        "commit": man["commit"] or "unknown",
        "version": man["version"],
        "machine": _machine(),
        "wall time": f"{man['wall_s']:.0f} s",
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "deals per contract": spec.deals,
        "contracts": " ".join(map(str, spec.hands)),
        "players": spec.rules.players,
        "policies": ",".join(p.name for p in spec.policies),
        "pack": spec.rules.pack,
        "seed": spec.seed,
        "sample": spec.sample,
        "decisions": int(stats_["decisions"].sum()),
    }
    C.write_chart_stats(stats_, out / STATS, prov)
    C.call_chart(stats_).to_csv(out / CHART, index=False)
    man["finished"] = True
    man["stats_sha256"] = runner.sha256_file(out / STATS)
    runner.write_manifest(out, man)
    return ChartStudy(out, man, stats_, prov)


def _prepare(out: Path, spec: ChartSpec, resume: bool, force: bool, given_chunk: bool):
    """The manifest to continue from (``None``: a fresh study), after checking ``out``."""
    if out.exists() and not out.is_dir():
        raise ValueError(not_allowed("out", str(out), "a directory (new, empty, or a study's)"))
    if not out.exists() or not any(out.iterdir()):
        return None
    p = out / MANIFEST
    if not p.exists():
        raise ValueError(f"out={str(out)!r} exists and is not a call-chart study; give a new "
                         "or empty directory")
    man = runner.read_manifest(out, "force=True (--force) to start again")
    if force:
        for sub in ("decisions", "stats"):
            for f in (out / sub).rglob("*"):
                if f.is_file():
                    f.unlink()
        return None
    args = dict(man.get("args", {}))
    new = spec.args()
    if not given_chunk:
        new["chunk_deals"] = args.get("chunk_deals", new["chunk_deals"])
    if args != new:
        raise ValueError(f"out={str(out)!r} holds another study "
                         f"({runner.describe_difference(args, new)}); give force=True "
                         "(--force) to replace it, or another out")
    if not resume:
        state = ("finished" if man.get("finished")
                 else f"{len(man.get('chunks', []))} of {len(spec.chunks())} chunks")
        raise ValueError(f"out={str(out)!r} holds this study ({state}); give resume=True "
                         "(--resume) to continue or read it, or force=True (--force)")
    return man


def _play(out, spec, man, todo, executor, progress, t0):
    total = spec.deals * len(spec.hands)
    bar = progress_bar(progress, total, auto_at=200, unit="deal", desc="kalooki call-chart",
                       initial=total - sum(c[3] for c in todo))
    wall0 = man["wall_s"]

    def finish(chunk, res):
        i, h, first, n = chunk
        files = runner.write_chunk_files(out, res, {
            "rows": f"decisions/hand-{h}/chunk-{i:06d}.parquet",
            "stats": f"stats/hand-{h}-chunk-{i:06d}.csv"})
        man["wall_s"] = wall0 + time.perf_counter() - t0
        return {"index": i, "hand": h, "first_game": first, "deals": n,
                "decisions": res["decisions"], "files": files}, n

    runner.play_chunks(out, man, spec, todo, executor, finish, bar)
