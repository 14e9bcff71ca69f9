"""The published report: reproducible bytes, provenance, headline findings, inline charts."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kalooki_sim.report import publish as report

NAME = "teaching_probability"  # the quickest page


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    report.build(out, tiny=True, names=(NAME,))
    return out


def test_pages_registry_is_one_dict_per_notebook():
    for name, page in report.PAGES.items():
        assert set(page) == {"title", "default", "tiny"}
        assert (report.ROOT / "notebooks" / f"{name}.py").is_file()
        assert "seed" in page["default"] and "seed" in page["tiny"]


def test_a_second_run_writes_the_same_bytes(built, tmp_path):
    report.build(tmp_path, tiny=True, names=(NAME,))
    files = sorted(f.relative_to(built) for f in built.rglob("*") if f.is_file())
    assert files == sorted(f.relative_to(tmp_path) for f in tmp_path.rglob("*") if f.is_file())
    assert Path("api/kalooki_sim.html") in files  # the site too (issue 30)
    for name in files:
        f = built / name
        if f.name == ".timings.log":
            continue
        if f.name == "manifest.json":  # all but its run section (wall time, machine)
            a, b = (json.loads(x.read_text(encoding="utf-8")) for x in (f, tmp_path / name))
            a.pop("run"), b.pop("run")
            assert a == b
            continue
        assert (tmp_path / name).read_bytes() == f.read_bytes(), name


def test_manifest_records_provenance_and_timings_only_in_its_run_section(built):
    m = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    for key in ("version", "git_commit", "python", "numba", "pandas", "date", "command"):
        assert m[key]
    assert m["notebooks"][NAME]["parameters"] == report.TINY[NAME]
    run = m.pop("run")
    assert list(run["wall_seconds"]) == [NAME] and run["wall_seconds"][NAME] > 0
    assert "seconds" not in json.dumps(m)
    index = (built / "index.html").read_text(encoding="utf-8")
    assert "wall_seconds" not in index  # the index stays the same bytes run after run
    assert (built / ".gitignore").read_text() == ".timings.log\n"


def test_index_opens_with_computed_headlines_and_provenance(built):
    index = (built / "index.html").read_text(encoding="utf-8")
    heads = json.loads((built / f"{NAME}.headlines.json").read_text(encoding="utf-8"))
    assert heads
    first = index.index("Headline findings")
    assert first < index.index("The pages") < index.index("Provenance")
    unlinked = re.sub(r'<a class="term" href="[^"]*">(.*?)</a>', r"\1", index)  # glossary links
    assert report._md_inline(heads[0]) in unlinked
    m = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert m["git_commit"] in index and m["numba"] in index
    for f in re.findall(r'href="([^"#]+)"', index):
        assert (built / f).is_file(), f


def test_every_chart_of_every_page_is_embedded_and_on_disk(built):
    for page in built.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        refs = set(re.findall(r'href="([^"]+\.png)"', text))
        if page.name == "index.html":
            assert all((built / f).is_file() for f in refs)
            continue
        embedded = set(re.findall(r'data-file="([^"]+\.png)"><img [^>]*src="data:image/png',
                                  text))
        assert refs == embedded and all((built / f).is_file() for f in refs)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium on this machine")
def test_pages_render_in_a_real_browser(built, tmp_path):
    shot = tmp_path / "page.png"
    r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        f"--screenshot={shot}", "--window-size=1000,2000",
                        (built / f"{NAME}.html").as_uri()], capture_output=True, timeout=120,
                       check=False)
    assert r.returncode == 0 and shot.stat().st_size > 20_000
    assert Path(shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_html_shows_its_caption_whatever_pandas_writes():
    """pandas 3 no longer writes ``border="0"``: the caption must not depend on it (issue 18)."""
    import pandas as pd

    from kalooki_sim.report import plots

    html = plots.table_html(pd.DataFrame({"hand": [1, 2]}), caption="Hands & more")
    assert html.count("<caption") == 1 and "Hands &amp; more</caption>" in html
    assert html.index("<caption") > html.index("<table")
    assert "<caption" not in plots.table_html(pd.DataFrame({"hand": [1]}))


@pytest.mark.parametrize("out", ["/proc/nope", "FILE"])
def test_the_module_refuses_an_out_it_cannot_write_in_one_line(tmp_path, capsys, out):
    """``python -m kalooki_sim.report --out /proc/nope`` (or a file) ends in one line naming
    --out and exit code 2, before any notebook runs, not in a traceback (issue 30)."""
    from kalooki_sim.report import publish

    if out == "FILE":
        out = str(tmp_path / "a_file")
        Path(out).write_text("x")
    with pytest.raises(SystemExit) as e:
        publish.main(["--out", out, "--tiny"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--out" in err and "Traceback" not in err
