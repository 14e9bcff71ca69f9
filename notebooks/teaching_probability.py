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
# Lessons for a class, each starting from a question a Kalooki player asks. Where the answer
# can be counted exactly we count it; beside it we simulate, so the two can be compared; each
# lesson has a chart and an exercise: try it first, then click "Worked answer" to see the
# answer the notebook computed and checked. Every question draws from its own random stream,
# so the checks are independent.

# %% tags=["parameters"]
deals = 1_000_000  # simulated deals per question
seed = 11
paths = 200  # independent runs in the lesson on confidence intervals
out_dir = "../reports"

# %%
import html
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
from IPython.display import HTML, Markdown, display
from scipy import stats

import kalooki_sim as ks
from kalooki_sim import analysis as A
from kalooki_sim.analysis import _exact  # the rank-by-rank count for any pack (exercise 1)
from kalooki_sim.report import plots

out = Path(out_dir)
out.mkdir(parents=True, exist_ok=True)


def stream(i: int) -> int:
    """The seed of question ``i``: its own stream, derived from the notebook's seed."""
    return int(np.random.SeedSequence([seed, i]).generate_state(1)[0])


def check(ok: bool, what: str, steps=()):
    """Show the exercise's worked solution (``steps``, computed from this page's numbers) and
    its result behind a click (``<details>``); fail the page if the result is wrong."""
    head = "Checked" if ok else "Check failed"
    worked = "".join(f"<li>{html.escape(x)}</li>" for x in steps)
    display(HTML("<details><summary><b>Worked answer</b> (click to open)</summary>"
                 + (f"<ol>{worked}</ol>" if worked else "")
                 + f"<p><b>{head}:</b> {html.escape(what)}</p></details>"))
    assert ok, what


# the sizes of every lesson, from the parameters (stated on the page)
n_outs = min(deals, 200_000)  # simulated draws per number of draws, lesson 2
n_path = min(deals, 20_000)  # deals per independent run, lesson 3
n_pair = max(200, min(deals // 250, 4000))  # deal sequences, lesson 4
n_dec = max(20, min(deals // 10_000, 150))  # deals searched for calls, lesson 5
n_rev = max(40, min(deals // 5_000, 200))  # paired rollouts per decision, lesson 6
plots.table(sizes := pd.DataFrame({
    "lesson": ["1. Counting a deal exactly", "2. Outs and the hypergeometric law",
               "3. What a confidence interval promises", "4. Comparing on the same deals",
               "5. The expected value of a call", "6. Reading a game review"],
    "simulated deals": [f"{deals:,} per question, 4 questions",
                        f"{n_outs:,} per number of draws, 10 numbers",
                        f"lesson 1's deals, then {paths} runs of {n_path:,}",
                        f"{n_pair:,} deal sequences x 3 ways of playing",
                        f"{n_dec:,} deals, every chance to call played both ways",
                        f"one hand; {n_rev:,} sampled deals of the hidden cards per decision"]}),
    "How many deals each lesson uses")
sizes.to_csv(out / "teaching_sizes.csv", index=False)


# %% [markdown]
# ## Lesson 1. "Does my deal already hold the contract?" Counting a deal exactly
#
# A group needs three cards of one rank with at least two naturals (R3). For a contract of
# groups only, all that matters is how many cards of each rank you hold and how many jokers:
# a deal lays *g* groups exactly when (ranks with three or more naturals) + min(ranks with
# exactly two, jokers) ≥ *g*. Counting the deals rank by rank (13 ranks of 8 cards and 4
# jokers, 108 cards) gives the exact chance as a fraction. Then we deal millions of hands.

# %%
questions = [
    ("9 cards hold at least 1 group", 1, 9),
    ("9 cards hold 2 groups", 2, 9),
    ("9 cards hold 3 groups (hand 1)", 3, 9),
    ("12 cards hold 4 groups (hand 5)", 4, 12),
]
rows, sims = [], {}
for i, (label, g, cards) in enumerate(questions):
    exact = A.p_deal_lays_groups(g, cards)
    hits = A.simulate_deals(deals, (g, 0), cards, seed=stream(i))
    p, lo, hi = A.wilson(hits.sum(), hits.size)
    sims[label] = (hits, exact)
    rows.append({"question": label, "exact": float(exact), "exact_fraction": str(exact),
                 "simulated": float(p), "lo": float(lo), "hi": float(hi), "deals": deals,
                 "covered": bool(lo <= exact <= hi)})
table = pd.DataFrame(rows)
table.to_csv(out / "teaching_exact_vs_simulated.csv", index=False)
plots.table(pd.DataFrame({
    "question": table["question"],
    "exact, as a fraction": table["exact_fraction"],
    "exact": [(plots.pct(x) if x >= 1e-3 else plots.one_in(x)) for x in table["exact"]],
    "simulated": [(plots.pct_ci(r.simulated, r.lo, r.hi) if r.simulated >= 1e-3 else
                   plots.one_in(r.simulated, r.lo, r.hi, r.deals))
                  for r in table.itertuples()],
    "interval holds the exact value": ["yes" if c else "no" for c in table["covered"]],
}), f"Exact against {deals:,} simulated deals per question")
plots.show(plots.exact_vs_simulated(table["question"], table["exact"], table["simulated"],
                                    table["lo"], table["hi"],
                                    "A fresh deal lays groups: exact and simulated"),
           out, "teaching_exact_vs_simulated",
           "Exact chances (diamonds) and simulated estimates with 95% intervals. The axis is "
           "logarithmic: the rare events (hand 1, hand 5) would be invisible next to the "
           "common ones on a linear scale.")
n_cov = int(table["covered"].sum())
display(Markdown(
    f"The 95% interval of the simulation holds the exact value in {n_cov} of {len(table)} "
    f"questions (independent streams: with 95% intervals about one in twenty may miss). A "
    f"deal of nine cards already holds hand 1's three groups with probability "
    f"{plots.pct(table['exact'].iat[2])}: about one deal in "
    f"{1 / table['exact'].iat[2]:,.0f}."))

# %% [markdown]
# **Exercise 1.** A toy pack has 3 ranks of 4 cards and 2 jokers (14 cards). What is the
# chance that 5 cards dealt from it hold at least one group? Count it by listing every deal
# (there are C(14, 5) = 2,002 of them), then compare with the rank-by-rank count.

# %%
pack = [(r, c) for r in range(3) for c in range(4)] + [("JK", j) for j in range(2)]
good = 0
for deal in itertools.combinations(pack, 5):
    counts = [sum(1 for r, _ in deal if r == k) for k in range(3)]
    jokers = sum(1 for r, _ in deal if r == "JK")
    good += sum(n >= 3 for n in counts) + min(sum(n == 2 for n in counts), jokers) >= 1
answer = Fraction(good, 2002)
check(answer == _exact._group_deal_fraction(1, 5, 3, 4, 2),
      f"listing all 2,002 deals gives {answer} = {float(answer):.4f}, the same as counting "
      "rank by rank.",
      ["A deal holds a group when some rank has 3 or 4 of its cards, or a rank has 2 and a "
       "joker stands in for the third.",
       f"List all C(14, 5) = 2,002 deals of 5 cards and test each: {good:,} of them hold a "
       "group.",
       f"The chance is {good:,} / 2,002 = {answer} ≈ {float(answer):.4f} (every deal is "
       "equally likely).",
       "Rank by rank: for each way to split the 5 cards among the 3 ranks and the jokers, "
       "multiply the ways to choose them (C(4, n) per rank, C(2, j) for the jokers), and add "
       "the splits that hold a group; it gives the same fraction."])

# %% [markdown]
# ## Lesson 2. "How many outs do I have?" The hypergeometric law on a real hand
#
# An *out* is a card that brings your contract one card closer. Take a real nine-card deal
# for hand 1 (three groups): K♠ K♥ Q♠ Q♥ 6♠ 6♥ 6♦ 2♣ 9♦. The engine counts what it still
# needs (`ks.cards_needed`) and which cards help (`ks.outs`, with the copies you have not
# seen). With *u* unseen cards of which *k* are outs, the chance that at least one of your
# next *d* draws is an out is 1 − C(u − k, d) / C(u, d).

# %%
hand = "K♠ K♥ Q♠ Q♥ 6♠ 6♥ 6♦ 2♣ 9♦"
need = ks.cards_needed(hand, 1)
o = ks.outs(hand, 1)
k = int(o["unseen"].sum())
unseen = 108 - 9
o.to_csv(out / "teaching_outs_of_hand.csv", index=False)
plots.table(pd.DataFrame({"card": o["card"], "copies unseen": o["unseen"],
                          "cards still needed after it": o["needed_after"]}),
            f"Outs of {hand} for hand 1 (needs {need} more cards)")
draws = np.arange(1, 11)
exact = [A.p_outs(k, unseen, d) for d in draws]
sim = [A.simulate_outs(k, unseen, int(d), n_outs, seed=stream(10 + d))
       for d in draws]
ci = [A.wilson(s.sum(), s.size) for s in sim]
outs_table = pd.DataFrame({"outs": k, "unseen": unseen, "draws": draws, "exact": exact,
                           "simulated": [c[0] for c in ci], "lo": [c[1] for c in ci],
                           "hi": [c[2] for c in ci]})
outs_table.to_csv(out / "teaching_outs.csv", index=False)
plots.show(plots.outs_by_draws(draws, exact, outs_table["simulated"], outs_table["lo"],
                               outs_table["hi"], f"{k} outs among {unseen} unseen cards"),
           out, "teaching_outs",
           f"Chance that at least one of the {k} outs of {hand} comes within the next draws "
           "(only draws from the stock; the pile and calls would add chances).")
plots.table(pd.DataFrame({
    "draws": draws,
    "exact, 1 − C(u − k, d) / C(u, d)": [f"{x:.4f}" for x in exact],
    "simulated [95%]": [plots.pct_ci(r.simulated, r.lo, r.hi) for r in outs_table.itertuples()]}),
    f"At least one of {k} outs among {unseen} unseen cards within d draws: exact and "
    f"simulated ({n_outs:,} deals per number of draws)")
display(Markdown(
    f"The hand needs {need} more cards and has **{k} outs** (the unseen copies of "
    f"{A.join_words(o['card'])}) among {unseen} unseen cards. The very next draw "
    f"is an out with probability {plots.pct(exact[0])}; within five draws "
    f"{plots.pct(exact[4])} "
    f"(simulated {plots.pct_ci(ci[4][0], ci[4][1], ci[4][2])})."))

# %% [markdown]
# **Exercise 2.** With the same hand, what is the chance that *none* of the next three draws
# is an out? Work it out as a product of fractions, one draw at a time.

# %%
answer = Fraction(unseen - k, unseen) * Fraction(unseen - k - 1, unseen - 1) * Fraction(
    unseen - k - 2, unseen - 2)
check(abs(float(answer) - stats.hypergeom.pmf(0, unseen, k, 3)) < 1e-12
      and abs(1 - float(answer) - exact[2]) < 1e-12,
      f"({unseen - k}/{unseen})({unseen - k - 1}/{unseen - 1})({unseen - k - 2}/{unseen - 2}) "
      f"= {float(answer):.4f}, the hypergeometric chance of no out in "
      "three draws, and 1 minus it is the chance above.",
      [f"{unseen} cards are unseen and {k} of them are outs, so {unseen - k} are not.",
       f"The first draw misses with probability {unseen - k}/{unseen}; given that, {unseen - 1} "
       f"cards remain, {unseen - k - 1} of them misses, so the second misses with "
       f"{unseen - k - 1}/{unseen - 1}; the third with {unseen - k - 2}/{unseen - 2}.",
       f"Multiply: {answer} ≈ {float(answer):.4f}.",
       f"At least one out in three draws is the complement, 1 − {float(answer):.4f} = "
       f"{1 - float(answer):.4f}: the exact value for 3 draws in the table above, "
       f"1 − C({unseen - k}, 3) / C({unseen}, 3) = {exact[2]:.4f}."])

# %% [markdown]
# ## Lesson 3. "Can I trust the simulation?" What a confidence interval promises
#
# The law of large numbers says the running share of deals that hold a group settles on the
# exact value. A 95% interval promises less than it seems: *at one number of deals fixed in
# advance*, the interval holds the true value 95% of the time. Watch the running interval as
# it grows and it can stay on the wrong side for a long while, because each estimate shares
# almost all its deals with the one before. A **confidence sequence** is built to hold at every
# number of deals at once (with 95% probability over the whole run), so you may watch it and
# stop whenever you like; the price is width.

# %%
conv_all = {}
for label, (hits, exact) in sims.items():
    conv = A.confidence_sequence(hits, points=60)
    conv["exact"] = float(exact)
    conv["covers"] = (conv["lo"] <= float(exact)) & (float(exact) <= conv["hi"])
    conv["cs_covers"] = (conv["cs_lo"] <= float(exact)) & (float(exact) <= conv["cs_hi"])
    slug = label.split(" (")[0].replace(" ", "_")
    conv.to_csv(out / f"convergence_{slug}.csv", index=False)
    conv_all[label] = conv
lab = questions[0][0]
conv = conv_all[lab]
miss = ~conv["covers"].to_numpy()
run = max((len(list(g)) for m, g in itertools.groupby(miss) if m), default=0)
plots.show(plots.convergence(conv, f"Running estimate: {lab}"), out,
           "convergence_9_cards_hold_at_least_1_group",
           "The running share of deals holding a group (blue), its pointwise 95% interval "
           "(band), the 95% confidence sequence (dash-dot) and the exact value (dashed); "
           "crosses mark checkpoints where the pointwise interval misses.")
display(Markdown(
    f"In this run the pointwise interval misses the exact value at {int(miss.sum())} of "
    f"{len(conv)} checkpoints, at most {run} in a row"
    + (" — not a bug: the checkpoints share their deals, so one unlucky stretch early on "
       "keeps the running estimate off for a while. " if run > 1 else ". ")
    + f"The confidence sequence misses at {int((~conv['cs_covers']).sum())}."))

# %%
# many independent runs: how often does each band miss *somewhere* along the way?
p_true = float(A.p_deal_lays_groups(1, 9))
ever_pw = ever_cs = fixed = 0
for j in range(paths):
    hits = A.simulate_deals(n_path, (1, 0), 9, seed=stream(1000 + j))
    c = A.confidence_sequence(hits, points=40)
    pw_miss = (c["lo"] > p_true) | (c["hi"] < p_true)
    ever_pw += bool(pw_miss.any())
    ever_cs += bool(((c["cs_lo"] > p_true) | (c["cs_hi"] < p_true)).any())
    fixed += bool(~pw_miss.iat[-1])
_, fl, fh = A.wilson(fixed, paths)
_, pl, ph = A.wilson(ever_pw, paths)
_, cl, ch = A.wilson(ever_cs, paths)
pd.DataFrame({"event": ["holds at the last checkpoint", "pointwise misses somewhere",
                        "sequence misses somewhere"], "runs": paths,
              "count": [fixed, ever_pw, ever_cs], "share": [fixed / paths, ever_pw / paths,
                                                            ever_cs / paths],
              "lo": [fl, pl, cl], "hi": [fh, ph, ch]}).to_csv(out / "teaching_runs.csv",
                                                              index=False)
plots.table(pd.DataFrame({
    "over independent runs of the simulation": [
        f"pointwise interval holds at the last checkpoint ({n_path:,} deals)",
        "pointwise interval misses somewhere along the run",
        "confidence sequence misses somewhere along the run"],
    f"share of {paths} runs": [plots.pct_ci(fixed / paths, fl, fh),
                               plots.pct_ci(ever_pw / paths, pl, ph),
                               plots.pct_ci(ever_cs / paths, cl, ch)]}),
    "What each interval promises")
pw_txt = (f"misses somewhere in more than 5% of runs ({plots.pct_ci(ever_pw / paths, pl, ph)})"
          if pl > 0.05 else f"misses somewhere in {plots.pct_ci(ever_pw / paths, pl, ph)} of "
          f"runs: at {paths} runs that is not clearly more than 5%")
cs_txt = ("keeps its promise over the whole run" if cl <= 0.05 else
          "misses more often than its promise here")
display(Markdown(
    f"Over {paths} runs of {n_path:,} deals: the pointwise interval, watched along the way, "
    f"{pw_txt}; the confidence sequence misses somewhere in "
    f"{plots.pct_ci(ever_cs / paths, cl, ch)} of runs: it {cs_txt}."))

# %% [markdown]
# **Exercise 3.** If a 95% interval really holds 95% of the time at a fixed number of deals,
# how many of the runs above should hold at the last checkpoint, give or take? Use the
# binomial law: the number is Binomial(runs, 0.95).

# %%
lo_ok, hi_ok = stats.binom.ppf([0.0005, 0.9995], paths, 0.95)
check(lo_ok <= fixed <= hi_ok,
      f"{fixed} of {paths} runs held at the fixed checkpoint; Binomial({paths}, 0.95) puts "
      f"99.9% of its mass between {lo_ok:.0f} and {hi_ok:.0f}.",
      [f"Each run's interval at its last checkpoint holds with probability 0.95, and the "
       f"runs are independent, so the number that hold is Binomial({paths}, 0.95).",
       f"Its mean is {paths} × 0.95 = {0.95 * paths:.1f}; its standard deviation "
       f"√({paths} × 0.95 × 0.05) = {np.sqrt(paths * 0.95 * 0.05):.1f}.",
       f"So about {0.95 * paths:.0f} runs should hold, give or take "
       f"{2 * np.sqrt(paths * 0.95 * 0.05):.0f} (two standard deviations); 99.9% of the law "
       f"lies between {lo_ok:.0f} and {hi_ok:.0f}.",
       f"Here {fixed} held."])

# %% [markdown]
# ## Lesson 4. "Is calling better?" Comparing on the same deals
#
# To compare two ways of playing, play both on the same deals. The luck of the deal then
# cancels in the difference, and the interval narrows; how much depends on how often the two
# ways of playing actually differ. Here seat 0 plays hand 2 against three greedy players,
# either never calling, or calling once (`call-1`), or calling only a card that gains two
# steps at once (`call-3, gain 2`, a rare event).

# %%
t, res = A.call_value(n_pair, 2, policies={"never": ks.preset("never-call"),
                                           "call-1": ks.preset("call-1"),
                                           "call-3, gain 2": A.CALL_POLICIES["call-3, gain 2"]},
                      seed=stream(99), n_boot=200, return_outcomes=True)
t = t.set_index("policy")
pair_rows, pair_csv, widths = [], [], {}
for name in ("call-1", "call-3, gain 2"):
    a, b = res[name]["penalty"], res["never"]["penalty"]
    common = a.index.intersection(b.index)
    a, b = a.loc[common].to_numpy(), b.loc[common].to_numpy()
    m, plo, phi, _ = A.mean_ci(a - b)
    _, ulo, uhi = A.welch_diff(a, b)
    widths[name] = (phi - plo, uhi - ulo, t.loc[name, "vr_penalty"])
    r = t.loc[name]
    pair_csv.append({"policy": name, "calls": r["calls"], "d_penalty": m, "paired_lo": plo,
                     "paired_hi": phi, "independent_lo": ulo, "independent_hi": uhi,
                     "vr_penalty": r["vr_penalty"], "vr_penalty_lo": r["vr_penalty_lo"],
                     "vr_penalty_hi": r["vr_penalty_hi"], "deal_sequences": len(common)})
    pair_rows.append({
        "policy against never calling": f"{name} ({r['calls']:.2f} calls per hand)",
        "paired on the same deals": plots.num_ci(m, plo, phi, 1, True),
        "as if the deals were independent": plots.num_ci(m, ulo, uhi, 1, True),
        "variance ratio": plots.num_ci(r["vr_penalty"], r["vr_penalty_lo"],
                                       r["vr_penalty_hi"], 2)})
pd.DataFrame(pair_csv).to_csv(out / "teaching_pairing.csv", index=False)
plots.table(pd.DataFrame(pair_rows),
            f"Hand 2, change in penalty, points per hand ({len(common):,} deal sequences)")
rare, often = sorted(("call-1", "call-3, gain 2"), key=lambda n: t.loc[n, "calls"])
more = "more" if t.loc[rare, "vr_penalty"] > t.loc[often, "vr_penalty"] else "less"
display(Markdown(
    "The variance ratio says by how much pairing divides the variance of the difference: "
    "the same precision from that many times fewer deals. On a deal where the policy makes no "
    "call it plays the same hand as never calling and the difference is exactly zero; here "
    f"`{rare}`, which calls less often ({t.loc[rare, 'calls']:.2f} calls per hand against "
    f"{t.loc[often, 'calls']:.2f}), gains {more} from pairing."))

# %% [markdown]
# **Exercise 4.** The interval's width scales with the standard error, so the paired width
# should be about the independent width divided by the square root of the variance ratio.
# Check it for `call-1`.

# %%
pw, uw, vr1 = widths["call-1"]
pred = uw / np.sqrt(vr1)
check(abs(pred - pw) / pw < 0.05,
      f"independent width {uw:.2f} / √{vr1:.2f} = {pred:.2f}, the paired width {pw:.2f} "
      "(within 5%; the t quantiles differ slightly).",
      [f"For call-1 the interval as if the deals were independent is {uw:.2f} points wide, "
       f"and the variance ratio (independent over paired variance) is {vr1:.2f}.",
       "A 95% interval's width is a fixed multiple of the standard error, which is the "
       "square root of the variance over the number of deals; the deals are the same, so "
       "the widths scale as the square roots of the variances.",
       f"Paired width ≈ {uw:.2f} / √{vr1:.2f} = {uw:.2f} / {np.sqrt(vr1):.2f} = {pred:.2f}.",
       f"The measured paired width is {pw:.2f}: {abs(pred - pw) / pw:.1%} apart."])

# %% [markdown]
# ## Lesson 5. "Is this call worth it?" The expected value of a call
#
# A call is a gamble: the two cards it adds may help you go out, or be caught in your hand.
# Its *expected value* is the average, over everything that could follow, of (your penalty if
# you call) minus (your penalty if you pass). `kalooki_sim.call_decisions` measures exactly
# that: at every chance to call in a deal it plays the hand on both ways from that moment,
# with the same cards to come for every seat, and records the difference `d_penalty`. Below,
# hand 2 (two groups and a run), four `expert` players; the unit of every interval is the deal.

# %%
from kalooki_sim.analysis import value_map  # noqa: E402

dec = ks.call_decisions(n_dec, 2, policies="expert", seed=stream(5))
calls = dec[(dec["decision"] == "call") & dec["needed_after"].notna()].copy()
calls["the card"] = np.where((calls["needed_before"] - calls["needed_after"]).fillna(0) >= 1,
                             "cuts the cards still needed", "does not")
ev = value_map(calls, "the card")
overall = value_map(calls.assign(all="every call"), "all")
pd.concat([ev, overall.rename(columns={"all": "the card"})]).to_csv(
    out / "teaching_call_value.csv", index=False)
plots.table(pd.DataFrame({
    "the called card": list(ev["the card"]) + ["any"],
    "share of chances": [plots.pct(x) for x in ev["decisions"] / len(calls)] + ["100%"],
    "expected change in penalty (call − pass)": [
        plots.num_ci(r.d_penalty, r.d_penalty_lo, r.d_penalty_hi, 1, True)
        for r in pd.concat([ev, overall]).itertuples()],
}), f"Hand 2, {len(calls):,} chances to call in {n_dec} deals")

# %% [markdown]
# **Exercise 5.** The law of total expectation: the expected value over every chance to call is
# the average of the two cases' expected values, each weighted by how often it happens,
# E[D] = P(helps)·E[D | helps] + P(does not)·E[D | does not]. Check it on the table.

# %%
weighted = float((ev["d_penalty"] * ev["decisions"]).sum() / ev["decisions"].sum())
check(abs(weighted - overall["d_penalty"].iat[0]) < 1e-9,
      f"weighted average of the two cases {weighted:.3f} = the mean over every chance "
      f"{overall['d_penalty'].iat[0]:.3f} points.",
      [f"Of the {int(ev['decisions'].sum()):,} chances to call, "
       + " and ".join(f"{int(r.decisions):,} ({r.decisions / ev['decisions'].sum():.3f}) "
                      f"where the card {r[1]}, with mean {r.d_penalty:+.3f} points"
                      for r in ev.itertuples()) + ".",
       "E[D] = " + " + ".join(f"{r.decisions / ev['decisions'].sum():.3f} × "
                              f"({r.d_penalty:+.3f})" for r in ev.itertuples())
       + f" = {weighted:+.3f} points.",
       f"The mean of D over every chance to call is {overall['d_penalty'].iat[0]:+.3f}: "
       "the same, since both are the sum of every D over the number of chances."])
helps = ev.set_index("the card").loc["cuts the cards still needed"]
display(Markdown(
    f"A card that brings the contract closer changes the caller's penalty by "
    f"{helps['d_penalty']:+.1f} points on average (95% interval {helps['d_penalty_lo']:+.1f} "
    f"to {helps['d_penalty_hi']:+.1f}); the page *Should I call this card, now?* maps this by "
    "contract, stock and card."))

# %% [markdown]
# ## Lesson 6. "Was that a good call?" Reading a game review
#
# `kalooki_sim.review` replays one seat's hand and, at each chance to take or call, asks the
# advisor what each choice was worth *from what that seat could see then*: its own cards and
# the public history (the pile, the table, what each opponent took or called), never the hidden
# cards. The advisor deals the unseen cards at random many times, consistently with what was
# seen, and plays each sample both ways. The value is your penalty minus the table's mean
# (doubles counted; lower is better). A verdict is a statement of confidence: **good** when the
# 95% interval of (taken minus the other choice) lies wholly on the side of the choice made,
# **mistake** when it lies wholly on the other side, **close** when it holds zero (the review's
# `verdict_95`; its `verdict` reads all the hand's decisions at once, with Holm's adjustment,
# so that one lucky interval among many is not called a mistake).

# %%
def review_ci(r) -> str:
    """A review row's act − not with its interval, in tenths of a point whatever the width:
    rounded to tens, an end moved by up to 5 points and an interval that just excludes zero
    read as one that holds it (exercise 6 reads them)."""
    return plots.num_ci(r.d_value, r.d_value_lo, r.d_value_hi, 1, True, at_least=1)


rev_trace = ks.trace(seed=stream(6), game=0, hand=2, policies="expert")
rev = ks.review(rev_trace, 0, rollouts=n_rev, seed=stream(7), discards=False)  # takes and calls: act or not
rev.to_csv(out / "teaching_review.csv", index=False)
plots.table(pd.DataFrame({
    "turn": rev["turn"], "decision": rev["decision"], "card": rev["card"],
    "cards needed (before → after)": [
        f"{'-' if pd.isna(a) else int(a)} → {'-' if pd.isna(b) else int(b)}"
        for a, b in zip(rev["needed_before"], rev["needed_after"], strict=True)],
    "what the seat did": rev["action"],
    "act − not, points (95% interval)": [review_ci(r) for r in rev.itertuples()],
    "verdict": rev["verdict_95"]}),
    f"Seat 0's {len(rev)} decisions in one hand 2 (four expert players), {n_rev:,} paired "
    "rollouts each")
counts = rev["verdict_95"].value_counts()
display(Markdown(
    f"Of seat 0's {len(rev)} decisions, {counts.get('good', 0)} "
    f"{'was' if counts.get('good', 0) == 1 else 'were'} **good**, "
    f"{counts.get('close', 0)} **close** and "
    f"{plots.count(int(counts.get('mistake', 0)), '**mistake**', '**mistakes**')} at this "
    f"many rollouts. More rollouts narrow every interval: some close calls become good or "
    "mistakes, a good one never turns into a mistake unless the first interval missed."))

# %% [markdown]
# **Exercise 6.** Recompute every verdict of the table from its interval: the seat acted
# when *what the seat did* is take or call; acting is better when the whole interval of
# *act − not* lies below zero, not acting when it lies above. (The numbers unrounded are in
# `teaching_review.csv`: `action`, `d_value`, `d_value_lo`, `d_value_hi`, `verdict_95`.)

# %%
acted = rev["action"].isin(["take", "call"])
better_act = rev["d_value_hi"] < 0
better_not = rev["d_value_lo"] > 0
mine = np.where((acted & better_act) | (~acted & better_not), "good",
                np.where((acted & better_not) | (~acted & better_act), "mistake", "close"))
ex = rev.iloc[int(np.argmax(mine != "close"))] if (mine != "close").any() else rev.iloc[0]
ex_acted = ex["action"] in ("take", "call")


def better_text(r):
    return "acting" if r["d_value_hi"] < 0 else "not acting" if r["d_value_lo"] > 0 else "neither"


check(bool((mine == rev["verdict_95"].to_numpy()).all()),
      f"all {len(rev)} verdicts follow from their intervals "
      f"({', '.join(f'{k} {v}' for k, v in counts.items())}).",
      ["Read each row's interval of act − not: wholly below zero, acting was better; wholly "
       "above, not acting was; holding zero, the rollouts cannot tell (close).",
       "Compare with what the seat did (take or call = acted; draw or pass = did not): the "
       "better choice made is good, the other one made is a mistake.",
       f"For example turn {int(ex['turn'])}: the seat's {ex['decision']} of {ex['card']}, it "
       f"{'acted' if ex_acted else 'did not act'} ({ex['action']}); act − not is "
       f"{review_ci(ex)}, so "
       f"{better_text(ex)} was clearly better: {ex['verdict_95']}.",
       f"Doing this for all {len(rev)} rows gives the table's verdicts."])

# %%
import json  # noqa: E402

h1 = table.iloc[2]
_ = (out / "teaching_probability.headlines.json").write_text(json.dumps([
    f"A fresh nine-card deal already holds hand 1's three groups with probability exactly "
    f"{h1['exact_fraction']} ≈ {plots.pct(h1['exact'])}, about one deal in "
    f"{1 / h1['exact']:,.0f} (simulated: {plots.pct_ci(h1['simulated'], h1['lo'], h1['hi'])}).",
    f"A 95% interval watched as a simulation runs misses the truth somewhere in "
    f"{plots.pct_ci(ever_pw / paths, pl, ph)} of runs; an always-valid confidence sequence in "
    f"{plots.pct_ci(ever_cs / paths, cl, ch)}.",
], indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
