"""Melds in text form: recognising them (R3, R4), the exact opening (R5, R7), lay-offs (R10, R11).

These are the plain-Python public functions; each validates its input and calls a kernel in
:mod:`kalooki_sim.game._kernels`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lib import PLAYERS_HI, check_bool, check_int, is_int, not_allowed
from ._kernels import layoff as _lk
from ._kernels import solver as _sk
from .cards import JOKER, PENALTY, card_code, card_text, hand_counts, rank_of, suit_of, to_codes
from .rules import Rules, as_rules

# -- recognising one meld -------------------------------------------------------------------


def _group_of(codes: np.ndarray):
    """``(rank, naturals, jokers)`` if the cards are a valid group (R3), else ``None``."""
    nat = codes[codes != JOKER]
    if len(codes) < 3 or len(nat) < 2:
        return None
    ranks = {rank_of(c) for c in nat}
    if len(ranks) != 1:
        return None
    return ranks.pop(), len(nat), len(codes) - len(nat)


def _run_of(codes: np.ndarray):
    """``(suit, lo, hi, joker_mask)`` if the cards, low to high, are a valid run (R4)."""
    n = len(codes)
    if n < 4 or n > 13:
        return None
    nat_idx = [i for i, c in enumerate(codes) if c != JOKER]
    if not nat_idx or len({suit_of(codes[i]) for i in nat_idx}) != 1:
        return None
    jmask_rel = [c == JOKER for c in codes]
    if any(a and b for a, b in zip(jmask_rel, jmask_rel[1:], strict=False)):
        return None  # R4: two jokers never adjacent
    # the position of the first card, consistent with every natural (aces may be 1 or 14)
    for lo in range(1, 15 - n + 1):
        ok = True
        for i in nat_idx:
            p = lo + i
            k = rank_of(codes[i])
            if not (k == p or (k == 1 and p == 14)):
                ok = False
                break
        if ok:
            jmask = 0
            for i, isj in enumerate(jmask_rel):
                if isj:
                    jmask |= 1 << (lo + i)
            return suit_of(codes[nat_idx[0]]), lo, lo + n - 1, jmask
    return None


def meld_kind(cards) -> str | None:
    """``"group"``, ``"run"`` or ``None`` for the cards of one meld.

    A run is given low to high with each joker where it stands (R4), e.g. ``"8♥ JK 10♥ J♥"``.

    Examples
    --------
    >>> meld_kind("7♥ JK 7♠ JK"), meld_kind("J♠ Q♠ K♠ A♠"), meld_kind("K♠ A♠ 2♠ 3♠")
    ('group', 'run', None)
    """
    codes = to_codes(cards)
    if _group_of(codes):
        return "group"
    if _run_of(codes):
        return "run"
    return None


# -- the opening ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    """A best opening lay-down (R7) of a hand.

    Attributes
    ----------
    melds : list of list of str
        Groups (by rank) then runs (by suit, low to high with jokers in place).
    leftover : list of str
        Cards left in hand.
    leftover_penalty : int
        Their R1 penalty: the minimum over every legal opening of this hand.
    """

    melds: list[list[str]]
    leftover: list[str]
    leftover_penalty: int

    @property
    def groups(self) -> list[list[str]]:
        """The melds that are groups."""
        return [m for m in self.melds if meld_kind(m) == "group"]

    @property
    def runs(self) -> list[list[str]]:
        """The melds that are runs."""
        return [m for m in self.melds if meld_kind(m) == "run"]


def resolve_contract(contract, rules: Rules) -> tuple[int, int]:
    """``(groups, runs)`` from a hand number of the schedule or a ``(groups, runs)`` pair."""
    if isinstance(contract, (int, np.integer)) and not isinstance(contract, bool):
        if 1 <= contract <= rules.hands:
            return rules.contract(int(contract))
    if isinstance(contract, (tuple, list)) and len(contract) == 2:
        g, r = contract
        if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in (g, r)):
            g, r = int(g), int(r)
            if 0 <= g <= 13 and 0 <= r <= 4 and g + r > 0:
                return g, r
    raise ValueError(
        f"contract={contract!r} is not allowed; give a hand number 1-{rules.hands} or a "
        "(groups, runs) pair with groups 0-13, runs 0-4, not both 0"
    )


def _solve_counts(counts, jokers, g, r, v6):
    cap = _sk.DEFAULT_CAPACITY
    while True:
        opts, scratch, runs, groups = _sk.new_workspace(jokers, cap)
        value, _ = _sk.solve_kernel(counts, jokers, g, r, v6, opts, scratch, runs, groups)
        if value != -2:
            return value, runs, groups
        cap *= 4


def _run_cards(suit, lo, hi, jmask) -> list[int]:
    return [
        JOKER if (jmask >> p) & 1 else card_code(suit, 1 if p == 14 else p)
        for p in range(lo, hi + 1)
    ]


def solve_opening(hand, contract, rules=None) -> Opening | None:
    """The opening of ``hand`` for ``contract`` that leaves the least penalty (R5, R7).

    Parameters
    ----------
    hand : str or iterable
        The cards in hand (see :func:`kalooki_sim.parse_cards`).
    contract : int or (int, int)
        A hand number of the rules' schedule (1-9 by default) or a ``(groups, runs)`` pair.
    rules : Rules, optional
        Jamaican defaults if omitted; V6 (complete suit for three runs) is honoured.

    Returns
    -------
    Opening or None
        ``None`` exactly when the hand cannot lay the contract.

    Examples
    --------
    >>> o = solve_opening("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", 1)
    >>> o.leftover, o.leftover_penalty
    (['2♣'], 2)
    """
    rules = as_rules(rules)
    g, r = resolve_contract(contract, rules)
    codes = to_codes(hand, rules)
    counts, jokers = hand_counts(codes)
    value, runs, groups = _solve_counts(counts, jokers, g, r, rules.complete_suit_for_three_runs)
    if value < 0:
        return None
    rem = counts.copy()
    run_melds = []
    for s in range(4):
        lo, hi, jm = (int(x) for x in runs[s])
        if lo == 0:
            continue
        cards = _run_cards(s, lo, hi, jm)
        for c in cards:
            if c != JOKER:
                rem[suit_of(c), rank_of(c)] -= 1
        run_melds.append(cards)
    jokers_left = jokers - sum(c == JOKER for m in run_melds for c in m)
    group_melds = []
    for k in range(1, 14):
        if groups[k] < 0:
            continue
        cards = []
        for s in range(4):
            cards += [card_code(s, k)] * int(rem[s, k])
            rem[s, k] = 0
        cards += [JOKER] * int(groups[k])
        jokers_left -= int(groups[k])
        group_melds.append(cards)
    leftover = [card_code(s, k) for s in range(4) for k in range(1, 14) for _ in range(rem[s, k])]
    leftover += [JOKER] * jokers_left
    pen = int(PENALTY[np.asarray(leftover, dtype=np.int64)].sum()) if leftover else 0
    return Opening(
        melds=[[card_text(c) for c in m] for m in group_melds + run_melds],
        leftover=[card_text(c) for c in leftover],
        leftover_penalty=pen,
    )


# -- lay-offs -------------------------------------------------------------------------------

_OWNER, _OTHER = 0, 1


def meld_record(cards, owner: int = 0, rules=None) -> np.ndarray:
    """The kernel record (see :mod:`kalooki_sim.game._kernels.layoff`) of a meld given as cards.

    ``owner`` is the seat that laid it, 0-7. ``rules`` gives the pack the cards come from (V1:
    with three decks a group may hold three 10♥); the Jamaican two-deck pack by default.

    Examples
    --------
    >>> from kalooki_sim import Rules
    >>> rec = meld_record("10♥ 10♥ 10♥", rules=Rules(players=7, pack="by-table"))
    >>> int(rec[2]), int(rec[6])  # a group (KEY: rank 10) of three naturals (NAT)
    (10, 3)
    """
    owner = check_int("owner", owner, 0, PLAYERS_HI - 1, why="a seat")
    codes = to_codes(cards, rules)
    rec = np.zeros(_lk.MELD_COLS, dtype=np.int64)
    rec[_lk.OWNER] = owner
    grp = _group_of(codes)
    if grp:
        rec[_lk.KIND], rec[_lk.KEY], rec[_lk.NAT], rec[_lk.JOK] = _lk.GROUP, *grp
        return rec
    run = _run_of(codes)
    if run:
        suit, lo, hi, jm = run
        rec[_lk.KIND], rec[_lk.KEY], rec[_lk.LO], rec[_lk.HI], rec[_lk.JMASK] = (
            _lk.RUN, suit, lo, hi, jm
        )
        rec[_lk.JOK] = bin(jm).count("1")
        return rec
    raise ValueError(
        f"{' '.join(card_text(c) for c in codes)!r} is not a meld: a group is 3+ cards of one "
        "rank with 2+ naturals (R3); a run is 4-13 cards of one suit, low to high, jokers in "
        "place and never adjacent (R4)"
    )


def record_cards(rec: np.ndarray, suits_of_group=None) -> list[str]:
    """Cards of a meld record; a group's naturals take the suits given (default ♣ upward)."""
    if rec[_lk.KIND] == _lk.RUN:
        cols = [_lk.KEY, _lk.LO, _lk.HI, _lk.JMASK]
        return [card_text(c) for c in _run_cards(*(int(x) for x in rec[cols]))]
    k = int(rec[_lk.KEY])
    suits = list(suits_of_group or [])
    nat = [card_code(suits[i] if i < len(suits) else i % 4, k) for i in range(rec[_lk.NAT])]
    return [card_text(c) for c in nat] + ["JK"] * int(rec[_lk.JOK])


def one_card(card, rules) -> int:
    """The code of exactly one card, given as text (``"K♠"``) or an integer code; anything
    else is refused naming the value and what is allowed.

    Examples
    --------
    >>> from kalooki_sim.game.rules import Rules
    >>> one_card("2♣", Rules()) == one_card(one_card("2♣", Rules()), Rules())
    True
    """
    allowed = "exactly one card: text such as 'K♠' or an integer code 0-52"
    if is_int(card):
        card = [card]
    elif not isinstance(card, str):
        raise TypeError(not_allowed("card", card, allowed))
    codes = to_codes(card, rules)
    if len(codes) != 1:
        raise ValueError(not_allowed("card", card, allowed, f"got {len(codes)}"))
    return int(codes[0])


def lay_off(meld, card, own: bool = True, rules=None) -> list[str] | None:
    """What ``meld`` becomes when ``card`` is laid off on it, or ``None`` if that is illegal.

    Parameters
    ----------
    meld : str or iterable
        One meld on the table; a run low to high with its jokers in place.
    card : str or int
        The card laid off: one card's text or code.
    own : bool
        Whether the meld is the laying player's own (R10: jokers only on own melds); only
        ``True`` or ``False`` (a ``TypeError`` otherwise).
    rules : Rules, optional
        V3 (free extension) and V5 (jokers on others' melds) are honoured.

    Examples
    --------
    R11's example: the 9♥ takes the joker's place and the joker moves up to stand for Q♥.

    >>> lay_off("8♥ JK 10♥ J♥", "9♥")
    ['8♥', '9♥', '10♥', 'J♥', 'JK']
    >>> lay_off("8♥ 9♥ 10♥ J♥ JK", "7♥") is None
    True
    """
    own = check_bool("own", own)
    rules = as_rules(rules)
    codes = to_codes(meld, rules)
    c = one_card(card, rules)
    rec = meld_record(codes, owner=_OWNER, rules=rules)
    out = np.zeros_like(rec)
    res = _lk.lay_off_kernel(
        rec, c, _OWNER if own else _OTHER, rules.free_extension, rules.jokers_on_others, out
    )
    if res == _lk.ILLEGAL:
        return None
    if out[_lk.KIND] == _lk.GROUP:
        nat = [x for x in codes if x != JOKER] + ([c] if c != JOKER else [])
        return [card_text(x) for x in nat] + ["JK"] * int(out[_lk.JOK])
    return record_cards(out)


def can_lay_off(meld, card, own: bool = True, rules=None) -> bool:
    """Whether ``card`` may be laid off on ``meld`` (R10, R11); see :func:`lay_off`."""
    own = check_bool("own", own)
    return lay_off(meld, card, own=own, rules=rules) is not None
