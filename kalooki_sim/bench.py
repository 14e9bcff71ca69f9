"""``make bench``: timings of the compiled kernels on this machine.

Run as ``python -m kalooki_sim.bench``. Prints a table; numbers in the README come from it.
"""

from __future__ import annotations

import platform
import time

import numpy as np
from numba import njit

from ._kernels import solver as _sk
from .cards import JOKER, hand_counts

PACK = np.array([c for c in range(52) for _ in range(2)] + [JOKER] * 4, dtype=np.int64)


@njit(cache=True)
def _solve_many(counts, jokers, g, r, opts, scratch, runs, groups):
    """Solve every hand in a compiled loop (no Python dispatch in the timing)."""
    n = counts.shape[0]
    acc = 0
    for i in range(n):
        v, _ = _sk.solve_kernel(counts[i], jokers[i], g, r, False, opts, scratch, runs, groups)
        acc += v
    return acc


def bench_solver(n_hands: int = 20000, seed: int = 0) -> list[tuple[int, int, int, float, float]]:
    """Median and mean µs per solver call on random hands: rows (cards, groups, runs, med, mean).

    The median is over batches of 100 hands timed in a compiled loop.
    """
    rng = np.random.default_rng(seed)
    rows = []
    ws = _sk.new_workspace(4)
    for n_cards, (g, r) in [(9, (3, 0)), (12, (0, 3)), (12, (4, 0)), (16, (0, 4)), (16, (2, 2))]:
        counts = np.zeros((n_hands, 4, 14), np.int64)
        jokers = np.zeros(n_hands, np.int64)
        for i in range(n_hands):
            counts[i], jokers[i] = hand_counts(rng.choice(PACK, n_cards, replace=False))
        _solve_many(counts[:2], jokers[:2], g, r, *ws)  # compile / load cache
        batch = 100
        per = []
        for b in range(0, n_hands, batch):
            t0 = time.perf_counter()
            _solve_many(counts[b:b + batch], jokers[b:b + batch], g, r, *ws)
            per.append((time.perf_counter() - t0) / batch * 1e6)
        rows.append((n_cards, g, r, float(np.median(per)), float(np.mean(per))))
    return rows


def main() -> None:
    """Print every benchmark."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()}, {__import__('os').cpu_count()} cores")
    print("\nopening solver (kernel, compiled loop), random hands from a 108-card pack")
    print(f"{'cards':>5} {'contract':>9} {'median µs':>10} {'mean µs':>9}")
    for n, g, r, med, mean in bench_solver():
        print(f"{n:>5} {f'{g}g+{r}r':>9} {med:>10.2f} {mean:>9.2f}")


if __name__ == "__main__":
    main()
