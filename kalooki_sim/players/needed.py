"""Cards needed to lay a contract and the cards that bring it closer ("outs"), issue 8.

The Kalooki counterpart of shanten and ukeire in Mahjong engines. Both functions validate their
input and call :mod:`kalooki_sim.engine._kernels.needed`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine._kernels import needed as _nk
from ..game.cards import JOKER, N_CODES, card_text, check_pack, hand_counts, to_codes
from ..game.melds import resolve_contract
from ..game.rules import as_rules


def _parse(name, cards, rules):
    """``to_codes`` with the argument's name in any error."""
    try:
        return to_codes(cards, rules)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{name}: {e}") from None


def _prepare(hand, contract, rules, seen):
    """Validated ``(counts, jokers, g, r, v6, avail)`` for the kernels."""
    rules = as_rules(rules)
    g, r = resolve_contract(contract, rules)
    codes = _parse("hand", hand, rules)
    seen_codes = _parse("seen", seen, rules)
    try:
        check_pack(np.concatenate([codes, seen_codes]), rules)
    except ValueError as e:
        raise ValueError(f"seen holds cards the pack cannot hold together with the hand: {e}") \
            from None
    counts, jokers = hand_counts(codes)
    avail = np.full(N_CODES, rules.decks, dtype=np.int64)
    avail[JOKER] = rules.jokers
    for c in np.concatenate([codes, seen_codes]):
        avail[c] -= 1
    return counts, jokers, g, r, rules.complete_suit_for_three_runs, avail


def _impossible(g, r):
    return ValueError(
        f"contract ({g} groups, {r} runs) cannot be laid from this hand even with every card "
        "the pack can still supply (R3-R5)"
    )


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
    counts, jokers, g, r, v6, avail = _prepare(hand, contract, rules, seen)
    opts, scratch = _nk.new_workspace()
    n = _nk.needed_kernel(counts, jokers, g, r, v6, avail, opts, scratch)
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
    counts, jokers, g, r, v6, avail = _prepare(hand, contract, rules, seen)
    opts, scratch = _nk.new_workspace()
    after = np.full(N_CODES, -1, dtype=np.int64)
    before = _nk.outs_kernel(counts, jokers, g, r, v6, avail, opts, scratch, after)
    if before >= _nk.NO_WAY:
        raise _impossible(g, r)
    rows = [(card_text(c), int(avail[c]), int(after[c])) for c in range(N_CODES)
            if after[c] >= 0 and after[c] == before - 1]
    df = pd.DataFrame(rows, columns=["card", "unseen", "needed_after"])
    df.attrs["needed"] = int(before)
    df.attrs["total"] = int(df["unseen"].sum()) if len(df) else 0
    return df
