"""Numba kernels of the table: the hand engine split by phase of the game (``table`` layouts,
``deal``, ``draw`` and ``tuluki``, ``melds``, ``discard``, ``score``, the turn loop in
``engine``), what a seat reads from its hand (``reading``), cards needed (``needed``; one card on or
off, ``plus``), the
branching of decisions (``branch``), counter-based random streams (``rng``) and deal
sampling (``sampling``). They allocate nothing per turn and never raise: the Python layer in
:mod:`kalooki_sim.engine` validates and calls them. May import ``game`` (its solver and
lay-off kernels) and nothing above.

Every kernel that allocates nothing is compiled without Numba's runtime (``_nrt=False``): with
it, each call between kernels counts references to every array it passes or slices
(``NRT_incref`` / ``NRT_decref``, atomic), and with the engine split into small kernels by
phase those counts cost a large share of a turn's time (the measurements are in the
CHANGELOG). Only the kernels that
allocate (a table, a block's rows, a branch's stream state) keep the runtime; a kernel without
it cannot call one that allocates, so such helpers take their state from the caller.
"""

from __future__ import annotations

from pathlib import Path

from ...game.kernels import drop_stale_cache

drop_stale_cache(Path(__file__).resolve().parent)
