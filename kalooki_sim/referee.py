"""The referee: replays a move log in plain Python and re-checks every rule and every card.

Written from RULES.md alone; it shares no rules code with the engine (only card text parsing
and penalty values from :mod:`kalooki_sim.cards`, which the tests check against R1 directly).
:func:`check` raises :class:`RefereeError` naming the record and the rule broken.

Shape (STYLE.md, "Splitting the referee by event"): a :class:`_HandState` holds one hand
attempt (hands, stock, discard pile, melds, whose turn, what R9 still offers); one small
checker per event (``_on_deal``, ``_on_take``, ...) in :data:`_CHECKS`; :func:`_check_hand`
runs the shared pre-checks, the event's checker and card conservation after every card move;
:func:`check` adds the checks across hands (R2 dealer rotation, R13 replays, R14 totals) and
compares the engine's result rows with the referee's own outcome.
"""

from __future__ import annotations

from collections import Counter

from .cards import PENALTY, to_codes

JK = "JK"
_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}
_SUITS = "♣♦♥♠"
_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

#: events that move cards: the multiset is re-counted after each (conservation)
_MOVES = frozenset(("take", "draw", "discard", "layoff", "call", "penalty", "meld", "reshuffle",
                    "turn_up", "bury"))


class RefereeError(AssertionError):
    """A move log broke a rule, lost or duplicated a card, or was scored wrongly."""


def _rank(card: str) -> int:
    t = card[:-1]
    return _RANK[t] if t in _RANK else int(t)


def _suit(card: str) -> int:
    return _SUITS.index(card[-1])


_VALUE: dict[str, int] = {}


def _value(card: str) -> int:
    v = _VALUE.get(card)
    if v is None:
        v = _VALUE[card] = int(PENALTY[to_codes(card)[0]])
    return v


class _Meld:
    """A meld on the table: kind, owner, and cards by run position (group: a list)."""

    def __init__(self, kind, owner, cards):
        self.kind = kind
        self.owner = owner
        if kind == "group":
            self.cards = [c for c, _ in cards]
        elif kind == "run":
            self.pos = {}
            for c, p in cards:
                if p in self.pos:
                    raise RefereeError(f"two cards at run position {p} (R4)")
                self.pos[p] = c
        else:
            raise RefereeError(f"meld kind {kind!r} is neither a group nor a run (R3, R4)")

    def check(self, where):
        if self.kind == "group":
            nat = [c for c in self.cards if c != JK]
            if len(self.cards) < 3 or len(nat) < 2 or len({_rank(c) for c in nat}) != 1:
                raise RefereeError(f"{where}: {self.cards} is not a group (R3)")
            return
        ps = sorted(self.pos)
        lo, hi = ps[0], ps[-1]
        if ps != list(range(lo, hi + 1)) or not (1 <= lo and hi <= 14) or not 4 <= len(ps) <= 13:
            raise RefereeError(f"{where}: run positions {ps} are not 4-13 consecutive in 1..14 "
                               "(R4)")
        nat = [(p, c) for p, c in self.pos.items() if c != JK]
        if not nat or len({_suit(c) for _, c in nat}) != 1:
            raise RefereeError(f"{where}: run mixes suits or has no natural card (R4)")
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

    def size(self):
        return len(self.cards) if self.kind == "group" else len(self.pos)

    def all_cards(self):
        return list(self.cards) if self.kind == "group" else list(self.pos.values())


def _pack(rules) -> Counter:
    pack = Counter()
    for s in _SUITS:
        for r in _RANKS:
            pack[r + s] = rules.decks
    pack[JK] = rules.jokers
    return +pack


# -- one hand attempt -----------------------------------------------------------------------


class _HandState:
    """Everything the referee knows while it replays one hand attempt."""

    def __init__(self, head, rules):
        self.rules, self.head = rules, head
        self.P = P = rules.players
        self.dealer, self.ncards = head["dealer"], head["cards_dealt"]
        self.g, self.r = head["groups"], head["runs"]
        self.pack = _pack(rules)
        self.pack_total = sum(self.pack.values())
        self.pack_dict = dict(self.pack)
        self.unseen = Counter(self.pack)  # the stock as a multiset: every card not yet seen
        self.hand = [Counter() for _ in range(P)]
        self.size = [0] * P  # cards in each hand
        self.dealt = [[] for _ in range(P)]
        self.disc: list[str] = []
        self.melds: dict[int, _Meld] = {}
        self.on_table = 0  # cards in melds
        self.opened = [False] * P
        self.calls = [0] * P
        self.turns = [0] * P
        self.open_turn = [None] * P
        self.own = [(set(), set()) for _ in range(P)]  # R5: group ranks, run suits
        self.stock_n = None
        self.reshuffled = False
        self.cur = None
        self.phase = "deal"  # deal, upcard, start, drawn, discarded, no_discard
        self.live = None  # (card, discarder): the discard R9 offers at this turn's start
        self.discarder = None
        self.offers: list[tuple[str, int]] = []  # R9 offers still due: ("take"|"call", seat)
        self.pending_call = None  # (seat, hand size): the call awaiting its penalty card
        # V9 Tuluki: the step of the discard step now due ("claim": B's call of D, "turn_up",
        # "b_take": B takes or passes on the turned card, "a_call": A calls it, passes or B
        # refuses, "bury"; None: the draw), and the turned card while it is face up
        self.tuluki = bool(getattr(rules, "tuluki", False))
        self.tul = None
        self.turned = None
        self.call_done = False  # R9: at most one call per discard
        self.opening = None  # dict(seat, contract=[melds], extras=[], legacy=[])
        self.opened_this_turn = False
        self.expect_move = None  # (meld, from, to) after an R11 replacement
        self.emptied = None  # seat whose hand became empty: the hand ends at once (R12)
        self.out = None
        self.out_on_opening = False
        self.doubled = False
        self.void = False
        self.stalled = False
        self.unlogged_stall = False
        self.drop = None
        self.scores: dict[int, int] = {}
        self.deal_i = 0
        self.first_down = None
        self.i = 0
        self.event = "hand"

    def where(self):
        h = self.head
        return (f"game {h.get('game', 0)} hand {h['hand']} attempt {h['attempt']} record {self.i} "
                f"({self.event})")

    def fail(self, msg):
        raise RefereeError(f"{self.where()}: {msg}")

    def take_from_stock(self, card):
        if self.stock_n == 0:
            self.fail("drew from an empty stock without a reshuffle (R13)")
        if self.unseen[card] <= 0:
            self.fail(f"{card} drawn from the stock is not in it")
        self.unseen[card] -= 1
        self.stock_n -= 1

    def add_to_hand(self, seat, card):
        self.hand[seat][card] += 1
        self.size[seat] += 1

    def remove_from_hand(self, seat, card):
        if self.hand[seat][card] <= 0:
            self.fail(f"seat {seat} does not hold {card}")
        self.hand[seat][card] -= 1
        self.size[seat] -= 1
        if self.size[seat] == 0:
            self.emptied = seat

    def holds_natural(self, seat):
        return any(c != JK and n > 0 for c, n in self.hand[seat].items())

    def in_turn(self, seat, phase, what, rule):
        if seat != self.cur or self.phase != phase:
            self.fail(f"seat {seat} {what} out of turn (seat {self.cur}, {self.phase}) ({rule})")

    def conservation(self, full=False):
        """No card lost or duplicated: the stock, hands, pile and melds add up to the pack.

        After every card move the counts are added up; ``full`` (once a round and at the end)
        also compares the multiset, card by card, with the pack. Each move is checked against
        its source as it happens (the stock's multiset, the hand, the top of the pile).
        """
        up = 0 if self.turned is None else 1
        if self.stock_n is not None and (self.stock_n + sum(self.size) + len(self.disc)
                                         + self.on_table + up != self.pack_total):
            self.fail("card count does not add up to the pack")
        if not full:
            return
        cards = list(self.unseen.elements())
        for h in self.hand:
            cards.extend(h.elements())
        cards += self.disc
        if self.turned is not None:
            cards.append(self.turned)
        for m in self.melds.values():
            cards.extend(m.cards if m.kind == "group" else m.pos.values())
        total = Counter(cards)
        if dict(total) != self.pack_dict:  # no zero counts on either side
            self.fail(f"cards not conserved: {(self.pack - total)} lost, {(total - self.pack)} "
                      "extra")
        if sum(m.size() for m in self.melds.values()) != self.on_table:
            self.fail("card count on the table is off")

    def draw_due(self):
        """A stock card is due now: a caller's penalty card, or the turn's draw (R6, R9)."""
        return self.pending_call is not None or (self.phase == "start" and not self.offers
                                                 and self.tul in (None, "turn_up"))

    def finish_opening(self):
        """R7: the opening block is over; its contract melds must be exactly the contract."""
        o, self.opening = self.opening, None
        if o is None:
            return
        if o["legacy"]:  # records without the ``contract`` flag: at least the contract
            ng = sum(m.kind == "group" for m in o["legacy"])
            nr = sum(m.kind == "run" for m in o["legacy"])
            if self.rules.complete_suit_for_three_runs and self.r == 3:
                nr += 2 * sum(m.kind == "run" and len(m.pos) == 13 for m in o["legacy"])
            if ng < self.g or nr < self.r:
                self.fail(f"seat {o['seat']} opened {ng} groups + {nr} runs; contract is "
                          f"{self.g} + {self.r} (R7)")
        elif not o["extras"]:
            self.check_contract(o, "")

    def check_contract(self, o, note):
        """R7 (V6): the opening's contract melds are exactly the contract's groups and runs."""
        ms = o["contract"]
        ng = sum(m.kind == "group" for m in ms)
        runs = [m for m in ms if m.kind == "run"]
        v6 = (self.rules.complete_suit_for_three_runs and self.r == 3 and len(runs) == 1
              and len(runs[0].pos) == 13)
        if ng != self.g or (len(runs) != self.r and not v6):
            self.fail(f"seat {o['seat']} opened with {ng} groups + {len(runs)} runs as its "
                      f"contract{note}; the contract is {self.g} + {self.r} (R7"
                      f"{', V6' if self.rules.complete_suit_for_three_runs else ''})")

    def start_offers(self, n):
        """R9 (C1 for the upcard): who is offered the live discard, in order, at n's turn."""
        card, p = self.live
        if self.tuluki:  # V9 (a): B may only call D; then A turns up the stock's top card
            self.offers = [("call", n)] if self.may_call(n) else []
            self.tul = "claim" if self.offers else "turn_up"
            return
        offers = [] if self.opened[n] else [("take", n)]
        for k in range(1, self.P):
            s = (n + k) % self.P
            if s != p and not self.opened[s] and self.calls[s] < self.rules.call_limit:
                offers.append(("call", s))
        self.offers = offers

    def may_call(self, s):
        """R8, R9, V8: ``s`` is offered calls (not opened, under the rules' limit)."""
        return not self.opened[s] and self.calls[s] < self.rules.call_limit

    def limit_rule(self):
        return "R9" if self.rules.call_limit == 3 else "R9, V8"


# -- one checker per event ------------------------------------------------------------------


def _on_deal(st, rec):
    s, c = rec["seat"], rec["card"]
    if st.phase != "deal" or st.deal_i >= st.P * st.ncards:
        st.fail(f"a card dealt after the deal ({st.deal_i} dealt) (R2)")
    exp = (st.dealer + 1 + st.deal_i) % st.P
    if s != exp:
        st.fail(f"dealt to seat {s}, expected {exp} (R2)")
    if st.unseen[c] <= 0:
        st.fail(f"dealt {c} which the pack no longer has (R1)")
    st.unseen[c] -= 1
    st.add_to_hand(s, c)
    st.dealt[s].append(c)
    st.deal_i += 1


def _on_upcard(st, rec):
    if st.phase != "deal" or st.deal_i != st.P * st.ncards:
        st.fail(f"upcard after {st.deal_i} cards dealt, expected {st.P * st.ncards} (R2)")
    if rec["seat"] != st.dealer:
        st.fail(f"the upcard belongs to the dealer {st.dealer}, not seat {rec['seat']} (C1)")
    c = rec["card"]
    if st.unseen[c] <= 0:
        st.fail(f"upcard {c} not in the pack")
    st.unseen[c] -= 1
    st.disc.append(c)
    st.stock_n = sum(st.unseen.values())
    st.live, st.discarder = (c, st.dealer), st.dealer  # C1: the dealer's discard
    st.cur, st.phase = st.dealer, "upcard"


def _on_turn(st, rec):
    s = rec["seat"]
    if st.phase == "deal":
        st.fail("a turn before the upcard (R2)")
    if st.phase == "start":
        st.fail(f"seat {st.cur}'s turn ended without a draw (R6)")
    if st.phase == "drawn":
        if st.holds_natural(st.cur):
            st.fail(f"seat {st.cur} ended its turn without a discard while holding a natural "
                    "card (R6, C2)")
        st.fail(f"seat {st.cur} ended its turn without a discard or a no_discard record (C2)")
    nxt = (st.cur + 1) % st.P
    if s != nxt:
        st.fail(f"seat {s} plays, expected seat {nxt} (R2, R6)")
    st.turns[s] += 1
    if "turn" in rec and rec["turn"] != st.turns[s]:
        st.fail(f"seat {s}'s turn is numbered {rec['turn']}; it is its turn {st.turns[s]} (R6)")
    st.cur, st.phase, st.opened_this_turn, st.call_done = s, "start", False, False
    st.offers, st.tul, st.turned = [], None, None
    if st.live is not None:
        st.start_offers(s)
    st.conservation(full=s == (st.dealer + 1) % st.P)  # card by card once a round


def _check_offered(st, rec, kind):
    """R9: the record is the next offer due for the live discard, in priority order."""
    s = rec["seat"]
    if st.live is None:
        st.fail(f"seat {s}: no discard is live here; once N has drawn (or after a turn with no "
                "discard, C2) D is buried (R9)")
    if rec["card"] != st.live[0] or not st.disc or st.disc[-1] != rec["card"]:
        st.fail(f"{rec['card']} is not the live discard {st.live[0]} (R9)")
    if not st.offers or st.offers[0] != (kind, s):
        due = st.offers[0] if st.offers else "the draw"
        st.fail(f"{rec['event']} by seat {s} (as {kind}) on {rec['card']}, but next due is "
                f"{due}: each seat offered D must take, call or decline, in priority order (R9)")
    st.offers.pop(0)


def _on_take(st, rec):
    s = rec["seat"]
    if st.tuluki:
        return _tuluki_take(st, rec)
    if rec.get("turned"):
        st.fail("a take of a turned card outside Tuluki (V9)")
    if s != st.cur or st.phase != "start" or st.call_done:
        st.fail(f"seat {s}: only the next player takes the discard first (R9)")
    if st.opened[s]:
        st.fail(f"opened seat {s} took the discard (R8)")
    _check_offered(st, rec, "take")
    st.add_to_hand(s, st.disc.pop())
    st.phase, st.live, st.offers = "drawn", None, []


def _on_decline(st, rec):
    s, kind = rec["seat"], rec.get("as")
    if st.tuluki:
        return _tuluki_decline(st, rec)
    if kind not in ("take", "call"):
        st.fail(f"decline as {kind!r}: it must be 'take' or 'call' (R9)")
    if st.phase != "start" or st.call_done:
        st.fail(f"seat {s} declines outside the offers of a turn's start (R9)")
    if st.opened[s]:
        st.fail(f"seat {s} has opened: it is offered nothing, so it cannot decline (R8, R9)")
    if kind == "call" and st.calls[s] >= st.rules.call_limit:
        st.fail(f"seat {s} has {st.calls[s]} calls, the limit: it is not offered the discard "
                f"({st.limit_rule()})")
    if s == st.discarder or (kind == "call" and s == st.cur):
        st.fail(f"seat {s} is not offered a call here (R9.2)")
    _check_offered(st, rec, kind)


def _on_call(st, rec):
    s = rec["seat"]
    if st.tuluki:
        return _tuluki_call(st, rec)
    if rec.get("turned"):
        st.fail("a call of a turned card outside Tuluki (V9)")
    if st.phase != "start" or st.call_done:
        st.fail("second call on a discard, or after the draw (R9)")
    if s in (st.cur, st.discarder):
        st.fail(f"seat {s} may not call here (R9.2)")
    if st.opened[s]:
        st.fail(f"opened seat {s} called (R8)")
    if st.calls[s] >= st.rules.call_limit:
        st.fail(f"seat {s} exceeds {st.rules.call_limit} calls ({st.limit_rule()})")
    if st.live is not None and rec.get("discarder", st.discarder) != st.live[1]:
        st.fail("call names the wrong discarder (R9)")
    _check_offered(st, rec, "call")
    st.add_to_hand(s, st.disc.pop())
    st.calls[s] += 1
    st.pending_call = (s, st.size[s])
    st.live, st.offers, st.call_done = None, [], True  # one call per discard (R9)


def _on_penalty(st, rec):
    s = rec["seat"]
    if st.pending_call is None or st.pending_call[0] != s:
        st.fail(f"penalty card without a call by seat {s} (R9)")
    st.take_from_stock(rec["card"])
    st.add_to_hand(s, rec["card"])
    if st.size[s] != st.pending_call[1] + 1:
        st.fail("a call must grow the hand by exactly 2 (R9)")
    st.pending_call = None


def _on_draw(st, rec):
    s = rec["seat"]
    if st.pending_call is not None:
        st.fail("a call without its penalty card (R9)")
    st.in_turn(s, "start", "draws", "R6")
    if st.tul is not None:
        st.fail(f"seat {s} draws while the Tuluki step {st.tul!r} is due (V9: B's call of D, "
                "then A turns up the stock's top card for B)")
    if st.offers:
        st.fail(f"seat {s} draws while {st.offers[0]} is still due on {st.live[0]}: a missing "
                "decline (R9)")
    st.take_from_stock(rec["card"])
    st.add_to_hand(s, rec["card"])
    st.phase, st.live, st.offers = "drawn", None, []  # once N has drawn, D is buried (R9)


def _on_reshuffle(st, rec):
    if st.stock_n != 0 or st.reshuffled:
        st.fail(f"reshuffle with {st.stock_n} in stock or twice (R13)")
    if not st.draw_due():
        st.fail("reshuffle when no card is to be drawn (R13)")
    if rec["cards"] != len(st.disc) - 1:
        st.fail(f"reshuffled {rec['cards']}, the pile has {len(st.disc)} (R13)")
    for c in st.disc[:-1]:
        st.unseen[c] += 1
    st.disc[:] = st.disc[-1:]
    st.stock_n = rec["cards"]
    st.reshuffled = True


def _on_void(st, rec):
    if rec.get("stalled"):  # the engine's turn cap, not a rule: only at a turn boundary
        if st.phase not in ("discarded", "no_discard", "upcard"):
            st.fail("a stalled hand must stop between turns")
        st.void = st.stalled = True
        return
    if st.stock_n != 0 or not (st.reshuffled or len(st.disc) <= 1):
        st.fail("void while the stock can still serve (R13)")
    if not st.draw_due():
        st.fail("void when no card is to be drawn (R13)")
    st.void = True


def _on_drop(st, rec):
    if not st.void or st.stalled:
        st.fail("a drop record not after a void attempt (R13)")
    h = st.head
    if rec.get("hand") != h["hand"] or rec.get("attempts") != h["attempt"] + 1:
        st.fail(f"drop names hand {rec.get('hand')} after {rec.get('attempts')} attempts; this is "
                f"hand {h['hand']} attempt {h['attempt']} (R13)")
    cap = getattr(st.rules, "max_replays", None)
    if cap is not None and rec["attempts"] != cap + 1:
        st.fail(f"hand dropped after {rec['attempts']} attempts; the cap is max_replays + 1 = "
                f"{cap + 1} (R13)")
    st.drop = rec


def _on_open(st, rec):
    s = rec["seat"]
    if s != st.cur or st.phase != "drawn" or st.opened[s]:
        st.fail(f"seat {s} cannot open now (R6, R7)")
    st.opened[s] = st.opened_this_turn = True
    st.open_turn[s] = st.turns[s]
    if st.first_down is None:
        st.first_down = s
    st.opening = dict(seat=s, contract=[], extras=[], legacy=[])


def _on_meld(st, rec):
    s = rec["seat"]
    if s != st.cur or st.phase != "drawn" or not st.opened[s]:
        st.fail(f"seat {s} lays a meld without having opened (R7)")
    if rec["meld"] in st.melds:
        st.fail(f"meld id {rec['meld']} reused")
    for c, _ in rec["cards"]:
        st.remove_from_hand(s, c)
    try:
        m = _Meld(rec["kind"], s, rec["cards"])
    except RefereeError as err:
        st.fail(str(err))
    m.check(st.where())
    owned = st.own[s][0 if m.kind == "group" else 1]
    if m.key in owned:
        st.fail(f"seat {s} already owns a {m.kind} of {m.key} (R5)")
    owned.add(m.key)
    st.melds[rec["meld"]] = m
    st.on_table += m.size()
    _place_meld(st, m, rec.get("contract"))


def _place_meld(st, m, contract):
    """R7: contract melds open the opening block; extras (contract=False) follow them."""
    o = st.opening
    if contract is None:
        if o is not None:
            o["legacy"].append(m)
    elif contract:
        if o is None:
            st.fail("a contract meld outside an opening (R7)")
        if o["extras"]:
            st.fail("a contract meld after an extra meld: the contract melds come first (R7)")
        o["contract"].append(m)
    elif o is not None:
        if not o["extras"]:
            st.check_contract(o, " before its first extra meld (the contract comes first)")
        o["extras"].append(m)


def _on_layoff(st, rec):
    s = rec["seat"]
    if s != st.cur or st.phase != "drawn" or not st.opened[s]:
        st.fail(f"seat {s} lays off without having opened (R10)")
    m = st.melds.get(rec["meld"])
    if m is None:
        st.fail(f"no meld {rec['meld']} (R10)")
    c = rec["card"]
    st.remove_from_hand(s, c)
    st.on_table += 1
    if c == JK and m.owner != s and not st.rules.jokers_on_others:
        st.fail("joker on another player's meld (R10; only V5 allows it)")
    if m.kind == "group":
        _grow_group(m, c)
    elif c != JK and m.pos.get(rec["position"]) == JK:
        _replace_joker(st, m, rec)
    else:
        _grow_run(st, m, c, rec["position"])
    m.check(st.where())


def _grow_group(m, c):
    """R10: a group takes more naturals of its rank (checked with the meld), or an own joker."""
    m.cards.append(c)


def _grow_run(st, m, c, p):
    """R10 (V3): a run grows one above its top until the top is A(14), then one below."""
    lo, hi = min(m.pos), max(m.pos)
    grow = [hi + 1] if hi < 14 else [lo - 1]
    if st.rules.free_extension:
        grow = [hi + 1, lo - 1]
    if p not in grow or not 1 <= p <= 14:
        st.fail(f"{c} at position {p}; the run grows at {grow} (R10"
                f"{', V3' if st.rules.free_extension else ''})")
    m.pos[p] = c


def _replace_joker(st, m, rec):
    """R11: the natural takes the joker's place; the joker moves to top+1 (or below A(14)'s
    bottom), announced by the next record (``expect_move``)."""
    p = rec["position"]
    lo, hi = min(m.pos), max(m.pos)
    q = hi + 1 if hi < 14 else lo - 1
    if q in m.pos or not 1 <= q <= 14:
        st.fail("the replaced joker has nowhere to move (R11)")
    m.pos[p] = rec["card"]
    m.pos[q] = JK
    st.expect_move = (rec["meld"], p, q)


def _on_joker_move(st, rec):
    if st.expect_move is None or st.expect_move != (rec["meld"], rec["from"], rec["to"]):
        st.fail(f"a joker moved {rec['from']}->{rec['to']} on #{rec['meld']}; the replacement "
                f"requires {st.expect_move} (R11)")
    st.expect_move = None


# -- V9 Tuluki: the two-player discard step ------------------------------------------------


def _tuluki_step(st, rec, step, seat, what):
    """V9: the record is the step now due, by the right seat, at B's turn start."""
    s = rec["seat"]
    if st.phase != "start" or st.tul != step:
        due = st.tul or ("nothing: B has drawn" if st.phase != "start" else "B's draw")
        st.fail(f"seat {s} {what} but the Tuluki step due is {due} (V9)")
    if s != seat:
        st.fail(f"seat {s} {what}; only seat {seat} may here (V9)")
    if st.pending_call is not None:
        st.fail("a call without its penalty card (R9)")


def _tuluki_turned(st, rec):
    if rec["card"] != st.turned:
        st.fail(f"{rec['card']} is not the turned card {st.turned} (V9)")


def _tuluki_take(st, rec):
    """V9 (b): B takes the turned card as its draw; D is never taken, only called."""
    s = rec["seat"]
    if not rec.get("turned"):
        st.fail(f"seat {s} takes the discard {rec['card']}: in Tuluki B may claim it only as a "
                "call, with a penalty card (V9)")
    _tuluki_step(st, rec, "b_take", st.cur, "takes the turned card")
    _tuluki_turned(st, rec)
    st.add_to_hand(s, rec["card"])
    st.turned, st.tul, st.phase = None, None, "drawn"  # B's draw; D stays buried (R9)


def _tuluki_decline(st, rec):
    """V9: B passes on calling D or on the turned card (never a joker); A on calling it."""
    s, kind = rec["seat"], rec.get("as")
    if kind == "call":
        if st.tul != "claim":
            st.fail(f"seat {s} declines a call of D outside B's claim (V9)")
        if s != st.cur:
            st.fail(f"seat {s} is not offered D: in Tuluki only B may call it (V9)")
        _check_offered(st, rec, "call")
        st.tul = "turn_up"
    elif kind == "turned_take":
        _tuluki_step(st, rec, "b_take", st.cur, "passes on the turned card")
        _tuluki_turned(st, rec)
        if rec["card"] == JK:
            st.fail(f"seat {s} passes on a turned joker: B must take it (V9)")
        st.tul = "a_call" if st.may_call(st.discarder) else "bury"
    elif kind == "turned_call":
        _tuluki_step(st, rec, "a_call", st.discarder, "passes on calling the turned card")
        _tuluki_turned(st, rec)
        st.tul = "bury"
    else:
        st.fail(f"decline as {kind!r}: in Tuluki it is 'call', 'turned_take' or 'turned_call' "
                "(V9)")


def _tuluki_call(st, rec):
    """V9: B calls D (its claim), or A calls the turned card B did not take; a penalty card
    follows each, and each counts toward the call limit (R9, V8)."""
    s = rec["seat"]
    if st.opened[s]:
        st.fail(f"opened seat {s} called (R8)")
    if st.calls[s] >= st.rules.call_limit:
        st.fail(f"seat {s} exceeds {st.rules.call_limit} calls ({st.limit_rule()})")
    if rec.get("turned"):
        if st.phase != "start" or st.tul != "a_call":
            st.fail(f"seat {s} calls the turned card {rec['card']}, but A may call it only "
                    "right after B did not take it (V9)")
        _tuluki_step(st, rec, "a_call", st.discarder, "calls the turned card")
        _tuluki_turned(st, rec)
        st.turned, st.tul = None, None
    else:
        if s != st.cur:
            st.fail(f"seat {s} calls {rec['card']}: in Tuluki only B calls D (V9)")
        if st.tul != "claim":
            st.fail(f"seat {s} calls {rec['card']}, but no discard is on offer: B's call of D "
                    "comes first, and D or a buried turned card is never live again (V9)")
        if st.live is not None and rec.get("discarder", st.discarder) != st.live[1]:
            st.fail("call names the wrong discarder (R9)")
        _check_offered(st, rec, "call")
        st.disc.pop()
        st.live, st.offers, st.call_done, st.tul = None, [], True, "turn_up"
    st.add_to_hand(s, rec["card"])
    st.calls[s] += 1
    st.pending_call = (s, st.size[s])


def _on_turn_up(st, rec):
    """V9 (b): A turns up the top card of the stock (after B's claim of D, with its penalty)."""
    if not st.tuluki:
        st.fail("a turned-up card outside Tuluki (V9)")
    _tuluki_step(st, rec, "turn_up", st.discarder, "turns up a card")
    st.take_from_stock(rec["card"])
    st.turned, st.tul, st.live = rec["card"], "b_take", None


def _on_refuse(st, rec):
    """V9 (b): B refuses A's call of the turned card; an opened B cannot (R8)."""
    if not st.tuluki:
        st.fail("a refused call outside Tuluki (V9)")
    _tuluki_step(st, rec, "a_call", st.cur, "refuses A's call")
    _tuluki_turned(st, rec)
    if st.opened[st.cur]:
        st.fail(f"opened seat {st.cur} refused a call (R8)")
    st.tul = "bury"


def _on_bury(st, rec):
    """V9: the turned card nobody took goes face up onto the pile, not live (R9)."""
    if not st.tuluki:
        st.fail("a buried turned card outside Tuluki (V9)")
    _tuluki_step(st, rec, "bury", st.discarder, "buries the turned card")
    _tuluki_turned(st, rec)
    st.disc.append(rec["card"])
    st.turned, st.tul = None, None


def _on_discard(st, rec):
    s, c = rec["seat"], rec["card"]
    st.in_turn(s, "drawn", "discards", "R6")
    if c == JK:
        st.fail("a joker was discarded (R6)")
    st.remove_from_hand(s, c)
    st.disc.append(c)
    st.live, st.discarder = (c, s), s  # R9 offers it at the next turn
    st.phase = "discarded"


def _on_no_discard(st, rec):
    s = rec["seat"]
    st.in_turn(s, "drawn", "ends its turn", "R6")
    if st.size[s] == 0:
        st.fail(f"seat {s}'s hand is empty: it is out, not a turn without a discard (R12)")
    if st.holds_natural(s):
        st.fail(f"seat {s} ended its turn without a discard while holding a natural card "
                "(R6, C2)")
    st.live, st.discarder = None, None  # C2: nothing is offered (R9)
    st.phase = "no_discard"


def _on_out(st, rec):
    s = rec["seat"]
    if s != st.cur or st.size[s] != 0:
        st.fail(f"seat {s} is out holding {+st.hand[s]} (turn of seat {st.cur}) (R12)")
    if bool(rec["on_opening"]) != st.opened_this_turn:
        st.fail("out_on_opening flag wrong (R12)")
    st.out, st.out_on_opening, st.emptied = s, st.opened_this_turn, None
    st.doubled = st.out_on_opening and (not st.rules.double_only_first_down
                                        or st.first_down == s)


def _on_score(st, rec):
    s = rec["seat"]
    if st.out is None:
        st.fail("a score before anyone is out (R12)")
    if s in st.scores:
        st.fail(f"seat {s} scored twice (R12)")
    pen = sum(_value(c) * n for c, n in st.hand[s].items())
    exp = 0 if s == st.out else pen * (2 if st.doubled else 1)
    if rec["penalty"] != exp or bool(rec["doubled"]) != st.doubled:
        v4 = ", V4" if st.rules.double_only_first_down else ""
        st.fail(f"seat {s} scored {rec['penalty']} (doubled={rec['doubled']}), the rules give "
                f"{exp} (doubled={st.doubled}) (R12{v4})")
    st.scores[s] = exp


_CHECKS = {
    "deal": _on_deal, "upcard": _on_upcard, "turn": _on_turn, "take": _on_take,
    "decline": _on_decline, "call": _on_call, "penalty": _on_penalty, "draw": _on_draw,
    "reshuffle": _on_reshuffle, "void": _on_void, "drop": _on_drop, "open": _on_open,
    "meld": _on_meld, "layoff": _on_layoff, "joker_move": _on_joker_move,
    "discard": _on_discard, "no_discard": _on_no_discard, "out": _on_out, "score": _on_score,
    "turn_up": _on_turn_up, "refuse": _on_refuse, "bury": _on_bury,
}


def _pre_checks(st, e):
    """Checks every record passes before its own: nothing after the end, no loose ends."""
    if st.drop is not None:
        st.fail("a record after the drop (R13)")
    if st.void and e != "drop":
        st.fail("a record after the hand was void (R13)")
    if st.out is not None and e != "score":
        st.fail("a record after the hand ended (R12)")
    if st.expect_move is not None and e != "joker_move":
        st.fail("a replaced joker did not move (R11)")
    if st.emptied is not None and e != "out" and not (e == "joker_move" and st.expect_move):
        st.fail(f"seat {st.emptied}'s hand is empty: the hand ends at once with its out (R12)")
    if e != "meld" and st.opening is not None:
        st.finish_opening()


def _check_head(head, rules):
    where = f"game {head.get('game', 0)} hand {head.get('hand')} attempt {head.get('attempt')}"
    try:
        sched = tuple(rules.deal(head["hand"]))
    except ValueError as err:
        raise RefereeError(f"{where}: {err} (R2, R14)") from None
    if (head["cards_dealt"], head["groups"], head["runs"]) != sched:
        raise RefereeError(f"{where}: deal/contract differ from the schedule (R2)")
    if "players" in head and head["players"] != rules.players:
        raise RefereeError(f"{where}: {head['players']} players; the rules seat {rules.players}")
    if not 0 <= head["dealer"] < rules.players:
        raise RefereeError(f"{where}: dealer {head['dealer']} is not a seat (R2)")
    cap = getattr(rules, "max_replays", None)
    if cap is not None and head["attempt"] > cap:
        raise RefereeError(f"{where}: attempt {head['attempt']} beyond max_replays={cap} (R13)")


def _check_hand(recs, rules):
    """Replay one hand attempt; return its outcome (a dict, per-seat lists)."""
    head = recs[0]
    _check_head(head, rules)
    st = _HandState(head, rules)
    for st.i, rec in enumerate(recs[1:], start=1):
        e = st.event = rec["event"]
        _pre_checks(st, e)
        check_event = _CHECKS.get(e)
        if check_event is None:
            st.fail(f"unknown event {e!r}")
        check_event(st, rec)
        if e in _MOVES:
            st.conservation()
    st.i, st.event = len(recs), "end"
    _end_of_hand(st)
    return _outcome(st)


def _end_of_hand(st):
    if st.opening is not None:
        st.finish_opening()
    if st.expect_move is not None:
        st.fail("a replaced joker did not move (R11)")
    if st.emptied is not None:
        st.fail(f"seat {st.emptied}'s hand is empty but no out record follows (R12)")
    st.conservation(full=True)
    if st.phase == "deal":
        st.fail("the log ends before the upcard (R2)")
    if st.void:
        cap = getattr(st.rules, "max_replays", None)
        if (cap is not None and not st.stalled and st.head["attempt"] >= cap
                and st.drop is None):
            st.fail(f"void attempt {st.head['attempt']} reaches max_replays={cap}: a drop record "
                    "must follow (R13)")
        return
    if st.out is None:
        if st.phase not in ("discarded", "no_discard"):
            st.fail("the hand ended with nobody out and not void (R12, R13)")
        # the engine's turn cap stops a hand between turns, with no record: the rows must say
        # ``stalled`` (checked in :func:`check`)
        st.void = st.stalled = st.unlogged_stall = True
        return
    if sorted(st.scores) != list(range(st.P)):
        st.fail(f"scores missing for some seats: have {sorted(st.scores)} (R12)")


def _outcome(st):
    P, void, out = st.P, st.void, st.out
    seats = dict(
        seat=list(range(P)),
        penalty=[None if void else st.scores[p] for p in range(P)],
        went_out=[p == out for p in range(P)],
        calls=list(st.calls),
        opened=list(st.opened),
        cards_left=list(st.size),
        doubled=[st.doubled and p != out for p in range(P)],
        out_on_opening=[p == out and st.out_on_opening for p in range(P)],
        open_turn=list(st.open_turn),
        turns=list(st.turns),
    )
    return dict(head=st.head, void=void, stalled=st.stalled, unlogged_stall=st.unlogged_stall,
                drop=st.drop is not None,
                reshuffled=st.reshuffled, seats=seats, dealt=st.dealt)


# -- across hands ---------------------------------------------------------------------------


def _split(records):
    hands = []
    for r in records:
        if r["event"] == "hand":
            hands.append([r])
        elif not hands:
            raise RefereeError("log does not start with a hand record")
        else:
            hands[-1].append(r)
    return hands


def _check_sequence(prev, res, rules):
    """R2, R13, R14: the hand record after ``prev`` (an outcome) in the same game."""
    a, b = prev["head"], res["head"]
    where = f"game {b.get('game', 0)} hand {b['hand']} attempt {b['attempt']}"
    if prev["void"] and not prev["drop"] and not prev["stalled"]:
        exp = (a["hand"], a["attempt"] + 1, a["dealer"])
        rule = "R13: the same dealer deals the same contract again"
    else:
        exp = (a["hand"] + 1, 0, (a["dealer"] + 1) % rules.players)
        rule = "R2, R14: the next hand, dealt by the seat on the dealer's left"
    if (b["hand"], b["attempt"], b["dealer"]) != exp:
        raise RefereeError(f"{where}: dealer {b['dealer']}; expected hand {exp[0]} attempt "
                           f"{exp[1]} dealer {exp[2]} after hand {a['hand']} attempt "
                           f"{a['attempt']} (dealer {a['dealer']}) ({rule})")


def check(records, rules, rows=None, can_lay=None) -> int:
    """Replay every hand attempt in ``records`` (a :class:`~kalooki_sim.trace.Trace`'s); return
    the number of hand attempts refereed.

    Besides each attempt's moves, checks the order of hand records within each game (R2 dealer
    rotation and hand numbers, R13 replays and the engine's ``drop`` cap, R14).

    ``rows`` (optional): the engine's per-seat result rows of exactly these attempts, in order
    (void attempts included). Every known column present is compared with the referee's own
    outcome (NA-aware); ``total``/``winner``/``complete`` (whole-game rows) need whole games.

    ``can_lay`` (optional): ``can_lay(cards, groups, runs) -> bool`` (or ``None`` to skip a
    seat, e.g. to keep an expensive search affordable); with it, ``dealt_meets_contract`` is
    checked for each seat's dealt cards.
    """
    results = []
    last: dict = {}  # game -> outcome of its latest attempt
    first_hand: dict = {}
    for recs in _split(records):
        res = _check_hand(recs, rules)
        head = res["head"]
        game = head.get("game", 0)
        if game in last:
            _check_sequence(last[game], res, rules)
            if head["hand"] != last[game]["head"]["hand"] and first_hand[game] != 1:
                raise RefereeError(f"game {game}: a whole game starts at hand 1, not "
                                   f"{first_hand[game]} (R14)")
        elif head["attempt"] != 0:
            raise RefereeError(f"game {game} hand {head['hand']}: the log starts at attempt "
                               f"{head['attempt']}, not 0 (R13)")
        else:
            first_hand[game] = head["hand"]
        last[game] = res
        results.append(res)
    _check_unlogged_stalls(results, rows, rules)
    if rows is not None:
        _check_rows(results, rows, rules, can_lay)
    return len(results)


def _check_unlogged_stalls(results, rows, rules):
    """A hand that stops between turns, nobody out, not void, is only the engine's turn cap
    (``stalled``, not a rule) if its rows say so; otherwise the log is cut short."""
    for k, res in enumerate(results):
        if not res["unlogged_stall"]:
            continue
        h = res["head"]
        ok = (rows is not None and "stalled" in rows.columns and len(rows) > k * rules.players
              and bool(rows["stalled"].iloc[k * rules.players]))
        if not ok:
            raise RefereeError(f"game {h.get('game', 0)} hand {h['hand']} attempt {h['attempt']}: "
                               "the hand ended with nobody out and not void (R12, R13), and no "
                               "row says the engine stalled it")


# -- the engine's result rows ---------------------------------------------------------------

#: the rule each row column reports on, for the error message
_COLUMN_RULE = {
    "seat": "R2", "dealer": "R2", "attempt": "R13", "hand": "R2", "game": "R14",
    "groups": "R2", "runs": "R2", "cards_dealt": "R2", "players": "R2",
    "penalty": "R12", "went_out": "R12", "calls": "R9", "opened": "R7", "cards_left": "R12",
    "void": "R13", "doubled": "R12", "out_on_opening": "R12", "open_turn": "R7",
    "turns": "R6", "reshuffled": "R13", "attempts": "R13", "stalled": "R13",
    "dealt_meets_contract": "R7", "total": "R14", "winner": "R14", "complete": "R14",
}


def _expected_rows(results, rules, can_lay, columns):
    """Column -> expected values (``None`` = NA; ``...`` = not checked) for every seat-row."""
    P = rules.players
    exp = {c: [] for c in _COLUMN_RULE if c in columns}
    attempts = Counter((r["head"].get("game", 0), r["head"]["hand"]) for r in results)
    per_game = _game_totals(results, rules) if {"total", "winner", "complete"} & set(exp) else {}
    for res in results:
        h, seats = res["head"], res["seats"]
        game = h.get("game", 0)
        meets = [...] * P
        if "dealt_meets_contract" in exp and can_lay is not None:
            meets = [can_lay(list(res["dealt"][p]), h["groups"], h["runs"]) for p in range(P)]
            meets = [... if m is None else bool(m) for m in meets]
        whole = dict(dealer=h["dealer"], attempt=h["attempt"], hand=h["hand"], game=game,
                     groups=h["groups"], runs=h["runs"], cards_dealt=h["cards_dealt"],
                     players=P, void=res["void"], reshuffled=res["reshuffled"],
                     attempts=attempts[(game, h["hand"])])
        for col, vals in exp.items():
            if col in seats:
                vals.extend(seats[col])
            elif col in whole:
                vals.extend([whole[col]] * P)
            elif col == "stalled":
                vals.extend([res["stalled"]] * P)
            elif col == "dealt_meets_contract":
                vals.extend(meets)
            else:  # total, winner, complete
                vals.extend(per_game[game][col][p] for p in range(P))
    return exp


def _game_totals(results, rules):
    """R14: each game's totals over scored hands, shared wins, and whether every hand scored."""
    P = rules.players
    games: dict = {}
    for res in results:
        h = res["head"]
        g = games.setdefault(h.get("game", 0), dict(total=[0] * P, scored=set(), seen=set()))
        g["seen"].add(h["hand"])
        if not res["void"]:
            g["scored"].add(h["hand"])
            for p in range(P):
                g["total"][p] += res["seats"]["penalty"][p]
    out = {}
    for game, g in games.items():
        if g["seen"] != set(range(1, rules.hands + 1)):
            raise RefereeError(f"game {game}: rows with totals need the whole game's records "
                               f"(hands 1-{rules.hands}); the log has {sorted(g['seen'])} (R14)")
        best = min(g["total"])
        complete = g["scored"] == g["seen"]
        out[game] = dict(total=g["total"], winner=[t == best for t in g["total"]],
                         complete=[complete] * P)
    return out


def _check_rows(results, rows, rules, can_lay=None):
    import pandas as pd

    n = len(results) * rules.players
    if len(rows) != n:
        raise RefereeError(f"{len(rows)} engine rows for {n} refereed seat-attempts")
    exp = _expected_rows(results, rules, can_lay, set(rows.columns))
    for col, want in exp.items():
        got = rows[col].to_numpy(dtype=object)
        na = pd.isna(got)
        for j, (g, w) in enumerate(zip(got, want, strict=True)):
            if w is ... or (w is None and na[j]):
                continue
            if w is None or na[j] or int(g) != int(w):
                res = results[j // rules.players]
                h = res["head"]
                raise RefereeError(
                    f"engine row {j} (game {h.get('game', 0)} hand {h['hand']} attempt "
                    f"{h['attempt']} seat {j % rules.players}) says {col}={g}, referee finds "
                    f"{'<NA>' if w is None else w} ({_COLUMN_RULE[col]})")
