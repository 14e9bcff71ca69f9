"""A position from card codes to the cards-needed kernels in one compiled call: the
Python API's ``cards_needed`` and ``outs`` spend most of their time preparing counts, so the
preparation is compiled too."""

from __future__ import annotations

from numba import njit

from . import needed as NK
from . import plus as NP

#: returned when the hand and the seen cards hold more copies than the pack
OVER_PACK = -2
#: returned when a code is not a card (0-52): the Python layer names it
BAD_CODE = -3


@njit(cache=True, _nrt=False)
def _fill(codes, seen, decks, jokers_cap, counts, avail):
    """``counts[4, 14]``, the hand's jokers and ``avail[53]`` (the pack less hand and seen);
    returns the jokers, or ``OVER_PACK``, or ``BAD_CODE`` (a code outside 0-52)."""
    counts[:] = 0
    for c in range(52):
        avail[c] = decks
    avail[NK.JOKER] = jokers_cap
    jokers = 0
    for c in codes:
        if c < 0 or c > NK.JOKER:
            return BAD_CODE
        avail[c] -= 1
        if c == NK.JOKER:
            jokers += 1
        else:
            counts[c // 13, c % 13 + 1] += 1
    for c in seen:
        if c < 0 or c > NK.JOKER:
            return BAD_CODE
        avail[c] -= 1
    for c in range(53):
        if avail[c] < 0:
            return OVER_PACK
    return jokers


@njit(cache=True, _nrt=False)
def needed_of_codes(codes, seen, decks, jokers_cap, g, r, v6, counts, avail, opts, scratch):
    """:func:`.needed.needed_kernel` of the hand ``codes`` with ``seen`` out of reach, or
    ``OVER_PACK`` or ``BAD_CODE``."""
    j = _fill(codes, seen, decks, jokers_cap, counts, avail)
    if j < 0:
        return j
    return NK.needed_kernel(counts, j, g, r, v6, avail, opts, scratch)


@njit(cache=True, _nrt=False)
def outs_of_codes(codes, seen, decks, jokers_cap, g, r, v6, counts, avail, opts, scratch, out):
    """:func:`.plus.outs_kernel` (cutting cards only) of the same position, or
    ``OVER_PACK``."""
    j = _fill(codes, seen, decks, jokers_cap, counts, avail)
    if j < 0:
        return j
    return NP.outs_kernel(counts, j, g, r, v6, avail, opts, scratch, out, True)
