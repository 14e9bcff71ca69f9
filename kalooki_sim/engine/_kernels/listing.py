"""The run options of one suit for the search of :mod:`.needed`: its 4-card
windows (R4) or V6's complete suits, reduced to those the groups can tell apart, cheapest
first, and kept per suit by what they depend on.
"""

from __future__ import annotations

from numba import njit

from .windows import _FREE_MASK, _FREE_NA, NO_WAY, WINDOW_JOK, WINDOW_MASKS
from .workspace import (
    CAPACITY,
    COMPLETE,
    LC_ENTRY,
    LC_K,
    LC_ROWS,
    N_COLS,
    N_FPA,
    N_FPH,
    N_JOK,
    N_KA,
    N_KEY,
    N_KH,
    N_NADD,
    N_W,
    SKEYS,
    W_CNT,
    W_FREE,
    W_LCACHE,
    W_LNEXT,
    W_MASKS,
    W_OBASE,
    W_TMP,
    _popcount,
    _ranks_of,
)


@njit(cache=True, _nrt=False, inline="always")
def _option_cost(w, jm, held, add, rel_h):
    """A run option of the positions ``w`` with jokers at ``jm``: ``(naturals to add, rank
    mask of the held naturals it takes, rank mask of those it adds)``, or ``(-1, 0, 0)`` when
    it cannot be made (a natural missing with no copy left) or a joker stands over a held
    natural of a rank the groups do not need (``rel_h``): never useful."""
    jh = jm & held
    if jh and _ranks_of(jh) & ~rel_h:
        return -1, 0, 0
    nat = w & ~jm
    miss = nat & ~held
    if miss & ~add:
        return -1, 0, 0
    return _popcount(miss), _ranks_of(nat & held), _ranks_of(miss)


@njit(cache=True, _nrt=False)
def _list_suit(s, maxj, rel_h, rel_a, mode, opts_s, scratch):
    """The useful run options of suit ``s`` into its rows of ``opts_s``, cheapest first, from
    row ``scratch[W_OBASE + s]``; return the count.

    ``mode``: :data:`WINDOWS` lists 4-card windows, :data:`COMPLETE` only V6's complete suits.

    An option touching no relevant rank (``rel_h`` held, ``rel_a`` addable ranks the groups may
    miss) is kept only if no such option has fewer or as many added naturals and jokers; an
    option touching one is dropped if an option touching none is as cheap in both. A joker
    over a held natural is listed only when that rank is in ``rel_h``. The suit's masks are
    the hand's, left at ``W_MASKS`` by :func:`_hand_tables`.

    The listing depends on the relevant ranks only where the suit holds or could add a
    natural, so the last ``LC_K`` listings of each suit are kept by that key, each in its own
    rows of ``opts_s`` (after ``CAPACITY``), and searched there when it comes again (about
    half do). Window options are kept pruned (:func:`_prune`): the options another
    dominates cost more to search than to drop.
    """
    held = scratch[W_MASKS + 2 * s]
    add = scratch[W_MASKS + 2 * s + 1]
    if mode == COMPLETE:
        scratch[W_OBASE + s] = 0
        return _list_complete(held, add, maxj, rel_h, rel_a, opts_s)
    mj = min(maxj, 2)
    rel_h &= _ranks_of(held)
    rel_a &= _ranks_of(add)
    base = W_LCACHE + s * LC_K * LC_ENTRY
    for e in range(LC_K):
        o = base + e * LC_ENTRY
        if (scratch[o] == held + 1 and scratch[o + 1] == add and scratch[o + 2] == mj
                and scratch[o + 3] == rel_h and scratch[o + 4] == rel_a):
            scratch[W_OBASE + s] = CAPACITY + e * LC_ROWS
            return scratch[o + 5]
    e = scratch[W_LNEXT + s]
    scratch[W_LNEXT + s] = (e + 1) % LC_K
    row = CAPACITY + e * LC_ROWS
    n = _prune(opts_s[row:], _list_windows(held, add, mj, rel_h, rel_a, opts_s[row:], scratch))
    o = base + e * LC_ENTRY
    scratch[o] = held + 1  # 0: an empty entry
    scratch[o + 1] = add
    scratch[o + 2] = mj
    scratch[o + 3] = rel_h
    scratch[o + 4] = rel_a
    scratch[o + 5] = n
    scratch[W_OBASE + s] = row
    return n


@njit(cache=True, _nrt=False)
def _list_windows(held, add, maxj, rel_h, rel_a, opts_s, scratch):
    """:func:`_list_suit`'s 4-card windows of one suit (held / addable position masks)."""
    # per joker count, the cheapest option touching no relevant rank (NO_WAY: none) and its
    # row (-1: none)
    for t in range(3):
        scratch[W_FREE + t] = NO_WAY
        scratch[W_FREE + 3 + t] = -1
    n = 0
    for lo in range(1, 12):
        w = 15 << lo
        if (_ranks_of(w) & (rel_h | rel_a)) == 0:
            # no option of this window touches a relevant rank: per joker count, only its
            # cheapest (the first joker mask so cheap) can stand for the free ones, so the
            # same listing as trying every mask
            h4 = (held >> lo) & 15
            a4 = (add >> lo) & 15
            for t in range(maxj + 1):
                na = _FREE_NA[h4, a4, t]
                if na >= scratch[W_FREE + t]:
                    continue
                nat = w & ~(WINDOW_MASKS[_FREE_MASK[h4, a4, t]] << lo)
                n = _free_option(scratch, n, t, na, _ranks_of(nat & held),
                                 _ranks_of(nat & ~held))
            continue
        for i in range(8):
            t = WINDOW_JOK[i]
            if t > maxj:
                continue
            na, fph, fpa = _option_cost(w, WINDOW_MASKS[i] << lo, held, add, rel_h)
            if na < 0:
                continue
            kh = fph & rel_h
            ka = fpa & rel_a
            if kh | ka == 0:
                # the groups cannot tell such options apart: the cheapest one per joker
                # count stands for them all
                if na < scratch[W_FREE + t]:
                    n = _free_option(scratch, n, t, na, fph, fpa)
                continue
            _put_option(scratch, n, na, t, fph, fpa, kh, ka)
            n += 1
    # drop what a free option beats (the free ones beat themselves only when worse)
    z0 = scratch[W_FREE]
    z1 = scratch[W_FREE + 1]
    z2 = scratch[W_FREE + 2]
    lt1 = z0  # best free option with fewer jokers than 1, 2
    lt2 = min(z0, z1)
    cnt = W_CNT
    for i in range(SKEYS + 1):
        scratch[cnt + i] = 0
    for i in range(n):
        o = W_TMP + i * N_COLS
        na = scratch[o + N_NADD]
        t = scratch[o + N_JOK]
        zlt = NO_WAY if t == 0 else (lt1 if t == 1 else lt2)
        if (scratch[o + N_KH] | scratch[o + N_KA]) != 0:
            zlt = min(zlt, z0 if t == 0 else (z1 if t == 1 else z2))
        if zlt <= na:
            scratch[o + N_KEY] = -1
            continue
        scratch[cnt + scratch[o + N_KEY] + 1] += 1
    for i in range(1, SKEYS + 1):
        scratch[cnt + i] += scratch[cnt + i - 1]
    kept = 0
    for i in range(n):
        o = W_TMP + i * N_COLS
        key = scratch[o + N_KEY]
        if key < 0:
            continue
        q = scratch[cnt + key]
        scratch[cnt + key] += 1
        for c in range(N_COLS):
            opts_s[q, c] = scratch[o + c]
        kept += 1
    return kept


@njit(cache=True, _nrt=False, inline="always")
def _free_option(scratch, n, t, na, fph, fpa):
    """A cheaper option touching no relevant rank with ``t`` jokers (``na`` naturals added,
    ``fph`` / ``fpa`` its held and added ranks) for :func:`_list_windows`: it stands for all
    such, in the row of the first one listed (a new row ``n`` if none yet); returns the rows
    listed."""
    scratch[W_FREE + t] = na
    zi = scratch[W_FREE + 3 + t]
    if zi < 0:
        scratch[W_FREE + 3 + t] = n
        zi = n
        n += 1
    _put_option(scratch, zi, na, t, fph, fpa, 0, 0)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _put_option(scratch, row, na, t, fph, fpa, kh, ka):
    """A window option of :func:`_list_windows` into its candidate ``row`` (``W_TMP``): ``na``
    naturals added, ``t`` jokers, its held / added ranks and the relevant ones among them, and
    its sort key."""
    o = W_TMP + row * N_COLS
    scratch[o + N_NADD] = na
    scratch[o + N_JOK] = t
    scratch[o + N_W] = 1
    scratch[o + N_FPH] = fph
    scratch[o + N_FPA] = fpa
    scratch[o + N_KH] = kh
    scratch[o + N_KA] = ka
    scratch[o + N_KEY] = (na + t) * 3 + t


@njit(cache=True, _nrt=False)
def _list_complete(held, add, maxj, rel_h, rel_a, opts_s):
    """V6's complete suits of one suit (held / addable position masks) into ``opts_s``: every
    joker mask with no two jokers adjacent, in either place of the ace; return the count."""
    kept = 0
    for lo in range(1, 3):
        w = 0x1FFF << lo
        for m in range(1 << 13):
            if m & (m >> 1):
                continue
            t = _popcount(m)
            if t > maxj:
                continue
            na, fph, fpa = _option_cost(w, m << lo, held, add, rel_h)
            if na < 0:
                continue
            opts_s[kept, N_NADD] = na
            opts_s[kept, N_JOK] = t
            opts_s[kept, N_W] = 3
            opts_s[kept, N_FPH] = fph
            opts_s[kept, N_FPA] = fpa
            opts_s[kept, N_KH] = fph & rel_h
            opts_s[kept, N_KA] = fpa & rel_a
            opts_s[kept, N_KEY] = (na + t) * 14 + t
            kept += 1
    return kept


@njit(cache=True, _nrt=False, inline="always")
def _prune(opts_s, n):
    """Drop, in place, the options another one dominates: fewer or as many added naturals and
    jokers, and a subset of the relevant ranks touched (options sorted cheapest first, so a
    dominating one comes first unless both are alike). Return the new count."""
    kept = 0
    for q in range(n):
        na = opts_s[q, N_NADD]
        t = opts_s[q, N_JOK]
        kh = opts_s[q, N_KH]
        ka = opts_s[q, N_KA]
        w = opts_s[q, N_W]
        dominated = False
        for j in range(kept):
            if (opts_s[j, N_NADD] <= na and opts_s[j, N_JOK] <= t and opts_s[j, N_W] >= w
                    and (opts_s[j, N_KH] & ~kh) == 0 and (opts_s[j, N_KA] & ~ka) == 0):
                dominated = True
                break
        if dominated:
            continue
        if kept != q:
            for c in range(N_COLS):
                opts_s[kept, c] = opts_s[q, c]
        kept += 1
    return kept
