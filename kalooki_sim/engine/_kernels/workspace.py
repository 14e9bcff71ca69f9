"""The workspace of :mod:`.needed`: the columns of a run option, the offsets of
the scratch vector and two bit helpers, shared by the search (:mod:`.needed`), its run
listings (:mod:`.listing`) and the one-card moves (:mod:`.plus`).

``opts[4, OPT_ROWS, N_COLS]`` (int64): run options per suit, columns ``N_*``, cheapest first,
from row ``W_OBASE`` of the suit.
``scratch[SCRATCH]`` (int64): offsets ``W_*`` below. Nothing is allocated in the search.
"""

from __future__ import annotations

from numba import njit

JOKER = 52
# columns of a run option
N_NADD, N_JOK, N_W, N_FPH, N_FPA, N_KH, N_KA, N_KEY = range(8)
N_COLS = 8
SKEYS = 7 * 3  # sort keys of window options: (added + jokers) * 3 + jokers
#: options per suit: 11 windows x 8 masks, or 2 x 610 complete-suit masks (V6)
CAPACITY = 11 * 8 + 2 * 610 + 8
TMAX = 8  # jokers the bound tracks for the runs still open (2 per 4-card window)
GMAX = 14  # groups tracked (g <= 13)
# scratch offsets
W_H, W_A = 0, 14  # per rank, whole hand
W_h, W_a = 28, 42  # per rank, after the runs chosen so far
W_C0, W_C1 = 56, 70  # per rank group costs
W_NOPT, W_PERM = 84, 88
W_NS = 92  # [4 suits, 3]: least naturals to add for a run of the suit with <= t jokers
W_R = W_NS + 12  # [5, 5, TMAX + 1]: least naturals for k runs from open suits d..3, <= t jokers
W_G0 = W_R + 5 * 5 * (TMAX + 1)  # root group costs by jokers, all ranks
W_G1 = W_G0 + GMAX  # the same for g - 1 groups
W_GL = W_G1 + GMAX  # [5 levels, GMAX]: group costs after the runs of the first levels
W_IDX = W_GL + 5 * GMAX  # search stack: option index per level
W_ST = W_IDX + 5  # [5, 3]: (naturals added, jokers, runs) per level
W_GI = W_ST + 15  # level whose group costs stand for this level
W_CNT = W_GI + 5  # counting-sort buckets
W_TMP = W_CNT + SKEYS + 1  # candidate options before sorting, [CAPACITY, N_COLS]
W_MASKS = W_TMP + CAPACITY * N_COLS  # [4 suits, 2]: held and addable position masks (runs)
# the hand's H, A, NS and suit masks, kept for :func:`root_moved`
W_SAVE = W_MASKS + 8
W_R3 = W_SAVE + 14 + 14 + 12 + 8  # [4 suits, 5, TMAX + 1]: runs from the other three suits
W_MEMO = W_R3 + 4 * 5 * (TMAX + 1)  # [2, 14]: per rank, the count one card off / on (all groups)
W_ROOT = W_MEMO + 28  # the kept hand's count (all runs): what a card that moves no run keeps
W_LEAF = W_ROOT + 1  # [4 suits, 4] + 1: the last leaf's runs (:func:`_keep_leaf`), and "set"
W_PLANS = W_LEAF + 20  # [8 seats, 20]: each seat's last plan, a W_LEAF copy
LC_K = 8  # listings kept per suit (:func:`_list_suit`)
#: a listing's key (5) and its count (pruned, :func:`_prune`); its options (11 x 8 at
#: most) stay in the suit's rows of ``opts``, from ``CAPACITY + slot * LC_ROWS``
LC_ENTRY = 6
LC_ROWS = 11 * 8
#: rows of ``opts`` per suit: the searched listing of V6's complete suits from row 0, the
#: kept window listings after it (the search reads a suit's options from ``W_OBASE``)
OPT_ROWS = CAPACITY + LC_K * LC_ROWS
W_LCACHE = W_PLANS + 8 * 20  # [4 suits, LC_K, LC_ENTRY]
W_LNEXT = W_LCACHE + 4 * LC_K * LC_ENTRY  # per suit, the entry to replace next
W_SKEY = W_LNEXT + 4  # per suit, its search order key (:func:`_suit_rank`)
W_OBASE = W_SKEY + 4  # per suit, the row of ``opts`` its searched options start at
W_RSTAMP = W_OBASE + 4  # the last stamp given out by :func:`.plus.prepare_plus`
W_R3OK = W_RSTAMP + 1  # per suit, the stamp its R3 table was built under (all-run contracts)
# per suit, the stamp of the other suits' cheapest runs (and the jokers) its R3 table and
# its moved counts are worked out from: kept while those stand (all-run contracts)
W_SSTAMP = W_R3OK + 4
W_RKEY = W_SSTAMP + 4  # the jokers held, addable and the runs of the kept tables
W_RMEMO = W_RKEY + 3  # [4 suits, 6 ** 3, 2]: (stamp, count) per suit's cheapest runs moved
W_KINDS = W_RMEMO + 4 * 216 * 2  # [8]: the kept hand's ranks per kind (all groups)
# per search level: the last option's (naturals, jokers, width), its bound with the level's
# group costs, and 1 while its naturals are taken (:func:`.needed._search`)
W_LB = W_KINDS + 8
# all-run counts by the suits' cheapest runs and the jokers: [RUNS_MEMO, 2] of (key + 1, count)
RUNS_MEMO = 1024
W_RUNS_MEMO = W_LB + 3 * 5
W_SAVE0 = W_RUNS_MEMO + 2 * RUNS_MEMO  # a whole hand's W_SAVE tables, its candidates' base
# a suit's cheapest runs by its masks (:func:`.needed.suit_runs`): [RUNS_OF, 2] of
# (key + 1, the three counts in bytes)
RUNS_OF = 4096
W_RUNS_OF = W_SAVE0 + 48
# a listing's cheapest option touching no relevant rank per joker count, and its row
# (:func:`.listing._list_windows`)
W_FREE = W_RUNS_OF + 2 * RUNS_OF
# a deepening's listing, made suit by suit as the search first reaches it
# (:func:`.needed._ensure_listed`): relevant held ranks, addable ranks, jokers to be had
W_LAZY = W_FREE + 6
# the root's run row R[0, r, t] by the suits' cheapest runs and the runs:
# [ROOT_RUNS, 2] of (key + 1, the row in 5-bit fields) (:func:`.needed._root_runs`)
ROOT_RUNS = 1024
W_ROOT_RUNS = W_LAZY + 3
SCRATCH = W_ROOT_RUNS + 2 * ROOT_RUNS
RANKS13 = 0x3FFE  # rank bits 1..13
#: what a search lists per suit: 4-card windows (R4), or V6's complete suits alone
WINDOWS, COMPLETE = 0, 2


@njit(cache=True, _nrt=False, inline="always")
def _popcount(x):
    """Set bits of a non-negative int."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _ranks_of(pos):
    """Position mask (bits 1..14) to rank mask (bits 1..13): position 14 is the ace."""
    return (pos & RANKS13) | ((pos >> 13) & 2)


@njit(cache=True, _nrt=False, inline="always")
def _memo_slot(scratch, base, size, key):
    """A direct-mapped memo of ``size`` (a power of two) two-word slots ``(key + 1, value)``
    at ``base`` of ``scratch``, for a key >= 0: ``(offset of key's slot, whether it holds
    key)``. A new key simply takes the slot (:func:`_memo_store`)."""
    h = (key ^ (key >> 29)) * 0x9E3779B1
    o = base + 2 * ((h >> 19) & (size - 1))
    return o, scratch[o] == key + 1


@njit(cache=True, _nrt=False, inline="always")
def _memo_store(scratch, o, key, value):
    """Remember ``value`` for ``key`` in the slot at ``o`` (:func:`_memo_slot`)."""
    scratch[o] = key + 1
    scratch[o + 1] = value


@njit(cache=True, _nrt=False, inline="always")
def _opt_row(scratch, s, i):
    """The row of ``opts[s]`` that holds option ``i`` of suit ``s``'s searched listing (its
    rows start at ``W_OBASE``: row 0, or a kept listing's own rows)."""
    return scratch[W_OBASE + s] + i
