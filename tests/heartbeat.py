"""A pytest plugin: a mark of life in the test output every few seconds while the tests run
(issue 30: no silence over 15 s). With two workers each on a slow test the terminal is
otherwise silent for minutes, and a new user cannot tell a slow test from a hung one. Loaded
by ``conftest.py``; ``KALOOKI_TEST_HEARTBEAT`` sets the seconds between marks (10 by
default)."""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest

_beat: dict = {}


def pytest_sessionstart(session):
    """Start the heartbeat (in the controller only, not in the xdist workers)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    every = float(os.environ.get("KALOOKI_TEST_HEARTBEAT", "10"))
    # the terminal reporter writes where the run's output goes, past pytest's own capture
    tr = session.config.pluginmanager.getplugin("terminalreporter")
    start = time.monotonic()
    stop = threading.Event()

    def beat():
        while not stop.wait(every):
            text = f" [{time.monotonic() - start:.0f} s]"
            if tr is not None:
                tr.write(text)
                tr.flush()
            else:
                sys.stderr.write(text)
                sys.stderr.flush()

    _beat["stop"] = stop
    threading.Thread(target=beat, name="test-heartbeat", daemon=True).start()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """Stop the heartbeat before the summary."""
    stop = _beat.pop("stop", None)
    if stop is not None:
        stop.set()
