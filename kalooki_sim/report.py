"""``make report``: execute the notebooks and publish ``reports/``.

The notebooks live in ``notebooks/`` as jupytext ``py:percent`` sources. Each is read with
jupytext, given its parameters (a cell inserted after the one tagged ``parameters``, as
papermill does), executed with nbclient, and exported to a code-free HTML page. ``index.html``
links the pages, charts and tables and records the seed and sizes.

Run ``python -m kalooki_sim.report [--tiny] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import html
import os
import time
from pathlib import Path

NOTEBOOKS = ("contract_difficulty", "call_strategy", "teaching_probability")
ROOT = Path(__file__).resolve().parent.parent
#: each notebook's heading, used as its link text
TITLES = {
    "contract_difficulty": "How hard is each Kalooki contract?",
    "call_strategy": "Is a call worth its penalty card?",
    "teaching_probability": "Counting cards: exact probabilities and simulation side by side",
}

#: the default sizes; the committed report was built with these
DEFAULT = {
    "contract_difficulty": {"hands": 20000, "seed": 2026, "attempt_budget": 1_500_000},
    "call_strategy": {"hands": 20000, "seed": 7, "tournament_games": 1000},
    "teaching_probability": {"deals": 1_000_000, "seed": 11},
}
#: tiny sizes: what the tests run, to prove every notebook executes
TINY = {
    "contract_difficulty": {"hands": 60, "seed": 1, "players": [3, 5],
                            "attempt_budget": 3000},
    "call_strategy": {"hands": 60, "seed": 1, "tournament_games": 20},
    "teaching_probability": {"deals": 3000, "seed": 1},
}


def _inject(nb, params: dict):
    import nbformat

    idx = next((i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {})
                .get("tags", [])), None)
    if idx is None:
        raise ValueError("notebook has no cell tagged 'parameters'")
    src = "# injected parameters\n" + "\n".join(f"{k} = {v!r}" for k, v in params.items())
    cell = nbformat.v4.new_code_cell(src)
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(idx + 1, cell)
    return nb


def run_notebook(name: str, out_dir: Path, params: dict, timeout: int = 1800):
    """Execute notebook ``name`` with ``params``; write ``out_dir/name.html``; return seconds."""
    import jupytext
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    src = ROOT / "notebooks" / f"{name}.py"
    if not src.exists():
        raise FileNotFoundError(f"no notebook source {src}")
    nb = jupytext.read(src)
    nb = _inject(nb, {**params, "out_dir": str(out_dir.resolve())})
    t0 = time.perf_counter()
    env_keep = os.environ.get("TQDM_DISABLE")
    os.environ["TQDM_DISABLE"] = "1"  # no progress bars inside notebooks and reports
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(src.parent)}}).execute()
    finally:
        if env_keep is None:
            os.environ.pop("TQDM_DISABLE", None)
    secs = time.perf_counter() - t0
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    (out_dir / f"{name}.html").write_text(body, encoding="utf-8")
    return secs


def _index(out_dir: Path, params: dict, secs: dict):
    items = []
    for name in params:
        p = ", ".join(f"{k}={v}" for k, v in params[name].items())
        items.append(f'<li><a href="{name}.html">{html.escape(TITLES.get(name, name))}</a> '
                     f"<small>({html.escape(p)}; ran in {secs[name]:.0f} s)</small></li>")
    pngs = sorted(p.name for p in out_dir.glob("*.png"))
    csvs = sorted(p.name for p in out_dir.glob("*.csv"))
    links = lambda files: "".join(  # noqa: E731
        f'<li><a href="{html.escape(f)}">{html.escape(f)}</a></li>' for f in files)
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<title>kalooki_sim report</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto;line-height:1.5}}</style>
</head><body>
<h1>kalooki_sim: Jamaican Kalooki by simulation</h1>
<p>Every figure comes from the notebooks below, executed by <code>make report</code>; every
estimate carries a 95% confidence interval. Rules: <code>kalooki_sim/RULES.md</code>.</p>
<h2>Reports</h2><ul>{''.join(items)}</ul>
<h2>Charts</h2><ul>{links(pngs)}</ul>
<h2>Tables (CSV)</h2><ul>{links(csvs)}</ul>
</body></html>"""
    (out_dir / "index.html").write_text(page, encoding="utf-8")


def build(out_dir="reports", tiny: bool = False, names=NOTEBOOKS) -> dict:
    """Execute the notebooks and write the report into ``out_dir``; return seconds per page."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes = TINY if tiny else DEFAULT
    params = {n: sizes[n] for n in names}
    secs = {}
    for n in names:
        print(f"running {n} {params[n]} ...", flush=True)
        secs[n] = run_notebook(n, out_dir, params[n])
        print(f"  done in {secs[n]:.0f} s", flush=True)
    _index(out_dir, params, secs)
    return secs


def main(argv=None):
    """Command line: ``python -m kalooki_sim.report [--tiny] [--out DIR]``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "reports"))
    ap.add_argument("--tiny", action="store_true", help="tiny sizes (a smoke test)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    build(a.out, tiny=a.tiny)
    print(f"report written to {a.out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
