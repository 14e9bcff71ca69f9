"""Every generated page, from a tiny build (issue 18): tables and charts carry captions,
proportions are percentages with intervals inside [0, 100], the index has its glossary,
limitations and folded file lists, the manifest its run section.

Set ``KALOOKI_REPORT_DIR`` to check an existing build instead of making one.
"""

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kalooki_sim.report import publish as report


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


def test_index_has_glossary_limitations_and_folded_files(pages):
    index = (pages / "index.html").read_text(encoding="utf-8")
    for term in report.GLOSSARY:
        slug = term.replace(" ", "-").lower()
        assert f'id="g-{slug}"' in index
    assert index.count('class="term"') >= 3  # terms linked from their first use
    assert "Limitations." in index and "not people" in index
    files = index[index.index("<h2>Files</h2>"):index.index('<h2 id="glossary">')]
    assert "<details>" in files and files.count(".csv</a>") >= 1
    assert index.index("Headline findings") < index.index("Limitations.")


def test_glossary_links_first_use_only_outside_code_and_links():
    done = set()
    out = report._link_terms("<p>A <code>call</code> then a call, another call; "
                             '<a href="x">void</a> and a void.</p>', done)
    assert out.count('href="#g-call"') == 1 and "<code>call</code>" in out
    assert out.count('href="#g-void"') == 1 and '<a href="x">void</a>' in out
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
