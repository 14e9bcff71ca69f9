"""Scripted policies: small parameter vectors read by the compiled decision code.

A :class:`Policy` is data, not code, so a sweep over strategies needs no recompilation. The
decisions it steers (see :mod:`kalooki_sim.engine._kernels.engine`):

* take the discard (R9.1) when it cuts the "cards still needed" estimate by ``take_gain``;
* call a discard (R9.2) while fewer calls than the limit are made this hand (the smaller of
  the rules' ``call_limit`` and the policy's own, if it has one; V8) and the card cuts the
  estimate by ``call_gain``;
* open as soon as the solver finds the contract (R7), or, with ``hold``, only when at most one
  card would remain (to go out on the opening and double everyone, R12) until ``hold_turns``
  own turns have passed;
* once opened: lay every further own meld and every legal lay-off (R5, R10, R11), and discard the
  costliest of the cards farthest from being laid off; before opening, discard the costliest of
  the cards whose loss raises the estimate least.

``search=True`` decides every take and call (R9.1, R9.2) by the advisor's paired rollouts from
what the seat knows (:mod:`kalooki_sim.engine._kernels.search`); the other decisions follow the
other fields.

``random=True`` replaces every decision by a fair coin (take, call, open, further melds, each
lay-off) and the discard by a uniformly random card; the meld layout still comes from the
solver, so all its moves stay legal. Its calls obey the same limits.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from .._lib import check_bool, check_int, check_real, not_allowed
from ._kernels import engine as _E
from .charts import Chart, chart_table, package_chart


@dataclass(frozen=True)
class Policy:
    """Parameters of a scripted player. Use :func:`preset` for the named ones.

    Every field is validated on construction (``TypeError`` for a wrong type, ``ValueError``
    out of range); numpy integers are stored as ``int``.

    Parameters
    ----------
    name : str, optional
        The label in result tables (the ``policy`` column); by default ``"greedy"`` for the
        default settings, else ``"greedy with "`` and the fields that differ, e.g.
        ``"greedy with call_limit=1"``. A preset's name (``"expert"``,
        ``"greedy"``, ``"call-2"``, ...) is allowed only with that preset's settings, so that
        rows saying ``expert`` are the expert's: ``Policy("expert")`` is refused; use
        :func:`preset` for a preset, and another name for other settings.
    random : bool
        A fair coin at every decision (take, call, open, further melds, each lay-off) and a
        uniformly random discard; the other fields except ``call_limit`` are then unused.
    call_limit : int or None
        The most calls (R9.2) this player makes in a hand, >= 0. ``None`` (default): up to the
        rules' limit (``Rules.call_limit``, 3 by the card, V8). A number: up to the smaller of
        it and the rules' limit, so ``0`` never calls and a number above the rules' limit
        changes nothing.
    call_gain : int
        Call a discard only when it lowers the cards-still-needed estimate of the contract by
        at least ``call_gain`` (>= 0; 1 by default: any progress; 0 calls every discard).
    take_gain : int
        Take the discard as the draw (R9.1) only when it lowers that estimate by at least
        ``take_gain`` (>= 0; 1 by default); otherwise draw from the stock.
    hold : bool
        Hold back the opening (R7) until at most one card would remain after it, so that the
        player can go out on the opening and double the others (R12).
    hold_turns : int
        With ``hold``: give up holding and open normally after this many own turns (>= 0): it
        holds on its own turns 1 to ``hold_turns`` (0: never).
    exact : bool
        Count the cards still needed exactly (:func:`~kalooki_sim.cards_needed`; dead cards,
        those on the table and, once the pile's one reshuffle (R13) is spent, those in the
        pile, cannot come) instead of the quick lower bound; and, before opening, discard the
        card whose loss leaves the fewest cards needed, then the highest penalty, then the one
        with the fewest live partners (same rank, or its suit's neighbours, or jokers, still to
        come: so the hand keeps the most live outs).
    call_max_need : int
        Call only when the contract would then need at most this many more cards (>= 0; 99:
        any). A call that completes the contract is always allowed.
    call_min_stock : int
        Do not call while the stock holds fewer cards than this (>= 0): the penalty card
        comes from it and an exhausted stock voids the hand (R13).
    call_max_card : int
        Do not call a card whose penalty is above this (0-50; 50: any), unless it completes
        the contract: a called card that is not laid is caught in hand (R12).
    call_danger : int
        Do not call while an opponent who has opened holds this many cards or fewer (>= 0;
        0: never held back): the two cards a call adds may be caught when that player goes out.
    call_max_opened : int
        Do not call once this many opponents or more have opened (>= 1; 99: never held back):
        each can go out and catch the cards a call adds.
    call_max_hand : int
        Do not call while the hand's own penalty (R1) is above this many points (>= 0; 10000:
        never held back): a call adds to what is caught.
    hold_danger : int
        With ``hold``: stop holding once an opened opponent holds this many cards or fewer.
    defend : bool
        Before opening, among equally good discards, prefer one whose rank the next player
        (if unopened) has not taken or called this hand.
    search : bool
        Decide each take and call (R9) by paired rollouts (the ``search`` preset):
        from what this seat knows (its hand, the pile, the table, the cards each opponent took
        or called and still holds, hand sizes, the stock's size, who opened; never the hidden
        cards of the deal), ``rollouts`` samples of the unseen cards are each played on
        acting and passing with the same later random draws, every seat playing ``model``;
        the seat acts when acting lowers the mean of its *relative* penalty (own penalty
        minus the table's mean penalty, doubles counted, R12: what decides a game;
        ``objective``) by more than ``margin`` points and the rollouts decide it (a
        sequential t test over three looks, 5% in all, Bonferroni), passes when
        they decide passing is better, and otherwise gives the answer the other fields (its
        expert rules) give. With ``screen`` only offers whose card
        cuts its cards still needed are searched; the others are passed, as the expert's rules
        pass them. The other decisions (opening, melds, lay-offs, discards) and
        the calls' limit follow the other fields. Not with Tuluki rules (V9), nor inside the
        advisor's or the call study's rollouts.
    rollouts : int
        Paired rollouts per decision of a search seat (2-100,000; 24 by default, 96 in the
        ``search`` preset).
    margin : float
        Points (>= 0) by which acting must win, in the rollouts' mean, for a search seat to
        act (0 by default: any mean gain).
    model : str
        The player model of a search seat's rollouts: a preset name other than ``search``
        (``"expert"`` by default; ``"greedy"``, ``"never-call"``, ...).
    screen : bool
        A search seat searches only the offers whose card cuts its cards still needed (True by
        default: a quarter of the decisions or fewer, about 4x faster); False (the ``search``
        preset's): every take and call is searched.
    objective : str
        What a search seat's rollouts minimise: ``"relative"`` (default; the advisor's
        default) or ``"penalty"`` (its own penalty alone).
    outs : float
        With ``exact``, before opening: among the discards that leave the fewest cards needed,
        take the one with the highest penalty + ``outs`` x live outs of the hand left (copies
        still to come, not dead nor known in another hand, of each card that would cut the
        cards needed by one; Mahjong's ukeire); ties by the usual order. 0 (default): outs
        unused. A large weight (e.g. 1000) ranks by outs first, a small one (0.01) by
        penalty first with outs before live partners.
    outs_mixed : bool
        Weigh ``outs`` in the contracts of groups and runs too (True, default); False: only in
        the all-group and all-run contracts (hands 1, 4, 5 and 9 of the card), where the count
        of each card is quick. Mixed contracts need a search per card: there the outs
        discard costs about five times the whole expert's play, and the expert wins them
        without it (``preset("expert")`` sets False).
    plan_discard : bool
        With ``exact``, before opening, in the contracts of groups and runs when ``outs`` do
        not rank the discards there: let go the first card, in the usual order, that the
        player's plan leaves free (the runs of its last count's search, the groups from the
        cards left: the count stays), asking every card only when the plan frees none. A
        plan, one of the hand's cheapest, is kept to; it asks about a card at a time instead
        of searching each card before it. False (default): the first card, in that
        order, whose loss keeps the count by any plan.
    chart : Chart, DataFrame, path or None
        A chart to follow at every take and call (R9): the call chart's verdicts
        (a frame or CSV with ``hand, decision, needed_before, needed_after, stock_band,
        opponents_opened, verdict``, e.g. ``reports/call_chart.csv``) or rules of thumb
        (:data:`~kalooki_sim.engine.charts.RULE_COLUMNS`), compiled into a
        :class:`~kalooki_sim.engine.charts.Chart`. In a cell that says ``call``/``take``
        the seat acts, ``pass``/``draw`` it passes, whatever its other fields say; in an
        ``either``, ``unsure`` or blank cell (or one the chart lacks) its other fields
        answer. Needs ``exact`` (the cells read the exact count before and after the card).
        The ``chart`` and ``thumb`` presets: ``expert`` with the published chart, or with the
        ``should_i_call`` page's rules of thumb alone.

    Examples
    --------
    >>> Policy("cautious", call_limit=1, call_gain=2).call_limit
    1
    >>> Policy().name, Policy(call_limit=1).name
    ('greedy', 'greedy with call_limit=1')
    >>> Policy("expert")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: name='expert' is not allowed; give ks.preset('expert') for the preset, ...
    >>> Policy(hold=1)
    Traceback (most recent call last):
    ...
    TypeError: hold=1 is not allowed; give True or False
    """

    name: str | None = None
    random: bool = False
    call_limit: int | None = None
    call_gain: int = 1
    take_gain: int = 1
    hold: bool = False
    hold_turns: int = 1000
    exact: bool = False
    call_max_need: int = 99
    call_min_stock: int = 0
    call_max_card: int = 50
    call_danger: int = 0
    call_max_opened: int = 99
    call_max_hand: int = 10000
    hold_danger: int = 0
    defend: bool = False
    search: bool = False
    rollouts: int = 24
    margin: float = 0.0
    model: str = "expert"
    screen: bool = True
    objective: str = "relative"
    outs: float = 0.0
    outs_mixed: bool = True
    plan_discard: bool = False
    chart: Chart | None = None

    def __post_init__(self):
        def put(field, value):
            object.__setattr__(self, field, value)

        if not isinstance(self.name, (str, type(None))):
            raise TypeError(not_allowed("name", self.name, "a non-empty string"))
        if self.name is not None and not self.name.strip():
            raise ValueError(not_allowed("name", self.name, "a non-empty string"))
        put("random", check_bool("random", self.random))
        for field in ("hold", "exact", "defend", "search", "screen", "outs_mixed",
                      "plan_discard"):
            put(field, check_bool(field, getattr(self, field)))
        put("call_max_card", check_int("call_max_card", self.call_max_card, 0, 50))
        put("call_max_opened", check_int("call_max_opened", self.call_max_opened, 1))
        if self.call_limit is not None:
            put("call_limit", check_int("call_limit", self.call_limit, 0,
                                        why="or None for the rules' limit"))
        for field in ("call_gain", "take_gain", "hold_turns", "call_max_need", "call_min_stock",
                      "call_danger", "hold_danger", "call_max_hand"):
            put(field, check_int(field, getattr(self, field), 0))
        put("rollouts", check_int("rollouts", self.rollouts, 2, 100_000))
        put("margin", check_real("margin", self.margin, 0))
        put("outs", check_real("outs", self.outs, 0))
        if not isinstance(self.model, str):
            raise TypeError(not_allowed("model", self.model, "a preset name other than search"))
        model = self.model.strip().lower()
        # checked when it is used (a search seat): the presets are Policies themselves
        if self.search and (model == "search" or preset(model).search):
            raise ValueError(not_allowed("model", self.model, "a preset name other than search",
                                         "the rollouts' players do not search"))
        put("model", model)
        if self.objective not in ("relative", "penalty"):
            raise ValueError(not_allowed("objective", self.objective, '"relative" or "penalty"'))
        if self.chart is not None:
            put("chart", Chart.of(self.chart))
            if not self.exact or self.random:
                raise ValueError(not_allowed(
                    "chart", self.chart, "None, or give exact=True (and random=False) with it",
                    "a chart's cells read the exact cards still needed before and after"))
        if self.name is None:
            put("name", _default_name(self))
        _check_preset_name(self)

    def vector(self) -> np.ndarray:
        """The float64 parameter vector the kernels read (``P_CALL_LIMIT`` is -1 for None)."""
        v = np.zeros(_E.NPARAM)
        v[_E.P_RANDOM] = 1.0 if self.random else 0.0
        # -1: no limit of its own; the engine applies min(rules' limit, this) when >= 0
        v[_E.P_CALL_LIMIT] = -1.0 if self.call_limit is None else self.call_limit
        v[_E.P_CALL_GAIN] = self.call_gain
        v[_E.P_TAKE_GAIN] = self.take_gain
        v[_E.P_HOLD] = 1.0 if self.hold else 0.0
        v[_E.P_HOLD_TURNS] = self.hold_turns
        v[_E.P_EXACT] = 1.0 if self.exact else 0.0
        v[_E.P_CALL_MAX_NEED] = self.call_max_need
        v[_E.P_CALL_MIN_STOCK] = self.call_min_stock
        v[_E.P_CALL_MAX_CARD] = self.call_max_card
        v[_E.P_CALL_DANGER] = self.call_danger
        v[_E.P_HOLD_DANGER] = self.hold_danger
        v[_E.P_DEFEND] = 1.0 if self.defend else 0.0
        v[_E.P_CALL_MAX_OPENED] = self.call_max_opened
        v[_E.P_CALL_MAX_HAND] = self.call_max_hand
        v[_E.P_SEARCH] = self.rollouts if self.search else 0
        v[_E.P_SEARCH_MARGIN] = self.margin
        v[_E.P_SEARCH_SCREEN] = 1.0 if self.screen else 0.0
        v[_E.P_SEARCH_PENALTY] = 1.0 if self.objective == "penalty" else 0.0
        v[_E.P_OUTS] = self.outs
        v[_E.P_OUTS_MIXED] = 1.0 if self.outs_mixed else 0.0
        v[_E.P_PLAN_DISCARD] = 1.0 if self.plan_discard else 0.0
        v[_E.P_CHART] = 0.0 if self.chart is None else 1.0
        v[_E.P_CHART0:_E.P_CHART0 + _E.CHART_CELLS] = chart_table(self.chart)
        return v


#: Policy fields of the search player, kept out of a non-searching policy's
#: manifest entry so runs written before they existed still resume; so are ``outs_mixed`` and
#: ``plan_discard`` at their defaults, and ``chart`` when there is none
_SEARCH_FIELDS = ("search", "rollouts", "margin", "model", "screen", "objective")


def policy_args(p: Policy) -> dict:
    """The JSON form of ``p`` a study's manifest keeps and compares on resume: its fields,
    less those at defaults older manifests lack; a chart as its source and the
    hash of its cells' codes."""
    d = dataclasses.asdict(p)
    for k in ((() if p.search else _SEARCH_FIELDS) + (("outs_mixed",) if p.outs_mixed else ())
              + (() if p.plan_discard else ("plan_discard",))):
        d.pop(k)
    d.pop("chart")
    if p.chart is not None:
        d["chart"] = {"source": p.chart.source, "sha256": p.chart.sha256()}
    return d


def no_search(pols, where: str) -> None:
    """A ``ValueError`` when a seat of ``pols`` searches: inside rollouts and branches
    (``where``) the players play their rules; a search seat would silently play its other
    fields there."""
    names = sorted({p.name for p in pols if p.search})
    if names:
        raise ValueError(f"policies {names} search, which is not allowed in {where}: its "
                         "continuations are played by rule-based players; give the search "
                         "policy's model (e.g. 'expert') instead")


def policy_matrix(pols) -> np.ndarray:
    """The kernels' ``pol`` matrix of one :class:`Policy` per seat: ``P`` rows of
    :meth:`Policy.vector`, and, when a seat searches, ``P`` more rows: row ``P + s`` the vector
    of seat ``s``'s rollout model (its own vector for a seat that does not search)."""
    pol = np.stack([p.vector() for p in pols])
    if not any(p.search for p in pols):
        return pol
    return np.vstack([pol, np.stack([preset(p.model).vector() if p.search else p.vector()
                                     for p in pols])])


PRESETS = ("random", "greedy", "never-call", "call-<k>", "hold-for-double", "expert", "chart",
           "thumb", "search")


def preset(name: str) -> Policy:
    """A named policy.

    The presets: ``random``, ``greedy``, ``never-call``, ``call-<k>``, ``hold-for-double``,
    ``expert`` and ``search``. Presets without a number in their name call up to the rules' limit
    (``Rules.call_limit``, V8); ``call-<k>`` calls up to the smaller of k and the rules' limit.

    * ``greedy``: opens at once, lays off everything, calls (up to the rules' limit) and takes
      the discard whenever the card brings the contract closer.
    * ``never-call``: greedy without calls (``call_limit=0``).
    * ``call-<k>``: greedy, calling while fewer than k calls (and fewer than the rules' limit)
      are made this hand.
    * ``hold-for-double``: greedy, but holds the opening until it can go out on it, for at most
      8 own turns, and calls only a card that completes the contract (any other call adds a
      penalty card it must then also lay to go out at once); calls up to the rules' limit.
    * ``expert``: counts the cards still needed exactly (``exact``; cards on the table, and in
      the pile once its reshuffle is spent, cannot come); takes what brings the contract closer
      and calls only when the contract would then need at most 5 more cards
      (``call_max_need=5``); before opening discards the card whose loss costs least, then,
      in the all-group and all-run contracts (hands 1, 4, 5, 9), the one that leaves the most
      live outs (``outs=1000, outs_mixed=False``), then the highest penalty, then the one with
      the fewest live partners, then not a rank the next player has picked up (``defend``);
      in the contracts of groups and runs it keeps to its plan: the first card in that order
      that its plan leaves free (``plan_discard``). Each of these rules was kept because it
      measured better, on the same deals, than the expert without it; the restrictive call
      fields (``call_danger``, ``call_max_opened``, ``call_max_hand``, ``call_max_card``),
      ``hold``, ``defend`` and shedding costly cards at a cost in cards needed measured worse
      or no better. How it fares against other players is the strength ladder's published
      table (:mod:`kalooki_sim.analysis.ladder`).
    * ``chart``: ``expert``, but at each take and call it looks up its cell in the
      published call chart (``kalooki_sim/engine/chart.csv``, the ``should_i_call`` page's
      chart) and acts where the cell says ``call``/``take``, passes where it says
      ``pass``/``draw``, and keeps the expert's own answer in ``either``, ``unsure`` and
      blank cells (:class:`Policy`'s ``chart``).
    * ``thumb``: ``expert`` with the page's rules of thumb alone
      (``kalooki_sim/engine/thumb.csv``): a clause's verdict in every cell its condition
      selects, the expert's own answer elsewhere: does the short version keep the gain?
    * ``chart:PATH``: ``expert`` following the chart (or rules of thumb) in the CSV at
      ``PATH`` (:func:`chart_player`), e.g. ``"chart:reports/call_chart.csv"``.
    * ``random``: a fair coin at every decision, a uniformly random discard; calls up to the
      rules' limit.
    * ``search``: ``expert`` everywhere but at its takes and calls (R9), every one of them
      (``screen=False``: it gains most on offers of cards that cut nothing, which a screen
      would pass), which it decides by up to 96 paired rollouts per decision (``rollouts``;
      fewer decide too little) from what it
      knows, every seat of the rollouts playing ``expert`` (``model``), acting when the
      rollouts decide that lowers its penalty against the table's mean (doubles counted,
      ``objective="relative"``) at all (``margin=0``), passing when they decide the other
      way, and keeping the expert's own answer when they do not decide; see
      :class:`Policy`'s ``search``. Other settings:
      ``dataclasses.replace(preset("search"), name="search-64", rollouts=64)``.

    A :class:`Policy` is returned as it is.

    Examples
    --------
    >>> preset("call-2").call_limit, preset("greedy").call_limit
    (2, None)
    """
    if isinstance(name, Policy):
        return name
    allowed = "a preset name (" + ", ".join(PRESETS) + "), chart:PATH or a Policy"
    if not isinstance(name, str):
        raise TypeError(not_allowed("policy", name, allowed))
    if name.strip().lower().startswith("chart:"):
        return chart_player(name.strip()[len("chart:"):])
    key = name.strip().lower()
    fields = _preset_fields(key)
    if fields is None:
        raise ValueError(f"unknown policy {name!r}; give {allowed}")
    return Policy(key, **fields)


#: the fields each preset sets (the others keep :class:`Policy`'s defaults)
_PRESET_FIELDS = {
    "greedy": {},
    "random": dict(random=True),
    "never-call": dict(call_limit=0),
    "hold-for-double": dict(hold=True, hold_turns=8, call_max_need=0),
    "expert": dict(exact=True, defend=True, call_max_need=5, outs=1000, outs_mixed=False,
                   plan_discard=True),
    "search": dict(exact=True, defend=True, call_max_need=5, outs=1000, outs_mixed=False,
                   plan_discard=True, search=True, rollouts=96, screen=False),
}


def chart_player(chart) -> Policy:
    """``expert`` following ``chart`` at its takes and calls (:class:`Policy`'s ``chart``): a
    chart or rules of thumb (a DataFrame, a CSV path, or a
    :class:`~kalooki_sim.engine.charts.Chart`), named ``"chart:<source>"`` (the chart's
    path): ``preset("chart:PATH")`` is this player, so the name says which chart its rows
    followed (the ``chart`` preset is the one that follows the package's chart).

    Examples
    --------
    >>> preset("chart:no/such.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: chart='no/such.csv' is not allowed; give the path of a chart CSV ...
    """
    ch = Chart.of(chart)
    return Policy(f"chart:{ch.source}", **dict(_PRESET_FIELDS["expert"], chart=ch))


#: presets that follow a chart: the expert's fields and the package's chart of that name
_CHART_PRESETS = {"chart": "chart.csv", "thumb": "thumb.csv"}


def _preset_fields(key: str) -> dict | None:
    """The fields preset ``key`` (lower case, stripped) sets, or ``None`` if no preset has
    that name (``call-<k>``: ``call_limit=k``)."""
    if key in _PRESET_FIELDS:
        return _PRESET_FIELDS[key]
    if key in _CHART_PRESETS:
        return dict(_PRESET_FIELDS["expert"], chart=package_chart(_CHART_PRESETS[key]))
    m = re.fullmatch(r"call-(\d+)", key)
    return dict(call_limit=int(m.group(1))) if m else None


def _differ(pol: Policy, fields: dict) -> list[str]:
    """The fields of ``pol`` (name aside) whose value is not ``fields``' (or the default)."""
    return [f.name for f in dataclasses.fields(Policy) if f.name != "name"
            and getattr(pol, f.name) != fields.get(f.name, f.default)]


def _default_name(pol: Policy) -> str:
    """``"greedy"`` for greedy's settings, else ``"greedy with call_limit=2, ..."``: a
    :class:`Policy` given no name says how it differs from greedy (the defaults)."""
    differ = _differ(pol, {})
    if not differ:
        return "greedy"
    return "greedy with " + ", ".join(f"{f}={getattr(pol, f)!r}" for f in differ)


def _check_preset_name(pol: Policy) -> None:
    """A :class:`Policy` named like a preset must play as that preset: its rows carry the
    name, so ``Policy("expert")`` (greedy's settings, rows saying "expert") is refused."""
    key = pol.name.strip().lower()
    fields = _preset_fields(key)
    if fields is None:
        return
    differ = _differ(pol, fields)
    if differ:
        raise ValueError(not_allowed(
            "name", pol.name, f"ks.preset({key!r}) for the preset, or another name for these "
            "settings", f"{key!r} is a preset's name and these settings differ from it in "
            + ", ".join(differ)))


def seat_policies(policies, players: int) -> list[Policy]:
    """One :class:`Policy` per seat from a preset name, a Policy, or a list of either."""
    allowed = "a preset name, a Policy, or a list with one per seat"
    if isinstance(policies, (str, Policy)):
        return [preset(policies)] * players
    if policies is None or isinstance(policies, (dict, bytes)) or not hasattr(policies,
                                                                             "__iter__"):
        raise TypeError(not_allowed("policies", policies, allowed))
    pols = [preset(p) for p in policies]
    if len(pols) != players:
        raise ValueError(not_allowed("policies", policies, f"one per seat ({players} policies)",
                                     f"got {len(pols)}"))
    return pols
