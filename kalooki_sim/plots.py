"""Charts with one look: titles, labelled axes with units, 95% CI bands or error bars.

Every function takes a table from :mod:`kalooki_sim.analysis` and returns the
``matplotlib.figure.Figure`` so notebooks and the report share them.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

STYLE = {
    "figure.figsize": (7.5, 4.2),
    "figure.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 12,
    "axes.labelsize": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
}
CI_NOTE = "bands / bars: 95% confidence intervals"


def _err(y, lo, hi):
    """Error-bar lengths from interval bounds (never negative, NaN-safe)."""
    return np.clip(np.vstack([y - lo, hi - y]), 0, None)


def _fig():
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots()
    return fig, ax


def _finish(fig, ax, title, xlabel, ylabel, note=CI_NOTE):
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if note:
        fig.text(0.99, 0.01, note, ha="right", va="bottom", fontsize=7, alpha=0.7)
    fig.tight_layout()
    return fig


def open_curve(curve, players: int = 4):
    """Chance of having opened by own turn t, one line per contract, with CI bands."""
    fig, ax = _fig()
    d = curve[curve["players"] == players]
    for hand, g in d.groupby("hand"):
        line, = ax.plot(g["turn"], g["p"], label=f"hand {hand}")
        ax.fill_between(g["turn"], g["lo"], g["hi"], color=line.get_color(), alpha=0.2, lw=0)
    ax.set_ylim(0, 1)
    ax.legend(ncol=3)
    return _finish(fig, ax, f"Opened by own turn t ({players} players, greedy)",
                   "own turn t (turns)", "share of seats opened (probability)")


def difficulty(table, column: str, ylabel: str, title: str):
    """One figure per difficulty measure: contracts on x, one series per player count (or per
    ``series`` label, e.g. a player count and pack, when the table has that column)."""
    fig, ax = _fig()
    key = "series" if "series" in table else "players"
    series = list(dict.fromkeys(table.sort_values(["players"])[key]))
    width = 0.8 / max(len(series), 1)
    for i, p in enumerate(series):
        d = table[table[key] == p].sort_values("hand")
        x = d["hand"].to_numpy() + (i - (len(series) - 1) / 2) * width
        y = d[column].to_numpy()
        err = _err(y, d[f"{column}_lo"].to_numpy(), d[f"{column}_hi"].to_numpy())
        label = p if key == "series" else f"{p} players"
        ax.errorbar(x, y, yerr=err, fmt="o", ms=4, capsize=2, label=label)
    if column == "mean_attempts":
        ax.set_yscale("log")
    hands = sorted(table["hand"].unique())
    labels = table.drop_duplicates("hand").set_index("hand")["contract"]
    ax.set_xticks(hands, [f"{h}\n{labels[h]}" for h in hands])
    ax.legend()
    return _finish(fig, ax, title, "hand and contract (g = groups, r = runs)", ylabel)


def call_value(cv, metric: str = "d_penalty"):
    """Paired difference against the baseline per call policy, one series per contract."""
    fig, ax = _fig()
    pols = list(dict.fromkeys(cv["policy"]))
    hands = sorted(cv["hand"].unique())
    width = 0.8 / max(len(hands), 1)
    for i, h in enumerate(hands):
        d = cv[cv["hand"] == h].set_index("policy").loc[pols]
        x = np.arange(len(pols)) + (i - (len(hands) - 1) / 2) * width
        y = d[metric].to_numpy()
        err = _err(y, d[f"{metric}_lo"].to_numpy(), d[f"{metric}_hi"].to_numpy())
        ax.errorbar(x, y, yerr=err, fmt="o", ms=4, capsize=2, label=f"hand {h}")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(np.arange(len(pols)), pols)
    ax.legend(ncol=3)
    what = {"d_penalty": ("change in penalty (points per hand)", "Penalty"),
            "d_win": ("change in chance of going out (probability)", "Going out")}[metric]
    return _finish(fig, ax, f"{what[1]}: call policy minus never calling, same deals",
                   "policy of seat 0 (others greedy)", what[0])


def convergence(conv, title: str, ylabel: str = "estimated probability"):
    """Running Monte Carlo estimate with its CI band, and the exact value if known."""
    fig, ax = _fig()
    ax.plot(conv["n"], conv["p"], label="Monte Carlo estimate")
    ax.fill_between(conv["n"], conv["lo"], conv["hi"], alpha=0.25, lw=0, label="95% CI")
    if "exact" in conv:
        ax.axhline(conv["exact"].iat[0], color="black", ls="--", lw=1, label="exact value")
    ax.set_xscale("log")
    ax.legend()
    return _finish(fig, ax, title, "deals simulated (count, log scale)", ylabel)


def seat_advantage(sa):
    """Chance of going out by position after the dealer, per player count."""
    fig, ax = _fig()
    for p, d in sa.groupby("players"):
        y = d["p"].to_numpy()
        err = _err(y, d["lo"].to_numpy(), d["hi"].to_numpy())
        ax.errorbar(d["position"], y, yerr=err, fmt="o-", ms=4, capsize=2, label=f"{p} players")
        ax.axhline(1 / p, lw=0.6, ls=":", color="grey")
    ax.legend()
    return _finish(fig, ax, "Seat advantage: who goes out (dotted: an even share)",
                   "position after the dealer (1 = plays first; last = dealer)",
                   "chance of going out (probability)")
