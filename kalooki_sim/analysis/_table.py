"""The contract table an organiser quotes: one row per contract at one table size,
every figure with its 95% interval and a difficulty rank with a simultaneous rank interval.

Exposed as :func:`kalooki_sim.analysis.contract_table`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._lib import check_int, check_seed
from ._difficulty import _rows, contract_difficulty, scored
from ._multiplicity import rank_intervals
from ._survival import open_survival

#: the columns of :func:`contract_table`, in order (``reports/contract_table.csv``)
CONTRACT_TABLE_COLUMNS = (
    "hand", "contract", "p_dealt", "median_open_turn", "median_open_turn_lo",
    "median_open_turn_hi", "p_open_by_turn_10", "p_void_deal", "p_void_deal_lo",
    "p_void_deal_hi", "losers_penalty", "losers_penalty_lo", "losers_penalty_hi",
    "p_out_on_opening", "p_out_on_opening_lo", "p_out_on_opening_hi", "turns",
    "difficulty_rank", "rank_lo", "rank_hi")

#: what ``difficulty_rank`` ranks by, in words (the page says it)
DIFFICULTY_RANKED_BY = ("the median own turn by which a seat has put its contract down "
                        "(later is harder; rank 1 is the hardest)")


def contract_table(df: pd.DataFrame, deals: pd.DataFrame, dealt=None, players: int = 4,
                   max_turn: int = 20, n_boot: int = 200, seed: int = 0,
                   return_draws: bool = False):
    """One row per contract at ``players`` seats: the table an organiser quotes.

    Parameters
    ----------
    df : pandas.DataFrame
        Rows of ``play_hands`` / ``play_games`` (scored hands; void rows optional), any player
        counts: only ``players`` is kept.
    deals : pandas.DataFrame
        Rows of ``play_hands(..., voids=True)`` (every deal, void ones included), for the
        censoring-aware opening speed (:func:`open_survival`).
    dealt : pandas.DataFrame, optional
        :func:`p_dealt_table` (``hand, p_dealt``): the chance one seat's deal lays the
        contract; without it, :func:`contract_difficulty`'s (NaN unless ``df`` holds voids).
    players : int
        The table size of the rows kept.
    max_turn, n_boot, seed : int
        Horizon of the opening curve; bootstrap replicates over deals and their seed.
    return_draws : bool
        Also return ``{hand: bootstrap replicates of the median}`` (for a
        :func:`rank_intervals` the other way round, "fastest").

    Returns
    -------
    pandas.DataFrame
        Exactly :data:`CONTRACT_TABLE_COLUMNS`: ``p_dealt``; ``median_open_turn`` with
        ``_lo``/``_hi`` (bootstrap over deals; ``inf`` if not reached by ``max_turn``, NaN
        where too few seats remain); ``p_open_by_turn_10`` (Kaplan-Meier, NaN where the
        curve stops); ``p_void_deal`` (share of deals void, R13, with ``_lo``/``_hi``);
        ``losers_penalty`` (mean
        penalty of the seats that did not go out, cluster-robust interval);
        ``p_out_on_opening`` (hand won on the opening, R12, with ``_lo``/``_hi``); ``turns``
        (mean table turns per
        scored hand); ``difficulty_rank`` by the median opening turn (1 = hardest, ties share
        the lower rank) and its 95% simultaneous rank interval ``rank_lo, rank_hi``
        (:func:`rank_intervals` over the bootstrap replicates; NaN for a median not
        estimated).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> d = ks.play_hands(40, hand=1, seed=1, voids=True, progress=False)
    >>> t = contract_table(d, d, n_boot=20)
    >>> list(t.columns) == list(CONTRACT_TABLE_COLUMNS), int(t["difficulty_rank"].iat[0])
    (True, 1)
    """
    players = check_int("players", players, 2)
    max_turn = check_int("max_turn", max_turn, 10)
    n_boot = check_int("n_boot", n_boot, 1)
    seed = check_seed(seed)
    df = _rows(df, ["players", "turns"])
    df = df[df["players"] == players]
    deals = _rows(deals, ["players"])
    deals = deals[deals["players"] == players]
    if df.empty or deals.empty:
        raise ValueError(f"no rows at players={players}")
    diff = contract_difficulty(df).set_index("hand")
    curve, surv, draws = open_survival(deals, max_turn=max_turn, n_boot=n_boot, seed=seed,
                                       return_boot="median")
    surv = surv.set_index("hand")
    by10 = curve[curve["turn"] == 10].set_index("hand")["p_opened"]
    s = scored(df)
    turns = s.groupby(["hand", "game"])["turns"].sum().groupby(level="hand").mean()
    if dealt is not None:
        p_dealt = pd.Series(dealt["p_dealt"].to_numpy(float), index=dealt["hand"].to_numpy())
    else:
        p_dealt = diff["p_dealt"]
    out = pd.DataFrame({"hand": diff.index.to_numpy(int)})
    out["contract"] = diff["contract"].to_numpy()
    out["p_dealt"] = out["hand"].map(p_dealt).astype(float)
    for col, src in (("median_open_turn", "median"), ("median_open_turn_lo", "median_lo"),
                     ("median_open_turn_hi", "median_hi")):
        out[col] = out["hand"].map(surv[src]).astype(float)
    out["p_open_by_turn_10"] = out["hand"].map(by10).astype(float)
    for end in ("", "_lo", "_hi"):
        out[f"p_void_deal{end}"] = diff[f"p_void{end}"].to_numpy(float)
    for col, src in (("losers_penalty", "loser_penalty"), ("losers_penalty_lo", "loser_penalty_lo"),
                     ("losers_penalty_hi", "loser_penalty_hi")):
        out[col] = diff[src].to_numpy(float)
    for end in ("", "_lo", "_hi"):
        out[f"p_out_on_opening{end}"] = diff[f"p_out_on_opening{end}"].to_numpy(float)
    out["turns"] = out["hand"].map(turns).astype(float)
    ok = [h for h in out["hand"] if not np.isnan(out.set_index("hand").loc[h, "median_open_turn"])
          and (h, players) in draws]
    hand_draws = {h: draws[(h, players)] for h in ok}
    ranks = rank_intervals({h: float(out.set_index("hand").loc[h, "median_open_turn"])
                            for h in ok}, hand_draws).set_index("item")
    out["difficulty_rank"] = out["hand"].map(ranks["rank"]).astype("Int64")
    out["rank_lo"] = out["hand"].map(ranks["rank_lo"]).astype("Int64")
    out["rank_hi"] = out["hand"].map(ranks["rank_hi"]).astype("Int64")
    out = out[list(CONTRACT_TABLE_COLUMNS)]
    return (out, hand_draws) if return_draws else out
