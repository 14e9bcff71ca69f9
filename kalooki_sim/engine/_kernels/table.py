"""The compiled hand engine (R2, R6-R14, C1-C3).

One hand is played by :func:`play_hand` on preallocated arrays; nothing is allocated per turn.
Layouts (all ``int64`` unless said):

* ``hand[2P + 4, 53]``: card counts per seat (codes as in :mod:`kalooki_sim.game.cards`); row
  ``P`` (:func:`_seen_row`) counts the dead cards, those that can never come from the stock:
  on the table, or in the discard pile once its one reshuffle (R13) is spent;
  rows ``P + 1`` to ``P + 3`` are scratch for the policies (availability for the needed count,
  for live outs, and per-card counts of a discard choice); row ``P + 4 + p``
  (:func:`_known_row`) counts the cards of seat ``p``'s hand the whole table knows of (taken
  or called from the pile and not yet seen to leave it).
* ``ps[P, PS_COLS]``: per-seat state, columns ``PS_*``.
* ``gs[GS_COLS]``: hand state, columns ``GS_*``.
* ``stock``, ``disc``: the stock (top = last) and the discard pile (top = last).
* ``melds[MAX_MELDS, MELD_COLS]``: melds on the table, records of
  :mod:`kalooki_sim.game._kernels.layoff`.
* ``log[MAX_LOG, 7]``: the move log when ``gs[GS_LOG_ON]``; rows ``(event, seat, card, a, b, c,
  d)`` with events ``EV_*`` documented in :mod:`kalooki_sim.engine.trace`.
* ``pol[P, NPARAM]`` (float64): each seat's policy parameters ``P_*``; with a search seat
  (``P_SEARCH > 0``) ``pol`` has ``2P`` rows, row ``P + s`` the player model of seat ``s``'s
  rollouts (:mod:`.search`); the other kernels read rows ``0 .. P-1`` only.
* ``rules``: ``R_*`` fields of the rules, flattened.

This module holds those layouts (column indices, sizes), the move log writer and the
table's allocation; the phases of a hand live in ``deal``, ``draw`` (and ``tuluki``),
``melds``, ``discard`` and ``score``, the turn loop in ``engine``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...game.kernels import OPT_COLS, SCRATCH
from ...game.kernels import layoff as L
from . import needed as NK

#: the meld solver's workspace (:func:`kalooki_sim.game._kernels.solver.solve_kernel`): run
#: options per suit, scratch, and the chosen runs and groups
Solve = namedtuple("Solve", ["opts", "scratch", "runs", "groups"])
#: the exact needed count's workspace (:mod:`.needed`, :mod:`.plus`): a hand's counts by suit
#: and rank (``cnt[4, 14]``, also the meld solver's), run options and scratch (which holds the
#: seats' plans, :func:`.plus.keep_plan`)
Count = namedtuple("Count", ["cnt", "opts", "scratch"])
#: one worker's table, the whole state of a hand and the workspaces that play it: ``hand``,
#: ``ps``, ``gs``, ``stock``, ``disc``, ``melds``, ``log`` (layouts above), ``solve``
#: (:data:`Solve`), ``count`` (:data:`Count`), ``tmp`` (one meld record) and ``streams``
#: (``uint64[P + 2, 2]``: the stock's, the reshuffle's and each seat's policy stream, C3)
Table = namedtuple("Table", ["hand", "ps", "gs", "stock", "disc", "melds", "log", "solve",
                             "count", "tmp", "streams"])
#: the identity of one hand attempt: the run's seed, the game, the hand (contract), the attempt
#: (R13's replays) and its dealer (R2)
Deal = namedtuple("Deal", ["seed", "game", "hand_no", "attempt", "dealer"])
#: how a block runs: the pack's size, the workers (threads), R13's replays allowed and whether
#: the rows of void attempts are kept
Run = namedtuple("Run", ["pack_size", "workers", "max_replays", "keep_voids"])
#: where a block's games write their score rows: game ``i``'s to
#: ``out[offsets[i] : offsets[i] + caps[i]]``, the rows it needed to ``n_rows[i]``
Rows = namedtuple("Rows", ["out", "offsets", "caps", "n_rows"])

JOKER = 52
N_CODES = 53
MAX_MELDS = 160
MAX_LOG = 65536  # room for a stalled hand: MAX_TURNS turns with every offer logged
# run options per suit in a worker's solver workspace: room for 4 jokers beside 13 naturals of a
# suit; a hand that still overflows it (solver returns -2) is treated as unable to open
SOLVER_CAPACITY = 8192
NO_WAY_RANK = 1000  # exact needed count of a hand no available card completes (see _needed)
MAX_TURNS = 3000  # engine safeguard: a hand longer than this is declared void (stalled)

# per-seat state
# PS_TOOK: bit mask of the ranks of the naturals the seat took or called this hand (public).
# PS_NC_*: a two-entry memo of the seat's exact needed count (:func:`.memo._needed_memo`), keyed by
# a hash of its hand and the dead cards; a value of -1 is an empty entry. PS_NC_HKEY /
# PS_NC_HVAL: the last count remembered and a hash of its hand alone (dead cards only grow in
# a hand, so the same hand's count is at least that).
(PS_OPENED, PS_CALLS, PS_OPEN_TURN, PS_TURNS, PS_BAN_R, PS_BAN_S, PS_MEETS, PS_TOOK,
 PS_NC_KEY0, PS_NC_VAL0, PS_NC_KEY1, PS_NC_VAL1, PS_NC_NEXT, PS_NC_HKEY, PS_NC_HVAL) = range(15)
PS_COLS = 15
# hand state
# GS_LIVE: the top discard is on offer under R9 (after a discard or the upcard, C1; not after a
# turn that ended with no discard, C2, nor once taken or called); GS_DISCARDER: who put it there.
# GS_CUR: whose turn is next. GS_FORCE_MASK / GS_FORCE_ACTS: seats whose take-or-call decision
# on the next offer is forced (bit set) to act (bit set) or pass, for branching (call values,
# the advisor); cleared after the draw phase. GS_TAKEN_BY / GS_CALLED_BY: who took / called in
# the current turn (-1: nobody). GS_SEAT_STOCK: the stock is dealt by seat (see
# :func:`seat_stock`), from a stock of GS_SEAT_TOP cards, the queues starting at GS_SEAT_FIRST;
# GS_SEAT_DRAWS + p counts seat p's draws from it.
(GS_STOCK_N, GS_DISC_N, GS_RESHUFFLED, GS_VOID, GS_N_MELDS, GS_LOG_N, GS_LOG_ON, GS_OUT,
 GS_FIRST_DOWN, GS_STALLED, GS_TURNS, GS_DOUBLED, GS_OUT_ON_OPENING, GS_LIVE,
 GS_DISCARDER, GS_CUR, GS_FORCE_MASK, GS_FORCE_ACTS, GS_TAKEN_BY, GS_CALLED_BY,
 GS_SEAT_STOCK, GS_SEAT_TOP, GS_SEAT_FIRST, GS_SEAT_DRAWS) = range(24)
GS_COLS = GS_SEAT_DRAWS + 8
# rules vector
# (R_TULUKI: V9, the two-player game's discard step, :func:`_tuluki_draw_phase`)
(R_PLAYERS, R_CARDS, R_GROUPS, R_RUNS, R_CALL_LIMIT, R_FREE_EXT, R_JOKERS_OTHERS, R_V6,
 R_V4, R_DECKS, R_JOKERS, R_TULUKI) = range(12)
R_COLS = 12
# policy parameters (P_CALL_LIMIT < 0: the rules' limit), documented on policies.Policy;
# P_SEARCH: the rollouts of a search seat's take-or-call decisions (0: it does not search),
# P_SEARCH_MARGIN: the points by which acting must win, P_SEARCH_SCREEN: only offers that cut
# the cards needed are searched, P_SEARCH_PENALTY: own penalty as the objective, not the
# relative one (:mod:`.search`); P_OUTS: the expert discard's weight of one live out in penalty
# points (0: outs unused, :func:`.discard._expert_discard`); P_OUTS_MIXED: outs are weighed in
# contracts of groups and runs too (else only in all-group and all-run ones); P_PLAN_DISCARD:
# the expert discard tries the cards its plan leaves free first (:func:`.discard._plan_discard`);
# P_CHART: the seat follows a chart at its takes and calls, whose cells' codes
# (1 act, -1 pass, 0 its own answer; :mod:`kalooki_sim.engine.charts`) are the columns from
# P_CHART0 on, CHART_CELLS of them (:func:`.draw._chart_answer` reads them)
(P_RANDOM, P_CALL_LIMIT, P_CALL_GAIN, P_TAKE_GAIN, P_HOLD, P_HOLD_TURNS, P_EXACT,
 P_CALL_MAX_NEED, P_CALL_MIN_STOCK, P_CALL_MAX_CARD, P_CALL_DANGER, P_HOLD_DANGER,
 P_DEFEND, P_CALL_MAX_OPENED, P_CALL_MAX_HAND, P_SEARCH, P_SEARCH_MARGIN, P_SEARCH_SCREEN,
 P_SEARCH_PENALTY, P_OUTS, P_OUTS_MIXED, P_PLAN_DISCARD, P_CHART) = range(23)
# a chart's cells: 9 contracts x take/call x 9 levels needed before x 9 after x 3 stock bands x
# opened or not, in that order (C order, :func:`kalooki_sim.engine.charts.cell_index`)
CHART_LEVELS = 9  # 0-5, 6+ after a cut, 6+, cannot lay it
CHART_BANDS = 3
CHART_CELLS = 9 * 2 * CHART_LEVELS * CHART_LEVELS * CHART_BANDS * 2
P_CHART0 = 23
NPARAM = P_CHART0 + CHART_CELLS
# log events
(EV_DEAL, EV_UPCARD, EV_TURN, EV_TAKE, EV_CALL, EV_PENALTY, EV_DRAW, EV_RESHUFFLE, EV_OPEN,
 EV_MELD, EV_MELD_CARD, EV_LAYOFF, EV_JOKER_MOVE, EV_DISCARD, EV_OUT, EV_VOID,
 EV_SCORE, EV_DECLINE, EV_NO_DISCARD, EV_TURN_UP, EV_REFUSE, EV_BURY) = range(1, 23)
# EV_DECLINE's ``a``: what was passed on (R9 take, R9 call; V9 the turned card by B, then by A)
DECLINE_TAKE, DECLINE_CALL, DECLINE_TURNED_TAKE, DECLINE_TURNED_CALL = range(4)
LOG_COLS = 7

# result columns (int32), one row per seat per hand attempt kept; O_GAME is the game's index in
# the block, O_ATTEMPTS the attempts its hand took in all (R13), O_DOUBLED per seat (a loser of a
# doubled hand, R12)
(O_GAME, O_HAND, O_ATTEMPT, O_SEAT, O_DEALER, O_MEETS, O_OPENED, O_OPEN_TURN, O_CALLS,
 O_WENT_OUT, O_OUT_ON_OPENING, O_DOUBLED, O_CARDS_LEFT, O_PENALTY, O_TURNS, O_RESHUFFLED,
 O_VOID, O_STALLED, O_ATTEMPTS) = range(19)
O_COLS = 19


@njit(cache=True, _nrt=False)
def _log(log, gs, ev, seat, card, a, b, c, d=0):
    if gs[GS_LOG_ON] == 0:
        return
    n = gs[GS_LOG_N]
    if n < log.shape[0]:
        log[n, 0] = ev
        log[n, 1] = seat
        log[n, 2] = card
        log[n, 3] = a
        log[n, 4] = b
        log[n, 5] = c
        log[n, 6] = d
    gs[GS_LOG_N] = n + 1


def new_table(players, pack_size, log_on=False):
    """Preallocated arrays for one worker, a :class:`Table` (see the module docstring for the
    layouts)."""
    t = new_table_jit(players, pack_size, MAX_LOG if log_on else 1)
    t.gs[GS_LOG_ON] = 1 if log_on else 0
    return t


@njit(cache=True)
def flat_table(t):
    """Table ``t``'s arrays as one flat tuple, for a parallel loop that reads a table from
    outside the loop (Numba's parallel loops cannot take a nested tuple in); :func:`table_of`
    rebuilds it inside."""
    return (t.hand, t.ps, t.gs, t.stock, t.disc, t.melds, t.log, t.solve.opts, t.solve.scratch,
            t.solve.runs, t.solve.groups, t.count.cnt, t.count.opts, t.count.scratch, t.tmp,
            t.streams)


@njit(cache=True)
def table_of(f):
    """The :data:`Table` of :func:`flat_table`'s tuple ``f`` (the same arrays)."""
    return Table(f[0], f[1], f[2], f[3], f[4], f[5], f[6], Solve(f[7], f[8], f[9], f[10]),
                 Count(f[11], f[12], f[13]), f[14], f[15])


def copy_table(t):
    """A copy of table ``t``, every array copied (for the Python side: tests and tools)."""
    return t._make(copy_table(x) if isinstance(x, tuple) else x.copy() for x in t)


@njit(cache=True)
def new_table_jit(players, pack_size, log_rows):
    """The worker's :class:`Table`; the needed count's ``cnt`` is the meld solver's too."""
    cnt = np.zeros((4, 14), np.int64)
    return Table(
        np.zeros((2 * players + 4, N_CODES), np.int64),
        np.zeros((players, PS_COLS), np.int64),
        np.zeros(GS_COLS, np.int64),
        np.zeros(pack_size, np.int64),
        np.zeros(pack_size, np.int64),
        np.zeros((MAX_MELDS, L.MELD_COLS), np.int64),
        np.zeros((log_rows, LOG_COLS), np.int64),
        Solve(np.zeros((4, SOLVER_CAPACITY, OPT_COLS), np.int64),
              np.zeros(SCRATCH + 64, np.int64),
              np.zeros((4, 3), np.int64),
              np.zeros(14, np.int64)),
        Count(cnt,
              np.zeros((4, NK.OPT_ROWS, NK.N_COLS), np.int64),
              np.zeros(NK.SCRATCH, np.int64)),
        np.zeros(L.MELD_COLS, np.int64),
        np.zeros((players + 2, 2), np.uint64),
    )
