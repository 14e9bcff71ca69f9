"""Old path of :mod:`kalooki_sim.studies.study`, kept because the README and issue 11 name
it: every name is looked up there."""

from ._alias import forward

__getattr__, __dir__ = forward("kalooki_sim.studies.study")
