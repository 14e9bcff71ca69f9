"""The public surface: every public function and class is documented."""

import importlib
import inspect

import pytest

import kalooki_sim as ks

MODULES = ["cards", "rules", "melds", "needed", "play", "policies", "tournament", "trace",
           "referee", "analysis", "plots", "report", "_checks"]


@pytest.mark.parametrize("name", MODULES)
def test_every_public_callable_has_a_docstring(name):
    mod = importlib.import_module(f"kalooki_sim.{name}")
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
