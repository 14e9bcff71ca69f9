"""``make compile`` (kalooki_sim.warmup) talks while it works (issue 30): a ticking line names
what each process compiles, by kernel family, with its elapsed time; never a silence longer
than the tick; an estimate from measured compile times."""

from __future__ import annotations

import io
import re
import time

from kalooki_sim import warmup as W


def test_every_entry_point_has_a_measured_cold_time_and_a_family():
    steps = W._steps(search=True)
    assert {name for _, name, _, _ in steps} == set(W.COLD_CPU)
    assert {family for family, *_ in steps} == {"solver", "engine", "advisor", "search",
                                                "sampling", "call study"}
    # the estimate follows the schedule: never below either share's own CPU, and each step
    # that waits for another starts after it
    for k in (0, 1):
        assert W.estimate(steps) >= sum(W.COLD_CPU[n] for _, n, s, _ in steps if s == k)
    assert W.estimate(steps) >= W.COLD_CPU["draw phase"] + W.COLD_CPU["play"] + \
        W.COLD_CPU["advisor"]
    # the engine's phases are split between the processes, and play is in A after the draw
    share = {n: s for _, n, s, _ in steps}
    assert share["draw phase"] != share["melds and discard"] and share["play"] == 0
    assert W.AFTER["play"] == "draw phase"


def test_the_quick_start_compiles_the_play_and_the_advisor_only():
    quick = W._steps(search=True, quick=True)
    assert {n for _, n, _, _ in quick} == set(W.QUICK) == {
        "melds and discard", "draw phase", "opening solver", "cards needed", "play", "trace",
        "advisor", "discard advisor"}
    assert W.estimate(quick) < W.estimate(W._steps(search=True))


def test_a_step_waits_for_the_one_it_comes_after(tmp_path):
    """B's call decisions start only once A's play has written its file; B's other steps at
    once; every step leaves its file."""
    import threading

    order, names = [], {"cards needed", "call decisions", "play", "draw phase"}
    steps = [("solver", "cards needed", 1, lambda: order.append("cards needed")),
             ("call study", "call decisions", 1, lambda: order.append("call decisions"))]
    t = threading.Thread(target=W._run, args=(steps, lambda *a: None, str(tmp_path), names))
    t.start()
    time.sleep(0.6)
    assert order == ["cards needed"]  # waiting for play
    (tmp_path / "draw phase").touch()
    W._run([("engine", "play", 0, lambda: order.append("play"))], lambda *a: None,
           str(tmp_path), names)
    t.join(5)
    assert order == ["cards needed", "play", "call decisions"]
    assert {p.name for p in tmp_path.iterdir()} == names



def test_a_long_step_ticks_with_its_family_and_elapsed_time(capsys):
    steps = [("engine", "play", 0, lambda: time.sleep(1.3)),
             ("solver", "cards needed", 0, lambda: None)]
    W._warm_loud(steps, search=False, jobs=1, tick=0.25)
    err = capsys.readouterr().err.splitlines()
    assert re.search(r"about (\d+:\d\d|\d+ s) on an idle 2-core machine "
                     r"\(measured \d{4}-\d\d-\d\d\)", err[0])
    ticks = [ln for ln in err if ln.startswith("compiling ") and "A engine: play" in ln]
    assert len(ticks) >= 3, err  # a line every tick while play runs: no silence
    assert all(f"(cold ~{W.clock(W.COLD_CPU['play'])})…" in ln for ln in ticks)
    assert any(ln.strip().startswith("A engine: play done in") for ln in err)
    assert err[-1].startswith("compiled in ")
    assert not any("[1/2]" in ln or "[2/2]" in ln for ln in err)  # no step-count look-alike


def test_process_b_reports_its_steps_to_the_board():
    board, printed, cpu = W.Board(), [], {}

    class P:
        say = printed.append

    W._child_events(io.StringIO("start\tcall study\tcall decisions\n"), board, P, cpu)
    assert "B call study: call decisions" in board.line()
    W._child_events(io.StringIO("end\tcall study\tcall decisions\t88.0\n"), board, P, cpu)
    assert printed == ["  B call study: call decisions done in 0 s (CPU 1:28)"]
    assert cpu == {"call decisions": 88.0} and not board.running
