"""Old path of :mod:`kalooki_sim.studies.study`: every name is looked up there, and importing
it warns."""

from ._alias import deprecated, forward

deprecated("kalooki_sim.study", "kalooki_sim.studies.study")
__getattr__, __dir__ = forward("kalooki_sim.studies.study")
