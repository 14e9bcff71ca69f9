"""The command line's stderr: the API's notes and warnings as one line each, and flags whose
value may start with a dash."""

from __future__ import annotations

import sys


def _stderr_notes(prog: str, quiet: bool):
    """A context that shows the API's notes (the ``kalooki_sim`` logger: e.g. which chunks a
    resumed run reused) on stderr as ``prog: note``; nothing when ``quiet``."""
    import contextlib
    import logging

    @contextlib.contextmanager
    def notes():
        log = logging.getLogger("kalooki_sim")
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(f"{prog}: %(message)s"))
        level = log.level
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        try:
            yield
        finally:
            log.removeHandler(handler)
            log.setLevel(level)

    return contextlib.nullcontext() if quiet else notes()


#: flags whose value may start with "-" (a history's seat, checked by the API with its message)
_DASHED = ("--history",)


def _glued(argv):
    """``--history -1:discard:6♦`` as ``--history=-1:discard:6♦``: argparse would read the value
    as an unknown option, and the seat's own message would never be shown."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in _DASHED and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and argv[i + 1] not in ("-h", "--help"):
            out.append(f"{a}={argv[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _one_line_warnings(prog: str):
    """A context in which a warning prints as one line, ``prog: warning: ...``, without the
    file and the line of Python source that Python's default format adds."""
    import contextlib
    import warnings

    @contextlib.contextmanager
    def formatted():
        old = warnings.formatwarning
        warnings.formatwarning = lambda message, *a, **k: f"{prog}: warning: {message}\n"
        try:
            yield
        finally:
            warnings.formatwarning = old

    return formatted()
