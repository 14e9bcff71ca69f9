"""Players: how a seat judges its hand (``needed``: cards still needed and outs, exact, from
the compiled kernel) and the tuned call policies with their committed table (``tuning``:
``tune_calls``, ``tuned_policy``, ``tuned_calls.csv``). ``Policy`` and ``preset`` are defined
in :mod:`kalooki_sim.engine.policies` (the engine reads them) and re-exported here.

May import ``game`` and ``engine``.
"""

from ..engine.policies import PRESETS, Policy, preset
from .needed import cards_needed, outs
from .tuning import tune_calls, tuned_policy

__all__ = ["PRESETS", "Policy", "cards_needed", "outs", "preset", "tune_calls", "tuned_policy"]
