"""The rule kernels other layers compile against: the public door to ``game._kernels``.

The engine's kernels call the opening solver (R4, R5, R7) and the lay-off kernels (R10, R11)
inside their own compiled code, and the bench times the solver alone; they import them from
here, so the layers above never name a private module of ``game``. Everything here is a Numba
kernel or a layout constant: it takes numeric encodings, allocates nothing and checks nothing
(the checked Python functions are in :mod:`kalooki_sim.game.melds`).

* :func:`solve_kernel`, :func:`new_workspace`, ``OPT_COLS``, ``SCRATCH``: the opening solver
  and the sizes of its workspace;
* :func:`card_value`: a card's penalty points (R12);
* ``layoff``: the table's melds as rows (``MELD_COLS``, ``KIND``, ``GROUP``/``RUN``, ``LO``/``HI``,
  ``KEY``, ``OWNER``, ...) and :func:`layoff.lay_off_kernel`;
* :func:`drop_stale_cache`: drops a kernel folder's Numba cache when any kernel source changed.
"""

from __future__ import annotations

from ._kernels import drop_stale_cache, layoff
from ._kernels.solver import OPT_COLS, SCRATCH, card_value, new_workspace, solve_kernel

__all__ = ["OPT_COLS", "SCRATCH", "card_value", "drop_stale_cache", "layoff", "new_workspace",
           "solve_kernel"]
