"""Every generated page, from a tiny build (issue 18): tables and charts carry captions,
proportions are percentages with intervals inside [0, 100], the index has its glossary,
limitations and folded file lists, the manifest its run section.

Set ``KALOOKI_REPORT_DIR`` to check an existing build instead of making one.
"""

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kalooki_sim.report import publish as report
from kalooki_sim.report.glossary import slug


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    given = os.environ.get("KALOOKI_REPORT_DIR")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("pages")
    report.build(out, tiny=True)
    return out


class _Captions(HTMLParser):
    """Collects tables without a caption and images outside a captioned figure."""

    def __init__(self):
        super().__init__()
        self.stack, self.bad = [], []
        self.table_open = None  # tag seen right after the last <table>
        self.figure = []  # open figures: [has figcaption, image count]

    def handle_starttag(self, tag, attrs):
        if self.table_open == "pending":
            self.table_open = None
            if tag != "caption":
                self.bad.append(f"<table> whose first element is <{tag}>, not <caption>")
        if tag == "table":
            self.table_open = "pending"
        elif tag == "figure":
            self.figure.append([False, 0])
        elif tag == "figcaption" and self.figure:
            self.figure[-1][0] = True
        elif tag == "img":
            if not self.figure:
                self.bad.append("<img> outside a <figure>")
            else:
                self.figure[-1][1] += 1

    def handle_endtag(self, tag):
        if tag == "figure" and self.figure:
            has_cap, _ = self.figure.pop()
            if not has_cap:
                self.bad.append("<figure> without <figcaption>")
        if tag == "caption":
            pass


def _html_pages(pages):
    found = sorted(pages.glob("*.html"))
    assert len(found) >= 2
    return found


def test_every_table_and_chart_has_a_caption(pages):
    for page in _html_pages(pages):
        p = _Captions()
        p.feed(page.read_text(encoding="utf-8"))
        assert not p.bad, f"{page.name}: {p.bad[:5]}"


_PCT = re.compile(r"(?<![\d.+\-−])(\d+(?:\.\d+)?)% \[(-?\d+(?:\.\d+)?)%, (-?\d+(?:\.\d+)?)%\]")


def test_proportions_are_percentages_inside_0_100(pages):
    seen = 0
    for page in _html_pages(pages):
        text = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
        for m in _PCT.finditer(text):
            p, lo, hi = (float(x) for x in m.groups())
            seen += 1
            assert 0 <= lo <= p <= hi <= 100, f"{page.name}: {m.group(0)}"
    assert seen


def test_caption_checker_bites():
    p = _Captions()
    p.feed("<table><tr><td>1</td></tr></table><img src='x.png'>"
           "<figure><img src='y.png'></figure>")
    assert len(p.bad) == 3
    assert _PCT.search("share 5.0% [-1.0%, 11.0%]") and not _PCT.search("+5% [-2%, 9%]")


def test_index_links_glossary_rules_and_keeps_limitations_and_folded_files(pages):
    index = (pages / "index.html").read_text(encoding="utf-8")
    glossary = (pages / "glossary.html").read_text(encoding="utf-8")
    for term in report.GLOSSARY:
        assert f'id="g-{slug(term)}"' in glossary
    assert index.count('class="term"') >= 3  # terms linked from their first use
    assert 'href="glossary.html"' in index and 'href="rules.html"' in index
    assert "<code>kalooki_sim/RULES.md</code>" not in index  # a link, not a path
    assert "Limitations." in index and "not people" in index
    files = index[index.index("<h2>Files</h2>"):index.index("<h2>Provenance</h2>")]
    assert "<details>" in files and files.count(".csv</a>") >= 1
    assert index.index("Headline findings") < index.index("Limitations.")


def test_glossary_links_first_use_only_outside_code_and_links():
    done = set()
    out = report._link_terms("<p>A <code>call</code> then a call, another call; "
                             '<a href="x">void</a> and a void.</p>', done)
    assert out.count('href="glossary.html#g-call"') == 1 and "<code>call</code>" in out
    assert out.count('href="glossary.html#g-void"') == 1 and '<a href="x">void</a>' in out
    assert report._link_terms("a call", done) == "a call"


def test_manifest_run_section(pages):
    m = json.loads((pages / "manifest.json").read_text(encoding="utf-8"))
    run = m["run"]
    assert set(run["wall_seconds"]) <= set(report.NOTEBOOKS) and run["wall_seconds"]
    assert all(v > 0 for v in run["wall_seconds"].values())
    assert run["threads"] >= 1 and run["cpu"] and isinstance(run["numba_cache_warm"], bool)


def test_contract_table_csv_has_the_organisers_columns(pages):
    import pandas as pd

    from kalooki_sim import analysis as A

    f = pages / "contract_table.csv"
    if not f.exists():
        pytest.skip("contract_difficulty not in this build")
    t = pd.read_csv(f)
    assert tuple(t.columns) == A.CONTRACT_TABLE_COLUMNS and len(t) == 9
    page = (pages / "contract_difficulty.html").read_text(encoding="utf-8")
    first_table = page.index("<table")
    assert page.index("The contract table:") > first_table
    assert page.index("The contract table:") < page.index("<table", first_table + 1)
    assert "ranks by" in page


needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None,
                                    reason="no chromium on this machine")
_PROBE = """<script>
(function () {
  var caps = Array.prototype.slice.call(document.querySelectorAll("caption, figcaption"));
  var shown = caps.filter(function (c) {
    var r = c.getBoundingClientRect(), s = getComputedStyle(c);
    return r.height > 0 && r.width > 0 && s.visibility !== "hidden" && s.display !== "none"
      && (c.textContent || "").trim().length > 0;
  });
  // a table wider than the column that holds it (the nearest ancestor that clips or scrolls,
  // else the page): its right part is cut off or needs a sideways scroll
  var wide = [];
  Array.prototype.slice.call(document.querySelectorAll("table")).forEach(function (t) {
    var box = t.parentElement;
    while (box && box !== document.body) {
      var o = getComputedStyle(box).overflowX;
      if (o !== "visible") break;
      box = box.parentElement;
    }
    var room = box ? box.clientWidth : window.innerWidth;
    if (t.getBoundingClientRect().width > room + 1) {
      var c = t.querySelector("caption");
      wide.push((c ? c.textContent : "a table").trim().slice(0, 60));
    }
  });
  var out = {width: document.documentElement.scrollWidth, view: window.innerWidth,
             tables: document.querySelectorAll("table").length,
             figures: document.querySelectorAll("figure").length,
             captions: caps.length, shown: shown.length, wide: wide};
  var pre = document.createElement("pre");
  pre.id = "kalooki-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def _browser_facts(page: Path, tmp: Path) -> dict:
    """Open ``page`` in headless Chromium at 1280 px; what the probe script measured."""
    text = page.read_text(encoding="utf-8")
    probe = tmp / page.name
    probe.write_text(text.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--window-size=1280,1000",
                        "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                       capture_output=True, text=True, timeout=180, check=False)
    m = re.search(r'<pre id="kalooki-probe">(\{.*?\})</pre>', r.stdout)
    assert m, f"{page.name}: the probe did not run (chromium exit {r.returncode})"
    return json.loads(m.group(1))


def _check_in_browser(folder: Path, tmp: Path):
    for page in _html_pages(folder):
        f = _browser_facts(page, tmp)
        assert f["width"] <= f["view"] == 1280, f"{page.name} scrolls sideways: {f}"
        assert f["captions"] == f["shown"] >= f["tables"] + f["figures"], f"{page.name}: {f}"
        assert not f["wide"], f"{page.name}: tables wider than their column: {f['wide']}"


@needs_chromium
def test_pages_show_every_caption_and_fit_1280_px_in_chromium(pages, tmp_path):
    _check_in_browser(pages, tmp_path)


@needs_chromium
def test_published_report_shows_every_caption_and_fits_1280_px(tmp_path):
    _check_in_browser(Path(report.ROOT) / "reports", tmp_path)


@needs_chromium
def test_browser_check_bites(tmp_path):
    pages_dir = tmp_path / "pages"
    pages_dir.mkdir()
    ok = ('<table><caption>Hands</caption><tr><td>1</td></tr></table>'
          '<figure><img alt="x"><figcaption>A chart</figcaption></figure>')
    clipped = ('<div style="width:400px;overflow-x:hidden"><table><caption>Clipped</caption>'
               '<tr><td style="min-width:900px">x</td></tr></table></div>')
    for name, body in [("wide", ok + '<div style="width:2000px">wide</div>'),
                       ("clipped", ok + clipped),
                       ("hidden", '<table><caption style="display:none">Hands</caption>'
                                  '<tr><td>1</td></tr></table>')]:
        (pages_dir / f"{name}.html").write_text(f"<html><body>{body}</body></html>")
        (pages_dir / "fine.html").write_text(f"<html><body>{ok}</body></html>")
        with pytest.raises(AssertionError, match=name):
            _check_in_browser(pages_dir, tmp_path)
        (pages_dir / f"{name}.html").unlink()
    facts = _browser_facts(pages_dir / "fine.html", tmp_path)
    assert facts["shown"] == 2 and facts["width"] <= 1280


def _page_text(path) -> str:
    import html as _html

    t = re.sub(r"<style.*?</style>|<script.*?</script>", " ", path.read_text(encoding="utf-8"),
               flags=re.S)
    return re.sub(r"\s+", " ", _html.unescape(re.sub(r"<[^>]+>", " ", t)))


_NUM = r"[+−-]?[\d,]*\.?\d+"
_INTERVAL = re.compile(rf"({_NUM})(%?) \[(<? ?{_NUM})%?, (>? ?{_NUM})%?\]")


def test_no_interval_prints_as_zero_to_zero_and_no_zero_hides_its_bound(pages):
    # issue 30: "0% [0, 0]", "< 0.01% [< 0.01%, < 0.01%]", "+0.00 [+0.00, +0.00]",
    # "+0.0 [-0.0, +0.0]": too few digits for the interval, or a zero without an upper bound
    def zero(x):
        return float(x.replace("−", "-").replace(",", "").lstrip("<> ")) == 0

    bad = []
    for page in sorted(pages.glob("*.html")):
        text = _page_text(page)
        bad += [f"{page.name}: {m.group(0)}" for m in _INTERVAL.finditer(text)
                if zero(m.group(3)) and zero(m.group(4))]
        bad += [f"{page.name}: < 0.01% [< 0.01%" for _ in re.finditer(
            re.escape("< 0.01% [< 0.01%"), text)]
    assert not bad, bad


def test_should_i_call_says_what_its_policy_and_files_say(pages):
    # issue 30: "at most 3 more cards" beside call_max_need=5; a header the CSV did not have
    import kalooki_sim as ks

    page = pages / "should_i_call.html"
    if not page.exists():
        pytest.skip("should_i_call not in this build")
    text = _page_text(page)
    said = re.search(r"calls only when the contract would then need at most (\d+) more card",
                     text)
    assert said and int(said.group(1)) == ks.preset("expert").call_max_need
    for name in ("search_vs_expert.csv", "tuned_calls.csv"):
        assert f"{name}" in text
        lines = (pages / name).read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# made by: python -m kalooki_sim."), name
        assert any(ln.startswith("# wall time:") for ln in lines), name
    for i in (1, 2, 3):
        assert f"advisor_example_{i}.csv" in text and (pages / f"advisor_example_{i}.csv").exists()
    assert "stock_left" not in text and "penalty_lo" not in text  # words, not column names


def test_contract_table_names_the_columns_with_intervals_as_its_csv_has_them(pages):
    import pandas as pd

    page = pages / "contract_difficulty.html"
    if not page.exists():
        pytest.skip("contract_difficulty not in this build")
    text = _page_text(page)
    assert "Every figure carries" not in text and "Every column, with its interval" not in text
    t = pd.read_csv(pages / "contract_table.csv")
    said = re.search(r"with a 95% interval \(its _lo and _hi columns\): (.*?); without one",
                     text).group(1)
    for words, col in [("void deals", "p_void_deal"), ("the losers' penalty", "losers_penalty"),
                       ("won on the opening", "p_out_on_opening")]:
        assert (words in said) == ({f"{col}_lo", f"{col}_hi"} <= set(t.columns)), words


def test_teaching_answers_are_worked_and_counts_agree_with_their_nouns(pages):
    # issue 30: "1 mistakes"; answers that were bare checks
    page = pages / "teaching_probability.html"
    if not page.exists():
        pytest.skip("teaching_probability not in this build")
    html_text = page.read_text(encoding="utf-8")
    answers = re.findall(r"<details><summary><b>Worked answer</b>.*?</details>", html_text,
                         flags=re.S)
    assert len(answers) == 6 and all(a.count("<li>") >= 3 for a in answers)
    text = _page_text(page)
    assert not re.search(r"\b1 \**(mistakes|decisions|cards|calls|runs|deals)\b", text)
    assert "`action`" not in text and "of `d_value`" not in text


# -- issue 49: the pages, true and legible -------------------------------------------------------


def test_the_guide_quotes_the_variance_ratio_its_build_publishes(pages):
    # the guide said 2.4 [2.3, 2.5] from an older run where variance_ratio.csv said 2.61
    import pandas as pd

    from kalooki_sim.analysis._words import ci_text

    own = pages / "variance_ratio.csv"
    t = pd.read_csv(own if own.exists() else Path(report.ROOT) / "reports" / own.name)
    r = t[t["comparison"].str.startswith("per decision")].iloc[0]
    m, rest = ci_text(r["ratio"], r["lo"], r["hi"]).split(" ", 1)
    text = _page_text(pages / "guide-advisor.html")
    assert f"is {m} {rest} per decision" in text, re.findall(r"one is .{0,40}", text)
    assert f"{int(r['decisions']):,} decisions in {int(r['deals']):,} deals" in text


_SHARE = re.compile(r"(?<![\d.+\-−])(\d+(?:\.\d+)?)% \[(\d+(?:\.\d+)?)%, (\d+(?:\.\d+)?)%\]")


def test_a_share_seen_never_prints_an_end_of_0_or_100(pages):
    # "0.02% [0.00%, 0.07%]" (a normal interval cut at 0, one void deal seen) and
    # "0.2% [0.0%, 0.6%]" (Wilson's lower end, too few decimals): a share above 0 has a
    # lower end above 0, one below 100% an upper end below it
    bad = []
    for page in _html_pages(pages):
        for m in _SHARE.finditer(_page_text(page)):
            p, lo, hi = (float(x) for x in m.groups())
            if (p > 0 and lo == 0) or (p < 100 and hi == 100):
                bad.append(f"{page.name}: {m.group(0)}")
    assert not bad, bad


def test_teaching_lesson_1_shows_the_fractions_it_promises(pages):
    import pandas as pd

    page = pages / "teaching_probability.html"
    if not page.exists():
        pytest.skip("teaching_probability not in this build")
    text = _page_text(page)
    assert "gives the exact chance as a fraction" in text
    table = text[text.index("Exact against"):text.index("interval holds the exact value")]
    assert "as a fraction" in table
    for frac in pd.read_csv(pages / "teaching_exact_vs_simulated.csv")["exact_fraction"]:
        assert f" {frac} " in text[text.index("Exact against"):], frac


def test_teaching_exercise_2_answer_carries_the_value_it_cites(pages):
    # it cited "the exact value in the table above", and the page had no such table
    import pandas as pd

    page = pages / "teaching_probability.html"
    if not page.exists():
        pytest.skip("teaching_probability not in this build")
    text = _page_text(page)
    p3 = pd.read_csv(pages / "teaching_outs.csv").set_index("draws").loc[3, "exact"]
    start = text.index("Exercise 2.")
    answer = text[start:text.index("Lesson 3.", start)]
    assert f"= {p3:.4f}." in answer  # the value itself, in the answer
    if "table above" in answer:  # and the table it points to, before it, holds it
        table = text[:start][text[:start].rindex("At least one of"):]
        assert re.search(rf"\b3 {p3:.4f}\b", table), table[:300]


def test_teaching_review_shows_its_intervals_to_a_tenth_of_a_point(pages):
    # "+0 [−20, +30]" for 0.19 [−24.8, +25.2]: each end moved by up to 5 points, and an
    # interval that excludes zero could read as one that holds it (exercise 6 reads them)
    import pandas as pd

    page = pages / "teaching_probability.html"
    if not page.exists():
        pytest.skip("teaching_probability not in this build")
    html_text = page.read_text(encoding="utf-8")
    cap = re.search(r"<caption[^>]*>Seat 0's .*?</table>", html_text, re.S).group(0)
    rows = [r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", cap, re.S) if "<td>" in r]
    rev = pd.read_csv(pages / "teaching_review.csv")
    assert len(rows) == len(rev)
    for row, r in zip(rows, rev.itertuples(), strict=True):
        cell = re.findall(r"<td>(.*?)</td>", row, re.S)[5]
        nums = [float(x.replace("−", "-").replace(",", ""))
                for x in re.findall(r"[+−-]?[\d,]*\.?\d+", cell)]
        for shown, true in zip(nums, (r.d_value, r.d_value_lo, r.d_value_hi), strict=True):
            assert abs(shown - true) <= 0.05 + 1e-9, (cell, true)
        assert (nums[1] > 0) == (r.d_value_lo > 0) and (nums[2] < 0) == (r.d_value_hi < 0)


def _named_hands(part: str) -> set:
    """The contracts a sentence names: "hand 3", "Hand 3's", "hands 4, 7, 8 and 9"."""
    named = set()
    for m in re.finditer(r"\bhands? ((?:\d, )*\d(?: and \d)?)\b", part, re.I):
        named |= {int(h) for h in re.findall(r"\d", m.group(1))}
    return named


def test_most_and_least_name_every_contract_whose_interval_overlaps(pages):
    # "least often: one of hands 4, 7, 8 and 9" left out hand 3, whose interval overlaps:
    # each claim names every contract whose 95% interval overlaps first place's, either in
    # first place (its rank interval reaches 1) or with the rank interval that rules it out
    import pandas as pd

    page = pages / "contract_difficulty.html"
    if not page.exists():
        pytest.skip("contract_difficulty not in this build")
    text = _page_text(page)
    start = text.index("The deal alone most often lays")
    most, least = text[start:text.index("Some seat at the table", start)].split("Least often:")
    d = pd.read_csv(pages / "p_dealt.csv").set_index("hand")
    first_most = _named_hands(most.split(":")[0])
    first_least = _named_hands(least.split(".")[0])
    assert first_most and first_least, (most, least)
    overlap_most = set(d.index[d["hi"] >= d.loc[sorted(first_most), "lo"].min()])
    overlap_least = set(d.index[d["lo"] <= d.loc[sorted(first_least), "hi"].max()])
    assert overlap_most <= _named_hands(most), (overlap_most, most)
    assert overlap_least <= _named_hands(least), (overlap_least, least)


# the API reference (pdoc): every page, in one Chromium run ------------------------------------

_CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync"]


def _frame_widths(pages_: list, tmp: Path) -> dict:
    """Each page in a 1280 px frame of one headless Chromium run (a fresh profile): page ->
    ``(scrollWidth, clientWidth)`` of its document; wider than its client means a sideways
    scroll."""
    import tempfile

    frames = "".join(f'<iframe src="{p.as_uri()}" style="width:1280px;height:900px;border:0">'
                     "</iframe>" for p in pages_)
    probe = tmp / "frames.html"
    probe.write_text(
        f"<html><body style='margin:0'>{frames}<script>window.addEventListener('load', "
        "function () {var o = []; document.querySelectorAll('iframe').forEach(function (f) "
        "{var e = f.contentDocument.documentElement; o.push([f.getAttribute('src'), "
        "e.scrollWidth, e.clientWidth]);}); var p = document.createElement('pre'); "
        "p.id = 'kalooki-probe'; p.textContent = JSON.stringify(o); "
        "document.body.appendChild(p);});</script></body></html>", encoding="utf-8")
    with tempfile.TemporaryDirectory(dir=tmp) as profile:
        r = subprocess.run(_CHROMIUM + [f"--user-data-dir={profile}",
                                        "--allow-file-access-from-files",
                                        "--window-size=1400,1000", "--virtual-time-budget=20000",
                                        "--dump-dom", probe.as_uri()],
                           capture_output=True, text=True, timeout=300, check=False)
    m = re.search(r'<pre id="kalooki-probe">(.*?)</pre>', r.stdout, re.S)
    assert m, f"the probe did not run (chromium exit {r.returncode}): {r.stderr[-500:]}"
    import html as _html

    got = {src: (w, c) for src, w, c in json.loads(_html.unescape(m.group(1)))}
    assert len(got) == len(pages_), "some frames did not load"
    return got


def _check_api_width(folder: Path, tmp: Path):
    pages_ = sorted(folder.rglob("*.html"))
    assert len(pages_) >= 20, folder
    wide = {src.split("/api/")[-1]: wc for src, wc in _frame_widths(pages_, tmp).items()
            if wc[0] > wc[1]}
    assert not wide, f"API pages that scroll sideways at 1280 px (scrollWidth, width): {wide}"


@pytest.fixture(scope="module")
def api_pages(tmp_path_factory):
    from kalooki_sim.report import site

    out = tmp_path_factory.mktemp("api")
    site.write_api(out)
    return out / "api"


def test_the_trace_events_are_a_table_in_the_api_reference(api_pages):
    # pdoc printed the rst table of trace's docstring as one paragraph whose rules ran off
    page = (api_pages / "kalooki_sim" / "engine" / "trace.html").read_text(encoding="utf-8")
    assert "<td>joker_move</td>" in page and "<th>fields</th>" in page
    assert "=====" not in page


@needs_chromium
def test_api_reference_fits_1280_px_in_chromium(api_pages, tmp_path):
    _check_api_width(api_pages, tmp_path)


@needs_chromium
def test_published_api_reference_fits_1280_px(tmp_path):
    _check_api_width(Path(report.ROOT) / "reports" / "api", tmp_path)


@needs_chromium
def test_api_width_check_bites_and_the_api_style_wraps(tmp_path):
    from kalooki_sim.report.site import API_CSS

    folder = tmp_path / "api"
    folder.mkdir()
    rule = "=" * 300
    body = f'<main class="pdoc"><div class="docstring"><p>Events {rule} deal</p></div></main>'
    for i in range(20):
        (folder / f"p{i}.html").write_text(f"<html><body><p>fine {i}</p></body></html>")
    (folder / "wide.html").write_text(f"<html><head></head><body>{body}</body></html>")
    with pytest.raises(AssertionError, match="wide.html"):
        _check_api_width(folder, tmp_path)
    (folder / "wide.html").write_text(f"<html><head>{API_CSS}</head><body>{body}</body></html>")
    _check_api_width(folder, tmp_path)
