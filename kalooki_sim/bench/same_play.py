"""``python -m kalooki_sim.bench.same_play``: fingerprints of the expert's play, to show that a
speed change plays the same games.

A speed change that claims "same play" runs this before and after and compares the lines:
every line must be equal. It hashes whole result frames (every column, every row), in cases
that reach the rules' corners the reference rows of ``tests/test_expert_rows.py`` do not:
three players with V6's complete suit, seven and eight players with a pack by table size (V1),
and ``call_decisions``' paired playouts.

Examples
--------
>>> from kalooki_sim.bench.same_play import frame_hash
>>> import pandas as pd
>>> frame_hash(pd.DataFrame({"a": [1, 2]})) == frame_hash(pd.DataFrame({"a": [1, 2]}))
True
>>> frame_hash(pd.DataFrame({"a": [1, 2]})) == frame_hash(pd.DataFrame({"a": [2, 1]}))
False
"""

from __future__ import annotations

import argparse
import hashlib
import sys

import pandas as pd

#: (name, Rules keywords, games) of the expert's whole games, seed 5, 2 threads
CASES = (
    ("p4", {"players": 4}, 1500),
    ("p3v6", {"players": 3, "complete_suit_for_three_runs": True}, 400),
    ("p7", {"players": 7, "pack": "by-table"}, 200),
    ("p8", {"players": 8, "pack": "by-table"}, 150),
)


def frame_hash(df: pd.DataFrame) -> str:
    """The first 16 hex digits of the sha256 of a frame's values, row by row (index left out)."""
    values = pd.util.hash_pandas_object(df, index=False).values
    return hashlib.sha256(values.tobytes()).hexdigest()[:16]


def fingerprints(scale: float = 1.0, threads: int = 2) -> list[str]:
    """One line per case: its name, rows and :func:`frame_hash`.

    Parameters
    ----------
    scale : float
        Fraction of each case's games to play (at least one), > 0.
    threads : int
        Worker threads; the lines do not depend on it (C3).
    """
    import kalooki_sim as ks

    if not scale > 0:
        raise ValueError(f"scale={scale!r} is not allowed; give a number above 0")
    lines = []
    for name, kw, games in CASES:
        df = ks.play_games(max(1, round(games * scale)), policies="expert", seed=5,
                           threads=threads, rules=ks.Rules(**kw))
        lines.append(f"{name} {len(df)} {frame_hash(df)}")
    d = ks.call_decisions(6, max(1, round(7 * scale)), seed=3, threads=threads)
    lines.append(f"call_decisions {len(d)} {frame_hash(d)}")
    return lines


def main(argv=None) -> int:
    """Print the fingerprints, one case a line."""
    ap = argparse.ArgumentParser(prog="python -m kalooki_sim.bench.same_play",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="fraction of each case's games (default 1)")
    ap.add_argument("--threads", type=int, default=2, help="worker threads (default 2)")
    args = ap.parse_args(argv)
    try:
        for line in fingerprints(args.scale, args.threads):
            print(line, flush=True)
    except ValueError as e:
        ap.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
