"""The forms' fields to the Python API's arguments, and the API's refusals back to the field
they name. Nothing is validated here that the API validates: a field's text goes to
:func:`~kalooki_sim.advise` (or the record reader) as typed, an integer as an integer, and
the ``ValueError`` that comes back is shown beside the field it names."""

from __future__ import annotations

import re

#: the Advise form's fields, in the order they are shown
ADVISE_FIELDS = ("hand", "card", "contract", "players", "discarder", "stock_left",
                 "calls_made", "opened", "table", "seen", "history", "rollouts", "seed",
                 "objective")
#: the Review form's fields
REVIEW_FIELDS = ("record", "seed", "hand_no", "seat", "players", "policies", "rollouts",
                 "rollout_seed")
#: the most rollouts a browser may ask for (an answer within a minute on 2 cores)
MAX_ROLLOUTS = 20_000
#: the largest game record the Review page takes, in characters (a hand is a few thousand)
MAX_RECORD = 200_000

_INT = re.compile(r"^[+-]?\d+$")
# the argument a message of the API starts with: "hand: ...", "card='7♠ 8♠' is not ...",
# "history[3]: ...", "stock_left=-1 ...", "table owner=..."
_LEAD = re.compile(r"^(\w+)(?:\[\d+\])?(?:\s+owner)?\s*(?:=|:|\s)")
# where the API names an argument inside a message about several ("7♥ is given 3 times (as
# the card 1, in seen 2)"), the last of these named is the field shown (the copy too many)
_NAMED = ("history", "seen", "table", "opened", "known", "stock_left", "calls_made",
          "discarder", "hand", "card")


class FieldError(ValueError):
    """A refusal for one field: ``field`` and the message."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


def as_int(field: str, value, default=None):
    """A form's text as an int when it is one; empty text is ``default``; other text goes to
    the API as typed (its refusal names it), or, with ``default`` of ``...``, is refused
    here as missing."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is ...:
            raise FieldError(field, f"{field} is missing; give an integer")
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if _INT.match(text) else text


def field_of(message: str, fields=ADVISE_FIELDS) -> str:
    """The form field an API message is about (the first argument it names)."""
    m = _LEAD.match(message)
    if m and m.group(1) in fields:
        return m.group(1)
    if m and m.group(1) == "offer":
        return "card"
    low = message.lower().split(";")[0]  # what is wrong, before why
    named = [(low.find(n), n) for n in _NAMED if n in fields and re.search(rf"\b{n}\b", low)]
    if named:
        return max(named)[1]
    return fields[0]


def _history(value):
    """The history field: a list of ``[seat, action, card]`` from the page's event builder,
    or text as the command line takes it (``3:discard:7♦, 0:pass:7♦``)."""
    if value in (None, "", []):
        return None
    if isinstance(value, str):
        out = []
        for i, part in enumerate(p for p in re.split(r"[,;\n]", value) if p.strip()):
            bits = [b.strip() for b in part.split(":")]
            if len(bits) not in (2, 3):
                raise FieldError("history", f"history[{i}]: {part.strip()!r} is not an event; "
                                 "give seat:action:card, e.g. 3:discard:7♦ or 2:draw")
            out.append((as_int("history", bits[0]), *bits[1:]))
        return out
    if not isinstance(value, list):
        raise FieldError("history", "history is not a list of events")
    out = []
    for ev in value:
        if not isinstance(ev, (list, tuple)) or len(ev) not in (2, 3):
            raise FieldError("history", f"history: {ev!r} is not an event [seat, action, card]")
        seat, action = as_int("history", ev[0]), str(ev[1])
        card = ev[2] if len(ev) == 3 and ev[2] not in (None, "") else None
        out.append((seat, action) if card is None else (seat, action, card))
    return out


def _table(value):
    """The table field: one meld a line, ``seat: cards`` (seat to your right)."""
    if not value or not str(value).strip():
        return ()
    out = []
    for line in str(value).splitlines():
        if not line.strip():
            continue
        seat, sep, cards = line.partition(":")
        if not sep:
            raise FieldError("table", f"table: {line.strip()!r} has no seat; write one meld a "
                             "line as 'seat: cards', e.g. '1: Q♠ Q♥ Q♦'")
        out.append((as_int("table", seat), cards.strip()))
    return out


def advise_args(form: dict) -> dict:
    """:func:`~kalooki_sim.advise`'s keyword arguments from the Advise form's JSON.

    Raises
    ------
    FieldError
        For a field that is missing or cannot be read as its type.
    """
    for need in ("hand", "card"):
        if not str(form.get(need) or "").strip():
            what = "your cards" if need == "hand" else "the card offered"
            raise FieldError(need, f"{need} is missing: give {what}")
    opened = form.get("opened") or ()
    if isinstance(opened, str):
        opened = [as_int("opened", x) for x in re.split(r"[\s,]+", opened) if x]
    rollouts = as_int("rollouts", form.get("rollouts"), 500)
    if isinstance(rollouts, int) and rollouts > MAX_ROLLOUTS:
        raise FieldError("rollouts", f"rollouts={rollouts} is not allowed here; give at most "
                         f"{MAX_ROLLOUTS:,} (the command line takes more)")
    seen = form.get("seen") or ()
    return dict(
        hand=str(form["hand"]), card=str(form["card"]),
        contract=as_int("contract", form.get("contract"), ...),
        players=as_int("players", form.get("players"), 4),
        discarder=as_int("discarder", form.get("discarder"), ...),
        stock_left=as_int("stock_left", form.get("stock_left")),
        calls_made=as_int("calls_made", form.get("calls_made")),
        opened=tuple(as_int("opened", x) for x in opened),
        table=_table(form.get("table")), seen=seen,
        history=_history(form.get("history")),
        rollouts=rollouts, seed=as_int("seed", form.get("seed"), 1),
        objective=str(form.get("objective") or "relative"))


def review_args(form: dict) -> dict:
    """What the Review form asks: ``{"record": text}`` or ``{"seed", "hand", "seat",
    "players", "policies"}``, and the rollouts.

    Raises
    ------
    FieldError
        For a missing or oversized field.
    """
    rollouts = as_int("rollouts", form.get("rollouts"), 100)
    if isinstance(rollouts, int) and rollouts > MAX_ROLLOUTS:
        raise FieldError("rollouts", f"rollouts={rollouts} is not allowed here; give at most "
                         f"{MAX_ROLLOUTS:,}")
    out = dict(rollouts=rollouts, seed=as_int("rollout_seed", form.get("rollout_seed"), 0))
    record = form.get("record")
    if record is not None and str(record).strip():
        if len(record) > MAX_RECORD:
            raise FieldError("record", f"the record is {len(record):,} characters; give at most "
                             f"{MAX_RECORD:,} (a hand's record is a few thousand)")
        out["record"] = str(record)
        return out
    if form.get("seed") in (None, ""):
        raise FieldError("record", "paste or upload a game record, or give a seed to review a "
                         "simulated hand")
    out.update(deal_seed=as_int("seed", form.get("seed")),
               hand=as_int("hand_no", form.get("hand_no"), 1),
               seat=as_int("seat", form.get("seat"), 0),
               players=as_int("players", form.get("players"), 4),
               policies=str(form.get("policies") or "expert"))
    return out
