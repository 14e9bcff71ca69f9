"""Speed without a change of play (issue 17): the expert's rows, recorded from the strengthened
expert before the speed work, must come out the same after it.

``data/expert_rows.json`` was recorded on 2026-12-02 by the code of 6a364c6, before the outs
discard shared its work across candidates: ``Policy("expert", exact=True, defend=True,
call_max_need=5, outs=1000)`` in the all-group and all-run contracts (hands 1, 4, 5, 9) and the
old preset elsewhere, which is what ``preset("expert")`` (``outs_mixed=False``) played. The
rows of the contracts of groups and runs (hands 2, 3, 6, 7, 8) were recorded again on
2026-12-05, when the preset took ``plan_discard=True`` (issue 27: its discard keeps to its
plan); those of hands 1, 4, 5 and 9 stood unchanged.

For every contract at 4 players, ``play_hands(2000, hand=h, policies="expert", seed=s)`` is
reduced to a fingerprint (a hash of every column, plus a few sums that say *where* two runs
differ when the hash does not match) and compared with ``data/expert_rows.json``.

Re-record only when the expert is meant to play differently::

    .venv/bin/python tests/test_expert_rows.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import kalooki_sim as ks

DATA = Path(__file__).parent / "data" / "expert_rows.json"
DEALS = 2000
SEED = 2026


def fingerprint(df):
    """A hash of the rows (every column as int64, missing as -1) and the sums a reader compares."""
    h = hashlib.sha256()
    for col in df.columns:
        s = df[col]
        if str(s.dtype) == "category":
            v = s.astype(str).to_numpy()
            h.update(("|".join(v)).encode())
            continue
        v = s.astype("Int64").fillna(-1).to_numpy(dtype=np.int64)
        h.update(col.encode())
        h.update(v.tobytes())
    return {
        "rows": int(len(df)),
        "sha256": h.hexdigest(),
        "penalty": int(df["penalty"].fillna(0).sum()),
        "calls": int(df["calls"].sum()),
        "opened": int(df["opened"].sum()),
        "went_out": int(df["went_out"].sum()),
        "turns": int(df["turns"].sum()),
        "voids": int(df["void"].sum()),
    }


def _play(h, threads=None):
    return ks.play_hands(DEALS, hand=h, policies="expert", seed=SEED + h, threads=threads)


@pytest.mark.parametrize("h", range(1, 10))
def test_expert_rows_unchanged_by_speed_work(h):
    """The same rows, contract by contract, as the expert recorded before the speed work."""
    want = json.loads(DATA.read_text())[str(h)]
    got = fingerprint(_play(h))
    assert got == want, f"hand {h}: expert rows changed: {got} != {want}"


def test_fingerprint_sees_one_changed_penalty():
    """The fingerprint must move when a single row's penalty does."""
    df = ks.play_hands(20, hand=1, policies="expert", seed=1)
    a = fingerprint(df)
    df.loc[df.index[3], "penalty"] = int(df["penalty"].fillna(0).iloc[3]) + 1
    assert fingerprint(df)["sha256"] != a["sha256"]


if __name__ == "__main__" and "--record" in sys.argv:
    out = {str(h): fingerprint(_play(h)) for h in range(1, 10)}
    DATA.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
