"""Opening speed as a survival estimate: own turns until a seat opens (R7), Kaplan-Meier
with the censoring of hands that end first (scipy.stats.ecdf), medians and restricted means.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import (
    check_int,
    check_seed,
)
from ._difficulty import _rows

# -- opening speed: a survival estimate ------------------------------------------------------


def open_times(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat and deal: the own turn it opened on, or the turn it was censored at.

    A seat that opened has ``time = open_turn`` and ``opened = True``. A seat whose hand ended
    before it opened (someone went out, or the deal was void, R13) is *censored* at its last own
    turn (``time = turns``, ``opened = False``): it had not opened by then, and nobody knows
    when it would have. Void attempts are deals like any other, so they are kept; rows of the
    scored attempts alone (``play_hands`` without ``voids=True``) are a biased sample of deals
    whenever a hand was replayed, and are refused.

    Returns
    -------
    pandas.DataFrame
        Columns ``hand, players, deal, time, opened``; ``deal`` numbers the (game, attempt)
        pairs of each (hand, players) cell from 0, the unit for the bootstrap.

    Raises
    ------
    ValueError
        If a hand took more deals (``attempts``) than it has rows for.
    """
    d = _rows(df, ["hand", "players", "opened", "open_turn", "void"])
    if "attempts" in d and "attempt" in d and "game" in d:
        seen = d.groupby(["hand", "players", "game"])["attempt"].nunique()
        took = d.groupby(["hand", "players", "game"])["attempts"].first()
        if (seen < took).any():
            raise ValueError("df holds only the scored deals of hands that were dealt again "
                             "(R13); give the rows of play_hands(..., voids=True), every deal "
                             "is data")
    opened = d["opened"].to_numpy(bool)
    if (~opened).any():
        _rows(d, ["turns"])
        cens = d["turns"].to_numpy(float)
    else:
        cens = np.zeros(len(d))
    ot = d["open_turn"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    time = np.where(opened, ot, cens)
    keys = [c for c in ("game", "attempt") if c in d]
    deal = (d.groupby(["hand", "players"] + keys, sort=False).ngroup().to_numpy()
            if keys else np.arange(len(d)))
    out = pd.DataFrame({"hand": d["hand"].to_numpy(), "players": d["players"].to_numpy(),
                        "deal": deal, "time": time, "opened": opened})
    # renumber the deals from 0 within each cell
    out["deal"] = out.groupby(["hand", "players"])["deal"].rank(method="dense").astype(int) - 1
    return out


def km_fit(time, opened):
    """Kaplan-Meier chance of having opened by each turn, by :func:`scipy.stats.ecdf`.

    Parameters
    ----------
    time : array of numbers
        Own turn of opening, or the last own turn of a seat censored before opening.
    opened : array of bool
        True where ``time`` is an opening, False where it is a censoring time.

    Returns
    -------
    scipy.stats._survival.ECDFResult
        ``.cdf.evaluate(t)`` is the chance of having opened by turn ``t``.

    Examples
    --------
    >>> r = km_fit([1, 2, 2, 3], [True, True, False, True])
    >>> [round(float(x), 4) for x in r.cdf.evaluate([1, 2, 3])]
    [0.25, 0.5, 1.0]
    """
    time = np.asarray(time, float)
    opened = np.asarray(opened, bool)
    data = stats.CensoredData(uncensored=time[opened], right=time[~opened])
    return stats.ecdf(data)


def _km_counts(time, opened, deal, max_turn):
    """Per-deal counts of openings ``E`` and censorings ``C`` at turns ``0..max_turn + 1``.

    Times beyond ``max_turn`` are censorings at ``max_turn + 1`` (they are at risk through the
    whole window, which is all the estimate to ``max_turn`` uses).
    """
    t = np.minimum(np.asarray(time, float), max_turn + 1).astype(int)
    ev = np.asarray(opened, bool) & (np.asarray(time) <= max_turn)
    g = int(deal.max()) + 1 if len(deal) else 0
    width = max_turn + 2
    E = np.bincount(deal[ev] * width + t[ev], minlength=g * width).reshape(g, width)
    C = np.bincount(deal[~ev] * width + t[~ev], minlength=g * width).reshape(g, width)
    return E.astype(np.float64), C.astype(np.float64)


def _km_from_counts(d, c):
    """Product-limit survival ``S(t)``, ``t = 0..`` from event and censoring counts (rows).

    The same estimator as :func:`km_fit` on the expanded data (tested), in the form the
    bootstrap replicates need: ``S(t) = prod_{s <= t} (1 - d_s / n_s)``, ``n_s`` the seats with
    time ``>= s``.
    """
    n = np.cumsum((d + c)[..., ::-1], axis=-1)[..., ::-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        h = np.where(n > 0, d / n, 0.0)
    return np.cumprod(1.0 - h, axis=-1)


def _median_turn(F, turns):
    """First turn with ``F >= 1/2`` along the last axis; ``inf`` if none (beyond the window)."""
    hit = F >= 0.5 - 1e-12
    first = np.argmax(hit, axis=-1)
    return np.where(hit.any(axis=-1), turns[first], np.inf)


def open_survival(df: pd.DataFrame, max_turn: int = 20, n_boot: int = 200, seed: int = 0,
                  return_boot: bool | str = False, min_at_risk: int = 20):
    """How fast seats open, censoring-aware: Kaplan-Meier curves, medians and restricted means.

    The chance ``p_opened`` that a seat has opened by its own turn ``t`` is the Kaplan-Meier
    estimate (:func:`km_fit`, :func:`scipy.stats.ecdf`) over the seats of every deal, void
    deals included; a seat whose hand ended first is censored at its last own turn
    (:func:`open_times`). It answers "had the hand gone on, how likely would I have opened by
    turn t?". Intervals are 95% percentile intervals of a bootstrap over deals (the seats of a
    deal share the cards and each other's play, so the deal is the unit), ``n_boot``
    replicates from ``seed``.

    Parameters
    ----------
    df : pandas.DataFrame
        Rows of ``play_hands(..., voids=True)`` (or ``play_games``), any hands and players.
    max_turn : int
        Last own turn of the curve and the horizon of the restricted mean (>= 1).
    n_boot : int
        Bootstrap replicates (>= 0; 0 gives NaN bounds).
    seed : int
        Seed of the bootstrap.
    return_boot : bool or str
        Also return ``{(hand, players): rmst replicates}`` (for :func:`rank_intervals`);
        ``"median"``: the replicates of the median instead (``inf`` where a replicate's curve
        does not reach one half by ``max_turn``).
    min_at_risk : int
        The curve is left blank (NaN) from the first turn with fewer seats still at risk
        (not opened, hand not over); the median is NaN if not reached before, ``p_by`` NaN
        unless every turn to ``max_turn`` is supported, and the restricted mean NaN unless
        the unsupported tail could move it by at most 0.1 turn.

    Returns
    -------
    curve : pandas.DataFrame
        One row per (hand, players, turn), ``turn = 1..max_turn``: ``hand, players, turn,
        p_opened, lo, hi``.
    summary : pandas.DataFrame
        One row per (hand, players): ``seats, deals, opened, censored``, ``last_turn`` (the
        last supported turn, see ``min_at_risk``), ``p_last`` (``p_opened`` there),
        ``median`` (first own
        turn by which half the seats have opened; ``inf`` if after ``max_turn``), ``rmst``
        (restricted mean: expected own turns without opening up to ``max_turn``, i.e.
        ``E[min(T, max_turn)]``), ``p_by`` (``p_opened`` at ``max_turn``), each with
        ``_lo``/``_hi``.
    """
    max_turn = check_int("max_turn", max_turn, 1)
    n_boot = check_int("n_boot", n_boot, 0)
    seed = check_seed(seed)
    min_at_risk = check_int("min_at_risk", min_at_risk, 1)
    ot = open_times(df)
    rng = np.random.default_rng([seed, max_turn])
    curves, rows = [], []
    turns = np.arange(0, max_turn + 2)
    for (hand, players), d in ot.groupby(["hand", "players"], sort=True):
        fit = km_fit(d["time"], d["opened"])
        F = np.asarray(fit.cdf.evaluate(turns[1:max_turn + 1]), float)
        S_full = 1.0 - np.asarray(fit.cdf.evaluate(turns[:max_turn]), float)
        E, C = _km_counts(d["time"].to_numpy(), d["opened"].to_numpy(),
                          d["deal"].to_numpy(), max_turn)
        g = E.shape[0]
        # seats still at risk at each turn: past the last turn with enough of them the curve
        # is an extrapolation (KM stays flat), so it is left blank there
        at_risk = np.cumsum((E + C).sum(axis=0)[::-1])[::-1][1:max_turn + 1]
        ok = at_risk >= min_at_risk
        last = int(np.argmin(ok)) if not ok.all() else max_turn  # turns 1..last are supported
        boot_F = np.full((n_boot, max_turn), np.nan)
        for start in range(0, n_boot, 50):
            b = min(50, n_boot - start)
            w = np.stack([np.bincount(rng.integers(0, g, g), minlength=g) for _ in range(b)])
            S = _km_from_counts(w @ E, w @ C)
            boot_F[start:start + b] = 1.0 - S[:, 1:max_turn + 1]
        q = (2.5, 97.5)
        lo, hi = (np.nanpercentile(boot_F, q, axis=0) if n_boot else
                  (np.full(max_turn, np.nan),) * 2)
        blank = np.arange(1, max_turn + 1) > last
        curves.append(pd.DataFrame({"hand": hand, "players": players,
                                    "turn": turns[1:max_turn + 1],
                                    "p_opened": np.where(blank, np.nan, F),
                                    "lo": np.where(blank, np.nan, lo),
                                    "hi": np.where(blank, np.nan, hi)}))
        full = last == max_turn
        # the tail the data do not reach can move the restricted mean by at most
        # S(last) * (max_turn - last) turns: report it when that is below 0.1 turn
        tail = (1.0 - F[last - 1]) * (max_turn - last) if last else np.inf
        rmst = float(S_full.sum()) if tail <= 0.1 else np.nan
        med = float(_median_turn(F[:last], turns[1:last + 1])) if last else np.nan
        if not full and np.isinf(med):
            med = np.nan  # not reached where the data reach
        row = {"hand": hand, "players": players, "seats": len(d), "deals": g,
               "opened": int(d["opened"].sum()), "censored": int((~d["opened"]).sum()),
               "last_turn": last, "median": med, "rmst": rmst,
               "p_by": float(F[-1]) if full else np.nan,
               "p_last": float(F[last - 1]) if last else np.nan}
        if n_boot:
            bF = np.concatenate([np.zeros((n_boot, 1)), boot_F], axis=1)
            b_rmst = (1.0 - bF[:, :max_turn]).sum(axis=1)
            b_med = _median_turn(boot_F, turns[1:max_turn + 1])
            for name, b in (("median", b_med), ("rmst", b_rmst), ("p_by", boot_F[:, -1])):
                if np.isnan(row[name]):
                    row[f"{name}_lo"] = row[f"{name}_hi"] = np.nan
                    continue
                row[f"{name}_lo"], row[f"{name}_hi"] = (float(v) for v in
                                                        np.percentile(b, q, method="lower"))
            row["_boot_rmst"] = b_rmst
            row["_boot_median"] = np.asarray(b_med, float)
        else:
            for name in ("median", "rmst", "p_by"):
                row[f"{name}_lo"] = row[f"{name}_hi"] = np.nan
        rows.append(row)
    curve = pd.concat(curves, ignore_index=True) if curves else pd.DataFrame(
        columns=["hand", "players", "turn", "p_opened", "lo", "hi"])
    key = "_boot_median" if return_boot == "median" else "_boot_rmst"
    boots = {(r["hand"], r["players"]): r[key] for r in rows if key in r}
    for r in rows:
        r.pop("_boot_rmst", None)
        r.pop("_boot_median", None)
    summary = pd.DataFrame(rows)
    if return_boot:
        return curve, summary, boots
    return curve, summary


def open_curve(df: pd.DataFrame, max_turn: int = 20, n_boot: int = 200,
               seed: int = 0) -> pd.DataFrame:
    """Censoring-aware chance of having opened by own turn ``t``: ``hand, players, turn,
    p_opened, lo, hi`` (the curve of :func:`open_survival`; ``max_turn`` an integer >= 1)."""
    return open_survival(df, max_turn, n_boot, seed)[0]
