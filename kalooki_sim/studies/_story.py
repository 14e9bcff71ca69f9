"""What a typed history shows as a whole: the pile it leaves, the cards each seat took and still
has, the calls, and the stock draws its turns need (R6, R9).

A history may leave turns out (a player types what they remember, in table order); a turn it
shows may leave out its draw. What it shows of a discard's fate is whole: a discard it shows
and does not show taken or called was not taken or called (R9), so it lies in the pile under
the offer. The turns it leaves out are counted by table order (R2: the turn passes to the
right-hand neighbour's left, seat ``k`` to seat ``k - 1``; R9: a call does not move the turn),
and every turn not shown as a take drew from the stock, except the first turn the history
shows, which may have taken the upcard (C1) or a discard it leaves out. The upcard may open a
history as the dealer's discard (C1): a turn of the dealer's with no draw.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..engine.kernels import history as _H
from ._history import H_UPCARD


@dataclass
class Story:
    """The history read as a whole.

    ``pile``: ``(entry, code)`` of the discards nobody took or called, in order, the offer's
    own discard left out. ``held``: per seat, the cards it took or called and has not been
    shown discarding since. ``calls``: per seat, the calls shown. ``used``: per entry, the
    stock cards used up to and including it (draws shown or implied, calls' penalty cards).
    ``draws``: stock draws shown or implied, the offer's own turn included; ``penalties``:
    calls shown; ``left_out``: the turns the history leaves out between its events and before
    the offer.
    """

    pile: list = field(default_factory=list)
    held: dict = field(default_factory=dict)
    calls: Counter = field(default_factory=Counter)
    used: list = field(default_factory=list)
    draws: int = 0
    penalties: int = 0
    left_out: int = 0


def _gap(cur, seat, players):
    """Turns from ``cur``'s turn to ``seat``'s next one (1: ``seat`` plays next)."""
    g = (cur - seat) % players
    return g if g else players


def read_story(events, players, discarder, card) -> Story:
    """The :class:`Story` of checked ``events`` (rows seat, kind, code of
    :func:`._history.check_history`) that end at the offer of ``card`` by ``discarder``."""
    st = Story(held={s: Counter() for s in range(players)})
    cur, drawn, first = None, False, True
    pile = []  # [entry, code] of the discards in the pile, the live one last
    live = None  # (discarder, code) of the live discard, as check_history reads it
    for i, e in enumerate(events):
        s, kind, c = (int(x) for x in e)
        if kind == H_UPCARD:  # the dealer's discard before the first turn (C1): no draw
            kind = _H.H_DISCARD
        if kind in (_H.H_DRAW, _H.H_TAKE) or (kind == _H.H_DISCARD
                                              and not (cur == s and drawn)):
            # a turn of seat s begins: count the turns left out since the last one
            if cur is not None:
                skipped = _gap(cur, s, players) - 1
                st.left_out += skipped
                st.draws += skipped
            # its draw: shown, a take, or a stock draw not shown (but the first turn shown
            # may have taken the upcard, C1, or a discard left out)
            st.draws += kind == _H.H_DRAW or (kind == _H.H_DISCARD and not first)
            cur, drawn, first = s, kind != _H.H_DISCARD, False
        if kind == _H.H_DRAW and live is not None and s == (live[0] - 1) % players:
            live = None  # the next player drew: the discard is buried (R9)
        elif kind == _H.H_DISCARD:
            drawn = False
            if st.held[s][c] > 0:  # a card it took goes back down
                st.held[s][c] -= 1
            pile.append([i, c])
            live = (s, c)
        elif kind in (_H.H_TAKE, _H.H_CALL):
            pile.pop()  # the live discard leaves the pile (R9)
            live = None
            st.held[s][c] += 1
            if kind == _H.H_CALL:
                st.calls[s] += 1
                st.penalties += 1
        st.used.append(st.draws + st.penalties)
    if live is not None and live == (discarder, card):
        pile.pop()  # the history ends with the offer's own discard
    elif cur is not None and not (cur == discarder and drawn):
        # the offer's discard ends a turn of its own: the turns up to it, and its draw
        skipped = _gap(cur, discarder, players) - 1
        st.left_out += skipped
        st.draws += skipped + 1
    st.pile = [(i, c) for i, c in pile]
    return st


def pile_in_seen(story, seen) -> int | None:
    """The entry of the first discard of the history's pile that ``seen`` does not hold in the
    same order (the history's pile must be a subsequence of ``seen``), else None."""
    j = 0
    for i, c in story.pile:
        while j < len(seen) and int(seen[j]) != c:
            j += 1
        if j == len(seen):
            return i
        j += 1
    return None

