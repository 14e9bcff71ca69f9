"""Rule sets side by side: contract difficulty under each, on the same deals.

Exposed as :func:`kalooki_sim.analysis.compare_rules`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._lib import check_bool, check_int, not_allowed
from ..engine.play import play_hands
from ..game.rules import as_rules
from ._intervals import mean_ci

#: per-deal measures: name -> what it is
MEASURES = {
    "turns": "table turns of the scored deal (how long the hand lasts)",
    "void": "the first deal was void (R13): a share of deals",
    "attempts": "deals needed until one was scored (R13, R14)",
    "doubled": "the scored hand was won on the opening, doubling the losers (R12)",
    "loser_penalty": "mean penalty of the seats that did not go out (R12)",
}


def _per_deal(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game of ``play_hands(..., voids=True)`` rows: the :data:`MEASURES`."""
    first = df[df["attempt"] == 0].groupby("game")["void"].first()
    final = df[df["attempt"] == df["attempts"] - 1]
    g = final.groupby("game")
    losers = final[~final["went_out"]].groupby("game")["penalty"].mean()
    out = pd.DataFrame({
        "turns": g["turns"].sum().astype(float),
        "void": first.astype(float),
        "attempts": g["attempts"].first().astype(float),
        "doubled": g["doubled"].any().astype(float),
    })
    out["loser_penalty"] = losers.astype(float)
    scored = ~g["void"].any()
    out.loc[~scored, ["turns", "doubled", "loser_penalty"]] = np.nan  # given up: no score
    return out


def _ci(x):
    """Mean and 95% t interval of the finite values of ``x`` (NaN: a deal not scored)."""
    x = np.asarray(x, float)
    return mean_ci(x[~np.isnan(x)])[:3]


def compare_rules(rule_sets, n, hands=range(1, 10), players=4, policies="greedy", seed=0,
                  threads=None, paired=True) -> pd.DataFrame:
    """Contract difficulty under each rule set, on the same deals, against the first.

    Every rule set plays hand ``h`` of games ``0 .. n-1`` with the same seed: the same
    shuffle wherever the packs agree, so the first deal of each game is shared and the
    differences are paired by deal (a game's void deals are replayed, R13, and kept).

    Parameters
    ----------
    rule_sets : dict
        Name -> :class:`~kalooki_sim.Rules` (or a format name such as ``"super-kalooki"``);
        the first is the reference.
    n : int
        Deals per contract.
    hands : iterable of int
        Schedule entries to play, 1-based in each rule set's schedule.
    players : int
        Seats, for rule sets given by name (a ``Rules`` keeps its own).
    policies, seed, threads
        As in :func:`~kalooki_sim.play_hands`.
    paired : bool
        ``True`` (default): also the paired differences against the first rule set, which
        needs every rule set at the same table size (other players, other deals).
        ``False``: the measures of each rule set alone, for tables that differ (e.g. Tuluki
        beside four players).

    Returns
    -------
    DataFrame
        One row per rule set and hand: ``rules, hand, groups, runs, deals``, each measure of
        :data:`MEASURES` (mean per deal) with ``_lo``/``_hi`` (95% t interval over deals), and
        ``d_<measure>``, ``d_<measure>_lo``, ``d_<measure>_hi``: the paired difference, this
        rule set minus the first, over the deals both scored.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = compare_rules({"card": ks.Rules(), "again": ks.Rules()}, 30, hands=[2])
    >>> float(t.loc[t.rules == "again", "d_turns"].iat[0])
    0.0
    """
    if not isinstance(rule_sets, dict) or not rule_sets:
        raise TypeError(not_allowed("rule_sets", rule_sets,
                                    "a non-empty dict of name -> Rules (the first is the "
                                    "reference)"))
    sets = {str(k): as_rules(v, players=players if isinstance(v, str) else None)
            for k, v in rule_sets.items()}
    n = check_int("n", n, 2)
    paired = check_bool("paired", paired)
    ref_name, ref_rules = next(iter(sets.items()))
    for name, r in sets.items():
        if paired and r.players != ref_rules.players:
            raise ValueError(f"rule set {name!r} has players={r.players} and {ref_name!r} "
                             f"players={ref_rules.players}: other tables get other deals, so "
                             "nothing pairs; give rule sets with the same players, or "
                             "paired=False for each set's measures alone")
    hands = [int(h) for h in hands]
    for name, r in sets.items():
        for h in hands:
            try:
                r.deal(h)
            except ValueError as e:
                raise ValueError(f"rule set {name!r}: {e}") from None
    rows = []
    for h in hands:
        per = {}
        for name, r in sets.items():
            df = play_hands(n, hand=h, policies=policies, seed=seed, rules=r, threads=threads,
                            voids=True)
            per[name] = _per_deal(df)
        ref = next(iter(per.values()))
        for name, m in per.items():
            _, g, r = sets[name].deal(h)
            row = {"rules": name, "hand": h, "groups": g, "runs": r, "deals": len(m)}
            for meas in MEASURES:
                row[meas], row[f"{meas}_lo"], row[f"{meas}_hi"] = _ci(m[meas])
                if not paired:
                    continue
                d = (m[meas] - ref[meas]).to_numpy()
                row[f"d_{meas}"], row[f"d_{meas}_lo"], row[f"d_{meas}_hi"] = _ci(d)
            rows.append(row)
    return pd.DataFrame(rows)
