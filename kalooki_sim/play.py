"""Playing many hands and games: the Python entry points over the compiled engine."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import numba
import numpy as np
import pandas as pd

from ._kernels import engine as _E
from .policies import seat_policies
from .rules import Rules, as_rules

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
    return v


def _check_count(name, v, lo=0):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise ValueError(f"{name}={v!r} is not allowed; give an integer >= {lo}")
    return int(v)


def _setup(players, policies, seed, rules, threads):
    if rules is None:
        rules = Rules(players=4 if players is None else _check_count("players", players, 2))
    else:
        rules = as_rules(rules)
        if players is not None and players != rules.players:
            raise ValueError(f"players={players} disagrees with rules.players={rules.players}")
    if rules.tuluki:
        raise ValueError("tuluki (V9, two players) is a rule option the engine does not play yet")
    seed = _check_count("seed", seed)
    if threads is not None:
        threads = _check_count("threads", threads, 1)
        if threads > numba.config.NUMBA_NUM_THREADS:
            raise ValueError(
                f"threads={threads}; this machine allows 1-{numba.config.NUMBA_NUM_THREADS}"
            )
    pols = seat_policies(policies, rules.players)
    pol = np.stack([p.vector() for p in pols])
    return rules, pols, pol, seed, threads


@contextmanager
def _threads(n):
    old = numba.get_num_threads()
    if n is not None:
        numba.set_num_threads(n)
    try:
        yield numba.get_num_threads()
    finally:
        numba.set_num_threads(old)


def _run(games, hand_nos, rules, pol, seed, threads, progress):
    P = rules.players
    rb = np.stack([rules_vector(rules, h) for h in hand_nos])
    hn = np.asarray(hand_nos, np.int64)
    stride = len(hand_nos) * _E.MAX_ATTEMPTS * P
    chunks = []
    show = progress if progress is not None else (len(games) * len(hand_nos) >= 200_000
                                                  and sys.stderr.isatty())
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(games) * len(hand_nos), unit="hand", desc="kalooki_sim")
    with _threads(threads) as nt:
        for b in range(0, len(games), BLOCK_GAMES):
            g = np.asarray(games[b:b + BLOCK_GAMES], np.int64)
            out = np.zeros((len(g) * stride, _E.O_COLS), np.int64)
            nrows = np.zeros(len(g), np.int64)
            _E.play_block(seed, g, hn, rb, pol, rules.pack_size, max(1, 4 * nt), out, nrows)
            idx = (np.arange(len(g))[:, None] * stride + np.arange(stride)[None, :])
            keep = np.arange(stride)[None, :] < nrows[:, None]
            chunks.append(out[idx[keep]])
            if bar is not None:
                bar.update(len(g) * len(hand_nos))
    if bar is not None:
        bar.close()
    return np.concatenate(chunks) if chunks else np.zeros((0, _E.O_COLS), np.int64)


def _frame(rows, rules, pols) -> pd.DataFrame:
    sched = np.asarray(rules.schedule, np.int64)
    hand = rows[:, _E.O_HAND]
    df = pd.DataFrame(
        {
            "game": rows[:, _E.O_GAME],
            "hand": hand,
            "attempt": rows[:, _E.O_ATTEMPT],
            "groups": sched[hand - 1, 1],
            "runs": sched[hand - 1, 2],
            "players": rules.players,
            "seat": rows[:, _E.O_SEAT],
            "dealer": rows[:, _E.O_DEALER],
            "policy": pd.Categorical([pols[s].name for s in rows[:, _E.O_SEAT]]),
            "cards_dealt": sched[hand - 1, 0],
            "dealt_meets_contract": rows[:, _E.O_MEETS].astype(bool),
            "opened": rows[:, _E.O_OPENED].astype(bool),
            "open_turn": rows[:, _E.O_OPEN_TURN],
            "calls": rows[:, _E.O_CALLS],
            "went_out": rows[:, _E.O_WENT_OUT].astype(bool),
            "out_on_opening": rows[:, _E.O_OUT_ON_OPENING].astype(bool),
            "doubled": rows[:, _E.O_DOUBLED].astype(bool),
            "cards_left": rows[:, _E.O_CARDS_LEFT],
            "penalty": rows[:, _E.O_PENALTY],
            "turns": rows[:, _E.O_TURNS],
            "reshuffled": rows[:, _E.O_RESHUFFLED].astype(bool),
            "void": rows[:, _E.O_VOID].astype(bool),
            "stalled": rows[:, _E.O_STALLED].astype(bool),
        }
    )
    return df


_COLUMNS_DOC = """
    Returns
    -------
    pandas.DataFrame
        One row per seat per hand played, void attempts included (``void=True``; R13 replays
        them with ``attempt`` + 1). Columns: ``game, hand, attempt, groups, runs, players, seat,
        dealer, policy, cards_dealt, dealt_meets_contract`` (the dealt cards alone lay the
        contract), ``opened, open_turn`` (own turn of the opening, -1 if never), ``calls,
        went_out, out_on_opening, doubled, cards_left, penalty`` (as scored, R12), ``turns``
        (own turns), ``reshuffled, void, stalled`` (void by the engine's turn cap, not a rule).
"""


def play_hands(n, hand=1, players=None, policies="greedy", seed=0, rules=None, threads=None,
               progress=None) -> pd.DataFrame:
    """Play ``n`` independent hands of schedule entry ``hand``.

    Hand ``i`` is game ``i`` of the run: its first dealer, deal and every policy choice come
    from streams keyed by (seed, i, hand, attempt), so results do not depend on ``threads``.

    Parameters
    ----------
    n : int
        Hands to play (void hands are replayed and kept as extra rows).
    hand : int
        Schedule entry 1-9 (cards dealt and contract, R2).
    players : int, optional
        Seats, 3-6 with the default pack; 4 by default, or ``rules.players`` when given.
    policies : str, Policy or list
        A preset name (``greedy``, ``random``, ``never-call``, ``call-<k>``,
        ``hold-for-double``), a :class:`~kalooki_sim.policies.Policy`, or one per seat.
    seed : int
        The run's seed (C3).
    rules : Rules, optional
        Jamaican defaults otherwise.
    threads : int, optional
        Worker threads (default: Numba's default, all cores).
    progress : bool, optional
        A progress bar; default on for long runs in a terminal.
    """
    n = _check_count("n", n)
    rules, pols, pol, seed, threads = _setup(players, policies, seed,
                                             rules, threads)
    rules.deal(hand)  # validates the hand number
    rows = _run(np.arange(n), [hand], rules, pol, seed, threads, progress)
    return _frame(rows, rules, pols)


def play_games(n, players=None, policies="greedy", seed=0, rules=None, threads=None,
               progress=None) -> pd.DataFrame:
    """Play ``n`` complete games: every hand of the schedule in order (R14).

    The first dealer is drawn from the game's own stream; the deal passes left after each
    hand; a void hand is replayed by the same dealer (R13). Parameters as :func:`play_hands`.
    """
    n = _check_count("n", n)
    rules, pols, pol, seed, threads = _setup(players, policies, seed,
                                             rules, threads)
    rows = _run(np.arange(n), list(range(1, rules.hands + 1)), rules, pol, seed, threads,
                progress)
    df = _frame(rows, rules, pols)
    scored = df.loc[~df["void"]]
    totals = scored.groupby(["game", "seat"])["penalty"].sum().rename("total")
    df = df.join(totals, on=["game", "seat"])
    best = totals.groupby(level="game").transform("min")
    winners = (totals == best).rename("winner")
    return df.join(winners, on=["game", "seat"])


play_hands.__doc__ += _COLUMNS_DOC
play_games.__doc__ += _COLUMNS_DOC + """
        Plus ``total`` (the seat's game total over non-void hands) and ``winner`` (True for
        every seat with the lowest total: wins are shared, R14).
"""
