"""Analysis: pandas tables with 95% confidence intervals over the rows the engine and the
studies produce; one namespace over private modules, one per trade (as ``scipy.stats``):

* ``_intervals``: Wilson (and cluster-robust), Student t, Welch, quantile intervals;
* ``_difficulty``: contract difficulty, seat advantage, the chance a deal holds its contract;
* ``_survival``: opening speed with censoring (Kaplan-Meier);
* ``_calls``: call value against penalty exposure, whole-game call results, and the
  summaries of ``call_decisions`` (``value_map``, ``variance_ratio``);
* ``_multiplicity``: Holm, sign claims, rank intervals, p-values from intervals;
* ``_exact``: exact probabilities for teaching and their simulated twins;
* ``_table``: the contract table an organiser quotes (``contract_table``);
* ``_rules``: rule sets side by side on the same deals (``compare_rules``);
* ``_strength``: a policy against a field, per contract, the seats rotated on the same deals
  (``strength_table``);
* ``_chart``: the call chart a player can keep (``call_chart``: verdicts by cards needed
  before and after, stock left and openings, from additive sufficient statistics);
* ``_chart_words``: the chart in words (``call_rule``, ``why_line``, ``decided_sentence``);
* ``_thumb``: rules of thumb true to the chart (``thumb_rules``, ``thumb_check``), the clauses
  the ``thumb`` player plays;
* ``_words``: lists and rankings in words (``join_words``, ``first_phrase``); the pages'
  sentences are in ``kalooki_sim.report.words`` and ``report.player_words``;
* ``search_gap`` (public, ``python -m kalooki_sim.analysis.search_gap``): the searching
  player against three experts per contract, and its committed table
  (``search_gap.search_table()``);
* ``ladder`` (public, ``python -m kalooki_sim.analysis.ladder``): the strength ladder, each
  player against three experts over nine-hand games, and its committed table
  (``ladder.ladder_committed()``);
* ``chart_rounds`` (public, ``python -m kalooki_sim.analysis.chart_rounds``): the chart's
  fixed point, the study again with chart players at the table until its verdicts settle.

May import ``game``, ``engine``, ``players`` and ``studies``.

Examples
--------
>>> from kalooki_sim import analysis as A
>>> A.wilson(0, 10)[2] > 0, A.holm([0.01, 0.04]).round(2).tolist()
(True, [0.02, 0.04])
"""

from ._calls import (
    CALL_POLICIES,
    EXPOSURE_LEVELS,
    EXPOSURE_QUANTILES,
    THIN_DEALS,
    THIN_DECISIONS,
    call_games,
    call_value,
    compare_calls,
    focal_outcomes,
    value_map,
    variance_ratio,
)
from ._chart import (
    CALL_CHART_COLUMNS,
    CELL_KEYS,
    DECIDED,
    EITHER_POINTS,
    NEED_LEVELS,
    STATS_COLUMNS,
    STOCK_BANDS,
    call_chart,
    chart_agreement,
    chart_stats,
    decided_share,
    decision_pvalues,
    fcr_level,
    merge_chart_stats,
    need_level,
    read_chart_stats,
    stock_band,
    verdict_flips,
    write_chart_stats,
    write_play_chart,
)
from ._chart_words import (
    CHANGES,
    agreement_sentence,
    call_rule,
    card_penalty_sentence,
    change_of,
    decided_sentence,
    rounds_sentence,
    why_line,
)
from ._difficulty import (
    contract_difficulty,
    contract_label,
    dealer_seats,
    p_dealt_table,
    p_some_seat_dealt,
    scored,
    seat_advantage,
    void_rate,
)
from ._exact import (
    confidence_sequence,
    convergence,
    dealt_meets,
    p_deal_lays_groups,
    p_outs,
    simulate_deals,
    simulate_outs,
)
from ._intervals import (
    Z95,
    cluster_mean_ci,
    cluster_wilson,
    mean_ci,
    quantile_ci,
    welch_diff,
    wilson,
)
from ._multiplicity import (
    bootstrap_means,
    draws_from_interval,
    first_set,
    holm,
    p_from_ci,
    rank_intervals,
    sign_claims,
)
from ._rules import MEASURES, compare_rules
from ._strength import strength_table
from ._survival import km_fit, open_curve, open_survival, open_times
from ._table import CONTRACT_TABLE_COLUMNS, DIFFICULTY_RANKED_BY, contract_table
from ._thumb import THUMB_COLUMNS, clause_text, read_thumb, thumb_check, thumb_rules, write_thumb
from ._words import first_phrase, join_words

#: the pages' sentences, moved to the report (``kalooki_sim.analysis.<name>`` still answers,
#: with a ``DeprecationWarning`` naming the new home)
MOVED_TO_REPORT = {
    **dict.fromkeys(("RULE_MEASURE_WORDS", "call_sign_line", "call_void_sentence",
                     "dealer_sentence", "open_speed_sentence", "selection_note",
                     "some_seat_sentence", "spread_sentence", "variant_sentence"),
                    "kalooki_sim.report.words"),
    **dict.fromkeys(("interval_sentence", "search_gap_sentence", "search_gap_tally",
                     "situation_sentence", "tuned_games_sentence", "tuned_sentence"),
                    "kalooki_sim.report.player_words"),
}


def __getattr__(name: str):
    """The sentences' old path: ``kalooki_sim.analysis.dealer_sentence`` and the like answer
    from the report with a warning (the report may import the analysis, not the reverse, so
    this is a name lookup, not an import)."""
    if name not in MOVED_TO_REPORT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .._alias import deprecated, forward

    deprecated(f"kalooki_sim.analysis.{name}", f"{MOVED_TO_REPORT[name]}.{name}")
    return forward(MOVED_TO_REPORT[name])[0](name)

__all__ = [
    "CALL_CHART_COLUMNS", "CELL_KEYS", "DECIDED", "EITHER_POINTS", "NEED_LEVELS", "STATS_COLUMNS",
    "STOCK_BANDS", "call_chart", "CHANGES", "change_of", "chart_agreement", "chart_stats",
    "decided_sentence", "rounds_sentence", "card_penalty_sentence", "why_line",
    "agreement_sentence", "decided_share", "decision_pvalues", "fcr_level", "merge_chart_stats",
    "read_chart_stats", "write_chart_stats", "write_play_chart", "verdict_flips", "THUMB_COLUMNS",
    "clause_text", "read_thumb", "thumb_check", "thumb_rules", "write_thumb", "call_rule",
    "need_level", "stock_band", "CONTRACT_TABLE_COLUMNS", "DIFFICULTY_RANKED_BY", "contract_table",
    "CALL_POLICIES", "EXPOSURE_LEVELS", "EXPOSURE_QUANTILES", "MEASURES", "THIN_DEALS",
    "THIN_DECISIONS", "Z95", "bootstrap_means", "call_games", "call_value", "cluster_mean_ci",
    "cluster_wilson", "compare_calls", "compare_rules", "confidence_sequence",
    "contract_difficulty", "contract_label", "dealer_seats", "convergence", "dealt_meets",
    "draws_from_interval", "first_phrase", "first_set", "focal_outcomes", "holm", "join_words",
    "km_fit", "mean_ci", "open_curve", "open_survival", "open_times", "p_deal_lays_groups",
    "p_dealt_table", "p_from_ci", "p_outs", "p_some_seat_dealt", "quantile_ci", "rank_intervals",
    "scored", "seat_advantage", "sign_claims", "simulate_deals", "strength_table", "simulate_outs",
    "value_map", "variance_ratio", "void_rate", "welch_diff", "wilson",
]
