"""One progress bar for every long call: tqdm on stderr, or a bar that shows nothing.

``progress`` is the public argument of :func:`~kalooki_sim.play_hands`,
:func:`~kalooki_sim.simulate`, :func:`~kalooki_sim.call_decisions`,
:func:`~kalooki_sim.tournament` and :func:`~kalooki_sim.advise`: ``True`` shows the bar,
``False`` hides it, ``None`` shows it for runs of at least ``auto_at`` units when stderr is a
terminal.

Examples
--------
>>> bar = progress_bar(False, 10, auto_at=1)
>>> bar.update(3); bar.close()
>>> bool(bar)
False
"""

from __future__ import annotations

import logging
import sys


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
