"""kalooki_sim: Monte Carlo statistics for Jamaican Kalooki, the nine-contract rummy.

The package in layers, each importing only the ones before it (``tests/test_layers.py``
checks every import):

* ``game``: cards, rules and formats, melds (opening solver, lay-offs), the referee;
* ``engine``: the compiled table split by phase, policies, ``play_hands``/``play_games``,
  traces;
* ``players``: cards still needed and outs, the tuned call policies;
* ``studies``: ``simulate``/``Run``, tournaments, call decisions, the advisor;
* ``analysis``: statistics, one private module per trade behind one namespace;
* ``report``: plots, the report builder, the notebook widgets;
* the shells: this namespace, the ``kalooki`` command (``cli``) and ``bench``.

The public API is re-exported here. The rules are in ``kalooki_sim/RULES.md``.
"""

from . import _numba  # noqa: F401  (first: kernels compile once, not once per constant)
from ._version import __version__ as __version__
from .engine.play import play_games, play_hands
from .engine.policies import Policy, preset
from .engine.trace import Trace, trace
from .game.cards import JOKER, PENALTY, card_text, parse_cards, penalty, to_codes
from .game.melds import Opening, can_lay_off, lay_off, meld_kind, solve_opening
from .game.rules import JAMAICAN_SCHEDULE, Rules
from .players.needed import cards_needed, outs
from .players.tuning import tune_calls, tuned_policy
from .studies.advisor import Advice, advise
from .studies.answer import policy_answer
from .studies.decisions import call_decisions, trace_decision
from .studies.discard_advisor import DiscardAdvice, advise_discard
from .studies.record import read_record, review_record, write_record
from .studies.review import review, review_total
from .studies.situation import Situation, situation
from .studies.study import Run, simulate
from .studies.tournament import tournament

__all__ = [
    "Advice",
    "DiscardAdvice",
    "JAMAICAN_SCHEDULE",
    "JOKER",
    "PENALTY",
    "Opening",
    "Policy",
    "Rules",
    "Run",
    "Situation",
    "Trace",
    "can_lay_off",
    "cards_needed",
    "advise",
    "advise_discard",
    "call_decisions",
    "card_text",
    "lay_off",
    "meld_kind",
    "outs",
    "parse_cards",
    "penalty",
    "play_games",
    "play_hands",
    "policy_answer",
    "preset",
    "read_record",
    "review",
    "review_record",
    "review_total",
    "simulate",
    "situation",
    "solve_opening",
    "to_codes",
    "tournament",
    "trace",
    "trace_decision",
    "tune_calls",
    "tuned_policy",
    "write_record",
]
