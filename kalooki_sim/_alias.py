"""Old module paths kept as aliases (issue 16): a module at an old path forwards every name
to the module's new home, so code written against the README keeps working."""

from __future__ import annotations

import importlib


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
