"""The engine: the compiled table (``engine._kernels``, split by phase of the game), the
scripted players' parameter vectors and presets it reads (``policies``), the Python entry
points that deal and play hands and games over threads (``play``: ``play_hands``,
``play_games``) and move logs (``trace``).

May import ``game`` only. ``Policy`` and the presets live here, not in ``players``, because
a policy is the parameter vector the compiled decisions read and ``play_hands`` resolves a
preset name: below the engine they could not reach its layout, above it ``play_hands``
could not resolve them. ``kalooki_sim.players`` re-exports them.
"""
