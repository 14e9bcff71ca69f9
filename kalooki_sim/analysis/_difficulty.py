"""Contract difficulty from the engine's per-seat rows: voids, attempts, the losers' penalty,
wins on the opening, seat advantage; the chance a deal holds its contract (one seat, some
seat at the table).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._lib import (
    check_columns,
    check_int,
    check_seed,
)
from ..game.rules import as_rules
from ._exact import p_deal_lays_groups, simulate_deals
from ._intervals import (
    _prop_row,
    cluster_mean_ci,
    cluster_wilson,
    mean_ci,
    wilson,
    wilson_of_sums,
)

# -- contract difficulty ----------------------------------------------------------------------


_ROWS = "the per-seat rows of play_hands or play_games"
_DIFFICULTY_COLUMNS = ("hand", "players", "game", "attempt", "attempts", "groups", "runs",
                       "void", "dealt_meets_contract", "out_on_opening", "opened",
                       "open_turn", "went_out", "penalty")


def _rows(df, columns) -> pd.DataFrame:
    return check_columns("df", df, columns, _ROWS)


def scored(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of hands that were played out (void attempts and given-up hands dropped)."""
    return _rows(df, ["void"]).loc[~df["void"]]


def void_rate(df: pd.DataFrame):
    """Share of hand attempts that were void (R13): ``(p, lo, hi, hands)``.

    From the ``attempts`` column: a hand that took ``a`` attempts had ``a - 1`` void ones (a
    hand given up counts all of its attempts as void), so the rate is a ratio of sums over
    hands; its interval is Wilson's at the effective number of deals, with the hand as the
    cluster (:func:`wilson_of_sums`): above 0 as soon as one void deal is seen, where a normal
    (delta-method) interval reached below 0 and was cut there.

    Examples
    --------
    >>> toy = pd.DataFrame({"game": [0, 1], "hand": 9, "attempts": [1, 1], "void": False})
    >>> p, lo, hi, n = void_rate(toy)
    >>> p, lo, round(hi, 3), n
    (0.0, 0.0, 0.658, 2)
    >>> one = pd.DataFrame({"game": range(4000), "hand": 2, "void": False,
    ...                     "attempts": [2] + [1] * 3999})   # one void deal in 4,001
    >>> p, lo, hi, n = void_rate(one)
    >>> round(100 * p, 3), 0 < lo < p < hi
    (0.025, True)
    """
    d = _rows(df, ["game", "hand", "attempts", "void"])
    last = d.groupby(["game", "hand"], sort=False).agg(a=("attempts", "first"),
                                                      gave_up=("void", "all"))
    a = last["a"].to_numpy(float)
    y = a - 1 + last["gave_up"].to_numpy(float)
    if a.size == 0:
        return np.nan, np.nan, np.nan, 0
    p, lo, hi = wilson_of_sums(y, a)
    return p, lo, hi, int(a.size)


def deals_per_scored(p_void, lo=np.nan, hi=np.nan) -> tuple[float, float, float]:
    """Deals per scored hand, ``1 / (1 - p_void)``, with the interval of the void share's
    ends (a monotone map, so the two intervals say the same; ``inf`` where the share's
    interval reaches 1).

    :func:`void_rate` counts every deal, so ``1 / (1 - p)`` is the deals played over the hands
    scored.

    Examples
    --------
    >>> [round(x) for x in deals_per_scored(0.99986, 0.9998, 0.99992)]
    [7143, 5000, 12500]
    >>> deals_per_scored(0.0, 0.0, 0.001)[:2]
    (1.0, 1.0)
    """
    def per(x):
        return np.inf if x >= 1 else 1.0 / (1.0 - x)

    return tuple(np.nan if not np.isfinite(x) else float(per(x)) for x in (p_void, lo, hi))


def contract_difficulty(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (hand, players): how hard the contract is, each figure with its 95% CI.

    Per-seat figures (``p_dealt``, ``loser_penalty``) use intervals that
    allow for the seats of one deal being correlated (:func:`cluster_wilson`,
    :func:`cluster_mean_ci`); per-deal figures use plain Wilson intervals.

    Columns (each with ``_lo``/``_hi``): ``p_dealt`` (the deal alone lays the contract; per
    seat, over each hand's first deal: it needs ``play_hands(..., voids=True)`` rows, else
    NaN, since the scored attempts alone are not a random sample of deals),
    ``p_out_on_opening`` (a
    hand won by going out on the opening, doubling, R12), ``p_void`` (per attempt, R13, from
    ``attempts``: :func:`void_rate`), ``mean_attempts`` (deals per scored hand, from
    ``p_void`` and its interval: :func:`deals_per_scored`),
    ``loser_penalty`` (mean penalty of seats that did not go out), plus ``hands`` scored.
    How fast seats open is :func:`open_survival`'s business: a mean over the seats that
    opened ignores the ones whose hand ended first (censoring).
    """
    _rows(df, _DIFFICULTY_COLUMNS)
    out = []
    for (hand, players), d in df.groupby(["hand", "players"], sort=True):
        s = scored(d)
        per_hand = s.groupby("game")
        row = {"hand": hand, "players": players,
               "contract": contract_label(int(d["groups"].iat[0]), int(d["runs"].iat[0])),
               "hands": int(per_hand.ngroups)}
        # every first deal is an unbiased deal; later attempts exist only in voids=True rows
        first = d[d["attempt"] == 0]
        if first["game"].nunique() == d["game"].nunique():
            p, lo, hi = cluster_wilson(first["dealt_meets_contract"], first["game"])
        else:
            p = lo = hi = np.nan  # scored attempts alone are not a random sample of deals
        row.update(p_dealt=p, p_dealt_lo=lo, p_dealt_hi=hi)
        r = _prop_row(per_hand["out_on_opening"].any().sum(), per_hand.ngroups)
        row.update(p_out_on_opening=r["p"], p_out_on_opening_lo=r["lo"],
                   p_out_on_opening_hi=r["hi"])
        p, lo, hi, _ = void_rate(d)
        row.update(p_void=p, p_void_lo=lo, p_void_hi=hi)
        row.update(zip(("mean_attempts", "mean_attempts_lo", "mean_attempts_hi"),
                       deals_per_scored(p, lo, hi), strict=True))
        for name, rows in [
            ("loser_penalty", s.loc[~s["went_out"], ["penalty", "game"]]),
        ]:
            m, lo, hi, _ = cluster_mean_ci(rows.iloc[:, 0].astype(float), rows["game"])
            row.update({name: m, f"{name}_lo": lo, f"{name}_hi": hi})
        out.append(row)
    return pd.DataFrame(out)


def seat_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """Chance of going out by position after the dealer (1 = dealer's left, who plays first)."""
    _rows(df, ["void", "seat", "dealer", "players", "went_out"])
    s = scored(df).assign(position=lambda d: (d["seat"] - d["dealer"]) % d["players"])
    s["position"] = s["position"].where(s["position"] != 0, s["players"])
    rows = []
    for (players, pos), d in s.groupby(["players", "position"], sort=True):
        rows.append({"players": players, "position": pos,
                     **_prop_row(int(d["went_out"].sum()), len(d))})
    return pd.DataFrame(rows)


def dealer_seats(df: pd.DataFrame) -> pd.DataFrame:
    """Two-player tables (Tuluki, V9): the dealer's seat against the other's, paired by deal.

    In each scored deal the non-dealer plays first and is offered the upcard (C1); the dealer
    discards into the other's hand first. The two seats' penalties in one deal share the
    cards, so their difference is taken per deal, then averaged (Student t, the deal as the
    unit).

    Parameters
    ----------
    df : DataFrame
        Rows of :func:`kalooki_sim.play_hands` at two players (one or several contracts):
        ``hand, game, attempt, players, seat, dealer, void, went_out, penalty``.

    Returns
    -------
    DataFrame
        One row per hand: ``deals``; ``penalty_dealer``, ``penalty_other`` and the paired
        ``d_penalty`` (other minus dealer: below zero, the non-dealer pays less), each with
        ``_lo`` / ``_hi`` (95%); ``out_dealer``, ``out_other`` (shares of deals each seat went
        out, Wilson 95% ``_lo`` / ``_hi``) and ``d_penalty_p`` (the paired t test's p-value,
        for a Holm family over the contracts).

    Raises
    ------
    ValueError
        If a column is missing or a row is not from a two-player table (naming ``players``).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> rows = ks.play_hands(50, hand=1, rules=ks.Rules(players=2, tuluki=True), seed=1)
    >>> t = dealer_seats(rows)
    >>> int(t["deals"].iat[0]), bool(t["d_penalty_lo"].iat[0] <= t["d_penalty_hi"].iat[0])
    (50, True)
    """
    from scipy import stats

    d = scored(_rows(df, ["hand", "game", "attempt", "players", "seat", "dealer", "void",
                          "went_out", "penalty"]))
    bad = d["players"] != 2
    if bad.any():
        raise ValueError(f"players={int(d.loc[bad, 'players'].iat[0])} is not allowed; give "
                         "rows of a two-player table (Tuluki, V9)")
    d = d.assign(role=np.where(d["seat"] == d["dealer"], "dealer", "other"))
    rows = []
    for h, g in d.groupby("hand", sort=True):
        w = g.pivot_table(index=["game", "attempt"], columns="role",
                          values=["penalty", "went_out"], aggfunc="first", observed=True)
        w = w.dropna()
        row = {"hand": int(h), "deals": len(w)}
        for role in ("dealer", "other"):
            m, lo, hi, _ = mean_ci(w[("penalty", role)].astype(float))
            row.update({f"penalty_{role}": m, f"penalty_{role}_lo": lo,
                        f"penalty_{role}_hi": hi})
        diff = (w[("penalty", "other")] - w[("penalty", "dealer")]).to_numpy(float)
        m, lo, hi, n = mean_ci(diff)
        p = (float(stats.ttest_1samp(diff, 0.0).pvalue) if n >= 2 and np.ptp(diff) > 0
             else (1.0 if m == 0 else 0.0) if n >= 2 else np.nan)
        row.update(d_penalty=m, d_penalty_lo=lo, d_penalty_hi=hi, d_penalty_p=p)
        for role in ("dealer", "other"):
            k = int(w[("went_out", role)].astype(bool).sum())
            q = _prop_row(k, len(w))
            row.update({f"out_{role}": q["p"], f"out_{role}_lo": q["lo"],
                        f"out_{role}_hi": q["hi"]})
        rows.append(row)
    return pd.DataFrame(rows)


# -- the deal: one seat, and some seat at the table ------------------------------------------


def p_dealt_table(n: int = 1_000_000, seed: int = 0, rules=None, hands=None,
                  return_samples: bool = False):
    """Chance that one seat's deal alone lays its contract, once per contract.

    A seat's deal does not depend on the table size (it is ``cards`` cards from the same
    pack), so there is one number per contract: exact (:func:`p_deal_lays_groups`) for the
    contracts of groups only, otherwise from ``n`` simulated deals (:func:`simulate_deals`,
    Wilson interval; each contract its own stream ``seed + hand``).

    Returns
    -------
    pandas.DataFrame
        ``hand, contract, cards, method ("exact"/"simulated"), p_dealt, lo, hi, deals``; with
        ``return_samples=True`` also name -> per-deal 0/1 array (or the exact value), for
        :func:`bootstrap_means`.
    """
    rules = as_rules(rules)
    n = check_int("n", n, 1)
    seed = check_seed(seed)
    hands = range(1, rules.hands + 1) if hands is None else hands
    rows, samples = [], {}
    for h in hands:
        cards, g, r = rules.deal(h)
        label = contract_label(g, r)
        if r == 0:
            p = float(p_deal_lays_groups(g, cards, rules))
            rows.append({"hand": h, "contract": label, "cards": cards, "method": "exact",
                         "p_dealt": p, "lo": p, "hi": p, "deals": np.nan})
            samples[h] = p
        else:
            hits = simulate_deals(n, (g, r), cards, seed=seed + h, rules=rules)
            p, lo, hi = wilson(int(hits.sum()), n)
            rows.append({"hand": h, "contract": label, "cards": cards, "method": "simulated",
                         "p_dealt": p, "lo": lo, "hi": hi, "deals": n})
            samples[h] = hits
    out = pd.DataFrame(rows)
    return (out, samples) if return_samples else out


def contract_label(groups: int, runs: int) -> str:
    """Human label of a contract: ``contract_label(3, 1) == "3 groups + 1 run"``.

    Examples
    --------
    >>> contract_label(3, 0), contract_label(1, 2), contract_label(0, 4)
    ('3 groups', '1 group + 2 runs', '4 runs')
    """
    parts = []
    if groups:
        parts.append(f"{groups} group{'s' * (groups != 1)}")
    if runs:
        parts.append(f"{runs} run{'s' * (runs != 1)}")
    return " + ".join(parts) or "nothing"


def p_some_seat_dealt(df: pd.DataFrame) -> pd.DataFrame:
    """Chance that *some* seat at the table is dealt its contract, per hand and player count.

    Over every deal in ``df`` (each (game, attempt); rows of ``play_hands(..., voids=True)``,
    or of hands that took one deal): a deal counts when any seat's ``dealt_meets_contract``.
    Wilson intervals over deals. Returns ``hand, players, p_any, lo, hi, deals``.
    """
    d = _rows(df, ["hand", "players", "game", "attempt", "attempts", "dealt_meets_contract"])
    seen = d.groupby(["hand", "players", "game"])["attempt"].nunique()
    took = d.groupby(["hand", "players", "game"])["attempts"].first()
    if (seen < took).any():
        raise ValueError("df holds only the scored deals of hands that were dealt again (R13); "
                         "give the rows of play_hands(..., voids=True)")
    per = d.groupby(["hand", "players", "game", "attempt"])["dealt_meets_contract"].any()
    rows = []
    for (h, p), x in per.groupby(level=["hand", "players"]):
        r = _prop_row(int(x.sum()), len(x))
        rows.append({"hand": h, "players": p, "p_any": r["p"], "lo": r["lo"], "hi": r["hi"],
                     "deals": r["n"]})
    return pd.DataFrame(rows)
