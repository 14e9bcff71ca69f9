"""Sentences of the report built from the numbers (issue 18): each is driven with hand-made
data on which it must change, so no fixed phrase can turn false."""

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.report import player_words, words


def _ct(medians):
    """A contract_table-like frame with the given medians and the hardest ranked first."""
    m = np.asarray(medians, float)
    ranks = A.rank_intervals(dict(enumerate(m, 1)),
                             {h: np.full(50, v) for h, v in enumerate(m, 1)}).set_index("item")
    return pd.DataFrame({"hand": range(1, len(m) + 1), "median_open_turn": m,
                         "median_open_turn_lo": m - 1, "median_open_turn_hi": m + 1,
                         "rank_lo": [ranks.loc[h, "rank_lo"] for h in range(1, len(m) + 1)]})


def _fast(ct):
    m = ct.set_index("hand")["median_open_turn"]
    return A.rank_intervals(dict(m), {h: np.full(50, v) for h, v in m.items()},
                            higher_first=False)


def test_open_speed_names_the_fastest_hand_even_if_it_has_no_restricted_mean():
    ct = _ct([2, 4, 9, 6, 3, 5, 7, 8, 10])  # hand 1 fastest, hand 9 slowest
    s = words.open_speed_sentence(ct, _fast(ct), 4)
    assert "slowest to put their contract down in hand 9" in s
    assert "fastest in hand 1:" in s and "hand 2" not in s
    ct = _ct([4, 2, 9, 6, 3, 5, 7, 8, 10])  # now hand 2 is
    assert "fastest in hand 2:" in words.open_speed_sentence(ct, _fast(ct), 4)
    ct = _ct([2, 4, 9, 6, 2, 5, 7, 8, 10])  # a tie: both named
    assert "fastest in one of hands 1 and 5" in words.open_speed_sentence(ct, _fast(ct), 4)


def test_selection_note_flags_cells_where_few_deals_are_scored():
    t = pd.DataFrame({"hand": [8, 9, 1], "players": 6, "series": "6 players",
                      "p_void": [0.9, 0.98, 0.05], "p_out_on_opening": [0.66, 0.93, 0.01]})
    s = words.selection_note(t)
    assert "hands 8 and 9 at 6 players" in s and "66%" in s and "93%" in s
    assert "10.0% of deals scored" in s and "hand 1" not in s
    assert words.selection_note(t.assign(p_void=0.3)) == ""


def test_some_seat_sentence_follows_the_intervals():
    def frame(p3, p6, width):
        return pd.DataFrame({"hand": [1, 1], "players": [3, 6], "p_any": [p3, p6],
                             "lo": [p3 - width, p6 - width], "hi": [p3 + width, p6 + width]})
    assert "more often in hand 1" in words.some_seat_sentence(frame(0.1, 0.2, 0.01))
    assert "less often in hand 1" in words.some_seat_sentence(frame(0.2, 0.1, 0.01))
    s = words.some_seat_sentence(frame(0.1, 0.12, 0.05))
    assert "every contract overlap" in s and "more often" not in s


def test_call_sign_line_says_exactly_zero_where_no_call_was_made():
    rows = pd.DataFrame({"hand": [1, 2], "calls": [0.5, 0.0], "d_penalty": [-2.0, 0.0],
                         "d_penalty_lo": [-5.0, 0.0], "d_penalty_hi": [1.0, 0.0]})
    claims = {"lower": [], "higher": [], "unclear": [("call-3", 1), ("call-3", 2)]}
    s = words.call_sign_line("call-3", rows, claims)
    assert "in hand 1 the data do not say which way" in s
    assert "in hand 2 it made no call, so the difference is exactly zero" in s
    assert "lowers the expected penalty in no contract" in s
    rows.loc[1, "calls"] = 0.1
    rows.loc[1, ["d_penalty", "d_penalty_lo", "d_penalty_hi"]] = [-1.0, -2.0, -0.5]
    claims = {"lower": [("call-3", 2)], "higher": [], "unclear": [("call-3", 1)]}
    s = words.call_sign_line("call-3", rows, claims)
    assert "lowers the expected penalty in hand 2" in s and "exactly zero" not in s


def test_call_void_sentence_goes_either_way():
    c = pd.DataFrame({"d_attempts": [0.02, -0.03], "d_attempts_lo": [0.01, -0.05],
                      "d_attempts_hi": [0.03, -0.01]}, index=[9, 3])
    s = words.call_void_sentence(c)
    assert "(more void deals) in hand 9 and fewer in hand 3" in s
    s = words.call_void_sentence(-c.rename(columns={"d_attempts_lo": "d_attempts_hi",
                                                "d_attempts_hi": "d_attempts_lo"}))
    assert "(more void deals) in hand 3 and fewer in hand 9" in s
    c[["d_attempts_lo", "d_attempts_hi"]] = [[-0.1, 0.1], [-0.1, 0.1]]
    assert "does not clearly change" in words.call_void_sentence(c)
    assert "cost" not in words.call_void_sentence(c)


def _row(**kw):
    base = {"penalty": 60.0, "pen_sd": 50.0, "pen_q90": 130.0, "pen_q90_lo": 120.0,
            "pen_q90_hi": 140.0, "p_pen200": 0.05}
    return {**base, **kw}


def test_spread_sentence_does_not_say_spread_rises_when_the_tail_falls():
    never = _row()
    call = _row(penalty=55.0, pen_sd=55.0, pen_q90=100.0, pen_q90_lo=95.0, pen_q90_hi=110.0,
                p_pen200=0.03, d_penalty_lo=-8.0, d_penalty_hi=-2.0, d_pen_sd_lo=1.0,
                d_pen_sd_hi=9.0, d_p_pen200_lo=-0.03, d_p_pen200_hi=-0.01)
    s = words.spread_sentence(never, call, 9)
    assert "the measures of its spread disagree" in s
    assert "standard deviation rises" in s and "90th percentile falls" in s
    assert "200 or more falls" in s and "mean penalty falls" in s
    call.update(pen_q90=150.0, pen_q90_lo=145.0, pen_q90_hi=160.0, d_p_pen200_lo=0.01,
                d_p_pen200_hi=0.03)
    assert "its spread rises on every measure" in words.spread_sentence(never, call, 9)


def test_variant_sentence_gives_direction_and_size():
    t = pd.DataFrame({"hand": [1, 2, 3], "d_loser_penalty": [-11.2, -23.4, 5.0],
                      "d_doubled": [-0.16, -0.43, 0.0], "d_turns": [0.5, 0.0, 0.0],
                      "d_void": [0.0, 0.0, 0.0]})
    sig = {("V4", h, m): m in ("loser_penalty", "doubled") and h < 3
           for h in (1, 2, 3) for m in words.RULE_MEASURE_WORDS}
    s = words.variant_sentence("V4", t, sig, 3000)
    assert s.startswith("V4 cuts the losers' penalty by 11–23 points (hands 1 and 2)")
    assert "hands doubled by 16–43 percentage points" in s and "turns" not in s
    sig[("V4", 3, "loser_penalty")] = True
    assert "raises the losers' penalty by 5 points (hand 3)" in words.variant_sentence(
        "V4", t, sig, 3000)
    assert "no change survives" in words.variant_sentence("V4", t, {}, 3000)


@pytest.fixture(scope="module")
def small():
    rows = [ks.play_hands(80, hand=h, seed=3, voids=True, progress=False) for h in (1, 9)]
    return pd.concat(rows, ignore_index=True)


def test_contract_table_has_the_organisers_columns_and_ranks(small):
    t = A.contract_table(small, small, n_boot=30, seed=1)
    assert tuple(t.columns) == A.CONTRACT_TABLE_COLUMNS
    assert t["hand"].tolist() == [1, 9]
    t = t.set_index("hand")
    # four runs in hand 9 are slower to put down than three groups in hand 1: ranked harder
    assert t.loc[9, "difficulty_rank"] == 1 and t.loc[1, "difficulty_rank"] == 2
    assert (t["rank_lo"] <= t["difficulty_rank"]).all()
    assert (t["difficulty_rank"] <= t["rank_hi"]).all()
    assert ((t["p_void_deal"] >= 0) & (t["p_void_deal"] <= 1)).all()
    assert (t["losers_penalty_lo"] <= t["losers_penalty"]).all()
    assert (t["turns"] > 0).all() and t["p_dealt"].notna().all()
    with pytest.raises(ValueError, match="players=5"):
        A.contract_table(small, small, players=5)


def test_dealer_sentence_follows_the_paired_differences():
    t = pd.DataFrame({"hand": [1, 2, 3], "d_penalty": [-5.1, -7.2, 2.0],
                      "d_penalty_p": [0.0001, 0.001, 0.6]})
    s = words.dealer_sentence(t)
    assert "pays 5–7 points less per deal than the dealer in hands 1 and 2" in s
    assert "in hand 3 the data do not say which seat pays less" in s
    t["d_penalty_p"] = [0.6, 0.7, 0.0001]
    s = words.dealer_sentence(t)
    assert "pays 2 points more than the dealer in hand 3" in s and "less per deal" not in s
    # a p of 0.02 alone passes, but not after Holm over three contracts
    t["d_penalty_p"] = [0.02, 0.5, 0.5]
    assert "in no contract do the data say" in words.dealer_sentence(t)
    assert "in hand 1" in words.dealer_sentence(t.iloc[:1])


def test_dealer_seats_pairs_the_two_seats_of_each_deal():
    rows = pd.DataFrame({"hand": 1, "game": [0, 0, 1, 1, 2, 2], "attempt": 0, "players": 2,
                         "seat": [0, 1] * 3, "dealer": [0, 0, 1, 1, 0, 0], "void": False,
                         "went_out": [False, True, False, False, False, True],
                         "penalty": [30, 0, 5, 20, 25, 0]})
    t = A.dealer_seats(rows).iloc[0]
    assert t["deals"] == 3 and t["penalty_dealer"] == pytest.approx((30 + 20 + 25) / 3)
    assert t["d_penalty"] == pytest.approx(((0 - 30) + (5 - 20) + (0 - 25)) / 3)
    assert t["out_other"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="players=4"):
        A.dealer_seats(rows.assign(players=4))


def test_search_gap_sentence_follows_the_signs_and_holm():
    t = pd.DataFrame({"hand": [1, 5, 9], "d_penalty": [-4.2, 0.5, 7.1],
                      "d_penalty_lo": [-6.2, -1.5, 3.9], "d_penalty_hi": [-2.2, 2.5, 10.3],
                      "rollouts": 24})
    s = player_words.search_gap_sentence(t)
    assert "pays 4 points per hand less than the expert in hand 1" in s
    assert "pays 7 points per hand more in hand 9" in s
    assert "in hand 5 the data do not say" in s
    assert "leaves up to 4 points per hand on the table in hand 1" in s
    # every sign turned: search is now the better player in hand 9 only
    t2 = t.assign(d_penalty=-t["d_penalty"], d_penalty_lo=-t["d_penalty_hi"],
                  d_penalty_hi=-t["d_penalty_lo"])
    s = player_words.search_gap_sentence(t2)
    assert "less than the expert in hand 9" in s and "more in hand 1" in s
    assert "leaves up to 7 points per hand on the table in hand 9" in s
    # search loses wherever the sign is clear: said against the expert, no points left behind
    s = player_words.search_gap_sentence(t.assign(d_penalty=[4.2, 0.5, 7.1],
                                                  d_penalty_lo=[2.2, -1.5, 3.9],
                                                  d_penalty_hi=[6.2, 2.5, 10.3]))
    assert "pays 4–7 points per hand more than the expert in hands 1 and 9" in s
    assert "In no contract does this searcher show the expert's rule" in s
    # p about 0.02 each: significant alone, not after Holm over three contracts
    weak = pd.DataFrame({"hand": [1, 5, 9], "d_penalty": [-2.0, 0.1, 0.1],
                         "d_penalty_lo": [-3.7, -5.0, -5.0], "d_penalty_hi": [-0.3, 5.2, 5.2]})
    s = player_words.search_gap_sentence(weak)
    assert "not distinguishable from the expert in any contract" in s
    assert "In no contract does this searcher" in s and "rollouts" not in s
    assert "less than the expert in hand 1" in player_words.search_gap_sentence(weak.iloc[:1])


def test_the_sentences_old_path_warns_and_answers():
    """``kalooki_sim.analysis.dealer_sentence`` (the sentences' old home) still answers, with a
    warning naming the report's module."""
    with pytest.warns(DeprecationWarning, match="import from kalooki_sim.report.words"):
        assert A.dealer_sentence is words.dealer_sentence
    with pytest.warns(DeprecationWarning, match="report.player_words.tuned_sentence"):
        assert A.tuned_sentence is player_words.tuned_sentence
    with pytest.raises(AttributeError):
        A.no_such_sentence  # noqa: B018
