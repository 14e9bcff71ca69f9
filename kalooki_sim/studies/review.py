"""Game review (issue 19): every take and call decision of one seat in a traced hand or game,
valued by the advisor from what that seat knew at that moment.

The move log is read as the seat saw it: its own cards, and of the others only what the table
shows (each take and call, R9; melds and lay-offs, R7, R10; discards; hand sizes; the stock's
size; R13's reshuffle). At each decision that knowledge is handed to :func:`.advisor.advise`
(``known=``, ``hand_sizes=``, ``seen=``, ``table=``, ...); the hidden cards of the real deal are
never read.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._stats import holm_adjust, share_text
from ..engine._kernels import rng as _R
from ..engine.trace import Trace
from ..game._checks import check_bool, check_choice, check_int, check_seed
from ..game._progress import progress_bar
from .advisor import OBJECTIVES, advise

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

_OTHER = {"take": "draw", "draw": "take", "call": "pass", "pass": "call"}


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


def _seed_of(seed, m):
    """The rollouts' seed of one decision: its own counter-based stream (C3)."""
    k = int(_R.stream_key(seed, m.game, m.hand * 64 + m.attempt, m.turn,
                          2 * (m.decision == "call") + 1))
    return k >> 1


def review(trace, seat, *, rollouts=200, objective="relative", policies="expert", seed=0,
           history=True, threads=None, progress=False) -> pd.DataFrame:
    """Every take and call decision of ``seat`` in a traced hand (or game), judged (R9).

    At each decision the seat's knowledge at that moment (its hand; what each opponent took or
    called and has not laid down or discarded; the pile, the table, the hand sizes, the
    stock's size and whether it was reshuffled, R13; never the hidden cards) goes to
    :func:`~kalooki_sim.advise`, which plays both choices on the same sampled cards.

    Parameters
    ----------
    trace : Trace
        From :func:`~kalooki_sim.trace` (one hand, or ``whole_game=True``); not Tuluki (V9).
    seat : int
        The seat to review, 0 to players - 1 (as the trace numbers them).
    rollouts : int
        Paired rollouts per decision; modest by default (a hand in seconds), 500 or more for
        sharper verdicts.
    objective : {"relative", "penalty"}
        What the values measure: your penalty minus the table's mean, doubles counted
        (default), or your own penalty alone (see :func:`~kalooki_sim.advise`).
    policies : str, Policy or list
        How everyone plays in the rollouts (the advisor's model of the table): ``"expert"``.
    seed : int
        Seed of the rollouts; each decision has its own stream (C3), so the table does not
        depend on the threads.
    history : bool
        Give each decision the hand's public history so far (every discard, take, call, pass
        on a discard and stock draw, from the trace's records; :func:`~kalooki_sim.advise`'s
        ``history``), so the sampled hands are weighted by what the opponents did (default);
        ``False``: only the situation (the weights' collapse is then never an issue). The
        columns ``ess`` and ``history_strength`` say how much was read.
    threads : int, optional
        Numba threads (default: all).
    progress : bool, optional
        A progress bar of decisions on stderr.

    Returns
    -------
    pandas.DataFrame
        One row per decision, in play order: ``game, hand, attempt, turn`` (the table turn of
        the offer), ``seat``, ``decision`` (``take``: the seat is next, R9.1; ``call``: out of
        turn, R9.2), ``card``, ``discarder`` (the seat that discarded it), ``stock_left``,
        ``cards_held`` (the seat's cards then), ``needed_before, needed_after, outs_before,
        outs_after`` (cards still needed without and with the card, copies still to come
        that cut it), ``action`` (what the seat did: take/draw or call/pass), ``value_act`` and
        ``value_pass`` (the objective's expected value, points, of taking or calling and of
        not), ``d_value`` (act minus pass; negative: acting is better) with its 95% interval
        ``d_value_lo, d_value_hi``, ``out_act, out_pass`` (chance of going out first),
        ``advice`` (the advisor's choice, or ``unsure``), ``confidence`` (clearly, probably,
        unsure), ``objective``, ``rollouts``.
        ``p_value``: the paired t test of the difference; ``p_holm``: Holm's adjustment of it
        over the decisions of the same game and hand; ``verdict`` (``good``: the action taken
        is better, significant at 5% after Holm; ``mistake``: the other is; ``close``)
        controls the chance of any wrong good or mistake in a hand at 5%; ``verdict_95``: the
        one decision's 95% interval alone, unadjusted. ``doubled_act, doubled_pass``: the
        chance of being caught by an opening double (R12) each way; ``reason``: cards needed
        and outs before -> after and those chances, in words; ``ess``, ``history_strength``:
        the advisor's effective sample size and the strength the history was read at
        (:class:`~kalooki_sim.studies.advisor.Advice`).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = ks.trace(seed=1, game=0, hand=1, policies="expert")
    >>> r = ks.review(t, seat=0, rollouts=20, policies="greedy")
    >>> set(r["verdict"]) <= {"good", "mistake", "close"}
    True
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
    objective = check_choice("objective", objective, tuple(OBJECTIVES))
    seed = check_seed(seed)
    moments, _ = walk(trace, seat)
    bar = progress_bar(progress, len(moments), auto_at=0, unit="decision",
                       desc="kalooki review")
    rows = []
    history = check_bool("history", history)
    for m in moments:
        sit = dict(m.situation)
        if not history:
            sit.pop("history")
        with warnings.catch_warnings():  # a collapse is in the columns ess, history_strength
            warnings.simplefilter("ignore", RuntimeWarning)
            a = advise(**sit, objective=objective, policies=policies, rollouts=rollouts,
                       seed=_seed_of(seed, m), rules=rules, threads=threads)
        t = a.table.set_index("action")
        act, pas = t.index[0], t.index[1]
        d = a.difference
        lo, hi = d[f"{objective}_lo"], d[f"{objective}_hi"]
        rows.append(dict(
            game=m.game, hand=m.hand, attempt=m.attempt, turn=m.turn, seat=seat,
            decision=m.decision, card=m.card, discarder=m.discarder,
            stock_left=m.situation["stock_left"], cards_held=" ".join(m.situation["hand"]),
            **a.needed, action=act if m.acted else pas,
            value_act=float(t.loc[act, objective]), value_pass=float(t.loc[pas, objective]),
            d_value=d[objective], d_value_lo=lo, d_value_hi=hi,
            p_value=d[f"{objective}_p"],
            out_act=float(t.loc[act, "out"]), out_pass=float(t.loc[pas, "out"]),
            doubled_act=float(t.loc[act, "doubled"]),
            doubled_pass=float(t.loc[pas, "doubled"]), act_name=act,
            advice=a.action, confidence=a.confidence, verdict_95=verdict(m.acted, lo, hi),
            objective=objective, rollouts=a.rollouts, ess=a.ess,
            history_strength=a.history_strength))
        bar.update(1)
    bar.close()
    cols = ["game", "hand", "attempt", "turn", "seat", "decision", "card", "discarder",
            "stock_left", "cards_held", "needed_before", "needed_after", "outs_before",
            "outs_after", "action", "value_act", "value_pass", "d_value", "d_value_lo",
            "d_value_hi", "p_value", "p_holm", "out_act", "out_pass", "doubled_act",
            "doubled_pass", "advice", "confidence", "verdict", "verdict_95", "reason",
            "objective", "rollouts", "ess", "history_strength"]
    df = pd.DataFrame(rows, columns=[c for c in cols
                                     if c not in ("p_holm", "verdict", "reason")] + ["act_name"])
    # Holm over each hand's decisions (all its attempts): the family a reader scans at once
    df["p_holm"] = np.nan
    for _, ix in df.groupby(["game", "hand"]).groups.items():
        df.loc[ix, "p_holm"] = holm_adjust(df.loc[ix, "p_value"].to_numpy(float))
    acted = df["action"].isin(["take", "call"])
    df["verdict"] = [holm_verdict(a, dv, p) for a, dv, p in
                     zip(acted, df["d_value"], df["p_holm"], strict=True)]
    df["reason"] = [_reason(r) for r in df.to_dict("records")]
    df = df[cols]
    for c in ("needed_before", "needed_after", "outs_before", "outs_after"):
        df[c] = df[c].astype("Int64")
    return df
