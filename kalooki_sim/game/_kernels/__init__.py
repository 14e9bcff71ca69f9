"""Numba kernels of the rules: the opening solver (R4, R5, R7) and lay-offs (R10, R11).

They work on numeric encodings (card codes, counts per suit and rank) and allocate nothing;
the public functions in :mod:`kalooki_sim.game.melds` validate inputs and call them. May import
nothing above ``game``.

Numba's on-disk cache (``cache=True``) is keyed by each kernel's own source file, but a cached
kernel also holds the code of the kernels it calls in other files (the engine calls the
solver): after an edit to ``solver.py``, the cached engine would still play the old solver. So
:func:`drop_stale_cache` drops a kernel folder's cache whenever any kernel source of the
package changed (a hash of all ``_kernels`` sources is kept beside it). With
``NUMBA_CACHE_DIR`` set, keeping that cache fresh is the user's part.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[2]


def _kernel_sources() -> list[Path]:
    return sorted(_PACKAGE.glob("*/_kernels/*.py"))


def drop_stale_cache(folder: Path) -> None:
    """Drop the Numba cache of ``folder`` when any kernel source of the package changed."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    digest = hashlib.sha256()
    for src in _kernel_sources():
        digest.update(src.relative_to(_PACKAGE).as_posix().encode())
        digest.update(src.read_bytes())
    cache = Path(folder) / "__pycache__"
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


drop_stale_cache(Path(__file__).resolve().parent)
