"""Tuned call policies: search the call parameters per contract against a field, then confirm.

The question: for contract (hand) ``h``, which values of :class:`~kalooki_sim.Policy`'s call
parameters (R9: ``call_limit, call_gain, take_gain, call_max_need, call_min_stock,
call_max_card, call_danger, call_max_opened, call_max_hand``; the rest stays ``expert``'s) give
the lowest hand penalty against a field of ``expert`` and ``greedy`` players?

How it is measured
------------------
* **Seat rotation on the same deals.** A *deal* is a game id of a seed (C3). Every candidate
  plays every deal once per seat: in rotation ``k`` it sits in seat ``k`` and the field fills
  the seats after it in order (``field=("expert", "greedy")`` at 4 players: expert, greedy,
  expert). A deal's score is the candidate's penalty (R12) averaged over the rotations.
* **Common random numbers.** Every candidate, and the reference ``expert`` in its place, plays
  the same deals, so the *paired* difference candidate - expert per deal measures the policy
  and little of the cards; two identical candidates differ by exactly zero. The unit of every
  interval is the deal (a Student t interval over deals, 95%).
* **Successive halving** (a racing schedule): all candidates play a first batch of deals, the
  better half by mean paired difference (ties: the order given) go on to a fresh batch, and so
  on until one is left; each round has an equal share of ``budget`` (hands played in the
  candidate's seat, the reference's included), so survivors play ever more deals and the
  budget goes to the contenders. The ranking uses all deals a survivor has played (each
  round's batch is shared by everyone still in). optuna is not used: its samplers assume one
  noisy value per trial, while halving on common deals compares candidates on the same cards.
* **Confirmation on fresh deals.** :func:`confirm` plays the winner and ``expert`` on deals of
  another stream (the same ``seed`` gives different deals from the search) and reports the
  paired gain with its interval; the search's own estimates are optimistic for the winner
  (it was picked for being low).

Nine-hand games
---------------
``play_games`` takes one :class:`~kalooki_sim.Policy` per seat for the whole game, so a
per-contract policy cannot be given to it. Nothing in a hand depends on earlier hands except
the dealer, who passes left (R14), and the engine is the same for every seat, so hand ``h`` of
``play_games`` game ``g`` is ``play_hands`` game ``g`` of hand ``h`` with the seats turned by
``h - 1``: move for move (tested). :func:`confirm_games` builds nine-hand games that way, the
candidate seat playing its own policy in each hand, and reports the paired gain over
``expert`` in the game total and in the win share (R14, shared wins split) per deal sequence,
the candidate in every seat. The game total is the sum of the hand penalties, so the search's
per-hand objective is also the total's; the win share is evaluated, not searched.

The published table
-------------------
``kalooki_sim/players/tuned_calls.csv`` (package data) holds one row per contract: the search
winner's parameters, its search estimate (``search_gain`` with ``_lo``/``_hi``; rounds, deals,
budget) and the confirmation on fresh deals (``gain`` with ``_lo``/``_hi``). ``adopted`` is True
when the confirmed interval lies below zero; :func:`tuned_policy` then returns the winner and
otherwise ``expert``'s parameters. The header lines (``#``) record the command, the wall time
and the nine-hand game result. Made with (21 min wall time, threads=1, 2 shared cores)::

    python -m kalooki_sim.tuning --budget 40000 --deals 2000 --seed 0 --threads 1

Use it per seat and hand::

    ks.play_hands(1000, hand=9, policies=[tuned_policy(9), "expert", "greedy", "expert"])

Examples
--------
>>> tuned_policy(9).exact, tuned_policy(9).name
(True, 'tuned-9')
>>> tuned_policy(10)
Traceback (most recent call last):
...
ValueError: hand=10 is not allowed; give an integer 1-9 (the schedule's contracts)
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from dataclasses import dataclass, replace
from importlib import resources
from io import StringIO
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .._lib import check_int, check_players, check_seed, not_allowed
from ..engine.policies import Policy, preset
from ..game.rules import Rules, as_rules
from ._rotations import _interval, _opponents, _policies, _Rotations, _rotations, _stream_seed

#: the Policy fields the search varies (the call and take decisions, R9); others stay expert's
CALL_FIELDS = ("call_limit", "call_gain", "take_gain", "call_max_need", "call_min_stock",
               "call_max_card", "call_danger", "call_max_opened", "call_max_hand")

#: the values the default search tries per field; the first is ``expert``'s
GRID = {
    "call_limit": (None, 1, 2),
    "call_gain": (1, 2),
    "take_gain": (1, 2),
    "call_max_need": (5, 0, 1, 2, 3, 4, 99),
    "call_min_stock": (0, 5, 10, 20),
    "call_max_card": (50, 10, 15),
    "call_danger": (0, 2, 4, 6),
    "call_max_opened": (99, 1, 2),
    "call_max_hand": (10000, 50, 100),
}

#: short labels in candidate names ("max_need=99 min_stock=10")
_SHORT = {f: f.removeprefix("call_") if f != "take_gain" else f for f in CALL_FIELDS}

#: stream tags: the search and the confirmation never share deals, whatever the seed
_TAG_TUNE, _TAG_CONFIRM = 0x7475_6E65, 0x636F_6E66

_CSV = "tuned_calls.csv"


# -- candidates ------------------------------------------------------------------------------


def candidate_name(policy: Policy, base: Policy | None = None) -> str:
    """``"expert"`` for expert's call parameters, else the fields that differ, e.g.
    ``"max_need=99 min_stock=10"`` (``call_`` dropped from the names).

    >>> from dataclasses import replace
    >>> candidate_name(replace(preset("expert"), name="x", call_max_need=99, call_limit=1))
    'limit=1 max_need=99'
    """
    base = preset("expert") if base is None else base
    diff = [f"{_SHORT[f]}={getattr(policy, f)}" for f in CALL_FIELDS
            if getattr(policy, f) != getattr(base, f)]
    return " ".join(diff) if diff else base.name


def _candidate(base: Policy, changes: dict) -> Policy:
    """``base`` with the call fields ``changes``, named by :func:`candidate_name` (a policy
    named like a preset must play as it, so the name is given with the changes)."""
    named = SimpleNamespace(**{f: changes.get(f, getattr(base, f)) for f in CALL_FIELDS})
    return replace(base, name=candidate_name(named, base), **changes)


def call_grid(n_random: int = 10, seed: int = 0) -> list[Policy]:
    """The default candidates: ``expert``, each change of one call parameter to another value
    of :data:`GRID` (22), then ``n_random`` random combinations of :data:`GRID` values.

    Each is ``expert`` with those call parameters, named by :func:`candidate_name`.

    >>> pols = call_grid(2)
    >>> len(pols), pols[0].name, pols[1].name
    (25, 'expert', 'limit=1')
    """
    n_random = check_int("n_random", n_random, 0)
    seed = check_seed(seed)
    base = preset("expert")
    out = {candidate_name(base): base}
    for f in CALL_FIELDS:
        for v in GRID[f][1:]:
            p = _candidate(base, {f: v})
            out.setdefault(p.name, p)
    rng = np.random.default_rng([seed, _TAG_TUNE])
    target = len(out) + n_random
    for _ in range(1000 * (n_random + 1)):
        if len(out) >= target:
            break
        p = _candidate(base, {f: GRID[f][rng.integers(len(GRID[f]))] for f in CALL_FIELDS})
        out.setdefault(p.name, p)
    return list(out.values())


# -- the search ------------------------------------------------------------------------------


@dataclass
class TuneResult:
    """What :func:`tune_calls` found for one contract.

    Attributes
    ----------
    hand : int
        The contract (schedule entry 1-9).
    best : Policy
        The last candidate standing (``expert`` itself if it won).
    table : pandas.DataFrame
        One row per candidate, the best first (most rounds survived, then lowest gain):
        ``candidate, rounds, deals`` (deals it played, each in every seat), ``penalty`` (its
        mean hand penalty), ``gain, gain_lo, gain_hi`` (paired difference candidate -
        expert per deal, 95% t interval; negative is better), ``calls`` (per hand),
        ``void_per_hand`` (void attempts per scored hand at its tables, R13),
        ``unfinished`` (deals with a stalled or given-up hand: ranked last), then the
        :data:`CALL_FIELDS` values (``call_limit`` ``<NA>``: the rules' limit).
    schedule : list of dict
        Per round: ``round``, ``alive`` (candidates in it), ``deals`` (the new batch),
        ``seed`` (the batch's stream).
    budget, hands_played : int
        The budget and the hands played in the candidate's seat (the reference's included).
    seconds : float
        Wall time.
    """

    hand: int
    best: Policy
    table: pd.DataFrame
    schedule: list = dataclasses.field(default_factory=list)
    budget: int = 0
    hands_played: int = 0
    seconds: float = 0.0

    def __repr__(self) -> str:
        top = self.table.head(5)[["candidate", "rounds", "deals", "gain", "gain_lo",
                                  "gain_hi"]]
        return (f"TuneResult(hand={self.hand}, best={self.best.name!r}, "
                f"hands_played={self.hands_played}, seconds={self.seconds:.1f})\n"
                + top.to_string(index=False))


def _schedule(k: int, eta: int, budget: int, players: int, min_deals: int):
    """Rounds of successive halving: (alive, new deals) per round, ``alive`` shrinking by
    ``eta`` to one; each round spends about ``budget / rounds`` hands (+1: the reference)."""
    rounds = max(1, math.ceil(math.log(k, eta) - 1e-12)) if k > 1 else 1
    alive, out = k, []
    for _ in range(rounds):
        deals = max(min_deals, budget // rounds // ((alive + 1) * players))
        out.append((alive, deals))
        alive = max(1, math.ceil(alive / eta))
    return out


def tune_calls(hand, field=("expert", "greedy"), candidates=None, budget=40_000, seed=0,
               players=4, rules=None, eta=2, threads=None, progress=None) -> TuneResult:
    """Successive halving over call policies for contract ``hand`` on common deals.

    Parameters
    ----------
    hand : int
        Schedule entry 1-9.
    field : str, Policy or list
        The opponents, cycled over the seats after the candidate's: at 4 players
        ``("expert", "greedy")`` seats expert, greedy, expert.
    candidates : list of Policy or preset names, optional
        Distinct names. Default :func:`call_grid` (``expert``, its 22 one-parameter changes
        and 10 random combinations).
    budget : int
        Hands to play in the candidate's seat over the whole race, the reference ``expert``'s
        included (each deal is a hand per seat; a batch needs at least 2 deals, so a tiny
        budget is exceeded).
    seed : int
        The search's seed (C3); each round's batch has its own stream of it.
    players : int
        Seats (3-8); ``rules.players`` when ``rules`` is given.
    rules : Rules, optional
        Jamaican defaults otherwise.
    eta : int
        Keep ``1/eta`` of the candidates after each round (>= 2).
    threads : int, optional
        Worker threads for the engine.
    progress : bool, optional
        Print one line per round.

    Returns
    -------
    TuneResult
        ``best``, ``table`` (candidates with rounds survived, estimates and intervals),
        ``schedule``, ``hands_played``, ``seconds``.

    Examples
    --------
    >>> r = tune_calls(1, field="greedy", candidates=["greedy", "never-call"], budget=400)
    >>> r.best.name, list(r.table["rounds"])
    ('greedy', [1, 1])
    """
    t0 = time.perf_counter()
    rules = Rules(players=check_players(players)) if rules is None else as_rules(rules)
    hand = check_int("hand", hand, 1, rules.hands, why="the schedule's contracts")
    opponents = _opponents(field, rules.players)
    pols = call_grid() if candidates is None else _policies(candidates)
    budget = check_int("budget", budget, 1)
    seed = check_seed(seed)
    eta = check_int("eta", eta, 2)
    P = rules.players
    ref = preset("expert")

    k = len(pols)
    plan = _schedule(k, eta, budget, P, min_deals=2)
    scores = {i: [] for i in range(k)}   # per candidate: per-deal paired differences
    own = {i: [] for i in range(k)}
    calls = {i: [] for i in range(k)}
    voids = {i: [] for i in range(k)}
    unfinished = dict.fromkeys(range(k), 0)
    rounds = dict.fromkeys(range(k), 0)
    alive = list(range(k))
    schedule, played = [], 0
    for r, (_, deals) in enumerate(plan):
        s = _stream_seed(seed, _TAG_TUNE, hand, r)
        base = _rotations(ref, opponents, hand, deals, s, rules, threads)
        played += deals * P
        b = base.score()
        for i in alive:
            if pols[i] == ref:
                rot = base  # the reference itself: the same play, not played twice
            else:
                rot = _rotations(pols[i], opponents, hand, deals, s, rules, threads)
                played += deals * P
            c = rot.score()
            ok = np.isfinite(c) & np.isfinite(b)
            unfinished[i] += int((~np.isfinite(c)).sum())
            scores[i].append(c[ok] - b[ok])
            own[i].append(c[ok])
            calls[i].append(rot.calls[ok].mean(axis=1))
            voids[i].append(rot.attempts[ok].mean(axis=1) - 1.0)
            rounds[i] += 1
        schedule.append({"round": r, "alive": len(alive), "deals": deals, "seed": s})
        # rank: unfinished last, then mean paired difference; ties keep the order given
        key = {i: (unfinished[i] > 0, float(np.mean(np.concatenate(scores[i])))) for i in alive}
        alive = sorted(alive, key=lambda i: key[i])
        if progress:
            print(f"hand {hand} round {r}: {len(alive)} candidates x {deals} deals; leader "
                  f"{pols[alive[0]].name!r} {key[alive[0]][1]:+.2f}", flush=True)
        if r < len(plan) - 1:
            alive = alive[:plan[r + 1][0]]
    rows = []
    for i, p in enumerate(pols):
        d = np.concatenate(scores[i])
        g, lo, hi = _interval(d)
        row = {"candidate": p.name, "rounds": rounds[i], "deals": int(d.size),
               "penalty": float(np.mean(np.concatenate(own[i]))),
               "gain": g, "gain_lo": lo, "gain_hi": hi,
               "calls": float(np.mean(np.concatenate(calls[i]))),
               "void_per_hand": float(np.mean(np.concatenate(voids[i]))),
               "unfinished": unfinished[i]}
        row.update({f: getattr(p, f) for f in CALL_FIELDS})
        rows.append(row)
    table = pd.DataFrame(rows)
    table["call_limit"] = pd.array(table["call_limit"].tolist(), dtype="Int64")
    order = sorted(range(k), key=lambda i: (-rounds[i], unfinished[i] > 0, rows[i]["gain"]))
    # the last one standing heads the table (it won the final round's ranking)
    order.remove(alive[0])
    table = table.iloc[[alive[0]] + order].reset_index(drop=True)
    return TuneResult(hand=hand, best=pols[alive[0]], table=table, schedule=schedule,
                      budget=budget, hands_played=played,
                      seconds=time.perf_counter() - t0)


# -- confirmation on fresh deals -------------------------------------------------------------


def confirm(policy, hand, deals=1000, field=("expert", "greedy"), seed=0, players=4,
            rules=None, threads=None) -> dict:
    """The paired gain of ``policy`` over ``expert`` in ``hand`` on fresh deals.

    The deals come from a stream the search never uses (any ``seed``), the same for the policy
    and for ``expert`` in its place, each deal once per seat (as :func:`tune_calls`).

    Parameters
    ----------
    policy : Policy or str
        The policy to confirm (a preset name or a :class:`~kalooki_sim.Policy`).
    hand : int
        Schedule entry 1-9.
    deals : int
        Deals (>= 2), each played once per seat by the policy and by ``expert``.
    field, seed, players, rules, threads
        As :func:`tune_calls`.

    Returns
    -------
    dict
        ``hand, policy, deals`` (finished by both), ``penalty``, ``expert_penalty`` (mean hand
        penalty), ``gain, gain_lo, gain_hi`` (policy - expert per deal, 95% t interval;
        negative: the policy loses fewer points), ``calls``, ``expert_calls`` (per hand),
        ``void_per_hand``, ``expert_void_per_hand`` (void attempts per scored hand at the
        policy's tables, R13: replayed, so they cost time, not points), ``unfinished`` (deals
        left out: a stalled or given-up hand).

    Examples
    --------
    >>> c = confirm("expert", 1, deals=5)
    >>> c["gain"], c["gain_lo"], c["gain_hi"]
    (0.0, 0.0, 0.0)
    """
    policy = preset(policy)
    rules = Rules(players=check_players(players)) if rules is None else as_rules(rules)
    hand = check_int("hand", hand, 1, rules.hands, why="the schedule's contracts")
    deals = check_int("deals", deals, 2)
    seed = check_seed(seed)
    opponents = _opponents(field, rules.players)
    s = _stream_seed(seed, _TAG_CONFIRM, hand, 0)
    base = _rotations(preset("expert"), opponents, hand, deals, s, rules, threads)
    rot = _rotations(policy, opponents, hand, deals, s, rules, threads)
    return _confirm_row(policy, hand, rot, base)


def _confirm_row(policy, hand, rot, base) -> dict:
    c, b = rot.score(), base.score()
    ok = np.isfinite(c) & np.isfinite(b)
    g, lo, hi = _interval(c[ok] - b[ok])
    return {"hand": hand, "policy": policy.name, "deals": int(ok.sum()),
            "penalty": float(c[ok].mean()), "expert_penalty": float(b[ok].mean()),
            "gain": g, "gain_lo": lo, "gain_hi": hi,
            "calls": float(rot.calls[ok].mean()), "expert_calls": float(base.calls[ok].mean()),
            "void_per_hand": float(rot.attempts[ok].mean() - 1.0),
            "expert_void_per_hand": float(base.attempts[ok].mean() - 1.0),
            "unfinished": int((~ok).sum())}


def _game_seats(by_hand: list[_Rotations]) -> tuple[np.ndarray, np.ndarray]:
    """Nine-hand games from per-hand rotations: ``(total, win share)`` of the candidate seat,
    each ``[deals, P]`` over the candidate's game seat ``s``.

    In the game, hand ``h`` (1-based) is dealt by the first dealer ``h - 1`` seats to the left
    (R14), which is ``play_hands`` with the seats turned by ``h - 1``: game seat ``s`` is seat
    ``s - (h - 1)`` there, so its rotation is ``k = s - (h - 1)`` (mod P).
    """
    n, P, _ = by_hand[0].pen.shape
    total = np.zeros((n, P, P))  # [deal, candidate's game seat s, game seat t]
    for h0, rot in enumerate(by_hand):
        for s in range(P):
            k = (s - h0) % P
            total[:, s, :] += rot.pen[:, k, (np.arange(P) - h0) % P]
    own = total[:, np.arange(P), np.arange(P)]
    best = total.min(axis=2)
    winners = (total == best[:, :, None]).sum(axis=2)
    share = np.where(own == best, 1.0 / winners, 0.0)
    share[~np.isfinite(own) | ~np.isfinite(best)] = np.nan
    return own, share


def confirm_games(policies, games=1000, field=("expert", "greedy"), seed=0, players=4,
                  rules=None, threads=None) -> pd.DataFrame:
    """Nine-hand games on fresh deals: per-contract policies in one seat against ``expert``.

    ``play_games`` takes one policy per seat for the whole game; here the candidate seat plays
    ``policies[h]`` in hand ``h``. The games are built from :func:`~kalooki_sim.play_hands` runs
    of each hand with the seats turned as the deal passes left (R14), which reproduces
    ``play_games`` move for move (hands share nothing else). Each deal sequence is played with
    the candidate in every seat, then with ``expert`` in its place; the unit is the deal
    sequence. Hand ``h``'s rows use the same deals as ``confirm(policies[h], h, games, ...)``.

    Parameters
    ----------
    policies : Policy, str, dict or list
        One policy for every hand, a dict ``{hand: policy}`` (hands left out play ``expert``),
        a list with one per hand, or ``"tuned"`` for :func:`tuned_policy` of each hand.
    games : int
        Deal sequences (>= 2).
    field, seed, players, rules, threads
        As :func:`tune_calls`.

    Returns
    -------
    pandas.DataFrame
        One row per hand and a last row ``hand="game"``: ``policy, deals, penalty``
        (candidate's mean hand penalty, or game total), ``expert_penalty``, ``gain, gain_lo,
        gain_hi`` (paired, candidate - expert; 95% t interval over deal sequences), and on the
        game row ``win_share``, ``expert_win_share``, ``d_win_share`` with ``_lo``/``_hi``
        (fair share: 1 / players). Games with a hand given up or stalled are left out
        (``unfinished``).
    """
    rules = Rules(players=check_players(players)) if rules is None else as_rules(rules)
    games = check_int("games", games, 2)
    seed = check_seed(seed)
    opponents = _opponents(field, rules.players)
    per_hand = _per_hand(policies, rules.hands)
    return _confirm_games(per_hand, games, opponents, seed, rules, threads)[0]


def _confirm_games(per_hand, games, opponents, seed, rules, threads):
    """:func:`confirm_games` on checked arguments; also returns the per-hand rotations."""
    ref = preset("expert")
    rows, cand, base = [], [], []
    for h, pol in enumerate(per_hand, start=1):
        s = _stream_seed(seed, _TAG_CONFIRM, h, 0)
        b = _rotations(ref, opponents, h, games, s, rules, threads)
        c = b if pol == ref else _rotations(pol, opponents, h, games, s, rules, threads)
        rows.append(_confirm_row(pol, h, c, b))
        cand.append(c)
        base.append(b)
    rows.append(_game_row(per_hand, cand, base))
    return pd.DataFrame(rows), cand, base


def _game_row(per_hand, cand, base) -> dict:
    """The ``hand="game"`` row of :func:`confirm_games` from per-hand rotations."""
    tc, wc = _game_seats(cand)
    tb, wb = _game_seats(base)
    ok = np.isfinite(tc).all(axis=1) & np.isfinite(tb).all(axis=1)
    tc, wc, tb, wb = (x[ok].mean(axis=1) for x in (tc, wc, tb, wb))
    g, lo, hi = _interval(tc - tb)
    w, wlo, whi = _interval(wc - wb)
    return {"hand": "game", "policy": " / ".join(p.name for p in per_hand),
            "deals": int(ok.sum()), "penalty": float(tc.mean()),
            "expert_penalty": float(tb.mean()), "gain": g, "gain_lo": lo, "gain_hi": hi,
            "calls": np.nan, "expert_calls": np.nan, "void_per_hand": np.nan,
            "expert_void_per_hand": np.nan, "unfinished": int((~ok).sum()),
            "win_share": float(wc.mean()), "expert_win_share": float(wb.mean()),
            "d_win_share": w, "d_win_share_lo": wlo, "d_win_share_hi": whi}


def _per_hand(policies, hands: int) -> list[Policy]:
    allowed = (f"a Policy or preset name, a dict {{hand: policy}}, a list of {hands}, "
               "or 'tuned'")
    if isinstance(policies, str) and policies.strip().lower() == "tuned":
        return [tuned_policy(h) for h in range(1, hands + 1)]
    if isinstance(policies, (str, Policy)):
        return [preset(policies)] * hands
    if isinstance(policies, dict):
        for h in policies:
            check_int("hand", h, 1, hands, why="a key of policies")
        return [preset(policies.get(h, "expert")) for h in range(1, hands + 1)]
    if isinstance(policies, bytes) or not hasattr(policies, "__iter__"):
        raise TypeError(not_allowed("policies", policies, allowed))
    pols = [preset(p) for p in policies]
    if len(pols) != hands:
        raise ValueError(not_allowed("policies", policies, allowed, f"got {len(pols)}"))
    return pols


# -- the published table ---------------------------------------------------------------------


def read_committed(package: str, name: str) -> pd.DataFrame:
    """A committed table of package data (``name`` in ``package``), with its ``#`` header lines
    (command, wall time, machine) in ``.attrs["header"]``."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    df = pd.read_csv(StringIO(text), comment="#")
    df.attrs["header"] = [ln[1:].strip() for ln in text.splitlines() if ln.startswith("#")]
    return df


def write_committed(path, head: list[str], table: pd.DataFrame) -> None:
    """Write ``table`` as :func:`read_committed` reads it: ``head`` as ``#`` lines, then the
    CSV, numbers to three decimals."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(f"# {ln}\n" for ln in head))
        table.to_csv(fh, index=False, float_format="%.3f")


def tuned_table() -> pd.DataFrame:
    """The committed table ``kalooki_sim/players/tuned_calls.csv``: one row per contract (see the
    module docstring); its ``#`` header lines are in ``.attrs["header"]``."""
    df = read_committed("kalooki_sim.players", _CSV)
    df["call_limit"] = df["call_limit"].astype("Int64")
    return df


def tuned_policy(hand) -> Policy:
    """The tuned call policy for contract ``hand`` (1-9), named ``"tuned-<hand>"``.

    ``expert`` with the call parameters of the search winner in ``tuned_calls.csv`` when its
    confirmed gain over ``expert`` is below zero (``adopted``); otherwise ``expert``'s own. Give
    it per seat, e.g. ``play_hands(n, hand=9, policies=[tuned_policy(9), "expert", "greedy",
    "expert"])``, or all hands at once with ``confirm_games("tuned")``.
    """
    hand = check_int("hand", hand, 1, 9, why="the schedule's contracts")
    t = tuned_table().set_index("hand")
    if hand not in t.index:
        raise ValueError(not_allowed("hand", hand, "a contract in tuned_calls.csv",
                                     f"it holds {sorted(t.index)}"))
    row = t.loc[hand]
    base = preset("expert")
    if not bool(row["adopted"]):
        return replace(base, name=f"tuned-{hand}")
    vals = {f: (None if pd.isna(row[f]) else int(row[f])) for f in CALL_FIELDS}
    return replace(base, name=f"tuned-{hand}", **vals)


def make_table(budget=40_000, deals=2000, seed=0, threads=1, hands=range(1, 10),
               path=None, progress=True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Search every contract, confirm the winners on fresh deals, write the CSV.

    Runs :func:`tune_calls` (default candidates, ``field=("expert", "greedy")``, 4 players)
    for each hand, then :func:`confirm_games` on the winners with ``deals`` deal sequences.
    Returns ``(table, games)``: the CSV's rows and the confirmation rows (per hand and the
    nine-hand game). Writes ``path`` (default: nothing written) with the ``#`` header.
    """
    budget = check_int("budget", budget, 1)
    deals = check_int("deals", deals, 2)
    t0 = time.perf_counter()
    rows, winners = [], {}
    for h in hands:
        r = tune_calls(h, budget=budget, seed=seed, threads=threads, progress=progress)
        top = r.table.iloc[0]
        winners[h] = r.best
        row = {"hand": h, "policy": r.best.name}
        row.update({f: getattr(r.best, f) for f in CALL_FIELDS})
        row.update(search_gain=top["gain"], search_gain_lo=top["gain_lo"],
                   search_gain_hi=top["gain_hi"], rounds=int(top["rounds"]),
                   search_deals=int(top["deals"]), candidates=len(r.table), budget=budget,
                   hands_played=r.hands_played, search_seconds=round(r.seconds, 1))
        rows.append(row)
    t_search = time.perf_counter() - t0
    rules = Rules(players=4)
    per_hand = [winners.get(h, preset("expert")) for h in range(1, rules.hands + 1)]
    games, cand, base = _confirm_games(per_hand, deals, _opponents(("expert", "greedy"), 4),
                                       check_seed(seed), rules, threads)
    t_all = time.perf_counter() - t0
    conf = games[games["hand"] != "game"].set_index("hand")
    table = pd.DataFrame(rows)
    for col in ("gain", "gain_lo", "gain_hi", "deals"):
        table[col] = [conf.loc[h, col] for h in table["hand"]]
    table = table.rename(columns={"deals": "confirm_deals"})
    table["adopted"] = table["gain_hi"] < 0
    table["call_limit"] = pd.array(table["call_limit"].tolist(), dtype="Int64")
    g = games[games["hand"] == "game"].iloc[0]
    # the adopted set (expert where a winner was not confirmed), on the same deal sequences
    adopted = dict(zip(table["hand"], table["adopted"], strict=True))
    mix = [c if adopted.get(h, False) else b
           for h, (c, b) in enumerate(zip(cand, base, strict=True), start=1)]
    pols = [winners[h] if adopted.get(h, False) else preset("expert")
            for h in range(1, len(cand) + 1)]
    a = _game_row(pols, mix, base)
    games = pd.concat([games, pd.DataFrame([{**a, "hand": "game (adopted)"}])],
                      ignore_index=True)

    def game_line(r, what):
        return (f"nine-hand games, {what} ({int(r['deals'])} deal sequences): total gain "
                f"{r['gain']:+.2f} [{r['gain_lo']:+.2f}, {r['gain_hi']:+.2f}] points, win share "
                f"{r['win_share']:.4f} vs expert {r['expert_win_share']:.4f}, difference "
                f"{r['d_win_share']:+.4f} [{r['d_win_share_lo']:+.4f}, "
                f"{r['d_win_share_hi']:+.4f}]")

    if path is not None:
        head = [
            f"made by: python -m kalooki_sim.tuning --budget {budget} --deals {deals} "
            f"--seed {seed} --threads {threads}",
            f"wall time: search {t_search:.0f} s, search + confirmation {t_all:.0f} s",
            "field: expert, greedy, expert after the candidate; 4 players; gains are candidate"
            " - expert per deal (negative: fewer points), 95% t intervals",
            game_line(g, "every winner in its hand"),
            game_line(a, "the adopted set (expert where not adopted; same deals, so chosen on"
                         " them)"),
        ]
        write_committed(path, head, table)
    return table, games


def main(argv=None):
    """``python -m kalooki_sim.players.tuning``: make the tuned call table again (``--help``)."""
    ap = argparse.ArgumentParser(prog="python -m kalooki_sim.tuning",
                                 description="Regenerate kalooki_sim/players/tuned_calls.csv")
    ap.add_argument("--budget", type=int, default=40_000)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hands", type=str, default="1-9", help="e.g. 1-9 or 7,9")
    ap.add_argument("--out", type=str, default=None, help="default: the package's CSV")
    a = ap.parse_args(argv)
    if "-" in a.hands:
        lo, hi = a.hands.split("-")
        hands = list(range(int(lo), int(hi) + 1))
    else:
        hands = [int(x) for x in a.hands.split(",")]
    out = a.out or str(resources.files("kalooki_sim.players").joinpath(_CSV))
    table, games = make_table(a.budget, a.deals, a.seed, a.threads, hands, out)
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        print(table.to_string(index=False))
        print(games.to_string(index=False))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
