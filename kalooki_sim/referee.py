"""The referee: replays a move log in plain Python and re-checks every rule and every card.

Written from RULES.md alone; it shares no rules code with the engine (only card text parsing
and penalty values from :mod:`kalooki_sim.cards`, which the tests check against R1 directly).
:func:`check` raises :class:`RefereeError` naming the record and the rule broken.
"""

from __future__ import annotations

from collections import Counter

from .cards import PENALTY, to_codes

JK = "JK"
_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}
_SUITS = "♣♦♥♠"


class RefereeError(AssertionError):
    """A move log broke a rule, lost or duplicated a card, or was scored wrongly."""


def _rank(card: str) -> int:
    t = card[:-1]
    return _RANK[t] if t in _RANK else int(t)


def _suit(card: str) -> int:
    return _SUITS.index(card[-1])


def _value(card: str) -> int:
    return int(PENALTY[to_codes(card)[0]])


class _Meld:
    """A meld on the table: kind, owner, and cards by run position (group: a list)."""

    def __init__(self, kind, owner, cards):
        self.kind = kind
        self.owner = owner
        if kind == "group":
            self.cards = [c for c, _ in cards]
        else:
            self.pos = {p: c for c, p in cards}

    def check(self, where):
        if self.kind == "group":
            nat = [c for c in self.cards if c != JK]
            if len(self.cards) < 3 or len(nat) < 2 or len({_rank(c) for c in nat}) != 1:
                raise RefereeError(f"{where}: {self.cards} is not a group (R3)")
            return
        ps = sorted(self.pos)
        lo, hi = ps[0], ps[-1]
        if ps != list(range(lo, hi + 1)) or not (1 <= lo and hi <= 14) or not 4 <= len(ps) <= 13:
            raise RefereeError(f"{where}: run positions {ps} are not 4-13 consecutive in 1..14")
        nat = [(p, c) for p, c in self.pos.items() if c != JK]
        if len({_suit(c) for _, c in nat}) != 1:
            raise RefereeError(f"{where}: run mixes suits (R4)")
        for p, c in nat:
            if _rank(c) != (1 if p == 14 else p):
                raise RefereeError(f"{where}: {c} cannot stand at position {p} (R4)")
        for p in ps[:-1]:
            if self.pos[p] == JK and self.pos[p + 1] == JK:
                raise RefereeError(f"{where}: adjacent jokers at {p},{p + 1} (R4)")

    @property
    def key(self):
        nat = [c for c in (self.cards if self.kind == "group" else self.pos.values()) if c != JK]
        return _rank(nat[0]) if self.kind == "group" else _suit(nat[0])

    def all_cards(self):
        return list(self.cards) if self.kind == "group" else list(self.pos.values())


def _pack(rules) -> Counter:
    pack = Counter()
    for s in _SUITS:
        for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
            pack[r + s] = rules.decks
    pack[JK] = rules.jokers
    return pack


def check(records, rules, rows=None) -> int:
    """Replay every hand in ``records`` (a :class:`~kalooki_sim.trace.Trace`'s); return hands.

    ``rows`` (optional, the engine's per-seat result rows of those hands in order) are checked
    against the referee's own outcome: penalties, who went out, calls, opened.
    """
    hands = []
    for r in records:
        if r["event"] == "hand":
            hands.append([r])
        elif not hands:
            raise RefereeError("log does not start with a hand record")
        else:
            hands[-1].append(r)
    results = [_check_hand(h, rules) for h in hands]
    if rows is not None:
        _check_rows(results, rows)
    return len(hands)


def _check_rows(results, rows):
    got = [r for res in results for r in res]
    if len(got) != len(rows):
        raise RefereeError(f"{len(rows)} engine rows for {len(got)} refereed seat-hands")
    for mine, (_, row) in zip(got, rows.iterrows(), strict=True):
        for k, v in mine.items():
            if int(row[k]) != int(v):
                raise RefereeError(f"engine row says {k}={row[k]}, referee finds {v}: {dict(row)}")


def _check_hand(recs, rules):  # noqa: C901 - one readable pass over the rules
    head = recs[0]
    P = rules.players
    dealer, ncards, g, r = head["dealer"], head["cards_dealt"], head["groups"], head["runs"]
    if (ncards, g, r) != tuple(rules.deal(head["hand"])):
        raise RefereeError(f"hand {head['hand']}: deal/contract differ from the schedule (R2)")
    pack = +_pack(rules)
    pack_total = sum(pack.values())
    unseen = Counter(pack)  # stock as a multiset: every card not yet seen
    hand = [Counter() for _ in range(P)]
    disc: list[str] = []
    melds: dict[int, _Meld] = {}
    opened = [False] * P
    calls = [0] * P
    own_ranks = [set() for _ in range(P)]
    own_suits = [set() for _ in range(P)]
    stock_n = None
    reshuffled = False
    cur = None
    phase = None  # per turn: "start", "drawn"
    call_done = False
    opened_this_turn = False
    out = None
    out_on_opening = False
    void = False
    scores = {}
    deal_i = 0
    first_down = None
    pending_call = None
    opening_block = None
    expect_move = None
    i_rec = 0

    def where():
        return f"hand {head['hand']} attempt {head['attempt']} record {i_rec}"

    def take_from_stock(card):
        nonlocal stock_n
        if stock_n == 0:
            raise RefereeError(f"{where()}: drew from an empty stock without a reshuffle (R13)")
        if unseen[card] <= 0:
            raise RefereeError(f"{where()}: {card} drawn from the stock is not in it")
        unseen[card] -= 1
        stock_n -= 1

    def remove_from_hand(seat, card):
        if hand[seat][card] <= 0:
            raise RefereeError(f"{where()}: seat {seat} does not hold {card}")
        hand[seat][card] -= 1

    def finish_opening():
        nonlocal opening_block
        if opening_block is None:
            return
        seat, ms = opening_block
        ng = sum(1 for m in ms if m.kind == "group")
        nr = sum(1 for m in ms if m.kind == "run")
        if rules.complete_suit_for_three_runs and r == 3:
            nr += 2 * sum(1 for m in ms if m.kind == "run" and len(m.pos) == 13)
        if ng < g or nr < r:
            raise RefereeError(f"{where()}: seat {seat} opened {ng} groups + {nr} runs; contract "
                               f"is {g} + {r} (R7)")
        opening_block = None

    def conservation():
        total = Counter(unseen)
        for h in hand:
            total.update(h)
        total.update(disc)
        for m in melds.values():
            total.update(m.all_cards())
        total = +total
        if total != pack:
            raise RefereeError(f"{where()}: cards not conserved: {(pack - total)} lost, "
                               f"{(total - pack)} extra")
        if stock_n is not None:
            in_hands = sum(sum(h.values()) for h in hand)
            on_table = sum(len(m.all_cards()) for m in melds.values())
            if stock_n + in_hands + len(disc) + on_table != pack_total:
                raise RefereeError(f"{where()}: card count does not add up to the pack")

    for i_rec, rec in enumerate(recs[1:], start=1):
        e, s = rec["event"], rec["seat"]
        if out is not None and e not in ("score",):
            raise RefereeError(f"{where()}: {e} after the hand ended (R12)")
        if void:
            raise RefereeError(f"{where()}: {e} after the hand was void (R13)")
        if e != "meld":
            finish_opening()
        if expect_move is not None and e != "joker_move":
            raise RefereeError(f"{where()}: a replaced joker did not move (R11)")
        if e == "deal":
            exp = (dealer + 1 + deal_i) % P
            if s != exp:
                raise RefereeError(f"{where()}: dealt to seat {s}, expected {exp} (R2)")
            if unseen[rec["card"]] <= 0:
                raise RefereeError(f"{where()}: dealt {rec['card']} which the pack no longer has")
            unseen[rec["card"]] -= 1
            hand[s][rec["card"]] += 1
            deal_i += 1
        elif e == "upcard":
            if deal_i != P * ncards:
                raise RefereeError(f"{where()}: {deal_i} cards dealt, expected {P * ncards} (R2)")
            if unseen[rec["card"]] <= 0:
                raise RefereeError(f"{where()}: upcard {rec['card']} not in the pack")
            unseen[rec["card"]] -= 1
            disc.append(rec["card"])
            stock_n = sum(unseen.values())
            last_discarder = dealer  # C1
            cur = dealer
            conservation()
        elif e == "turn":
            if phase == "start":
                raise RefereeError(f"{where()}: seat {cur}'s turn ended without a draw (R6)")
            if phase == "drawn" and any(c != JK and n > 0 for c, n in hand[cur].items()):
                raise RefereeError(f"{where()}: seat {cur} ended its turn without a discard "
                                   "while holding a natural card (R6, C2)")
            nxt = (cur + 1) % P
            if s != nxt:
                raise RefereeError(f"{where()}: seat {s} plays, expected seat {nxt}")
            cur, phase, call_done, opened_this_turn = s, "start", False, False
            conservation()
        elif e == "take":
            if s != cur or phase != "start" or call_done:
                raise RefereeError(f"{where()}: only the next player takes the discard first (R9)")
            if opened[s]:
                raise RefereeError(f"{where()}: opened seat {s} took the discard (R8)")
            if not disc or disc[-1] != rec["card"]:
                raise RefereeError(f"{where()}: {rec['card']} is not the top discard")
            hand[s][disc.pop()] += 1
            phase = "drawn"
        elif e == "call":
            if phase != "start" or call_done:
                raise RefereeError(f"{where()}: second call on a discard, or after the draw (R9)")
            if s in (cur, last_discarder):
                raise RefereeError(f"{where()}: seat {s} may not call here (R9.2)")
            if rec["discarder"] != last_discarder:
                raise RefereeError(f"{where()}: call names the wrong discarder")
            if opened[s]:
                raise RefereeError(f"{where()}: opened seat {s} called (R8)")
            if calls[s] >= rules.call_limit:
                raise RefereeError(f"{where()}: seat {s} exceeds {rules.call_limit} calls (R9)")
            if not disc or disc[-1] != rec["card"]:
                raise RefereeError(f"{where()}: called {rec['card']} is not the top discard")
            hand[s][disc.pop()] += 1
            calls[s] += 1
            call_done = True
            pending_call = (s, sum(hand[s].values()))
        elif e == "penalty":
            if pending_call is None or pending_call[0] != s:
                raise RefereeError(f"{where()}: penalty card without a call by seat {s} (R9)")
            take_from_stock(rec["card"])
            hand[s][rec["card"]] += 1
            if sum(hand[s].values()) != pending_call[1] + 1:
                raise RefereeError(f"{where()}: a call must grow the hand by exactly 2 (R9)")
            pending_call = None
        elif e == "draw":
            if pending_call is not None:
                raise RefereeError(f"{where()}: a call without its penalty card (R9)")
            if s != cur or phase != "start":
                raise RefereeError(f"{where()}: seat {s} draws out of turn (R6)")
            take_from_stock(rec["card"])
            hand[s][rec["card"]] += 1
            phase = "drawn"
        elif e == "reshuffle":
            if stock_n != 0 or reshuffled:
                raise RefereeError(f"{where()}: reshuffle with {stock_n} in stock or twice (R13)")
            if rec["cards"] != len(disc) - 1:
                raise RefereeError(f"{where()}: reshuffled {rec['cards']}, pile has {len(disc)}")
            for c in disc[:-1]:
                unseen[c] += 1
            disc[:] = disc[-1:]
            stock_n = rec["cards"]
            reshuffled = True
        elif e == "void":
            if stock_n != 0 or not (reshuffled or len(disc) <= 1):
                raise RefereeError(f"{where()}: void while the stock can still serve (R13)")
            void = True
        elif e == "open":
            if s != cur or phase != "drawn" or opened[s]:
                raise RefereeError(f"{where()}: seat {s} cannot open now (R6, R7)")
            opened[s] = opened_this_turn = True
            if first_down is None:
                first_down = s
            opening_block = (s, [])
        elif e == "meld":
            if s != cur or phase != "drawn" or not opened[s]:
                raise RefereeError(f"{where()}: seat {s} lays a meld without having opened (R7)")
            if rec["meld"] in melds:
                raise RefereeError(f"{where()}: meld id {rec['meld']} reused")
            for c, _ in rec["cards"]:
                remove_from_hand(s, c)
            m = _Meld(rec["kind"], s, rec["cards"])
            m.check(where())
            owned = own_ranks[s] if m.kind == "group" else own_suits[s]
            if m.key in owned:
                raise RefereeError(f"{where()}: seat {s} already owns a {m.kind} of {m.key} (R5)")
            owned.add(m.key)
            melds[rec["meld"]] = m
            if opening_block is not None:
                opening_block[1].append(m)
        elif e == "layoff":
            if s != cur or phase != "drawn" or not opened[s]:
                raise RefereeError(f"{where()}: seat {s} lays off without having opened (R10)")
            m = melds.get(rec["meld"])
            if m is None:
                raise RefereeError(f"{where()}: no meld {rec['meld']}")
            c = rec["card"]
            remove_from_hand(s, c)
            if c == JK and m.owner != s and not rules.jokers_on_others:
                raise RefereeError(f"{where()}: joker on another player's meld (R10)")
            if m.kind == "group":
                m.cards.append(c)
            else:
                lo, hi = min(m.pos), max(m.pos)
                p = rec["position"]
                grow = [hi + 1] if hi < 14 else [lo - 1]
                if rules.free_extension:
                    grow = [hi + 1, lo - 1]
                if c != JK and m.pos.get(p) == JK:
                    nxt = recs[i_rec + 1] if i_rec + 1 < len(recs) else {}
                    q = hi + 1 if hi < 14 else lo - 1
                    if nxt.get("event") != "joker_move" or nxt.get("from") != p or nxt.get(
                            "to") != q:
                        raise RefereeError(f"{where()}: the replaced joker must move to {q} (R11)")
                    if q in m.pos or not 1 <= q <= 14:
                        raise RefereeError(f"{where()}: the joker has nowhere to move (R11)")
                    m.pos[p] = c
                    m.pos[q] = JK
                    expect_move = (rec["meld"], p, q)
                elif p in grow:
                    m.pos[p] = c
                else:
                    raise RefereeError(f"{where()}: {c} at position {p}; the run grows at {grow} "
                                       "(R10)")
            m.check(where())
        elif e == "joker_move":
            if expect_move != (rec["meld"], rec["from"], rec["to"]):
                raise RefereeError(f"{where()}: a joker moved without its replacement (R11)")
            expect_move = None
        elif e == "discard":
            if s != cur or phase != "drawn":
                raise RefereeError(f"{where()}: discard out of turn (R6)")
            if rec["card"] == JK:
                raise RefereeError(f"{where()}: a joker was discarded (R6)")
            remove_from_hand(s, rec["card"])
            disc.append(rec["card"])
            last_discarder = s
            phase = "discarded"
        elif e == "out":
            if sum(hand[s].values()) != 0:
                raise RefereeError(f"{where()}: seat {s} is out holding {+hand[s]} (R12)")
            if rec["on_opening"] != opened_this_turn:
                raise RefereeError(f"{where()}: out_on_opening flag wrong (R12)")
            out, out_on_opening = s, opened_this_turn
        elif e == "score":
            doubled = out_on_opening and (not rules.double_only_first_down or first_down == out)
            pen = sum(_value(c) * n for c, n in hand[s].items())
            exp = 0 if s == out else pen * (2 if doubled else 1)
            if rec["penalty"] != exp or rec["doubled"] != doubled:
                raise RefereeError(f"{where()}: seat {s} scored {rec['penalty']}, rules give {exp}"
                                   " (R12)")
            scores[s] = exp
        else:
            raise RefereeError(f"{where()}: unknown event {e!r}")
        if e in ("take", "draw", "discard", "layoff", "call", "penalty"):
            conservation()
    conservation()
    if not void:
        if out is None:
            raise RefereeError(f"hand {head['hand']}: ended with nobody out and not void")
        if sorted(scores) != list(range(P)):
            raise RefereeError(f"hand {head['hand']}: scores missing for some seats")
    return [
        dict(seat=p, penalty=0 if void else scores[p], went_out=int(p == out), calls=calls[p],
             opened=int(opened[p]), cards_left=sum(hand[p].values()), void=int(void))
        for p in range(P)
    ]
