"""Old path of :mod:`kalooki_sim.report.plots`: every name is looked up there, and importing
it warns."""

from ._alias import deprecated, forward

deprecated("kalooki_sim.plots", "kalooki_sim.report.plots")
__getattr__, __dir__ = forward("kalooki_sim.report.plots")
