"""Tables for a terminal (the ``kalooki`` command): each estimate with its 95% interval in one
cell, proportions as percentages, units in the headings. ``--csv`` keeps the machine columns;
these are what a person reads.
"""

from __future__ import annotations

#: ``Run.means`` columns as a reader sees them: (heading with its unit, shown as a percentage)
_MEANS_SHOWN = {
    "seat_hands": ("seat-hands", False), "scored": ("scored", False),
    "void_per_hand": ("void deals per scored hand", False), "p_opened": ("opened %", True),
    "mean_open_turn": ("own turn opened (mean)", False),
    "mean_calls": ("calls per seat-hand", False), "p_went_out": ("went out %", True),
    "p_out_on_opening": ("out on the opening %", True),
    "mean_turns": ("own turns per hand", False), "mean_penalty": ("penalty, points", False),
    "sd_penalty": ("penalty SD, points", False),
    "loser_penalty": ("losers' penalty, points", False),
}


def means_table(df):
    """:meth:`Run.means` for the terminal: proportions as percentages, units in the headings
    (``--csv`` keeps the machine columns)."""
    out = df.copy()
    for col, (_, pct) in _MEANS_SHOWN.items():
        if col in out:
            out[col] = out[col].map(lambda v, pct=pct: f"{100 * v:.1f}%" if pct else v)
    return out.rename(columns={c: h for c, (h, _) in _MEANS_SHOWN.items()})


def games_table(df):
    """:meth:`Run.game_summary` for the terminal: games, complete games, the win share (a shared
    win counts for each winner, R14) and the mean game total in points."""
    import pandas as pd

    keys = [c for c in ("players", "seat", "policy") if c in df]
    done = df["complete"].where(df["complete"] > 0)
    return pd.DataFrame({**{k: df[k] for k in keys}, "games": df["games"],
                         "complete": df["complete"],
                         "win share": (df["winner"] / done).map(
                             lambda v: "n/a" if pd.isna(v) else f"{100 * v:.1f}%"),
                         "game total, points (mean)": df["total"] / done})



def est_ci(est, lo, hi, pct=False, digits=1) -> str:
    """``"41.2% [33.4%, 49.1%]"`` or ``"551.7 [493.1, 610.3]"``: an estimate and its interval."""
    f = (lambda v: f"{100 * v:.{digits}f}%") if pct else (lambda v: f"{v:,.{digits}f}")
    return f"{f(est)} [{f(lo)}, {f(hi)}]"


#: tournament columns for the terminal: (heading with its unit, as a percentage, digits)
_TOURNAMENT_SHOWN = {
    "win_share": ("win share (95% interval)", True, 1),
    "mean_total": ("game total, points", False, 1),
    "rel_total": ("total vs the table's mean, points", False, 1),
    "calls_per_hand": ("calls per hand", False, 2),
    "void_per_hand": ("void deals per hand", False, 3),
}


def tournament_table(table):
    """:func:`~kalooki_sim.tournament`'s table for the terminal: each measure with its 95%
    interval in one cell, proportions as percentages, units in the headings."""
    import pandas as pd

    out = table[[c for c in ("policy", "games", "seats") if c in table]].copy()
    for col, (head, pct, digits) in _TOURNAMENT_SHOWN.items():
        if col in table:
            out[head] = [est_ci(r[col], r[f"{col}_lo"], r[f"{col}_hi"], pct, digits)
                         if pd.notna(r[col]) else "n/a" for _, r in table.iterrows()]
    return out



def advice_table(a):
    """The advice as one table: a row per action, the paired ``difference`` row (act minus
    pass), and on every row the ``advice`` (``call``, ``pass``, ... or ``unsure``) and the
    ``recommendation`` sentence."""
    import pandas as pd

    out = pd.concat([a.table, pd.DataFrame([{"action": "difference", **a.difference,
                                              "rollouts": a.rollouts}])], ignore_index=True)
    out["advice"] = a.action
    out["confidence"] = getattr(a, "confidence", None)
    out["objective"] = getattr(a, "objective", None)
    for k, v in getattr(a, "needed", {}).items():
        out[k] = v
    out["ess"] = getattr(a, "ess", float("nan"))
    out["history_strength"] = getattr(a, "history_strength", 1.0)
    out["recommendation"] = a.recommendation
    return out



def review_header(table, seat, objective):
    """The line above :func:`review_table`: the decisions, the rollouts that measured them
    (and the fresh ones that measured the errors again), the unit and what act and not are.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"decision": ["call", "discard"], "rollouts": [1000, 2000],
    ...                   "fresh_rollouts": [0, 2000]})
    >>> print(review_header(t, 0, "relative"))  # doctest: +NORMALIZE_WHITESPACE
    seat 0: 2 decisions (1 discard), measured on 3,000 paired rollouts (2,000 more measured
    the errors again); values are relative points (lower is better): act = take or call,
    not = draw or pass; at a discard, act = the card let go, not = the card it is compared with
    """
    n_d = int((table["decision"] == "discard").sum()) if len(table) else 0
    fresh = int(table["fresh_rollouts"].sum()) if "fresh_rollouts" in table else 0
    return (f"seat {seat}: {len(table)} decisions ({n_d} discard{'' if n_d == 1 else 's'}), "
            f"measured on {int(table['rollouts'].sum()):,} paired rollouts"
            + (f" ({fresh:,} more measured the errors again)" if fresh else "")
            + f"; values are {objective} points (lower is better): act = take or call, not = "
            "draw or pass; at a discard, act = the card let go, not = the card it is compared "
            "with")


def review_legend():
    """What :func:`review_table`'s verdict and rating say, from the ratings' own thresholds
    (:mod:`kalooki_sim.studies.rating`).

    >>> "Holm's adjustment" in review_legend() and "at least 10 points" in review_legend()
    True
    """
    from ..studies.rating import BLUNDER, MISTAKE
    from ..studies.rating import EQUAL as EQ
    return (f"verdict (over the hand's decisions, Holm's adjustment at 5%): good / mistake = the "
            f"action taken / the other is better; close = not shown either way after the "
            f"adjustment (a decision's own interval may exclude zero). rating (each decision's "
            f"own 95% interval): blunder / mistake / inaccuracy = the action taken loses at "
            f"least {BLUNDER:.0f} points / at least {MISTAKE:.0f} / less than {MISTAKE:.0f}; "
            f"best = it is the better one; equal = the interval lies inside ±{EQ:.0f}; unsure = "
            "neither")


def review_table(table):
    """:func:`~kalooki_sim.review`'s table for the terminal: the decision, what was done, the
    advisor's values with the interval in one cell, cards needed and outs, the verdict, the
    points lost with their interval and the rating."""
    import pandas as pd

    def na(v):
        return "-" if pd.isna(v) else str(int(v))

    return pd.DataFrame({
        "hand": table["hand"], "attempt": table["attempt"], "turn": table["turn"],
        "decision": table["decision"], "card": table["card"], "you": table["action"],
        "advisor": [a if a == "unsure" else f"{a} ({c})"
                    for a, c in zip(table["advice"], table["confidence"], strict=True)],
        "act, points": table["value_act"].map("{:+.1f}".format),
        "not, points": table["value_pass"].map("{:+.1f}".format),
        "act - not [95%]": [est_ci(*r) for r in zip(table["d_value"], table["d_value_lo"],
                                                     table["d_value_hi"], strict=True)],
        "needed": [f"{na(a)} -> {na(b)}" for a, b in zip(table["needed_before"],
                                                        table["needed_after"], strict=True)],
        "outs": [f"{na(a)} -> {na(b)}" for a, b in zip(table["outs_before"],
                                                      table["outs_after"], strict=True)],
        "p (Holm)": table["p_holm"].map("{:.3f}".format),
        "verdict (Holm)": table["verdict"],
        **({"lost [95%]": [f"{a:.1f} [{b:.1f}, {c:.1f}]" for a, b, c in
                           zip(table["lost"], table["lost_lo"], table["lost_hi"], strict=True)],
            "rating": table["rating"]} if "rating" in table.columns else {})})
