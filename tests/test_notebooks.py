"""Every notebook executes at a tiny size, so a broken notebook fails CI."""

import pytest

from kalooki_sim import report


@pytest.mark.parametrize("name", report.NOTEBOOKS)
def test_notebook_executes_tiny(name, tmp_path):
    secs = report.run_notebook(name, tmp_path, report.TINY[name])
    page = (tmp_path / f"{name}.html").read_text(encoding="utf-8")
    assert secs > 0 and "Traceback" not in page
    assert report.TITLES[name] in page  # the story ran, not just an empty shell
    assert list(tmp_path.glob("*.png")) and list(tmp_path.glob("*.csv"))


def test_index_links_every_page(tmp_path):
    report._index(tmp_path, {n: report.TINY[n] for n in report.NOTEBOOKS},
                  {n: 1.0 for n in report.NOTEBOOKS})
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    for n in report.NOTEBOOKS:
        assert f'href="{n}.html"' in index
