"""The one chart of each ``kalooki`` command (``--plot FILE``), drawn with :mod:`.plots`.

- ``simulate``: mean penalty per hand (contract) with 95% intervals over deals
  (:func:`.plots.by_contract`);
- ``tournament``: each policy's share of game wins with 95% intervals and the fair share
  (:func:`.plots.game_level`);
- ``call-value``: the paired value of acting (take or call minus pass) by the cards the seat
  still needed, one series per decision, with 95% intervals clustered by deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..analysis import mean_ci, value_map
from ..game.rules import contract_text
from . import plots


def simulate_chart(run):
    """Mean penalty per seat-hand of a :class:`~kalooki_sim.studies.study.Run`, per contract.

    The unit of the interval is the deal: a deal's seats share its cards, so each scored deal
    gives one value (the mean over its seats) and the t interval is over deals. A summary-only
    run keeps no deals, so its chart shows the means alone and says so."""
    m = run.means(by=("hand", "groups", "runs"))
    names = [contract_text(g, r) for g, r in zip(m["groups"], m["runs"], strict=True)]
    lo = hi = np.full(len(m), np.nan)
    note = "no intervals: a summary-only run keeps no deals"
    if not run.spec.summary_only:
        rows = run.rows()
        rows = rows[~rows["void"].astype(bool)]
        per_deal = rows.groupby(["hand", "game"], observed=True)["penalty"].mean()
        cis = {h: mean_ci(v)[:3] for h, v in per_deal.groupby(level="hand")}
        lo = np.array([cis.get(h, (np.nan,) * 3)[1] for h in m["hand"]])
        hi = np.array([cis.get(h, (np.nan,) * 3)[2] for h in m["hand"]])
        note = "95% intervals over deals"
    table = pd.DataFrame({"hand": m["hand"], "mean_penalty": m["mean_penalty"], "lo": lo,
                          "hi": hi, "contract": names})
    return plots.by_contract(table, "mean_penalty", "penalty, points per seat-hand",
                             f"Mean penalty per hand, all seats ({run.spec.games:,} games)\n"
                             + note)


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
    seat still needed before the card, one series per decision; 95% intervals cluster-robust
    by deal (:func:`kalooki_sim.analysis.value_map`: a deal's decisions share its cards)."""
    fig, ax = plots._fig()
    d = rows.dropna(subset=["needed_before"])
    for k, name in enumerate(sorted(d["decision"].unique()) if len(d) else []):
        v = value_map(d, "needed_before", decision=name)
        if v.empty:
            continue
        x, y = v["needed_before"].to_numpy(float), v["d_penalty"].to_numpy(float)
        ax.errorbar(x + (k - 0.5) * 0.15, y,
                    yerr=plots._err(y, v["d_penalty_lo"].to_numpy(float),
                                    v["d_penalty_hi"].to_numpy(float)),
                    fmt="o", ms=4, capsize=2, color=["#0072B2", "#D55E00"][k % 2],
                    label=str(name))
    ax.axhline(0, color="black", lw=0.8)
    hand = int(rows["hand"].iloc[0]) if len(rows) else 0
    return plots._finish(fig, ax, f"What acting is worth in hand {hand}: act minus pass",
                         "cards the seat still needed for the contract",
                         "change in penalty, points (lower: acting helps)")


def save(fig, path) -> None:
    """Write the chart as a PNG (:func:`.plots.save`)."""
    plots.save(fig, path)
