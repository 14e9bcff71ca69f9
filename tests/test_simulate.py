"""simulate / Run: chunked runs equal one big run, exact aggregates, resume, dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim.studies.study import MOMENTS, aggregate, merge, simulate

ROOT = Path(__file__).resolve().parent.parent


def _files(run):
    return [c["files"] for c in run.manifest["chunks"]]


# -- the rows: chunks, offsets and the existing entry points ----------------------------------


def test_first_game_offsets_split_a_run():
    whole = ks.play_hands(30, hand=4, seed=9)
    a = ks.play_hands(12, hand=4, seed=9)
    b = ks.play_hands(18, hand=4, seed=9, first_game=12)
    assert b["game"].min() == 12
    pd.testing.assert_frame_equal(pd.concat([a, b], ignore_index=True), whole)


def test_first_game_is_checked():
    with pytest.raises(ValueError, match="first_game=-1 is not allowed"):
        ks.play_games(2, first_game=-1)
    with pytest.raises(TypeError, match="first_game=1.5"):
        ks.play_hands(2, first_game=1.5)


def test_simulate_one_hand_equals_play_hands(tmp_path):
    run = simulate(35, hand=9, players=5, seed=4, out=tmp_path / "r", chunk_games=10)
    assert [c["games"] for c in run.manifest["chunks"]] == [10, 10, 10, 5]
    pd.testing.assert_frame_equal(run.rows(), ks.play_hands(35, hand=9, players=5, seed=4))


def test_simulate_whole_games_equals_play_games_and_split_runs_equal_one(tmp_path):
    pols = ["expert", "greedy", "never-call", "greedy"]
    whole = ks.play_games(9, policies=pols, seed=2)
    run = simulate(9, policies=pols, seed=2, out=tmp_path / "all", chunk_games=4)
    pd.testing.assert_frame_equal(run.rows(), whole)
    first = simulate(5, policies=pols, seed=2, out=tmp_path / "p1", chunk_games=2)
    second = simulate(4, policies=pols, seed=2, out=tmp_path / "p2", first_game=5)
    both = pd.concat([first.rows(), second.rows()], ignore_index=True)
    pd.testing.assert_frame_equal(both, whole)
    # aggregates of the parts add up to the whole's
    pd.testing.assert_frame_equal(merge([first.aggregates(), second.aggregates()]),
                                  run.aggregates())


def test_several_hands_per_game_and_filters():
    run = simulate(20, hand=[9, 3], seed=1, chunk_games=6)
    rows = run.rows()
    assert run.spec.hands == (3, 9)
    assert sorted(rows["hand"].unique()) == [3, 9]
    # the first hand of each game is dealt by the game's first dealer, as in play_hands
    h3 = rows[rows["hand"] == 3].reset_index(drop=True)
    pd.testing.assert_frame_equal(h3, ks.play_hands(20, hand=3, seed=1))
    sub = run.rows(filters=[("hand", "==", 9), ("seat", "==", 2)], columns=["game", "penalty"])
    exp = rows.loc[(rows["hand"] == 9) & (rows["seat"] == 2), ["game", "penalty"]]
    pd.testing.assert_frame_equal(sub, exp.reset_index(drop=True))


@pytest.mark.parametrize("filters, columns, err, msg", [
    ([("nope", "==", 1)], None, ValueError,
     r"^filters column 'nope' is not allowed; give one of 'game', 'hand', "),
    ("hand==9", None, TypeError,
     r"^filters='hand==9' is not allowed; give a list of \(column, op, value\) tuples"),
    ([("hand", "~", 9)], None, ValueError, r"^filters operator '~' is not allowed; give one of"),
    ([("hand", "==", "9")], None, ValueError,
     r"^filters value '9' of column 'hand' is not allowed; give an integer$"),
    ([("hand", "in", 9)], None, TypeError, r"^filters value 9 is not allowed; give a list"),
    (None, ["nope"], ValueError, r"^columns=\['nope'\] is not allowed; give a list of names "
                                 r"from 'game', .*\('nope' is not one\)$"),
    (None, "hand", TypeError, r"^columns='hand' is not allowed; give a list of names"),
])
def test_bad_filters_and_columns_name_the_bad_value_not_a_pyarrow_error(filters, columns, err,
                                                                         msg):
    # were pyarrow's ArrowInvalid (a schema dump) and "not enough values to unpack"
    run = simulate(4, hand=[1, 9], seed=1)
    with pytest.raises(err, match=msg):
        run.rows(filters=filters, columns=columns)
    assert len(run.rows(filters=[[("hand", "==", 9)], [("seat", "in", [0, 1])]])) == 4 * 4 + 4 * 2


# -- aggregates: exact, and equal to what the rows say ----------------------------------------


def test_summary_of_chunks_equals_summary_of_all_rows():
    run = simulate(24, seed=3, chunk_games=5, policies=["greedy", "random", "call-1", "expert"])
    rows = run.rows()
    assert len(run.manifest["chunks"]) == 5
    pd.testing.assert_frame_equal(run.aggregates(), merge([aggregate(rows)]))
    s = run.summary()
    assert list(s.columns[7:]) == list(MOMENTS)
    # independent figures straight from the rows
    g = rows.groupby(["hand", "seat"])
    key = s.set_index(["hand", "seat"])
    assert (key["rows"] == g.size()).all()
    assert (key["penalty"] == g["penalty"].sum()).all()
    squares = g["penalty"].apply(lambda x: int((x.astype(int) ** 2).sum()))
    assert (key["penalty_sq"] == squares).all()
    assert (key["calls"] == g["calls"].sum()).all()
    assert (key["opened"] == g["opened"].sum()).all()
    assert (key["open_turn"] == g["open_turn"].sum()).all()
    assert (key["attempts"] == g["attempts"].sum()).all()
    assert (key["policy"] == g["policy"].first().astype(str)).all()
    hist = run.histogram("open_turn")
    counts = rows.dropna(subset=["open_turn"]).groupby(["hand", "seat", "open_turn"]).size()
    got = hist.set_index(["hand", "seat", "open_turn"])["count"]
    assert got.sort_index().tolist() == counts.sort_index().tolist()
    games = run.game_summary()
    per_game = rows.drop_duplicates(["game", "seat"]).groupby("seat")
    assert games["winner"].tolist() == per_game["winner"].sum().tolist()
    assert games["total"].tolist() == per_game["total"].sum().tolist()


def test_means_match_the_rows():
    run = simulate(300, hand=6, seed=11, chunk_games=70)
    rows = run.rows()
    m = run.means().iloc[0]
    assert m["mean_penalty"] == pytest.approx(rows["penalty"].astype(float).mean())
    assert m["sd_penalty"] == pytest.approx(rows["penalty"].astype(float).std())
    losers = rows.loc[~rows["went_out"], "penalty"].astype(float)
    assert m["loser_penalty"] == pytest.approx(losers.mean())
    assert m["mean_open_turn"] == pytest.approx(rows["open_turn"].astype(float).mean())


def test_summary_only_keeps_no_rows_and_the_same_summary(tmp_path):
    full = simulate(16, hand=[1, 8], seed=6, chunk_games=5, out=tmp_path / "f")
    lean = simulate(16, hand=[1, 8], seed=6, chunk_games=5, out=tmp_path / "s",
                    summary_only=True)
    assert not (tmp_path / "s" / "rows").exists()
    with pytest.raises(ValueError, match="summary_only=True"):
        lean.rows()
    pd.testing.assert_frame_equal(lean.summary(), full.summary())
    pd.testing.assert_frame_equal(lean.histogram("penalty"), full.histogram("penalty"))


def test_empty_run():
    run = simulate(0, hand=2)
    assert run.rows().empty and run.summary().empty and run.finished


# -- the run directory: read back, refuse, force, repair ---------------------------------------


def test_same_arguments_read_a_finished_run_back(tmp_path):
    out = tmp_path / "r"
    a = simulate(12, hand=5, seed=2, out=out, chunk_games=5)
    stamp = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    b = simulate(12, hand=5, seed=2, out=out)  # chunk_games taken from the manifest
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == stamp
    pd.testing.assert_frame_equal(a.rows(), b.rows())
    assert _files(a) == _files(b)


def test_other_arguments_need_force(tmp_path):
    out = tmp_path / "r"
    simulate(6, hand=5, seed=2, out=out)
    before = sorted(p.name for p in out.rglob("*"))
    with pytest.raises(ValueError, match="seed=2 there, 3 here"):
        simulate(6, hand=5, seed=3, out=out)
    with pytest.raises(ValueError, match="resume=True"):
        simulate(6, hand=5, seed=2, out=out, resume=False)
    assert sorted(p.name for p in out.rglob("*")) == before
    run = simulate(6, hand=5, seed=3, out=out, force=True)
    pd.testing.assert_frame_equal(run.rows(), ks.play_hands(6, hand=5, seed=3))


def test_a_directory_that_is_not_a_run_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    for force in (False, True):
        with pytest.raises(ValueError, match="not a kalooki_sim run"):
            simulate(3, out=tmp_path, force=force)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("kw, err", [
    (dict(games=-1), ValueError), (dict(policies="nope"), ValueError),
    (dict(hand=[2, 2]), ValueError), (dict(hand=0), ValueError), (dict(hand=[]), ValueError),
    (dict(players=6, rules=ks.Rules(players=5)), ValueError), (dict(cluster="local:0"), ValueError),
    (dict(cluster=2), TypeError), (dict(chunk_games=0), ValueError), (dict(threads=0), ValueError),
    (dict(first_game=-3), ValueError), (dict(summary_only=1), TypeError),
])
def test_bad_arguments_write_nothing(tmp_path, kw, err):
    args = dict(games=5, out=tmp_path / "r")
    args.update(kw)
    with pytest.raises(err):
        simulate(**args)
    assert not (tmp_path / "r").exists()


def test_a_damaged_chunk_is_played_again(tmp_path):
    out = tmp_path / "r"
    a = simulate(15, hand=2, seed=8, out=out, chunk_games=5)
    want = _files(a)
    victim = out / want[1]["rows"]["file"]
    victim.write_bytes(b"garbage")
    assert not a.verify()
    b = simulate(15, hand=2, seed=8, out=out)
    assert b.verify() and _files(b) == want


# -- resume after a real kill, and the same results through dask ------------------------------


def _cmd(out, *extra):
    return [sys.executable, "-m", "kalooki_sim", "simulate", "--games", "6000", "--hand", "9",
            "--seed", "21", "--chunk-games", "150", "--threads", "1", "--quiet",
            "--out", str(out), *extra]


def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


# the command, held (asleep in the main thread) once its manifest lists a finished chunk, so
# the signal always lands mid-run: unheld, a loaded machine could let the run finish first
_HELD = """
import json, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job starts it ignored
from kalooki_sim.studies import runner
from kalooki_sim.cli import main
write = runner.write_atomic
def held(path, data):
    write(path, data)
    if path.name == runner.MANIFEST and json.loads(data)["chunks"]:
        time.sleep(600)
runner.write_atomic = held
sys.exit(main(sys.argv[1:]))
"""


def _kill_after_first_chunk(out, sig):
    """Start a run and send ``sig`` once its manifest lists a finished chunk."""
    cmd = _cmd(out)
    held = [sys.executable, "-c", _HELD, *cmd[cmd.index("simulate"):]]
    proc = subprocess.Popen(held, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    man = out / "manifest.json"  # replaced atomically: always whole when it exists

    def chunks_done():
        return len(json.loads(man.read_text())["chunks"]) if man.exists() else 0

    t0 = time.monotonic()
    while not chunks_done():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < 300, "no chunk within 5 minutes"
        time.sleep(0.01)
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    return proc.returncode, err


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_resume_after_a_kill_equals_an_uninterrupted_run(tmp_path, sig):
    out = tmp_path / "killed"
    code, err = _kill_after_first_chunk(out, sig)
    man = json.loads((out / "manifest.json").read_text())
    assert not man["finished"] and 1 <= len(man["chunks"]) < 40
    if sig == signal.SIGINT:
        assert code == 130 and "--resume" in err
    else:
        assert code == -signal.SIGKILL
    r = subprocess.run(_cmd(out, "--resume"), env=_env(), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    resumed = simulate(6000, hand=9, seed=21, out=out)  # reads the finished run back
    straight = simulate(6000, hand=9, seed=21, out=tmp_path / "straight", chunk_games=150)
    assert resumed.finished and _files(resumed) == _files(straight)
    assert not list(out.rglob("*.tmp"))
    pd.testing.assert_frame_equal(resumed.summary(), straight.summary())
    pd.testing.assert_frame_equal(resumed.rows(), straight.rows())
    assert (out / "summary.parquet").read_bytes() == \
        (tmp_path / "straight" / "summary.parquet").read_bytes()


def test_local_cluster_of_two_workers_gives_the_same_run(tmp_path):
    kw = dict(games=30, hand=[2, 9], seed=5, chunk_games=7,
              policies=["expert", "greedy", "greedy", "greedy"])
    here = simulate(**kw, out=tmp_path / "threads")
    dask = simulate(**kw, out=tmp_path / "dask", cluster="local:2")
    assert _files(here) == _files(dask)
    pd.testing.assert_frame_equal(here.rows(), dask.rows())
    pd.testing.assert_frame_equal(here.summary(), dask.summary())


@pytest.mark.slow
def test_local_cluster_resumes_a_threads_run(tmp_path):
    out = tmp_path / "r"
    kw = dict(games=40, seed=13, chunk_games=6)
    whole = simulate(**kw, out=tmp_path / "whole")
    simulate(**kw, out=out)
    man = json.loads((out / "manifest.json").read_text())
    for c in man["chunks"][3:]:  # as if the run had stopped after three chunks
        for f in c["files"].values():
            (out / f["file"]).unlink()
    man["chunks"], man["finished"] = man["chunks"][:3], False
    (out / "manifest.json").write_text(json.dumps(man))
    (out / "summary.parquet").unlink()
    resumed = simulate(**kw, out=out, cluster="local:2")
    assert _files(resumed) == _files(whole)
    pd.testing.assert_frame_equal(resumed.summary(), whole.summary())


def test_threads_do_not_change_the_run():
    one = simulate(20, hand=7, seed=2, threads=1, chunk_games=8)
    threads = min(2, ks.engine.play.numba.config.NUMBA_NUM_THREADS)
    two = simulate(20, hand=7, seed=2, threads=threads, chunk_games=8)
    assert _files(one) == _files(two)
    assert np.array_equal(one.summary().to_numpy(), two.summary().to_numpy())
