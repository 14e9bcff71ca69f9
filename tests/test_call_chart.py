"""The call chart (issues 18, 28): its columns, verdicts that agree with their own intervals,
the deal as the unit, the false-coverage adjustment, sufficient statistics that add up, the
study that makes them (chunks, resume, the command), and the page that shows them."""

import contextlib
import json
import socket
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis.chart_study import call_chart_study
from kalooki_sim.studies.decisions import trace_decision


def _rows(mean, deals=60, sd=10.0, before=2, after=1, stock=55, decision="call", hand=1,
          per_deal=1, seed=0, first_game=0, opened=0):
    """Synthetic call_decisions rows: ``deals`` deals of ``per_deal`` decisions each."""
    rng = np.random.default_rng(seed)
    n = deals * per_deal
    rel = mean + sd * rng.standard_normal(n)
    return pd.DataFrame({
        "hand": hand, "game": first_game + np.repeat(np.arange(deals), per_deal), "attempt": 0,
        "decision": decision, "needed_before": pd.array([before] * n, dtype="Int16"),
        "needed_after": pd.array([after] * n, dtype="Int16"), "stock_left": stock,
        "opponents_opened": opened, "taken": rng.integers(0, 2, n), "d_relative": rel,
        "d_penalty": rel * 1.2 + rng.standard_normal(n), "d_out": rng.choice([-1.0, 0, 1], n),
        "d_doubler": rng.choice([-1.0, 0, 1], n)})


def _cell(chart, **key):
    m = np.ones(len(chart), bool)
    for k, v in key.items():
        m &= (chart[k].astype(str) == str(v)).to_numpy()
    assert m.sum() == 1, key
    return chart[m].iloc[0]


def _agree(c):
    """Every verdict agrees with its own published d_relative interval (issue 28)."""
    v = c["verdict"].fillna("").astype(str)
    lo, hi = c["d_relative_lo"], c["d_relative_hi"]
    assert set(v) <= {"call", "pass", "take", "draw", "either", "unsure", ""}
    assert (hi[v.isin(["call", "take"])] < 0).all()
    assert (lo[v.isin(["pass", "draw"])] > 0).all()
    e = v == "either"
    assert ((lo[e] >= -2) & (hi[e] <= 2)).all()
    u = v == "unsure"
    assert ((lo[u] <= 0) & (hi[u] >= 0) & ((lo[u] < -2) | (hi[u] > 2))).all()


def _level(before, after):
    """The chart's level of ``after`` cards needed, read plainly (issue 49: "6+ (cut)" is 6 or
    more but fewer than before)."""
    if pd.isna(after):
        return "cannot lay it"
    if after < 6:
        return str(int(after))
    return "6+ (cut)" if not pd.isna(before) and after < before else "6+"


def _naive_chart(rows, level, min_deals=30):
    """The slow twin: each cell's mean and deal-clustered t interval, row by row in loops."""
    out = {}
    keys = A.CELL_KEYS
    norm = pd.DataFrame({
        "hand": rows["hand"], "decision": rows["decision"].astype(str),
        "needed_before": [_level(b, b) for b in rows["needed_before"]],
        "needed_after": [_level(b, a) for b, a in zip(rows["needed_before"],
                                                       rows["needed_after"], strict=True)],
        "stock_band": A.stock_band(rows["stock_left"]).astype(str),
        "opponents_opened": rows["opponents_opened"] > 0, "deal": list(zip(
            rows["hand"], rows["game"], rows["attempt"], strict=True)),
        "y": rows["d_relative"]})
    cells = {}
    for r in norm.itertuples(index=False):
        k = tuple(getattr(r, c) for c in keys)
        cells.setdefault(k, {}).setdefault(r.deal, []).append(r.y)
    for k, deals in cells.items():
        ys = [y for v in deals.values() for y in v]
        n, g = len(ys), len(deals)
        m = sum(ys) / n
        ss = sum((sum(v) - m * len(v)) ** 2 for v in deals.values())
        se = (g / (g - 1) * ss / n**2) ** 0.5 if g > 1 else float("nan")
        t = stats.t.ppf(0.5 + level / 2, max(g - 1, 1))
        out[k] = (n, g, m, m - t * se, m + t * se)
    return out


def test_columns_are_exactly_the_issues():
    c = A.call_chart(_rows(-5.0))
    assert tuple(c.columns) == A.CALL_CHART_COLUMNS == (
        "hand", "decision", "needed_before", "needed_after", "stock_band", "opponents_opened",
        "decisions", "deals", "d_relative", "d_relative_lo", "d_relative_hi", "d_penalty",
        "d_penalty_lo", "d_penalty_hi", "d_out", "verdict")


def test_verdicts_follow_their_own_intervals_R9():
    flat = _rows(0.0, sd=2.0, deals=400, after=1, opened=1, seed=7)
    flat["d_relative"] -= flat["d_relative"].mean()   # centred: its interval straddles zero
    rows = pd.concat([
        _rows(-8.0, after=0, seed=1),                             # below zero: call
        _rows(0.0, sd=30.0, after=1, seed=2),                     # straddles zero: unsure
        _rows(9.0, after=2, before=2, seed=3),                    # above zero: pass
        _rows(-8.0, after=3, before=3, deals=10, seed=4),         # too few deals: blank
        _rows(-8.0, after=0, decision="take", seed=5),            # take
        _rows(6.0, after=2, before=2, decision="take", seed=6),   # draw
        flat,                                                     # inside +-2: either
    ], ignore_index=True)
    c = A.call_chart(rows)
    _agree(c)
    assert _cell(c, decision="call", needed_after=0)["verdict"] == "call"
    assert _cell(c, decision="call", needed_after=1, opponents_opened=False)["verdict"] \
        == "unsure"
    assert _cell(c, decision="call", needed_after=2)["verdict"] == "pass"
    few = _cell(c, decision="call", needed_after=3)
    assert few["verdict"] == "" and few["deals"] == 10
    assert _cell(c, decision="take", needed_after=0)["verdict"] == "take"
    assert _cell(c, decision="take", needed_after=2)["verdict"] == "draw"
    assert _cell(c, decision="call", needed_after=1, opponents_opened=True)["verdict"] \
        == "either"
    # a wider "no difference" band or a lower bar change the verdicts where they must
    assert _cell(A.call_chart(rows, min_deals=10), decision="call",
                 needed_after=3)["verdict"] == "call"
    assert _cell(A.call_chart(rows, either=0.01), decision="call", needed_after=1,
                 opponents_opened=True)["verdict"] == "unsure"


def test_the_fast_chart_matches_its_slow_twin_on_engine_rows():
    d = ks.call_decisions(8, hand=1, policies="greedy", seed=2)
    c = A.call_chart(d, min_deals=2)
    _agree(c)
    twin = _naive_chart(d, c.attrs["level"])
    assert len(twin) == len(c) and c["decisions"].sum() == len(d)
    for r in c.itertuples(index=False):
        k = (r.hand, str(r.decision), str(r.needed_before), str(r.needed_after),
             str(r.stock_band), bool(r.opponents_opened))
        n, g, m, lo, hi = twin[k]
        assert (r.decisions, r.deals) == (n, g)
        assert r.d_relative == pytest.approx(m)
        if g > 1:
            assert r.d_relative_lo == pytest.approx(lo) and r.d_relative_hi == pytest.approx(hi)


def test_statistics_add_up_over_disjoint_deals_exactly():
    a = _rows(-3.0, deals=50, per_deal=3, seed=1)
    b = _rows(2.0, deals=40, per_deal=2, seed=2, first_game=50, stock=10)
    both = pd.concat([a, b], ignore_index=True)
    merged = A.merge_chart_stats([A.chart_stats(a), A.chart_stats(b)])
    whole = A.chart_stats(both)
    pd.testing.assert_frame_equal(merged, whole)
    pd.testing.assert_frame_equal(A.call_chart(merged), A.call_chart(both))


def test_the_deal_is_the_unit_duplicates_within_a_deal_do_not_narrow():
    one = _rows(-3.0, deals=80, seed=7)
    dup = pd.concat([one] * 5, ignore_index=True)
    a = A.call_chart(one).iloc[0]
    b = A.call_chart(dup).iloc[0]
    assert b["decisions"] == 5 * a["decisions"] and b["deals"] == a["deals"] == 80
    assert b["d_relative_hi"] - b["d_relative_lo"] == pytest.approx(
        a["d_relative_hi"] - a["d_relative_lo"])
    fake = dup.assign(game=np.arange(len(dup)))
    f = A.call_chart(fake).iloc[0]
    assert f["d_relative_hi"] - f["d_relative_lo"] < 0.6 * (a["d_relative_hi"]
                                                            - a["d_relative_lo"])


def _bh_twin(p, q):
    """Benjamini-Hochberg's count of discoveries, by its definition."""
    m = len(p)
    return max([r for r in range(1, m + 1) if sorted(p)[r - 1] <= r * q / m], default=0)


def test_fcr_level_is_benjamini_yekutieli():
    rng = np.random.default_rng(3)
    for _ in range(20):
        p = rng.uniform(0, 1, rng.integers(1, 40)) ** rng.uniform(0.5, 4)
        level, r = A.fcr_level(p, 0.05)
        assert r == _bh_twin(list(p), 0.05)
        assert level == pytest.approx(1 - max(r, 1) * 0.05 / len(p))


def test_many_undecided_cells_widen_every_interval():
    # one cell decided on its own at 95%, among many cells that decide nothing
    near = _rows(0.0, deals=200, sd=10.0, after=1, seed=11)
    m, lo, hi, _ = A.cluster_mean_ci(near["d_relative"], near["game"])
    near["d_relative"] += -(hi - m) * 1.05 - m   # the 95% interval's top just below 0
    alone = A.call_chart(near)
    assert alone.attrs["level"] == pytest.approx(0.95)
    assert alone["verdict"].iloc[0] == "call"
    rest = [_rows(0.0, deals=200, sd=40.0, after=k, before=k, stock=s, seed=20 + 5 * k + j)
            for k in (2, 3, 4) for j, s in enumerate((60, 30, 5))]
    c = A.call_chart(pd.concat([near, *rest], ignore_index=True))
    assert c.attrs["family"] == 10 and c.attrs["level"] > 0.99
    assert _cell(c, needed_after=1)["verdict"] == "unsure"
    _agree(c)


def test_decided_share_weights_decisions_and_counts_blank_cells():
    c = pd.DataFrame({"hand": [1, 1, 1, 2], "decisions": [70, 20, 10, 100],
                      "verdict": ["pass", "either", "unsure", ""]})
    assert A.decided_share(c) == pytest.approx(0.45)
    assert A.decided_share(c, "hand").tolist() == pytest.approx([0.9, 0.0])
    assert "45% of the 200 decisions" in A.decided_sentence(c)


def test_bad_input_is_named():
    rows = _rows(-1.0)
    with pytest.raises(ValueError, match="stock_left"):
        A.call_chart(rows.drop(columns="stock_left"))
    with pytest.raises(ValueError, match="min_deals=1"):
        A.call_chart(rows, min_deals=1)
    with pytest.raises(ValueError, match="q=2"):
        A.call_chart(rows, q=2)
    with pytest.raises(ValueError, match="'draw'"):
        A.call_chart(rows.assign(decision="draw"))
    with pytest.raises(ValueError, match="stock_left=-1"):
        A.call_chart(rows.assign(stock_left=-1))
    with pytest.raises(ValueError, match="d_relative=nan"):
        A.call_chart(rows.assign(d_relative=np.nan))
    with pytest.raises(TypeError, match="data="):
        A.call_chart([1, 2])


def test_points_against_the_table_are_the_branch_logs_R12():
    d = ks.call_decisions(4, hand=2, policies="greedy", seed=4)
    assert (d["d_relative"] == d["relative_act"] - d["relative_pass"]).all()
    for _, r in d.sample(min(len(d), 30), random_state=1).iterrows():
        for act, col in ((True, "act"), (False, "pass")):
            t = trace_decision(4, r.game, 2, r.turn, r.seat, act, attempt=r.attempt,
                               policies="greedy")
            score = {x["seat"]: x["penalty"] for x in t.records if x["event"] == "score"}
            if not score:  # a void hand scores nothing (R13)
                assert r[f"relative_{col}"] == 0 and r[f"void_{col}"] == 1
                continue
            mean = sum(score.values()) / len(score)
            assert r[f"relative_{col}"] == pytest.approx(score[r.seat] - mean)
            assert r[f"penalty_{col}"] == score[r.seat]
            opened_out = [x for x in t.records if x["event"] == "score"][0]["doubled"] and \
                score[r.seat] == 0
            assert r[f"doubler_{col}"] == float(opened_out)


def test_first_game_gives_the_same_deals():
    whole = ks.call_decisions(5, hand=1, policies="greedy", seed=3)
    part = ks.call_decisions(2, hand=1, policies="greedy", seed=3, first_game=3)
    pd.testing.assert_frame_equal(whole[whole["game"] >= 3].reset_index(drop=True), part)


def test_the_study_resumes_and_does_not_depend_on_its_chunks(tmp_path):
    a = call_chart_study(6, tmp_path / "a", hand=[1, 5], policies="greedy", chunk_deals=2)
    b = call_chart_study(6, tmp_path / "b", hand=[1, 5], policies="greedy", chunk_deals=4)
    pd.testing.assert_frame_equal(a.stats, b.stats)
    assert len(a.manifest["chunks"]) == 6 and a.manifest["finished"]
    assert int(a.stats["decisions"].sum()) == len(a.decisions())
    # lose two chunks, resume: the same statistics, only the lost chunks played again
    man = json.loads((tmp_path / "a" / "manifest.json").read_text())
    lost = man["chunks"][1]["files"]["stats"]["file"]
    (tmp_path / "a" / lost).unlink()
    man["chunks"] = man["chunks"][:4]
    man["finished"] = False
    (tmp_path / "a" / "manifest.json").write_text(json.dumps(man))
    c = call_chart_study(6, tmp_path / "a", hand=[1, 5], policies="greedy", resume=True)
    pd.testing.assert_frame_equal(c.stats, a.stats)
    s, prov = A.read_chart_stats(tmp_path / "a" / "call_chart_stats.csv")
    pd.testing.assert_frame_equal(s, a.stats)
    assert prov["command"].startswith("kalooki call-chart --deals 6 --out ")
    assert "--hand 1 --hand 5 --policies greedy" in prov["command"]
    assert {"commit", "machine", "wall time", "date"} <= set(prov)
    chart = pd.read_csv(tmp_path / "a" / "call_chart.csv")
    assert tuple(chart.columns) == A.CALL_CHART_COLUMNS
    with pytest.raises(ValueError, match="resume=True"):
        call_chart_study(6, tmp_path / "a", hand=[1, 5], policies="greedy")
    with pytest.raises(ValueError, match="another study"):
        call_chart_study(7, tmp_path / "a", hand=[1, 5], policies="greedy", resume=True)
    with pytest.raises(ValueError, match="hand=10"):
        call_chart_study(6, tmp_path / "c", hand=10)


def test_the_command_makes_the_study_and_refuses_bad_flags(tmp_path):
    kalooki = [sys.executable, "-m", "kalooki_sim", "call-chart"]
    r = subprocess.run(kalooki + ["--deals", "3", "--hand", "2", "--policies", "greedy",
                                  "--out", str(tmp_path / "s")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "decided:" in r.stdout and (tmp_path / "s" / "call_chart_stats.csv").is_file()
    for flags, msg in ((["--deals", "0"], "--deals 0"),
                       (["--deals", "3", "--resume", "--force"], "not allowed with")):
        r = subprocess.run(kalooki + flags + ["--out", str(tmp_path / "t")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr


def _words_chart(verdicts):
    """A chart of hand 1 calls: (before, after, band) -> (verdict, d_relative, lo, hi)."""
    return pd.DataFrame([{
        "hand": 1, "decision": "call", "needed_before": b, "needed_after": a,
        "stock_band": band, "opponents_opened": False, "decisions": 100, "d_relative": m,
        "d_relative_lo": lo, "d_relative_hi": hi, "verdict": v}
        for (b, a, band), (v, m, lo, hi) in verdicts.items()])


def test_the_rule_of_thumb_is_built_from_the_verdicts_and_never_turns_unsure_into_pass():
    base = {("1", "0", "40+"): ("call", -12.0, -15.0, -9.0),
            ("1", "0", "0-19"): ("call", -6.0, -9.0, -3.0),
            ("2", "2", "40+"): ("pass", 5.0, 2.0, 8.0),
            ("2", "2", "0-19"): ("pass", 3.0, 1.0, 5.0)}
    s = A.call_rule(_words_chart(base).assign(deals=60), 1, "3 groups")
    assert s.startswith("Hand 1 (3 groups): ")
    assert "Call a card that helps (−9.0)" in s
    assert "Pass on one that does not help (+4.0)" in s
    assert s.endswith("Undecided: 0% of its decisions.")
    # one pass cell turns unsure: the pass clause narrows to where the chart still says pass
    v = {**base, ("2", "2", "0-19"): ("unsure", 3.0, -1.0, 7.0)}
    s = A.call_rule(_words_chart(v).assign(deals=60), 1)
    assert "Pass on one that does not help, 20 or more cards left (+5.0)" in s
    assert "Undecided: 25% of its decisions." in s
    # the same cells split by stock: each clause keeps to its band
    v = {**base, ("2", "2", "0-19"): ("call", -3.0, -5.0, -1.0)}
    s = A.call_rule(_words_chart(v).assign(deals=60), 1)
    assert "Pass on one that does not help, 20 or more cards left (+5.0)" in s
    assert "0–19 cards left" in s
    assert "no rule of thumb holds" in A.call_rule(_words_chart(
        {k: ("unsure", 0.0, -5.0, 5.0) for k in base}).assign(deals=60), 1)


def test_why_names_the_double_and_the_split_between_own_and_table_points_R12():
    rows = pd.concat([_rows(-9.0, before=1, after=0, deals=80, seed=1),
                      _rows(4.0, before=2, after=2, deals=80, seed=2)], ignore_index=True)
    rows.loc[rows["needed_after"] == 0, "d_doubler"] = -0.25
    rows.loc[rows["needed_after"] == 2, "d_penalty"] = -4.0 + rows["d_relative"] * 0.01
    stats_ = A.chart_stats(rows)
    c = A.call_chart(stats_)
    w = A.why_line(c, stats_, 1)
    assert "by −25.0 percentage points [−25.0, −25.0]" in w
    assert "own points say call" in w and "the table says pass" in w
    c2 = A.call_chart(A.chart_stats(rows.assign(d_penalty=rows["d_relative"])))
    assert "agree" in A.why_line(c2, stats_, 1)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from kalooki_sim.report import publish as report

    out = tmp_path_factory.mktemp("should_i_call")
    report.build(out, tiny=True, names=("should_i_call",))
    return out


def test_the_page_leads_with_the_rule_of_thumb_and_the_chart(page):
    c = pd.read_csv(page / "call_chart.csv")
    assert tuple(c.columns) == A.CALL_CHART_COLUMNS and len(c)
    _agree(c)
    committed, _ = A.read_chart_stats(
        __import__("importlib").resources.files("kalooki_sim.analysis") / "call_chart_stats.csv")
    assert c["decisions"].sum() == committed["decisions"].sum()
    assert (page / "call_chart.pdf").read_bytes()[:5] == b"%PDF-"
    assert b"/MediaBox [ 0 0 841.68 595.44 ]" in (page / "call_chart.pdf").read_bytes()
    assert (page / "call_chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (page / "should_i_call.html").read_text(encoding="utf-8")
    import html as h

    text = h.unescape(html)
    chart = text.index('data-file="call_chart.png"')
    rule = text.index("Hand 1 (3 groups): ")
    assert chart < rule < text.index("How to read the chart") < text.index("Caveats")
    # the rules and the decided share on the page are the CSV's
    c["needed_before"] = c["needed_before"].astype(str)
    c["needed_after"] = c["needed_after"].astype(str)
    thumb = A.read_thumb(__import__("importlib").resources.files("kalooki_sim.engine")
                         / "thumb.csv")
    assert A.call_rule(c, 9, "4 runs", rules=thumb) in text
    assert A.decided_sentence(c) in text
    # it opens with what following the chart wins, read from the committed ladder
    from kalooki_sim.analysis import ladder as L

    win = L.ladder_sentence(L.ladder_committed())
    assert win in text and text.index(win) < chart
    # legible (issue 49): the chart at the page's full width, the rules at body size
    assert "flex:0 0 50%" not in html and "font-size:0.68em" not in html


def test_a_rerun_on_other_deals_agrees_and_a_shifted_one_does_not():
    a = pd.concat([_rows(-6.0, after=0, deals=300, seed=1),
                   _rows(5.0, before=2, after=2, deals=300, seed=2)], ignore_index=True)
    b = pd.concat([_rows(-6.0, after=0, deals=300, seed=3, first_game=300),
                   _rows(5.0, before=2, after=2, deals=300, seed=4, first_game=300)],
                  ignore_index=True)
    ag = A.chart_agreement(A.call_chart(a), A.call_chart(b))
    assert len(ag) == 2 and ag["diff_ok"].all() and not ag["flip"].any()
    moved = b.assign(d_relative=-b["d_relative"])   # every sign turned over
    ag = A.chart_agreement(A.call_chart(a), A.call_chart(moved))
    assert ag["flip"].all() and not ag["diff_ok"].any() and not ag["inside"].any()


def test_the_study_on_a_dask_cluster_gives_the_same_statistics(tmp_path):
    pytest.importorskip("distributed")
    kw = dict(deals=4, hand=2, policies="greedy", chunk_deals=2)
    here = call_chart_study(out=tmp_path / "here", **kw)
    dask = call_chart_study(out=tmp_path / "dask", scheduler="local:1", **kw)
    pd.testing.assert_frame_equal(here.stats, dask.stats)
    assert "--scheduler local:1" in dask.provenance["command"]
    with pytest.raises(ValueError, match="scheduler='udp://x' is not allowed"):
        call_chart_study(out=tmp_path / "bad", scheduler="udp://x", **kw)


def test_a_local_cluster_starts_while_another_cluster_holds_port_8787():
    """A study's LocalCluster takes no fixed port: with 8787 (dask's dashboard default, which
    its scheduler serves HTTP on even without a dashboard) held by another cluster on the
    machine, it starts without dask's "Port 8787 is already in use" warning (an error here)."""
    pytest.importorskip("distributed")
    from kalooki_sim.studies._cluster import DaskExecutor

    with socket.socket() as s:
        with contextlib.suppress(OSError):  # already held by another cluster: the same case
            s.bind(("127.0.0.1", 8787))
            s.listen()
        executor = DaskExecutor("local:1", None)
        try:
            assert executor.cluster.scheduler.http_server.port != 8787
        finally:
            executor.close()


def test_the_agreement_sentence_follows_the_cells():
    ag = pd.DataFrame({"decisions": [100, 100, 200], "inside": [True, True, False],
                       "diff_ok": [True, True, False], "flip": [False, False, True]})
    s = A.agreement_sentence(ag, "kalooki call-chart --hand 5")
    assert "matches 3 of the chart's cells" in s and "in 67% of them (50% of their" in s
    assert "1 verdict turns from act to not act or back" in s
    s = A.agreement_sentence(ag.assign(flip=False, inside=True), "x")
    assert "in 100% of them (100% of their" in s and "no verdict turns" in s


@pytest.mark.parametrize("hand, cards, card, contract, discarder, before, after, kind", [
    # next after the discarder: a take that completes two groups and a run (R9.1)
    (2, "7♠ 7♥ 7♦ Q♠ Q♥ Q♦ 4♣ 5♣ 6♣ K♥", "7♣", 2, 1, "1", "0", "take"),
    # two seats on: a call of a card that does not help three groups (R9.2)
    (1, "K♠ K♥ Q♠ Q♥ 6♠ 6♥ 6♦ 2♣ 9♦", "4♣", 1, 2, "2", "2", "call"),
    # the issue's hand: a call that completes three groups and spoils the opening double
    (1, "K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, 2, "1", "0", "call"),
])
def test_the_advisor_agrees_with_the_charts_decided_cell(hand, cards, card, contract,
                                                          discarder, before, after, kind):
    """Issue 29: where the committed chart decides, the advisor (same objective, points
    against the table) gives the same answer for a hand of that cell."""
    stats_, _ = A.read_chart_stats(
        __import__("importlib").resources.files("kalooki_sim.analysis") / "call_chart_stats.csv")
    c = A.call_chart(stats_)
    cell = _cell(c, hand=hand, decision=kind, needed_before=before, needed_after=after,
                 stock_band="40+", opponents_opened=False)
    assert cell["verdict"] in ("call", "pass", "take", "draw")
    a = ks.advise(cards, card, contract, discarder=discarder, stock_left=50, rollouts=600,
                  seed=3, threads=2)
    assert a.objective == "relative"
    # the hand is of the cell: the cards it needs before and after the card (R7)
    assert (a.needed["needed_before"], a.needed["needed_after"]) == (int(before), int(after))
    assert a.action == cell["verdict"], (a.recommendation, cell.to_dict())


def test_why_reads_the_double_where_nobody_has_opened_yet_R12():
    fresh = _rows(-9.0, before=1, after=0, deals=60, seed=1)
    fresh["d_doubler"] = -0.3
    late = _rows(-9.0, before=1, after=0, deals=200, opened=1, seed=2)   # larger, opened
    late["d_doubler"] = 0.0
    stats_ = A.chart_stats(pd.concat([fresh, late], ignore_index=True))
    w = A.why_line(A.call_chart(stats_), stats_, 1)
    assert "by −30.0 percentage points" in w and "nobody opened" in w
    stats_ = A.chart_stats(late)
    assert "by +0.0 percentage points" in A.why_line(A.call_chart(stats_), stats_, 1)
