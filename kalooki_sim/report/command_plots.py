"""The one chart of each ``kalooki`` command (``--plot FILE``), drawn with :mod:`.plots`.

- ``simulate``: mean penalty per hand (contract) with 95% intervals (:func:`.plots.by_contract`);
- ``tournament``: each policy's share of game wins with 95% intervals and the fair share
  (:func:`.plots.game_level`);
- ``call-value``: the paired value of acting (take or call minus pass) by the cards the seat
  still needed, one series per decision, with 95% intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..game.rules import contract_text
from . import plots


def _t(x) -> tuple[float, float, float]:
    """Mean of ``x`` with its 95% Student t interval (NaN bounds below two values)."""
    x = np.asarray(x, float)
    m = float(x.mean()) if x.size else np.nan
    if x.size < 2:
        return m, np.nan, np.nan
    half = stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size)
    return m, m - half, m + half


def simulate_chart(run):
    """Mean penalty per hand of a :class:`~kalooki_sim.studies.study.Run`, every seat pooled."""
    m = run.means(by=("hand", "groups", "runs"))
    half = 1.96 * m["sd_penalty"] / np.sqrt(m["scored"].astype(float))
    names = [contract_text(g, r) for g, r in zip(m["groups"], m["runs"], strict=True)]
    table = pd.DataFrame({"hand": m["hand"], "mean_penalty": m["mean_penalty"],
                          "lo": m["mean_penalty"] - half, "hi": m["mean_penalty"] + half,
                          "contract": names})
    games = run.spec.games
    # the interval treats a game's seat-hands as independent (seats pooled)
    return plots.by_contract(table, "mean_penalty", "penalty, points per seat-hand",
                             f"Mean penalty per hand, all seats ({games:,} games)")


def tournament_chart(table):
    """Win share per policy of a :func:`~kalooki_sim.tournament` table."""
    players = int(table.attrs.get("players", table["seats"].sum()))
    fig = plots.game_level(table, fair=1 / players)
    fig.axes[0].set_title(f"Whole nine-hand games, {players} seats, "
                          f"{int(table['games'].max()):,} deal sequences")
    fig.axes[0].set_xlabel("policy (seat-rotated, the same deal sequences)")
    return fig


def call_value_chart(rows):
    """Mean paired ``d_penalty`` of :func:`~kalooki_sim.call_decisions` rows by the cards the
    seat still needed before the card, one series per decision."""
    fig, ax = plots._fig()
    d = rows.dropna(subset=["needed_before"])
    for k, (name, g) in enumerate(d.groupby("decision", observed=True)):
        per = [(int(n), *_t(v["d_penalty"])) for n, v in g.groupby("needed_before")]
        if not per:
            continue
        x, y, lo, hi = (np.array(c, float) for c in zip(*per, strict=True))
        ax.errorbar(x + (k - 0.5) * 0.15, y, yerr=plots._err(y, lo, hi), fmt="o", ms=4,
                    capsize=2, color=["#0072B2", "#D55E00"][k % 2], label=str(name))
    ax.axhline(0, color="black", lw=0.8)
    hand = int(rows["hand"].iloc[0]) if len(rows) else 0
    return plots._finish(fig, ax, f"What acting is worth in hand {hand}: act minus pass",
                         "cards the seat still needed for the contract",
                         "change in penalty, points (lower: acting helps)")


def save(fig, path) -> None:
    """Write the chart as a PNG (:func:`.plots.save`)."""
    plots.save(fig, path)
