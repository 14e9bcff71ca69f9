"""The fixed positions of ``make bench``'s time to a decided answer: takes, calls and discards
met in expert play, as the advisor is asked them.

:func:`make_positions` reads them from traced expert hands (4 players, game 0 of ``seed``, the
nine contracts, every seat: :func:`~kalooki_sim.studies.review.decision_positions`) and keeps
``per_kind`` of each kind spread evenly over play order, so the set holds early and late
decisions of every contract it can; a position the advisor refuses is left out
(:func:`_accepted`). They are committed (``positions.json`` beside this module) so that every
commit, and the tree it is timed against, answers the same positions; ``python -m
kalooki_sim.bench.positions`` makes the file again. Seat-keyed maps (``known``, ``hand_sizes``)
are stored as ``[seat, value]`` pairs (JSON keys are text): :func:`read_positions` gives them
back as dicts, and melds and events as tuples.
"""

from __future__ import annotations

import json
from pathlib import Path

#: the committed positions
POSITIONS = Path(__file__).with_name("positions.json")
#: the kinds of decision, and how many of each the committed set keeps
KINDS, PER_KIND = ("take", "call", "discard"), 10
#: the traces' seed (never used for developing the advisor)
SEED = 2026
_PAIRS = ("known", "hand_sizes")


def make_positions(seed: int = SEED, per_kind: int = PER_KIND) -> list[dict]:
    """``per_kind`` positions of each kind (:data:`KINDS`) from traced expert hands: dicts of
    ``kind``, ``card``, ``hand`` (the contract), ``seat`` and ``kwargs`` (the advisor's
    arguments, JSON-ready)."""
    import kalooki_sim as ks

    from ..studies.review import decision_positions

    rules = ks.Rules()
    found = {k: [] for k in KINDS}
    for hand in range(1, 10):
        t = ks.trace(seed=seed, game=0, hand=hand, policies="expert")
        for seat in range(4):
            for p in decision_positions(t, seat):
                if not _accepted(p, rules):
                    continue
                kw = {k: ([[s, v] for s, v in sorted(x.items())] if k in _PAIRS else x)
                      for k, x in p["kwargs"].items()}
                found[p["kind"]].append(dict(kind=p["kind"], card=p["card"], hand=hand,
                                             seat=seat, kwargs=kw))
    out = []
    for k in KINDS:
        xs = found[k]
        if len(xs) < per_kind:
            raise ValueError(f"seed={seed} gives {len(xs)} {k} decisions, fewer than "
                             f"per_kind={per_kind}; give another seed")
        out += [xs[i * len(xs) // per_kind] for i in range(per_kind)]
    return out


def _accepted(p, rules) -> bool:
    """Whether the advisor reads position ``p`` as it stands. A discard whose offer before
    the turn was called away (R9.2) is left out: it is read now, but the older trees
    ``make bench --against`` compares with refused it, and the set stays the one committed."""
    from ..studies.discard_advisor import discard_situation, offer_called_away
    from ..studies.situation import situation

    try:
        if p["kind"] == "discard":
            if offer_called_away(p["kwargs"].get("history"), rules):
                return False
            discard_situation(rules=rules, **p["kwargs"])
        else:
            situation(**p["kwargs"], rules=rules)
    except ValueError:
        return False
    return True


def read_positions(path=POSITIONS) -> list[dict]:
    """The committed positions, each ``kwargs`` ready for ``ks.advise`` (take, call) or
    ``ks.advise_discard`` (discard) (:func:`.figures.decode_positions`)."""
    from .figures import decode_positions

    return decode_positions(json.loads(Path(path).read_text(encoding="utf-8")))


def write_positions(path=POSITIONS, seed: int = SEED) -> Path:
    """Make the positions (:func:`make_positions`) and write them to ``path``."""
    Path(path).write_text(json.dumps(make_positions(seed), ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")
    return Path(path)


if __name__ == "__main__":
    print(f"wrote {write_positions()}")
