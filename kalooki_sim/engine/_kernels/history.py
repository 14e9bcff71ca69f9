"""The advisor's hidden hands, read from the table: a prior that plays each unopened
opponent's past turns, a likelihood of what each opponent was seen to do, and a chain of swaps
that draws the hidden hands from the posterior given that history.

The advisor deals the cards a player cannot see at random (:func:`.branch._sample_situation`).
Two kernels here make a dealt sample look like a hand a model player (the policy of the
rollouts, ``expert`` by default) would hold at this point of the hand:

* :func:`forward_prior` (the stock left, R2, R6): each opponent that has not opened has had
  ``PS_TURNS`` turns; it replays them from its dealt hand, each a draw from the sampled stock
  and the model's own discard (:func:`.discard._choose_discard`), the discards going back into
  the stock, which is shuffled again. A seat deep into the hand is then as close to its
  contract as the model typically is by then.
* :func:`history_logw` (the public history, R6, R9): the log-likelihood of each opponent's
  typed events under the model, replayed backwards on the sampled hand (the hand at the time of
  an event is approximated by the hand now, with the later discards given back, the later
  takes and calls taken away, and for each later draw the card the seat threw in that turn
  taken away, if it still holds an unknown copy of it (what the model does with a card that
  does not help: measured on expert hands, this reads them better than a random card), else
  one random unknown card, as for a call's penalty card). A ``discard`` weighs 1 when the
  model discards that very card, ``W_KEEP`` when losing it at least keeps the model's exact
  count of cards needed (its first criterion) and costs no fewer points than the model's own
  choice (the tie-breaks after that read seen cards as they are now), ``EPS`` otherwise (a
  cheaper card thrown while a costlier one was free, R12); a ``take`` or ``call`` weighs 1
  when the model wants the card
  (:func:`.draw._wants_card`), ``EPS`` otherwise; a ``pass`` the reverse; a stock ``draw``
  weighs nothing. The rest of the table (stock, opened seats, hand sizes) is read as it is
  now. Events of seat 0 (the player) and of seats that have opened carry no weight.

The posterior (:func:`posterior_chain`): with a history, each sample is moved by a
Metropolis-Hastings chain of ``swaps`` proposals (the advisor's: ``CHAIN_SWEEPS`` per unknown
card of the seats moved, so each card is proposed about eight times: on every decision of seat
0 in eight expert hands of each contract, four leave the lowest decile of the belief 4.3 points
above the frequency, eight 4.1, measured with the test's calibration; measured on hand 1 with
one pass weighed, a seat's chance of holding the passed rank is 23% after 20 swaps, 12% after
60, 10% after 100, against the importance weights' 10%). A proposal picks one unknown card of an
unopened opponent (uniformly over those copies) and one hidden card elsewhere (uniformly over
the stock, the pile's unlisted cards and the other opponents' unknown cards; the pile only
before R13's reshuffle, after which its buried cards are dead) and swaps them; it is accepted
with probability ``min(1, exp(logL' - logL))``, ``logL`` the sum over unopened opponents of
:func:`seat_logw`. Swapping two hidden places is a symmetric proposal that keeps the uniform
deal invariant, so the chain's target is the uniform deal times the history's likelihood: the
samples carry equal weights and nothing is tempered. A swap changes one or two seats' hands, so
only those seats' terms are computed again. Each seat's term is a deterministic function of its
hand: the unknown cards the backwards replay gives back, and any policy draw, come from the
seat's own stream ``(seed, sample, seat, STREAM_HISTORY)`` restarted at every evaluation, and
the seat's run plan (:func:`.plus.keep_plan`) is cleared first. The chain's own draws (the
two places and the acceptance) come from ``(seed, sample, STREAM_CHAIN)``.

Which seats the chain moves (``History.cover``): those whose past the history shows, so that
the uniform deal is the right prior for them: every seat when the history is the whole hand
(from the upcard, no turn left out: the review's), else a seat that discarded in it at least
once per past turn (``PS_TURNS``; early in a hand every seat). For them :func:`forward_prior`
only starts the chain (near where a model player is by then, close to the posterior); the
chain's target does not keep its shape. A seat whose past the history leaves out keeps its
hand as :func:`forward_prior` made it (the past turns are then the better prior), nothing is
swapped with it, and its events weigh the sample by importance as before (the log-weight the
chain returns); with all seats covered every sample weighs the same. Without a history
nothing changes: the samples are the past turns' (or the uniform deal's), equal weights.

History events are rows ``(seat, kind, card)`` (``int64``), engine seats, kinds ``H_*``.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit, prange, uint64

from ...game.kernels import card_value
from . import branch as B
from . import engine as E
from . import rng as R
from .discard import _choose_discard
from .draw import _wants_card
from .memo import _needed_memo
from .reading import _call_limit, _known_row, _needed_upto
from .table import (
    GS_STOCK_N,
    JOKER,
    N_CODES,
    P_CALL_GAIN,
    P_TAKE_GAIN,
    PS_CALLS,
    PS_OPENED,
    PS_TURNS,
)
from .workspace import W_PLANS

H_DISCARD, H_PASS_TAKE, H_PASS_CALL, H_TAKE, H_CALL, H_DRAW = range(6)
H_COLS = 3  # seat, kind, card
EPS = 0.1  # weight of an event the model would not have made
W_KEEP = 0.5  # weight of a discard the model would not choose but whose loss keeps its count
STREAM_PRIOR = 1 << 25  # the advisor's past turns of each sample (apart from search's 1 << 23)
STREAM_HISTORY = 1 << 26  # + seat: the random unknown cards given back in the backwards replay
STREAM_CHAIN = 1 << 27  # each sample's chain of swaps: the places swapped, the acceptances
STREAM_RESTOCK = 1 << 28  # a reused sample's stock order, per rollout (History.reuse)
CHAIN_SWEEPS = 8  # the advisor's proposals per unknown card of the seats moved (posterior_chain)
RANK_COLS = 14  # A, 2, ..., K, joker

#: the cards a player cannot see, as the rollouts deal them (:func:`.branch._sample_situation`):
#: ``pool[:n_pool]`` the hidden cards, ``opp_sizes[p]`` of them to each seat ``p``,
#: ``pile_extra`` under the pile's top card, the rest to the stock
Hidden = namedtuple("Hidden", ["pool", "n_pool", "opp_sizes", "pile_extra"])
#: the table's public history (rows ``ev[:n_ev]``, :func:`history_logw`), whether each
#: sample replays the unopened opponents' past turns (``prior``, :func:`forward_prior`), the
#: swaps of its chain (``swaps``, :func:`posterior_chain`; 0: importance weights alone) and
#: the seats it moves (``cover[s]`` 1, ``int64[P]``: those whose past the history shows),
#: and the rollouts each sample of the hidden hands is played on (``reuse``: rollout ``i``
#: plays sample ``i // reuse`` on a stock order of its own, :func:`_restock`; 1: a sample each)
History = namedtuple("History", ["ev", "n_ev", "prior", "swaps", "cover", "reuse"],
                     defaults=(1,))
#: what each rollout writes: ``res[j]`` (:func:`.branch.play_pair`'s row), ``logw[j]`` (0
#: when the chain ran), ``ranks[j]`` (:func:`rank_counts` of the sample played) and
#: ``moves[j]`` (the chain's proposals that changed a card, and those accepted)
Rollouts = namedtuple("Rollouts", ["res", "logw", "ranks", "moves"])
#: a chain's scratch (:func:`posterior_chain`): each seat's log-likelihood term
#: (``float64[P]``) and unknown cards (``int64[P]``), the chain's and the replay's stream
#: states (``uint64[2]`` each)
ChainWork = namedtuple("ChainWork", ["term", "unk", "cst", "hst"])


@njit(cache=True, _nrt=False)
def _drop_known(hand, seat, sign):
    """Take (``sign`` -1) or give back (+1) the cards of ``seat`` the table knows of."""
    k = _known_row(hand, seat)
    for c in range(N_CODES):
        hand[seat, c] += sign * hand[k, c]


@njit(cache=True, _nrt=False)
def forward_prior(rules, pol, t, me, rst):
    """Replay the past turns of every opponent of ``me`` that has not opened on the sampled
    table ``t``: ``ps[seat, PS_TURNS]`` times a draw from the stock and the model's discard
    (:func:`.discard._choose_discard` on the seat's unknown cards; the cards the table knows it
    holds stay out of the choice), the discard going back in the draw's place; then the stock
    is shuffled again (``rst``). Hand sizes and the stock's size and contents as a multiset of
    the hidden cards are kept. Writes t's hands, stock, memo; returns the turns replayed."""
    hand = t.hand
    ps = t.ps
    gs = t.gs
    stock = t.stock
    P = ps.shape[0]
    n = gs[GS_STOCK_N]
    if n == 0:
        return 0
    pw = t.count
    pos = n - 1
    done = 0
    for s in range(P):
        if s == me or ps[s, PS_OPENED] == 1:
            continue
        _drop_known(hand, s, -1)
        for _ in range(ps[s, PS_TURNS]):
            c = stock[pos]
            hand[s, c] += 1
            d = _choose_discard(s, hand, ps, gs, t.melds, rules, pol, rst, pw)
            if d < 0:  # only jokers (C2): the card stays, the draw is undone
                d = c
            hand[s, d] -= 1
            stock[pos] = d
            pos = pos - 1 if pos > 0 else n - 1
            done += 1
        _drop_known(hand, s, 1)
    R.shuffle(rst, stock, n)
    return done


@njit(cache=True, _nrt=False)
def _give_back_unknown(hand, seat, rst):
    """Take one card, uniformly among the copies of ``seat``'s hand the table does not know
    of, out of its hand (a draw undone); False if there is none."""
    k = _known_row(hand, seat)
    m = 0
    for c in range(N_CODES):
        x = hand[seat, c] - hand[k, c]
        if x > 0:
            m += x
    if m == 0:
        return False
    j = R.below(rst, m)
    for c in range(N_CODES):
        x = hand[seat, c] - hand[k, c]
        if x <= 0:
            continue
        if j < x:
            hand[seat, c] -= 1
            return True
        j -= x
    return False


@njit(cache=True, _nrt=False)
def _discard_weight(rules, pol, t, seat, card, rst):
    """Weight of ``seat`` discarding ``card`` from its hand (which holds it): 1 if the model
    chooses it, ``W_KEEP`` if its loss keeps the model's count of cards needed and it costs no
    fewer points than the model's choice, else ``EPS``."""
    hand = t.hand
    ps = t.ps
    pw = t.count
    d = _choose_discard(seat, hand, ps, t.gs, t.melds, rules, pol, rst, pw)
    if d == card:
        return 1.0
    now = _needed_memo(seat, hand, ps, rules, pol, pw)
    hand[seat, card] -= 1
    nd = _needed_upto(seat, hand, rules, pol, pw, now, now)
    hand[seat, card] += 1
    if nd > now or (d >= 0 and card_value(card // 13, card % 13 + 1)
                    < card_value(d // 13, d % 13 + 1)):
        return EPS
    return W_KEEP


@njit(cache=True, _nrt=False)
def _wants(rules, pol, t, seat, card, kind, rst):
    """Would the model of ``seat`` take (``kind`` take) or call this card now (R9)?"""
    hand = t.hand
    ps = t.ps
    pw = t.count
    if kind == H_TAKE or kind == H_PASS_TAKE:
        return _wants_card(seat, card, hand, ps, t.gs, rules, pol, rst, P_TAKE_GAIN, pw)
    return ps[seat, PS_CALLS] < _call_limit(seat, rules, pol) and _wants_card(
        seat, card, hand, ps, t.gs, rules, pol, rst, P_CALL_GAIN, pw)


@njit(cache=True, _nrt=False)
def seat_logw(rules, pol, t, s, ev, n_ev, rst):
    """Log-weight of seat ``s``'s events in ``ev[:n_ev]`` (rows seat, kind, card, in table
    order) on the sampled table ``t``: they are replayed backwards on its hand (see the module
    docstring); ``rst`` gives the unknown cards undone. Writes t's rows of ``s`` (use a copy)."""
    hand = t.hand
    lw = 0.0
    log_eps = math.log(EPS)
    log_keep = math.log(W_KEEP)
    thrown = -1  # the card the seat threw after the event replayed, in the same turn
    for i in range(n_ev - 1, -1, -1):
        if ev[i, 0] != s:
            continue
        kind = ev[i, 1]
        c = ev[i, 2]
        after = thrown
        thrown = c if kind == H_DISCARD else -1
        if kind == H_DRAW:
            if after >= 0 and hand[s, after] > hand[_known_row(hand, s), after]:
                hand[s, after] -= 1  # the drawn card taken to be the one thrown back
            else:
                _give_back_unknown(hand, s, rst)
        elif kind == H_DISCARD:
            hand[s, c] += 1
            w = _discard_weight(rules, pol, t, s, c, rst)
            lw += 0.0 if w == 1.0 else (log_keep if w == W_KEEP else log_eps)
        elif kind == H_TAKE or kind == H_CALL:
            if hand[s, c] > 0:
                hand[s, c] -= 1
                k = _known_row(hand, s)
                if hand[k, c] > 0:
                    hand[k, c] -= 1
            if kind == H_CALL:  # its penalty card, unknown (R9)
                _give_back_unknown(hand, s, rst)
            if not _wants(rules, pol, t, s, c, kind, rst):
                lw += log_eps
        else:  # a pass on a take (R9.1) or a call (R9.2)
            if _wants(rules, pol, t, s, c, kind, rst):
                lw += log_eps
    return lw


@njit(cache=True, _nrt=False, inline="always")
def _weighed(ps, s, me):
    """Do seat ``s``'s events weigh? Not the player's own, nor an opened seat's."""
    return s != me and ps[s, PS_OPENED] == 0


@njit(cache=True, _nrt=False)
def _seat_term(rules, pol, cur, br, s, ev, n_ev, key, hst):
    """:func:`seat_logw` of seat ``s`` on the hands of ``cur``, computed on the scratch table
    ``br`` (a copy of ``cur`` but for the hands): the same value for the same hand, whatever
    ``br`` held before (its rows of ``s`` copied, its plan cleared, its stream restarted)."""
    k = _known_row(cur.hand, s)
    for c in range(N_CODES):
        br.hand[s, c] = cur.hand[s, c]
        br.hand[k, c] = cur.hand[k, c]
    br.count.scratch[W_PLANS + 20 * s + 16] = 0  # no plan (plus.clear_plans for one seat)
    hst[0] = R.stream_key(key, s, 0, 0, STREAM_HISTORY)
    hst[1] = uint64(0)
    lw = seat_logw(rules, pol, br, s, ev, n_ev, hst)
    for c in range(N_CODES):  # the hand now again, for the other seats' replays
        br.hand[s, c] = cur.hand[s, c]
        br.hand[k, c] = cur.hand[k, c]
    return lw


@njit(cache=True, _nrt=False)
def history_logw(rules, pol, t, me, ev, n_ev, key, hst):
    """Log-weight of the sampled table ``t`` given the history ``ev[:n_ev]``: the sum of
    :func:`seat_logw` over the seats whose events weigh, each seat's unknown cards undone from
    its own stream of ``key`` (as the chain computes it; ``hst`` its state, ``uint64[2]``).
    Writes t's hands (use a copy)."""
    lw = 0.0
    for s in range(t.ps.shape[0]):
        if _weighed(t.ps, s, me):
            hst[0] = R.stream_key(key, s, 0, 0, STREAM_HISTORY)
            hst[1] = uint64(0)
            t.count.scratch[W_PLANS + 20 * s + 16] = 0
            lw += seat_logw(rules, pol, t, s, ev, n_ev, hst)
    return lw


@njit(cache=True, _nrt=False)
def _unknown_at(hand, s, j):
    """The code of the ``j``-th copy (0-based, by code) of seat ``s``'s unknown cards."""
    k = _known_row(hand, s)
    for c in range(N_CODES):
        x = hand[s, c] - hand[k, c]
        if x > 0:
            if j < x:
                return c
            j -= x
    return -1


@njit(cache=True, _nrt=False)
def _n_unknown(hand, s):
    """How many of seat ``s``'s cards the table does not know of."""
    k = _known_row(hand, s)
    m = 0
    for c in range(N_CODES):
        x = hand[s, c] - hand[k, c]
        if x > 0:
            m += x
    return m


@njit(cache=True, _nrt=False)
def posterior_chain(rules, pol, t, br, me, history, pile_n, key, work, moves):
    """Move the sampled table ``t`` by ``history.swaps`` Metropolis-Hastings proposals (a
    :data:`History`) towards the
    uniform deal times the history's likelihood (module docstring): each swaps an unknown card
    of an unopened opponent of ``me`` with a hidden card elsewhere (the stock, the pile's
    ``pile_n`` unlisted cards under the seen ones, another opponent's unknown cards), accepted
    with probability ``min(1, exp(logL' - logL))``. ``br`` is scratch (a copy of ``t``);
    ``key`` the sample's key; ``work`` a :data:`ChainWork`; ``moves`` gets the proposals that
    changed a card and those accepted. Only the seats of ``history.cover`` are moved (and
    opened ones, whose events do not weigh); the others keep their hands, and their events'
    log-likelihood is returned: the sample's importance log-weight (0 when all are covered)."""
    ev, n_ev, _, swaps, cover, _ = history
    term, unk, cst, hst = work
    hand = t.hand
    ps = t.ps
    P = ps.shape[0]
    n = t.gs[GS_STOCK_N]
    cst[0] = R.stream_key(key, 0, 0, 0, STREAM_CHAIN)
    cst[1] = uint64(0)
    u_all = 0  # the unknown cards of the weighed seats the chain moves: the first place
    o_all = 0  # every moved opponent's unknown cards
    kept = 0.0  # the log-likelihood of the weighed seats it leaves: an importance weight
    for s in range(P):
        term[s] = 0.0
        unk[s] = 0
        if s == me:
            continue
        if _weighed(ps, s, me) and cover[s] == 0:
            kept += _seat_term(rules, pol, t, br, s, ev, n_ev, key, hst)
            continue
        unk[s] = _n_unknown(hand, s)
        o_all += unk[s]
        if _weighed(ps, s, me):
            u_all += unk[s]
            term[s] = _seat_term(rules, pol, t, br, s, ev, n_ev, key, hst)
    moves[0] = 0
    moves[1] = 0
    if u_all == 0:
        return kept
    for _ in range(swaps):
        # the first place: a weighed seat's unknown card
        j = R.below(cst, u_all)
        a = 0
        for s in range(P):
            if _weighed(ps, s, me) and cover[s] == 1:
                if j < unk[s]:
                    a = s
                    break
                j -= unk[s]
        ca = _unknown_at(hand, a, j)
        # the second place: the stock, the pile's unlisted cards, another opponent's unknown
        m = n + pile_n + o_all - unk[a]
        if m == 0:
            continue
        x = R.below(cst, m)
        b = -1  # -1 stock, -2 pile, else a seat
        if x < n:
            b = -1
            cb = t.stock[x]
        elif x < n + pile_n:
            b = -2
            x -= n
            cb = t.disc[x]
        else:
            x -= n + pile_n
            for s in range(P):
                if s == me or s == a:
                    continue
                if x < unk[s]:
                    b = s
                    break
                x -= unk[s]
            cb = _unknown_at(hand, b, x)
        u = R.uniform(cst)  # drawn for every proposal: the stream does not depend on the cards
        if ca == cb:
            continue
        moves[0] += 1
        hand[a, ca] -= 1
        hand[a, cb] += 1
        if b == -1:
            t.stock[x] = ca
        elif b == -2:
            t.disc[x] = ca
        else:
            hand[b, cb] -= 1
            hand[b, ca] += 1
        ta = _seat_term(rules, pol, t, br, a, ev, n_ev, key, hst)
        tb = 0.0
        if b >= 0 and _weighed(ps, b, me):
            tb = _seat_term(rules, pol, t, br, b, ev, n_ev, key, hst)
        d = ta - term[a] + (tb - term[b] if b >= 0 and _weighed(ps, b, me) else 0.0)
        if d >= 0.0 or u < math.exp(d):
            moves[1] += 1
            term[a] = ta
            if b >= 0:
                term[b] = tb
            continue
        hand[a, cb] -= 1  # rejected: the cards go back
        hand[a, ca] += 1
        if b == -1:
            t.stock[x] = cb
        elif b == -2:
            t.disc[x] = cb
        else:
            hand[b, ca] -= 1
            hand[b, cb] += 1
    return kept


@njit(cache=True, _nrt=False)
def rank_counts(t, out):
    """``out[p, r]``: the copies of rank ``r + 1`` (r = 13: jokers) in seat ``p``'s hand."""
    hand = t.hand
    for p in range(out.shape[0]):
        for r in range(RANK_COLS):
            out[p, r] = 0
        for c in range(JOKER):
            out[p, c % 13] += hand[p, c]
        out[p, 13] = hand[p, JOKER]


@njit(cache=True, _nrt=False)
def _sample_read(seed, i, rules, pol, base, hidden, history, me, tables, rst, work, out_j):
    """Rollout ``i``'s sample of the hidden cards around ``base`` into ``tables[0]``: dealt
    (:func:`.branch._sample_situation`), the past turns replayed (``history.prior``), then read
    by the history: drawn from the posterior by ``history.swaps`` swaps (:func:`posterior_chain`,
    ``work`` its :data:`ChainWork`) or, with ``swaps`` 0, weighed by :func:`history_logw` (on
    ``tables[1]``). Its rank counts, log-weight and the chain's moves go to ``out_j``
    (``(ranks[j], logw, moves[j], j)``); the play's streams are keyed (C3)."""
    samp, br = tables
    pool, n_pool, opp_sizes, pile_extra = hidden
    ranks_j, logw, moves_j, j = out_j
    rst[0] = R.stream_key(seed, i, 0, 0, B.STREAM_ROLLOUT)
    rst[1] = uint64(0)
    B._sample_situation(base, samp, pool, n_pool, opp_sizes, pile_extra, rst)
    if history.prior:
        rst[0] = R.stream_key(seed, i, 0, 0, STREAM_PRIOR)
        rst[1] = uint64(0)
        forward_prior(rules, pol, samp, me, rst)
    logw[j] = 0.0
    moves_j[0] = 0
    moves_j[1] = 0
    if history.n_ev > 0:
        B.copy_state(samp, br, False)
        key = R.stream_key(seed, i, 0, 0, 0)
        if history.swaps > 0:
            pile_n = pile_extra if base.gs[E.GS_RESHUFFLED] == 0 else 0
            logw[j] = posterior_chain(rules, pol, samp, br, me, history, pile_n, key, work,
                                      moves_j)
        else:
            logw[j] = history_logw(rules, pol, br, me, history.ev, history.n_ev, key, work.hst)
    rank_counts(samp, ranks_j)
    for s in range(samp.streams.shape[0]):
        samp.streams[s, 0] = R.stream_key(seed, i, 0, 1, s)
        samp.streams[s, 1] = uint64(0)


@njit(cache=True, _nrt=False)
def _sample_once(seed, i, rules, pol, base, hidden, history, me, tables, rst, work, out):
    """Rollout ``i``'s sample into ``tables[0]``: with ``history.reuse`` 1 its own
    (:func:`_sample_read` keyed by ``i``); else sample ``i // reuse``, read once where it starts
    (or where a worker starts, ``fresh``: the same sample again, so any split of the rollouts
    gives the same ones) and kept for the next rollouts, each on a stock order of its own
    (:func:`_restock`). ``out``: ``(ranks, logw, moves, j, fresh)``, row ``j`` written."""
    ranks, logw, moves, j, fresh = out
    r = max(1, history.reuse)
    if r == 1 or fresh or i % r == 0:
        _sample_read(seed, i // r, rules, pol, base, hidden, history, me, tables, rst, work,
                     (ranks[j], logw, moves[j], j))
    else:  # the sample kept from rollout j - 1: its reading
        logw[j] = logw[j - 1]
        for a in range(ranks.shape[1]):
            for b in range(ranks.shape[2]):
                ranks[j, a, b] = ranks[j - 1, a, b]
        moves[j, 0] = moves[j - 1, 0]
        moves[j, 1] = moves[j - 1, 1]
    if r > 1:
        _restock(tables[0], seed, i, rst)


@njit(cache=True, _nrt=False)
def _restock(samp, seed, i, rst):
    """Rollout ``i``'s own stock order for a reused sample: the stock's cards sorted (so the
    order does not depend on the rollout before) and shuffled by ``i``'s stream, and the
    play's streams keyed by ``i`` (C3). The stock is a uniform order of its cards given the
    hands, whatever the history (no event shows a stock card), so each rollout is as a fresh
    one on the same hands."""
    n = samp.gs[GS_STOCK_N]
    st = samp.stock
    for a in range(1, n):  # insertion sort: a few dozen cards
        x = st[a]
        b = a - 1
        while b >= 0 and st[b] > x:
            st[b + 1] = st[b]
            b -= 1
        st[b + 1] = x
    rst[0] = R.stream_key(seed, i, 0, 0, STREAM_RESTOCK)
    rst[1] = uint64(0)
    for a in range(n - 1, 0, -1):  # Fisher-Yates
        b = R.below(rst, a + 1)
        x = st[a]
        st[a] = st[b]
        st[b] = x
    for s in range(samp.streams.shape[0]):
        samp.streams[s, 0] = R.stream_key(seed, i, 0, 1, s)
        samp.streams[s, 1] = uint64(0)


@njit(cache=True)
def _worker_state(P, pack_size):
    """A rollout worker's own state: the sample's table, the branch's table, a stream state
    and the chain's :data:`ChainWork` (both rollout kernels allocate it once per worker)."""
    return (E.new_table_jit(P, pack_size, 1), E.new_table_jit(P, pack_size, 1),
            np.empty(2, np.uint64),
            ChainWork(np.zeros(P, np.float64), np.zeros(P, np.int64), np.zeros(2, np.uint64),
                      np.zeros(2, np.uint64)))


@njit(cache=True, parallel=True)
def rollout_block(seed, rules, pol, base, hidden, history, me, force_mask, first, count, run, out):
    """The advisor's rollouts ``first .. first + count - 1`` read from the table: each deals the
    ``hidden`` cards (a :data:`Hidden`) around ``base`` (:func:`.branch._sample_situation`, its
    own stream), replays the opponents' past turns when ``history.prior``
    (:func:`forward_prior`), draws the hidden hands from the posterior given the history by
    ``history.swaps`` swaps (:func:`posterior_chain`; with ``swaps`` 0 the sample is weighed
    by :func:`history_logw` instead) and plays it both ways (:func:`.branch.play_pair`) over
    ``run.workers`` workers (a :data:`.table.Run`). Writes ``out`` (a :data:`Rollouts`) at
    ``j = i - first``."""
    P = rules[E.R_PLAYERS]
    per = (count + run.workers - 1) // run.workers
    # a namedtuple's arrays are read into locals before prange: Numba's parallel loops do not
    # write through to arrays reached inside a tuple argument
    flat = E.flat_table(base)
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior, swaps, cover, reuse = history
    res, logw, ranks, moves = out
    for w in prange(run.workers):
        samp, br, rst, work = _worker_state(P, run.pack_size)
        for j in range(w * per, min(count, w * per + per)):
            _sample_once(seed, first + j, rules, pol, E.table_of(flat),
                         Hidden(pool, n_pool, opp_sizes, pile_extra),
                         History(ev, n_ev, prior, swaps, cover, reuse), me, (samp, br), rst,
                         work, (ranks, logw, moves, j, j == w * per))
            B.play_pair(rules, pol, samp, br, me, force_mask, res[j])


@njit(cache=True, parallel=True)
def rollout_discard_block(seed, rules, pol, base, hidden, history, me, cands, first, count, run,
                          out):
    """The discard advisor's rollouts ``first .. first + count - 1``: each samples the hidden
    cards once as :func:`rollout_block` does (the same streams, so the same samples and
    weights), deals the rest of the stock by seat from the next seat on
    (:func:`.engine.seat_stock`), and plays the hand on once per candidate ``cands[k]``:
    ``me`` discards it (:func:`.engine.play_from_discard`) and the play goes on with the next
    seat, offered it (R9). Every candidate sees the same cards and the same later random
    draws (paired). Writes ``out`` (a :data:`Rollouts`; ``res[j, k]`` penalty, out, doubled,
    void, relative of candidate ``k``) at ``j = i - first``."""
    P = rules[E.R_PLAYERS]
    per = (count + run.workers - 1) // run.workers
    flat = E.flat_table(base)  # read into locals before prange (see rollout_block)
    pool, n_pool, opp_sizes, pile_extra = hidden
    ev, n_ev, prior, swaps, cover, reuse = history
    res, logw, ranks, moves = out
    for w in prange(run.workers):
        samp, br, rst, work = _worker_state(P, run.pack_size)
        for j in range(w * per, min(count, w * per + per)):
            _sample_once(seed, first + j, rules, pol, E.table_of(flat),
                         Hidden(pool, n_pool, opp_sizes, pile_extra),
                         History(ev, n_ev, prior, swaps, cover, reuse), me, (samp, br), rst,
                         work, (ranks, logw, moves, j, j == w * per))
            E.seat_stock(samp.gs, (me + 1) % P, P)
            for k in range(cands.shape[0]):
                B.copy_state(samp, br, False)
                E.play_from_discard(rules, pol, br, me, cands[k], False)
                pen, o, dbl, void = B.seat_outcome(rules, br, me)
                res[j, k, 0] = pen
                res[j, k, 1] = o
                res[j, k, 2] = dbl
                res[j, k, 3] = void
                res[j, k, 4] = pen - B._table_mean(rules, br)
