"""The chunked runner both long studies use (:func:`~kalooki_sim.simulate` and
:func:`~kalooki_sim.studies.chart_study.call_chart_study`): a run directory with a manifest,
chunks of consecutive game ids played here or on a dask cluster, files written atomically,
and resume.

A study says what a chunk is (a task: its spec and the chunk's numbers in, bytes out) and
which files a chunk's result makes; the runner plays the chunks in order, writes each file
through a temporary name and ``os.replace``, then rewrites the manifest the same way. A killed
run therefore loses at most the chunks in flight, and :func:`valid_chunks` tells a resumed run
which chunks are done (their files present with their SHA-256).

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> out = Path(tempfile.mkdtemp())
>>> man = {"chunks": []}
>>> def task(spec, first, n, threads):
...     return {"agg": bytes(range(first, first + n))}
>>> def finish(chunk, res):
...     i, first, n = chunk
...     files = write_chunk_files(out, res, {"agg": f"chunk-{i}.bin"})
...     return {"index": i, "files": files}, n
>>> play_chunks(out, man, "spec", [(0, 0, 3), (1, 3, 2)], LocalExecutor(task, None), finish)
>>> [c["index"] for c in man["chunks"]], sorted(valid_chunks(out, man))
([0, 1], [0, 1])
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import subprocess
import tempfile
from collections import deque
from pathlib import Path

from .._lib import show_value
from ._cluster import DaskExecutor as _DaskClient
from ._cluster import StudyInterrupted, check_cluster  # noqa: F401 (a runner's errors)

#: the manifest's name in every run directory
MANIFEST = "manifest.json"


# -- what a run is ------------------------------------------------------------------------------


def rules_args(rules) -> dict:
    """The JSON form of a :class:`~kalooki_sim.Rules` kept in a manifest."""
    args = dataclasses.asdict(rules)
    args["schedule"] = [list(e) for e in args["schedule"]]
    return args


def args_key(args: dict) -> str:
    """A short hash of a run's JSON arguments (names dask tasks)."""
    return hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:16]


def git_commit() -> str | None:
    """The package's git commit, or ``None`` outside a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        r = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True,
                           text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() or None if r.returncode == 0 else None


def package_version() -> str:
    """The installed package's version (kept in a manifest)."""
    from .._version import __version__

    return __version__


# -- the run directory --------------------------------------------------------------------------


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and ``os.replace``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a run's files follow the umask
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def manifest_bytes(man: dict) -> bytes:
    """A manifest as the bytes written to ``manifest.json``."""
    return (json.dumps(man, indent=1, sort_keys=True) + "\n").encode()


def write_manifest(out: Path, man: dict) -> None:
    """Rewrite ``out/manifest.json`` atomically."""
    write_atomic(out / MANIFEST, manifest_bytes(man))


def read_manifest(out: Path, again: str = "force=True to start again, or another out"):
    """``out``'s manifest, or ``None`` when it has none; an unreadable one is refused."""
    p = out / MANIFEST
    if not p.exists():
        return None
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"out={str(out)!r} has an unreadable {MANIFEST} ({e}); give "
                         f"{again}") from None


def describe_difference(old: dict, new: dict) -> str:
    """The first argument two runs differ in, as ``key=old there, new here``."""
    diff = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    if not diff:
        return ""
    k = diff[0]
    return f"{k}={show_value(old.get(k))} there, {show_value(new.get(k))} here"


def valid_chunks(out: Path, man: dict) -> dict:
    """The manifest's finished chunks whose files are present with their checksums."""
    good = {}
    for c in man.get("chunks", []):
        ok = all((out / f["file"]).is_file() and sha256_file(out / f["file"]) == f["sha256"]
                 for f in c["files"].values())
        if ok:
            good[c["index"]] = c
    return good


def write_chunk_files(out: Path, res: dict, names: dict) -> dict:
    """Write a chunk's result ``res[kind]`` (bytes) to ``out / names[kind]`` for each kind
    with bytes; the manifest's ``files`` entry (file, sha256, bytes) of each."""
    files = {}
    for kind, rel in names.items():
        data = res[kind]
        if data is None:
            continue
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out / rel, data)
        files[kind] = {"file": rel, "sha256": hashlib.sha256(data).hexdigest(),
                       "bytes": len(data)}
    return files


# -- executors: numba threads here, or dask -----------------------------------------------------


class LocalExecutor:
    """Chunks played one after another in this process: ``task(spec, *chunk[1:], threads)``
    on ``threads`` numba threads."""

    slots = 1

    def __init__(self, task, threads):
        self.task = task
        self.threads = threads

    def warm(self, fn, *args):
        """Nothing to warm here: the first chunk compiles (or loads) the kernels."""

    def submit(self, spec, chunk):
        """Play ``chunk`` now; its result stands for its future."""
        return self.task(spec, *chunk[1:], self.threads)

    @staticmethod
    def result(fut):
        """The chunk's result (played at :meth:`submit`)."""
        return fut

    def close(self):
        """Nothing to close here."""


class DaskExecutor(_DaskClient):
    """Chunks as futures on a dask.distributed cluster (a LocalCluster or a scheduler), each
    named ``{prefix}-{spec.key()}-{index}``; a lost cluster ends the run with
    :class:`StudyInterrupted`."""

    def __init__(self, cluster: str, threads, task, prefix: str):
        super().__init__(cluster, threads)
        self.task = task
        self.prefix = prefix

    def warm(self, fn, *args):
        """Run ``fn(*args, threads)`` on every worker (compile or load the kernels once)."""
        self.client.run(fn, *args, self.threads)

    def submit(self, spec, chunk):
        """A future of ``chunk``'s result on the cluster."""
        return self.client.submit(self.task, spec, *chunk[1:], self.threads, pure=False,
                                  key=f"{self.prefix}-{spec.key()}-{chunk[0]}")


def make_executor(cluster, threads, task, prefix: str):
    """A :class:`DaskExecutor` on ``cluster``, or a :class:`LocalExecutor` when it is None."""
    return DaskExecutor(cluster, threads, task, prefix) if cluster else LocalExecutor(task,
                                                                                      threads)


# -- playing the chunks -------------------------------------------------------------------------


def play_chunks(out: Path, man: dict, spec, todo, executor, finish, bar=None) -> None:
    """Play chunks ``todo`` (tuples, the chunk's index first) on ``executor``, their results
    taken in chunk order. ``finish(chunk, result)`` writes a result's files and returns its
    manifest entry and the progress it made; the manifest is rewritten after each chunk.
    Chunks still in flight when this stops are cancelled; ``bar`` (a progress bar) is
    advanced and closed."""
    pending, queue = deque(), deque(todo)
    try:
        while queue or pending:
            while queue and len(pending) < executor.slots:
                chunk = queue.popleft()
                pending.append((chunk, executor.submit(spec, chunk)))
            chunk, fut = pending.popleft()
            entry, done = finish(chunk, executor.result(fut))
            man["chunks"].append(entry)
            man["chunks"].sort(key=lambda c: c["index"])
            write_manifest(out, man)
            if bar is not None:
                bar.update(done)
    finally:
        for _, fut in pending:
            with contextlib.suppress(Exception):
                fut.cancel()
        if bar is not None:
            bar.close()

