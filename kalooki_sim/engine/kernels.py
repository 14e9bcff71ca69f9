"""The engine's compiled kernels for the layers that drive them: the public door to
``engine._kernels``.

The studies (the advisor's rollouts, the call decisions, the review), the players' counts of
cards needed, the exact deal sampling of the analysis and the bench run the engine's kernels
directly; they import them from here, so no layer above names a private module of ``engine``.
Each entry is a module of kernels and layout constants; the kernels validate nothing (the
checked Python entry points are in :mod:`kalooki_sim.engine.play` and the studies).

* ``engine``: the table's layout (``PS_*`` seat columns, ``GS_*`` game-state columns, ``O_*``
  row columns), :func:`engine.new_table`, the ``Deal``/``Run``/``Rows`` tuples and the hand loop;
* ``branch``: a decision played both ways (``D_*``/``F_*`` columns, ``Branching``,
  :func:`branch.decision_block`, :func:`branch.play_branch`);
* ``history``: the advisor's rollouts read from the table (``H_*`` event kinds, ``Hidden``,
  ``History``, ``Rollouts``, :func:`history.rollout_block`);
* ``luck``: the luck terms of a continuation's stock draws, control variates for paired
  rollouts (``LK_*`` columns, ``LuckRollouts``, :func:`luck.rollout_luck_block`);
* ``needed`` and ``position``: cards needed and live outs of a hand;
* ``rng``: the counter-based random streams (:func:`rng.stream_key`);
* ``sampling``: deals sampled for exact-probability checks (:func:`sampling.deals_meet`);
* :func:`known_row` and :func:`wants`: the row of a seat's cards the table knows of, and
  whether a seat's model takes or calls a card (the advisor's one-line answer).
"""

from __future__ import annotations

from ._kernels import branch, engine, history, luck, needed, position, rng, sampling
from ._kernels.history import _wants as wants
from ._kernels.reading import _known_row as known_row

__all__ = ["branch", "engine", "history", "known_row", "luck", "needed", "position", "rng",
           "sampling", "wants"]
