"""The rules configuration: schedule, table size, pack and the V-options of RULES.md.

:class:`Rules` is immutable and validated on construction; the defaults are the Jamaican
card rules (R1, R2, R9). Every variant (V1-V9) is a named field, off by default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


@dataclass(frozen=True)
class Rules:
    """Rules of a Kalooki table. Immutable; invalid combinations raise ``ValueError``.

    Parameters
    ----------
    players : int
        Seats at the table, 3-6 by the card (R2); 2-8 with the V1 option of more decks.
        Two players means Tuluki (V9) and needs ``tuluki=True``.
    schedule : tuple of (cards_dealt, groups, runs)
        One entry per hand; the Jamaican nine (R2) by default. A custom schedule is V7.
    decks, jokers : int
        The pack: two 52-card decks and four jokers (R1) by default (V1 changes decks).
    call_limit : int
        Successful calls allowed per player per hand (R9: 3; V8 changes it).
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
    """

    players: int = 4
    schedule: tuple[tuple[int, int, int], ...] = JAMAICAN_SCHEDULE
    decks: int = 2
    jokers: int = 4
    call_limit: int = 3
    early_big_deal: bool = False
    free_extension: bool = False
    double_only_first_down: bool = False
    jokers_on_others: bool = False
    complete_suit_for_three_runs: bool = False
    tuluki: bool = False

    def __post_init__(self):
        sched = tuple(tuple(int(x) for x in entry) for entry in self.schedule)
        if self.early_big_deal:
            sched = tuple((12, g, r) if i < 3 else (c, g, r) for i, (c, g, r) in enumerate(sched))
        object.__setattr__(self, "schedule", sched)
        self._validate()

    # -- validation -------------------------------------------------------------------------
    def _validate(self):
        def need_int(name, lo, hi=None):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"{name}={v!r} must be an integer")
            if v < lo or (hi is not None and v > hi):
                rng = f"{lo}-{hi}" if hi is not None else f">= {lo}"
                raise ValueError(f"{name}={v} is not allowed; allowed: {rng}")

        need_int("players", 2, 8)
        need_int("decks", 1, 8)
        need_int("jokers", 0, 64)
        need_int("call_limit", 0, 50)
        for name in (
            "early_big_deal",
            "free_extension",
            "double_only_first_down",
            "jokers_on_others",
            "complete_suit_for_three_runs",
            "tuluki",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}={getattr(self, name)!r} must be True or False")
        if self.players == 2 and not self.tuluki:
            raise ValueError("players=2 is Tuluki (V9): pass tuluki=True; otherwise 3-8 players")
        if self.tuluki and self.players != 2:
            raise ValueError(f"tuluki=True is the two-player game (V9); got players={self.players}")
        if not self.schedule:
            raise ValueError("schedule is empty; give at least one (cards_dealt, groups, runs)")
        for i, entry in enumerate(self.schedule, start=1):
            if len(entry) != 3:
                raise ValueError(f"schedule hand {i}: {entry!r} is not (cards_dealt, groups, runs)")
            cards, groups, runs = entry
            if cards < 1:
                raise ValueError(f"schedule hand {i}: cards_dealt={cards} must be >= 1")
            if not 0 <= groups <= 13:
                raise ValueError(f"schedule hand {i}: groups={groups}; allowed 0-13 (R5)")
            if not 0 <= runs <= 4:
                raise ValueError(f"schedule hand {i}: runs={runs}; allowed 0-4 (R5)")
            if groups + runs == 0:
                raise ValueError(f"schedule hand {i}: a contract needs at least one meld")
        most = max(c for c, _, _ in self.schedule)
        # V1: every hand dealt, plus the upcard (C1) and at least one stock card.
        if self.players * most + 2 > self.pack_size:
            raise ValueError(
                f"{self.players} players x {most} cards + upcard + stock needs "
                f"{self.players * most + 2} cards, but the pack has {self.pack_size} "
                f"({self.decks} decks + {self.jokers} jokers); use more decks (V1)"
            )

    # -- derived ----------------------------------------------------------------------------
    @property
    def pack_size(self) -> int:
        """Cards in the pack: 52 per deck plus the jokers (108 by default)."""
        return 52 * self.decks + self.jokers

    @property
    def hands(self) -> int:
        """Number of hands in a game (nine by default, R14)."""
        return len(self.schedule)

    def contract(self, hand: int) -> tuple[int, int]:
        """``(groups, runs)`` of hand number ``hand`` (1-based)."""
        return self.deal(hand)[1:]

    def deal(self, hand: int) -> tuple[int, int, int]:
        """``(cards_dealt, groups, runs)`` of hand number ``hand`` (1-based)."""
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= self.hands:
            raise ValueError(f"hand={hand!r} is not in the schedule; allowed 1-{self.hands}")
        return self.schedule[hand - 1]

    def with_(self, **changes) -> Rules:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)


def as_rules(rules) -> Rules:
    """``rules`` if it is a :class:`Rules`, the defaults for ``None``; else a ``TypeError``."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a kalooki_sim.Rules or None, not {type(rules).__name__}")
    return rules
