"""Numba kernels of the table: the hand engine split by phase of the game (``table`` layouts,
``deal``, ``draw`` and ``tuluki``, ``melds``, ``discard``, ``score``, the turn loop in
``engine``), what a seat reads from its hand (``reading``), cards needed (``needed``), the
branching of decisions (``branch``), counter-based random streams (``rng``) and deal
sampling (``sampling``). They allocate nothing per turn and never raise: the Python layer in
:mod:`kalooki_sim.engine` validates and calls them. May import ``game`` (its solver and
lay-off kernels) and nothing above.
"""

from __future__ import annotations

from pathlib import Path

from ...game._kernels import drop_stale_cache

drop_stale_cache(Path(__file__).resolve().parent)
