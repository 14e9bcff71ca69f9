"""The ``kalooki`` command (also ``python -m kalooki_sim``): thin wrappers over the Python API.

Every sub-command parses its flags, calls the same function a notebook would call, and prints
a table (``--csv``: CSV instead). Bad input is one line on stderr and exit status 2, raised
before anything is written; the messages are the API's own.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys

from ._cli_notes import _glued, _one_line_warnings, _stderr_notes
from ._cli_record import add_replay_record, add_review_record, read_record_file, replay_record
from ._cli_rules import (
    UsageError,
    _rules_field_docs,
    add_rules_flags,
    rule_ids,
    rules_from,
)
from ._cli_serve import add_serve, cmd_serve
from .report.terminal import (
    advice_table,
    est_ci,
    games_table,
    means_table,
    review_table,
    tournament_table,
)
from .studies._cluster import StudyInterrupted

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process SIGTERM ended
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of stdout went away




class _Terminated(BaseException):
    """SIGTERM arrived (raised in the main thread, like KeyboardInterrupt for SIGINT)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``kalooki simulate: error: ... (see --help)``."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _FORMATTER(argparse.RawDescriptionHelpFormatter):
    """Examples kept as written; every flag's help ends with its default (unless it says it)."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if ("default" in text or default in (None, argparse.SUPPRESS)
                or text == argparse.SUPPRESS or not action.option_strings):
            return text
        shown = "off" if default is False else "%(default)s"
        return f"{text} (default: {shown})"


# -- shared flags and output ---------------------------------------------------------------------


def _policies(text: str):
    """``"greedy"`` -> ``"greedy"``; ``"expert,greedy,greedy,greedy"`` -> a list."""
    parts = [p.strip() for p in text.split(",")]
    return parts[0] if len(parts) == 1 else parts


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma list of integers") from None


_POLICIES_HELP = ("one preset for every seat, or one per seat, comma-separated (greedy, random, "
                  "never-call, call-<k>, hold-for-double, expert, chart, thumb, search; "
                  "chart:FILE follows the chart or rules of thumb in a CSV)")


def _add_output(p, force: bool = True) -> None:
    p.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                   help="print the table as CSV (or write it to FILE; an existing FILE only "
                        "with --force)")
    if force:  # simulate has its own --force, which also covers these files
        p.add_argument("--force", action="store_true",
                       help="overwrite the files --csv, --plot or --out name if they exist")


def _add_plot(p, what: str) -> None:
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help=f"also draw {what} as a PNG to FILE.png (default: no chart; an "
                        "existing file only with --force)")


def _plot(args, chart, data) -> None:
    """Draw ``chart(data)`` (a :mod:`kalooki_sim.report.command_plots` function) to --plot."""
    if args.plot is None:
        return
    from .report import command_plots

    command_plots.save(getattr(command_plots, chart)(data), args.plot)
    if not args.quiet:
        print(f"wrote {args.plot}", file=sys.stderr)


def _add_deal(p, whole: str, required: bool = True) -> None:
    """--seed, --game, --hand: which traced hand (or game) a command replays."""
    p.add_argument("--seed", type=int, required=required,
                   help="the seed of the run to replay (C3)")
    p.add_argument("--game", type=int, default=0, metavar="G", help="the game id")
    p.add_argument("--hand", type=int, default=None, metavar="H",
                   help=f"the hand number (default: {whole})")


def _hand(args) -> int:
    """The ``hand=`` of :func:`~kalooki_sim.trace` from ``--hand``: hand 1 when the whole game
    is replayed (``--hand`` not given); any number given, 0 too, goes to the API, which refuses
    a number outside the schedule (``0`` is not hand 1)."""
    return 1 if args.hand is None else args.hand


def _add_quiet(p) -> None:
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar or notes on stderr (progress bars are off anyway when "
                        "stderr is not a terminal); errors are still shown")


def _show(df, args, index=False) -> None:
    """Print ``df`` readably, or as CSV with ``--csv`` (to stdout or a file)."""
    import pandas as pd

    if args.csv is not None:
        if args.csv == "-":
            df.to_csv(sys.stdout, index=index)
        else:
            df.to_csv(args.csv, index=index)
            if not args.quiet:
                print(f"wrote {args.csv}", file=sys.stderr)
        return
    with pd.option_context("display.max_rows", 500, "display.max_columns", 100,
                           "display.width", 200, "display.float_format", "{:,.4g}".format):
        print(df.to_string(index=index))


def _at_least(flag, value, lo) -> None:
    """A count flag the command needs positive (the API allows an empty run)."""
    from .game._checks import check_int

    try:
        check_int(flag, value, lo)
    except ValueError as e:
        raise UsageError(str(e).replace(f"{flag}=", f"{flag} ", 1)) from None


def _progress(args) -> bool:
    """The ``progress=`` of every long command: a bar on a terminal, none with ``--quiet`` or
    when stderr is a pipe or a file."""
    return not args.quiet and sys.stderr.isatty()


# -- sub-commands ---------------------------------------------------------------------------------


def cmd_simulate(args) -> int:
    """``kalooki simulate``."""
    from .studies.study import simulate

    if args.resume and args.force:
        raise UsageError("--resume and --force exclude each other; give one")
    _at_least("--games", args.games, 1)
    hand = None if not args.hand else (args.hand[0] if len(args.hand) == 1 else args.hand)
    run = simulate(args.games, hand=hand, policies=_policies(args.policies), seed=args.seed,
                   rules=rules_from(args), out=args.out, summary_only=args.summary_only,
                   first_game=args.first_game, cluster=args.cluster, threads=args.threads,
                   chunk_games=args.chunk_games, resume=args.resume, force=args.force,
                   progress=_progress(args))
    if not args.quiet and args.csv is None:
        n = len(run.manifest["chunks"])
        print(f"{run.spec.games:,} games in {n} chunks: {run.path}"
              + (" (aggregates only)" if run.spec.summary_only else ""))
    if args.csv is not None:
        _show(run.means(), args)
    else:
        _show(means_table(run.means()), args)
        games = run.game_summary()
        if len(games):
            print("\nwhole games (R14):")
            _show(games_table(games), args)
    _plot(args, "simulate_chart", run)
    return 0


def cmd_replay(args) -> int:
    """``kalooki replay``."""
    from .engine.trace import trace

    t = trace(args.seed, game=args.game, hand=_hand(args), policies=_policies(args.policies),
              rules=rules_from(args), whole_game=args.hand is None)
    if args.record is not None:
        return replay_record(args, t)
    if args.csv is not None:
        import pandas as pd

        _show(pd.DataFrame(t.records), args)
    else:
        print(t.play_by_play())
    return 0


def cmd_rules(args) -> int:
    """``kalooki rules``."""
    import pandas as pd

    from .game.rules import Rules, contract_text

    rules = rules_from(args) or Rules()
    docs = _rules_field_docs()
    rows = []
    for f in dataclasses.fields(Rules):
        v = getattr(rules, f.name)
        if f.name == "schedule":
            v = "; ".join(",".join(str(x) for x in e) for e in v)
        rows.append({"option": "--" + f.name.replace("_", "-"), "value": v,
                     "rules": ", ".join(rule_ids(docs.get(f.name, ""))),
                     "default": v == getattr(Rules(), f.name) if f.name != "schedule"
                     else rules.schedule == Rules().schedule})
    table = pd.DataFrame(rows)
    if args.csv is not None:
        return _show(table, args) or 0
    _show(table, args)
    sched = pd.DataFrame([{"hand": i, "cards dealt": c, "contract": contract_text(g, r)}
                          for i, (c, g, r) in enumerate(rules.schedule, start=1)])
    print(f"\npack: {rules.decks} decks + {rules.jokers} jokers = {rules.pack_size} cards; "
          f"{rules.players} players; the schedule (R2):")
    print(sched.to_string(index=False))
    return 0


def cmd_tournament(args) -> int:
    """``kalooki tournament``."""
    from .studies.tournament import tournament

    pols = _policies(args.policies)
    pols = pols if isinstance(pols, list) else [pols]
    rules = rules_from(args)
    if len(pols) == 1:
        raise UsageError(f"--policies {args.policies!r} is not allowed; give one policy per "
                         "seat, comma-separated, e.g. expert,greedy,greedy,greedy (3-8 seats; "
                         "the table's size is their number)")
    res = tournament(pols, args.games, players=len(pols) if rules is None else rules.players,
                     seed=args.seed, rules=rules, threads=args.threads, progress=_progress(args),
                     paired=args.paired)
    if args.paired:
        table, pairs = res
        _show(table, args)
        if args.csv is None:
            print()
            _show(pairs, args)
    else:
        table = res
        _show(table if args.csv is not None else tournament_table(table), args)
    _plot(args, "tournament_chart", table)
    return 0


def _cards(name, text):
    """Validate card text with :func:`~kalooki_sim.parse_cards` (the API's message)."""
    from .game.cards import parse_cards

    try:
        return parse_cards(text)
    except (ValueError, TypeError) as e:
        raise UsageError(f"--{name}: {e}") from None


def _api(name):
    """``kalooki_sim.<name>``, or a clear error in a version without it."""
    import kalooki_sim

    fn = getattr(kalooki_sim, name, None)
    if fn is None:
        raise UsageError(f"kalooki_sim.{name} is not in this version of the package")
    return fn


def cmd_call_chart(args) -> int:
    """``kalooki call-chart``: the call-chart study (issue 28)."""
    from .analysis import decided_share
    from .analysis.chart_study import SEED, call_chart_study

    if args.resume and args.force:
        raise UsageError("--resume and --force exclude each other; give one")
    _at_least("--deals", args.deals, 1)
    rules = rules_from(args)
    s = call_chart_study(args.deals, args.out, hand=args.hand or None,
                         players=args.rule_players or 4, policies=_policies(args.policies),
                         seed=SEED if args.seed is None else args.seed, rules=rules,
                         sample=args.sample, resume=args.resume, force=args.force,
                         scheduler=args.scheduler, threads=args.threads,
                         chunk_deals=args.chunk_deals, progress=_progress(args))
    chart = s.chart()
    share = decided_share(chart, "hand")
    table = share.rename("decided share").reset_index()
    table["decisions"] = chart.groupby("hand")["decisions"].sum().to_numpy()
    if args.csv is not None:
        _show(chart, args)
        return 0
    if not args.quiet:
        print(f"{s.provenance['decisions']:,} decisions from {args.deals:,} deals per contract "
              f"in {s.provenance['wall time']}: {s.path}/call_chart_stats.csv, "
              f"{s.path}/call_chart.csv")
        print(f"decided: {decided_share(chart):.1%} of all decisions; per contract:")
    _show(table, args)
    return 0


def cmd_call_value(args) -> int:
    """``kalooki call-value``."""
    import pandas as pd

    call_decisions = _api("call_decisions")
    _at_least("--deals", args.deals, 1)
    df = call_decisions(args.deals, args.hand, players=args.rule_players or 4,
                        policies=_policies(args.policies), seed=args.seed,
                        rules=rules_from(args), replicas=args.replicas,
                        sample=args.sample, progress=_progress(args))
    if "decision" in df.columns:
        _plot(args, "call_value_chart", df)
    if args.rows or "decision" not in df.columns:
        _show(df, args)
        return 0
    ids = ["decision", "game", "hand", "attempt", "seat", "replica"]  # labels, not measures
    num = df.select_dtypes("number").columns.drop(ids, errors="ignore")
    g = df.groupby("decision", observed=True)
    summary = pd.concat([g.size().rename("count"), g[list(num)].mean()], axis=1)
    _show(summary.reset_index(), args)
    if args.csv is None:
        from .analysis import value_map

        v = value_map(df, "decision", decision=None)
        print("\nwhat acting is worth, act minus pass per decision, 95% intervals over deals "
              "(negative penalty: acting saves points):")
        _show(pd.DataFrame({
            "decision": v["decision"], "decisions": v["decisions"], "deals": v["deals"],
            "penalty, points": [est_ci(*r) for r in zip(
                v["d_penalty"], v["d_penalty_lo"], v["d_penalty_hi"], strict=True)],
            "went out, percentage points": [est_ci(*(100 * x for x in r)) for r in zip(
                v["d_out"], v["d_out_lo"], v["d_out_hi"], strict=True)]}), args)
    return 0


def cmd_advise(args) -> int:
    """``kalooki advise``."""
    if args.hand_cards is not None:
        if args.cards is not None:
            raise UsageError("--hand is the old name of --cards; give --cards alone")
        if not args.quiet:
            print("kalooki advise: --hand is deprecated; call it --cards (elsewhere --hand is a "
                  "hand number)", file=sys.stderr)
        args.cards = args.hand_cards
    if args.cards is None:
        raise UsageError('--cards is required: your cards, e.g. --cards "K♠ K♥ 7♦ 7♣ 2♥"')
    hand = _cards("cards", args.cards)
    card = _cards("card", args.card)
    if len(card) != 1:
        raise UsageError(f"--card {args.card!r} is not allowed; give one card, e.g. 7♥")
    table = [_cards("table", m) for m in args.table.split(";") if m.strip()] if args.table else []
    seen = _cards("seen", args.seen) if args.seen else []
    advise = _api("advise")
    kw = dict(players=args.rule_players or 4, discarder=args.discarder, stock_left=args.stock_left,
              calls_made=args.calls_made, opened=tuple(args.opened or ()), table=tuple(table),
              seen=tuple(seen), known=args.known, hand_sizes=args.hand_sizes,
              reshuffled=args.reshuffled, history=args.history,
              past_turns=not args.no_past_turns, objective=args.objective,
              policies=_policies(args.policies), rollouts=args.rollouts,
              margin=args.margin, time_limit=args.time_limit, decide=args.decide,
              seed=args.seed, rules=rules_from(args), progress=_progress(args))
    a = advise(" ".join(hand), card[0], args.contract, **kw)
    if args.csv is None:
        print(a)
        return 0
    _show(advice_table(a), args)
    return 0


def cmd_review(args) -> int:
    """``kalooki review``."""
    from .engine.trace import trace

    review = _api("review")
    if args.out is not None:
        if not str(args.out).lower().endswith((".html", ".htm")):
            raise UsageError(f"--out {args.out!r} is not allowed; give a file name ending in "
                             ".html")
        _new_file(args, "--out", args.out)
    if args.record is not None:
        from .studies.record import check_record

        text = read_record_file(args)
        t = check_record(text)
        args.seat, args.seed = t.record_seat, "record"
    elif args.seed is None or args.seat is None:
        raise UsageError("give --seed and --seat (a simulated hand) or --record FILE")
    else:
        t = trace(args.seed, game=args.game, hand=_hand(args),
                  policies=_policies(args.policies), rules=rules_from(args),
                  whole_game=args.hand is None)
    table = review(t, args.seat, rollouts=args.rollouts, objective=args.objective,
                   policies=_policies(args.rollout_policies), seed=args.rollout_seed,
                   threads=args.threads, progress=_progress(args))
    if args.csv is not None:
        _show(table, args)
    else:
        print(f"seat {args.seat}: {len(table)} decisions, {args.rollouts:,} rollouts each; "
              f"values are {args.objective} points (lower is better): act = take or call, "
              "not = draw or pass")
        _show(review_table(table), args)
        print("\nverdict: good / mistake = the action taken / the other is better, its 95% "
              "interval excluding zero; close = the interval holds zero")
    if args.out is not None:
        from .report.review_page import review_html

        where = (f"seed {args.seed}, game {args.game}" if args.record is None else
                 f"the record {args.record}")
        where += "" if args.hand is None or args.record else f", hand {args.hand}"
        page = review_html(t, args.seat, table, title=f"Review of seat {args.seat}: {where}")
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(page)
        if not args.quiet:
            print(f"wrote {args.out}", file=sys.stderr)
    return 0


def cmd_report(args) -> int:
    """``kalooki report``: the same as ``make report``."""
    import contextlib
    import io

    from .game._checks import check_writable_dir
    from .report import publish as report

    if args.out is not None:  # before minutes of notebooks, not after them
        check_writable_dir("--out", args.out, "a directory you can write (new, or a report's)")
    argv = ["--out", args.out] if args.out else []
    with contextlib.redirect_stdout(io.StringIO()) if args.quiet else contextlib.nullcontext():
        report.main(argv + (["--tiny"] if args.tiny else []))
    return 0


# -- the parser -----------------------------------------------------------------------------------

_SIMULATE_EXAMPLES = """examples:
  kalooki simulate --games 10000 --out runs/g4                  # whole games, 4 greedy players
  kalooki simulate --games 100000 --hand 9 --players 5 --out runs/h9p5 --summary-only
  kalooki simulate --games 20000 --hand 1 --hand 9 --policies expert,greedy,greedy,greedy \\
      --out runs/mixed --call-limit 2
  kalooki simulate --games 20000 --first-game 20000 --out runs/part2  # the next 20,000 games
  kalooki simulate ... --out runs/g4 --resume                   # continue an interrupted run
  kalooki simulate --games 1000000 --summary-only --out runs/big --cluster local:2

The rows go to DIR/rows/*.parquet (read them with kalooki_sim.simulate(...).rows() or pandas),
the merged aggregates to DIR/summary.parquet; DIR/manifest.json records the arguments, version,
commit and checksums. The table printed is Run.means(): per hand and policy, seats pooled.

how long (measured on 2 cores, 2026-12-01): a million hand-9 games at 5 players with
--summary-only take about 35 min; time grows with games x hands played."""

_EXAMPLES = {
    "replay": """examples:
  kalooki replay --seed 1 --game 0 --hand 7        # hand 7 as play_hands(..., seed=1) played it
  kalooki replay --seed 1 --game 3                 # the whole game 3
  kalooki replay --seed 1 --hand 9 --players 5 --policies expert --csv moves.csv
  kalooki replay --seed 2 --hand 2 --policies expert --record hand.rec --record-seat 3""",
    "rules": """examples:
  kalooki rules                                     # the Jamaican card
  kalooki rules --players 6 --pack by-table --free-extension""",
    "tournament": """examples:
  kalooki tournament --policies expert,greedy,greedy,greedy --games 2000 --seed 2026
  kalooki tournament --policies call-1,never-call,greedy --games 500 --paired --csv""",
    "call-chart": """examples:
  kalooki call-chart --deals 20000 --out study/chart            # all nine contracts (hours)
  kalooki call-chart --deals 2000 --hand 6 --seed 7 --out /tmp/h6  # re-run one contract
  kalooki call-chart --deals 20000 --out study/chart --resume    # continue after a stop
  kalooki call-chart --deals 20000 --out study/chart --scheduler tcp://10.0.0.5:8786

make study re-runs the committed study; make report reads its statistics.""",
    "call-value": """examples:
  kalooki call-value --deals 2000 --hand 6
  kalooki call-value --deals 2000 --hand 9 --players 5 --rows --csv calls.csv
  kalooki call-value --deals 2000 --hand 9 --sample 0.05      # 5% of the decisions branched

how long (measured on 2 cores, 2026-12-01): --deals 2000 --hand 6 took 297 s;
call_decisions(200, hand=9, replicas=8) took 578 s (time grows with deals x replicas).""",
    "advise": """examples:
  kalooki advise --cards "K♠ K♥ 7♦ 7♣ 8♦ 9♦ Q♣ 2♠ 5♥ JK 4♣ 4♦ 10♠" --card 7♥ --contract 6
  kalooki advise --cards "ks kh 7d 7c 8d 9d qc 2s 5h jk 4c 4d ts" --card 7h --contract 6 \\
      --opened 1,3 --table "5♠ 5♥ 5♦; 9♣ 10♣ J♣ Q♣" --seen "2♥ 2♦" --rollouts 500
  kalooki advise --cards "..." --card 7♥ --contract 6 --known "1:7♠ 7♦" --known "3:2♣" \\
      --hand-sizes 1:15 --objective penalty
  kalooki advise --cards "..." --card 7♥ --contract 6 --discarder 2 \\
      --history "3:discard:7♦, 2:pass:7♦, 2:draw, 2:discard:7♥"   # or --history @events.txt""",
    "serve": """examples:
  kalooki serve                      # then open http://127.0.0.1:8052/
  kalooki serve --port 9000 --open   # another port, and open the browser""",
    "review": """examples:
  kalooki review --record hand.rec --rollouts 500 --out review.html   # a hand you played
  kalooki review --seed 1 --game 0 --hand 9 --seat 0                  # the table of decisions
  kalooki review --seed 1 --game 0 --hand 9 --seat 0 --out review.html --rollouts 500
  kalooki review --seed 1 --hand 6 --seat 2 --policies expert,greedy,greedy,greedy --csv

how long (measured on 2 cores shared with other work, 2026-12-02): hand 9 of --seed 1 (14
decisions of seat 0, one deal) took 15 s at 200 rollouts per decision.""",
    "report": """examples:
  kalooki report                 # executes the notebooks and writes reports/ (minutes)
  kalooki report --tiny --out /tmp/report""",
}


def _sub(subs, name, func, help_, description):
    p = subs.add_parser(name, help=help_, description=description,
                        epilog=_EXAMPLES.get(name, _SIMULATE_EXAMPLES if name == "simulate"
                                             else None), formatter_class=_FORMATTER)
    p.set_defaults(func=func)
    _add_quiet(p)
    return p


def build_parser() -> argparse.ArgumentParser:
    """The ``kalooki`` argument parser with every sub-command."""
    from ._version import __version__

    ap = _Parser(prog="kalooki", formatter_class=_FORMATTER,
                 description="Monte Carlo statistics for Jamaican Kalooki (kalooki_sim).",
                 epilog="Run 'kalooki COMMAND --help' for a command's flags and examples.")
    ap.add_argument("--version", action="version", version=f"kalooki_sim {__version__}")
    subs = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subs.required = True

    p = _sub(subs, "simulate", cmd_simulate, "play many games or hands into a Parquet dataset",
             "Play --games games (or only the --hand numbers of each) in chunks, writing each "
             "chunk's per-seat rows to Parquet and exact aggregates (counts, sums, sums of "
             "squares, histograms) to a summary; resumable, and runnable on a dask cluster.")
    p.add_argument("--games", type=int, required=True, metavar="N", help="games to play (>= 1)")
    p.add_argument("--hand", type=int, action="append", metavar="H",
                   help="play only hand number H of each game (repeatable; default: whole "
                        "games)")
    p.add_argument("--policies", default="greedy", metavar="P[,P...]", help=_POLICIES_HELP)
    p.add_argument("--seed", type=int, default=0, help="the run's seed (C3)")
    p.add_argument("--first-game", type=int, default=0, metavar="G",
                   help="the first game id: split a study into runs")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="numba threads (default: all cores; 1 per worker on a LocalCluster)")
    p.add_argument("--out", required=True, metavar="DIR", help="the run directory")
    p.add_argument("--summary-only", action="store_true",
                   help="keep only the aggregates, not the rows")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="DIR holds this run: continue it (or read it back if finished)")
    mode.add_argument("--force", action="store_true",
                      help="DIR holds a run: delete its files and start again; and overwrite "
                           "the files --csv and --plot name if they exist")
    p.add_argument("--cluster", default=None, metavar="local[:N]|tcp://HOST:PORT",
                   help="run the chunks on a dask LocalCluster of N workers, or on the "
                        "scheduler at HOST:PORT")
    p.add_argument("--chunk-games", type=int, default=None, metavar="N",
                   help="games per chunk (default: about 100,000 hands per chunk)")
    _add_output(p, force=False)
    _add_plot(p, "the mean penalty per hand with 95%% intervals")
    add_rules_flags(p)

    p = _sub(subs, "replay", cmd_replay, "the readable play-by-play of a hand or a game",
             "Replay one hand (--hand) of a game, or the whole game, exactly as play_hands / "
             "play_games played it with that seed, and print the move log.")
    _add_deal(p, "the whole game, with its totals and winner")
    p.add_argument("--policies", default="greedy", metavar="P[,P...]", help=_POLICIES_HELP)
    add_replay_record(p)
    _add_output(p)
    add_rules_flags(p)

    p = _sub(subs, "rules", cmd_rules, "the active rule set with its rule ids",
             "Print the rule set the flags give (the Jamaican card without flags): every "
             "option with its value and the rule ids of RULES.md, and the schedule.")
    _add_output(p)
    add_rules_flags(p)

    p = _sub(subs, "tournament", cmd_tournament, "a duplicate tournament of policies",
             "Every deal sequence is played once per rotation of the policies round the table "
             "(kalooki_sim.tournament); 95% intervals over deal sequences.")
    p.add_argument("--policies", required=True, metavar="P,P,...",
                   help="one policy per seat, comma-separated")
    p.add_argument("--games", type=int, required=True, metavar="N",
                   help="deal sequences (nine-hand games), each played once per rotation")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals (C3)")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="numba threads (default: all cores)")
    p.add_argument("--paired", action="store_true",
                   help="also the paired differences between every two policies")
    _add_output(p)
    _add_plot(p, "each policy's share of game wins with 95%% intervals")
    add_rules_flags(p)

    p = _sub(subs, "call-chart", cmd_call_chart, "the call chart's study: make it, keep it",
             "Branch every take and call of --deals deals of each contract both ways "
             "(kalooki_sim.call_decisions), in chunks: per-decision rows to Parquet, the "
             "chart's sufficient statistics to DIR/call_chart_stats.csv (with the command, "
             "commit, machine and wall time on top) and the chart to DIR/call_chart.csv; "
             "resumable, and runnable on a dask cluster.")
    p.add_argument("--deals", type=int, required=True, metavar="N",
                   help="deals per contract (>= 1)")
    p.add_argument("--out", required=True, metavar="DIR", help="the study directory")
    p.add_argument("--hand", type=int, action="append", metavar="H",
                   help="study only contract H (repeatable; default: all nine)")
    p.add_argument("--policies", default="expert", metavar="P[,P...]", help=_POLICIES_HELP)
    p.add_argument("--seed", type=int, default=None,
                   help="the seed of the deals (C3; default: the study's own, 2028)")
    p.add_argument("--sample", type=float, default=1.0, metavar="S",
                   help="share of the decisions branched, in (0, 1]")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="numba threads (default: all cores; 1 per worker on a LocalCluster)")
    p.add_argument("--chunk-deals", type=int, default=None, metavar="N",
                   help="deals per chunk (default 250)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="DIR holds this study: continue it (or read it back if finished)")
    mode.add_argument("--force", action="store_true",
                      help="DIR holds a study: delete its files and start again")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the chunks on a dask cluster: tcp://HOST:PORT (a scheduler), or "
                        "local[:N] (a LocalCluster of N workers)")
    _add_output(p, force=False)
    add_rules_flags(p)

    p = _sub(subs, "call-value", cmd_call_value, "what calls are worth, decision by decision",
             "kalooki_sim.call_decisions: every call decision on --deals deals of hand --hand, "
             "followed both ways on the same cards; a summary per decision (--rows: every row).")
    p.add_argument("--deals", type=int, required=True, metavar="N",
                   help="deals of the hand to play, every decision branched (>= 1)")
    p.add_argument("--hand", type=int, required=True, metavar="H",
                   help="the hand number (its contract), 1-9")
    p.add_argument("--policies", default="expert", metavar="P[,P...]", help=_POLICIES_HELP)
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals (C3)")
    p.add_argument("--replicas", type=int, default=1, metavar="K",
                   help="1: each branch continues the real deal; K > 1: deal the unseen cards "
                        "again K times (the value given what the seat knows)")
    p.add_argument("--sample", type=float, default=1.0, metavar="S",
                   help="share of the decisions branched, in (0, 1]: each is drawn from the "
                        "seed, so fewer decisions spread over more deals")
    p.add_argument("--rows", action="store_true", help="print every row, not the summary")
    _add_output(p)
    _add_plot(p, "the mean d_penalty (act minus pass) by cards still needed, per decision")
    add_rules_flags(p)

    p = _sub(subs, "advise", cmd_advise, "should I call (or take) this card?",
             "kalooki_sim.advise: rollouts of the position with and without the card; prints "
             "the recommendation and the table.")
    p.add_argument("--cards", default=None, metavar="CARDS",
                   help='your cards (required), e.g. "K♠ K♥ 7♦"')
    p.add_argument("--hand", dest="hand_cards", default=None, help=argparse.SUPPRESS)
    p.add_argument("--card", required=True, metavar="CARD", help="the card offered, e.g. 7♥")
    p.add_argument("--contract", type=int, required=True, metavar="H",
                   help="the hand number (its contract)")
    p.add_argument("--discarder", type=int, default=2, metavar="SEAT",
                   help="seats to your right of the player who discarded the card (1: you are "
                        "next, so take or draw; 2 or more: call or pass)")
    p.add_argument("--stock-left", type=int, default=None, metavar="N",
                   help="cards left in the stock (default: as after the deal)")
    p.add_argument("--calls-made", type=int, default=0, metavar="N",
                   help="calls you have made this hand (R9)")
    p.add_argument("--opened", type=_ints, default=None, metavar="S,S",
                   help="seats that have opened, e.g. 1,3")
    p.add_argument("--table", default=None, metavar="MELDS",
                   help='melds on the table, ";" between melds, e.g. "5♠ 5♥ 5♦; 9♣ 10♣ J♣"')
    p.add_argument("--seen", default=None, metavar="CARDS",
                   help="the discards under the card, bottom first, as far as you saw them")
    p.add_argument("--known", action="append", default=None, metavar="SEAT:CARDS",
                   help='cards an opponent took or called and still holds, e.g. "1:7♠ 7♥ 6♥" '
                        "(seat to your right; repeatable, one per seat)")
    p.add_argument("--hand-sizes", default=None, metavar="SEAT:N,...",
                   help="opponents' hand sizes, e.g. 1:11,3:9 (default: the cards dealt, less "
                        "the cards of its melds if opened)")
    p.add_argument("--reshuffled", action="store_true",
                   help="the stock was made again from the pile (R13): the next empty stock "
                        "voids the hand; give --stock-left")
    p.add_argument("--history", default=None, metavar="EVENTS",
                   help='what the table saw, in order: SEAT:ACTION[:CARD] separated by commas, '
                        'e.g. "3:discard:7♦,1:pass:7♦,2:draw" (seat to your right, 0: you; '
                        "actions discard, pass, take, call, draw), or @FILE, one per line")
    p.add_argument("--no-past-turns", action="store_true",
                   help="deal the hidden hands uniformly, without replaying the opponents' "
                        "past turns (the stock left is then not read)")
    p.add_argument("--objective", choices=["relative", "penalty"], default="relative",
                   help="relative: your penalty minus the table's mean, doubles counted (what "
                        "decides a game); penalty: your own penalty alone")
    p.add_argument("--policies", default="expert", metavar="P[,P...]",
                   help=_POLICIES_HELP + "; how every seat plays the rollouts")
    p.add_argument("--rollouts", type=int, default=2000, metavar="N",
                   help="paired rollouts, each played both ways on the same cards")
    p.add_argument("--margin", type=float, default=None, metavar="POINTS",
                   help="stop early once the penalty interval's half-width is below POINTS "
                        "(default: no early stop)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="stop early after SECONDS (default: no limit)")
    p.add_argument("--decide", action="store_true",
                   help="stop as soon as the rollouts decide (a sequential test, 5%% error "
                        "over all its looks); 'unsure' if the budget runs out first")
    p.add_argument("--seed", type=int, default=0, help="the seed of the rollouts")
    _add_output(p)
    add_rules_flags(p)

    p = _sub(subs, "review", cmd_review, "review one seat's take and call decisions",
             "kalooki_sim.review: replay a hand (or a game) as 'kalooki replay' does and judge "
             "every take and call decision of --seat with the advisor, from what the seat knew "
             "then; --out writes the hand's timeline as an HTML page.")
    _add_deal(p, "the whole game", required=False)
    p.add_argument("--seat", type=int, default=None, metavar="K",
                   help="the seat to review, 0 to players - 1")
    add_review_record(p)
    p.add_argument("--policies", default="greedy", metavar="P[,P...]",
                   help=_POLICIES_HELP + "; how the traced hand was played")
    p.add_argument("--rollouts", type=int, default=200, metavar="N",
                   help="paired rollouts per decision")
    p.add_argument("--objective", choices=["relative", "penalty"], default="relative",
                   help="relative: your penalty minus the table's mean, doubles counted; "
                        "penalty: your own penalty alone")
    p.add_argument("--rollout-policies", default="expert", metavar="P[,P...]",
                   help="how every seat plays in the rollouts (the advisor's model)")
    p.add_argument("--rollout-seed", type=int, default=0, help="the seed of the rollouts")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="numba threads (default: all cores)")
    p.add_argument("--out", default=None, metavar="FILE.html",
                   help="also write the hand's timeline, every decision annotated, as an HTML "
                        "page (default: none)")
    _add_output(p)
    add_rules_flags(p)

    p = _sub(subs, "serve", cmd_serve, "the advisor, the review and the chart in a browser",
             "A local web app (http://127.0.0.1:8052/): the Advise, Review and Chart pages "
             "over the Python API (the same as 'make serve'); Ctrl-C stops it.")
    add_serve(p)

    p = _sub(subs, "report", cmd_report, "execute the notebooks and write reports/",
             "The same as 'make report' (kalooki_sim.report).")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="where to write the report (default: reports/)")
    p.add_argument("--tiny", action="store_true", help="tiny sizes (a smoke test)")
    return ap


def _compiling() -> str:
    from .warmup import COLD_CPU, clock

    return (f"kalooki: compiling the kernels this command needs (once, then cached; up to "
            f"{clock(sum(COLD_CPU.values()))} of one core's time when nothing is cached: "
            "'make compile' does them all beforehand, two at a time)…")


#: the note shown when a command's first call compiles (times measured, see warmup.COLD_CPU)
COMPILING = _compiling()


def _compile_note(quiet: bool):
    """A context that prints :data:`COMPILING` to stderr the first time numba compiles.

    Numba raises its ``numba:compile`` event only when a kernel is not in its cache (a first
    run, a new numba version), so a warm cache prints nothing; ``quiet`` prints nothing.
    """
    import contextlib

    if quiet:
        return contextlib.nullcontext()
    from numba.core import event

    class _Note(event.Listener):
        shown = False

        def on_start(self, ev):
            if not self.shown:
                self.shown = True
                print(COMPILING, file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    return event.install_listener("numba:compile", _Note())


def _on_sigterm(signum, frame):
    raise _Terminated


def _sigterm_raises():
    """A context in which SIGTERM raises :class:`_Terminated` (main thread only)."""
    import contextlib
    import signal
    import threading

    @contextlib.contextmanager
    def handled():
        old = signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            yield
        finally:
            signal.signal(signal.SIGTERM, old)

    main_thread = threading.current_thread() is threading.main_thread()
    return handled() if main_thread else contextlib.nullcontext()


def main(argv=None) -> int:
    """Run the ``kalooki`` command; returns the exit status (0, 2 for bad input, 130 on ^C,
    143 on SIGTERM)."""
    parser = build_parser()
    args = parser.parse_args(_glued(sys.argv[1:] if argv is None else list(argv)))
    prog = f"kalooki {args.command}"
    with _sigterm_raises():
        return _main(args, prog)


def _new_file(args, flag: str, path) -> None:
    """Refuse (before the run, not after it) a file ``flag`` cannot write, or one that exists
    unless ``--force`` is given: a file is not overwritten without a word."""
    from .game._checks import check_writable_file, not_allowed

    check_writable_file(flag, path)
    if os.path.exists(path) and not getattr(args, "force", False):
        raise UsageError(not_allowed(flag, str(path), "a new file name, or --force to overwrite "
                                     "it", "it exists"))


#: the commands whose studies keep finished chunks on disk (``--resume`` continues them)
_CHUNKED = ("simulate", "call-chart")


def _main(args, prog) -> int:
    try:
        if getattr(args, "csv", None) not in (None, "-"):
            _new_file(args, "--csv", args.csv)
        if getattr(args, "plot", None) is not None:
            if not str(args.plot).lower().endswith(".png"):
                raise UsageError(f"--plot {args.plot!r} is not allowed; give a file name "
                                 "ending in .png")
            _new_file(args, "--plot", args.plot)
        with _compile_note(args.quiet or args.command == "rules"), \
                _stderr_notes(prog, args.quiet), _one_line_warnings(prog):
            return args.func(args)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except (ValueError, TypeError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"{prog}: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except StudyInterrupted as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted; finished chunks are kept (continue with --resume)"
              if args.command in _CHUNKED else f"\n{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except _Terminated:
        print(f"{prog}: stopped by SIGTERM; run again with --resume to continue"
              if args.command in _CHUNKED else f"{prog}: stopped by SIGTERM", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:
        # the reader went away (``kalooki rules | head``): stop quietly, as Unix tools do
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
