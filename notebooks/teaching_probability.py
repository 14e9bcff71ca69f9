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
# # Counting cards: exact probabilities and simulation side by side
#
# Some Kalooki questions have exact answers. Does a fresh nine-card deal already hold the
# three groups of hand 1? The twelve cards of hand 5 the four groups? Only counting is
# needed: a group needs three cards of one rank with at least two naturals, and only how
# many cards of each rank you hold matters. We count every deal exactly, then deal millions
# of hands and watch the simulated estimate close in on the exact value.

# %% tags=["parameters"]
deals = 1_000_000  # simulated deals per question
seed = 11
out_dir = "../reports"

# %%
from pathlib import Path

import pandas as pd
from IPython.display import Markdown, display

from kalooki_sim import analysis as A
from kalooki_sim import plots

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)
questions = [
    ("9 cards hold at least 1 group", 1, 9),
    ("9 cards hold 2 groups", 2, 9),
    ("9 cards hold 3 groups (hand 1)", 3, 9),
    ("12 cards hold 4 groups (hand 5)", 4, 12),
]
rows, sims = [], {}
for label, g, cards in questions:
    exact = A.p_deal_lays_groups(g, cards)
    hits = A.simulate_deals(deals, (g, 0), cards, seed=seed)
    p, lo, hi = A.wilson(hits.sum(), hits.size)
    sims[label] = (hits, exact)
    rows.append({"question": label, "exact": float(exact), "exact_fraction": str(exact),
                 "simulated": float(p), "lo": float(lo), "hi": float(hi), "deals": deals,
                 "covered": bool(lo <= exact <= hi)})
table = pd.DataFrame(rows)
table.to_csv(out / "teaching_exact_vs_simulated.csv", index=False)
table[["question", "exact", "simulated", "lo", "hi", "covered"]]

# %%
n_cov = int(table["covered"].sum())
display(Markdown(
    f"The 95% interval of the simulation covers the exact value in {n_cov} of {len(table)} "
    f"questions (with 95% intervals about one in twenty may miss). A deal of nine cards "
    f"already holds hand 1's three groups with probability {table['exact'].iat[2]:.3g}: about "
    f"one deal in {1 / table['exact'].iat[2]:,.0f}."
))

# %% [markdown]
# ## Watching the estimate converge

# %%
for label, (hits, exact) in sims.items():
    conv = A.convergence(hits, exact)
    slug = label.split(" (")[0].replace(" ", "_")
    conv.to_csv(out / f"convergence_{slug}.csv", index=False)
    fig = plots.convergence(conv, f"Convergence: {label}")
    fig.savefig(out / f"convergence_{slug}.png")

# %% [markdown]
# ## Outs: the chance the next draws help
#
# You need one of a few cards ("outs") that you have not seen. With `unseen` cards left and
# `outs` of them good, the chance that at least one of your next `draws` draws is good is
# hypergeometric: 1 - C(unseen - outs, draws) / C(unseen, draws).

# %%
cases = [(2, 80, 1), (2, 80, 5), (6, 70, 3), (1, 60, 10)]
orows = []
for outs, unseen, draws in cases:
    exact = A.p_outs(outs, unseen, draws)
    hits = A.simulate_outs(outs, unseen, draws, 200_000 if deals >= 100_000 else deals,
                           seed=seed)
    p, lo, hi = A.wilson(hits.sum(), hits.size)
    orows.append({"outs": outs, "unseen": unseen, "draws": draws, "exact": exact,
                  "simulated": float(p), "lo": float(lo), "hi": float(hi)})
outs_table = pd.DataFrame(orows)
outs_table.to_csv(out / "teaching_outs.csv", index=False)
outs_table

# %%
r = outs_table.iloc[1]
display(Markdown(
    f"With two copies of the card you need among {int(r['unseen'])} unseen, the next draw "
    f"helps with probability {outs_table['exact'].iat[0]:.3f}, but over the next "
    f"{int(r['draws'])} draws with probability {r['exact']:.3f} (simulated {r['simulated']:.3f},"
    f" CI {r['lo']:.3f} to {r['hi']:.3f})."
))
