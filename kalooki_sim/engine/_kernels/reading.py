"""What a seat reads from its hand and the table: cards still needed (quick bound and exact
count with its memo), dead and known cards, danger from opened opponents, live partners.
The policies' decisions in the phase modules are built from these.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...game.kernels import card_value, solve_kernel
from ...game.kernels import layoff as L
from . import needed as NK
from . import plus as NP
from .table import (
    GS_DISC_N,
    GS_N_MELDS,
    GS_RESHUFFLED,
    JOKER,
    N_CODES,
    NO_WAY_RANK,
    P_CALL_LIMIT,
    P_EXACT,
    PS_BAN_R,
    PS_NC_HVAL,
    PS_OPENED,
    PS_TOOK,
    R_CALL_LIMIT,
    R_DECKS,
    R_GROUPS,
    R_JOKERS,
    R_RUNS,
    R_V6,
)


@njit(cache=True, _nrt=False, inline="always")
def _fill_counts(hrow, cnt):
    """Count view (4x14) of one seat's hand; returns its jokers."""
    for s in range(4):
        cnt[s, 0] = 0
        for k in range(1, 14):
            cnt[s, k] = hrow[s * 13 + k - 1]
    return hrow[JOKER]


#: set bits of each 4-bit window of positions
_POP4 = np.array([bin(i).count("1") for i in range(16)], np.int64)


@njit(cache=True, _nrt=False, inline="always")
def _suit_held(hrow, s):
    """Bit mask of the run positions (1-14, the ace at both ends) of suit ``s`` held."""
    m = 0
    for k in range(1, 14):
        if hrow[s * 13 + k - 1] > 0:
            m |= 1 << k
    if m & 2:
        m |= 1 << 14
    return m


@njit(cache=True, _nrt=False, inline="always")
def _best_of_held(m):
    """Fewest positions missing from any 4 consecutive run positions (R4) of held mask ``m``."""
    best = 4
    for lo in range(1, 12):
        v = 4 - _POP4[(m >> lo) & 15]
        if v < best:
            best = v
    return best


@njit(cache=True, _nrt=False, inline="always")
def _position_bit(k):
    """The run position bits of rank ``k`` (the ace stands at 1 and at 14, R4)."""
    return (1 << k) | ((1 << 14) if k == 1 else 0)


@njit(cache=True, _nrt=False)
def _suit_windows(hrow):
    """Each suit's held-position mask and best window: ``(m0, m1, m2, m3, w0, w1, w2, w3)``,
    shared by the quick bound's one-card moves (:func:`need_with`, the greedy discard)."""
    m0 = _suit_held(hrow, 0)
    m1 = _suit_held(hrow, 1)
    m2 = _suit_held(hrow, 2)
    m3 = _suit_held(hrow, 3)
    return (m0, m1, m2, m3, _best_of_held(m0), _best_of_held(m1), _best_of_held(m2),
            _best_of_held(m3))


@njit(cache=True, _nrt=False)
def _best_window(hrow, s):
    """Fewest cards of suit ``s`` missing from any 4 consecutive run positions (R4)."""
    return _best_of_held(_suit_held(hrow, s))


@njit(cache=True, _nrt=False, inline="always")
def _group_cost(h0, h1, h2, h3, g):
    """Cheapest ``g`` groups when ``h_c`` ranks need ``c`` more cards (c = 0..3)."""
    left = g
    t = min(left, h0)
    left -= t
    t = min(left, h1)
    total = t
    left -= t
    t = min(left, h2)
    total += 2 * t
    left -= t
    return total + 3 * min(left, h3)


@njit(cache=True, _nrt=False, inline="always")
def _run_cost(a0, a1, a2, a3, r):
    """Sum of the ``r`` smallest of four per-suit run costs (a sorting network)."""
    if a0 > a1:
        a0, a1 = a1, a0
    if a2 > a3:
        a2, a3 = a3, a2
    if a0 > a2:
        a0, a2 = a2, a0
    if a1 > a3:
        a1, a3 = a3, a1
    if a1 > a2:
        a1, a2 = a2, a1
    total = 0
    if r >= 1:
        total += a0
    if r >= 2:
        total += a1
    if r >= 3:
        total += a2
    if r >= 4:
        total += a3
    return total


@njit(cache=True, _nrt=False, inline="always")
def _rank_count(hrow, k):
    return hrow[k - 1] + hrow[13 + k - 1] + hrow[26 + k - 1] + hrow[39 + k - 1]


@njit(cache=True, _nrt=False)
def _cost_hist(hrow):
    """Ranks needing 0, 1, 2, 3 more cards for a group (R3)."""
    h0 = 0
    h1 = 0
    h2 = 0
    h3 = 0
    for k in range(1, 14):
        c = _rank_count(hrow, k)
        if c >= 3:
            h0 += 1
        elif c == 2:
            h1 += 1
        elif c == 1:
            h2 += 1
        else:
            h3 += 1
    return h0, h1, h2, h3


@njit(cache=True, _nrt=False)
def _solve_seat(hrow, g, r, v6, ban_r, ban_s, cnt, ws):
    """The solver on one seat's hand: ``(value, cards)``; melds land in ``ws.runs`` /
    ``ws.groups`` (``ws``: the table's :data:`.table.Solve`)."""
    j = _fill_counts(hrow, cnt)
    return solve_kernel(cnt, j, g, r, v6, ws.opts, ws.scratch, ws.runs, ws.groups, ban_r, ban_s)


@njit(cache=True, _nrt=False)
def need(hrow, g, r):
    """Cards still needed for the contract: a lower bound, 0 whenever the hand can open.

    Each group of rank k needs ``max(0, 3 - naturals)``; each run the fewest missing cards in any
    4-window of its suit; the cheapest ``g`` ranks and ``r`` suits are summed and jokers subtract.
    A hand that can lay the contract always scores 0 (its melds' ranks and suits cost at most the
    jokers they use), but cards shared by a group and a run are not detected, so 0 does not
    promise an opening: the solver decides that. (V6's complete suit is not seen: callers skip
    the bound under V6.)
    """
    h0, h1, h2, h3 = _cost_hist(hrow)
    total = _group_cost(h0, h1, h2, h3, g)
    total += _run_cost(_best_window(hrow, 0), _best_window(hrow, 1), _best_window(hrow, 2),
                       _best_window(hrow, 3), r)
    total -= hrow[JOKER]
    return total if total > 0 else 0


@njit(cache=True, _nrt=False, inline="always")
def _buckets_moved(h0, h1, h2, h3, n, step):
    """The ranks' group-cost buckets (:func:`_cost_hist`: ranks holding 3 or more, 2, 1 and 0
    naturals) after a rank holding ``n`` naturals gains (``step`` 1) or loses (-1) one."""
    if step > 0:
        if n == 0:
            return h0, h1, h2 + 1, h3 - 1
        if n == 1:
            return h0, h1 + 1, h2 - 1, h3
        if n == 2:
            return h0 + 1, h1 - 1, h2, h3
    elif n == 3:
        return h0 - 1, h1 + 1, h2, h3
    elif n == 2:
        return h0, h1 - 1, h2 + 1, h3
    elif n == 1:
        return h0, h1, h2 - 1, h3 + 1
    return h0, h1, h2, h3


@njit(cache=True, _nrt=False)
def need_with(hrow, g, r, c):
    """``(need(hrow), need(hrow with one more c))`` in one pass: the card moves one rank's
    group bucket and one suit's best window, the rest is shared (a greedy seat asks both at
    every offer)."""
    h0, h1, h2, h3 = _cost_hist(hrow)
    m0, m1, m2, m3, w0, w1, w2, w3 = _suit_windows(hrow)
    j = hrow[JOKER]
    base = _group_cost(h0, h1, h2, h3, g) + _run_cost(w0, w1, w2, w3, r) - j
    before = base if base > 0 else 0
    if c == JOKER:
        return before, (base - 1 if base > 1 else 0)
    s = c // 13
    k = c % 13 + 1
    h0, h1, h2, h3 = _buckets_moved(h0, h1, h2, h3, _rank_count(hrow, k), 1)
    bit = _position_bit(k)
    if s == 0:
        w0 = _best_of_held(m0 | bit)
    elif s == 1:
        w1 = _best_of_held(m1 | bit)
    elif s == 2:
        w2 = _best_of_held(m2 | bit)
    else:
        w3 = _best_of_held(m3 | bit)
    after = _group_cost(h0, h1, h2, h3, g) + _run_cost(w0, w1, w2, w3, r) - j
    return before, (after if after > 0 else 0)


@njit(cache=True, _nrt=False)
def _may_meld(hrow, ban_r, ban_s):
    """Could the hand lay any own meld of a rank or suit it does not own yet (R3-R5)? A group
    needs two naturals of its rank and three cards with the jokers; a run, a window of four
    positions held or jokered, at most two jokers in it (never adjacent). False: the solver
    would find nothing to lay."""
    j = hrow[JOKER]
    for k in range(1, 14):
        if not (ban_r >> k) & 1:
            n = _rank_count(hrow, k)
            if n >= 2 and n + j >= 3:
                return True
    jj = j if j < 2 else 2
    for s in range(4):
        if not (ban_s >> s) & 1 and _best_window(hrow, s) <= jj:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _seen_row(hand):
    """Index of the row of ``hand`` that counts the dead cards (table; pile after R13's
    reshuffle); it is also the number of seats."""
    return (hand.shape[0] - 4) // 2


@njit(cache=True, _nrt=False, inline="always")
def _known_row(hand, seat):
    """Index of the row of ``hand`` counting the cards of ``seat`` the table knows of."""
    return _seen_row(hand) + 4 + seat


@njit(cache=True, _nrt=False)
def _leaves_hand(hand, seat, c):
    """Card ``c`` left ``seat``'s hand (meld, lay-off, discard): copies are alike, so the table
    knows one copy fewer of it there."""
    k = _known_row(hand, seat)
    if hand[k, c] > 0:
        hand[k, c] -= 1


@njit(cache=True, _nrt=False, inline="always")
def _hand_size(hrow):
    n = 0
    for c in range(N_CODES):
        n += hrow[c]
    return n


@njit(cache=True, _nrt=False)
def _distance_to_play(seat, c, hrow, ps, gs, melds):
    """Cards that must come before natural ``c`` can be laid (0-13, 13 = nowhere in sight).

    A rank with a group on the table: 0. A run of its suit: the positions between its next
    growth point and the card (R10 order). A pair in hand of a rank the seat has no group of
    yet: 1 (a new own meld, R5).
    """
    s = c // 13
    k = c % 13 + 1
    best = 13
    if _rank_count(hrow, k) >= 2 and not (ps[seat, PS_BAN_R] >> k) & 1:
        best = 1
    for m in range(gs[GS_N_MELDS]):
        if melds[m, L.KIND] == L.GROUP:
            if melds[m, L.KEY] == k:
                return 0
            continue
        if melds[m, L.KEY] != s:
            continue
        lo = melds[m, L.LO]
        hi = melds[m, L.HI]
        if hi - lo + 1 >= 13:
            continue
        for p in (k, 14):
            if p == 14 and k != 1:
                break
            if hi < 14 and p > hi:
                d = p - hi - 1
            elif hi < 14 and p < lo:
                d = (14 - hi) + (lo - 1 - p)
            elif hi == 14 and p < lo:
                d = lo - 1 - p
            else:
                continue
            if d < best:
                best = d
    return best


@njit(cache=True, _nrt=False)
def _from_pile(seat, card, hand, ps, gs):
    """The top discard goes to ``seat``'s hand (a take or call, R9): a natural's rank marks the
    seat, and it leaves the dead cards, where it was counted once the reshuffle was spent."""
    gs[GS_DISC_N] -= 1
    hand[seat, card] += 1
    hand[_known_row(hand, seat), card] += 1
    if gs[GS_RESHUFFLED] == 1:
        hand[_seen_row(hand), card] -= 1
        # a dead card lives again, for the others: their last counts are no floor now
        for p in range(ps.shape[0]):
            ps[p, PS_NC_HVAL] = -1
    if card != JOKER:  # a joker (the upcard, C1) has no rank: it must not mark the aces
        ps[seat, PS_TOOK] |= 1 << (card % 13 + 1)


@njit(cache=True, _nrt=False)
def _danger(seat, hand, ps, P):
    """Fewest cards held by an opponent who has opened (99 if none): how near an out is."""
    best = 99
    for p in range(P):
        if p != seat and ps[p, PS_OPENED] == 1:
            n = _hand_size(hand[p])
            if n < best:
                best = n
    return best


@njit(cache=True, _nrt=False, inline="always")
def _avail(seat, hand, rules, out):
    """Copies of each code ``seat`` may still get: the pack less its hand and the dead cards."""
    for c in range(N_CODES):
        a = _copies_left(seat, hand, rules, c)
        out[c] = a if a > 0 else 0


@njit(cache=True, _nrt=False, inline="always")
def _copies_left(seat, hand, rules, c):
    """The pack's copies of code ``c`` less ``seat``'s and the dead ones: below 0 when the seat
    holds one taken back from the dead pile after R13's reshuffle."""
    return ((rules[R_JOKERS] if c == JOKER else rules[R_DECKS]) - hand[seat, c]
            - hand[_seen_row(hand), c])


@njit(cache=True, _nrt=False, inline="always")
def _needed(seat, hand, rules, pol, pw):
    """Cards still needed for the contract: exact with ``P_EXACT`` (:mod:`.needed`; dead cards
    cannot come), else the quick lower bound :func:`need`. ``pw`` = (cnt, opts, scratch)."""
    return _needed_upto(seat, hand, rules, pol, pw, NK.NO_WAY, 0)


@njit(cache=True, _nrt=False, inline="always")
def _needed_upto(seat, hand, rules, pol, pw, cap, floor):
    """:func:`_needed` when it is at most ``cap``; else some number above ``cap``. A decision
    that only compares the count with a threshold asks no more than that, and says what it
    knows the exact count is at least, ``floor`` (see :func:`.needed.needed_upto`): a keep
    check, the count of the hand with the card (a lost card never cuts it).

    In mixed contracts the seat's last plan (the runs of its last search's leaf) is tried
    first: its cost is at least the count, so at the floor it is the count, with no search,
    and otherwise only a count below it is searched for."""
    if pol[seat, P_EXACT] > 0:
        n = _exact_upto(seat, hand, rules, pw, -1, min(cap, NK.NO_WAY),
                        floor if floor < NO_WAY_RANK else 0)
        if n < NK.NO_WAY:
            return n
        # no card that can still come lays it: rank such hands after every possible one, by
        # the bound, so the player keeps trying rather than freezing
        return NO_WAY_RANK + need(hand[seat], rules[R_GROUPS], rules[R_RUNS])
    return need(hand[seat], rules[R_GROUPS], rules[R_RUNS])


@njit(cache=True, _nrt=False, inline="always")
def _load_counts(seat, hand, rules, pw):
    """The kernel's view of ``seat``'s hand: the copies it may still get (a scratch row of
    ``hand``) and its counts in ``pw.cnt``; returns ``(avail, jokers)``."""
    av = hand[_seen_row(hand) + 1]
    _avail(seat, hand, rules, av)
    return av, _fill_counts(hand[seat], pw.cnt)


@njit(cache=True, _nrt=False, inline="always")
def _one_kind(rules):
    """The contract is all groups or all runs (not V6's complete suit): its count is the
    search's root bound, cheap to move by one card (:func:`.plus.root_moved`)."""
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    return r == 0 or (g == 0 and not (rules[R_V6] == 1 and r == 3))


@njit(cache=True, _nrt=False, inline="always")
def _exact_upto(seat, hand, rules, pw, card, cap, floor):
    """The exact count of ``seat``'s hand when at most ``cap`` (it is known to be at least
    ``floor``), else some number above ``cap``; ``card``: a natural just taken or drawn, whose
    cut :func:`.plus.needed_cut` asks in mixed contracts, or -1.

    In mixed contracts the seat's last plan (the runs of its last search's leaf) is tried
    first: its cost is at least the count, so at the floor it is the count, with no search,
    and otherwise only a count below it is searched for. A search's leaf becomes the plan."""
    av, j = _load_counts(seat, hand, rules, pw)
    return _exact_of(seat, rules, pw, av, j, card, -1, cap, floor)


@njit(cache=True, _nrt=False)
def _exact_of(seat, rules, pw, av, j, card, off, cap, floor):
    """:func:`_exact_upto` of the hand loaded in ``pw.cnt`` (``av``, ``j`` as
    :func:`_load_counts` gives them); ``off``: in mixed contracts (not V6's complete suit), a
    natural just taken out of a hand whose tables :func:`.plus.prepare_plus` kept (a keep
    check, :func:`.plus.needed_moved`), or -1."""
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    v6 = rules[R_V6] == 1
    pc = NK.NO_WAY
    if _plan_ok(seat, rules):
        pc = NP.plan_cost(pw.cnt, j, g, r, av, pw.scratch, NK.W_PLANS + 20 * seat, cap)
        if pc <= floor:
            return pc
    cap2 = min(cap, pc - 1 if pc < NK.NO_WAY else NK.NO_WAY)
    pw.scratch[NK.W_LEAF + 16] = 0
    if off >= 0:
        n = NP.needed_moved(pw.cnt, j, g, r, av, pw.opts, pw.scratch, off, -1, cap2, floor)
    elif 0 <= card < JOKER and _mixed(rules):
        n = NP.needed_cut(pw.cnt, j, g, r, av, pw.opts, pw.scratch, card, cap2, floor)
    else:
        n = NK.needed_upto(pw.cnt, j, g, r, v6, av, pw.opts, pw.scratch, cap2, floor)
    if n <= cap2:
        NP.keep_plan(pw.scratch, seat)
    elif pc < NK.NO_WAY and pc <= cap:
        n = pc  # above pc - 1 and at most pc
    return n


@njit(cache=True, _nrt=False, inline="always")
def _mixed(rules):
    """A mixed contract, not V6's complete suit: counts are searched, a seat keeps a plan,
    a cut is refuted by :func:`.plus.needed_cut` and each keep check's count is the hand's
    tables moved by one card (:func:`_keep_upto`)."""
    return not _one_kind(rules) and not (rules[R_V6] == 1 and rules[R_RUNS] == 3)


@njit(cache=True, _nrt=False, inline="always")
def _keep_count(seat, hand, rules, pol, pw, av, j, c, now, mixed):
    """The keep check of candidate ``c``: :func:`_needed_upto` of ``seat``'s hand less ``c``
    with cap and floor ``now``; in a mixed contract (``mixed``) from the tables
    :func:`_prepare_keeps` kept (``av``, ``j``). The hand is left as it was."""
    if mixed:
        return _keep_upto(seat, hand, rules, pw, av, j, c, now)
    hand[seat, c] -= 1
    n = _needed_upto(seat, hand, rules, pol, pw, now, now)
    hand[seat, c] += 1
    return n


@njit(cache=True, _nrt=False)
def _prepare_keeps(seat, hand, rules, pw, av):
    """Ready ``seat``'s keep checks (:func:`_keep_count`): ``(mixed, avail, jokers)``. In a
    mixed contract (:func:`_mixed`) the hand is loaded and its tables kept
    (:func:`.plus.prepare_plus`) for :func:`_keep_upto`; elsewhere each check counts the
    hand less its candidate, and ``av`` is passed through unread."""
    if not _mixed(rules):
        return False, av, 0
    av, j = _load_counts(seat, hand, rules, pw)
    NP.prepare_plus(pw.cnt, j, rules[R_GROUPS], rules[R_RUNS], rules[R_V6] == 1, av, pw.scratch)
    return True, av, j


@njit(cache=True, _nrt=False, inline="always")
def _keep_upto(seat, hand, rules, pw, av, j, c, now):
    """Does ``seat``'s hand less the natural ``c`` keep the count at ``now``? Its exact count
    when at most ``now``, else some number above (:func:`_needed_upto` with cap and floor
    ``now``), after :func:`_prepare_keeps` of the hand; the hand, its counts and ``av`` are
    left as they were."""
    was = _let_go(seat, hand, rules, pw, av, c)
    n = _exact_of(seat, rules, pw, av, j, -1, c, now, now)
    _take_back(seat, hand, pw, av, c, was)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _let_go(seat, hand, rules, pw, av, c):
    """Take the natural ``c`` out of ``seat``'s loaded hand: its row of ``hand``, its counts
    (``pw.cnt``) and ``av`` (the copy let go may come back, unless dead). Returns ``av[c]``
    as it was, for :func:`_take_back`."""
    hand[seat, c] -= 1
    pw.cnt[c // 13, c % 13 + 1] -= 1
    was = av[c]
    left = _copies_left(seat, hand, rules, c)
    av[c] = left if left > 0 else 0
    return was


@njit(cache=True, _nrt=False, inline="always")
def _take_back(seat, hand, pw, av, c, was):
    """Undo :func:`_let_go` (``was``: what it returned)."""
    av[c] = was
    pw.cnt[c // 13, c % 13 + 1] += 1
    hand[seat, c] += 1


@njit(cache=True, _nrt=False, inline="always")
def _plan_keeps(seat, hand, rules, pw, av, j, c, now):
    """Does ``seat``'s plan (:func:`.plus.keep_plan`) keep the count of its hand less the
    natural ``c`` at ``now``? Its cost for that hand (:func:`.plus.plan_cost`) is at least the
    count, so at ``now`` it proves the keep without a search; above, it says nothing. After
    :func:`_prepare_keeps`; the hand, its counts and ``av`` are left as they were."""
    was = _let_go(seat, hand, rules, pw, av, c)
    pc = NP.plan_cost(pw.cnt, j, rules[R_GROUPS], rules[R_RUNS], av, pw.scratch,
                      NK.W_PLANS + 20 * seat, now)
    _take_back(seat, hand, pw, av, c, was)
    return pc <= now


@njit(cache=True, _nrt=False, inline="always")
def _plan_ok(seat, rules):
    """Is a plan kept for ``seat`` (:func:`.plus.keep_plan`)? In mixed contracts, not V6's
    complete suit, seats 0-7: elsewhere counts are not searched."""
    return _mixed(rules) and seat < 8


@njit(cache=True, _nrt=False)
def _keepers(seat, hand, rules, pol, pw, cand, m, now):
    """Mark (``+ 1 << 40``) the candidates of ``cand[:m]`` whose loss keeps ``seat``'s count
    at ``now``; returns how many. Except under V6's complete suit the hand is left loaded,
    its tables kept in all-group and all-run contracts (:func:`_keepers_load`)."""
    hrow = hand[seat]
    keeps = 0
    if _one_kind(rules):
        av, j = _load_counts(seat, hand, rules, pw)
        cnt = pw.cnt
        g = rules[R_GROUPS]
        r = rules[R_RUNS]
        v6 = rules[R_V6] == 1
        NP.prepare_plus(cnt, j, g, r, v6, av, pw.scratch)
        for i in range(m):
            if NP.root_moved(cnt, j, g, r, v6, av, pw.scratch, cand[i] % 64, -1) <= now:
                keeps += 1
                cand[i] += 1 << 40
        return keeps
    mixed, av, j = _prepare_keeps(seat, hand, rules, pw, hrow)
    for i in range(m):
        nd = _keep_count(seat, hand, rules, pol, pw, av, j, cand[i] % 64, now, mixed)
        if nd <= now:
            keeps += 1
            cand[i] += 1 << 40
    return keeps


@njit(cache=True, _nrt=False, inline="always")
def _keepers_load(rules):
    """Does :func:`_keepers` leave the hand loaded for :func:`_outs_scan` (``loaded``)? In
    all-group, all-run and mixed contracts; under V6's complete suit each candidate is loaded
    in turn."""
    return _one_kind(rules) or _mixed(rules)


@njit(cache=True, _nrt=False)
def _outs_scan(seat, hand, rules, pw, live, nd, cands, pen, w, beat, loaded=False, off=-1):
    """The codes of bit mask ``cands`` with live copies (``live``) that cut ``seat``'s exact
    count below ``nd``, and their live copies: ``(mask, copies)``. Stops early, with too few
    copies, once ``pen + w`` x copies cannot reach ``beat``.

    The same answer as asking :func:`_needed_upto` of the hand plus each code, cheaper: the
    count of the hand plus one card is, in all-group and all-run contracts, the search's root
    bound, rebuilt from the hand's (one rank and one suit change). Elsewhere most cards pass
    that bound, and each is searched.

    ``loaded``: the hand is loaded (:func:`_load_counts`) and, in all-group and all-run
    contracts, its tables kept (:func:`.plus.prepare_plus`) as :func:`_keepers` leaves them,
    so neither is done again. ``off``: the hand is the loaded one less its natural ``off``
    (taken out of ``hand`` already), whose tables :func:`.plus.keep_whole` kept: the load
    and the tables are moved by the card (:func:`.plus.prepare_moved`) and the load put
    back after."""
    if loaded or off >= 0:
        av = hand[_seen_row(hand) + 1]
        j = hand[seat, JOKER]
    else:
        av, j = _load_counts(seat, hand, rules, pw)
    cnt = pw.cnt
    g = rules[R_GROUPS]
    r = rules[R_RUNS]
    v6 = rules[R_V6] == 1
    exact = _one_kind(rules)
    was = 0
    if off >= 0:
        cnt[off // 13, off % 13 + 1] -= 1
        was = av[off]
        left = _copies_left(seat, hand, rules, off)
        av[off] = left if left > 0 else 0
        if exact:
            NP.prepare_moved(cnt, j, g, r, v6, av, pw.scratch, off, -1)
    elif exact and not loaded:
        NP.prepare_plus(cnt, j, g, r, v6, av, pw.scratch)
    left = 0
    for x in range(JOKER + 1):
        if (cands >> x) & 1 and live[x] > 0:
            left += live[x]
    mask = 0
    total = 0
    for x in range(JOKER + 1):
        if not (cands >> x) & 1 or live[x] <= 0:
            continue
        if pen + w * (total + left) < beat:
            break
        left -= live[x]
        if exact:
            n2 = NP.root_moved(cnt, j, g, r, v6, av, pw.scratch, x, 1)
        else:
            n2 = NP.needed_plus(cnt, j, g, r, v6, av, pw.opts, pw.scratch, x, nd - 1,
                                max(0, nd - 1))
        if n2 > nd - 1:
            continue
        mask |= 1 << x
        total += live[x]
    if off >= 0:
        av[off] = was
        cnt[off // 13, off % 13 + 1] += 1
    return mask, total


@njit(cache=True, _nrt=False, inline="always")
def _live_partners(c, av):
    """Live copies of the cards that would meld with natural ``c``: its rank in every suit and
    its suit's two neighbours on each side (R3, R4), plus the jokers. ``av`` counts the copies
    that can still come (dead cards, in the pile or on the table, cannot)."""
    s = c // 13
    k = c % 13 + 1
    n = av[JOKER]
    for t in range(4):
        n += av[t * 13 + k - 1]
    for d in (-2, -1, 1, 2):
        p = k + d
        if p == 0 or p == 14:
            p = 1  # the ace stands below 2 and above K
        if 1 <= p <= 13:
            n += av[s * 13 + p - 1]
    return n


@njit(cache=True, _nrt=False)
def _opened_others(seat, ps, P):
    """Opponents who have opened (R7): each can go out and catch what a call adds."""
    n = 0
    for p in range(P):
        if p != seat and ps[p, PS_OPENED] == 1:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _hand_penalty(hrow):
    """R1 penalty of the cards in a hand (what is caught if someone goes out now, R12)."""
    pen = 50 * hrow[JOKER]
    for c in range(JOKER):
        pen += hrow[c] * card_value(c // 13, c % 13 + 1)
    return pen


@njit(cache=True, _nrt=False)
def _call_limit(seat, rules, pol):
    """Calls ``seat`` may make this hand: the rules' limit (R9, V8), or the policy's if smaller."""
    lim = rules[R_CALL_LIMIT]
    own = pol[seat, P_CALL_LIMIT]
    if own >= 0 and own < lim:
        return np.int64(own)
    return lim
