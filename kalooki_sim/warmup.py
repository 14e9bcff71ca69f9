"""``python -m kalooki_sim.warmup``: compile every Numba kernel once, and say so while it works.

Numba compiles a kernel on its first call and keeps it in its on-disk cache, so without this the
first command a new user runs sits silent for minutes. ``make test`` and ``make report`` run it
as a set-up step (``make compile``) whenever a kernel source changed; afterwards a new process
loads the kernels from the cache in about a second.

Numba compiles on one core, so the entry points are split in two shares compiled by two
processes at once (``jobs=2``, the default), *process A* (this one) and *process B* (a child):
on two cores the set-up takes about the time of the larger share. Each kernel is cached under its
own file, written atomically, so the two processes never see half a cache entry.

While it compiles, a line every ``tick`` seconds (10) names what each process is compiling, by
kernel family, with its elapsed time and what that entry point took from nothing cached when
measured (:data:`COLD_CPU`), e.g.::

    compiling 1:40: A engine: play 42 s (cold ~2:42)… | B call study: call decisions 60 s…

and a line as each entry point is done. ``--measure`` compiles everything from an empty cache
(a temporary ``NUMBA_CACHE_DIR``; the real cache is untouched) and prints the CPU seconds per
entry point to paste into :data:`COLD_CPU` when the kernels change.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time

#: CPU seconds of each step compiled from nothing cached on the 2-core development machine, in
#: the two processes of :func:`warm` (``--measure``: a step that waited for another loads what
#: that one cached). A busy machine takes longer; cached kernels load in a second or two.
COLD_CPU = {
    "melds and discard": 100, "draw phase": 80, "opening solver": 1, "cards needed": 2,
    "play": 57, "trace": 0, "advisor": 53, "discard advisor": 36, "search player": 30,
    "deal sampling": 1,
    "call decisions": 58, "search blocks": 74,
}
MEASURED = "2026-12-05"
#: the step each step waits for: the engine's phases are compiled on their own, the draw in
#: process B while process A compiles the discard, and what plays hands waits for ``play`` to
#: have cached the engine (a file each process writes as a step ends): compiling the same
#: kernels in both processes at once costs more CPU than it saves time
AFTER = {"play": "draw phase", "trace": "play", "advisor": "play", "discard advisor": "play",
         "search player": "play",
         "call decisions": "play", "search blocks": "play"}
#: what the quick start needs (``make compile``, ``--quick``): the rest compiles on first use
QUICK = ("melds and discard", "draw phase", "opening solver", "cards needed", "play", "trace",
         "advisor", "discard advisor")


def _steps(search: bool, quick: bool = False):
    """``(family, name, share, call)`` of every compiled entry point (``quick``: only those
    of :data:`QUICK`); shares balanced by compile time (:data:`COLD_CPU`, see
    :func:`estimate`)."""
    import kalooki_sim as ks
    from kalooki_sim import analysis as A
    from kalooki_sim.bench import ADVISOR_CASE
    from kalooki_sim.engine.play import warm_phases

    steps = [
        ("engine", "melds and discard", 0, lambda: warm_phases("melds")),
        ("engine", "draw phase", 1, lambda: warm_phases("draw")),
        ("solver", "opening solver", 1,
         lambda: ks.solve_opening("7♥ 7♠ 7♦ 8♣ 8♦ 8♥ 9♠ 9♥ 9♦", 1)),
        ("solver", "cards needed", 1,
         lambda: ks.cards_needed("7♥ 7♠ 8♣ 8♦ 9♠ 9♥ K♦ Q♣ 2♥", 1)),
        ("engine", "play", 0, lambda: ks.play_games(1, policies="expert", seed=0, threads=1)),
        ("engine", "trace", 0, lambda: ks.trace(0, hand=1)),
        # after play: the engine's shared kernels come from the cache play just wrote
        ("advisor", "advisor", 0,
         lambda: ks.advise(**ADVISOR_CASE, rollouts=20, policies="greedy")),
        ("advisor", "discard advisor", 1,
         lambda: ks.advise_discard("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 9♦", 1, seen="5♣", rollouts=20,
                                   policies="greedy")),
        ("search", "search blocks", 0,
         lambda: ks.play_hands(1, policies=["search"] + ["expert"] * 3, threads=1)),
        ("sampling", "deal sampling", 1, lambda: A.simulate_deals(10, (3, 0), 9)),
        ("call study", "call decisions", 1,
         lambda: ks.call_decisions(1, hand=1, policies="greedy", seed=0)),
        ("search", "search player", 1,
         lambda: ks.trace(0, hand=1, policies=["search"] + ["expert"] * 3)),
    ]
    return [s for s in steps
            if (search or s[0] != "search") and (not quick or s[1] in QUICK)]


def clock(secs: float) -> str:
    """``"42 s"`` under a minute, else ``"m:ss"``.

    >>> clock(42.4), clock(100), clock(3600)
    ('42 s', '1:40', '60:00')
    """
    s = int(round(secs))
    return f"{s} s" if s < 60 else f"{s // 60}:{s % 60:02d}"


def estimate(steps) -> float:
    """Seconds an idle machine takes to compile ``steps`` from nothing cached: the two
    processes (shares 0 and 1) run at once, one per core, each step in turn and after the
    step it waits for (:data:`AFTER`), at its :data:`COLD_CPU`.

    >>> steps = [("e", "draw phase", 1, None), ("e", "melds and discard", 0, None),
    ...          ("e", "play", 0, None), ("s", "cards needed", 1, None)]
    >>> estimate(steps) == max(COLD_CPU["draw phase"], COLD_CPU["melds and discard"]) + \\
    ...     COLD_CPU["play"]
    True
    """
    names = {n for _, n, _, _ in steps}
    ends, clock_of, todo = {}, {0: 0.0, 1: 0.0}, list(steps)
    while todo:
        for k, (_, name, share, _) in enumerate(todo):
            if any(s[2] == share for s in todo[:k]):
                continue  # not this share's next step
            dep = AFTER.get(name)
            if dep in names and dep not in ends:
                continue  # its step has not been placed yet
            start = max(clock_of[share], ends.get(dep, 0.0))
            ends[name] = clock_of[share] = start + COLD_CPU.get(name, 0)
            del todo[k]
            break
        else:
            raise ValueError("the steps wait for each other in a circle")
    return max(clock_of.values())


class Board:
    """What each compile process is doing; :meth:`line` is the ticking line. ``cold``: the
    CPU seconds each entry point took from nothing cached (:data:`COLD_CPU` by default).

    >>> b = Board(t0=0.0, cold={"play": 162, "call decisions": 202})
    >>> b.start("A", "engine", "play", now=10.0)
    >>> b.start("B", "call study", "call decisions", now=12.0)
    >>> for part in b.line(now=52.0).split(" | "):
    ...     print(part)
    compiling 52 s: A engine: play 42 s (cold ~2:42)…
    B call study: call decisions 40 s (cold ~3:22)…
    >>> b.end("A", now=130.0)
    'A engine: play done in 2:00'
    """

    def __init__(self, t0: float | None = None, cold: dict | None = None):
        self.t0 = time.perf_counter() if t0 is None else t0
        self.cold = COLD_CPU if cold is None else cold
        self.running = {}  # process -> (family, name, start)
        self.lock = threading.Lock()

    def start(self, proc, family, name, now=None):
        """Process ``proc`` begins compiling entry point ``name`` of kernel ``family``."""
        with self.lock:
            self.running[proc] = (family, name, time.perf_counter() if now is None else now)

    def end(self, proc, cpu=None, now=None) -> str:
        """Process ``proc`` is done with its entry point: the line that says so."""
        now = time.perf_counter() if now is None else now
        with self.lock:
            family, name, t = self.running.pop(proc)
        tail = "" if cpu is None else f" (CPU {clock(cpu)})"
        return f"{proc} {family}: {name} done in {clock(now - t)}{tail}"

    def line(self, now=None) -> str:
        """The ticking line: elapsed time, then what each process compiles and for how long."""
        now = time.perf_counter() if now is None else now
        with self.lock:
            parts = [f"{p} {fam}: {name} {clock(now - t)}"
                     + (f" (cold ~{clock(self.cold[name])})" if self.cold.get(name) else "") + "…"
                     for p, (fam, name, t) in sorted(self.running.items())]
        return f"compiling {clock(now - self.t0)}: " + " | ".join(parts)


class _Printer:
    """Lines on stderr; on a terminal the ticking line is rewritten in place."""

    def __init__(self):
        self.tty = sys.stderr.isatty()
        self.lock = threading.Lock()
        self.pending = False  # a ticking line without its newline is on screen

    def tick(self, text: str) -> None:
        with self.lock:
            if self.tty:
                sys.stderr.write("\r\033[K" + text)
                self.pending = True
            else:
                sys.stderr.write(text + "\n")
            sys.stderr.flush()

    def say(self, text: str) -> None:
        with self.lock:
            sys.stderr.write(("\r\033[K" if self.pending else "") + text + "\n")
            self.pending = False
            sys.stderr.flush()


def _run(steps, report, done=None, names=()) -> dict:
    """Call each step; ``report(event, family, name, cpu)`` before and after. Returns the CPU
    seconds of each. ``done``: a folder where a file names each step as it ends, and where a
    step waits for the one it comes after (:data:`AFTER`, when ``names`` schedules it)."""
    cpu = {}
    for family, name, _, step in steps:
        dep = AFTER.get(name)
        if done is not None and dep in names:
            while not os.path.exists(os.path.join(done, dep)):
                time.sleep(0.2)
        report("start", family, name, None)
        c = time.process_time()
        step()
        cpu[name] = time.process_time() - c
        report("end", family, name, cpu[name])
        if done is not None:
            open(os.path.join(done, name), "w").close()
    return cpu


def _child_events(pipe, board: Board, printer: _Printer, cpu: dict) -> None:
    """Read process B's ``start``/``end`` lines into the board."""
    for line in pipe:
        parts = line.rstrip("\n").split("\t")
        if parts[0] == "start" and len(parts) == 3:
            board.start("B", parts[1], parts[2])
        elif parts[0] == "end" and len(parts) == 4:
            cpu[parts[2]] = float(parts[3])
            printer.say("  " + board.end("B", float(parts[3])))


def warm(quiet: bool = False, search: bool = True, jobs: int = 2, tick: float = 10.0,
         quick: bool = False) -> float:
    """Call every compiled entry point once on a tiny input; return the seconds it took.

    ``search=False`` leaves out the searching player's kernels (``make report`` does not play
    it); ``quick=True`` compiles only what the quick start needs (:data:`QUICK`; the rest
    compiles on first use). ``jobs=2`` compiles the second share in a child process at the
    same time (``1``: all here, one after another); the child's steps that play hands wait
    until this process has compiled the engine. Unless ``quiet``, a line on stderr every
    ``tick`` seconds says what each process is compiling and for how long.

    Examples
    --------
    >>> warm(quiet=True, jobs=1) >= 0
    True
    >>> warm(jobs=3)
    Traceback (most recent call last):
    ...
    ValueError: jobs=3 is not allowed; give 1 or 2
    """
    if jobs not in (1, 2):
        raise ValueError(f"jobs={jobs!r} is not allowed; give 1 or 2")
    steps = _steps(search, quick)
    names = {n for _, n, _, _ in steps}
    with tempfile.TemporaryDirectory(prefix="kalooki-warmup-") as done:
        if not quiet:
            return _warm_loud(steps, search, jobs, tick, quick, done)
        t0 = time.perf_counter()
        child = (subprocess.Popen(_child_args(search, quick, done)) if jobs == 2 else None)
        try:
            _run([s for s in steps if child is None or s[2] == 0], lambda *a: None, done,
                 names)
        except BaseException:
            if child is not None:  # it may be waiting for the engine this process did not make
                child.kill()
            raise
        if child is not None and child.wait() != 0:
            raise RuntimeError(f"process B of the compile failed (exit {child.returncode})")
        return time.perf_counter() - t0


def _child_args(search: bool, quick: bool, done: str) -> list[str]:
    return ([sys.executable, "-m", "kalooki_sim.warmup", "--share", "1", "--done", done]
            + ([] if search else ["--without-search"]) + (["--quick"] if quick else []))


def _warm_loud(steps, search: bool, jobs: int, tick: float, quick: bool = False,
               done: str | None = None) -> float:
    printer = _Printer()
    shares = "in 2 processes at once, A and B" if jobs == 2 else "in one process, A"
    est = estimate(steps if jobs == 2 else [(f, n, 0, c) for f, n, _, c in steps])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    busy = (f"; this machine is busy (load {load:.1f} on {os.cpu_count()} cores): expect longer"
            if load > 1.0 else "")
    printer.say(f"compiling the Numba kernels {shares}: from nothing cached about "
                f"{clock(est)} on an idle 2-core machine (measured {MEASURED}){busy}; "
                "cached kernels load in seconds. Once, then cached.")
    board, cpu, names = Board(), {}, {n for _, n, _, _ in steps}
    child = reader = None
    if jobs == 2:
        child = subprocess.Popen(_child_args(search, quick, done) + ["--events"],
                                 stdout=subprocess.PIPE, text=True, encoding="utf-8")
        reader = threading.Thread(target=_child_events, args=(child.stdout, board, printer, cpu),
                                  daemon=True)
        reader.start()
        steps = [s for s in steps if s[2] == 0]
    stop = threading.Event()

    def ticker():
        while not stop.wait(tick):
            if board.running:
                printer.tick(board.line())

    threading.Thread(target=ticker, daemon=True).start()

    def report(event, family, name, secs):
        if event == "start":
            board.start("A", family, name)
        else:
            printer.say("  " + board.end("A", secs))

    try:
        cpu.update(_run(steps, report, done, names))
        if child is not None:
            if child.wait() != 0:
                raise RuntimeError(f"process B of the compile failed (exit {child.returncode})")
            reader.join()
    finally:
        stop.set()
        if child is not None and child.poll() is None:
            child.kill()
    secs = time.perf_counter() - board.t0
    printer.say(f"compiled in {clock(secs)} (CPU {clock(sum(cpu.values()))} over the "
                f"{'two processes' if jobs == 2 else 'process'})")
    warm.last_cpu = cpu
    return secs


def _measure(search: bool, jobs: int, quick: bool = False) -> None:
    """Compile everything from an empty, temporary cache; print :data:`COLD_CPU` anew."""
    with tempfile.TemporaryDirectory(prefix="kalooki-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = ("import json, sys; from kalooki_sim import warmup as w; "
                f"w.warm(search={search}, jobs={jobs}, quick={quick}); "
                "print(json.dumps({k: round(v) for k, v in w.warm.last_cpu.items()}))")
        out = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                             text=True, check=True).stdout
    print(f"COLD_CPU = {out.strip()}  # measured {time.strftime('%Y-%m-%d')}")


def _main(argv) -> None:
    search = "--without-search" not in argv
    quick = "--quick" in argv
    if "--share" in argv:  # process B of warm(jobs=2): one share; events on stdout
        share = int(argv[argv.index("--share") + 1])
        events = "--events" in argv

        def report(event, family, name, cpu):
            if events:
                print(event, family, name, *([] if cpu is None else [f"{cpu:.1f}"]), sep="\t",
                      flush=True)

        done = argv[argv.index("--done") + 1] if "--done" in argv else None
        steps = _steps(search, quick)
        _run([s for s in steps if s[2] == share], report, done, {n for _, n, _, _ in steps})
        return
    jobs = 1 if "--jobs=1" in argv else 2
    if "--measure" in argv:
        _measure(search, jobs, quick)
        return
    warm(search=search, jobs=jobs, quick=quick)


if __name__ == "__main__":
    _main(sys.argv[1:])
