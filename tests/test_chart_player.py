"""The chart, played (issue 49): a chart compiled into the table the take-and-call rule reads,
the chart and thumb players following their cells (R9), bad charts refused, the rules of
thumb true to the chart they summarise, and the chart the preset plays made from the committed
statistics."""

import dataclasses
from importlib import resources

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis._thumb import read_thumb, thumb_check, thumb_rules
from kalooki_sim.engine import charts as CH
from kalooki_sim.engine._kernels import draw as _D
from kalooki_sim.engine._kernels import engine as _E
from kalooki_sim.engine.charts import Chart, cell_index
from kalooki_sim.studies.answer import policy_answer

FULL_HOUSE = "K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣"  # hand 1 (3 groups): needs one K


def _one_cell(hand, decision, before, after, band="40+", opened=False, verdict="call"):
    return pd.DataFrame({"hand": hand, "decision": decision, "needed_before": before,
                         "needed_after": after, "stock_band": band,
                         "opponents_opened": opened, "verdict": verdict}, index=[0])


def _player(chart):
    return dataclasses.replace(ks.preset("expert"), name="test chart", chart=chart)


@pytest.mark.parametrize("card,before,after,expert", [
    ("K♦", "1", "0", "call"),    # completes the contract: the expert calls it
    ("9♣", "1", "1", "pass"),    # does not help: the expert passes
])
@pytest.mark.parametrize("verdict", ["call", "pass", "either", "unsure", ""])
def test_chart_player_answers_its_cell_R9(card, before, after, expert, verdict):
    """A call's cell decides (call / pass), or the expert's own rule answers (either, unsure,
    blank); the cell of this offer is read as a player reads it."""
    assert ks.cards_needed(FULL_HOUSE, 1) == int(before)
    assert ks.cards_needed(FULL_HOUSE + " " + card, 1) == int(after)
    chart = _one_cell(1, "call", before, after, verdict=verdict)
    got = policy_answer(_player(chart), FULL_HOUSE, card, 1, discarder=2)
    assert policy_answer("expert", FULL_HOUSE, card, 1, discarder=2) == expert
    assert got == (verdict if verdict in ("call", "pass") else expert)


@pytest.mark.parametrize("verdict,want", [("take", "take"), ("draw", "draw"), ("", "take")])
def test_chart_player_takes_by_its_cell_R9_1(verdict, want):
    chart = _one_cell(1, "take", "1", "0", verdict=verdict)
    assert policy_answer(_player(chart), FULL_HOUSE, "K♦", 1, discarder=1) == want


def test_cell_is_the_seen_one_not_a_neighbour():
    """The same verdict in every other cell of the contract changes nothing: only the offer's
    own cell (stock band 40+, nobody opened) is read."""
    rows = []
    for band in CH.STOCK_BANDS:
        for opened in (False, True):
            if (band, opened) != ("40+", False):
                rows.append(_one_cell(1, "call", "1", "1", band, opened, "call"))
    chart = pd.concat(rows + [_one_cell(1, "call", "1", "0", verdict="pass")],
                      ignore_index=True)
    assert policy_answer(_player(chart), FULL_HOUSE, "9♣", 1, discarder=2) == "pass"
    assert policy_answer(_player(chart), FULL_HOUSE, "9♣", 1, discarder=2,
                         stock_left=30) == "call"
    assert policy_answer(_player(chart), FULL_HOUSE, "9♣", 1, discarder=2,
                         opened=[1], table="A♠ A♥ A♦; 5♣ 5♦ 5♠; 9♥ 9♦ 9♠") == "call"


def test_need_level_kernel_matches_the_chart_levels():
    """The kernel's level of a count before and after the card against its twin, the
    analysis' need_level, for every pair (the engine counts "cannot lay it" from 1000 up)."""
    for b in list(range(0, 11)) + [None]:
        for a in list(range(0, 11)) + [None]:
            if b is not None and a is not None and a > b:
                continue
            bk = 1003 if b is None else b
            ak = 1002 if a is None else a
            after = str(A.need_level(pd.array([a], dtype="Int16"),
                                     before=pd.array([b], dtype="Int16"))[0])
            before = str(A.need_level(pd.array([b], dtype="Int16"))[0])
            assert CH.NEED_LEVELS[_D._need_level(bk, ak)] == after, (b, a)
            assert CH.NEED_LEVELS[_D._need_level(bk, bk)] == before, b


def test_chart_player_follows_the_chart_in_play():
    """Every decision of chart players in decided cells is the cell's verdict (taken rows
    of call_decisions, the chart's cells read by the analysis from those rows)."""
    chart = pd.read_csv(resources.files("kalooki_sim.engine") / "chart.csv", comment="#",
                        dtype=str, keep_default_na=False)
    for h in (5, 9):
        d = ks.call_decisions(12, hand=h, policies="chart", seed=5)
        keys = pd.DataFrame({
            "hand": str(h), "decision": d["decision"].astype(str),
            "needed_before": A.need_level(d["needed_before"], "needed_before").astype(str),
            "needed_after": A.need_level(d["needed_after"], before=d["needed_before"]
                                         ).astype(str),
            "stock_band": A.stock_band(d["stock_left"]).astype(str),
            "opponents_opened": (d["opponents_opened"] > 0).astype(str)})
        m = keys.merge(chart, how="left", on=list(keys.columns))
        act = m["verdict"].isin(["call", "take"]).to_numpy()
        nope = m["verdict"].isin(["pass", "draw"]).to_numpy()
        assert act.sum() > 20 and nope.sum() > 20
        assert d["taken"].to_numpy()[act].all()
        assert not d["taken"].to_numpy()[nope].any()


@pytest.mark.parametrize("bad,exc,words", [
    (lambda c: c.drop(columns="verdict"), ValueError, "lacks the columns verdict"),
    (lambda c: c.assign(verdict="maybe"), ValueError, "verdict='maybe'"),
    (lambda c: c.assign(verdict="take"), ValueError, "a call's verdict"),
    (lambda c: c.assign(needed_before="7"), ValueError, "needed_before='7'"),
    (lambda c: c.assign(needed_before="6+ (cut)"), ValueError, "needed_before="),
    (lambda c: c.assign(needed_before="4+"), ValueError, "needed_before='4+'"),
    (lambda c: c.assign(stock_band="10-19"), ValueError, "stock_band='10-19'"),
    (lambda c: c.assign(hand=10), ValueError, "hand='10'"),
    (lambda c: c.assign(decision="meld"), ValueError, "decision='meld'"),
    (lambda c: c.assign(opponents_opened="perhaps"), ValueError, "opponents_opened="),
    (lambda c: pd.concat([c, c]), ValueError, "a cell given twice"),
    (lambda c: c.to_dict(), TypeError, "a chart (DataFrame or CSV path"),
    (lambda c: "no/such/chart.csv", FileNotFoundError, "no such file"),
])
def test_bad_chart_refused(bad, exc, words):
    with pytest.raises(exc, match="chart|verdict|needed|stock|hand|decision|opponents") as e:
        _player(bad(_one_cell(3, "call", "2", "2")))
    assert words in str(e.value)


def test_chart_needs_the_exact_count():
    with pytest.raises(ValueError, match="exact=True"):
        ks.Policy(chart=_one_cell(3, "call", "2", "2"))
    assert ks.Policy(exact=True, chart=_one_cell(3, "call", "2", "2")).chart is not None


def test_clashing_rules_refused():
    r = pd.DataFrame({"hand": 4, "decision": "call", "verdict": ["call", "pass"],
                      "change": ["helps", "any"], "before_lo": "1", "before_hi": "3",
                      "bands": "any", "opened": "any"})
    with pytest.raises(ValueError, match="opposite verdicts"):
        Chart.of(r)


def test_rule_cells_twin():
    """Each clause's cells, found by the compiled table, equal the cells a plain reading of
    its condition selects (every cell of the table asked)."""
    r = pd.DataFrame({"hand": [2, 6, 9], "decision": ["take", "call", "call"],
                      "verdict": ["draw", "call", "pass"],
                      "change": ["no help", "helps", "any"], "before_lo": ["1", "0", "5"],
                      "before_hi": ["3", "6+", "cannot lay it"],
                      "bands": ["any", "40+;20-39", "0-19"], "opened": ["no", "any", "yes"]})
    codes = CH.rule_cells(r)
    lv = CH.NEED_LEVELS
    order = {x: i for i, x in enumerate(lv)}
    for idx in range(CH.N_CELLS):
        h, k, b, a, band, o = np.unravel_index(idx, CH._SHAPE)
        want = 0
        for q in r.itertuples():
            if (h + 1 != q.hand or CH.KINDS[k] != q.decision or lv[b] == CH.CUT_LEVEL
                    or not order[q.before_lo] <= b <= order[q.before_hi]):
                continue
            if lv[a] == "cannot lay it" and lv[b] != "cannot lay it":
                continue
            if lv[a] == CH.CUT_LEVEL and lv[b] != "6+":
                continue
            if lv[b] == "cannot lay it" and lv[a] == CH.CUT_LEVEL:
                continue
            if lv[b] != "cannot lay it" and a > b:
                continue
            helps = (a != b) if lv[b] == "cannot lay it" else a < b
            if (q.change == "helps") != helps and q.change != "any":
                continue
            bands = list(CH.STOCK_BANDS) if q.bands == "any" else q.bands.split(";")
            if list(CH.STOCK_BANDS)[band] not in bands:
                continue
            if q.opened != "any" and (q.opened == "yes") != bool(o):
                continue
            want = 1 if q.verdict in ("call", "take") else -1
        assert codes[idx] == want, (h + 1, CH.KINDS[k], lv[b], lv[a], band, o)


def test_presets_read_the_package_charts():
    ch, th = ks.preset("chart"), ks.preset("thumb")
    assert ch.chart == Chart.of(str(resources.files("kalooki_sim.engine") / "chart.csv"))
    assert th.chart == Chart.of(str(resources.files("kalooki_sim.engine") / "thumb.csv"))
    assert dataclasses.replace(ch, chart=None, name="x") == dataclasses.replace(
        ks.preset("expert"), name="x")
    with pytest.raises(ValueError, match="'chart' is a preset's name"):
        ks.Policy("chart", exact=True)
    p = ks.preset("chart:" + str(resources.files("kalooki_sim.engine") / "chart.csv"))
    assert p.chart == ch.chart and p.name.startswith("chart:")


def test_package_chart_is_the_committed_statistics_chart():
    """kalooki_sim/engine/chart.csv (what the chart preset plays) is call_chart of the
    committed statistics (what the page publishes), verdict for verdict."""
    stats, _ = A.read_chart_stats(resources.files("kalooki_sim.analysis")
                                  / "call_chart_stats.csv")
    want = A.call_chart(stats, min_deals=A.THIN_DEALS)
    assert ks.preset("chart").chart == Chart.of(want)


def test_thumb_clauses_agree_with_the_chart():
    """Every clause of the published rules of thumb covers at least 95% of its decisions in
    cells of its verdict and none in a cell of the opposite verdict; at most five clauses a
    contract; and the thumb preset plays exactly these clauses."""
    rules = read_thumb(resources.files("kalooki_sim.engine") / "thumb.csv")
    stats, _ = A.read_chart_stats(resources.files("kalooki_sim.analysis")
                                  / "call_chart_stats.csv")
    chart = A.call_chart(stats, min_deals=A.THIN_DEALS)
    check = thumb_check(rules, chart)
    assert (check["in_verdict"] >= 0.95).all(), rules[check["in_verdict"] < 0.95]
    assert (check["opposite"] == 0).all()
    assert rules.groupby("hand").size().max() <= 5
    assert ks.preset("thumb").chart == Chart.of(rules[CH.RULE_COLUMNS])


def test_thumb_rules_must_change_with_the_chart():
    """thumb_rules on a chart where a contract's calls that do not help say "call" when nobody
    opened and "pass" once someone did: the clauses split on the opening, each pure."""
    rows = []
    for before in ("1", "2", "3"):
        for band in ("40+", "20-39"):
            for opened, v, m in ((False, "call", -4.0), (True, "pass", 5.0)):
                rows.append({"hand": 6, "decision": "call", "needed_before": before,
                             "needed_after": before, "stock_band": band,
                             "opponents_opened": opened, "decisions": 1000, "deals": 400,
                             "d_relative": m, "verdict": v})
    chart = pd.DataFrame(rows)
    r = thumb_rules(chart)
    assert set(r["opened"]) == {"no", "yes"}
    assert (thumb_check(r, chart)["in_verdict"] == 1).all()
    chart.loc[chart["opponents_opened"], "verdict"] = "call"
    chart.loc[chart["opponents_opened"], "d_relative"] = -4.0
    r2 = thumb_rules(chart)
    assert len(r2) == 1 and r2["opened"].iloc[0] == "any" and r2["verdict"].iloc[0] == "call"


def test_cell_index_is_the_kernels():
    """The Python cell index and the kernel's (contract, kind, levels, band, opened) agree."""
    assert CH.N_CELLS == _E.CHART_CELLS
    i = cell_index(7, "call", "6+", CH.CUT_LEVEL, "0-19", True)
    assert i == ((((6 * 2 + 1) * 9 + 7) * 9 + 6) * 3 + 2) * 2 + 1
