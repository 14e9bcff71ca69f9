"""Call value per decision: every take or call a seat may make, branched.

At each discard on offer (R9) the engine copies the table at the start of the turn and plays
two continuations for every seat the rules let decide: one where it takes (the next player,
R9.1) or calls (R9.2), one where it passes. Both continuations share everything later: the
stock order, and the policies' random streams for the same seat and turn (C3), so the paired
difference is the decision's effect and little else. Play goes on along the decision the
policy actually made (``taken``), which is exactly the unbranched hand.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from .._lib import check_bool, check_choice, check_int, check_real, check_seed, progress_bar
from ..engine.kernels import branch as _B
from ..engine.kernels import engine as _E
from ..engine.kernels import needed as _NK
from ..engine.play import defer_players, rules_vector, setup, using_threads
from ..engine.policies import no_search
from ..engine.trace import Trace, hand_records
from ..game.cards import card_text

_DECISION = np.array(["take", "call"])

COLUMNS = (
    "game", "hand", "attempt", "seat", "turn", "decision", "card", "card_penalty", "stock_left",
    "calls_made", "opponents_opened", "needed_before", "needed_after", "outs_before",
    "outs_after", "hand_penalty", "penalty_act", "penalty_pass", "out_act", "out_pass",
    "doubled_act", "doubled_pass", "void_act", "void_pass", "relative_act", "relative_pass",
    "doubler_act", "doubler_pass", "d_penalty", "d_relative", "d_out", "d_doubled",
    "d_doubler", "taken",
)


def _block(games, hand, rules, pol, seed, replicas, by_seat, sample=1.0):
    """Decision rows of ``games`` (int64 ids), in game order."""
    nw = max(1, min(len(games), 4 * numba.get_num_threads()))
    rv = rules_vector(rules, hand)
    per = max(64, 120 * rules.players) * max(1, -(-len(games) // nw))
    room = np.full(nw, per, np.int64)
    for _ in range(2):
        caps = np.concatenate([[0], np.cumsum(room)]).astype(np.int64)
        dec_i = np.zeros((int(caps[-1]), _B.D_COLS), np.int64)
        dec_f = np.zeros((int(caps[-1]), _B.F_COLS), np.float64)
        n_rows = np.zeros(nw, np.int64)
        _B.decision_block(seed, games, hand, rv, pol,
                          _B.Branching(replicas, bool(by_seat), float(sample)),
                          _E.Run(rules.pack_size, nw, rules.max_replays, False),
                          dec_i, dec_f, caps, n_rows)
        if (n_rows <= room).all():
            break
        room = np.maximum(n_rows, room)  # play is a function of the seed: the rerun repeats
    keep = np.concatenate([np.arange(caps[w], caps[w] + n_rows[w]) for w in range(nw)])
    di, df = dec_i[keep], dec_f[keep]
    di[:, _B.D_GAME] = games[di[:, _B.D_GAME]]
    return di, df


#: the outcome columns of a decision and their acting ``F_*`` column (passing is the next)
_OUTCOMES = (("penalty", _B.F_PEN_ACT), ("out", _B.F_OUT_ACT), ("doubled", _B.F_DBL_ACT),
             ("void", _B.F_VOID_ACT), ("relative", _B.F_REL_ACT),
             ("doubler", _B.F_DOUBLER_ACT))


def _frame(di, df, hand) -> pd.DataFrame:
    need_b = np.where(di[:, _B.D_NEED_B] >= _NK.NO_WAY, -1, di[:, _B.D_NEED_B])
    need_a = np.where(di[:, _B.D_NEED_A] >= _NK.NO_WAY, -1, di[:, _B.D_NEED_A])
    cards = di[:, _B.D_CARD]
    texts = np.array([card_text(c) for c in range(53)], dtype=object)
    pens = np.array([_B.card_penalty(c) for c in range(53)], dtype=np.int16)
    out = pd.DataFrame({
        "game": di[:, _B.D_GAME].astype(np.int64),
        "hand": np.full(len(di), hand, np.int8),
        "attempt": di[:, _B.D_ATTEMPT].astype(np.int32),
        "seat": di[:, _B.D_SEAT].astype(np.int8),
        "turn": di[:, _B.D_TURN].astype(np.int16),
        "decision": pd.Categorical(_DECISION[di[:, _B.D_KIND]], categories=["take", "call"]),
        "card": texts[cards],
        "card_penalty": pens[cards],
        "stock_left": di[:, _B.D_STOCK].astype(np.int16),
        "calls_made": di[:, _B.D_CALLS].astype(np.int8),
        "opponents_opened": di[:, _B.D_OPENED].astype(np.int8),
        "needed_before": pd.array(np.where(need_b < 0, 0, need_b), dtype="Int16"),
        "needed_after": pd.array(np.where(need_a < 0, 0, need_a), dtype="Int16"),
        "outs_before": di[:, _B.D_OUTS_B].astype(np.int16),
        "outs_after": di[:, _B.D_OUTS_A].astype(np.int16),
        "hand_penalty": di[:, _B.D_HAND_PEN].astype(np.int16),
        # each outcome acting, then passing (its F_* column is the acting one plus one)
        **{f"{name}_{side}": df[:, col + k] for name, col in _OUTCOMES
           for k, side in enumerate(("act", "pass"))},
    })
    out.loc[need_b < 0, "needed_before"] = pd.NA
    out.loc[need_a < 0, "needed_after"] = pd.NA
    out["d_penalty"] = out["penalty_act"] - out["penalty_pass"]
    out["d_relative"] = out["relative_act"] - out["relative_pass"]
    out["d_out"] = out["out_act"] - out["out_pass"]
    out["d_doubled"] = out["doubled_act"] - out["doubled_pass"]
    out["d_doubler"] = out["doubler_act"] - out["doubler_pass"]
    out["taken"] = di[:, _B.D_TAKEN].astype(bool)
    return out


def call_decisions(n, hand, players=4, policies="expert", seed=0, rules=None, replicas=1,
                   threads=None, progress=None, pairing="seat", sample=1.0,
                   first_game=0) -> pd.DataFrame:
    """Every take-or-call decision in ``n`` deals of ``hand``, each played both ways (R9).

    The deals are those of ``play_hands(n, hand, ...)`` with the same seed and policies: game
    ``i``'s hand, void attempts replayed by the same dealer (R13), each attempt's decisions
    kept. At every discard on offer the table is branched for each seat the rules let decide,
    in the order R9 asks: the next player (take or draw, if not opened, R8), then each seat
    that may call (not opened, under the rules' call limit, V8) until one calls. One
    continuation acts, one passes; every other choice, by every seat, is the policies', and
    both continuations share the stock and the later random draws, so ``d_penalty`` is the
    decision's paired effect. A forced call is allowed even past a policy's own call limit:
    the rules allow it.

    Parameters
    ----------
    n : int
        Deals (games) to play.
    hand : int
        Schedule entry 1-9.
    players : int
        Seats, 3-8 (with a pack that holds them).
    policies : str, Policy or list
        Every seat's policy (a preset name, a Policy, or one per seat); ``"expert"`` by default.
    seed : int
        The run's seed (C3).
    rules : Rules, optional
        Jamaican defaults otherwise.
    replicas : int
        1: each branch continues the real deal. More: each replica first deals again, at
        random, the cards the deciding seat has not seen (the stock and the opponents' cards
        not known to come from the pile), keeping hand sizes, the pile and the table: the
        decision's value given what the player knows. Outcomes are means over replicas.
    threads : int, optional
        Worker threads (results do not depend on them).
    progress : bool, optional
        A progress bar; default on for long runs in a terminal.
    pairing : {"seat", "stock"}
        How the two continuations share the stock. ``"seat"`` (default): from the branch on,
        the stock is dealt by seat (each seat's k-th draw is a fixed card of it), so a call's
        penalty card does not shift every later draw to another seat; the stock is a random
        order of unseen cards, so play is distributed exactly as in the real game, and the
        pairing is much tighter (see :func:`variance_ratio`). ``"stock"``: both draw from the
        top as the real game does, and the continuation along ``taken`` is then the
        unbranched hand itself, move for move.
    sample : float
        In (0, 1]: each decision is branched (and gets a row) with this probability, drawn
        from its own counter-based stream, so the rows are exactly a subset of those of
        ``sample=1`` with the same seed. Branching costs two plays to the end of the hand per
        decision: a sample spreads the same effort over more deals, which is what intervals
        clustered by deal need (hand 9 has about 135 decisions per deal).
    first_game : int
        The first game id: the deals are games ``first_game .. first_game + n - 1`` (C3), so
        a study cut into chunks of games equals one run.

    Returns
    -------
    pandas.DataFrame
        One row per decision: ``game, hand, attempt, seat, turn`` (the table turn of the offer,
        1-based), ``decision`` (``"take"``/``"call"``), ``card``, ``card_penalty``,
        ``stock_left``, ``calls_made`` (by the seat this hand), ``opponents_opened``,
        ``needed_before``/``needed_after`` (exact cards still needed for the contract without
        and with the card; ``<NA>`` when no card that can still come lays it),
        ``outs_before``/``outs_after`` (copies still to come that cut that number),
        ``hand_penalty`` (R1 value of the seat's cards), the seat's outcome in each branch
        ``penalty_act, penalty_pass`` (hand penalty as scored, R12; 0 when the hand ends
        void), ``out_act, out_pass`` (went out), ``doubled_act, doubled_pass`` (caught by an
        out on the opening), ``void_act, void_pass`` (the hand ended void, R13),
        ``relative_act, relative_pass`` (points against the table: the seat's penalty minus
        the mean penalty of all seats, doubles counted, R12; what decides a game, R14),
        ``doubler_act, doubler_pass`` (the seat went out on the opening, doubling every other
        seat, R12), the paired differences ``d_penalty, d_relative, d_out, d_doubled,
        d_doubler`` (act minus pass) and
        ``taken`` (what the policy did; play went on along it).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> d = ks.call_decisions(5, hand=1, policies="greedy", seed=1)
    >>> set(d["decision"]) <= {"take", "call"}, bool((d["d_penalty"] == d["penalty_act"]
    ...                                               - d["penalty_pass"]).all())
    (True, True)
    """
    n = check_int("n", n, 0)
    first_game = check_int("first_game", first_game, 0, 2**62)
    rules, pols, pol, seed, threads = setup(defer_players(players, rules), policies, seed,
                                             rules, threads)
    no_search(pols, "call_decisions")
    rules.deal(hand)
    replicas = check_int("replicas", replicas, 1, 10_000)
    by_seat = check_choice("pairing", pairing, ("seat", "stock")) == "seat"
    sample = check_real("sample", sample, 0, 1, open_lo=True)
    bar = progress_bar(progress, n, auto_at=200, unit="deal", desc="call decisions")
    parts = []
    step = 64
    with using_threads(threads):
        for b in range(0, n, step):
            g = np.arange(first_game + b, first_game + min(n, b + step), dtype=np.int64)
            parts.append(_block(g, hand, rules, pol, seed, replicas, by_seat, sample))
            bar.update(len(g))
    bar.close()
    if not parts:
        parts.append((np.zeros((0, _B.D_COLS), np.int64), np.zeros((0, _B.F_COLS))))
    di = np.concatenate([p[0] for p in parts])
    df = np.concatenate([p[1] for p in parts])
    return _frame(di, df, hand)


def trace_decision(seed, game, hand, turn, seat, act, attempt=0, players=4,
                   policies="expert", rules=None, pairing="seat") -> Trace:
    """The move log of one branch of a decision: hand ``hand`` of ``game`` (attempt
    ``attempt``) played as :func:`call_decisions` plays it up to table turn ``turn``, where
    ``seat`` takes or calls (``act=True``) or passes, then on to its end (``pairing`` as in
    :func:`call_decisions`; with ``"stock"`` and ``act`` the policy's own answer, this is the
    unbranched hand).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> d = ks.call_decisions(3, hand=2, policies="greedy", seed=4)
    >>> r = d.iloc[0]
    >>> t = trace_decision(4, r.game, 2, r.turn, r.seat, True, policies="greedy")
    >>> t.records[-1]["event"] in ("score", "void")
    True
    """
    rules, pols, pol, seed, _ = setup(defer_players(players, rules), policies, seed, rules,
                                       None)
    no_search(pols, "trace_decision")
    game = check_seed(game, "game")
    attempt = check_seed(attempt, "attempt")
    rules.deal(hand)
    turn = check_int("turn", turn, 1, _E.MAX_TURNS)
    seat = check_int("seat", seat, 0, rules.players - 1, why="a seat of the table")
    by_seat = check_choice("pairing", pairing, ("seat", "stock")) == "seat"
    act = check_bool("act", act)
    table = _E.new_table(rules.players, rules.pack_size, log_on=True)
    out = np.zeros((rules.players, _E.O_COLS), np.int32)
    dealer = int(_E.first_dealer(seed, game, rules.players))
    _B.play_branch(_E.Deal(seed, game, hand, attempt, dealer), rules_vector(rules, hand), pol,
                   turn, seat, act, by_seat, table, out)
    t = Trace(rules=rules, policies=pols)
    t.records = hand_records(table, rules, game, hand, attempt, dealer)
    return t
