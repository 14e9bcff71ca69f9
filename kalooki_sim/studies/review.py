"""Game review: every take and call decision of one seat in a traced hand or game,
valued by the advisor from what that seat knew at that moment.

The move log is read as the seat saw it: its own cards, and of the others only what the table
shows (each take and call, R9; melds and lay-offs, R7, R10; discards; hand sizes; the stock's
size; R13's reshuffle). At each decision that knowledge is handed to :func:`.advisor.advise`
(``known=``, ``hand_sizes=``, ``seen=``, ``table=``, ...); the hidden cards of the real deal are
never read.

Each decision's paired rollouts come in looks until its interval decides, shows the two
actions equal or the budget is spent (:mod:`._sequential`), and each is rated as a backgammon
analysis rates a move: the best action, the points the action taken lost against it with a
95% interval, and a label by size that the interval supports (:mod:`.rating`);
:func:`review_total` adds up a hand's losses, re-measured on fresh rollouts.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._lib import check_bool, check_choice, check_int, progress_bar
from .._stats import holm_adjust, share_text
from ..engine.kernels import rng as _R
from ..engine.play import setup, using_threads
from ..engine.policies import no_search
from ..engine.trace import Trace
from ._sequential import SIZE_WIDTH, fresh, run_hand
from ._weighted import RC
from .advisor import OBJECTIVES, _advice, _block, _Run
from .rating import BLUNDER, ERRORS, MISTAKE, RATINGS, rating, review_total  # noqa: F401
from .review_discard import (
    DISCARD_HAND_ROLLOUTS,
    DISCARD_ROLLOUTS,
    discard_moments,
    review_discards,
    review_history,
)
from .situation import _build

#: verdicts, for a reader (read over the hand's decisions with Holm's adjustment)
VERDICTS = {
    "good": "the action taken is better: its paired test is significant at 5% after Holm's "
            "adjustment over the hand's decisions",
    "mistake": "the other action is better: significant at 5% after Holm's adjustment over "
               "the hand's decisions",
    "close": "not significant after Holm's adjustment over the hand's decisions: either is "
             "reasonable",
}

ALPHA = 0.05  # the familywise error rate of a hand's verdicts (Holm)

def holm_verdict(acted, d, p_adjusted, alpha: float = ALPHA) -> str:
    """``"good"``, ``"mistake"`` or ``"close"`` for a decision whose paired difference, act
    minus pass (lower is better), is ``d`` with the Holm-adjusted p-value ``p_adjusted`` (the
    family: the decisions of one hand); ``acted``: the seat took or called. Controls the chance
    of any wrong "good" or "mistake" in the hand at ``alpha``.

    Examples
    --------
    >>> holm_verdict(True, -5.0, 0.01), holm_verdict(False, -5.0, 0.01)
    ('good', 'mistake')
    >>> holm_verdict(True, -5.0, 0.2), holm_verdict(True, -5.0, float("nan"))
    ('close', 'close')
    """
    if not np.isfinite(p_adjusted) or p_adjusted >= alpha or d == 0:
        return "close"
    return "good" if (d < 0) == bool(acted) else "mistake"


def _reason(row) -> str:
    """Why, in a line: cards needed and outs before -> after, the chance of being caught by an
    opening double (R12) acting and not."""
    def na(v):
        return "-" if v is None or pd.isna(v) else str(int(v))

    return (f"cards needed {na(row['needed_before'])} -> {na(row['needed_after'])}, outs "
            f"{na(row['outs_before'])} -> {na(row['outs_after'])}; caught by an opening double "
            f"{share_text(row['doubled_act'])} if you {row['act_name']}, "
            f"{share_text(row['doubled_pass'])} if not")


def verdict(acted, lo, hi) -> str:
    """``"good"``, ``"mistake"`` or ``"close"`` for a decision whose paired difference, act minus
    pass (lower is better), has the 95% interval ``[lo, hi]``; ``acted``: the seat took or
    called. One decision alone, unadjusted (the review's ``verdict_95``; its ``verdict`` is
    :func:`holm_verdict`).

    Examples
    --------
    >>> verdict(True, -9.0, -2.0), verdict(False, -9.0, -2.0), verdict(True, -3.0, 4.0)
    ('good', 'mistake', 'close')
    """
    if hi < 0:
        better_acts = True
    elif lo > 0:
        better_acts = False
    else:
        return "close"
    return "good" if better_acts == bool(acted) else "mistake"


@dataclass
class _Moment:
    """One decision of the seat, with the situation as it knew it (advisor's arguments)."""

    game: int
    hand: int
    attempt: int
    turn: int
    decision: str  # take or call
    card: str
    discarder: int  # the seat that discarded it
    acted: bool
    situation: dict = field(default_factory=dict)


class _Reader:
    """The public state of one hand attempt, and the seat's own cards, record by record."""

    def __init__(self, rec, rules, me):
        self.P, self.me = rec["players"], me
        self.game, self.hand_no, self.attempt = rec["game"], rec["hand"], rec["attempt"]
        self.cards = rec["cards_dealt"]
        self.mine = Counter()
        self.sizes = [0] * self.P
        self.known = [Counter() for _ in range(self.P)]
        self.pile: list[str] = []
        self.stock = rules.pack_size - self.P * self.cards - 1
        self.reshuffled = False
        self.melds: dict[int, list] = {}  # id -> [owner, [(card, position)]]
        self.opened: set[int] = set()
        self.calls = [0] * self.P
        self.turn = 0
        self.cur = -1
        self.discarder = rec["dealer"]
        self.events: list[tuple] = []  # the public history (seat, action, card), R6, R9
        self.live = False  # a discard (or the upcard, C1) is on offer

    def _gets(self, seat, card, public):
        self.sizes[seat] += 1
        if public:
            self.known[seat][card] += 1
        if seat == self.me:
            self.mine[card] += 1

    def _leaves(self, seat, card):
        # copies are alike: the table knows one copy fewer of it in that hand
        self.sizes[seat] -= 1
        if self.known[seat][card] > 0:
            self.known[seat][card] -= 1
        if seat == self.me:
            self.mine[card] -= 1

    def _public(self, r):
        """The public history: discards, takes, calls, passes on a discard, stock draws."""
        e, s = r["event"], r["seat"]
        if e == "discard":
            self.events.append((s, "discard", r["card"]))
            self.live = True
        elif e == "upcard":  # the dealer's discard, offered as one (C1)
            self.events.append((s, "upcard", r["card"]))
            self.live = True
        elif e in ("take", "call") and self.live and not r.get("turned"):
            self.events.append((s, e, r["card"]))
            self.live = False
        elif (e == "decline" and r.get("as") in ("take", "call") and self.live
              and not r.get("turned")):
            self.events.append((s, "pass", r["card"]))
        elif e == "draw":
            self.events.append((s, "draw", None))

    def apply(self, r):
        self._public(r)
        e, s = r["event"], r["seat"]
        if e == "deal":
            self._gets(s, r["card"], False)
        elif e == "upcard":
            self.pile, self.discarder = [r["card"]], s
        elif e == "turn":
            self.turn += 1
            self.cur = s
        elif e in ("take", "call"):
            self.pile.pop()
            self._gets(s, r["card"], True)
            self.calls[s] += e == "call"
        elif e in ("penalty", "draw"):
            self.stock -= 1
            self._gets(s, r["card"], False)
        elif e == "reshuffle":
            self.stock, self.pile, self.reshuffled = r["cards"], self.pile[-1:], True
        elif e == "open":
            self.opened.add(s)
        elif e == "meld":
            self.melds[r["meld"]] = [s, list(r["cards"])]
            for c, _ in r["cards"]:
                self._leaves(s, c)
        elif e == "layoff":
            self.melds[r["meld"]][1].append((r["card"], r["position"]))
            self._leaves(s, r["card"])
        elif e == "joker_move":
            cards = self.melds[r["meld"]][1]
            i = next(i for i, (c, p) in enumerate(cards) if c == "JK" and p == r["from"])
            cards[i] = ("JK", r["to"])
        elif e == "discard":
            self.pile.append(r["card"])
            self._leaves(s, r["card"])
            self.discarder = s

    def offset(self, seat):
        """Seats to the reviewed seat's right (the advisor's count, R2: clockwise)."""
        return (self.me - seat) % self.P

    def situation(self, card):
        """:func:`advise`'s arguments for the offer of ``card`` to the seat, from what it knows."""
        assert self.pile and self.pile[-1] == card, (self.pile[-1:], card)
        others = [s for s in range(self.P) if s != self.me]
        return dict(
            hand=list(self.mine.elements()), card=card, contract=self.hand_no,
            discarder=self.offset(self.discarder), stock_left=self.stock,
            calls_made=self.calls[self.me],
            opened=sorted(self.offset(s) for s in self.opened),
            table=[(self.offset(o), " ".join(c for c, _ in sorted(cs, key=lambda x: x[1])))
                   for o, cs in self.melds.values()],
            seen=list(self.pile[:-1]),
            known={self.offset(s): list(self.known[s].elements()) for s in others
                   if sum(self.known[s].values())},
            hand_sizes={self.offset(s): self.sizes[s] for s in others},
            reshuffled=self.reshuffled,
            history=[(self.offset(s), a, c) for s, a, c in self.events])


def _decision_of(r, me):
    """``(kind, acted)`` when record ``r`` is a take or call decision of seat ``me`` (R9)."""
    if r["seat"] != me or r.get("turned"):
        return None
    e = r["event"]
    if e == "take":
        return "take", True
    if e == "call":
        return "call", True
    if e == "decline" and r["as"] in ("take", "call"):
        return r["as"], False
    return None


def walk(trace, seat):
    """The seat's decisions (:class:`_Moment`) and its timeline, read from ``trace``'s records.

    The timeline is one list per hand attempt of dicts: ``kind`` (``"deal"``, ``"turn"``: the
    seat's own turn, ``"offer"``: another seat's discard it was offered, ``"end"``), the table
    ``turn``, the cards involved and ``hand``: the seat's cards afterwards; ``decisions`` holds
    the indexes of its decisions in that entry."""
    moments, timeline = [], []
    reader, entry, hands = None, None, []
    for r in trace.records:
        e = r["event"]
        if e == "hand":
            reader = _Reader(r, trace.rules, seat)
            hands = []
            timeline.append(dict(game=r["game"], hand=r["hand"], attempt=r["attempt"],
                                 dealer=r["dealer"], players=r["players"],
                                 groups=r["groups"], runs=r["runs"], entries=hands))
            entry = None
            continue
        if e == "drop" or reader is None:
            continue
        d = _decision_of(r, seat)
        if d is not None:
            kind, acted = d
            moments.append(_Moment(reader.game, reader.hand_no, reader.attempt, reader.turn,
                                   kind, r["card"], reader.discarder, acted,
                                   reader.situation(r["card"])))
        if e == "upcard":
            hands.append(dict(kind="deal", turn=0, hand=sorted(reader.mine.elements()),
                              decisions=[]))
        if e == "turn":
            entry = dict(kind="turn" if r["seat"] == seat else "offer", turn=reader.turn + 1,
                         seat=r["seat"], own_turn=r["turn"], got=[], laid=[], layoffs=[],
                         discard=None, decisions=[], offered=None, called=None, penalty=None)
            if r["seat"] == seat:
                hands.append(entry)
        reader.apply(r)
        if entry is None:
            continue
        if d is not None:
            entry["decisions"].append(len(moments) - 1)
            entry["offered"] = r["card"]
            entry["discarded_by"] = reader.discarder
            if entry["kind"] == "offer" and entry not in hands:
                hands.append(entry)
        if r["seat"] == seat:
            if e in ("take", "draw"):
                entry["got"].append((e, r["card"]))
            elif e == "call":
                entry["called"] = r["card"]
                if entry not in hands:
                    hands.append(entry)
            elif e == "penalty":
                entry["penalty"] = r["card"]
            elif e == "meld":
                entry["laid"].append(" ".join(c for c, _ in sorted(r["cards"],
                                                                   key=lambda x: x[1])))
            elif e == "layoff":
                entry["layoffs"].append(r["card"])
            elif e == "discard":
                entry["discard"] = r["card"]
            elif e == "open":
                entry["opened"] = True
        if entry in hands:
            entry["hand"] = sorted(reader.mine.elements())
        if e in ("out", "void", "score"):
            last = hands[-1] if hands and hands[-1]["kind"] == "end" else None
            if last is None:
                last = dict(kind="end", turn=reader.turn, decisions=[], notes=[])
                hands.append(last)
            if e == "out":
                last["notes"].append("you went out" if r["seat"] == seat else
                                     f"seat {r['seat']} went out"
                                     + (" on its opening (R12: the others pay double)"
                                        if r.get("on_opening") else ""))
            elif e == "void":
                last["notes"].append("the hand is void: nobody scores (R13)"
                                     if not r.get("stalled") else "stalled: given up")
            elif r["seat"] == seat:
                last["notes"].append(f"you score {r['penalty']}"
                                     + (" (doubled, R12)" if r.get("doubled") else ""))
            last["hand"] = sorted(reader.mine.elements())
    return moments, timeline


def decision_positions(trace, seat) -> list[dict]:
    """Every decision of ``seat`` in ``trace`` as the advisor is asked it: one dict per take,
    call or discard (before the seat opened), in play order, with ``kind`` (``"take"``,
    ``"call"``, ``"discard"``), ``card`` (the card offered, or the one the seat let go),
    ``acted`` (took or called; ``None`` for a discard), ``game``, ``hand``, ``turn``, and
    ``kwargs``: the arguments of :func:`~kalooki_sim.advise` (take, call) or
    :func:`~kalooki_sim.advise_discard` (discard) for what the seat knew then.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> ps = decision_positions(ks.trace(seed=1, game=0, hand=1, policies="expert"), 0)
    >>> sorted({p["kind"] for p in ps}) <= ["call", "discard", "take"], "hand" in ps[0]["kwargs"]
    (True, True)
    """
    moments, _ = walk(trace, seat)
    out = [dict(kind=m.decision, card=m.card, acted=m.acted, game=m.game, hand=m.hand,
                turn=m.turn, kwargs=dict(m.situation)) for m in moments]
    out += [dict(kind="discard", card=m.card, acted=None, game=m.game, hand=m.hand,
                 turn=m.turn, kwargs=dict(m.situation))
            for m in discard_moments(trace, seat, _Reader)]
    return sorted(out, key=lambda p: (p["game"], p["hand"], p["turn"], p["kind"] == "discard"))


def _seed_of(seed, m):
    """The rollouts' seed of one decision: its own counter-based stream (C3)."""
    k = int(_R.stream_key(seed, m.game, m.hand * 64 + m.attempt, m.turn,
                          2 * (m.decision == "call") + 1))
    return k >> 1


#: rollouts, at most, per decision (the cap of the sequential rule)
ROLLOUTS = 4_000
#: rollouts of a decision's first look; each later look doubles them (:func:`._sequential.schedule`)
BLOCK = 1_000
#: rollouts, at most, over the decisions of one hand (the hand's budget)
HAND_ROLLOUTS = 40_000


class _Source:
    """One decision's rollouts, played block by block for the sequential rule: keeps the
    results (for the advisor's table) and returns the objective's paired differences."""

    def __init__(self, sit, pol, seed, objective):
        self.sit, self.pol, self.seed = sit, pol, seed
        self.j = 4 if objective == "relative" else 0  # the objective's column (RC layout)
        self.res, self.logw, self.ranks, self.moves = [], [], [], []
        self.keep = True  # False: fresh rollouts for the total, kept out of the table
        self.hist = review_history(sit)
        self.reuse = self.hist.reuse  # the looks' unit

    def __call__(self, first, count):
        res, logw, ranks, moves = _block(self.sit, self.pol, self.seed, first, count, True,
                                         history=self.hist)
        if self.keep:
            self.res.append(res)
            self.logw.append(logw)
            self.ranks.append(ranks)
            self.moves.append(moves)
        return res[:, self.j] - res[:, RC + self.j], logw

    def arrays(self):
        return (np.concatenate(self.res), np.concatenate(self.logw),
                np.concatenate(self.ranks), np.concatenate(self.moves))


def review(trace, seat, *, rollouts=ROLLOUTS, block=BLOCK, hand_rollouts=HAND_ROLLOUTS,
           sequential=True, objective="relative", policies="expert", seed=0, history=True,
           discards=True, discard_rollouts=DISCARD_ROLLOUTS,
           discard_hand_rollouts=DISCARD_HAND_ROLLOUTS, threads=None,
           progress=False) -> pd.DataFrame:
    """Every take and call decision (R9) and every discard before opening (R6.3) of ``seat``
    in a traced hand (or game), judged and rated.

    At each decision the seat's knowledge at that moment (its hand; what each opponent took or
    called and has not laid down or discarded; the pile, the table, the hand sizes, the
    stock's size and whether it was reshuffled, R13; never the hidden cards) is handed to the
    advisor (:func:`~kalooki_sim.advise`'s situation), which plays both choices on the same
    sampled cards. The rollouts come in looks (:mod:`._sequential`): each decision plays
    ``block`` paired rollouts, then doubles them, until its interval excludes zero (decided),
    lies inside ±2 points (equal), neither is in reach of ``rollouts`` (futile, read from a
    quarter of it on), it reaches ``rollouts`` or the hand's budget is spent; a decided
    decision wider than :data:`._sequential.SIZE_WIDTH` (8 points) plays one look more when
    that look would bring it within, so its size is known too. The
    intervals keep their 95% coverage at whatever look they stop: each look is read at level
    ``1 - 0.05 / K``, ``K`` the looks planned (Bonferroni over the looks; ``K = 3`` at the
    defaults: 1,000, 2,000 and 4,000 rollouts).

    Parameters
    ----------
    trace : Trace
        From :func:`~kalooki_sim.trace` (one hand, or ``whole_game=True``); not Tuluki (V9).
    seat : int
        The seat to review, 0 to players - 1 (as the trace numbers them).
    rollouts : int
        The most paired rollouts per decision (the last look). At or below ``block``, a single
        look of exactly this many: the fixed-size review (``rollouts=200`` is the review
        before the sequential rule, row for row).
    block : int
        Paired rollouts of a decision's first look; each later look doubles the total
        (1,000, 2,000, ... up to ``rollouts``).
    hand_rollouts : int or None
        The most paired rollouts over the decisions of one hand (all its attempts), about 10 s
        of 2 threads at the defaults; when a round of looks would pass it, what is left is
        shared equally by the decisions still open and that look is their last (``stopped_by
        == "budget"``). Every decision still gets a first look of ``min(rollouts, block, 20)``
        rollouts or more; the fresh rollouts of the errors (below) are beyond it. ``None``: no
        budget.
    sequential : bool
        ``True`` (default): the sequential rule above. ``False``: every decision gets
        ``rollouts`` (within the hand's budget), one look at 95%.
    objective : {"relative", "penalty"}
        What the values measure: your penalty minus the table's mean, doubles counted
        (default), or your own penalty alone (see :func:`~kalooki_sim.advise`).
    policies : str, Policy or list
        How everyone plays in the rollouts (the advisor's model of the table): ``"expert"``.
    seed : int
        Seed of the rollouts; each decision has its own stream and rollout ``i`` of it its own
        counter-based streams (C3), so the table does not depend on the threads, and the
        first ``n`` rollouts of a decision are the same whatever budget is given.
    history : bool
        Give each decision the hand's public history so far (every discard, take, call, pass
        on a discard and stock draw, from the trace's records; :func:`~kalooki_sim.advise`'s
        ``history``), so the sampled hands follow what the opponents did (default): as the
        advisor reads it, each sample of the hidden hands drawn by its own chain of swaps
        accepted by the history's likelihood, nothing tempered, and played on
        :data:`.review_discard.HISTORY_REUSE` rollouts (the intervals count samples, not
        rollouts); ``False``: only the situation. The columns ``ess`` and
        ``history_strength`` say how much was read.
    discards : bool
        Also rate each discard the seat made before it opened (default): the discard advisor
        (:func:`~kalooki_sim.advise_discard`) picks a comparator on a first look at every
        card, then the card discarded and the comparator are played paired in the same looks
        (:mod:`.review_discard`).
    discard_rollouts, discard_hand_rollouts : int
        The discards' own budget: the most paired rollouts per discard, and over one hand's
        discards (each rollout plays the hand on twice; the first look adds 30 rollouts of
        every card per discard): 4,000 and 10,000, about a quarter of the review's rollouts
        (a discard is close to its comparator more often than a take or a call is to its
        pass).
    threads : int, optional
        Numba threads (default: all).
    progress : bool, optional
        A progress bar of decisions on stderr.

    Returns
    -------
    pandas.DataFrame
        One row per decision, in play order: ``game, hand, attempt, turn`` (the table turn of
        the offer), ``seat``, ``decision`` (``take``: the seat is next, R9.1; ``call``: out of
        turn, R9.2; ``discard``: the seat's discard, R6.3, its act the card discarded and its
        pass the comparator ``compared``, the first look's best ``first_look_best``),
        ``card``, ``discarder`` (the seat that discarded it), ``stock_left``,
        ``cards_held`` (the seat's cards then), ``needed_before, needed_after, outs_before,
        outs_after`` (cards still needed without and with the card, copies still to come
        that cut it), ``action`` (what the seat did: take/draw or call/pass), ``value_act`` and
        ``value_pass`` (the objective's expected value, points, of taking or calling and of
        not), ``d_value`` (act minus pass; negative: acting is better) with its 95% interval
        ``d_value_lo, d_value_hi`` (at the stopping look, level ``1 - 0.05 / K``),
        ``out_act, out_pass`` (chance of going out first), ``advice`` (the advisor's choice,
        or ``unsure``), ``confidence`` (clearly: decided; probably, with a single look: only
        the one-sided 80% bound excludes zero; unsure), ``objective``, ``rollouts`` (played),
        ``looks`` and ``stopped_by`` (``decided``, ``equal``, ``futile``: neither in reach
        of the cap, ``rollouts``: the cap, ``budget``: the hand's budget).
        The rating, as a backgammon analysis gives it: ``best`` (the action with the lower
        expected points), ``lost`` (points the action taken lost against the best:
        ``max(0, taken - other)``, 0 when the taken is the best) with its 95% interval
        ``lost_lo, lost_hi`` (the image of ``d_value``'s interval under that map, so the same
        coverage), ``rating`` (:func:`.rating.rating`: ``best``, ``equal``, ``inaccuracy``,
        ``mistake``, ``blunder`` or ``unsure``; a size is named only when the interval's
        least loss reaches it). ``lost_fresh`` with ``lost_fresh_lo, lost_fresh_hi``: at a
        decision rated an error, its loss measured again on ``fresh_rollouts`` fresh rollouts
        (as many as it played), unbiased by the stopping (NaN elsewhere); :func:`review_total`
        adds them up over a hand.
        ``p_value``: the paired t test of the difference at the stopping look, times ``K``
        (the sequential p-value, below 5% exactly when the interval excludes zero);
        ``p_holm``: Holm's adjustment of it over the decisions of the same game and hand;
        ``verdict`` (``good``: the action taken is better, significant at 5% after Holm;
        ``mistake``: the other is; ``close``) controls the chance of any wrong good or
        mistake in a hand at 5%; ``verdict_95``: the one decision's 95% interval alone,
        unadjusted. ``doubled_act, doubled_pass``: the chance of being caught by an opening
        double (R12) each way; ``reason``: cards needed and outs before -> after and those
        chances, in words; ``ess``, ``history_strength``: the advisor's effective sample size
        and the strength the history was read at (:class:`~kalooki_sim.studies.advisor.Advice`;
        0 at a discard whose history the situation refused: read without it).
        ``attrs["seconds"]``: the review's time; ``attrs["discards_left_out"]``: discards
        whose position the situation could not read (an empty pile at a draw), not rated.

    Raises
    ------
    ValueError
        For a seat, ``rollouts``, ``block``, ``hand_rollouts`` or ``objective`` outside what
        is allowed (named with what is allowed); a Tuluki trace (V9).

    Notes
    -----
    The ratings' sizes, and why they are what they are: :mod:`kalooki_sim.studies.rating`.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = ks.trace(seed=1, game=0, hand=1, policies="expert")
    >>> r = ks.review(t, seat=0, rollouts=40, block=20, policies="greedy")
    >>> set(r["verdict"]) <= {"good", "mistake", "close"}, set(r["looks"]) <= {1, 2}
    (True, True)
    >>> ks.review_total(r).columns[:5].tolist()
    ['game', 'hand', 'decisions', 'lost', 'lost_lo']
    """
    if not isinstance(trace, Trace):
        raise TypeError(f"trace is a {type(trace).__name__}; give a Trace from "
                        "kalooki_sim.trace(...)")
    rules = trace.rules
    if rules.tuluki:
        raise ValueError("a trace with tuluki=True is not allowed here: the advisor weighs "
                         "Kalooki's R9 offers, not Tuluki's discard step (V9)")
    seat = check_int("seat", seat, 0, rules.players - 1,
                     why="a seat of the trace's table, numbered as it numbers them")
    rollouts = check_int("rollouts", rollouts, 2, 10_000_000)
    block = check_int("block", block, 2, 10_000_000)
    if hand_rollouts is not None:
        hand_rollouts = check_int("hand_rollouts", hand_rollouts, 2, None,
                                  why="the most rollouts over one hand's decisions; or None")
    sequential = check_bool("sequential", sequential)
    objective = check_choice("objective", objective, tuple(OBJECTIVES))
    history = check_bool("history", history)
    discards = check_bool("discards", discards)
    d_budget = (check_int("discard_rollouts", discard_rollouts, 2, 10_000_000),
                check_int("discard_hand_rollouts", discard_hand_rollouts, 2, None,
                          why="the most paired rollouts over one hand's discards"))
    rules, pols, pol, seed, threads = setup(None, policies, seed, rules, threads)
    no_search(pols, "review")
    moments, _ = walk(trace, seat)
    dms = discard_moments(trace, seat, _Reader) if discards else []
    t0 = time.perf_counter()
    bar = progress_bar(progress, len(moments) + len(dms), auto_at=0, unit="decision",
                       desc="kalooki review")
    rows, skipped = [], 0
    with using_threads(threads):
        for _, ix in _by_hand(moments + dms):
            ms = [(moments + dms)[i] for i in ix]
            rows += _review_hand([m for m in ms if isinstance(m, _Moment)], seat, pol, seed,
                                 rules, objective, history, rollouts, block, hand_rollouts,
                                 sequential, bar)
            more, n = review_discards([m for m in ms if not isinstance(m, _Moment)], seat,
                                      pol, seed, rules, objective, history, d_budget,
                                      sequential, bar)
            rows, skipped = rows + more, skipped + n
    bar.close()
    rows.sort(key=lambda r: (r["game"], r["hand"], r["attempt"], r["turn"],
                             r["decision"] == "discard"))
    df = _table(rows, time.perf_counter() - t0)
    df.attrs["discards_left_out"] = skipped
    return df


def _by_hand(moments):
    """The moments' indexes grouped by ``(game, hand)`` (all attempts: one budget), in order."""
    groups: dict = {}
    for i, m in enumerate(moments):
        groups.setdefault((m.game, m.hand), []).append(i)
    return groups.items()


def _review_hand(moments, seat, pol, seed, rules, objective, history, rollouts, block,
                 budget, sequential, bar):
    """The rows of one hand's decisions, played by :func:`._sequential.run_hand`."""
    sources = []
    for m in moments:
        s = dict(m.situation)
        sit = _build(s["hand"], s["card"], s["contract"], s["discarder"], s["stock_left"],
                     s["calls_made"], s["opened"], s["table"], s["seen"], s["known"],
                     s["hand_sizes"], s["reshuffled"], s["history"] if history else None, rules)
        sources.append(_Source(sit, pol, _seed_of(seed, m), objective))
    seq, K = run_hand(sources, block=block, cap=rollouts, budget=budget,
                      sequential=sequential, width=SIZE_WIDTH,
                      on_stop=lambda i: bar.update(1))
    rows = []
    for m, src, q in zip(moments, sources, seq, strict=True):
        res, logw, ranks, moves = src.arrays()
        run = _Run(objective=objective, rollouts=q.n, margin=None, time_limit=None,
                   past_turns=True, decide=K > 1, progress=False)
        with warnings.catch_warnings():  # a collapse is in the columns ess, history_strength
            warnings.simplefilter("ignore", RuntimeWarning)
            a = _advice(src.sit, run, res, logw, ranks,
                        "decided" if q.stopped_by == "decided" else q.stopped_by, 0.0, moves,
                        src.reuse)
        t = a.table.set_index("action")
        act, pas = t.index[0], t.index[1]
        v_act, v_pass = float(t.loc[act, objective]), float(t.loc[pas, objective])
        lo, hi = q.lo, q.hi
        taken_minus = (lambda x: x) if m.acted else (lambda x: -x)
        a_lo, a_hi = sorted((taken_minus(lo), taken_minus(hi)))
        rate = rating(m.acted, lo, hi)
        f = (np.nan, np.nan, np.nan)
        if rate in ERRORS:  # the loss again on as many fresh rollouts: what the total adds
            src.keep = False
            f = sorted(taken_minus(x) for x in fresh(src, q.n, q.n))
            f = (f[1], f[0], f[2])
        rows.append(dict(
            game=m.game, hand=m.hand, attempt=m.attempt, turn=m.turn, seat=seat,
            decision=m.decision, card=m.card, discarder=m.discarder,
            stock_left=m.situation["stock_left"], cards_held=" ".join(m.situation["hand"]),
            **a.needed, action=act if m.acted else pas,
            value_act=v_act, value_pass=v_pass,
            d_value=q.mean, d_value_lo=lo, d_value_hi=hi, p_value=q.p,
            out_act=float(t.loc[act, "out"]), out_pass=float(t.loc[pas, "out"]),
            doubled_act=float(t.loc[act, "doubled"]),
            doubled_pass=float(t.loc[pas, "doubled"]), act_name=act,
            advice=a.action, confidence=a.confidence, verdict_95=verdict(m.acted, lo, hi),
            objective=objective, rollouts=q.n, looks=q.looks, stopped_by=q.stopped_by,
            best=act if v_act < v_pass else pas if v_pass < v_act else
            (act if m.acted else pas),
            lost=max(0.0, taken_minus(q.mean)), lost_lo=max(0.0, a_lo), lost_hi=max(0.0, a_hi),
            rating=rate, lost_fresh=f[0], lost_fresh_lo=f[1], lost_fresh_hi=f[2],
            fresh_rollouts=q.n if rate in ERRORS else 0, ess=a.ess,
            history_strength=a.history_strength))
    return rows


COLUMNS = ["game", "hand", "attempt", "turn", "seat", "decision", "card", "discarder",
           "stock_left", "cards_held", "needed_before", "needed_after", "outs_before",
           "outs_after", "action", "value_act", "value_pass", "d_value", "d_value_lo",
           "d_value_hi", "p_value", "p_holm", "out_act", "out_pass", "doubled_act",
           "doubled_pass", "advice", "confidence", "verdict", "verdict_95", "best", "lost",
           "lost_lo", "lost_hi", "rating", "lost_fresh", "lost_fresh_lo", "lost_fresh_hi",
           "fresh_rollouts", "reason", "objective", "rollouts", "looks",
           "stopped_by", "ess", "history_strength", "compared", "first_look_best"]


def _table(rows, seconds):
    """The review's DataFrame from its rows: Holm's verdicts, the reasons, the column order."""
    cols = COLUMNS
    df = pd.DataFrame(rows, columns=[c for c in cols
                                     if c not in ("p_holm", "verdict")] + ["act_name"])
    # Holm over each hand's decisions (all its attempts): the family a reader scans at once
    df["p_holm"] = np.nan
    for _, ix in df.groupby(["game", "hand"]).groups.items():
        df.loc[ix, "p_holm"] = holm_adjust(df.loc[ix, "p_value"].to_numpy(float))
    acted = df["action"].isin(["take", "call", "discard"])  # a discard: taken vs compared
    df["verdict"] = [holm_verdict(a, dv, p) for a, dv, p in
                     zip(acted, df["d_value"], df["p_holm"], strict=True)]
    df["reason"] = [r["reason"] if r["decision"] == "discard" else _reason(r)
                    for r in df.to_dict("records")]
    df = df[cols]
    for c in ("needed_before", "needed_after", "outs_before", "outs_after"):
        df[c] = df[c].astype("Int64")
    df.attrs["seconds"] = seconds
    return df
