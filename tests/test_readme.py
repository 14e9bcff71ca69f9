"""Every ```python block of README.md and of the guide pages (``kalooki_sim/report/guide/*.md``,
published as ``reports/guide-*.html``) runs as pasted: in order, in one namespace per file.

A block whose first line is a ``# long: about ...`` comment is skipped (the page says how
long it takes). Each block runs statement by statement (a statement may span lines), in a
temporary directory, so a failure names the block's line in its file. Time is not asserted
here (on a shared machine a wall-clock limit fails for the load, not the code; speed is
``make bench``'s business). Every ``kalooki ...`` line of their ```sh blocks parses with the
command's own parser (a sub-command or flag that does not exist fails), and the README stays
a front door: at most 250 lines, a ``## Performance`` section of at most 40.
"""

from __future__ import annotations

import ast
import re
import shlex
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDE = sorted((ROOT / "kalooki_sim" / "report" / "guide").glob("*.md"))
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


def sh_commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of every ``kalooki ...`` command in the ```sh blocks: lines
    joined at a trailing backslash, comments dropped, ``;`` separating commands."""
    out, lines, inside = [], text.splitlines(), False
    i = 0
    while i < len(lines):
        line, start = lines[i], i + 1
        if line.strip().startswith("```"):
            inside = line.strip() == "```sh"
        elif inside:
            while line.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line.rstrip()[:-1] + " " + lines[i]
            for cmd in re.split(r"\s;\s", line.split("  #")[0]):
                cmd = re.sub(r"^(?:\.venv/bin/)?kalooki\s", "kalooki ", cmd.strip())
                if cmd.startswith("kalooki "):
                    out.append((start, cmd))
        i += 1
    return out


def _runnable(path: Path) -> list[tuple[int, str]]:
    return [(n, src) for n, src in python_blocks(path.read_text(encoding="utf-8"))
            if not LONG.match(src.lstrip())]


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines"
    assert lines.count("## Performance") == 1
    start = lines.index("## Performance")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    assert end - start <= 40, f"the Performance section has {end - start} lines"
    assert "reports/performance.html" in "\n".join(lines[start:end])
    for needed in ("make test", "make report", "source .venv/bin/activate", ".venv/bin/kalooki",
                   "reports/index.html", "reports/glossary.html", "reports/rules.html",
                   "reports/api/index.html", "reports/call_chart.png"):
        assert needed in text, needed
    assert _runnable(README), "the README shows no Python that runs"


def test_the_guide_pages_have_python_blocks_and_mark_long_ones():
    blocks = [b for f in GUIDE for b in python_blocks(f.read_text(encoding="utf-8"))]
    assert len(GUIDE) >= 7 and len(blocks) >= 5
    assert any(LONG.match(src.lstrip()) for _, src in blocks)


def test_sh_commands_are_found_and_joined():
    text = "```sh\nkalooki a --x 1 \\\n    --y 2   # note\n.venv/bin/kalooki b ; kalooki c\n```\n"
    assert sh_commands(text) == [(2, "kalooki a --x 1      --y 2"), (4, "kalooki b"),
                                 (4, "kalooki c")]


@pytest.mark.parametrize("doc", [README] + GUIDE, ids=lambda p: p.name)
def test_every_kalooki_command_shown_parses(doc):
    from kalooki_sim.cli import build_parser

    parsed = 0
    for line, cmd in sh_commands(doc.read_text(encoding="utf-8")):
        argv = shlex.split(cmd)[1:]
        if "--help" in argv or not argv:
            continue
        try:
            build_parser().parse_args(argv)
        except SystemExit:
            pytest.fail(f"{doc.name} line {line}: {cmd!r} does not parse")
        parsed += 1
    assert parsed >= 3 or doc != README


@pytest.mark.slow
@pytest.mark.parametrize("doc", [d for d in [README] + GUIDE if _runnable(d)],
                         ids=lambda p: p.name)
def test_every_python_block_runs(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    ns: dict = {"__name__": "__readme__"}
    ran = 0
    for first, src in _runnable(doc):
        for node in ast.parse(src).body:
            line = first + node.lineno - 1
            code = compile(ast.Module([node], type_ignores=[]), f"{doc.name}:{line}", "exec")
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(code, ns)  # noqa: S102 - the page's own examples
            except Exception as e:  # pragma: no cover - the failure message is the point
                pytest.fail(f"{doc.name} line {line}: {type(e).__name__}: {e}")
        ran += 1
    assert ran == len(_runnable(doc)) >= 1
