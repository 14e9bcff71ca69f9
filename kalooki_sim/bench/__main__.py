"""``python -m kalooki_sim.bench [--against REF] [--rounds N] [--figures NAME ...]``."""

from __future__ import annotations

import argparse
import sys

from . import figures as F
from . import record as R
from .against import MIN_ROUNDS, compare, table


def main(argv=None) -> int:
    """Time the figures (against REF when given), print the table, append the record."""
    ap = argparse.ArgumentParser(
        prog="python -m kalooki_sim.bench",
        description="Time this tree's figures, side by side with another commit's (asv "
                    "continuous style), and append them to reports/performance.csv.")
    ap.add_argument("--against", metavar="REF", default=None,
                    help="a commit to time side by side (built once in .bench/REF with its own "
                         "virtualenv and Numba cache); default: this tree alone")
    ap.add_argument("--rounds", type=int, default=MIN_ROUNDS,
                    help=f"rounds of alternating processes (default {MIN_ROUNDS}, at least "
                         f"{MIN_ROUNDS} with --against)")
    ap.add_argument("--figures", nargs="+", metavar="NAME", default=list(F.FIGURES),
                    choices=sorted(F.FIGURES),
                    help="figures to time (default: all): " + ", ".join(F.FIGURES))
    ap.add_argument("--no-record", action="store_true",
                    help="print only; do not append to reports/performance.csv")
    ap.add_argument("--suite", action="store_true",
                    help="run the older per-kernel benchmarks of this tree instead")
    args = ap.parse_args(argv)
    if args.suite:
        from . import run_all

        run_all()
        return 0
    if args.rounds < 1:
        ap.error(f"--rounds {args.rounds} is not allowed; give 1 or more")
    load = R.load_average()
    try:
        result = compare(args.figures, args.against, args.rounds,
                         log=lambda m: print(m, file=sys.stderr, flush=True))
    except ValueError as e:
        ap.error(str(e))
    print(f"machine: {R.cpu_model()}, load average {load:.2f} at the start")
    print(table(result))
    if not args.no_record:
        path = R.append(R.rows(result, load))
        R.chart()
        from ..report.site import write_performance

        page = write_performance(R.RECORD.parent)
        print(f"appended to {path}; chart and {page.name} redrawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
