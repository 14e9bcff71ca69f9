"""Exact probabilities for teaching, each with its simulated twin: a deal that lays its
groups, outs drawn from the unseen cards, convergence and confidence sequences.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from .._lib import (
    check_int,
    check_real,
    check_seed,
    not_allowed,
)
from ..engine.play import play_hands
from ..game.rules import Rules, as_rules
from ._intervals import wilson

# -- exact probabilities (teaching) ----------------------------------------------------------


def p_deal_lays_groups(groups: int, cards: int, rules=None) -> Fraction:
    """Exact chance that ``cards`` dealt from the pack can lay ``groups`` groups (R3, R5).

    Only groups: a deal lays them iff (ranks with 3+ naturals) + min(ranks with exactly 2,
    jokers) >= groups, since runs never help a group-only contract. Counted by a dynamic
    programme over the 13 ranks (each rank has ``4 * decks`` copies) and the jokers, exactly.
    ``groups`` is 0-13 (R5), ``cards`` 0 up to the pack's size.
    """
    rules = as_rules(rules)
    groups = check_int("groups", groups, 0, 13, why="R5")
    cards = check_int("cards", cards, 0, rules.pack_size, why="the pack's size")
    return _group_deal_fraction(groups, cards, 13, 4 * rules.decks, rules.jokers)


def _group_deal_fraction(groups, cards, ranks, copies, jokers) -> Fraction:
    """The DP of :func:`p_deal_lays_groups` for a pack of ``ranks`` x ``copies`` + jokers."""
    # dp[(t, a, b)]: ways with t naturals so far, a ranks with >= 3, b ranks with exactly 2
    # (both capped at `groups`, which is all the test needs)
    dp = {(0, 0, 0): 1}
    for _ in range(ranks):
        nxt: dict[tuple[int, int, int], int] = {}
        for (t, a, b), w in dp.items():
            for m in range(0, min(copies, cards - t) + 1):
                key = (t + m, min(groups, a + (m >= 3)), min(groups, b + (m == 2)))
                nxt[key] = nxt.get(key, 0) + w * comb(copies, m)
        dp = nxt
    good = 0
    for j in range(0, min(jokers, cards) + 1):
        for (t, a, b), w in dp.items():
            if t == cards - j and a + min(b, j) >= groups:
                good += w * comb(jokers, j)
    return Fraction(good, comb(ranks * copies + jokers, cards))


def p_outs(outs: int, unseen: int, draws: int = 1) -> float:
    """Hypergeometric chance of at least one of ``outs`` cards among the next ``draws`` draws
    from ``unseen`` cards: ``1 - C(unseen - outs, draws) / C(unseen, draws)``."""
    unseen = check_int("unseen", unseen, 0)
    outs = check_int("outs", outs, 0, unseen, why=f"at most unseen={unseen}")
    draws = check_int("draws", draws, 0, unseen, why=f"at most unseen={unseen}")
    return 1.0 - comb(unseen - outs, draws) / comb(unseen, draws)


def simulate_outs(outs: int, unseen: int, draws: int, n: int, seed: int = 0) -> np.ndarray:
    """Monte Carlo twin of :func:`p_outs`: ``n`` booleans, did an out come up."""
    unseen = check_int("unseen", unseen, 0)
    outs = check_int("outs", outs, 0, unseen, why=f"at most unseen={unseen}")
    draws = check_int("draws", draws, 0, unseen, why=f"at most unseen={unseen}")
    n = check_int("n", n, 0)
    seed = check_seed(seed)
    rng = np.random.default_rng([seed, outs, unseen, draws])
    # positions of the outs in a random order of the unseen cards: hit if any is < draws
    keys = rng.random((n, unseen))
    ranks = keys.argsort(axis=1)[:, :draws]
    return (ranks < outs).any(axis=1)


def simulate_deals(n, contract, cards, seed=0, rules=None) -> np.ndarray:
    """``n`` random deals of ``cards`` cards: can each lay ``contract`` ((groups, runs))?

    Compiled: a million 9-card deals take about a second. Returns a boolean array.
    """
    from ..engine.kernels import sampling
    from ..game.melds import resolve_contract

    rules = as_rules(rules)
    g, r = resolve_contract(contract, rules)
    n = check_int("n", n, 0)
    cards = check_int("cards", cards, 1, rules.pack_size, why="the pack's size")
    seed = check_seed(seed)
    out = np.zeros(n, np.int64)
    sampling.deals_meet(seed, n, cards, g, r, rules.decks, rules.jokers, out)
    return out.astype(bool)


def dealt_meets(n, hand, seed=0, players=4, rules=None) -> pd.Series:
    """Does the dealer's left-hand seat's deal lay the contract? One boolean per deal.

    From :func:`play_hands`, one seat per deal so the draws are independent.
    """
    rules = as_rules(rules) if rules is not None else Rules(players=players)
    df = play_hands(n, hand=hand, seed=seed, rules=rules, progress=False, voids=True)
    first = df[(df["attempt"] == 0) & (df["seat"] == (df["dealer"] + 1) % df["players"])]
    return first.set_index("game")["dealt_meets_contract"]


def convergence(hits, exact=None, points: int = 60) -> pd.DataFrame:
    """Running estimate and Wilson CI of a proportion after 1..N trials (log-spaced points).

    ``hits`` is a non-empty 1-D array of booleans (or 0/1); ``exact``, if given, a probability
    0-1; ``points`` an integer >= 1. The first point is at 10 trials (or N if fewer).
    """
    hits = np.asarray(hits)
    if hits.ndim != 1 or hits.size == 0:
        raise ValueError(not_allowed("hits", hits, "a non-empty 1-D array of booleans"))
    if hits.dtype != bool:
        if hits.dtype.kind not in "iuf" or not np.isin(hits, (0, 1)).all():
            raise ValueError(not_allowed("hits", hits, "a non-empty 1-D array of booleans"))
        hits = hits.astype(bool)
    points = check_int("points", points, 1)
    if exact is not None:
        exact = check_real("exact", exact, 0, 1)
    n = np.unique(np.geomspace(min(10, len(hits)), len(hits), points).astype(int))
    k = np.cumsum(hits)[n - 1]
    p, lo, hi = wilson(k, n)
    out = pd.DataFrame({"n": n, "p": p, "lo": lo, "hi": hi})
    if exact is not None:
        out["exact"] = float(exact)
        out["covers"] = (out["lo"] <= float(exact)) & (float(exact) <= out["hi"])
    return out


def confidence_sequence(hits, alpha: float = 0.05, rho: float | None = None,
                        points: int = 60) -> pd.DataFrame:
    """Running estimate of a proportion with a pointwise Wilson band and a confidence sequence.

    The pointwise 95% interval promises: *at each fixed* number of trials, fixed in advance,
    it covers the true value with probability 95%. Watched as it grows, the same running
    interval misses *somewhere* far more often, and once it misses it tends to stay out for a
    while (successive estimates share most of their data). A confidence sequence covers the
    true value at *every* number of trials at once with probability ``1 - alpha``, so it may
    be watched and stopped at will; it is wider. Here the normal-mixture boundary of Robbins
    (1970), as in Howard, Ramdas, McAuliffe and Sekhon (2021, Annals of Statistics 49(2),
    eq. 14), for 0/1 trials (sub-Gaussian with variance 1/4):
    ``|mean - p| <= sqrt((t/4 + rho) * log((t/4 + rho) / (rho * alpha**2))) / t``.

    Parameters
    ----------
    hits : 1-D array of bool
        The trials in order.
    alpha : float
        1 minus the confidence level, 0 < alpha < 1.
    rho : float, optional
        The mixture's tuning; by default tight near ``t = N / 10`` (``rho = N / 40``).
    points : int
        Log-spaced checkpoints (as :func:`convergence`).

    Returns
    -------
    pandas.DataFrame
        :func:`convergence`'s ``n, p, lo, hi`` (Wilson, pointwise) plus ``cs_lo, cs_hi``.

    Examples
    --------
    >>> cs = confidence_sequence(np.ones(400, bool), points=3)
    >>> bool((cs["cs_lo"] <= cs["lo"]).all()), float(cs["cs_hi"].iat[-1])
    (True, 1.0)
    """
    alpha = check_real("alpha", alpha, 0, 1, open_lo=True, open_hi=True)
    out = convergence(hits, points=points)
    N = int(np.asarray(hits).size)
    rho = check_real("rho", rho, 0, open_lo=True) if rho is not None else max(N / 40, 1.0)
    t = out["n"].to_numpy(float)
    v = t / 4 + rho
    half = np.sqrt(v * np.log(v / (rho * alpha**2))) / t
    out["cs_lo"] = np.clip(out["p"] - half, 0, 1)
    out["cs_hi"] = np.clip(out["p"] + half, 0, 1)
    return out
