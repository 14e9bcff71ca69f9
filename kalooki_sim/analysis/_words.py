"""Lists and rankings in words (``join_words``, ``first_phrase``, ``overlap_note``) for the
analysis and the pages; numbers with the decimals their interval supports (``fixed``,
``ci_text``) live in :mod:`kalooki_sim._stats`, and the pages' sentences in
:mod:`kalooki_sim.report.words` and :mod:`kalooki_sim.report.player_words`.
"""

from __future__ import annotations

import pandas as pd

from .._stats import bound, ci_text, decimals, fixed  # noqa: F401 (their old home)
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


def overlap_note(ranks: pd.DataFrame, intervals: dict, higher_first: bool = True,
                 noun: str = "hand", order: str = "most often") -> str:
    """The items a first-place claim leaves out although their 95% intervals overlap first
    place's, each with its rank interval: a reader who sees the overlap reads why.

    :func:`first_phrase` names the items whose simultaneous rank interval reaches 1. An item
    whose own interval overlaps one of theirs can still be ruled out (the ranks weigh every
    item's data at once); this says so, and by which rank interval. ``intervals``: item ->
    ``(lo, hi)``, the 95% intervals the page shows; ``higher_first`` as the ranks were made;
    ``order`` says what rank 1 is. Empty string when no item is left out that way.

    Examples
    --------
    >>> ranks = pd.DataFrame({"item": [8, 9, 3], "rank_lo": [1, 1, 3], "rank_hi": [2, 2, 3]})
    >>> iv = {8: (0.0, 1.5e-5), 9: (0.0, 1.5e-5), 3: (1.4e-5, 5.8e-5)}
    >>> overlap_note(ranks, iv, higher_first=False, order="least often")
    "Hand 3's 95% interval overlaps theirs, but its rank interval does not reach 1 (1 = least \
often; hand 3: 3 to 3)."
    >>> overlap_note(ranks, {**iv, 3: (1.6e-5, 5.8e-5)}, higher_first=False)
    ''
    """
    first = first_set(ranks)
    r = ranks.set_index("item")
    if higher_first:
        reach = min(intervals[f][0] for f in first)
        close = [i for i in r.index if i not in first and intervals[i][1] >= reach]
    else:
        reach = max(intervals[f][1] for f in first)
        close = [i for i in r.index if i not in first and intervals[i][0] <= reach]
    if not close:
        return ""
    close = sorted(close, key=str)
    whose = "theirs" if len(first) > 1 else f"{noun} {first[0]}'s"
    each = "; ".join(f"{noun} {i}: {r.loc[i, 'rank_lo']} to {r.loc[i, 'rank_hi']}"
                     for i in close)
    if len(close) == 1:
        head = f"{noun.capitalize()} {close[0]}'s 95% interval overlaps {whose}, but its rank "
        head += "interval does not reach 1"
    else:
        head = (f"The 95% intervals of {noun}s {join_words(close)} overlap {whose}, but their "
                "rank intervals do not reach 1")
    return f"{head} (1 = {order}; {each})."
