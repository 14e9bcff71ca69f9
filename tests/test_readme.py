"""Every ```python block of README.md runs as pasted: in order, in one namespace.

A block whose first line is a ``# long: about ...`` comment is skipped (the README says how
long it takes). Each block runs statement by statement (a statement may span lines), in a
temporary directory, so a failure names the block's line in README.md. Time is not asserted
here (on a shared machine a wall-clock limit fails for the load, not the code; speed is
``make bench``'s business).
"""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
LONG = re.compile(r"^#\s*long:", re.IGNORECASE)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(first line number in the file, source) of every ```python block."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start, body = i + 2, []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            blocks.append((start, "\n".join(body) + "\n"))
        i += 1
    return blocks


def test_the_readme_has_python_blocks_and_marks_long_ones():
    blocks = python_blocks(README.read_text())
    assert len(blocks) >= 5
    assert any(LONG.match(src.lstrip()) for _, src in blocks)


@pytest.mark.slow
def test_every_readme_python_block_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    ns: dict = {"__name__": "__readme__"}
    ran = 0
    for first, src in python_blocks(README.read_text()):
        if LONG.match(src.lstrip()):
            continue
        for node in ast.parse(src).body:
            line = first + node.lineno - 1
            code = compile(ast.Module([node], type_ignores=[]), f"README.md:{line}", "exec")
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(code, ns)  # noqa: S102 - the README's own examples
            except Exception as e:  # pragma: no cover - the failure message is the point
                pytest.fail(f"README.md line {line}: {type(e).__name__}: {e}")
        ran += 1
    assert ran >= 4
