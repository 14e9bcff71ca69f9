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
* ``_words``: sentences built from the numbers;
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
from ._words import (
    RULE_MEASURE_WORDS,
    call_sign_line,
    call_void_sentence,
    dealer_sentence,
    first_phrase,
    interval_sentence,
    join_words,
    open_speed_sentence,
    search_gap_sentence,
    search_gap_tally,
    selection_note,
    situation_sentence,
    some_seat_sentence,
    spread_sentence,
    tuned_games_sentence,
    tuned_sentence,
    variant_sentence,
)

__all__ = [
    "CALL_CHART_COLUMNS", "CELL_KEYS", "DECIDED", "EITHER_POINTS", "NEED_LEVELS",
    "STATS_COLUMNS", "STOCK_BANDS", "call_chart", "CHANGES", "change_of", "chart_agreement",
    "chart_stats",
    "decided_sentence", "rounds_sentence", "card_penalty_sentence", "why_line",
    "agreement_sentence",
    "decided_share", "decision_pvalues", "fcr_level", "merge_chart_stats", "read_chart_stats",
    "write_chart_stats", "write_play_chart", "verdict_flips",
    "THUMB_COLUMNS", "clause_text", "read_thumb", "thumb_check", "thumb_rules", "write_thumb",
    "call_rule", "dealer_sentence", "need_level", "search_gap_sentence", "search_gap_tally",
    "stock_band",
    "CONTRACT_TABLE_COLUMNS", "DIFFICULTY_RANKED_BY", "RULE_MEASURE_WORDS", "call_sign_line",
    "situation_sentence",
    "call_void_sentence", "contract_table", "open_speed_sentence", "selection_note",
    "some_seat_sentence", "spread_sentence", "tuned_games_sentence", "tuned_sentence",
    "variant_sentence",
    "CALL_POLICIES", "EXPOSURE_LEVELS", "EXPOSURE_QUANTILES", "MEASURES", "THIN_DEALS",
    "THIN_DECISIONS", "Z95", "bootstrap_means", "call_games", "call_value", "cluster_mean_ci",
    "cluster_wilson", "compare_calls", "compare_rules", "confidence_sequence",
    "contract_difficulty", "contract_label", "dealer_seats", "convergence", "dealt_meets",
    "draws_from_interval", "first_phrase", "first_set", "focal_outcomes", "holm",
    "interval_sentence", "join_words",
    "km_fit", "mean_ci", "open_curve", "open_survival", "open_times", "p_deal_lays_groups",
    "p_dealt_table", "p_from_ci", "p_outs", "p_some_seat_dealt", "quantile_ci",
    "rank_intervals", "scored", "seat_advantage", "sign_claims", "simulate_deals",
    "strength_table", "simulate_outs", "value_map", "variance_ratio", "void_rate", "welch_diff",
    "wilson",
]
