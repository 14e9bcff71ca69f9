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
# # Rule sets side by side: what the table arguments change
#
# Tables argue about the rules: may a run grow at either end (V3)? Twelve cards in the first
# three hands (V2)? Does an out on the opening double only for the first down (V4)? Jokers on
# other players' melds (V5)? How many calls (V8)? Each variant below plays every contract on
# **the same deals** as the card's rules (same seeds: where the packs agree, the same shuffle),
# four `greedy` players, and the differences are paired by deal, with 95% intervals.
# The last section sets Tuluki (V9, two players) beside the four-player table, table by
# table and seat by seat.

# %% tags=["parameters"]
deals = 1200  # deals per contract and rule set
seed = 2028
policies = "greedy"
out_dir = "../reports"

# %%
import json
from pathlib import Path

import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.report import plots, words

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)
SETS = {
    "the card (R1-R14)": ks.Rules(),
    "V3 free extension": ks.Rules(free_extension=True),
    "V2 12 cards in hands 1-3": ks.Rules(early_big_deal=True),
    "V4 doubling for the first down only": ks.Rules(double_only_first_down=True),
    "V5 jokers on others' melds": ks.Rules(jokers_on_others=True),
    "V8 two calls": ks.Rules(call_limit=2),
    "V8 four calls": ks.Rules(call_limit=4),
}
cmp = A.compare_rules(SETS, deals, policies=policies, seed=seed)
cmp.to_csv(out / "rule_sets.csv", index=False)
display(Markdown(f"{len(SETS)} rule sets x 9 contracts x {deals:,} shared deals, 4 players "
                 f"`{policies}`, seed {seed}."))

# %%
MEAS = {"turns": ("table turns per hand", 1), "void": ("void first deals, pp", 1),
        "doubled": ("hands doubled, pp", 1), "loser_penalty": ("losers' penalty", 1)}
FAMILY = [(name, h, m) for name in list(SETS)[1:] for h in range(1, 10) for m in MEAS]
rows = [cmp[(cmp.rules == name) & (cmp.hand == h)].iloc[0] for name, h, _ in FAMILY]
p = A.p_from_ci(*(np.array([r[f"d_{m}{end}"] for r, (_, _, m) in zip(rows, FAMILY, strict=True)])
                  for end in ("", "_lo", "_hi")))
adj = A.holm(p, nan_policy="omit")   # comparisons with no variation stay NaN
sig = {k: a < 0.05 for k, a in zip(FAMILY, adj, strict=True)}


def cell(r, m, digits):
    k = 100.0 if m in ("void", "doubled") else 1.0  # shares shown in percentage points
    d, lo, hi = (k * r[f"d_{m}{end}"] for end in ("", "_lo", "_hi"))
    if not np.isfinite(d):
        return "n/a"
    if d == 0 and lo == hi:
        return "0 (same play)"
    mark = " *" if sig[(r.rules, r.hand, m)] else ""
    return f"{d:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]{mark}"


headlines = [words.variant_sentence(name, cmp[cmp.rules == name], sig, deals)
             for name in list(SETS)[1:]]
display(Markdown("**What each variant changes**, against the card's rules on the same deals "
                 "(the sizes are the range of the changes over the contracts named):\n\n"
                 + "\n".join(f"* {h}" for h in headlines)))
display(Markdown(
    "**How to read the tables.** Each cell is the variant minus the card's rules, averaged "
    "over the same deals, with its 95% interval. A `*` marks a change whose sign (up or down) "
    f"still holds after Holm's adjustment for all {len(FAMILY)} comparisons on this page made "
    f"together ({len(SETS) - 1} variants x 9 contracts x {len(MEAS)} measures); without it, "
    "the interval alone does not rule out that the change is zero or goes the other way once "
    "that many comparisons are counted. \"0 (same play)\": the variant played every deal "
    "exactly as the card did. Void first deals and hands doubled are in percentage points."))
for name in list(SETS)[1:]:
    t = cmp[cmp.rules == name]
    plots.table(pd.DataFrame({
        "hand": t["hand"],
        **{f"{label}: change": [
            cell(r, m, d) for _, r in t.iterrows()] for m, (label, d) in MEAS.items()},
    }), f"{name}: change against the card's rules, per deal (* = sign holds after Holm)")

# %%
import matplotlib.pyplot as plt  # noqa: E402

fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharex=True)
for ax, (m, label) in zip(axes, (("turns", "table turns per hand"),
                                 ("loser_penalty", "losers' penalty (points)")), strict=True):
    for k, name in enumerate(list(SETS)[1:]):
        t = cmp[cmp.rules == name]
        x = t["hand"].to_numpy() + (k - 2.5) * 0.1
        err = np.vstack([t[f"d_{m}"] - t[f"d_{m}_lo"], t[f"d_{m}_hi"] - t[f"d_{m}"]])
        ax.errorbar(x, t[f"d_{m}"], yerr=err, fmt="o", ms=4, capsize=2, label=name)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(1, 10))
    ax.set_xlabel("hand (contract)")
    ax.set_ylabel(f"change in {label}")
    ax.grid(alpha=0.3)
# the legend below the panels: inside an axes it hid a point
handles, labels = axes[0].get_legend_handles_labels()
fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9, frameon=False)
fig.tight_layout(rect=(0, 0.08, 1, 1))
plots.show(fig, out, "rule_sets",
           "Each variant minus the card's rules on the same deals, per contract, 95% intervals: "
           "how much longer hands last (left) and what the losers pay (right).")

# %% [markdown]
# ## Tuluki beside the four-player table
#
# Tuluki (V9) is the two-player game with its own discard step: the next player may only
# *call* a discard, and the discarder then turns up the stock's top card for the other to take
# as its draw (RULES.md V9 lists the choices made where the text is silent). The same measures,
# not paired (the tables differ):

# %%
tul = A.compare_rules({"four players": ks.Rules(),
                       "Tuluki (2 players)": ks.Rules(players=2, tuluki=True)},
                      deals, policies=policies, seed=seed, paired=False)
tul.to_csv(out / "rule_sets_tuluki.csv", index=False)
rows = []
for h in range(1, 10):
    r4 = tul[(tul.rules == "four players") & (tul.hand == h)].iloc[0]
    r2 = tul[(tul.rules == "Tuluki (2 players)") & (tul.hand == h)].iloc[0]
    row = {"hand": h}
    for m in ("turns", "void", "loser_penalty"):
        for k, r in (("4p", r4), ("Tuluki", r2)):
            if m == "void":  # a share of deals: a percentage with its Wilson interval
                row[f"void first deals, {k}"] = plots.pct_ci(
                    *A.wilson(int(round(r["void"] * r["deals"])), int(r["deals"])))
            else:
                row[f"{MEAS[m][0]}, {k}"] = plots.num_ci(r[m], r[f"{m}_lo"], r[f"{m}_hi"], 1)
    rows.append(row)
plots.table(pd.DataFrame(rows), f"Tuluki (2 players) beside four players, per deal, "
            f"{deals:,} deals per contract and table")
t2 = tul[tul.rules == "Tuluki (2 players)"]
t4 = tul[tul.rules == "four players"]
longer = int((t2["turns_lo"].to_numpy() > t4["turns_hi"].to_numpy()).sum())
shorter = int((t2["turns_hi"].to_numpy() < t4["turns_lo"].to_numpy()).sum())
text = (f"Tuluki hands last longer in table turns than four-player hands in {longer} of 9 "
        f"contracts and shorter in {shorter} (non-overlapping 95% intervals).")
headlines.append(text)
display(Markdown(text))

# %% [markdown]
# ### The two Tuluki seats
#
# At a Tuluki table the seats are not alike: the non-dealer plays first and is offered the
# upcard (C1), the dealer discards into the other's hand first. Both seats play the same deal,
# so their penalties are compared deal by deal (paired), with 95% intervals.

# %%
tuluki = ks.Rules(players=2, tuluki=True)
seat_rows = pd.concat([ks.play_hands(deals, h, policies=policies, seed=seed, rules=tuluki,
                                     progress=False) for h in range(1, 10)],
                      ignore_index=True)
seats = A.dealer_seats(seat_rows)
seats.to_csv(out / "rule_sets_tuluki_seats.csv", index=False)
plots.table(pd.DataFrame({
    "hand": seats["hand"],
    "deals": seats["deals"].map("{:,}".format),
    "dealer's penalty": [plots.num_ci(r.penalty_dealer, r.penalty_dealer_lo,
                                      r.penalty_dealer_hi) for r in seats.itertuples()],
    "non-dealer's penalty": [plots.num_ci(r.penalty_other, r.penalty_other_lo,
                                          r.penalty_other_hi) for r in seats.itertuples()],
    "non-dealer minus dealer (paired)": [
        plots.num_ci(r.d_penalty, r.d_penalty_lo, r.d_penalty_hi, signed=True)
        for r in seats.itertuples()],
    "non-dealer goes out": [plots.pct_ci(r.out_other, r.out_other_lo, r.out_other_hi)
                            for r in seats.itertuples()],
}), f"Tuluki per seat: each seat's mean penalty (points per deal) and the paired difference, "
    f"non-dealer minus dealer (below 0: the non-dealer pays less), {deals:,} deals per "
    "contract, 95% intervals")
text = words.dealer_sentence(seats)
headlines.append(text)
display(Markdown(text))

# %%
_ = (out / "rule_sets.headlines.json").write_text(
    json.dumps(headlines, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
