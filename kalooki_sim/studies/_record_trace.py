"""A parsed game record played through as the seat saw it: the engine's records
(:mod:`kalooki_sim.engine.trace`) rebuilt line by line, others' hidden cards ``None``.

Each line is checked against the table's state (the live discard, the hand sizes, the
stock, whose turn it is, who may call, the melds laid) and a
:class:`~kalooki_sim.studies.record.RecordError` names the line and what it expected there.
The passes the line leaves implied are written as the engine logs them (R9: the next seat
if it has not opened, then each seat that may call in priority order).
"""

from __future__ import annotations

from collections import Counter

from ..game.cards import JOKER, rank_of, suit_of, to_codes
from ..game.rules import Rules


def _positions(cards):
    """Run positions (R4) of cards written low to high, or None if they are no run."""
    codes = [int(c) for c in to_codes(cards)]
    nat = [(i, c) for i, c in enumerate(codes) if c != JOKER]
    if not nat:
        return None
    i0, c0 = nat[0]
    starts = [14 - i0, 1 - i0] if rank_of(c0) == 1 else [rank_of(c0) - i0]
    for p0 in starts:
        if p0 < 1 or p0 + len(codes) - 1 > 14:
            continue
        ok = all(suit_of(c) == suit_of(c0) and
                 (rank_of(c) == p0 + i or (rank_of(c) == 1 and p0 + i in (1, 14)))
                 for i, c in nat)
        if ok:
            return [p0 + i for i in range(len(codes))]
    return None


class Table:
    """The state a record's lines move, and the engine-style records they make."""

    def __init__(self, rec, error):
        self.rec, self.error = rec, error
        self.P, self.me = rec.players, rec.you
        self.rules = (Rules(players=self.P) if self.P <= 6 else
                      Rules(players=self.P, pack="by-table"))
        cards, g, r = self.rules.deal(rec.contract)
        self.cards_dealt = cards
        self.out = [dict(event="hand", seat=-1, hand=rec.contract, attempt=rec.attempt,
                         dealer=rec.dealer, players=self.P, groups=g, runs=r,
                         cards_dealt=cards, game=rec.game)]
        self.sizes = [cards] * self.P
        self.mine = Counter(rec.dealt)
        self.stock = self.rules.pack_size - self.P * cards - 1
        self.pile = [rec.upcard]
        self.opened, self.calls = set(), [0] * self.P
        self.opened_now = set()
        self.melds = []  # [owner, kind, {position or index: card}]
        self.turns = [0] * self.P
        self.offer = (rec.dealer, rec.upcard)  # (discarder, card) while live (C1)
        self.offer_state = "new"  # new: nobody has acted; taken; called; dead
        self.next_seat = (rec.dealer + 1) % self.P
        self.turn_seat = None  # the seat whose turn it is once begun
        self.drew = False
        self.ended = False
        self.prev_line, self.implicit_at = 0, -1  # the line that reshuffled (R13)
        self.reshuffled = False
        for k in range(cards):  # one at a time from the dealer's left (R2)
            for j in range(1, self.P + 1):
                s = (rec.dealer + j) % self.P
                self.add("deal", s, card=rec.dealt[k] if s == self.me else None)
        self.add("upcard", rec.dealer, card=rec.upcard)

    def add(self, event, seat, **kw):
        """Append one engine-style record (:mod:`kalooki_sim.engine.trace`)."""
        self.out.append(dict(event=event, seat=seat, **kw))

    def who(self, s):
        """``you`` or ``seat 2``, for a message."""
        return "you" if s == self.me else f"seat {s}"

    # -- the turn and the offer (R6, R9) ----------------------------------------------------

    def begin_turn(self):  # noqa: D401
        """The next seat's turn record, once, before anything of that turn (R2, R6)."""
        if self.turn_seat is None:
            s = self.next_seat
            self.turns[s] += 1
            self.add("turn", s, turn=self.turns[s])
            self.turn_seat, self.drew = s, False

    def may_call(self, s):
        """Seat ``s`` may call a discard now: not opened, under the call limit (R8, R9)."""
        return s not in self.opened and self.calls[s] < self.rules.call_limit

    def _passes(self, upto=None):
        """The implied passes on the live card: the next seat's take, then the callers in
        priority order up to ``upto`` (R9.1, R9.2)."""
        disc, card = self.offer
        n = self.next_seat
        if self.offer_state == "new":
            if n not in self.opened:
                self.add("decline", n, card=card, **{"as": "take"})
            self.offer_state = "asked"
        for j in range(1, self.P - 1):
            s = (n + j) % self.P
            if s == disc or s == upto:
                break
            if self.may_call(s):
                self.add("decline", s, card=card, **{"as": "call"})

    def _live(self, n, raw, card):
        if self.offer is None or self.offer_state in ("taken", "called", "dead"):
            raise self.error(n, raw, "no discard is on offer now (R9: only the last discard, "
                             "before the next seat draws)")
        if self.offer[1] != card:
            raise self.error(n, raw, f"the card on offer is {self.offer[1]}, not {card} "
                             "(R9: only the last discard)")

    # -- one line ---------------------------------------------------------------------------

    def line(self, n, raw, s, verb, arg):
        """Apply line ``n`` (text ``raw``): seat ``s`` does ``verb`` with ``arg``."""
        if self.ended and verb not in ("score", "void"):
            raise self.error(n, raw, "the hand has ended; expected only scores ('seat 2 "
                             "scores 45') or the next hand's 'contract' line")
        getattr(self, "_" + verb)(n, raw, s, arg)
        self.prev_line = n

    def _take(self, n, raw, s, card):
        self._live(n, raw, card)
        if s != self.next_seat or self.offer_state != "new":
            raise self.error(n, raw, f"only seat {self.next_seat}, next after the discarder, "
                             "may take it as its draw (R9.1); another seat calls it")
        if s in self.opened:
            raise self.error(n, raw, f"{self.who(s)} has opened and draws from the stock only "
                             "(R8)")
        self.begin_turn()
        self.pile.pop()
        self.add("take", s, card=card)
        self.offer_state, self.drew = "taken", True
        self._gets(s, card)

    def _call(self, n, raw, s, arg):
        card, pen = arg
        self._live(n, raw, card)
        if s == self.next_seat or s == self.offer[0]:
            raise self.error(n, raw, f"{self.who(s)} cannot call this card (R9.2: a seat "
                             f"after the next seat, {self.next_seat}, never the discarder)")
        if not self.may_call(s):
            why = "has opened (R8)" if s in self.opened else "has made its 3 calls (R9)"
            raise self.error(n, raw, f"{self.who(s)} {why}")
        dry = self.stock == 0 and (len(self.pile) < 3 or self.reshuffled)  # R13: void
        if s == self.me and pen is None and not dry:
            raise self.error(n, raw, "your call needs its penalty card: 'you call 7♥ penalty "
                             "3♣' (R9.2)")
        if s != self.me and pen is not None:
            raise self.error(n, raw, f"seat {s}'s penalty card is face down: write 'seat {s} "
                             f"calls {card}'")
        self.begin_turn()
        self._passes(upto=s)
        self.pile.pop()
        self.add("call", s, card=card, discarder=self.offer[0])
        self.calls[s] += 1
        self.offer_state = "called"
        self._gets(s, card)
        if dry:  # no penalty card to draw: the hand is void (R13); a 'void' line follows
            self.ended = True
            return
        self._stock(n, raw)
        self.add("penalty", s, card=pen)
        self._gets(s, pen)

    def _pass(self, n, raw, s, arg):
        return  # passes are implied (R9); the line is for the reader

    def _stock(self, n, raw):
        """One card from the stock; the reshuffle first when it is empty (R13)."""
        if self.stock == 0:
            if len(self.pile) < 2 or self.reshuffled:
                raise self.error(n, raw, "the stock is empty a second time with nothing to "
                                 "reshuffle: the hand is void (R13); expected 'void'")
            self.stock, self.pile = len(self.pile) - 1, self.pile[-1:]
            self.add("reshuffle", -1, cards=self.stock)
            self.implicit_at, self.reshuffled = n, True
        self.stock -= 1

    def _draw(self, n, raw, s, cards):
        if s == self.me and len(cards) != 1:
            raise self.error(n, raw, "your draw needs its card: 'you draw 7♥'")
        if s != self.me and cards:
            raise self.error(n, raw, f"seat {s}'s draw is face down: write 'seat {s} draws'")
        if self.turn_seat is None and s != self.next_seat:
            raise self.error(n, raw, f"it is seat {self.next_seat}'s turn, not "
                             f"{self.who(s)}'s (R2: clockwise)")
        if self.turn_seat is not None and (s != self.turn_seat or self.drew):
            raise self.error(n, raw, f"{self.who(s)} cannot draw now: "
                             + ("it has drawn this turn; expected its discard (R6)"
                                if s == self.turn_seat else
                                f"it is seat {self.turn_seat}'s turn (R2)"))
        self.begin_turn()
        if self.offer is not None and self.offer_state in ("new", "asked"):
            self._passes()
        self.offer_state = "dead"
        self._stock(n, raw)
        self.add("draw", s, card=cards[0] if cards else None)
        self.drew = True
        self._gets(s, cards[0] if cards else None)

    def _own_turn(self, n, raw, s, what):
        if s != self.turn_seat or not self.drew:
            raise self.error(n, raw, f"{self.who(s)} {what} only in its own turn, after its "
                             "draw (R6)")

    def _discard(self, n, raw, s, card):
        self._own_turn(n, raw, s, "discards")
        if card == "JK":
            raise self.error(n, raw, "a joker is never discarded (R6)")
        self._leaves(n, raw, s, [card])
        self.pile.append(card)
        self.add("discard", s, card=card)
        self._end_turn(s, (s, card))

    def _end_turn(self, s, offer):
        self.offer, self.offer_state = offer, "new" if offer else "dead"
        self.next_seat, self.turn_seat = (s + 1) % self.P, None
        self.opened_now.discard(s)

    def _open(self, n, raw, s, melds):
        self._own_turn(n, raw, s, "opens")
        if s in self.opened:
            raise self.error(n, raw, f"{self.who(s)} has opened already; later melds are "
                             "'melds' lines (R7)")
        rec = self.rec
        _, g, r = self.rules.deal(rec.contract)
        if len(melds) != g + r:
            raise self.error(n, raw, f"the contract of hand {rec.contract} is {g + r} melds "
                             f"({g} groups, {r} runs), got {len(melds)} (R7)")
        self.opened.add(s)
        self.opened_now.add(s)
        self.add("open", s)
        for m in melds:
            self._meld(n, raw, s, [m], contract=True)

    def _meld(self, n, raw, s, melds, contract=False):
        self._own_turn(n, raw, s, "melds")
        if s not in self.opened:
            raise self.error(n, raw, f"{self.who(s)} has not opened: its first lay-down is "
                             "the whole contract, an 'opens' line (R7)")
        cards = melds[0]
        codes = [int(c) for c in to_codes(cards)]
        nat = {rank_of(c) for c in codes if c != JOKER}
        if len(nat) == 1 and sum(c != JOKER for c in codes) >= 2 and len(cards) >= 3:
            kind, pos = "group", [0] * len(cards)
        else:
            kind, pos = "run", _positions(cards)
            if pos is None or len(cards) < 4:
                raise self.error(n, raw, f"{' '.join(cards)} is neither a group (R3) nor a "
                                 "run written low to high (R4)")
        self._leaves(n, raw, s, cards)
        self.melds.append([s, kind, list(zip(cards, pos, strict=True))])
        self.add("meld", s, meld=len(self.melds), kind=kind,
                 cards=list(zip(cards, pos, strict=True)), contract=contract)

    def _layoff(self, n, raw, s, arg):
        card, k = arg
        self._own_turn(n, raw, s, "lays off")
        if s not in self.opened:
            raise self.error(n, raw, f"{self.who(s)} has not opened (R10)")
        if not 1 <= k <= len(self.melds):
            raise self.error(n, raw, f"no meld {k}: the table has {len(self.melds)} "
                             "(numbered 1, 2, ... in the order laid)")
        owner, kind, cards = self.melds[k - 1]
        self._leaves(n, raw, s, [card])
        if kind == "group":
            cards.append((card, 0))
            self.add("layoff", s, card=card, meld=k, position=0)
            return
        ps = [p for _, p in cards]
        top, bot = max(ps), min(ps)
        c = int(to_codes([card])[0])
        grow = top + 1 if top < 14 else bot - 1
        if c != JOKER:
            want = [14, 1] if rank_of(c) == 1 else [rank_of(c)]
            jok = [p for x, p in cards if x == "JK" and p in want]
            if jok:  # R11: the natural takes the joker's place, the joker moves on
                i = next(i for i, (x, p) in enumerate(cards) if x == "JK" and p == jok[0])
                cards[i] = (card, jok[0])
                cards.append(("JK", grow))
                self.add("layoff", s, card=card, meld=k, position=jok[0])
                self.add("joker_move", s, meld=k, **{"from": jok[0], "to": grow})
                return
            if grow not in want:
                raise self.error(n, raw, f"{card} does not fit meld {k} "
                                 f"({' '.join(x for x, _ in sorted(cards, key=lambda xc: xc[1]))}"
                                 "): a run grows one above its top, below only once its top "
                                 "is the ace (R10)")
        cards.append((card, grow))
        self.add("layoff", s, card=card, meld=k, position=grow)

    def _out(self, n, raw, s, arg):
        if self.sizes[s] != 0:
            raise self.error(n, raw, f"{self.who(s)} still holds {self.sizes[s]} card(s) by "
                             "this record (R12: out means the hand is empty)")
        self.add("out", s, on_opening=s in self.opened_now)
        self.doubled = s in self.opened_now
        self.ended = True

    def _score(self, n, raw, s, pts):
        if not self.ended:
            raise self.error(n, raw, "scores come after the hand ends (R12)")
        self.add("score", s, penalty=pts, doubled=bool(getattr(self, "doubled", False)))

    def _reshuffle(self, n, raw, s, arg):
        # a marker for the reader: the pile becomes the stock at the draw that needs it (R13)
        if self.implicit_at == self.prev_line and self.implicit_at > 0:
            return
        if len(self.pile) < 2 or self.stock != 0 or self.reshuffled:
            raise self.error(n, raw, f"no reshuffle now: the stock holds {self.stock} cards "
                             f"and the pile {len(self.pile)} (R13: only when a draw finds the "
                             "stock empty, once a hand)")

    def _void(self, n, raw, s, arg):
        if self.stock != 0 or not (self.reshuffled or len(self.pile) < 2):
            raise self.error(n, raw, f"the stock holds {self.stock} cards: a hand is void only "
                             "when it runs out the second time (R13)")
        if self.offer is not None and self.offer_state in ("new", "asked"):
            self.begin_turn()
            self._passes()
        self.add("void", -1, stalled=False)
        self.ended = True

    # -- cards moving -----------------------------------------------------------------------

    def _gets(self, s, card):
        self.sizes[s] += 1
        if s == self.me:
            self.mine[card] += 1

    def _leaves(self, n, raw, s, cards):
        if s == self.me:
            need = Counter(cards)
            short = [c for c in need if self.mine[c] < need[c]]
            if short:
                raise self.error(n, raw, f"you do not hold {', '.join(short)} by this record; "
                                 f"your hand: {' '.join(sorted(self.mine.elements()))}")
            self.mine -= need
        if self.sizes[s] < len(cards):
            raise self.error(n, raw, f"seat {s} holds {self.sizes[s]} cards by this record, "
                             f"fewer than the {len(cards)} it plays")
        self.sizes[s] -= len(cards)


def play_record(rec, error) -> list[dict]:
    """The engine-style records of one parsed hand (:class:`~.record.Record`), each with the
    record's ``line``."""
    t = Table(rec, error)
    for n, raw, s, verb, arg in rec.events:
        start = len(t.out)
        t.line(n, raw, s, verb, arg)
        for r in t.out[start:]:
            r["line"] = n
    return t.out, t.rules
