"""Should I call? A position advisor (issue 9).

A player types in one situation: their hand, the card just discarded, where the discarder
sits, the stock left, their calls so far, who has opened and what is on the table. The advisor
deals the cards the player cannot see at random, consistently with all that (each sample is a
full legal table), plays every sample on both ways with the same cards and the same later
random draws, and compares: the paired difference is the decision's value, with an interval.
Like a poker equity calculator it can stop early at a target interval width or a time limit.

What a player saw at the table is used (issue 19): the cards each opponent took or called and
still holds (``known``), the opponents' hand sizes, the discards in order and whether the stock
was reshuffled (R13). What it optimises is a choice: its own penalty, or its penalty against
the table's mean (doubles counted), which is what decides a game (R12, R14).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from .._stats import share_text
from ..engine._kernels import engine as _E
from ..engine._kernels import history as _H
from ..engine.play import _setup, _threads, defer_players, rules_vector
from ..engine.policies import no_search
from ..game._checks import check_bool, check_choice, check_int, check_real, not_allowed
from ..game._kernels import layoff as _L
from ..game._progress import progress_bar
from ..game.cards import JOKER, N_CODES, card_text, to_codes_named
from ..game.melds import _one_card, meld_record, resolve_contract
from ..players.needed import cards_needed, outs
from ._history import check_history, engine_events
from ._weighted import (  # noqa: F401  (confidence is public here; the rest for the tests)
    RC,
    SEQ_ALPHA,
    _decided,
    _ess_floor,
    _summary,
    _t3,
    _temper,
    confidence,
)

BATCH = 250  # rollouts between checks of the margin and the clock
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
    paired rollouts played; ``stopped_by``: ``"rollouts"``, ``"margin"``, ``"time_limit"`` or
    ``"decided"`` (``decide=True``: the sequential rule decided).

    What the table showed is read into the hidden hands (issue 29): ``history_events``: the
    opponents' events weighed (those typed, and the passes of the seats asked before you);
    ``ess``: the effective sample size of the rollouts' weights, ``(sum w)^2 / sum w^2``
    (the rollouts when nothing is weighed); ``history_strength``: the power the weights were
    raised to (1: the whole history; less when the weights collapsed below
    ``max(min(30, n / 4), n / 10)`` for ``n`` rollouts and were tempered to keep that many, a
    fall back that ``fallback`` describes and a warning announces); ``sampled_ranks``: the
    weighted mean count per rank (A..K, JK) of each opponent's sampled hand, one row per seat
    to your right.
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
    ess: float = float("nan")
    history_strength: float = 1.0
    fallback: str = ""
    sampled_ranks: pd.DataFrame = field(default_factory=pd.DataFrame)
    history_events: int = 0

    def __str__(self) -> str:
        shown = self.table.copy()
        for c in shown.columns:
            if c.startswith(("out", "doubled", "void")):
                shown[c] = (100 * shown[c]).map("{:.1f}%".format)
            elif c.startswith(("penalty", "relative")):
                shown[c] = shown[c].map("{:.1f}".format)
        ev = f"{self.history_events} opponent event{'s' if self.history_events != 1 else ''}"
        read = (f"hidden hands: {ev} read; effective sample "
                f"size {self.ess:,.0f} of {self.rollouts:,} rollouts"
                + (f" (history at strength {self.history_strength:.2f}: {self.fallback})"
                   if self.fallback else ""))
        return (f"{self.recommendation}\n\nobjective: {self.objective} "
                f"({OBJECTIVES[self.objective]})\n{read}\n\n{shown.to_string(index=False)}"
                f"\n\n{LEGEND}")


def _contract_text(g, r):
    """``"3 groups + 1 run"``."""
    parts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((g, "group"), (r, "run")) if n]
    return " + ".join(parts)


def _seats(name, value, players, allow_empty=True):
    """Seat offsets (seats to the player's right, 1..players-1) from ints or a text list."""
    allowed = f"seats to your right, each 1-{players - 1} (1 = the player before you)"
    if isinstance(value, str):
        parts = [p for p in value.replace(",", " ").split() if p]
        try:
            value = [int(p) for p in parts]
        except ValueError:
            raise ValueError(not_allowed(name, value, allowed)) from None
    try:
        out = [check_int(name, v, 1, players - 1, why=allowed) for v in value]
    except TypeError:
        raise TypeError(not_allowed(name, value, allowed)) from None
    if len(set(out)) != len(out):
        raise ValueError(not_allowed(name, value, allowed, "each seat once"))
    return out


def _melds(table, opened, players, rules):
    """``[(owner offset, record, codes)]`` of the melds on the table (R5, R7)."""
    if isinstance(table, str):
        table = [m for m in table.split(";") if m.strip()]
    out = []
    for i, m in enumerate(table):
        owner = None
        if isinstance(m, tuple) and len(m) == 2 and not isinstance(m[0], str):
            owner, m = m
            owner = check_int("table owner", owner, 1, players - 1,
                              why="the seat, to your right, of the opponent who laid it")
            if owner not in opened:
                raise ValueError(f"table: the meld {m!r} belongs to seat {owner}, which has not "
                                 "opened (R7: melds go down with the contract); add it to "
                                 "opened")
        elif not opened:
            raise ValueError("table holds melds but opened is empty: only an opponent who has "
                             "opened has melds down (R7); say which seats opened")
        else:
            owner = opened[i % len(opened)]
        codes = to_codes_named("table", m, rules)
        try:
            rec = meld_record(codes, rules=rules)  # V1: the rules' pack, not the default
        except ValueError as e:
            raise ValueError(f"table: {e}") from None
        out.append((owner, rec, codes))
    return out


def _seat_map(name, value, players, allowed):
    """``{offset: text}`` from a dict, a ``"1: 7♠ 7♥; 3: 2♣"`` text or ``"k:..."`` strings."""
    if value is None:
        return {}
    if isinstance(value, str):
        value = [v for v in value.split(";") if v.strip()]
    if isinstance(value, dict):
        items = list(value.items())
    else:
        items = []
        for v in value:
            if not isinstance(v, str) or ":" not in v:
                raise ValueError(not_allowed(name, v, allowed))
            k, _, rest = v.partition(":")
            items.append((k, rest))
    out = {}
    why = f"seats to your right, each 1-{players - 1}, as in opened"
    for k, v in items:
        if isinstance(k, str):
            try:
                k = int(k.strip())
            except ValueError:
                raise ValueError(not_allowed(name, value, allowed)) from None
        k = check_int(f"{name} seat", k, 1, players - 1, why=why)
        if k in out:
            raise ValueError(not_allowed(name, value, allowed, f"seat {k} given twice"))
        out[k] = v
    return out


def _known(known, players, rules):
    """``{offset: codes}``: the cards each opponent took or called and still holds."""
    allowed = ('a dict {seat: cards}, e.g. {1: "7♠ 7♥ 6♥"}, or text "1: 7♠ 7♥ 6♥; 3: 2♣" '
               f"(seats to your right, 1-{players - 1})")
    return {k: to_codes_named(f"known[{k}]", v, rules)
            for k, v in _seat_map("known", known, players, allowed).items()}


def _sizes(hand_sizes, players):
    """``{offset: int}``: the opponents' hand sizes a player counted."""
    allowed = ('a dict {seat: cards}, e.g. {1: 11, 3: 9}, or text "1:11, 3:9" '
               f"(seats to your right, 1-{players - 1})")
    if isinstance(hand_sizes, str):
        hand_sizes = [v for v in hand_sizes.replace(",", ";").split(";") if v.strip()]
    out = {}
    for k, v in _seat_map("hand_sizes", hand_sizes, players, allowed).items():
        if isinstance(v, str):
            try:
                v = int(v.strip())
            except ValueError:
                raise ValueError(not_allowed("hand_sizes", hand_sizes, allowed)) from None
        out[k] = v
    return out


def _check_copies(parts, rules):
    """A card shown more often than the pack holds it (R1) is an impossible history: the error
    says where each copy was given."""
    from collections import Counter

    total = Counter()
    where = {}
    for name, codes in parts:
        for c in codes:
            total[int(c)] += 1
            where.setdefault(int(c), Counter())[name] += 1
    for c, n in total.items():
        cap = rules.jokers if c == JOKER else rules.decks
        if n > cap:
            places = ", ".join(f"{k} {v}" for k, v in where[c].items())
            raise ValueError(
                f"{card_text(c)} is given {n} times ({places}); the pack holds {cap} "
                f"({rules.decks} decks + {rules.jokers} jokers, R1): a history that cannot "
                "happen")


def _opponent_sizes(sizes, known, opened, laid, cards, rules, rules_g, rules_r):
    """Each opponent's hand size: as typed, else the cards dealt (less its melds if opened);
    an unopened opponent holds the cards dealt plus 2 per call (R9), an opened one at least 1
    (R12), and no seat holds fewer cards than are known in it."""
    P, lim = rules.players, rules.call_limit
    out, calls = {}, {}
    for k in range(1, P):
        if k in sizes:
            n = sizes[k]
            if k in opened:  # its opening laid at least 3 cards a group, 4 a run (R3, R4)
                hi = max(1, cards + 2 * lim - 3 * rules_g - 4 * rules_r)
                n = check_int(f"hand_sizes[{k}]", n, 1, hi,
                              why=f"seat {k} has opened: 1 to the cards dealt plus 2 per call "
                                  "less the cards of its contract")
            else:
                ok = [cards + 2 * c for c in range(lim + 1)]
                n = check_int(f"hand_sizes[{k}]", n, cards, ok[-1],
                              why=f"seat {k} has not opened: {cards} dealt plus 2 per call "
                                  f"(R9), so one of {', '.join(map(str, ok))}")
                if n not in ok:
                    raise ValueError(not_allowed(f"hand_sizes[{k}]", n, "one of "
                                                 + ", ".join(map(str, ok)),
                                                 f"seat {k} has not opened: {cards} dealt "
                                                 "plus 2 per call, R9"))
                calls[k] = (n - cards) // 2
        else:
            n = max(1, cards - laid[k]) if k in opened else cards
        m = len(known.get(k, ()))
        if m > n:
            raise ValueError(
                f"known[{k}] holds {m} cards but seat {k} holds {n}; give at most {n} known "
                f"cards, or its hand size with hand_sizes={{{k}: ...}} if it called (R9: a "
                "call brings 2 cards)")
        out[k] = n
    return out, calls


def _situation(hand, card, contract, players, discarder, stock_left, calls_made, opened, table,
               seen, rules, known=None, hand_sizes=None, reshuffled=False):
    """The base table (seat 0 is the player) and the hidden cards' pool, validated."""
    P = rules.players
    g, r = resolve_contract(contract, rules)
    hand_no = next((h for h in range(1, rules.hands + 1) if rules.contract(h) == (g, r)), None)
    if hand_no is None:
        raise ValueError(not_allowed("contract", contract,
                                     f"a hand number 1-{rules.hands} or a (groups, runs) pair "
                                     "of the rules' schedule"))
    cards, g, r = rules.deal(hand_no)
    codes = to_codes_named("hand", hand, rules)
    top = _one_card(card, rules)
    discarder = check_int("discarder", discarder, 1, P - 1,
                          why="how many seats to your right the discarder sits (1: you are next)")
    calls_made = check_int("calls_made", calls_made, 0, rules.call_limit,
                           why=f"your calls this hand, up to the rules' limit {rules.call_limit}")
    if discarder >= 2 and calls_made >= rules.call_limit:
        raise ValueError(f"calls_made={calls_made} is not allowed for a call: the rules allow "
                         f"{rules.call_limit} calls a hand (R9, V8)")
    size = cards + 2 * calls_made  # R9: a call brings the card and a penalty card
    if len(codes) != size:
        raise ValueError(
            f"hand has {len(codes)} cards; in hand {hand_no} ({_contract_text(g, r)}) a player "
            f"who has not opened holds the {cards} dealt plus 2 for each call, so {size} with "
            f"calls_made={calls_made} (R2, R9)")
    reshuffled = check_bool("reshuffled", reshuffled)
    opened = _seats("opened", opened, P)
    melds = _melds(table, opened, P, rules)
    seen_codes = to_codes_named("seen", seen, rules)
    known = _known(known, P, rules)
    sizes = _sizes(hand_sizes, P)
    _check_copies([("in your hand", codes), ("as the card", [top]), ("in seen", seen_codes)]
                  + [("on the table", [x for m in melds for x in m[2]])]
                  + [(f"in known[{k}]", v) for k, v in known.items()], rules)
    shown = [codes, [top], seen_codes] + [m[2] for m in melds] + list(known.values())
    dealt_stock = rules.pack_size - P * cards - 1
    laid = {k: 0 for k in range(1, P)}
    for owner, _, c in melds:
        laid[owner] += len(c)
    n_size, opp_calls = _opponent_sizes(sizes, known, opened, laid, cards, rules, g, r)
    pool = np.full(N_CODES, rules.decks, np.int64)
    pool[JOKER] = rules.jokers
    for c in np.concatenate(shown):
        pool[c] -= 1
    seat = {k: (-k) % P for k in range(1, P)}  # offset to the right -> engine seat
    opp = np.zeros(P, np.int64)  # hidden cards per seat
    for k in range(1, P):
        opp[seat[k]] = n_size[k] - len(known.get(k, ()))
    n_pool = int(pool.sum())
    room = n_pool - int(opp.sum())
    if room < 0:
        raise ValueError(
            f"hand_sizes={n_size} is not allowed: the opponents would hold {int(opp.sum())} "
            f"unknown cards but only {n_pool} cards are not in your hand, the pile, the table or "
            "known; give smaller hands or fewer cards elsewhere")
    if stock_left is None:
        if reshuffled:
            raise ValueError("stock_left=None is not allowed with reshuffled=True; give the "
                             "cards in the stock after R13's reshuffle")
        # as full as the rest allows: the stock after the deal less the calls' penalty cards
        # (R9), and no more than the cards not placed elsewhere
        stock_left = max(0, min(dealt_stock - calls_made - sum(opp_calls.values()), room))
        default = " (stock_left=None: as full as the rest allows)"
    else:
        default = ""
    hi = room if reshuffled else min(dealt_stock, room)
    why = (f"at most {hi}: the pack less your hand, the pile and table you gave, the known "
           "cards and the opponents' hands" + ("" if reshuffled or hi < dealt_stock else
                                              "; without reshuffled=True the stock is within "
                                              "the first stock (R13)") + default)
    stock_left = check_int("stock_left", stock_left, 0, hi, why=why)
    if top == JOKER and (len(seen_codes) or melds or stock_left != dealt_stock or reshuffled):
        raise ValueError("card='JK' is not allowed here; a joker is never discarded (R6): only "
                         f"the upcard may be one (C1), with the stock as dealt ({dealt_stock} "
                         "cards), nothing seen and nothing on the table")
    pile_extra = room - stock_left
    # the base table
    t = _E.new_table(P, rules.pack_size)
    hand_arr, ps, gs, _, disc, mtab = t[0], t[1], t[2], t[3], t[4], t[5]
    for c in codes:
        hand_arr[0, c] += 1
    ps[:, _E.PS_OPEN_TURN] = -1
    ps[:, _E.PS_NC_VAL0] = -1
    ps[:, _E.PS_NC_VAL1] = -1
    ps[0, _E.PS_CALLS] = calls_made
    for k, n in opp_calls.items():
        ps[seat[k], _E.PS_CALLS] = n
    for k, cs in known.items():  # in the hand, known to the table, their ranks marked (R9)
        for c in cs:
            hand_arr[seat[k], c] += 1
            hand_arr[_E._known_row(hand_arr, seat[k]), c] += 1
            if c != JOKER:
                ps[seat[k], _E.PS_TOOK] |= 1 << (int(c) % 13 + 1)
    turns = dealt_stock if reshuffled else max(0, dealt_stock - stock_left)
    ps[:, _E.PS_TURNS] = turns // P
    gs[_E.GS_TURNS] = turns
    gs[_E.GS_OUT] = -1
    gs[_E.GS_FIRST_DOWN] = seat[min(opened)] if opened else -1
    gs[_E.GS_TAKEN_BY] = -1
    gs[_E.GS_CALLED_BY] = -1
    gs[_E.GS_RESHUFFLED] = 1 if reshuffled else 0
    for k in opened:
        ps[seat[k], _E.PS_OPENED] = 1
        ps[seat[k], _E.PS_OPEN_TURN] = ps[seat[k], _E.PS_TURNS]
    for i, (owner, rec, c) in enumerate(melds):
        s = seat[owner]
        rec = rec.copy()
        rec[_L.OWNER] = s
        mtab[i] = rec
        if rec[_L.KIND] == _L.GROUP:
            if ps[s, _E.PS_BAN_R] >> int(rec[_L.KEY]) & 1:
                raise ValueError(f"table: seat {owner} has two groups of one rank (R5)")
            ps[s, _E.PS_BAN_R] |= 1 << int(rec[_L.KEY])
        else:
            if ps[s, _E.PS_BAN_S] >> int(rec[_L.KEY]) & 1:
                raise ValueError(f"table: seat {owner} has two runs of one suit (R5)")
            ps[s, _E.PS_BAN_S] |= 1 << int(rec[_L.KEY])
        for x in c:
            hand_arr[P, x] += 1  # dead: on the table
    gs[_E.GS_N_MELDS] = len(melds)
    for i, c in enumerate(seen_codes):
        disc[i] = c
    disc[len(seen_codes)] = top
    if reshuffled:  # R13's reshuffle is spent: the pile never comes back
        for c in list(seen_codes) + [top]:
            hand_arr[P, c] += 1
    gs[_E.GS_DISC_N] = len(seen_codes) + 1
    gs[_E.GS_LIVE] = 1
    D = seat[discarder]
    gs[_E.GS_DISCARDER] = D
    nxt = (D + 1) % P
    gs[_E.GS_CUR] = nxt
    # the seats asked before the player pass (the card reached the player), R9
    mask, s = 0, nxt
    while True:
        mask |= 1 << s
        if s == 0:
            break
        s = (s + 1) % P
    flat = np.repeat(np.arange(N_CODES, dtype=np.int64), pool)
    dead = [x for m in melds for x in m[2]] + [x for v in known.values() for x in v]
    if reshuffled:
        dead += list(seen_codes)
    info = dict(hand=[card_text(c) for c in codes], card=card_text(top), hand_no=hand_no,
                contract=_contract_text(g, r), players=P, discarder=discarder,
                stock_left=stock_left, calls_made=calls_made, opened=opened,
                table=[[card_text(x) for x in m[2]] for m in melds],
                seen=[card_text(c) for c in seen_codes],
                known={k: [card_text(c) for c in v] for k, v in known.items()},
                hand_sizes=n_size, reshuffled=reshuffled, hidden=n_pool,
                buried_unknown=pile_extra, out_of_reach=[card_text(c) for c in dead])
    return t, hand_no, flat, opp, pile_extra, mask, info


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


def _sentence(action, sure, act_name, card, diff, table, n, stopped_by, objective, needed):
    col = objective
    d, lo, hi = diff[col], diff[f"{col}_lo"], diff[f"{col}_hi"]
    verb = {"take": "taking", "call": "calling"}[act_name]
    what = _WHAT[objective]
    p_act, p_pass = table["out"].iat[0], table["out"].iat[1]
    stop = {"rollouts": "", "decided": " (stopped when the sequential test decided)"}
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
                f"(95% interval {lo:+.1f} to {hi:+.1f}) {how}, so either choice is reasonable; "
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
            f"points (95% interval {lo:+.1f} to {hi:+.1f}) {how}{odds}.{need}{why}")


def advise(hand, card, contract, *, players=4, discarder=2, stock_left=None, calls_made=0,
           opened=(), table=(), seen=(), known=None, hand_sizes=None, reshuffled=False,
           history=None, past_turns=True, objective="relative", policies="expert",
           rollouts=2000, margin=None, time_limit=None, decide=False, seed=0, rules=None,
           threads=None, progress=False) -> Advice:
    """Should I call (or take) this card? Paired rollouts from one situation (R9).

    Parameters
    ----------
    hand : str or iterable
        Your cards (you have not opened: R8 lets only such a player take or call).
    card : str
        The card just discarded (never a joker, R6; the upcard may be one, C1).
    contract : int or (int, int)
        The hand number of the schedule (1-9) or its ``(groups, runs)``.
    players : int
        Seats at the table (defers to ``rules.players`` when rules are given).
    discarder : int
        How many seats to your right the discarder sits: 1, you are next and choose to take it
        or draw (R9.1); 2 or more, you may call it (R9.2) or pass; the players between you
        were asked first and passed.
    stock_left : int, optional
        Cards left in the stock; default: as full as the rest allows (the stock right after the
        deal less the calls' penalty cards, R9); required with ``reshuffled=True``.
    calls_made : int
        Your calls so far this hand (each brought you 2 cards).
    opened : iterable of int or str
        Opponents who have opened, as seats to your right (``(1, 3)`` or ``"1,3"``).
    table : iterable
        Melds on the table, each cards (owned in turn by the opened seats) or ``(seat, cards)``;
        as text, melds separated by ``;``.
    seen : str or iterable
        The discards under the offered card, in the order they went down (bottom first), as far
        as you saw them; the cards the count leaves over are buried unseen.
    known : dict, str or iterable, optional
        The public history: for each opponent (seat to your right, as in ``opened``) the cards
        it took or called (R9) and has not laid down or discarded since, e.g.
        ``{1: "7♠ 7♥ 6♥"}``, or text ``"1: 7♠ 7♥ 6♥; 3: 2♣"``. Every rollout gives that seat
        these cards plus random unseen ones up to its hand size.
    hand_sizes : dict or str, optional
        Opponents' hand sizes, ``{1: 11, 3: 9}`` or ``"1:11, 3:9"``; default: the cards dealt
        (less the cards of its melds given, if opened). An unopened seat holds the cards dealt
        plus 2 per call (R9).
    reshuffled : bool
        The stock was made again from the pile (R13): the next empty stock voids the hand and
        the pile (``seen``, the card) can never come back.
    history : list or str, optional
        What the table saw, in table order: events ``(seat, action, card)`` with ``seat`` to
        your right as in ``opened`` (0: you), ``action`` one of ``discard``, ``pass`` (declined
        to take or call the live discard), ``take``, ``call``, ``draw`` (from the stock: leave
        the card out or give ``None``); or text ``"3:discard:7♦, 1:pass:7♦, 2:draw"``. Each
        sample is weighted by how likely the model player (``policies``) was to do exactly
        what each opponent did with the hand it was dealt (:mod:`.engine._kernels.history`);
        the seats asked before you about this card passed (R9), history or not. A pass, take
        or call answers the last discard (R9); a history that ends with a live discard ends
        with this offer. ``known`` still says which taken or called cards a seat holds.
    past_turns : bool
        Replay each unopened opponent's past turns (a draw and the model's discard each, as
        many as the stock left implies) on its dealt hand, so a seat deep into the hand is as
        close to its contract as the model typically is then (default); ``False``: hidden
        hands dealt uniformly.
    objective : {"relative", "penalty"}
        What the advice minimises: ``"relative"`` (default), your penalty minus the table's
        mean penalty, doubles counted (R12: what decides a game, R14); ``"penalty"``, your own
        penalty alone.
    policies : str, Policy or list
        How everyone plays on from here (you included after this choice); ``"expert"``.
    rollouts : int
        Most paired rollouts to play.
    margin : float, optional
        Stop once the half-width of the objective's paired interval is at most this (points).
    time_limit : float, optional
        Stop after about this many seconds (checked every 250 rollouts).
    decide : bool
        Decide only what the rollouts decide (issue 29): play in batches of 250 and stop as
        soon as the objective's paired difference is significant at level ``0.05 / K`` (two
        sided), ``K = ceil(rollouts / 250)`` the most looks the budget allows; else play on
        until the budget (``rollouts``, ``time_limit``) is spent and answer ``"unsure"``. By
        Bonferroni's inequality over the looks, the chance of a ``"clearly"`` either way when
        the two choices are worth the same is at most 5% (with weighted samples, up to the
        normal approximation of the weighted mean). ``False`` (default): the fixed-size
        reading (``clearly``/``probably``/``unsure`` at the end).
    seed : int
        Seed of the samples and of all play (C3): the same seed gives the same advice, on any
        number of threads.
    rules : Rules, optional
        Jamaican defaults otherwise.
    threads : int, optional
        Numba threads (default: all); the result does not depend on it.
    progress : bool, optional
        A progress bar of rollouts on stderr (advanced every 250); ``None``: on when stderr is
        a terminal; ``False`` (default): off.

    Returns
    -------
    Advice
        ``action`` is the better choice when the difference of the objective (act minus pass,
        paired) is at least *probably* signed, else ``"unsure"``; ``confidence`` says how sure:
        **clearly** when its 95% interval excludes zero, **probably** when only the one-sided
        80% bound excludes zero. The sentence says both, the cards needed and the outs.

    Raises
    ------
    ValueError
        For a history entry that is malformed or cannot happen (named, e.g. ``history[3]``,
        with what is allowed); for a situation that cannot happen: a card given more often
        than the pack holds it (counting your hand, the card, the pile, the table and
        ``known``), more known cards than a seat holds, a hand size the rules do not allow, a
        stock the rest leaves no room for.

    Notes
    -----
    The hidden cards (the stock, the opponents' unknown cards, any discards you did not list)
    are dealt at random given what you typed, then each unopened opponent's past turns are
    replayed (``past_turns``) and the sample is weighted by the history. The estimates are
    self-normalised weighted means, their intervals on the effective sample size
    (``Advice.ess``); when the weights collapse below ``max(min(30, n / 4), n / 10)`` for
    ``n`` rollouts they are tempered (raised to a power below 1) and a ``RuntimeWarning`` says so
    (``Advice.fallback``). The hand at the time of an event is approximated from the hand
    now (the later discards given back, later takes and calls and one random unknown card
    per later draw taken away), and the rest of the table as it is now.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> a = ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=1, rollouts=200,
    ...               policies="greedy", seed=1)
    >>> a.action, a.confidence, a.objective, a.rollouts
    ('take', 'clearly', 'relative', 200)
    >>> a.needed["needed_before"], a.needed["needed_after"]
    (1, 0)
    """
    rules, pols, pol, seed, threads = _setup(defer_players(players, rules), policies, seed,
                                             rules, threads)
    no_search(pols, "advise")
    if rules.tuluki:
        raise ValueError("rules with tuluki=True are not allowed here: the advisor weighs "
                         "Kalooki's R9 offers (take, or call out of turn); Tuluki's discard "
                         "step (V9) is a different choice it does not model yet")
    objective = check_choice("objective", objective, tuple(OBJECTIVES))
    rollouts = check_int("rollouts", rollouts, 2, 10_000_000)
    if margin is not None:
        margin = check_real("margin", margin, 0, open_lo=True)
    if time_limit is not None:
        time_limit = check_real("time_limit", time_limit, 0, open_lo=True)
    past_turns = check_bool("past_turns", past_turns)
    decide = check_bool("decide", decide)
    looks = -(-rollouts // BATCH)  # the most looks the budget allows (decide=True)
    base, hand_no, flat, opp, pile_extra, mask, info = _situation(
        hand, card, contract, players, discarder, stock_left, calls_made, opened, table, seen,
        rules, known=known, hand_sizes=hand_sizes, reshuffled=reshuffled)
    P = rules.players
    top = _one_card(card, rules)
    events = _with_passes(check_history(history, P, top, info["discarder"], rules),
                          info["discarder"], top)
    ev = np.ascontiguousarray(engine_events(events, P))
    n_weighed = int(sum(1 for s_, *_ in events if s_ != 0
                        and s_ not in info["opened"]))
    next_up = info["discarder"] == 1
    act_name, pass_name = _ACT[next_up], _PASS[next_up]
    rv = rules_vector(rules, hand_no)
    if progress is not None:
        progress = check_bool("progress", progress)
    bar = progress_bar(progress, rollouts, auto_at=0, unit="rollout", desc="kalooki advise")
    t0 = time.perf_counter()
    res = np.zeros((rollouts, 2 * RC), np.float64)
    logw = np.zeros(rollouts, np.float64)
    ranks = np.zeros((rollouts, P, _H.RANK_COLS), np.int64)
    j = 4 if objective == "relative" else 0  # the objective's column
    done, stopped_by = 0, "rollouts"
    with _threads(threads):
        nw = max(1, 4 * numba.get_num_threads())  # the result does not depend on it (C3)
        while done < rollouts:
            k = min(BATCH, rollouts - done)
            _H.rollout_block(seed, rv, pol, base, flat, len(flat), opp, pile_extra, 0, mask,
                             done, k, nw, rules.pack_size, ev, len(ev), past_turns,
                             res[done:done + k], logw[done:done + k], ranks[done:done + k])
            done += k
            bar.update(k)
            if decide and _decided(res[:done, j] - res[:done, RC + j], logw[:done], looks):
                stopped_by = "decided"
                break
            if done >= rollouts:
                break
            if margin is not None and done >= 2 * BATCH // 5:
                w, _, _ = _temper(logw[:done], _ess_floor(done))
                _, lo, hi = _t3(res[:done, j] - res[:done, RC + j], w)
                if (hi - lo) / 2 <= margin:
                    stopped_by = "margin"
                    break
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                stopped_by = "time_limit"
                break
    bar.close()
    res, logw, ranks = res[:done], logw[:done], ranks[:done]
    w, beta, ess = _temper(logw, _ess_floor(done))
    fallback = ""
    if beta < 1.0:
        full = _temper(logw, 0)[2]
        fallback = (f"the history's weights collapsed (effective sample size {full:,.1f} of "
                    f"{done:,}); they were tempered to strength {beta:.2f} to keep "
                    f"{ess:,.0f}, so the history is read only in part: give more rollouts or "
                    "a shorter history")
        warnings.warn(f"advise: {fallback}", RuntimeWarning, stacklevel=2)
    tab, diff = _summary(res, act_name, pass_name, w)
    sure, sign = confidence(res[:, j] - res[:, RC + j], w)
    if decide and stopped_by != "decided":  # the sequential rule did not decide: no claim
        sure, sign = "unsure", 0
    action = act_name if sign < 0 else pass_name if sign > 0 else "unsure"
    needed = _needed(info, rules)
    text = _sentence(action, sure, act_name, info["card"], diff, tab, done, stopped_by,
                     objective, needed)
    info["history"] = [(int(a), _HIST_NAMES[int(b)], None if c < 0 else card_text(int(c)))
                       for a, b, c in events]
    return Advice(table=tab, difference=diff, action=action, recommendation=text, rollouts=done,
                  stopped_by=stopped_by, seconds=time.perf_counter() - t0, situation=info,
                  objective=objective, confidence=sure, needed=needed, ess=ess,
                  history_strength=beta, fallback=fallback,
                  sampled_ranks=_rank_table(ranks, w, P), history_events=n_weighed)


_HIST_NAMES = {_H.H_DISCARD: "discard", _H.H_PASS_TAKE: "pass", _H.H_PASS_CALL: "pass",
               _H.H_TAKE: "take", _H.H_CALL: "call", _H.H_DRAW: "draw"}


def _with_passes(events, discarder, card):
    """The history with the passes the offer implies: every seat between the discarder and
    you was asked first and passed (R9; the next player's pass is a declined take), unless the
    history already has that seat answer the offer after its discard."""
    said = set()
    for i in range(len(events) - 1, -1, -1):
        if events[i, 1] == _H.H_DISCARD:
            if (int(events[i, 0]), int(events[i, 2])) == (discarder, card):
                said = {int(e[0]) for e in events[i + 1:]}
            break
    rows = [tuple(int(x) for x in e) for e in events]
    for k in range(discarder - 1, 0, -1):
        if k not in said:
            rows.append((k, _H.H_PASS_TAKE if k == discarder - 1 else _H.H_PASS_CALL, card))
    return np.asarray(rows, np.int64).reshape(-1, _H.H_COLS)


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
