"""Should I call? A position advisor.

A player types in one situation: their hand, the card just discarded, where the discarder
sits, the stock left, their calls so far, who has opened and what is on the table. The advisor
deals the cards the player cannot see at random, consistently with all that (each sample is a
full legal table), plays every sample on both ways with the same cards and the same later
random draws, and compares: the paired difference is the decision's value, with an interval.
Like a poker equity calculator it can stop early at a target interval width or a time limit.

What a player saw at the table is used: the cards each opponent took or called and
still holds (``known``), the opponents' hand sizes, the discards in order and whether the stock
was reshuffled (R13). What it optimises is a choice: its own penalty, or its penalty against
the table's mean (doubles counted), which is what decides a game (R12, R14).

How the rollouts read the table: the hidden cards (the stock, the opponents' unknown cards, any
discards not listed) are dealt at random given the situation, then each unopened opponent's
past turns are replayed (``past_turns``) and, with a history, a short chain of swaps of hidden
cards draws the hands from the posterior given what the table did
(:func:`kalooki_sim.engine._kernels.history.posterior_chain`: the uniform deal times the
likelihood of the opponents' events under the model, Metropolis-Hastings, nothing tempered).
Each sample is its own chain from its own streams, so the samples are independent and carry
equal weights: the estimates are plain means and the effective sample size (``Advice.ess``) is
the samples; ``Advice.acceptance`` is the chains' acceptance rate, their diagnostic. When the
history covers no seat's turns (no chain runs: e.g. only the passes the offer implies), its
events weigh each sample by their likelihood instead (importance weights, tempered only if
they collapse), and the effective sample size tells what the weighted samples are worth. The hand
at the time of an event is approximated from the hand now (the later discards given back,
later takes and calls and one random unknown card per later draw taken away), and the rest of
the table as it is now.

With what the table did: seat 3 discarded 9♣, you passed on it, seat 2 drew and discarded
the 6♦ now offered (seat 1, next, passed on it). The 9♣ lies in the pile (it leaves the
hidden cards), seat 2's draw comes off the stock, and the four opponents' events weigh
the sampled hands:

>>> import kalooki_sim as ks
>>> h = [(3, "discard", "9♣"), (0, "pass", "9♣"), (2, "draw"), (2, "discard", "6♦")]
>>> b = ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=2, history=h,
...               rollouts=200, policies="greedy", seed=1)
>>> b.situation["seen"], b.situation["stock_left"], b.history_events
(['9♣'], 70, 4)
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from .._lib import check_bool, check_choice, check_int, check_real, progress_bar
from .._stats import share_text
from ..engine.kernels import engine as _E
from ..engine.kernels import history as _H
from ..engine.play import defer_players, rules_vector, setup, using_threads
from ..engine.policies import no_search
from ..players.needed import cards_needed, outs
from ._weighted import (  # noqa: F401  (confidence is public here; the rest for the tests)
    RC,
    SEQ_ALPHA,
    _decided,
    _equal,
    _ess_floor,
    _summary,
    _t3,
    _temper,
    confidence,
    per_sample,
    variance_ratio,
)
from .situation import _build, _situation, contract_text  # noqa: F401  (for the tests)

BATCH = 250  # rollouts between checks of the margin and the clock
#: rollouts each chain's sample of the hidden hands is played on (each on a stock order of its
#: own): the chain is most of a rollout's time, and on the bench's 20 takes and calls the
#: rollouts of one sample share little (intra-sample correlation of the paired difference:
#: median 0.025, at most 0.16), so ten of them cost little more than one. Divides BATCH.
SAMPLE_ROLLOUTS = 10
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]

#: what the advisor can optimise, defined for a reader
OBJECTIVES = {
    "relative": "your penalty minus the table's mean penalty, doubles counted: what decides a "
                "game",
    "penalty": "your own hand penalty alone",
}
_WHAT = {"relative": "expected points against the table", "penalty": "expected hand penalty"}

#: the columns of :attr:`Advice.table`, for a reader (printed under the table)
LEGEND = (
    "penalty: your hand penalty, points (R12; doubled when caught). relative: your penalty "
    "minus the table's mean penalty, points (below 0 is good). out: you went out first. "
    "doubled: someone went out on its opening and your penalty was doubled (R12). void: the "
    "stock ran out twice and nobody scored (R13). _lo, _hi: the 95% interval."
)

_ACT = {True: "take", False: "call"}  # by "is the seat next" (R9.1 take, R9.2 call)
_PASS = {True: "draw", False: "pass"}


@dataclass
class Advice:
    """What :func:`advise` found.

    ``table``: one row per action: your expected hand ``penalty``, ``relative`` (penalty minus
    the table's mean penalty), the chance of going ``out`` first, of being caught ``doubled``,
    of the hand ending ``void``, each with its 95% interval (``_lo``, ``_hi``; see
    :data:`LEGEND`). ``difference``: act minus not act, paired (``penalty``, ``relative``,
    ``out``, each with ``_lo``/``_hi`` and ``_p``, the two-sided p-value of the paired t
    test). ``objective``: ``"relative"`` or ``"penalty"``, the difference the advice is read
    from. ``action``: ``"call"``, ``"pass"``, ``"take"``,
    ``"draw"`` or ``"unsure"``. ``confidence``: ``"clearly"`` (the 95% interval of the paired
    difference excludes zero), ``"probably"`` (the one-sided 80% bound does, the 95% interval
    not), or ``"unsure"``. ``needed``: cards still needed and outs without and with the card
    (``needed_before``, ``needed_after``, ``outs_before``, ``outs_after``; None when no card
    that can still come lays the contract). ``recommendation``: the sentence; ``rollouts``:
    paired rollouts played; ``stopped_by``: ``"rollouts"``, ``"margin"``, ``"time_limit"``,
    ``"equal"`` (``decide=True``: the interval at the sequential level lies inside ±2 points) or
    ``"decided"`` (``decide=True``: the sequential rule decided).

    What the table showed is read into the hidden hands: ``history_events``: the
    opponents' events weighed (those typed, and the passes of the seats asked before you);
    ``samples``: the samples of the hidden hands played (a chain's sample is played on
    :data:`SAMPLE_ROLLOUTS` rollouts, each on a stock order of its own; without a chain, one
    each), the unit of every interval; ``ess``: their effective sample size, ``(sum w)^2 /
    sum w^2`` of their weights: the hidden hands are drawn from the posterior by one
    independent chain per sample, so the weights are equal and it is the samples (how close
    each chain's end is to the posterior is what the calibration tests check);
    ``acceptance``: the share of the chains' proposals that changed a card and were accepted
    (NaN without a history: no chain ran);
    ``history_strength``: the power the weights were raised to, 1 unless importance weights (no
    chain ran, module docstring) collapsed and were tempered (``fallback`` then says so);
    ``sample_rollouts``: the rollouts each sample is played on (the last may have fewer);
    ``sampled_ranks``: the mean count per rank (A..K, JK) of each opponent's sampled hand, one
    row per seat to your right. ``variance_ratio``: what the pairing bought this answer, the
    variance of the objective's difference from two unpaired sets of these rollouts over the
    paired one's (:func:`~kalooki_sim.studies._weighted.variance_ratio`; 2 means half the
    rollouts for the same interval).
    """

    table: pd.DataFrame
    difference: dict
    action: str
    recommendation: str
    rollouts: int
    stopped_by: str
    seconds: float
    situation: dict = field(default_factory=dict)
    objective: str = "relative"
    confidence: str = "unsure"
    needed: dict = field(default_factory=dict)
    samples: int = 0
    ess: float = float("nan")
    history_strength: float = 1.0
    fallback: str = ""
    sampled_ranks: pd.DataFrame = field(default_factory=pd.DataFrame)
    history_events: int = 0
    acceptance: float = float("nan")
    variance_ratio: float = float("nan")
    sample_rollouts: int = 1

    def __str__(self) -> str:
        shown = self.table.copy()
        for c in shown.columns:
            if c.startswith(("out", "doubled", "void")):
                shown[c] = (100 * shown[c]).map("{:.1f}%".format)
            elif c.startswith(("penalty", "relative")):
                shown[c] = shown[c].map("{:.1f}".format)
        ev = f"{self.history_events} opponent event{'s' if self.history_events != 1 else ''}"
        chain = ("" if not np.isfinite(self.acceptance) else
                 f", each from its own chain ({self.acceptance:.0%} of the swaps accepted)")
        r, last = self.sample_rollouts, self.rollouts % max(1, self.sample_rollouts)
        each = ("" if self.samples in (0, self.rollouts) else
                f" ({self.rollouts:,} rollouts, {r} on each" + (f", the last {last})" if last
                                                                else ")"))
        read = (f"hidden hands: {ev} read; effective sample "
                f"size {self.ess:,.0f} of {self.samples or self.rollouts:,} samples{each}{chain}"
                + (f" (history at strength {self.history_strength:.2f}: {self.fallback})"
                   if self.fallback else ""))
        read += f"; variance ratio {self.variance_ratio:.1f} against unpaired rollouts"
        return (f"{self.recommendation}\n\nobjective: {self.objective} "
                f"({OBJECTIVES[self.objective]})\n{read}\n\n{shown.to_string(index=False)}"
                f"\n\n{LEGEND}")


def _needed(info, rules):
    """Cards still needed and outs, without and with the card: the out-of-reach cards are those
    on the table, known in an opponent's hand, and the pile once reshuffled (R13)."""
    hand, card, h = info["hand"], info["card"], info["hand_no"]
    seen = info["out_of_reach"]
    out = {}
    for when, cards in (("before", hand), ("after", hand + [card])):
        try:
            o = outs(cards, h, rules, seen=seen)
            out[f"needed_{when}"] = cards_needed(cards, h, rules, seen=seen)
            out[f"outs_{when}"] = int(o.attrs["total"])
        except ValueError:  # no card that can still come lays it
            out[f"needed_{when}"] = out[f"outs_{when}"] = None
    return out


_SURE = {"clearly": "clearly: the 95% interval of the difference excludes zero",
         "probably": "probably: the one-sided 80% bound excludes zero, the 95% interval does not"}
_SURE_SEQ = ("clearly: the sequential test decided, at 5% over all its looks (decide=True)")
SMALL = 1.0  # points: a difference below this is "slight" in words, however sure
LIKELY_VOID = 0.5  # a void share from which the sentence says the hand is likely void (R13)
DOUBLE_SAYS = 0.05  # a change in the chance of being caught doubled the sentence names (R12)


def _why(act_name, verb, diff, table, objective):
    """The clauses that say what decides: the opening double (R12) when its chance moves, own
    points when they go the other way from the points against the table, a likely void
    (R13)."""
    out = []
    if "doubled" in table:
        q_act, q_pass = float(table["doubled"].iat[0]), float(table["doubled"].iat[1])
        if abs(q_act - q_pass) >= DOUBLE_SAYS:
            how = "raises" if q_act > q_pass else "lowers"
            keep = ("passing keeps you out of it more often" if q_act > q_pass else
                    f"{verb} it gets you out of it more often")
            out.append(f"{verb} it {how} your chance of being caught by an opening double "
                       f"(R12: every other hand pays double) from {share_text(q_pass)} to "
                       f"{share_text(q_act)}: {keep}")
    if objective == "relative" and "penalty" in diff:
        dp, dr = diff["penalty"], diff["relative"]
        other = np.sign(dp) != np.sign(dr) and max(abs(dp), abs(dr)) >= SMALL
        if other or abs(dp - dr) >= max(2 * SMALL, abs(dr) / 2):
            out.append(("your own points go the other way: " if other else "")
                       + f"{verb} it changes your own expected penalty by {dp:+.1f} (95% "
                       f"interval {diff['penalty_lo']:+.1f} to {diff['penalty_hi']:+.1f}) "
                       f"and your points against the table by {dr:+.1f}")
    if "void" in table:
        v = max(float(table["void"].iat[0]), float(table["void"].iat[1]))
        if v >= LIKELY_VOID:
            out.append(f"the hand is likely void (R13: the stock runs out twice in "
                       f"{share_text(v)} of the rollouts and nobody scores), so little rides "
                       "on this choice")
    return "".join(f" Why: {c}." if i == 0 else f" Also, {c}." for i, c in enumerate(out))


def bound(x) -> str:
    """An interval's bound in points, signed, to one decimal; a bound that would print as
    ±0.0 but is not zero keeps two significant figures (so a bound that excludes zero never
    reads as zero).

    >>> bound(3.14159), bound(0.0312), bound(-0.004), bound(0.0)
    ('+3.1', '+0.031', '-0.004', '+0.0')
    """
    x = float(x)
    return f"{x:+.1f}" if x == 0 or abs(x) >= 0.05 else f"{x:+.2g}"


def _sentence(action, sure, act_name, card, diff, table, n, stopped_by, objective, needed):
    col = objective
    d, lo, hi = diff[col], diff[f"{col}_lo"], diff[f"{col}_hi"]
    verb = {"take": "taking", "call": "calling"}[act_name]
    what = _WHAT[objective]
    p_act, p_pass = table["out"].iat[0], table["out"].iat[1]
    stop = {"rollouts": "", "decided": " (stopped when the sequential test decided)",
            "equal": " (stopped when the sequential test found them within ±2 points: either "
                     "is as good)"}
    how = (f"over {n:,} paired rollouts"
           + stop.get(stopped_by, f" (stopped by {stopped_by.replace('_', ' ')})"))
    moves = (f"goes from {share_text(p_pass)} to {share_text(p_act)}"
             if share_text(p_act) != share_text(p_pass) else
             f"stays at {share_text(p_pass)}" if p_act == p_pass else
             f"stays at about {share_text(p_pass)}")
    odds = (f"; your chance of going out first {moves} "
            f"(difference {diff['out']:+.1%}, 95% interval {diff['out_lo']:+.1%} to "
            f"{diff['out_hi']:+.1%})")
    nb, na = needed.get("needed_before"), needed.get("needed_after")
    need = ("" if nb is None and na is None else
            f" Cards needed: {'-' if nb is None else nb} now, {'-' if na is None else na} with "
            f"{card}; outs (copies still to come that cut it): "
            f"{'-' if nb is None else needed['outs_before']} now, "
            f"{'-' if na is None else needed['outs_after']} after.")
    why = _why(act_name, verb, diff, table, objective)
    if action == "unsure":
        return (f"Too close to call: {verb} {card} changes your {what} by {d:+.1f} points "
                f"(95% interval {bound(lo)} to {bound(hi)}) {how}, so either choice is reasonable; "
                f"more rollouts may separate them{odds}.{need}{why}")
    better = action == act_name
    head = (f"{action.capitalize()} {card}" if better
            else f"{action.capitalize()}, do not {act_name} {card}")
    change = "lowers" if d < 0 else "raises"
    if abs(d) < SMALL:  # sure, but too small to matter: no "clearly" on half a point
        label = (f"slightly: {abs(d):.1f} points, under {SMALL:.0f}, is too small to matter "
                 "much")
    else:
        label = _SURE_SEQ if stopped_by == "decided" else _SURE[sure]
    return (f"{head} ({label}): {verb} it {change} your {what} by {abs(d):.1f} "
            f"points (95% interval {bound(lo)} to {bound(hi)}) {how}{odds}.{need}{why}")


def advise(hand, card, contract, *, players=4, discarder=2, stock_left=None, calls_made=None,
           opened=(), table=(), seen=(), known=None, hand_sizes=None, reshuffled=False,
           history=None, past_turns=True, objective="relative", policies="expert",
           rollouts=2000, margin=None, time_limit=None, decide=False, seed=0, rules=None,
           threads=None, progress=False) -> Advice:
    """Should I call (or take) this card? Paired rollouts from one situation (R9).

    Parameters
    ----------
    hand, card, contract, players, discarder, stock_left, calls_made, opened, table, seen, \
known, hand_sizes, reshuffled, history
        The offer as you know it, read and checked by :func:`~kalooki_sim.situation` (each
        described there). Each rollout deals the cards you cannot see at random, weighted by the
        history; the seats asked before you about this card passed (R9).
    past_turns : bool
        Replay each unopened opponent's past turns on its dealt hand (default), so a seat deep
        into the hand is as close to its contract as the model typically is then.
    objective : {"relative", "penalty"}
        Minimise your penalty minus the table's mean, doubles counted (R12, R14; default), or
        your own penalty alone.
    policies : str, Policy or list
        How everyone plays on from here (you included after this choice); ``"expert"``.
    rollouts, margin, time_limit : int, float, float
        Most paired rollouts; stop once the interval's half-width is at most ``margin``
        points, or after about ``time_limit`` seconds (checked every 250 rollouts).
    decide : bool
        Stop as soon as the difference is significant at ``0.05 / K`` (``K`` the looks the
        budget allows, Bonferroni: at most 5% of wrong "clearly" when the choices are equal),
        or its interval at that level lies inside ±2 points (``stopped_by="equal"``).
    seed, rules, threads, progress
        The seed of all play (C3: the same advice on any number of threads), the rules
        (Jamaican defaults), Numba threads, a progress bar on stderr.

    Returns
    -------
    Advice
        ``action`` (or ``"unsure"``) with its ``confidence``: **clearly** when the 95% interval
        of act minus pass excludes zero, **probably** when the one-sided 80% bound does; the
        sentence says both, the cards needed and the outs. How the rollouts read the table:
        :mod:`kalooki_sim.studies.advisor`.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> a = ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=1, rollouts=200,
    ...               policies="greedy", seed=1)
    >>> a.action, a.confidence, a.objective, a.rollouts
    ('take', 'clearly', 'relative', 200)
    """
    rules, pols, pol, seed, threads = setup(defer_players(players, rules), policies, seed,
                                             rules, threads)
    no_search(pols, "advise")
    _kalooki_only(rules)
    run = _Run.checked(objective, rollouts, margin, time_limit, past_turns, decide, progress)
    sit = _build(hand, card, contract, discarder, stock_left, calls_made, opened, table, seen,
                 known, hand_sizes, reshuffled, history, rules)
    t0 = time.perf_counter()
    with using_threads(threads):
        res, logw, ranks, moves, stopped_by, reuse = _play(sit, pol, seed, run)
    return _advice(sit, run, res, logw, ranks, stopped_by, time.perf_counter() - t0, moves, reuse)


def _kalooki_only(rules):
    """Refuse Tuluki's rules (V9): the advisor weighs Kalooki's R9 offers."""
    if rules.tuluki:
        raise ValueError("rules with tuluki=True are not allowed here: the advisor weighs "
                         "Kalooki's R9 offers (take, or call out of turn); Tuluki's discard "
                         "step (V9) is a different choice it does not model yet")


@dataclass(frozen=True)
class _Run:
    """How the rollouts run: checked arguments of :func:`advise`."""

    objective: str
    rollouts: int
    margin: float | None
    time_limit: float | None
    past_turns: bool
    decide: bool
    progress: bool | None

    @classmethod
    def checked(cls, objective, rollouts, margin, time_limit, past_turns, decide, progress):
        """The run of :func:`advise`'s arguments, each checked (a ``ValueError`` naming it)."""
        def positive(name, v):
            return None if v is None else check_real(name, v, 0, open_lo=True)

        return cls(objective=check_choice("objective", objective, tuple(OBJECTIVES)),
                   rollouts=check_int("rollouts", rollouts, 2, 10_000_000),
                   margin=positive("margin", margin),
                   time_limit=positive("time_limit", time_limit),
                   past_turns=check_bool("past_turns", past_turns),
                   decide=check_bool("decide", decide),
                   progress=progress if progress is None else check_bool("progress", progress))


def _play(sit, pol, seed, run):
    """Paired rollouts of ``sit`` in batches until the budget, the margin, the clock or the
    sequential rule stops them: results, log weights, sampled ranks and why they stopped."""
    P, n = sit.players, run.rollouts
    bar = progress_bar(run.progress, n, auto_at=0, unit="rollout", desc="kalooki advise")
    res = np.zeros((n, 2 * RC), np.float64)
    logw = np.zeros(n, np.float64)
    ranks = np.zeros((n, P, _H.RANK_COLS), np.int64)
    moves = np.zeros((n, 2), np.int64)
    j = 4 if run.objective == "relative" else 0  # the objective's column
    looks = -(-n // BATCH)  # the most looks the budget allows (decide=True)
    hist = read_history(sit, run.past_turns)
    reuse = enough_samples(n, hist.reuse, bar)
    done, stopped_by, t0 = 0, None, time.perf_counter()
    while done < n and stopped_by is None:
        k = min(BATCH, n - done)
        _block(sit, pol, seed, done, k, run.past_turns,
               (res[done:done + k], logw[done:done + k], ranks[done:done + k],
                moves[done:done + k]), history=hist)
        done += k
        bar.update(k)
        r, lw = per_sample(res[:done], logw[:done], reuse)  # the sample is the unit
        stopped_by = _stop(r[:, j] - r[:, RC + j], lw, done, n, looks, run, t0)
    bar.close()
    return res[:done], logw[:done], ranks[:done], moves[:done], stopped_by, reuse


def _stop(d, logw, done, n, looks, run, t0):
    """Why the batch loops of the advisors (:func:`_play`, the discard's) stop after this
    batch, or None to play on: the sequential rule (``decide=True``) decides or finds the
    options equal at any of its ``looks``, the last included; short of the budget ``n``, the
    interval of ``d`` is within ``run.margin`` or the clock has run out. ``d``: the paired
    differences so far, one per sample of the hidden hands (:func:`per_sample`; None: nothing
    to compare), ``logw`` theirs; ``done``: the rollouts played."""
    if d is not None and run.decide:
        if _decided(d, logw, looks):
            return "decided"
        if _equal(d, logw, looks):
            return "equal"
    if done >= n:
        return "rollouts"
    if d is not None and run.margin is not None and done >= 2 * BATCH // 5:
        w, _, _ = _temper(logw, _ess_floor(len(logw)))
        _, lo, hi = _t3(d, w)
        if (hi - lo) / 2 <= run.margin:
            return "margin"
    if run.time_limit is not None and time.perf_counter() - t0 >= run.time_limit:
        return "time_limit"
    return None


def enough_samples(rollouts, reuse, bar=None):
    """``reuse``, once ``rollouts`` give at least two samples of the hidden hands (each played
    on ``reuse`` rollouts when a chain reads the history): an interval needs two. Else a
    ``ValueError`` naming the least rollouts (``bar``, a progress bar, closed first).

    >>> enough_samples(20, 10)
    10
    >>> enough_samples(15, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: rollouts=15 is not allowed here: ... needs 2 samples; give rollouts=20 or more
    """
    if rollouts < 2 * reuse:
        if bar is not None:
            bar.close()
        raise ValueError(f"rollouts={rollouts} is not allowed here: the history is read by "
                         f"chains, each sample of the hidden hands played on {reuse} "
                         f"rollouts, and an interval needs 2 samples; give rollouts={2 * reuse}"
                         " or more")
    return reuse


def _block(sit, pol, seed, first, count, past_turns, out=None, swaps=None, reuse=None,
           history=None):
    """Paired rollouts ``first .. first + count - 1`` of ``sit``: ``(res, logw, ranks,
    moves)``, into ``out`` when given (four arrays of ``count`` rows); ``swaps`` and
    ``reuse`` as :func:`read_history`, or ``history``, its reading built once by the caller.
    Rollout ``i`` draws only from its own counter-based streams of ``(seed, i)`` and its
    sample's (C3), so blocks played in any order, on any number of threads, give the same
    rollouts: :func:`_play` and the review's sequential budget play their looks with it."""
    r, rules = sit.rollout, sit.rules
    if out is None:
        out = (np.zeros((count, 2 * RC), np.float64), np.zeros(count, np.float64),
               np.zeros((count, sit.players, _H.RANK_COLS), np.int64),
               np.zeros((count, 2), np.int64))
    nw = max(1, 4 * numba.get_num_threads())  # the result does not depend on it (C3)
    _H.rollout_block(seed, rules_vector(rules, sit.hand_no), pol, r.base,
                     _H.Hidden(r.flat, len(r.flat), r.opp, r.pile_extra),
                     read_history(sit, past_turns, swaps, reuse) if history is None else history,
                     0, r.mask, first, count, _E.Run(rules.pack_size, nw, 0, False),
                     _H.Rollouts(*out))
    return out


def read_history(sit, past_turns=True, swaps=None, reuse=None):
    """How the rollouts read the table's history (a ``History`` of the engine's kernels):
    the events of ``sit``, the past turns replayed (``past_turns``), ``swaps`` proposals
    of each sample's chain (:func:`.engine.kernels.history.posterior_chain`; None:
    ``CHAIN_SWEEPS`` per unknown card of the seats it moves, :func:`_cover`; 0: importance
    weights alone, tempered when they collapse) and the rollouts each sample is played on
    (``reuse``; None: :data:`SAMPLE_ROLLOUTS` when a chain runs, else 1)."""
    r = sit.rollout
    cover = _cover(sit)
    if swaps is None:
        opened = r.base.ps[:, _E.PS_OPENED]
        swaps = _H.CHAIN_SWEEPS * int(sum(r.opp[s] for s in range(1, sit.players)
                                           if cover[s] and not opened[s]))
    ev = np.ascontiguousarray(r.events)
    if reuse is None:
        reuse = SAMPLE_ROLLOUTS if swaps > 0 and len(ev) > 0 else 1
    return _H.History(ev, len(ev), bool(past_turns), int(swaps), cover, int(reuse))


def _cover(sit):
    """The seats whose hands the chain moves (engine seats, ``int64``): every one when the
    history is the whole hand (it starts at the upcard and leaves no turn out, as the review's
    does), else those that discarded in it at least once per past turn
    (:mod:`kalooki_sim.engine._kernels.history`)."""
    r = sit.rollout
    whole = bool(sit.history) and sit.history[0][1] == "upcard" and sit.turns_left_out == 0
    ev = np.asarray(r.events).reshape(-1, 3)
    turns = r.base.ps[:, _E.PS_TURNS]
    return np.array([1 if whole or int(((ev[:, 0] == s) & (ev[:, 1] == _H.H_DISCARD)).sum())
                     >= turns[s] else 0 for s in range(sit.players)], np.int64)


def _advice(sit, run, res, logw, ranks, stopped_by, seconds, moves=None, reuse=1):
    """:class:`Advice` from the rollouts' results: the weights (equal from the chains;
    importance weights tempered if they collapsed), the table, the paired difference, the
    verdict and its sentence; ``moves``: the chains' proposals and acceptances per rollout;
    ``reuse``: the rollouts of each sample of the hidden hands, which are the intervals'
    unit (:func:`per_sample`)."""
    rollouts, j = len(res), 4 if run.objective == "relative" else 0
    res, logw = per_sample(res, logw, reuse)
    ranks = ranks[::reuse]
    done = len(res)
    next_up = sit.discarder == 1
    act_name, pass_name = _ACT[next_up], _PASS[next_up]
    w, beta, ess = _temper(logw, _ess_floor(done))
    fallback = ""
    if beta < 1.0:
        full = _temper(logw, 0)[2]
        fallback = (f"the history's weights collapsed (effective sample size {full:,.1f} of "
                    f"{done:,} samples); they were tempered to strength {beta:.2f} to keep "
                    f"{ess:,.0f}, so the history is read only in part: give more rollouts or "
                    "a shorter history")
        warnings.warn(f"advise: {fallback}", RuntimeWarning, stacklevel=3)
    # a sample's shares are means, not 0/1: read as weighted, at the samples' count (so the
    # shares' intervals count samples, not rollouts: wider than they need be, never narrower)
    tab, diff = _summary(res, act_name, pass_name, w, shares_of_means=reuse > 1)
    tab["rollouts"] = rollouts
    sure, sign = confidence(res[:, j] - res[:, RC + j], w)
    if run.decide and stopped_by != "decided":  # the sequential rule did not decide: no claim
        sure, sign = "unsure", 0
    action = act_name if sign < 0 else pass_name if sign > 0 else "unsure"
    info = sit.as_dict()
    needed = _needed(info, sit.rules)
    text = _sentence(action, sure, act_name, sit.card, diff, tab, rollouts, stopped_by,
                     run.objective, needed)
    # the opponents' events weighed: those typed, and the passes of the seats asked before you
    n_weighed = int(sum(1 for e in sit.rollout.events
                        if int(e[0]) != 0 and (-int(e[0])) % sit.players not in sit.opened))
    return Advice(table=tab, difference=diff, action=action, recommendation=text,
                  rollouts=rollouts, samples=done,
                  stopped_by=stopped_by, seconds=seconds, situation=info,
                  objective=run.objective, confidence=sure, needed=needed, ess=ess,
                  history_strength=beta, fallback=fallback,
                  sampled_ranks=_rank_table(ranks, w, sit.players), history_events=n_weighed,
                  acceptance=_acceptance(moves),
                  variance_ratio=variance_ratio(res[:, j], res[:, RC + j], w),
                  sample_rollouts=reuse)


def _acceptance(moves):
    """The share of the chains' proposals that changed a card and were accepted (NaN when no
    chain proposed one)."""
    if moves is None or len(moves) == 0 or int(moves[:, 0].sum()) == 0:
        return float("nan")
    return float(moves[:, 1].sum() / moves[:, 0].sum())


def _rank_table(ranks, w, players):
    """Weighted mean count per rank of each opponent's sampled hand: one row per seat to your
    right (engine seat ``-k mod players``), columns :data:`RANKS`."""
    if len(ranks) == 0:
        return pd.DataFrame(columns=RANKS)
    ww = np.full(len(ranks), 1.0 / len(ranks)) if w is None else w
    mean = np.tensordot(ww, ranks.astype(float), axes=1)  # (players, 14)
    idx = list(range(1, players))
    df = pd.DataFrame([mean[(-k) % players] for k in idx], index=idx, columns=RANKS)
    df.index.name = "seat"
    return df
