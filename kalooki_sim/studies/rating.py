"""Ratings of the review's decisions, as a backgammon analysis rates a move, and a hand's
points lost.

Each decision is read from the 95% interval of its paired difference, act minus pass, in
points against the table (R12): ``equal`` inside ±2 points; else ``best`` when the action
taken is the better one, or, when it is the worse one, a label by the *least* it lost, so the
label is one the interval supports (:func:`rating`). The sizes read as cards left in hand: a
**blunder** loses at least a ten-point card (K, Q, J, 10; R1) more at the end of the hand, every
time the position comes up; a **mistake** at least half of one; an **inaccuracy** less; under
2 points, the smallest numbered card and the call chart's "no difference" band, the actions are
**equal**. A hand's penalties run to tens of points a player (a single ace or joker left is 15
or 50, R1), so a blunder is a sizeable part of what a hand is worth and an inaccuracy is not.
:func:`review_total` adds up a hand's errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._lib import check_choice
from ._sequential import EQUAL

MISTAKE = 5.0  # points lost, at least, for a "mistake": half a ten-point card (R1, R12)
BLUNDER = 10.0  # points lost, at least, for a "blunder": a ten-point card (K Q J 10, R1)

#: ratings, for a reader (:func:`rating`; read from each decision's 95% interval alone)
RATINGS = {
    "blunder": f"the action taken loses at least {BLUNDER:.0f} points against the best, a "
               "ten-point card (R1) more in hand at the end, as far as the interval tells",
    "mistake": f"the action taken loses at least {MISTAKE:.0f} points against the best",
    "inaccuracy": f"the action taken is the worse one, by less than {MISTAKE:.0f} points as "
                  "far as the interval tells",
    "unsure": f"the interval holds zero and reaches past ±{EQUAL:.0f}: the rollouts did not "
              "settle it",
    "equal": f"the interval lies inside ±{EQUAL:.0f} points: either action",
    "best": "the action taken is the better one (the interval excludes zero)",
}
ERRORS = ("inaccuracy", "mistake", "blunder")  # the ratings that charge the action taken

_OTHER = {"take": "draw", "draw": "take", "call": "pass", "pass": "call"}


def rating(acted, lo, hi, equal: float = EQUAL) -> str:
    """The size of a decision's error, read from the 95% interval ``[lo, hi]`` of its paired
    difference act minus pass (points against the table, lower is better); ``acted``: the
    seat took or called.

    ``"equal"`` when the interval lies inside ``±equal`` (2 points: the call chart's "no
    difference"); else, when the interval excludes zero, ``"best"`` if the action taken is the
    better one, and when it is the worse one a label by the *least* it lost (the interval's
    bound nearest zero, so the label is one the interval supports): ``"blunder"`` from
    :data:`BLUNDER` points, ``"mistake"`` from :data:`MISTAKE`, ``"inaccuracy"`` below;
    ``"unsure"`` when the interval holds zero and reaches past ``±equal``.

    Examples
    --------
    >>> rating(True, -1.5, 1.0), rating(True, -9.0, -3.0), rating(False, -12.0, -6.0)
    ('equal', 'best', 'mistake')
    >>> rating(False, -30.0, -12.0), rating(True, 0.5, 4.0), rating(True, -3.0, 4.0)
    ('blunder', 'inaccuracy', 'unsure')
    """
    if -equal <= lo and hi <= equal:
        return "equal"
    a, b = (lo, hi) if acted else (-hi, -lo)  # taken minus the other: above 0 it lost
    if b < 0:
        return "best"
    if not a > 0:
        return "unsure"
    return "blunder" if a >= BLUNDER else "mistake" if a >= MISTAKE else "inaccuracy"


def review_total(table, by="hand") -> pd.DataFrame:
    """The points a seat lost over a hand (or a game, or the whole review), with a 95%
    interval: one number a player can track from game to game.

    The total adds up the decisions rated an error (``inaccuracy``, ``mistake``,
    ``blunder``: the action taken is the worse one, its interval says so), each by its loss
    measured again on fresh rollouts (``lost_fresh``: as many as the decision played, past
    those the sequential rule read). A mean stopped as soon as its interval left zero
    overshoots the truth, and the errors are chosen by those means; the fresh rollouts have
    seen neither, so each ``lost_fresh`` is unbiased for its decision and the sum for the
    errors' true total. Decisions are independent rollout sets: the interval is the fresh
    intervals added in quadrature, ``sqrt(sum half^2)``, clipped at zero (a loss is never
    negative). Decisions rated ``unsure`` are counted, not charged: their loss, if any, is
    not shown by the rollouts; ``equal`` ones lose under 2 points each.

    Parameters
    ----------
    table : DataFrame
        From :func:`~kalooki_sim.review`.
    by : {"hand", "game", "all"}
        One row per game and hand (default), per game, or one row for the whole table.

    Returns
    -------
    pandas.DataFrame
        ``game`` and ``hand`` (as ``by`` keeps them), ``decisions``, ``lost``, ``lost_lo``,
        ``lost_hi``, the count of each rating (``blunder``, ``mistake``, ``inaccuracy``,
        ``unsure``, ``equal``, ``best``), ``rollouts`` (played, the fresh ones included).

    Raises
    ------
    ValueError
        For ``by`` not one of the three, or a table without the review's columns.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame(dict(game=0, hand=1, rating=["inaccuracy", "unsure", "mistake"],
    ...                       lost_fresh=[3.0, float("nan"), 4.0], lost_fresh_lo=[1.0, 0, -2],
    ...                       lost_fresh_hi=[5.0, 0, 10], rollouts=500, fresh_rollouts=0))
    >>> row = review_total(t).iloc[0]
    >>> int(row["decisions"]), float(row["lost"]), round(float(row["lost_hi"]), 3)
    (3, 7.0, 13.325)
    """
    keys = {"hand": ["game", "hand"], "game": ["game"], "all": []}
    by = check_choice("by", by, tuple(keys))
    need = {"rating", "lost_fresh", "lost_fresh_lo", "lost_fresh_hi", "rollouts",
            "fresh_rollouts", *keys[by]}
    if not isinstance(table, pd.DataFrame) or need - set(table.columns):
        missing = sorted(need - set(getattr(table, "columns", [])))
        raise ValueError(f"table lacks the review's columns {missing}; give the DataFrame of "
                         "kalooki_sim.review(...)")
    rows = []
    groups = table.groupby(keys[by], sort=False) if keys[by] else [((), table)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        err = g[g["rating"].isin(ERRORS)]
        total = float(err["lost_fresh"].sum())
        half = float(np.sqrt((((err["lost_fresh_hi"] - err["lost_fresh_lo"]) / 2) ** 2)
                             .sum()))
        counts = g["rating"].value_counts()
        rows.append({**dict(zip(keys[by], key, strict=True)), "decisions": len(g),
                     "lost": max(0.0, total), "lost_lo": max(0.0, total - half),
                     "lost_hi": max(0.0, total + half),
                     **{r: int(counts.get(r, 0)) for r in RATINGS},
                     "rollouts": int(g["rollouts"].sum() + g["fresh_rollouts"].sum())})
    return pd.DataFrame(rows)
