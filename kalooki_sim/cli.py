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

from . import _cli_parser
from ._cli_notes import _glued, _one_line_warnings, _stderr_notes
from ._cli_parser import EXIT_USAGE
from ._cli_record import read_record_file, replay_record
from ._cli_rules import (
    UsageError,
    _rules_field_docs,
    rule_ids,
    rules_from,
)
from ._cli_serve import cmd_serve
from .report.terminal import (
    advice_table,
    est_ci,
    games_table,
    means_table,
    review_header,
    review_legend,
    review_table,
    tournament_table,
)
from .studies.runner import StudyInterrupted

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process SIGTERM ended
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of stdout went away


class _Terminated(BaseException):
    """SIGTERM arrived (raised in the main thread, like KeyboardInterrupt for SIGINT)."""


# -- shared flags and output ---------------------------------------------------------------------


def _policies(text: str):
    """``"greedy"`` -> ``"greedy"``; ``"expert,greedy,greedy,greedy"`` -> a list."""
    parts = [p.strip() for p in text.split(",")]
    return parts[0] if len(parts) == 1 else parts


def _plot(args, chart, data) -> None:
    """Draw ``chart(data)`` (a :mod:`kalooki_sim.report.command_plots` function) to --plot."""
    if args.plot is None:
        return
    from .report import command_plots

    command_plots.save(getattr(command_plots, chart)(data), args.plot)
    if not args.quiet:
        print(f"wrote {args.plot}", file=sys.stderr)


def _hand(args) -> int:
    """The ``hand=`` of :func:`~kalooki_sim.trace` from ``--hand``: hand 1 when the whole game
    is replayed (``--hand`` not given); any number given, 0 too, goes to the API, which refuses
    a number outside the schedule (``0`` is not hand 1)."""
    return 1 if args.hand is None else args.hand


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
    from ._lib import check_int

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
    print(f"\npack: {rules.pack_text} = {rules.pack_size} cards; "
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
    """``kalooki call-chart``: the call-chart study."""
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
    if args.discard:
        return _advise_discard(args, hand)
    if args.took is not None:
        raise UsageError("--took is allowed only with --discard (the card you took before "
                         "discarding)")
    if args.card is None:
        raise UsageError("--card is required: the card offered, e.g. --card 7♥ (or --discard "
                         "to rank the cards to discard)")
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
              seed=args.seed, rules=rules_from(args), threads=args.threads,
              progress=_progress(args))
    a = advise(" ".join(hand), card[0], args.contract, **kw)
    if args.csv is None:
        print(a)
        return 0
    _show(advice_table(a), args)
    return 0


def _advise_discard(args, hand) -> int:
    """``kalooki advise --discard``: the candidates ranked, with intervals, and the sentence."""
    if args.card is not None:
        raise UsageError("--card is not allowed with --discard: the discard is chosen from "
                         "--cards (give --took if you took the pile's card)")
    table = [_cards("table", m) for m in args.table.split(";") if m.strip()] if args.table else []
    a = _api("advise_discard")(
        " ".join(hand), args.contract, took=args.took, players=args.rule_players or 4,
        stock_left=args.stock_left, calls_made=args.calls_made,
        opened=tuple(args.opened or ()), table=tuple(table),
        seen=tuple(_cards("seen", args.seen)) if args.seen else (), known=args.known,
        hand_sizes=args.hand_sizes, reshuffled=args.reshuffled, history=args.history,
        past_turns=not args.no_past_turns, objective=args.objective,
        policies=_policies(args.policies), rollouts=args.rollouts, margin=args.margin,
        time_limit=args.time_limit, decide=args.decide, seed=args.seed, rules=rules_from(args),
        threads=args.threads, progress=_progress(args))
    if args.csv is None:
        print(a)
    else:
        _show(a.table, args)
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
    cap = {} if args.rollouts is None else {"rollouts": args.rollouts}
    table = review(t, args.seat, **cap, objective=args.objective,
                   policies=_policies(args.rollout_policies), seed=args.rollout_seed,
                   threads=args.threads, progress=_progress(args))
    if args.csv is not None:
        _show(table, args)
    else:
        print(review_header(table, args.seat, args.objective))
        _show(review_table(table), args)
        print("\n" + review_legend())
        if len(table):
            tot = _api("review_total")(table, by="all").iloc[0]
            print(f"points lost in all: {tot['lost']:.1f} [95%: {tot['lost_lo']:.1f}, "
                  f"{tot['lost_hi']:.1f}] over {int(tot['decisions'])} decisions")
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

    from ._lib import check_writable_dir
    from .report import publish as report

    if args.out is not None:  # before minutes of notebooks, not after them
        check_writable_dir("--out", args.out, "a directory you can write (new, or a report's)")
    argv = ["--out", args.out] if args.out else []
    with contextlib.redirect_stdout(io.StringIO()) if args.quiet else contextlib.nullcontext():
        report.main(argv + (["--tiny"] if args.tiny else []))
    return 0


# -- the parser -----------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``kalooki`` argument parser with every sub-command (their flags:
    :mod:`kalooki_sim._cli_parser`)."""
    from ._version import __version__

    commands = {"simulate": cmd_simulate, "replay": cmd_replay, "rules": cmd_rules,
                "tournament": cmd_tournament, "call-chart": cmd_call_chart,
                "call-value": cmd_call_value, "advise": cmd_advise, "review": cmd_review,
                "serve": cmd_serve, "report": cmd_report}
    return _cli_parser.build_parser(commands, __version__)


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
    from ._lib import check_writable_file, not_allowed

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
