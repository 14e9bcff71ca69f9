"""Long answers run one at a time on a worker thread (the compiled kernels use every core
already), each a job with its own id, so two browsers get their own answers; a job reports
its progress from the API's own progress bar (tqdm's ``k/N`` on stderr)."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import threading
import time
import traceback
import uuid
from concurrent.futures import ThreadPoolExecutor

_FRACTION = re.compile(r"(\d+)/(\d+)")
#: finished jobs kept for their pages to read (the oldest dropped first)
KEEP = 200


class _Progress(io.TextIOBase):
    """A stderr that keeps the last ``k/N`` a progress bar wrote."""

    def __init__(self, job):
        self.job = job

    def write(self, s):
        found = _FRACTION.findall(s)
        if found:
            k, n = found[-1]
            self.job["done"], self.job["total"] = int(k), int(n)
        return len(s)


class Jobs:
    """The job table: :meth:`submit` a function, :meth:`get` its state by id."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kalooki-job")
        self.jobs: dict[str, dict] = {}
        self.lock = threading.Lock()

    def submit(self, kind: str, fn) -> str:
        """Queue ``fn(job)`` (it returns the answer as JSON-ready data); its id."""
        jid = uuid.uuid4().hex
        job = dict(id=jid, kind=kind, state="queued", done=0, total=0, submitted=time.time(),
                   started=None, result=None, error=None, field=None)
        with self.lock:
            self.jobs[jid] = job
            while len(self.jobs) > KEEP:
                old = next(iter(self.jobs))
                if self.jobs[old]["state"] in ("queued", "running"):
                    break
                del self.jobs[old]
        self.pool.submit(self._run, job, fn)
        return jid

    def _run(self, job, fn):
        job["state"], job["started"] = "running", time.time()
        try:
            with contextlib.redirect_stderr(_Progress(job)):
                job["result"] = fn(job)
            job["state"] = "done"
        except Exception as e:  # noqa: BLE001 (any refusal is the job's answer, not a crash)
            job["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
            job["field"] = getattr(e, "field", None)
            job["line"] = getattr(e, "line", None)
            if not isinstance(e, (ValueError, TypeError)):
                traceback.print_exc(file=sys.__stderr__)
                job["error"] = f"the server could not answer: {type(e).__name__}: {job['error']}"
            job["state"] = "error"
        job["seconds"] = time.time() - job["started"]

    def get(self, jid: str) -> dict | None:
        """The job's state (``queued``, ``running``, ``done``, ``error``), progress, answer."""
        job = self.jobs.get(jid)
        if job is None:
            return None
        out = {k: v for k, v in job.items()}
        out["elapsed"] = time.time() - (job["started"] or job["submitted"])
        if job["state"] == "queued":
            with self.lock:
                ahead = [j for j in self.jobs.values() if j["state"] in ("queued", "running")
                         and j["submitted"] < job["submitted"]]
            out["ahead"] = len(ahead)
        return out
