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
# # Is a call worth its penalty card?
#
# A call takes the discard out of turn, but also a penalty card from the stock: the hand grows
# by two and those cards score against you if someone else goes out first. Here one seat plays
# a call policy while the other three play greedy, and every policy plays **the same deal
# sequences**: game *i* deals the same cards to every policy, and if that deal is void (the
# stock ran out twice, R13) the same second deal, and so on.
#
# **The outcome of a game** is the hand as the player lives it: the deal that was finally
# scored, after any void ones. A call can change whether a deal is void (calls take cards from
# the stock), so two policies may be scored on different deals of the same sequence; how often
# that happens, and how many deals each needs, is reported with the rest: a void is part of
# what a call costs.

# %% tags=["parameters"]
hands = 3000  # deal sequences per contract
tournament_games = 300  # deal sequences per duplicate tournament (expert)
game_games = 300  # deal sequences per whole-game comparison of the call policies
n_boot = 400  # bootstrap replicates over deal sequences
seed = 7
players = 4
threads = None
out_dir = "../reports"

# %%
import json
from pathlib import Path

import pandas as pd
from IPython.display import Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.report import plots, words

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)
headlines = []
LABEL = {h: A.contract_label(*ks.Rules().deal(h)[1:]) for h in range(1, 10)}
parts, outcomes = [], {}
for h in range(1, 10):
    t, res = A.call_value(hands, h, players=players, seed=seed, threads=threads,
                          n_boot=n_boot, return_outcomes=True)
    parts.append(t)
    outcomes[h] = res
cv = pd.concat(parts, ignore_index=True)
cv.to_csv(out / "call_value.csv", index=False)
pols = [p for p in A.CALL_POLICIES if p != "never"]
display(Markdown(f"{len(A.CALL_POLICIES)} policies x 9 contracts x {hands:,} shared deal "
                 f"sequences at {players} players, seed {seed}; every difference below is "
                 "paired on the deal sequence."))

# %% [markdown]
# ## Calling up to three times, contract by contract

# %%
c3 = cv[cv["policy"] == "call-3"].set_index("hand")
nv = cv[cv["policy"] == "never"].set_index("hand")
plots.table(pd.DataFrame({
    "contract": [f"{h}: {LABEL[h]}" for h in c3.index],
    "calls per hand": [f"{c:.2f}" for c in c3["calls"]],
    "penalty, never calling": [plots.num_ci(r.penalty, r.penalty_lo, r.penalty_hi)
                               for r in nv.itertuples()],
    "change, points (lower is better)": [plots.num_ci(r.d_penalty, r.d_penalty_lo,
                                                      r.d_penalty_hi, signed=True)
                                         for r in c3.itertuples()],
    "change, % of never calling": [plots.num_ci(r.pct_penalty, r.pct_penalty_lo,
                                                r.pct_penalty_hi, signed=True, unit="%")
                                   for r in c3.itertuples()],
    "going out, change": [plots.num_ci(100 * r.d_win, 100 * r.d_win_lo, 100 * r.d_win_hi,
                                       signed=True, unit=" pp") for r in c3.itertuples()],
}), "Calling up to three times (call-3) against never calling, the same deal sequences")
plots.show(plots.call_value(cv, "d_penalty"), out, "call_value_penalty",
           "Change in the mean penalty per hand against never calling, per policy and "
           "contract, on the same deal sequences (paired 95% intervals); below zero the "
           "policy pays less.")
plots.show(plots.call_value(cv, "d_win"), out, "call_value_win",
           "Change in the chance of going out against never calling (paired 95% intervals).")

# %%
# one family of sign claims: every policy x contract, Holm-adjusted
fam = cv[cv["policy"] != "never"]
claims = A.sign_claims(list(zip(fam["policy"], fam["hand"], strict=True)), fam["d_penalty"],
                       fam["d_penalty_p"])


def hands_of(policy, key):
    return [h for p, h in claims[key] if p == policy]


lines = [words.call_sign_line(p, fam[fam["policy"] == p], claims) for p in pols]
display(Markdown(
    "Which way does calling move the penalty? Each claim below holds at the 5% level after "
    f"Holm's adjustment for the {len(fam)} comparisons made together:\n\n- "
    + "\n- ".join(lines)))
gain_draws = A.bootstrap_means(
    {h: (outcomes[h]["call-3"]["penalty"] - outcomes[h]["never"]["penalty"]).to_numpy()
     for h in range(1, 10)}, n_boot=1000, seed=seed)
big_gain = A.rank_intervals(dict(c3["d_penalty"]), gain_draws, higher_first=False)
bg = c3.loc[A.first_set(big_gain)[0]]
hands_lower = hands_of("call-3", "lower")
text = (f"Calling up to three times (when the card helps) lowers the expected penalty in "
        f"{len(hands_lower)} of 9 contracts (Holm-adjusted); the largest gain is in "
        f"{A.first_phrase(big_gain)}: in hand {int(bg.name)} "
        f"{plots.num_ci(bg['d_penalty'], bg['d_penalty_lo'], bg['d_penalty_hi'], signed=True)}"
        f" points per hand, that is "
        + plots.num_ci(bg["pct_penalty"], bg["pct_penalty_lo"], bg["pct_penalty_hi"], 0, True,
                       "%")
        + " of what a seat that never calls pays.")
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ## Penalty exposure: how bad can it get?
#
# A mean hides the spread. For each policy: the median, 90th and 99th percentiles of the
# penalty (0 when the seat goes out), its standard deviation, and the chance of a penalty of
# 100 or 200 points or more, each compared with never calling on the same deal sequences.

# %%
exp_rows = []
for h in range(1, 10):
    d = cv[cv["hand"] == h].set_index("policy")
    for p in ["never"] + pols:
        r = d.loc[p]
        exp_rows.append({
            "contract": f"{h}: {LABEL[h]}", "policy": p,
            "median": plots.num_ci(r["pen_q50"], r["pen_q50_lo"], r["pen_q50_hi"], 0),
            "90th percentile": plots.num_ci(r["pen_q90"], r["pen_q90_lo"], r["pen_q90_hi"], 0),
            "std. deviation": plots.num_ci(r["pen_sd"], r["pen_sd_lo"], r["pen_sd_hi"], 0),
            "penalty ≥ 100": plots.pct_ci(r["p_pen100"], r["p_pen100_lo"], r["p_pen100_hi"]),
            "penalty ≥ 200": plots.pct_ci(r["p_pen200"], r["p_pen200_lo"], r["p_pen200_hi"]),
        })
h9 = cv[cv["hand"] == 9].set_index("policy")
plots.table(pd.DataFrame([r for r in exp_rows if r["contract"].startswith("9:")]),
            "Hand 9 (four runs): the penalty of seat 0, points (lower is better)")
plots.show(plots.exposure(cv, 9), out, "exposure_hand9",
           "Hand 9: median, 90th and 99th percentile of the penalty per policy, with 95% "
           "distribution-free intervals (lower is better).")
plots.show(plots.call_value(cv, "d_p_pen200"), out, "exposure_p200",
           "Change in the chance of a penalty of 200 points or more against never calling "
           "(paired 95% intervals).")
plots.details(pd.DataFrame(exp_rows), "Exposure for every contract and policy",
              csv="call_value.csv")
n9, c9 = h9.loc["never"], h9.loc["call-3"]
text = (words.spread_sentence(n9, c9, 9) + " Standard deviation change "
        f"{plots.num_ci(c9['d_pen_sd'], c9['d_pen_sd_lo'], c9['d_pen_sd_hi'], 0, True)} points;"
        " chance of 200 or more "
        + plots.num_ci(100 * c9["d_p_pen200"], 100 * c9["d_p_pen200_lo"],
                       100 * c9["d_p_pen200_hi"], 1, True, " percentage points")
        + " (paired 95% intervals).")
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ## Voids: what calls do to the stock
#
# Calls take penalty cards from the stock, which would make it run out sooner; but a seat
# that calls may also open and go out sooner, ending the hand before the stock runs out:
# which way voids move is for the data to say. Per policy: the void share of deals, deals
# per scored hand, and the share of deal sequences in which the policy was scored on the
# same deal as never calling.

# %%
plots.table(pd.DataFrame({
    "contract": [f"{h}: {LABEL[h]}" for h in c3.index],
    "void deals, never": [plots.pct_ci(r.p_void, r.p_void_lo, r.p_void_hi)
                          for r in nv.itertuples()],
    "void deals, call-3": [plots.pct_ci(r.p_void, r.p_void_lo, r.p_void_hi)
                           for r in c3.itertuples()],
    "extra deals per hand, call-3": [plots.num_ci(r.d_attempts, r.d_attempts_lo,
                                                  r.d_attempts_hi, 3, True)
                                     for r in c3.itertuples()],
    "scored on the same deal": [plots.pct(r.same_deal) for r in c3.itertuples()],
}), "Voids, never calling against calling up to three times")
vh = int(c3["p_void"].idxmax())


def void_text(t, h):
    return plots.pct_ci(t.loc[h, "p_void"], t.loc[h, "p_void_lo"], t.loc[h, "p_void_hi"])


text = (words.call_void_sentence(c3) + f" Where voids are most common, in hand {vh}, "
        f"{void_text(nv, vh)} of deals are void when seat 0 never calls and "
        f"{void_text(c3, vh)} when it calls up to three times; the two are scored on the same "
        f"deal in {plots.pct(c3.loc[vh, 'same_deal'])} of the deal sequences.")
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ## What the pairing bought

# %%
vr = cv[cv["policy"] != "never"].dropna(subset=["vr_penalty"])
med = vr.iloc[(vr["vr_penalty"] - vr["vr_penalty"].median()).abs().argsort().iloc[0]]
display(Markdown(
    f"Comparing policies on the same deal sequences divides the variance of the penalty "
    f"difference by a factor between {vr['vr_penalty'].min():.1f} and "
    f"{vr['vr_penalty'].max():.1f} (median over policies and contracts "
    f"{vr['vr_penalty'].median():.1f}; e.g. `{med['policy']}` in hand {int(med['hand'])}: "
    f"{plots.num_ci(med['vr_penalty'], med['vr_penalty_lo'], med['vr_penalty_hi'], 2)}, "
    "bootstrap interval over deal sequences): the same precision as independent runs with "
    "that many times fewer hands. The widest interval on a paired penalty difference is "
    f"{(cv['d_penalty_hi'] - cv['d_penalty_lo']).max():.1f} points wide."))

# %% [markdown]
# ## Whole games
#
# Players play nine-hand games, and what matters at the end is the total. Each call policy
# sits at a table with three greedy players in a duplicate tournament: every deal sequence is
# played once per rotation of the seats, and every policy's tournament uses the same deal
# sequences. Win share (a fair share is 25% at four players) and the game total against the
# table's mean (lower is better), with 95% intervals over deal sequences. A policy that plays
# exactly like the greedy field (greedy calls up to the rules' limit of three, so `call-3` is
# greedy) gets exactly the fair share: every rotation deals it the same seats' cards.

# %%
gl = A.call_games(A.CALL_POLICIES, games=game_games, players=players, seed=seed,
                  threads=threads)
gl.to_csv(out / "call_games.csv", index=False)
plots.show(plots.game_level(gl, 1 / players), out, "call_games",
           "Share of nine-hand games won by one seat playing each call policy against three "
           "greedy players (seat-rotated duplicate tournaments on the same deal sequences; "
           "95% intervals).")
plots.table(pd.DataFrame({
    "policy": gl["policy"],
    "games won": [plots.pct_ci(r.win_share, r.win_share_lo, r.win_share_hi)
                  for r in gl.itertuples()],
    "total against the table, points per game (lower is better)": [
        plots.num_ci(r.rel_total, r.rel_total_lo, r.rel_total_hi, 0, True)
        for r in gl.itertuples()],
    "calls per hand": [f"{c:.2f}" for c in gl["calls_per_hand"]],
}), f"Whole games against three greedy players ({int(gl['games'].min()):,} deal sequences)")
fair = 1 / players
exact_fair = gl[(gl["win_share_lo"] == gl["win_share_hi"]) & (gl["win_share"] == fair)]
above = gl[gl["win_share_lo"] > fair]
below = gl[gl["win_share_hi"] < fair].sort_values("win_share", ascending=False)
level = gl.drop(exact_fair.index.union(above.index).union(below.index))


def share(r):
    return f"`{r.policy}` {plots.pct_ci(r.win_share, r.win_share_lo, r.win_share_hi)}"


parts = []
if len(above):
    parts.append("more than the fair share: " + A.join_words([share(r) for r in
                                                              above.itertuples()]))
else:
    parts.append(f"no call policy wins more than the fair share of {fair:.0%}")
if len(exact_fair):
    parts.append(A.join_words([f"`{p}`" for p in exact_fair["policy"]]) + " plays exactly "
                 "like the greedy field (the fair share by construction)")
if len(below):
    parts.append("less: " + A.join_words([share(r) for r in below.itertuples()]))
if len(level):
    parts.append("not distinguishable from fair: " + A.join_words([share(r) for r in
                                                                  level.itertuples()]))
nev = gl.set_index("policy").loc["never"]
text = ("Over whole nine-hand games against three greedy players (win share of games, "
        f"{int(gl['games'].min()):,} deal sequences) " + "; ".join(parts)
        + ". A seat that never calls ends "
        + plots.num_ci(nev["rel_total"], nev["rel_total_lo"], nev["rel_total_hi"], 0, True)
        + " points per game above the table's mean (lower is better).")
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ## Who plays better? A duplicate tournament with the expert
#
# The `expert` preset counts the cards it still needs exactly (dead cards in the pile and on
# the table cannot come) and, in the all-group and all-run contracts, discards to keep the
# most live outs (the copies still to come of the cards that would bring it closer). Each
# table is played once per
# rotation of the seats on the same cards; intervals are 95% with the deal sequence as the
# unit.

# %%
fields = {}
for field in ("greedy", "never-call"):
    t = ks.tournament(["expert", field, field, field], games=tournament_games, seed=seed,
                      threads=threads)
    fields[field] = t
    t.assign(field=f"expert + 3 {field}").to_csv(out / f"tournament_expert_vs_{field}.csv",
                                                 index=False)
rows = []
for f, t in fields.items():
    for r in t.itertuples():
        rows.append({"table": f"expert + 3 {f}", "policy": r.policy,
                     "games won": plots.pct_ci(r.win_share, r.win_share_lo, r.win_share_hi),
                     "total against the table (lower is better)": plots.num_ci(
                         r.rel_total, r.rel_total_lo, r.rel_total_hi, 0, True),
                     "calls per hand": f"{r.calls_per_hand:.2f}",
                     "void deals per hand": f"{r.void_per_hand:.3f}"})
plots.table(pd.DataFrame(rows), f"Duplicate tournaments ({tournament_games:,} deal sequences)")
for f, t in fields.items():
    e = t.set_index("policy").loc["expert"]
    verdict = ("more than its fair share" if e["win_share_lo"] > 1 / players else
               "less than its fair share" if e["win_share_hi"] < 1 / players else
               "a share not distinguishable from the fair one")
    text = (f"Against three `{f}` players the expert wins "
            f"{plots.pct_ci(e['win_share'], e['win_share_lo'], e['win_share_hi'])} of the "
            f"games: {verdict}; its game total is "
            f"{plots.num_ci(e['rel_total'], e['rel_total_lo'], e['rel_total_hi'], 0, True)} "
            f"points against the table's mean (lower is better), over {int(e['games']):,} "
            "deal sequences.")
    display(Markdown(text))
    headlines.append(text)
_ = (out / "call_strategy.headlines.json").write_text(
    json.dumps(headlines, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
