"""Numba kernels on numeric encodings; the public API wraps them (see the package docs).

Numba's on-disk cache (``cache=True``) is keyed by each kernel's own source file, but a cached
kernel also holds the code of the kernels it calls in other files: after an edit to, say,
``solver.py``, the cached engine would still play the old solver. So on import the cache of
this folder is dropped whenever any kernel source changed (a hash of the sources is kept
beside it). With ``NUMBA_CACHE_DIR`` set, keeping that cache fresh is the user's part.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _drop_stale_cache() -> None:
    here = Path(__file__).resolve().parent
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    digest = hashlib.sha256()
    for src in sorted(here.glob("*.py")):
        digest.update(src.name.encode())
        digest.update(src.read_bytes())
    cache = here / "__pycache__"
    stamp = cache / "kernels.sha256"
    try:
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        cache.mkdir(exist_ok=True)
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass  # a read-only install: nothing to keep fresh


_drop_stale_cache()
