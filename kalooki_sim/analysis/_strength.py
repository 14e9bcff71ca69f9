"""Strength by contract: one policy against a field of another, on the same deals.

:func:`strength_table` plays each contract with the focal policy in one seat and the field's
policy in the others, once per seat of the focal policy on the same deals (so the seat order
does not bias it), and reports the focal policy's penalty minus the field's, per deal.
"""

from __future__ import annotations

import warnings

import pandas as pd

from .._lib import check_int, check_seed, not_allowed
from ..engine.play import play_hands
from ..engine.policies import Policy, preset
from ._intervals import mean_ci

#: Seats at the table: the card's four-player game (R2).
PLAYERS = 4


def _field_list(field) -> list[Policy]:
    allowed = "a preset name, a Policy, or a non-empty list of them"
    if isinstance(field, (str, Policy)):
        return [preset(field)]
    if field is None or isinstance(field, (dict, bytes)) or not hasattr(field, "__iter__"):
        raise TypeError(not_allowed("field", field, allowed))
    pols = [preset(f) for f in field]
    if not pols:
        raise ValueError(not_allowed("field", field, allowed))
    return pols


def _hand_list(hands) -> list[int]:
    allowed = "an integer 1-9 or a non-empty list of distinct ones"
    if isinstance(hands, (str, bytes, dict)) or hands is None:
        raise TypeError(not_allowed("hands", hands, allowed))
    if not hasattr(hands, "__iter__"):
        return [check_int("hands", hands, 1, 9, why="the schedule's contracts")]
    out = [check_int("hands", h, 1, 9, why="the schedule's contracts") for h in hands]
    if not out or len(set(out)) != len(out):
        raise ValueError(not_allowed("hands", hands, allowed))
    return out


def _per_deal(focal: Policy, other: Policy, hand: int, deals: int, seed: int, threads):
    """Per deal: the mean over the focal seat's rotations of its penalty minus the mean of the
    other seats'. Deals with a hand given up in some rotation are left out."""
    parts = []
    for k in range(PLAYERS):
        pols = [other] * PLAYERS
        pols[k] = focal
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # given-up hands: dropped below
            df = play_hands(deals, hand=hand, players=PLAYERS, policies=pols, seed=seed,
                            threads=threads)
        pen = df.pivot(index="game", columns="seat", values="penalty").astype(float)
        others = [s for s in range(PLAYERS) if s != k]
        # in thirds of a point, integers: a policy against itself sums to exactly 0
        parts.append((PLAYERS - 1) * pen[k] - pen[others].sum(axis=1, skipna=False))
    d = pd.concat(parts, axis=1).sum(axis=1, skipna=False) / ((PLAYERS - 1) * PLAYERS)
    return d.dropna().to_numpy()


def strength_table(policy="expert", field=("greedy", "never-call"), deals=4000, seed=11,
                   hands=range(1, 10), threads=None) -> pd.DataFrame:
    """Mean penalty of ``policy`` minus the field's, per deal, for every contract and field.

    For each contract and each field policy F, a four-player table of one ``policy`` seat and
    three F seats plays ``deals`` deals (:func:`~kalooki_sim.play_hands`, deal ``i`` is game
    ``i`` of ``seed``), once with ``policy`` in each seat on the same deals. A deal's value is
    the mean over those four rotations of the focal seat's penalty (R12) minus the mean of the
    three F seats'; void attempts are replayed (R13) and only the scored one counts. Negative
    is better for ``policy``. A policy against itself gives exactly 0 on every deal.

    Parameters
    ----------
    policy : str or Policy
        The focal policy (a preset name, e.g. ``"expert"``, or a :class:`~kalooki_sim.Policy`).
    field : str, Policy or sequence of them
        The opponents' policy, or several: one block of rows per field policy.
    deals : int
        Deals per contract and field, >= 2 (each played four times).
    seed : int
        The run's seed (C3): every policy and field meets the same deals.
    hands : int or iterable of int
        Contracts 1-9 (R2), distinct.
    threads : int, optional
        Worker threads (default: Numba's default, all cores); results do not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per contract and field: ``hand, field, policy`` (the policies' names),
        ``deals`` (deals counted: those with a hand given up in some rotation, see
        ``Rules.max_replays``, are left out), ``d_penalty`` with ``d_penalty_lo`` and
        ``d_penalty_hi``, a 95% Student t interval over deals.

    Raises
    ------
    TypeError, ValueError
        For an unknown policy, an empty field, ``deals`` < 2, hands outside 1-9 or repeated,
        a bad seed or thread count.

    Examples
    --------
    >>> from kalooki_sim.analysis import strength_table
    >>> t = strength_table("greedy", "greedy", deals=20, hands=[1])
    >>> float(t["d_penalty"].iloc[0])
    0.0
    """
    focal = preset(policy)
    fields = _field_list(field)
    deals = check_int("deals", deals, 2)
    seed = check_seed(seed)
    hand_nos = _hand_list(hands)
    if threads is not None:
        threads = check_int("threads", threads, 1, why="or None for Numba's default")
    rows = []
    for h in hand_nos:
        for f in fields:
            d = _per_deal(focal, f, h, deals, seed, threads)
            m, lo, hi, n = mean_ci(d)
            rows.append({"hand": h, "field": f.name, "policy": focal.name, "deals": int(n),
                         "d_penalty": float(m), "d_penalty_lo": float(lo),
                         "d_penalty_hi": float(hi)})
    return pd.DataFrame(rows, columns=["hand", "field", "policy", "deals", "d_penalty",
                                       "d_penalty_lo", "d_penalty_hi"])
