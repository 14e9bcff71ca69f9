"""Checkers of the deal and the draw (R1, R2, R6, R9, C1, C2, R13): deal, upcard, turn, the
offer of the discard (take, decline, call with its penalty card), the draw and reshuffle.
"""

from __future__ import annotations

from ._state import _check_offered
from ._tuluki import _tuluki_call, _tuluki_decline, _tuluki_take

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


def _not_turned(st, rec, what):
    """Outside Tuluki no card is turned up from the stock to be taken or called (V9)."""
    if rec.get("turned"):
        st.fail(f"a {what} of a turned card outside Tuluki (V9)")


def _on_take(st, rec):
    s = rec["seat"]
    if st.tuluki:
        return _tuluki_take(st, rec)
    _not_turned(st, rec, "take")
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
    _not_turned(st, rec, "call")
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
