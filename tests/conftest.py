"""Shared test helpers: random hands from a 108-card pack."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings

from kalooki_sim.game.cards import JOKER

settings.register_profile("default", deadline=None, max_examples=200, derandomize=True)
settings.load_profile("default")

pytest_plugins = ["heartbeat"]

PACK = np.array([c for c in range(52) for _ in range(2)] + [JOKER] * 4, dtype=np.int64)


def random_hand(rng: np.random.Generator, n: int, joker_rich: bool = False) -> np.ndarray:
    """n cards from one 108-card pack; joker_rich hands hold 2-4 jokers."""
    if not joker_rich:
        return rng.choice(PACK, n, replace=False)
    nj = int(rng.integers(2, 5))
    nat = rng.choice(PACK[:104], n - nj, replace=False)
    return np.concatenate([nat, np.full(nj, JOKER)])


def to_ref(codes):
    """Codes to the reference module's (suit, rank) / 'JK' cards."""
    return ["JK" if c == JOKER else (int(c) // 13, int(c) % 13 + 1) for c in codes]


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
