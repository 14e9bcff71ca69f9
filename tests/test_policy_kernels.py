"""The policies' compiled helpers against plain-Python twins."""

import numpy as np
from conftest import random_hand

import kalooki_sim as ks
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import memo as MEMO
from kalooki_sim.engine._kernels import reading as RD
from kalooki_sim.engine._kernels.needed import new_workspace as needed_workspace
from kalooki_sim.game.cards import JOKER, PENALTY


def need_twin(row, g, r):
    """Readable twin of engine.need."""
    ranks = sorted(max(0, 3 - sum(row[s * 13 + k - 1] for s in range(4))) for k in range(1, 14))
    runs = []
    for s in range(4):
        best = 4
        for lo in range(1, 12):
            have = sum(row[s * 13 + (0 if p == 14 else p - 1)] > 0 for p in range(lo, lo + 4))
            best = min(best, 4 - have)
        runs.append(best)
    return max(0, sum(ranks[:g]) + sum(sorted(runs)[:r]) - row[JOKER])


def _row(codes):
    row = np.zeros(53, np.int64)
    for c in codes:
        row[c] += 1
    return row


def test_need_matches_twin_and_is_zero_whenever_the_hand_can_open():
    rng = np.random.default_rng(3)
    rules = ks.Rules()
    opened = 0
    for i in range(3000):
        contract = i % 9 + 1
        g, r = rules.contract(contract)
        codes = random_hand(rng, int(rng.integers(9, 23)), joker_rich=i % 4 == 0)
        row = _row(codes)
        n = E.need(row, g, r)
        assert n == need_twin(row, g, r)
        if ks.solve_opening(codes, contract) is not None:
            opened += 1
            assert n == 0, ks.parse_cards(codes)
    assert opened > 50


def test_unopened_discard_is_the_costliest_card_needed_least():
    rng = np.random.default_rng(4)
    rules = ks.Rules()
    pol = np.zeros((1, E.NPARAM))
    ps = np.zeros((1, E.PS_COLS), np.int64)
    gs = np.zeros(E.GS_COLS, np.int64)
    melds = np.zeros((4, 8), np.int64)
    pw = E.Count(np.zeros((4, 14), np.int64), *needed_workspace())
    for i in range(2000):
        contract = i % 9 + 1
        rv = np.zeros(E.R_COLS, np.int64)
        rv[E.R_GROUPS], rv[E.R_RUNS] = rules.contract(contract)
        codes = random_hand(rng, int(rng.integers(9, 20)), joker_rich=i % 5 == 0)
        hand = _row(codes)[None, :]
        got = E._choose_discard(0, hand, ps, gs, melds, rv, pol, np.zeros(2, np.uint64), pw)
        cands = [c for c in range(52) if hand[0, c] > 0]
        if not cands:
            assert got == -1
            continue

        def key(c, hand=hand, rv=rv):
            row = hand[0].copy()
            row[c] -= 1
            return (need_twin(row, rv[E.R_GROUPS], rv[E.R_RUNS]), -PENALTY[c], c)

        assert got == min(cands, key=key)


def four_seats():
    """The default rules, four seats, a needed-count workspace ``pw`` and the rules vector
    (contract fields left for the caller): what the seat kernels are called with."""
    rules = ks.Rules()
    P = 4
    pw = E.Count(np.zeros((4, 14), np.int64), *needed_workspace())
    rv = np.zeros(E.R_COLS, np.int64)
    rv[E.R_PLAYERS], rv[E.R_DECKS], rv[E.R_JOKERS] = P, rules.decks, rules.jokers
    return rules, P, pw, rv


def test_outs_discard_keeps_the_count_then_most_live_outs_then_penalty():
    """``Policy(outs=w)``: among the discards that leave the fewest cards needed, the highest
    penalty + w x live outs (copies still to come, less those known in another hand, of each
    card that cuts the count), against a twin built on ``ks.outs``' counts."""
    rng = np.random.default_rng(17)
    rules, P, pw, rv = four_seats()
    checked = 0
    for i in range(300):
        contract = (4, 5, 9, 1, 2, 7)[i % 6]
        rv[E.R_GROUPS], rv[E.R_RUNS] = rules.contract(contract)
        w = (1000.0, 0.01, 1.0)[i % 3]
        pol = np.zeros((P, E.NPARAM))
        pol[:, E.P_EXACT] = 1.0
        pol[:, E.P_OUTS] = w
        pol[:, E.P_OUTS_MIXED] = 1.0
        codes = random_hand(rng, 12, joker_rich=i % 7 == 0)
        hand = np.zeros((2 * P + 4, 53), np.int64)
        hand[0] = _row(codes)
        known = int(rng.integers(0, 52))  # a card seat 2 is known to hold
        hand[RD._known_row(hand, 2), known] = 1
        ps = np.zeros((P, E.PS_COLS), np.int64)
        ps[:, E.PS_NC_VAL0] = ps[:, E.PS_NC_VAL1] = -1
        got = E._choose_discard(0, hand, ps, np.zeros(E.GS_COLS, np.int64),
                                np.zeros((4, 8), np.int64), rv, pol, np.zeros(2, np.uint64), pw)
        cands = [c for c in range(52) if hand[0, c] > 0]
        if not cands:
            continue
        now = int(RD._needed(0, hand, rv, pol, pw))
        if now >= 1000:  # table.NO_WAY_RANK: no way to lay it
            continue

        def after(c, hand=hand, rv=rv, pol=pol):
            hand[0, c] -= 1
            n = int(RD._needed(0, hand, rv, pol, pw))
            hand[0, c] += 1
            return n

        least = min(after(c) for c in cands)
        av = np.zeros(53, np.int64)
        RD._avail(0, hand, rv, av)

        def score(c, hand=hand, rv=rv, pol=pol, av=av, least=least, w=w):
            hand[0, c] -= 1
            o = 0
            for x in range(53):
                a = av[x] - hand[RD._known_row(hand, 2), x]
                if a > 0 and least > 0:
                    hand[0, x] += 1
                    o += a if RD._needed(0, hand, rv, pol, pw) < least else 0
                    hand[0, x] -= 1
            hand[0, c] += 1
            return PENALTY[c] + w * o

        best = max(score(c) for c in cands if after(c) == least)
        assert after(got) == least
        assert np.isclose(score(got), best), (i, got)
        checked += 1
    assert checked > 250


def test_outs_mixed_off_weighs_outs_only_in_one_kind_contracts():
    """``Policy(outs_mixed=False)`` (the expert preset): in contracts of groups and runs the
    discard is the one without outs; in all-group and all-run ones, the one with them."""
    rng = np.random.default_rng(18)
    rules, P, pw, rv = four_seats()
    differ = {True: 0, False: 0}
    for i in range(400):
        contract = i % 9 + 1
        g, r = rules.contract(contract)
        rv[E.R_GROUPS], rv[E.R_RUNS] = g, r
        codes = random_hand(rng, 12, joker_rich=i % 7 == 0)

        def choice(outs, mixed, codes=codes):
            pol = np.zeros((P, E.NPARAM))
            pol[:, E.P_EXACT] = 1.0
            pol[:, E.P_OUTS] = outs
            pol[:, E.P_OUTS_MIXED] = mixed
            hand = np.zeros((2 * P + 4, 53), np.int64)
            hand[0] = _row(codes)
            ps = np.zeros((P, E.PS_COLS), np.int64)
            ps[:, E.PS_NC_VAL0] = ps[:, E.PS_NC_VAL1] = -1
            return E._choose_discard(0, hand, ps, np.zeros(E.GS_COLS, np.int64),
                                     np.zeros((4, 8), np.int64), rv, pol,
                                     np.zeros(2, np.uint64), pw)

        off = choice(1000.0, 0.0)
        one_kind = g == 0 or r == 0
        assert off == choice(1000.0 if one_kind else 0.0, 1.0), (i, contract)
        differ[one_kind] += off != choice(0.0, 0.0)
    assert differ[True] > 20 and differ[False] == 0


def test_outs_mixed_is_a_checked_policy_field_in_the_kernels_vector():
    assert ks.Policy(outs=2, outs_mixed=False).vector()[E.P_OUTS_MIXED] == 0.0
    assert ks.Policy().vector()[E.P_OUTS_MIXED] == 1.0
    assert ks.preset("expert").outs_mixed is False and ks.preset("expert").outs == 1000
    try:
        ks.Policy(outs_mixed=1)
    except TypeError as e:
        assert "outs_mixed=1" in str(e)
    else:
        raise AssertionError("outs_mixed=1 was accepted")


def test_need_with_is_need_before_and_after_one_more_card():
    """``reading.need_with`` (one pass for a greedy seat's offer) against two calls of the
    quick bound, for every card that could be offered (R3, R4)."""
    rng = np.random.default_rng(8)
    rules = ks.Rules()
    for i in range(400):
        g, r = rules.contract(i % 9 + 1)
        row = _row(random_hand(rng, int(rng.integers(9, 20)), joker_rich=i % 5 == 0))
        for c in range(53):
            plus = row.copy()
            plus[c] += 1
            assert RD.need_with(row, g, r, c) == (E.need(row, g, r), E.need(plus, g, r)), (i, c)


def test_may_meld_false_only_when_the_solver_finds_no_further_meld():
    """An opened seat's further melds (R5, R7): where ``reading._may_meld`` says no rank or
    suit it does not own could make a meld, the solver with no contract lays nothing; and it
    says yes on hands where the solver does lay one (so the check is not always-true)."""
    rng = np.random.default_rng(9)
    t = E.new_table(4, 108)
    cnt = t.count.cnt
    skipped = laid = 0
    for i in range(3000):
        row = _row(random_hand(rng, int(rng.integers(5, 13)), joker_rich=i % 4 == 0))
        ban_r = int(rng.integers(0, 1 << 14)) & ~1 if i % 2 else 0
        ban_s = int(rng.integers(0, 16)) if i % 3 else 0
        v, _ = RD._solve_seat(row, 0, 0, False, ban_r, ban_s, cnt, t.solve)
        if not RD._may_meld(row, ban_r, ban_s):
            skipped += 1
            assert v <= 0, (ks.parse_cards([c for c in range(53) for _ in range(row[c])]),
                            ban_r, ban_s, v)
        elif v > 0:
            laid += 1
    assert skipped > 300 and laid > 300


def test_memo_floor_of_the_same_hand_only_while_cards_only_die():
    """The expert's count memo keeps its last count as a floor for the same hand (dead cards
    only grow in a hand, and a dead card never lowers a count): after cards die the memo's
    count is the fresh one; after the hand changes, or once a dead card comes back to a hand
    (a take from the pile after R13's reshuffle), no floor is used."""
    rng = np.random.default_rng(23)
    rules, P, pw, rv = four_seats()
    pol = np.zeros((P, E.NPARAM))
    pol[:, E.P_EXACT] = 1.0
    sr = RD._seen_row(np.zeros((2 * P + 4, 53)))
    floors = rises = drops = 0
    for i in range(150):
        rv[E.R_GROUPS], rv[E.R_RUNS] = rules.contract(1 + i % 9)
        hand = np.zeros((2 * P + 4, 53), np.int64)
        hand[0] = _row(random_hand(rng, 12))
        ps = np.zeros((P, E.PS_COLS), np.int64)
        ps[:, E.PS_NC_VAL0] = ps[:, E.PS_NC_VAL1] = ps[:, E.PS_NC_HVAL] = -1
        before = MEMO._needed_memo(0, hand, ps, rv, pol, pw)
        for step in range(4):
            if step == 2:  # a card more in the hand: its count may drop, no floor holds
                x = int(rng.integers(52))
                if hand[0, x] + hand[sr, x] < rules.decks:
                    hand[0, x] += 1
            else:  # cards the hand could use die (melded by others), every copy left
                held = np.flatnonzero(hand[0, :52])
                for c in rng.choice(held, min(8, len(held)), replace=False):
                    x = (c // 13) * 13 + (c % 13 + int(rng.choice([-2, -1, 1, 2]))) % 13
                    y = (c + 13 * int(rng.integers(1, 4))) % 52  # the same rank
                    for z in (x, y):
                        hand[sr, z] = rules.decks - hand[0, z]
            floors += int(MEMO._floor_of(0, ps, MEMO._hand_key(0, hand)) > 0)
            got = MEMO._needed_memo(0, hand, ps, rv, pol, pw)
            fresh = RD._needed(0, hand, rv, pol, pw)
            assert got == fresh, (i, step)
            rises += int(step != 2 and fresh > before)
            drops += int(fresh < before)
            before = fresh
        gs = np.zeros(E.GS_COLS, np.int64)
        gs[E.GS_RESHUFFLED], gs[E.GS_DISC_N] = 1, 1
        x = int(np.flatnonzero(hand[sr, :52])[0]) if hand[sr, :52].any() else 0
        hand[sr, x] = max(hand[sr, x], 1)
        RD._from_pile(1, x, hand, ps, gs)  # a dead card back to a hand
        assert (ps[:, E.PS_NC_HVAL] == -1).all()
        assert MEMO._floor_of(0, ps, MEMO._hand_key(0, hand)) == 0
    assert floors > 200 and rises > 10 and drops > 5


def test_state_key_is_one_per_hand_and_dead_cards_and_hand_key_ignores_the_dead():
    """The memos' keys (issue 27): the same hand and dead cards give the same key, any other
    pair a different one (checked on every hand one card on, off or dead from a few random
    ones, where a sum of weights could collide); the hand key moves with the hand alone."""
    rng = np.random.default_rng(31)
    P = 4
    sr = RD._seen_row(np.zeros((2 * P + 4, 53)))
    states, hands = {}, {}
    for _ in range(40):
        base = np.zeros((2 * P + 4, 53), np.int64)
        base[1] = _row(random_hand(rng, 12))
        base[sr, rng.choice(52, 10, replace=False)] = 1
        variants = [base]
        for c in range(53):
            for row, d in ((1, 1), (1, -1), (sr, 1)):
                if base[row, c] + d >= 0:
                    v = base.copy()
                    v[row, c] += d
                    variants.append(v)
        for v in variants:
            state = (v[1].tobytes(), v[sr].tobytes())
            k = int(MEMO._state_key(1, v))
            assert states.setdefault(k, state) == state
            assert k == int(MEMO._state_key(1, v.copy())) and 0 <= k < 2 ** 62
            hk = int(MEMO._hand_key(1, v))
            assert hands.setdefault(hk, v[1].tobytes()) == v[1].tobytes()
    assert len(states) > 40 * 100 and len(hands) > 40 * 60


def _slow_key(seat, hand, dead_weight):
    """Slow twin of ``reading._row_key``: (seat + sum of (held + weight x dead) x the code's
    weight) mod 2**64, mixed by the streams' splitmix, top 62 bits."""
    from kalooki_sim.engine._kernels import rng as R

    weights = [int(w) for w in MEMO._key_weights(53)]
    dead = hand[RD._seen_row(hand)]
    k = seat
    for c in range(53):
        k = (k + (int(hand[seat, c]) + dead_weight * int(dead[c])) * weights[c]) % 2 ** 64
    with np.errstate(over="ignore"):  # uint64 products wrap, as in the kernel
        return int(getattr(R._splitmix, "py_func", R._splitmix)(np.uint64(k))) >> 2


def test_memo_keys_from_the_sums_are_the_keys_of_the_hand_one_card_on_or_off():
    """A decision's keys come from one pass over its hand (issue 27, ``_row_sums``): the hand's
    and, moved by one card's weight (``_sums_moved``), the hand one card on or off, with the
    dead cards (``_state_of``) or without (``_mix_key``). Each must be the key of that hand
    counted afresh, and the slow twin's (the documented sum, mixed)."""
    rng = np.random.default_rng(41)
    P = 4
    sr = RD._seen_row(np.zeros((2 * P + 4, 53)))
    checked = 0
    for _ in range(20):
        base = np.zeros((2 * P + 4, 53), np.int64)
        base[2] = _row(random_hand(rng, 13))
        base[sr, rng.choice(52, 12, replace=False)] = 1
        hs, ds = (np.uint64(x) for x in MEMO._row_sums(2, base))  # as the kernels hold them
        assert (int(MEMO._state_of(hs, ds)) == int(MEMO._state_key(2, base))
                == _slow_key(2, base, 16))
        assert int(MEMO._mix_key(hs)) == int(MEMO._hand_key(2, base)) == _slow_key(2, base, 0)
        for c in range(53):
            for d in (1, -1):
                if base[2, c] + d < 0:
                    continue
                v = base.copy()
                v[2, c] += d
                moved = np.uint64(MEMO._sums_moved(hs, c, d))
                assert int(MEMO._state_of(moved, ds)) == int(MEMO._state_key(2, v)), (c, d)
                assert int(MEMO._mix_key(moved)) == int(MEMO._hand_key(2, v)) == _slow_key(2, v, 0)
                checked += 1
    assert checked > 20 * 60


def test_plan_discard_lets_go_the_first_card_its_plan_frees_and_keeps_the_count():
    """``Policy(plan_discard=True)`` (issue 27), before opening in contracts of groups and
    runs: the discard keeps the count whenever some card does (R3-R5); it is a card the
    seat's plan leaves free at the count (``plus.plan_cost`` of the hand less it) whenever
    the plan frees any; and where the first card that keeps the count by any plan (the
    preset's discard) is one the plan frees, both discards are that card. The counts' twin
    is ``_needed`` of the hand less each card."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as NP

    rng = np.random.default_rng(52)
    rules, P, pw, rv = four_seats()
    seen = {"plan": 0, "same": 0, "differ": 0, "none": 0}
    for i in range(300):
        contract = (2, 3, 6, 7, 8)[i % 5]
        g, r = rules.contract(contract)
        rv[E.R_GROUPS], rv[E.R_RUNS] = g, r
        hand = np.zeros((2 * P + 4, 53), np.int64)
        hand[0] = _row(random_hand(rng, rules.deal(contract)[0] + 1, joker_rich=i % 7 == 0))

        def choice(plan, hand=hand):
            pol = np.zeros((P, E.NPARAM))
            pol[:, E.P_EXACT] = 1.0
            pol[:, E.P_PLAN_DISCARD] = plan
            ps = np.zeros((P, E.PS_COLS), np.int64)
            ps[:, E.PS_NC_VAL0] = ps[:, E.PS_NC_VAL1] = ps[:, E.PS_NC_HVAL] = -1
            NP.clear_plans(pw[2])
            now = int(RD._needed(0, hand, rv, pol, pw))  # the search keeps its leaf: the plan
            plan_row = pw[2][nk.W_PLANS:nk.W_PLANS + 20].copy()
            got = E._choose_discard(0, hand, ps, np.zeros(E.GS_COLS, np.int64),
                                    np.zeros((4, 8), np.int64), rv, pol,
                                    np.zeros(2, np.uint64), pw)
            return got, now, plan_row, pol

        got, now, plan_row, pol = choice(1.0)
        exact, _, _, _ = choice(0.0)
        if now == 0 or now >= 1000:
            continue

        def after(c, pol=pol, hand=hand):
            hand[0, c] -= 1
            n = int(RD._needed(0, hand, rv, pol, pw))
            hand[0, c] += 1
            return n

        def plan_frees(c, hand=hand, plan_row=plan_row, now=now, g=g, r=r):
            pw[2][nk.W_PLANS:nk.W_PLANS + 20] = plan_row
            hand[0, c] -= 1
            av = np.zeros(53, np.int64)
            RD._avail(0, hand, rv, av)
            j = RD._fill_counts(hand[0], pw[0])
            pc = NP.plan_cost(pw[0], j, g, r, av, pw[2], nk.W_PLANS, now)
            hand[0, c] += 1
            return pc <= now

        cands = [c for c in range(52) if hand[0, c] > 0]
        keeps = [c for c in cands if after(c) == now]
        assert (after(got) == now) == bool(keeps), (i, got)
        free = [c for c in cands if plan_frees(c)]
        assert set(free) <= set(keeps), i  # a plan's cost is never below the count
        if free:
            seen["plan"] += 1
            assert got in free, (i, got, free)
            if exact in free:
                assert got == exact, (i, got, exact)
        else:
            seen["none"] += 1
            assert got == exact, (i, got, exact)
        seen["same" if got == exact else "differ"] += 1
    assert seen["plan"] > 150 and seen["differ"] > 10 and seen["same"] > 50, seen


def test_plan_discard_is_a_checked_policy_field_in_the_kernels_vector():
    assert ks.Policy(exact=True, plan_discard=True).vector()[E.P_PLAN_DISCARD] == 1.0
    assert ks.Policy().vector()[E.P_PLAN_DISCARD] == 0.0
    assert ks.preset("expert").plan_discard is True and ks.preset("search").plan_discard
    try:
        ks.Policy(plan_discard="yes")
    except TypeError as e:
        assert "plan_discard='yes'" in str(e)
    else:
        raise AssertionError("plan_discard='yes' was accepted")


def test_plan_discard_plays_the_same_on_one_or_two_threads_and_after_other_hands():
    """A seat's plan steers its discards with ``plan_discard``: it is kept with the hand's
    state (cleared at each deal, C3), so a hand plays the same on 1 or 2 threads and whether
    other hands were played before it on the same worker; and the field changes play."""
    import dataclasses

    p = ks.preset("expert")  # plan_discard=True since 2026-12-05
    one = ks.play_hands(40, hand=7, policies=p, seed=11, threads=1)
    two = ks.play_hands(40, hand=7, policies=p, seed=11, threads=2)
    later = ks.play_hands(20, hand=7, policies=p, seed=11, threads=1, first_game=20)
    assert one.equals(two)
    tail = one[one["game"] >= 20].reset_index(drop=True)
    assert tail.drop(columns=["game"]).equals(later.drop(columns=["game"]))
    base = ks.play_hands(40, hand=7, policies=dataclasses.replace(
        p, name="every plan", plan_discard=False), seed=11, threads=1)
    assert not one.drop(columns=["policy"]).equals(base.drop(columns=["policy"]))


def test_plan_discard_branches_go_on_with_the_seats_plans_on_any_thread_count():
    """A branch of a hand (``call_decisions``, R9) copies the seats' plans with the table, and
    a replica deals the unseen cards again and drops the plans made from them: the same rows
    on 1 or 2 threads, with ``plan_discard`` steering the discards of every continuation."""

    kw = dict(hand=7, policies="expert", seed=13, replicas=2)
    one = ks.call_decisions(6, threads=1, **kw)
    two = ks.call_decisions(6, threads=2, **kw)
    assert len(one) > 20 and one.equals(two)
