"""The game itself: cards (R1), the rules and named formats (V1-V9), melds with the exact
opening solver and lay-offs (R4, R5, R7, R10, R11), and the referee that replays a move log
from RULES.md alone. Its Numba kernels (solver, lay-offs) are in ``game._kernels``.

The bottom layer: it may import nothing else of ``kalooki_sim``. The rules' text is
``kalooki_sim/RULES.md``.
"""
