"""``python -m kalooki_sim.warmup``: compile every Numba kernel once, with a visible step.

Numba compiles a kernel on its first call and keeps it in its on-disk cache, so without this the
first command a new user runs sits silent for minutes. ``make test`` and ``make report`` run it
as a set-up step (``make compile``) whenever a kernel source changed; afterwards a new process
loads the kernels from the cache in about a second.
"""

from __future__ import annotations

import sys
import time


def warm(quiet: bool = False, search: bool = True) -> float:
    """Call every compiled entry point once on a tiny input; return the seconds it took.

    ``search=False`` leaves out the searching player's kernels (``make report`` does not play
    it, and they are a third of the compile time of a new machine).

    Examples
    --------
    >>> warm(quiet=True) >= 0
    True
    """
    t0 = time.perf_counter()
    if not quiet:
        print("compiling the engine (once; a few minutes on a new machine, then cached) ...",
              file=sys.stderr, flush=True)
    import kalooki_sim as ks
    from kalooki_sim import analysis as A
    from kalooki_sim.bench import ADVISOR_CASE

    steps = [
        ("opening solver", lambda: ks.solve_opening("7♥ 7♠ 7♦ 8♣ 8♦ 8♥ 9♠ 9♥ 9♦", 1)),
        ("cards needed", lambda: ks.cards_needed("7♥ 7♠ 8♣ 8♦ 9♠ 9♥ K♦ Q♣ 2♥", 1)),
        ("play", lambda: ks.play_games(1, policies="expert", seed=0, threads=1)),
        ("trace", lambda: ks.trace(0, hand=1)),
        ("search player", lambda: ks.trace(0, hand=1, policies=["search"] + ["expert"] * 3)),
        ("search blocks", lambda: ks.play_hands(1, policies=["search"] + ["expert"] * 3,
                                                threads=1)),
        ("call decisions", lambda: ks.call_decisions(1, hand=1, policies="greedy", seed=0)),
        ("advisor", lambda: ks.advise(**ADVISOR_CASE, rollouts=20, policies="greedy")),
        ("deal sampling", lambda: A.simulate_deals(10, (3, 0), 9)),
    ]
    if not search:
        steps = [(name, step) for name, step in steps if not name.startswith("search")]
    for name, step in steps:
        t = time.perf_counter()
        step()
        if not quiet:
            print(f"  {name}: {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
    secs = time.perf_counter() - t0
    if not quiet:
        print(f"compiled in {secs:.0f} s", file=sys.stderr, flush=True)
    return secs


if __name__ == "__main__":
    warm(search="--without-search" not in sys.argv[1:])
