"""The published site around the notebooks (issue 30): guide pages, glossary, rules, API
reference and performance record, each page linked to the index and the glossary.

The builder runs on a temporary folder (without the notebooks); the committed ``reports/``
is checked too, so a page added without the bar, or a stale build, fails.
"""

import re
from pathlib import Path

import pytest

from kalooki_sim.report import publish, site
from kalooki_sim.report.glossary import GLOSSARY, slug

ROOT = Path(__file__).resolve().parent.parent

#: the words issue 30 found without a glossary entry, and the ones the index had
REQUIRED_TERMS = ["rule ids", "V-numbers", "void", "upcard", "duplicate format", "shanten",
                  "ukeire", "Holm", "Wilson", "Kaplan–Meier", "greedy", "expert", "call-k",
                  "pp", "rank interval", "restricted mean", "Tuluki", "call", "lay off",
                  "open", "censored", "paired"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    # a notebook page as nbconvert writes it, to get the bar and the term links
    (out / "rule_sets.html").write_text(
        '<!DOCTYPE html><html><head><title>x</title><style>.open{}</style></head>'
        '<body class="jp-Notebook"><p>A void deal; a call.</p><code>void</code></body></html>',
        encoding="utf-8")
    site.build(out, api=False)
    return out


def _links(page: Path) -> set:
    return set(re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8")))


def _links_home(page: Path, root: Path) -> bool:
    """Whether ``page`` links the site's index.html and glossary.html (by relative path)."""
    prefix = "../" * (len(page.relative_to(root).parts) - 1)
    links = _links(page)
    return f"{prefix}index.html" in links and f"{prefix}glossary.html" in links


def test_the_builder_writes_every_kind_of_page(built):
    for stem in site.GUIDE:
        assert (built / f"guide-{stem}.html").is_file(), stem
    for name in ("glossary.html", "rules.html", "performance.html"):
        assert (built / name).is_file(), name
    tour = (built / "guide-tour.html").read_text(encoding="utf-8")
    assert "<h1" in tour and "<pre><code" in tour and "<table>\n<caption>" in tour


def test_every_page_links_the_index_and_the_glossary(built):
    pages = sorted(built.rglob("*.html"))
    assert len(pages) >= len(site.GUIDE) + 4
    for page in pages:
        assert _links_home(page, built), page.name


def test_glossary_has_every_listed_term_with_its_anchor(built):
    text = (built / "glossary.html").read_text(encoding="utf-8")
    for term in REQUIRED_TERMS:
        assert term in GLOSSARY, term
        assert f'<dt id="g-{slug(term)}">' in text, term
    assert len(set(map(slug, GLOSSARY))) == len(GLOSSARY)  # no two terms share an anchor
    for term, (pattern, definition) in GLOSSARY.items():
        assert len(definition) > 30 and re.compile(pattern), term


def test_glossary_patterns_find_their_words():
    for term, word in [("rule ids", "see R9."), ("Kaplan–Meier", "a Kaplan-Meier curve"),
                       ("call-k", "call-2 players"), ("pp", "+2.0 pp more"),
                       ("duplicate format", "in duplicate format"), ("upcard", "the upcard")]:
        assert re.search(rf"\b({GLOSSARY[term][0]})\b", word, re.I), term


def test_guide_pages_link_terms_to_the_glossary(built):
    page = (built / "guide-players.html").read_text(encoding="utf-8")
    linked = re.findall(r'class="term" href="glossary.html#g-([\w-]+)"', page)
    assert {"greedy", "expert"} <= set(linked)
    assert len(linked) == len(set(linked))  # first use only


def test_rules_page_is_rules_md_with_an_anchor_per_rule(built):
    text = (built / "rules.html").read_text(encoding="utf-8")
    for n in range(1, 15):
        assert f'id="r{n}"' in text, n
    for anchor in ("c", "v", "c1", "c3", "v6", "v9", "v9-1"):
        assert f'id="{anchor}"' in text, anchor
    assert "Tuluki" in text and "<table>" in text


def test_rule_ids_link_to_their_rule_and_every_anchor_exists(built):
    rules = (built / "rules.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="([^"]+)"', rules))
    seen = set()
    for page in built.glob("*.html"):
        seen |= set(re.findall(r'href="rules.html#([^"]+)"', page.read_text(encoding="utf-8")))
    assert {"r9", "r13", "c3", "v9"} <= seen
    assert seen <= anchors, seen - anchors
    advisor = (built / "guide-advisor.html").read_text(encoding="utf-8")
    assert '<a href="rules.html#r9">R9</a>' in advisor


def test_notebook_pages_get_the_bar_once_and_keep_their_text(built):
    page = (built / "rule_sets.html").read_text(encoding="utf-8")
    assert page.count(site.NAV_MARK) == 1 and 'href="glossary.html"' in page
    assert "<p>A void deal; a call.</p><code>void</code>" in page  # the notebook's words
    site.nav_notebook_pages(built)
    assert (built / "rule_sets.html").read_text(encoding="utf-8") == page
    assert (built / "guide-tour.html") not in site.nav_notebook_pages(built)


def test_the_index_links_only_its_own_terms():
    done = set()
    out = publish._link_terms("<p>a greedy player, a void deal</p>", done)
    assert 'href="glossary.html#g-void"' in out and "g-greedy" not in out
    assert set(publish.INDEX_TERMS) <= set(GLOSSARY)


def test_with_nav_and_link_terms_are_idempotent():
    page = "<html><body><p>a void and a call</p></body></html>"
    once = site.with_nav(page, "../")
    assert site.with_nav(once, "../") == once and 'href="../index.html"' in once
    linked = site.link_terms("<p>a void and a call, then a void</p>")
    assert site.link_terms(linked) == linked and linked.count('class="term"') == 2
    with pytest.raises(ValueError, match="body"):
        site.with_nav("<p>no body</p>")


def test_performance_page_without_and_with_the_record(built, tmp_path):
    text = (built / "performance.html").read_text(encoding="utf-8")
    assert "No record yet" in text and "Diary (before the record)" in text
    assert "10:47 wall" in text  # the README's dated paragraphs, verbatim
    (tmp_path / "performance.csv").write_text(
        "commit,date,cpu,threads,load,figure,value\n"
        "abc1234,2026-12-03,x86_64,2,0.1,engine greedy hands/s,5669\n"
        "def5678,2026-12-04,x86_64,2,3.9,engine expert hands/s,1154\n", encoding="utf-8")
    (tmp_path / "performance.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    site.write_performance(tmp_path)
    text = (tmp_path / "performance.html").read_text(encoding="utf-8")
    assert "No record yet" not in text and '<img src="performance.png"' in text
    assert "<td>def5678</td>" in text and "<td>engine expert hands/s</td>" in text
    assert text.index("<table>") < text.index("Diary (before the record)")
    assert text.count("<tr>") == 3 + text.count("<tr>", text.index("Diary"))


def test_index_links_the_site_pages_and_every_link_resolves(built):
    params = {n: publish.TINY[n] for n in publish.NOTEBOOKS}
    publish._index(built, params, manifest={
        "version": "0", "git_commit": "abc", "git_dirty": False, "date": "2026-12-02",
        "command": "x", "python": "3", "numba": "0", "numpy": "0", "pandas": "0", "scipy": "0",
        "matplotlib": "0"})
    index = (built / "index.html").read_text(encoding="utf-8")
    for href in ["rules.html", "glossary.html", "api/index.html", "performance.html"] + [
            f"guide-{k}.html" for k in site.GUIDE]:
        assert f'href="{href}"' in index, href
    for page in built.glob("*.html"):
        for href in _links(page):
            target = href.split("#")[0]
            if target and not target.startswith(("http", "api/", "../")) and not \
                    target.endswith((".png", ".csv", ".json")) and target not in (
                    f"{n}.html" for n in publish.NOTEBOOKS):
                assert (built / target).is_file(), f"{page.name} links {href}"


def test_api_reference_is_generated_by_pdoc(tmp_path):
    files = site.write_api(tmp_path)
    api = tmp_path / "api"
    for name in ("index.html", "kalooki_sim.html", "kalooki_sim/analysis.html",
                 "kalooki_sim/studies/advisor.html", "kalooki_sim/engine/policies.html"):
        assert (api / name).is_file(), name
    assert not any("_kernels" in str(f) or "/_" in str(f.relative_to(api)) for f in files)
    for f in files:
        assert _links_home(f, tmp_path), f
    for f in files:  # the same bytes in any checkout
        assert str(ROOT) not in f.read_text(encoding="utf-8"), f
    assert "&lt;repository&gt;/kalooki_sim/RULES.md" in (
        api / "kalooki_sim" / "report" / "site.html").read_text(encoding="utf-8")
    text = (api / "kalooki_sim" / "studies" / "advisor.html").read_text(encoding="utf-8")
    assert 'id="advise"' in text
    assert "Should I call (or take) this card?" in text
    index = (api / "index.html").read_text(encoding="utf-8")
    assert 'href="kalooki_sim/analysis.html"' in index


def test_the_committed_site_is_built_and_linked():
    reports = ROOT / "reports"
    pages = sorted(p for p in reports.rglob("*.html"))
    names = {p.relative_to(reports).as_posix() for p in pages}
    want = {"index.html", "glossary.html", "rules.html", "performance.html", "api/index.html"}
    want |= {f"guide-{k}.html" for k in site.GUIDE} | {f"{n}.html" for n in publish.NOTEBOOKS}
    assert want <= names, want - names
    for page in pages:
        assert _links_home(page, reports), page.relative_to(reports)


def test_the_published_site_is_the_one_its_sources_make(tmp_path):
    """``make site`` on a fresh clone changes nothing under reports/: the guide, glossary,
    rules and API pages committed there are the ones the sources (markdown, docstrings, RULES)
    make now. A docstring changed without the site rebuilt fails here, naming the pages."""
    import filecmp
    import shutil
    import subprocess
    import sys

    from kalooki_sim.report import site

    published = site.ROOT / "reports"
    out = tmp_path / "reports"
    shutil.copytree(published, out)
    r = subprocess.run([sys.executable, "-m", "kalooki_sim.report.site", "--out", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    stale = []
    for f in sorted(out.rglob("*")):
        old = published / f.relative_to(out)
        if f.is_file() and not (old.is_file() and filecmp.cmp(f, old, shallow=False)):
            stale.append(str(f.relative_to(out)))
    assert not stale, f"reports/ is stale: run `make site` and commit these pages: {stale}"
