"""Sentence building for the report: words computed from the numbers.
"""

from __future__ import annotations

import pandas as pd

from ._multiplicity import first_set


def join_words(items, empty: str = "none") -> str:
    """``'1, 2 and 3'`` for a list; ``empty`` for none.

    Examples
    --------
    >>> join_words([7, 9]), join_words([1, 2, 3]), join_words([])
    ('7 and 9', '1, 2 and 3', 'none')
    """
    items = [str(x) for x in items]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def first_phrase(ranks: pd.DataFrame, noun: str = "hand", nouns: str | None = None) -> str:
    """What a :func:`rank_intervals` table allows one to say about first place.

    ``'hand 7'`` when one item alone can be first; otherwise ``'one of hands 7 and 9 (their
    rank intervals overlap: no single one is clearly first)'``.
    """
    first = sorted(first_set(ranks), key=str)
    if len(first) == 1:
        return f"{noun} {first[0]}"
    return (f"one of {nouns or noun + 's'} {join_words(first)} (their rank intervals "
            "overlap: no single one is clearly first)")
