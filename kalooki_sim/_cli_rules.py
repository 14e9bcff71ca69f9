"""The ``kalooki`` command's rule flags, one per :class:`~kalooki_sim.Rules` field, with help
taken from the dataclass's own documentation (used by :mod:`kalooki_sim.cli`)."""

from __future__ import annotations

import argparse
import dataclasses
import re
import typing


class UsageError(Exception):
    """A bad flag value found by the command line itself (exit status 2)."""


# -- Rules flags, derived from the Rules dataclass -----------------------------------------------


def _rules_field_docs() -> dict[str, str]:
    """Each Rules field's description from its numpydoc Parameters section."""
    from .game.rules import Rules

    doc = Rules.__doc__ or ""
    section = doc.split("Parameters\n    ----------\n", 1)[-1].split("\n    Examples", 1)[0]
    docs, names, lines = {}, [], []
    for line in section.splitlines():
        m = re.match(r"^    (\w[\w, ]*) : ", line)
        if m:
            for n in names:
                docs[n] = " ".join(lines)
            names, lines = [n.strip() for n in m.group(1).split(",")], []
        elif line.strip():
            lines.append(line.strip())
    for n in names:
        docs[n] = " ".join(lines)
    return docs


def rule_ids(text: str) -> list[str]:
    """The rule ids (R1-R14, C1-C3, V1-V9) a text cites, in order, without repeats."""
    return list(dict.fromkeys(re.findall(r"\b([RCV]\d{1,2})\b", text)))


def _schedule(text: str):
    """``"9,3,0;10,2,1"`` -> ``((9, 3, 0), (10, 2, 1))``."""
    try:
        out = tuple(tuple(int(x) for x in part.split(",")) for part in text.split(";")
                    if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"schedule={text!r} is not allowed; give cards,groups,runs triples separated by "
            "';', e.g. '9,3,0;10,2,1'") from None
    return out


#: flags whose field shares its docstring sentence with another, or whose values need words
_FLAG_HELP = {
    "decks": "52-card decks in the pack, 1-8 (R1: two; V1 changes it)",
    "jokers": "jokers in the pack, 0-64 (R1: four; V1 changes it)",
    "pack": "'card': the pack is --decks and --jokers (108 cards unless changed, R1); "
            "'by-table' (V1): decks and jokers from the player count (3-4 players: 2 decks + 4 "
            "jokers, 5-6: 3 + 6, 7-8: 4 + 8)",
}


def add_rules_flags(parser) -> None:
    """One flag per :class:`~kalooki_sim.Rules` field (none forgotten: derived from it)."""
    from .game.rules import FORMATS, PACKS, Rules

    docs = _rules_field_docs()
    hints = typing.get_type_hints(Rules)
    g = parser.add_argument_group("rules (every Rules field; defaults: the Jamaican card)")
    g.add_argument("--format", dest="rules_format", choices=list(FORMATS), default=None,
                   help="a named format (V7): its schedule, the other flags as given")
    for f in dataclasses.fields(Rules):
        flag = "--" + f.name.replace("_", "-")
        text = docs.get(f.name, "").replace("``", "").replace("%", "%%")
        first = _FLAG_HELP.get(f.name) or text.split(". ")[0].rstrip(".")
        tp = hints[f.name]
        if tp is bool:
            g.add_argument(flag, dest=f"rule_{f.name}", action=argparse.BooleanOptionalAction,
                           default=None, help=f"{first} (default: off)")
        elif tp is int:
            g.add_argument(flag, dest=f"rule_{f.name}", type=int, default=None, metavar="N",
                           help=f"{first} (default: {f.default})")
        elif f.name == "pack":
            g.add_argument(flag, dest="rule_pack", choices=PACKS, default=None,
                           help=f"{first} (default: {f.default})")
        elif f.name == "schedule":
            g.add_argument(flag, dest="rule_schedule", type=_schedule, default=None,
                           metavar="C,G,R;...",
                           help="the hands: cards,groups,runs per hand, ';' between hands "
                                "(R2; a custom schedule is V7)")
        else:  # a new kind of field: fail loudly here rather than forget it
            raise TypeError(f"Rules.{f.name} has a type ({tp}) the command line does not know")


def rules_from(args):
    """A :class:`~kalooki_sim.Rules` from the ``--<field>`` flags, or ``None`` when none given."""
    from .game.rules import FORMATS, Rules

    given = {k[5:]: v for k, v in vars(args).items() if k.startswith("rule_") and v is not None}
    fmt = getattr(args, "rules_format", None)
    if fmt is not None:
        if "schedule" in given:
            raise UsageError("--format and --schedule exclude each other; give one")
        return FORMATS[fmt](**given)
    return Rules(**given) if given else None


