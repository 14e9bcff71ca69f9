"""The long study survives its scheduler (issue 49): the call chart's study on a dask cluster,
killed mid-run by PID (the scheduler and a worker), resumed, gives the statistics and rows of an
uninterrupted run, cell for cell; the lost cluster ends the run with a message, not a
traceback."""

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

from kalooki_sim import analysis as A

BIN = Path(sys.executable).parent
STUDY = ["call-chart", "--deals", "40", "--hand", "1", "--policies", "greedy",
         "--chunk-deals", "2", "--quiet"]
pytestmark = pytest.mark.skipif(not (BIN / "dask").exists(),
                                reason="the dask command (dask[distributed]) is not installed")


def _kalooki(*args):
    return [str(BIN / "kalooki"), *STUDY, *args]


def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cluster(procs):
    """A scheduler and one worker (no nanny: the worker's PID is the worker) on a free port."""
    port = _port()
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sch = subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port",
                            str(port), "--no-dashboard"], **quiet)
    wk = subprocess.Popen([str(BIN / "dask"), "worker", f"tcp://127.0.0.1:{port}", "--nthreads",
                           "1", "--no-nanny", "--no-dashboard"], **quiet)
    procs += [sch, wk]
    return f"tcp://127.0.0.1:{port}", sch, wk


def _chunks(out: Path) -> int:
    try:
        return len(json.loads((out / "manifest.json").read_text())["chunks"])
    except (OSError, ValueError, KeyError):
        return 0


def _wait_chunks(out, n, proc, limit=120):
    t0 = time.monotonic()
    while _chunks(out) < n:
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() - t0 < limit, "the study made no progress"
        time.sleep(0.1)


def _same(a: Path, b: Path):
    sa, _ = A.read_chart_stats(a / "call_chart_stats.csv")
    sb, _ = A.read_chart_stats(b / "call_chart_stats.csv")
    pd.testing.assert_frame_equal(sa, sb)
    ra = pd.read_parquet(a / "decisions").sort_values(["game", "attempt", "turn", "seat"])
    rb = pd.read_parquet(b / "decisions").sort_values(["game", "attempt", "turn", "seat"])
    pd.testing.assert_frame_equal(ra.reset_index(drop=True), rb.reset_index(drop=True))


@pytest.fixture
def procs():
    started = []
    yield started
    for p in started:  # every process started, even when the test fails
        with contextlib.suppress(Exception):
            for c in psutil.Process(p.pid).children(recursive=True):
                c.kill()
        with contextlib.suppress(Exception):
            p.kill()
        with contextlib.suppress(Exception):
            p.communicate(timeout=10)  # reaps it and closes its pipes


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("plain") / "s"
    r = subprocess.run(_kalooki("--out", str(out)), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return out


def test_a_killed_scheduler_and_worker_end_the_run_and_resume_gives_the_same_study(
        tmp_path, procs, uninterrupted):
    out = tmp_path / "s"
    address, sch, wk = _cluster(procs)
    time.sleep(3)
    run = subprocess.Popen(_kalooki("--out", str(out), "--scheduler", address),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs.append(run)
    _wait_chunks(out, 3, run)
    os.kill(sch.pid, signal.SIGKILL)
    os.kill(wk.pid, signal.SIGKILL)
    _, err = run.communicate(timeout=120)  # it ends: it does not wait for the lost cluster
    kept = _chunks(out)
    assert run.returncode == 130 and "Traceback" not in err, err
    assert "was lost while the study ran" in err and "--resume" in err
    assert 3 <= kept < 20
    address, _, _ = _cluster(procs)
    time.sleep(3)
    r = subprocess.run(_kalooki("--out", str(out), "--scheduler", address, "--resume"),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    _same(out, uninterrupted)


def test_a_local_cluster_loses_a_worker_then_its_scheduler_and_resumes(tmp_path, procs,
                                                                       uninterrupted):
    """--scheduler local:2: one worker killed by PID (the nanny starts another; the study goes
    on), then the process that holds the scheduler (the study itself) killed by PID; the
    resumed run gives the uninterrupted study."""
    out = tmp_path / "s"
    run = subprocess.Popen(_kalooki("--out", str(out), "--scheduler", "local:2"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs.append(run)
    _wait_chunks(out, 2, run)
    # the workers are the spawned processes (their nannies live in the study's process)
    workers = [c for c in psutil.Process(run.pid).children(recursive=True)
               if "spawn_main" in " ".join(c.cmdline())]
    assert workers, "no worker process under the study"
    workers[0].kill()
    _wait_chunks(out, 6, run)
    for c in psutil.Process(run.pid).children(recursive=True):
        c.kill()
    run.kill()  # the scheduler lives in the study's own process
    run.wait(timeout=30)
    assert _chunks(out) < 20
    r = subprocess.run(_kalooki("--out", str(out), "--scheduler", "local:2", "--resume"),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    _same(out, uninterrupted)
    shutil.rmtree(out)
