"""Checkers of the Tuluki discard step (V9): the next player's call, the turned card, its
take, call, refusal and burial.
"""

from __future__ import annotations

from ._state import JK, _check_offered

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
