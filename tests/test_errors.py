"""Bad input is a clear error: TypeError for a wrong type, ValueError out of range.

Every message names the argument, the bad value and what is allowed, in one wording
("players=9 is not allowed; give an integer 3-8"), from ``kalooki_sim/_checks.py``.
"""

import os

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import _lib as C
from kalooki_sim import analysis as A

# -- the checkers ---------------------------------------------------------------------------


def test_check_int_accepts_numpy_integers_and_returns_python_int():
    v = C.check_int("players", np.int64(4), 3, 8)
    assert v == 4 and type(v) is int
    assert C.check_seed(2**63 - 1) == 2**63 - 1


@pytest.mark.parametrize("bad", [True, np.bool_(False), 4.0, "4", None, np.float64(4)])
def test_check_int_refuses_bools_and_non_integers_with_type_error(bad):
    with pytest.raises(TypeError, match=r"^players=.* is not allowed; give an integer 3-8$"):
        C.check_int("players", bad, 3, 8)


def test_check_int_range_message_has_one_wording():
    with pytest.raises(ValueError, match=r"^players=9 is not allowed; give an integer 3-8$"):
        C.check_players(9)
    with pytest.raises(ValueError, match=r"^seed=-1 is not allowed; give an integer 0 to 2\*\*63"):
        C.check_seed(-1)
    with pytest.raises(ValueError, match=r"^game=\d+ is not allowed; .* to 2\*\*63 - 1$"):
        C.check_seed(2**64 - 1, "game")
    with pytest.raises(ValueError, match=r"^n=-1 is not allowed; give an integer >= 0$"):
        C.check_int("n", -1, 0)


def test_check_bool_choice_real():
    assert C.check_bool("own", np.bool_(True)) is True
    for bad in (1, "yes", None):
        with pytest.raises(TypeError, match=r"is not allowed; give True or False"):
            C.check_bool("own", bad)
    with pytest.raises(ValueError, match=r"pack='x' is not allowed; give one of 'card', 'by-t"):
        C.check_choice("pack", "x", ("card", "by-table"))
    with pytest.raises(TypeError, match=r"pack=1 is not allowed"):
        C.check_choice("pack", 1, ("card", "by-table"))
    with pytest.raises(ValueError, match=r"conf=nan is not allowed"):
        C.check_real("conf", float("nan"), 0, 1)


# -- cards ----------------------------------------------------------------------------------


def test_R1_a_list_of_cards_is_all_texts_or_all_codes_not_a_mix():
    with pytest.raises(TypeError, match=r"cards=\['KS', 7\] is not allowed; .*not a mix"):
        ks.parse_cards(["KS", 7])
    with pytest.raises(TypeError, match=r"None is neither"):
        ks.parse_cards(["KS", None])
    with pytest.raises(TypeError, match=r"7.5 is neither"):
        ks.parse_cards([7.5])
    # codes alone (lists, numpy integers, the kernels' int arrays) keep working
    assert ks.parse_cards([51, np.int64(52)]) == ["K♠", "JK"]
    assert ks.to_codes(np.array([0, 52], np.int32)).tolist() == [0, 52]
    with pytest.raises(ValueError, match=r"card code=53 is not allowed"):
        ks.to_codes(np.array([3, 53]))


def test_card_text_checks_the_code():
    with pytest.raises(ValueError, match=r"code=53 is not allowed; give an integer 0-52"):
        ks.card_text(53)
    with pytest.raises(TypeError, match=r"code='7' is not allowed"):
        ks.card_text("7")


# -- lay-offs -------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [ks.lay_off, ks.can_lay_off])
@pytest.mark.parametrize("own", ["no", 0, None])
def test_R10_own_must_be_a_bool(fn, own):
    # "no" was truthy: the joker went onto another player's meld as if it were one's own
    with pytest.raises(TypeError, match=rf"own={own!r} is not allowed; give True or False"):
        fn("8♥ 9♥ 10♥ J♥", "JK", own=own)


def test_lay_off_card_is_exactly_one_card():
    with pytest.raises(TypeError, match=r"card=\['Q♥'\] is not allowed; give exactly one card"):
        ks.lay_off("8♥ 9♥ 10♥ J♥", ["Q♥"])


def test_meld_record_owner_is_a_seat():
    from kalooki_sim.game.melds import meld_record

    with pytest.raises(ValueError, match=r"owner=8 is not allowed; give an integer 0-7"):
        meld_record("7♣ 7♥ 7♦", owner=8)


# -- policies -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"random": "yes"}, r"random='yes' is not allowed; give True or False"),
        ({"hold": 1}, r"hold=1 is not allowed; give True or False"),
        ({"call_limit": True}, r"call_limit=True is not allowed; give an integer >= 0"),
        ({"call_gain": 1.5}, r"call_gain=1.5 is not allowed"),
        ({"name": 3}, r"name=3 is not allowed"),
    ],
)
def test_policy_types_are_checked(kwargs, msg):
    with pytest.raises(TypeError, match=msg):
        ks.Policy(**kwargs)


@pytest.mark.parametrize("field", ["call_limit", "call_gain", "take_gain", "hold_turns"])
def test_policy_counts_are_non_negative(field):
    with pytest.raises(ValueError, match=rf"{field}=-1 is not allowed; give an integer >= 0"):
        ks.Policy(**{field: -1})


def test_policy_accepts_numpy_integers():
    p = ks.Policy(call_limit=np.int64(2), hold_turns=np.int32(5))
    assert type(p.call_limit) is int and p.call_limit == 2 and type(p.hold_turns) is int


@pytest.mark.parametrize("bad", [None, 3, {"greedy": 1}])
def test_seat_policies_type(bad):
    from kalooki_sim.engine.policies import seat_policies

    with pytest.raises(TypeError, match=r"policies=.* is not allowed; give a preset name"):
        seat_policies(bad, 4)


@pytest.mark.parametrize("name", ["expert", "Expert ", "search", "never-call", "call-2",
                                  "random", "hold-for-double"])
def test_a_preset_name_with_other_settings_is_refused_with_a_pointer_to_the_preset(name):
    # Policy("expert") played greedy's game while its rows said "expert" (issue 30)
    key = name.strip().lower()
    with pytest.raises(ValueError, match=rf"^name={name!r} is not allowed; give "
                                         rf"ks\.preset\({key!r}\) for the preset, or another "
                                         "name for these settings"):
        ks.Policy(name)
    assert ks.preset(name) == ks.Policy(key, **{
        f: getattr(ks.preset(name), f) for f in ks.preset(name).__dataclass_fields__
        if f != "name"})


def test_a_policy_without_a_name_says_how_it_differs_from_greedy():
    assert ks.Policy().name == "greedy" and ks.Policy("greedy") == ks.preset("greedy")
    assert ks.Policy(call_gain=0, take_gain=0).name == "greedy with call_gain=0, take_gain=0"
    with pytest.raises(ValueError, match=r"name='greedy' is not allowed.*differ from it in "
                                         r"call_limit$|call_limit\)$"):
        ks.Policy("greedy", call_limit=1)


def test_preset_name_type():
    with pytest.raises(TypeError, match=r"policy=4 is not allowed; give a preset name"):
        ks.preset(4)


# -- rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["x", 5, None])
def test_rules_schedule_must_be_triples(bad):
    with pytest.raises(TypeError, match=r"schedule=.* is not allowed; give a sequence of "
                                        r"\(cards_dealt, groups, runs\) triples"):
        ks.Rules(schedule=bad)


def test_rules_schedule_entries():
    with pytest.raises(TypeError, match=r"schedule hand 1: 'abc' is not allowed"):
        ks.Rules(schedule=["abc"])
    with pytest.raises(ValueError, match=r"schedule hand 2: \(9, 1\) is not allowed"):
        ks.Rules(schedule=[(9, 1, 0), (9, 1)])
    with pytest.raises(TypeError, match=r"schedule hand 1: cards_dealt=9.0 is not allowed"):
        ks.Rules(schedule=[(9.0, 1, 0)])


def test_rules_accept_numpy_integers():
    r = ks.Rules(players=np.int64(4), decks=np.int32(2), call_limit=np.int64(2),
                 schedule=np.array([[9, 3, 0], [10, 2, 1]]))
    assert type(r.players) is int and type(r.call_limit) is int
    assert r.schedule == ((9, 3, 0), (10, 2, 1)) and type(r.schedule[0][0]) is int
    assert r.deal(np.int64(2)) == (10, 2, 1)
    assert r == ks.Rules(players=4, call_limit=2, schedule=[(9, 3, 0), (10, 2, 1)])


@pytest.mark.parametrize(
    "kwargs, err, msg",
    [
        ({"players": 9}, ValueError, r"^players=9 is not allowed; give an integer 3-8$"),
        ({"players": 1}, ValueError, r"^players=1 is not allowed; give an integer 3-8$"),
        ({"players": "4"}, TypeError, r"^players='4' is not allowed; give an integer 3-8$"),
        ({"players": True}, TypeError, r"^players=True is not allowed"),
        ({"decks": 0}, ValueError, r"decks=0 is not allowed; give an integer 1-8"),
        ({"jokers": -1}, ValueError, r"jokers=-1 is not allowed; give an integer 0-64"),
        ({"call_limit": 2.0}, TypeError, r"call_limit=2.0 is not allowed"),
        ({"tuluki": "no"}, TypeError, r"tuluki='no' is not allowed; give True or False"),
        ({"pack": "big"}, ValueError, r"pack='big' is not allowed; give one of 'card', 'by-t"),
        ({"max_replays": -1}, ValueError, r"max_replays=-1 is not allowed; .*0-10000000"),
        ({"max_replays": 10**7 + 1}, ValueError, r"max_replays=10000001 is not allowed"),
    ],
)
def test_rules_fields_one_wording(kwargs, err, msg):
    with pytest.raises(err, match=msg):
        ks.Rules(**kwargs)


def test_as_rules_type():
    with pytest.raises(ValueError, match=r"rules='default' is not allowed; give a Rules, None, "
                       r"or a format name: jamaican, kalooki, super-kalooki"):
        ks.solve_opening("K♠ K♥ K♦", (1, 0), rules="default")
    with pytest.raises(TypeError, match=r"rules=3 is not allowed; give a kalooki_sim.Rules"):
        ks.solve_opening("K♠ K♥ K♦", (1, 0), rules=3)


# -- analysis -------------------------------------------------------------------------------


def _rows(**extra):
    """A one-row frame with the columns of play_hands (values of a scored, opened seat)."""
    row = dict(game=0, hand=1, attempt=0, groups=3, runs=0, players=4, seat=0, dealer=3,
               dealt_meets_contract=False, opened=True, open_turn=2, calls=0, went_out=True,
               out_on_opening=False, penalty=0, void=False)
    row.update(extra)
    return pd.DataFrame([row])


def test_open_curve_max_turn():
    assert len(A.open_curve(_rows(), max_turn=3)) == 3
    with pytest.raises(ValueError, match=r"max_turn=-3 is not allowed; give an integer >= 1"):
        A.open_curve(_rows(), max_turn=-3)
    with pytest.raises(TypeError, match=r"max_turn=2.5 is not allowed"):
        A.open_curve(_rows(), max_turn=2.5)


def test_p_deal_lays_groups_negative_groups():
    # was Fraction(1): "at least -1 groups"
    with pytest.raises(ValueError, match=r"groups=-1 is not allowed; give an integer 0-13"):
        A.p_deal_lays_groups(-1, 9)


def test_p_deal_lays_groups_more_cards_than_the_pack():
    # was ZeroDivisionError
    with pytest.raises(ValueError, match=r"cards=200 is not allowed; give an integer 0-108"):
        A.p_deal_lays_groups(3, 200)
    assert A.p_deal_lays_groups(0, 108) == 1


@pytest.mark.parametrize("k, n", [(10, 5), (5, 0), (-1, 5), (float("nan"), 5)])
def test_wilson_needs_0_le_k_le_n(k, n):
    # was (2.0, ...) for 10 of 5 and NaN for 5 of 0
    with pytest.raises(ValueError, match=r"k=.* with n=.* is not allowed; give counts with 0 <="):
        A.wilson(k, n)


def test_wilson_arrays_name_the_first_bad_pair_and_zero_trials_stay_nan():
    with pytest.raises(ValueError, match=r"k=4 with n=3"):
        A.wilson(np.array([1, 4]), np.array([3, 3]))
    p, lo, hi = A.wilson(0, 0)
    assert np.isnan(p)
    with pytest.raises(ValueError, match=r"z=0.0 is not allowed"):
        A.wilson(1, 2, z=0.0)


def test_interval_confidence_level():
    with pytest.raises(ValueError, match=r"conf=95.0 is not allowed; give a finite number > 0"):
        A.mean_ci([1.0, 2.0, 3.0], conf=95)


def test_call_value_checks_baseline_before_playing(monkeypatch):
    def no_play(*args, **kwargs):
        raise AssertionError("a game was played before the baseline was checked")

    monkeypatch.setattr(A, "focal_outcomes", no_play)
    with pytest.raises(ValueError, match=r"baseline='bogus' is not allowed; give one of "
                                         r"'never', 'call-1'"):
        A.call_value(100, 6, baseline="bogus")
    with pytest.raises(TypeError, match=r"policies=\['never'\] is not allowed; give a non-empty"):
        A.call_value(100, 6, policies=["never"])


def test_contract_difficulty_says_which_columns_it_needs():
    with pytest.raises(ValueError, match=r"df lacks the columns hand, players, .*; give a pandas"
                                         r" DataFrame .*play_hands"):
        A.contract_difficulty(pd.DataFrame())
    with pytest.raises(TypeError, match=r"df is a dict; give a pandas DataFrame"):
        A.contract_difficulty({"hand": [1]})
    with pytest.raises(ValueError, match=r"df lacks the columns went_out"):
        A.seat_advantage(_rows().drop(columns="went_out"))


def test_convergence_needs_some_trials():
    with pytest.raises(ValueError, match=r"hits=array\(\[\].*is not allowed; give a non-empty"):
        A.convergence(np.array([]), 0.5)
    with pytest.raises(ValueError, match=r"exact=1.5 is not allowed"):
        A.convergence(np.ones(20, bool), 1.5)
    # fewer than ten trials: the curve starts at the first trial count available
    assert A.convergence(np.ones(5, bool))["n"].tolist()[-1] == 5


def test_outs_and_simulations_use_the_same_checks():
    with pytest.raises(ValueError, match=r"outs=5 is not allowed; give an integer 0-3"):
        A.p_outs(5, 3, 1)
    with pytest.raises(TypeError, match=r"draws=True is not allowed"):
        A.p_outs(1, 3, True)
    with pytest.raises(ValueError, match=r"seed=-1 is not allowed"):
        A.simulate_outs(1, 10, 2, 5, seed=-1)
    with pytest.raises(ValueError, match=r"cards=200 is not allowed; give an integer 1-108"):
        A.simulate_deals(5, 1, 200)


def test_check_real_accepts_exact_fractions():
    from fractions import Fraction

    from kalooki_sim._lib import check_real

    assert check_real("exact", Fraction(1, 3), 0, 1) == pytest.approx(1 / 3)


@pytest.mark.parametrize("call, err, msg", [
    (lambda: ks.play_hands(100, seed=2**70), ValueError, r"seed=1180591620717411303424 is not "
     r"allowed; give an integer 0 to 2\*\*63 - 1"),
    (lambda: ks.trace(seed=1, game=2**64 - 1), ValueError, r"game=18446744073709551615 is not "
     r"allowed"),
    (lambda: ks.trace(seed=1, game=-1), ValueError, r"game=-1 is not allowed"),
    (lambda: ks.play_hands(100, policies=None), TypeError, r"policies=None is not allowed"),
    (lambda: ks.play_hands(5, voids="yes"), TypeError, r"voids='yes' is not allowed"),
    (lambda: ks.trace(seed=1, whole_game=1), TypeError, r"whole_game=1 is not allowed"),
    (lambda: ks.play_hands(5, players=9), ValueError, r"players=9 is not allowed; give an "
     r"integer 3-8"),
    (lambda: ks.Rules(schedule="x"), TypeError, r"schedule"),
])
def test_entry_points_name_the_bad_argument(call, err, msg):
    with pytest.raises(err, match=msg):
        call()


# -- issue 20: errors that were not yet clear ----------------------------------------------------


@pytest.mark.parametrize("p, msg", [
    ([1.5], r"pvalues\[0\]=1.5 is not allowed; give p-values between 0 and 1"),
    ([0.2, float("nan")], r"pvalues\[1\]=nan is not allowed; .*nan_policy='omit'"),
    ([-0.1], r"pvalues\[0\]=-0.1 is not allowed"),
])
def test_holm_refuses_p_values_outside_0_1_and_nan(p, msg):
    # was silently accepted: holm([1.5]) -> [1.0], holm([nan]) -> [nan]
    with pytest.raises(ValueError, match=msg):
        A.holm(p)


def test_sign_claims_says_the_lengths_differ():
    # was "zip() argument 2 is longer than argument 1"
    with pytest.raises(ValueError, match=r"names, estimate and pvalues have 1, 2 and 1 entries; "
                                         r"give one of each per comparison"):
        A.sign_claims(["a"], [1, 2], [0.01])


def test_wilson_refuses_non_integer_counts_but_cluster_wilson_keeps_effective_ones():
    # was silently accepted
    with pytest.raises(ValueError, match=r"k=3 with n=10.5 is not allowed; give whole counts"):
        A.wilson(3, 10.5)
    assert A.wilson(3.0, np.float64(10))[0] == pytest.approx(0.3)
    hits = np.r_[np.ones(30), np.zeros(70)]
    cl = np.repeat(np.arange(25), 4)   # an effective count that is not a whole number
    p, lo, hi = A.cluster_wilson(hits, cl)
    assert p == pytest.approx(0.3) and lo < 0.3 < hi


def test_simulate_out_that_cannot_be_created():
    # was a raw FileNotFoundError from deep inside
    with pytest.raises(ValueError, match=r"out='/proc/foo' is not allowed; give a directory you "
                                         r"can write"):
        ks.simulate(10, out="/proc/foo")


def test_simulate_resume_and_force_exclude_each_other(tmp_path):
    # was silently accepted (force won)
    with pytest.raises(ValueError, match=r"resume=True and force=True exclude each other"):
        ks.simulate(3, hand=1, out=tmp_path / "r", resume=True, force=True)
    assert not (tmp_path / "r").exists()


def test_simulate_huge_games_blames_games():
    with pytest.raises(ValueError, match=r"^games=99999999999999999999 is not allowed"):
        ks.simulate(99999999999999999999, hand=1)


def test_play_hands_too_many_for_memory_says_what_it_would_need():
    # was a raw MemoryError from numpy
    with pytest.raises(ValueError, match=r"n=1000000000000 is not allowed; give at most about "
                                         r".* here \(the rows would take about 184 TB"):
        ks.play_hands(10**12)


def test_trace_decision_act_is_a_bool():
    # was silently accepted ("yes" is truthy)
    with pytest.raises(TypeError, match=r"act='yes' is not allowed; give True or False"):
        ks.trace_decision(1, game=0, hand=9, turn=12, seat=2, act="yes")


def test_compare_rules_refuses_pairing_different_tables():
    # was silently "paired" over different deals
    sets = {"four": ks.Rules(), "tuluki": ks.Rules(players=2, tuluki=True)}
    with pytest.raises(ValueError, match=r"rule set 'tuluki' has players=2 and 'four' players=4: "
                                         r"other tables get other deals.*paired=False"):
        A.compare_rules(sets, 10, hands=[1])
    t = A.compare_rules(sets, 10, hands=[1], paired=False)
    assert "turns" in t and not any(c.startswith("d_") for c in t.columns)


def test_R2_a_schedule_whose_contract_the_deal_cannot_hold():
    # was accepted, and every hand stalled
    with pytest.raises(ValueError, match=r"schedule hand 1: \(2, 3, 0\) is not allowed; 3 groups "
                                         r"\+ 0 runs need 9 cards .* deal at least 8"):
        ks.Rules(schedule=[(2, 3, 0)])
    assert ks.Rules(schedule=[(8, 3, 0), (11, 0, 3)]).hands == 2


def test_run_files_follow_the_umask(tmp_path):
    # were 0600 whatever the umask (tempfile.mkstemp)
    old = os.umask(0o022)
    try:
        run = ks.simulate(3, hand=1, out=tmp_path / "r")
    finally:
        os.umask(old)
    for name in ("manifest.json", "summary.parquet"):
        assert (run.path / name).stat().st_mode & 0o777 == 0o644, name
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in (run.path / "rows").iterdir())


def test_simulate_games_that_fit_the_ids_but_not_a_manifest():
    # 10**15 games used to build a list of 10**11 chunks (no answer, memory growing)
    with pytest.raises(ValueError, match=r"games=1000000000000000 is not allowed; give at most "
                                         r"11,111,000,000 \(1,000,000 chunks of 11,111 games"):
        ks.simulate(10**15)
