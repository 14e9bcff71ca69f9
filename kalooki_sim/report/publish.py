"""``make report``: execute the notebooks and publish ``reports/``.

The notebooks live in ``notebooks/`` as jupytext ``py:percent`` sources. Each is read with
jupytext, given its parameters (a cell inserted after the one tagged ``parameters``, as
papermill does), executed with nbclient, and exported to a code-free HTML page whose charts are
inline. ``index.html`` opens with the headline findings the notebooks computed (each writes
``<name>.headlines.json``), links the pages, charts and tables and states the provenance;
``manifest.json`` holds the same provenance for machines, plus a ``run`` section: wall time
per notebook, threads, CPU model and whether Numba's cache was warm. Then
:func:`kalooki_sim.report.site.build` writes the rest of the site: guide pages, glossary, rules,
API reference and performance record, and a bar on every page that links them.

The products are reproducible: cell ids are fixed, execution metadata is dropped and PNGs carry
no timestamp, so running the report twice changes nothing in git except the ``run`` section of
``manifest.json`` (how long this run took, on what). Timings also go to
``reports/.timings.log`` (not committed).

Run ``python -m kalooki_sim.report [--tiny] [--out DIR] [--only NAME ...]``.

To add a notebook: put ``notebooks/<name>.py`` (with a cell tagged ``parameters``) and add
one entry to :data:`PAGES` (title, default and tiny parameters).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import html
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .._lib import check_writable_dir
from . import glossary as _glossary

ROOT = Path(__file__).resolve().parents[2]

#: every page of the report: its heading (the link text), its default parameters (the committed
#: report was built with these) and tiny ones (what the tests run, to prove it executes)
PAGES = {
    "contract_difficulty": {
        "title": "How hard is each Kalooki contract?",
        "default": {"hands": 4000, "hands_other": 1000, "seed": 2026,
                    "attempt_budget": 100_000, "min_scored": 30, "dealt_deals": 250_000,
                    "n_boot": 200},
        "tiny": {"hands": 60, "hands_other": 40, "seed": 1, "players": [3, 5],
                 "attempt_budget": 3000, "min_scored": 10, "dealt_deals": 20_000, "n_boot": 20},
    },
    "call_strategy": {
        "title": "Is a call worth its penalty card?",
        "default": {"hands": 3000, "seed": 7, "tournament_games": 300, "game_games": 300,
                    "n_boot": 400},
        "tiny": {"hands": 60, "seed": 1, "tournament_games": 20, "game_games": 10,
                 "n_boot": 50},
    },
    "should_i_call": {
        "title": "Should I call this card, now? A call chart per contract",
        # sample: the share of each deal's decisions branched, per contract, so that 2,000
        # deals of every contract fit the page's time (about 9 s of branching per contract)
        "default": {"deals": 2000, "sample": {1: 0.15, 2: 0.02, 3: 0.012, 4: 0.03, 5: 0.15,
                                              6: 0.02, 7: 0.02, 8: 0.012, 9: 0.025},
                    "min_deals": 30, "policy_hands": 400, "rollouts": 2000, "seed": 2027},
        "tiny": {"deals": 4, "sample": 1.0, "policy_hands": 60,
                 "rollouts": 100, "seed": 1},
    },
    "rule_sets": {
        "title": "Rule sets side by side: what the table arguments change",
        "default": {"deals": 1200, "seed": 2028},
        "tiny": {"deals": 30, "seed": 1},
    },
    "teaching_probability": {
        "title": "Counting cards: exact probabilities and simulation side by side",
        "default": {"deals": 1_000_000, "seed": 11, "paths": 200},
        "tiny": {"deals": 3000, "seed": 1, "paths": 20},
    },
}
NOTEBOOKS = tuple(PAGES)
TITLES = {k: v["title"] for k, v in PAGES.items()}
DEFAULT = {k: v["default"] for k, v in PAGES.items()}
TINY = {k: v["tiny"] for k, v in PAGES.items()}
#: the command ``make report`` runs (recorded in the manifest)
COMMAND = "python -m kalooki_sim.report"


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


def _stable(nb):
    """Fixed cell ids, no execution metadata or counts: the same inputs give the same bytes."""
    for i, c in enumerate(nb.cells):
        c["id"] = f"cell-{i}"
        c.metadata.pop("execution", None)
        c.metadata.pop("ExecuteTime", None)
        if c.cell_type == "code":
            c.execution_count = None
            for o in c.get("outputs", []):
                if "execution_count" in o:
                    o["execution_count"] = None
    nb.metadata.pop("widgets", None)
    return nb


def _stderr(nb) -> list[str]:
    """Text a notebook wrote to stderr (warnings): the report prints it, the tests refuse it."""
    return [o.get("text", "") for c in nb.cells for o in c.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("name") == "stderr"]


def run_notebook(name: str, out_dir: Path, params: dict, timeout: int = 3600) -> float:
    """Execute notebook ``name`` with ``params``; write ``out_dir/name.html``; return seconds.

    The kernel talks over IPC sockets in a private temporary directory (no TCP, so no
    transport warning), with progress bars off. Raises ``RuntimeError`` naming the cell if the
    notebook fails; returns the wall time.
    """
    import jupytext
    from jupyter_client import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from nbconvert import HTMLExporter

    src = ROOT / "notebooks" / f"{name}.py"
    if not src.exists():
        raise FileNotFoundError(f"no notebook source {src}")
    out_dir = Path(out_dir)
    nb = jupytext.read(src)
    nb = _stable(_inject(nb, {**params, "out_dir": str(out_dir.resolve())}))
    # the kernel's own environment (not ours: two notebooks may run at once): no progress
    # bars inside notebooks and reports, no debugger notice on 3.11+
    env = {**os.environ, "TQDM_DISABLE": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kalooki-kernel-") as tmp:
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(tmp) / "kernel"))
        client = NotebookClient(nb, km=km, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(src.parent)}})
        try:
            client.execute(env=env)
        except CellExecutionError as e:
            raise RuntimeError(f"notebook {name} failed:\n{e}") from None
        finally:  # a kernel we started is ours to stop, with its client's sockets
            if getattr(client, "kc", None) is not None:
                client.kc.stop_channels()
            if km.has_kernel:
                km.shutdown_kernel(now=False)
            km.context.destroy(linger=0)
    secs = time.perf_counter() - t0
    nb = _stable(nb)
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    body = body.replace("<title>Notebook</title>",
                        f"<title>{html.escape(PAGES.get(name, {}).get('title', name))}</title>")
    (out_dir / f"{name}.html").write_text(body, encoding="utf-8")
    err = _stderr(nb)
    if err:
        print(f"  {name} wrote to stderr: {' | '.join(e.strip() for e in err)[:500]}",
              file=sys.stderr, flush=True)
    return secs


# -- provenance ------------------------------------------------------------------------------


def _git(*args) -> str:
    try:
        r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


def provenance(params: dict, command: str = COMMAND) -> dict:
    """What made the report: versions, git commit (the last one that changed anything outside
    ``reports/``), whether the sources had uncommitted changes, date (UTC day), command and
    every notebook's parameters (sizes and seeds). No timings: they change on every run."""
    import matplotlib
    import numba
    import numpy
    import pandas
    import scipy

    from .._version import __version__

    # the last commit that changed the sources (not the products in reports/): committing a
    # freshly made report must not make the next run's provenance differ
    commit = _git("log", "-1", "--format=%H", "--", ".", ":(exclude)reports")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no", "--", ".",
                      ":(exclude)reports"))
    return {
        "package": "kalooki_sim",
        "version": __version__,
        "git_commit": commit or "unknown",
        "git_dirty": dirty,
        "date": _dt.datetime.now(_dt.UTC).date().isoformat(),
        "command": command,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "scipy": scipy.__version__,
        "matplotlib": matplotlib.__version__,
        "notebooks": {n: {"title": TITLES.get(n, n), "parameters": p}
                      for n, p in params.items()},
    }


def cpu_model() -> str:
    """The processor's model name from ``/proc/cpuinfo`` (the platform's name where there is
    none), for the machine a measurement was made on."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def numba_cache_warm() -> bool:
    """Whether Numba's on-disk cache holds every kernel module, newer than its source: each
    ``_kernels/*.py`` with a ``cache=True`` kernel has an index file (``.nbi``) in its
    ``__pycache__`` (or under ``NUMBA_CACHE_DIR``) at least as new as the source."""
    pkg = ROOT / "kalooki_sim"
    extra = os.environ.get("NUMBA_CACHE_DIR")
    for src in sorted(pkg.rglob("_kernels/*.py")):
        if not re.search(r"^\s*@\S*jit\([^)]*cache=True", src.read_text(encoding="utf-8"),
                         re.M):
            continue
        where = [src.parent / "__pycache__"]
        if extra:
            where += [q for q in Path(extra).rglob("__pycache__")] + [Path(extra)]
        idx = [f for d in where if d.is_dir() for f in d.glob(f"{src.stem}.*.nbi")]
        if not idx or max(f.stat().st_mtime for f in idx) < src.stat().st_mtime:
            return False
    return True


def run_info(secs: dict, cache_warm: bool) -> dict:
    """The ``run`` section of ``manifest.json``: what this run took, on what (changes with
    every run, unlike the rest of the manifest)."""
    import numba

    return {"wall_seconds": {k: round(float(v), 1) for k, v in secs.items()},
            "threads": int(numba.config.NUMBA_NUM_THREADS),
            "cpu": cpu_model(), "cpus": os.cpu_count(),
            "numba_cache_warm": bool(cache_warm)}


# -- the index -------------------------------------------------------------------------------


_CSS = """body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;
line-height:1.5;color:#222}h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em}
li{margin:0.3em 0}h3{font-size:1.05em;margin:1em 0 0.2em}.prov{font-size:0.85em;color:#555}
code{font-size:0.95em}
table.prov td{padding:1px 8px 1px 0;vertical-align:top}
dl.glossary dt{font-weight:bold;margin-top:0.4em}dl.glossary dd{margin-left:1.5em}
a.term{color:inherit;text-decoration:underline dotted}"""


#: the site's glossary (kept in :mod:`kalooki_sim.report.glossary`; ``glossary.html``)
GLOSSARY = _glossary.GLOSSARY

LIMITS = ("<p><strong>Limitations.</strong> The players are scripted policies (greedy, "
          "never-call, call-k, expert), not people: people bluff, misread and adapt, and "
          "the numbers describe these policies. Tables have four players unless a page says "
          "otherwise, and use the card's 108-card pack unless it says so. Pairing (playing two "
          "ways on the same deals) removes the luck of the deal that both ways share, not "
          "the differences that follow once play diverges (later draws and the other seats' "
          "choices change), nor the chance that a call changes which deal is scored (voids); "
          "intervals cover the simulation's noise only, not whether the rules or policies "
          "match a real table.</p>")


#: the terms the index links (its own words; the glossary page has every term)
INDEX_TERMS = ("call", "lay off", "void", "open", "censored", "paired", "Holm")


def _link_terms(fragment: str, done: set, target: str = "glossary.html") -> str:
    """Link the first use of each of :data:`INDEX_TERMS` in ``fragment`` (HTML) to its entry
    in ``target``, the glossary page; ``done`` holds the terms linked earlier on the page
    (updated). Text inside links, code, headings and captions is left alone."""
    return _glossary.link_terms(fragment, done, target, terms=INDEX_TERMS)


def _md_inline(text: str) -> str:
    """Escape, then the little markdown the headlines use: **bold** and `code`."""
    t = html.escape(text)
    t = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def _index(out_dir: Path, params: dict, secs: dict | None = None, manifest: dict | None = None):
    """Write ``index.html``: headline findings, the pages, charts and tables, provenance.

    ``secs`` is accepted for compatibility and not written (timings would change the page on
    every run).
    """
    from . import site

    out_dir = Path(out_dir)
    manifest = manifest or provenance(params)
    heads = []
    for name in params:
        f = out_dir / f"{name}.headlines.json"
        lines = json.loads(f.read_text(encoding="utf-8")) if f.exists() else []
        if lines:
            heads.append(f'<h3><a href="{name}.html">{html.escape(TITLES.get(name, name))}'
                         "</a></h3><ul>" + "".join(f"<li>{_md_inline(t)}</li>" for t in lines)
                         + "</ul>")
    items = []
    for name in params:
        p = ", ".join(f"{k}={v:,}" if isinstance(v, int) and "seed" not in k and v >= 10_000
                      else f"{k}={v}" for k, v in params[name].items())
        items.append(f'<li><a href="{name}.html">{html.escape(TITLES.get(name, name))}</a>'
                     f" <small>({html.escape(p)})</small></li>")
    pngs = sorted(p.name for p in out_dir.glob("*.png"))
    csvs = sorted(p.name for p in out_dir.glob("*.csv"))
    links = lambda files: "".join(  # noqa: E731
        f'<li><a href="{html.escape(f)}">{html.escape(f)}</a></li>' for f in files)
    done: set = set()
    intro = _link_terms(
        "<p>Simulated tables of scripted players; every number below was computed by the "
        "notebooks from this run, with its 95% confidence interval in brackets (the deal, or "
        "the sequence of deals, is the unit). \"Most\" and \"least\" are said only where a "
        "rank interval allows it. Terms are explained in the "
        '<a href="glossary.html">glossary</a>; the rules are on <a href="rules.html">their '
        "own page</a>.</p>", done)
    heads = [_link_terms(h, done) for h in heads]
    limits = _link_terms(LIMITS, done)
    m = manifest
    prov_rows = [("package", f"kalooki_sim {m['version']}"),
                 ("git commit of the sources", m["git_commit"] + (
                     " (with uncommitted changes)" if m["git_dirty"] else "")),
                 ("date (UTC)", m["date"]), ("command", m["command"]),
                 ("Python / numba / numpy / pandas / scipy / matplotlib",
                  " / ".join(m[k] for k in ("python", "numba", "numpy", "pandas", "scipy",
                                            "matplotlib")))]
    prov = "".join(f"<tr><td>{html.escape(k)}</td><td><code>{html.escape(v)}</code></td></tr>"
                   for k, v in prov_rows)
    page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kalooki_sim report</title><style>{_CSS}</style></head><body>
{site.nav_html()}
<h1>Jamaican Kalooki by simulation: what the numbers say</h1>
{intro}
<h2>Headline findings</h2>{''.join(heads) or '<p>(no findings written)</p>'}
{limits}
<h2>The pages</h2><ul>{''.join(items)}</ul>
{site.index_section()}
<h2>Files</h2><p>Each chart is shown on its page beside the text about it, each table's
every column is in a CSV file.</p>
<details><summary>{len(pngs)} charts (PNG) and {len(csvs)} tables (CSV)</summary>
<h3>Charts</h3><ul>{links(pngs)}</ul>
<h3>Tables (CSV, every column)</h3><ul>{links(csvs)}</ul></details>
<h2>Provenance</h2><table class="prov"><caption style="text-align:left">What made
this report</caption>{prov}</table>
<p class="prov">Sizes and seeds of every notebook are listed above and in
<a href="manifest.json">manifest.json</a>. The rules: <a href="rules.html">rules.html</a>
(the same text as the package's RULES.md).</p>
</body></html>
"""
    (out_dir / "index.html").write_text(page, encoding="utf-8")


def build(out_dir="reports", tiny: bool = False, names=NOTEBOOKS,
          command: str = COMMAND, jobs: int = 2) -> dict:
    """Execute the notebooks and write the report into ``out_dir``; return seconds per page.

    ``jobs`` notebooks run at once (each in its own kernel, in the order given as slots free
    up): on two cores one page's single-threaded work (pandas, plots, bootstraps) overlaps the
    other's simulation. The pages do not depend on it (every number comes from its seed, C3).
    Prints one line per notebook when it finishes. Timings are appended to
    ``out_dir/.timings.log`` only.
    """
    from concurrent.futures import ThreadPoolExecutor

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes = TINY if tiny else DEFAULT
    params = {n: sizes[n] for n in names}
    secs = {}
    warm = numba_cache_warm()  # before the run: did it start from compiled kernels?
    if jobs not in (1, 2):
        raise ValueError(f"jobs={jobs!r} is not allowed; give 1 or 2")
    done, lock = [], threading.Lock()

    def one(n):
        s = run_notebook(n, out_dir, params[n])
        p = ", ".join(f"{k}={v}" for k, v in params[n].items())
        with lock:  # one whole line per page, in the order they finish
            done.append(n)
            sys.stdout.write(f"[{len(done)}/{len(names)}] {n} ({p}): {s:.0f} s\n")
            sys.stdout.flush()
        return s

    print(f"running {len(names)} notebook{'s' * (len(names) != 1)}, {jobs} at a time ...",
          flush=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {n: pool.submit(one, n) for n in names}
        secs = {n: f.result() for n, f in futures.items()}
    # the index and manifest describe every page, also those not rerun (--only)
    every = {n: sizes[n] for n in NOTEBOOKS if n in names or (out_dir / f"{n}.html").exists()}
    manifest = provenance(every, command)
    manifest["run"] = run_info(secs, warm)
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                           encoding="utf-8")
    _index(out_dir, every, secs, manifest)
    from . import site  # the guide, glossary, rules, API reference and performance pages

    site.build(out_dir)
    gi = out_dir / ".gitignore"
    if not gi.exists():
        gi.write_text(".timings.log\n", encoding="utf-8")
    stamp = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    with open(out_dir / ".timings.log", "a", encoding="utf-8") as f:
        f.write(json.dumps({"finished": stamp, "tiny": tiny, "seconds": {
            k: round(v, 1) for k, v in secs.items()}}) + "\n")
    return secs


def main(argv=None):
    """Command line: ``python -m kalooki_sim.report [--tiny] [--out DIR] [--only NAME ...]``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "reports"))
    ap.add_argument("--tiny", action="store_true", help="tiny sizes (a smoke test)")
    ap.add_argument("--only", nargs="+", choices=NOTEBOOKS, help="run only these notebooks")
    ap.add_argument("--jobs", type=int, default=2, choices=(1, 2),
                    help="notebooks run at once (default 2)")
    argv = sys.argv[1:] if argv is None else list(argv)
    a = ap.parse_args(argv)
    try:  # before minutes of notebooks, one line, as `kalooki report` does
        check_writable_dir("--out", a.out, "a directory you can write (new, or a report's)")
    except ValueError as e:
        ap.error(str(e))
    t0 = time.perf_counter()
    shown = [x for x in argv if not x.startswith(str(ROOT))]
    command = " ".join([COMMAND] + shown)
    build(a.out, tiny=a.tiny, names=tuple(a.only or NOTEBOOKS), command=command, jobs=a.jobs)
    print(f"report written to {a.out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
