"""Move logs: replay one hand (or game) with logging on, as documented records.

Every record is a dict with ``event`` and ``seat`` plus event fields:

============  ==========================================================================
event         fields
============  ==========================================================================
deal          ``card``: dealt to ``seat`` (one at a time from the dealer's left, R2)
upcard        ``card``: turned up after the deal; ``seat`` is the dealer (C1)
turn          ``turn``: ``seat``'s own turn number begins
take          ``card``: the discard taken as the normal draw (R9.1); in Tuluki (V9)
              ``turned: True``: the turned card taken as B's draw (the only take there)
decline       ``card``, ``as`` (``"take"`` or ``"call"``): ``seat`` was offered the live
              discard and passed (R9.1 next player; R9.2 each eligible seat in priority
              order; V9 B's call of D); V9 also ``"turned_take"`` (B passes on the turned
              card) and ``"turned_call"`` (A, eligible to call it, does not). Every seat the
              rules let call (not opened, under ``Rules.call_limit``) is offered, so a seat
              whose own policy never calls (``never-call``, ``call-<k>`` at its k) is
              logged as declining too
call          ``card``, ``discarder``: a call (R9.2; V9 B's call of D); V9 ``turned: True``
              (no ``discarder``): A calls the card it turned up, B allowing
penalty       ``card``: the caller's penalty card from the stock
turn_up       ``card``: V9, ``seat`` (A, who discarded D or dealt the upcard) turns up the
              top card of the stock for B
refuse        ``card``: V9, ``seat`` (B) refuses A's call of the turned card
bury          ``card``: V9, nobody took or called the turned card: it goes face up onto the
              pile, never live (only R13's reshuffle brings it back); ``seat`` is A
draw          ``card``: drawn from the stock
reshuffle     ``cards``: the discard pile but its top became the stock (R13)
open          ``seat`` lays its contract now (R7); its melds follow
meld          ``meld``, ``kind`` (group/run), ``cards`` [(card, position)], ``contract``
              (True for the melds of an opening that make the contract, R7): a new meld
layoff        ``card``, ``meld``, ``position`` (run position 1-14; 0 for groups) (R10, R11)
joker_move    ``meld``, ``from``, ``to``: the joker a natural replaced moves (R11)
discard       ``card``: it is now live, offered under R9
no_discard    the turn ends without a discard (C2: only jokers left); nothing is offered
out           ``on_opening``: ``seat`` emptied its hand (R12)
void          the hand is void (R13); ``stalled``: True when it is the engine's turn cap
              (nobody went out in ``MAX_TURNS`` turns: a safeguard, not a rule; not replayed)
score         ``penalty``, ``doubled`` (R12; ``doubled``: the hand was doubled)
drop          ``hand``, ``attempts``: the hand was void in every attempt the rules allow
              (``Rules.max_replays``) and is given up; the deal passes on
============  ==========================================================================

Cards are canonical text (``10♥``, ``JK``). Each hand attempt's records start with a ``hand``
record holding ``game``, ``hand``, ``attempt``, ``dealer``, ``players``, ``groups``, ``runs``,
``cards_dealt``. Only the top discard right after a discard (or the upcard, C1) is offered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._lib import check_bool, check_seed
from ..game.cards import card_text
from ..game.rules import contract_text
from ._kernels import engine as _E
from ._kernels import search as _S
from .play import rules_vector, setup

_NAMES = {
    _E.EV_DEAL: "deal", _E.EV_UPCARD: "upcard", _E.EV_TURN: "turn", _E.EV_TAKE: "take",
    _E.EV_CALL: "call", _E.EV_PENALTY: "penalty", _E.EV_DRAW: "draw",
    _E.EV_RESHUFFLE: "reshuffle", _E.EV_OPEN: "open", _E.EV_MELD: "meld",
    _E.EV_MELD_CARD: "meld_card", _E.EV_LAYOFF: "layoff", _E.EV_JOKER_MOVE: "joker_move",
    _E.EV_DISCARD: "discard", _E.EV_OUT: "out", _E.EV_VOID: "void", _E.EV_SCORE: "score",
    _E.EV_DECLINE: "decline", _E.EV_NO_DISCARD: "no_discard", _E.EV_TURN_UP: "turn_up",
    _E.EV_REFUSE: "refuse", _E.EV_BURY: "bury",
}
_DECLINE_AS = {_E.DECLINE_TAKE: "take", _E.DECLINE_CALL: "call",
               _E.DECLINE_TURNED_TAKE: "turned_take", _E.DECLINE_TURNED_CALL: "turned_call"}


@dataclass
class Trace:
    """The move log of a hand or a game: ``records`` (see the module doc) and the rules."""

    rules: object
    policies: list
    records: list = field(default_factory=list)
    whole_game: bool = False

    def play_by_play(self) -> str:
        """A readable account of the log, one line per move (a whole game ends with the
        totals and the winner, R14)."""
        return format_records(self.records, totals=self.whole_game)

    def __str__(self) -> str:
        return self.play_by_play()


def _records(log, n, hand_info) -> list[dict]:
    recs = [dict(event="hand", seat=-1, **hand_info)]
    i = 0
    while i < n:
        ev, seat, card, a, b, c, d = (int(x) for x in log[i])
        name = _NAMES[ev]
        r = {"event": name, "seat": seat}
        if ev == _E.EV_MELD:
            cards = []
            for j in range(c):
                row = log[i + 1 + j]
                cards.append((card_text(int(row[2])), int(row[4])))
            r.update(meld=a, kind="group" if b == 0 else "run", cards=cards, contract=bool(d))
            i += 1 + c
            recs.append(r)
            continue
        if ev in (_E.EV_DEAL, _E.EV_UPCARD, _E.EV_PENALTY, _E.EV_DRAW, _E.EV_DISCARD,
                  _E.EV_TURN_UP, _E.EV_REFUSE, _E.EV_BURY):
            r["card"] = card_text(card)
        elif ev == _E.EV_TAKE:
            r["card"] = card_text(card)
            if b:
                r["turned"] = True
        elif ev == _E.EV_TURN:
            r["turn"] = a
        elif ev == _E.EV_DECLINE:
            r.update({"card": card_text(card), "as": _DECLINE_AS[a]})
        elif ev == _E.EV_CALL:
            if b:
                r.update(card=card_text(card), turned=True)
            else:
                r.update(card=card_text(card), discarder=a)
        elif ev == _E.EV_RESHUFFLE:
            r["cards"] = a
        elif ev == _E.EV_LAYOFF:
            r.update(card=card_text(card), meld=a, position=b)
        elif ev == _E.EV_JOKER_MOVE:
            r.update({"meld": a, "from": b, "to": c})
        elif ev == _E.EV_VOID:
            r["stalled"] = bool(a)
        elif ev == _E.EV_OUT:
            r["on_opening"] = bool(a)
        elif ev == _E.EV_SCORE:
            r.update(penalty=a, doubled=bool(b))
        recs.append(r)
        i += 1
    return recs


def hand_records(table, rules, game, hand_no, attempt, dealer) -> list[dict]:
    """The records of the hand attempt just played on ``table`` with its log on: a ``hand``
    record, then the moves. The one record builder of :func:`trace` and of
    :func:`kalooki_sim.trace_decision`.

    Raises
    ------
    RuntimeError
        If the log overflowed its ``MAX_LOG`` rows (records would be lost).
    """
    n = int(table.gs[_E.GS_LOG_N])
    if n > table.log.shape[0]:
        raise RuntimeError(f"move log overflow ({n} records); raise engine.MAX_LOG")
    cards, g, r = rules.deal(hand_no)
    info = dict(hand=hand_no, attempt=attempt, dealer=dealer, players=rules.players, groups=g,
                runs=r, cards_dealt=cards, game=game)
    return _records(table.log, n, info)


def _play_logged(seed, game, hand_no, attempt, dealer, rules, pol, table):
    rv = rules_vector(rules, hand_no)
    out = np.zeros((rules.players, _E.O_COLS), np.int32)
    table.gs[_E.GS_LOG_ON] = 1
    deal = _E.Deal(seed, game, hand_no, attempt, dealer)
    if len(pol) > rules.players:  # a search seat (pol of 2P rows): its offers by rollouts
        sw = _S.new_search_ws(rules.players, rules.pack_size)
        void = _S.search_hand(deal, rv, pol, table, sw, out, 0)
    else:
        void = _E.play_hand(deal, rv, pol, table, out, 0)
    return bool(void), hand_records(table, rules, game, hand_no, attempt, dealer), out


def trace(seed, game=0, hand=1, players=None, policies="greedy", rules=None,
          whole_game=False) -> Trace:
    """The move log of one hand as :func:`play_hands` plays it, or of a whole game.

    With ``whole_game=False`` this is hand ``hand`` of game ``game`` exactly as
    ``play_hands(n, hand, ..., seed=seed)`` played it (row ``game``), void attempts included
    (R13: replayed by the same dealer until scored, at most ``rules.max_replays`` times).
    With ``whole_game=True`` it is game ``game`` as :func:`play_games` plays it.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = ks.trace(seed=3, game=0, hand=1)
    >>> t.records[0]["event"], t.records[1]["event"]
    ('hand', 'deal')
    """
    rules, pols, pol, seed, _ = setup(players, policies, seed, rules, None)
    game = check_seed(game, "game")
    whole_game = check_bool("whole_game", whole_game)
    if not whole_game:
        rules.deal(hand)  # a clear error for a hand number outside the schedule
    table = _E.new_table(rules.players, rules.pack_size, log_on=True)
    t = Trace(rules=rules, policies=pols, whole_game=whole_game)
    dealer = int(_E.first_dealer(seed, game, rules.players))
    hands = range(1, rules.hands + 1) if whole_game else [hand]
    for h in hands:
        attempt = 0
        while True:
            void, recs, out = _play_logged(seed, game, h, attempt, dealer, rules, pol, table)
            t.records += recs
            attempt += 1
            stalled = int(out[0, _E.O_STALLED])
            if _E.hand_done(int(void), stalled, attempt, rules.max_replays):
                break
        if void and not stalled:
            t.records.append(dict(event="drop", seat=-1, hand=h, attempts=attempt))
        dealer = (dealer + 1) % rules.players
    return t


#: one line per simple event; ``hand``, ``deal`` and ``upcard`` are handled in format_records
_LINES = {
    "turn": "-- seat {seat}, turn {turn}",
    "take": "   takes {take_what} {card}",
    "call": "   seat {seat} calls {card} {call_note}",
    "turn_up": "   seat {seat} turns up {card}",
    "refuse": "   seat {seat} refuses the call of {card}",
    "bury": "   {card} is buried face up on the pile",
    "penalty": "   seat {seat} takes penalty card {card}",
    "draw": "   draws {card}",
    "reshuffle": "   stock empty: {cards} discards reshuffled into a new stock",
    "open": "   OPENS",
    "meld": "   lays {kind} #{meld}: {card_list}",
    "layoff": "   lays off {card} on #{meld}",
    "joker_move": "   the joker on #{meld} moves {from} -> {to}",
    "discard": "   discards {card}",
    "no_discard": "   holds only jokers: no discard (C2)",
    "decline": "   seat {seat} passes on {card}",
    "drop": "   hand {hand} given up after {attempts} void attempts (Rules.max_replays)",
    "out": "   seat {seat} is OUT{double_note}",
    "void": "   {void_note}",
    "score": "   seat {seat} scores {penalty}{double_note}",
}


def format_records(records, totals: bool = False) -> str:
    """The play-by-play text of a list of records (``totals``: end with the game's totals and
    winner, R14)."""
    lines = []
    dealt: dict[int, list[str]] = {}
    out_seat = None
    sums: dict[int, int] = {}
    for r in records:
        e = r["event"]
        if e == "hand":
            dealt, out_seat = {}, None
            lines.append(
                f"== hand {r['hand']} (attempt {r['attempt']}): {r['cards_dealt']} cards, "
                f"{contract_text(r['groups'], r['runs'])}; dealer seat {r['dealer']}"
            )
        elif e == "deal":
            dealt.setdefault(r["seat"], []).append(r["card"])
        elif e == "upcard":
            lines += [f"   seat {seat} dealt: {' '.join(dealt[seat])}" for seat in sorted(dealt)]
            lines.append(f"   upcard {r['card']}")
        else:
            if e == "out":
                out_seat = r["seat"]
            if e == "score":
                sums[r["seat"]] = sums.get(r["seat"], 0) + int(r["penalty"])
            extra = {
                "card_list": " ".join(c for c, _ in r["cards"]) if e == "meld" else "",
                "take_what": "the turned card" if r.get("turned") else "the discard",
                "call_note": ("(the turned card, with a penalty card)" if r.get("turned") else
                              f"(discarded by seat {r.get('discarder')})"),
                "void_note": ("no one went out within the engine's turn cap: STALLED, given up"
                              if r.get("stalled") else
                              "the stock is exhausted again: the hand is VOID (R13)"),
                "double_note": _double_note(r, e, out_seat),
            }
            lines.append(_LINES[e].format(**{**r, **extra}))
    if totals and sums:
        lines.append("== game over: totals " + ", ".join(f"seat {s} {v}"
                                                         for s, v in sorted(sums.items())))
        best = min(sums.values())
        won = [s for s, v in sorted(sums.items()) if v == best]
        lines.append(f"   seat {won[0]} wins with {best}" if len(won) == 1 else
                     "   seats " + ", ".join(map(str, won)) + f" share the win with {best} (R14)")
    return "\n".join(lines)


def _double_note(r, event, out_seat) -> str:
    """`` on the opening: ...`` for the out, ``(doubled)`` for a doubled penalty (R12)."""
    if event == "out":
        return " on the opening: the others' penalties double" if r.get("on_opening") else ""
    if event == "score" and r["seat"] == out_seat:
        return " (went out)"
    return " (doubled)" if r.get("doubled") else ""

