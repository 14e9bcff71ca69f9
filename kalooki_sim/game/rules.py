"""The rules configuration: schedule, table size, pack and the V-options of RULES.md.

:class:`Rules` is immutable and validated on construction; the defaults are the Jamaican
card rules (R1, R2, R9). Every variant (V1-V9) is a named field, off by default; V1's
player-count pack is ``pack="by-table"``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .._lib import (
    PLAYERS_HI,
    PLAYERS_LO,
    check_bool,
    check_choice,
    check_int,
    check_players,
    int_range,
    is_int,
    not_allowed,
)

#: R2: (cards dealt, groups, runs) for hands 1-9.
JAMAICAN_SCHEDULE: tuple[tuple[int, int, int], ...] = (
    (9, 3, 0),
    (10, 2, 1),
    (11, 1, 2),
    (12, 0, 3),
    (12, 4, 0),
    (13, 3, 1),
    (14, 2, 2),
    (15, 1, 3),
    (16, 0, 4),
)


#: V1 ``pack="by-table"``: (decks, jokers) by player count, after the encyclopedia article's
#: "two or more decks according to the number of players" (Tuluki, two players, uses two).
PACK_BY_TABLE: dict[int, tuple[int, int]] = {
    2: (2, 4), 3: (2, 4), 4: (2, 4), 5: (3, 6), 6: (3, 6), 7: (4, 8), 8: (4, 8)
}

PACKS = ("card", "by-table")
_DEFAULT_DECKS, _DEFAULT_JOKERS = 2, 4
_SWITCHES = (
    "early_big_deal",
    "free_extension",
    "double_only_first_down",
    "jokers_on_others",
    "complete_suit_for_three_runs",
    "tuluki",
)


@dataclass(frozen=True)
class Rules:
    """Rules of a Kalooki table. Immutable; invalid values raise ``TypeError``/``ValueError``.

    Integer fields accept numpy integers (stored as ``int``); switches accept only ``True`` or
    ``False``. Change fields with :meth:`with_`, which validates again.

    Parameters
    ----------
    players : int
        Seats at the table: 3-8 (3-6 by the card, R2; 7-8 need more decks, V1). Two players
        means Tuluki (V9) and needs ``tuluki=True``.
    schedule : sequence of (cards_dealt, groups, runs)
        One entry per hand; the Jamaican nine (R2) by default. A custom schedule is V7.
    decks, jokers : int
        The pack: two 52-card decks (1-8) and four jokers (0-64) by default (R1; V1 changes
        them). With ``pack="by-table"`` leave them out: other values raise ``ValueError``.
    call_limit : int
        Successful calls allowed per player per hand, 0-50 (R9: 3; V8 changes it). It binds
        every player; a :class:`~kalooki_sim.Policy` may only call less.
    early_big_deal : bool
        V2: deal 12 cards in each of hands 1-3 (applied to the schedule on construction).
    free_extension : bool
        V3: runs may grow at either end.
    double_only_first_down : bool
        V4: doubling only when the player who went out was the first to lay down.
    jokers_on_others : bool
        V5: jokers may be laid off on other players' melds.
    complete_suit_for_three_runs : bool
        V6: in a contract with three runs, one complete 13-card run stands for the three.
    tuluki : bool
        V9: the two-player game.
    pack : {"card", "by-table"}
        ``"card"`` (default): the pack is ``decks`` and ``jokers`` as given, the card's two
        decks and four jokers (108 cards, R1) unless changed. ``"by-table"`` (V1): the
        article's "two or more decks according to the number of players": 3-4 players two
        decks + 4 jokers, 5-6 players three decks + 6 jokers, 7-8 players four decks + 8 jokers
        (:data:`PACK_BY_TABLE`); ``decks`` and ``jokers`` are then set from ``players``.
    max_replays : int
        The most times a void hand (R13) is dealt again (R14) before the engine gives up on
        it, 0-10**7 (100,000 by default); a game that reaches it is marked incomplete. An
        engine limit, not a rule: real tables never get near it.

    Examples
    --------
    >>> Rules(players=6, pack="by-table").pack_size
    162
    >>> Rules(players=9)
    Traceback (most recent call last):
    ...
    ValueError: players=9 is not allowed; give an integer 3-8
    """

    players: int = 4
    schedule: tuple[tuple[int, int, int], ...] = JAMAICAN_SCHEDULE
    decks: int = _DEFAULT_DECKS
    jokers: int = _DEFAULT_JOKERS
    call_limit: int = 3
    early_big_deal: bool = False
    free_extension: bool = False
    double_only_first_down: bool = False
    jokers_on_others: bool = False
    complete_suit_for_three_runs: bool = False
    tuluki: bool = False
    pack: str = "card"
    max_replays: int = 100_000

    def __post_init__(self):
        def put(name, value):
            object.__setattr__(self, name, value)

        for name in _SWITCHES:
            put(name, check_bool(name, getattr(self, name)))
        put("players", self._checked_players())
        put("pack", check_choice("pack", self.pack, PACKS))
        put("decks", check_int("decks", self.decks, 1, 8))
        put("jokers", check_int("jokers", self.jokers, 0, 64))
        if self.pack == "by-table":
            put("decks", self._by_table("decks", self.decks, _DEFAULT_DECKS, 0))
            put("jokers", self._by_table("jokers", self.jokers, _DEFAULT_JOKERS, 1))
        put("call_limit", check_int("call_limit", self.call_limit, 0, 50))
        put("max_replays", check_int("max_replays", self.max_replays, 0, 10**7))
        sched = _checked_schedule(self.schedule)
        if self.early_big_deal:
            sched = tuple((12, g, r) if i < 3 else (c, g, r) for i, (c, g, r) in enumerate(sched))
        put("schedule", sched)
        self._check_pack_holds_the_deal()

    # -- validation -------------------------------------------------------------------------
    def _checked_players(self) -> int:
        if self.tuluki:
            return check_int("players", self.players, 2, 2, why="tuluki=True is the "
                             "two-player game, V9")
        if is_int(self.players) and self.players == 2:
            raise ValueError(not_allowed("players", 2, int_range(PLAYERS_LO, PLAYERS_HI),
                                         "two players is Tuluki, V9: pass tuluki=True"))
        return check_players(self.players)

    def _by_table(self, name, given, default, i) -> int:
        want = PACK_BY_TABLE[self.players][i]
        if given not in (default, want):
            raise ValueError(
                f"{name}={given} is not allowed with pack='by-table', which sets it from the "
                f"player count ({self.players} players: {want}); leave {name} out or use "
                "pack='card'"
            )
        return want

    def _check_pack_holds_the_deal(self):
        most = max(c for c, _, _ in self.schedule)
        # V1: every hand dealt, plus the upcard (C1) and at least one stock card.
        if self.players * most + 2 > self.pack_size:
            raise ValueError(
                f"{self.players} players x {most} cards + upcard + stock needs "
                f"{self.players * most + 2} cards, but the pack has {self.pack_size} "
                f"({self.pack_text}); use more decks (V1) or "
                "pack='by-table'"
            )

    # -- derived ----------------------------------------------------------------------------
    @property
    def pack_size(self) -> int:
        """Cards in the pack: 52 per deck plus the jokers (108 by default)."""
        return 52 * self.decks + self.jokers

    @property
    def pack_text(self) -> str:
        """The pack in words: its decks and jokers (R1, V1).

        >>> Rules().pack_text, Rules(players=3, decks=1).pack_text
        ('2 decks + 4 jokers', '1 deck + 4 jokers')
        """
        return (f"{self.decks} deck{'' if self.decks == 1 else 's'} + {self.jokers} "
                f"joker{'' if self.jokers == 1 else 's'}")

    @property
    def hands(self) -> int:
        """Number of hands in a game (nine by default, R14)."""
        return len(self.schedule)

    def contract(self, hand: int) -> tuple[int, int]:
        """``(groups, runs)`` of hand number ``hand`` (1-based)."""
        return self.deal(hand)[1:]

    def deal(self, hand: int) -> tuple[int, int, int]:
        """``(cards_dealt, groups, runs)`` of hand number ``hand`` (1-based)."""
        return self.schedule[check_int("hand", hand, 1, self.hands, why="the schedule") - 1]

    def with_(self, **changes) -> Rules:
        """A copy with some fields changed (validated again).

        Under ``pack="by-table"`` the pack follows the new player count; switching back to
        ``pack="card"`` restores the card's pack unless ``decks``/``jokers`` are given.

        Examples
        --------
        >>> Rules(pack="by-table").with_(players=7).decks
        4
        """
        pack = changes.get("pack", self.pack)
        if pack == "by-table" or (pack == "card" and self.pack == "by-table"):
            changes.setdefault("decks", _DEFAULT_DECKS)
            changes.setdefault("jokers", _DEFAULT_JOKERS)
        return replace(self, **changes)

    # -- named formats (V7) -----------------------------------------------------------------
    @classmethod
    def jamaican(cls, **fields) -> Rules:
        """The Jamaican game: the card's nine contracts (R2), other fields as given."""
        return cls(schedule=JAMAICAN_SCHEDULE, **fields)

    @classmethod
    def kalooki(cls, **fields) -> Rules:
        """"Kalooki" (V7): the first four contracts, hands 1-4 of the Jamaican nine.

        Examples
        --------
        >>> Rules.kalooki().schedule
        ((9, 3, 0), (10, 2, 1), (11, 1, 2), (12, 0, 3))
        """
        return cls(schedule=JAMAICAN_SCHEDULE[:4], **fields)

    @classmethod
    def super_kalooki(cls, **fields) -> Rules:
        """"Super Kalooki" (V7): the last five contracts, hands 5-9 of the Jamaican nine
        (its hand 1 is the Jamaican hand 5, four groups of 12 cards)."""
        return cls(schedule=JAMAICAN_SCHEDULE[4:], **fields)

    @classmethod
    def baby_kalooki(cls, schedule, **fields) -> Rules:
        """"Baby Kalooki" (V7): a short teaching game dealt 8 cards a hand. The article's
        table of its contracts is missing, so the schedule must be given: (8, groups, runs)
        triples, each contract layable from 8 cards plus a draw (3 cards a group, 4 a run).

        Examples
        --------
        >>> Rules.baby_kalooki([(8, 2, 0), (8, 1, 1), (8, 0, 2)]).hands
        3
        """
        sched = _checked_schedule(schedule)
        for i, (c, g, r) in enumerate(sched, start=1):
            if c != 8:
                raise ValueError(f"schedule hand {i}: ({c}, {g}, {r}) is not allowed; Baby "
                                 "Kalooki deals 8 cards in every hand (V7)")
            if 3 * g + 4 * r > 9:
                raise ValueError(f"schedule hand {i}: ({c}, {g}, {r}) is not allowed; "
                                 f"{g} groups + {r} runs need {3 * g + 4 * r} cards, more than "
                                 "8 dealt plus a draw")
        return cls(schedule=sched, **fields)


#: rule sets by name, wherever ``rules=`` is accepted (V7); Baby Kalooki needs its schedule
FORMATS = {
    "jamaican": Rules.jamaican,
    "kalooki": Rules.kalooki,
    "super-kalooki": Rules.super_kalooki,
}


def contract_text(groups: int, runs: int) -> str:
    """A contract in words, singular where it is one.

    >>> contract_text(1, 2)
    '1 group + 2 runs'
    """
    return (f"{groups} group{'' if groups == 1 else 's'} + "
            f"{runs} run{'' if runs == 1 else 's'}")


def _checked_schedule(schedule) -> tuple[tuple[int, int, int], ...]:
    """The schedule as a tuple of int triples (R2, R5, V7), or a clear error."""
    allowed = "a sequence of (cards_dealt, groups, runs) triples of integers"
    if isinstance(schedule, (str, bytes)) or not isinstance(schedule, Iterable):
        raise TypeError(not_allowed("schedule", schedule, allowed))
    entries = list(schedule)
    if not entries:
        raise ValueError(not_allowed("schedule", schedule, allowed, "at least one hand"))
    triple = "a (cards_dealt, groups, runs) triple of integers"
    out = []
    for i, entry in enumerate(entries, start=1):
        if isinstance(entry, (str, bytes)) or not isinstance(entry, Iterable):
            raise TypeError(f"schedule hand {i}: {entry!r} is not allowed; give {triple}")
        entry = tuple(entry)
        if len(entry) != 3:
            raise ValueError(f"schedule hand {i}: {entry!r} is not allowed; give {triple}")
        try:
            cards = check_int("cards_dealt", entry[0], 1)
            groups = check_int("groups", entry[1], 0, 13, why="R5")
            runs = check_int("runs", entry[2], 0, 4, why="R5")
        except (TypeError, ValueError) as e:
            raise type(e)(f"schedule hand {i}: {e}") from None
        if groups + runs == 0:
            raise ValueError(f"schedule hand {i}: {entry!r} is not allowed; a contract needs "
                             "at least one meld")
        need = 3 * groups + 4 * runs
        if need > cards + 1:
            raise ValueError(f"schedule hand {i}: {entry!r} is not allowed; {groups} groups + "
                             f"{runs} runs need {need} cards (3 a group, 4 a run: R3, R4), "
                             f"more than {cards} dealt plus a draw, so only calls could make "
                             f"up the rest and the hands stall; deal at least {need - 1}")
        out.append((cards, groups, runs))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def _default_rules() -> Rules:
    """The Jamaican defaults, built once (``Rules`` is frozen, so one instance serves all)."""
    return Rules()


def as_rules(rules, players=None) -> Rules:
    """``rules`` if it is a :class:`Rules`, the defaults for ``None``, a named format
    (:data:`FORMATS`: ``"jamaican"``, ``"kalooki"``, ``"super-kalooki"``; at ``players`` seats
    when given); else a clear error.

    Examples
    --------
    >>> as_rules("super-kalooki").hands
    5
    """
    if rules is None:
        return _default_rules()
    if isinstance(rules, str):
        key = rules.strip().lower().replace("_", "-").replace(" ", "-")
        if key == "baby-kalooki":
            raise ValueError("rules='baby-kalooki' is not allowed by name: its contracts are "
                             "not in the article, so give Rules.baby_kalooki(schedule) (V7)")
        if key not in FORMATS:
            raise ValueError(not_allowed("rules", rules, "a Rules, None, or a format name: "
                                         + ", ".join(FORMATS)))
        return FORMATS[key]() if players is None else FORMATS[key](players=players)
    if not isinstance(rules, Rules):
        raise TypeError(not_allowed("rules", rules, "a kalooki_sim.Rules, None, or a format "
                                    "name (" + ", ".join(FORMATS) + ")"))
    return rules
