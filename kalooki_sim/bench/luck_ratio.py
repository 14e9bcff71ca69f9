"""``python -m kalooki_sim.bench.luck_ratio``: how much the draws' luck terms
(:mod:`kalooki_sim.engine.kernels` ``luck``) would narrow the advisor's intervals.

Positions are the first take-or-call decision of each seat in hand ``--hand`` of expert games
(:func:`kalooki_sim.trace`, :func:`kalooki_sim.studies.review.walk`), read as the advisor reads
them (:func:`kalooki_sim.situation`, without the history: every rollout weighs 1). Each is
rolled out ``--rollouts`` times with the luck kernel (play, and so the outcomes, are the
advisor's own, rollout by rollout). Per position and objective it prints the variance ratio
against plain unpaired rollouts, per rollout:

* ``paired``: ``(Var(act) + Var(pass)) / Var(act - pass)``, both from the same paired rollouts
  (each branch alone is distributed as an unpaired rollout);
* ``+luck``: the same over the variance of ``act - pass - b . L``, ``L`` the 2 x seats x
  ``LK_*`` luck sums (mean exactly 0), ``b`` fitted by least squares cross-fitted in two halves
  (each half's residual from the other half's fit, so no in-sample optimism);
* ``luck/branch``: the share of one branch's variance left after its own luck terms;

and the cost per rollout, plain and with luck, alternating in one process. The summary per
objective (:func:`summary`) adds what decides whether the luck is worth playing: the luck's
variance gain over the pairing alone divided by its cost, its precision per second of rollouts.
"""

from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np

from .. import situation, trace
from ..engine.kernels import branch as B
from ..engine.kernels import engine as E
from ..engine.kernels import history as H
from ..engine.kernels import luck as LK
from ..engine.play import rules_vector, setup
from ..studies.advisor import read_history
from ..studies.review import walk

COL = {"relative": 4, "penalty": 0}  # the objective's column of a rollout's branch


def positions(k, hand=2, seed0=11, last=False):
    """The first ``k`` positions: seat by seat, each seat's first (``last``: last) decision of
    ``hand`` in the expert games of seeds ``seed0, seed0 + 1, ...`` (game 0), as
    ``(seed, seat, Situation)``."""
    out = []
    seed = seed0
    while len(out) < k:
        tr = trace(seed=seed, game=0, hand=hand, policies="expert")
        for seat in range(4):
            moments, _ = walk(tr, seat)
            if moments:
                s = dict(moments[-1 if last else 0].situation)
                out.append((seed, seat, situation(
                    s["hand"], s["card"], s["contract"], discarder=s["discarder"],
                    stock_left=s["stock_left"], calls_made=s["calls_made"], opened=s["opened"],
                    table=s["table"], seen=s["seen"], known=s["known"],
                    hand_sizes=s["hand_sizes"], reshuffled=s["reshuffled"])))
        seed += 1
    return out[:k]


def rollouts(sit, pol, n, luck, seed=5):
    """``n`` paired rollouts of ``sit``: ``(res, luck sums, seconds)``; ``luck=False`` plays
    the advisor's own kernel (the luck array stays 0)."""
    r, rules, P = sit.rollout, sit.rules, sit.players
    res, logw = np.zeros((n, 2 * B.ROLL_COLS)), np.zeros(n)
    ranks = np.zeros((n, P, H.RANK_COLS), np.int64)
    lk = np.zeros((n, 2, P, LK.LK_COLS))
    args = (seed, rules_vector(rules, sit.hand_no), pol, r.base,
            H.Hidden(r.flat, len(r.flat), r.opp, r.pile_extra), read_history(sit),
            0, r.mask, 0, n, E.Run(rules.pack_size, max(1, 4 * numba.get_num_threads()), 0,
                                   False))
    t0 = time.perf_counter()
    if luck:
        LK.rollout_luck_block(*args, LK.LuckRollouts(res, logw, ranks, lk))
    else:
        H.rollout_block(*args, H.Rollouts(res, logw, ranks, np.zeros((n, 2), np.int64)))
    return res, lk, time.perf_counter() - t0


def crossfit_var(y, X, folds=2):
    """Variance of ``y - X b`` (the controls ``X`` have mean exactly 0), ``b`` fitted by least
    squares (with an intercept) on the other folds: an honest residual variance.

    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 2))
    >>> y = 3 * X[:, 0] + rng.normal(size=400)
    >>> bool(crossfit_var(y, X) < 1.2 < y.var())
    True
    """
    idx = np.arange(len(y))
    resid = np.empty(len(y))
    for f in range(folds):
        te = idx % folds == f
        A = np.column_stack([np.ones(int((~te).sum())), X[~te]])
        b = np.linalg.lstsq(A, y[~te], rcond=None)[0]
        resid[te] = y[te] - X[te] @ b[1:]
    return float(resid.var(ddof=1))


def _share(part, whole):
    """``part / whole``, nan when ``whole`` is 0."""
    return part / whole if whole > 0 else float("nan")


def ratios(res, lk):
    """Per objective: ``(paired, paired + luck, act's and pass's variance share left by their
    own luck)`` (see the module docstring)."""
    n = len(res)
    out = {}
    for name, j in COL.items():
        ya, yp = res[:, j], res[:, B.ROLL_COLS + j]
        vu = ya.var(ddof=1) + yp.var(ddof=1)
        d = ya - yp
        va = crossfit_var(d, lk.reshape(n, -1))
        # a branch without spread (the hand always ends the same way) has no share: nan
        out[name] = (vu / d.var(ddof=1), vu / va,
                     _share(crossfit_var(ya, lk[:, 0].reshape(n, -1)), ya.var(ddof=1)),
                     _share(crossfit_var(yp, lk[:, 1].reshape(n, -1)), yp.var(ddof=1)))
    return out


def summary(name, rows):
    """The summary line of objective ``name`` over positions ``rows``, each ``(paired ratio,
    paired + luck ratio, act's share left, pass's share left, seconds plain, seconds with
    luck)`` (:func:`ratios`; the seconds of the same rollouts): medians and ranges, and the
    luck's precision per second against the pairing alone, ``(+luck / paired) / (seconds with
    luck / seconds plain)`` per position (above 1: the luck pays for its cost).

    >>> rows = [(2.0, 3.0, 0.8, 0.7, 1.0, 3.0), (1.0, 1.5, 0.9, float("nan"), 1.0, 2.0)]
    >>> print(summary("relative", rows))  # doctest: +NORMALIZE_WHITESPACE
    relative: median variance ratio, paired 1.50 (range 1.00-2.00); paired + luck 2.25
    (1.50-3.00) over 2 positions; a branch's variance left by its own luck 0.80 (median of
    3 branches); the luck costs 2.50x a plain rollout, so per second it gives 0.62x the
    pairing alone's precision (0.50-0.75)
    """
    a = np.array(rows, float)
    vp, vl, left, cost = a[:, 0], a[:, 1], a[:, 2:4].ravel(), a[:, 5] / a[:, 4]
    left = left[~np.isnan(left)]
    eff = vl / vp / cost
    return (f"{name}: median variance ratio, paired {np.median(vp):.2f} (range {vp.min():.2f}-"
            f"{vp.max():.2f}); paired + luck {np.median(vl):.2f} ({vl.min():.2f}-{vl.max():.2f})"
            f" over {len(a)} positions; a branch's variance left by its own luck "
            f"{np.median(left):.2f} (median of {len(left)} branches); the luck costs "
            f"{np.median(cost):.2f}x a plain rollout, so per second it gives "
            f"{np.median(eff):.2f}x the pairing alone's precision ({eff.min():.2f}-"
            f"{eff.max():.2f})")


def main(argv=None):
    """Print the variance ratios and costs of ``--positions`` positions."""
    ap = argparse.ArgumentParser(prog="python -m kalooki_sim.bench.luck_ratio",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=400)
    ap.add_argument("--hand", type=int, default=2)
    ap.add_argument("--last", action="store_true", help="each seat's last decision, not first")
    a = ap.parse_args(argv)
    pol = setup(4, "expert", 0, None, None)[2]
    print(f"{'seed':>4} {'seat':>4} {'card':>4} {'objective':9} {'paired':>7} {'+luck':>7} "
          f"{'luck/act':>8} {'luck/pass':>9} {'ms plain':>8} {'ms luck':>8}")
    rows = []
    for seed, seat, sit in positions(a.positions, a.hand, last=a.last):
        rollouts(sit, pol, 8, False)  # compile / warm both before timing
        rollouts(sit, pol, 8, True)
        tp = tl = 0.0
        for _ in range(2):  # alternate, so both see the same machine load
            res0, _, t = rollouts(sit, pol, a.rollouts, False)
            tp += t
            res, lk, t = rollouts(sit, pol, a.rollouts, True)
            tl += t
        if not np.array_equal(res0, res):
            raise SystemExit("the luck kernel played differently from the advisor's")
        for name, (vp, vl, sa, sp) in ratios(res, lk).items():
            rows.append((name, vp, vl, sa, sp, tp / 2, tl / 2))
            print(f"{seed:4d} {seat:4d} {sit.card:>4} {name:9} {vp:7.2f} {vl:7.2f} {sa:8.2f} "
                  f"{sp:9.2f} {tp / 2 / a.rollouts * 1e3:8.2f} {tl / 2 / a.rollouts * 1e3:8.2f}",
                  flush=True)
    for name in COL:
        print(summary(name, [r[1:] for r in rows if r[0] == name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
