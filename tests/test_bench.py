"""``python -m kalooki_sim.bench``: figures, the side-by-side harness and the record (issue 27).

Speed itself is never asserted here (that is ``make bench``'s business); these tests check that
the harness times what it says, on the side it says, and records it faithfully.
"""

import csv
import json
import re

import numpy as np
import pytest

from kalooki_sim.bench import against as A
from kalooki_sim.bench import figures as F
from kalooki_sim.bench import record as R
from kalooki_sim.bench.__main__ import main as bench_main


def test_best_takes_the_max_of_rates_and_the_min_of_times_and_skips_missing_answers():
    assert A.best([3.0, None, 5.0, float("nan")], higher=True) == 5.0
    assert A.best([3.0, None, 5.0], higher=False) == 3.0
    assert A.best([None, None], higher=True) is None


def test_speed_ratio_is_above_one_when_this_tree_is_faster_for_rates_and_times():
    assert A.speed_ratio(200.0, 100.0, higher=True) == 2.0  # hands/s: twice the rate
    assert A.speed_ratio(0.5, 1.0, higher=False) == 2.0  # seconds: half the time
    assert A.speed_ratio(None, 1.0, higher=False) is None  # the other tree had no answer


def test_compare_refuses_unknown_figures_fewer_than_three_rounds_and_unknown_commits():
    with pytest.raises(ValueError, match="figure 'nope' is not known"):
        A.compare(["nope"])
    with pytest.raises(ValueError, match="rounds=2 is not allowed"):
        A.compare(["greedy_mix_1t"], against="HEAD", rounds=2)
    with pytest.raises(ValueError, match="git knows no such commit"):
        A.resolve("no-such-ref-xyz")


def test_the_command_line_names_a_bad_commit_without_a_traceback(capsys):
    with pytest.raises(SystemExit) as e:
        bench_main(["--against", "no-such-ref-xyz", "--figures", "greedy_mix_1t",
                    "--no-record"])
    assert e.value.code == 2
    assert "git knows no such commit" in capsys.readouterr().err


def test_the_committed_hands_file_holds_hands_of_every_contract():
    hands = F.load_hands(A.hands_file())
    assert sorted(hands) == list(range(1, 10))
    for hs in hands.values():
        assert 1 <= len(hs) <= 300
        for codes in hs[:20]:
            assert codes.dtype.kind == "i" and 0 <= codes.min() and codes.max() <= 52


def test_a_side_runs_the_figure_script_in_its_own_process_and_reads_its_answer():
    """The current tree, tiny scale: each figure answers with a positive value, and an answer
    the tree cannot give (a figure that raises) comes back as null with the reason."""
    tree = A.this_tree()
    res = A.run_side(tree, ["greedy_mix_1t", "cards_needed_py_us"], A.hands_file(),
                     scale=0.01)
    assert res["greedy_mix_1t"]["value"] > 0
    assert "scored hands" in res["greedy_mix_1t"]["detail"]
    assert res["cards_needed_py_us"]["value"] > 0
    out = A.run_side(A.Tree(label="x", python="/bin/false"), ["advise_s"], "")
    assert out["advise_s"]["value"] is None and "process failed" in out["advise_s"]["detail"]


def _result():
    return {"sides": ["abc1234", "01f82fe"], "rounds": 3, "figures": {
        "greedy_mix_1t": {"unit": "hands/s", "higher": True,
                          "values": {"abc1234": [90.0, 100.0, 95.0],
                                     "01f82fe": [50.0, 40.0, 45.0]},
                          "best": {"abc1234": 100.0, "01f82fe": 50.0}, "ratio": 2.0,
                          "detail": {"abc1234": "900 scored hands in 9.00 s"}},
        "expert_mix_1t": {"unit": "hands/s", "higher": True,
                          "values": {"abc1234": [50.0] * 3, "01f82fe": [None] * 3},
                          "best": {"abc1234": 50.0, "01f82fe": None}, "ratio": None,
                          "detail": {}},
        "advise_s": {"unit": "s", "higher": False,
                     "values": {"abc1234": [0.8] * 3, "01f82fe": [None] * 3},
                     "best": {"abc1234": 0.8, "01f82fe": None}, "ratio": None, "detail": {}},
    }}


def test_the_table_prints_each_side_the_ratio_and_expert_over_greedy():
    text = A.table(_result())
    row = next(line for line in text.splitlines() if line.startswith("greedy_mix_1t"))
    assert row.split()[-3:] == ["100", "50.0", "2.00"]
    assert "n/a" in next(line for line in text.splitlines() if line.startswith("advise_s"))
    assert "expert ÷ greedy, 1 thread, abc1234: 0.500" in text
    assert "3 rounds, alternating processes" in text


def test_the_record_appends_a_row_per_figure_and_ratio_and_charts_it(tmp_path):
    path = tmp_path / "performance.csv"
    rows = R.rows(_result(), load=1.25, date="2026-12-02 16:00")
    R.append(rows, path)
    R.append(R.rows(_result(), load=0.5, date="2026-12-03 09:00"), path)
    with open(path, encoding="utf-8") as f:
        got = list(csv.DictReader(f))
    assert tuple(got[0]) == R.COLUMNS
    assert len(got) == 2 * 4  # three figures and one ratio, twice
    g = [r for r in got if r["figure"] == "greedy_mix_1t ÷ 01f82fe"]
    assert [r["value"] for r in g] == ["2", "2"] and g[0]["load"] == "1.25"
    adv = next(r for r in got if r["figure"] == "advise_s")
    assert adv["threads"] == "2" and float(adv["value"]) == 0.8
    png = R.chart(path, tmp_path / "performance.png")
    assert png.exists() and png.stat().st_size > 10_000
    assert R.chart(tmp_path / "missing.csv", tmp_path / "x.png") is None


def _at_scale(figure, scale):
    """``figure(None)`` doing ``scale`` of its work (``F.SCALE``), the scale restored after."""
    F.SCALE[0] = scale
    try:
        return figure(None)
    finally:
        F.SCALE[0] = 1.0


def test_the_figure_script_answers_json_lines(capsys):
    F.SCALE[0] = 1.0
    F.main(["cards_needed_py_us", "--hands", A.hands_file(), "--scale", "0.01"])
    rec = json.loads(capsys.readouterr().out.strip())
    assert rec["figure"] == "cards_needed_py_us" and rec["unit"] == "µs"
    assert rec["value"] > 0 and "medians 1:" in rec["detail"]
    F.SCALE[0] = 1.0


def test_every_figure_is_documented_and_the_slowest_scan_covers_every_cell():
    for name, (unit, _higher, f) in F.FIGURES.items():
        assert f.__doc__, name
        assert unit in ("hands/s", "deals/s", "s", "ms", "µs")
    cells = list(F.slowest_cases())
    assert len(cells) == 9 * 6 * 2
    assert {c[1] for c in cells} == set(range(3, 9)) and {c[2] for c in cells} == {True, False}
    assert np.all(np.diff([c[0] for c in cells]) >= 0)


def test_same_play_fingerprints_do_not_depend_on_threads_and_move_with_play():
    """``bench.same_play`` (issue 27's "same play" check): the same lines on 1 and 2 threads
    (C3), and a frame that differs in one value hashes differently."""
    import pandas as pd

    import kalooki_sim as ks
    from kalooki_sim.bench import same_play as sp

    one = sp.fingerprints(scale=0.01, threads=1)
    assert one == sp.fingerprints(scale=0.01, threads=2)
    assert [line.split()[0] for line in one] == [c[0] for c in sp.CASES] + ["call_decisions"]
    df = ks.play_games(2, policies="expert", seed=5)
    other = df.copy()
    other.iloc[0, 0] = other.iloc[1, 0] if other.iloc[0, 0] != other.iloc[1, 0] else -1
    assert sp.frame_hash(df) == sp.frame_hash(df.copy())
    assert sp.frame_hash(df) != sp.frame_hash(other)
    assert sp.frame_hash(pd.DataFrame({"a": [1]})) != sp.frame_hash(pd.DataFrame({"a": [2]}))
    with pytest.raises(ValueError, match="scale=0"):
        sp.fingerprints(scale=0)


def test_the_history_figure_times_a_30_event_history_the_advisor_reads():
    """Issue 29's "<= 2 s with a 30-event history" is a ``make bench`` figure: its history is a
    valid one of 30 events for ``ADVISOR_CASE``, the advisor reads the opponents' events of it,
    and the figure answers in seconds."""
    import warnings

    import kalooki_sim as ks

    assert len(F.HISTORY_CASE) == 30
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the weights' tempering, expected
        a = ks.advise(**F.ADVISOR_CASE, history=list(F.HISTORY_CASE), rollouts=40, threads=1)
    opponents = [e for e in F.HISTORY_CASE if e[0] != 0]
    assert 0 < a.history_events <= len(opponents)
    sec, detail = _at_scale(F.advise_history_s, 0.01)
    assert sec > 0 and "30 events" in detail


def test_the_chart_shows_expert_over_greedy_per_run_and_each_floor(tmp_path):
    """Issue 27's record: the chart's panels follow the record's figures, add the expert's
    speed over greedy's for each run that timed both (so the unmet floor is seen at a glance),
    and carry each figure's floor; a floor named for no figure would draw nothing."""
    import pandas as pd

    df = pd.DataFrame({"commit": ["a"] * 3 + ["b"] * 3 + ["c"],
                       "date": ["d1"] * 3 + ["d2"] * 3 + ["d3"],
                       "figure": ["greedy_mix_1t", "expert_mix_1t", "advise_s"] * 2
                       + ["expert_mix_1t"],
                       "value": [100.0, 20.0, 0.9, 200.0, 60.0, 0.8, 70.0]})
    names = [n for n, _, _ in R.panels(df)]
    assert names == ["greedy_mix_1t", "expert_mix_1t", R.EXPERT_OVER_GREEDY, "advise_s"]
    _, ratio, must = R.panels(df)[2]
    assert list(ratio["commit"]) == ["a", "b"]  # run c timed no greedy: no ratio
    assert list(ratio["value"]) == [0.2, 0.3] and must == (0.5, True)
    assert R.panels(df)[3][2] == (1.0, False)
    known = set(F.FIGURES) | {f"{n} ÷ 01f82fe" for n in F.FIGURES} | {R.EXPERT_OVER_GREEDY}
    assert set(R.MUSTS) <= known
    path = tmp_path / "p.csv"
    df.assign(cpu="x", threads=1, load=0.0)[list(R.COLUMNS)].to_csv(path, index=False)
    png = R.chart(path, tmp_path / "p.png")
    assert png.exists() and png.stat().st_size > 10_000


def test_the_committed_positions_are_ten_of_each_kind_the_advisor_accepts_as_made():
    """The time-to-decided figure's positions: 10 takes, 10 calls, 10 discards (R6.3, R9), the
    file is what :func:`make_positions` makes, and each is a situation ``ks.situation`` (take,
    call) or ``ks.advise_discard`` (discard) accepts."""
    import json
    from collections import Counter

    import kalooki_sim as ks
    from kalooki_sim.bench import positions as BP

    ps = BP.read_positions()
    assert Counter(p["kind"] for p in ps) == {"take": 10, "call": 10, "discard": 10}
    made = json.loads(json.dumps(BP.make_positions(), ensure_ascii=False))
    assert made == json.loads(BP.POSITIONS.read_text(encoding="utf-8"))
    assert F._read_positions() == ps
    for p in ps:
        if p["kind"] == "discard":
            a = ks.advise_discard(**p["kwargs"], rollouts=20, policies="greedy", threads=1)
            assert p["card"] in set(a.table["discard"])
        else:
            s = ks.situation(**p["kwargs"])
            assert s.hand_no == p["hand"]
    with pytest.raises(ValueError, match="per_kind=999"):
        BP.make_positions(per_kind=999)


def test_the_time_to_decided_figure_answers_in_seconds_with_what_stopped_each():
    sec, detail = _at_scale(F.time_to_decided_s, 0.1)
    assert sec > 0 and re.fullmatch(r"\d+ of 3 decided or equal \(\d+ decided, \d+ equal\); "
                                    r"slowest [\d.]+ s", detail), detail


def test_the_review_figure_times_hands_at_the_reviews_defaults():
    sec, detail = _at_scale(F.review_s_per_hand, 0.1)
    assert sec > 0 and re.fullmatch(r"1 hand, \d+ decisions, \d+% undecided; slowest "
                                    r"[\d.]+ s", detail), detail
