"""The belief about the hidden hands against the truth: positions of expert hands with known
hidden hands, the advisor's samples of them, and the calibration of its probability that a
seat holds a card of a rank (the posterior tests, and their measurement)."""

from __future__ import annotations

from collections import Counter

import numpy as np

import kalooki_sim as ks
from kalooki_sim.studies.advisor import _block
from kalooki_sim.studies.review import _decision_of, _Reader
from kalooki_sim.studies.situation import _build

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]


def _rank_col(card):
    """Column of a card's rank in :data:`RANKS` (``"10♥"`` -> 9, ``"JK"`` -> 13)."""
    return RANKS.index(card if card == "JK" else card[:-1])


def positions(seeds, hands, seat=0, every=2):
    """Every ``every``-th take or call decision of ``seat`` in the expert hands ``(seed,
    hand)``: ``(situation, truth)``, the situation as the review reads it from the trace (what
    the seat knew, :class:`kalooki_sim.studies.review._Reader`) and ``truth[k, r]``, the copies
    of rank ``r`` in the hand of the seat ``k`` to its right then (row 0 unused)."""
    out = []
    k = 0
    for s in seeds:
        for h in hands:
            t = ks.trace(seed=s, game=0, hand=h, policies="expert")
            reader, held = None, None
            for r in t.records:
                e = r["event"]
                if e == "hand":
                    reader = _Reader(r, t.rules, seat)
                    held = [Counter() for _ in range(r["players"])]
                    continue
                if reader is None or e == "drop":
                    continue
                if _decision_of(r, seat) is not None:
                    if k % every == 0:
                        truth = np.zeros((reader.P, len(RANKS)), np.int64)
                        for p in range(reader.P):
                            for c, n in held[p].items():
                                truth[reader.offset(p), _rank_col(c)] += n
                        out.append((reader.situation(r["card"]), truth))
                    k += 1
                reader.apply(r)
                p = r["seat"]
                if e in ("deal", "take", "call", "penalty", "draw"):
                    held[p][r["card"]] += 1
                elif e in ("layoff", "discard"):
                    held[p][r["card"]] -= 1
                elif e == "meld":
                    for c, _ in r["cards"]:
                        held[p][c] -= 1
    return out


def beliefs(pos, pol, rules, samples, *, history=True, past_turns=True, swaps=None,
            seed=1):
    """For each position, ``(belief, truth, unopened)`` per seat ``k`` 1..P-1 and rank:
    ``belief[k, r]`` the share of the samples in which seat ``k`` holds at least one card of
    rank ``r``, ``truth[k, r]`` whether it does; ``unopened[k]`` whether its events weigh. The
    samples are the advisor's (:func:`kalooki_sim.studies.advisor._block`), ``history`` read
    or not, with ``swaps`` proposals of each chain."""
    out = []
    for i, (s, truth) in enumerate(pos):
        sit = _build(s["hand"], s["card"], s["contract"], s["discarder"], s["stock_left"],
                     s["calls_made"], s["opened"], s["table"], s["seen"], s["known"],
                     s["hand_sizes"], s["reshuffled"], s["history"] if history else None,
                     rules)
        _, logw, ranks, _ = _block(sit, pol, seed + i, 0, samples, past_turns, swaps=swaps,
                                   reuse=1)  # the belief: one sample a rollout
        assert (logw == 0).all() or swaps == 0 or not history
        P = ranks.shape[1]
        w = np.exp(logw - logw.max())
        w /= w.sum()
        have = np.tensordot(w, (ranks >= 1).astype(float), axes=1)  # engine seats
        b = np.array([have[(-k) % P] for k in range(P)])  # rows: seats to the right
        opened = set(s["opened"])
        out.append((b[1:], truth[1:] >= 1, np.array([k not in opened for k in range(1, P)])))
    return out


def calibration(cells, bins=10):
    """``(mean belief, observed frequency, cells)`` in each of ``bins`` equal-count bins of
    the belief, from ``cells`` = (beliefs, truths) flattened."""
    b, y = cells
    order = np.argsort(b, kind="stable")
    rows = []
    for part in np.array_split(order, bins):
        rows.append((float(b[part].mean()), float(y[part].mean()), len(part)))
    return rows


def cells_of(result, unopened_only=True, shuffle_seats=False):
    """The (belief, truth) cells of :func:`beliefs`' result, flattened; ``unopened_only``:
    the seats whose events weigh; ``shuffle_seats``: each seat's belief read against the next
    seat's truth (a deliberately wrong reading)."""
    bs, ys = [], []
    for b, y, u in result:
        if shuffle_seats:
            y = np.roll(y, 1, axis=0)
        keep = u if unopened_only else np.ones_like(u)
        bs.append(b[keep].ravel())
        ys.append(y[keep].ravel())
    return np.concatenate(bs), np.concatenate(ys).astype(float)


def log_score(cells, floor=1e-3):
    """Mean log-likelihood of the truths under the beliefs (beliefs clipped to
    ``[floor, 1 - floor]``: a finite sample's 0 or 1)."""
    b, y = cells
    b = np.clip(b, floor, 1 - floor)
    return float(np.mean(y * np.log(b) + (1 - y) * np.log(1 - b)))
