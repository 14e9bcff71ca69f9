"""Old path of :mod:`kalooki_sim.game.referee`: every name is looked up there, and importing
it warns."""

from ._alias import deprecated, forward

deprecated("kalooki_sim.referee", "kalooki_sim.game.referee")
__getattr__, __dir__ = forward("kalooki_sim.game.referee")
