"""A study's aggregates: integer counts, sums, sums of squares and histograms per contract x
players x seat x policy, in long form (``KEYS + [stat, value, count]``), from the rows of
:func:`~kalooki_sim.play_games` or :func:`~kalooki_sim.play_hands`.

Every number is an integer, so the aggregates of disjoint sets of rows add up
(:func:`merge`) to the aggregates of all the rows, exactly: a run of :func:`~kalooki_sim.simulate`
keeps one small file of them per chunk and merges them when it finishes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: the keys of every aggregate row: the contract (hand number and its deal), table and seat
KEYS = ["hand", "groups", "runs", "cards_dealt", "players", "seat", "policy"]
#: ``summary()`` columns after the keys, in order. Counts are over the rows (one per seat per
#: hand: the scored attempt, or a hand given up); ``*_sq`` are sums of squares.
MOMENTS = (
    "rows",                  # rows (seat-hands)
    "scored",                # rows of scored hands (not void)
    "given_up",              # void rows of hands given up after Rules.max_replays (not stalled)
    "stalled",               # void rows of hands stopped by the engine's turn cap
    "attempts", "attempts_sq",   # deals the hand took (R13: attempts - 1 were void)
    "dealt_meets_contract", "opened", "went_out", "out_on_opening", "doubled", "reshuffled",
    "open_turn", "open_turn_sq",  # over the rows that opened
    "calls", "calls_sq",
    "turns", "turns_sq",
    "cards_left", "cards_left_sq",  # over scored rows
    "penalty", "penalty_sq",        # over scored rows (the seat that went out scores 0)
)
#: whole-game aggregates (``game_summary()``), per players x seat x policy
GAME_MOMENTS = ("games", "complete", "winner", "total", "total_sq")
#: histograms kept per key: measure -> which rows count
HISTOGRAMS = {"penalty": "scored", "open_turn": "opened", "turns": "rows", "calls": "rows"}


def aggregate(df: pd.DataFrame) -> pd.DataFrame:
    """The aggregates of rows ``df`` in long form: ``KEYS + [stat, value, count]``.

    Moments have ``value = -1`` and the sum in ``count``; histogram rows have ``stat =
    "hist_<measure>"``, the measure's ``value`` and how many rows had it; whole-game moments
    (from rows with ``total``) have keys ``hand = groups = runs = cards_dealt = 0``. Every
    number is an integer, so aggregates of parts add up to the aggregates of the whole
    (:func:`merge`).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> a = aggregate(ks.play_hands(50, hand=3, seed=1))
    >>> int(a.loc[(a["stat"] == "rows"), "count"].sum())
    200
    """
    keys = df[["hand", "seat"]].to_numpy(np.int64)
    scored = ~df["void"].to_numpy()
    opened = df["opened"].to_numpy()
    fill = lambda c: df[c].fillna(0).to_numpy(np.int64) if len(df) else np.zeros(0, np.int64)  # noqa: E731
    code = keys[:, 0] * 256 + keys[:, 1]
    uniq, inv = np.unique(code, return_inverse=True)

    def stats():  # one column at a time: memory stays a few arrays of the chunk's length
        yield "rows", np.ones(len(df), np.int64)
        yield "scored", scored.astype(np.int64)
        yield "given_up", (~scored & ~df["stalled"].to_numpy()).astype(np.int64)
        yield "stalled", df["stalled"].to_numpy(np.int64)
        att = df["attempts"].to_numpy(np.int64)
        yield "attempts", att
        yield "attempts_sq", att * att
        for c in ("dealt_meets_contract", "opened", "went_out", "out_on_opening", "doubled",
                  "reshuffled"):
            yield c, df[c].to_numpy(np.int64)
        for c, mask in (("open_turn", opened), ("calls", None), ("turns", None),
                        ("cards_left", scored), ("penalty", scored)):
            v = fill(c) if mask is None else np.where(mask, fill(c), 0)
            yield c, v
            yield c + "_sq", v * v

    sums = {name: _sum_by(inv, v, len(uniq)) for name, v in stats()}
    parts = [pd.DataFrame({"hand": np.repeat(uniq // 256, len(MOMENTS)),
                           "seat": np.repeat(uniq % 256, len(MOMENTS)),
                           "stat": np.tile(np.array(MOMENTS, object), len(uniq)),
                           "count": np.stack([sums[m] for m in MOMENTS], 1).ravel(),
                           "value": -1})]
    masks = {"rows": np.ones(len(df), bool), "scored": scored, "opened": opened}
    for name, which in HISTOGRAMS.items():
        sel = masks[which]
        h = pd.DataFrame({"hand": keys[sel, 0], "seat": keys[sel, 1],
                          "value": fill(name)[sel]})
        parts.append(h.groupby(["hand", "seat", "value"], sort=True).size().rename("count")
                     .reset_index().assign(stat=f"hist_{name}"))
    if "total" in df.columns:
        parts.append(_game_aggregate(df))
    long = pd.concat(parts, ignore_index=True)
    return _with_keys(long, df)


def _sum_by(inv, v, n) -> np.ndarray:
    """Exact int64 sums of ``v`` per group ``inv`` (``bincount`` while float64 is exact)."""
    if len(v) == 0 or int(np.abs(v).sum()) < 2**53:
        return np.bincount(inv, weights=v.astype(np.float64), minlength=n).astype(np.int64)
    out = np.zeros(n, np.int64)
    np.add.at(out, inv, v)
    return out


def _game_aggregate(df):
    g = df.loc[df["hand"] == df["hand"].min()]
    g = g.loc[g["attempt"] == g["attempts"] - 1, ["seat", "total", "winner", "complete"]]
    done = g["complete"].to_numpy()
    total = np.where(done, g["total"].fillna(0).to_numpy(np.int64), 0)
    m = pd.DataFrame({"seat": g["seat"].to_numpy(np.int64),
                      "games": np.ones(len(g), np.int64), "complete": done.astype(np.int64),
                      "winner": (g["winner"].to_numpy() & done).astype(np.int64),
                      "total": total, "total_sq": total * total})
    out = (m.groupby("seat", sort=True).sum().stack().rename("count").reset_index()
           .rename(columns={"level_1": "stat"}))
    return out.assign(hand=0, value=-1)


def _with_keys(long, df):
    """Add groups, runs, cards_dealt, players and policy (functions of hand and seat)."""
    per_hand = df.groupby("hand", sort=True)[["groups", "runs", "cards_dealt"]].first()
    per_hand.loc[0] = 0
    policy = df.groupby("seat", sort=True)["policy"].first().astype(str)
    h = long["hand"].to_numpy(np.int64)
    out = pd.DataFrame({
        "hand": h.astype(np.int8),
        "groups": per_hand["groups"].reindex(h).to_numpy(np.int8),
        "runs": per_hand["runs"].reindex(h).to_numpy(np.int8),
        "cards_dealt": per_hand["cards_dealt"].reindex(h).to_numpy(np.int8),
        "players": np.full(len(long), int(df["players"].iat[0]) if len(df) else 0, np.int8),
        "seat": long["seat"].to_numpy(np.int8),
        "policy": policy.reindex(long["seat"].to_numpy()).to_numpy(object).astype(str),
        "stat": long["stat"].to_numpy(object).astype(str),
        "value": long["value"].to_numpy(np.int32),
        "count": long["count"].to_numpy(np.int64),
    })
    return out


def merge(parts) -> pd.DataFrame:
    """Add up long-form aggregates (from :func:`aggregate`) of disjoint sets of rows."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty_aggregates()
    cat = pd.concat(parts, ignore_index=True)
    out = (cat.groupby(KEYS + ["stat", "value"], sort=True, observed=True)["count"].sum()
           .reset_index())
    for c in ("hand", "groups", "runs", "cards_dealt", "players", "seat"):
        out[c] = out[c].astype(np.int8)
    out["value"] = out["value"].astype(np.int32)
    out["count"] = out["count"].astype(np.int64)
    return out


def empty_aggregates() -> pd.DataFrame:
    """Aggregates of no rows: the columns and dtypes of :func:`aggregate`."""
    return pd.DataFrame({**{k: np.zeros(0, np.int8) for k in KEYS if k != "policy"},
                         "policy": np.zeros(0, object).astype(str),
                         "stat": np.zeros(0, object).astype(str),
                         "value": np.zeros(0, np.int32), "count": np.zeros(0, np.int64)},
                        columns=KEYS + ["stat", "value", "count"])


def means(summary: pd.DataFrame, by=("hand", "groups", "runs", "policy")) -> pd.DataFrame:
    """Means from a :meth:`Run.summary` table (or several added up), pooled within ``by``."""
    by = list(by)
    s = summary.groupby(by, sort=True, observed=True)[list(MOMENTS)].sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        n = s["scored"].astype(float)
        mean_pen = s["penalty"] / n
        var = (s["penalty_sq"] / n - mean_pen**2) * n / (n - 1)
        out = pd.DataFrame({
            "seat_hands": s["rows"], "scored": s["scored"],
            "void_per_hand": (s["attempts"] - s["rows"]) / s["rows"],
            "p_opened": s["opened"] / n,
            "mean_open_turn": s["open_turn"] / s["opened"],
            "mean_calls": s["calls"] / s["rows"],
            "p_went_out": s["went_out"] / n,
            "p_out_on_opening": s["out_on_opening"] / n,
            "mean_turns": s["turns"] / s["rows"],
            "mean_penalty": mean_pen,
            "sd_penalty": np.sqrt(var.clip(lower=0)),
            "loser_penalty": s["penalty"] / (n - s["went_out"]),
        })
    return out.reset_index()
