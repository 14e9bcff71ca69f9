"""The public history of a hand, typed in for the advisor: parsed and checked in one
place, for :func:`.advisor.advise` and the ``kalooki advise --history`` command.

An event is ``(seat, action, card)``: ``seat`` counts seats to the player's right, as
``discarder`` and ``opened`` do (0 is the player); ``action`` is one of :data:`ACTIONS`;
``card`` is one card's text, and may be left out (or ``None``) for a stock ``draw``.
"""

from __future__ import annotations

import numpy as np

from .._lib import is_int, not_allowed
from ..engine.kernels import history as _H
from ..game.cards import JOKER, card_text
from ..game.melds import one_card

#: the actions of a history, for a reader
ACTIONS = {
    "discard": "the seat discarded the card (R6)",
    "pass": "the seat declined to take or call the live discard (R9)",
    "take": "the next player took the discard as its draw (R9.1)",
    "call": "the seat called the discard out of turn, with a penalty card (R9.2)",
    "draw": "the seat drew from the stock (the card is not seen, so it is left out)",
    "upcard": "the card turned up after the deal, offered as the dealer's discard (C1); only "
              "a history's first event",
}

#: the upcard's kind in a checked history; not a kind the kernels weigh (the dealer did not
#: choose it), so :func:`engine_events` leaves it out
H_UPCARD = 6
_FORM = ('a list of (seat, action, card) with seat 0-{hi} (to your right; 0: you), action one '
         'of discard, pass, take, call, draw, upcard, card one card (none for a draw); or text '
         '"3:discard:7♦, 1:pass:7♦, 2:draw"')


def _split_text(text):
    """``"3:discard:7♦, 1:pass:7♦, 2:draw"`` -> tuples of strings (commas or new lines)."""
    out = []
    for part in text.replace("\n", ",").replace(";", ",").split(","):
        part = part.strip()
        if part and not part.startswith("#"):
            out.append(tuple(x.strip() for x in part.split(":")))
    return out


def _read_file(value):
    """The text of ``@FILE`` (events one per line or comma-separated, ``#`` comments)."""
    try:
        with open(value[1:], encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise ValueError(not_allowed("history", value, "events as text, or @FILE naming a "
                                     "readable file of them", e.strerror or str(e))) from None


def check_history(history, players, card, discarder, rules, answered=False):
    """The events of ``history`` as an ``int64`` array of rows (seat to the right, kind, card
    code or -1), kinds of :mod:`.engine._kernels.history` (a pass is read as a declined take
    when its seat is next after the discarder, R9.1, else as a declined call, R9.2).

    ``history`` may be ``"@FILE"``: the events are read from that file. Checked, each error
    naming the entry (``history[i]``) and what is allowed: the form, the
    seat, the action, the card (R1; never a discarded joker, R6; none for an opponent's stock
    draw); a ``pass``, ``take`` or ``call`` must answer the live discard of the same card (the
    last ``discard`` before it, not yet taken, called or buried by the next player's draw);
    only the next player takes (R9.1), neither it nor the discarder calls (R9.2), the
    discarder does not pass on its own card. A history that ends with a live discard must end
    with the offer being advised (``card`` by ``discarder``). The answers to one offer come in
    R9's order (the next player, then the seats on round from it), each seat once; to the
    offer being advised only the seats asked before you have answered, unless ``answered``
    (your discard's position: you passed and drew since).
    """
    hi = players - 1
    form = _FORM.format(hi=hi)
    if history is None:
        return np.zeros((0, _H.H_COLS), np.int64)
    if isinstance(history, str) and history.startswith("@"):
        history = _read_file(history)
    if isinstance(history, str):
        history = _split_text(history)
    if isinstance(history, (bytes, dict)) or not hasattr(history, "__iter__"):
        raise TypeError(not_allowed("history", history, form))
    rows = []
    live = None  # (discarder, card) of the live offer
    answers = []  # the live offer's answers: (entry, seat, R9's place; 0 the next player)
    for i, e in enumerate(history):
        name = f"history[{i}]"
        if isinstance(e, str) or not hasattr(e, "__len__") or not 2 <= len(e) <= 3:
            raise ValueError(not_allowed(name, e, form))
        seat, action = e[0], e[1]
        c = e[2] if len(e) == 3 else None
        if isinstance(seat, str) and seat.strip().lstrip("-").isdigit():
            seat = int(seat)
        if not is_int(seat) or not 0 <= int(seat) <= hi:
            raise ValueError(not_allowed(f"{name} seat", seat,
                                         f"a seat to your right 0-{hi} (0: you)"))
        seat = int(seat)
        act = action.strip().lower() if isinstance(action, str) else action
        if act not in ACTIONS:
            raise ValueError(not_allowed(f"{name} action", action,
                                         "one of " + ", ".join(ACTIONS)))
        if isinstance(c, str) and c.strip().lower() in ("", "none", "-"):
            c = None
        if act == "draw":
            if c is not None and seat != 0:
                raise ValueError(f"{name}: seat {seat} drew {c!r} from the stock, but a stock "
                                 "draw is face down (R6): leave its card out (e.g. "
                                 f"'{seat}:draw')")
            if live is not None and seat == (live[0] - 1) % players:
                live = None  # the next player drew: the discard is buried (R9)
            rows.append((seat, _H.H_DRAW, -1))
            continue
        if c is None:
            raise ValueError(f"{name}: {act} needs its card, e.g. '{seat}:{act}:7♦'")
        try:
            code = one_card(c, rules)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{name}: {err}") from None
        if act == "upcard":
            if i:
                raise ValueError(f"{name}: the upcard is turned once, after the deal (C1): "
                                 "only history[0] may be the upcard")
            live, answers = (seat, code), []
            rows.append((seat, H_UPCARD, code))
            continue
        if act == "discard":
            if code == JOKER:
                raise ValueError(f"{name}: a joker is never discarded (R6)")
            live, answers = (seat, code), []
            rows.append((seat, _H.H_DISCARD, code))
            continue
        if live is None or live[1] != code:
            offer = "no discard is live" if live is None else (
                f"the live discard is {card_text(live[1])} by seat {live[0]}")
            raise ValueError(f"{name}: seat {seat} cannot {act} {card_text(code)}: {offer} "
                             "(R9: only the last discard, before the next player draws, is "
                             "offered); give its discard first")
        nxt = (live[0] - 1) % players
        if seat == live[0]:
            raise ValueError(f"{name}: seat {seat} discarded {card_text(code)} itself; the "
                             "discarder is never offered its own card (R9)")
        if act == "take" and seat != nxt:
            raise ValueError(f"{name}: only the next player, seat {nxt}, takes the discard "
                             f"of seat {live[0]} (R9.1); seat {seat} would call it")
        if act == "call" and seat == nxt:
            raise ValueError(f"{name}: seat {seat} is next after seat {live[0]}: it takes the "
                             "discard as its draw (R9.1), it does not call it")
        place = (live[0] - 1 - seat) % players  # R9: the next player 0, then round
        if answers and place == answers[-1][2]:
            raise ValueError(f"{name}: seat {seat} answers {card_text(code)} twice (R9 asks "
                             "each seat once)")
        if answers and place < answers[-1][2]:
            raise ValueError(f"{name}: seat {seat} answers {card_text(code)} after seat "
                             f"{answers[-1][1]}, but R9 asks seat {seat} first (the next "
                             "player, then the seats on round from it, each once)")
        answers.append((i, seat, place))
        if act == "pass":
            rows.append((seat, _H.H_PASS_TAKE if seat == nxt else _H.H_PASS_CALL, code))
        else:
            rows.append((seat, _H.H_TAKE if act == "take" else _H.H_CALL, code))
            live = None
    if live is not None and (live[0], live[1]) == (discarder, card) and not answered:
        mine = (discarder - 1) % players  # your place among the seats asked (R9)
        late = [(i, seat) for i, seat, place in answers if place >= mine]
        if late:
            i, seat = late[0]
            who = "you" if seat == 0 else f"seat {seat}, asked after you (R9),"
            raise ValueError(
                f"history[{i}]: {who} answered the offer being advised ({card_text(card)} by "
                f"seat {discarder}): the advice is for your answer; end the history before it")
    if live is not None and (live[0], live[1]) != (discarder, card):
        raise ValueError(f"history ends with seat {live[0]}'s discard of "
                         f"{card_text(live[1])} still live, but the offer advised is "
                         f"{card_text(card)} by seat {discarder}; end the history with that "
                         "discard, or with what followed the last one")
    return np.asarray(rows, np.int64).reshape(-1, _H.H_COLS)


def engine_events(events, players):
    """The events the kernels weigh, with engine seats (seat ``k`` to the player's right is
    engine seat ``-k mod players``; the player is seat 0): the upcard left out (the dealer did
    not choose it, C1); the answers to it stay."""
    out = events[events[:, 1] != H_UPCARD].copy()
    out[:, 0] = (-out[:, 0]) % players
    return out
