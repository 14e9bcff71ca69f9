"""A policy played in every seat of the same deals, the field after it: the rotations that the
call tuning (:mod:`.tuning`) scores candidates on, with the seeds of its streams and the checks
of its policy lists.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._lib import not_allowed
from .._stats import t_interval
from ..engine.play import play_hands
from ..engine.policies import Policy, preset


def _stream_seed(seed: int, tag: int, hand: int, batch: int) -> int:
    """A seed of its own for each (seed, purpose, hand, batch): deals that never coincide."""
    ss = np.random.SeedSequence([seed, tag, hand, batch])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def _opponents(field_, players: int) -> list[Policy]:
    """The seats after the candidate's, in order: the field's policies cycled."""
    allowed = "a preset name, a Policy, or a non-empty list of them (the opponents, cycled)"
    if isinstance(field_, (str, Policy)):
        field_ = [field_]
    if isinstance(field_, (dict, bytes)) or not hasattr(field_, "__iter__"):
        raise TypeError(not_allowed("field", field_, allowed))
    pols = [preset(p) for p in field_]
    if not pols:
        raise ValueError(not_allowed("field", field_, allowed))
    return [pols[j % len(pols)] for j in range(players - 1)]


def _policies(candidates, what="candidates") -> list[Policy]:
    allowed = "a non-empty list of Policy objects or preset names with distinct names"
    if isinstance(candidates, (str, Policy)):
        candidates = [candidates]
    if isinstance(candidates, (dict, bytes)) or not hasattr(candidates, "__iter__"):
        raise TypeError(not_allowed(what, candidates, allowed))
    pols = [preset(p) for p in candidates]
    names = [p.name for p in pols]
    if not pols or len(set(names)) != len(names):
        raise ValueError(not_allowed(what, candidates, allowed))
    return pols


@dataclass
class _Rotations:
    """One policy's results on ``n`` deals, once per rotation (candidate in seat ``k``).

    ``pen[g, k, j]``: penalty of seat ``j`` in rotation ``k`` (NaN if the hand was given up
    or stalled); ``calls[g, k]``, ``attempts[g, k]``: the candidate seat's calls and the hand's
    attempts (R13).
    """

    pen: np.ndarray
    calls: np.ndarray
    attempts: np.ndarray

    @property
    def own(self) -> np.ndarray:
        """``[n, P]``: the candidate seat's penalty in each rotation."""
        P = self.pen.shape[1]
        return self.pen[:, np.arange(P), np.arange(P)]

    def score(self) -> np.ndarray:
        """Per deal: the candidate's penalty averaged over the rotations (NaN if unfinished)."""
        return self.own.mean(axis=1)


def _rotations(policy, opponents, hand, n, seed, rules, threads) -> _Rotations:
    """Play ``policy`` in each seat of ``n`` deals of ``hand`` with the field after it."""
    P = rules.players
    pen = np.full((n, P, P), np.nan)
    calls = np.zeros((n, P))
    attempts = np.zeros((n, P))
    for k in range(P):
        seats = [None] * P
        seats[k] = policy
        for j, opp in enumerate(opponents):
            seats[(k + 1 + j) % P] = opp
        with warnings.catch_warnings():
            # stalled or given-up hands are NaN here and counted by the callers
            warnings.simplefilter("ignore", RuntimeWarning)
            df = play_hands(n, hand=hand, policies=seats, seed=seed, rules=rules,
                            threads=threads, progress=False)
        g = df["game"].to_numpy(np.int64)
        s = df["seat"].to_numpy(np.int64)
        p = df["penalty"].to_numpy(dtype=float, na_value=np.nan)
        pen[g, k, s] = p
        me = s == k
        calls[g[me], k] = df["calls"].to_numpy()[me]
        attempts[g[me], k] = df["attempts"].to_numpy()[me]
    return _Rotations(pen, calls, attempts)


def _interval(x) -> tuple[float, float, float]:
    """Mean of ``x`` and its 95% Student t interval (exact if x is constant)."""
    return t_interval(x)[:3]
