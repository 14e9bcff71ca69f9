"""The test run's heartbeat (tests/heartbeat.py, issue 30): a slow test is not a silent one."""

import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _run(tmp_path, seconds, every):
    (tmp_path / "test_slow_one.py").write_text(
        f"import time\n\ndef test_sleeps():\n    time.sleep({seconds})\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}  # run inside a worker too
    env.update(PYTHONPATH=str(TESTS), KALOOKI_TEST_HEARTBEAT=str(every))
    # one xdist worker, as make test runs them: the controller captures nothing, so the marks
    # reach the terminal while a test runs
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "heartbeat",
                           "-p", "no:cacheprovider", str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_slow_test_prints_its_elapsed_time_while_it_runs(tmp_path):
    r = _run(tmp_path, 2.0, 0.3)
    assert r.returncode == 0, r.stdout + r.stderr
    marks = re.findall(r"\[(\d+) s\]", r.stdout)
    assert len(marks) >= 3 and int(marks[-1]) >= 1


def test_a_quick_run_prints_no_heartbeat(tmp_path):
    r = _run(tmp_path, 0, 5)
    assert r.returncode == 0 and "1 passed" in r.stdout
    assert not re.search(r"\[\d+ s\]", r.stdout)
