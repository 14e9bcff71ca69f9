"""Old path of the call-decision names (importing it warns): ``call_decisions`` and
``trace_decision`` live in :mod:`kalooki_sim.studies.decisions`, their summaries
``value_map`` and ``variance_ratio`` in :mod:`kalooki_sim.analysis`.
"""

from ._alias import deprecated
from .analysis import THIN_DEALS, THIN_DECISIONS, value_map, variance_ratio
from .studies.decisions import COLUMNS, call_decisions, trace_decision

deprecated("kalooki_sim.decisions", "kalooki_sim.studies.decisions and kalooki_sim.analysis")

__all__ = ["COLUMNS", "THIN_DEALS", "THIN_DECISIONS", "call_decisions", "trace_decision",
           "value_map", "variance_ratio"]
