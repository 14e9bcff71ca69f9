"""The table's state travels by name: no compiled kernel takes more than 12 parameters, and no
module but the table's builder reads a table (or one of its workspaces) by slot number."""

import ast
from pathlib import Path

import pytest

from kalooki_sim.engine._kernels import engine as E

PKG = Path(__file__).resolve().parents[1] / "kalooki_sim"
MAX_PARAMS = 12
#: the names a table or a workspace goes by in the kernels and their callers
TABLE_NAMES = {"t", "table", "base", "samp", "br", "snap", "main", "kb", "src", "dst", "sw",
               "pw", "ws", "work", "rows", "deal", "run"}
BUILDER = PKG / "engine" / "_kernels" / "table.py"
MODULES = sorted(PKG.rglob("*.py"))


def _is_kernel(fn):
    return any("jit" in ast.unparse(d) for d in fn.decorator_list)


def _params(fn):
    a = fn.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)


def kernels_over(limit, modules=MODULES):
    """``(module, function, parameters)`` of every compiled kernel with more than ``limit``."""
    out = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and _is_kernel(node) and _params(node) > limit:
                out.append((path.name, node.name, _params(node)))
    return out


def slot_reads(src):
    """Lines where a table-named variable is read by an integer slot (``t[2]``, ``sw[8]``)."""
    out = []
    for node in ast.walk(ast.parse(src)):
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id in TABLE_NAMES and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)):
            out.append(node.lineno)
    return out


def test_no_kernel_takes_more_than_twelve_parameters():
    assert kernels_over(MAX_PARAMS) == []


def test_the_parameter_count_bites(tmp_path):
    src = tmp_path / "k.py"
    args = ", ".join(f"a{i}" for i in range(13))
    src.write_text(f"from numba import njit\n\n@njit(cache=True)\ndef k({args}):\n    return a0\n")
    assert kernels_over(MAX_PARAMS, [src]) == [("k.py", "k", 13)]


@pytest.mark.parametrize("path", [p for p in MODULES if p != BUILDER],
                         ids=lambda p: p.relative_to(PKG).as_posix())
def test_no_table_slot_read_by_number_outside_its_builder(path):
    assert slot_reads(path.read_text()) == [], "read the table's fields by name: t.gs, t.count"


def test_the_slot_check_bites():
    assert slot_reads("gs = t[2]\nx = sw[8][0]\nok = t.gs[3]\n") == [1, 2]


def test_the_table_is_read_by_name_from_python_too():
    t = E.new_table(4, 108, log_on=True)
    assert t.gs[E.GS_LOG_ON] == 1 and t.hand.shape == (12, E.N_CODES)
    assert t.count.cnt.shape == (4, 14) and t.solve.runs.shape == (4, 3)
    c = E.copy_table(t)
    c.gs[E.GS_LOG_ON] = 0
    assert t.gs[E.GS_LOG_ON] == 1 and c.count.cnt is not t.count.cnt
