"""One hand attempt replayed: the shared pre-checks, one checker per event (:data:`_CHECKS`),
card conservation after every card move, and the end-of-hand checks.
"""

from __future__ import annotations

from ._draws import (
    _on_call,
    _on_deal,
    _on_decline,
    _on_draw,
    _on_penalty,
    _on_reshuffle,
    _on_take,
    _on_turn,
    _on_upcard,
)
from ._ends import _on_discard, _on_drop, _on_no_discard, _on_out, _on_score, _on_void
from ._melds import _on_joker_move, _on_layoff, _on_meld, _on_open
from ._state import _MOVES, RefereeError, _HandState
from ._tuluki import _on_bury, _on_refuse, _on_turn_up

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
