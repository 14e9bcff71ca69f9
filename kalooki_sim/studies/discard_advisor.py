"""Which card should I discard? The advisor at the discard (R6.3).

It is your turn: you have drawn from the stock (or taken the discard, R9.1) and, not having
opened, you must let one card go. Every distinct card of your hand but a joker (R6: jokers are
never discarded) is a candidate. Each rollout deals the cards you cannot see once, as
:func:`~kalooki_sim.advise` deals them (the same hidden cards, the same past turns replayed,
the same weight for the table's history), deals the rest of the stock by seat, and plays the
hand on once per candidate: you discard it, the next seat is offered it (R9: take, then the
calls) and everyone plays on with the same cards and the same later random draws. The
candidates' paired differences rank them, each with its 95% interval.

>>> import kalooki_sim as ks
>>> a = ks.advise_discard("K♠ K♥ K♦ Q♠ Q♥ 9♦ 6♠ 6♥ 2♣ 7♦", 1, seen="5♣", rollouts=40,
...                       policies="greedy", seed=1)
>>> len(a.table), a.table["discard"].iloc[0] in a.situation["hand"]
(10, True)
"""

from __future__ import annotations

import re
import time
import warnings
from dataclasses import dataclass, field, replace

import numba
import numpy as np
import pandas as pd

from .._lib import is_int, progress_bar
from ..engine.kernels import engine as _E
from ..engine.kernels import history as _H
from ..engine.kernels import known_row
from ..engine.play import defer_players, rules_vector, setup, using_threads
from ..engine.policies import no_search
from ..game.cards import JOKER, card_text, to_codes_named
from ..game.melds import one_card
from ._history import _read_file, _split_text
from ._weighted import EQUAL, RC, _ess_floor, _t3, _temper, per_sample, variance_ratio
from .advisor import (
    BATCH,
    OBJECTIVES,
    _kalooki_only,
    _Run,
    _stop,
    bound,
    enough_samples,
    read_history,
)
from .situation import _build, _known, _sizes

_WHAT = {"relative": "points against the table", "penalty": "hand penalty"}


@dataclass
class DiscardAdvice:
    """What :func:`advise_discard` found.

    ``table``: one row per candidate discard, best first: ``discard`` (the card), ``points``
    (the objective's expected value, lower is better) with its 95% interval
    (``points_lo``, ``points_hi``), ``vs_best`` (its points minus the best candidate's,
    paired over the same rollouts; 0 for the best) with its 95% interval (``vs_best_lo``,
    ``vs_best_hi``), ``penalty`` (your expected hand penalty, R12), ``out`` (the chance of
    going out first), ``doubled`` (of being caught by an opening double, R12), ``void`` (of a
    void hand, R13). ``best``: the best candidate; ``verdict``: ``"decided"`` (the second
    best's ``vs_best`` interval excludes 0), ``"equal"`` (it lies inside ±2 points) or
    ``"unsure"``; ``recommendation``: the sentence. ``rollouts``, ``stopped_by``
    (``"rollouts"``, ``"margin"``, ``"time_limit"``, ``"decided"``, ``"equal"``), ``seconds``,
    ``situation`` (the position as read; its ``card``: the pile's top you passed on, or
    the card you took), ``objective``, ``ess``, ``history_strength``,
    ``fallback``, ``history_events``, ``samples``: as
    :class:`~kalooki_sim.studies.advisor.Advice`;
    ``variance_ratio``: as there, for the second best against the best (NaN with one card).
    """

    table: pd.DataFrame
    best: str
    verdict: str
    recommendation: str
    rollouts: int
    stopped_by: str
    seconds: float
    situation: dict = field(default_factory=dict)
    objective: str = "relative"
    ess: float = float("nan")
    history_strength: float = 1.0
    fallback: str = ""
    history_events: int = 0
    variance_ratio: float = float("nan")
    samples: int = 0

    def __str__(self) -> str:
        shown = self.table.copy()
        for c in shown.columns:
            if c.startswith(("out", "doubled", "void")):
                shown[c] = (100 * shown[c]).map("{:.1f}%".format)
            elif c != "discard":
                shown[c] = shown[c].map("{:+.1f}".format if c.startswith("vs_best")
                                        else "{:.1f}".format)
        return (f"{self.recommendation}\n\nobjective: {self.objective} "
                f"({OBJECTIVES[self.objective]}); effective sample size {self.ess:,.0f} of "
                f"{self.samples or self.rollouts:,} samples ({self.rollouts:,} rollouts); "
                f"variance ratio {self.variance_ratio:.1f} against "
                f"unpaired rollouts\n\n{shown.to_string(index=False)}\n\n"
                "points: the objective, lower is better; vs_best: minus the best's, paired; "
                "_lo, _hi: the 95% interval.")


def discard_situation(hand, contract, rules, *, took=None, stock_left=None, calls_made=None,
                      opened=(), table=(), seen=(), known=None, hand_sizes=None,
                      reshuffled=False, history=None):
    """The position at your discard, checked once by :func:`~kalooki_sim.situation`'s code:
    ``(situation, candidate codes)``. The situation is the offer before your turn (the pile's
    top card from the seat before you, ``discarder=1``) with your answer played: drawn from
    the stock (``took=None``: the hand holds the drawn card) or ``took`` taken (R9.1)."""
    codes = to_codes_named("hand", hand, rules)
    seen_codes = list(to_codes_named("seen", seen, rules))
    history = _before_own_turn(history)
    called = None  # (seat, card, history before) when the offer you passed was called
    if took is not None:
        x = one_card(took, rules)
        if x not in codes:
            raise ValueError(f"took={took!r} is not allowed: the card you took is in your "
                             "hand, which holds none")
        rest = list(codes)
        rest.remove(x)
        try:
            sit = _build([card_text(c) for c in rest], card_text(x), contract, 1, stock_left,
                         calls_made, opened, table, [card_text(c) for c in seen_codes], known,
                         hand_sizes, reshuffled, history, rules)
        except ValueError as e:  # the hand's size as the player counts it: with the card
            m = re.match(r"hand has (\d+) cards(.*) so (\d+) with(.*)", str(e))
            if m is None:
                raise
            raise ValueError(f"hand has {int(m[1]) + 1} cards{m[2]} plus the card taken, so "
                             f"{int(m[3]) + 1} with{m[4]}") from None
    elif (called := _called_offer(history, rules)) is not None:
        # R9.2: the offer you passed was called: read before the call, the call played below
        sit = _before_the_call(hand, contract, rules, called, stock_left, calls_made, opened,
                               table, seen, known, hand_sizes, reshuffled)
    else:
        top = seen_codes.pop() if seen_codes else _history_top(history)
        if top is None:
            raise ValueError("seen is empty and the history ends with no discard: give the "
                             "pile as it lies (seen, bottom first; its top is the card you "
                             "passed on before drawing), or took=... if you took it")
        sit = _build(hand, top if isinstance(top, str) else card_text(top), contract, 1,
                     stock_left, calls_made, opened, table,
                     [card_text(c) for c in seen_codes], known, hand_sizes, reshuffled,
                     history, rules, drawn=1)
    cands = _candidates(codes)
    base = _E.copy_table(sit.rollout.base)
    base.gs[_E.GS_LIVE] = 0  # the offer before the turn is answered: passed and drawn, or taken
    base.gs[_E.GS_CUR] = 0
    if took is not None:  # R9.1: the top card comes into the hand, known to the table
        _off_the_pile(base, 0, x)
        base.gs[_E.GS_TURNS] += 1  # the take used no stock card (the turns are counted by it)
    sit = replace(sit, hand=tuple(card_text(c) for c in codes),
                  card=card_text(x) if took is not None else sit.card,
                  rollout=sit.rollout._replace(base=base))
    if called is not None:
        sit = _play_the_call(sit, called)
    return sit, cands


def _off_the_pile(base, seat, x):
    """The pile's top card ``x`` into engine seat ``seat``'s hand on table ``base``, known to
    the table, its rank marked as taken (R9)."""
    gs, ps, h = base.gs, base.ps, base.hand
    gs[_E.GS_DISC_N] -= 1
    h[seat, x] += 1
    h[known_row(h, seat), x] += 1
    if x != JOKER:
        ps[seat, _E.PS_TOOK] |= 1 << (int(x) % 13 + 1)


def offer_called_away(history, rules) -> bool:
    """Does ``history`` (as :func:`advise_discard` takes it, your own draw included or not)
    end with the offer you passed called by another seat (R9.2)? Such a discard is read
    with the call played (:func:`discard_situation`)."""
    return _called_offer(_before_own_turn(history), rules) is not None


def _called_offer(history, rules):
    """``(seat, card code, history before the call)`` when the history (as
    :func:`_before_own_turn` returns it) ends with the offer from the seat before you
    (``1:discard``) that you passed on and another seat then called (R9.2): your draw
    followed, the card is in the caller's hand; else None."""
    events = list(history or ())
    if not events or len(events[-1]) < 3 or str(events[-1][1]).strip() != "call":
        return None
    last = next((i for i in range(len(events) - 1, -1, -1)
                 if len(events[i]) >= 2 and str(events[i][1]).strip() in ("discard", "upcard")),
                None)
    if last is None or len(events[last]) < 3 or str(events[last][0]).strip() != "1":
        return None
    seat = str(events[-1][0]).strip()
    if seat in ("0", "1") or not seat.isdigit() or not any(
            len(e) >= 2 and str(e[0]).strip() == "0" and str(e[1]).strip() == "pass"
            for e in events[last + 1:]):
        return None  # the situation's own checks name what is wrong
    try:
        x = one_card(events[last][2], rules)
        if one_card(events[-1][2], rules) != x:
            return None
    except (TypeError, ValueError):
        return None
    return int(seat), int(x), events[:-1]


def _before_the_call(hand, contract, rules, called, stock_left, calls_made, opened, table,
                     seen, known, hand_sizes, reshuffled):
    """:func:`discard_situation`'s position when the offer you passed was called by another
    seat (R9.2), read before the call: the offer's card from ``discarder=1``, its answers,
    your draw; the stock one card fuller and the caller two cards smaller, the card called
    not among its known cards. ``seen`` is the pile as it lies, without the card."""
    seat, x, before = called
    sizes = _sizes(hand_sizes, rules.players)
    if seat in sizes and is_int(sizes[seat]):
        sizes = {**sizes, seat: int(sizes[seat]) - 2}
    stock = stock_left + 1 if is_int(stock_left) else stock_left
    return _build(hand, card_text(x), contract, 1, stock, calls_made, opened, table, seen,
                  _known_without(known, seat, x, rules), sizes, reshuffled, before, rules,
                  drawn=1)


def _play_the_call(sit, called):
    """``sit`` (:func:`_before_the_call`, its table already a copy) with the call played:
    the card leaves the pile's top for the caller's hand, known to the table, its penalty
    card (R9.2) from the stock joins the caller's hidden cards, and the history the rollouts
    weigh ends with the call."""
    seat, x, _ = called
    s = (-seat) % sit.players  # engine seat
    r = sit.rollout
    _off_the_pile(r.base, s, x)
    r.base.ps[s, _E.PS_CALLS] += 1
    opp = r.opp.copy()
    opp[s] += 1  # the penalty card: hidden, out of the stock
    events = np.vstack([r.events, np.array([[s, _H.H_CALL, x]], np.int64)])
    known = {k: list(v) for k, v in sit.known.items()}
    known.setdefault(seat, []).append(card_text(x))
    sizes = dict(sit.hand_sizes)
    sizes[seat] += 2
    return replace(sit, known=known, hand_sizes=sizes, stock_left=sit.stock_left - 1,
                   penalty_cards=sit.penalty_cards + 1,
                   history=sit.history + ((seat, "call", card_text(x)),),
                   out_of_reach=sit.out_of_reach + (card_text(x),),
                   rollout=r._replace(opp=opp, events=events))


def _candidates(codes):
    """The cards a discard may let go, by code: every natural held (R6, C2)."""
    cands = np.array(sorted({int(c) for c in codes if c != JOKER}), np.int64)
    if not len(cands):
        raise ValueError("hand holds only jokers: a joker is never discarded (R6), and such a "
                         "turn ends with no discard (C2): there is no choice to advise")
    return cands


def _known_without(known, seat, x, rules):
    """``known`` (as :func:`~kalooki_sim.situation` takes it) with one copy of code ``x`` left
    out of ``seat``'s cards, when listed there (the card called is placed by the call)."""
    k = _known(known, rules.players, rules)
    if seat in k:
        cs = [int(c) for c in k[seat]]
        if x in cs:
            cs.remove(x)
        k[seat] = cs
    return {a: " ".join(card_text(c) for c in v) for a, v in k.items() if len(v)}


def _before_own_turn(history):
    """The history without its trailing events of your own turn (seat 0's pass on the offer,
    its draw or take, R6.1, R9.1): the position is read from the offer before it. Text and
    ``@FILE`` are read as :func:`~kalooki_sim.situation` reads them, into a list."""
    if isinstance(history, str):
        text = _read_file(history.strip()) if history.lstrip().startswith("@") else history
        history = [(int(e[0]) if e[0].lstrip("-").isdigit() else e[0], *e[1:])
                   for e in _split_text(text)]
    if history is None:
        return history
    out = list(history)
    while out and len(out[-1]) >= 2 and str(out[-1][0]).strip() == "0" and str(
            out[-1][1]).strip() in ("pass", "draw", "take"):
        out.pop()
    return out


def _history_top(history):
    """The card of the history's last discard (or upcard) as given, when nobody took or
    called it since (R9: it lies on the pile); else None. ``history`` as
    :func:`_before_own_turn` returns it."""
    for e in reversed(list(history or ())):
        if len(e) >= 2 and e[1] in ("take", "call"):
            return None
        if len(e) >= 3 and e[1] in ("discard", "upcard"):
            return e[2]
    return None


def advise_discard(hand, contract, *, took=None, players=4, stock_left=None, calls_made=None,
                   opened=(), table=(), seen=(), known=None, hand_sizes=None,
                   reshuffled=False, history=None, past_turns=True, objective="relative",
                   policies="expert", rollouts=2000, margin=None, time_limit=None,
                   decide=False, seed=0, rules=None, threads=None,
                   progress=False) -> DiscardAdvice:
    """Which card to discard? Every candidate played on from the same rollouts (R6.3, R9).

    Parameters
    ----------
    hand : str or iterable
        Your cards at the discard: the cards dealt plus 2 per call plus the card just drawn
        (or taken), so one card more than after the discard. You have not opened (R7).
    contract : int or (int, int)
        The hand number (1-9) or its ``(groups, runs)``.
    took : str, optional
        The pile's top card, if you took it (R9.1) rather than drew from the stock; it is in
        ``hand`` and ``seen`` is the pile without it.
    players, stock_left, calls_made, opened, table, seen, known, hand_sizes, reshuffled, \
history
        As :func:`~kalooki_sim.situation` reads them, now at your discard: ``stock_left``
        after your draw; ``seen`` the pile as it lies, bottom first (after a draw its top is
        the card you passed on; default: the history's discards); ``history`` up to the
        discard before your turn (your pass and draw are implied).
    past_turns, objective, policies, rollouts, margin, time_limit, decide, seed, rules, \
threads, progress
        As :func:`~kalooki_sim.advise`: ``objective`` ``"relative"`` (points against the table,
        default) or ``"penalty"``; ``margin`` and ``decide`` read the best candidate against
        the second best (checked every 250 rollouts).

    Returns
    -------
    DiscardAdvice
        The candidates ranked, each with its 95% interval and its paired difference to the
        best; the sentence names the best discard and whether it is decided (its interval
        against the second best excludes 0) or the top candidates are equal (inside ±2
        points).

    Raises
    ------
    ValueError
        As :func:`~kalooki_sim.situation` (with the hand one card longer), for ``took`` not
        in the hand, a hand of jokers only (R6, C2) or Tuluki's rules (V9).

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> a = ks.advise_discard("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 9♦", 1, seen="5♣", rollouts=40,
    ...                       policies="greedy", seed=1)
    >>> a.table.columns[:4].tolist(), a.rollouts
    (['discard', 'points', 'points_lo', 'points_hi'], 40)
    """
    rules, pols, pol, seed, threads = setup(defer_players(players, rules), policies, seed,
                                             rules, threads)
    no_search(pols, "advise_discard")
    _kalooki_only(rules)
    run = _Run.checked(objective, rollouts, margin, time_limit, past_turns, decide, progress)
    sit, cands = discard_situation(hand, contract, rules, took=took, stock_left=stock_left,
                                   calls_made=calls_made, opened=opened, table=table,
                                   seen=seen, known=known, hand_sizes=hand_sizes,
                                   reshuffled=reshuffled, history=history)
    t0 = time.perf_counter()
    with using_threads(threads):
        res, logw, stopped_by, reuse = _play(sit, cands, pol, seed, run)
    return discard_advice(sit, cands, run.objective, res, logw, stopped_by,
                          time.perf_counter() - t0, decide=run.decide, reuse=reuse)


def discard_block(sit, cands, pol, seed, first, count, past_turns=True, swaps=None,
                  reuse=None, history=None):
    """Rollouts ``first .. first + count - 1`` of the discard position ``sit``: ``(res,
    logw)``, ``res[j, k]`` the :data:`RC` columns of candidate ``cands[k]``; the history read
    as :func:`.advisor.read_history` reads it (``swaps``, ``reuse``), or ``history``, its
    reading built once by the caller. Rollout ``i`` draws only
    from its own streams of ``(seed, i)`` and its sample's (C3): any blocks, any threads,
    the same rollouts, and the same samples as :func:`~kalooki_sim.advise`'s rollout ``i``."""
    r, rules = sit.rollout, sit.rules
    res = np.zeros((count, len(cands), RC), np.float64)
    logw = np.zeros(count, np.float64)
    ranks = np.zeros((count, sit.players, _H.RANK_COLS), np.int64)
    moves = np.zeros((count, 2), np.int64)
    nw = max(1, 4 * numba.get_num_threads())  # the result does not depend on it (C3)
    _H.rollout_discard_block(seed, rules_vector(rules, sit.hand_no), pol, r.base,
                             _H.Hidden(r.flat, len(r.flat), r.opp, r.pile_extra),
                             read_history(sit, past_turns, swaps, reuse)
                             if history is None else history, 0,
                             np.ascontiguousarray(cands, np.int64), first, count,
                             _E.Run(rules.pack_size, nw, 0, False),
                             _H.Rollouts(res, logw, ranks, moves))
    return res, logw


def _best_second(res, logw, j):
    """The best and second-best candidates' columns by the weighted mean of column ``j``, the
    weights and the paired difference second minus best."""
    w, _, _ = _temper(logw, _ess_floor(len(res)))
    x = res[:, :, j]
    m = x.mean(axis=0) if w is None else w @ x
    order = np.lexsort((np.arange(len(m)), m))
    if len(order) < 2:
        return order[0], None, w, None
    return order[0], order[1], w, x[:, order[1]] - x[:, order[0]]


def _play(sit, cands, pol, seed, run):
    """The rollouts in batches until the budget, the margin (of the second best against the
    best), the clock or the sequential rule stops them."""
    n = run.rollouts
    bar = progress_bar(run.progress, n, auto_at=0, unit="rollout", desc="kalooki discard")
    res = np.zeros((n, len(cands), RC), np.float64)
    logw = np.zeros(n, np.float64)
    j = 4 if run.objective == "relative" else 0
    looks = -(-n // BATCH)
    hist = read_history(sit, run.past_turns)
    reuse = enough_samples(n, hist.reuse, bar)
    done, stopped_by, t0 = 0, None, time.perf_counter()
    while done < n and stopped_by is None:
        k = min(BATCH, n - done)
        res[done:done + k], logw[done:done + k] = discard_block(sit, cands, pol, seed, done, k,
                                                                history=hist)
        done += k
        bar.update(k)
        r, lw = per_sample(res[:done], logw[:done], reuse)  # the sample is the unit
        d = None  # second best minus best: what the rule and the margin read
        if len(cands) > 1 and (run.decide or run.margin is not None):
            d = _best_second(r, lw, j)[3]
        stopped_by = _stop(d, lw, done, n, looks, run, t0)
    bar.close()
    return res[:done], logw[:done], stopped_by, reuse


def discard_advice(sit, cands, objective, res, logw, stopped_by, seconds, decide=False,
                   reuse=1):
    """:class:`DiscardAdvice` from the rollouts (``res[i, k]``: candidate ``cands[k]``);
    ``reuse``: the rollouts of each sample of the hidden hands, the intervals' unit."""
    rollouts, j = len(res), 4 if objective == "relative" else 0
    res, logw = per_sample(res, logw, reuse)
    n = len(res)
    w, beta, ess = _temper(logw, _ess_floor(n))
    fallback = ""
    if beta < 1.0:
        fallback = (f"the history's weights collapsed; they were tempered to strength "
                    f"{beta:.2f} to keep an effective sample size of {ess:,.0f}")
        warnings.warn(f"advise_discard: {fallback}", RuntimeWarning, stacklevel=3)
    b, second, _, _ = _best_second(res, logw, j)
    vr = float("nan") if second is None else variance_ratio(res[:, second, j], res[:, b, j], w)
    rows = []
    for k, c in enumerate(cands):
        m, lo, hi = _t3(res[:, k, j], w)
        dm, dlo, dhi = (0.0, 0.0, 0.0) if k == b else _t3(res[:, k, j] - res[:, b, j], w)
        row = dict(discard=card_text(int(c)), points=m, points_lo=lo, points_hi=hi,
                   vs_best=dm, vs_best_lo=dlo, vs_best_hi=dhi,
                   penalty=_t3(res[:, k, 0], w)[0])
        for col, q in (("out", 1), ("doubled", 2), ("void", 3)):  # shares (of sample means)
            row[col] = float(res[:, k, q].mean() if w is None else w @ res[:, k, q])
        rows.append(row)
    tab = (pd.DataFrame(rows).assign(_k=range(len(rows)))
           .sort_values(["points", "_k"]).drop(columns="_k").reset_index(drop=True))
    verdict = _verdict(tab, stopped_by, decide)
    text = _sentence(tab, verdict, objective, rollouts, stopped_by)
    n_weighed = int(sum(1 for e in sit.rollout.events
                        if int(e[0]) != 0 and (-int(e[0])) % sit.players not in sit.opened))
    return DiscardAdvice(table=tab, best=tab["discard"].iat[0], verdict=verdict,
                         recommendation=text, rollouts=rollouts, samples=n,
                         stopped_by=stopped_by,
                         seconds=seconds, situation=sit.as_dict(), objective=objective,
                         ess=ess, history_strength=beta, fallback=fallback,
                         history_events=n_weighed, variance_ratio=vr)


def _verdict(tab, stopped_by, decide):
    """``"decided"``, ``"equal"`` or ``"unsure"`` from the second best's difference to the
    best (its 95% interval; with ``decide=True`` only the sequential rule decides)."""
    if len(tab) < 2:
        return "decided"
    lo, hi = float(tab["vs_best_lo"].iat[1]), float(tab["vs_best_hi"].iat[1])
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "unsure"
    if lo > 0 and (not decide or stopped_by == "decided"):
        return "decided"
    if -EQUAL <= lo and hi <= EQUAL:
        return "equal"
    return "unsure"


def _sentence(tab, verdict, objective, n, stopped_by):
    """The recommendation: the best discard, and how sure."""
    best, what = tab["discard"].iat[0], _WHAT[objective]
    how = f"over {n:,} paired rollouts" + ("" if stopped_by == "rollouts" else
                                           f" (stopped by {stopped_by.replace('_', ' ')})")
    if len(tab) < 2:
        return f"Discard {best}: the only card you may discard (R6: never a joker)."
    second = tab["discard"].iat[1]
    d, lo, hi = (float(tab[c].iat[1]) for c in ("vs_best", "vs_best_lo", "vs_best_hi"))
    cmp = (f"{second}, the second best, costs {d:.1f} {what} more (95% interval {bound(lo)} "
           f"to {bound(hi)}) {how}")
    if verdict == "decided":
        return f"Discard {best} (decided: its interval against the second best excludes 0): {cmp}."
    if verdict == "equal":
        tied = tab.loc[(tab["vs_best_hi"] <= EQUAL) & (tab["vs_best_lo"] >= -EQUAL),
                       "discard"].tolist()
        return (f"Discard {' or '.join(tied[:4])}{' or ...' if len(tied) > 4 else ''} (equal: "
                f"inside ±{EQUAL:.0f} points of the best): {cmp}.")
    return (f"Discard {best}, but unsure: its interval against the second best includes 0 and "
            f"reaches past ±{EQUAL:.0f} points: {cmp}; more rollouts may separate them.")
