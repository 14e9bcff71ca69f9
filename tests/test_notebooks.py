"""Every notebook executes at a tiny size, so a broken notebook fails CI."""

import re

import pytest

from kalooki_sim.report import publish as report


@pytest.mark.parametrize("name", report.NOTEBOOKS)
def test_notebook_executes_tiny(name, tmp_path):
    secs = report.run_notebook(name, tmp_path, report.TINY[name])
    page = (tmp_path / f"{name}.html").read_text(encoding="utf-8")
    assert secs > 0 and "Traceback" not in page
    assert report.TITLES[name] in page  # the story ran, not just an empty shell
    assert list(tmp_path.glob("*.png")) and list(tmp_path.glob("*.csv"))
    assert 'class="jp-RenderedText jp-OutputArea-output" data-mime-type="application/' \
           'vnd.jupyter.stderr"' not in page, "the notebook wrote warnings"
    # every chart the page refers to is embedded in it and its file exists
    refs = set(re.findall(r'href="([^"]+\.png)"', page))
    embedded = set(re.findall(r'data-file="([^"]+\.png)"><img [^>]*src="data:image/png;base64,',
                              page))
    assert refs and refs == embedded
    for f in refs:
        assert (tmp_path / f).is_file()
    # readable tables: no pandas index column
    assert "<th></th>" not in page and "dataframe kt" in page
    assert (tmp_path / f"{name}.headlines.json").is_file()


def test_index_links_every_page(tmp_path):
    report._index(tmp_path, {n: report.TINY[n] for n in report.NOTEBOOKS},
                  {n: 1.0 for n in report.NOTEBOOKS})
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    for n in report.NOTEBOOKS:
        assert f'href="{n}.html"' in index
