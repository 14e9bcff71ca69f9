"""Random deals checked by the solver, in a compiled loop (for exact-vs-simulated lessons)."""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from ...game.kernels import OPT_COLS, SCRATCH, solve_kernel
from . import rng as R


@njit(cache=True)
def deals_meet(seed, n, cards, g, r, decks, jokers, out):
    """``out[i]`` = 1 if deal ``i`` (``cards`` from a shuffled pack) can lay (g groups, r runs).

    Deal ``i`` comes from the stream keyed (seed, i): the same deals whatever ``n`` is.
    """
    size = 52 * decks + jokers
    pack = np.empty(size, np.int64)
    opts = np.zeros((4, 8192, OPT_COLS), np.int64)
    scratch = np.zeros(SCRATCH + jokers + 1, np.int64)
    runs = np.zeros((4, 3), np.int64)
    groups = np.zeros(14, np.int64)
    cnt = np.zeros((4, 14), np.int64)
    st = np.empty(2, np.uint64)
    for i in range(n):
        m = 0
        for c in range(52):
            for _ in range(decks):
                pack[m] = c
                m += 1
        for _ in range(jokers):
            pack[m] = 52
            m += 1
        st[0] = R.stream_key(seed, i, 0, 0, 99)
        st[1] = uint64(0)
        # partial Fisher-Yates: the first `cards` positions are a uniform sample
        for a in range(cards):
            b = a + R.below(st, size - a)
            t = pack[a]
            pack[a] = pack[b]
            pack[b] = t
        cnt[:, :] = 0
        j = 0
        for a in range(cards):
            c = pack[a]
            if c == 52:
                j += 1
            else:
                cnt[c // 13, c % 13 + 1] += 1
        v, _ = solve_kernel(cnt, j, g, r, False, opts, scratch, runs, groups, 0, 0)
        out[i] = 1 if v >= 0 else 0
