"""Playing many hands and games: the Python entry points over the compiled engine."""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager

import numba
import numpy as np
import pandas as pd

from .._lib import (
    INT64_MAX,
    check_bool,
    check_choice,
    check_int,
    check_players,
    check_seed,
    is_int,
    not_allowed,
    progress_bar,
)
from ..game.rules import Rules, as_rules
from ._kernels import engine as _E
from ._kernels import search as _S
from .policies import policy_matrix, seat_policies

BLOCK_GAMES = 4096  # games per kernel call: bounds memory and paces the progress bar


def rules_vector(rules: Rules, hand: int) -> np.ndarray:
    """The engine's flat rules vector for hand number ``hand``."""
    cards, g, r = rules.deal(hand)
    v = np.zeros(_E.R_COLS, np.int64)
    v[_E.R_PLAYERS] = rules.players
    v[_E.R_CARDS] = cards
    v[_E.R_GROUPS] = g
    v[_E.R_RUNS] = r
    v[_E.R_CALL_LIMIT] = rules.call_limit
    v[_E.R_FREE_EXT] = rules.free_extension
    v[_E.R_JOKERS_OTHERS] = rules.jokers_on_others
    v[_E.R_V6] = rules.complete_suit_for_three_runs
    v[_E.R_V4] = rules.double_only_first_down
    v[_E.R_DECKS] = rules.decks
    v[_E.R_JOKERS] = rules.jokers
    v[_E.R_TULUKI] = rules.tuluki
    return v


def seat_count(players, rules=None):
    """A player count (:func:`check_players`); 2 only with Tuluki rules, else an error naming
    V9 (the two-player game needs ``Rules(players=2, tuluki=True)``)."""
    if is_int(players) and players == 2:
        if rules is not None and rules.tuluki:
            return 2
        Rules(players=2)  # raises, naming V9
    return check_players(players)


def defer_players(players, rules):
    """For entry points whose ``players`` defaults to 4: with ``rules`` given, that default
    defers to ``rules.players`` (None); any other value is checked against them by setup."""
    return None if rules is not None and players == 4 else players


def setup(players, policies, seed, rules, threads):
    """The checked inputs every entry point that plays hands starts from.

    Returns ``(rules, policies, policy matrix, seed, threads)``: ``rules`` a :class:`Rules`
    (from ``players`` alone when ``rules`` is None, a preset name or a ``Rules``; a ``players``
    that disagrees with it is refused), one :class:`.policies.Policy` per seat and the matrix the
    kernels read, the seed checked (:func:`check_seed`), ``threads`` checked against the
    machine's (None: Numba's setting). A search policy is refused under Tuluki (V9).

    Examples
    --------
    >>> rules, pols, pol, seed, threads = setup(4, "greedy", 7, None, None)
    >>> rules.players, [p.name for p in pols], seed, threads
    (4, ['greedy', 'greedy', 'greedy', 'greedy'], 7, None)
    """
    if rules is None:
        rules = Rules(players=4 if players is None else seat_count(players))
    else:
        rules = as_rules(rules, players=seat_count(players) if isinstance(rules, str)
                         and players is not None else None)
        if players is not None and seat_count(players, rules) != rules.players:
            raise ValueError(f"players={players!r} disagrees with rules.players={rules.players}; "
                             "give one of them")
    seed = check_seed(seed)
    if threads is not None:
        threads = check_int("threads", threads, 1, numba.config.NUMBA_NUM_THREADS,
                            why="the threads this machine allows")
    if policies is None:
        raise TypeError("policies=None is not allowed; give a preset name such as 'greedy', a "
                        "Policy, or a list with one per seat")
    pols = seat_policies(policies, rules.players)
    if rules.tuluki and any(p.search for p in pols):
        raise ValueError("a search policy is not allowed with tuluki=True: its rollouts weigh "
                         "Kalooki's R9 offers, not Tuluki's discard step (V9)")
    return rules, pols, policy_matrix(pols), seed, threads


@contextmanager
def using_threads(n):
    """Run the block with Numba's thread count set to ``n`` (None: unchanged), restored after;
    yields the count in force."""
    old = numba.get_num_threads()
    if n is not None:
        numba.set_num_threads(n)
    try:
        yield numba.get_num_threads()
    finally:
        numba.set_num_threads(old)


def _play(games, hand_nos, rules, pol, seed, voids):
    """Rows (int32, ``O_*`` columns) of ``games`` from the kernel, in game order.

    Each game first gets room for its scored hands (plus a few void attempts with ``voids``);
    a block where some game needed more is played again with exact room: play is a function of
    the seed alone, so the second pass repeats the first.
    """
    P = rules.players
    hn = np.asarray(hand_nos, np.int64)
    rb = np.stack([rules_vector(rules, h) for h in hand_nos])
    g = np.asarray(games, np.int64)
    per = len(hand_nos) * P * (4 if voids else 1)
    caps = np.full(len(g), per, np.int64)
    n_rows = np.zeros(len(g), np.int64)
    nt = numba.get_num_threads()
    for _ in range(2):
        offsets = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64)
        out = np.zeros((int(caps.sum()), _E.O_COLS), np.int32)
        # a table with a search seat (pol of 2P rows) decides its offers by rollouts
        block = _S.search_block if len(pol) > P else _E.play_block
        block(seed, g, hn, rb, pol, _E.Run(rules.pack_size, max(1, 4 * nt), rules.max_replays,
                                           bool(voids)),
              _E.Rows(out, offsets, caps, n_rows))
        if (n_rows <= caps).all():
            break
        caps = n_rows.copy()
    keep = np.arange(caps.sum()) - np.repeat(offsets, caps) < np.repeat(n_rows, caps)
    return out[keep]


def run_games(games, hand_nos, rules, pol, seed, threads, progress, voids=False):
    """Play ``games`` in blocks (bounded memory, a progress bar); compact columns per block."""
    bar = progress_bar(progress, len(games) * len(hand_nos), auto_at=200_000, unit="hand",
                       desc="kalooki_sim")
    parts = []
    with using_threads(threads):
        for b in range(0, len(games), BLOCK_GAMES):
            g = np.asarray(games[b:b + BLOCK_GAMES], np.int64)
            rows = _play(g, hand_nos, rules, pol, seed, voids)
            parts.append(_columns(rows, g))
            bar.update(len(g) * len(hand_nos))
    bar.close()
    if not parts:
        parts.append(_columns(np.zeros((0, _E.O_COLS), np.int32), np.zeros(0, np.int64)))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


#: compact dtypes of the kernel's integer columns (name, O_ column, dtype)
_INT_COLS = (
    ("hand", _E.O_HAND, np.int8), ("attempt", _E.O_ATTEMPT, np.int32),
    ("attempts", _E.O_ATTEMPTS, np.int32), ("seat", _E.O_SEAT, np.int8),
    ("dealer", _E.O_DEALER, np.int8), ("calls", _E.O_CALLS, np.int8),
    ("cards_left", _E.O_CARDS_LEFT, np.int16), ("turns", _E.O_TURNS, np.int16),
)
_BOOL_COLS = (
    ("dealt_meets_contract", _E.O_MEETS), ("opened", _E.O_OPENED), ("went_out", _E.O_WENT_OUT),
    ("out_on_opening", _E.O_OUT_ON_OPENING), ("doubled", _E.O_DOUBLED),
    ("reshuffled", _E.O_RESHUFFLED), ("void", _E.O_VOID), ("stalled", _E.O_STALLED),
)


def _columns(rows, games) -> dict:
    """The kernel's int32 rows as compact column arrays (NA as a mask beside its column)."""
    gid = games[rows[:, _E.O_GAME]] if len(rows) else np.zeros(0, np.int64)
    small = gid.size == 0 or (gid.min() >= 0 and gid.max() < 2**31)
    cols = {"game": gid.astype(np.int32 if small else np.int64)}
    for name, j, dt in _INT_COLS:
        cols[name] = rows[:, j].astype(dt)
    for name, j in _BOOL_COLS:
        cols[name] = rows[:, j].astype(bool)
    cols["open_turn"] = rows[:, _E.O_OPEN_TURN].astype(np.int16)
    cols["penalty"] = rows[:, _E.O_PENALTY].astype(np.int16)
    return cols


def hands_frame(cols, rules, pols) -> pd.DataFrame:
    """The public table: compact dtypes, a void attempt's penalty and a never-opened seat's
    open_turn missing (``<NA>``) rather than a number that averages in."""
    sched = np.asarray(rules.schedule, np.int16)
    hand = cols["hand"].astype(np.intp)
    names = [p.name for p in pols]
    seat_policy = pd.Categorical.from_codes(
        pd.Categorical(names).codes[cols["seat"]] if len(hand) else [],
        categories=pd.Categorical(names).categories)
    df = pd.DataFrame({
        "game": cols["game"],
        "hand": cols["hand"],
        "attempt": cols["attempt"],
        "attempts": cols["attempts"],
        "groups": sched[hand - 1, 1].astype(np.int8),
        "runs": sched[hand - 1, 2].astype(np.int8),
        "players": np.full(len(hand), rules.players, np.int8),
        "seat": cols["seat"],
        "dealer": cols["dealer"],
        "policy": seat_policy,
        "cards_dealt": sched[hand - 1, 0].astype(np.int8),
        "dealt_meets_contract": cols["dealt_meets_contract"],
        "opened": cols["opened"],
        "open_turn": pd.array(cols["open_turn"], dtype="Int16"),
        "calls": cols["calls"],
        "went_out": cols["went_out"],
        "out_on_opening": cols["out_on_opening"],
        "doubled": cols["doubled"],
        "cards_left": cols["cards_left"],
        "penalty": pd.array(cols["penalty"], dtype="Int16"),
        "turns": cols["turns"],
        "reshuffled": cols["reshuffled"],
        "void": cols["void"],
        "stalled": cols["stalled"],
    })
    df.loc[~df["opened"], "open_turn"] = pd.NA
    df.loc[df["void"], "penalty"] = pd.NA
    return df


def _warn_unfinished(df, what):
    """Warn once when hands were given up: stalled (the turn cap) or over ``max_replays``."""
    last = df.loc[df["seat"] == 0]
    last = last.loc[last["attempt"] == last["attempts"] - 1]
    stalled = int(last["stalled"].sum())
    dropped = int((last["void"] & ~last["stalled"]).sum())
    if stalled:
        warnings.warn(
            f"{stalled} of {len(last)} hands ({stalled / len(last):.1%}) stalled: nobody went "
            f"out in {_E.MAX_TURNS} turns (the policies cannot finish); they are void rows with "
            f"stalled=True and are not replayed{what}", RuntimeWarning, stacklevel=3)
    if dropped:
        warnings.warn(
            f"{dropped} of {len(last)} hands were void in every one of their attempts "
            f"(Rules.max_replays); they are void rows with penalty <NA>{what}",
            RuntimeWarning, stacklevel=3)


_COLUMNS_DOC = """
    Returns
    -------
    pandas.DataFrame
        One row per seat per hand: the attempt that was scored (R13 replays a void hand with
        the same dealer until it is scored). ``df.penalty.mean()`` is the mean over scored
        hands. Columns (compact dtypes):

        * ``game, hand, attempt`` (0-based attempt of this row), ``attempts`` (attempts the hand
          took in all: ``attempts - 1`` were void), ``groups, runs, players, seat, dealer,
          policy, cards_dealt``;
        * ``dealt_meets_contract``: the seat's dealt cards alone lay the contract;
        * ``opened``, ``open_turn`` (own turn of the opening, ``<NA>`` if never), ``calls``;
        * ``went_out``, ``out_on_opening`` (this seat went out in its opening turn, R12),
          ``doubled`` (this seat's penalty was doubled: it lost a hand won on the opening; the
          seat that went out scores 0 and is never ``doubled``);
        * ``cards_left``, ``penalty`` (as scored, R12; ``<NA>`` on a void row), ``turns`` (own
          turns), ``reshuffled`` (R13);
        * ``void``: True only on void rows: the void attempts themselves with ``voids=True``,
          and a hand given up, either ``stalled`` (nobody went out in the engine's turn cap, a
          safeguard against policies that cannot finish, not a rule; not replayed) or void
          in all ``1 + rules.max_replays`` attempts. Both are warned about.
"""


def play_hands(n, hand=1, players=None, policies="greedy", seed=0, rules=None, threads=None,
               progress=None, voids=False, first_game=0) -> pd.DataFrame:
    """Play ``n`` independent hands of schedule entry ``hand``.

    Hand ``i`` is game ``i`` of the run: its first dealer, deal and every policy choice come
    from streams keyed by (seed, i, hand, attempt), so results do not depend on ``threads``.

    Parameters
    ----------
    n : int
        Hands to play; each is replayed while void (R13), up to ``rules.max_replays`` times.
    hand : int
        Schedule entry 1-9 (cards dealt and contract, R2).
    players : int, optional
        Seats, 3-6 with the card's pack; 4 by default, or ``rules.players`` when given.
    policies : str, Policy or list
        A preset name (``greedy``, ``random``, ``never-call``, ``call-<k>``,
        ``hold-for-double``, ``expert``), a :class:`~kalooki_sim.Policy`, or one per seat.
    seed : int
        The run's seed (C3).
    rules : Rules, optional
        Jamaican defaults otherwise.
    threads : int, optional
        Worker threads (default: Numba's default, all cores).
    progress : bool, optional
        A progress bar; default on for long runs in a terminal.
    voids : bool
        Also return the void attempts, as rows with ``void=True`` and ``penalty`` ``<NA>``
        before the attempt that was scored.
    first_game : int
        The id of the first hand (game) played: the run plays ids ``first_game`` to
        ``first_game + n - 1``, so two runs split at any id equal one run (C3).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> df = ks.play_hands(200, hand=9, players=5, seed=1)
    >>> bool(df["penalty"].notna().all()), int(df["attempts"].min()) >= 1
    (True, True)
    """
    n = check_int("n", n, 0)
    rules, pols, pol, seed, threads = setup(players, policies, seed, rules, threads)
    rules.deal(hand)  # validates the hand number
    voids = check_bool("voids", voids)
    check_game_ids(first_game, n)
    check_memory("n", n, rules.players)
    ids = game_ids(first_game, n)
    cols = run_games(ids, [hand], rules, pol, seed, threads, progress, voids)
    df = hands_frame(cols, rules, pols)
    _warn_unfinished(df, "")
    return df


def play_games(n, players=None, policies="greedy", seed=0, rules=None, threads=None,
               progress=None, voids=False, first_game=0) -> pd.DataFrame:
    """Play ``n`` complete games: every hand of the schedule in order (R14).

    The first dealer is drawn from the game's own stream; the deal passes left after each
    hand; a void hand is replayed by the same dealer until it is scored (R13). A hand still
    void after ``rules.max_replays`` replays (or stalled) is given up, the deal passes on, and
    the game is marked ``complete=False`` with a warning. Parameters as :func:`play_hands`.
    """
    n = check_int("n", n, 0)
    rules, pols, pol, seed, threads = setup(players, policies, seed, rules, threads)
    voids = check_bool("voids", voids)
    check_game_ids(first_game, n)
    check_memory("n", n, rules.players * rules.hands)
    ids = game_ids(first_game, n)
    cols = run_games(ids, list(range(1, rules.hands + 1)), rules, pol, seed, threads, progress,
                     voids)
    df = hands_frame(cols, rules, pols)
    _warn_unfinished(df, "; their games are marked complete=False")
    return game_totals(df)


def game_ids(first_game, n, name: str = "n") -> np.ndarray:
    """Game ids ``first_game .. first_game + n - 1`` (validated: every id is a seed-range int)."""
    first_game = check_game_ids(first_game, n, name)
    return np.arange(first_game, first_game + n, dtype=np.int64)


def check_game_ids(first_game, n, name: str = "n") -> int:
    """``first_game`` checked, and that ids up to ``first_game + n - 1`` fit the streams (C3).

    Blames the count ``name`` (``n``, ``games``) when it alone is too large, else
    ``first_game``; allocates nothing.
    """
    first_game = check_seed(first_game, "first_game")
    if first_game + n - 1 > INT64_MAX:
        if n > INT64_MAX + 1:
            raise ValueError(not_allowed(name, n, "an integer 0 to 2**63",
                                         "one game id each, and ids are below 2**63"))
        raise ValueError(not_allowed("first_game", first_game,
                                     f"an integer 0 to 2**63 - {n} with {name}={n}"))
    return first_game


#: bytes per row of the returned frame, measured (39 for play_hands, 46 with game totals)
ROW_BYTES = 46


def _bytes(n: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}"
        n /= 1000
    raise AssertionError


def check_memory(name: str, n: int, rows_per_game: int) -> None:
    """Refuse a run whose rows could never fit in this machine's memory (before allocating)."""
    need = n * rows_per_game * ROW_BYTES
    try:
        have = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on this system: no check
        return
    if need > have:
        most = have // (rows_per_game * ROW_BYTES)
        raise ValueError(not_allowed(
            name, n, f"at most about {most:,} here",
            f"the rows would take about {_bytes(need)} and this machine has {_bytes(have)} of "
            "memory; kalooki_sim.simulate(..., out=DIR, summary_only=True) runs any size on "
            "disk"))


def game_totals(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` (rows of whole games) with ``total``, ``winner`` and ``complete`` per game."""
    final = df.loc[df["attempt"] == df["attempts"] - 1]
    totals = final.groupby(["game", "seat"])["penalty"].sum().astype("Int32").rename("total")
    df = df.join(totals, on=["game", "seat"])
    best = totals.groupby(level="game").transform("min")
    df = df.join((totals == best).astype(bool).rename("winner"), on=["game", "seat"])
    incomplete = final.groupby("game")["void"].any()
    df["complete"] = ~df["game"].map(incomplete).astype(bool)
    return df


play_hands.__doc__ += _COLUMNS_DOC
play_games.__doc__ += _COLUMNS_DOC + """
        Plus, per game: ``total`` (the seat's total over the game's scored hands), ``winner``
        (True for every seat with the lowest total: wins are shared, R14) and ``complete``
        (every hand of the schedule was scored).
"""


def warm_phases(which: str) -> None:
    """Compile the engine's phase kernels on a table of the types the engine plays with, so
    that the turn loop, compiled later, loads them from Numba's cache: ``"draw"`` (the draw
    and calls, R6, R9) or ``"melds"`` (the deal, melds, lay-offs, discard and score). The
    compile's two processes (:mod:`kalooki_sim.warmup`) share the engine so.

    Examples
    --------
    >>> warm_phases("draw")
    >>> warm_phases("shuffle")
    Traceback (most recent call last):
    ...
    ValueError: which='shuffle' is not allowed; give one of 'draw', 'melds'
    """
    from ._kernels import deal as DL
    from ._kernels import discard as DS
    from ._kernels import draw as DR
    from ._kernels import melds as ML
    from ._kernels import score as SC

    which = check_choice("which", which, ("draw", "melds"))
    rules, _, pol, _, _ = setup(4, "expert", 0, None, 1)
    rv, t = rules_vector(rules, 1), _E.new_table(4, rules.pack_size)
    deal = _E.Deal(0, 0, 1, 0, 0)
    _E._reset_hand(rv, t, deal)
    DL._deal(rv, t, 0)
    t.gs[_E.GS_CUR] = 1
    if which == "draw":
        DR._draw_phase(rv, pol, t, 1)
        return
    ML._meld_phase(rv, pol, t, 1)
    ML._lay_offs(rv, pol, t, 1)
    DS._discard_phase(rv, pol, t, 1)
    SC._score(rv, t, deal, np.zeros((4, _E.O_COLS), np.int32), 0)
