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
# # Should I call this card, now?
#
# A call (R9) takes the discard out of turn plus a penalty card from the stock: two more cards
# that score against you if someone else goes out first. Whether that pays depends on the
# card, your hand and the table, so this page values **each decision**, not whole policies.
#
# In every deal below, at every discard on offer, the table is copied and played on twice from
# that moment: once where the seat takes or calls the card, once where it passes. Everyone plays
# the `expert` preset. Both continuations share everything else: the stock is dealt by seat
# from the decision on (each seat draws the same cards in both), and all later random choices.
# The **paired difference** in the seat's hand penalty, *act minus pass*, is what the decision
# was worth: negative means acting saved points. Intervals are 95% and treat the deal as the
# unit (a deal's decisions share its cards).

# %% tags=["parameters"]
deals = 100  # deals per contract for the call value maps
policy_hands = 2000  # deals for the whole-policy comparison of the variance ratio
rollouts = 2000  # paired rollouts per advisor example
seed = 2027
players = 4
policies = "expert"
threads = None
interactive = False  # True in JupyterLab: show the advisor form
out_dir = "../reports"

# %%
import json
from dataclasses import replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.report import plots

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)


def show(df, names=None, digits=2, caption=""):
    """A table for readers: human column names, no row index, rounded numbers."""
    t = df.rename(columns=names or {}).copy()
    for c in t.columns:
        if t[c].dtype.kind == "f":
            t[c] = t[c].map(lambda x: "n/a" if pd.isna(x) else f"{x:,.{digits}f}")
    plots.table(t, caption)


headlines = []


rules = ks.Rules(players=players)
dec = pd.concat([ks.call_decisions(deals, h, players=players, policies=policies, seed=seed,
                                   threads=threads) for h in range(1, rules.hands + 1)],
                ignore_index=True)
# gain: how many fewer cards the contract needs with the card (0 or 1); <NA> where no card that
# can still come lays it (then neither count is a number)
dec["gain"] = (dec["needed_before"] - dec["needed_after"]).astype("Int16")
dec["helps"] = (dec["gain"] >= 1).fillna(False).astype(bool)
n_calls = int((dec["decision"] == "call").sum())
n_takes = int((dec["decision"] == "take").sum())
display(Markdown(
    f"{deals:,} deals per contract at {players} players, everyone `{policies}`, seed {seed}: "
    f"**{len(dec):,} decisions** ({n_calls:,} chances to call, {n_takes:,} to take), each "
    "played both ways."))

# %% [markdown]
# ## How much does the pairing sharpen the answer?
#
# Comparing whole policies (a seat that calls against one that never does, on the same deals)
# pairs weakly, because play drifts apart after the first different choice. Branching at the
# decision itself pairs the two outcomes much more closely. The *variance ratio* is the
# variance of an unpaired difference over that of the paired one: how many times more deals an
# unpaired comparison would need for the same precision.

# %%
vr_dec = A.variance_ratio(dec, boot=200, seed=seed)
expert = ks.preset(policies) if isinstance(policies, str) else policies
never = replace(expert, name=f"{expert.name}, never calls", call_limit=0)
whole = []
for h in (1, 5, 9):
    a = ks.play_hands(policy_hands, h, policies=[expert] + [expert] * (players - 1), seed=seed,
                      threads=threads)
    b = ks.play_hands(policy_hands, h, policies=[never] + [expert] * (players - 1), seed=seed,
                      threads=threads)
    pa = a[a.seat == 0].set_index("game")["penalty"].astype(float)
    pb = b[b.seat == 0].set_index("game")["penalty"].astype(float)
    whole.append(pd.DataFrame({"game": pa.index, "hand": h, "penalty_act": pa.to_numpy(),
                               "penalty_pass": pb.loc[pa.index].to_numpy(), "attempt": 0}))
vr_pol = A.variance_ratio(pd.concat(whole, ignore_index=True), boot=200, seed=seed)
vr = pd.DataFrame([
    {"comparison": "per decision (branch at the offer, stock dealt by seat)", **vr_dec},
    {"comparison": f"whole policy ({expert.name} vs never calling, hands 1, 5, 9)", **vr_pol},
])
vr.to_csv(out / "variance_ratio.csv", index=False)
show(vr, {"ratio": "variance ratio", "lo": "95% from", "hi": "95% to"},
     caption="Variance ratio: unpaired over paired variance of the penalty difference")

# %%
text = (
    f"Per decision the pairing is worth a variance ratio of **{vr_dec['ratio']:.1f}** "
    f"(95% interval {vr_dec['lo']:.1f} to {vr_dec['hi']:.1f}); comparing whole policies on "
    f"the same deals gives {vr_pol['ratio']:.1f} ({vr_pol['lo']:.1f} to {vr_pol['hi']:.1f}), "
    f"so per-decision pairing is {vr_dec['ratio'] / vr_pol['ratio']:.1f} times as sharp. "
    "Most of what is left is the game's own chaos: one card more or less changes who goes out "
    "first, and that decides the penalty.")
headlines.append(text.split(" Most of")[0])
display(Markdown(text))

# %% [markdown]
# ## Call value maps
#
# Each map shows the mean paired penalty difference of a **call** (act minus pass; below zero,
# calling saved points) with its 95% interval. Cells with fewer than
# 200 decisions or 30 deals are drawn hollow: too thin to trust.

# %%
def contract_text(h):
    """``"hand 6: 3 groups + 1 run"``."""
    parts = zip(rules.contract(h), ("group", "run"), strict=True)
    return f"hand {h}: " + " + ".join(f"{n} {w}{'s' if n != 1 else ''}" for n, w in parts if n)


CONTRACTS = {h: contract_text(h) for h in range(1, rules.hands + 1)}


def small_multiples(table, x, series, title, xlabel, xticks=None):
    """One panel per contract: ``table`` rows (hand, x, series...) with d_penalty intervals."""
    fig, axes = plt.subplots(3, 3, figsize=(12, 9.5), sharey=True)
    colors = plt.get_cmap("tab10")
    for ax, (h, name) in zip(axes.flat, CONTRACTS.items(), strict=False):
        t = table[table["hand"] == h]
        for k, (label, g) in enumerate(t.groupby(series, observed=True, sort=True)):
            g = g.sort_values(x)
            c = colors(k)
            xs = g[x].astype(float).to_numpy() + (k - 0.5) * 0.15
            err = np.vstack([g["d_penalty"] - g["d_penalty_lo"],
                             g["d_penalty_hi"] - g["d_penalty"]])
            ax.errorbar(xs, g["d_penalty"], yerr=err, fmt="none", ecolor=c, lw=1)
            solid = ~g["thin"].to_numpy()
            ax.plot(xs[solid], g["d_penalty"].to_numpy()[solid], "o", color=c, label=str(label))
            ax.plot(xs[~solid], g["d_penalty"].to_numpy()[~solid], "o", mfc="none", color=c,
                    label=f"{label} (thin)" if (~solid).any() else None)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_title(name, fontsize=10)
        if xticks is not None:
            ax.set_xticks(range(len(xticks)), xticks, fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel("penalty: call minus pass\n(below 0: calling saves points)")
    seen = {}
    for ax in axes.flat:
        for hd, lb in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(lb, hd)
    fig.legend(seen.values(), seen.keys(), loc="lower center", ncol=4, frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.05, 1, 0.97))
    return fig


calls = dec[(dec["decision"] == "call") & dec["needed_after"].notna()].copy()
calls["needed_after_c"] = calls["needed_after"].clip(upper=6).astype(float)
calls["effect"] = np.where(calls["helps"], "the card cuts the need", "it does not")
by_need = pd.concat([A.value_map(calls[calls.hand == h], ["hand", "needed_after_c", "effect"])
                     for h in CONTRACTS], ignore_index=True)
by_need.to_csv(out / "call_value_by_need.csv", index=False)
fig = small_multiples(by_need, "needed_after_c", "effect",
                      "Value of a call by the cards still needed after it",
                      "cards still needed after the call (6 = 6 or more)",
                      xticks=["0", "1", "2", "3", "4", "5", "6+"])
plots.show(fig, out, "call_value_by_need",
           "Penalty of a call minus a pass, by the cards the contract still needs after the "
           "call; lower is better for calling. Hollow: fewer than 200 decisions or 30 deals.")

# %%
useful = calls[calls["helps"] & (calls["needed_after"] >= 1).fillna(False)].copy()
edges = [0, 10, 20, 30, 40, 50, 200]
names = ["0-9", "10-19", "20-29", "30-39", "40-49", "50+"]
useful["stock_bin"] = pd.cut(useful["stock_left"], edges, right=False, labels=range(len(names)))
useful["kind"] = "calls that cut the need"
by_stock = pd.concat([A.value_map(useful[useful.hand == h], ["hand", "stock_bin", "kind"])
                      for h in CONTRACTS], ignore_index=True)
by_stock = by_stock[by_stock["stock_bin"].notna()].reset_index(drop=True)
by_stock["stock"] = [names[int(i)] for i in by_stock["stock_bin"]]
by_stock.to_csv(out / "call_value_by_stock.csv", index=False)
fig = small_multiples(by_stock, "stock_bin", "kind",
                      "Value of a useful call by the cards left in the stock",
                      "cards left in the stock", xticks=names)
plots.show(fig, out, "call_value_by_stock",
           "Useful calls (the card cuts the cards still needed, and the contract is not yet "
           "complete) by the cards left in the stock; lower is better for calling.")

# %%
def stock_verdicts(t):
    """Per contract, from the numbers: where useful calls clearly pay, clearly cost, or tie;
    and, where they pay with a big stock and cost with a small one, the stock to stop at."""
    lines, stop = [], {}
    for h, name in CONTRACTS.items():
        g = t[(t.hand == h) & ~t.thin].sort_values("stock_bin")
        if g.empty:
            lines.append(f"* {name}: too few useful calls to say.")
            continue
        pays = g[g.d_penalty_hi < 0]["stock"].tolist()
        costs = g[g.d_penalty_lo > 0]["stock"].tolist()
        ties = g[(g.d_penalty_lo <= 0) & (g.d_penalty_hi >= 0)]["stock"].tolist()
        parts = []
        if pays:
            parts.append(f"pays with {', '.join(pays)} cards in the stock")
        if costs:
            parts.append(f"costs points with {', '.join(costs)}")
        if ties:
            parts.append(f"no clear sign with {', '.join(ties)}")
        low_pay = g[g.d_penalty_hi < 0]["stock_bin"].astype(int)
        flip = ""
        if pays and costs:
            lowest = names[int(low_pay.min())].split("-")[0].rstrip("+")
            stop[h] = lowest
            flip = f" **Stop calling once the stock is below {lowest} cards.**"
        lines.append(f"* {name}: a useful call " + "; ".join(parts) + "." + flip)
    return "\n".join(lines), stop


verdicts, stop = stock_verdicts(by_stock)
headlines.append(
    "A useful call (the card brings the contract closer) both clearly pays with a big stock and "
    f"clearly costs with a small one in {len(stop)} of 9 contracts"
    + (": stop calling below " + "; ".join(f"{v} cards in hand {h}" for h, v in stop.items())
       if stop else "") + " (95% intervals per stock band, not adjusted for the bands).")
display(Markdown(verdicts))

# %%
pen_edges = [0, 6, 10, 11, 16]
pen_names = ["2-5 (and red aces)", "6-9", "10, J, Q, K", "black ace"]
useful["card_bin"] = pd.cut(useful["card_penalty"], pen_edges, right=False,
                            labels=range(len(pen_names)))
by_card = pd.concat([A.value_map(useful[useful.hand == h], ["hand", "card_bin", "kind"])
                     for h in CONTRACTS], ignore_index=True)
by_card = by_card[by_card["card_bin"].notna()].reset_index(drop=True)
by_card["card"] = [pen_names[int(i)] for i in by_card["card_bin"]]
by_card.to_csv(out / "call_value_by_card.csv", index=False)
fig = small_multiples(by_card, "card_bin", "kind",
                      "Value of a useful call by the called card's penalty",
                      "penalty of the called card (R1)", xticks=pen_names)
plots.show(fig, out, "call_value_by_card",
           "Useful calls by the called card's own penalty (R1); lower is better for calling.")

# %% [markdown]
# ## Taking the discard as your draw
#
# The next player (R9.1) takes the discard instead of drawing: no penalty card, so the question
# is only whether this card beats an unknown one from the stock.

# %%
takes = dec[dec["decision"] == "take"].copy()
takes["effect"] = np.where(takes["helps"], "the card cuts the need", "it does not")
take_map = A.value_map(takes, ["hand", "effect"], decision="take")
take_map["contract"] = take_map["hand"].map(CONTRACTS)
take_map.to_csv(out / "take_value.csv", index=False)
show(take_map[["contract", "effect", "decisions", "deals", "d_penalty", "d_penalty_lo",
               "d_penalty_hi", "d_out", "taken"]], caption="Taking the discard as the draw",
     names=
     {"effect": "the card", "d_penalty": "penalty: take minus draw", "d_penalty_lo": "95% from",
      "d_penalty_hi": "95% to", "d_out": "chance of going out: change",
      "taken": "share the expert took"})

# %% [markdown]
# ## Tuned call policies
#
# The `expert` preset calls only when the contract would then need at most 3 more cards.
# `kalooki_sim.tuning` searched the call parameters per contract against a field of expert and
# greedy opponents (4 players, the candidate in every seat, the same deals for every candidate),
# with successive halving so the deals went to the contenders, then confirmed the winner on
# fresh deals. The table is the committed result (`python -m kalooki_sim.tuning`; its command and
# run time are in the CSV's header).

# %%
from kalooki_sim.players import tuning

tuned = tuning.tuned_table()
tuned["contract"] = tuned["hand"].map(CONTRACTS)
# Holm over the nine confirmations: is the tuned rule better than expert's in this contract?
p = A.p_from_ci(tuned["gain"], tuned["gain_lo"], tuned["gain_hi"], alternative="less")
tuned["p_holm"] = A.holm(p, nan_policy="omit")   # untested hands (gain 0) stay NaN
show(tuned[["contract", "policy", "call_max_need", "gain", "gain_lo", "gain_hi",
            "confirm_deals", "adopted", "p_holm"]],
     caption="Tuned call rules per contract, confirmed on fresh deals", names=
     {"policy": "search winner", "call_max_need": "calls while needing at most",
      "gain": "points per hand vs expert", "gain_lo": "95% from", "gain_hi": "95% to",
      "confirm_deals": "fresh deals", "adopted": "used by tuned_policy",
      "p_holm": "Holm-adjusted p (better than expert)"}, digits=3)

# %%
better = tuned[tuned["p_holm"] < 0.05]
adopted = tuned[tuned["adopted"]]
game_lines = [h for h in tuned.attrs["header"] if h.startswith("nine-hand games")]
text = (
    f"The search changed expert's call rule in {len(adopted)} of 9 contracts (confirmed gain "
    f"below zero at 95%: hands {', '.join(map(str, adopted['hand']))}); after a Holm "
    f"adjustment for the nine contracts, {len(better)} remain "
    f"({', '.join(f'hand {h}' for h in better['hand']) or 'none'}). "
    + (f"Every adopted winner calls *more* freely than expert (calls while needing up to "
       f"{', '.join(map(str, adopted['call_max_need']))} cards, against expert's "
       f"{ks.preset('expert').call_max_need}). "
       if len(adopted) and (adopted["call_max_need"] > ks.preset("expert").call_max_need).all()
       else "")
    + " ".join(f"In {line[0].lower()}{line[1:]}." for line in game_lines))
headlines.append(text.split(" Every adopted")[0])
display(Markdown(text))

# %% [markdown]
# ## Worked examples from the advisor
#
# `ks.advise` answers for one concrete situation: it deals the cards you cannot see at random,
# consistently with what you typed, and plays each sample on both ways.

# %%
EXAMPLES = [
    ("You are next, and the discard completes your three groups (hand 1)",
     dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", card="6♦", contract=1, discarder=1)),
    ("Early in hand 6: a 7 for a pair of 7s, two seats after the discarder",
     dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♥", contract=6,
          discarder=2, stock_left=45)),
    ("Late in hand 6: the same 7, eight cards left, one opponent down, one call made",
     dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠ 9♣ 6♦", card="7♥", contract=6,
          discarder=3, stock_left=8, calls_made=1, opened=[1],
          table=["Q♠ Q♥ Q♣", "5♣ 5♦ 5♠", "A♦ A♥ A♣", "8♥ 9♥ 10♥ J♥"])),
]
for i, (title, sit) in enumerate(EXAMPLES, 1):
    a = ks.advise(**sit, policies=policies, rollouts=rollouts, seed=seed + i, rules=rules)
    facts = ", ".join(f"{k} = {v}" for k, v in a.situation.items()
                      if k not in ("hidden", "buried_unknown"))
    display(Markdown(f"### Example {i}. {title}\n\n*Situation:* {facts}.\n\n"
                     f"**{a.recommendation}**"))
    show(a.table, digits=3, caption=f"Example {i}: {a.rollouts:,} paired rollouts")

# %% [markdown]
# ## Try your own position
#
# Opened in JupyterLab (`make lab`) with `interactive = True`, the cell below shows a form: type
# your hand, the card, the contract and the situation, and press the button. The published page
# shows the worked examples above instead.

# %%
if interactive:
    from kalooki_sim.report.widgets import advisor_widget

    form = advisor_widget(policies=policies, rollouts=rollouts, rules=rules)
    display(form.widget)
else:
    display(Markdown("*(The interactive form runs in JupyterLab: set `interactive = True`.)*"))

# %%
_ = (out / "should_i_call.headlines.json").write_text(
    json.dumps(headlines, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
