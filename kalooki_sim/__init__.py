"""kalooki_sim: Monte Carlo statistics for Jamaican Kalooki, the nine-contract rummy.

Layers: ``_kernels`` (Numba, numeric encoding) -> the public API re-exported here
(cards, rules, melds) -> analysis and notebooks. The rules are in ``kalooki_sim/RULES.md``.
"""

from .cards import JOKER, PENALTY, card_text, parse_cards, penalty, to_codes
from .melds import Opening, can_lay_off, lay_off, meld_kind, solve_opening
from .rules import JAMAICAN_SCHEDULE, Rules

__version__ = "0.1.0"

__all__ = [
    "JAMAICAN_SCHEDULE",
    "JOKER",
    "PENALTY",
    "Opening",
    "Rules",
    "can_lay_off",
    "card_text",
    "lay_off",
    "meld_kind",
    "parse_cards",
    "penalty",
    "solve_opening",
    "to_codes",
]

from .play import play_games, play_hands  # noqa: E402
from .policies import Policy, preset  # noqa: E402

__all__ += ["Policy", "play_games", "play_hands", "preset"]
from .trace import Trace, trace  # noqa: E402

__all__ += ["Trace", "trace"]
