"""The strength ladder: each player in one seat against three ``expert`` seats, on
the same deals, in every seat in turn (the duplicate format), over whole nine-hand games.

For a tested player ``X`` and game ``g`` (seed ``seed``: the deals, the first dealer and every
random choice come from the game's streams, C3), the four tables "``X`` in seat ``k``, experts
elsewhere" are played, ``k`` = 0..3, and one table of four experts. Per deal (a contract of a
game) and per game (the nine contracts, R14):

* ``d_table``: points against the table, ``X`` minus the expert: the mean over ``k`` of ``X``'s
  penalty minus the mean of the three others at its table (R12, doubles counted). At the
  table of four experts that mean is exactly 0, so this is ``X``'s gain over the expert in
  what decides a game; it is the call chart's own measure (``d_relative``).
* ``d_own``: own points, ``X``'s penalty in seat ``k`` minus the expert's in seat ``k`` at
  the expert table, averaged over ``k`` (paired by deal and seat).
* per game: ``win_share``, the games ``X`` wins (lowest total, ties shared, R14), averaged
  over ``k`` (an expert's is 1/4 exactly), and a rating on the Elo scale from it: with one
  ``X`` among three experts, a Plackett–Luce (Bradley–Terry for tables of four) model of the
  winner gives ``P(X wins) = s / (s + 3)`` with ``s`` its strength relative to an expert, so
  ``rating = 400 log10(3 w / (1 - w))``: 0 for the expert, +100 for a player that wins a game
  against three experts as a 1.78 : 1 favourite would a single expert.

Intervals are Student t 95% intervals over deals (per contract) or over games (per game), the
unit of a duplicate design; ``p_holm`` is Holm's adjustment of ``d_table``'s two-sided t test
over each player's nine contracts. Rows are "``player`` minus ``baseline``": every player
against ``expert``, and ``thumb`` against ``chart`` (does the short version keep the gain?).

The tables are played and kept on disk by :func:`ladder_games` (resumable: a chunk of games is
a Parquet file named by the player's settings, so a changed chart plays again) and summed by
:func:`ladder_table`; ``python -m kalooki_sim.analysis.ladder`` writes the committed table
``kalooki_sim/analysis/ladder.csv`` (:func:`ladder_committed`), which the ``should_i_call``
page reads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .._lib import check_bool, check_columns, check_int, check_seed, log, not_allowed
from .._stats import bound, fixed, holm_adjust, t_interval, t_pvalue
from ..engine.play import play_games
from ..engine.policies import Policy, policy_args, preset
from ..players.tuning import read_committed, write_committed

#: the ladder's players, weakest expected first
LADDER_PLAYERS = ("greedy", "expert", "thumb", "chart", "search")
#: the committed ladder's seed: never used while the chart player was developed
SEED = 4949
#: games (deals per contract) for every player but the searcher, and for the searcher
GAMES, SEARCH_GAMES = 10_000, 1_000
#: seats at the table (R2: the card's four-player game)
PLAYERS = 4
#: games :func:`ladder` reads and summarises at a time (a multiple of the chunks, 500 and 50,
#: so the files are the same as one call's): a million games never sit in memory at once
BLOCK_GAMES = 50_000
_CSV = "ladder.csv"
#: the chart's test, played again on games fixed before they were played (CHANGELOG,
#: 2026-12-06): the committed table, and the family's level (0.05 halved: the second test)
CONFIRM_CSV, CONFIRM_LEVEL = "chart_vs_expert_1m.csv", 0.025
_KEEP = ["game", "hand", "seat", "penalty", "doubled", "complete"]
COLUMNS = ["player", "baseline", "scope", "hand", "deals", "points", "d_table", "d_table_lo",
           "d_table_hi", "p_table", "p_holm", "d_own", "d_own_lo", "d_own_hi", "win_share",
           "win_lo", "win_hi", "rating", "rating_lo", "rating_hi"]


def _player(p) -> Policy:
    return preset(p)


def fingerprint(pol: Policy) -> str:
    """A short hash of ``pol``'s settings (as a study's manifest keeps them: a chart by the
    hash of its cells): the folder of its tables, so that a changed chart is played again."""
    text = json.dumps(policy_args(pol), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def _tables(pol: Policy) -> list[int]:
    """The seats the tested player takes: every one, or none (-1) for the expert itself."""
    return [-1] if pol == preset("expert") else list(range(PLAYERS))


def ladder_games(player, games, seed=SEED, out=".study/ladder", first_game=0, chunk_games=None,
                 threads=None, progress=True) -> pd.DataFrame:
    """Play (or read back) the ladder's tables of ``player``: games ``first_game`` to
    ``first_game + games - 1``, with ``player`` in each seat in turn and ``expert`` in the
    others (``expert`` itself: one table of four). Each chunk of games is kept as a Parquet
    file under ``out/<name>-<fingerprint>/seat-<k>/``; a chunk on disk is read, not played,
    so a stopped run resumes where it stopped. The folder keeps one seed (its file ``seed``):
    another seed there is refused.

    Returns the rows of :func:`~kalooki_sim.play_games` (``game, hand, seat, penalty,
    doubled, complete``) with ``rotation``, the tested player's seat (-1: the expert table).
    """
    pol = _player(player)
    games = check_int("games", games, 1)
    seed = check_seed(seed)
    first_game = check_int("first_game", first_game, 0)
    progress = check_bool("progress", progress)
    step = check_int("chunk_games", chunk_games if chunk_games is not None else
                     (50 if pol.search else 500), 1)
    home = Path(out) / f"{pol.name}-{fingerprint(pol)}"
    _same_seed(home, seed)
    parts = []
    for k in _tables(pol):
        pols = [preset("expert")] * PLAYERS
        if k >= 0:
            pols[k] = pol
        where = home / ("experts" if k < 0 else f"seat-{k}")
        where.mkdir(parents=True, exist_ok=True)
        for g0 in range(first_game, first_game + games, step):
            n = min(step, first_game + games - g0)
            f = where / f"games-{g0:08d}-{n}.parquet"
            if not f.exists():
                t0 = time.perf_counter()
                df = play_games(n, players=PLAYERS, policies=pols, seed=seed, threads=threads,
                                first_game=g0, progress=False)[_KEEP]
                tmp = f.with_suffix(".tmp")
                df.to_parquet(tmp, index=False)
                os.replace(tmp, f)
                if progress:
                    log.warning("ladder %s, seat %s: games %d-%d in %.0f s", pol.name,
                                "all" if k < 0 else k, g0, g0 + n - 1,
                                time.perf_counter() - t0)
            parts.append(pd.read_parquet(f).assign(rotation=k))
    return pd.concat(parts, ignore_index=True)


def _same_seed(home: Path, seed: int) -> None:
    """A player's folder keeps the games of one seed (its file ``seed``): the files' names
    hold the games, not the seed, so another seed's games would be read as this one's."""
    f = home / "seed"
    if f.exists():
        kept = f.read_text().strip()
        if kept != str(seed):
            raise ValueError(f"{home} holds the games of seed {kept}, not of seed {seed}: "
                             "give another out for this seed")
    else:
        home.mkdir(parents=True, exist_ok=True)
        f.write_text(f"{seed}\n")


def _per_deal(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (game, hand): the tested player's own points, its points against its table and
    the expert table's own points, each the mean over the rotations; deals with a hand given
    up (no score) in some table are NaN."""
    pen = rows.pivot_table(index=["game", "hand", "rotation"], columns="seat",
                           values="penalty", aggfunc="first", dropna=False).astype(float)
    pen = pen.reindex(columns=range(PLAYERS))
    a = pen.to_numpy()
    rot = pen.index.get_level_values("rotation").to_numpy()
    total = a.sum(axis=1)
    if (rot < 0).all():  # the expert table: its mean over seats, 0 against the table
        own = total / PLAYERS
        rel = np.where(np.isnan(total), np.nan, 0.0)
    else:
        mine = a[np.arange(len(a)), rot]
        own = mine
        # in thirds of a point, whole numbers: a player against its own kind sums to 0 exactly
        rel = PLAYERS * mine - total
    d = pd.DataFrame({"own": own, "rel": rel}, index=pen.index)
    bad = d.isna().any(axis=1).groupby(level=["game", "hand"]).any().to_numpy()
    d = d.groupby(level=["game", "hand"]).sum()
    d[bad] = np.nan  # a hand given up in some table: the deal is not counted
    n = pen.groupby(level=["game", "hand"]).size().to_numpy()
    d["own"] /= n
    d["rel"] /= n * (PLAYERS - 1)
    return d.reset_index()


def _game_wins(rows: pd.DataFrame) -> pd.Series:
    """Per game: the tested player's share of the game's wins (lowest total over the nine
    hands, ties shared, R14), the mean over its rotations; NaN for a game with a hand given
    up. At the expert table 1/4."""
    tot = rows.groupby(["game", "rotation", "seat"])["penalty"].sum(min_count=1)
    bad = rows["penalty"].isna().groupby([rows["game"], rows["rotation"]]).any()
    t = tot.unstack("seat").reindex(columns=range(PLAYERS)).astype(float)
    low = t.min(axis=1)
    share = t.eq(low, axis=0).div(t.eq(low, axis=0).sum(axis=1), axis=0)
    rot = t.index.get_level_values("rotation").to_numpy()
    s = share.to_numpy()
    w = np.where(rot < 0, 1.0 / PLAYERS, s[np.arange(len(s)), np.maximum(rot, 0)])
    w = pd.Series(w, index=t.index)
    w[bad.reindex(t.index).to_numpy()] = np.nan
    return w.groupby(level="game").mean()


def _rating(w: float) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(400 * np.log10((PLAYERS - 1) * w / (1 - w)))


def _ci(x):
    m, lo, hi, n = t_interval(x)
    return m, lo, hi, n


def ladder_table(rows: dict, baselines=None) -> pd.DataFrame:
    """The ladder from :func:`ladder_games` rows: ``rows`` maps each player's name to its
    rows (``"expert"`` required: the baseline); ``baselines``: ``(player, baseline)`` pairs
    (default: every player against ``expert``, and ``thumb`` against ``chart`` when both are
    there). Comparisons use the games both have. One row per pair and contract (``scope``
    ``"hand"``) and per pair for the nine-hand game (``scope`` ``"game"``, ``hand`` <NA>),
    columns :data:`COLUMNS` (see the module docstring).

    Examples
    --------
    >>> r = lambda pen: pd.DataFrame({"game": 0, "hand": [1] * 4, "seat": range(4),
    ...                               "penalty": pen, "doubled": False, "complete": True})
    >>> ex = r([10, 20, 30, 40]).assign(rotation=-1)
    >>> x = pd.concat([r([0, 20, 30, 40]).assign(rotation=0)] + [r([10, 20, 30, 40]).assign(
    ...     rotation=k) for k in (1, 2, 3)])
    >>> t = ladder_table({"expert": ex, "x": x}, [("x", "expert")])
    >>> r0 = t.iloc[0]
    >>> r0["scope"], int(r0["hand"]), float(r0["d_own"])   # (0 - 10) / 4: seat 0's rotation
    ('hand', 1, -2.5)
    """
    if "expert" not in rows:
        raise ValueError(not_allowed("rows", sorted(rows), "rows of 'expert' among them"))
    return _table({p: _per_deal(r) for p, r in rows.items()},
                  {p: _game_wins(r) for p, r in rows.items()}, baselines)


def _table(deals: dict, wins: dict, baselines=None) -> pd.DataFrame:
    """:func:`ladder_table` from each player's per-deal points (:func:`_per_deal`) and per-game
    win shares (:func:`_game_wins`), which a block of games gives on its own."""
    if baselines is None:
        baselines = [(p, "expert") for p in deals if p != "expert"]
        if "thumb" in deals and "chart" in deals:
            baselines.append(("thumb", "chart"))
    out = []
    for p, b in baselines:
        m = deals[p].merge(deals[b], on=["game", "hand"], suffixes=("", "_b"))
        m["d_table"] = m["rel"] - m["rel_b"]
        m["d_own"] = m["own"] - m["own_b"]
        ok = m[["d_table", "d_own"]].notna().all(axis=1)
        m = m[ok]
        hand_rows = []
        for h, g in m.groupby("hand", sort=True):
            dt, dlo, dhi, n = _ci(g["d_table"])
            do, olo, ohi, _ = _ci(g["d_own"])
            hand_rows.append({"player": p, "baseline": b, "scope": "hand", "hand": int(h),
                              "deals": n, "points": float(g["own"].mean()), "d_table": dt,
                              "d_table_lo": dlo, "d_table_hi": dhi,
                              "p_table": t_pvalue(g["d_table"]), "d_own": do, "d_own_lo": olo,
                              "d_own_hi": ohi})
        adj = holm_adjust(np.array([r["p_table"] for r in hand_rows], float))
        for r, q in zip(hand_rows, adj, strict=True):
            r["p_holm"] = float(q)
        out += hand_rows
        # the nine-hand game: games with every hand scored in every table of both players
        per_game = m.groupby("game").agg(d_table=("d_table", "sum"), d_own=("d_own", "sum"),
                                         points=("own", "sum"), n=("hand", "size"))
        per_game = per_game[per_game["n"] == m["hand"].nunique()]
        w = pd.concat([wins[p].rename("w"), wins[b].rename("w_b")], axis=1).reindex(
            per_game.index)
        keep = w.notna().all(axis=1)
        per_game, w = per_game[keep], w[keep]
        dt, dlo, dhi, n = _ci(per_game["d_table"])
        do, olo, ohi, _ = _ci(per_game["d_own"])
        ws, wlo, whi, _ = _ci(w["w"])
        row = {"player": p, "baseline": b, "scope": "game", "hand": pd.NA, "deals": n,
               "points": float(per_game["points"].mean()), "d_table": dt, "d_table_lo": dlo,
               "d_table_hi": dhi, "p_table": t_pvalue(per_game["d_table"]), "p_holm": np.nan,
               "d_own": do, "d_own_lo": olo, "d_own_hi": ohi, "win_share": ws,
               "win_lo": wlo, "win_hi": whi}
        if b == "expert":
            row.update(rating=_rating(ws), rating_lo=_rating(wlo), rating_hi=_rating(whi))
        out.append(row)
    t = pd.DataFrame(out).reindex(columns=COLUMNS)
    t["hand"] = t["hand"].astype("Int64")
    return t


def _less(r, than: str = "") -> str:
    """``"2.1 [0.4, 3.8] points a game less than the expert"`` (or ``"more"``) from a game
    row's ``d_table`` (the player minus the expert) and its interval, and, when the interval
    holds 0, that no difference is shown."""
    x, lo, hi = -r["d_table"], -r["d_table_hi"], -r["d_table_lo"]
    word = "less"
    if x < 0:
        x, lo, hi, word = -x, -hi, -lo, "more"
    sure = lo > 0 or hi < 0
    return (f"{fixed(x, 1)} [{fixed(lo, 1, signed=True)}, {fixed(hi, 1, signed=True)}] points "
            f"a game {word}{than} ({int(r['deals']):,} games"
            + ("" if sure else "; the interval holds 0: no difference shown") + ")")


def ladder_sentence(table: pd.DataFrame) -> str:
    r"""What following the chart wins, from a :func:`ladder_table`: "following this chart
    pays X [lo, hi] points a game less than the expert; its rules of thumb alone Y; the
    searcher Z", in points against the table per nine-hand game (your total minus the mean of
    the table's), 95% intervals over games; players missing from the table are left out.

    Examples
    --------
    >>> t = pd.DataFrame({"player": ["chart", "search"], "baseline": "expert",
    ...     "scope": "game", "deals": [10000, 1000], "d_table": [-6.0, -40.0],
    ...     "d_table_lo": [-9.0, -55.0], "d_table_hi": [-3.0, -25.0]})
    >>> print(ladder_sentence(t).replace("; ", ";\n").replace(", in", ",\nin"))
    Following this chart pays 6.0 [+3.0, +9.0] points a game less than the expert (10,000 games);
    the searcher 40.0 [+25.0, +55.0] points a game less (1,000 games),
    in points against the table (your total minus the table's mean), 95% intervals over games.
    """
    check_columns("table", table, ["player", "baseline", "scope", "deals", "d_table",
                                   "d_table_lo", "d_table_hi"])
    g = table[(table["scope"] == "game") & (table["baseline"] == "expert")].set_index("player")
    if "chart" not in g.index:
        raise ValueError(not_allowed("table", sorted(g.index), "a ladder with the chart "
                                     "player's game row"))
    parts = [f"Following this chart pays {_less(g.loc['chart'], ' than the expert')}"]
    for p, who in (("thumb", "its rules of thumb alone"), ("search", "the searcher")):
        if p in g.index:
            parts.append(f"{who} {_less(g.loc[p])}")
    return ("; ".join(parts) + ", in points against the table (your total minus the "
            "table's mean), 95% intervals over games.")


def _gain(x: float, lo: float, hi: float) -> str:
    """``"0.89 [0.62, 1.16]"``: enough decimals for two figures of ``x`` (a gain of 0.006
    points is not "0.0"), the interval's ends on their side of zero."""
    d = 1 if x == 0 else max(1, 1 - int(np.floor(np.log10(abs(x)))))
    return f"{fixed(x, d)} [{bound(lo, d)}, {bound(hi, d)}]"


def must_test(table: pd.DataFrame, player: str = "chart",
              level: float = CONFIRM_LEVEL) -> pd.DataFrame:
    """The chart's test read from a :func:`ladder_table`: per contract, ``player`` minus the
    expert against the table, and its ``verdict``: ``"less"`` (below zero after Holm over the
    nine contracts at ``level``: ``p_holm < level`` and ``d_table < 0``), ``"more"`` (above
    zero so), ``"same games"`` (the player played the expert's very games: every deal's
    difference 0) or ``"none"`` (no difference shown).

    Examples
    --------
    >>> t = pd.DataFrame({"player": "chart", "baseline": "expert", "scope": "hand",
    ...     "hand": [1, 2, 3], "deals": 10, "d_table": [-0.5, 0.0, 0.2],
    ...     "d_table_lo": [-0.8, 0.0, -0.1], "d_table_hi": [-0.2, 0.0, 0.5],
    ...     "p_table": [0.001, 1.0, 0.2], "p_holm": [0.003, 1.0, 0.4]})
    >>> list(must_test(t)["verdict"])
    ['less', 'same games', 'none']
    """
    check_columns("table", table, ["player", "baseline", "scope", "hand", "deals", "d_table",
                                   "d_table_lo", "d_table_hi", "p_holm"])
    h = table[(table["player"] == player) & (table["baseline"] == "expert")
              & (table["scope"] == "hand")].sort_values("hand").reset_index(drop=True)
    if h.empty:
        raise ValueError(not_allowed("player", player, "a player with rows against the "
                                     "expert in the table"))
    h["hand"] = h["hand"].astype(int)  # a table read back from CSV holds them as floats
    sig = h["p_holm"] < level
    same = (h["d_table_lo"] == 0) & (h["d_table_hi"] == 0) & (h["d_table"] == 0)
    h["verdict"] = np.select([sig & (h["d_table"] < 0), sig & (h["d_table"] > 0), same],
                             ["less", "more", "same games"], "none")
    return h


def must_sentence(table: pd.DataFrame, player: str = "chart", level: float = CONFIRM_LEVEL,
                  names=None, games: str = "games") -> str:
    """What :func:`must_test` finds, in a sentence: in how many contracts following the chart
    pays less than the expert after Holm at ``level`` (each with its gain a hand and 95%
    interval), in how many more, where it plays the expert's very games and where no
    difference is shown; and whether the test's bar (less in at least four, more in none)
    holds. ``names``: a contract's name by hand (default ``"hand 6"``); ``games``: what the
    games were (``"games fixed before they were played"`` for the committed test).

    Examples
    --------
    >>> t = pd.DataFrame({"player": "chart", "baseline": "expert", "scope": "hand",
    ...     "hand": [1, 2, 3], "deals": 1000, "d_table": [-0.5, 0.0, 0.2],
    ...     "d_table_lo": [-0.8, 0.0, -0.1], "d_table_hi": [-0.2, 0.0, 0.5],
    ...     "p_table": [0.001, 1.0, 0.2], "p_holm": [0.003, 1.0, 0.4]})
    >>> print(must_sentence(t))  # doctest: +NORMALIZE_WHITESPACE
    On 1,000 games, following the chart pays less than the
    expert against the table in 1 of 3 contracts after Holm at 0.025 (hand 1: 0.50 [0.20,
    0.80] points a hand less) and more in none; in hand 2 it plays the expert's very games;
    in hand 3 no difference is shown. Less in at least four contracts and more in none: not
    met.
    """
    t = must_test(table, player, level)
    name = (lambda k: f"hand {k}") if names is None else (lambda k: names[int(k)])

    def listed(rows):
        return ", ".join(name(r.hand) for r in rows.itertuples())

    less, more = t[t["verdict"] == "less"], t[t["verdict"] == "more"]
    same, none = t[t["verdict"] == "same games"], t[t["verdict"] == "none"]
    gains = "; ".join(f"{name(r.hand)}: {_gain(-r.d_table, -r.d_table_hi, -r.d_table_lo)} "
                      "points a hand less" for r in less.itertuples())
    who = {"chart": "the chart", "thumb": "the rules of thumb", "search": "the searcher"}
    text = (f"On {int(t['deals'].min()):,} {games}, following {who.get(player, player)} pays "
            f"less than the expert against the table in {len(less)} of {len(t)} contracts "
            f"after Holm at {level:g}" + (f" ({gains})" if gains else "")
            + (f" and more in {len(more)} ({listed(more)})" if len(more) else " and more in "
               "none"))
    if len(same):
        text += f"; in {listed(same)} it plays the expert's very games"
    if len(none):
        text += f"; in {listed(none)} no difference is shown"
    met = len(less) >= 4 and len(more) == 0
    return text + (". Less in at least four contracts and more in none: "
                   + ("met." if met else "not met."))


def must_lead(table: pd.DataFrame, level: float = CONFIRM_LEVEL,
              games: str = "games fixed before they were played") -> str:
    """The page's second sentence, from the table of the chart's test (:func:`must_test`):
    what following the chart wins a game on those games, and in how many contracts it pays
    less after Holm at ``level``.

    Examples
    --------
    >>> t = pd.DataFrame({"player": "chart", "baseline": "expert", "scope": ["hand"] * 2
    ...     + ["game"], "hand": [1, 2, None], "deals": 10**6, "d_table": [-0.5, 0.0, -1.2],
    ...     "d_table_lo": [-0.8, 0.0, -1.5], "d_table_hi": [-0.2, 0.0, -0.9],
    ...     "p_holm": [0.003, 1.0, None]})
    >>> print(must_lead(t))  # doctest: +NORMALIZE_WHITESPACE
    On 1,000,000 games fixed before they were played, following this chart pays 1.2 [+0.9,
    +1.5] points a game less than the expert, and less in 1 of 2 contracts after Holm at 0.025
    (below).
    """
    t = must_test(table[table["scope"] == "hand"], "chart", level)
    g = table[(table["player"] == "chart") & (table["baseline"] == "expert")
              & (table["scope"] == "game")]
    if g.empty:
        raise ValueError(not_allowed("table", "no game row", "the chart player's game row"))
    r = g.iloc[0]
    n_less = int((t["verdict"] == "less").sum())
    won = _less(r, " than the expert")  # "... less than the expert (N games[; no difference])"
    shown = "" if "holds 0" not in won else " (the interval holds 0: no difference shown)"
    return (f"On {int(r['deals']):,} {games}, following this chart pays {won.split(' (')[0]}"
            f"{shown}, and less in {n_less} of {len(t)} contracts after Holm at {level:g} "
            "(below).")


def confirmed_committed() -> pd.DataFrame:
    """The committed table of the chart's second test (:data:`CONFIRM_CSV`: the chart player
    and the expert, 1,000,000 games fixed before they were played; CHANGELOG), with its ``#``
    header lines in ``.attrs["header"]``."""
    t = read_committed("kalooki_sim.analysis", CONFIRM_CSV)
    t["hand"] = t["hand"].astype("Int64")
    return t


def ladder(players=LADDER_PLAYERS, games=GAMES, search_games=SEARCH_GAMES, seed=SEED,
           out=".study/ladder", threads=None, progress=True) -> pd.DataFrame:
    """Play every player's tables (:func:`ladder_games`, resumable) and return
    :func:`ladder_table`. ``search_games``: games of a searching player (its decisions are
    rollouts, about a thousand times the expert's time); its comparisons use those games."""
    names = [_player(p).name for p in players]
    if "expert" not in names:
        names = ["expert"] + names
    deals, wins = {}, {}
    for p in names:
        pol = _player(p)
        n = (check_int("search_games", search_games, 1) if pol.search
             else check_int("games", games, 1))
        d, w = [], []
        for g0 in range(0, n, BLOCK_GAMES):  # a block at a time: the rows of a block, not all
            rows = ladder_games(pol, min(BLOCK_GAMES, n - g0), seed, out, first_game=g0,
                                threads=threads, progress=progress)
            d.append(_per_deal(rows))
            w.append(_game_wins(rows))
        deals[p], wins[p] = pd.concat(d, ignore_index=True), pd.concat(w)
    return _table(deals, wins)


def ladder_committed() -> pd.DataFrame:
    """The committed ladder, ``kalooki_sim/analysis/ladder.csv`` (package data), with its
    ``#`` header lines (command, wall time, machine) in ``.attrs["header"]``."""
    t = read_committed("kalooki_sim.analysis", _CSV)
    t["hand"] = t["hand"].astype("Int64")
    return t


def _main(argv=None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m kalooki_sim.analysis.ladder",
        description="The strength ladder: each player against three experts on the same "
                    "deals, every seat in turn, over nine-hand games.")
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--search-games", type=int, default=SEARCH_GAMES)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--players", default=",".join(LADDER_PLAYERS))
    ap.add_argument("--out", default=".study/ladder", help="where the tables are kept")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--write", default=None, help="write the table (CSV with a # header)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    players = [p.strip() for p in a.players.split(",") if p.strip()]
    t = ladder(players, a.games, a.search_games, a.seed, a.out, a.threads)
    wall = time.perf_counter() - t0
    print(t.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if a.write:
        cmd = (f"python -m kalooki_sim.analysis.ladder --games {a.games} --search-games "
               f"{a.search_games} --seed {a.seed} --players {','.join(players)}")
        head = [f"made by: {cmd}",
                f"wall time: {wall:.0f} s (tables already on disk are read, not played)",
                f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
                f"{platform.python_version()}; date {time.strftime('%Y-%m-%d')}",
                "rows: player minus baseline; d_table = points against the table, "
                "d_own = own points, per hand or per nine-hand game; 95% t intervals over "
                "deals (games); p_holm: Holm over the player's nine contracts"]
        write_committed(a.write, head, t)


if __name__ == "__main__":
    _main()
