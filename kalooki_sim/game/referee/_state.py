"""The referee's state of one hand attempt: hands, stock, discard pile, melds on the table,
whose turn and what R9 still offers (:class:`_HandState`), card helpers and the pack (R1).
"""

from __future__ import annotations

from collections import Counter

from ..cards import PENALTY, to_codes

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
