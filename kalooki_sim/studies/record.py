"""The game record: one seat's view of a hand, in plain text a person can write.

A record is what a player at a real table saw: the contract, the table size, the cards dealt
to them, the upcard, then one event a line in the order it happened: the draws (your own
with the card, the others' face down, R6), discards, takes (R9.1), calls (R9.2; your own
with the penalty card you got), openings and melds (R7), lay-offs (R10; a joker a natural
replaces moves by itself, R11), the reshuffle (R13), going out and scores (R12). Passes are
implied: a discard nobody took or called was passed by every seat the rules let act on it.
The format's page is ``guide-record.html`` (``kalooki_sim/report/guide/record.md``).

:func:`read_record` parses it (a :class:`RecordError` names the line and what was expected),
:func:`record_trace` turns it into a :class:`~kalooki_sim.Trace` whose records hold only
what the seat saw (others' hidden cards are ``None``), :func:`review_record` judges its
decisions with :func:`~kalooki_sim.review`, and :func:`write_record` writes a simulated
trace as a record (``kalooki replay --record``).

Examples
--------
>>> import kalooki_sim as ks
>>> text = ks.write_record(ks.trace(seed=1, hand=1), seat=0)
>>> print(text.splitlines()[3])
players 4
>>> rec = read_record(text)
>>> rec[0].contract, rec[0].you
(1, 0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.trace import Trace
from ..game.cards import parse_cards
from ..game.rules import Rules

#: the first line :func:`write_record` writes (a comment: any line starting ``#`` is one)
HEADER = "# kalooki game record, format 1: one seat's view of one hand (see guide-record.html)"

#: the largest record :func:`read_record` reads, in characters (a hand is a few kB)
MAX_CHARS = 1_000_000

_EVENT_HELP = ("an event such as 'you draw 7♥', 'seat 2 draws', 'seat 1 discards 9♦', "
               "'you take 9♦', 'seat 3 calls 9♦', 'you call 9♦ penalty 4♣', "
               "'seat 2 opens K♠ K♥ K♦ / 5♣ 5♦ 5♥ / ...', 'seat 2 melds ...', "
               "'you lay off Q♥ on 3', 'reshuffle', 'you go out', 'seat 2 scores 45'")
_HEADERS = ("players", "contract", "you", "dealer", "game", "attempt", "dealt", "upcard")


class RecordError(ValueError):
    """A record that cannot be read: ``line`` (1-based) and the message, which names the
    line's text and what was expected."""

    def __init__(self, line: int, text: str, expected: str):
        self.line = line
        super().__init__(f"line {line}: {text.strip()!r}: {expected}")


@dataclass
class Record:
    """One hand of a record, parsed: the header and ``events`` as ``(line, seat, verb,
    args)`` (seat -1 for table events: reshuffle, void)."""

    players: int
    contract: int
    you: int
    dealer: int
    dealt: list
    upcard: str
    game: int = 0
    attempt: int = 0
    events: list = field(default_factory=list)
    first_line: int = 1


# -- reading ------------------------------------------------------------------------------

_WHO = re.compile(r"^(you|seat\s+(\d+))\s+(.*)$", re.I)
_VERBS = {  # the verb's forms -> its name
    "draw": "draw", "draws": "draw", "take": "take", "takes": "take", "call": "call",
    "calls": "call", "pass": "pass", "passes": "pass", "discard": "discard",
    "discards": "discard", "open": "open", "opens": "open", "meld": "meld", "melds": "meld",
    "lay": "layoff", "lays": "layoff", "go": "out", "goes": "out", "score": "score",
    "scores": "score",
}


def _cards(line, text, what, n=None):
    try:
        cards = parse_cards(what)
    except (ValueError, TypeError) as e:
        raise RecordError(line, text, f"{e}") from None
    if n is not None and len(cards) != n:
        raise RecordError(line, text, f"expected {n} card{'s' if n != 1 else ''}, got "
                          f"{len(cards)}")
    return cards


def _int(line, text, word, lo, hi, what):
    try:
        v = int(word)
    except (TypeError, ValueError):
        raise RecordError(line, text, f"expected {what}, an integer {lo}-{hi}") from None
    if not lo <= v <= hi:
        raise RecordError(line, text, f"{what} {v} is not allowed; give {lo}-{hi}")
    return v


def _event(n, text, players):
    """``(seat or "you", verb, args)`` of one event line."""
    low = text.strip().lower()
    if low in ("reshuffle", "void"):
        return (-1, low, None)
    m = _WHO.match(text.strip())
    if not m:
        raise RecordError(n, text, f"expected {_EVENT_HELP}")
    who = "you" if m.group(1).lower() == "you" else _int(
        n, text, m.group(2), 0, players - 1, "a seat of this table")
    rest = m.group(3).split(None, 1)
    verb = _VERBS.get(rest[0].lower()) if rest else None
    if verb is None:
        raise RecordError(n, text, f"unknown action {rest[0] if rest else ''!r}: expected "
                          "draw, take, call, pass, discard, open, meld, lay off, go out or "
                          "score")
    arg = rest[1].strip() if len(rest) > 1 else ""
    if verb == "draw":
        return who, verb, _cards(n, text, arg) if arg else []
    if verb in ("take", "discard"):
        return who, verb, _cards(n, text, arg, 1)[0]
    if verb == "pass":
        return who, verb, None
    if verb == "call":
        parts = re.split(r"\s+penalty\s+", arg, flags=re.I)
        card = _cards(n, text, parts[0], 1)[0]
        pen = _cards(n, text, parts[1], 1)[0] if len(parts) > 1 else None
        return who, verb, (card, pen)
    if verb in ("open", "meld"):
        melds = [m for m in arg.split("/") if m.strip()]
        if not melds or (verb == "meld" and len(melds) != 1):
            raise RecordError(n, text, "expected the meld's cards" if verb == "meld" else
                              "expected the opening's melds, separated by '/'")
        return who, verb, [_cards(n, text, m) for m in melds]
    if verb == "layoff":
        m = re.match(r"^off\s+(\S+)\s+on\s+(?:meld\s+)?(\d+)$", arg, re.I)
        if not m:
            raise RecordError(n, text, "expected 'lay off CARD on N', N the meld's number "
                              "(melds are numbered 1, 2, ... in the order laid)")
        return who, verb, (_cards(n, text, m.group(1), 1)[0], int(m.group(2)))
    if verb == "out":
        if arg.lower() != "out" and rest[0].lower() in ("go", "goes"):
            raise RecordError(n, text, "expected 'you go out' or 'seat N goes out'")
        return who, verb, None
    return who, verb, _int(n, text, arg, 0, 10_000, "the penalty points scored")


def read_record(text) -> list[Record]:
    """Parse a game record (text, or a path to one) into its hands.

    Parameters
    ----------
    text : str or os.PathLike
        The record's text (several hands: each starts at its ``contract`` line), or a
        :class:`~pathlib.Path` to it.

    Returns
    -------
    list of Record

    Raises
    ------
    RecordError
        A ``ValueError`` naming the line, its text and what was expected there.

    Examples
    --------
    >>> read_record("players 4\\ncontract 1\\nyou 2\\nfoo")
    Traceback (most recent call last):
    ...
    kalooki_sim.studies.record.RecordError: line 4: 'foo': expected a header ...
    """
    if isinstance(text, Path):
        text = text.read_text(encoding="utf-8")
    if not isinstance(text, str):
        raise TypeError(f"record is a {type(text).__name__}; give the record's text or a Path")
    if len(text) > MAX_CHARS:
        raise ValueError(f"record of {len(text):,} characters is not allowed; give at most "
                         f"{MAX_CHARS:,} (a hand's record is a few thousand)")
    hands, head, cur = [], {"you": ("0", 0)}, None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, val = line.partition(" ")
        key = key.lower()
        if key in _HEADERS and (key != "you" or val.strip().isdigit()):
            if key == "contract" and (cur is not None or "contract" in head):
                if cur is None:
                    raise RecordError(n, raw, "a second contract before any event")
                hands.append(_finish(head, cur))
                head = {k: v for k, v in head.items() if k in ("players", "you")}
                cur = None
            elif cur is not None:
                raise RecordError(n, raw, f"the header line {key!r} after the hand's events; "
                                  "start a new hand with its 'contract' line")
            head[key] = (val.strip(), n)
            continue
        if cur is None:
            missing = [k for k in ("players", "contract", "dealer", "dealt", "upcard")
                       if k not in head]
            if missing and (key in ("you", "seat", "reshuffle", "void")):
                raise RecordError(n, raw, f"an event before the header's {', '.join(missing)}")
            if missing:
                raise RecordError(n, raw, f"expected a header line ({', '.join(missing)} "
                                  "missing): 'players 4', 'contract 6', 'you 0', 'dealer 3', "
                                  "'dealt K♠ ...', 'upcard 7♦'")
            cur = _start(head)
        cur.events.append((n, raw) + _event(n, raw, cur.players))
    if cur is None:
        if "contract" not in head:
            raise RecordError(max(1, len(text.splitlines())), text.splitlines()[-1]
                              if text.strip() else "", "expected a record: 'players 4', "
                              "'contract 6', 'you 0', 'dealer 3', 'dealt ...', 'upcard ...', "
                              "then one event a line")
        cur = _start(head)
    hands.append(_finish(head, cur))
    return hands


def _start(head) -> Record:
    (pv, pn) = head["players"]
    players = _int(pn, f"players {pv}", pv, 3, 8, "the number of players")
    cv, cn = head["contract"]
    contract = _int(cn, f"contract {cv}", cv, 1, 9, "the contract (hand) number")
    seat = lambda k: _int(head[k][1], f"{k} {head[k][0]}", head[k][0], 0, players - 1,  # noqa: E731
                          "a seat of this table (seats 0 to players - 1, clockwise)")
    rules = Rules(players=players) if players <= 6 else Rules(players=players, pack="by-table")
    cards, _, _ = rules.deal(contract)
    dv, dn = head["dealt"]
    dealt = _cards(dn, f"dealt {dv}", dv, cards)
    uv, un = head["upcard"]
    other = {k: _int(head[k][1], f"{k} {head[k][0]}", head[k][0], 0, 10_000, f"the {k}")
             for k in ("game", "attempt") if k in head}
    return Record(players=players, contract=contract, you=seat("you"), dealer=seat("dealer"),
                  dealt=dealt, upcard=_cards(un, f"upcard {uv}", uv, 1)[0],
                  first_line=head["contract"][1], **other)


def _finish(head, rec: Record) -> Record:
    rec.events = [(n, raw, rec.you if who == "you" else who, verb, arg)
                  for n, raw, who, verb, arg in rec.events]
    return rec


def record_trace(record) -> Trace:
    """A :class:`~kalooki_sim.Trace` of what the record's seat saw, for
    :func:`~kalooki_sim.review` and the review page: the engine's records rebuilt line by
    line (each with its ``line``), the others' hidden cards ``None``, the passes the record
    leaves implied written as the engine logs them (R9).

    Parameters
    ----------
    record : str, Path or list of Record
        The record's text, a path to it, or :func:`read_record`'s hands.

    Returns
    -------
    Trace
        ``rules``: the card's rules at the record's table size; ``record_seat``: the seat.

    Raises
    ------
    RecordError
        A line the table's state does not allow (a take of a card not on offer, a draw out of
        turn, a discard of a card you do not hold, ...), naming the line.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> t = record_trace(ks.write_record(ks.trace(seed=1, hand=1), seat=2))
    >>> t.records[0]["event"], t.record_seat
    ('hand', 2)
    """
    from ._record_trace import play_record

    hands = record if isinstance(record, list) else read_record(record)
    recs, rules, seats = [], None, set()
    for h in hands:
        out, rules_h = play_record(h, RecordError)
        if rules is not None and rules_h.players != rules.players:
            raise RecordError(h.first_line, f"contract {h.contract}", "every hand of a record "
                              "is at one table: the same players")
        rules = rules_h
        seats.add(h.you)
        recs += out
    if len(seats) != 1:
        raise RecordError(hands[-1].first_line, f"contract {hands[-1].contract}",
                          "every hand of a record is one seat's view: the same 'you'")
    t = Trace(rules=rules, policies=[], records=recs, whole_game=len(hands) > 1)
    t.record_seat = seats.pop()
    return t


def decision_lines(trace, seat) -> list[int]:
    """The record line of each take and call decision of ``seat``, in play order (R9)."""
    return [r.get("line", 0) for r in trace.records if r["seat"] == seat and (
        r["event"] in ("take", "call") or (r["event"] == "decline"
                                           and r["as"] in ("take", "call")))]


def discard_lines(trace, seat) -> dict:
    """The record line of each discard of ``seat`` (R6.3), by ``(game, hand, attempt, turn)``
    (the table turn, counted per hand attempt as the review counts it)."""
    out, key, turn = {}, None, 0
    for r in trace.records:
        if r["event"] == "hand":
            key, turn = (r["game"], r["hand"], r["attempt"]), 0
        elif r["event"] == "turn":
            turn += 1
        elif r["event"] == "discard" and r["seat"] == seat and key is not None:
            out[(*key, turn)] = r.get("line", 0)
    return out


def check_record(record) -> Trace:
    """:func:`record_trace`, and every decision's situation checked as the advisor checks
    it (:func:`~kalooki_sim.situation`: the cards counted once, the stock, the melds, R1, R7,
    R9, R13), a refusal naming the line of that decision.

    Parameters
    ----------
    record : str, Path or list of Record
        As :func:`record_trace`.

    Returns
    -------
    Trace

    Raises
    ------
    RecordError
        The line and what is wrong there.
    """
    from .review import walk
    from .situation import situation

    t = record_trace(record)
    moments, _ = walk(t, t.record_seat)
    lines = decision_lines(t, t.record_seat)
    text = {}
    if isinstance(record, str) and not isinstance(record, Path):
        text = dict(enumerate(record.splitlines(), 1))
    for m, n in zip(moments, lines, strict=True):
        try:
            situation(**m.situation, players=t.rules.players, rules=t.rules)
        except ValueError as e:
            raise RecordError(n, text.get(n, f"your {m.decision} decision on {m.card}"),
                              f"the table this record shows then is not possible: {e}") from None
    return t


def review_record(record, *, rollouts=200, objective="relative", policies="expert", seed=0,
                  history=True, threads=None, progress=False):
    """Every take and call decision in a game record (a hand you played) judged, as
    :func:`~kalooki_sim.review` judges a simulated hand (R9).

    Parameters
    ----------
    record : str, Path or list of Record
        The record's text (the format of ``guide-record.html``), a path to it, or
        :func:`read_record`'s hands.
    rollouts, objective, policies, seed, history, threads, progress
        As :func:`~kalooki_sim.review`.

    Returns
    -------
    pandas.DataFrame
        :func:`~kalooki_sim.review`'s table, one row per decision, with ``line``: the
        record's line of the decision (the line that followed it, for a pass; the discard's
        own line, for a discard).

    Raises
    ------
    RecordError
        A line that cannot be read or a table it cannot be (the line and what was expected).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> text = ks.write_record(ks.trace(seed=1, hand=1, policies="expert"), seat=0)
    >>> r = ks.review_record(text, rollouts=20, policies="greedy")
    >>> list(r.columns[:2]), set(r["verdict"]) <= {"good", "mistake", "close"}
    (['line', 'game'], True)
    """
    from .review import review

    t = check_record(record)
    df = review(t, t.record_seat, rollouts=rollouts, objective=objective, policies=policies,
                seed=seed, history=history, threads=threads, progress=progress)
    df.insert(0, "line", review_lines(t, t.record_seat, df))
    return df


def review_lines(trace, seat, table) -> list[int]:
    """The record line of each row of the review ``table`` of ``seat`` in ``trace``: the
    take and call decisions' (:func:`decision_lines`, in order) and the discards'
    (:func:`discard_lines`)."""
    calls = iter(decision_lines(trace, seat))
    discards = discard_lines(trace, seat)
    return [discards[(g, h, a, n)] if d == "discard" else next(calls)
            for g, h, a, n, d in zip(table["game"], table["hand"], table["attempt"],
                                     table["turn"], table["decision"], strict=True)]


# -- writing ------------------------------------------------------------------------------

def _who(s, me, verb):
    """``you draw`` / ``seat 2 draws``."""
    if s == me:
        return f"you {verb}"
    return f"seat {s} " + ("goes" if verb == "go" else verb + ("es" if verb.endswith("s")
                                                               else "s"))


def _meld_text(cards):
    return " ".join(c for c, _ in sorted(cards, key=lambda x: x[1]))


def write_record(trace, seat) -> str:
    """The game record of ``seat``'s view of a traced hand (or game): what that seat saw,
    one event a line, in the format :func:`read_record` reads (``kalooki replay --record``).

    Parameters
    ----------
    trace : Trace
        From :func:`~kalooki_sim.trace` at the card's rules (R1-R14; any table size, the
        default pack); each hand attempt becomes one hand of the record.
    seat : int
        The seat whose view is written, 0 to players - 1.

    Returns
    -------
    str

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> print(write_record(ks.trace(seed=1, hand=1), seat=0).splitlines()[8])
    dealt Q♠ 3♦ JK K♦ A♥ JK 4♦ A♣ 6♠
    """
    if not isinstance(trace, Trace):
        raise TypeError(f"trace is a {type(trace).__name__}; give a Trace from "
                        "kalooki_sim.trace(...)")
    rules = trace.rules
    want = Rules(players=rules.players) if rules.players <= 6 else Rules(
        players=rules.players, pack="by-table")
    if rules != want:
        raise ValueError("a trace with rule options or variants is not allowed here: a game "
                         "record holds the card's rules (R1-R14) at a table of 3-8")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"seat={seat!r} is not allowed; give a seat of the trace's table, "
                         f"0-{rules.players - 1}")
    lines, ids, recs = [HEADER], {}, trace.records
    for i, r in enumerate(recs):
        e, s = r["event"], r["seat"]
        if e == "hand":
            ids = {}
            dealt = [x["card"] for x in recs[i + 1:] if x["event"] == "deal" and x["seat"] == seat
                     ][:r["cards_dealt"]]
            up = next(x["card"] for x in recs[i + 1:] if x["event"] == "upcard")
            lines += ["" if len(lines) > 1 else "# the table", f"contract {r['hand']}",
                      f"players {r['players']}", f"you {seat}", f"dealer {r['dealer']}",
                      f"game {r['game']}", f"attempt {r['attempt']}", f"dealt {' '.join(dealt)}",
                      f"upcard {up}", "# the play, as you saw it"]
        elif e == "take":
            lines.append(f"{_who(s, seat, 'take')} {r['card']}")
        elif e == "call":
            nxt = [x for x in recs[i + 1:i + 3] if x["event"] != "reshuffle"][:1]
            pen = nxt[0]["card"] if s == seat and nxt and nxt[0]["event"] == "penalty" else None
            lines.append(f"{_who(s, seat, 'call')} {r['card']}" + (f" penalty {pen}" if pen
                                                                     else ""))
        elif e == "draw":
            lines.append(_who(s, seat, "draw") + (f" {r['card']}" if s == seat else ""))
        elif e == "reshuffle":
            lines.append("reshuffle")
        elif e == "open":
            melds = []
            for x in recs[i + 1:]:
                if x["event"] != "meld" or not x["contract"]:
                    break
                ids[x["meld"]] = len(ids) + 1
                melds.append(_meld_text(x["cards"]))
            lines.append(f"{_who(s, seat, 'open')} {' / '.join(melds)}")
        elif e == "meld" and not r["contract"]:
            ids[r["meld"]] = len(ids) + 1
            lines.append(f"{_who(s, seat, 'meld')} {_meld_text(r['cards'])}")
        elif e == "layoff":
            verb = "you lay" if s == seat else f"seat {s} lays"
            lines.append(f"{verb} off {r['card']} on {ids[r['meld']]}")
        elif e == "discard":
            lines.append(f"{_who(s, seat, 'discard')} {r['card']}")
        elif e == "out":
            lines.append(_who(s, seat, "go") + " out")
        elif e == "void":
            lines.append("void")
        elif e == "score":
            lines.append(f"{_who(s, seat, 'score')} {r['penalty']}")
        elif e in ("turned", "turn_up", "refuse", "bury", "no_discard"):
            raise ValueError(f"a trace with a {e!r} record is not allowed here: a record holds "
                             "the card's Kalooki (no Tuluki, V9; no turn without a discard, C2)")
    return "\n".join(lines) + "\n"
