"""The dask.distributed side of the chunked studies (``simulate`` and the call chart's):
which clusters are allowed, a client on one, and what happens when the cluster goes away.

A study keeps every finished chunk on disk before it asks for the next one, so a lost
scheduler or worker costs only the chunks in flight. The run then ends with
:class:`StudyInterrupted`, a clear message naming what was lost and how to continue
(``--resume``), not dask's own traceback; its reconnect attempts are not logged over it.
"""

from __future__ import annotations

import contextlib
import logging
import os

from .._lib import check_int, not_allowed

#: dask's loggers that report a lost scheduler (their tracebacks would hide the study's message)
_LOUD = ("distributed.client", "distributed.utils", "distributed.comm", "distributed.core")


class StudyInterrupted(RuntimeError):
    """The cluster running a study went away; the chunks finished so far are kept and the
    same call with ``resume=True`` (``--resume``) plays the rest."""


def local_workers(cluster: str) -> int:
    """Workers of ``"local"`` (one per core) or ``"local:N"``."""
    if cluster == "local":
        return max(1, os.cpu_count() or 1)
    return check_int("cluster workers", int(cluster.split(":", 1)[1]), 1)


def check_cluster(cluster):
    """``cluster`` if it is ``None``, ``"local"``, ``"local:N"`` or ``"tcp://HOST:PORT"``.

    Examples
    --------
    >>> check_cluster("local:2"), check_cluster(None)
    ('local:2', None)
    """
    allowed = "None, 'local', 'local:N' (N workers) or 'tcp://HOST:PORT' (a dask scheduler)"
    if cluster is None:
        return None
    if not isinstance(cluster, str):
        raise TypeError(not_allowed("cluster", cluster, allowed))
    if cluster == "local":
        return cluster
    if cluster.startswith("local:"):
        n = cluster.split(":", 1)[1]
        if n.isdigit() and int(n) >= 1:
            return cluster
    elif cluster.startswith(("tcp://", "tls://")) and ":" in cluster.split("://", 1)[1]:
        return cluster
    raise ValueError(not_allowed("cluster", cluster, allowed))


class DaskExecutor:
    """A client on a LocalCluster (``"local:N"``) or an existing scheduler; subclasses say
    what a chunk is (``submit``). ``slots``: chunks kept in flight (twice the workers'
    threads)."""

    def __init__(self, cluster: str, threads):
        from distributed import Client, LocalCluster

        self.address = cluster
        self.cluster = None
        self._quiet = {}
        # a closed connection is logged (with a traceback) at INFO before any future fails
        lg = logging.getLogger("distributed.batched")
        self._batched = lg.level
        lg.setLevel(logging.WARNING)
        if cluster.startswith("local"):
            # without a dashboard the scheduler still serves HTTP (health, metrics), on port
            # 8787 unless told otherwise: a second cluster on the machine (another study, a
            # test run) would make it warn "Port 8787 is already in use" (an error under
            # -W error, and the cluster fails to start). Any free port on loopback will do.
            self.cluster = LocalCluster(n_workers=local_workers(cluster), threads_per_worker=1,
                                        processes=True, dashboard_address=None,
                                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            self.client = Client(self.cluster)
            self.threads = 1 if threads is None else threads
        else:
            self.client = Client(cluster, timeout="20s")
            self.threads = threads
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        self.slots = max(1, 2 * sum(w.get("nthreads", 1) for w in workers.values()))

    def result(self, fut):
        """The chunk's result; a lost cluster ends the study with :class:`StudyInterrupted`
        (a chunk's own error is raised as it is)."""
        from distributed.client import FutureCancelledError
        from distributed.comm import CommClosedError
        from distributed.scheduler import KilledWorker

        try:
            return fut.result()
        except (FutureCancelledError, CommClosedError, KilledWorker, ConnectionError,
                TimeoutError) as e:
            self._hush()
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise StudyInterrupted(
                f"the dask cluster at {self.address} was lost while the study ran "
                f"({type(e).__name__}: {why}); the chunks finished so far are kept: run the "
                "same command again with --resume, on a cluster that answers (or without "
                "--scheduler), to play the rest") from None

    def _hush(self):
        """Silence dask's reconnect tracebacks once the loss is known (restored by
        :meth:`close`)."""
        for name in _LOUD:
            lg = logging.getLogger(name)
            self._quiet.setdefault(name, lg.level)
            lg.setLevel(logging.CRITICAL + 1)

    def close(self):
        """Close the client (and the LocalCluster); after a loss, without waiting on it."""
        lost = bool(self._quiet)  # the client no longer answers: do not wait on it
        with contextlib.suppress(Exception):
            self.client.close(timeout=2 if lost else None)
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()
        for name, level in self._quiet.items():
            logging.getLogger(name).setLevel(level)
        self._quiet.clear()
        logging.getLogger("distributed.batched").setLevel(self._batched)
