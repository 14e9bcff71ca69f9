"""The ``kalooki`` command line's flags, by subcommand: one small function per subcommand
(``simulate_flags``, ``advise_flags``, ...), the flag groups several share defined once
(``add_policies``, ``add_seed``, ``add_threads``, ``add_resume_force``, ``add_output``,
``add_plot``, ``add_deal``, ``add_quiet``, and the rules' flags of :mod:`._cli_rules`), and the
examples each ``--help`` ends with. :func:`build_parser` assembles them; the subcommands
themselves are in :mod:`kalooki_sim.cli`.
"""

from __future__ import annotations

import argparse

from ._cli_record import add_replay_record, add_review_record
from ._cli_rules import add_rules_flags
from ._cli_serve import add_serve

EXIT_USAGE = 2


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


# -- shared flag groups --------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma list of integers") from None


_POLICIES_HELP = ("one preset for every seat, or one per seat, comma-separated (greedy, random, "
                  "never-call, call-<k>, hold-for-double, expert, chart, thumb, search; "
                  "chart:FILE follows the chart or rules of thumb in a CSV)")


def add_policies(p, default="greedy", required: bool = False, metavar: str = "P[,P...]",
                 help: str | None = None, also: str = "") -> None:
    """--policies: one preset for every seat, or one per seat."""
    if required:
        p.add_argument("--policies", required=True, metavar=metavar, help=help)
    else:
        p.add_argument("--policies", default=default, metavar=metavar,
                       help=(help or _POLICIES_HELP) + also)


def add_seed(p, help: str, default=0) -> None:
    """--seed of the run (C3)."""
    p.add_argument("--seed", type=int, default=default, help=help)


def add_threads(p, local_cluster: bool = False) -> None:
    """--threads: numba threads per chunk or run."""
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="numba threads (default: all cores; 1 per worker on a LocalCluster)"
                   if local_cluster else "numba threads (default: all cores)")


def add_resume_force(p, what: str, force_also: str = "") -> None:
    """--resume or --force (not both) for a study kept in a directory."""
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help=f"DIR holds this {what}: continue it (or read it back if finished)")
    mode.add_argument("--force", action="store_true",
                      help=f"DIR holds a {what}: delete its files and start again{force_also}")


def add_objective(p, relative: str) -> None:
    """--objective: what the rollouts minimise."""
    p.add_argument("--objective", choices=["relative", "penalty"], default="relative",
                   help="relative: your penalty minus the table's mean, doubles counted"
                        f"{relative}; penalty: your own penalty alone")


def add_output(p, force: bool = True, writes: str = "--csv") -> None:
    """--csv (and --force for the files it and ``writes`` name)."""
    p.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                   help="print the table as CSV (or write it to FILE; an existing FILE only "
                        "with --force)")
    if force:  # simulate has its own --force, which also covers these files
        p.add_argument("--force", action="store_true",
                       help=f"overwrite the files {writes} name if they exist")


def add_plot(p, what: str) -> None:
    """--plot FILE.png: ``what`` drawn as a chart."""
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help=f"also draw {what} as a PNG to FILE.png (default: no chart; an "
                        "existing file only with --force)")


def add_deal(p, whole: str, required: bool = True) -> None:
    """--seed, --game, --hand: which traced hand (or game) a command replays."""
    p.add_argument("--seed", type=int, required=required,
                   help="the seed of the run to replay (C3)")
    p.add_argument("--game", type=int, default=0, metavar="G", help="the game id")
    p.add_argument("--hand", type=int, default=None, metavar="H",
                   help=f"the hand number (default: {whole})")


def add_quiet(p) -> None:
    """--quiet: no progress bar or notes on stderr."""
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar or notes on stderr (progress bars are off anyway when "
                        "stderr is not a terminal); errors are still shown")


# -- one function per subcommand's flags ---------------------------------------------------------


def simulate_flags(p) -> None:
    """``kalooki simulate``."""
    p.add_argument("--games", type=int, required=True, metavar="N", help="games to play (>= 1)")
    p.add_argument("--hand", type=int, action="append", metavar="H",
                   help="play only hand number H of each game (repeatable; default: whole "
                        "games)")
    add_policies(p)
    add_seed(p, "the run's seed (C3)")
    p.add_argument("--first-game", type=int, default=0, metavar="G",
                   help="the first game id: split a study into runs")
    add_threads(p, local_cluster=True)
    p.add_argument("--out", required=True, metavar="DIR", help="the run directory")
    p.add_argument("--summary-only", action="store_true",
                   help="keep only the aggregates, not the rows")
    add_resume_force(p, "run", "; and overwrite the files --csv and --plot name if they exist")
    p.add_argument("--cluster", default=None, metavar="local[:N]|tcp://HOST:PORT",
                   help="run the chunks on a dask LocalCluster of N workers, or on the "
                        "scheduler at HOST:PORT")
    p.add_argument("--chunk-games", type=int, default=None, metavar="N",
                   help="games per chunk (default: about 100,000 hands per chunk)")
    add_output(p, force=False)
    add_plot(p, "the mean penalty per hand with 95%% intervals")


def replay_flags(p) -> None:
    """``kalooki replay``."""
    add_deal(p, "the whole game, with its totals and winner")
    add_policies(p)
    add_replay_record(p)
    add_output(p)


def rules_flags(p) -> None:
    """``kalooki rules``: the rules' flags alone."""
    add_output(p)


def tournament_flags(p) -> None:
    """``kalooki tournament``."""
    add_policies(p, required=True, metavar="P,P,...",
                 help="one policy per seat, comma-separated")
    p.add_argument("--games", type=int, required=True, metavar="N",
                   help="deal sequences (nine-hand games), each played once per rotation")
    add_seed(p, "the seed of the deals (C3)")
    add_threads(p)
    p.add_argument("--paired", action="store_true",
                   help="also the paired differences between every two policies")
    add_output(p, writes="--csv or --plot")
    add_plot(p, "each policy's share of game wins with 95%% intervals")


def call_chart_flags(p) -> None:
    """``kalooki call-chart``."""
    p.add_argument("--deals", type=int, required=True, metavar="N",
                   help="deals per contract (>= 1)")
    p.add_argument("--out", required=True, metavar="DIR", help="the study directory")
    p.add_argument("--hand", type=int, action="append", metavar="H",
                   help="study only contract H (repeatable; default: all nine)")
    add_policies(p, "expert")
    add_seed(p, "the seed of the deals (C3; default: the study's own, 2028)", default=None)
    p.add_argument("--sample", type=float, default=1.0, metavar="S",
                   help="share of the decisions branched, in (0, 1]")
    add_threads(p, local_cluster=True)
    p.add_argument("--chunk-deals", type=int, default=None, metavar="N",
                   help="deals per chunk (default 250)")
    add_resume_force(p, "study")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the chunks on a dask cluster: tcp://HOST:PORT (a scheduler), or "
                        "local[:N] (a LocalCluster of N workers)")
    add_output(p, force=False)


def call_value_flags(p) -> None:
    """``kalooki call-value``."""
    p.add_argument("--deals", type=int, required=True, metavar="N",
                   help="deals of the hand to play, every decision branched (>= 1)")
    p.add_argument("--hand", type=int, required=True, metavar="H",
                   help="the hand number (its contract), 1-9")
    add_policies(p, "expert")
    add_seed(p, "the seed of the deals (C3)")
    p.add_argument("--replicas", type=int, default=1, metavar="K",
                   help="1: each branch continues the real deal; K > 1: deal the unseen cards "
                        "again K times (the value given what the seat knows)")
    p.add_argument("--sample", type=float, default=1.0, metavar="S",
                   help="share of the decisions branched, in (0, 1]: each is drawn from the "
                        "seed, so fewer decisions spread over more deals")
    p.add_argument("--rows", action="store_true", help="print every row, not the summary")
    add_output(p, writes="--csv or --plot")
    add_plot(p, "the mean d_penalty (act minus pass) by cards still needed, per decision")


def advise_situation_flags(p) -> None:
    """``kalooki advise``: the situation (the cards, the offer, the table, what was seen)."""
    p.add_argument("--cards", default=None, metavar="CARDS",
                   help='your cards (required), e.g. "K♠ K♥ 7♦"')
    p.add_argument("--hand", dest="hand_cards", default=None, help=argparse.SUPPRESS)
    p.add_argument("--card", default=None, metavar="CARD",
                   help="the card offered, e.g. 7♥ (required unless --discard)")
    p.add_argument("--contract", type=int, required=True, metavar="H",
                   help="the hand number (its contract)")
    p.add_argument("--discarder", type=int, default=2, metavar="SEAT",
                   help="seats to your right of the player who discarded the card (1: you are "
                        "next, so take or draw; 2 or more: call or pass)")
    p.add_argument("--stock-left", type=int, default=None, metavar="N",
                   help="cards left in the stock (default: as after the deal)")
    p.add_argument("--calls-made", type=int, default=None, metavar="N",
                   help="calls you have made this hand (R9; default: the calls of yours "
                        "--history shows, else 0)")
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


def advise_discard_flags(p) -> None:
    """``kalooki advise --discard``: which card to discard, not whether to take one."""
    p.add_argument("--discard", action="store_true",
                   help="rank the cards to discard at your turn (R6): --cards holds the card "
                        "just drawn, --seen the pile as it lies; no --card")
    p.add_argument("--took", default=None, metavar="CARD",
                   help="with --discard: the pile's card you took (R9.1) instead of drawing")


def advise_flags(p) -> None:
    """``kalooki advise``: the situation, then how the rollouts are played and stopped."""
    advise_situation_flags(p)
    advise_discard_flags(p)
    p.add_argument("--no-past-turns", action="store_true",
                   help="deal the hidden hands uniformly, without replaying the opponents' "
                        "past turns (the stock left is then not read)")
    add_objective(p, " (what decides a game)")
    add_policies(p, "expert", help=_POLICIES_HELP.replace(", search", ""),
                 also="; how every seat plays the rollouts (a searching policy plays none)")
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
    add_seed(p, "the seed of the rollouts")
    add_threads(p)
    add_output(p)


def review_flags(p) -> None:
    """``kalooki review``."""
    add_deal(p, "the whole game", required=False)
    p.add_argument("--seat", type=int, default=None, metavar="K",
                   help="the seat to review, 0 to players - 1")
    add_review_record(p)
    add_policies(p, also="; how the traced hand was played")
    p.add_argument("--rollouts", type=int, default=None, metavar="N",
                   help="most paired rollouts per decision, in looks that stop once the "
                        "answer is decided or equal (default: the review's own)")
    add_objective(p, "")
    p.add_argument("--rollout-policies", default="expert", metavar="P[,P...]",
                   help="how every seat plays in the rollouts (the advisor's model)")
    p.add_argument("--rollout-seed", type=int, default=0, help="the seed of the rollouts")
    add_threads(p)
    p.add_argument("--out", default=None, metavar="FILE.html",
                   help="also write the hand's timeline, every decision annotated, as an HTML "
                        "page (default: none)")
    add_output(p, writes="--csv or --out")


def report_flags(p) -> None:
    """``kalooki report``."""
    p.add_argument("--out", default=None, metavar="DIR",
                   help="where to write the report (default: reports/)")
    p.add_argument("--tiny", action="store_true", help="tiny sizes (a smoke test)")


#: every subcommand: its flags, whether it takes the rules' flags, its one-line help and its
#: description (in the order ``kalooki --help`` lists them)
SUBCOMMANDS = {
    "simulate": (simulate_flags, True, "play many games or hands into a Parquet dataset",
                 "Play --games games (or only the --hand numbers of each) in chunks, writing "
                 "each chunk's per-seat rows to Parquet and exact aggregates (counts, sums, sums "
                 "of squares, histograms) to a summary; resumable, and runnable on a dask "
                 "cluster."),
    "replay": (replay_flags, True, "the readable play-by-play of a hand or a game",
               "Replay one hand (--hand) of a game, or the whole game, exactly as play_hands / "
               "play_games played it with that seed, and print the move log."),
    "rules": (rules_flags, True, "the active rule set with its rule ids",
              "Print the rule set the flags give (the Jamaican card without flags): every "
              "option with its value and the rule ids of RULES.md, and the schedule."),
    "tournament": (tournament_flags, True, "a duplicate tournament of policies",
                   "Every deal sequence is played once per rotation of the policies round the "
                   "table (kalooki_sim.tournament); 95% intervals over deal sequences."),
    "call-chart": (call_chart_flags, True, "the call chart's study: make it, keep it",
                   "Branch every take and call of --deals deals of each contract both ways "
                   "(kalooki_sim.call_decisions), in chunks: per-decision rows to Parquet, the "
                   "chart's sufficient statistics to DIR/call_chart_stats.csv (with the "
                   "command, commit, machine and wall time on top) and the chart to "
                   "DIR/call_chart.csv; resumable, and runnable on a dask cluster."),
    "call-value": (call_value_flags, True, "what calls are worth, decision by decision",
                   "kalooki_sim.call_decisions: every call decision on --deals deals of hand "
                   "--hand, followed both ways on the same cards; a summary per decision "
                   "(--rows: every row)."),
    "advise": (advise_flags, True, "should I call (or take) this card? which to discard?",
               "kalooki_sim.advise: rollouts of the position with and without the card; "
               "prints the recommendation and the table. --discard: "
               "kalooki_sim.advise_discard ranks the cards to discard instead."),
    "review": (review_flags, True, "review one seat's takes, calls and discards",
               "kalooki_sim.review: replay a hand (or a game) as 'kalooki replay' does and "
               "judge every take and call decision of --seat, and each discard before it "
               "opened, with the advisor, from what the seat knew then; --out writes the "
               "hand's timeline as an HTML page."),
    "serve": (add_serve, False, "the advisor, the review and the chart in a browser",
              "A local web app (http://127.0.0.1:8052/): the Advise, Review and Chart pages "
              "over the Python API (the same as 'make serve'); Ctrl-C stops it."),
    "report": (report_flags, False, "execute the notebooks and write reports/",
               "The same as 'make report' (kalooki_sim.report)."),
}


# -- the examples each --help ends with ------------------------------------------------------------

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
      --opened 1 --table "5♠ 5♥ 5♦; 8♠ 8♥ 8♣; J♠ J♥ J♦; 9♣ 10♣ J♣ Q♣" --seen "2♥ 2♦" \\
      --rollouts 500
  kalooki advise --cards "..." --card 7♥ --contract 6 --known "1:7♠ 7♦" --known "3:2♣" \\
      --hand-sizes 1:15 --objective penalty
  kalooki advise --cards "..." --card 7♥ --contract 6 --discarder 2 \\
      --history "3:discard:7♦, 2:pass:7♦, 2:draw, 2:discard:7♥"   # or --history @events.txt
  kalooki advise --discard --cards "K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 9♦" --contract 1 --seen 5♣
      # which card to let go: --cards holds the card just drawn, --seen the pile (top last)""",
    "serve": """examples:
  kalooki serve                      # then open http://127.0.0.1:8052/
  kalooki serve --port 9000 --open   # another port, and open the browser""",
    "review": """examples:
  kalooki review --record hand.rec --rollouts 500 --out review.html   # a hand you played
  kalooki review --seed 1 --game 0 --hand 9 --seat 0                  # the table of decisions
  kalooki review --seed 1 --game 0 --hand 9 --seat 0 --out review.html --rollouts 500
  kalooki review --seed 1 --hand 6 --seat 2 --policies expert,greedy,greedy,greedy --csv

the second example reviews hand 9 of --seed 1: 20 decisions of seat 0, 6 of them discards,
one deal. How long the review takes at its defaults: `make bench` times it (the figure
review_s_per_hand, seconds a hand on this machine).""",
    "report": """examples:
  kalooki report                 # executes the notebooks and writes reports/ (minutes)
  kalooki report --tiny --out /tmp/report""",
}


# -- the parser ----------------------------------------------------------------------------------


def build_parser(commands: dict, version: str) -> argparse.ArgumentParser:
    """The ``kalooki`` parser: every subcommand of :data:`SUBCOMMANDS`, each running
    ``commands[name](args)`` (``args.func``)."""
    ap = _Parser(prog="kalooki", formatter_class=_FORMATTER,
                 description="Monte Carlo statistics for Jamaican Kalooki (kalooki_sim).",
                 epilog="Run 'kalooki COMMAND --help' for a command's flags and examples.")
    ap.add_argument("--version", action="version", version=f"kalooki_sim {version}")
    subs = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subs.required = True
    for name, (flags, rules, help_, description) in SUBCOMMANDS.items():
        p = subs.add_parser(name, help=help_, description=description,
                            epilog=_EXAMPLES.get(name, _SIMULATE_EXAMPLES if name == "simulate"
                                                 else None), formatter_class=_FORMATTER)
        p.set_defaults(func=commands[name])
        add_quiet(p)
        flags(p)
        if rules:
            add_rules_flags(p)
    return ap
