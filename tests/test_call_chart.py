"""The call chart (issue 18 item 1): its columns, its verdicts on rows where they must change,
the deal as the unit of its intervals, and input checks."""

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import analysis as A


def _rows(mean, deals=60, sd=10.0, need=1, stock=55, decision="call", hand=1, per_deal=1,
          seed=0, first_game=0):
    """Synthetic call_decisions rows: ``deals`` deals of ``per_deal`` decisions each."""
    rng = np.random.default_rng(seed)
    n = deals * per_deal
    return pd.DataFrame({
        "hand": hand, "game": first_game + np.repeat(np.arange(deals), per_deal), "attempt": 0,
        "decision": decision, "needed_after": pd.array([need] * n, dtype="Int16"),
        "stock_left": stock, "d_penalty": mean + sd * rng.standard_normal(n)})


def _cell(chart, **key):
    m = np.ones(len(chart), bool)
    for k, v in key.items():
        m &= (chart[k].astype(str) == str(v)).to_numpy()
    assert m.sum() == 1, key
    return chart[m].iloc[0]


def test_columns_are_exactly_the_csvs():
    c = A.call_chart(_rows(-5.0))
    assert tuple(c.columns) == A.CALL_CHART_COLUMNS == (
        "hand", "decision", "needed_after", "stock_band", "decisions", "deals", "d_penalty",
        "d_penalty_lo", "d_penalty_hi", "verdict")


def test_columns_and_counts_on_engine_rows():
    d = ks.call_decisions(6, hand=1, policies="greedy", seed=2)
    c = A.call_chart(d, min_deals=2)
    assert tuple(c.columns) == A.CALL_CHART_COLUMNS
    assert c["decisions"].sum() == len(d)
    assert set(c["verdict"]) <= {"call", "take", "pass", "unsure", "too few"}
    assert (c["deals"] <= d.groupby(["game", "attempt"]).ngroups).all()
    ok = c["deals"] >= 2
    assert (c.loc[ok, "d_penalty_lo"] <= c.loc[ok, "d_penalty"]).all()
    assert (c.loc[ok, "d_penalty"] <= c.loc[ok, "d_penalty_hi"]).all()


def test_verdict_follows_the_interval():
    rows = pd.concat([
        _rows(-8.0, need=0, stock=60, seed=1),                    # wholly below zero: call
        _rows(0.0, need=1, stock=60, seed=2),                     # straddles zero: unsure
        _rows(9.0, need=2, stock=60, seed=3),                     # wholly above zero: pass
        _rows(-8.0, need=3, stock=60, deals=10, seed=4),          # too few deals
        _rows(-8.0, need=0, stock=60, decision="take", seed=5),   # a take saving points
    ], ignore_index=True)
    c = A.call_chart(rows, min_deals=30)
    assert _cell(c, decision="call", needed_after=0)["verdict"] == "call"
    assert _cell(c, decision="call", needed_after=0)["d_penalty_hi"] < 0
    u = _cell(c, decision="call", needed_after=1)
    assert u["verdict"] == "unsure" and u["d_penalty_lo"] < 0 < u["d_penalty_hi"]
    assert _cell(c, decision="call", needed_after=2)["verdict"] == "pass"
    few = _cell(c, decision="call", needed_after=3)
    assert few["verdict"] == "too few" and few["deals"] == 10
    assert _cell(c, decision="take", needed_after=0)["verdict"] == "take"
    # the same rows with a lower bar: the thin cell gets a verdict
    assert _cell(A.call_chart(rows, min_deals=10), decision="call",
                 needed_after=3)["verdict"] != "too few"


def test_holm_over_a_contracts_cells_can_make_a_cell_unsure():
    # one cell whose interval just excludes zero, among many that straddle it
    near = _rows(0.0, deals=200, sd=10.0, need=1, stock=60, seed=11)
    m, lo, hi, _ = A.cluster_mean_ci(near["d_penalty"], near["game"])
    near["d_penalty"] += -(hi - m) * 1.05 - m   # moves the top of the interval just below 0
    rest = [_rows(0.0, deals=200, need=k, stock=s, seed=20 + k * 5 + j)
            for k in (0, 2, 3) for j, s in enumerate((60, 40, 25, 15))]
    rows = pd.concat([near, *rest], ignore_index=True)
    raw = A.call_chart(rows, adjust=None)
    adj = A.call_chart(rows)
    assert _cell(raw, needed_after=1)["d_penalty_hi"] < 0
    assert _cell(raw, needed_after=1)["verdict"] == "call"
    assert _cell(adj, needed_after=1)["verdict"] == "unsure"
    # the family is one contract's chart: the same cell alone in hand 2 keeps its call
    alone = A.call_chart(pd.concat([rows, near.assign(hand=2)], ignore_index=True))
    assert _cell(alone, hand=2, needed_after=1)["verdict"] == "call"


def test_the_deal_is_the_unit_duplicates_within_a_deal_do_not_narrow():
    one = _rows(-3.0, deals=80, seed=7)
    dup = pd.concat([one] * 5, ignore_index=True)        # five copies of each decision, same deal
    a = _cell(A.call_chart(one), needed_after=1)
    b = _cell(A.call_chart(dup), needed_after=1)
    assert b["decisions"] == 5 * a["decisions"] and b["deals"] == a["deals"] == 80
    assert b["d_penalty_hi"] - b["d_penalty_lo"] == pytest.approx(
        a["d_penalty_hi"] - a["d_penalty_lo"])
    # counted as 400 deals instead, the same numbers would give a much narrower interval
    fake = dup.assign(game=np.arange(len(dup)))
    f = _cell(A.call_chart(fake), needed_after=1)
    assert f["d_penalty_hi"] - f["d_penalty_lo"] < 0.6 * (a["d_penalty_hi"] - a["d_penalty_lo"])


def test_bands_and_levels_are_ordered_and_na_is_its_own_level():
    rows = pd.concat([_rows(-1.0, need=k, stock=s, deals=3, seed=k + s)
                      for k in (0, 5, 9) for s in (70, 3, 30)], ignore_index=True)
    rows["needed_after"] = rows["needed_after"].astype("Int16")
    rows.loc[rows["needed_after"] == 9, "needed_after"] = pd.NA
    c = A.call_chart(rows, min_deals=2)
    assert c["needed_after"].astype(str).unique().tolist() == ["0", "4+", "cannot lay it"]
    assert c["stock_band"].astype(str).tolist()[:3] == ["50+", "20-34", "0-9"]
    assert c["stock_band"].cat.ordered and list(c["stock_band"].cat.categories) == list(
        A.STOCK_BANDS)
    assert A.stock_band([50, 49, 35, 34, 10, 9]).tolist() == [
        "50+", "35-49", "35-49", "20-34", "10-19", "0-9"]


def test_bad_input_is_named():
    rows = _rows(-1.0)
    with pytest.raises(ValueError, match="stock_left"):
        A.call_chart(rows.drop(columns="stock_left"))
    with pytest.raises(ValueError, match="min_deals=1"):
        A.call_chart(rows, min_deals=1)
    with pytest.raises(ValueError, match="adjust='bonferroni'"):
        A.call_chart(rows, adjust="bonferroni")
    with pytest.raises(ValueError, match="'draw'"):
        A.call_chart(rows.assign(decision="draw"))
    with pytest.raises(ValueError, match="stock_left=-1"):
        A.call_chart(rows.assign(stock_left=-1))
    with pytest.raises(ValueError, match="d_penalty=nan"):
        A.call_chart(rows.assign(d_penalty=np.nan))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from kalooki_sim.report import publish as report

    out = tmp_path_factory.mktemp("should_i_call")
    report.build(out, tiny=True, names=("should_i_call",))
    return out


def test_the_page_writes_the_chart_and_leads_with_the_answer(page):
    c = pd.read_csv(page / "call_chart.csv")
    assert tuple(c.columns) == A.CALL_CHART_COLUMNS and len(c)
    assert set(c["verdict"]) <= {"call", "take", "pass", "unsure", "too few"}
    assert set(c["hand"]) == set(range(1, 10))
    for f in ("call_chart.png", "take_chart.png"):
        assert (page / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (page / "should_i_call.html").read_text(encoding="utf-8")
    rule = html.index("Hand 1 (3 groups): ")
    chart = html.index('data-file="call_chart.png"')
    assert rule < chart < html.index("How to read the chart") < html.index("Method: how much")
    assert chart < html.index("variance ratio of") and html.index("Caveats") > chart
    # the rules on the page are the chart's, computed from the CSV's verdicts
    c["needed_after"] = c["needed_after"].astype(str)
    assert A.call_rule(c, 9, "call", "4 runs").split(" (")[1][:40] in html
