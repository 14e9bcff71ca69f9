"""kalooki_sim: Monte Carlo statistics for Jamaican Kalooki, the nine-contract rummy.

Layers: ``_kernels`` (Numba, numeric encoding) -> the public API re-exported here (cards,
rules, melds, policies, play, trace, simulate; the referee in ``kalooki_sim.referee``; the
``kalooki`` command in ``kalooki_sim.cli``) -> ``analysis``,
``plots`` and the notebooks. The rules are in ``kalooki_sim/RULES.md``.
"""

from .advisor import Advice, advise
from .cards import JOKER, PENALTY, card_text, parse_cards, penalty, to_codes
from .decisions import call_decisions, trace_decision
from .melds import Opening, can_lay_off, lay_off, meld_kind, solve_opening
from .needed import cards_needed, outs
from .play import play_games, play_hands
from .policies import Policy, preset
from .rules import JAMAICAN_SCHEDULE, Rules
from .study import Run, simulate
from .tournament import tournament
from .trace import Trace, trace
from .tuning import tune_calls, tuned_policy

__version__ = "0.1.0"

__all__ = [
    "Advice",
    "JAMAICAN_SCHEDULE",
    "JOKER",
    "PENALTY",
    "Opening",
    "Policy",
    "Rules",
    "Run",
    "Trace",
    "can_lay_off",
    "cards_needed",
    "advise",
    "call_decisions",
    "card_text",
    "lay_off",
    "meld_kind",
    "outs",
    "parse_cards",
    "penalty",
    "play_games",
    "play_hands",
    "preset",
    "simulate",
    "solve_opening",
    "to_codes",
    "tournament",
    "trace",
    "trace_decision",
    "tune_calls",
    "tuned_policy",
]
