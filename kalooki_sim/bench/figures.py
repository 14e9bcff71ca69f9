"""The figures of ``make bench``, timed through the public API of whichever tree imports them.

This file is run as a script by :mod:`kalooki_sim.bench.against` with another tree's interpreter
(``python -I figures.py NAME ... --hands FILE``), as ``asv continuous`` runs one benchmark suite
against two commits: it imports nothing of ``kalooki_sim`` but its public namespace, so an older
tree answers the figures its API has and reports ``null`` for the others. Each figure prints one
JSON line ``{"figure", "value", "unit", "higher", "detail"}``.

A figure is timed after a warm-up call (Numba's cache loaded, the workspaces built), best of the
repeats inside the process; the harness takes the best over processes and rounds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings

import numpy as np

#: the advisor's benchmark situation: hand 6, a call two seats after the discarder
ADVISOR_CASE = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♥", contract=6,
                    discarder=2, stock_left=45)

#: what the table did before :data:`ADVISOR_CASE`'s offer, 30 events ("advise stays
#: <= 2 s with a 30-event history"): nine turns of a draw, a discard and the next seat's pass
#: on it (the seats in play order, 3, 2, 1, 0, ...), then seat 2 draws and discards the card
#: on offer, and seat 1, asked first, passes it
HISTORY_CASE = tuple(
    [e for i, c in enumerate(["9♣", "J♠", "3♦", "Q♠", "4♥", "8♦", "2♠", "10♦", "6♣"])
     for e in (((3 - i) % 4, "draw", ""), ((3 - i) % 4, "discard", c),
               ((2 - i) % 4, "pass", c))]
    + [(2, "draw", ""), (2, "discard", "7♥"), (1, "pass", "7♥")])

#: name -> (unit, higher is better, function of the hands file)
FIGURES: dict = {}
#: multiplies every figure's work (games, deals, hands); tests run at a small scale
SCALE = [1.0]


def _n(k):
    """``k`` scaled by :data:`SCALE`, at least 1."""
    return max(1, round(k * SCALE[0]))


def figure(name, unit, higher):
    """Register ``f(hands) -> (value, detail)`` as figure ``name``."""
    def deco(f):
        FIGURES[name] = (unit, higher, f)
        return f
    return deco


def _ks():
    import kalooki_sim
    return kalooki_sim


def _best(f, repeats):
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def _mix(policy, games, threads, repeats=2):
    """Scored hands per second of ``play_games`` (4 players, the nine contracts in turn)."""
    ks = _ks()
    ks.play_games(2, players=4, policies=policy, seed=2, threads=threads)  # warm
    scored = []

    def run():
        df = ks.play_games(games, players=4, policies=policy, seed=2, threads=threads)
        scored.append(int((~df["void"].astype(bool)).sum()) // 4)

    sec = _best(run, repeats)
    return scored[-1] / sec, f"{scored[-1]} scored hands in {sec:.2f} s"


@figure("greedy_mix_1t", "hands/s", True)
def greedy_mix_1t(hands):
    """Greedy, whole games at 4 players, 1 thread."""
    return _mix("greedy", _n(1500), 1)


@figure("greedy_mix_2t", "hands/s", True)
def greedy_mix_2t(hands):
    """Greedy, whole games at 4 players, 2 threads."""
    return _mix("greedy", _n(3000), 2)


@figure("expert_mix_1t", "hands/s", True)
def expert_mix_1t(hands):
    """The expert, whole games at 4 players, 1 thread."""
    return _mix("expert", _n(300), 1)


@figure("chart_mix_1t", "hands/s", True)
def chart_mix_1t(hands):
    """The chart player (the expert following the published call chart at its takes
    and calls), the same games as ``expert_mix_1t``, 1 thread."""
    return _mix("chart", _n(300), 1)


@figure("cards_needed_py_us", "µs", False)
def cards_needed_py_us(hands):
    """``ks.cards_needed`` from Python on code arrays of hands met in play: the median per
    contract (each hand best of 5), the worst contract's."""
    ks = _ks()
    meds = {}
    for h in range(1, 10):
        per = []
        for codes in hands.get(h, [])[:_n(300)]:
            ks.cards_needed(codes, h)
            per.append(_best(lambda c=codes, h=h: ks.cards_needed(c, h), 5) * 1e6)
        if per:
            meds[h] = float(np.median(per))
    worst = max(meds, key=meds.get)
    return meds[worst], "medians " + " ".join(f"{h}:{v:.1f}" for h, v in meds.items())


def _advise_seconds(**extra):
    """Best of 2 of ``advise(**ADVISOR_CASE, **extra, rollouts=2000)``, expert players, 2
    threads, after a warm-up: ``(seconds, rollouts)``."""
    ks = _ks()
    ks.advise(**ADVISOR_CASE, **extra, rollouts=20, policies="expert", threads=2)
    n = _n(2000)
    sec = _best(lambda: ks.advise(**ADVISOR_CASE, **extra, rollouts=n, policies="expert",
                                  seed=1, threads=2), 2)
    return sec, n


@figure("advise_s", "s", False)
def advise_s(hands):
    """``advise(**ADVISOR_CASE, rollouts=2000)`` with expert players, 2 threads."""
    sec, n = _advise_seconds()
    return sec, f"{n:,} paired rollouts"


@figure("advise_history_s", "s", False)
def advise_history_s(hands):
    """``advise(**ADVISOR_CASE, history=HISTORY_CASE, rollouts=2000)`` with expert players,
    2 threads: the advisor reading a 30-event history (its weights replayed on every sample).
    The weights collapse on this history and are tempered; that warning is not the figure's
    business."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sec, n = _advise_seconds(history=list(HISTORY_CASE))
    return sec, f"{n:,} paired rollouts, {len(HISTORY_CASE)} events"


@figure("call_decisions_h9", "deals/s", True)
def call_decisions_h9(hands):
    """``call_decisions`` of hand 9, expert, 4 players, 2 threads."""
    ks = _ks()
    ks.call_decisions(2, 9, threads=2)
    deals = _n(40)
    n = []
    sec = _best(lambda: n.append(len(ks.call_decisions(deals, 9, seed=1, threads=2))), 1)
    return deals / sec, f"{deals} deals, {n[-1]} decisions in {sec:.1f} s"


@figure("review_h9_s", "s", False)
def review_h9_s(hands):
    """``review`` of seat 0 in hand 9 of seed 1, game 0 (the README's example), 200 rollouts a
    decision in one look (the fixed-size review, so the series stays comparable), 2 threads."""
    ks = _ks()
    t = ks.trace(seed=1, game=0, hand=9, policies="expert")
    ks.review(t, 0, rollouts=4, threads=2)
    n = []
    kw = {"rollouts": _n(200)}
    sec = _best(lambda: n.append(len(ks.review(t, 0, seed=1, threads=2, **kw))), 1)
    return sec, f"{n[-1]} decisions"


@figure("review_s_per_hand", "s", False)
def review_s_per_hand(hands):
    """Seconds per hand of ``review`` at its defaults (the sequential looks, the history, the
    discards), seat 0 of hand ``h`` of seed 1, game 0, for the contracts 1-9 (scaled: the
    first of them), 2 threads: the review's "at most 10 s a hand and seat" read by the bench
    (``python -m kalooki_sim.studies.review_measure`` reads three deals of each)."""
    ks = _ks()
    contracts = range(1, min(9, _n(9)) + 1)
    ks.review(ks.trace(seed=1, game=0, hand=1, policies="expert"), 0, rollouts=4, threads=2)
    sec, rows = [], []
    for h in contracts:
        t = ks.trace(seed=1, game=0, hand=h, policies="expert")
        t0 = time.perf_counter()
        r = ks.review(t, 0, seed=1, threads=2)
        sec.append(time.perf_counter() - t0)
        rows.append(r)
    lo = np.concatenate([r["d_value_lo"].to_numpy(float) for r in rows])
    hi = np.concatenate([r["d_value_hi"].to_numpy(float) for r in rows])
    open_ = ~((lo > 0) | (hi < 0)) & ~((lo >= -2) & (hi <= 2))
    return float(np.mean(sec)), (f"{len(sec)} hand{'s' * (len(sec) != 1)}, {len(lo)} decisions, "
                                 f"{open_.mean():.0%} undecided; slowest {max(sec):.1f} s")


#: the most paired rollouts the advisor may spend on one position of :func:`time_to_decided_s`
#: (a take or call; a discard plays every candidate, so its cap is a quarter)
DECIDE_CAP = 16_000


def decode_positions(raw: list) -> list:
    """Positions as JSON keeps them, made the advisor's arguments again: the seat-keyed maps
    (``known``, ``hand_sizes``, kept as ``[seat, value]`` pairs) dicts, a meld on the table and
    a history event tuples."""
    for p in raw:
        kw = p["kwargs"]
        for k in ("known", "hand_sizes"):
            if kw.get(k) is not None:
                kw[k] = {int(s): v for s, v in kw[k]}
        for k in ("table", "history"):
            if kw.get(k) is not None:
                kw[k] = [tuple(x) for x in kw[k]]
    return raw


def _read_positions():
    """The committed positions (``positions.json`` beside this file, read without importing
    the tree: an older tree is timed on the same positions)."""
    from pathlib import Path

    path = Path(__file__).with_name("positions.json")
    return decode_positions(json.loads(path.read_text(encoding="utf-8")))


@figure("time_to_decided_s", "s", False)
def time_to_decided_s(hands):
    """The median seconds until the advisor's sequential rule (``decide=True``) decides (the
    interval excludes zero) or finds the options equal (inside ±2 points), over the 30
    committed positions (``positions.json``: 10 takes, 10 calls, 10 discards from expert
    traces, with their histories), expert players, 2 threads; a position the cap leaves open
    counts its whole time (so the median is a lower bound when half of them stay open; the
    detail says how many)."""
    ks = _ks()
    every = _read_positions()
    pos = every[::max(1, round(len(every) / _n(len(every))))][:_n(len(every))]
    secs, how = [], []
    with warnings.catch_warnings():  # a history's tempering warning is not the figure's business
        warnings.simplefilter("ignore", RuntimeWarning)
        ks.advise(**ADVISOR_CASE, rollouts=20, policies="expert", threads=2)
        ks.advise_discard(**next(p for p in every if p["kind"] == "discard")["kwargs"],
                          rollouts=20, policies="expert", threads=2)
        for p in pos:
            ask = ks.advise_discard if p["kind"] == "discard" else ks.advise
            cap = DECIDE_CAP // (4 if p["kind"] == "discard" else 1)
            t0 = time.perf_counter()
            a = ask(**p["kwargs"], rollouts=_n(cap), decide=True, policies="expert", seed=1,
                    threads=2)
            secs.append(time.perf_counter() - t0)
            how.append(a.stopped_by)
    done = sum(h in ("decided", "equal") for h in how)
    return float(np.median(secs)), (f"{done} of {len(pos)} decided or equal "
                                    f"({how.count('decided')} decided, {how.count('equal')} "
                                    f"equal); slowest {max(secs):.1f} s")


def slowest_cases():
    """The cells of the slowest-hand scan: (contract, players, variant) for every contract,
    table size 3-8 and variant (the card's rules; V6), the pack by table at 7-8 players."""
    for h in range(1, 10):
        for p in range(3, 9):
            for v6 in (False, True):
                yield h, p, v6


@figure("slowest_expert_ms", "ms", False)
def slowest_expert_ms(hands, deals=6):
    """The slowest single expert hand (one deal played to its end, out or void: a
    ``play_hands`` call of one game with ``max_replays=0``, 1 thread) over
    :func:`slowest_cases`, ``deals`` deals each."""
    ks = _ks()
    worst, where = 0.0, ""
    cases = list(slowest_cases())[:_n(len(list(slowest_cases())))]
    for h, p, v6 in cases:
        rules = ks.Rules(players=p, complete_suit_for_three_runs=v6, max_replays=0,
                         pack="by-table" if p > 6 else "card")
        ks.play_hands(1, hand=h, policies="expert", rules=rules, seed=9101, threads=1)
        for g in range(_n(deals)):
            sec = _best(lambda g=g, h=h, rules=rules: ks.play_hands(
                1, hand=h, policies="expert", rules=rules, seed=9101, threads=1, first_game=g), 1)
            if sec > worst:
                worst, where = sec, f"hand {h}, {p} players{', V6' if v6 else ''}, game {g}"
    return worst * 1e3, where


def load_hands(path):
    """The hands file: ``{contract: [code arrays]}`` from an ``.npz`` of ``codes``, ``starts``
    and ``contract``."""
    if not path:
        return {}
    z = np.load(path)
    out = {}
    for i, h in enumerate(z["contract"]):
        out.setdefault(int(h), []).append(z["codes"][z["starts"][i]:z["starts"][i + 1]])
    return out


def main(argv=None):
    """Print one JSON line per figure asked for."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("figures", nargs="+", choices=sorted(FIGURES))
    ap.add_argument("--hands", default="")
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args(argv)
    SCALE[0] = args.scale
    hands = load_hands(args.hands)
    for name in args.figures:
        unit, higher, f = FIGURES[name]
        try:
            value, detail = f(hands)
        except Exception as e:  # an older tree without this API: no figure, said why
            value, detail = None, f"{type(e).__name__}: {e}"[:200]
        print(json.dumps({"figure": name, "value": value, "unit": unit, "higher": higher,
                          "detail": detail}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    sys.exit(main())
