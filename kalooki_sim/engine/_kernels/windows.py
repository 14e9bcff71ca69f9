"""R4's 4-card windows for :mod:`.needed`: the joker masks a window may take, and the least
naturals a window adds, per held and addable positions, as one look-up table.
"""

from __future__ import annotations

import numpy as np

#: returned when no number of addable cards lays the contract
NO_WAY = 1 << 40
#: joker masks of a 4-card window with no two jokers adjacent (R4), and their joker counts
WINDOW_MASKS = (0, 1, 2, 4, 8, 5, 9, 10)
WINDOW_JOK = (0, 1, 1, 1, 1, 2, 2, 2)


def _window_options(h4, a4):
    """The joker masks a 4-card window whose positions hold the naturals ``h4`` and could take
    the copies ``a4`` (bit masks) may take, none over a held natural, never two adjacent (R4),
    every missing natural addable: ``(mask index, jokers, naturals added)``, in mask order."""
    for i in range(8):
        jm = WINDOW_MASKS[i]
        miss = 15 & ~jm & ~h4
        if not jm & h4 and not miss & ~a4:
            yield i, WINDOW_JOK[i], bin(miss).count("1")


def _window_costs():
    """``[maxj, held4, add4, u]``: least naturals to add for a 4-card window whose positions
    hold the naturals ``held4`` and could take the copies ``add4`` (bit masks), with at most
    ``u`` jokers (:func:`_window_options`) and ``maxj`` (capped at 2) jokers to be had;
    ``NO_WAY`` where none. Built once: a window of a suit is then one look-up.
    """
    out = np.full((3, 16, 16, 3), NO_WAY, np.int64)
    for mj in range(3):
        for h4 in range(16):
            for a4 in range(16):
                for _, t, n in _window_options(h4, a4):
                    if t > mj:
                        continue
                    for u in range(t, 3):
                        out[mj, h4, a4, u] = min(out[mj, h4, a4, u], n)
    return out


_WINDOW_COST = _window_costs()


def _window_counts():
    """``[maxj, held4, add4]``: the joker masks a 4-card window may take (R4, none over a held
    natural, at most ``maxj`` jokers capped at 2) with every missing natural addable: how many
    options it lists, about (the order of a search's suits before they are listed)."""
    out = np.zeros((3, 16, 16), np.int64)
    for mj in range(3):
        for h4 in range(16):
            for a4 in range(16):
                out[mj, h4, a4] = sum(t <= mj for _, t, _ in _window_options(h4, a4))
    return out


_WINDOW_N = _window_counts()


def _window_free():
    """``[held4, add4, t]``: the least naturals a 4-card window adds with exactly ``t`` jokers
    (none over a held natural, never two adjacent, R4; ``NO_WAY`` where none), and the first
    joker mask (index into :data:`WINDOW_MASKS`) that does: a window touching no relevant
    rank lists just that (:func:`.listing._list_windows`)."""
    na = np.full((16, 16, 3), NO_WAY, np.int64)
    first = np.full((16, 16, 3), -1, np.int64)
    for h4 in range(16):
        for a4 in range(16):
            for i, t, n in _window_options(h4, a4):
                if n < na[h4, a4, t]:
                    na[h4, a4, t] = n
                    first[h4, a4, t] = i
    return na, first


_FREE_NA, _FREE_MASK = _window_free()
