"""The count of a hand one card on or off: what the expert's keep check and outs
discard ask of every candidate, and the outs of a position.

In all-group and all-run contracts (not V6's complete suit) that count is the search's root
bound of :mod:`.needed`, and a card changes one rank and one suit of the tables it is built
from: :func:`prepare_plus` keeps the hand's tables, :func:`root_moved` moves them by one card
(all-run contracts from a table of the other three suits). Elsewhere :func:`needed_plus` counts
the hand plus a card, and :func:`outs_kernel` every card.
"""

from __future__ import annotations

from numba import njit

from .groups import group_costs, groups_of_kinds, kind_of
from .needed import (
    NO_WAY,
    _cheapest_runs_masks,
    _deepen,
    _hand_tables,
    _root,
    group_at_bound,
    needed_kernel,
    needed_upto,
    rank_total,
    rank_totals,
    suit_runs,
    window_minima,
)
from .workspace import (
    GMAX,
    JOKER,
    RANKS13,
    TMAX,
    W_A,
    W_G0,
    W_GL,
    W_H,
    W_KINDS,
    W_LEAF,
    W_MASKS,
    W_MEMO,
    W_NS,
    W_PLANS,
    W_R3,
    W_R3OK,
    W_RKEY,
    W_RMEMO,
    W_ROOT,
    W_RSTAMP,
    W_SAVE,
    W_SAVE0,
    W_SSTAMP,
    WINDOWS,
    W_a,
    W_h,
    _popcount,
)


@njit(cache=True, _nrt=False)
def prepare_plus(counts, jokers, g, r, v6, avail, scratch):
    """Keep the hand's per-rank totals and cheapest runs for :func:`root_moved` (one card
    added or taken out changes one rank and one suit of them)."""
    _hand_tables(counts, jokers, r, avail, scratch)
    _keep_tables(counts, jokers, g, r, v6, avail, scratch)


@njit(cache=True, _nrt=False)
def prepare_moved(counts, jokers, g, r, v6, avail, scratch, x, d):
    """:func:`prepare_plus` of a hand one natural ``x`` on (``d = 1``) or off (-1) a hand
    whose tables :func:`keep_whole` kept; ``counts``, ``avail`` as after the move. Its tables
    are the kept ones moved by the card (an outs discard scans candidates, each
    one card off the hand)."""
    _tables_moved(counts, jokers, r, avail, scratch, x, d, W_SAVE0)
    _keep_tables(counts, jokers, g, r, v6, avail, scratch)


@njit(cache=True, _nrt=False)
def keep_whole(scratch):
    """Keep the tables :func:`prepare_plus` kept as the base of :func:`prepare_moved`."""
    for i in range(48):
        scratch[W_SAVE0 + i] = scratch[W_SAVE + i]


@njit(cache=True, _nrt=False)
def _keep_tables(counts, jokers, g, r, v6, avail, scratch):
    """:func:`prepare_plus` once the hand's tables are in ``scratch``."""
    all_runs = runs_only(g, r, v6)
    if all_runs:
        _restamp(jokers, avail[JOKER], r, scratch)
    else:
        scratch[W_RKEY + 2] = -1  # the kept tables are no all-run contract's
    for k in range(1, 14):
        scratch[W_SAVE + k] = scratch[W_H + k]
        scratch[W_SAVE + 14 + k] = scratch[W_A + k]
    for i in range(12):
        scratch[W_SAVE + 28 + i] = scratch[W_NS + i]
    for i in range(8):
        scratch[W_SAVE + 40 + i] = scratch[W_MASKS + i]  # set by _hand_tables when r > 0
    for i in range(28):
        scratch[W_MEMO + i] = -1  # a new hand: root_moved's counts per rank are unknown
    if r == 0:
        for i in range(8):
            scratch[W_KINDS + i] = 0
        for k in range(1, 14):
            scratch[W_KINDS + kind_of(scratch[W_H + k], scratch[W_A + k])] += 1
    if g == 0 and r > 0:
        if not all_runs:
            scratch[W_ROOT] = _root(g, r, 3, jokers, avail[JOKER], scratch)
        else:
            # the root from suit 0's runs and the other three suits' table (no run table);
            # the other suits' tables are built when a card first asks (_runs_only_moved)
            if scratch[W_R3OK] != scratch[W_SSTAMP]:
                _runs_without(scratch, 0, r)
                scratch[W_R3OK] = scratch[W_SSTAMP]
            scratch[W_ROOT] = _runs_moved(scratch, 0, r, jokers, avail[JOKER], scratch[W_NS],
                                          scratch[W_NS + 1], scratch[W_NS + 2])


@njit(cache=True, _nrt=False, inline="always")
def runs_only(g, r, v6):
    """All runs, not V6's complete suit: the contracts whose count is the root bound from the
    suits' cheapest runs and the jokers alone (:func:`_runs_only_moved`)."""
    return g == 0 and r > 0 and not (v6 and r == 3)


@njit(cache=True, _nrt=False)
def _restamp(jokers, aj, r, scratch):
    """New stamps for the suits whose R3 table and moved counts (:func:`_runs_only_moved`)
    the new hand's cheapest runs (``NS``, not yet kept) change: a suit's are worked out from
    the other three suits' cheapest runs and the jokers, so they stand while those do. A hand
    one card on or off (the next candidate, the next turn) changes one suit at most, and then
    only the other three suits' stamps move."""
    changed = 0
    for s in range(4):
        for u in range(3):
            if scratch[W_NS + 3 * s + u] != scratch[W_SAVE + 28 + 3 * s + u]:
                changed |= 1 << s
    same = (scratch[W_RKEY] == jokers and scratch[W_RKEY + 1] == aj
            and scratch[W_RKEY + 2] == r)
    for s in range(4):
        if not same or (changed & ~(1 << s)) != 0:
            scratch[W_RSTAMP] += 1
            scratch[W_SSTAMP + s] = scratch[W_RSTAMP]
    scratch[W_RKEY] = jokers
    scratch[W_RKEY + 1] = aj
    scratch[W_RKEY + 2] = r


@njit(cache=True, _nrt=False)
def _runs_without(scratch, s, r, ns=W_NS):
    """``R3[s, k, t]``: least naturals for ``k`` runs of the three suits other than ``s``
    with at most ``t`` jokers (``NS`` at ``ns``): a knapsack over those suits, filled for
    ``k <= r`` (the contract's runs: all that is read) and ``t <= 2k`` (a run takes at most
    two jokers; readers clamp ``t``)."""
    # one body per contract's runs: constant loop bounds, which the compiler unrolls
    if r <= 1:
        _runs_without_upto(scratch, s, 1, ns)
    elif r == 2:
        _runs_without_upto(scratch, s, 2, ns)
    elif r == 3:
        _runs_without_upto(scratch, s, 3, ns)
    else:
        _runs_without_upto(scratch, s, 4, ns)


@njit(cache=True, _nrt=False, inline="always")
def _runs_without_upto(scratch, s, kmax, ns):
    """:func:`_runs_without` for ``k <= kmax``."""
    base = W_R3 + s * 5 * (TMAX + 1)
    for k in range(kmax + 1):
        for t in range(TMAX + 1):
            scratch[base + k * (TMAX + 1) + t] = 0 if k == 0 else NO_WAY
    done = 0
    for q in range(4):
        if q == s:
            continue
        done += 1
        for k in range(min(done, kmax), 0, -1):
            for t in range(2 * k + 1):
                o = base + k * (TMAX + 1) + t
                v = scratch[o]
                for u in range(min(t, 2) + 1):
                    a = scratch[ns + q * 3 + u]
                    b = scratch[base + (k - 1) * (TMAX + 1) + min(t - u, 2 * k - 2)]
                    if a < NO_WAY and b < NO_WAY and a + b < v:
                        v = a + b
                scratch[o] = v


@njit(cache=True, _nrt=False)
def _runs_moved(scratch, s, r, jokers, aj, f0, f1, f2):
    """The root bound of an all-run contract (no groups) when suit ``s``'s cheapest runs are
    ``f0``, ``f1``, ``f2`` (0, 1, 2 jokers) and the other suits' are the hand's: ``r`` runs,
    suit ``s`` in them or not (``R3``), the jokers beyond the hand's bought from the pack (at
    most ``aj``). What :func:`_root` gives, from one suit's work."""
    base = W_R3 + s * 5 * (TMAX + 1)
    best = NO_WAY
    for t in range(min(2 * r, TMAX) + 1):
        extra = t - jokers if t > jokers else 0
        if extra > aj:
            continue
        v = min(scratch[base + r * (TMAX + 1) + min(t, 2 * r)],
                _runs_through(scratch, s, r, t, f0, f1, f2))
        if v < NO_WAY and v + extra < best:
            best = v + extra
    return best


@njit(cache=True, _nrt=False, inline="always")
def _runs_through(scratch, s, r, t, f0, f1, f2):
    """Least naturals for ``r`` runs with at most ``t`` jokers, one of them of suit ``s`` at
    ``f0``, ``f1``, ``f2`` naturals (0, 1, 2 jokers), the others of the three other suits
    (``R3``, R5); ``NO_WAY`` if none."""
    base = W_R3 + s * 5 * (TMAX + 1)
    v = NO_WAY
    for u in range(min(t, 2) + 1):
        a = f0 if u == 0 else (f1 if u == 1 else f2)
        b = scratch[base + (r - 1) * (TMAX + 1) + min(t - u, 2 * r - 2)]
        if a < NO_WAY and b < NO_WAY and a + b < v:
            v = a + b
    return v


@njit(cache=True, _nrt=False, inline="always")
def root_moved(counts, jokers, g, r, v6, avail, scratch, x, d):
    """The root bound :func:`needed_upto` starts from, for the hand with one ``x`` (a code;
    52 = joker) added (``d = 1``; a copy must be addable) or taken out (``d = -1``; one must be
    held), after :func:`prepare_plus` on the hand and with ``counts``, ``avail`` as then.

    A lower bound of the count; the count itself when the contract is all groups, or all runs
    but V6's complete suit. ``counts``, ``avail`` are left as they are.

    In all-group contracts a natural's suit changes nothing (only its rank's held and addable
    copies move), so the four suits of a rank are one question: its answer is remembered
    per rank and direction until the next :func:`prepare_plus`."""
    o = W_MEMO + (14 if d > 0 else 0) + x % 13 + 1
    memo = r == 0 and x != JOKER
    if memo and scratch[o] >= 0:
        return scratch[o]
    v = _moved(counts, jokers, g, r, v6, avail, scratch, x, d)
    if memo:
        scratch[o] = v
    return v


@njit(cache=True, _nrt=False, inline="always")
def _masks_move(counts, s, k, d):
    """Does one card of suit ``s``, rank ``k`` on (``d = 1``) or off (-1) move the suit's
    position masks? Only when its count goes 0 <-> 1: a copy more or less of a held card
    leaves its runs alone."""
    return counts[s, k] + d == 0 or counts[s, k] == 0


@njit(cache=True, _nrt=False, inline="always")
def _moved_masks(scratch, s, k, d, base=W_SAVE, addable=True):
    """Suit ``s``'s held and addable position masks (kept at ``base`` as :func:`prepare_plus`
    keeps them) with its rank ``k`` held (``d = 1``) or not (-1), then addable unless
    ``addable`` is False (its copies all dead); the ace holds positions 1 and 14."""
    bits = (1 << 1) | (1 << 14) if k == 1 else 1 << k
    held = scratch[base + 40 + 2 * s]
    add = scratch[base + 40 + 2 * s + 1]
    if d > 0:
        return held | bits, add & ~bits
    return held & ~bits, (add | bits) if addable else add & ~bits


@njit(cache=True, _nrt=False, inline="always")
def _runs_only_moved(counts, jokers, r, avail, scratch, x, d):
    """:func:`_moved` of an all-run contract (not V6's complete suit), from the hand's saved
    tables alone: a joker moves only the bound's sharing of jokers; a natural moves its suit's
    cheapest runs only when its count goes 0 <-> 1 (a copy more or less of a held card leaves
    the suit's position masks, so the count, alone). The count depends only on the suit and
    its cheapest runs, so it is kept per both until the next :func:`prepare_plus` (a suit's
    thirteen cards move them a few ways), and the suit's table of the other three suits is
    built when first asked."""
    aj = avail[JOKER]
    if x == JOKER:
        # the runs' joker allowance (held + addable) is unchanged: so is every NS
        return _runs_moved(scratch, 0, r, jokers + d, aj - d, scratch[W_SAVE + 28],
                           scratch[W_SAVE + 29], scratch[W_SAVE + 30])
    s = x // 13
    stands, f0, f1, f2 = _suit_moved(counts, jokers, aj, scratch, s, x % 13 + 1, d)
    if stands:
        return scratch[W_ROOT]  # the suit's cheapest runs stand: so does the count
    stamp = scratch[W_SSTAMP + s]
    m = W_RMEMO + 2 * (s * 216 + (min(f0, 5) * 6 + min(f1, 5)) * 6 + min(f2, 5))
    if scratch[m] == stamp:
        return scratch[m + 1]
    if scratch[W_R3OK + s] != stamp:
        _runs_without(scratch, s, r, W_SAVE + 28)  # the hand's NS, as kept
        scratch[W_R3OK + s] = stamp
    v = _runs_moved(scratch, s, r, jokers, aj, f0, f1, f2)
    scratch[m] = stamp
    scratch[m + 1] = v
    return v


@njit(cache=True, _nrt=False)
def runs_stand(counts, jokers, avail, scratch, x):
    """After :func:`prepare_plus` of an all-run hand (not V6's complete suit): does taking
    out the held natural ``x`` leave every suit's cheapest runs as they are? Then the count
    is a function of those and the jokers alone, so the hand less ``x`` plus a card of
    another suit (or a joker) counts as the hand plus that card."""
    return _suit_moved(counts, jokers, avail[JOKER], scratch, x // 13, x % 13 + 1, -1)[0]


@njit(cache=True, _nrt=False, inline="always")
def _suit_moved(counts, jokers, aj, scratch, s, k, d):
    """Suit ``s``'s cheapest runs (0, 1, 2 jokers) with one card of rank ``k`` on (``d = 1``)
    or off (-1), after :func:`prepare_plus`, and whether they are the kept hand's:
    ``(stands, f0, f1, f2)``. A copy more or less of a held card leaves the suit's masks."""
    o = W_SAVE + 28 + 3 * s
    if not _masks_move(counts, s, k, d):
        return True, scratch[o], scratch[o + 1], scratch[o + 2]
    held, add = _moved_masks(scratch, s, k, d)
    f0, f1, f2 = suit_runs(held, add, jokers + aj, scratch)
    return f0 == scratch[o] and f1 == scratch[o + 1] and f2 == scratch[o + 2], f0, f1, f2


@njit(cache=True, _nrt=False, inline="always")
def _moved(counts, jokers, g, r, v6, avail, scratch, x, d):
    """:func:`root_moved` itself, worked out from the hand's tables."""
    if runs_only(g, r, v6):
        return _runs_only_moved(counts, jokers, r, avail, scratch, x, d)
    if r == 0 and g > 0:
        return _groups_moved(jokers, g, avail[JOKER], scratch, x, d)
    w = 3 if v6 and r == 3 else 1
    _kept_tables(scratch, W_SAVE)
    if x == JOKER:
        # a joker moves between the hand and the pack: the runs' joker allowance (held +
        # addable) is unchanged, so only the bound's sharing of jokers moves
        return _root(g, r, w, jokers + d, avail[JOKER] - d, scratch)
    s = x // 13
    k = x % 13 + 1
    scratch[W_H + k] += d
    scratch[W_A + k] -= d
    if r > 0 and _masks_move(counts, s, k, d):
        held, add = _moved_masks(scratch, s, k, d)
        _cheapest_runs_masks(held, add, jokers + avail[JOKER], scratch, s)
    return _root(g, r, w, jokers, avail[JOKER], scratch)


@njit(cache=True, _nrt=False, inline="always")
def _groups_moved(jokers, g, aj, scratch, x, d):
    """:func:`_moved` of an all-group contract: the count from the kept hand's ranks per kind
    (:func:`.groups.kind_of`), the card's rank moved from its kind to its new one (a joker
    moves only the sharing of jokers)."""
    o = W_KINDS
    if x == JOKER:
        return groups_of_kinds(g, jokers + d, aj - d, scratch[o], scratch[o + 1],
                               scratch[o + 2], scratch[o + 3], scratch[o + 4],
                               scratch[o + 5], scratch[o + 6])
    k = x % 13 + 1
    h = scratch[W_SAVE + k]
    a = scratch[W_SAVE + 14 + k]
    was = kind_of(h, a)
    now = kind_of(h + d, a - d)
    scratch[o + was] -= 1
    scratch[o + now] += 1
    v = groups_of_kinds(g, jokers, aj, scratch[o], scratch[o + 1], scratch[o + 2],
                        scratch[o + 3], scratch[o + 4], scratch[o + 5], scratch[o + 6])
    scratch[o + now] -= 1
    scratch[o + was] += 1
    return v


@njit(cache=True, _nrt=False)
def outs_kernel(counts, jokers, g, r, v6, avail, opts, scratch, out, cut_only=False):
    """``out[code]`` = cards needed after adding one ``code`` (addable ones), else -1.

    Returns the cards needed before. With ``cut_only`` an entry is exact only where the card
    cuts the count (below the return value); elsewhere it is some number at least the count
    before, which is all an outs count asks, and much cheaper: one added card cuts the count
    by at most one (a completion with it is one without it, plus that card), so each card is
    asked only whether its count is ``before - 1``. ``counts``, ``avail`` are restored on
    return; writes ``out``, ``opts``, ``scratch``.
    """
    before = needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch)
    cap = before - 1 if cut_only else NO_WAY
    floor = max(0, before - 1) if before < NO_WAY else 0
    for c in range(53):
        out[c] = -1
        if avail[c] > 0:
            out[c] = needed_plus(counts, jokers, g, r, v6, avail, opts, scratch, c, cap, floor)
    return before


@njit(cache=True, _nrt=False)
def needed_plus(counts, jokers, g, r, v6, avail, opts, scratch, x, cap, floor):
    """:func:`needed_upto` of the hand plus one addable ``x`` (a code; 52 = joker), taken
    from the pack; ``floor``: the hand's count less one, or less (a card cuts at most one).
    ``counts``, ``avail`` are restored on return."""
    avail[x] -= 1
    if x == JOKER:
        n = needed_upto(counts, jokers + 1, g, r, v6, avail, opts, scratch, cap, floor)
    else:
        counts[x // 13, x % 13 + 1] += 1
        n = needed_upto(counts, jokers, g, r, v6, avail, opts, scratch, cap, floor)
        counts[x // 13, x % 13 + 1] -= 1
    avail[x] += 1
    return n


@njit(cache=True, _nrt=False)
def needed_cut(counts, jokers, g, r, avail, opts, scratch, x, cap, floor):
    """:func:`.needed.needed_upto` of a mixed contract's hand (not V6's complete suit) that has
    just taken the natural ``x``, when ``cap`` is below its count without ``x``: a count at
    most ``cap`` must use ``x``, so :func:`used_bound` above ``cap`` refutes it before the
    search (most offers are of cards that cut nothing). ``floor``: that count
    less one, or less (a card cuts at most one)."""
    if floor > cap:
        return floor
    _hand_tables(counts, jokers, r, avail, scratch)
    root = _root(g, r, 1, jokers, avail[JOKER], scratch)
    if root > cap:
        return root
    lb = _used_from_tables(jokers, g, r, avail, scratch, x)
    if lb > cap:
        return lb
    return _deepen(jokers, g, r, WINDOWS, avail, opts, scratch, cap, root, floor)


@njit(cache=True, _nrt=False)
def needed_moved(counts, jokers, g, r, avail, opts, scratch, x, d, cap, floor):
    """:func:`.needed.needed_upto` of a mixed contract's hand (not V6's complete suit) with
    one natural ``x`` on (``d = 1``) or off (-1), after :func:`prepare_plus` of the hand
    before the move; ``counts``, ``avail`` as after it. The hand's tables are moved by the
    one card (its rank, and its suit when the suit's masks move) instead of built again
    (a discard's keep checks ask of every candidate, each one card off the hand)."""
    if floor > cap:
        return floor
    _tables_moved(counts, jokers, r, avail, scratch, x, d, W_SAVE)
    root = _root(g, r, 1, jokers, avail[JOKER], scratch)
    if root >= NO_WAY:
        return NO_WAY
    if root > cap:
        return root
    return _deepen(jokers, g, r, WINDOWS, avail, opts, scratch, cap, root, floor)


@njit(cache=True, _nrt=False)
def _tables_moved(counts, jokers, r, avail, scratch, x, d, base):
    """The hand's tables (``H``, ``A``, ``NS``, suit masks) from those kept at ``base`` (as
    :func:`prepare_plus` keeps them) of the hand before one natural ``x`` moved on
    (``d = 1``) or off (-1); ``counts``, ``avail`` as after the move: its rank, and its suit
    when the suit's masks move."""
    _kept_tables(scratch, base)
    s = x // 13
    k = x % 13 + 1
    scratch[W_H + k], scratch[W_A + k] = rank_total(counts, avail, k)
    # the count went 0 <-> 1: the suit's masks move (no runs: none kept)
    if r > 0 and counts[s, k] == (1 if d > 0 else 0):
        held, add = _moved_masks(scratch, s, k, d, base, avail[x] > 0)
        scratch[W_MASKS + 2 * s] = held
        scratch[W_MASKS + 2 * s + 1] = add
        _cheapest_runs_masks(held, add, jokers + avail[JOKER], scratch, s)


@njit(cache=True, _nrt=False, inline="always")
def _kept_tables(scratch, base):
    """The tables kept at ``base`` (``H``, ``A``, ``NS``, the suit masks, as
    :func:`_keep_tables` keeps them) back in place: the start of a one-card move."""
    for k in range(1, 14):
        scratch[W_H + k] = scratch[base + k]
        scratch[W_A + k] = scratch[base + 14 + k]
    for i in range(12):
        scratch[W_NS + i] = scratch[base + 28 + i]
    for i in range(8):
        scratch[W_MASKS + i] = scratch[base + 40 + i]


@njit(cache=True, _nrt=False)
def used_bound(counts, jokers, g, r, avail, scratch, x):
    """A lower bound of every contract of the hand that uses its natural ``x`` (held), from
    the root tables: ``x``'s rank as a group (R3), or a run of ``x``'s suit through ``x``'s
    position (R4), the rest at their cheapest and the jokers shared. Not V6's complete suit.

    A card just added that cuts the count must be used by the cheaper contract (without it
    that contract was the hand's before), so this bound above a cap refutes the cut without
    a search (most offers are of cards that cut nothing). Writes ``scratch``.
    """
    _hand_tables(counts, jokers, r, avail, scratch)
    _root(g, r, 1, jokers, avail[JOKER], scratch)  # R[0], G0, G1 of the hand
    return _used_from_tables(jokers, g, r, avail, scratch, x)


@njit(cache=True, _nrt=False)
def _used_from_tables(jokers, g, r, avail, scratch, x):
    """:func:`used_bound` from the hand's tables already in ``scratch``; leaves them."""
    aj = avail[JOKER]
    s = x // 13
    k = x % 13 + 1
    best = NO_WAY
    if g > 0:
        # a group at rank k: the runs and g - 1 groups at their cheapest (as _relevant)
        best = group_at_bound(k, g, r, jokers, aj, scratch)
    if r > 0:
        # a run of suit s through x: its cheapest window holding x's position, r - 1 runs
        # of the other suits (R5), g groups at their cheapest
        pos = (1 << 1) | (1 << 14) if k == 1 else 1 << k
        f0, f1, f2 = window_minima(scratch[W_MASKS + 2 * s], scratch[W_MASKS + 2 * s + 1],
                                   jokers + aj, pos)
        _runs_without(scratch, s, r)
        scratch[W_R3OK + s] = 0  # no longer the kept hand's table
        for t in range(min(2 * r, TMAX) + 1):
            v = _runs_through(scratch, s, r, t, f0, f1, f2)
            if v >= NO_WAY:
                continue
            for m in range(g + 1):
                gc = scratch[W_G0 + m] if g > 0 else 0
                if gc >= NO_WAY:
                    continue
                extra = max(0, t + m - jokers)
                if extra <= aj and v + gc + extra < best:
                    best = v + gc + extra
    return best


@njit(cache=True, _nrt=False)
def plan_cost(counts, jokers, g, r, avail, scratch, at, cap):
    """The cards a kept plan needs for this hand (mixed contracts, not V6's complete suit),
    when at most ``cap``; else some number above ``cap``.

    The plan is the runs of a leaf of the search (:func:`.needed._keep_leaf`) at
    ``scratch[at:]``: per suit the ranks of its naturals and its jokers. Each natural is held
    or else added from the pack (``NO_WAY`` if it cannot come); the ``g`` groups are the
    cheapest of the naturals left (R3, R5), the jokers shared (R4). A contract of the hand,
    so never below its count: at the count it proves the count without a search
    (a keep check tries the seat's last plan first)."""
    if scratch[at + 16] != 1:
        return NO_WAY
    rank_totals(counts, avail, W_h, W_a, scratch)
    nadd = 0
    jok = 0
    runs = 0
    for s in range(4):
        held = scratch[at + 4 * s]
        if held < 0:
            continue
        runs += 1
        jok += scratch[at + 4 * s + 2]
        nat = held | scratch[at + 4 * s + 1]
        while nat:  # the plan's ranks of the suit, lowest first
            low = nat & -nat
            nat ^= low
            k = _popcount(low - 1)
            if counts[s, k] > 0:
                scratch[W_h + k] -= 1
            elif avail[s * 13 + k - 1] > 0:
                scratch[W_a + k] -= 1
                nadd += 1
            else:
                return NO_WAY
    if runs < r or nadd > cap:
        return NO_WAY
    out = scratch[W_GL:W_GL + GMAX]
    if g > 0:
        group_costs(g, RANKS13, W_h, W_a, out, scratch)
    else:
        out[0] = 0
    best = NO_WAY
    for m in range(g + 1):
        extra = max(0, jok + m - jokers)
        if out[m] < NO_WAY and extra <= avail[JOKER]:
            best = min(best, nadd + out[m] + extra)
    return best


@njit(cache=True, _nrt=False)
def clear_plans(scratch, keep=-1):
    """No seat but ``keep`` has a plan (:func:`keep_plan`): a new hand, or a world where the
    others' hidden cards are dealt again from what seat ``keep`` knows (their plans were made
    from the real ones). A seat's plan is then a function of its hand's history alone
   ."""
    for seat in range(8):
        if seat != keep:
            scratch[W_PLANS + 20 * seat + 16] = 0


@njit(cache=True, _nrt=False)
def copy_plans(src, dst):
    """The seats' plans of workspace ``src`` into ``dst``: a branch of a hand goes on with
    the plans its seats had (:func:`.branch.copy_state`)."""
    for i in range(8 * 20):
        dst[W_PLANS + i] = src[W_PLANS + i]


@njit(cache=True, _nrt=False)
def keep_plan(scratch, seat):
    """Keep the last leaf's runs (``W_LEAF``) as ``seat``'s plan (``W_PLANS``), if set."""
    if scratch[W_LEAF + 16] == 1:
        for i in range(17):
            scratch[W_PLANS + 20 * seat + i] = scratch[W_LEAF + i]
