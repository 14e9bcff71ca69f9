"""Counter-based random streams (C3).

Every random draw is ``mix(key, counter)``: the key hashes (seed, game, hand, attempt, stream),
the counter counts draws within that stream. Nothing depends on thread, batch or order of work,
so a hand's play is a pure function of its key.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

_GOLDEN = 0x9E3779B97F4A7C15

# stream ids inside one hand
STREAM_DEAL = 0  # the shuffle of the pack
STREAM_RESHUFFLE = 1  # R13's one reshuffle
STREAM_DEALER = 2  # the first dealer of a game (R2)
STREAM_POLICY = 16  # + seat: each seat's policy randomness, separate for common random numbers


@njit(cache=True, _nrt=False)
def _splitmix(x):
    x = (x + uint64(_GOLDEN)) & uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, _nrt=False)
def stream_key(seed, game, hand, attempt, stream):
    """Key of one stream: a hash of the run's seed and the hand's coordinates."""
    k = _splitmix(uint64(seed))
    k = _splitmix(k ^ uint64(game))
    k = _splitmix(k ^ uint64(hand))
    k = _splitmix(k ^ uint64(attempt))
    return _splitmix(k ^ uint64(stream))


@njit(cache=True, _nrt=False)
def draw(state):
    """Next 64 random bits of a stream; ``state`` is ``uint64[2]`` = (key, counter)."""
    c = state[1]
    state[1] = c + uint64(1)
    return _splitmix(state[0] ^ _splitmix(c))


@njit(cache=True, _nrt=False)
def below(state, n):
    """Uniform integer in ``0 .. n-1`` (n >= 1); the tiny modulo bias of 64 bits is ignored."""
    return np.int64(draw(state) % uint64(n))


@njit(cache=True, _nrt=False)
def uniform(state):
    """Uniform float in [0, 1)."""
    return (draw(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
