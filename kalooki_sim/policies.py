"""Scripted policies: small parameter vectors read by the compiled decision code.

A :class:`Policy` is data, not code, so a sweep over strategies needs no recompilation. The
decisions it steers (see :mod:`kalooki_sim._kernels.engine`):

* take the discard (R9.1) when it cuts the "cards still needed" estimate by ``take_gain``;
* call a discard (R9.2) while fewer than ``call_limit`` calls are made this hand and the card
  cuts the estimate by ``call_gain``;
* open as soon as the solver finds the contract (R7), or, with ``hold``, only when at most one
  card would remain (to go out on the opening and double everyone, R12) until ``hold_turns``
  own turns have passed;
* once opened: lay every further own meld and every legal lay-off (R5, R10, R11), and discard the
  costliest of the cards farthest from being laid off; before opening, discard the costliest of
  the cards whose loss raises the estimate least.

``random=True`` replaces every decision by a fair coin (take, call, open, further melds, each
lay-off) and the discard by a uniformly random card; the meld layout still comes from the
solver, so all its moves stay legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ._kernels import engine as _E


@dataclass(frozen=True)
class Policy:
    """Parameters of a scripted player. Use :func:`preset` for the named ones."""

    name: str = "greedy"
    random: bool = False
    call_limit: int = 3
    call_gain: int = 1
    take_gain: int = 1
    hold: bool = False
    hold_turns: int = 1000

    def __post_init__(self):
        if not isinstance(self.call_limit, int) or self.call_limit < 0:
            raise ValueError(f"call_limit={self.call_limit!r}: allowed integers >= 0")
        for f in ("call_gain", "take_gain", "hold_turns"):
            v = getattr(self, f)
            if not isinstance(v, int) or v < 0:
                raise ValueError(f"{f}={v!r}: allowed integers >= 0")

    def vector(self) -> np.ndarray:
        """The float64 parameter vector the kernels read."""
        v = np.zeros(_E.NPARAM)
        v[_E.P_RANDOM] = 1.0 if self.random else 0.0
        v[_E.P_CALL_LIMIT] = self.call_limit
        v[_E.P_CALL_GAIN] = self.call_gain
        v[_E.P_TAKE_GAIN] = self.take_gain
        v[_E.P_HOLD] = 1.0 if self.hold else 0.0
        v[_E.P_HOLD_TURNS] = self.hold_turns
        return v


PRESETS = ("random", "greedy", "never-call", "call-<k>", "hold-for-double")


def preset(name: str) -> Policy:
    """A named policy: ``random``, ``greedy``, ``never-call``, ``call-<k>``, ``hold-for-double``.

    * ``greedy``: opens at once, lays off everything, calls (up to the rules' limit) and takes
      the discard whenever the card brings the contract closer.
    * ``never-call``: greedy without calls.
    * ``call-<k>``: greedy, calling while fewer than k calls are made this hand.
    * ``hold-for-double``: greedy, but holds the opening until it can go out on it, for at most
      8 own turns.
    * ``random``: a fair coin at every decision, a uniformly random discard.
    """
    if isinstance(name, Policy):
        return name
    if not isinstance(name, str):
        raise ValueError(f"policy {name!r} is not a preset name or Policy; presets: {PRESETS}")
    key = name.strip().lower()
    if key == "greedy":
        return Policy("greedy")
    if key == "random":
        return Policy("random", random=True)
    if key == "never-call":
        return Policy("never-call", call_limit=0)
    if key == "hold-for-double":
        return Policy("hold-for-double", hold=True, hold_turns=8)
    m = re.fullmatch(r"call-(\d+)", key)
    if m:
        return Policy(key, call_limit=int(m.group(1)))
    raise ValueError(f"unknown policy {name!r}; presets: {', '.join(PRESETS)}")


def seat_policies(policies, players: int) -> list[Policy]:
    """One :class:`Policy` per seat from a preset name, a Policy, or a list of either."""
    if isinstance(policies, (str, Policy)):
        return [preset(policies)] * players
    pols = [preset(p) for p in policies]
    if len(pols) != players:
        raise ValueError(f"policies has {len(pols)} entries; need one per seat ({players})")
    return pols
