"""The package shows its layers: game -> engine -> players -> studies -> analysis -> report ->
the shells (cli, bench, the package namespace and the old-path aliases). Every import of every
module, lazy ones in function bodies included, is parsed; an arrow to a higher layer, or a
cycle between modules, fails."""

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "kalooki_sim"

#: layer rank of each subpackage; top-level modules are the shells (highest), but for the leaves
#: that import nothing of the package (the version, the alias helper, the shared t interval)
LAYERS = {"_version": 0, "_alias": 0, "_stats": 0, "_numba": 0, "_lib": 0, "game": 0, "engine": 1,
          "players": 2, "studies": 3, "analysis": 4, "report": 5}
SHELL = 6
MAX_LINES = 700


def _module_name(path: Path, root: Path = PKG) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _rank(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], SHELL) if len(parts) > 1 else SHELL


def _known(module: str, modules: set) -> str:
    """The longest prefix of ``module`` that is a module of the package."""
    while module not in modules and "." in module:
        module = module.rsplit(".", 1)[0]
    return module


def _imports(path: Path, modules: set, root: Path = PKG) -> list[tuple[str, int]]:
    """``(imported module of the package, line)`` for every import in ``path``."""
    me = _module_name(path, root)
    package = me if _is_package(path) else me.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod
                     for a in node.names]
        else:
            continue
        out += [(_known(n, modules), node.lineno) for n in names
                if n.split(".")[0] == "kalooki_sim"]
    return out


def _graph():
    files = sorted(PKG.rglob("*.py"))
    modules = {_module_name(f) for f in files}
    return files, modules, {_module_name(f): _imports(f, modules) for f in files}


def test_layers_no_upward_imports():
    _, _, graph = _graph()
    upward = [f"{src}:{line} imports {dst} (layer {_rank(dst)} above {_rank(src)})"
              for src, deps in graph.items() for dst, line in deps
              if _rank(dst) > _rank(src)]
    assert not upward, "\n".join(upward)


def test_layers_no_import_cycles():
    _, _, graph = _graph()
    edges = {src: {d for d, _ in deps if d != src} for src, deps in graph.items()}
    state, cycles = {}, []

    def visit(m, stack):
        state[m] = 1
        for d in sorted(edges.get(m, ())):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
    assert not cycles, "\n".join(cycles)


def test_layers_the_check_bites(tmp_path):
    """The parser sees an upward arrow in a lazy import (so the tests above can fail)."""
    root = tmp_path / "kalooki_sim"
    path = root / "game" / "_probe_upward.py"
    path.parent.mkdir(parents=True)
    path.write_text("def f():\n    from ..report import plots\n")
    mods = {"kalooki_sim.game._probe_upward", "kalooki_sim.report", "kalooki_sim.game"}
    deps = _imports(path, mods, root)
    assert deps == [("kalooki_sim.report", 2)]
    assert _rank(deps[0][0]) > _rank(_module_name(path, root))


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.py")), ids=lambda p: str(p.relative_to(PKG)))
def test_no_module_over_700_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


#: "issue 12", "issue #12", "Issue 12": history belongs in CHANGELOG.md, not in the code
ISSUE_REF = re.compile(r"issue\s*#?\d+", re.IGNORECASE)


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.py")), ids=lambda p: str(p.relative_to(PKG)))
def test_no_module_names_an_issue_number(path):
    """Docstrings and comments say what the code does and why, not when or by which issue."""
    found = [f"{i}: {line.strip()[:90]}" for i, line in enumerate(path.read_text().splitlines(), 1)
             if ISSUE_REF.search(line)]
    assert not found, f"{len(found)} lines name an issue:\n" + "\n".join(found)


def _subpackage(module: str) -> str | None:
    """The top-level subpackage of a module (``engine`` for kalooki_sim.engine._kernels.rng);
    None for a top-level module (the shells and the shared leaves such as ``_stats``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PKG / parts[1]).is_dir()) \
        else None


def _private_reaches(path: Path, modules: set, root: Path = PKG) -> list[str]:
    """Imports in ``path`` of a private name or module (``_x``) of another subpackage."""
    me = _module_name(path, root)
    package = me if _is_package(path) else me.rsplit(".", 1)[0]
    mine = _subpackage(me)
    out, aliases = [], {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [(mod, a.name) for a in node.names]
        else:
            continue
        for mod, name in targets:
            if mod.split(".")[0] != "kalooki_sim":
                continue
            theirs = _subpackage(_known(mod, modules))
            if theirs is None or theirs == mine:
                continue
            private = [p for p in mod.split(".")[1:] if p.startswith("_")]
            if name is not None and name.startswith("_"):
                private.append(name)
            if private:
                out.append(f"{me}:{node.lineno} imports {mod}"
                           + (f".{name}" if name else "") + f" (private to {theirs})")
            elif name is not None:
                aliases[next(a.asname or a.name for a in node.names if a.name == name)] = (
                    f"{mod}.{name}", theirs)
    return out + _private_attributes(path, me, aliases)


def _private_attributes(path: Path, me: str, aliases: dict) -> list[str]:
    """``alias._name`` (or deeper, ``alias.x._name``) where ``alias`` was imported from another
    subpackage: a private name reached through a public door."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Attribute):
            continue
        chain, base = [node.attr], node.value
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in aliases:
            continue
        private = [a for a in chain if a.startswith("_") and not a.startswith("__")]
        if private:
            mod, theirs = aliases[base.id]
            out.append(f"{me}:{node.lineno} imports {mod}.{'.'.join(reversed(chain))} "
                       f"(private to {theirs})")
    return sorted(set(out))


#: private modules and names an importer may still reach, by importer (none: the kernels are
#: reached through ``engine.kernels`` and ``game.kernels``, the entry points' shared steps are
#: public in ``engine.play``). A new reach fails; so does an entry no longer needed.
PRIVATE_REACHES: dict = {}


def _reached(report: str) -> tuple[str, str]:
    """``(importer's subpackage or shell, private module or name reached)`` of a report line."""
    src, mod = report.split(":")[0], re.search(r"imports (\S+)", report).group(1)
    parts = mod.split(".")
    private = [i for i, p in enumerate(parts) if i and p.startswith("_")]
    target = ".".join(parts[1:private[0] + 1]) if private else ".".join(parts[1:])
    return _subpackage(src) or src.split(".")[1], target


def test_no_private_imports_across_subpackages():
    """A subpackage reaches another's private names only through its public functions and
    modules; the shells and the shared leaves at the top (``_stats``, ``_alias``) are not
    subpackages. Lists every import beyond :data:`PRIVATE_REACHES`, and every entry there no
    import needs any more."""
    files, modules, _ = _graph()
    found = [r for f in files for r in _private_reaches(f, modules)]
    new = [r for r in found if _reached(r)[1] not in PRIVATE_REACHES.get(_reached(r)[0], ())]
    seen = {_reached(r) for r in found}
    gone = sorted((k, t) for k, ts in PRIVATE_REACHES.items() for t in ts if (k, t) not in seen)
    assert not new, f"{len(new)} private imports across subpackages:\n" + "\n".join(new)
    assert not gone, f"no longer reached, drop them from PRIVATE_REACHES: {gone}"


def test_the_private_import_check_bites(tmp_path):
    root = tmp_path / "kalooki_sim"
    (root / "studies").mkdir(parents=True)
    (root / "engine" / "_kernels").mkdir(parents=True)
    path = root / "studies" / "probe.py"
    path.write_text("from ..engine._kernels import rng as _R\nfrom ..engine import play\n")
    mods = {"kalooki_sim.studies.probe", "kalooki_sim.engine", "kalooki_sim.engine._kernels",
            "kalooki_sim.engine.play", "kalooki_sim.studies"}
    global PKG
    old, PKG = PKG, root
    try:
        assert _private_reaches(path, mods, root) == [
            "kalooki_sim.studies.probe:1 imports kalooki_sim.engine._kernels.rng "
            "(private to engine)"]
        path.write_text("from ..engine import kernels as K\nx = K.history._wants\ny = K.rng\n")
        mods.add("kalooki_sim.engine.kernels")
        assert _private_reaches(path, mods, root) == [
            "kalooki_sim.studies.probe:2 imports kalooki_sim.engine.kernels.history._wants "
            "(private to engine)"]
    finally:
        PKG = old


@pytest.mark.parametrize("layer", sorted(set(LAYERS) - {"_version", "_alias"}))
def test_each_layer_says_what_it_holds_and_may_import(layer):
    import importlib

    doc = importlib.import_module(f"kalooki_sim.{layer}").__doc__ or ""
    assert "May import" in doc or "may import" in doc or "bottom layer" in doc


#: names earlier issues and the README gave under the old module paths (issue 16: they keep
#: working for code written against the README)
OLD_NAMES = {
    "kalooki_sim.analysis": (
        "Z95 wilson mean_ci welch_diff cluster_mean_ci cluster_wilson scored void_rate "
        "contract_difficulty open_times km_fit open_survival open_curve seat_advantage "
        "CALL_POLICIES focal_outcomes quantile_ci EXPOSURE_LEVELS EXPOSURE_QUANTILES "
        "compare_calls call_value call_games holm sign_claims bootstrap_means rank_intervals "
        "first_set p_deal_lays_groups p_outs simulate_outs simulate_deals dealt_meets "
        "convergence confidence_sequence p_dealt_table contract_label p_some_seat_dealt "
        "draws_from_interval join_words first_phrase compare_rules"),
    "kalooki_sim.decisions": ("COLUMNS call_decisions trace_decision THIN_DECISIONS THIN_DEALS "
                              "value_map variance_ratio"),
    "kalooki_sim.tuning": ("CALL_FIELDS GRID candidate_name call_grid TuneResult tune_calls "
                           "confirm confirm_games tuned_table tuned_policy make_table"),
    "kalooki_sim.study": ("FORMAT MANIFEST CHUNK_HANDS KEYS MOMENTS GAME_MOMENTS HISTOGRAMS Spec "
                          "chunk_rows aggregate merge play_chunk check_cluster Run means simulate"),
    "kalooki_sim.plots": ("contract_style contract_ticks open_curve difficulty by_contract "
                          "players_series call_value exposure convergence seat_advantage "
                          "game_level save figure_html show pct pct_ci one_in num_ci table_html "
                          "table details exact_vs_simulated outs_by_draws"),
    "kalooki_sim.referee": "check RefereeError",
}


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_old_paths_keep_their_names(old):
    import importlib
    import sys

    if old == "kalooki_sim.analysis":  # a home, not an alias
        module = importlib.import_module(old)
    else:
        sys.modules.pop(old, None)
        with pytest.warns(DeprecationWarning, match=f"{old} is an old path; import from"):
            module = importlib.import_module(old)
    missing = [n for n in OLD_NAMES[old].split() if not hasattr(module, n)]
    assert not missing, f"{old} lost {missing}"


def test_old_paths_are_the_new_objects():
    import warnings

    import kalooki_sim as ks
    with warnings.catch_warnings():  # they warn: an old path (test_old_paths_keep_their_names)
        warnings.simplefilter("ignore", DeprecationWarning)
        from kalooki_sim import decisions, referee, study, tuning
    from kalooki_sim.analysis import value_map
    from kalooki_sim.game import referee as new_referee
    from kalooki_sim.players import tuning as new_tuning

    assert decisions.call_decisions is ks.call_decisions and decisions.value_map is value_map
    assert tuning.tuned_policy is new_tuning.tuned_policy and study.simulate is ks.simulate
    assert referee.check is new_referee.check
    assert set(ks.__all__) <= set(dir(ks))


def test_advise_is_a_short_function_over_the_situation():
    """``advise`` reads as checks, the situation, the rollouts and the answer: at most 60 lines
    with its docstring (the situation's arguments are documented once, on ``situation``)."""
    import ast
    import inspect

    from kalooki_sim.studies import advisor

    fn = next(n for n in ast.parse(inspect.getsource(advisor)).body
              if isinstance(n, ast.FunctionDef) and n.name == "advise")
    assert fn.end_lineno - fn.lineno + 1 <= 60
