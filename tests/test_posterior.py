"""The hidden hands drawn from the posterior given the table's history (R6, R9): the chain of
swaps beside a plain-Python twin, the whole history read without tempering, and the belief's
calibration against the true hidden hands of expert play (:mod:`calibration`)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from calibration import beliefs, calibration, cells_of, log_score, positions

import kalooki_sim as ks
from kalooki_sim._stats import t_interval
from kalooki_sim.engine._kernels import branch as B
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import history as H
from kalooki_sim.engine._kernels import rng as R
from kalooki_sim.engine._kernels.workspace import W_PLANS
from kalooki_sim.engine.play import defer_players, rules_vector, setup
from kalooki_sim.studies._history import check_history, engine_events
from kalooki_sim.studies._weighted import per_sample
from kalooki_sim.studies.advisor import SAMPLE_ROLLOUTS, _block, _situation

CASE = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="K♦", contract=6,
            discarder=2)
# a legal history (R9: the next player takes, the others call; seat k+1 plays before seat k)
EVENTS = [(2, "discard", "7♦"), (1, "pass", "7♦"), (1, "draw"), (1, "discard", "7♣"),
          (0, "pass", "7♣"), (3, "call", "7♣"), (0, "draw"), (0, "discard", "4♣"),
          (3, "pass", "4♣"), (3, "draw"), (3, "discard", "9♦"), (2, "take", "9♦"),
          (2, "discard", "K♦")]


def posterior_chain(rules, pol, t, br, me, ev, n_ev, pile_n, swaps, key, cover):
    """Twin of :func:`history.posterior_chain`: the same proposals from the same streams,
    written out; each seat's term is :func:`history.seat_logw` (its own twin is in
    ``test_history``) on a copy of the hands. Returns (the log-weight of the seats left, the
    proposals, those accepted, the log-likelihood of the seats moved)."""
    hand, ps = t.hand, t.ps
    P = ps.shape[0]
    n = int(t.gs[E.GS_STOCK_N])
    cst = np.array([R.stream_key(key, 0, 0, 0, H.STREAM_CHAIN), 0], np.uint64)
    weighed = [s for s in range(P) if s != me and ps[s, E.PS_OPENED] == 0 and cover[s]]
    left = [s for s in range(P) if s != me and ps[s, E.PS_OPENED] == 0 and not cover[s]]

    def unknown(s):
        return np.maximum(hand[s] - hand[E._known_row(hand, s)], 0)

    def nth_unknown(s, j):
        return int(np.searchsorted(np.cumsum(unknown(s)), j, side="right"))

    def term(s):
        k = E._known_row(hand, s)
        br.hand[s], br.hand[k] = hand[s], hand[k]
        br.count.scratch[W_PLANS + 20 * s + 16] = 0
        rst = np.array([R.stream_key(key, s, 0, 0, H.STREAM_HISTORY), 0], np.uint64)
        lw = H.seat_logw(rules, pol, br, s, ev, n_ev, rst)
        br.hand[s], br.hand[k] = hand[s], hand[k]
        return lw

    kept = sum(term(s) for s in left)
    unk = {s: int(unknown(s).sum()) for s in range(P) if s != me and s not in left}
    terms = {s: term(s) for s in weighed}
    u_all = sum(unk[s] for s in weighed)
    proposed = accepted = 0
    if u_all == 0:
        return kept, 0, 0, sum(terms.values())
    for _ in range(swaps):
        j = int(R.below(cst, u_all))
        for a in weighed:  # the first place: a weighed seat's unknown card
            if j < unk[a]:
                break
            j -= unk[a]
        ca = nth_unknown(a, j)
        others = [s for s in range(P) if s not in (me, a) and s not in left]
        m = n + pile_n + sum(unk[s] for s in others)
        if m == 0:
            continue
        x = int(R.below(cst, m))
        if x < n:  # the second place: the stock, the pile's unlisted cards, another hand
            where, cb = "stock", int(t.stock[x])
        elif x < n + pile_n:
            x -= n
            where, cb = "pile", int(t.disc[x])
        else:
            x -= n + pile_n
            for b in others:
                if x < unk[b]:
                    break
                x -= unk[b]
            where, cb = b, nth_unknown(b, x)
        u = R.uniform(cst)
        if ca == cb:
            continue
        proposed += 1
        hand[a, ca] -= 1
        hand[a, cb] += 1
        if where == "stock":
            t.stock[x] = ca
        elif where == "pile":
            t.disc[x] = ca
        else:
            hand[where, cb] -= 1
            hand[where, ca] += 1
        new = {s: term(s) for s in (a, where) if s in weighed}
        d = sum(new[s] - terms[s] for s in new)
        if d >= 0 or u < math.exp(d):
            accepted += 1
            terms.update(new)
            continue
        hand[a, cb] -= 1
        hand[a, ca] += 1
        if where == "stock":
            t.stock[x] = cb
        elif where == "pile":
            t.disc[x] = cb
        else:
            hand[where, ca] -= 1
            hand[where, cb] += 1
    return kept, proposed, accepted, sum(terms.values())


def _inputs(policies="expert", stock_left=45, reshuffled=False, seen=()):
    rules, _, pol, _, _ = setup(None, policies, 0, ks.Rules(), None)
    t, hand_no, flat, opp, extra, mask, info = _situation(
        CASE["hand"], CASE["card"], 6, 4, 2, stock_left, 0, (), (), seen, rules)
    return rules, pol, rules_vector(rules, hand_no), t, flat, opp, extra


def _hidden(t, pile_n):
    """The hidden cards of table ``t`` as a multiset: the stock, the opponents' hands and the
    pile's ``pile_n`` unlisted cards."""
    n = t.gs[E.GS_STOCK_N]
    return (np.bincount(t.stock[:n], minlength=E.N_CODES) + t.hand[1:4].sum(0)
            + np.bincount(t.disc[:pile_n], minlength=E.N_CODES))


@pytest.mark.parametrize("policies, cover", [("expert", (1, 1, 1, 1)), ("greedy", (1, 1, 1, 1)),
                                             ("expert", (1, 1, 0, 1))])
def test_R6_R9_the_chain_is_its_twin(policies, cover):
    rules, pol, rv, t, flat, opp, extra = _inputs(policies, stock_left=40)
    assert extra > 0  # the pile's unlisted cards are among the places swapped
    ev = engine_events(check_history(EVENTS, 4, ks.to_codes("K♦")[0], 2, rules), 4)
    work = H.ChainWork(np.zeros(4), np.zeros(4, np.int64), np.zeros(2, np.uint64),
                       np.zeros(2, np.uint64))
    hist = H.History(ev, len(ev), True, 30, np.array(cover, np.int64))
    accepted = []
    for i in range(6):
        samp = E.new_table(4, rules.pack_size)
        st = np.array([R.stream_key(11, i, 0, 0, 5), 0], np.uint64)
        B._sample_situation(t, samp, flat, len(flat), opp, extra, st)
        a, b = E.copy_table(samp), E.copy_table(samp)
        bra, brb = E.copy_table(samp), E.copy_table(samp)
        key = np.uint64(R.stream_key(11, i, 0, 0, 0))
        moves = np.zeros(2, np.int64)
        la = H.posterior_chain(rv, pol, a, bra, 0, hist, extra, key, work, moves)
        lb, proposed, acc, moved = posterior_chain(rv, pol, b, brb, 0, ev, len(ev), extra, 30,
                                                   key, cover)
        assert la == pytest.approx(lb) and (moves == (proposed, acc)).all()
        assert (la == 0) == all(cover)  # a seat left weighs by importance, its events say
        for x, y in ((a.hand, b.hand), (a.stock, b.stock), (a.disc, b.disc)):
            assert (x == y).all()
        # no card comes or goes: the hidden cards are the same multiset, hand sizes kept
        assert (_hidden(a, extra) == _hidden(samp, extra)).all()
        assert (a.hand[:4].sum(1) == samp.hand[:4].sum(1)).all()
        assert (a.hand[0] == samp.hand[0]).all()
        # the terms it kept are those of the hands it ends on; a seat left keeps its hand
        total = H.history_logw(rv, pol, E.copy_table(a), 0, ev, len(ev), key,
                               np.zeros(2, np.uint64))
        assert total == pytest.approx(moved + la)
        for s in range(4):
            assert cover[s] or (a.hand[s] == samp.hand[s]).all()
        accepted.append(acc)
    assert 0 < sum(accepted)  # the chain moves


# -- the whole history, read without tempering ---------------------------------------------------

LONG = [(2, "discard", "7♦"), (1, "pass", "7♦"), (1, "draw"), (1, "discard", "7♣"),
        (0, "pass", "7♣"), (0, "draw"), (0, "discard", "8♠"), (3, "pass", "8♠"), (3, "draw"),
        (3, "discard", "9♣"), (2, "pass", "9♣"), (2, "draw"), (2, "discard", "Q♣"),
        (1, "pass", "Q♣"), (1, "draw"), (1, "discard", "7♠")]


def test_R6_R9_a_long_history_is_read_whole_with_every_sample_kept():
    # early enough that every seat discarded once per past turn: the chain moves them all
    kw = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♠", contract=6,
              discarder=1, stock_left=48, policies="expert", seed=4, history=LONG)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no tempering, no warning
        a = ks.advise(**kw, rollouts=200)
    assert a.ess == a.samples == 200 // SAMPLE_ROLLOUTS and a.rollouts == 200  # every sample
    assert a.history_strength == 1.0 and a.fallback == ""
    assert 0.05 < a.acceptance < 0.95 and "accepted" in str(a)
    # the old reading, the same samples weighed instead of moved, keeps a few of them
    rules = ks.Rules()
    sit = ks.situation(**{k: v for k, v in kw.items() if k not in ("policies", "seed")},
                       rules=rules)
    _, _, pol, _, _ = setup(defer_players(4, rules), "expert", 0, rules, None)
    _, logw, _, moves = _block(sit, pol, 4, 0, 200, True, swaps=0)
    w = np.exp(logw - logw.max())
    assert w.sum() ** 2 / (w * w).sum() < 0.5 * 200 and (moves == 0).all()
    # later in the hand the history leaves turns out: those seats keep their past turns and
    # weigh by importance (tempered when that collapses, and said so)
    with pytest.warns(RuntimeWarning, match="tempered"):
        late = ks.advise(**dict(kw, stock_left=40), rollouts=60)
    assert late.history_strength < 1 and late.ess < 60 and np.isnan(late.acceptance)


# -- the belief against the truth ----------------------------------------------------------------

TOL = 0.03  # the calibration target: mean belief within 3 points of the frequency


def _readings(seeds, every, samples, swaps=None):
    """The cells of the expert hands of ``seeds`` (contracts 1-9, every ``every``-th decision
    of seat 0) read three ways: from the posterior, dealt uniformly (no history, no past
    turns), and the posterior read against the wrong seat (each seat's belief against the
    next seat's hand)."""
    rules = ks.Rules()
    _, _, pol, _, _ = setup(defer_players(4, rules), "expert", 0, rules, None)
    pos = positions(seeds, range(1, 10), every=every)
    post = beliefs(pos, pol, rules, samples, swaps=swaps)
    flat = beliefs(pos, pol, rules, samples, history=False, past_turns=False, swaps=0)
    return cells_of(post), cells_of(flat), cells_of(post, shuffle_seats=True)


def _worst(cells):
    """The largest |mean belief - frequency| over the deciles of the belief, less two
    standard errors of the frequency (what a decile's finite count alone explains)."""
    out = []
    for m, f, n in calibration(cells):
        out.append(abs(m - f) - 2 * math.sqrt(max(f * (1 - f), 0.01) / n))
    return max(out)


def test_R6_R9_the_posterior_scores_the_true_hands_above_uniform_dealing():
    # expert hands (the model the history is read with), the hands the seats really held
    post, flat, wrong = _readings(seeds=(1, 2), every=3, samples=40)
    assert len(post[0]) > 2000
    assert log_score(post) > log_score(flat) + 0.005
    # a deliberately wrong reading fails both: the belief of the wrong seat
    assert log_score(wrong) < log_score(flat) - 0.1 and _worst(wrong) > TOL


@pytest.fixture(scope="module")
def many():
    """The readings of every decision of seat 0 in eight expert hands of each contract."""
    return _readings(seeds=range(1, 9), every=1, samples=100)


@pytest.mark.slow
def test_R6_R9_over_many_hands_the_posterior_beats_uniform_and_the_wrong_seat_fails(many):
    post, flat, wrong = many
    assert len(post[0]) > 30_000
    assert log_score(post) > log_score(flat) + 0.01
    assert _worst(wrong) > TOL


@pytest.mark.slow
def test_R6_R9_the_posterior_is_calibrated_decile_by_decile(many):
    # measured (40,768 cells): the lowest decile's mean belief 25.3% against a frequency of
    # 21.2%, the largest gap; 4 sweeps (0.031) or the likelihood before the drawn card and the
    # cheaper discard were read (0.043 on seeds 4-8) fail here
    post, _, _ = many
    assert _worst(post) <= TOL, calibration(post)


def test_R9_the_chain_reaches_the_posterior_the_weights_give_where_they_work():
    # hand 1, the seat next after the discarder passed on the K♦ (R9.1): a model player with a
    # king would have taken it. One event: the importance weights hold up, and the chains at
    # their default length must land on the same belief; a chain too short keeps its start
    rules = ks.Rules()
    _, _, pol, _, _ = setup(defer_players(4, rules), "expert", 0, rules, None)
    sit = ks.situation("K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, discarder=2, rules=rules)
    assert sit.history == ((1, "pass", "K♦"),)

    def king(swaps):
        _, logw, ranks, _ = _block(sit, pol, 9, 0, 1500, True, swaps=swaps, reuse=1)
        w = np.exp(logw - logw.max())
        return float(w @ (ranks[:, 3, 12] >= 1) / w.sum())  # seat 1 is engine seat 3

    weighed, chained, short = king(0), king(None), king(10)
    assert weighed < 0.2  # uniform dealing gives a king to 4 hands in 10
    assert abs(chained - weighed) < 0.04 and short > weighed + 0.06


def test_C3_the_chains_give_the_same_advice_on_any_number_of_threads():
    h = [(3, "discard", "9♣"), (0, "pass", "9♣"), (1, "discard", "7♣"), (2, "pass", "7♣"),
         (2, "discard", "K♦")]
    kw = dict(discarder=2, history=h, rollouts=80, seed=4)
    one = ks.advise("K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, threads=1, **kw)
    two = ks.advise("K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, threads=2, **kw)
    assert one.difference == two.difference and one.acceptance == two.acceptance
    assert one.sampled_ranks.equals(two.sampled_ranks) and 0 < one.acceptance < 1


# -- a sample played on stock orders of its own ---------------------------------------------------

def _long_case():
    kw = dict(hand="K♠ K♥ 7♦ 7♣ 2♥ 3♥ 5♥ 9♠ 10♠ J♦ Q♦ 4♣ 8♠", card="7♠", contract=6,
              discarder=1, stock_left=48, history=LONG)
    rules = ks.Rules()
    _, _, pol, _, _ = setup(defer_players(4, rules), "expert", 0, rules, None)
    return kw, ks.situation(**kw, rules=rules), pol


def test_C3_a_chains_sample_is_played_on_stock_orders_of_its_own():
    """With a chain, rollout ``i`` plays sample ``i // reuse`` (its reading: ranks, weight,
    moves) on its own stock order: the sample is the one rollout ``i // reuse`` reads alone,
    the play differs within a sample, and any split of the rollouts gives the same ones."""
    _, sit, pol = _long_case()
    r = SAMPLE_ROLLOUTS
    res, logw, ranks, moves = _block(sit, pol, 4, 0, 4 * r, True)
    assert (ranks.reshape(4, r, *ranks.shape[1:]) == ranks[::r][:, None]).all()
    assert (moves.reshape(4, r, 2) == moves[::r][:, None]).all() and (logw == 0).all()
    alone = _block(sit, pol, 4, 0, 4, True, reuse=1)  # sample k, read as rollout k
    assert (alone[2] == ranks[::r]).all() and (alone[3] == moves[::r]).all()
    assert all(len({tuple(x) for x in res[k * r:(k + 1) * r]}) > 1 for k in range(4))
    split = [_block(sit, pol, 4, a, b - a, True) for a, b in ((0, 3), (3, 17), (17, 4 * r))]
    joined = [np.concatenate(x) for x in zip(*split, strict=True)]
    for got, want in zip(joined, (res, logw, ranks, moves), strict=True):
        assert (got == want).all()


def test_R6_a_sample_played_on_many_stock_orders_gives_the_same_answer():
    """Unbiased: the mean paired difference over reused samples agrees with one sample a
    rollout (within four standard errors of their difference, each counted by samples)."""
    _, sit, pol = _long_case()
    n = 2000
    res10, lw10, _, _ = _block(sit, pol, 5, 0, n, True)
    res1, _, _, _ = _block(sit, pol, 6, 0, n // 4, True, reuse=1)
    s10, _ = per_sample(res10, lw10, SAMPLE_ROLLOUTS)
    d10, d1 = s10[:, 4] - s10[:, 9], res1[:, 4] - res1[:, 9]
    se = math.sqrt(d10.var(ddof=1) / len(d10) + d1.var(ddof=1) / len(d1))
    assert abs(d10.mean() - d1.mean()) < 4 * se


def test_the_answers_interval_counts_samples_not_rollouts():
    """``advise`` reads its rollouts by sample (the rollouts of one sample share its hidden
    hands): its interval is the t interval of the samples' mean differences, and it says
    how many samples and rollouts it played."""
    kw, sit, pol = _long_case()
    a = ks.advise(**kw, policies="expert", seed=4, rollouts=250)
    res, logw, _, _ = _block(sit, pol, 4, 0, 250, True)
    s, _ = per_sample(res, logw, SAMPLE_ROLLOUTS)
    m, lo, hi, _ = t_interval(s[:, 4] - s[:, 9])
    assert a.difference["relative"] == pytest.approx(m)
    assert (a.difference["relative_lo"], a.difference["relative_hi"]) == pytest.approx((lo, hi))
    assert a.samples == 25 and a.rollouts == 250
    assert "of 25 samples (250 rollouts, 10 on each)" in str(a)
    plain = ks.advise(**dict(kw, history=None), policies="expert", seed=4, rollouts=250)
    assert plain.samples == plain.rollouts == 250  # no chain: a sample a rollout
    # a last sample with fewer rollouts is said so; fewer than 2 samples give no interval
    b = ks.advise(**kw, policies="expert", seed=4, rollouts=25)
    assert b.samples == 3 and "of 3 samples (25 rollouts, 10 on each, the last 5)" in str(b)
    for f in (ks.advise, ks.advise_discard):
        args = dict(kw) if f is ks.advise else dict(  # passed on the card, drew A♣
            hand=kw["hand"] + " A♣", contract=kw["contract"], history=kw["history"],
            stock_left=kw["stock_left"] - 1)
        with pytest.raises(ValueError, match=r"rollouts=15 is not allowed here: .* played on "
                                             r"10 rollouts.* give rollouts=20 or more"):
            f(**args, policies="expert", seed=4, rollouts=15)
