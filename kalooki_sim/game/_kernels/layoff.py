"""Lay-off primitives on a meld already on the table (R10, R11), as Numba kernels.

A meld on the table is an ``int64[MELD_COLS]`` record:

=========  =====================================================================
``KIND``   ``GROUP`` (0) or ``RUN`` (1)
``OWNER``  seat of the player who laid it (R5, R10 joker ownership)
``KEY``    rank 1-13 for a group, suit 0-3 for a run
``LO/HI``  run span in positions 1-14 (R4; 14 is the high ace)
``JMASK``  run: bit ``p`` set where a joker stands at position ``p``
``NAT``    group: natural cards in it
``JOK``    group: jokers in it; run: jokers in it (popcount of ``JMASK``)
=========  =====================================================================
"""

from __future__ import annotations

from numba import njit

KIND, OWNER, KEY, LO, HI, JMASK, NAT, JOK = 0, 1, 2, 3, 4, 5, 6, 7
MELD_COLS = 8
GROUP, RUN = 0, 1
JOKER = 52

# what lay_off_kernel did
ILLEGAL, ADDED, JOKER_MOVED, JOKER_ADDED = 0, 1, 2, 3


@njit(cache=True, _nrt=False)
def _copy_row(out, src):
    """``out[:] = src`` element by element (a slice copy asks for the runtime's allocator)."""
    for i in range(src.shape[0]):
        out[i] = src[i]


@njit(cache=True, _nrt=False)
def next_growth(lo, hi):
    """R10: a run grows one above its top until the top is A(14), then one below its bottom."""
    return hi + 1 if hi < 14 else lo - 1


@njit(cache=True, _nrt=False)
def _slot_ok(lo, hi, jmask, p, is_joker):
    """Can position ``p`` (just outside ``lo..hi``) take a card? Jokers never touch jokers."""
    if p < 1 or p > 14:
        return False
    new_lo = min(lo, p)
    new_hi = max(hi, p)
    if new_hi - new_lo + 1 > 13:  # R4: never both 1 and 14; a complete suit takes no more
        return False
    if is_joker:
        nb = hi if p == hi + 1 else lo
        if (jmask >> nb) & 1:
            return False
    return True


@njit(cache=True, _nrt=False)
def _grow(out, p, is_joker):
    if p < out[LO]:
        out[LO] = p
    else:
        out[HI] = p
    if is_joker:
        out[JMASK] |= 1 << p
        out[JOK] += 1


@njit(cache=True, _nrt=False)
def lay_off_kernel(meld, card, player, free_extension, jokers_on_others, out):
    """Try to lay ``card`` off on ``meld`` for ``player``; write the new meld into ``out``.

    Returns ``ILLEGAL`` (``out`` untouched), ``ADDED`` (a natural added), ``JOKER_MOVED``
    (R11: the natural took a joker's place and the joker moved) or ``JOKER_ADDED``.
    ``free_extension`` is rule V3, ``jokers_on_others`` rule V5.
    """
    is_joker = card == JOKER
    if is_joker and meld[OWNER] != player and not jokers_on_others:
        return ILLEGAL  # R10: jokers only on own melds
    if meld[KIND] == GROUP:
        if not is_joker and card % 13 + 1 != meld[KEY]:
            return ILLEGAL
        _copy_row(out, meld)
        if is_joker:
            out[JOK] += 1
            return JOKER_ADDED
        out[NAT] += 1
        return ADDED
    lo = meld[LO]
    hi = meld[HI]
    jm = meld[JMASK]
    if is_joker:
        p = next_growth(lo, hi)
        ok = _slot_ok(lo, hi, jm, p, True)
        if not ok and free_extension:
            p = lo - 1 if p == hi + 1 else hi + 1
            ok = _slot_ok(lo, hi, jm, p, True)
        if not ok:
            return ILLEGAL
        _copy_row(out, meld)
        _grow(out, p, True)
        return JOKER_ADDED
    if card // 13 != meld[KEY]:
        return ILLEGAL
    rank = card % 13 + 1
    # R11: the exact natural for a joker's position takes its place; the joker moves on
    for p in (rank, 14):
        if p == 14 and rank != 1:
            break
        if lo <= p <= hi and (jm >> p) & 1:
            q = next_growth(lo, hi)
            jm2 = jm & ~(1 << p)
            if not _slot_ok(lo, hi, jm2, q, True):
                return ILLEGAL
            _copy_row(out, meld)
            out[JMASK] = jm2
            out[JOK] -= 1
            _grow(out, q, True)
            return JOKER_MOVED
    # R10: growth at the next position only (V3: either end)
    g = next_growth(lo, hi)
    for p in (rank, 14):
        if p == 14 and rank != 1:
            break
        if lo <= p <= hi:
            continue
        if (p == g or (free_extension and (p == lo - 1 or p == hi + 1))) and _slot_ok(
            lo, hi, jm, p, False
        ):
            _copy_row(out, meld)
            _grow(out, p, False)
            return ADDED
    return ILLEGAL
