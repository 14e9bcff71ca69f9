"""Duplicate tournaments: which policy plays better, on the same cards, with honest intervals.

Each deal sequence (a game id of the run's seed, C3) is played once per rotation of the
policies round the table, so every policy sits in every seat on the same cards; per-policy
figures are averaged within a deal sequence first, and the intervals treat the deal sequence as
the unit (a t-interval over deal sequences).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd

from .._lib import check_bool, check_int, check_seed, progress_bar
from .._stats import t_interval
from ..engine.play import BLOCK_GAMES, play_games
from ..engine.policies import preset
from ..game.rules import Rules, as_rules

#: per-seat measures of a game, averaged per policy within each deal sequence
MEASURES = ("win_share", "mean_total", "rel_total", "calls_per_hand", "void_per_hand")


def _t_interval(x: np.ndarray):
    return t_interval(x)[:3]


def _seat_games(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): the game's measures for that seat (R14 shared wins split)."""
    g = df.groupby(["game", "seat"], sort=True)
    per = pd.DataFrame({
        "policy": g["policy"].first().astype(str),
        "total": g["total"].first().astype(float),
        "winner": g["winner"].first().astype(float),
        "calls_per_hand": g["calls"].mean(),
        "void_per_hand": g["attempts"].mean() - 1.0,
        "complete": g["complete"].first(),
    }).reset_index()
    winners = per.groupby("game")["winner"].transform("sum")
    per["win_share"] = per["winner"] / winners
    per["mean_total"] = per["total"]
    per["rel_total"] = per["total"] - per.groupby("game")["total"].transform("mean")
    return per


def tournament(policies, games, players=4, seed=0, rules=None, threads=None,
               progress=None, paired=False):
    """A duplicate tournament of ``policies`` over ``games`` deal sequences of nine-hand games.

    Parameters
    ----------
    policies : list
        One policy per seat (preset names or :class:`~kalooki_sim.Policy`), e.g.
        ``["expert", "greedy", "greedy", "greedy"]``. Seats with the same policy are pooled.
    games : int
        Deal sequences; each is played ``players`` times, once per rotation of the policies.
    players : int
        Seats (3-8); ``rules.players`` when ``rules`` is given.
    seed : int
        The run's seed (C3): the same seed deals the same cards to every rotation.
    rules : Rules, optional
        Jamaican defaults otherwise.
    threads : int, optional
        As :func:`~kalooki_sim.play_games`.
    progress : bool, optional
        One progress bar over every rotation (hands played); default on for tournaments of
        200,000 hands or more (``games * 9 * players``) when stderr is a terminal.
    paired : bool
        Also return the paired differences between every two policies.

    Returns
    -------
    pandas.DataFrame
        One row per distinct policy: ``policy, games`` (deal sequences), ``seats`` (seats it
        held per table), ``win_share`` (share of the game wins per seat, shared wins split,
        R14; a fair share is ``1 / players``), ``mean_total`` (game total over nine hands),
        ``rel_total`` (own total minus the table's mean), ``calls_per_hand``,
        ``void_per_hand`` (void attempts per scored hand at its tables, R13), each with
        ``_lo``/``_hi``: 95% t-intervals over deal sequences. ``.attrs`` records ``players``,
        ``seed`` and ``incomplete`` (deal sequences left out because a hand was given up, see
        ``Rules.max_replays``).
    pandas.DataFrame, with ``paired=True``
        A second table, one row per two policies: ``policy_a, policy_b, games`` and
        ``d_<measure>`` with ``_lo``/``_hi``, the paired difference a minus b per deal sequence
        (the same cards for both), so ``(table, paired)`` is returned.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = ks.tournament(["call-1", "never-call", "greedy", "greedy"], games=20, seed=1)
    >>> list(t["policy"]), round(float(t["win_share"].mul(t["seats"]).sum()), 6)
    (['call-1', 'greedy', 'never-call'], 1.0)
    """
    if rules is None:
        from ..engine.play import seat_count

        rules = Rules(players=seat_count(players))
    else:
        rules = as_rules(rules)
    P = rules.players
    if isinstance(policies, str) or not hasattr(policies, "__len__"):
        raise TypeError(f"policies={policies!r} is not allowed; give a list with one policy per "
                        f"seat ({P})")
    pols = [preset(p) for p in policies]
    if len(pols) != P:
        raise ValueError(f"policies has {len(pols)} entries; give one per seat ({P})")
    by_name = {}
    for p in pols:
        if by_name.setdefault(p.name, p) != p:
            raise ValueError(f"two different policies are both named {p.name!r}; give each its "
                             "own name")
    games = check_int("games", games, 1)
    paired = check_bool("paired", paired)
    seed = check_seed(seed)
    if progress is not None:
        progress = check_bool("progress", progress)
    bar = progress_bar(progress, games * rules.hands * P, auto_at=200_000, unit="hand",
                       desc="kalooki tournament", unit_scale=True)
    parts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # incomplete games are left out below
        for k in range(P):
            rot = [pols[(s + k) % P] for s in range(P)]
            blocks = []
            for b in range(0, games, BLOCK_GAMES):  # the same games as one call (C3)
                n = min(BLOCK_GAMES, games - b)
                blocks.append(play_games(n, policies=rot, seed=seed, rules=rules,
                                         threads=threads, progress=False, first_game=b))
                bar.update(n * rules.hands)
            parts.append(_seat_games(pd.concat(blocks, ignore_index=True)).assign(rotation=k))
    bar.close()
    seats = pd.concat(parts, ignore_index=True)
    bad = seats.loc[~seats["complete"], "game"].unique()
    if len(bad):
        warnings.warn(f"{len(bad)} of {games} deal sequences had a hand given up "
                      "(Rules.max_replays) in some rotation; they are left out",
                      RuntimeWarning, stacklevel=2)
        seats = seats[~seats["game"].isin(bad)]
    # per deal sequence and policy: the mean over its seats in every rotation
    per = seats.groupby(["policy", "game"])[list(MEASURES)].mean()
    names = sorted(per.index.get_level_values("policy").unique())
    rows = []
    for name in names:
        d = per.loc[name]
        row = {"policy": name, "games": len(d),
               "seats": sum(p.name == name for p in pols)}
        for m in MEASURES:
            v, lo, hi = _t_interval(d[m].to_numpy())
            row.update({m: v, f"{m}_lo": lo, f"{m}_hi": hi})
        rows.append(row)
    out = pd.DataFrame(rows)
    pairs = []
    for a, b in itertools.combinations(names, 2):
        diff = per.loc[a] - per.loc[b]
        row = {"policy_a": a, "policy_b": b, "games": len(diff)}
        for m in MEASURES:
            v, lo, hi = _t_interval(diff[m].to_numpy())
            row.update({f"d_{m}": v, f"d_{m}_lo": lo, f"d_{m}_hi": hi})
        pairs.append(row)
    out.attrs.update(players=P, seed=seed, incomplete=int(len(bad)))
    if paired:
        return out, pd.DataFrame(pairs)
    return out
