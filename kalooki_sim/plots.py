"""Old path of :mod:`kalooki_sim.report.plots`, kept because the README names it: every name is
looked up there."""

from ._alias import forward

__getattr__, __dir__ = forward("kalooki_sim.report.plots")
