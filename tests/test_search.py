"""The search player (issue 19): takes and calls (R9) decided by paired rollouts from what the
seat knows; legal, refereed, deterministic, blind to the hidden cards of the deal."""

import dataclasses

import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import search as S
from kalooki_sim.engine.play import rules_vector
from kalooki_sim.engine.policies import policy_matrix
from kalooki_sim.game.referee import check

FAST = dataclasses.replace(ks.preset("search"), name="search-8", rollouts=8)


def test_search_preset_is_expert_elsewhere_and_validates_its_fields():
    s, e = ks.preset("search"), ks.preset("expert")
    # a budget the sequential rule can look at three times (issue 29: 96 since 2026-12-03)
    assert s.search and s.model == "expert" and s.margin == 0 and 24 <= s.rollouts <= 128
    assert s.objective == "relative" and not s.screen  # every take and call (issue 29)
    # every field but the search ones is the expert's (it plays as expert off R9's offers)
    same = [f.name for f in dataclasses.fields(e)
            if f.name not in ("name", "search", "rollouts", "margin", "model", "screen",
                              "objective")]
    assert all(getattr(s, f) == getattr(e, f) for f in same)
    assert "search" in ks.engine.policies.PRESETS
    v = s.vector()
    assert v[E.P_SEARCH] == s.rollouts and e.vector()[E.P_SEARCH] == 0
    assert policy_matrix([s, e, e, e]).shape == (8, E.NPARAM)
    assert policy_matrix([e] * 4).shape == (4, E.NPARAM)


@pytest.mark.parametrize("kwargs, err, msg", [
    (dict(search=True, model="search"), ValueError, "model='search'"),
    (dict(search=True, model="nobody"), ValueError, "unknown policy"),
    (dict(search=True, rollouts=1), ValueError, "rollouts=1"),
    (dict(search=True, margin=-1), ValueError, "margin=-1"),
    (dict(search=1), TypeError, "search=1"),
    (dict(search=True, objective="win"), ValueError, "objective='win'"),
])
def test_search_policy_bad_fields_are_clear_errors(kwargs, err, msg):
    with pytest.raises(err, match=msg):
        ks.Policy("s", **kwargs)


def test_search_is_refused_where_it_cannot_search():
    with pytest.raises(ValueError, match="tuluki"):
        ks.play_hands(1, hand=1, policies=["search", "expert"],
                      rules=ks.Rules(players=2, tuluki=True))
    with pytest.raises(ValueError, match="not allowed in advise"):
        ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=1, policies="search")


def test_R9_search_seat_games_pass_the_referee_and_match_their_traces():
    """R1-R14 re-checked move by move on hands with a search seat; the trace (one hand at a
    time, logged) plays the same hands as play_hands (blocks over threads), C3."""
    # the preset's searcher (every take and call) and the screened one (screen=True)
    screened = dataclasses.replace(FAST, name="search-8-screened", screen=True)
    for searcher in (FAST, screened):
        pols = [searcher, "expert", "greedy", "expert"]
        for hand in (1, 6):
            df = ks.play_hands(3, hand=hand, policies=pols, seed=30 + hand, voids=True)
            for game in range(3):
                t = ks.trace(30 + hand, game=game, hand=hand, policies=pols)
                assert check(t.records, t.rules, df[df["game"] == game]) >= 1


def test_C3_search_is_the_same_on_one_and_two_threads():
    pols = [FAST, "expert", "expert", "expert"]
    a = ks.play_hands(6, hand=2, policies=pols, seed=8, threads=1)
    b = ks.play_hands(6, hand=2, policies=pols, seed=8, threads=2)
    assert a.equals(b)


def _takes_and_calls(trace, seat):
    return sum(r["event"] in ("take", "call") and r["seat"] == seat for r in trace.records)


def test_R9_undecided_rollouts_keep_the_experts_own_answer():
    """Issue 29: a search seat acts only when its rollouts decide acting is better (by more
    than the margin), passes when they decide passing is, and otherwise answers as the expert.
    With a margin no mean can clear it never acts on the rollouts' word, so each of its takes
    and calls is the expert's own answer at that offer (the dry run's); with margin 0 it
    follows its rollouts where they decide (a twin of the rule) and the expert elsewhere."""
    never = dataclasses.replace(FAST, name="search-never", margin=10_000.0)
    rules = ks.Rules()
    rv = rules_vector(rules, 1)
    sw = S.new_search_ws(4, rules.pack_size)
    kept = decided = 0
    wide = dataclasses.replace(FAST, name="search-48", rollouts=48)
    for game in range(6):
        for pol_s in (never, wide):
            ex = ks.preset("expert")
            pol = policy_matrix([pol_s, ex, ex, ex])
            expert = policy_matrix([ex] * 4)
            t = E.new_table(4, rules.pack_size)
            E.start_hand(rv, t, E.Deal(3, game, 1, 0, int(E.first_dealer(3, game, 4))))
            while True:
                gs = t[2]
                # seat 0 is next (R9.1): its take is asked first, with nobody before it
                if gs[E.GS_LIVE] == 1 and t[1][0, E.PS_OPENED] == 0 and gs[E.GS_CUR] == 0:
                    c = E.copy_table(t)  # the expert's own answer, nobody forced
                    E.one_turn(rv, expert, c)
                    own = c[2][E.GS_TAKEN_BY] == 0
                    S.search_offers(rv, pol, t, sw)
                    acts = bool(gs[E.GS_FORCE_ACTS] & 1)
                    if pol_s is never:
                        assert not acts or own  # never acts against the expert's pass
                        kept += acts == own
                    elif S.brings_closer(rv, pol, t, 0):
                        v = S.rollout_decision(rv, pol, t, sw, 0, 1)
                        assert acts == (v < 0 or (v == 0 and own))
                        decided += v != 0
                if E.one_turn(rv, pol, t):
                    break
    assert kept > 0 and decided > 0


def test_the_search_stopping_rule_is_its_twin():
    """:func:`search.seq_verdict` against a plain-Python twin with Student's t quantile: the
    same verdict on random sums, and a bound within 1% of t's from 7 degrees of freedom."""
    from scipy import stats

    z = S.Z_LOOK
    assert z == pytest.approx(stats.norm.ppf(1 - 0.05 / (2 * S.SEARCH_LOOKS)), abs=1e-5)
    def bound(df):
        return stats.t.ppf(1 - 0.05 / (2 * S.SEARCH_LOOKS), df)

    for df in (7, 10, 30, 100):
        approx = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
        assert approx == pytest.approx(bound(df), rel=0.01)

    def twin(total, total2, m, looks, margin):
        if m < S.SEARCH_MIN:
            return 0
        mean = total / m
        var = (total2 - m * mean ** 2) / (m - 1)
        crit = bound(m - 1)
        t = (mean / np.sqrt(var / m) if var > 0 else
             0.0 if mean == 0 else np.copysign(np.inf, mean))
        return -1 if (t < -crit and mean < -margin) else 1 if t > crit else 0

    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(400):
        m = int(rng.integers(1, 60))
        d = rng.normal(rng.normal(0, 8), 10, size=m)
        args = (float(d.sum()), float((d * d).sum()), m, S.SEARCH_LOOKS,
                float(rng.choice([0.0, 3.0])))
        v = S.seq_verdict(*args)
        if v != twin(*args):  # only where t sits between the two bounds (within 1%)
            mean, sd = args[0] / m, np.sqrt((args[1] - m * (args[0] / m) ** 2) / (m - 1))
            assert abs(abs(mean / (sd / np.sqrt(m))) / bound(m - 1) - 1) < 0.01
        seen.add(v)
    assert seen == {-1, 0, 1}


# -- it never reads the hidden cards ----------------------------------------------------------


def _offer_table(seed, hand_no, pol, rv, pack):
    """A table just before a turn of seat 0 (unopened) that offers it the discard, with some
    cards of an opponent known (taken or called, R9)."""
    for game in range(50):
        t = E.new_table(4, pack)
        E.start_hand(rv, t, E.Deal(seed, game, hand_no, 0, int(E.first_dealer(seed, game, 4))))
        while True:
            hand, ps, gs = t[0], t[1], t[2]
            known = hand[E._known_row(hand, 0) + 1:].sum()
            if (gs[E.GS_LIVE] == 1 and gs[E.GS_CUR] == 0 and ps[0, E.PS_OPENED] == 0
                    and ps[1, E.PS_OPENED] == 0 and known > 0 and gs[E.GS_TURNS] >= 6):
                return t
            if E.one_turn(rv, pol, t):
                break
    raise AssertionError("no such offer")


def _deal_hidden_again(t, seat, rng):
    """A copy of ``t`` whose cards ``seat`` cannot see (the stock, in a new order, and the
    opponents' cards not known to the table) are dealt again at random, hand sizes kept."""
    u = E.copy_table(t)
    hand, stock, n = u[0], u[3], int(u[2][E.GS_STOCK_N])
    pool, sizes = list(stock[:n]), {}
    for p in range(4):
        if p == seat:
            continue
        h = hand[p] - hand[E._known_row(hand, p)]
        sizes[p] = int(h.sum())
        pool += [c for c in range(E.N_CODES) for _ in range(h[c])]
        hand[p] -= h
    pool = rng.permutation(np.array(pool))
    for p, k in sizes.items():
        np.add.at(hand[p], pool[:k], 1)
        pool = pool[k:]
    stock[:n] = pool
    return u


@pytest.mark.parametrize("seat", [0, 1])
def test_search_decision_never_reads_the_hidden_cards(seat):
    """Two tables differing only in cards the seat cannot see give the same rollout value and
    the same decision, exactly; a change in its own hand changes the value (the test bites).
    Seat 0 is offered the take (R9.1), seat 1 the call once seat 0 passes (R9.2)."""
    rules = ks.Rules()
    rv = rules_vector(rules, 2)
    pol = policy_matrix([FAST] * 4)
    t = _offer_table(5, 2, pol, rv, rules.pack_size)
    sw = S.new_search_ws(4, rules.pack_size)
    ask = 1 if seat == 0 else 3
    u = _deal_hidden_again(t, seat, np.random.default_rng(seat))
    others = [p for p in range(4) if p != seat]
    assert not np.array_equal(t[0][others], u[0][others])  # the hidden cards did move
    assert np.array_equal(t[0][seat], u[0][seat])
    v_t = S.rollout_value(rv, pol, t, sw, seat, ask)
    v_u = S.rollout_value(rv, pol, u, sw, seat, ask)
    assert v_t == v_u
    if seat == 0:  # the whole offer: the dry run, then the forced answer
        for x in (t, u):
            S.search_offers(rv, pol, x, sw)
        assert t[2][E.GS_FORCE_MASK] & 1 and u[2][E.GS_FORCE_MASK] & 1
        assert (t[2][E.GS_FORCE_ACTS] & 1) == (u[2][E.GS_FORCE_ACTS] & 1)
    # its own cards are its knowledge: swap one with a stock card and the value moves
    w = E.copy_table(t)
    mine = int(np.flatnonzero(w[0][seat])[0])
    top = int(w[3][int(w[2][E.GS_STOCK_N]) - 1])
    if top != mine:
        w[0][seat, mine] -= 1
        w[0][seat, top] += 1
        w[3][int(w[2][E.GS_STOCK_N]) - 1] = mine
        assert S.rollout_value(rv, pol, w, sw, seat, ask) != v_t


def test_tournament_search_against_three_experts_runs():
    t, p = ks.tournament([FAST, "expert", "expert", "expert"], games=2, seed=4, paired=True)
    t = t.set_index("policy")
    assert list(t.index) == ["expert", "search-8"] and t.loc["search-8", "seats"] == 1
    assert (t["win_share"] * t["seats"]).sum() == pytest.approx(1.0)
