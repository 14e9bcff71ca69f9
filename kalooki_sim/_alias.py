"""Old module paths kept as aliases: a module at an old path forwards every name to the
module's new home, so code written against an earlier README keeps working, and importing it
warns (``DeprecationWarning``) with the path to use instead."""

from __future__ import annotations

import importlib
import warnings


def forward(new: str):
    """``(__getattr__, __dir__)`` for an alias module: names are looked up in module ``new``.

    Examples
    --------
    >>> getattr_, dir_ = forward("kalooki_sim.players.tuning")
    >>> getattr_("tuned_policy").__module__, "tuned_table" in dir_()
    ('kalooki_sim.players.tuning', True)
    """
    def __getattr__(name: str):
        return getattr(importlib.import_module(new), name)

    def __dir__() -> list[str]:
        return dir(importlib.import_module(new))

    return __getattr__, __dir__


def deprecated(old: str, new: str) -> None:
    """Warn that module ``old`` is an old path of ``new`` (called where ``old`` is imported)."""
    warnings.warn(f"{old} is an old path; import from {new} instead (the names are the same)",
                  DeprecationWarning, stacklevel=3)
