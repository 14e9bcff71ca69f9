"""Checkers of melds (R4, R5, R7, R10, R11): the opening and its contract, further melds,
lay-offs (group, run growth, joker replacement) and joker moves.
"""

from __future__ import annotations

from ._state import JK, RefereeError, _Meld


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
