"""Meld phase (R4, R5, R7, R10, R11): lay the contract from the solver's layout, further melds
once opened, and every legal lay-off.
"""

from __future__ import annotations

from numba import njit

from ...game.kernels import layoff as L
from . import rng as R
from .reading import (
    _danger,
    _hand_size,
    _leaves_hand,
    _may_meld,
    _seen_row,
    _solve_seat,
    need,
)
from .table import (
    EV_JOKER_MOVE,
    EV_LAYOFF,
    EV_MELD,
    EV_MELD_CARD,
    EV_OPEN,
    GS_FIRST_DOWN,
    GS_N_MELDS,
    JOKER,
    N_CODES,
    P_HOLD,
    P_HOLD_DANGER,
    P_HOLD_TURNS,
    P_RANDOM,
    PS_BAN_R,
    PS_BAN_S,
    PS_OPEN_TURN,
    PS_OPENED,
    PS_TURNS,
    R_FREE_EXT,
    R_GROUPS,
    R_JOKERS_OTHERS,
    R_PLAYERS,
    R_RUNS,
    R_V6,
    _log,
)


@njit(cache=True, _nrt=False)
def _contract_runs(out_runs, r, v6):
    """Bit mask of the suits whose runs make the contract's ``r`` runs (R7; V6 a complete suit).

    The first ``r`` runs in suit order; under V6 with fewer than three runs laid, the first
    13-card run stands for the three.
    """
    n = 0
    for s in range(4):
        if out_runs[s, 0] > 0:
            n += 1
    mask = 0
    if v6 and r == 3 and n < 3:
        for s in range(4):
            if out_runs[s, 0] > 0 and out_runs[s, 1] - out_runs[s, 0] == 12:
                return 1 << s
    k = 0
    for s in range(4):
        if out_runs[s, 0] > 0 and k < r:
            mask |= 1 << s
            k += 1
    return mask


@njit(cache=True, _nrt=False)
def _lay_run(seat, s, contract, hand, ps, gs, melds, log, out_runs):
    """Lay the solver's run of suit ``s``; writes hand (and the dead cards), ps, melds."""
    lo = out_runs[s, 0]
    hi = out_runs[s, 1]
    jm = out_runs[s, 2]
    m = gs[GS_N_MELDS]
    gs[GS_N_MELDS] = m + 1
    nj = 0
    for p in range(lo, hi + 1):
        if (jm >> p) & 1:
            nj += 1
    melds[m, L.KIND] = L.RUN
    melds[m, L.OWNER] = seat
    melds[m, L.KEY] = s
    melds[m, L.LO] = lo
    melds[m, L.HI] = hi
    melds[m, L.JMASK] = jm
    melds[m, L.NAT] = hi - lo + 1 - nj
    melds[m, L.JOK] = nj
    _log(log, gs, EV_MELD, seat, -1, m, L.RUN, hi - lo + 1, contract)
    for p in range(lo, hi + 1):
        c = JOKER if (jm >> p) & 1 else s * 13 + (0 if p == 14 else p - 1)
        hand[seat, c] -= 1
        hand[_seen_row(hand), c] += 1
        _leaves_hand(hand, seat, c)
        _log(log, gs, EV_MELD_CARD, seat, c, m, p, 0)
    ps[seat, PS_BAN_S] |= 1 << s


@njit(cache=True, _nrt=False)
def _lay_group(seat, k, nj, contract, hand, ps, gs, melds, log, reserved):
    """Lay a group of rank ``k``: every natural of the rank not ``reserved`` for a run still to
    be laid, and ``nj`` jokers; writes hand (and the dead cards), ps, melds."""
    m = gs[GS_N_MELDS]
    gs[GS_N_MELDS] = m + 1
    nat = 0
    for s in range(4):
        c = s * 13 + k - 1
        nat += hand[seat, c] - reserved[c]
    melds[m, L.KIND] = L.GROUP
    melds[m, L.OWNER] = seat
    melds[m, L.KEY] = k
    melds[m, L.LO] = 0
    melds[m, L.HI] = 0
    melds[m, L.JMASK] = 0
    melds[m, L.NAT] = nat
    melds[m, L.JOK] = nj
    _log(log, gs, EV_MELD, seat, -1, m, L.GROUP, nat + nj, contract)
    for s in range(4):
        c = s * 13 + k - 1
        while hand[seat, c] > reserved[c]:
            hand[seat, c] -= 1
            hand[_seen_row(hand), c] += 1
            _leaves_hand(hand, seat, c)
            _log(log, gs, EV_MELD_CARD, seat, c, m, 0, 0)
    for _ in range(nj):
        hand[seat, JOKER] -= 1
        hand[_seen_row(hand), JOKER] += 1
        _log(log, gs, EV_MELD_CARD, seat, JOKER, m, 0, 0)
    ps[seat, PS_BAN_R] |= 1 << k


@njit(cache=True, _nrt=False)
def _add_meld_from_solver(seat, hand, ps, gs, melds, log, out_runs, out_groups, g, r, v6):
    """Lay the solver's melds for ``seat``: first those making a contract of ``g`` groups and
    ``r`` runs (logged as the contract, R7), then the extra own melds (all of them when
    ``g = r = 0``, after the opening). Writes hand, ps, gs, melds."""
    cmask = _contract_runs(out_runs, r, v6)
    # naturals of the extra runs, kept back from the contract groups laid before them
    reserved = hand[_seen_row(hand) + 1]
    for c in range(N_CODES):
        reserved[c] = 0
    for s in range(4):
        if out_runs[s, 0] > 0 and not (cmask >> s) & 1:
            for p in range(out_runs[s, 0], out_runs[s, 1] + 1):
                if not (out_runs[s, 2] >> p) & 1:
                    reserved[s * 13 + (0 if p == 14 else p - 1)] += 1
    for s in range(4):
        if (cmask >> s) & 1:
            _lay_run(seat, s, 1, hand, ps, gs, melds, log, out_runs)
    first_extra = 14  # rank of the first group beyond the contract's g
    left = g
    for k in range(1, 14):
        if out_groups[k] >= 0:
            if left == 0:
                first_extra = k
                break
            _lay_group(seat, k, out_groups[k], 1, hand, ps, gs, melds, log, reserved)
            left -= 1
    for s in range(4):
        if out_runs[s, 0] > 0 and not (cmask >> s) & 1:
            _lay_run(seat, s, 0, hand, ps, gs, melds, log, out_runs)
    for c in range(N_CODES):
        reserved[c] = 0
    for k in range(first_extra, 14):
        if out_groups[k] >= 0:
            _lay_group(seat, k, out_groups[k], 0, hand, ps, gs, melds, log, reserved)


@njit(cache=True, _nrt=False)
def _lay_offs(rules, pol, t, seat):
    """R10/R11: lay off cards on any melds; greedy lays every legal one, random each with p=1/2."""
    hand, gs, melds, log, tmp = t.hand, t.gs, t.melds, t.log, t.tmp
    pstate = t.streams[2 + seat]
    rnd = pol[seat, P_RANDOM] > 0
    changed = True
    while changed:
        changed = False
        for m in range(gs[GS_N_MELDS]):
            # only the meld's rank (group) or suit (run) and the joker can go on it; in code
            # order, as a scan of every code would meet them
            is_group = melds[m, L.KIND] == L.GROUP
            key = melds[m, L.KEY]
            for i in range(5 if is_group else 14):
                if is_group:
                    c = i * 13 + key - 1 if i < 4 else JOKER
                else:
                    c = key * 13 + i if i < 13 else JOKER
                if hand[seat, c] == 0:
                    continue
                res = L.lay_off_kernel(melds[m], c, seat, rules[R_FREE_EXT] == 1,
                                       rules[R_JOKERS_OTHERS] == 1, tmp)
                if res == L.ILLEGAL:
                    continue
                if rnd and R.below(pstate, 2) == 0:
                    continue
                pos = 0
                if not is_group:
                    if res == L.JOKER_MOVED:
                        gone = melds[m, L.JMASK] & ~tmp[L.JMASK]
                        # the cleared joker bit is the card's position
                        pos = 0
                        while (gone >> pos) & 1 == 0:
                            pos += 1
                    elif tmp[L.LO] < melds[m, L.LO]:
                        pos = tmp[L.LO]
                    else:
                        pos = tmp[L.HI]
                _log(log, gs, EV_LAYOFF, seat, c, m, pos, 0)
                if res == L.JOKER_MOVED:
                    to = tmp[L.LO] if tmp[L.LO] < melds[m, L.LO] else tmp[L.HI]
                    _log(log, gs, EV_JOKER_MOVE, seat, JOKER, m, pos, to)
                for j in range(tmp.shape[0]):
                    melds[m, j] = tmp[j]
                hand[seat, c] -= 1
                hand[_seen_row(hand), c] += 1
                _leaves_hand(hand, seat, c)
                changed = True
                if _hand_size(hand[seat]) == 0:
                    return


@njit(cache=True, _nrt=False)
def _meld_phase(rules, pol, t, cur):
    """R7: open with the contract (plus extra own melds), or, once opened, lay further own melds
    of ranks and suits not yet owned (R5). Returns True if ``cur`` opened this turn."""
    hand, ps, gs, melds, log = t.hand, t.ps, t.gs, t.melds, t.log
    pst, cnt, ws = t.streams[2 + cur], t.count.cnt, t.solve
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    v6 = rules[R_V6] == 1
    if ps[cur, PS_OPENED] == 1:
        if (_hand_size(hand[cur]) > 0 and (pol[cur, P_RANDOM] <= 0 or R.below(pst, 2) == 1)
                and _may_meld(hand[cur], ps[cur, PS_BAN_R], ps[cur, PS_BAN_S])):
            v, _ = _solve_seat(hand[cur], 0, 0, v6, ps[cur, PS_BAN_R], ps[cur, PS_BAN_S], cnt, ws)
            if v > 0:
                _add_meld_from_solver(cur, hand, ps, gs, melds, log, ws.runs, ws.groups, 0, 0, v6)
        return False
    # need() is 0 whenever the hand can open, so the solver runs only then
    if not (v6 or need(hand[cur], g, r) == 0):
        return False
    v, nc = _solve_seat(hand[cur], g, r, v6, 0, 0, cnt, ws)
    if v < 0:
        return False
    go = True
    if pol[cur, P_RANDOM] > 0:
        go = R.below(pst, 2) == 1
    elif (pol[cur, P_HOLD] > 0 and ps[cur, PS_TURNS] <= pol[cur, P_HOLD_TURNS]
          and _danger(cur, hand, ps, rules[R_PLAYERS]) > pol[cur, P_HOLD_DANGER]):
        # hold for the double (R12): open only if at most one card would remain
        go = _hand_size(hand[cur]) - nc <= 1
    if not go:
        return False
    _log(log, gs, EV_OPEN, cur, -1, 0, 0, 0)
    _add_meld_from_solver(cur, hand, ps, gs, melds, log, ws.runs, ws.groups, g, r, v6)
    ps[cur, PS_OPENED] = 1
    ps[cur, PS_OPEN_TURN] = ps[cur, PS_TURNS]
    if gs[GS_FIRST_DOWN] < 0:
        gs[GS_FIRST_DOWN] = cur
    return True
