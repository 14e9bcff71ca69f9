"""The pages, true and legible (issue 49): the pieces that write the numbers the pages print.

Each test runs the code that makes a sentence or a cell on data where it must come out
differently, so a typed number or a phrase that can turn false fails here. The checks of the
built pages are in ``tests/test_pages.py``.
"""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kalooki_sim import analysis as A
from kalooki_sim.report import guide_blocks, plots, site

ROOT = Path(__file__).resolve().parents[1]

# -- the guide's variance ratio: the report's table, not a typed copy -------------------------


def _ratios(dec, pol):
    """A variance_ratio.csv: ``dec`` and ``pol`` are (ratio, lo, hi, decisions, deals)."""
    return pd.DataFrame(
        [["per decision (branch at the offer, stock dealt by seat)", *dec],
         ["whole policy (expert vs never calling, hands 1, 5, 9)", *pol]],
        columns=["comparison", "ratio", "lo", "hi", "decisions", "deals"])


def test_the_variance_ratio_block_says_what_its_table_says():
    a = guide_blocks.variance_ratio_block(_ratios((2.611, 2.539, 2.6953, 41570, 13782),
                                                  (1.379, 1.277, 1.574, 1200, 1200)))
    b = guide_blocks.variance_ratio_block(_ratios((6.2, 5.4, 7.1, 900, 300),
                                                  (1.5, 1.4, 1.6, 600, 600)))
    assert "**2.61** [2.54, 2.70] per decision" in a and "41,570 decisions in 13,782" in a
    assert "1.38 [1.28, 1.57] for the whole-policy" in a and "1.9 times as sharp" in a
    assert "A ratio of 5 was not reached" in a
    assert "**6.2** [5.4, 7.1] per decision" in b and "900 decisions in 300 deals" in b
    assert "4.1 times as sharp" in b and "A ratio of 5 was reached." in b
    with pytest.raises(ValueError, match="whole policy"):
        guide_blocks.variance_ratio_block(_ratios((2.6, 2.5, 2.7, 9, 9),
                                                  (1.4, 1.3, 1.5, 9, 9)).iloc[:1])


def test_the_guide_reads_the_variance_ratio_of_its_own_build(tmp_path):
    # a build folder with its own table: the guide quotes it, not the committed one
    _ratios((3.33, 3.21, 3.46, 500, 200), (1.2, 1.1, 1.3, 60, 60)).to_csv(
        tmp_path / "variance_ratio.csv", index=False)
    site.write_guide(tmp_path)
    page = (tmp_path / "guide-advisor.html").read_text(encoding="utf-8")
    assert "<strong>3.33</strong> [3.21, 3.46] per decision" in page
    assert "500 decisions in 200 deals" in page


def test_the_guide_quotes_the_published_variance_ratio(tmp_path):
    # issue 49: the guide said 2.4 [2.3, 2.5] from an older run beside the page's 2.61
    from kalooki_sim.analysis._words import ci_text

    t = pd.read_csv(ROOT / "reports" / "variance_ratio.csv")
    r = t[t["comparison"].str.startswith("per decision")].iloc[0]
    site.write_guide(tmp_path)
    page = (tmp_path / "guide-advisor.html").read_text(encoding="utf-8")
    m, rest = ci_text(r["ratio"], r["lo"], r["hi"]).split(" ", 1)
    assert f"<strong>{m}</strong> {rest} per decision" in page
    src = (site.GUIDE_DIR / "advisor.md").read_text(encoding="utf-8")
    assert "<!-- data: variance-ratio -->" in src and "**2.4**" not in src


# -- void shares and the ends of intervals ------------------------------------------------------


def test_a_void_share_with_one_void_seen_has_a_lower_bound_above_zero():
    # issue 49: "0.02% [0.00%, 0.07%]", a normal interval cut at 0, with one void deal seen
    one = pd.DataFrame({"game": range(4000), "hand": 2, "void": False,
                        "attempts": [2] + [1] * 3999})
    p, lo, hi, _ = A.void_rate(one)
    assert 0 < lo < p < hi
    k, n = 1, 4001
    assert (lo, hi) == pytest.approx(A.wilson(k, n)[1:], rel=1e-9)  # one deal per hand
    none = one.assign(attempts=1)
    assert A.void_rate(none)[1] == 0  # 0 only where none was seen
    # the call pages' void share, from the same sums
    games = pd.DataFrame({"calls": 0.0, "attempts": one["attempts"], "penalty": 10.0,
                          "win": 0.0, "out": 0.0, "doubled": 0.0}, index=range(4000))
    t = A.compare_calls({"never": games, "call-3": games}, "never", hand=2, n_boot=10)
    assert (t["p_void_lo"] > 0).all() and (t["p_void_lo"] < t["p_void"]).all()


def _lower_end(text):
    return float(re.search(r"\[([^%\]]+)%?,", text).group(1).replace("−", "-"))


@pytest.mark.parametrize("k,n", [(1, 4001), (1, 500), (2, 1000), (1, 30), (3, 250_000)])
def test_a_share_seen_prints_a_lower_end_above_zero(k, n):
    # "0.2% [0.0%, 0.6%]": Wilson's lower end is above 0, its decimals said 0.0
    text = plots.pct_ci(*A.wilson(k, n))
    assert _lower_end(text) > 0, text
    assert plots.pct_ci(*A.wilson(0, n)).startswith("0%")


def test_an_interval_end_keeps_its_side_of_zero():
    assert plots.num_ci(12.0, 0.012, 24.06, signed=True) == "+12 [+0.01, +24]"
    assert plots.num_ci(-3.0, -8.0, -0.003, signed=True) == "−3 [−8, −0.003]"
    assert plots.pct_ci(0.99, 0.97, 0.99996) == "99.0% [97.0%, 99.996%]"


def test_the_review_shows_tenths_of_a_point_not_tens():
    # issue 49: "+0 [−20, +30]" for 0.19 [−24.8, +25.2]
    assert plots.num_ci(0.19, -24.8, 25.2, 1, True) == "+0 [−20, +30]"  # the interval's own
    assert plots.num_ci(0.19, -24.8, 25.2, 1, True, at_least=1) == "+0.2 [−24.8, +25.2]"
    assert plots.num_ci(-3.07, -17.14, 10.99, 1, True, at_least=1) == "−3.1 [−17.1, +11.0]"


# -- "most" and "least": every contract its rank interval allows ------------------------------


#: the exact chances of the contracts of groups only (hands 1 and 5, reports/p_dealt.csv)
EXACT = {1: 1.5409182046467398e-04, 5: 5.058856403326006e-05}


def _dealt(hits: dict, n: int = 250_000):
    """p_dealt-like samples, estimates and Wilson intervals from hit counts per simulated
    hand, and the exact hands as they are."""
    samples = {**EXACT, **{h: np.arange(n) < k for h, k in hits.items()}}  # hits: booleans
    est = {**EXACT, **{h: k / n for h, k in hits.items()}}
    iv = {**{h: (p, p) for h, p in EXACT.items()},
          **{h: tuple(A.wilson(k, n)[1:]) for h, k in hits.items()}}
    return samples, est, iv


def _least_text(hits):
    from kalooki_sim.analysis._words import overlap_note

    samples, est, iv = _dealt(hits)
    low = A.rank_intervals(est, A.bootstrap_means(samples, n_boot=1000, seed=2026),
                           higher_first=False)
    text = (f"Least often: {A.first_phrase(low)}. "
            + overlap_note(low, iv, higher_first=False, order="least often"))
    return text, low, iv


def test_zero_hits_are_not_ranked_as_if_exact():
    d = A.bootstrap_means({"none": np.zeros(250_000, bool)}, n_boot=500, seed=1)["none"]
    assert d.min() > 0 and d.std() > 0
    # a difference that is 0 in every deal is a number, not a share: exactly 0
    assert not A.bootstrap_means({"same": np.zeros(50)}, n_boot=50)["same"].any()


def test_least_often_names_every_contract_whose_interval_overlaps():
    # the published counts (hand: deals of 250,000 whose deal laid it): 7 of 250,000 for hand
    # 3 against none for hands 8 and 9 rules hand 3 out of last place (counted together, the
    # chance all seven land in hand 3 is 3**-7); the sentence says so, by its rank interval
    hits = {2: 26, 3: 7, 4: 2, 6: 10, 7: 3, 8: 0, 9: 0}
    text, low, iv = _least_text(hits)
    first = A.first_set(low)
    assert 3 not in first and {8, 9} <= set(first)
    assert ("The 95% intervals of hands 3 and 6 overlap theirs, but their rank intervals do "
            "not reach 1 (1 = least often; hand 3: ") in text  # hand 6's overlaps hand 7's
    for h in (3, 6):
        r = low.set_index("item").loc[h]
        assert f"hand {h}: {int(r['rank_lo'])} to {int(r['rank_hi'])}" in text and r["rank_lo"] > 1
    # two deals fewer and it cannot be told from them: it joins the set
    text2, low2, _ = _least_text({**hits, 3: 2})
    assert 3 in A.first_set(low2) and "hands 3, 4, 7, 8 and 9" in text2
    assert "hand 3: " not in text2  # in the set, not among those ruled out
    for t, ranks, ivs in ((text, low, iv), (text2, low2, iv)):
        top = max(ivs[h][1] for h in A.first_set(ranks))
        for h, (lo, _) in ivs.items():
            if lo <= top:  # overlaps first place: named, in the set or with its rank
                assert re.search(rf"\b{h}\b", t), (h, t)


# -- charts: no label over another --------------------------------------------------------------


def _overlapping_texts(fig):
    """Pairs of tick labels, axis labels, titles and legends whose boxes overlap."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = []
    for ax in fig.axes:
        for t in ax.get_xticklabels() + ax.get_yticklabels() + [ax.xaxis.label,
                                                                 ax.yaxis.label, ax.title]:
            if t.get_visible() and t.get_text():
                boxes.append((t.get_text().replace("\n", " "), t.get_window_extent(r)))
        if ax.get_legend():
            boxes.append(("legend", ax.get_legend().get_window_extent(r)))
    return [(a, b) for i, (a, x) in enumerate(boxes) for b, y in boxes[i + 1:]
            if x.overlaps(y)]


def _contracts():
    import kalooki_sim as ks

    return {h: A.contract_label(*ks.Rules().deal(h)[1:]) for h in range(1, 10)}


def test_the_chance_the_deal_lays_it_has_no_label_over_another():
    # issue 49: difficulty_p_dealt.png, the nine contracts' labels ran into each other
    import matplotlib.pyplot as plt

    labels = _contracts()
    p = np.array([1.5e-4, 1.0e-4, 2.8e-5, 8e-6, 5.1e-5, 4e-5, 1.2e-5, 0, 0])
    t = pd.DataFrame({"hand": range(1, 10), "contract": [labels[h] for h in range(1, 10)],
                      "p_dealt": p, "lo": p * 0.5, "hi": p * 2 + 1.5e-5,
                      "exact": [True, False, False, False, True, False, False, False, False]})
    fig = plots.by_contract(t, "p_dealt", "chance (log scale)",
                            "One seat's deal already lays its contract", log=True, exact="exact")
    try:
        assert not _overlapping_texts(fig)
    finally:
        plt.close(fig)
