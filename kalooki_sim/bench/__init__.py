"""``make bench``: the speed of this tree, side by side with another commit's.

``python -m kalooki_sim.bench --against REF`` times the figures of :mod:`.figures` on this
tree and on REF in alternating processes (:mod:`.against`) and appends this tree's figures and
the ratios to the committed record (:mod:`.record`). ``--suite`` prints the older, finer
benchmarks of this module (the solver and cards-needed kernels, threads, memory, estimators),
which time this tree alone.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
from numba import njit

from ..game import kernels as _sk
from ..game.cards import JOKER, hand_counts

PACK = np.array([c for c in range(52) for _ in range(2)] + [JOKER] * 4, dtype=np.int64)


@njit  # no cache: a cached caller would not see changes in the kernels it calls
def _solve_many(counts, jokers, g, r, opts, scratch, runs, groups):
    """Solve every hand in a compiled loop (no Python dispatch in the timing)."""
    n = counts.shape[0]
    acc = 0
    for i in range(n):
        v, _ = _sk.solve_kernel(counts[i], jokers[i], g, r, False, opts, scratch, runs, groups)
        acc += v
    return acc


def bench_solver(n_hands: int = 20000, seed: int = 0) -> list[tuple[int, int, int, float, float]]:
    """Median and mean µs per solver call on random hands: rows (cards, groups, runs, med, mean).

    The median is over batches of 100 hands timed in a compiled loop.
    """
    rng = np.random.default_rng(seed)
    rows = []
    ws = _sk.new_workspace(4)
    for n_cards, (g, r) in [(9, (3, 0)), (12, (0, 3)), (12, (4, 0)), (16, (0, 4)), (16, (2, 2))]:
        counts = np.zeros((n_hands, 4, 14), np.int64)
        jokers = np.zeros(n_hands, np.int64)
        for i in range(n_hands):
            counts[i], jokers[i] = hand_counts(rng.choice(PACK, n_cards, replace=False))
        _solve_many(counts[:2], jokers[:2], g, r, *ws)  # compile / load cache
        batch = 100
        per = []
        for b in range(0, n_hands, batch):
            t0 = time.perf_counter()
            _solve_many(counts[b:b + batch], jokers[b:b + batch], g, r, *ws)
            per.append((time.perf_counter() - t0) / batch * 1e6)
        rows.append((n_cards, g, r, float(np.median(per)), float(np.mean(per))))
    return rows


def bench_engine(n_games: int = 3000, seed: int = 0,
                 policy: str = "greedy") -> list[tuple[int, float]]:
    """Hands per second of ``policy`` at 4 players over the nine-contract mix, per thread count.

    Times the engine itself (no DataFrame), best of two runs, on 1 and 2 threads.
    """
    from ..engine.play import run_games, setup

    rules, _, pol, seed, _ = setup(4, policy, seed, None, None)
    games = np.arange(n_games)
    hands = list(range(1, 10))
    run_games(games[:4], hands, rules, pol, seed, 1, False)  # compile / load cache
    rows = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        best = np.inf
        for _ in range(2):
            t0 = time.perf_counter()
            run_games(games, hands, rules, pol, seed, threads, False)
            best = min(best, time.perf_counter() - t0)
        rows.append((threads, n_games * 9 / best))
    return rows


def bench_start() -> tuple[float, float]:
    """Seconds for a fresh process to play one hand: with an empty Numba cache, then cached."""
    code = "import kalooki_sim as k; k.play_hands(1, hand=9)"
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        out = []
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            out.append(time.perf_counter() - t0)
    return out[0], out[1]


def main() -> None:
    """Print every benchmark."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()}, {__import__('os').cpu_count()} cores")
    print("\nopening solver (kernel, compiled loop), random hands from a 108-card pack")
    print(f"{'cards':>5} {'contract':>9} {'median µs':>10} {'mean µs':>9}")
    for n, g, r, med, mean in bench_solver():
        print(f"{n:>5} {f'{g}g+{r}r':>9} {med:>10.2f} {mean:>9.2f}")
    speed = {}
    for policy, games in (("greedy", 3000), ("expert", 300)):
        print(f"\nengine: {policy}, 4 players, hands 1-9 in turn (whole games)")
        for threads, hps in bench_engine(games, policy=policy):
            speed[policy, threads] = hps
            print(f"  {threads} thread(s): {hps:,.0f} hands/s")
    for threads in sorted({t for _, t in speed}):
        if ("greedy", threads) in speed and ("expert", threads) in speed:
            print(f"  expert / greedy on {threads} thread(s): "
                  f"{speed['expert', threads] / speed['greedy', threads]:.3f}")
    cold, warm = bench_start()
    print("\nstart-up, a new process playing one hand:")
    print(f"  empty Numba cache (compiles): {cold:.1f} s; cached: {warm:.1f} s")




# -- cards needed ---------------------------------------------------------------------


@njit  # no cache: a cached caller would not see changes in the kernels it calls
def _needed_many(counts, jokers, g, r, avail, opts, scratch):
    """``needed_kernel`` on every hand in a compiled loop."""
    acc = 0
    for i in range(counts.shape[0]):
        acc += _nk.needed_kernel(counts[i], jokers[i], g, r, False, avail[i], opts, scratch)
    return acc


def bench_needed(n_hands: int = 2000, seed: int = 0) -> list[tuple[int, int, int, float, float]]:
    """Median and mean µs per ``needed_kernel`` call: rows (cards, groups, runs, med, mean).

    Random hands from a 108-card pack, the supply being the pack minus the hand; the median is
    over batches of 50 hands timed in a compiled loop.
    """
    rng = np.random.default_rng(seed)
    opts, scratch = _nk.new_workspace()
    rows = []
    for n_cards, (g, r) in [(9, (3, 0)), (12, (0, 3)), (12, (4, 0)), (12, (1, 2)),
                            (16, (0, 4)), (16, (2, 2)), (16, (1, 3)), (13, (3, 1)),
                            (14, (2, 2)), (10, (2, 1)), (11, (1, 2)), (15, (1, 3))]:
        counts = np.zeros((n_hands, 4, 14), np.int64)
        jokers = np.zeros(n_hands, np.int64)
        avail = np.zeros((n_hands, 53), np.int64)
        for i in range(n_hands):
            codes = rng.choice(PACK, n_cards, replace=False)
            counts[i], jokers[i] = hand_counts(codes)
            avail[i, :52] = 2
            avail[i, JOKER] = 4
            np.subtract.at(avail[i], codes, 1)
        _needed_many(counts[:2], jokers[:2], g, r, avail[:2], opts, scratch)
        batch = 50
        per = []
        for b in range(0, n_hands, batch):
            t0 = time.perf_counter()
            _needed_many(counts[b:b + batch], jokers[b:b + batch], g, r, avail[b:b + batch],
                         opts, scratch)
            per.append((time.perf_counter() - t0) / batch * 1e6)
        rows.append((n_cards, g, r, float(np.median(per)), float(np.mean(per))))
    return rows


def main_needed() -> None:
    """Print the cards-needed benchmark."""
    print("\ncards needed (kernel, compiled loop), random hands from a 108-card pack")
    print(f"{'cards':>5} {'contract':>9} {'median µs':>10} {'mean µs':>9}")
    for n, g, r, med, mean in bench_needed():
        print(f"{n:>5} {f'{g}g+{r}r':>9} {med:>10.2f} {mean:>9.2f}")


from ..engine.kernels import needed as _nk  # noqa: E402  (appended section)

#: events that bring a card into an unopened seat's hand (R6, R9; V9 turned cards are takes)
_GAINS = ("deal", "take", "call", "penalty", "draw")


def needed_hands_in_play(hand: int, games: int = 60, seed: int = 0, policies="expert"):
    """The hands the cards-needed kernel meets when ``policies`` play hand ``hand`` (4 players,
    the card's rules): for every unopened seat at each of its discards, the hand less each
    distinct natural it could let go, and at each offer it answers, the hand plus the card
    offered. Rebuilt from :func:`kalooki_sim.trace` logs of games ``0 .. games-1``; returns a
    list of card-code arrays.
    """
    from collections import Counter

    from ..engine.trace import trace
    from ..game.cards import to_codes

    out = []
    for game in range(games):
        held = {}
        opened = set()
        for rec in trace(seed, game=game, hand=hand, policies=policies).records:
            ev, seat = rec["event"], rec.get("seat", -1)
            if ev == "void":  # R13: the hand is dealt again, every seat starts afresh
                held.clear()
                opened.clear()
                continue
            if ev == "open":
                opened.add(seat)
            if seat in opened or seat < 0 or "card" not in rec or rec["card"] is None:
                continue
            code = int(to_codes(rec["card"])[0])
            h = held.setdefault(seat, Counter())
            if ev in ("decline", "take", "call") and rec.get("as", ev) in ("take", "call"):
                out.append(np.array(list((h + Counter([code])).elements()), np.int64))
            if ev in _GAINS:
                h[code] += 1
            elif ev == "discard":
                for c in {c for c in h if c != JOKER}:
                    out.append(np.array(list((h - Counter([c])).elements()), np.int64))
                h[code] -= 1
    return out


def bench_needed_in_play(games: int = 60, reps: int = 20, cap: int = 1500, seed: int = 0):
    """Median and p99 µs per ``needed_kernel`` call over the hands the expert meets in play
    (:func:`needed_hands_in_play`), per contract of the card's schedule: rows ``(hand,
    groups, runs, hands, median, p99)``. Each hand is timed alone, ``reps`` calls in a compiled
    loop, the best of three; the supply is the pack less the hand (the dead cards are not
    removed)."""
    from ..game.rules import Rules

    rules = Rules()
    opts, scratch = _nk.new_workspace()
    rng = np.random.default_rng(seed)
    rows = []
    for h in range(1, 10):
        _, g, r = rules.deal(h)
        hands = needed_hands_in_play(h, games, seed)
        if len(hands) > cap:
            hands = [hands[i] for i in rng.choice(len(hands), cap, replace=False)]
        per = []
        for codes in hands:
            counts = np.zeros((reps, 4, 14), np.int64)
            jokers = np.zeros(reps, np.int64)
            avail = np.zeros((reps, 53), np.int64)
            c1, j1 = hand_counts(codes)
            counts[:], jokers[:] = c1, j1
            avail[:, :52] = 2
            avail[:, JOKER] = 4
            for c in codes:
                avail[:, c] -= 1
            best = np.inf
            for _ in range(3):  # the best of three: a busy machine only ever adds time
                t0 = time.perf_counter()
                _needed_many(counts, jokers, g, r, avail, opts, scratch)
                best = min(best, time.perf_counter() - t0)
            per.append(best / reps * 1e6)
        rows.append((h, g, r, len(per), float(np.median(per)), float(np.percentile(per, 99))))
    return rows


def bench_cards_needed_python(games: int = 30, cap: int = 300, seed: int = 0):
    """Median and p99 µs per :func:`kalooki_sim.cards_needed` call from Python (validation,
    the position, the kernel) on the hands the expert meets in play, given as int64 code
    arrays: rows ``(hand, hands, median, p99)``; each call timed alone, the best of five."""
    from ..players.needed import cards_needed

    rng = np.random.default_rng(seed)
    rows = []
    for h in range(1, 10):
        hands = needed_hands_in_play(h, games, seed)
        if len(hands) > cap:
            hands = [hands[i] for i in rng.choice(len(hands), cap, replace=False)]
        per = []
        for codes in hands:
            cards_needed(codes, h)
            best = np.inf
            for _ in range(5):
                t0 = time.perf_counter()
                cards_needed(codes, h)
                best = min(best, time.perf_counter() - t0)
            per.append(best * 1e6)
        rows.append((h, len(per), float(np.median(per)), float(np.percentile(per, 99))))
    return rows


def main_needed_in_play() -> None:
    """Print :func:`bench_needed_in_play` and :func:`bench_cards_needed_python`."""
    print("\ncards needed (kernel), the hands the expert meets in play, 4 players, per contract")
    print(f"{'hand':>4} {'contract':>9} {'hands':>6} {'median µs':>10} {'p99 µs':>8}")
    for h, g, r, n, med, p99 in bench_needed_in_play():
        print(f"{h:>4} {f'{g}g+{r}r':>9} {n:>6} {med:>10.2f} {p99:>8.2f}")
    print("\nks.cards_needed from Python (code arrays), the same kind of hands")
    print(f"{'hand':>4} {'hands':>6} {'median µs':>10} {'p99 µs':>8}")
    for h, n, med, p99 in bench_cards_needed_python():
        print(f"{h:>4} {n:>6} {med:>10.2f} {p99:>8.2f}")



# -- call value per decision and the advisor ------------------------------------------

from .figures import ADVISOR_CASE  # noqa: E402  (one definition, read by both trees)


def bench_advisor(rollouts: int = 2000, repeats: int = 3) -> list[tuple[str, float]]:
    """Seconds for ``advise(**ADVISOR_CASE, rollouts=rollouts)`` with a warm cache, per policy
    (the best of ``repeats`` runs, all cores)."""
    from ..studies.advisor import advise

    rows = []
    for policy in ("greedy", "expert"):
        advise(**ADVISOR_CASE, rollouts=20, policies=policy)  # compile / load
        best = min(_timed(lambda p=policy: advise(**ADVISOR_CASE, rollouts=rollouts,
                                                  policies=p, seed=1)) for _ in range(repeats))
        rows.append((policy, best))
    return rows


def bench_decisions(deals: int = 100) -> list[tuple[str, int, float, int]]:
    """Deals per second of ``call_decisions`` (expert, 4 players) in hands 1, 5 and 9:
    rows (policy, hand, deals/s, decisions per deal)."""
    from ..studies.decisions import call_decisions

    rows = []
    for hand in (1, 5, 9):
        call_decisions(2, hand)
        t0 = time.perf_counter()
        d = call_decisions(deals, hand, seed=1)
        sec = time.perf_counter() - t0
        rows.append(("expert", hand, deals / sec, round(len(d) / deals)))
    return rows


#: what the advisor's player saw an opponent take and call (seat 1 holds two queens)
KNOWN = {1: "Q♠ Q♥"}


def bench_advisor_known(rollouts: int = 2000, repeats: int = 3) -> tuple[float, float]:
    """Seconds (best of ``repeats``) of ``advise(**ADVISOR_CASE)`` with expert players, without
    and with ``known=KNOWN`` (the goal: within 10% of each other)."""
    from ..studies.advisor import advise

    advise(**ADVISOR_CASE, rollouts=20, known=KNOWN)  # compile / load
    plain = min(_timed(lambda: advise(**ADVISOR_CASE, rollouts=rollouts, seed=1))
                for _ in range(repeats))
    known = min(_timed(lambda: advise(**ADVISOR_CASE, rollouts=rollouts, seed=1, known=KNOWN))
                for _ in range(repeats))
    return plain, known


def bench_review(rollouts: int = 500, seed: int = 1, game: int = 0, seat: int = 0):
    """Seconds of ``review`` of one traced hand-9 hand, one seat, ``rollouts`` per decision, on
    all threads (warm cache); returns ``(seconds, decisions)``. The goal: 30 s at 500 on 2
    cores. The hand is the README's ``kalooki review --seed 1 --game 0 --hand 9 --seat 0``."""
    from ..engine.trace import trace
    from ..studies.review import review

    t = trace(seed=seed, game=game, hand=9, policies="expert")
    review(t, seat, rollouts=10)  # compile / load
    t0 = time.perf_counter()
    r = review(t, seat, rollouts=rollouts, seed=seed)
    return time.perf_counter() - t0, len(r)


def _timed(f) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main_advisor() -> None:
    """Print the advisor and call-value benchmarks."""
    print(f"\nadvisor: 2,000 paired rollouts of {ADVISOR_CASE['card']} in hand "
          f"{ADVISOR_CASE['contract']}, warm cache, {numba.get_num_threads()} threads")
    for policy, sec in bench_advisor():
        print(f"  {policy:>7}: {sec:.2f} s")
    print("\ncall_decisions: every take/call branched (expert, 4 players, 2 threads)")
    for _, hand, dps, per in bench_decisions():
        print(f"  hand {hand}: {dps:,.1f} deals/s ({per} decisions per deal)")
    plain, known = bench_advisor_known()
    print(f"\nadvise with known={KNOWN} (expert, 2,000 rollouts): {known:.2f} s, without: "
          f"{plain:.2f} s ({100 * (known / plain - 1):+.0f}%)")
    sec, n = bench_review()
    print(f"review: hand 9 of seed 1 game 0, seat 0, {n} decisions at 500 rollouts, "
          f"{numba.get_num_threads()} threads: {sec:.1f} s")




# -- studies at scale ----------------------------------------------------------------


def bench_threads(games: int = 20_000, hand: int = 9, seed: int = 0) -> list[tuple[int, float]]:
    """Hands per second of a summary-only :func:`~kalooki_sim.simulate` run on 1 and 2 threads
    (greedy, 4 players, one hand per game; the Parquet and aggregate work included)."""
    from ..studies.study import simulate

    simulate(50, hand=hand, seed=seed, summary_only=True)  # compile / load cache
    rows = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        t0 = time.perf_counter()
        simulate(games, hand=hand, seed=seed, summary_only=True, threads=threads)
        rows.append((threads, games / (time.perf_counter() - t0)))
    return rows


def bench_cluster(games: int = 20_000, hand: int = 9, seed: int = 0) -> dict:
    """Seconds for the same summary-only run on 2 numba threads and on a dask LocalCluster of
    2 single-threaded workers (start-up, warming and the futures included)."""
    from ..studies.study import simulate

    simulate(50, hand=hand, seed=seed, summary_only=True)
    out = {}
    for name, kw in (("threads", dict(threads=min(2, numba.config.NUMBA_NUM_THREADS))),
                     ("local:2", dict(cluster="local:2"))):
        t0 = time.perf_counter()
        simulate(games, hand=hand, seed=seed, summary_only=True, **kw)
        out[name] = time.perf_counter() - t0
    return out


def peak_rss(hands: int, hand=None, threads=None) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of a new process running ``kalooki simulate --summary-only``
    for ``hands`` hands (whole games of 9 hands unless ``hand`` is given)."""
    per = 1 if hand is not None else 9
    games = max(1, hands // per)
    with tempfile.TemporaryDirectory() as d:
        argv = ["simulate", "--games", str(games), "--summary-only", "--quiet", "--csv",
                "--out", os.path.join(d, "run")]
        if hand is not None:
            argv += ["--hand", str(hand)]
        if threads is not None:
            argv += ["--threads", str(threads)]
        code = ("import resource, sys, io, contextlib\n"
                "from kalooki_sim.cli import main\n"
                "with contextlib.redirect_stdout(io.StringIO()):\n"
                f"    rc = main({argv!r})\n"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
                "sys.exit(rc)\n")
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
        secs = time.perf_counter() - t0
    return int(r.stdout.split()[-1]) / 1024, secs


def main_studies(memory_hands=(100_000, 1_000_000)) -> None:
    """Print the studies-at-scale benchmarks: threads, LocalCluster overhead, peak memory."""
    print("\nsimulate, summary only, greedy, 4 players, hand 9 (20,000 hands)")
    for threads, hps in bench_threads():
        print(f"  {threads} thread(s): {hps:,.0f} hands/s")
    c = bench_cluster()
    print(f"  2 threads: {c['threads']:.1f} s; dask LocalCluster of 2 workers: "
          f"{c['local:2']:.1f} s (overhead {c['local:2'] - c['threads']:+.1f} s)")
    print("\npeak RSS of a new process: kalooki simulate --summary-only, whole games")
    for n in memory_hands:
        mb, secs = peak_rss(n)
        print(f"  {n:>11,} hands: {mb:,.0f} MB peak RSS, {secs:,.0f} s ({n / secs:,.0f} "
              "hands/s)")




# -- our estimators against scipy.stats ----------------------------------------------


def bench_estimators(repeats: int = 20, seed: int = 0) -> list[tuple[str, str, float, float]]:
    """Median µs per call of our estimators and of ``scipy.stats``'s, on the report's shapes.

    Rows ``(estimator, shape, ours, scipy)``: Wilson over a 54-cell table (nine contracts x six
    table sizes, ``binomtest(...).proportion_ci`` per cell), the t interval of a mean of 4,000
    per-deal values (``ttest_1samp(...).confidence_interval``), and a 1,000-draw percentile
    bootstrap of a mean of 4,000 per-deal values, counts or 0/1 (``scipy.stats.bootstrap``,
    vectorized).
    Holm's adjustment has no ``scipy.stats`` twin (``false_discovery_control`` is BH/BY).
    """
    from scipy import stats

    from ..analysis import bootstrap_means, mean_ci, wilson

    rng = np.random.default_rng(seed)
    n = rng.integers(500, 5000, 54)
    k = rng.binomial(n, 0.3)
    x = rng.normal(40, 30, 4000).round()
    hits = (rng.random(4000) < 0.3).astype(float)

    def med(f):
        ts = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
        return float(np.median(ts)) * 1e6

    rows = [
        ("Wilson", "54 cells",
         med(lambda: wilson(k, n)),
         med(lambda: [stats.binomtest(int(a), int(b)).proportion_ci(method="wilson")
                      for a, b in zip(k, n, strict=True)])),
        ("t interval", "4,000 values",
         med(lambda: mean_ci(x)),
         med(lambda: stats.ttest_1samp(x, 0.0).confidence_interval())),
        ("percentile bootstrap", "4,000 values x 1,000",
         med(lambda: bootstrap_means({"x": x}, n_boot=1000)),
         med(lambda: stats.bootstrap((x,), np.mean, n_resamples=1000, method="percentile",
                                     vectorized=True, random_state=1))),
        ("percentile bootstrap", "4,000 0/1 values x 1,000",
         med(lambda: bootstrap_means({"x": hits}, n_boot=1000)),
         med(lambda: stats.bootstrap((hits,), np.mean, n_resamples=1000, method="percentile",
                                     vectorized=True, random_state=1))),
    ]
    return rows


def main_estimators() -> None:
    """Print :func:`bench_estimators`."""
    print("\nestimators, median µs per call: ours (kalooki_sim.analysis) vs scipy.stats")
    print(f"{'estimator':>22} {'shape':>26} {'ours':>10} {'scipy':>10}")
    for name, shape, ours, sp in bench_estimators():
        print(f"{name:>22} {shape:>26} {ours:>10,.0f} {sp:>10,.0f}")


def run_all() -> None:
    """``make bench``: every benchmark, in one run (the engine's greedy and expert speeds side
    by side, so their ratio is measured under the same load)."""
    main()
    main_needed_in_play()
    main_needed()
    main_advisor()
    main_studies()
    main_estimators()

