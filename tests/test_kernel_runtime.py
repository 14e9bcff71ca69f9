"""Kernels that allocate nothing run without Numba's runtime (issue 27): no reference counts on
the arrays passed between them. A new kernel that forgets the flag would bring the counts back
into every turn, and this test names it."""

import ast
import importlib
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

PKG = Path(__file__).resolve().parents[1] / "kalooki_sim"
ALLOCATES = ("np.empty", "np.zeros", "np.ones", "np.array", "np.full", "new_table_jit",
             ".copy(", "np.arange")
FOLDERS = ("engine/_kernels", "game/_kernels")
# kernels that hand back arrays of their argument to a caller with the runtime (the parallel
# rollouts): they keep it, so the reference the caller releases is one they took
RETURNS_ARRAYS = ("flat_table", "table_of")


def _kernels():
    for folder in FOLDERS:
        for path in sorted((PKG / folder).glob("*.py")):
            src = path.read_text()
            mod = importlib.import_module(
                "kalooki_sim." + str(path.relative_to(PKG).with_suffix("")).replace("/", "."))
            for node in ast.parse(src).body:
                if isinstance(node, ast.FunctionDef):
                    disp = getattr(mod, node.name, None)
                    if isinstance(disp, CPUDispatcher) and disp.py_func.__module__ == mod.__name__:
                        body = ast.get_source_segment(src, node)
                        yield f"{mod.__name__}.{node.name}", disp, body


KERNELS = list(_kernels())


def test_the_scan_finds_the_turn_loop_and_the_allocating_kernels():
    names = {n.rsplit(".", 1)[1] for n, _, _ in KERNELS}
    assert {"_turn", "_wants_card", "needed_upto", "solve_kernel", "new_table_jit",
            "play_block"} <= names


@pytest.mark.parametrize("name,disp,body", KERNELS, ids=[k[0] for k in KERNELS])
def test_kernels_that_allocate_nothing_run_without_the_runtime(name, disp, body):
    allocates = (any(a in body for a in ALLOCATES) or disp.targetoptions.get("parallel")
                 or name.rsplit(".", 1)[1] in RETURNS_ARRAYS)
    if allocates:
        assert disp.targetoptions.get("_nrt", True) is not False, name
    else:
        assert disp.targetoptions.get("_nrt") is False, (
            f"{name} allocates nothing: give it @njit(cache=True, _nrt=False)")
