"""The review's discards: each discard of the reviewed seat, before it has opened, valued by
the discard advisor (:func:`~kalooki_sim.advise_discard`) from what the seat knew then.

A discard has many candidates, so it is read in two steps. A first look plays every candidate
on ``SELECT`` rollouts of a stream of its own and picks the comparator: the best candidate, or
the second best when the card discarded was the best. Then the card discarded and the
comparator are played paired on fresh rollouts, in the review's sequential looks
(:mod:`._sequential`, with a budget of their own per hand): the points lost against the
comparator, with a 95% interval the selection has not seen, and its rating
(:func:`.rating.rating`). A row rated an error is measured once more on fresh rollouts
(``lost_fresh``), as the takes and calls are, for :func:`.rating.review_total`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from ..engine.kernels import rng as _R
from ..game.cards import to_codes
from ._sequential import SIZE_WIDTH, fresh, run_hand
from ._weighted import _ess_floor, _t3, _temper, per_sample
from .advisor import read_history
from .discard_advisor import discard_block, discard_situation
from .rating import ERRORS, rating

#: rollouts of a discard's first look, every candidate played (the comparator's choice)
SELECT = 30
#: the review reads a decision's history as the advisor does (None: each sample's chain,
#: :func:`.advisor.read_history`, its sample played on ``SAMPLE_ROLLOUTS`` rollouts; 0:
#: importance weights alone, tempered when they collapse)
HISTORY_SWAPS = None
#: the rollouts each sample of a chain is played on in the review: twice the advisor's
#: ``SAMPLE_ROLLOUTS``. On 9 expert hands (one a contract, seat 0, :mod:`.review_measure`,
#: looks of 500 up to 16,000) 10, 20 and 40 gave 29%, 32% and 36% undecided in 14.7, 10.5
#: and 7.3 s a hand: a chain costs 10 to 30 rollouts' play, and a sample's rollouts share
#: more the more they are (its design effect, 1.0 to 1.9 at 10, 1.3 to 5.5 at 40, on 9
#: positions)
HISTORY_REUSE = 20


def review_history(sit):
    """How the review reads the history of ``sit``: :func:`.advisor.read_history` with
    :data:`HISTORY_SWAPS`, each chain's sample played on :data:`HISTORY_REUSE` rollouts (one
    sample a rollout without a chain), built once per decision; its ``reuse`` is the looks'
    unit."""
    h = read_history(sit, True, HISTORY_SWAPS)
    return h._replace(reuse=HISTORY_REUSE) if h.reuse > 1 else h


#: paired rollouts, at most, of the card discarded against its comparator
DISCARD_ROLLOUTS = 4000
#: paired rollouts, at most, over the discards of one hand: their own budget, about a
#: quarter of the review's rollouts (a hand has about five discards to thirteen takes and
#: calls, and a discard is close more often than not). 10,000 since the discards after a
#: called card are read with their chains too: on the 27 hands of review_measure 12,000 took
#: 10.4 s a hand (26% undecided), 10,000 9.8 s (28%) -- the ten seconds are the budget
DISCARD_HAND_ROLLOUTS = 10_000
#: the paired looks' first block (then doubling, :func:`._sequential.schedule`)
DISCARD_BLOCK = 1000


@dataclass
class DiscardMoment:
    """One discard of the seat, with the position as it knew it (:func:`.advise_discard`'s
    arguments)."""

    game: int
    hand: int
    attempt: int
    turn: int
    card: str
    situation: dict = field(default_factory=dict)


def discard_moments(trace, seat, reader_cls):
    """The seat's discards before it opened, in play order, each with what it knew: its hand
    with the card drawn (or taken: ``took``), the pile as it lay, the table, the stock and the
    public history up to its draw. ``reader_cls``: the review's reader of the move log."""
    out, reader, took, cut = [], None, None, None
    for r in trace.records:
        e = r["event"]
        if e == "hand":
            reader = reader_cls(r, trace.rules, seat)
            continue
        if e == "drop" or reader is None:
            continue
        if e == "turn":
            took, cut = None, None
        elif (e in ("take", "draw") and r["seat"] == seat and reader.cur == seat and cut is None
              and not r.get("turned")):
            cut = len(reader.events)  # the history before the seat's own draw or take
            took = r["card"] if e == "take" else None
        elif e == "discard" and r["seat"] == seat and seat not in reader.opened:
            out.append(DiscardMoment(reader.game, reader.hand_no, reader.attempt, reader.turn,
                                     r["card"], _position(reader, took, cut)))
        reader.apply(r)
    return out


def _position(rd, took, cut):
    """:func:`.discard_advisor.discard_situation`'s arguments from the reader ``rd``."""
    others = [s for s in range(rd.P) if s != rd.me]
    events = rd.events if cut is None else rd.events[:cut]
    return dict(
        hand=list(rd.mine.elements()), contract=rd.hand_no, took=took, stock_left=rd.stock,
        calls_made=rd.calls[rd.me], opened=sorted(rd.offset(s) for s in rd.opened),
        table=[(rd.offset(o), " ".join(c for c, _ in sorted(cs, key=lambda x: x[1])))
               for o, cs in rd.melds.values()],
        seen=list(rd.pile),
        known={rd.offset(s): list(rd.known[s].elements()) for s in others
               if sum(rd.known[s].values())},
        hand_sizes={rd.offset(s): rd.sizes[s] for s in others}, reshuffled=rd.reshuffled,
        history=[(rd.offset(s), a, c) for s, a, c in events])


def _seed(seed, m, stream):
    """A discard's own rollout seed (C3): ``stream`` 5 the paired looks, 7 the first look."""
    return int(_R.stream_key(seed, m.game, m.hand * 64 + m.attempt, m.turn, stream)) >> 1


class _Pair:
    """The card discarded (column 0) against its comparator (column 1), block by block: the
    paired differences of the objective and the log-weights, the results kept."""

    def __init__(self, sit, cands, pol, seed, j, hist):
        self.sit, self.cands, self.pol, self.seed, self.j = sit, cands, pol, seed, j
        self.res, self.logw = [], []
        self.keep = True
        self.hist = hist  # :func:`review_history`, read once for the first look and these
        self.reuse = hist.reuse  # the looks' unit

    def __call__(self, first, count):
        res, logw = discard_block(self.sit, self.cands, self.pol, self.seed, first, count,
                                  history=self.hist)
        if self.keep:
            self.res.append(res)
            self.logw.append(logw)
        return res[:, 0, self.j] - res[:, 1, self.j], logw


def _situation(m, rules, history):
    """The discard's position, checked, and whether its history was read: the position is
    read without the history when the history alone is refused (the review's log can hold an
    order of events the situation's checks do not read); its row then says so
    (``history_strength`` 0)."""
    kw = dict(m.situation)
    if not history:
        kw["history"] = None
    try:
        return (*discard_situation(rules=rules, **kw), True)
    except ValueError:
        if kw["history"] is None:
            raise
        kw["history"] = None
        return (*discard_situation(rules=rules, **kw), False)


def review_discards(moments, seat, pol, seed, rules, objective, history, budget, sequential,
                    bar=None):
    """The review rows of one hand's discards (:data:`.review.COLUMNS`, ``decision``
    ``"discard"``) and how many were left out (a position the situation cannot read): the
    first look picks each comparator, the paired looks share ``budget`` (``(cap, hand
    budget)``) by :func:`._sequential.run_hand`."""
    cap, hand_budget = budget
    j = 4 if objective == "relative" else 0
    picked, sources, skipped = [], [], 0
    for m in moments:
        try:
            sit, cands, read = _situation(m, rules, history)
        except ValueError:  # e.g. an empty pile at a draw (its only card called, R9.2)
            sit, cands, read = None, (), False
            skipped += 1
        if len(cands) < 2:  # none read, or one card to let go: no choice to rate
            if bar is not None:
                bar.update(1)
            continue
        taken = int(to_codes(m.card)[0])
        hist = review_history(sit)
        res, logw = per_sample(*discard_block(sit, cands, pol, _seed(seed, m, 7), 0, SELECT,
                                              history=hist), hist.reuse)
        w, _, _ = _temper(logw, _ess_floor(len(res)))
        x = res[:, :, j]
        mean = x.mean(axis=0) if w is None else w @ x
        order = [int(cands[k]) for k in np.lexsort((np.arange(len(mean)), mean))]
        comp = order[1] if order[0] == taken else order[0]
        picked.append((m, order[0], comp, read))
        sources.append(_Pair(sit, np.array([taken, comp], np.int64), pol, _seed(seed, m, 5), j,
                             hist))
    if not sources:
        return [], skipped
    seq, K = run_hand(sources, block=min(DISCARD_BLOCK, cap), cap=cap, budget=hand_budget,
                      sequential=sequential, width=SIZE_WIDTH,
                      on_stop=(lambda i: bar.update(1)) if bar is not None else None)
    return [_row(m, first, comp, src, q, K, seat, objective, read)
            for (m, first, comp, read), src, q in zip(picked, sources, seq, strict=True)], skipped


def _row(m, first_best, comp, src, q, K, seat, objective, read=True):
    """One discard's review row (``read`` False: its history was refused and left out,
    ``history_strength`` 0)."""
    from ..game.cards import card_text

    res, logw = per_sample(np.concatenate(src.res), np.concatenate(src.logw), src.reuse)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        w, beta, ess = _temper(logw, _ess_floor(len(res)))
    v = [_t3(res[:, k, src.j], w)[0] for k in (0, 1)]
    share = [[_t3(res[:, k, q_], w)[0] for k in (0, 1)] for q_ in (1, 2)]  # out, doubled
    other = card_text(comp)
    rate = rating(True, q.lo, q.hi)
    f = (np.nan, np.nan, np.nan)
    if rate in ERRORS:  # the loss again on as many fresh rollouts: what the total adds
        src.keep = False
        f = fresh(src, q.n, q.n)
    decided = q.stopped_by == "decided"
    best = m.card if v[0] < v[1] else other if v[1] < v[0] else m.card
    return dict(
        game=m.game, hand=m.hand, attempt=m.attempt, turn=m.turn, seat=seat,
        decision="discard", card=m.card, discarder=seat, stock_left=m.situation["stock_left"],
        cards_held=" ".join(m.situation["hand"]), needed_before=None, needed_after=None,
        outs_before=None, outs_after=None, action="discard", value_act=v[0], value_pass=v[1],
        d_value=q.mean, d_value_lo=q.lo, d_value_hi=q.hi, p_value=q.p,
        out_act=share[0][0], out_pass=share[0][1], doubled_act=share[1][0],
        doubled_pass=share[1][1], act_name="discard",
        advice=(best if decided else "unsure"), confidence="clearly" if decided else "unsure",
        verdict_95=("close" if not (q.lo > 0 or q.hi < 0) else
                    "good" if q.hi < 0 else "mistake"),
        objective=objective, rollouts=q.n, looks=q.looks, stopped_by=q.stopped_by,
        best=best, compared=other, first_look_best=card_text(first_best),
        lost=max(0.0, q.mean), lost_lo=max(0.0, q.lo), lost_hi=max(0.0, q.hi), rating=rate,
        lost_fresh=f[0], lost_fresh_lo=f[1], lost_fresh_hi=f[2],
        fresh_rollouts=q.n if rate in ERRORS else 0, ess=ess,
        history_strength=beta if read else 0.0,
        reason=(f"discarded {m.card} against {other} (the first look's best of every card: "
                f"{card_text(first_best)})"))
