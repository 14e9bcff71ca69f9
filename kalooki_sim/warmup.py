"""``python -m kalooki_sim.warmup``: compile every Numba kernel once, with a visible step.

Numba compiles a kernel on its first call and keeps it in its on-disk cache, so without this the
first command a new user runs sits silent for minutes. ``make test`` and ``make report`` run it
as a set-up step (``make compile``) whenever a kernel source changed; afterwards a new process
loads the kernels from the cache in about a second.

Numba compiles on one core, so the entry points are split in two shares compiled by two
processes at once (``jobs=2``, the default): on two cores the set-up takes about the time of the
larger share. Each kernel is cached under its own file, written atomically, so the two processes
never see half a cache entry.
"""

from __future__ import annotations

import subprocess
import sys
import time


def _steps(search: bool):
    """``(name, share, call)`` of every compiled entry point; shares balanced by compile time
    on a new machine (the engine alone is about 3 minutes)."""
    import kalooki_sim as ks
    from kalooki_sim import analysis as A
    from kalooki_sim.bench import ADVISOR_CASE

    steps = [
        ("opening solver", 0, lambda: ks.solve_opening("7♥ 7♠ 7♦ 8♣ 8♦ 8♥ 9♠ 9♥ 9♦", 1)),
        ("cards needed", 0, lambda: ks.cards_needed("7♥ 7♠ 8♣ 8♦ 9♠ 9♥ K♦ Q♣ 2♥", 1)),
        ("play", 0, lambda: ks.play_games(1, policies="expert", seed=0, threads=1)),
        ("trace", 0, lambda: ks.trace(0, hand=1)),
        # after play: the engine's shared kernels come from the cache play just wrote
        ("advisor", 0, lambda: ks.advise(**ADVISOR_CASE, rollouts=20, policies="greedy")),
        ("search player", 0, lambda: ks.trace(0, hand=1, policies=["search"] + ["expert"] * 3)),
        ("deal sampling", 1, lambda: A.simulate_deals(10, (3, 0), 9)),
        ("call decisions", 1, lambda: ks.call_decisions(1, hand=1, policies="greedy", seed=0)),
        ("search blocks", 1, lambda: ks.play_hands(1, policies=["search"] + ["expert"] * 3,
                                                   threads=1)),
    ]
    return [s for s in steps if search or not s[0].startswith("search")]


def _run(steps, quiet: bool, tag: str = "") -> None:
    for name, _, step in steps:
        t = time.perf_counter()
        step()
        if not quiet:
            print(f"  {tag}{name}: {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)


def warm(quiet: bool = False, search: bool = True, jobs: int = 2) -> float:
    """Call every compiled entry point once on a tiny input; return the seconds it took.

    ``search=False`` leaves out the searching player's kernels (``make report`` does not play
    it). ``jobs=2`` compiles the second share in a child process at the same time (``1``: all
    here, one after another).

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
    t0 = time.perf_counter()
    if not quiet:
        print("compiling the engine (once; a few minutes on a new machine, then cached) ...",
              file=sys.stderr, flush=True)
    steps = _steps(search)
    child = None
    if jobs == 2:
        args = [sys.executable, "-m", "kalooki_sim.warmup", "--share", "1"]
        args += [] if search else ["--without-search"]
        args += ["--quiet"] if quiet else []
        child = subprocess.Popen(args)
        steps = [s for s in steps if s[1] == 0]
    _run(steps, quiet, "" if child is None else "[1/2] ")
    if child is not None and child.wait() != 0:
        raise RuntimeError(f"the second compile process failed (exit {child.returncode})")
    secs = time.perf_counter() - t0
    if not quiet:
        print(f"compiled in {secs:.0f} s", file=sys.stderr, flush=True)
    return secs


def _main(argv) -> None:
    search = "--without-search" not in argv
    if "--share" in argv:  # the child of warm(jobs=2): one share, no banner
        share = int(argv[argv.index("--share") + 1])
        _run([s for s in _steps(search) if s[1] == share], "--quiet" in argv,
             f"[{share + 1}/2] ")
        return
    warm(search=search, jobs=1 if "--jobs=1" in argv else 2)


if __name__ == "__main__":
    _main(sys.argv[1:])
