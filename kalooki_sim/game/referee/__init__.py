"""The referee: replays a move log in plain Python and re-checks every rule and every card.

Written from RULES.md alone; it shares no rules code with the engine (only card text parsing
and penalty values from :mod:`kalooki_sim.game.cards`, which the tests check against R1 directly).
:func:`check` raises :class:`RefereeError` naming the record and the rule broken.

Shape: a :class:`_HandState` holds one hand
attempt (hands, stock, discard pile, melds, whose turn, what R9 still offers); one small
checker per event (``_on_deal``, ``_on_take``, ...) in :data:`_CHECKS`; :func:`_check_hand`
runs the shared pre-checks, the event's checker and card conservation after every card move;
:func:`check` adds the checks across hands (R2 dealer rotation, R13 replays, R14 totals) and
compares the engine's result rows with the referee's own outcome.

Files: ``_state`` (the hand's state), one module of checkers per kind of event (``_draws``,
``_melds``, ``_tuluki``, ``_ends``), ``_hand`` (one attempt), ``_rows`` (result rows); this
module checks across hands. Part of ``game``: imports only :mod:`kalooki_sim.game.cards`.
"""

from __future__ import annotations

from ._hand import _CHECKS as _CHECKS  # one checker per event, for the tests
from ._hand import _check_hand
from ._rows import _check_rows
from ._state import RefereeError

# -- across hands ---------------------------------------------------------------------------


def _split(records):
    hands = []
    for r in records:
        if r["event"] == "hand":
            hands.append([r])
        elif not hands:
            raise RefereeError("log does not start with a hand record")
        else:
            hands[-1].append(r)
    return hands


def _check_sequence(prev, res, rules):
    """R2, R13, R14: the hand record after ``prev`` (an outcome) in the same game."""
    a, b = prev["head"], res["head"]
    where = f"game {b.get('game', 0)} hand {b['hand']} attempt {b['attempt']}"
    if prev["void"] and not prev["drop"] and not prev["stalled"]:
        exp = (a["hand"], a["attempt"] + 1, a["dealer"])
        rule = "R13: the same dealer deals the same contract again"
    else:
        exp = (a["hand"] + 1, 0, (a["dealer"] + 1) % rules.players)
        rule = "R2, R14: the next hand, dealt by the seat on the dealer's left"
    if (b["hand"], b["attempt"], b["dealer"]) != exp:
        raise RefereeError(f"{where}: dealer {b['dealer']}; expected hand {exp[0]} attempt "
                           f"{exp[1]} dealer {exp[2]} after hand {a['hand']} attempt "
                           f"{a['attempt']} (dealer {a['dealer']}) ({rule})")


def check(records, rules, rows=None, can_lay=None) -> int:
    """Replay every hand attempt in ``records`` (a :class:`~kalooki_sim.Trace`'s); return
    the number of hand attempts refereed.

    Besides each attempt's moves, checks the order of hand records within each game (R2 dealer
    rotation and hand numbers, R13 replays and the engine's ``drop`` cap, R14).

    ``rows`` (optional): the engine's per-seat result rows of exactly these attempts, in order
    (void attempts included). Every known column present is compared with the referee's own
    outcome (NA-aware); ``total``/``winner``/``complete`` (whole-game rows) need whole games.

    ``can_lay`` (optional): ``can_lay(cards, groups, runs) -> bool`` (or ``None`` to skip a
    seat, e.g. to keep an expensive search affordable); with it, ``dealt_meets_contract`` is
    checked for each seat's dealt cards.
    """
    results = []
    last: dict = {}  # game -> outcome of its latest attempt
    first_hand: dict = {}
    for recs in _split(records):
        res = _check_hand(recs, rules)
        head = res["head"]
        game = head.get("game", 0)
        if game in last:
            _check_sequence(last[game], res, rules)
            if head["hand"] != last[game]["head"]["hand"] and first_hand[game] != 1:
                raise RefereeError(f"game {game}: a whole game starts at hand 1, not "
                                   f"{first_hand[game]} (R14)")
        elif head["attempt"] != 0:
            raise RefereeError(f"game {game} hand {head['hand']}: the log starts at attempt "
                               f"{head['attempt']}, not 0 (R13)")
        else:
            first_hand[game] = head["hand"]
        last[game] = res
        results.append(res)
    _check_unlogged_stalls(results, rows, rules)
    if rows is not None:
        _check_rows(results, rows, rules, can_lay)
    return len(results)


def _check_unlogged_stalls(results, rows, rules):
    """A hand that stops between turns, nobody out, not void, is only the engine's turn cap
    (``stalled``, not a rule) if its rows say so; otherwise the log is cut short."""
    for k, res in enumerate(results):
        if not res["unlogged_stall"]:
            continue
        h = res["head"]
        ok = (rows is not None and "stalled" in rows.columns and len(rows) > k * rules.players
              and bool(rows["stalled"].iloc[k * rules.players]))
        if not ok:
            raise RefereeError(f"game {h.get('game', 0)} hand {h['hand']} attempt {h['attempt']}: "
                               "the hand ended with nobody out and not void (R12, R13), and no "
                               "row says the engine stalled it")


__all__ = ["RefereeError", "check"]
