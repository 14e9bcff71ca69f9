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
# (a void hand, dealt again by the same dealer until it is scored, R13), and what the losers
# pay. Every figure carries a 95% confidence interval.
#
# The card fixes one 108-card pack for 3-6 players; the encyclopedia article has tables use
# "two or more decks, according to the number of players" (V1). At 5 and 6 players both are
# shown: the card's pack, and `pack="by-table"` (three decks and six jokers).

# %% tags=["parameters"]
hands = 20000  # hands per contract, player count and pack (fewer where voids are many)
attempt_budget = 1_500_000  # most deals (void ones included) played for one cell
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


def cell(p, pack, h):
    """Play one (players, pack, contract) cell: as many hands as the deal budget allows.

    A pilot of 100 hands estimates the deals a scored hand needs (R13 replays); void deals are
    kept as rows (for an unbiased chance the deal lays the contract) where they are few.
    """
    rules = ks.Rules(players=p, pack=pack)
    pilot = ks.play_hands(min(hands, 100), hand=h, seed=seed + 1, rules=rules, progress=False)
    per_hand = pilot.groupby("game")["attempts"].first().mean()
    n = int(max(min(hands, 100), min(hands, attempt_budget // per_hand)))
    d = ks.play_hands(n, hand=h, seed=seed, rules=rules, threads=threads, progress=False,
                      voids=per_hand <= 5)
    return d.assign(pack=pack)


packs = {p: ["card", "by-table"] if p >= 5 else ["card"] for p in players}
df = pd.concat([cell(p, pack, h) for p in players for pack in packs[p] for h in range(1, 10)],
               ignore_index=True)
tables = []
for pack, d in df.groupby("pack", sort=False):
    t = A.contract_difficulty(d).assign(pack=pack)
    tables.append(t)
table = pd.concat(tables, ignore_index=True)
decks = {p: ks.Rules(players=p, pack="by-table").decks for p in players}
table["series"] = [f"{p} players" + ("" if k == "card" else f", {decks[p]} decks")
                   for p, k in zip(table["players"], table["pack"], strict=True)]
table.to_csv(out / "contract_difficulty.csv", index=False)
card = table[table["pack"] == "card"]
display(Markdown(
    f"Simulated **{len(df):,}** seat-hands (up to {hands:,} hands per contract, player count "
    f"and pack, seed {seed}; where void deals are many, as many hands as "
    f"{attempt_budget:,} deals allow). Every hand is played until it is scored: the smallest "
    f"cell has {int(table['hands'].min()):,} scored hands."))

# %% [markdown]
# ## The table

# %%
show = table[["hand", "series", "contract", "hands", "p_dealt", "mean_open_turn",
              "p_out_on_opening", "p_void", "mean_attempts", "loser_penalty"]]
show.round(4)

# %% [markdown]
# ## Opening on the deal

# %%
fig = plots.difficulty(card, "p_dealt", "chance (probability)",
                       "The deal alone lays the contract")
fig.savefig(out / "difficulty_p_dealt.png")

# %%
four = card[card["players"] == (4 if 4 in players else players[0])].set_index("hand")
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
curve = A.open_curve(df[df["pack"] == "card"], max_turn=20)
curve.to_csv(out / "open_curve.csv", index=False)
fig = plots.open_curve(curve, players=4 if 4 in players else players[0])
fig.savefig(out / "open_curve.png")

# %% [markdown]
# ## Doubling, voids and what the losers pay

# %%
for col, label, title in [
    ("p_out_on_opening", "chance (probability)", "Hand won by going out on the opening (x2)"),
    ("p_void", "chance per deal (probability)", "Void deals: the stock ran out twice (R13)"),
    ("mean_attempts", "deals per scored hand (count, log scale)",
     "Deals until a hand is scored (void ones dealt again, R13)"),
    ("loser_penalty", "mean penalty (points)", "Penalty of the seats that did not go out"),
]:
    fig = plots.difficulty(table, col, label, title)
    fig.savefig(out / f"difficulty_{col}.png")

# %%
worst_void = card.loc[card["p_void"].idxmax()]
dbl = four["p_out_on_opening"]
big = table[(table["pack"] == "by-table") & (table["hand"] == worst_void["hand"])
            & (table["players"] == worst_void["players"])]
by_table = (f" With the article's {decks[int(worst_void['players'])]} decks it is "
            f"{big['p_void'].iat[0]:.1%} (CI {big['p_void_lo'].iat[0]:.1%} to "
            f"{big['p_void_hi'].iat[0]:.1%}), {big['mean_attempts'].iat[0]:.2f} deals per "
            "scored hand." if len(big) else "")
display(Markdown(
    f"The highest void rate is in hand "
    f"{int(worst_void['hand'])} at {int(worst_void['players'])} players with the card's pack: "
    f"{worst_void['p_void']:.2%} of deals (CI {worst_void['p_void_lo']:.2%} to "
    f"{worst_void['p_void_hi']:.2%}), so a scored hand takes "
    f"{worst_void['mean_attempts']:,.0f} deals on average (CI "
    f"{worst_void['mean_attempts_lo']:,.0f} to {worst_void['mean_attempts_hi']:,.0f}): with "
    f"many players and long deals the stock is short, and greedy players' calls take penalty "
    f"cards from it too.{by_table} At {four['players'].iat[0]} "
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
no_dealt = table[table["p_dealt"].isna()]
thin_txt = ", ".join(f"hand {int(r.hand)} at {r.series} ({int(r.hands)} scored)"
                     for r in thin.itertuples())
no_dealt_txt = ", ".join(f"hand {int(r.hand)} at {r.series}" for r in no_dealt.itertuples())
display(Markdown(
    "Widest 95% intervals over the contracts with at least 1,000 scored hands: "
    + "; ".join(f"{k} {v:.3g}" for k, v in w.items())
    + ". (Proportions in probability units, turns in own turns, penalties in points. The seats"
    " of one deal are correlated, so per-seat figures use cluster-robust intervals with the"
    " deal as the cluster.)"
    + (f" Too few hands were played out to say much about the losers or the doubling in: "
       f"{thin_txt}; their void rates are measured as precisely as the rest."
       if len(thin) else "")
    + (f" The chance the deal lays the contract is left out where void deals were too many "
       f"to keep as rows ({no_dealt_txt}): it does not depend on the table size, so the "
       f"other player counts give it." if len(no_dealt) else "")
))
