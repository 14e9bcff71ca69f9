"""The turn loop: one turn by phase, a hand, a game of hands with its void replays (R13, R14),
and blocks of games over threads (prange; C3 streams keep them identical on 1 or N).

The names the Python layers read (layout constants, phase kernels) are re-exported here, so
``from kalooki_sim.engine._kernels import engine as E`` serves them all.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from . import plus as NP
from .deal import _deal, _reset_hand, first_dealer
from .discard import (  # noqa: F401  (re-exported for the Python layers)
    _choose_discard,
    _discard_phase,
    discard_card,
)
from .draw import (  # noqa: F401  (re-exported for the Python layers)
    _draw_phase,
    seat_stock,
)
from .melds import _lay_offs, _meld_phase
from .reading import (  # noqa: F401  (re-exported for the Python layers)
    _avail,
    _fill_counts,
    _hand_penalty,
    _hand_size,
    _known_row,
    _opened_others,
    _seen_row,
    need,
)
from .score import (  # noqa: F401  (re-exported for the Python layers)
    _score,
    hand_doubled,
)
from .table import (  # noqa: F401  (re-exported for the Python layers)
    CHART_CELLS,
    DECLINE_CALL,
    DECLINE_TAKE,
    DECLINE_TURNED_CALL,
    DECLINE_TURNED_TAKE,
    EV_BURY,
    EV_CALL,
    EV_DEAL,
    EV_DECLINE,
    EV_DISCARD,
    EV_DRAW,
    EV_JOKER_MOVE,
    EV_LAYOFF,
    EV_MELD,
    EV_MELD_CARD,
    EV_NO_DISCARD,
    EV_OPEN,
    EV_OUT,
    EV_PENALTY,
    EV_REFUSE,
    EV_RESHUFFLE,
    EV_SCORE,
    EV_TAKE,
    EV_TURN,
    EV_TURN_UP,
    EV_UPCARD,
    EV_VOID,
    GS_CALLED_BY,
    GS_COLS,
    GS_CUR,
    GS_DISC_N,
    GS_DISCARDER,
    GS_FIRST_DOWN,
    GS_FORCE_ACTS,
    GS_FORCE_MASK,
    GS_LIVE,
    GS_LOG_N,
    GS_LOG_ON,
    GS_N_MELDS,
    GS_OUT,
    GS_OUT_ON_OPENING,
    GS_RESHUFFLED,
    GS_STALLED,
    GS_STOCK_N,
    GS_TAKEN_BY,
    GS_TURNS,
    GS_VOID,
    JOKER,
    MAX_TURNS,
    N_CODES,
    NPARAM,
    O_ATTEMPT,
    O_ATTEMPTS,
    O_CALLS,
    O_CARDS_LEFT,
    O_COLS,
    O_DEALER,
    O_DOUBLED,
    O_GAME,
    O_HAND,
    O_MEETS,
    O_OPEN_TURN,
    O_OPENED,
    O_OUT_ON_OPENING,
    O_PENALTY,
    O_RESHUFFLED,
    O_SEAT,
    O_STALLED,
    O_TURNS,
    O_VOID,
    O_WENT_OUT,
    P_CALL_DANGER,
    P_CALL_GAIN,
    P_CALL_LIMIT,
    P_CALL_MAX_CARD,
    P_CALL_MAX_HAND,
    P_CALL_MAX_NEED,
    P_CALL_MAX_OPENED,
    P_CALL_MIN_STOCK,
    P_CHART,
    P_CHART0,
    P_DEFEND,
    P_EXACT,
    P_HOLD,
    P_HOLD_DANGER,
    P_HOLD_TURNS,
    P_OUTS,
    P_OUTS_MIXED,
    P_PLAN_DISCARD,
    P_RANDOM,
    P_SEARCH,
    P_SEARCH_MARGIN,
    P_SEARCH_PENALTY,
    P_SEARCH_SCREEN,
    P_TAKE_GAIN,
    PS_BAN_R,
    PS_BAN_S,
    PS_CALLS,
    PS_COLS,
    PS_NC_HVAL,
    PS_NC_VAL0,
    PS_NC_VAL1,
    PS_OPEN_TURN,
    PS_OPENED,
    PS_TOOK,
    PS_TURNS,
    R_CALL_LIMIT,
    R_CARDS,
    R_COLS,
    R_DECKS,
    R_FREE_EXT,
    R_GROUPS,
    R_JOKERS,
    R_JOKERS_OTHERS,
    R_PLAYERS,
    R_RUNS,
    R_TULUKI,
    R_V4,
    R_V6,
    Count,
    Deal,
    Rows,
    Run,
    Solve,
    Table,
    _log,
    copy_table,
    flat_table,
    new_table,
    new_table_jit,
    table_of,
)
from .tuluki import _tuluki_draw_phase


@njit(cache=True, _nrt=False)
def _turn(rules, pol, t):
    """The turn of seat ``gs[GS_CUR]`` on table ``t``: draw and calls (R6, R9), melds (R7),
    lay-offs (R10, R11), the discard (R6, C2). Returns True when the hand is over: someone went
    out (R12), the stock ran out twice (R13) or the engine's turn cap was reached (stalled)."""
    P = rules[R_PLAYERS]
    ps, gs, log = t.ps, t.gs, t.log
    cur = gs[GS_CUR]
    if gs[GS_TURNS] >= MAX_TURNS:
        gs[GS_VOID] = 1
        gs[GS_STALLED] = 1
        _log(log, gs, EV_VOID, -1, -1, 1, 0, 0)
        return True
    gs[GS_TURNS] += 1
    ps[cur, PS_TURNS] += 1
    # C3: each table turn restarts the policy streams at its own counter, so two branches of a
    # hand that differ earlier still share their randomness for the same seat and turn
    for p in range(P):
        t.streams[2 + p, 1] = uint64(gs[GS_TURNS]) << uint64(32)
    gs[GS_TAKEN_BY] = -1
    gs[GS_CALLED_BY] = -1
    _log(log, gs, EV_TURN, cur, -1, ps[cur, PS_TURNS], 0, 0)
    if rules[R_TULUKI] == 1:
        drew = _tuluki_draw_phase(rules, pol, t, cur)
    else:
        drew = _draw_phase(rules, pol, t, cur)
    gs[GS_FORCE_MASK] = 0
    if not drew:
        _log(log, gs, EV_VOID, -1, -1, 0, 0, 0)
        return True
    opened_now = _meld_phase(rules, pol, t, cur)
    if ps[cur, PS_OPENED] == 1 and _hand_size(t.hand[cur]) > 0:
        _lay_offs(rules, pol, t, cur)
    _discard_phase(rules, pol, t, cur)
    return _end_turn(rules, t, cur, opened_now)


@njit(cache=True, _nrt=False)
def _end_turn(rules, t, cur, opened_now):
    """After seat ``cur``'s discard: out with an empty hand (R12; on the turn it opened,
    ``opened_now``, the others pay double), else the next seat is on. True when out."""
    gs = t.gs
    if _hand_size(t.hand[cur]) == 0:
        gs[GS_OUT] = cur
        gs[GS_OUT_ON_OPENING] = 1 if opened_now else 0
        _log(t.log, gs, EV_OUT, cur, -1, 1 if opened_now else 0, 0, 0)
        return True
    gs[GS_CUR] = (cur + 1) % rules[R_PLAYERS]
    return False


@njit(cache=True, _nrt=False)
def one_turn(rules, pol, t):
    """:func:`_turn` on table ``t``; True when the hand is over."""
    return _turn(rules, pol, t)


@njit(cache=True, _nrt=False)
def score_hand(rules, t, deal, out, row0):
    """:func:`_score` of ``deal`` on table ``t`` into ``out[row0:row0+P]``."""
    _score(rules, t, deal, out, row0)


@njit(cache=True, _nrt=False)
def play_out(rules, pol, t):
    """Play the hand on table ``t`` (a :func:`new_table`) from its current state to its end;
    the score is left to the caller."""
    while not _turn(rules, pol, t):
        pass


@njit(cache=True, _nrt=False)
def play_from_discard(rules, pol, t, seat, card, opened_now):
    """Seat ``seat``, at its discard (drawn, melds and lay-offs done), lets ``card`` go
    (:func:`.discard.discard_card`, a natural it holds: R6, C2); the turn ends as
    :func:`_turn` ends it and the hand is played on to its end (:func:`play_out`)."""
    discard_card(t, seat, card)
    if not _end_turn(rules, t, seat, opened_now):
        play_out(rules, pol, t)


@njit(cache=True, _nrt=False)
def start_hand(rules, t, deal):
    """Reset table ``t``, key the streams of ``deal`` (a :data:`.table.Deal`) and deal (R2,
    C1); the next player is on."""
    P = rules[R_PLAYERS]
    _reset_hand(rules, t, deal)
    NP.clear_plans(t.count.scratch)
    _deal(rules, t, deal.dealer)
    t.gs[GS_CUR] = (deal.dealer + 1) % P


@njit(cache=True, _nrt=False)
def play_hand(deal, rules, pol, t, out, row0):
    """Play one hand attempt ``deal`` on table ``t``; write one row per seat into
    ``out[row0:row0+P]``; return void.

    Phases: reset and streams, the deal (R2, C1), then turns (:func:`_turn`) until a hand is
    empty (R12) or the stock is exhausted twice (R13), then the score (R12).
    """
    start_hand(rules, t, deal)
    play_out(rules, pol, t)
    _score(rules, t, deal, out, row0)
    return t.gs[GS_VOID]


@njit(cache=True, _nrt=False)
def hand_done(void, stalled, attempt, max_replays):
    """R13, R14: a hand is over when scored; a void one is dealt again by the same dealer, up to
    ``max_replays`` times. A stalled hand (the engine's turn cap, not a rule) is not replayed:
    the policy, not the cards, stopped it."""
    return void == 0 or stalled == 1 or attempt > max_replays


@njit(cache=True, _nrt=False)
def keep_attempt(hrows, P, i, out, off, n, cap):
    """Copy the ``P`` rows of the attempt just scored (``hrows``) to ``out[off + n:]``, within
    ``cap``, with ``O_GAME = i``; returns the rows counted so far (``n + P``)."""
    for p in range(P):
        if n < cap:
            for j in range(O_COLS):
                out[off + n, j] = hrows[p, j]
            out[off + n, O_GAME] = i
        n += 1
    return n


@njit(cache=True, _nrt=False)
def after_attempt(void, t, attempt, run, hrows, i, rows, n):
    """After attempt ``attempt`` of a hand of game ``i`` (scored into ``hrows``): is the hand
    over (:func:`hand_done`), and the rows kept so far, the attempt's added when it was scored
    or ``run.keep_voids`` (:func:`keep_attempt` into ``rows``)."""
    done = hand_done(void, t.gs[GS_STALLED], attempt + 1, run.max_replays)
    if done or run.keep_voids:
        n = keep_attempt(hrows, t.ps.shape[0], i, rows.out, rows.offsets[i], n, rows.caps[i])
    return done, n


@njit(cache=True, _nrt=False)
def mark_attempts(out, off, first, n, cap, attempts):
    """``O_ATTEMPTS`` of a finished hand's rows ``first .. n - 1`` (within ``cap``)."""
    for k in range(first, min(n, cap)):
        out[off + k, O_ATTEMPTS] = attempts


@njit(cache=True, _nrt=False)
def _play_game(seed, i, game, hand_nos, rules_by_hand, pol, run, t, hrows, rows):
    """Every hand of game ``game`` (block index ``i``), void ones replayed (R13, R14, up to
    ``run.max_replays``), the deal passing left after each finished hand. Rows go to
    ``rows.out[off : off + cap]`` (``off``, ``cap``: ``rows.offsets[i]``, ``rows.caps[i]``);
    returns the rows the game needs (more than ``cap`` means the caller must play it again with
    more room)."""
    P = rules_by_hand[0, R_PLAYERS]
    dealer = first_dealer(seed, game, P)
    n = 0
    for h in range(hand_nos.shape[0]):
        attempt = 0
        first = n
        while True:
            void = play_hand(Deal(seed, game, hand_nos[h], attempt, dealer), rules_by_hand[h],
                             pol, t, hrows, 0)
            done, n = after_attempt(void, t, attempt, run, hrows, i, rows, n)
            attempt += 1
            if done:
                break
        mark_attempts(rows.out, rows.offsets[i], first, n, rows.caps[i], attempt)
        dealer = (dealer + 1) % P
    return n


@njit(cache=True, parallel=True)
def play_block(seed, games, hand_nos, rules_by_hand, pol, run, rows):
    """Play ``len(games)`` games (each a list of hands) across ``run.workers`` workers
    (``run``: a :data:`.table.Run`).

    Game ``i`` has id ``games[i]`` and plays the hands ``hand_nos`` in order (one hand for
    :func:`play_hands`, the schedule for :func:`play_games`). Its rows (scored attempts, plus
    void ones with ``run.keep_voids``) go to ``rows.out[offsets[i] : offsets[i] + caps[i]]``
    (``rows``: a :data:`.table.Rows`), with ``O_GAME = i``; ``rows.n_rows[i]`` receives the rows
    it needed. Work is split by game, so output does not depend on workers. Writes rows.out,
    rows.n_rows.
    """
    n = games.shape[0]
    P = rules_by_hand[0, R_PLAYERS]
    per = (n + run.workers - 1) // run.workers
    # a namedtuple's arrays are read into locals before prange: Numba's parallel loops do not
    # write through to arrays reached inside a tuple argument
    out, offsets, caps, n_rows = rows.out, rows.offsets, rows.caps, rows.n_rows
    for w in prange(run.workers):
        t = new_table_jit(P, run.pack_size, 1)
        hrows = np.zeros((P, O_COLS), np.int32)
        for i in range(w * per, min(n, w * per + per)):
            n_rows[i] = _play_game(seed, i, games[i], hand_nos, rules_by_hand, pol, run, t,
                                   hrows, Rows(out, offsets, caps, n_rows))
