"""Cards needed to lay a contract and the cards that bring it closer ("outs").

The Kalooki counterpart of shanten and ukeire in Mahjong engines. Both functions validate their
input and call :mod:`kalooki_sim.engine._kernels.needed`.
"""

from __future__ import annotations

import threading

import numba
import numpy as np
import pandas as pd

from ..engine.kernels import needed as _nk
from ..engine.kernels import position as _pos
from ..game.cards import N_CODES, card_text, check_pack, parse_codes
from ..game.melds import resolve_contract
from ..game.rules import as_rules


def _parse(name, cards):
    """:func:`~kalooki_sim.game.cards.parse_codes` with the argument's name in any error."""
    try:
        return parse_codes(cards)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{name}: {e}") from None


def _pack_error(codes, seen_codes, rules):
    """The clear error for a position the pack cannot hold (which argument, which card)."""
    for name, part in (("hand", codes), ("seen", seen_codes)):
        try:
            check_pack(part, rules)
        except ValueError as e:
            return ValueError(f"{name}: {e}")
    try:
        check_pack(np.concatenate([codes, seen_codes]), rules)
    except ValueError as e:
        return ValueError(f"seen holds cards the pack cannot hold together with the hand: {e}")
    return ValueError("hand and seen: more copies than the pack holds")


#: ``(groups, runs)`` of the default rules' hand numbers (the common case, resolved once)
_DEFAULT_CONTRACTS: dict = {}


def _position(hand, contract, rules, seen):
    """Validated ``(codes, seen_codes, rules, g, r)``."""
    rules = as_rules(rules)
    if rules is as_rules(None) and type(contract) is int:
        gr = _DEFAULT_CONTRACTS.get(contract)
        if gr is None:
            gr = _DEFAULT_CONTRACTS[contract] = resolve_contract(contract, rules)
        g, r = gr
    else:
        g, r = resolve_contract(contract, rules)
    return _parse("hand", hand), _parse("seen", seen), rules, g, r


_local = threading.local()


def _workspace():
    """This thread's kernel workspace (about 400 kB, so built once per thread, not per call:
    the kernels overwrite what they read)."""
    ws = getattr(_local, "ws", None)
    if ws is None:
        ws = _local.ws = (*_nk.new_workspace(), np.zeros((4, 14), np.int64),
                          np.zeros(N_CODES, np.int64))
    return ws


def _impossible(g, r):
    return ValueError(
        f"contract ({g} groups, {r} runs) cannot be laid from this hand even with every card "
        "the pack can still supply (R3-R5)"
    )


_NO_SEEN = np.zeros(0, np.int64)
#: the compiled entry of ``needed_of_codes`` for the fast path's argument types, once known
_FAST_ENTRY: list = []


def _fast_needed(hand, contract, rules, seen) -> int:
    """The count of a code array under the default rules in a contract of the schedule, from
    the compiled entry point with no parsing (the kernel checks the codes' range and the pack);
    -1 when the call is not of that shape or the position needs the checks' error."""
    if not (rules is None and type(hand) is np.ndarray and hand.dtype == np.int64
            and hand.ndim == 1 and type(contract) is int and type(seen) is tuple and not seen):
        return -1
    gr = _DEFAULT_CONTRACTS.get(contract)
    if gr is None:
        return -1
    opts, scratch, counts, avail = _workspace()
    r = as_rules(None)
    args = (hand, _NO_SEEN, r.decks, r.jokers, gr[0], gr[1], r.complete_suit_for_three_runs,
            counts, avail, opts, scratch)
    if not _FAST_ENTRY:
        n = _pos.needed_of_codes(*args)  # compiles or loads; then the entry is known
        sig = tuple(numba.typeof(a) for a in args)
        cres = _pos.needed_of_codes.overloads.get(sig)
        if cres is not None:
            _FAST_ENTRY.append(cres.entry_point)
    else:
        n = _FAST_ENTRY[0](*args)
    return int(n) if 0 <= n < _nk.NO_WAY else -1


def cards_needed(hand, contract, rules=None, seen=()) -> int:
    """Least number of cards to add to ``hand`` so that it can lay ``contract`` (R3-R5, R7).

    The hand may keep cards it does not use; jokers, no adjacent jokers in a run (R4), two
    naturals per group (R3) and one group per rank, one run per suit (R5) hold as in
    :func:`kalooki_sim.solve_opening`, and V6 when the rules say so. Only cards the pack can
    still supply count: a natural held ``rules.decks`` times by the hand and ``seen`` together,
    or a joker beyond ``rules.jokers``, cannot be added.

    Parameters
    ----------
    hand : str or iterable
        The cards in hand (see :func:`kalooki_sim.parse_cards`).
    contract : int or (int, int)
        A hand number of the rules' schedule or a ``(groups, runs)`` pair.
    rules : Rules, optional
        Jamaican defaults if omitted.
    seen : str or iterable, optional
        Cards known to be out of reach (discards, melds on the table, other hands).

    Returns
    -------
    int
        0 exactly when :func:`kalooki_sim.solve_opening` finds an opening.

    Raises
    ------
    ValueError
        For bad cards or contract, a ``seen`` the pack cannot hold beside ``hand``, or a contract
        that no addable cards can lay (e.g. every copy of a rank is seen).

    Examples
    --------
    >>> cards_needed("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1))
    2
    >>> cards_needed("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1), seen="10♥ 10♥ 6♥ 6♥")  # jokers then
    2
    >>> cards_needed("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1), seen="10♥ 10♥ 6♥ 6♥ JK JK JK JK")
    5
    """
    n = _fast_needed(hand, contract, rules, seen)
    if n >= 0:
        return n
    codes, seen_codes, rules, g, r = _position(hand, contract, rules, seen)
    opts, scratch, counts, avail = _workspace()
    n = _pos.needed_of_codes(codes, seen_codes, rules.decks, rules.jokers, g, r,
                             rules.complete_suit_for_three_runs, counts, avail, opts, scratch)
    if n == _pos.OVER_PACK:
        raise _pack_error(codes, seen_codes, rules)
    if n >= _nk.NO_WAY:
        raise _impossible(g, r)
    return int(n)


def outs(hand, contract, rules=None, seen=()) -> pd.DataFrame:
    """The cards that bring ``hand`` one card closer to laying ``contract`` (R3-R5, R7).

    Parameters are as in :func:`cards_needed`.

    Returns
    -------
    pandas.DataFrame
        One row per distinct card (sorted by card code) that lowers :func:`cards_needed` by one:
        ``card`` (text as :func:`kalooki_sim.card_text` gives), ``unseen`` (copies the pack can
        still supply beside ``hand`` and ``seen``), ``needed_after``. ``df.attrs["needed"]`` is
        the count before and ``df.attrs["total"]`` the sum of ``unseen``. No rows when the hand
        can already open.

    Examples
    --------
    >>> df = outs("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1))
    >>> df.attrs["needed"], list(df.card)
    (2, ['4♣', '4♦', '4♥', '6♥', '10♥', '4♠', 'JK'])
    >>> df.attrs["total"]
    14
    """
    codes, seen_codes, rules, g, r = _position(hand, contract, rules, seen)
    opts, scratch, counts, avail = _workspace()
    after = np.full(N_CODES, -1, dtype=np.int64)
    # only the cards that cut the count are listed, and those the kernel counts exactly
    before = _pos.outs_of_codes(codes, seen_codes, rules.decks, rules.jokers, g, r,
                                rules.complete_suit_for_three_runs, counts, avail, opts,
                                scratch, after)
    if before == _pos.OVER_PACK:
        raise _pack_error(codes, seen_codes, rules)
    if before >= _nk.NO_WAY:
        raise _impossible(g, r)
    rows = [(card_text(c), int(avail[c]), int(after[c])) for c in range(N_CODES)
            if after[c] >= 0 and after[c] == before - 1]
    df = pd.DataFrame(rows, columns=["card", "unseen", "needed_after"])
    df.attrs["needed"] = int(before)
    df.attrs["total"] = int(df["unseen"].sum()) if len(df) else 0
    return df
