"""The public surface: every public function and class is documented."""

import importlib
import inspect
import pkgutil

import pytest

import kalooki_sim as ks

#: every module of the package, in every layer (issue 16), but ``__main__`` files
from kalooki_sim.report.site import API_SKIP  # noqa: E402  (the old paths: aliases that warn)

MODULES = sorted(m.name for m in pkgutil.walk_packages(ks.__path__, "kalooki_sim.")
                 if not m.name.endswith("__main__") and m.name not in API_SKIP)


def test_the_walk_sees_every_layer():
    for layer in ("game", "engine", "players", "studies", "analysis", "report"):
        assert f"kalooki_sim.{layer}" in MODULES
    assert "kalooki_sim.engine._kernels.draw" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_every_public_callable_has_a_docstring(name):
    mod = importlib.import_module(name)
    missing = []
    for attr, obj in vars(mod).items():
        if attr.startswith("_") or not callable(obj) or obj.__module__ != mod.__name__:
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(attr)
        if inspect.isclass(obj):
            missing += [f"{attr}.{m}" for m, f in vars(obj).items()
                        if not m.startswith("_") and callable(f) and not (f.__doc__ or "").strip()]
    assert not missing


def test_all_names_exist():
    for n in ks.__all__:
        assert hasattr(ks, n), n
