"""Old path of :mod:`kalooki_sim.game.referee`, kept because earlier issues name it: every name is
looked up there."""

from ._alias import forward

__getattr__, __dir__ = forward("kalooki_sim.game.referee")
