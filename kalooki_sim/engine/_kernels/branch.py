"""Branching a hand at a take-or-call decision (R9): paired continuations.

A hand's whole state lives in the arrays of an engine table (:func:`.engine.new_table`), so a
decision is branched by copying the table at the start of the turn that offers the discard and
playing the turn again with the deciding seat's answer forced (``GS_FORCE_*``): everything
before the forced answer repeats exactly (the policies are still asked, so their streams move
the same way), and from the next turn on the policy streams restart per turn (C3), so both
continuations share the stock order and every later random draw.

Decision rows (``int64``, columns ``D_*``) and their outcomes (``float64``, columns ``F_*``,
means over replicas) are written by :func:`decision_block`; :func:`play_pair` plays the
advisor's sampled situations both ways.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange, uint64

from ...game.kernels import card_value
from . import engine as E
from . import needed as NK
from . import plus as NP
from . import rng as R

STREAM_REPLICA = 1 << 20  # + decision key: the reshuffle of what a seat has not seen
STREAM_ROLLOUT = 1 << 21  # the advisor's samples
STREAM_SAMPLE = 1 << 22  # + decision key: whether call_decisions branches this decision

TAKE, CALL = 0, 1
#: how decisions are branched: replicas per decision (each reshuffles what the seat has not
#: seen; 1: none), the stock dealt by seat (:func:`.engine.seat_stock`), the share sampled
Branching = namedtuple("Branching", ["replicas", "by_seat", "sample"])
#: a worker's tables for branching: the hand as played, its copy at the offer, a branch, and
#: the hand's score rows
Work = namedtuple("Work", ["main", "snap", "br", "hrows"])
(D_GAME, D_ATTEMPT, D_SEAT, D_TURN, D_KIND, D_CARD, D_STOCK, D_CALLS, D_OPENED, D_NEED_B,
 D_NEED_A, D_OUTS_B, D_OUTS_A, D_HAND_PEN, D_TAKEN) = range(15)
D_COLS = 15
(F_PEN_ACT, F_PEN_PASS, F_OUT_ACT, F_OUT_PASS, F_DBL_ACT, F_DBL_PASS, F_VOID_ACT,
 F_VOID_PASS, F_REL_ACT, F_REL_PASS, F_DOUBLER_ACT, F_DOUBLER_PASS) = range(12)
F_COLS = 12


@njit(cache=True, _nrt=False)
def _copy1(dst, src):
    """``dst[:] = src``, element by element (no runtime allocator in these kernels)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def _copy2(dst, src, n):
    """``dst[:n, :] = src[:n, :]``, element by element."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, _nrt=False)
def copy_state(src, dst, log_on):
    """Copy the hand state of table ``src`` into table ``dst`` (workspaces are not state, but
    for the seats' plans, :func:`.plus.copy_plans`); ``dst`` logs if ``log_on``, continuing
    ``src``'s log when that was on too."""
    NP.copy_plans(src.count.scratch, dst.count.scratch)
    _copy2(dst.hand, src.hand, src.hand.shape[0])
    _copy2(dst.ps, src.ps, src.ps.shape[0])
    _copy1(dst.gs, src.gs)
    _copy1(dst.stock, src.stock)
    _copy1(dst.disc, src.disc)
    _copy2(dst.melds, src.melds, src.gs[E.GS_N_MELDS])
    _copy2(dst.streams, src.streams, src.streams.shape[0])
    dst.gs[E.GS_LOG_ON] = 1 if log_on else 0
    if log_on:
        if src.gs[E.GS_LOG_ON] == 1:
            m = min(src.gs[E.GS_LOG_N], src.log.shape[0], dst.log.shape[0])
            _copy2(dst.log, src.log, m)
        else:
            dst.gs[E.GS_LOG_N] = 0


@njit(cache=True, _nrt=False)
def seat_outcome(rules, t, seat):
    """``(penalty, went out, caught doubled, void)`` of ``seat`` at the end of the hand on
    table ``t`` (R12; nothing scores in a void hand, R13)."""
    gs = t.gs
    if gs[E.GS_VOID] == 1:
        return 0, 0, 0, 1
    dbl = E.hand_doubled(rules, gs)
    out = 1 if gs[E.GS_OUT] == seat else 0
    pen = E._hand_penalty(t.hand[seat]) * (1 + dbl)
    return pen, out, dbl * (1 - out), 0


@njit(cache=True, _nrt=False)
def _counts_of(seat, t, rules, extra):
    """Count view of ``seat``'s hand (with ``extra`` added when >= 0) and availability."""
    hand = t.hand
    av = hand[E._seen_row(hand) + 1]
    E._avail(seat, hand, rules, av)
    cnt = t.count.cnt
    j = E._fill_counts(hand[seat], cnt)
    if extra >= 0:
        if extra == E.JOKER:
            j += 1
        else:
            cnt[extra // 13, extra % 13 + 1] += 1
        av[extra] -= 1
        if av[extra] < 0:
            av[extra] = 0
    return cnt, j, av


@njit(cache=True, _nrt=False)
def needed_and_outs(seat, t, rules, extra):
    """Exact cards needed for the contract by ``seat`` (with card ``extra`` added if >= 0) and
    its outs: copies still to come that cut that number (``NK.NO_WAY`` and 0 when no card that
    can still come lays it)."""
    cnt, j, av = _counts_of(seat, t, rules, extra)
    hand = t.hand
    res = hand[E._seen_row(hand) + 2]
    before = NP.outs_kernel(cnt, j, rules[E.R_GROUPS], rules[E.R_RUNS], rules[E.R_V6] == 1, av,
                            t.count.opts, t.count.scratch, res, True)
    n_outs = 0
    if before < NK.NO_WAY:
        for c in range(E.N_CODES):
            if res[c] >= 0 and res[c] < before:
                n_outs += av[c]
    return before, n_outs


@njit(cache=True, _nrt=False)
def reshuffle_unseen(seat, t, rst):
    """Deal again, at random, the cards ``seat`` has not seen: the stock and the opponents'
    cards the table does not know of; hand sizes, the stock size, the pile and the table stay.
    The opponents' plans, made from their cards, go."""
    NP.clear_plans(t.count.scratch, seat)
    hand = t.hand
    gs = t.gs
    stock = t.stock
    P = E._seen_row(hand)
    n = gs[E.GS_STOCK_N]
    hidden = hand[P + 3]
    for p in range(P):
        hidden[p] = 0
        if p == seat:
            continue
        k = E._known_row(hand, p)
        for c in range(E.N_CODES):
            h = hand[p, c] - hand[k, c]
            for _ in range(h):
                stock[n] = c
                n += 1
            hand[p, c] -= h
            hidden[p] += h
    R.shuffle(rst, stock, n)
    for p in range(P):
        for _ in range(hidden[p]):
            n -= 1
            hand[p, stock[n]] += 1


@njit(cache=True, _nrt=False)
def _branch(rules, pol, snap, br, seat, act, replica, key, by_seat, rst):
    """One continuation from the turn-start state ``snap`` into ``br``: ``seat``'s next take
    or call forced to ``act``; replicas >= 0 first reshuffle what the seat has not seen (the
    stream state in ``rst``, ``uint64[2]``); ``by_seat`` deals the rest of the stock by seat
    (:func:`.engine.seat_stock`). The outcomes are read from ``br`` afterwards
    (:func:`_outcomes`)."""
    copy_state(snap, br, False)
    if replica >= 0:
        rst[0] = key
        rst[1] = uint64(replica) << uint64(32)
        reshuffle_unseen(seat, br, rst)
    if by_seat:
        E.seat_stock(br.gs, br.gs[E.GS_CUR], rules[E.R_PLAYERS])
    br.gs[E.GS_FORCE_MASK] = 1 << seat
    br.gs[E.GS_FORCE_ACTS] = (1 << seat) if act else 0
    E.play_out(rules, pol, br)


#: the outcome of a seat at the end of a branch (:func:`_outcomes`), in the order of the
#: ``F_*`` pairs: penalty, out, doubled, void, points against the table, went out on the opening
(O_PEN, O_OUT, O_DBL, O_VOID, O_REL, O_DOUBLER) = range(6)
O_COLS = 6
#: the ``F_*`` column of each outcome when passing (acting is the column before)
_F_PASS = (F_PEN_PASS, F_OUT_PASS, F_DBL_PASS, F_VOID_PASS, F_REL_PASS, F_DOUBLER_PASS)


@njit(cache=True, _nrt=False)
def _outcomes(rules, t, first, last, out):
    """Seats ``first..last``'s outcomes at the end of the hand on ``t`` into ``out[p]``
    (``O_*``): :func:`seat_outcome`, the penalty against the table (:func:`_table_mean`,
    R12) and whether the seat went out on the opening itself, doubling every other seat."""
    mean = _table_mean(rules, t)
    dbl_hand = E.hand_doubled(rules, t.gs)
    for p in range(first, last + 1):
        pen, o, dbl, void = seat_outcome(rules, t, p)
        out[p, O_PEN] = pen
        out[p, O_OUT] = o
        out[p, O_DBL] = dbl
        out[p, O_VOID] = void
        out[p, O_REL] = pen - mean
        out[p, O_DOUBLER] = o * dbl_hand


@njit(cache=True, _nrt=False)
def _decision_outcomes(rules, pol, work, s, taken_s, branching, key, f, nat, nat_done, one,
                       rst):
    """Seat ``s``'s decision played both ways (means over replicas) into ``f`` (``F_*``).

    A seat forced to the answer its policy gave (``taken_s``) plays the offer's natural
    continuation, the same for every seat of the offer (the policies are asked the same
    questions with the same streams, C3): without replicas it is played once per offer and
    every seat's outcome kept in ``nat``. Returns whether ``nat`` now holds it."""
    snap, br = work.snap, work.br
    replicas, by_seat = branching.replicas, branching.by_seat
    for j in range(F_COLS):
        f[j] = 0.0
    for r in range(replicas):
        for act in (1, 0):
            natural = replicas == 1 and act == taken_s
            if natural and nat_done:
                row = nat[s]
            else:
                _branch(rules, pol, snap, br, s, act, r if replicas > 1 else -1, key, by_seat,
                        rst)
                if natural:
                    _outcomes(rules, br, 0, nat.shape[0] - 1, nat)
                    nat_done = True
                    row = nat[s]
                else:
                    _outcomes(rules, br, s, s, one)
                    row = one[s]
            for k in range(O_COLS):
                f[_F_PASS[k] - act] += row[k]
    for j in range(F_COLS):
        f[j] /= replicas
    return nat_done


@njit(cache=True, _nrt=False)
def _offer_decisions(rules, snap, taken_by, called_by, seats, kinds, taken):
    """The take-or-call decisions of a turn that offered a discard, in the order R9 asks them:
    the next player's take (if not opened, R8), then each seat eligible to call until one
    calls; in Tuluki (V9) only the next player's call of the discard. Writes seats/kinds/taken;
    returns how many."""
    P = rules[E.R_PLAYERS]
    ps = snap.ps
    gs = snap.gs
    cur = gs[E.GS_CUR]
    discarder = gs[E.GS_DISCARDER]
    n = 0
    if rules[E.R_TULUKI] == 1:
        # V9: the next player may only call the discard; the turned card's choices that
        # follow are not branched
        if ps[cur, E.PS_OPENED] == 0 and ps[cur, E.PS_CALLS] < rules[E.R_CALL_LIMIT]:
            seats[0] = cur
            kinds[0] = CALL
            taken[0] = 1 if called_by == cur else 0
            n = 1
        return n
    if ps[cur, E.PS_OPENED] == 0:
        seats[n] = cur
        kinds[n] = TAKE
        taken[n] = 1 if taken_by == cur else 0
        n += 1
        if taken_by == cur:
            return n
    for i in range(1, P - 1):
        cs = (cur + i) % P
        if cs == discarder:
            break
        if ps[cs, E.PS_OPENED] == 1 or ps[cs, E.PS_CALLS] >= rules[E.R_CALL_LIMIT]:
            continue
        seats[n] = cs
        kinds[n] = CALL
        taken[n] = 1 if called_by == cs else 0
        n += 1
        if called_by == cs:
            break
    return n


@njit(cache=True)
def _skip(seed, game, hand_no, attempt, turn, seat, sample):
    """Is this decision left out of a sampled run? A counter-based draw of its own, so the
    answer does not depend on threads, blocks or the other decisions."""
    st = np.empty(2, np.uint64)
    st[0] = R.stream_key(seed, game, hand_no, attempt, STREAM_SAMPLE + turn * 8 + seat)
    st[1] = 0
    return R.uniform(st) >= sample


@njit(cache=True)
def decision_hand(deal, game_i, rules, pol, branching, work, dec_i, dec_f, row, cap):
    """Play one hand attempt ``deal`` on table ``work.main``, branching every take-or-call
    decision (each with probability ``branching.sample``, drawn from its own stream, so a sample
    is a subset of the full run's rows); rows go to ``dec_i/dec_f[row:cap]`` (``D_GAME`` =
    ``game_i``). Returns the next free row (past ``cap`` if short of room)."""
    seed, game, hand_no, attempt = deal.seed, deal.game, deal.hand_no, deal.attempt
    main, snap = work.main, work.snap
    sample = branching.sample
    E.start_hand(rules, main, deal)
    P = rules[E.R_PLAYERS]
    seats = np.empty(P, np.int64)
    kinds = np.empty(P, np.int64)
    taken = np.empty(P, np.int64)
    nat = np.empty((P, O_COLS), np.float64)  # the offer's natural continuation
    one = np.empty((P, O_COLS), np.float64)
    rst = np.empty(2, np.uint64)  # a replica's reshuffle stream
    while True:
        gs = main.gs
        branch = gs[E.GS_LIVE] == 1 and gs[E.GS_TURNS] < E.MAX_TURNS
        if branch:
            copy_state(main, snap, False)
        done = E.one_turn(rules, pol, main)
        if branch:
            nd = _offer_decisions(rules, snap, gs[E.GS_TAKEN_BY], gs[E.GS_CALLED_BY], seats,
                                  kinds, taken)
            sg = snap.gs
            D = snap.disc[sg[E.GS_DISC_N] - 1]
            turn = sg[E.GS_TURNS] + 1
            nat_done = False  # the offer's natural continuation not played yet
            for d in range(nd):
                if sample < 1.0 and _skip(seed, game, hand_no, attempt, turn, seats[d], sample):
                    continue
                if row < cap:
                    s = seats[d]
                    di = dec_i[row]
                    di[D_GAME] = game_i
                    di[D_ATTEMPT] = attempt
                    di[D_SEAT] = s
                    di[D_TURN] = turn
                    di[D_KIND] = kinds[d]
                    di[D_CARD] = D
                    di[D_STOCK] = sg[E.GS_STOCK_N]
                    di[D_CALLS] = snap.ps[s, E.PS_CALLS]
                    di[D_OPENED] = E._opened_others(s, snap.ps, P)
                    di[D_NEED_B], di[D_OUTS_B] = needed_and_outs(s, snap, rules, -1)
                    di[D_NEED_A], di[D_OUTS_A] = needed_and_outs(s, snap, rules, D)
                    di[D_HAND_PEN] = E._hand_penalty(snap.hand[s])
                    di[D_TAKEN] = taken[d]
                    key = R.stream_key(seed, game, hand_no, attempt,
                                       STREAM_REPLICA + turn * 8 + s)
                    nat_done = _decision_outcomes(rules, pol, work, s, taken[d], branching,
                                                  key, dec_f[row], nat, nat_done, one, rst)
                row += 1
        if done:
            break
    E.score_hand(rules, main, deal, work.hrows, 0)
    return row


@njit(cache=True, parallel=True)
def decision_block(seed, games, hand_no, rules, pol, branching, run, dec_i, dec_f, caps, n_rows):
    """Every take-or-call decision of hand ``hand_no`` of each game in ``games`` (void attempts
    replayed by the same dealer, R13, as :func:`.engine.play_block` plays them), branched as
    ``branching`` says (a :data:`Branching`) over ``run.workers`` workers (a
    :data:`.table.Run`).

    Worker ``w`` plays a contiguous share of the games and writes its rows from
    ``caps[w]`` to ``caps[w + 1]``; ``n_rows[w]`` receives the rows it needed (more than its
    room means the caller must play again with more). Writes dec_i, dec_f, n_rows.
    """
    n = games.shape[0]
    P = rules[E.R_PLAYERS]
    per = (n + run.workers - 1) // run.workers
    # a namedtuple's arrays are read into locals before prange: Numba's parallel loops do not
    # write through to arrays reached inside a tuple argument
    replicas, by_seat, sample = branching
    for w in prange(run.workers):
        work = Work(E.new_table_jit(P, run.pack_size, 1), E.new_table_jit(P, run.pack_size, 1),
                    E.new_table_jit(P, run.pack_size, 1), np.zeros((P, E.O_COLS), np.int32))
        row = caps[w]
        for i in range(w * per, min(n, w * per + per)):
            dealer = E.first_dealer(seed, games[i], P)
            attempt = 0
            while True:
                row = decision_hand(E.Deal(seed, games[i], hand_no, attempt, dealer), i, rules,
                                    pol, Branching(replicas, by_seat, sample), work, dec_i, dec_f,
                                    row, caps[w + 1])
                attempt += 1
                if E.hand_done(work.main.gs[E.GS_VOID], work.main.gs[E.GS_STALLED], attempt,
                               run.max_replays):
                    break
        n_rows[w] = row - caps[w]


@njit(cache=True, _nrt=False)
def play_branch(deal, rules, pol, turn, seat, act, by_seat, t, out):
    """Hand attempt ``deal`` (a :data:`.table.Deal`) played as usual up to table turn
    ``turn``, where ``seat``'s take or call is forced to ``act``, then to its end; scored into
    ``out``. With ``t``'s log on this is the branch's move log (:mod:`kalooki_sim.decisions`)."""
    E.start_hand(rules, t, deal)
    done = False
    while not done and t.gs[E.GS_TURNS] < turn - 1:
        done = E.one_turn(rules, pol, t)
    if not done:
        if by_seat:
            E.seat_stock(t.gs, t.gs[E.GS_CUR], rules[E.R_PLAYERS])
        t.gs[E.GS_FORCE_MASK] = 1 << seat
        t.gs[E.GS_FORCE_ACTS] = (1 << seat) if act else 0
        E.play_out(rules, pol, t)
    E.score_hand(rules, t, deal, out, 0)
    return t.gs[E.GS_VOID]


# -- the advisor's rollouts ----------------------------------------------------------------------

ROLL_COLS = 5  # per branch of a rollout: penalty, out, doubled, void, relative (rollout_block)


@njit(cache=True, _nrt=False)
def _sample_situation(base, t, pool, n_pool, opp_sizes, pile_extra, rst):
    """Table ``t`` = ``base`` with the hidden cards dealt at random: ``opp_sizes[p]`` to each
    seat ``p``, ``pile_extra`` under the pile's top card, the rest to the stock."""
    copy_state(base, t, False)
    stock = t.stock
    for i in range(n_pool):
        stock[i] = pool[i]
    R.shuffle(rst, stock, n_pool)
    hand = t.hand
    gs = t.gs
    disc = t.disc
    n = n_pool
    for p in range(opp_sizes.shape[0]):
        for _ in range(opp_sizes[p]):
            n -= 1
            hand[p, stock[n]] += 1
    # the pile: the hidden buried cards under the seen ones and the live top card
    nd = gs[E.GS_DISC_N]
    for j in range(nd - 1, -1, -1):
        disc[pile_extra + j] = disc[j]
    for j in range(pile_extra):
        n -= 1
        disc[j] = stock[n]
        if gs[E.GS_RESHUFFLED] == 1:  # R13's reshuffle is spent: a buried card is dead
            hand[E._seen_row(hand), stock[n]] += 1
    gs[E.GS_DISC_N] = nd + pile_extra
    gs[E.GS_STOCK_N] = n


@njit(cache=True, _nrt=False)
def play_pair(rules, pol, samp, br, me, force_mask, res_row):
    """Play the sampled table ``samp`` on twice, ``me`` acting then passing on the live offer
    (the other seats in ``force_mask`` pass), the rest of the stock dealt by seat
    (:func:`.engine.seat_stock`) so each seat draws the same cards in both; ``samp``'s streams
    (C3) must be keyed by the caller. Writes ``res_row`` = (penalty, out, doubled, void,
    relative) acting, then passing (``relative``: the penalty minus the table's mean penalty,
    doubles counted, R12), and samp, br."""
    E.seat_stock(samp.gs, samp.gs[E.GS_CUR], rules[E.R_PLAYERS])
    for act in (1, 0):
        copy_state(samp, br, False)
        br.gs[E.GS_FORCE_MASK] = force_mask
        br.gs[E.GS_FORCE_ACTS] = (1 << me) if act else 0
        E.play_out(rules, pol, br)
        pen, out, dbl, void = seat_outcome(rules, br, me)
        o = 0 if act else ROLL_COLS
        res_row[o] = pen
        res_row[o + 1] = out
        res_row[o + 2] = dbl
        res_row[o + 3] = void
        res_row[o + 4] = pen - _table_mean(rules, br)


@njit(cache=True, _nrt=False)
def _table_mean(rules, t):
    """Mean penalty of every seat at the end of the hand on ``t`` (R12, doubles counted; 0 when
    void, R13): a game is decided by points against the table, not by own points alone."""
    P = rules[E.R_PLAYERS]
    total = 0.0
    for p in range(P):
        total += seat_outcome(rules, t, p)[0]
    return total / P


def card_penalty(code):
    """R1 penalty of one card code (Python helper for the row builders)."""
    return 50 if code == E.JOKER else int(card_value(code // 13, code % 13 + 1))
