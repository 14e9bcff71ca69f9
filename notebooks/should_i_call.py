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

# %% tags=["parameters"]
stats_csv = None  # the study's statistics (default: the committed ones, see make study)
deals = 2000  # deals per contract for the evidence sections below the chart
sample = {1: 0.15, 2: 0.02, 3: 0.012, 4: 0.03, 5: 0.15, 6: 0.02, 7: 0.02, 8: 0.012,
          9: 0.025}  # share of decisions branched, per contract (or one number for all)
min_deals = 30  # fewest deals behind a cell of the chart; fewer: left blank
policy_hands = 400  # deals for the whole-policy comparison of the variance ratio
rollouts = 2000  # paired rollouts per advisor example
seed = 2027
players = 4
policies = "expert"
threads = None
interactive = False  # True in JupyterLab: show the advisor form
out_dir = "../reports"

# %%
import html
import json
from dataclasses import replace
from importlib import resources
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import HTML, Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.report import player_words, plots

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


def contract_text(h):
    """``"hand 6: 3 groups + 1 run"``."""
    parts = zip(rules.contract(h), ("group", "run"), strict=True)
    return f"hand {h}: " + " + ".join(f"{n} {w}{'s' if n != 1 else ''}" for n, w in parts if n)


CONTRACTS = {h: contract_text(h) for h in range(1, rules.hands + 1)}

# the chart: from the committed statistics of the study (kalooki call-chart), in seconds
src = (Path(stats_csv) if stats_csv else
       resources.files("kalooki_sim.analysis") / "call_chart_stats.csv")
stats, prov = A.read_chart_stats(src)
chart = A.call_chart(stats, min_deals=min_deals)
plots.write_csv(chart, out / "call_chart.csv")
share = A.decided_share(chart)
pack = prov.get("pack", "?")
pack = "the card's pack (R1)" if pack == "card" else f"pack: {pack}"
table_model = prov.get("table") or f"every seat plays {prov.get('policies', '?').split(',')[0]}"
conditions = (f"{prov.get('players', '?')} players, {pack}; the table it assumes: "
              f"{table_model}; "
              f"{int(prov.get('deals per contract', 0)):,} deals per contract, "
              f"{int(prov.get('decisions', 0)):,} decisions; objective: points against the "
              "table (your penalty minus the table's mean, doubles counted, R12); intervals "
              f"adjusted over the chart's cells (false coverage rate {chart.attrs['q']:.0%}, "
              f"level {chart.attrs['level']:.2%}); study of {prov.get('date', '?')}, commit "
              f"{prov.get('commit', '?')[:7]}.")
fig = plots.call_chart(chart, {h: n.replace("hand", "Hand", 1) for h, n in CONTRACTS.items()},
                       conditions)
plots.save_pdf(fig, out / "call_chart.pdf")
plots.save(fig, out / "call_chart.png")

# the rules of thumb: the clauses the thumb player plays (package data), checked against this
# chart; with other statistics, clauses made afresh from them
if stats_csv:
    thumb = A.thumb_rules(chart, stats)
else:
    thumb = A.read_thumb(resources.files("kalooki_sim.engine") / "thumb.csv")
check = A.thumb_check(thumb, chart)
if not ((check["in_verdict"] >= 0.95) & (check["opposite"] == 0)).all():
    raise ValueError("the rules of thumb disagree with the chart; make them again with "
                     "kalooki_sim.analysis.thumb_rules (python -m kalooki_sim.analysis."
                     "chart_rounds --publish does)")
plots.write_csv(thumb, out / "rules_of_thumb.csv")
rules_of_thumb = [A.call_rule(chart, h, name.split(": ")[1], rules=thumb)
                  for h, name in CONTRACTS.items()]

# what following it wins: the committed ladder (python -m kalooki_sim.analysis.ladder)
from kalooki_sim.analysis import ladder as L

ladder = L.ladder_committed()
plots.write_csv(ladder, out / "ladder.csv", ladder.attrs["header"])
win_sentence = L.ladder_sentence(ladder)
# ... and the test of issue 49's must, on games fixed before they were played (CHANGELOG)
must = L.confirmed_committed()
must_lead = L.must_lead(must)
figure = plots.figure_html(
    out / "call_chart.png",
    "The call chart, all nine contracts: take and call by cards needed before and after, "
    "stock left and whether an opponent opened. Blue: act; orange: pass (or draw); green: no "
    "difference; grey: unsure; blank: too few deals.")
display(HTML(
    f'<p><b>{html.escape(win_sentence)}</b> {html.escape(must_lead)} '
    f'{html.escape(A.decided_sentence(chart))}</p>'
    f'{figure}<p><a href="call_chart.pdf">printable A4 PDF</a> · '
    '<a href="call_chart.csv">the chart as CSV</a> · '
    '<a href="rules_of_thumb.csv">the rules of thumb as CSV</a> · '
    '<a href="ladder.csv">the ladder as CSV</a></p>'))
headlines.append(win_sentence)
headlines.append(must_lead)
headlines.append(A.decided_sentence(chart) + " " + rules_of_thumb[0])

# %% [markdown]
# ## Rules of thumb
#
# A few clauses per contract that a player can remember, each true to the chart: of the
# decisions its condition covers, at least 95% are in cells that say the same and none in a
# cell that says the opposite (the rest are undecided or blank cells). Its number is the mean
# of the cells it covers, weighted by their decisions (points against the table, act minus
# pass: below 0 acting gains), with a conservative 95% interval: the cells' standard errors
# added as if perfectly correlated, which bounds the error of the mean whatever the cells
# share. Where no clause speaks, the chart (or the expert) answers. The `thumb` player plays
# these clauses alone, and the ladder below says what that keeps of the chart's gain.

# %%
display(HTML("<ul>" + "".join(f"<li>{html.escape(r)}</li>" for r in rules_of_thumb)
             + "</ul>"))

# %% [markdown]
# ## What following the chart wins: the ladder
#
# Each player sits in one seat against three `expert` players, on the same deals, once in
# every seat (the duplicate format), over whole nine-hand games: `greedy`; `expert`; `thumb`
# (the expert following the rules of thumb above where they speak); `chart` (the expert
# following this chart where it decides); `search` (the expert deciding every take and call
# by paired rollouts, issue 19). Rows: the player minus the expert, in points against the
# table (your penalty minus the mean of the table's, doubles counted, R12) and in your own
# points; 95% intervals over deals or games; Holm's adjustment over each player's nine
# contracts. A nine-hand game is won by the lowest total (R14; ties shared); the rating puts
# the win share on the Elo scale (0: the expert; see the `kalooki_sim.analysis.ladder`
# docstring).

# %%
games = ladder[(ladder["scope"] == "game")].copy()
games["games won [95%]"] = [plots.pct_ci(w, lo, hi) if pd.notna(w) else "n/a" for w, lo, hi in
                            zip(games["win_share"], games["win_lo"], games["win_hi"],
                                strict=True)]
show(games[["player", "baseline", "deals", "d_table", "d_table_lo", "d_table_hi", "d_own",
            "d_own_lo", "d_own_hi", "games won [95%]", "rating", "rating_lo", "rating_hi"]],
     caption="The ladder over nine-hand games (player minus baseline, points a game); "
             + ladder.attrs["header"][0],
     names={"deals": "games", "d_table": "against the table", "d_table_lo": "95% from",
            "d_table_hi": "95% to", "d_own": "own points", "d_own_lo": "own: 95% from",
            "d_own_hi": "own: 95% to", "rating": "rating (Elo scale)",
            "rating_lo": "rating: 95% from", "rating_hi": "rating: 95% to"}, digits=2)
per = ladder[(ladder["scope"] == "hand") & (ladder["baseline"] == "expert")].copy()
per["contract"] = per["hand"].map(CONTRACTS)
per["below zero (Holm)"] = np.where((per["d_table_hi"] < 0) & (per["p_holm"] < 0.05), "yes",
                                    "no")
show(per[["player", "contract", "deals", "d_table", "d_table_lo", "d_table_hi", "p_holm",
          "below zero (Holm)", "d_own"]],
     caption="The ladder per contract: player minus expert, points a hand against the table",
     names={"d_table": "against the table", "d_table_lo": "95% from",
            "d_table_hi": "95% to", "p_holm": "Holm-adjusted p", "d_own": "own points"},
     digits=2)

# %% [markdown]
# ## Does following the chart win in each contract? The test fixed before it was played
#
# The ladder above is one run. Whether following the chart pays less than the expert contract
# by contract was also put to a test whose plan was committed before its first game (the
# CHANGELOG has it): the chart player and the expert alone, the same duplicate design, on a
# seed never used before and many more games, with Holm's adjustment over the nine contracts
# at half the usual level, because it is the second such test (the first, on fewer games, is
# in the CHANGELOG). What it found, and the table it comes from:

# %%
plots.write_csv(must, out / L.CONFIRM_CSV, must.attrs["header"])
must_sentence = L.must_sentence(must, names={h: c.replace(": ", " (") + ")"
                                             for h, c in CONTRACTS.items()},
                                games="games fixed before they were played")
display(Markdown(must_sentence))
tested = L.must_test(must)
tested["contract"] = tested["hand"].map(CONTRACTS)
tested["deals"] = tested["deals"].map("{:,}".format)
tested["verdict"] = tested["verdict"].map({"less": "pays less", "more": "pays more",
                                           "same games": "the expert's very games",
                                           "none": "no difference shown"})
show(tested[["contract", "deals", "d_table", "d_table_lo", "d_table_hi", "p_holm", "verdict",
             "d_own", "d_own_lo", "d_own_hi"]],
     caption="The chart player minus the expert, points a hand, on the games fixed before they "
             "were played; " + must.attrs["header"][0],
     names={"deals": "games", "d_table": "against the table", "d_table_lo": "95% from",
            "d_table_hi": "95% to", "p_holm": "Holm-adjusted p", "d_own": "own points",
            "d_own_lo": "own: 95% from", "d_own_hi": "own: 95% to"}, digits=3)
display(HTML(f'<p><a href="{L.CONFIRM_CSV}">this test as CSV</a></p>'))
headlines.append(must_sentence)

# %% [markdown]
# ## The chart a table plays
#
# The chart is read from a table of players, and a chart players follow changes the table. So
# the study was made again, round after round, with every seat following the previous
# round's chart (`python -m kalooki_sim.analysis.chart_rounds`): round 0 is a table of
# experts. A round's *flips* are its decisions in cells whose verdict turned from act to not
# act or back since the round before.

# %%
rounds = pd.read_csv(resources.files("kalooki_sim.analysis") / "chart_rounds.csv",
                     comment="#")
display(Markdown(A.rounds_sentence(rounds)))
wide = rounds[rounds["hand"].notna()].pivot(index="hand", columns="round", values="flipped")
wide.index = [CONTRACTS[int(h)] for h in wide.index]
wide = wide.drop(columns=[0], errors="ignore").rename(columns=lambda k: f"round {k}")
wide.columns.name = None
show(wide.reset_index().rename(columns={"index": "contract"}),
     caption="Share of each contract's decisions whose verdict flipped, per round", digits=3)

# %% [markdown]
# A call (R9) takes the discard out of turn plus a penalty card from the stock; taking the
# discard as your draw (R9.1, when you are next) costs no penalty card. The chart reads each
# decision by what decides a game: **points against the table**, your penalty minus the
# table's mean penalty, doubles counted (R12, R14). Your own penalty and your chance to go out
# first are in `call_chart.csv` beside it.
#
# ## Why, contract by contract
#
# Going out on the opening doubles every other seat (R12): a call that completes the contract
# also brings a penalty card, which can spoil that. And your own points and points against the
# table can point different ways: a card that helps you may help the others more.

# %%
why = [A.why_line(chart, stats, h) for h in CONTRACTS]
display(Markdown("\n".join(f"* {w}" for w in why)))

# %% [markdown]
# ## How to read the chart
#
# In every deal of the study, at each take or call a seat may make (R9), the table is copied
# and played on twice from that moment: once where the seat acts, once where it passes.
# Everyone plays as the table the chart assumes (named at its foot: in the published chart,
# players following the previous round's chart, see "The chart a table plays" above; the
# expert wherever that chart is undecided). Both continuations share everything else: the stock is
# dealt by seat from the decision on (each seat draws the same cards in both), and all later
# random choices. The **paired difference** is what the decision was worth.
#
# A cell holds the decisions of one contract and kind (take or call) with the same cards
# needed before → after the card, the same band of cards left in the stock and the same
# answer to "has any opponent opened?". Its interval treats the deal as the unit (a deal's
# decisions share its cards) and is **adjusted over all the chart's cells** by
# Benjamini–Yekutieli's false coverage-statement rate: of the cells with a verdict, the
# expected share whose interval misses the true value is at most 5%. The verdicts are read
# from the published intervals, so you can check each by eye: **call** (or **take**) when the
# whole interval lies below 0; **pass** (or **draw**) when above; **either** when it lies
# inside ±2 points (it makes no difference); **unsure** otherwise; blank with fewer than 30
# deals.

# %%
display(Markdown(
    f"The adjustment runs over the {chart.attrs['family']:,} cells with at least "
    f"{min_deals} deals; {chart.attrs['selected']:,} of them pass the Benjamini–Hochberg step, "
    f"so every interval is at the {chart.attrs['level']:.2%} level. "
    f"**{share:.1%} of all decisions** fall in a decided cell.\n\n"
    f"The statistics come from the study `{prov.get('command', '?')}` (commit "
    f"`{prov.get('commit', '?')[:10]}`, {prov.get('machine', '?')}, wall time "
    f"{prov.get('wall time', '?')}, {prov.get('date', '?')}), committed as "
    "`kalooki_sim/analysis/call_chart_stats.csv` (`make study` makes it again)."))
# the committed re-run of one contract on other deals (its command is in its header)
rerun_stats, rerun_prov = A.read_chart_stats(
    resources.files("kalooki_sim.analysis") / "call_chart_rerun.csv")
agreement = A.chart_agreement(chart[chart["hand"].isin(set(rerun_stats["hand"]))],
                              A.call_chart(rerun_stats, min_deals=min_deals))
display(Markdown(A.agreement_sentence(agreement, rerun_prov.get("command", "?"))))
per = A.decided_share(chart, "hand").rename("decided share").reset_index()
per["contract"] = per["hand"].map(CONTRACTS)
per["decisions"] = chart.groupby("hand")["decisions"].sum().to_numpy()
per["cells"] = chart.groupby("hand").size().to_numpy()
show(per[["contract", "decisions", "cells", "decided share"]],
     caption="How much of each contract's chart is decided (share of decisions)", digits=3)

# %%
# the evidence sections below use a smaller fresh sample of decisions (every row's columns)
share_of = {h: float(sample[h] if isinstance(sample, dict) else sample) for h in CONTRACTS}
bad = {h: f for h, f in share_of.items() if not 0 < f <= 1}
if bad:
    raise ValueError(f"sample={bad} is not allowed; give shares in (0, 1]")
parts, runs = [], []
for h in CONTRACTS:
    d = ks.call_decisions(deals, h, players=players, policies=policies, seed=seed,
                          threads=threads, sample=share_of[h])
    parts.append(d)
    runs.append({"contract": CONTRACTS[h], "deals played": deals,
                 "share of decisions branched": share_of[h],
                 "decisions branched": len(d),
                 "deals with a decision": int(d.groupby(["game", "attempt"]).ngroups)})
dec = pd.concat(parts, ignore_index=True)
runs = pd.DataFrame(runs)
dec["gain"] = (dec["needed_before"] - dec["needed_after"]).astype("Int16")
dec["helps"] = (dec["gain"] >= 1).fillna(False).astype(bool)
runs.to_csv(out / "call_chart_runs.csv", index=False)

# %% [markdown]
# ## The evidence behind the chart
#
# ### Does the called card's own penalty matter?
#
# A call adds the called card and a penalty card to the hand; a high card costs more if the
# hand is caught. Below, the calls that bring the contract one card closer (without completing
# it), by the called card's own penalty.

# %%
useful = dec[(dec["decision"] == "call") & dec["helps"]
             & (dec["needed_after"] >= 1).fillna(False)].copy()
useful["kind"] = "calls that cut the need"
pen_edges = [0, 6, 10, 11, 16]
pen_names = ["2-5 (and red aces)", "6-9", "10, J, Q, K", "black ace"]
useful["card_bin"] = pd.cut(useful["card_penalty"], pen_edges, right=False,
                            labels=range(len(pen_names)))
by_card = pd.concat([A.value_map(useful[useful.hand == h], ["hand", "card_bin", "kind"])
                     for h in CONTRACTS], ignore_index=True)
by_card = by_card[by_card["card_bin"].notna()].reset_index(drop=True)
by_card["card"] = [pen_names[int(i)] for i in by_card["card_bin"]]
by_card.to_csv(out / "call_value_by_card.csv", index=False)
# one panel, a series per contract: most contracts have a readable cell in one or two bins only
fig, ax = plt.subplots(figsize=(8.5, 4.2))
cmap = plt.get_cmap("tab10")
drawn = [h for h in CONTRACTS if (by_card["hand"] == h).any()]
for k, h in enumerate(drawn):
    g = by_card[by_card["hand"] == h].sort_values("card_bin")
    xs = g["card_bin"].astype(float).to_numpy() + (k - (len(drawn) - 1) / 2) * 0.07
    label = CONTRACTS[h]
    for thin in (False, True):
        sel = (g["thin"].astype(bool) == thin).to_numpy()
        if not sel.any():
            continue
        gg = g[sel]
        ax.errorbar(xs[sel], gg["d_penalty"], yerr=np.vstack(
            [gg["d_penalty"] - gg["d_penalty_lo"], gg["d_penalty_hi"] - gg["d_penalty"]]),
            fmt="o", color=cmap(k), mfc="white" if thin else cmap(k), lw=1, capsize=2,
            alpha=0.55 if thin else 1.0, label=label)
        label = None  # one legend entry per contract
ax.axhline(0, color="black", lw=0.8)
ax.set_xticks(range(len(pen_names)), pen_names)
ax.set_xlabel("penalty of the called card (R1)")
ax.set_ylabel("own penalty: call minus pass\n(below 0: calling saves points)")
if drawn:
    ax.legend(fontsize=8, ncol=3, frameon=False)
ax.grid(alpha=0.3)
fig.tight_layout()
plots.show(fig, out, "call_value_by_card",
           "Useful calls (the card cuts the cards still needed, and the contract is not yet "
           "complete) by the called card's own penalty (R1): call minus pass, own points, 95% "
           "intervals clustered by deal; lower is better for calling. Hollow: fewer than "
           f"{A.THIN_DECISIONS} decisions or {A.THIN_DEALS} deals (read with care); "
           + ("contracts without a useful call in the sample are left out: "
              + A.join_words([str(h) for h in CONTRACTS if h not in drawn]) + "."
              if len(drawn) < len(CONTRACTS) else "every contract drawn."))
display(Markdown(A.card_penalty_sentence(by_card.sort_values(["hand", "card_bin"]),
                                         CONTRACTS)))

# %% [markdown]
# ### Taking the discard, by whether the card helps
#
# The take chart above by whether the card cuts the cards still needed, over all stock
# sizes, with the share of such offers the expert took.

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
# ### Tuned call policies

# %%
from kalooki_sim.players import tuning

tuned = tuning.tuned_table()
# the committed table, published with its header (command, wall time, field) as # lines
plots.write_csv(tuned, out / "tuned_calls.csv", tuned.attrs["header"])
display(Markdown(
    f"The `expert` preset calls only when the contract would then need at most "
    f"{plots.count(ks.preset('expert').call_max_need, 'more card')} (`call_max_need="
    f"{ks.preset('expert').call_max_need}`). `kalooki_sim.tuning` searched the call parameters "
    "per contract against a field of expert and greedy opponents (4 players, the candidate in "
    "every seat, the same deals for every candidate), with successive halving so the deals "
    "went to the contenders, then confirmed the winner on fresh deals. The table is the "
    "committed result (`python -m kalooki_sim.tuning`), in tuned_calls.csv with its command "
    "and wall time in the header's `#` lines."))
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
game_lines = [h for h in tuned.attrs["header"] if h.startswith("nine-hand games")]
text = player_words.tuned_sentence(tuned, ks.preset("expert").call_max_need)
headlines.append(text.split(" Every adopted")[0])
text += "".join(" " + player_words.tuned_games_sentence(line) for line in game_lines)
display(Markdown(text))

# %% [markdown]
# ### How far is the expert from better play?
#
# The chart values a call with `expert` players at every seat, so it is only as good as that
# model of the table. A player that searches (`preset("search")`: at every take and call it
# asks the advisor's paired rollouts from what it can see, and plays as `expert` elsewhere)
# was played against three experts on the same deals, in every seat in turn. Where it pays
# fewer points, the expert's rule (and so the chart's table) leaves points behind. The table
# is committed with the package (`python -m kalooki_sim.analysis.search_gap`; its command, wall
# time and machine are in search_vs_expert.csv's header, the `#` lines, and in the table's
# caption), because it is long to make. The ladder above measures the same searcher again, on
# other deals (1,000 nine-hand games, every contract), beside the chart and thumb players.

# %%
from kalooki_sim.analysis import search_gap

gap = search_gap.search_table()
plots.write_csv(gap, out / "search_vs_expert.csv", gap.attrs["header"])
gap["contract"] = gap["hand"].map(CONTRACTS)
show(gap[["contract", "deals", "d_penalty", "d_penalty_lo", "d_penalty_hi"]],
     caption="Search minus expert, points per hand (below 0: search pays fewer), "
             "95% interval over deals; " + gap.attrs["header"][1],
     names={"deals": "deals (each in every seat)", "d_penalty": "search − expert",
            "d_penalty_lo": "95% from", "d_penalty_hi": "95% to"}, digits=1)
text = player_words.search_gap_sentence(gap)
headlines.append(text)
display(Markdown(text + " " + player_words.search_gap_tally(gap)))

# %% [markdown]
# ### Worked examples from the advisor
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
    facts = player_words.situation_sentence(a.situation)
    display(Markdown(f"### Example {i}. {title}\n\n*Situation:* {facts}.\n\n"
                     f"**{a.recommendation}**"))
    a.table.to_csv(out / f"advisor_example_{i}.csv", index=False)
    t = a.table
    plots.table(pd.DataFrame({
        "action": t["action"],
        "your penalty, points [95%]": [plots.num_ci(*r) for r in zip(
            t["penalty"], t["penalty_lo"], t["penalty_hi"], strict=True)],
        "against the table, points [95%]": [plots.num_ci(*r, signed=True) for r in zip(
            t["relative"], t["relative_lo"], t["relative_hi"], strict=True)],
        "you go out [95%]": [plots.pct_ci(*r, n=n) for *r, n in zip(
            t["out"], t["out_lo"], t["out_hi"], t["rollouts"], strict=True)],
        "doubled [95%]": [plots.pct_ci(*r, n=n) for *r, n in zip(
            t["doubled"], t["doubled_lo"], t["doubled_hi"], t["rollouts"], strict=True)],
        "void [95%]": [plots.pct_ci(*r, n=n) for *r, n in zip(
            t["void"], t["void_lo"], t["void_hi"], t["rollouts"], strict=True)]}),
        f"Example {i}: {a.rollouts:,} paired rollouts (every column in "
        f"advisor_example_{i}.csv)")

# %% [markdown]
# ## Method: how much does the pairing sharpen the answer?
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
# ## Caveats
#
# * The players are scripted (the table named at the chart's foot), not people: against
#   players who call more, hold more or read the table, the values change.
# * Four players and the card's rules (R1-R14) only; another table size changes the stock
#   and every cell.
# * A cell mixes all the situations behind it (which card, which opponents are down, how many
#   calls made): the chart says what a call is worth *on average* there, and the advisor
#   below answers for one concrete position.
# * The adjustment bounds the expected share of wrong verdicts among the decided cells
#   (false coverage rate 5%), not the chance of any wrong verdict at all; cells share deals,
#   which the method assumes away (each cell rests on many deals).

# %%
thin = chart[chart["verdict"].fillna("") == ""]
display(Markdown(
    f"Of the chart's {len(chart):,} cells, {len(thin):,} have fewer than {min_deals} deals "
    f"and are left blank ({int(thin['decisions'].sum()):,} of "
    f"{int(chart['decisions'].sum()):,} decisions). The evidence sections above rest on a "
    f"fresh sample ({len(dec):,} decisions, "
    + ("every decision of each deal branched)."
       if (runs["share of decisions branched"] == 1).all() else
       "a share of each deal's decisions branched, chosen from the seed).")))

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
