"""Checkers of the end of a turn and of a hand (R8, R12, R13): discard, no discard, out, void,
drop and score.
"""

from __future__ import annotations

from ._state import JK, _value


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
