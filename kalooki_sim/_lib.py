"""Shared utilities of every layer, at the bottom layer (it imports nothing of the package):
one home for input checks, and one progress bar.

Input checks
------------
Every public function validates its arguments here.

Each checker returns the value in its plain Python form (``numpy.int64(4)`` becomes ``4``) or
raises with one wording, naming the argument, the bad value and what is allowed::

    players=9 is not allowed; give an integer 3-8

A value of the wrong type (a string, a float, a bool where an integer is wanted) raises
``TypeError``; a value of the right type out of range raises ``ValueError``. The kernels never
raise (they return status codes); the Python wrappers call these checkers first.

Progress
--------
One progress bar for every long call: tqdm on stderr, or a bar that shows nothing.

``progress`` is the public argument of :func:`~kalooki_sim.play_hands`,
:func:`~kalooki_sim.simulate`, :func:`~kalooki_sim.call_decisions`,
:func:`~kalooki_sim.tournament` and :func:`~kalooki_sim.advise`: ``True`` shows the bar,
``False`` hides it, ``None`` shows it for runs of at least ``auto_at`` units when stderr is a
terminal.

Examples
--------
>>> check_int("players", np.int64(4), 3, 8)
4
>>> check_int("players", 9, 3, 8)
Traceback (most recent call last):
...
ValueError: players=9 is not allowed; give an integer 3-8
>>> check_int("seed", True, 0, INT64_MAX)
Traceback (most recent call last):
...
TypeError: seed=True is not allowed; give an integer 0 to 2**63 - 1

>>> bar = progress_bar(False, 10, auto_at=1)
>>> bar.update(3); bar.close()
>>> bool(bar)
False
"""

from __future__ import annotations

import logging
import math
import numbers
import os
import sys
import tempfile
from collections.abc import Iterable

import numpy as np

#: The largest seed or game id the engine's int64 streams take.
INT64_MAX = 2**63 - 1

#: Seats at a table: 3-8 (3-6 by the card, R2; 7-8 with more decks, V1). Two is Tuluki (V9).
PLAYERS_LO, PLAYERS_HI = 3, 8


def not_allowed(name: str, value, allowed: str, why: str = "") -> str:
    """The one error wording: ``"{name}={value!r} is not allowed; give {allowed}"``."""
    tail = f" ({why})" if why else ""
    return f"{name}={show_value(value)} is not allowed; give {allowed}{tail}"


def show_value(value) -> str:
    """``repr`` of a value for a message: numpy scalars as Python ones, cut at 60 characters."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bound(v) -> str:
    return "2**63 - 1" if v == INT64_MAX else str(v)


def int_range(lo, hi=None) -> str:
    """``"an integer 3-8"``, ``"an integer >= 0"`` or ``"an integer 0 to 2**63 - 1"``."""
    if hi is None:
        return f"an integer >= {lo}"
    if lo == hi:
        return f"the integer {lo}"
    if lo < 0 or hi == INT64_MAX:
        return f"an integer {_bound(lo)} to {_bound(hi)}"
    return f"an integer {lo}-{hi}"


def is_int(value) -> bool:
    """True for Python and numpy integers, False for bools (``True`` is not a count)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value, lo: int, hi: int | None = None, *, why: str = "") -> int:
    """``value`` as a Python ``int`` in ``lo..hi`` (``hi=None``: no upper bound).

    Parameters
    ----------
    name : str
        The argument's name, as the caller wrote it.
    value
        An ``int`` or a numpy integer; bools are refused.
    lo, hi : int
        Inclusive bounds.
    why : str, optional
        A short reason appended in parentheses, e.g. ``"the pack's size"``.

    Raises
    ------
    TypeError
        If ``value`` is not an integer (or is a bool).
    ValueError
        If it is outside ``lo..hi``.
    """
    allowed = int_range(lo, hi)
    if not is_int(value):
        raise TypeError(not_allowed(name, value, allowed, why))
    v = int(value)
    if v < lo or (hi is not None and v > hi):
        raise ValueError(not_allowed(name, v, allowed, why))
    return v


def check_seed(value, name: str = "seed") -> int:
    """A seed or game id of the engine's streams (C3): an integer 0 to 2**63 - 1."""
    return check_int(name, value, 0, INT64_MAX)


def check_players(value, lo: int = PLAYERS_LO, hi: int = PLAYERS_HI) -> int:
    """A player count, ``3-8`` unless told (the same wording everywhere)."""
    return check_int("players", value, lo, hi)


def check_bool(name: str, value) -> bool:
    """``value`` as a Python ``bool``; only ``True``/``False`` (or numpy bools) are accepted.

    ``1``, ``"yes"`` and ``None`` raise ``TypeError``: a truthy value is not a switch.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(not_allowed(name, value, "True or False"))
    return bool(value)


def check_real(name: str, value, lo=None, hi=None, *, open_lo=False, open_hi=False) -> float:
    """``value`` as a finite ``float`` within the bounds (``open_*``: the bound is excluded).

    Any real number is accepted (``int``, ``float``, ``Fraction``, numpy numbers), not bools.
    """
    parts = []
    if lo is not None:
        parts.append(f"{'>' if open_lo else '>='} {lo}")
    if hi is not None:
        parts.append(f"{'<' if open_hi else '<='} {hi}")
    allowed = "a finite number" + (" " + " and ".join(parts) if parts else "")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(not_allowed(name, value, allowed))
    v = float(value)
    bad = not math.isfinite(v)
    if lo is not None:
        bad |= v <= lo if open_lo else v < lo
    if hi is not None:
        bad |= v >= hi if open_hi else v > hi
    if bad:
        raise ValueError(not_allowed(name, v, allowed))
    return v


def check_choice(name: str, value, allowed: Iterable):
    """``value`` if it is one of ``allowed``; else a ``ValueError`` listing them.

    A value of another type than every allowed one (``pack=1`` where strings are allowed)
    raises ``TypeError``.
    """
    allowed = tuple(allowed)
    text = "one of " + ", ".join(repr(a) for a in allowed)
    if not any(type(value) is type(a) or isinstance(value, type(a)) for a in allowed):
        raise TypeError(not_allowed(name, value, text))
    if value not in allowed:
        raise ValueError(not_allowed(name, value, text))
    return value


def check_columns(name: str, df, columns: Iterable[str], what: str = ""):
    """``df`` if it is a DataFrame holding every column in ``columns``.

    ``what`` says where such a frame comes from, e.g. ``"the rows of play_hands"``.
    """
    import pandas as pd

    columns = list(columns)
    need = "a pandas DataFrame with columns " + ", ".join(columns)
    if what:
        need += f" ({what})"
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} is a {type(df).__name__}; give {need}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {', '.join(missing)}; give {need}")
    return df


def _probe(name: str, path, parent, allowed: str) -> None:
    """Create and remove a temporary file in ``parent``: refuse ``path`` if that fails."""
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=".kalooki-probe-")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise ValueError(not_allowed(name, str(path), allowed,
                                     f"{e.strerror or e} in {str(parent)!r}")) from None


def check_writable_dir(name: str, path,
                       allowed: str = "a directory you can write (new, empty, or a run's)"
                       ) -> None:
    """``path`` is a directory this process can create or write into (nothing is left behind).

    Walks up to the nearest existing ancestor and creates and removes a temporary file there,
    so ``/proc/foo`` or a read-only disk is refused before any work, in one line. ``allowed``
    is what the message asks for instead.
    """
    p = os.path.abspath(os.fspath(path))
    while not os.path.exists(p):
        p = os.path.dirname(p)
    if not os.path.isdir(p):
        raise ValueError(not_allowed(name, os.fspath(path), allowed, f"{p!r} is a file"))
    _probe(name, path, p, allowed)


def check_writable_file(name: str, path) -> None:
    """``path`` is a file this process can write (its directory exists and takes new files)."""
    allowed = "a file you can write, in an existing directory"
    p = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(p)
    if os.path.isdir(p):
        raise ValueError(not_allowed(name, os.fspath(path), allowed, "it is a directory"))
    if not os.path.isdir(parent):
        raise ValueError(not_allowed(name, os.fspath(path), allowed,
                                     f"no directory {parent!r}"))
    if os.path.exists(p) and not os.access(p, os.W_OK):
        raise ValueError(not_allowed(name, os.fspath(path), allowed, "it is read-only"))
    _probe(name, path, parent, allowed)


#: the comparison operators of a ``(column, op, value)`` filter (pandas' ``read_parquet``)
FILTER_OPS = ("==", "=", "!=", "<", "<=", ">", ">=", "in", "not in")

_KIND_OK = {
    "integer": lambda v: is_int(v),
    "number": lambda v: isinstance(v, (numbers.Real, np.number)) and not isinstance(
        v, (bool, np.bool_)),
    "bool": lambda v: isinstance(v, (bool, np.bool_)),
    "text": lambda v: isinstance(v, str),
}


def column_kinds(frame) -> dict[str, str]:
    """Each column of a DataFrame as ``"integer"``, ``"number"``, ``"bool"`` or ``"text"``."""
    import pandas as pd

    def kind(s):
        if pd.api.types.is_bool_dtype(s):
            return "bool"
        if pd.api.types.is_integer_dtype(s):
            return "integer"
        return "number" if pd.api.types.is_numeric_dtype(s) else "text"

    return {c: kind(frame[c]) for c in frame.columns}


def check_filters(name: str, filters, kinds):
    """``filters`` as ``read_parquet`` takes them: ``(column, op, value)`` tuples in a list
    (all must hold), or a list of such lists (any list must hold).

    ``kinds`` maps each column to ``"integer"``, ``"number"``, ``"bool"`` or ``"text"`` (a
    DataFrame: :func:`column_kinds` of it): the value (each value of ``in``/``not in``) must be
    of that kind. Returns ``filters`` as a list of lists of tuples.

    Examples
    --------
    >>> kinds = {"hand": "integer", "policy": "text"}
    >>> check_filters("filters", [("hand", "==", 9)], kinds)
    [[('hand', '==', 9)]]
    >>> check_filters("filters", "hand==9", kinds)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: filters='hand==9' is not allowed; give a list of (column, op, value) tuples, ...
    >>> check_filters("filters", [("nope", "==", 1)], kinds)
    Traceback (most recent call last):
    ...
    ValueError: filters column 'nope' is not allowed; give one of 'hand', 'policy'
    >>> check_filters("filters", [("hand", "==", "9")], kinds)
    Traceback (most recent call last):
    ...
    ValueError: filters value '9' of column 'hand' is not allowed; give an integer
    """
    if not isinstance(kinds, dict):
        kinds = column_kinds(kinds)
    shape = ("a list of (column, op, value) tuples, e.g. [('hand', '==', 9)], or a list of "
             "such lists (any one holds)")

    def is_term(term):
        return isinstance(term, (tuple, list)) and len(term) == 3 and isinstance(term[0], str)

    if not isinstance(filters, list) or not filters:
        raise TypeError(not_allowed(name, filters, shape))
    dnf = [filters] if all(is_term(t) for t in filters) else filters
    if not all(isinstance(c, list) and c and all(is_term(t) for t in c) for c in dnf):
        raise TypeError(not_allowed(name, filters, shape))
    for conj in dnf:
        for col, op, value in conj:
            if col not in kinds:
                raise ValueError(f"{name} column {col!r} is not allowed; give one of "
                                 + ", ".join(repr(c) for c in kinds))
            if op not in FILTER_OPS:
                raise ValueError(f"{name} operator {op!r} is not allowed; give one of "
                                 + ", ".join(repr(o) for o in FILTER_OPS))
            many = op in ("in", "not in")
            if many and not isinstance(value, (list, tuple, set, frozenset)):
                raise TypeError(f"{name} value {show_value(value)} is not allowed; give a "
                                f"list of values after {op!r}")
            for v in (value if many else [value]):
                if not _KIND_OK[kinds[col]](v):
                    raise ValueError(f"{name} value {show_value(v)} of column {col!r} is not "
                                     f"allowed; give {_KIND_TEXT[kinds[col]]}")
    return [[tuple(t) for t in conj] for conj in dnf]


def parquet_filter(name: str, filters, kinds):
    """:func:`check_filters`, then the ``pyarrow.compute.Expression`` of them; ``None`` and an
    Expression pass as they are."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    if filters is None or isinstance(filters, ds.Expression):
        return filters
    return pq.filters_to_expression(check_filters(name, filters, kinds))


_KIND_TEXT = {"integer": "an integer", "number": "a number", "bool": "True or False",
              "text": "a string"}


def check_names(name: str, value, allowed: Iterable[str]) -> list[str] | None:
    """``value`` as a list of names, each one of ``allowed`` (e.g. the ``columns=`` of a read);
    ``None`` passes.

    >>> check_names("columns", ["hand"], ["hand", "seat"])
    ['hand']
    >>> check_names("columns", "hand", ["hand", "seat"])
    Traceback (most recent call last):
    ...
    TypeError: columns='hand' is not allowed; give a list of names from 'hand', 'seat'
    """
    if value is None:
        return None
    allowed = list(allowed)
    text = "a list of names from " + ", ".join(repr(a) for a in allowed)
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(not_allowed(name, value, text))
    bad = [v for v in value if v not in allowed]
    if bad:
        raise ValueError(not_allowed(name, value, text, f"{bad[0]!r} is not one"))
    return list(value)


# -- progress --------------------------------------------------------------------------------------

class _NoBar:
    """The bar when progress is off: ``update`` and ``close`` do nothing; false in ``if``."""

    def update(self, n=1) -> None:
        pass

    def close(self) -> None:
        pass

    def __bool__(self) -> bool:
        return False


def wants_progress(progress, total, auto_at) -> bool:
    """``progress`` as given, or (``None``) whether ``total >= auto_at`` on a terminal."""
    if progress is not None:
        return bool(progress)
    return total >= auto_at and sys.stderr.isatty()


def progress_bar(progress, total, *, auto_at, **kw):
    """A tqdm bar of ``total`` units on stderr (``kw``: ``unit``, ``desc``, ...) or a bar that
    shows nothing, as :func:`wants_progress` decides."""
    if not wants_progress(progress, total, auto_at):
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, file=sys.stderr, **kw)


#: notes for a person watching a long call (``kalooki`` shows them on stderr unless --quiet)
log = logging.getLogger("kalooki_sim")


def spans(numbers) -> str:
    """``[0, 1, 2, 5, 7, 8]`` -> ``"0-2, 5, 7-8"``.

    >>> spans([0, 1, 2, 5, 7, 8])
    '0-2, 5, 7-8'
    """
    out, run = [], []
    for x in sorted(numbers):
        if run and x != run[-1] + 1:
            out.append(run)
            run = []
        run.append(x)
    if run:
        out.append(run)
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in out)


def resumed_note(done, total: int) -> str:
    """``"resumed: 3 of 5 chunks already done (0-2), running 2"``: ``done`` the chunk indices
    reused, ``total`` the run's chunks."""
    return (f"resumed: {len(done)} of {total} chunks already done ({spans(done)}), "
            f"running {total - len(done)}")
