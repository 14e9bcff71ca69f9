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
# **The answer first**: the contract table below, one row per contract at one table size (four
# players in the full report; its caption says which), the table an organiser quotes; then the
# evidence behind each column; then the caveats.
#
# Nine contracts, from three groups in nine cards to four runs in sixteen. Simulated tables of
# greedy players (they open as soon as they can, lay off everything, call when a card brings
# the contract closer) play every contract many times at 3 to 6 players. We measure how often
# the deal alone already lays the contract, how fast seats open, how often a hand is won on
# the opening (which doubles everyone's penalty), how often the stock runs out twice (a void
# hand, dealt again by the same dealer, R13), and what the losers pay. A figure marked [95%]
# carries a 95% confidence interval with the deal as the unit (each table's caption or heading
# says which do); "most" and "least" are said only when a rank interval allows it.
#
# The card fixes one 108-card pack for 3-6 players; the encyclopedia article has tables use
# "two or more decks, according to the number of players" (V1). At 5 and 6 players both are
# shown: the card's pack, and `pack="by-table"` (three decks and six jokers).

# %% tags=["parameters"]
hands = 4000  # hands per contract at 4 players: the contract table (fewer if voids are many)
hands_other = 1000  # hands per contract at the other player counts and packs
attempt_budget = 100_000  # most deals (void ones included) played for one cell
min_scored = 30  # fewest scored hands in a cell, whatever the budget
dealt_deals = 250_000  # simulated deals per contract for the chance the deal lays it
n_boot = 200  # bootstrap replicates over deals
seed = 2026
players = [3, 4, 5, 6]
threads = None
out_dir = "../reports"

# %%
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis._words import overlap_note
from kalooki_sim.report import player_words, plots, words

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)
headlines = []
LABEL = {h: A.contract_label(*ks.Rules().deal(h)[1:]) for h in range(1, 10)}
P4 = 4 if 4 in players else players[0]


def cell(p, pack, h):
    """Play one (players, pack, contract) cell: as many hands as the deal budget allows.

    A pilot of first deals only (``max_replays=0``, cheap even where nearly every deal is
    void) bounds the deals a scored hand needs (R13 replays) by the Wilson lower bound of the
    share of deals scored, so the cell stays within the deal budget, but never below
    ``min_scored`` scored hands. Void deals are kept as rows where they are few. Where they
    are many, a second run of the same first deals gives an unbiased sample of deals for the
    opening curve and the chance some seat is dealt its contract.
    """
    rules = ks.Rules(players=p, pack=pack)
    hands = hands_at[p, pack]
    with warnings.catch_warnings():  # every void first deal is "given up": expected here
        warnings.simplefilter("ignore", RuntimeWarning)
        pilot = ks.play_hands(min(hands, 2000), hand=h, seed=seed + 1,
                              rules=rules.with_(max_replays=0), progress=False, voids=True)
    void = pilot.groupby("game")["void"].first()
    # deals a scored hand needs, at most: a few lucky scored deals must not blow the budget
    _, lo, _ = A.wilson(int((void == 0).sum()), len(void))
    per_hand = 1 / max(float(lo), 1 / attempt_budget)
    n = int(max(min(hands, min_scored), min(hands, attempt_budget // per_hand)))
    keep_voids = per_hand <= 5
    d = ks.play_hands(n, hand=h, seed=seed, rules=rules, threads=threads, progress=False,
                      voids=keep_voids)
    if keep_voids:
        first = d
    else:
        with warnings.catch_warnings():  # every void first deal is "given up": expected here
            warnings.simplefilter("ignore", RuntimeWarning)
            first = ks.play_hands(min(hands, attempt_budget), hand=h, seed=seed,
                                  rules=rules.with_(max_replays=0), threads=threads,
                                  progress=False, voids=True)
    return d.assign(pack=pack), first.assign(pack=pack)


packs = {p: ["card", "by-table"] if p >= 5 else ["card"] for p in players}
# the contract table's own cells get the most hands; the comparisons across tables fewer
hands_at = {(p, k): hands if (p, k) == (P4, "card") else hands_other
            for p in players for k in packs[p]}
cells = [cell(p, pack, h) for p in players for pack in packs[p] for h in range(1, 10)]
df = pd.concat([c[0] for c in cells], ignore_index=True)
deals = pd.concat([c[1] for c in cells], ignore_index=True)
table = pd.concat([A.contract_difficulty(d).assign(pack=pack)
                   for pack, d in df.groupby("pack", sort=False)], ignore_index=True)
decks = {p: ks.Rules(players=p, pack="by-table").decks for p in players}
table["series"] = [f"{p} players" + ("" if k == "card" else f", {decks[p]} decks")
                   for p, k in zip(table["players"], table["pack"], strict=True)]
table = table.drop(columns=["p_dealt", "p_dealt_lo", "p_dealt_hi"])  # once per contract below
card = table[table["pack"] == "card"]
four = card[card["players"] == P4].set_index("hand")
display(Markdown(
    f"Simulated **{len(df):,}** seat-hands (up to {hands:,} hands per contract at {P4} "
    f"players with the card's pack and {hands_other:,} at the other player counts and packs, seed "
    f"{seed}; where void deals are many, as many hands as "
    f"{attempt_budget:,} deals allow, but at least {min_scored:,}). Every hand is played "
    f"until it is scored: the smallest cell has {int(table['hands'].min()):,} scored hands."))
pdt, dealt_samples = A.p_dealt_table(dealt_deals, seed=seed, return_samples=True)


def turn_text(m, lo=None, hi=None):
    if not np.isfinite(m):
        return "not reached by turn 20" if m == np.inf else "n/a (too few seats)"
    if lo is None:
        return f"{m:.0f}"
    hi_t = "> 20" if not np.isfinite(hi) else f"{hi:.0f}"
    return f"{m:.0f} [{lo:.0f}, {hi_t}]"

# %% [markdown]
# ## The contract table
#
# One row per contract at the table size named in the caption, the card's pack, greedy
# players. The chance the deal alone lays the contract is per seat; the opening turn is the
# seat's own turn (censoring-aware, see below); void deals are deals the stock ran out on
# twice (dealt again, R13); the losers' penalty is the mean of the seats that did not go out;
# a hand won on the opening doubles it (R12).

# %%
ct, med_draws = A.contract_table(df[df["pack"] == "card"], deals[deals["pack"] == "card"],
                                 dealt=pdt, players=P4, n_boot=n_boot, seed=seed,
                                 return_draws=True)
ct.to_csv(out / "contract_table.csv", index=False)
display(Markdown(player_words.interval_sentence(ct, {
    "difficulty_rank": "the difficulty rank", "p_dealt": "the deal already lays it (its "
    "interval is in p_dealt.csv)", "median_open_turn": "the median own turn to open",
    "p_open_by_turn_10": "opened by own turn 10", "p_void_deal": "void deals",
    "losers_penalty": "the losers' penalty", "p_out_on_opening": "won on the opening",
    "turns": "table turns per hand"}, "contract_table.csv")))


def rank_text(r):
    if pd.isna(r.difficulty_rank):
        return "not ranked (no median)"
    return f"{r.difficulty_rank} [{r.rank_lo}, {r.rank_hi}]"


plots.table(pd.DataFrame({
    "hand": ct["hand"], "contract": ct["contract"],
    "difficulty rank [95% interval]": [rank_text(r) for r in ct.itertuples()],
    "deal already lays it [95%]": [plots.pct_ci(r.p_dealt, r.lo, r.hi, 2, n=r.deals)
                                   for r in pdt.set_index("hand").loc[ct["hand"]].itertuples()],
    "median own turn to open [95%]": [turn_text(r.median_open_turn, r.median_open_turn_lo,
                                                r.median_open_turn_hi)
                                      for r in ct.itertuples()],
    "opened by own turn 10": [plots.pct(p) for p in ct["p_open_by_turn_10"]],
    "void deals [95%]": [plots.pct_ci(r.p_void_deal, r.p_void_deal_lo, r.p_void_deal_hi)
                         for r in ct.itertuples()],
    "losers' penalty, points [95%]": [plots.num_ci(r.losers_penalty, r.losers_penalty_lo,
                                                   r.losers_penalty_hi)
                                      for r in ct.itertuples()],
    "won on the opening (x2) [95%]": [plots.pct_ci(r.p_out_on_opening, r.p_out_on_opening_lo,
                                                   r.p_out_on_opening_hi)
                                      for r in ct.itertuples()],
    "table turns per hand": [f"{t:.0f}" for t in ct["turns"]],
}), f"The contract table: {P4} players, the card's pack, greedy players "
    f"({int(table.loc[(table['pack'] == 'card') & (table['players'] == P4), 'hands'].min()):,}"
    "+ scored hands per contract)")
ranked = ct["difficulty_rank"].notna()
fast = A.rank_intervals(dict(zip(ct.loc[ranked, "hand"], ct.loc[ranked, "median_open_turn"],
                                 strict=True)), med_draws, higher_first=False)
text = words.open_speed_sentence(ct, fast, P4)
display(Markdown(
    f"**What \"difficulty\" ranks by**: {A.DIFFICULTY_RANKED_BY}. Ties share the lower rank. "
    f"The rank intervals of the {int(ranked.sum())} ranked contracts hold together with 95% "
    f"confidence ({n_boot} "
    "bootstrap replicates over deals); two contracts whose intervals overlap cannot be "
    "told apart.\n\n" + text))
headlines.append(text)
note = words.selection_note(table)
if note:
    display(Markdown("**Caveat.** " + note))
    headlines.append(note)

# %% [markdown]
# ## Opening on the deal
#
# A seat's deal is a number of cards from the pack; it does not depend on how many others sit
# at the table, so this is one number per contract: exact where the contract is groups only
# (counting every deal, see the teaching page), otherwise from simulated deals.

# %%
pdt.to_csv(out / "p_dealt.csv", index=False)
pdt["exact"] = pdt["method"] == "exact"
plots.show(plots.by_contract(pdt, "p_dealt", "chance (log scale)",
                             "One seat's deal already lays its contract", log=True,
                             exact="exact"), out, "difficulty_p_dealt",
           "Chance that a seat's dealt cards alone lay the contract, per contract (the same "
           "at any table size). Black diamonds are exact; blue points simulated with 95% "
           "intervals; a grey arrow is the upper bound where no simulated deal laid it.")
# "most" and "least" only as the rank intervals allow (simultaneous over the nine, from the
# same replicates); a contract whose interval overlaps first place's but whose rank cannot be
# first is named with its rank interval
dealt_draws = A.bootstrap_means(dealt_samples, n_boot=1000, seed=seed)
dealt_est = dict(zip(pdt["hand"], pdt["p_dealt"], strict=True))
ranks = A.rank_intervals(dealt_est, dealt_draws)
ranks_low = A.rank_intervals(dealt_est, dealt_draws, higher_first=False)
dealt_iv = {r.hand: (r.lo, r.hi) for r in pdt.itertuples()}
rk = ranks.set_index("item")
plots.table(pd.DataFrame({
    "hand": pdt["hand"], "contract": pdt["contract"], "cards dealt": pdt["cards"],
    "chance the deal already lays the contract": [
        plots.one_in(r.p_dealt, r.lo, r.hi, r.deals) + (" (exact)" if r.exact else "")
        for r in pdt.itertuples()],
    "rank, 1 = most often [95%]": [f"{rk.loc[h, 'rank']} [{rk.loc[h, 'rank_lo']}, "
                                   f"{rk.loc[h, 'rank_hi']}]" for h in pdt["hand"]],
    "how": [("exact count" if r.exact else f"{int(r.deals):,} simulated deals")
            for r in pdt.itertuples()]}),
    "The deal alone (ranks: simultaneous 95% intervals over the nine contracts)")
top = pdt.set_index("hand").loc[A.first_set(ranks)[0]]
text = " ".join(t for t in [
    f"The deal alone most often lays {A.first_phrase(ranks)}: for hand {int(top.name)} "
    f"({top['contract']}) {plots.one_in(top['p_dealt'], top['lo'], top['hi'])} deals "
    f"({plots.pct(top['p_dealt'], 3)}).",
    overlap_note(ranks, dealt_iv, order="most often"),
    f"Least often: {A.first_phrase(ranks_low)}.",
    overlap_note(ranks_low, dealt_iv, higher_first=False, order="least often")] if t)
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ### Some seat at the table
#
# With more seats, more hands are dealt from the same pack: does that make it likelier that
# *some* seat is dealt its contract? Over every deal, void ones included:

# %%
anyseat = A.p_some_seat_dealt(deals[deals["pack"] == "card"])
anyseat.to_csv(out / "p_some_seat_dealt.csv", index=False)
plots.show(plots.players_series(anyseat, "p_any", "chance per deal (log scale)",
                                "Some seat at the table is dealt its contract", log=True),
           out, "difficulty_p_some_seat",
           "Chance that at least one seat's dealt cards lay the contract, per player count "
           "(the card's pack; 95% Wilson intervals over deals; zeros are not drawn on the "
           "log scale).")
wide = anyseat.pivot(index="hand", columns="players")
plots.table(pd.DataFrame({"contract": [f"{h}: {LABEL[h]}" for h in wide.index], **{
    f"{p} players": [plots.one_in(wide.loc[h, ("p_any", p)], wide.loc[h, ("lo", p)],
                                  wide.loc[h, ("hi", p)], wide.loc[h, ("deals", p)])
                     for h in wide.index]
    for p in sorted(anyseat["players"].unique())}}),
    "Chance some seat is dealt its contract")
text = words.some_seat_sentence(anyseat)
display(Markdown(text))

# %% [markdown]
# ## How fast seats open
#
# A seat whose hand ends before it opens (someone went out, or the deal was void) has not
# "failed to open": we only know it had not opened *yet*. The Kaplan-Meier estimate treats it
# as censored at its last own turn, so the curve answers "had the hand gone on, how likely
# would I have opened by turn t?". Void deals are deals too and are kept. Medians and the
# restricted mean (the expected own turns without opening, counted up to turn 20) come with
# bootstrap intervals over deals. Where too few seats are still playing (fewer than 20) the
# curve stops.

# %%
cd_deals = deals[deals["pack"] == "card"]
curve, surv, boot_rmst = A.open_survival(cd_deals, max_turn=20, n_boot=n_boot, seed=seed,
                                         return_boot=True)
curve.to_csv(out / "open_curve.csv", index=False)
surv.to_csv(out / "open_speed.csv", index=False)
plots.show(plots.open_curve(curve, labels=LABEL), out, "open_curve",
           "Chance a seat has opened by its own turn t, per contract and player count: "
           "Kaplan-Meier step curves with 95% bands (bootstrap over deals); greedy players, "
           "the card's pack.")


def by20_text(r):
    if np.isfinite(r.p_by):
        return plots.pct_ci(r.p_by, r.p_by_lo, r.p_by_hi)
    return f"≥ {plots.pct(r.p_last)} (data end at turn {r.last_turn})"


s4 = surv[surv["players"] == P4].set_index("hand")
plots.table(pd.DataFrame({
    "contract": [f"{h}: {LABEL[h]}" for h in s4.index],
    "median own turn to open": [turn_text(r.median, r.median_lo, r.median_hi)
                                for r in s4.itertuples()],
    "own turns without opening (of the first 20)": [
        plots.num_ci(r.rmst, r.rmst_lo, r.rmst_hi) for r in s4.itertuples()],
    "opened by turn 20": [by20_text(r) for r in s4.itertuples()],
    "seats (censored)": [f"{r.seats:,} ({r.censored / r.seats:.0%})" for r in s4.itertuples()],
}), f"How fast seats open at {P4} players (lower is faster)")
plots.details(pd.DataFrame({
    "players": surv["players"], "contract": [f"{h}: {LABEL[h]}" for h in surv["hand"]],
    "median": [turn_text(r.median, r.median_lo, r.median_hi) for r in surv.itertuples()],
    "restricted mean (20 turns)": [plots.num_ci(r.rmst, r.rmst_lo, r.rmst_hi)
                                   for r in surv.itertuples()],
    "seats": [f"{r.seats:,}" for r in surv.itertuples()],
    "censored": [f"{r.censored / r.seats:.0%}" for r in surv.itertuples()]}),
    "Every player count", csv="open_speed.csv")
display(Markdown("Which contracts are slowest and fastest to open is said under the "
                 "contract table at the top, ranked by the median own turn (every contract "
                 "with a median, with rank intervals)."))

# %% [markdown]
# ## Doubling, voids and what the losers pay

# %%
for col, label, title, lower, log, cap in [
    ("p_out_on_opening", "chance per hand", "Hand won by going out on the opening (x2)",
     False, False, "Chance a hand is won by going out in the opening turn, which doubles "
     "every other seat's penalty (R12)."),
    ("p_void", "chance per deal (logit scale)", "Void deals: the stock ran out twice (R13)",
     True, "logit",
     "Share of deals that are void (the stock ran out twice) and must be dealt again."),
    ("mean_attempts", "deals per scored hand (log scale)",
     "Deals until a hand is scored (void ones dealt again, R13)", True, True,
     "Mean number of deals until a hand is scored."),
    ("loser_penalty", "mean penalty (points)", "Penalty of the seats that did not go out",
     True, False, "Mean penalty of the seats that did not go out (points)."),
]:
    plots.show(plots.difficulty(table, col, label, title, lower_is_better=lower, log=log),
               out, f"difficulty_{col}",
               cap + " Squares: the article's larger pack at 5-6 players; 95% intervals.")

# %%
void_ranks = A.rank_intervals(
    {(r.hand, r.series): r.p_void for r in table.itertuples()},
    {(r.hand, r.series): A.draws_from_interval(r.p_void, r.p_void_lo, r.p_void_hi, 1000, i)
     for i, r in enumerate(table.itertuples())})
worst = [k for k in A.first_set(void_ranks)]
wv = table.set_index(["hand", "series"]).loc[worst[0]]
text = (f"The void rate is highest in hand {worst[0][0]} at {worst[0][1]} with the card's pack"
        f"{'' if len(worst) == 1 else ' (tied with ' + A.join_words(worst[1:]) + ')'}: "
        f"{plots.pct_ci(wv['p_void'], wv['p_void_lo'], wv['p_void_hi'])} of deals are void, "
        f"so a scored hand takes "
        + plots.num_ci(wv["mean_attempts"], wv["mean_attempts_lo"], wv["mean_attempts_hi"], 0)
        + " deals on average.")
big = table[(table["pack"] == "by-table") & (table["hand"] == worst[0][0])
            & (table["players"] == int(str(worst[0][1]).split()[0]))]
if len(big):
    b = big.iloc[0]
    text += (f" With the article's {decks[int(b['players'])]} decks it is "
             f"{plots.pct_ci(b['p_void'], b['p_void_lo'], b['p_void_hi'])}.")
display(Markdown(text))
headlines.append(text)
dbl = {h: four.loc[h, "p_out_on_opening"] for h in four.index}
dr = {h: A.draws_from_interval(four.loc[h, "p_out_on_opening"],
                               four.loc[h, "p_out_on_opening_lo"],
                               four.loc[h, "p_out_on_opening_hi"], 1000, h) for h in four.index}
most, least = A.rank_intervals(dbl, dr), A.rank_intervals(dbl, dr, higher_first=False)
hm, hl = A.first_set(most)[0], A.first_set(least)[0]


def dbl_text(h):
    r = four.loc[h]
    return plots.pct_ci(r["p_out_on_opening"], r["p_out_on_opening_lo"],
                        r["p_out_on_opening_hi"])


def with_value(ranks, h):
    if len(A.first_set(ranks)) == 1:
        return f"{A.first_phrase(ranks)} ({dbl_text(h)})"
    return f"{A.first_phrase(ranks)}; hand {h}: {dbl_text(h)}"


display(Markdown(
    f"At {P4} players a hand is won on the opening (doubling every penalty) most often in "
    f"{with_value(most, hm)}, and least often in {with_value(least, hl)}."))

# %% [markdown]
# ### The numbers behind the charts

# %%
table.to_csv(out / "contract_difficulty.csv", index=False)
plots.details(pd.DataFrame({
    "table": table["series"], "contract": [f"{h}: {LABEL[h]}" for h in table["hand"]],
    "scored hands": [f"{n:,}" for n in table["hands"]],
    "won on the opening": [plots.pct_ci(r.p_out_on_opening, r.p_out_on_opening_lo,
                                        r.p_out_on_opening_hi) for r in table.itertuples()],
    "void deals": [plots.pct_ci(r.p_void, r.p_void_lo, r.p_void_hi)
                   for r in table.itertuples()],
    "deals per scored hand": [plots.num_ci(r.mean_attempts, r.mean_attempts_lo,
                                           r.mean_attempts_hi) for r in table.itertuples()],
    "losers' penalty (points)": [plots.num_ci(r.loser_penalty, r.loser_penalty_lo,
                                              r.loser_penalty_hi) for r in table.itertuples()],
}), "Every contract, player count and pack", csv="contract_difficulty.csv")

# %% [markdown]
# ## Seat advantage

# %%
sa = A.seat_advantage(df[df["pack"] == "card"])
sa.to_csv(out / "seat_advantage.csv", index=False)
plots.show(plots.seat_advantage(sa), out, "seat_advantage",
           "Chance of going out by position after the dealer (1 plays first), all nine "
           "contracts pooled, the card's pack; dotted lines: an even share; 95% intervals.")
sa4 = sa[sa["players"] == P4].set_index("position")
sr = A.rank_intervals(dict(sa4["p"]), {k: A.draws_from_interval(r.p, r.lo, r.hi, 1000, int(k))
                                       for k, r in sa4.iterrows()})
b = sa4.loc[A.first_set(sr)[0]]
text = (f"At {P4} players the seat most likely to go out is {A.first_phrase(sr, 'position')} "
        f"after the dealer, the first to play (position {A.first_set(sr)[0]}: "
        + plots.pct_ci(b["p"], b["lo"], b["hi"]) + f"), against an even share of {1 / P4:.0%}.")
display(Markdown(text))
headlines.append(text)

# %% [markdown]
# ## How precise are these numbers?

# %%
full = table[table["hands"] >= plots.THIN]
thin = table[table["hands"] < plots.THIN]
w = {"won on the opening (percentage points)": 100 * (full["p_out_on_opening_hi"]
                                                      - full["p_out_on_opening_lo"]).max(),
     "void share (percentage points)": 100 * (full["p_void_hi"] - full["p_void_lo"]).max(),
     "losers' penalty (points)": (full["loser_penalty_hi"] - full["loser_penalty_lo"]).max(),
     "restricted mean opening turns (turns)": (surv["rmst_hi"] - surv["rmst_lo"]).max(),
     "opening curve (percentage points)": 100 * (curve["hi"] - curve["lo"]).max()}
thin_txt = A.join_words([f"hand {int(r.hand)} at {r.series} ({int(r.hands)} scored)"
                         for r in thin.itertuples()])
display(Markdown(
    "Widest 95% intervals (full widths) over the cells with at least "
    f"{plots.THIN:,} scored hands: " + "; ".join(f"{k} {v:.2g}" for k, v in w.items())
    + ". The seats of one deal share the cards, so per-seat figures use intervals with the "
    "deal as the unit (cluster-robust, or a bootstrap over deals)."
    + (f" Thin cells, drawn hollow: {thin_txt}; their void rates are measured as precisely "
       "as the rest." if len(thin) else "")))
_ = (out / "contract_difficulty.headlines.json").write_text(
    json.dumps(headlines, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
