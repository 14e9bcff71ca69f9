"""Search seats: a seat whose policy searches (``P_SEARCH`` rollouts) decides each
take and call (R9) by the advisor's paired rollouts, from what that seat knows.

Before a turn that offers the discard, :func:`search_offers` finds the search seats the offer
will reach: a dry run of the turn on a copy (the seats asked before a seat answer the same
whatever it answers; a seat is asked only if they all passed, which it then sees). For each
such seat it plays ``P_SEARCH`` rollout pairs from the seat's knowledge (:func:`knowledge`),
acting and passing on the same sample with the same later random draws
(:func:`.branch.play_pair`), every seat of the rollouts playing the seat's player model (row
``P + s`` of ``pol``). The seat acts when the mean of the paired difference of its
*relative* penalty (own penalty minus the table's mean penalty, doubles counted, R12: what
decides a game, R14; the advisor's default objective; with ``P_SEARCH_PENALTY`` its own
penalty) is decided below ``-P_SEARCH_MARGIN`` (:func:`seq_verdict`), passes when it is
decided above zero, and otherwise answers as its player model did in the dry run. With
``P_SEARCH_SCREEN`` only offers whose card cuts the seat's cards still needed are searched;
the others are passed, as the expert does. The answers are then forced on the real turn
(``GS_FORCE_*``), whose policy streams repeat the dry run's exactly (C3).

Streams (C3): rollout ``i`` of seat ``s``'s decision at table turn ``k`` samples and plays from
keys hashed from the hand's deal key (itself a hash of seed, game, hand and attempt) and
``(k, s, i)``: a decision is a function of the run's seed and of what the seat knows, the same
on any number of threads.

The table is read as the advisor reads it: each sample replays the unopened
opponents' past turns (:func:`.history.forward_prior`), so a seat deep into the hand is as
close to its contract as the model typically is by then. Decide only what the rollouts
decide: the rollouts are played in :data:`SEARCH_LOOKS` batches and stop as soon as
:func:`seq_verdict` decides (a t test at ``0.05 / SEARCH_LOOKS`` a look, Bonferroni); when
they do not decide, the seat gives the answer its player model gave in the dry run (the
expert's, for the ``search`` preset).

Search workspace ``sw`` (:func:`new_search_ws`): tables ``snap`` (the dry run), ``kb`` (the
seat's knowledge), ``samp``, ``br`` (a sample and its branch); ``pool[pack]``, ``opp[P]``,
``counts[N_CODES]`` (int64, the hidden cards); ``res[2 * ROLL_COLS]``; ``mpol[P, NPARAM]`` (the
rollouts' policies); ``rst[2]`` (uint64); ``seats``, ``kinds``, ``taken`` ``[P]`` (the offer's
decisions).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange, uint64

from . import branch as B
from . import engine as E
from . import history as H
from . import plus as NP
from . import rng as R
from .memo import _needed_memo, _needed_memo_upto
from .reading import _call_limit
from .table import PS_MEETS

STREAM_SEARCH = 1 << 23  # + 1 + row: a rollout's play streams; + 0: its sample
SEARCH_LOOKS = 3  # looks of a search seat's sequential rule
Z_LOOK = 2.393980  # the normal quantile 1 - 0.05 / (2 * SEARCH_LOOKS): two-sided 5% / 3
SEARCH_MIN = 8  # no decision from fewer rollouts (the t bound's approximation holds from 8)

#: a worker's search workspace (see the module docstring)
SearchWork = namedtuple("SearchWork", ["snap", "kb", "samp", "br", "pool", "opp", "counts",
                                       "res", "mpol", "rst", "seats", "kinds", "taken"])


@njit(cache=True)
def new_search_ws(P, pack_size):
    """A worker's search workspace (layout in the module docstring)."""
    return SearchWork(
            E.new_table_jit(P, pack_size, 1), E.new_table_jit(P, pack_size, 1),
            E.new_table_jit(P, pack_size, 1), E.new_table_jit(P, pack_size, 1),
            np.zeros(pack_size, np.int64), np.zeros(P, np.int64),
            np.zeros(E.N_CODES, np.int64), np.zeros(2 * B.ROLL_COLS),
            np.zeros((P, E.NPARAM)), np.zeros(2, np.uint64), np.zeros(P, np.int64),
            np.zeros(P, np.int64), np.zeros(P, np.int64))


@njit(cache=True, _nrt=False)
def knowledge(seat, t, kb, counts, pool, opp):
    """Table ``kb`` = table ``t`` as ``seat`` knows it: its own hand; the pile, the table's
    melds, who opened, the calls made, hand sizes and the stock's size; of each opponent only
    the cards it took or called and still holds (the known rows, R9). The cards it cannot see
    (the opponents' other cards, the stock) go to ``pool[:n]`` in card order, so ``pool`` and
    ``kb`` do not depend on where those cards really are; ``opp[p]``: seat ``p``'s unseen
    cards. The hand memos, the others' plans and the dealt-hand flags, read from hidden
    hands, are cleared. Writes kb, counts, pool, opp; returns ``n``."""
    B.copy_state(t, kb, False)
    NP.clear_plans(kb.count.scratch, seat)
    hand = kb.hand
    ps = kb.ps
    P = E._seen_row(hand)
    for c in range(E.N_CODES):
        counts[c] = 0
    for p in range(P):
        opp[p] = 0
        ps[p, E.PS_NC_VAL0] = -1
        ps[p, E.PS_NC_VAL1] = -1
        ps[p, E.PS_NC_HVAL] = -1
        ps[p, PS_MEETS] = 0
        if p == seat:
            continue
        k = E._known_row(hand, p)
        for c in range(E.N_CODES):
            h = hand[p, c] - hand[k, c]
            counts[c] += h
            hand[p, c] -= h
            opp[p] += h
    stock = t.stock
    for i in range(t.gs[E.GS_STOCK_N]):
        counts[stock[i]] += 1
    for r in range(P + 1, P + 4):  # the policies' scratch rows
        for c in range(E.N_CODES):
            hand[r, c] = 0
    kb.stock[:] = 0
    n = 0
    for c in range(E.N_CODES):
        for _ in range(counts[c]):
            pool[n] = c
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _prepare(rules, pol, t, sw, seat):
    """The rollouts' policies (row ``P + seat`` for every seat) into ``sw``'s ``mpol`` and the
    seat's knowledge into ``kb``/``pool``; returns the hidden cards' count."""
    P = rules[E.R_PLAYERS]
    mpol = sw.mpol
    for p in range(P):
        for j in range(E.NPARAM):
            mpol[p, j] = pol[P + seat, j]
    return knowledge(seat, t, sw.kb, sw.counts, sw.pool, sw.opp)


@njit(cache=True, _nrt=False)
def _one_rollout(rules, pol, t, sw, seat, ask_mask, n_pool, i):
    """Rollout ``i`` of ``seat``'s decision (after :func:`_prepare`): the unseen cards dealt
    at random, each unopened opponent's past turns replayed by the player model
    (:func:`.history.forward_prior`, as the advisor's ``past_turns``), then act minus pass
    of its relative penalty (own penalty with ``P_SEARCH_PENALTY``)."""
    kb, samp, br = sw.kb, sw.samp, sw.br
    pool, opp, res, mpol, rst = sw.pool, sw.opp, sw.res, sw.mpol, sw.rst
    base = t.streams[0, 0]  # the hand's deal key: seed, game, hand, attempt (C3)
    turn = t.gs[E.GS_TURNS] + 1
    rst[0] = R.stream_key(base, turn, seat, i, STREAM_SEARCH)
    rst[1] = uint64(0)
    B._sample_situation(kb, samp, pool, n_pool, opp, 0, rst)
    # the stock left is read: each unopened opponent's past turns replayed
    H.forward_prior(rules, mpol, samp, seat, rst)
    for r in range(samp.streams.shape[0]):
        samp.streams[r, 0] = R.stream_key(base, turn, seat, i, STREAM_SEARCH + 1 + r)
        samp.streams[r, 1] = uint64(0)
    B.play_pair(rules, mpol, samp, br, seat, ask_mask, res)
    j = 0 if pol[seat, E.P_SEARCH_PENALTY] > 0 else 4  # own penalty, or relative
    return res[j] - res[B.ROLL_COLS + j]


@njit(cache=True, _nrt=False)
def rollout_value(rules, pol, t, sw, seat, ask_mask):
    """Mean over ``pol[seat, P_SEARCH]`` paired rollouts of ``seat``'s relative penalty (own
    penalty with ``P_SEARCH_PENALTY``) acting minus passing on the live offer of table ``t``
    (below 0: acting is better), from :func:`knowledge` only; the seats in ``ask_mask`` but
    ``seat`` pass (they were asked first). Reuses the advisor's sampler
    (:func:`.branch._sample_situation`) and its pair (:func:`.branch.play_pair`). Writes sw."""
    n_pool = _prepare(rules, pol, t, sw, seat)
    n = int(pol[seat, E.P_SEARCH])
    total = 0.0
    for i in range(n):
        total += _one_rollout(rules, pol, t, sw, seat, ask_mask, n_pool, i)
    return total / n


@njit(cache=True, _nrt=False)
def seq_verdict(total, total2, m, looks, margin):
    """The sequential rule at one look, from the sum and the sum of squares of ``m`` paired
    differences (act minus pass): -1 (act) when the mean is below ``-margin`` and its t
    statistic beyond the two-sided ``0.05 / looks`` bound, +1 (pass) when the mean is above
    zero beyond that bound, else 0 (undecided; always below :data:`SEARCH_MIN` rollouts). The
    bound is Student's t quantile on ``m - 1`` degrees of freedom by two Cornish-Fisher
    terms from the normal quantile ``Z_LOOK`` (``looks`` = :data:`SEARCH_LOOKS`), within 1%
    from 7 degrees of freedom. Over the looks, Bonferroni's inequality bounds the chance of
    any decision when the mean difference is zero by 5% (up to the normal theory of t)."""
    if m < SEARCH_MIN:
        return 0
    mean = total / m
    var = (total2 - m * mean * mean) / (m - 1)
    z = Z_LOOK
    nu = m - 1.0
    crit = (z + (z ** 3 + z) / (4.0 * nu)
            + (5.0 * z ** 5 + 16.0 * z ** 3 + 3.0 * z) / (96.0 * nu * nu))
    if var <= 0.0:
        t = 0.0 if mean == 0.0 else (1e300 if mean > 0 else -1e300)
    else:
        t = mean / np.sqrt(var / m)
    if t < -crit and mean < -margin:
        return -1
    if t > crit:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def rollout_decision(rules, pol, t, sw, seat, ask_mask):
    """:func:`rollout_value`'s rollouts played in :data:`SEARCH_LOOKS` batches, stopped by
    :func:`seq_verdict` as soon as they decide (decide only what the rollouts
    decide): -1 act, +1 pass, 0 undecided after all ``pol[seat, P_SEARCH]`` rollouts (the
    caller then keeps the model player's own answer). Writes sw."""
    n_pool = _prepare(rules, pol, t, sw, seat)
    n = int(pol[seat, E.P_SEARCH])
    margin = pol[seat, E.P_SEARCH_MARGIN]
    total = 0.0
    total2 = 0.0
    done = 0
    for k in range(1, SEARCH_LOOKS + 1):
        upto = (n * k) // SEARCH_LOOKS
        while done < upto:
            d = _one_rollout(rules, pol, t, sw, seat, ask_mask, n_pool, done)
            total += d
            total2 += d * d
            done += 1
        v = seq_verdict(total, total2, done, SEARCH_LOOKS, margin)
        if v != 0:
            return v
    return 0


@njit(cache=True, _nrt=False)
def brings_closer(rules, pol, t, seat):
    """Does the live discard cut ``seat``'s cards still needed (its policy's count, as the
    expert's take and call rules read it)? Writes the seat's count memo on ``t`` (a cache)."""
    hand, ps, gs = t.hand, t.ps, t.gs
    D = t.disc[gs[E.GS_DISC_N] - 1]
    pw = t.count
    before = _needed_memo(seat, hand, ps, rules, pol, pw)
    hand[seat, D] += 1
    after = _needed_memo_upto(seat, hand, ps, rules, pol, pw, before - 1)
    hand[seat, D] -= 1
    return after < before


@njit(cache=True, _nrt=False)
def _may_search(rules, pol, t):
    """Could the live offer reach a search seat at all (not opened, R8; not its discarder)?"""
    P = rules[E.R_PLAYERS]
    if pol.shape[0] < 2 * P or rules[E.R_TULUKI] == 1:
        return False
    for s in range(P):
        if (pol[s, E.P_SEARCH] > 0 and t.ps[s, E.PS_OPENED] == 0
                and s != t.gs[E.GS_DISCARDER]):
            return True
    return False


@njit(cache=True, _nrt=False)
def search_offers(rules, pol, t, sw):
    """Before the turn of ``t.gs[GS_CUR]``: decide by :func:`rollout_value` the take or call of
    every search seat the live discard will reach, in R9's order, and force the answers on
    ``t`` (``GS_FORCE_*``). A seat at its own call limit passes without search. Writes t's gs,
    sw."""
    gs = t.gs
    if gs[E.GS_LIVE] != 1 or gs[E.GS_TURNS] >= E.MAX_TURNS or not _may_search(rules, pol, t):
        return
    P = rules[E.R_PLAYERS]
    snap, seats, kinds, taken = sw.snap, sw.seats, sw.kinds, sw.taken
    mask = 0
    acts = 0
    for _ in range(P):
        B.copy_state(t, snap, False)
        snap.gs[E.GS_FORCE_MASK] = mask
        snap.gs[E.GS_FORCE_ACTS] = acts
        E.one_turn(rules, pol, snap)  # a dry run: who is asked
        nd = B._offer_decisions(rules, t, snap.gs[E.GS_TAKEN_BY], snap.gs[E.GS_CALLED_BY],
                                seats, kinds, taken)
        me = -1
        ask = 0
        for d in range(nd):
            ask |= 1 << seats[d]
            if pol[seats[d], E.P_SEARCH] > 0 and (mask >> seats[d]) & 1 == 0:
                me = d
                break
        if me < 0:
            break
        s = seats[me]
        mask |= 1 << s
        if kinds[me] == B.CALL and t.ps[s, E.PS_CALLS] >= _call_limit(s, rules, pol):
            continue  # V8: its own limit is reached; it passes
        if pol[s, E.P_SEARCH_SCREEN] > 0 and not brings_closer(rules, pol, t, s):
            continue  # screened: a card that brings the contract no closer is passed
        v = rollout_decision(rules, pol, t, sw, s, ask)
        if v < 0 or (v == 0 and taken[me] == 1):  # undecided: the model player's own answer
            acts |= 1 << s
    gs[E.GS_FORCE_MASK] = mask
    gs[E.GS_FORCE_ACTS] = acts


@njit(cache=True, _nrt=False)
def search_hand(deal, rules, pol, t, sw, out, row0):
    """:func:`.engine.play_hand` with search seats: :func:`search_offers` before every turn.
    Writes t, sw, ``out[row0 : row0 + P]``; returns void (R13)."""
    E.start_hand(rules, t, deal)
    while True:
        search_offers(rules, pol, t, sw)
        if E.one_turn(rules, pol, t):
            break
    E.score_hand(rules, t, deal, out, row0)
    return t.gs[E.GS_VOID]


@njit(cache=True, _nrt=False)
def _search_game(seed, i, game, hand_nos, rules_by_hand, pol, run, t, sw, hrows, rows):
    """:func:`.engine._play_game` with :func:`search_hand`."""
    P = rules_by_hand[0, E.R_PLAYERS]
    dealer = E.first_dealer(seed, game, P)
    n = 0
    for h in range(hand_nos.shape[0]):
        attempt = 0
        first = n
        while True:
            void = search_hand(E.Deal(seed, game, hand_nos[h], attempt, dealer),
                               rules_by_hand[h], pol, t, sw, hrows, 0)
            done, n = E.after_attempt(void, t, attempt, run, hrows, i, rows, n)
            attempt += 1
            if done:
                break
        E.mark_attempts(rows.out, rows.offsets[i], first, n, rows.caps[i], attempt)
        dealer = (dealer + 1) % P
    return n


@njit(cache=True, parallel=True)
def search_block(seed, games, hand_nos, rules_by_hand, pol, run, rows):
    """:func:`.engine.play_block` for tables with search seats (``pol`` of ``2P`` rows): the
    same arguments and rows. Writes rows.out, rows.n_rows."""
    n = games.shape[0]
    P = rules_by_hand[0, E.R_PLAYERS]
    per = (n + run.workers - 1) // run.workers
    # a namedtuple's arrays are read into locals before prange: Numba's parallel loops do not
    # write through to arrays reached inside a tuple argument
    out, offsets, caps, n_rows = rows.out, rows.offsets, rows.caps, rows.n_rows
    for w in prange(run.workers):
        t = E.new_table_jit(P, run.pack_size, 1)
        sw = new_search_ws(P, run.pack_size)
        hrows = np.zeros((P, E.O_COLS), np.int32)
        for i in range(w * per, min(n, w * per + per)):
            n_rows[i] = _search_game(seed, i, games[i], hand_nos, rules_by_hand, pol, run, t, sw,
                                     hrows, E.Rows(out, offsets, caps, n_rows))
