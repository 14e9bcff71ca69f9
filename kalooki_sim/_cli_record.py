"""The command line's game records: ``kalooki replay --record FILE`` writes a
traced hand as one seat's record, ``kalooki review --record FILE`` judges a record's
decisions. Thin shells over :mod:`kalooki_sim.studies.record`."""

from __future__ import annotations

import sys

from ._cli_rules import UsageError


def add_replay_record(p) -> None:
    """``--record FILE`` and ``--seat`` of ``kalooki replay``."""
    p.add_argument("--record", default=None, metavar="FILE",
                   help="write the hand as --seat saw it, in the game record format "
                        "(guide-record.html), to FILE ('-': stdout) instead of the move log")
    p.add_argument("--record-seat", type=int, default=0, metavar="K",
                   help="the seat whose view --record writes (default 0)")


def add_review_record(p) -> None:
    """``--record FILE`` of ``kalooki review``."""
    p.add_argument("--record", default=None, metavar="FILE",
                   help="review the hand written in FILE, a game record of a hand you played "
                        "(guide-record.html; '-': stdin), instead of a simulated one; the "
                        "record names your seat")


def replay_record(args, trace) -> int:
    """Write ``trace`` as the record of ``--record-seat``."""
    from .studies.record import write_record

    text = write_record(trace, args.record_seat)
    if args.record == "-":
        sys.stdout.write(text)
    else:
        with open(args.record, "w", encoding="utf-8") as f:
            f.write(text)
        if not args.quiet:
            print(f"wrote {args.record}", file=sys.stderr)
    return 0


def read_record_file(args):
    """The record's text from ``--record`` (a path or ``-``), refusing ``--seed``/``--seat``
    beside it: the record holds its hand and its seat."""
    for flag in ("seed", "seat"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} is not allowed with --record: the record holds the "
                             "hand and its seat ('you' line)")
    if args.record == "-":
        return sys.stdin.read()
    try:
        with open(args.record, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"--record {args.record!r} cannot be read: {e.strerror}") from None
