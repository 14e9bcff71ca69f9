# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # How hard is each Kalooki contract?
#
# Nine contracts, from three groups in nine cards to four runs in sixteen. Here simulated
# tables of greedy players (they open as soon as they can, lay off everything, call when a card
# brings the contract closer) play every contract many times at 3 to 6 players, and we measure
# how often the deal alone already lays the contract, how quickly seats open, how often a hand
# is won on the opening (which doubles everyone's penalty), how often the stock runs out twice
# (a void hand), and what the losers pay. Every figure carries a 95% confidence interval.

# %% tags=["parameters"]
hands = 20000  # hands per contract and player count
seed = 2026
players = [3, 4, 5, 6]
threads = None
out_dir = "../reports"

# %%
from pathlib import Path

import pandas as pd
from IPython.display import Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim import plots

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)
frames = [
    ks.play_hands(hands, hand=h, players=p, seed=seed, threads=threads, progress=False)
    for p in players
    for h in range(1, 10)
]
df = pd.concat(frames, ignore_index=True)
table = A.contract_difficulty(df)
table.to_csv(out / "contract_difficulty.csv", index=False)
display(Markdown(f"Simulated **{len(df):,}** seat-hands ({hands:,} hands per contract and "
                 f"player count, seed {seed})."))

# %% [markdown]
# ## The table

# %%
show = table[["hand", "players", "contract", "p_dealt", "mean_open_turn", "p_out_on_opening",
              "p_void", "loser_penalty"]]
show.round(4)

# %% [markdown]
# ## Opening on the deal

# %%
fig = plots.difficulty(table, "p_dealt", "chance (probability)",
                       "The deal alone lays the contract")
fig.savefig(out / "difficulty_p_dealt.png")

# %%
four = table[table["players"] == (4 if 4 in players else players[0])].set_index("hand")
easiest = four["p_dealt"].idxmax()
hardest = four["mean_open_turn"].idxmax()
display(Markdown(
    f"At {four['players'].iat[0]} players the deal most often already lays hand {easiest} "
    f"({four.loc[easiest, 'contract']}): {four.loc[easiest, 'p_dealt']:.2%} "
    f"(95% CI {four.loc[easiest, 'p_dealt_lo']:.2%} to {four.loc[easiest, 'p_dealt_hi']:.2%}). "
    f"Seats take longest to open in hand {hardest} ({four.loc[hardest, 'contract']}): "
    f"{four.loc[hardest, 'mean_open_turn']:.2f} own turns on average "
    f"(CI {four.loc[hardest, 'mean_open_turn_lo']:.2f} to "
    f"{four.loc[hardest, 'mean_open_turn_hi']:.2f}), among seats that opened."
))

# %% [markdown]
# ## How fast seats open

# %%
curve = A.open_curve(df, max_turn=20)
curve.to_csv(out / "open_curve.csv", index=False)
fig = plots.open_curve(curve, players=4 if 4 in players else players[0])
fig.savefig(out / "open_curve.png")

# %% [markdown]
# ## Doubling, voids and what the losers pay

# %%
for col, label, title in [
    ("p_out_on_opening", "chance (probability)", "Hand won by going out on the opening (x2)"),
    ("p_void", "chance per deal (probability)", "Void hands: the stock ran out twice (R13)"),
    ("loser_penalty", "mean penalty (points)", "Penalty of the seats that did not go out"),
]:
    fig = plots.difficulty(table, col, label, title)
    fig.savefig(out / f"difficulty_{col}.png")

# %%
worst_void = table.loc[table["p_void"].idxmax()]
dbl = four["p_out_on_opening"]
display(Markdown(
    f"The highest void rate is in hand "
    f"{int(worst_void['hand'])} at {int(worst_void['players'])} players: "
    f"{worst_void['p_void']:.1%} (CI {worst_void['p_void_lo']:.1%} to "
    f"{worst_void['p_void_hi']:.1%}): with many players and long deals the stock is short, and"
    f" greedy players' calls take penalty cards from it too. At {four['players'].iat[0]} "
    f"players, hands are won on the "
    f"opening (doubling every penalty) most often in hand {dbl.idxmax()} "
    f"({dbl.max():.1%}) and least often in hand {dbl.idxmin()} ({dbl.min():.1%})."
))

# %% [markdown]
# ## Seat advantage

# %%
sa = A.seat_advantage(df)
sa.to_csv(out / "seat_advantage.csv", index=False)
fig = plots.seat_advantage(sa)
fig.savefig(out / "seat_advantage.png")
sa4 = sa[sa["players"] == four["players"].iat[0]]
best = sa4.loc[sa4["p"].idxmax()]
display(Markdown(
    f"At {four['players'].iat[0]} players the seat most likely to go out is position "
    f"{int(best['position'])} after the dealer: {best['p']:.1%} (CI {best['lo']:.1%} to "
    f"{best['hi']:.1%}), against an even share of {1 / four['players'].iat[0]:.1%}."
))

# %% [markdown]
# ## How precise are these numbers?

# %%
full = table[table["hands"] >= 1000]
thin = table[table["hands"] < 1000]
w = {c: (full[f"{c}_hi"] - full[f"{c}_lo"]).max() for c in
     ["p_dealt", "p_out_on_opening", "p_void", "mean_open_turn", "loser_penalty"]}
thin_txt = ", ".join(f"hand {int(r.hand)} at {int(r.players)} players ({int(r.hands)} scored)"
                     for r in thin.itertuples())
display(Markdown(
    "Widest 95% intervals over the contracts with at least 1,000 scored hands: "
    + "; ".join(f"{k} {v:.3g}" for k, v in w.items())
    + ". (Proportions in probability units, turns in own turns, penalties in points. The seats"
    " of one deal are correlated, so per-seat figures use cluster-robust intervals with the"
    " deal as the cluster.)"
    + (f" Too few hands were played out to say much about the losers or the doubling in: "
       f"{thin_txt}; their void rates are measured as precisely as the rest."
       if len(thin) else "")
))
