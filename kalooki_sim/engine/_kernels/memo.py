"""The memo of a seat's exact count of cards still needed: keys hashed from its hand and the
dead cards (one pass over the hand, moved card by card), two entries per seat in ``ps``
(``PS_NC_*``), and a floor from the same hand while only dead cards grow (:mod:`.reading`
holds the count itself).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from . import needed as NK
from . import rng as R
from .reading import _copies_left, _exact_upto, _needed, _needed_upto, _seen_row
from .table import (
    N_CODES,
    NO_WAY_RANK,
    P_EXACT,
    PS_NC_HKEY,
    PS_NC_HVAL,
    PS_NC_KEY0,
    PS_NC_NEXT,
    PS_NC_VAL0,
)


@njit(cache=True, _nrt=False, inline="always")
def _state_key(seat, hand):
    """A 62-bit hash of ``seat``'s hand and the dead cards: what its exact count depends on."""
    return _row_key(seat, hand, 16)


def _key_weights(n):
    """One odd 64-bit weight per code (the streams' splitmix, :func:`.rng._splitmix`, of the
    code's step from a fixed start): what :func:`_row_key` sums. Its Python body (the
    function itself under ``NUMBA_DISABLE_JIT``), so that importing compiles nothing; uint64
    products wrap, as in the kernel."""
    mix = getattr(R._splitmix, "py_func", R._splitmix)
    start = 0x2545F4914F6CDD1D
    with np.errstate(over="ignore"):
        return np.array([mix(np.uint64((start + c * R._GOLDEN) & 0xFFFFFFFFFFFFFFFF))
                         | np.uint64(1) for c in range(n)], np.uint64)


_KEY_WEIGHTS = _key_weights(N_CODES)


@njit(cache=True, _nrt=False, inline="always")
def _row_key(seat, hand, dead_weight):
    """A 62-bit hash of ``seat``'s hand, with the dead cards at ``dead_weight`` (16: the
    state, 0: the hand alone): each code's copies held + weight x dead copies times the
    code's odd weight, summed (one multiply-add per code: the seats' memos ask it
    hundreds of times a hand), then one mix. Two rows differing by small counts collide
    only if the weights' sum of their differences is 0 mod 2**64."""
    hs, ds = _row_sums(seat, hand)
    return _mix_key(hs + uint64(dead_weight) * ds)


@njit(cache=True, _nrt=False, inline="always")
def _row_sums(seat, hand):
    """The sums :func:`_row_key` mixes, in one pass: ``seat`` + the hand's weighted copies,
    and the dead cards' (uint64, wrapping). A decision asks the keys of its hand, with and
    without the dead cards, and of the hand one card on or off (:func:`_sums_moved`): all
    from these two sums."""
    dead = hand[_seen_row(hand)]
    hs = uint64(seat)
    ds = uint64(0)
    for c in range(N_CODES):
        w = _KEY_WEIGHTS[c]
        hs += uint64(hand[seat, c]) * w
        ds += uint64(dead[c]) * w
    return hs, ds


@njit(cache=True, _nrt=False, inline="always")
def _sums_moved(hs, c, d):
    """The hand's sum (:func:`_row_sums`) with one ``c`` added (``d = 1``) or taken (-1)."""
    return hs + _KEY_WEIGHTS[c] if d > 0 else hs - _KEY_WEIGHTS[c]


@njit(cache=True, _nrt=False, inline="always")
def _mix_key(k):
    """The 62-bit key of a sum (:func:`_row_sums`)."""
    return np.int64(R._splitmix(k) >> uint64(2))


@njit(cache=True, _nrt=False, inline="always")
def _state_of(hs, ds):
    """:func:`_state_key` from the sums."""
    return _mix_key(hs + uint64(16) * ds)


@njit(cache=True, _nrt=False, inline="always")
def _memo_keep(seat, ps, key, hkey, val):
    """Remember ``val`` for ``key`` (:func:`_state_key` of ``seat``'s hand as it is) in the
    seat's memo, replacing the older entry; and as the last count of this hand (its
    :func:`_hand_key`, ``hkey``), whatever cards die next (:func:`_floor_of`)."""
    i = ps[seat, PS_NC_NEXT]
    ps[seat, PS_NC_KEY0 + 2 * i] = key
    ps[seat, PS_NC_VAL0 + 2 * i] = val
    ps[seat, PS_NC_NEXT] = 1 - i
    ps[seat, PS_NC_HKEY] = hkey
    ps[seat, PS_NC_HVAL] = val


@njit(cache=True, _nrt=False, inline="always")
def _memo_sums(seat, ps, hs, ds, val):
    """:func:`_memo_keep` of the hand whose sums (:func:`_row_sums`) are ``hs``, ``ds``."""
    _memo_keep(seat, ps, _state_of(hs, ds), _mix_key(hs), val)


@njit(cache=True, _nrt=False, inline="always")
def _hand_key(seat, hand):
    """A 62-bit hash of ``seat``'s hand alone (:func:`_state_key` without the dead cards)."""
    return _row_key(seat, hand, 0)


@njit(cache=True, _nrt=False, inline="always")
def _floor_of(seat, ps, hkey):
    """What ``seat``'s exact count is at least, from the last count remembered: that count if
    it was of this same hand (``hkey``, its :func:`_hand_key`: cards only die in a hand, and
    a dead card never lowers a count), else 0."""
    v = ps[seat, PS_NC_HVAL]
    if v >= 0 and ps[seat, PS_NC_HKEY] == hkey:
        return v
    return 0


@njit(cache=True, _nrt=False, inline="always")
def _memo_get(seat, ps, key):
    """The seat's remembered count for ``key``, or -1."""
    for i in range(2):
        if ps[seat, PS_NC_VAL0 + 2 * i] >= 0 and ps[seat, PS_NC_KEY0 + 2 * i] == key:
            return ps[seat, PS_NC_VAL0 + 2 * i]
    return -1


@njit(cache=True, _nrt=False)
def _needed_memo_upto(seat, hand, ps, rules, pol, pw, cap):
    """:func:`_needed_memo` when it is at most ``cap``, else some number above ``cap``; only
    exact counts are remembered."""
    if pol[seat, P_EXACT] <= 0:
        return _needed(seat, hand, rules, pol, pw)
    hs, ds = _row_sums(seat, hand)
    return _needed_memo_sums(seat, hand, ps, rules, pol, pw, cap, hs, ds)


@njit(cache=True, _nrt=False)
def _needed_memo_sums(seat, hand, ps, rules, pol, pw, cap, hs, ds):
    """:func:`_needed_memo_upto` of an exact seat whose hand's sums (:func:`_row_sums`) are
    ``hs``, ``ds``."""
    key = _state_of(hs, ds)
    v = _memo_get(seat, ps, key)
    if v >= 0:
        return v
    hkey = _mix_key(hs)
    v = _needed_upto(seat, hand, rules, pol, pw, cap, _floor_of(seat, ps, hkey))
    if v <= cap:
        _memo_keep(seat, ps, key, hkey, v)
    return v


@njit(cache=True, _nrt=False, inline="always")
def _cut_upto(seat, hand, rules, pw, card, cap, before):
    """The exact count of ``seat``'s hand, which holds ``card`` just taken or drawn, when it
    is at most ``cap``, a cap below ``before``, the exact count without the card; else some
    number above ``cap``. In mixed contracts a cheaper contract must use the card, so
    :func:`.plus.needed_cut` refutes most cards without a search; and the count is at least
    ``before - 1`` (a card that could come cuts at most one), where the search starts. A card
    taken from the dead pile after R13's reshuffle could not come: it may cut more."""
    could_come = _copies_left(seat, hand, rules, card) >= 0
    return _exact_upto(seat, hand, rules, pw, card, cap,
                       max(0, before - 1) if could_come else 0)


@njit(cache=True, _nrt=False)
def _cut_memo_sums(seat, hand, ps, rules, pol, pw, card, before, cap, hs, ds):
    """:func:`_needed_memo_sums` of an exact seat's hand, which has just taken ``card``
    (its sums, :func:`_row_sums`, are ``hs``, ``ds``); ``before`` is the exact count without
    it: "does the card cut the count to ``cap``?" (:func:`_cut_upto`)."""
    if cap < before < NO_WAY_RANK:
        key = _state_of(hs, ds)
        v = _memo_get(seat, ps, key)
        if v >= 0:
            return v
        v = _cut_upto(seat, hand, rules, pw, card, cap, before)
        if v <= cap:
            _memo_keep(seat, ps, key, _mix_key(hs), v)
            return v
        return cap + 1  # not cut: which number above cap changes no decision
    return _needed_memo_sums(seat, hand, ps, rules, pol, pw, cap, hs, ds)


@njit(cache=True, _nrt=False)
def _count_drawn(seat, hand, ps, rules, pol, pw, card):
    """Remember ``seat``'s exact count after drawing ``card`` (held now), when its count
    before is remembered: one card more cuts the count by one or leaves it (it never raises
    it), so "does it cut?" (:func:`_cut_upto`) is all there is to ask, and the discard that
    follows finds the answer in the memo. Nothing is done for a seat without ``P_EXACT``."""
    if pol[seat, P_EXACT] <= 0:
        return
    hs, ds = _row_sums(seat, hand)
    before = _memo_get(seat, ps, _state_of(_sums_moved(hs, card, -1), ds))
    if before <= 0 or before >= NO_WAY_RANK:
        return  # not known, or nothing to cut (0), or no way to lay it
    key = _state_of(hs, ds)
    if _memo_get(seat, ps, key) >= 0:
        return
    v = _cut_upto(seat, hand, rules, pw, card, before - 1, before)
    _memo_keep(seat, ps, key, _mix_key(hs), v if v <= before - 1 else before)


@njit(cache=True, _nrt=False)
def _needed_memo(seat, hand, ps, rules, pol, pw):
    """:func:`_needed`, remembered per seat: a seat is asked about the same hand many times
    (every offer until its own turn), and the exact count is the policy's dearest step."""
    # every exact count is at most NO_WAY (NO_WAY_RANK + the bound at worst): all remembered
    return _needed_memo_upto(seat, hand, ps, rules, pol, pw, NK.NO_WAY)
