"""Two trees side by side: ``python -m kalooki_sim.bench --against REF``.

In the spirit of ``asv continuous``: REF is checked out in a git worktree under ``.bench/`` with
its own virtualenv and Numba cache (both kept, so the second call starts warm), then the two
trees run the same figures (:mod:`kalooki_sim.bench.figures`, run by each tree's interpreter) in
separate processes, alternating which goes first, for at least three rounds. Each figure is
reported as the best of each side and their speed ratio (above 1: this tree is faster). A ratio
from one run is what this project calls a speed claim; the machine is shared and noisy, and
alternation puts the same noise on both sides.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import figures as F

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".bench"
HANDS = Path(__file__).with_name("hands_in_play.npz")
MIN_ROUNDS = 3


@dataclass
class Tree:
    """One side: a label, the interpreter that imports its package, its environment."""

    label: str
    python: str
    env: dict = field(default_factory=dict)
    cwd: str = ""  # where its process runs; "" for this checkout


def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def resolve(ref: str) -> str:
    """The full commit id of ``ref``; a clear error when git does not know it."""
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise ValueError(f"--against {ref!r}: git knows no such commit in {ROOT}; give a "
                         "commit id, tag or branch (e.g. 01f82fe)") from None


def this_tree() -> Tree:
    """The tree this package runs from, with this interpreter and its usual Numba cache."""
    try:
        sha = _git("rev-parse", "--short=7", "HEAD")
        dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    except (subprocess.CalledProcessError, FileNotFoundError):
        sha, dirty = "unknown", False
    return Tree(label=f"{sha}{'+' if dirty else ''}", python=sys.executable)


def ref_tree(ref: str, log=print) -> Tree:
    """REF in ``.bench/<sha>/`` (worktree, ``.venv`` with the package installed editable, a Numba
    cache of its own), made on first use and reused after."""
    sha = resolve(ref)
    path = WORK / sha[:12]
    WORK.mkdir(exist_ok=True)
    gi = WORK / ".gitignore"
    if not gi.exists():
        gi.write_text("*\n", encoding="utf-8")
    if not (path / "pyproject.toml").exists():
        log(f"checking out {sha[:12]} in {path} ...")
        _git("worktree", "prune")
        _git("worktree", "add", "--detach", "--force", str(path), sha)
    py = path / ".venv" / "bin" / "python"
    stamp = path / ".venv" / ".installed"
    if not stamp.exists():
        log(f"building the virtualenv of {sha[:12]} (once; about a minute) ...")
        subprocess.run([sys.executable, "-m", "venv", str(path / ".venv")], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "-e", str(path)],
                       check=True, cwd=path)
        stamp.write_text(sha + "\n", encoding="utf-8")
    env = {"NUMBA_CACHE_DIR": str(path / ".numba_cache")}
    return Tree(label=sha[:7], python=str(py), env=env, cwd=str(path))


def hands_file() -> str:
    """The committed hands the expert meets in play (``needed_hands_in_play``, 30 games per
    contract, at most 300 hands each, seed 0), made once so every commit is timed on the same
    hands."""
    if not HANDS.exists():
        from . import needed_hands_in_play

        rng = np.random.default_rng(0)
        codes, starts, contract = [], [0], []
        for h in range(1, 10):
            hs = needed_hands_in_play(h, 30, 0)
            if len(hs) > 300:
                hs = [hs[i] for i in sorted(rng.choice(len(hs), 300, replace=False))]
            for c in hs:
                codes.extend(int(x) for x in c)
                starts.append(len(codes))
                contract.append(h)
        np.savez_compressed(HANDS, codes=np.array(codes, np.int8),
                            starts=np.array(starts, np.int32),
                            contract=np.array(contract, np.int8))
    return str(HANDS)


def run_side(tree: Tree, names, hands: str, timeout: float = 3600, scale: float = 1.0) -> dict:
    """One process of ``tree`` timing ``names`` (their work times ``scale``):
    ``{figure: record}``."""
    env = dict(os.environ, **tree.env)
    cmd = [tree.python, "-I", F.__file__, *names, "--hands", hands, "--scale", str(scale)]
    r = subprocess.run(cmd, env=env, cwd=tree.cwd or str(ROOT), capture_output=True, text=True,
                       timeout=timeout)
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            out[rec["figure"]] = rec
    for name in names:
        if name not in out:
            tail = (r.stderr.strip().splitlines() or ["no output"])[-1]
            out[name] = {"figure": name, "value": None, "detail": f"process failed: {tail}"}
    return out


def best(values, higher: bool):
    """The best of a side's values (None for an answer the tree could not give)."""
    vals = [v for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return None
    return max(vals) if higher else min(vals)


def speed_ratio(head, ref, higher: bool):
    """HEAD's speed over REF's: for rates head / ref, for times ref / head (above 1: faster)."""
    if head is None or ref is None or head == 0 or ref == 0:
        return None
    return head / ref if higher else ref / head


def compare(names, against=None, rounds=MIN_ROUNDS, log=print, scale=1.0) -> dict:
    """Time ``names`` on this tree, and on ``against`` when given, alternating processes.

    Returns ``{"sides": [labels], "rounds": n, "figures": {name: {"unit", "higher",
    "values": {label: [per round]}, "best": {label: value}, "ratio": value or None,
    "detail": {label: text}}}}``; ``scale`` multiplies each figure's work (tests).
    """
    names = list(names)
    for n in names:
        if n not in F.FIGURES:
            raise ValueError(f"figure {n!r} is not known; give one of {', '.join(F.FIGURES)}")
    if against is not None and rounds < MIN_ROUNDS:
        raise ValueError(f"rounds={rounds} is not allowed; give {MIN_ROUNDS} or more (the sides "
                         "alternate, so noise falls on both)")
    sides = [this_tree()]
    if against is not None:
        sides.append(ref_tree(against, log=log))
    hands = hands_file()
    vals = {n: {s.label: [] for s in sides} for n in names}
    detail = {n: {} for n in names}
    for r in range(rounds):
        order = sides if r % 2 == 0 else sides[::-1]
        for s in order:
            t0 = time.perf_counter()
            res = run_side(s, names, hands, scale=scale)
            for n in names:
                vals[n][s.label].append(res[n]["value"])
                detail[n][s.label] = res[n].get("detail", "")
            log(f"  round {r + 1}/{rounds}, {s.label}: {time.perf_counter() - t0:.0f} s")
    out = {"sides": [s.label for s in sides], "rounds": rounds, "figures": {}}
    for n in names:
        unit, higher, _ = F.FIGURES[n]
        b = {lab: best(v, higher) for lab, v in vals[n].items()}
        ratio = (speed_ratio(b[sides[0].label], b[sides[1].label], higher)
                 if len(sides) == 2 else None)
        out["figures"][n] = {"unit": unit, "higher": higher, "values": vals[n], "best": b,
                             "ratio": ratio, "detail": detail[n]}
    return out


def _fmt(v, unit):
    if v is None:
        return "n/a"
    if unit in ("hands/s", "deals/s"):
        return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"
    return f"{v:,.2f}" if v < 100 else f"{v:,.0f}"


def table(result) -> str:
    """The comparison as text: per figure, each side's best, their speed ratio, and derived
    ratios within this tree (the expert's speed over greedy's, 1 thread)."""
    sides = result["sides"]
    head = sides[0]
    lines = [f"{'figure':<22} {'unit':>8} " + " ".join(f"{s:>12}" for s in sides)
             + (f" {'speed ratio':>12}" if len(sides) == 2 else "")]
    for n, f in result["figures"].items():
        row = f"{n:<22} {f['unit']:>8} " + " ".join(f"{_fmt(f['best'][s], f['unit']):>12}"
                                                   for s in sides)
        if len(sides) == 2:
            row += f" {'n/a' if f['ratio'] is None else format(f['ratio'], '.2f'):>12}"
        lines.append(row)
    figs = result["figures"]
    if "expert_mix_1t" in figs and "greedy_mix_1t" in figs:
        for s in sides:
            e, g = figs["expert_mix_1t"]["best"][s], figs["greedy_mix_1t"]["best"][s]
            if e and g:
                lines.append(f"expert ÷ greedy, 1 thread, {s}: {e / g:.3f}")
    if "chart_mix_1t" in figs and "expert_mix_1t" in figs:
        for s in sides:
            c, e = figs["chart_mix_1t"]["best"][s], figs["expert_mix_1t"]["best"][s]
            if c and e:
                lines.append(f"chart ÷ expert, 1 thread, {s}: {c / e:.3f}")
    lines.append(f"({result['rounds']} rounds, alternating processes; best of each side; speed "
                 f"ratio = {head} over {sides[-1]}, above 1 when {head} is faster)"
                 if len(sides) == 2 else f"({result['rounds']} rounds; best)")
    for n, f in figs.items():
        d = f["detail"].get(head, "")
        if d:
            lines.append(f"  {n} ({head}): {d}")
    return "\n".join(lines)
