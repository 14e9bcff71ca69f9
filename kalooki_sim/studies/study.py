"""Studies at scale: runs cut into chunks, rows on disk as Parquet, aggregates merged exactly.

:func:`simulate` is the one code path of the ``kalooki simulate`` command and the notebooks. A
run of ``games`` games (ids ``first_game .. first_game + games - 1``, C3) is cut into chunks of
consecutive games. Every chunk is played (on numba threads here, or as a future on a
``dask.distributed`` cluster), and gives

* its per-seat rows, the columns of :func:`~kalooki_sim.play_games` (whole games) or
  :func:`~kalooki_sim.play_hands` (given hand numbers), as one Parquet file, and
* its aggregates: integer counts, sums and sums of squares, and histograms, per hand (contract)
  x players x seat x policy, as one small Parquet file in long form (``stat, value, count``).

Each file is written to a temporary name and renamed (``os.replace``), then the manifest
(``manifest.json``: the arguments, package version and git commit, and the finished chunks with
their SHA-256) is rewritten the same way. A killed run therefore loses at most the chunks in
flight; calling :func:`simulate` again (``kalooki simulate --resume``) plays only the missing
ones. Since play depends only on (seed, game id), the finished files are the same bytes whatever
the chunking of the work in time, the threads or the cluster. Aggregates are integers, so the
merge of the chunks' aggregates equals the aggregates of all the rows, exactly.

Layout of ``out``::

    manifest.json
    rows/chunk-000000.parquet ...   (absent with summary_only=True)
    agg/chunk-000000.parquet ...    (long form: keys, stat, value, count)
    summary.parquet                 (the merged aggregates, written when the run finishes)
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import shutil
import tempfile
import threading
import time
import warnings
import weakref
from pathlib import Path

import numpy as np
import pandas as pd

from .. import _lib as _checks
from .._lib import (
    check_bool,
    check_int,
    check_writable_dir,
    log,
    not_allowed,
    progress_bar,
    resumed_note,
)
from ..engine.play import check_game_ids, game_totals, hands_frame, run_games, setup
from ..engine.policies import policy_args as _policy_args
from ..game.rules import Rules
from . import runner
from .aggregates import (  # noqa: F401 (kalooki_sim.studies.study names them too)
    GAME_MOMENTS,
    HISTOGRAMS,
    KEYS,
    MOMENTS,
    aggregate,
    empty_aggregates,
    means,
    merge,
)
from .runner import MANIFEST, StudyInterrupted, check_cluster  # noqa: F401 (their old home)

#: the layout version of a run directory (``manifest["format"]``)
FORMAT = 1
#: hands (games x hands per game) per chunk unless ``chunk_games`` is given
CHUNK_HANDS = 100_000
#: the most chunks one run holds (10**11 hands at the default chunk size: years of play)
MAX_CHUNKS = 1_000_000

_KERNEL_LOCK = threading.Lock()  # one chunk at a time per process (numba's parallel layer)


# -- the run's identity -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Spec:
    """Everything that decides a run's results (validated by :func:`simulate`)."""

    games: int
    hands: tuple | None       # None: whole games
    first_game: int
    seed: int
    rules: Rules
    policies: tuple           # one Policy per seat
    summary_only: bool
    chunk_games: int

    def args(self) -> dict:
        """The JSON form kept in the manifest and compared on resume."""
        return {
            "format": FORMAT, "games": self.games,
            "hands": None if self.hands is None else list(self.hands),
            "first_game": self.first_game, "seed": self.seed,
            "rules": runner.rules_args(self.rules),
            "policies": [_policy_args(p) for p in self.policies],
            "summary_only": self.summary_only, "chunk_games": self.chunk_games,
        }

    def key(self) -> str:
        """A short hash of :meth:`args` (names dask tasks)."""
        return runner.args_key(self.args())

    def hand_numbers(self) -> list[int]:
        """The hand numbers each game plays, in order."""
        return list(self.hands) if self.hands is not None else list(range(1, self.rules.hands + 1))

    def chunks(self) -> list[tuple[int, int, int]]:
        """``(index, first game id, games)`` of every chunk, in order."""
        out = []
        for i, g0 in enumerate(range(0, self.games, self.chunk_games)):
            out.append((i, self.first_game + g0, min(self.chunk_games, self.games - g0)))
        return out

    def game_dtype(self):
        """The ``game`` column's dtype for the whole run (the same in every chunk)."""
        return np.int32 if self.first_game + self.games <= 2**31 else np.int64


def _check_hands(hand, rules: Rules):
    if hand is None:
        return None
    if isinstance(hand, (list, tuple, np.ndarray)):
        hands = list(hand)
        if not hands:
            raise ValueError(not_allowed("hand", hand, "a hand number or a non-empty list of "
                                         "them (None: whole games)"))
    else:
        hands = [hand]
    for h in hands:
        rules.deal(h)  # a clear error for a hand number outside the schedule
    out = sorted({int(h) for h in hands})
    if len(out) != len(hands):
        raise ValueError(not_allowed("hand", hand, "distinct hand numbers"))
    return tuple(out)


def _spec(games, hand, players, policies, seed, rules, summary_only, first_game, chunk_games):
    games = check_int("games", games, 0)
    rules, pols, _, seed, _ = setup(players, policies, seed, rules, None)
    hands = _check_hands(hand, rules)
    check_game_ids(first_game, games, "games")  # every id fits (allocates nothing)
    summary_only = check_bool("summary_only", summary_only)
    per_game = rules.hands if hands is None else len(hands)
    if chunk_games is None:
        chunk_games = max(1, CHUNK_HANDS // per_game)
    else:
        chunk_games = check_int("chunk_games", chunk_games, 1)
    if -(-games // chunk_games) > MAX_CHUNKS:  # the manifest lists every chunk
        raise ValueError(not_allowed("games", games, f"at most {MAX_CHUNKS * chunk_games:,}",
                                     f"{MAX_CHUNKS:,} chunks of {chunk_games:,} games; split "
                                     "the study into runs with first_game"))
    return Spec(games, hands, int(first_game), seed, rules, tuple(pols), summary_only,
                chunk_games)


# -- one chunk (runs in this process or on a dask worker) ---------------------------------------


def chunk_rows(spec: Spec, first: int, n: int, threads=None) -> pd.DataFrame:
    """The rows of games ``first .. first + n - 1`` of the run, as ``play_games``/``play_hands``.

    Warnings about hands given up are left to the caller (the aggregates count them).
    """
    rules, pols, pol, seed, threads = setup(None, list(spec.policies), spec.seed, spec.rules,
                                             threads)
    ids = np.arange(first, first + n, dtype=np.int64)
    with _KERNEL_LOCK:
        cols = run_games(ids, spec.hand_numbers(), rules, pol, seed, threads, False)
    cols["game"] = cols["game"].astype(spec.game_dtype())
    df = hands_frame(cols, rules, pols)
    return game_totals(df) if spec.hands is None else df


def _parquet_bytes(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, engine="pyarrow", index=False, compression="zstd")
    return buf.getvalue()


def play_chunk(spec: Spec, first: int, n: int, threads=None) -> dict:
    """Play one chunk; its files' bytes: ``{"rows": bytes or None, "agg": bytes}``.

    This is the task a dask worker runs: plain data in, plain bytes out, deterministic.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # given-up hands: counted in agg
        df = chunk_rows(spec, first, n, threads)
    agg = aggregate(df)
    return {"rows": None if spec.summary_only else _parquet_bytes(df),
            "agg": _parquet_bytes(agg)}


def _warm(spec: Spec, threads=None) -> bool:
    """Compile (or load) the kernels in this process: one game of the run's kind."""
    play_chunk(dataclasses.replace(spec, games=1, summary_only=True), spec.first_game, 1,
               threads)
    return True


# -- the run directory --------------------------------------------------------------------------


def _prepare(out: Path, spec: Spec, resume: bool, force: bool, chunk_given: bool):
    """The manifest to continue from (``None``: a fresh run) after checking ``out``.

    Raises ``ValueError`` (before anything is written) when ``out`` cannot be used.
    """
    if out.exists() and not out.is_dir():
        raise ValueError(not_allowed("out", str(out), "a directory (new, empty, or a run's)"))
    if not out.exists() or not any(out.iterdir()):
        return None, spec
    if not (out / MANIFEST).exists():
        raise ValueError(f"out={str(out)!r} exists and is not a kalooki_sim run; give a new or "
                         "empty directory")
    if force:
        return None, spec
    man = runner.read_manifest(out)
    if man.get("format") != FORMAT or "args" not in man:
        raise ValueError(f"out={str(out)!r} holds a run of another format; give force=True "
                         "(--force) to replace it, or another out")
    args = man["args"]
    if not chunk_given:
        spec = dataclasses.replace(spec, chunk_games=args.get("chunk_games", spec.chunk_games))
    new = spec.args()
    if args != new:
        why = runner.describe_difference(args, new)
        raise ValueError(f"out={str(out)!r} holds another run ({why}); give "
                         "force=True (--force) to replace it, or another out")
    if not resume:
        done = len(man.get("chunks", []))
        state = "finished" if man.get("finished") else f"{done} of {len(spec.chunks())} chunks"
        raise ValueError(f"out={str(out)!r} exists (this run, {state}); give resume=True "
                         "(--resume) to continue or read it, or force=True (--force) to start "
                         "again")
    return man, spec


def _clear(out: Path) -> None:
    """Remove a run's own files from ``out`` (``force``)."""
    for sub in ("rows", "agg"):
        shutil.rmtree(out / sub, ignore_errors=True)
    for name in (MANIFEST, "summary.parquet"):
        with contextlib.suppress(FileNotFoundError):
            (out / name).unlink()
    for tmp in out.glob(".*.tmp"):
        tmp.unlink()


# -- the public entry point ---------------------------------------------------------------------


class Run:
    """A run of :func:`simulate`: its directory, manifest, rows and aggregates.

    Attributes
    ----------
    path : pathlib.Path
        The run directory (a temporary one, removed with this object, when ``out=None``).
    manifest : dict
        ``manifest.json``: ``args`` (what decides the results), ``version``, ``commit``,
        ``chunks`` (index, first_game, games, files with SHA-256), ``finished``.
    """

    def __init__(self, path, manifest, spec: Spec):
        self.path = Path(path)
        self.manifest = manifest
        self.spec = spec
        self._summary = None

    def __repr__(self) -> str:
        s = self.spec
        what = "whole games" if s.hands is None else f"hands {list(s.hands)}"
        return (f"Run({s.games} games ({what}) from game {s.first_game}, seed {s.seed}, "
                f"{len(self.manifest['chunks'])}/{len(s.chunks())} chunks, {self.path})")

    @property
    def finished(self) -> bool:
        """Every chunk is done."""
        return bool(self.manifest.get("finished"))

    def _files(self, kind):
        chunks = sorted(self.manifest["chunks"], key=lambda c: c["index"])
        return [self.path / c["files"][kind]["file"] for c in chunks if kind in c["files"]]

    def rows(self, filters=None, columns=None) -> pd.DataFrame:
        """The rows of every finished chunk, in game order (as ``play_games``/``play_hands``).

        Parameters
        ----------
        filters : list of tuples or pyarrow.compute.Expression, optional
            Read only matching rows, e.g. ``[("hand", "==", 9), ("seat", "==", 0)]`` (the
            ``filters`` of :func:`pandas.read_parquet`; a bad one is refused, naming it).
        columns : list of str, optional
            Read only these columns.
        """
        if self.spec.summary_only:
            raise ValueError("this run kept only aggregates (summary_only=True); its rows were "
                             "not written: run it again with summary_only=False")
        import pyarrow.dataset as ds

        files = self._files("rows")
        empty = chunk_rows(dataclasses.replace(self.spec, games=0), self.spec.first_game, 0)
        columns = _checks.check_names("columns", columns, empty.columns)  # None: all
        expr = _checks.parquet_filter("filters", filters, empty)
        if not files:
            return empty if columns is None else empty[columns]
        table = ds.dataset([str(f) for f in files], format="parquet").to_table(
            filter=expr, columns=columns)
        return table.to_pandas()

    def aggregates(self) -> pd.DataFrame:
        """All aggregates in long form (:func:`aggregate`), merged over the chunks."""
        if self._summary is not None:
            return self._summary.copy()
        fin = self.path / "summary.parquet"
        if self.finished and fin.exists():
            agg = pd.read_parquet(fin)
        else:
            agg = empty_aggregates()
            files = self._files("agg")
            for b in range(0, len(files), 64):  # bounded memory for thousands of chunks
                agg = merge([agg] + [pd.read_parquet(f) for f in files[b:b + 64]])
        agg["policy"] = agg["policy"].astype(str)
        agg["stat"] = agg["stat"].astype(str)
        if self.finished:
            self._summary = agg
        return agg.copy()

    def summary(self) -> pd.DataFrame:
        """One row per contract x players x seat x policy: counts, sums and sums of squares.

        Columns: ``KEYS`` (``hand, groups, runs, cards_dealt, players, seat, policy``) and
        :data:`MOMENTS` (int64). For example the mean penalty of a seat is
        ``penalty / scored``, its variance ``penalty_sq / scored - mean**2``; the losers'
        mean penalty is ``penalty / (scored - went_out)`` (the winner scores 0).
        """
        return self._wide(MOMENTS, hand_ge=1)

    def means(self, by=("hand", "groups", "runs", "policy")) -> pd.DataFrame:
        """Per-seat means from :meth:`summary`, the seats pooled within each ``by`` group.

        Columns: ``by``, ``seat_hands`` (rows), ``scored``, ``void_per_hand`` (void deals per
        scored hand, R13), ``p_opened``, ``mean_open_turn``, ``mean_calls``, ``p_went_out``,
        ``p_out_on_opening``, ``mean_turns``, ``mean_penalty`` and ``sd_penalty`` (scored rows),
        ``loser_penalty`` (seats that did not go out).
        """
        return means(self.summary(), by)

    def game_summary(self) -> pd.DataFrame:
        """Whole-game aggregates per players x seat x policy (:data:`GAME_MOMENTS`): games,
        complete games, wins (shared, R14) and total, total_sq over complete games. Empty
        unless the run plays whole games (``hand=None``)."""
        w = self._wide(GAME_MOMENTS, hand_ge=0, hand_le=0)
        return w.drop(columns=["hand", "groups", "runs", "cards_dealt"])

    def _wide(self, stats, hand_ge, hand_le=127):
        a = self.aggregates()
        a = a[(a["value"] == -1) & (a["hand"] >= hand_ge) & (a["hand"] <= hand_le)
              & a["stat"].isin(stats)]
        w = a.pivot_table(index=KEYS, columns="stat", values="count", aggfunc="sum",
                          fill_value=0, observed=True)
        w = w.reindex(columns=list(stats), fill_value=0).astype(np.int64).reset_index()
        w.columns.name = None
        return w

    def histogram(self, measure: str) -> pd.DataFrame:
        """Counts of each value of ``measure`` (``penalty``, ``open_turn``, ``turns``,
        ``calls``) per key: columns ``KEYS + [measure, "count"]``."""
        if measure not in HISTOGRAMS:
            raise ValueError(not_allowed("measure", measure, "one of " + ", ".join(
                repr(m) for m in HISTOGRAMS)))
        a = self.aggregates()
        a = a[a["stat"] == f"hist_{measure}"].drop(columns="stat")
        a = a.rename(columns={"value": measure})
        return a.reset_index(drop=True)

    def verify(self) -> bool:
        """True when every finished chunk's files are present with their SHA-256."""
        return len(runner.valid_chunks(self.path, self.manifest)) == len(self.manifest["chunks"])


def simulate(games, hand=None, players=None, policies="greedy", seed=0, rules=None, out=None,
             summary_only=False, first_game=0, cluster=None, threads=None, *,
             chunk_games=None, resume=None, force=False, progress=None) -> Run:
    """Play ``games`` games in chunks, streaming rows to Parquet and aggregates to a summary.

    Game ids run from ``first_game`` to ``first_game + games - 1`` and a game's play depends
    only on (seed, game id) (C3), so a study split into runs at any game equals one run, and
    the results do not depend on ``threads``, ``cluster`` or interruptions.

    Parameters
    ----------
    games : int
        Games to play (>= 0).
    hand : int or list of int, optional
        ``None`` (default): whole games, rows as :func:`~kalooki_sim.play_games`. A hand
        number, or several: each game plays only those (in schedule order, the deal passing
        left after each; the first dealer as in the whole game), rows as
        :func:`~kalooki_sim.play_hands`; ``hand=h`` gives exactly ``play_hands(games, h)``.
    players : int, optional
        Seats; 4 by default, or ``rules.players`` when ``rules`` is given.
    policies : str, Policy or list
        As :func:`~kalooki_sim.play_hands`.
    seed : int
        The run's seed (C3).
    rules : Rules, optional
        Jamaican defaults otherwise.
    out : str or path, optional
        The run directory (created). ``None``: a temporary directory removed with the
        returned :class:`Run`.
    summary_only : bool
        Keep only the aggregates, not the rows (memory and disk stay small at any size).
    first_game : int
        The first game id.
    cluster : str, optional
        ``None``: play here on numba threads. ``"local"`` / ``"local:N"``: a dask
        ``LocalCluster`` of N single-threaded worker processes (default: one per core).
        ``"tcp://HOST:PORT"``: an existing dask scheduler (``dask scheduler``; workers need
        kalooki_sim installed). Chunks are futures, gathered in chunk order; a lost worker's
        chunks are run again by dask.
    threads : int, optional
        Numba threads per chunk (here: all cores by default; on a LocalCluster: 1).
    chunk_games : int, optional
        Games per chunk (default: about 100,000 hands per chunk). Taken from the manifest when
        resuming without it.
    resume : bool, optional
        When ``out`` holds this run (same arguments): continue it if unfinished, read it back if
        finished. ``False``: such an ``out`` raises ``ValueError``. Default: ``True`` unless
        ``force``; ``resume=True`` with ``force=True`` is an error.
    force : bool
        When ``out`` holds a run (any arguments): delete its files and start again.
    progress : bool, optional
        A progress bar (tqdm) with rate and ETA; default on for runs of 200,000 hands or more
        when stderr is a terminal.

    Returns
    -------
    Run
        ``.rows(filters)``, ``.summary()``, ``.histogram(measure)``, ``.game_summary()``.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> run = ks.simulate(40, hand=[1, 9], seed=3, chunk_games=15)
    >>> len(run.manifest["chunks"]), len(run.rows())
    (3, 320)
    >>> int(run.summary()["rows"].sum())
    320
    """
    spec = _spec(games, hand, players, policies, seed, rules, summary_only, first_game,
                 chunk_games)
    cluster = check_cluster(cluster)
    force = check_bool("force", force)
    resume = not force if resume is None else check_bool("resume", resume)
    if resume and force:
        raise ValueError("resume=True and force=True exclude each other (continue the run in "
                         "out, or delete it and start again); give one")
    if threads is not None:
        setup(None, list(spec.policies), spec.seed, spec.rules, threads)  # validates threads
    if progress is not None:
        progress = check_bool("progress", progress)
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise TypeError(not_allowed("out", out, "a directory path or None"))
    if out is not None:
        check_writable_dir("out", out)
    if out is None:
        tmp = Path(tempfile.mkdtemp(prefix="kalooki-run-"))
        try:
            run = _simulate(spec, tmp, cluster, threads, resume, force, chunk_games, progress)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        weakref.finalize(run, shutil.rmtree, str(tmp), ignore_errors=True)
        return run
    return _simulate(spec, Path(out), cluster, threads, resume, force, chunk_games, progress)


def _simulate(spec, out, cluster, threads, resume, force, chunk_games, progress) -> Run:
    man, spec = _prepare(out, spec, resume, force, chunk_games is not None)
    done = runner.valid_chunks(out, man) if man else {}
    todo = [c for c in spec.chunks() if c[0] not in done]
    if done:
        log.info(resumed_note(sorted(done), len(spec.chunks())))
    if man is not None and not todo and man.get("finished"):
        return Run(out, man, spec)
    executor = runner.make_executor(cluster, threads, play_chunk, "kalooki-chunk")
    try:
        if man is None:
            out.mkdir(parents=True, exist_ok=True)
            _clear(out)
        for sub in ("agg",) if spec.summary_only else ("rows", "agg"):
            (out / sub).mkdir(exist_ok=True)
        for t in out.glob(".*.tmp"):
            t.unlink()
        man = {"args": spec.args(), "format": FORMAT, "version": runner.package_version(),
               "commit": runner.git_commit(),
               "created": man["created"] if man else time.time(),
               "chunks": [done[i] for i in sorted(done)], "finished": False}
        runner.write_manifest(out, man)
        if todo:
            executor.warm(_warm, spec)
        _play_chunks(out, spec, man, todo, executor, progress)
    finally:
        executor.close()
    run = Run(out, man, spec)
    agg = run.aggregates()
    runner.write_atomic(out / "summary.parquet", _parquet_bytes(agg))
    man["summary_sha256"] = runner.sha256_file(out / "summary.parquet")
    man["finished"] = True
    runner.write_manifest(out, man)
    _warn_given_up(agg)
    return run


def _play_chunks(out, spec, man, todo, executor, progress):
    per_game = len(spec.hand_numbers())
    total = spec.games * per_game
    bar = progress_bar(progress, total, auto_at=200_000, unit="hand", desc="kalooki simulate",
                       unit_scale=True, initial=total - sum(n for _, _, n in todo) * per_game)

    def finish(chunk, res):
        i, first, n = chunk
        files = runner.write_chunk_files(out, res, {kind: f"{kind}/chunk-{i:06d}.parquet"
                                                    for kind in ("rows", "agg")})
        return {"index": i, "first_game": first, "games": n, "files": files}, n * per_game

    runner.play_chunks(out, man, spec, todo, executor, finish, bar)


def _warn_given_up(agg):
    m = agg[agg["value"] == -1]
    seat0 = m[m["seat"] == 0]
    stalled = int(seat0.loc[seat0["stat"] == "stalled", "count"].sum())
    given = int(seat0.loc[seat0["stat"] == "given_up", "count"].sum())
    if stalled or given:
        warnings.warn(f"{stalled} hands stalled (the engine's turn cap) and {given} were given "
                      "up after Rules.max_replays void attempts; they are void rows, counted in "
                      "summary() as stalled / given_up", RuntimeWarning, stacklevel=4)


