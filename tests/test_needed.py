"""Cards needed and outs (issue 8; R3-R5, R7, V6), checked against tests/reference.py."""

from collections import Counter

import numpy as np
import pytest
import reference as ref
from conftest import random_hand, to_ref
from hypothesis import given
from hypothesis import strategies as st

import kalooki_sim as ks
from kalooki_sim.game.cards import JOKER


def test_R3_R4_cards_needed_examples():
    assert ks.cards_needed("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1)) == 2  # 6♥/10♥/JK and a 4 or JK
    assert ks.cards_needed("A♣ 2♣ 3♣ JK JK", (0, 1)) == 0
    assert ks.cards_needed("", (3, 0)) == 9
    assert ks.cards_needed("2♥", 9) == 15  # four runs of four, one card held
    assert ks.cards_needed("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", 1) == 1


def test_R3_two_naturals_per_group_even_with_jokers():
    assert ks.cards_needed("9♠ JK JK JK", (1, 0)) == 1  # 9-JK-JK is not a group: add a 9
    assert ks.cards_needed("JK JK JK JK", (1, 0)) == 2


def test_R4_no_adjacent_jokers_in_the_needed_run():
    # 5♥ JK JK 8♥ is not a run: one natural (6♥ or 7♥) must be added
    assert ks.cards_needed("5♥ 8♥ JK JK", (0, 1)) == 1
    assert ks.cards_needed("5♥ 7♥ JK JK", (0, 1)) == 0


def test_R5_groups_of_distinct_ranks():
    assert ks.cards_needed("6♠ 6♥ 6♦ 6♣ 6♠ 6♥", (2, 0)) == 3


def test_seen_cards_cannot_be_added():
    hand = "7♥ 8♥ 9♥ 4♣ 4♦"
    assert ks.cards_needed(hand, (1, 1), seen="10♥ 10♥ 6♥ 6♥") == 2  # jokers fill in
    assert ks.cards_needed(hand, (1, 1), seen="10♥ 10♥ 6♥ 6♥ JK JK JK") == 2
    # no joker, 6♥ or 10♥ left: a 4 and a fresh run of four (e.g. J♥ Q♥ K♥ A♥)
    seen = "10♥ 10♥ 6♥ 6♥ JK JK JK JK"
    assert ks.cards_needed(hand, (1, 1), seen=seen) == 5
    df = ks.outs(hand, (1, 1), seen=seen)
    assert df.attrs["needed"] == 5 and len(df) == 50 and (df.needed_after == 4).all()
    assert not {"6♥", "10♥", "JK"} & set(df.card)
    assert df.set_index("card").unseen[["4♣", "7♥", "J♥"]].tolist() == [1, 1, 2]
    assert df.attrs["total"] == 95


def test_V6_complete_suit_counts_for_three_runs():
    hand = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"
    assert ks.cards_needed(hand, 4) == 8
    assert ks.cards_needed(hand, 4, rules=ks.Rules(complete_suit_for_three_runs=True)) == 0
    v6 = ks.Rules(complete_suit_for_three_runs=True)
    assert ks.cards_needed("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥", 4, rules=v6) == 2


def test_outs_columns_and_attrs():
    df = ks.outs("7♥ 8♥ 9♥ 4♣ 4♦", (1, 1))
    assert list(df.columns) == ["card", "unseen", "needed_after"]
    assert df.attrs == {"needed": 2, "total": 14}
    assert (df.needed_after == 1).all()
    assert ks.outs("A♣ 2♣ 3♣ JK JK", (0, 1)).empty


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="seen"):
        ks.cards_needed("7♥ 7♥", (1, 0), seen="7♥")
    with pytest.raises(ValueError, match="^hand: .*ZZ"):
        ks.cards_needed("7♥ ZZ", (1, 0))
    with pytest.raises((TypeError, ValueError), match="^seen: "):
        ks.outs("7♥", (1, 0), seen=5)
    with pytest.raises(ValueError, match=r"contract=\(0, 5\)"):
        ks.cards_needed("7♥", (0, 5))


def test_code_arrays_take_the_fast_path_with_the_same_answers_and_errors():
    """``cards_needed`` of an int64 code array under the default rules (issue 27's fast path:
    the compiled entry, no parsing) answers as the parsed path does, and a code that is no card,
    a pack the hand overflows or a contract no card can lay still raise the parsed path's
    error (the kernel checks the codes and hands the position back)."""
    from kalooki_sim.players import needed as N

    rng = np.random.default_rng(5)
    pack = np.array([c for c in range(52) for _ in range(2)] + [52] * 4)
    for h in range(1, 10):
        for _ in range(20):
            codes = rng.choice(pack, 9 + h, replace=False).astype(np.int64)
            fast = ks.cards_needed(codes, h)
            assert fast == ks.cards_needed([int(c) for c in codes], h)
            assert fast == ks.cards_needed(codes, h, rules=ks.Rules())  # the parsed path
    assert N._FAST_ENTRY, "the compiled entry was not found"
    with pytest.raises(ValueError, match="card code"):
        ks.cards_needed(np.array([3, 60], np.int64), 1)
    with pytest.raises(ValueError, match="card code"):
        ks.cards_needed(np.array([3, -1], np.int64), 1)
    with pytest.raises(ValueError, match="3 copies of"):
        ks.cards_needed(np.array([3, 3, 3], np.int64), 1)


def test_no_way_to_lay_is_a_value_error():
    every_heart = " ".join(f"{r}♥ {r}♥" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    with pytest.raises(ValueError, match="cannot be laid"):
        ks.cards_needed("", (0, 4), seen=every_heart)


# -- against the exhaustive twin ---------------------------------------------------------------


def near_hand(rng, decks, jokers):
    """A hand a few cards short of a random small contract, and the contract."""
    g = int(rng.integers(0, 3))
    r = int(rng.integers(0, 3)) if g else int(rng.integers(1, 3))
    cards = []
    for k in rng.choice(13, g, replace=False):
        cards += [int(s) * 13 + int(k) for s in rng.choice(4, 3)]
    for s in rng.choice(4, r, replace=False):
        lo = int(rng.integers(0, 13))
        cards += [int(s) * 13 + (lo + j) % 13 for j in range(4)]
    cards = [c for c in cards if rng.random() < 0.6]
    cards += [int(x) for x in rng.integers(0, 52, int(rng.integers(0, 4)))]
    nj = int(rng.integers(0, min(jokers, 3) + 1)) if rng.random() < 0.5 else 0
    cnt = Counter(cards)
    cards = [c for c in cnt for _ in range(min(cnt[c], decks))]
    return np.array(cards + [JOKER] * nj, dtype=np.int64), (g, r)


def _case(rng):
    """Random rules (1-3 decks, 0-20 jokers), a near-contract hand and a random `seen`."""
    decks = int(rng.integers(1, 4))
    jokers = int(rng.choice([0, 1, 2, 4, 8, 20]))
    rules = ks.Rules(players=3, decks=decks, jokers=jokers)
    codes, contract = near_hand(rng, decks, jokers)
    rest = [c for c in range(52) for _ in range(decks)] + [JOKER] * jokers
    for c in codes:
        rest.remove(int(c))
    seen = rng.permutation(np.array(rest, dtype=np.int64))[: int(rng.integers(0, 40))]
    avail = Counter({(c // 13, c % 13 + 1): decks for c in range(52)})
    avail["JK"] = jokers
    for c in to_ref(np.concatenate([codes, seen])):
        avail[c] -= 1
    return rules, codes, contract, seen, +avail


def _compare_needed(rng, n_hands, cap):
    for _ in range(n_hands):
        rules, codes, (g, r), seen, avail = _case(rng)
        try:
            got = ks.cards_needed(codes, (g, r), rules, seen)
        except ValueError:
            got = None
        c = cap if got is None else min(got, cap)
        want = ref.cards_needed(to_ref(codes), g, r, False, avail, c)
        where = (ks.parse_cards(codes, rules), (g, r), ks.parse_cards(seen, rules))
        if want is None:
            assert got is None or got > c, where
        else:
            assert got == want, where


def _compare_outs(rng, n_hands):
    done = 0
    while done < n_hands:
        rules, codes, (g, r), seen, avail = _case(rng)
        try:
            need = ks.cards_needed(codes, (g, r), rules, seen)
        except ValueError:
            continue
        if not 1 <= need <= 2:
            continue
        df = ks.outs(codes, (g, r), rules, seen)
        want_need, rows = ref.outs(to_ref(codes), g, r, False, avail, need)
        assert df.attrs["needed"] == want_need == need
        want = [(ks.card_text(JOKER if c == "JK" else c[0] * 13 + c[1] - 1), u, a)
                for c, u, a in rows]
        want.sort(key=lambda row: ks.to_codes(row[0]).item())
        assert list(df.itertuples(index=False, name=None)) == want
        assert df.attrs["total"] == sum(u for _, u, _ in want)
        done += 1


def test_R3_R4_R5_cards_needed_matches_twin():
    _compare_needed(np.random.default_rng(1), 300, 1)
    _compare_needed(np.random.default_rng(2), 15, 2)


def test_outs_match_twin():
    _compare_outs(np.random.default_rng(3), 4)


@pytest.mark.slow
def test_R3_R4_R5_cards_needed_matches_twin_many():
    _compare_needed(np.random.default_rng(11), 3000, 1)
    _compare_needed(np.random.default_rng(12), 600, 2)


@pytest.mark.slow
def test_outs_match_twin_many():
    _compare_outs(np.random.default_rng(13), 60)


# -- properties -------------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 16), contract=st.integers(1, 9),
       joker_rich=st.booleans())
def test_property_needed_zero_iff_opening_and_one_card_lowers_it_by_at_most_one(
        seed, n, contract, joker_rich):
    rng = np.random.default_rng(seed)
    codes = random_hand(rng, max(n, 4), joker_rich)[:n]
    need = ks.cards_needed(codes, contract)
    assert (need == 0) == (ks.solve_opening(codes, contract) is not None)
    left = Counter({c: 2 for c in range(52)}) + Counter({JOKER: 4})
    left.subtract(Counter(codes.tolist()))
    card = int(rng.choice([c for c, k in left.items() if k > 0]))
    assert ks.cards_needed(np.append(codes, card), contract) >= need - 1


def test_R3_R4_runs_and_groups_share_naturals_found_by_the_search():
    # an earlier search answered 4 here; tests/reference.py (the exhaustive twin) says 3
    hand = "7♣ 9♣ 10♣ 2♦ 6♦ 6♦ 7♦ A♥ 5♥ 6♥ 7♥ 4♠ 9♠ K♠ JK JK"
    assert ks.cards_needed(hand, (2, 2)) == 3


# -- unchanged against the frozen original kernel (tests/needed_original.py) -----------------

#: the schedule's contracts and others
CONTRACTS = ((3, 0), (2, 1), (1, 2), (0, 3), (4, 0), (3, 1), (2, 2), (1, 3), (0, 4),
             (1, 0), (0, 1), (1, 1), (2, 0), (0, 2), (3, 2), (2, 3), (4, 1), (1, 4), (5, 1))


def random_inputs(rng, n_hands):
    """Kernel inputs ``(counts, jokers, g, r, v6, avail)`` for ``n_hands`` random hands: 9-16
    cards (random or a few short of the contract), 2-4 decks, 4-30 jokers, some cards dead."""
    counts = np.zeros((n_hands, 4, 14), np.int64)
    jokers = np.zeros(n_hands, np.int64)
    gs = np.zeros(n_hands, np.int64)
    rs = np.zeros(n_hands, np.int64)
    v6 = np.zeros(n_hands, np.bool_)
    avail = np.zeros((n_hands, 53), np.int64)
    for i in range(n_hands):
        decks = int(rng.integers(2, 5))
        n_jk = int(rng.integers(4, 31))
        g, r = CONTRACTS[int(rng.integers(len(CONTRACTS)))]
        n_cards = int(rng.integers(9, 17))
        pack = np.array([c for c in range(52) for _ in range(decks)] + [JOKER] * n_jk)
        if rng.random() < 0.5:
            hand = rng.choice(pack, n_cards, replace=False)
        else:  # near the contract: its melds, a few cards missing, random fill
            cards = []
            for k in rng.choice(13, min(g, 13), replace=False):
                cards += [int(s) * 13 + int(k) for s in rng.choice(4, 3)]
            for s in rng.choice(4, min(r, 4), replace=False):
                lo = int(rng.integers(0, 13))
                cards += [int(s) * 13 + (lo + j) % 13 for j in range(4)]
            cards = [c for c in cards if rng.random() < 0.75]
            cards += [JOKER] * int(rng.integers(0, 3))
            cnt = Counter(cards)
            cards = [c for c in cnt for _ in range(min(cnt[c], decks if c < JOKER else n_jk))]
            cards = cards[:n_cards]
            rest = Counter(pack.tolist()) - Counter(cards)
            rest = np.array(sorted(rest.elements()))
            hand = np.concatenate([cards, rng.choice(rest, n_cards - len(cards), replace=False)])
        hand = hand.astype(np.int64)
        left = Counter(pack.tolist()) - Counter(hand.tolist())
        left = rng.permutation(np.array(sorted(left.elements())))
        dead = left[: int(rng.integers(0, 61))]
        for c in hand:
            if c == JOKER:
                jokers[i] += 1
            else:
                counts[i, c // 13, c % 13 + 1] += 1
        avail[i, :52] = decks
        avail[i, JOKER] = n_jk
        np.subtract.at(avail[i], hand, 1)
        np.subtract.at(avail[i], dead, 1)
        # V6 with 2+ groups and three runs is very slow in the original (no pruning of the
        # 1,220 complete-suit options per suit), and no schedule contract: left out
        gs[i], rs[i], v6[i] = g, r, (g < 2 or r != 3) and rng.random() < 0.5
    return counts, jokers, gs, rs, v6, avail


def _mismatches(seed, n_hands):
    import needed_original
    from numba import njit

    from kalooki_sim.engine._kernels import needed as nk

    @njit
    def both(counts, jokers, gs, rs, v6, avail, new, old):
        o1, s1 = np.zeros((4, nk.OPT_ROWS, nk.N_COLS), np.int64), np.zeros(nk.SCRATCH, np.int64)
        o2 = np.zeros((4, needed_original.CAPACITY, needed_original.N_COLS), np.int64)
        s2 = np.zeros(needed_original.SCRATCH, np.int64)
        for i in range(counts.shape[0]):
            new[i] = nk.needed_kernel(counts[i], jokers[i], gs[i], rs[i], v6[i], avail[i], o1,
                                      s1)
            old[i] = needed_original.needed_kernel(counts[i], jokers[i], gs[i], rs[i], v6[i],
                                                   avail[i], o2, s2)

    args = random_inputs(np.random.default_rng(seed), n_hands)
    new = np.zeros(n_hands, np.int64)
    old = np.zeros(n_hands, np.int64)
    both(*args, new, old)
    bad = np.flatnonzero(new != old)
    assert (old < needed_original.NO_WAY).mean() > 0.9  # mostly layable
    return [(i, int(new[i]), int(old[i]), int(args[2][i]), int(args[3][i])) for i in bad[:5]]


def test_needed_kernel_unchanged_on_random_hands():
    assert _mismatches(21, 3000) == []


@pytest.mark.slow
def test_needed_kernel_unchanged_on_random_hands_many():
    assert _mismatches(22, 30000) == []


def test_bench_rebuilds_the_hands_the_expert_meets_in_play():
    """``bench.needed_hands_in_play`` rebuilds hands from trace logs (R1, R6, R9): every one
    holds the cards dealt or more (a draw, a take, calls with their penalty cards), never more
    copies than the pack has, also across R13's replays of a void deal (hand 9: about 4% of
    expert deals since the outs discard; game 20 of seed 0 is the first)."""
    from kalooki_sim import bench

    hands = bench.needed_hands_in_play(1, games=4)
    sizes = {len(h) for h in hands}
    assert hands and min(sizes) == 9 and max(sizes) <= 9 + 2 * 3 + 1
    voided = [g for g in range(24) if any(r["event"] == "void" for r in
                                          ks.trace(0, game=g, hand=9, policies="expert").records)]
    assert voided, "no void deal in these games: the replay case is not exercised"
    hands += bench.needed_hands_in_play(9, games=max(voided) + 1)
    for h in hands:
        counts = np.bincount(h, minlength=53)
        assert counts[:52].max() <= 2 and counts[52] <= 4


def _upto_violations(seed, n_hands):
    """``needed_upto`` against ``needed_kernel`` for every cap from -1 to the answer + 1."""
    from numba import njit

    from kalooki_sim.engine._kernels import needed as nk

    @njit
    def run(counts, jokers, gs, rs, v6, avail, exact, upto):
        o, s = np.zeros((4, nk.OPT_ROWS, nk.N_COLS), np.int64), np.zeros(nk.SCRATCH, np.int64)
        for i in range(counts.shape[0]):
            exact[i] = nk.needed_kernel(counts[i], jokers[i], gs[i], rs[i], v6[i], avail[i], o, s)
            top = min(exact[i], 20)
            for cap in range(-1, top + 2):
                upto[i, cap + 1] = nk.needed_upto(counts[i], jokers[i], gs[i], rs[i], v6[i],
                                                  avail[i], o, s, cap)

    args = random_inputs(np.random.default_rng(seed), n_hands)
    exact = np.zeros(n_hands, np.int64)
    upto = np.full((n_hands, 23), -7, np.int64)
    run(*args, exact, upto)
    bad = []
    for i in range(n_hands):
        for cap in range(-1, min(exact[i], 20) + 2):
            v = upto[i, cap + 1]
            ok = v == exact[i] if exact[i] <= cap else cap < v <= exact[i]
            if not ok:
                bad.append((i, cap, int(v), int(exact[i])))
    return bad


def test_needed_upto_is_exact_up_to_its_cap_and_a_lower_bound_above():
    """A capped count is the count when it is at most the cap; above, it only says so, and never
    overstates (the decisions that compare with a threshold stay the same)."""
    assert _upto_violations(31, 1500) == []


def test_outs_cut_only_agrees_with_full_outs_on_every_card():
    """``outs_kernel(..., cut_only=True)``: the same cutting cards with the same counts; every
    other card at least the count before."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(32), 300)
    o, s = nk.new_workspace()
    full = np.zeros(53, np.int64)
    cut = np.zeros(53, np.int64)
    n_cuts = 0
    for i in range(len(jokers)):
        b1 = np_.outs_kernel(counts[i], jokers[i], gs[i], rs[i], v6[i], avail[i], o, s, full)
        b2 = np_.outs_kernel(counts[i], jokers[i], gs[i], rs[i], v6[i], avail[i], o, s, cut, True)
        assert b1 == b2
        cuts = (full >= 0) & (full < b1)
        n_cuts += cuts.sum()
        assert ((cut >= 0) & (cut < b2) == cuts).all(), i
        assert (cut[cuts] == full[cuts]).all(), i
        assert ((cut == -1) == (full == -1)).all(), i
    assert n_cuts > 100  # the sample holds many outs


def moved_hand(counts, jokers, avail, x, d):
    """The kernel inputs ``(counts, jokers, avail)`` of the hand with one ``x`` (52 = joker)
    taken from the pack (``d = 1``) or given back to it (``d = -1``); copies."""
    c2, a2, j2 = counts.copy(), avail.copy(), jokers
    a2[x] -= d
    if x == JOKER:
        j2 += d
    else:
        c2[x // 13, x % 13 + 1] += d
    return c2, j2, a2


def test_root_moved_is_the_count_of_a_hand_one_card_on_or_off_in_one_kind_contracts():
    """``root_moved`` (the outs discard's quick count): for the hand plus an addable card or
    less a held one, the search's root bound, rebuilt from the hand's. It equals the fresh
    count in all-group and all-run contracts (not V6's complete suit) and never exceeds it in
    the others."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(33), 400)
    o, s = nk.new_workspace()
    exact_seen = bound_seen = 0
    for i in range(len(jokers)):
        c, j, g, r, v, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), bool(v6[i]), avail[i]
        one_kind = r == 0 or (g == 0 and not (v and r == 3))
        np_.prepare_plus(c, j, g, r, v, a, s)
        c0, a0 = c.copy(), a.copy()
        for x in range(53):
            held = j if x == JOKER else c[x // 13, x % 13 + 1]
            for d in (1, -1):
                if (d == 1 and a[x] <= 0) or (d == -1 and held <= 0):
                    continue
                got = np_.root_moved(c, j, g, r, v, a, s, x, d)
                assert (c == c0).all() and (a == a0).all()  # restored
                c2, j2, a2 = moved_hand(c, j, a, x, d)
                want = nk.needed_kernel(c2, j2, g, r, v, a2, o, s)
                # the fresh count shares the scratch but leaves the kept hand alone
                if one_kind:
                    assert min(got, nk.NO_WAY) == want, (i, x, d)
                    exact_seen += 1
                else:
                    assert got <= want, (i, x, d)
                    bound_seen += 1
    assert exact_seen > 5000 and bound_seen > 5000


def test_root_moved_keeps_a_suits_tables_along_a_walk_of_hands_one_card_apart():
    """``prepare_plus`` keeps a suit's table of the other three suits and its moved counts
    while those suits' cheapest runs and the jokers stand (a hand one card on or off: the
    outs discard's next candidate, the next turn). Along random walks of all-run hands in one
    scratch, with other contracts (V6's complete suit, groups) prepared in between, every
    ``root_moved`` equals the fresh count; and the kept tables are in fact used."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_
    from kalooki_sim.engine._kernels.workspace import W_SSTAMP

    rng = np.random.default_rng(34)
    counts, jokers, gs, rs, v6, avail = random_inputs(rng, 60)
    o, s = nk.new_workspace()
    checked = kept = 0
    for i in range(len(jokers)):
        c, a, j = counts[i].copy(), avail[i].copy(), int(jokers[i])
        r = int(rng.integers(1, 5))
        for step in range(12):
            if rng.random() < 0.15:  # another contract in the same scratch
                np_.prepare_plus(c, j, 1, 2, False, a, s)
                np_.prepare_plus(c, j, 0, 3, True, a, s)
            before = s[W_SSTAMP:W_SSTAMP + 4].copy()
            np_.prepare_plus(c, j, 0, r, False, a, s)
            kept += int((s[W_SSTAMP:W_SSTAMP + 4] == before).sum())
            for x in rng.choice(53, 12, replace=False):
                held = j if x == JOKER else c[x // 13, x % 13 + 1]
                for d in (1, -1):
                    if (d == 1 and a[x] <= 0) or (d == -1 and held <= 0):
                        continue
                    got = np_.root_moved(c, j, 0, r, False, a, s, int(x), d)
                    c2, j2, a2 = moved_hand(c, j, a, x, d)
                    assert min(got, nk.NO_WAY) == nk.needed_kernel(c2, j2, 0, r, False, a2, o,
                                                                   s), (i, step, x, d)
                    checked += 1
            # one card on or off (a joker now and then): the next hand of the walk
            x = int(rng.integers(53)) if rng.random() < 0.1 else int(rng.integers(52))
            held = j if x == JOKER else c[x // 13, x % 13 + 1]
            d = 1 if (held == 0 or rng.random() < 0.5) and a[x] > 0 else -1
            if d == -1 and held == 0:
                continue
            a[x] -= d
            if x == JOKER:
                j += d
            else:
                c[x // 13, x % 13 + 1] += d
    assert checked > 5000 and kept > 300


def test_needed_cut_refutes_only_cards_that_cut_nothing_in_mixed_contracts():
    """``plus.needed_cut`` (an offer's "does this card cut the count?", issue 27): a count below
    the hand's without the card must use the card, so ``used_bound`` (a group of its rank, R3,
    or a run of its suit through it, R4) never exceeds such a count, and ``needed_cut`` gives
    ``needed_upto``'s answer whenever either is at most the cap; the slow twin is the full
    count of the hand plus the card."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(34), 600)
    o, s = nk.new_workspace()
    cuts = refuted = 0
    for i in range(len(jokers)):
        c, j, g, r, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), avail[i]
        if g == 0 or r == 0:
            continue  # one-kind contracts are root_moved's
        before = nk.needed_kernel(c, j, g, r, False, a, o, s)
        if before == 0 or before >= nk.NO_WAY:
            continue
        cap = before - 1
        for x in range(JOKER):
            if a[x] <= 0:
                continue
            a[x] -= 1
            c[x // 13, x % 13 + 1] += 1
            lb = np_.used_bound(c, j, g, r, a, s, x)
            got = np_.needed_cut(c, j, g, r, a, o, s, x, cap, cap)
            want = nk.needed_kernel(c, j, g, r, False, a, o, s)
            c[x // 13, x % 13 + 1] -= 1
            a[x] += 1
            if want <= cap:
                cuts += 1
                assert lb <= want and got == want, (i, x)
            else:
                assert got > cap, (i, x)
                refuted += lb > cap
    assert cuts > 500 and refuted > 500


def test_a_card_on_or_off_moves_the_count_by_at_most_one_so_a_check_searches_one_level():
    """A card that could come (a copy addable) cuts the count by at most one, and a card let
    go never cuts it (R3-R5): so a cut or keep check passes ``needed_upto`` that count as its
    ``floor`` (issue 27). The floored answer must equal the full count's wherever either is at
    most the cap; the twin is the full count (V6 included). A dead card taken back after R13's
    reshuffle is not such a card: it may cut more, and the engine gives no floor for it."""
    from kalooki_sim.engine._kernels import needed as nk

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(36), 300)
    o, s = nk.new_workspace()
    seen = Counter()
    for i in range(len(jokers)):
        c, j, g, r, v, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), bool(v6[i]), avail[i]
        n = nk.needed_kernel(c, j, g, r, v, a, o, s)
        if n >= nk.NO_WAY:
            continue
        for x in range(JOKER):
            for d in (1, -1):
                if (d == 1 and a[x] <= 0) or (d == -1 and c[x // 13, x % 13 + 1] == 0):
                    continue
                c[x // 13, x % 13 + 1] += d
                a[x] -= d
                want = nk.needed_kernel(c, j, g, r, v, a, o, s)
                floor = n - 1 if d == 1 else n
                cap = floor
                got = nk.needed_upto(c, j, g, r, v, a, o, s, cap, max(0, floor))
                c[x // 13, x % 13 + 1] -= d
                a[x] += d
                assert want >= floor, (i, x, d)
                assert (got <= cap) == (want <= cap) and (want > cap or got == want), (i, x, d)
                seen[(d, want <= cap)] += 1
    assert min(seen.values()) > 300, seen
    # a dead card: 7♥ could not come, so the count with it falls by two
    assert ks.cards_needed("5♥ 6♥ 8♥ 9♥", (0, 1), seen="7♥ 7♥ JK JK JK JK") == 2
    assert ks.cards_needed("5♥ 6♥ 7♥ 8♥ 9♥", (0, 1), seen="7♥ JK JK JK JK") == 0


def test_a_kept_plan_costs_at_least_the_count_and_the_count_for_its_own_hand():
    """``plus.plan_cost`` (issue 27: a seat's last plan, tried before a search): the runs of
    a search's leaf, put to any hand, are a contract of it (R3-R5), so never cheaper than its
    count (the twin: the full count); on the hand whose search found the leaf, the count
    itself. Tried on each hand, the hand a card on or off, and the next random hand."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(37), 400)
    o, s = nk.new_workspace()
    seen = Counter()
    at = nk.W_PLANS + 20 * 3
    for i in range(len(jokers)):
        c, j, g, r, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), avail[i]
        if g == 0 or r == 0:
            continue  # plans are kept in mixed contracts only
        s[nk.W_LEAF + 16] = 0
        n = nk.needed_kernel(c, j, g, r, False, a, o, s)
        if n >= nk.NO_WAY or s[nk.W_LEAF + 16] != 1:
            continue
        np_.keep_plan(s, 3)
        assert np_.plan_cost(c, j, g, r, a, s, at, nk.NO_WAY) == n, i
        seen["own"] += 1
        k = (i + 1) % len(jokers)
        others = [(counts[k], int(jokers[k]), avail[k])]
        for x in range(JOKER):
            for d in (1, -1):
                c2, a2 = c.copy(), a.copy()
                c2[x // 13, x % 13 + 1] += d
                a2[x] -= d
                if c2[x // 13, x % 13 + 1] >= 0 and a2[x] >= 0:
                    others.append((c2, j, a2))
        for c2, j2, a2 in others:
            want = nk.needed_kernel(c2, j2, g, r, False, a2, o, s)
            got = np_.plan_cost(c2, j2, g, r, a2, s, at, nk.NO_WAY)
            assert got >= want, i
            seen["equal" if got == want else "above"] += 1
    assert seen["own"] > 100 and seen["equal"] > 1000 and seen["above"] > 1000, seen


def test_R3_R5_all_group_count_in_closed_form_matches_the_group_dp():
    """``groups.groups_alone`` (the all-group contracts' count, issue 27) against the group DP
    and bound it replaces, on random per-rank naturals held and copies left, jokers held and
    left, 1-4 groups (the closed form's twin)."""
    import needed_original

    from kalooki_sim.engine._kernels import groups as gk
    from kalooki_sim.engine._kernels import needed as nk

    rng = np.random.default_rng(35)
    s = np.zeros(nk.SCRATCH, np.int64)
    s2 = np.zeros(needed_original.SCRATCH, np.int64)  # the DP's own workspace
    seen = Counter()
    for _ in range(20000):
        g = int(rng.integers(1, 5))
        jokers = int(rng.integers(0, 4))
        aj = int(rng.integers(0, 5))
        s[nk.W_H + 1:nk.W_H + 14] = rng.integers(0, 5, 13) * (rng.random(13) < 0.6)
        s[nk.W_A + 1:nk.W_A + 14] = rng.integers(0, 4, 13)
        got = gk.groups_alone(g, jokers, aj, nk.W_H, nk.W_A, s)
        no = needed_original
        s2[no.W_H:no.W_H + 14] = s[nk.W_H:nk.W_H + 14]
        s2[no.W_A:no.W_A + 14] = s[nk.W_A:nk.W_A + 14]
        no._groups(g, nk.RANKS13, no.W_H, no.W_A, s[nk.W_G0:nk.W_G0 + nk.GMAX], s2)
        want = nk._bound(0, 0, 0, 0, g, jokers, aj, s, nk.W_G0)
        assert got == want, (g, jokers, aj, s[nk.W_H:nk.W_H + 14], s[nk.W_A:nk.W_A + 14])
        seen[min(want, 4)] += 1
    assert len(seen) == 5 and min(seen.values()) > 200


def test_R3_R5_group_costs_per_joker_count_in_closed_form_match_the_group_dp():
    """``groups.group_costs`` (the search's group costs at every node, issue 27) against the
    group DP it replaces there (``_groups`` of the frozen original kernel), entry by entry
    (0..g jokers), on random per-rank naturals held and copies left, random masks of the ranks
    allowed, 0-5 groups."""
    import needed_original

    from kalooki_sim.engine._kernels import groups as gk
    from kalooki_sim.engine._kernels import needed as nk

    rng = np.random.default_rng(38)
    s = np.zeros(nk.SCRATCH, np.int64)
    s2 = np.zeros(needed_original.SCRATCH, np.int64)  # the DP's own workspace
    got = np.zeros(nk.GMAX, np.int64)
    want = np.zeros(nk.GMAX, np.int64)
    seen = Counter()
    for _ in range(20000):
        g = int(rng.integers(0, 6))  # 0-5: every body of _costs_of_kinds (issue 27)
        rel = int(rng.integers(0, 1 << 13)) << 1 if rng.random() < 0.7 else nk.RANKS13
        s[nk.W_h + 1:nk.W_h + 14] = rng.integers(0, 5, 13) * (rng.random(13) < 0.6)
        s[nk.W_a + 1:nk.W_a + 14] = rng.integers(0, 4, 13)
        gk.group_costs(g, rel, nk.W_h, nk.W_a, got, s)
        no = needed_original
        s2[no.W_h:no.W_h + 14] = s[nk.W_h:nk.W_h + 14]
        s2[no.W_a:no.W_a + 14] = s[nk.W_a:nk.W_a + 14]
        no._groups(g, rel, no.W_h, no.W_a, want, s2)
        assert (got[:g + 1] == want[:g + 1]).all(), (g, rel, got[:g + 1], want[:g + 1])
        seen[int((want[:g + 1] < nk.NO_WAY).sum())] += 1
    assert all(seen[k] > 100 for k in range(1, 6)) and seen[0] > 100, seen


def test_R3_relevant_ranks_are_those_whose_group_bound_fits_the_limit():
    """``needed._relevant`` works out the part of each rank's group bound that is not the
    rank's own once (issue 27); its mask must be the ranks whose ``group_at_bound`` is at
    most the limit, for every limit a deepening asks, on random hands of mixed contracts."""
    from kalooki_sim.engine._kernels import needed as nk

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(43), 600)
    _, s = nk.new_workspace()
    seen = Counter()
    for i in range(len(jokers)):
        c, j, g, r, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), avail[i]
        if g == 0:
            continue
        aj = int(a[JOKER])
        nk._hand_tables(c, j, r, a, s)
        root = nk._root(g, r, 1, j, aj, s)
        for limit in (root, root + 1, root + 2, nk.NO_WAY - 1):
            want = 0
            for k in range(1, 14):
                if nk.group_at_bound(k, g, r, j, aj, s) <= limit:
                    want |= 1 << k
            got = nk._relevant(g, r, 1, j, aj, limit, s)
            assert got == want, (i, limit)
            seen[bin(got).count("1") < 13] += 1
    assert seen[True] > 300 and seen[False] > 300, seen


def test_R3_R4_needed_moved_counts_a_mixed_hand_one_card_off_or_on_as_a_fresh_count():
    """``plus.needed_moved`` (a discard's keep checks in mixed contracts, issue 27) moves the
    kept hand's tables by one natural instead of building them again: its count must be the
    fresh ``needed_upto`` of the moved hand at every cap, a card off (held) or on (addable),
    including the card that was not addable (its copies all dead) and the 0 <-> 1 moves of a
    suit's masks."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(44), 300)
    o, s = nk.new_workspace()
    seen = Counter()
    for i in range(len(jokers)):
        c, j, g, r, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), avail[i]
        if g == 0 or r == 0:
            continue
        np_.prepare_plus(c, j, g, r, False, a, s)
        for x in range(52):
            for d in (-1, 1):
                if (d == 1 and a[x] <= 0) or (d == -1 and c[x // 13, x % 13 + 1] <= 0):
                    continue
                c2, j2, a2 = moved_hand(c, j, a, x, d)
                if d == -1 and seen["dead"] < 50 and (i + x) % 7 == 0:
                    a2[x] = 0  # the copy given back cannot come (a card taken back, R13)
                    seen["dead"] += 1
                fresh = nk.needed_kernel(c2, j2, g, r, False, a2, o, s)
                for cap in (fresh - 1, fresh, nk.NO_WAY):
                    want = nk.needed_upto(c2, j2, g, r, False, a2, o, s, cap)
                    got = np_.needed_moved(c2, j2, g, r, a2, o, s, x, d, cap, 0)
                    if want <= cap:
                        assert got == want, (i, x, d, cap)
                    else:
                        assert got > cap, (i, x, d, cap)
                seen[(d, c2[x // 13, x % 13 + 1] == (1 if d > 0 else 0))] += 1
    assert min(seen.values()) > 40 and len(seen) == 5, seen


def test_R3_R4_prepare_moved_keeps_the_tables_prepare_plus_builds_for_a_hand_one_card_off():
    """``plus.prepare_moved`` (an outs discard's candidates, issue 27) moves a whole hand's
    kept tables (``keep_whole``) by one natural off instead of building them again: the
    kept tables, ranks per kind and all-run count must be those ``prepare_plus`` keeps for
    the hand less that card, and the counts one card on must agree, in all-group and all-run
    contracts, a copy that cannot come included."""
    from kalooki_sim.engine._kernels import needed as nk
    from kalooki_sim.engine._kernels import plus as np_
    from kalooki_sim.engine._kernels import workspace as ws

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(45), 300)
    _, s = nk.new_workspace()
    _, s2 = nk.new_workspace()
    seen = Counter()
    for i in range(len(jokers)):
        c, j, g, r, a = counts[i], int(jokers[i]), int(gs[i]), int(rs[i]), avail[i]
        if not (r == 0 or (g == 0 and not (v6[i] and r == 3))):
            continue
        v = bool(v6[i])
        np_.prepare_plus(c, j, g, r, v, a, s)
        np_.keep_whole(s)
        for x in range(52):
            if c[x // 13, x % 13 + 1] <= 0:
                continue
            c2, j2, a2 = moved_hand(c, j, a, x, -1)
            if (i + x) % 9 == 0:
                a2[x] = 0  # the copy given back cannot come (a card taken back, R13)
            np_.prepare_moved(c2, j2, g, r, v, a2, s, x, -1)
            np_.prepare_plus(c2, j2, g, r, v, a2, s2)
            for lo, n in ((ws.W_SAVE, 48), (ws.W_KINDS, 8)):
                assert (s[lo:lo + n] == s2[lo:lo + n]).all(), (i, x)
            if r > 0:
                assert s[ws.W_ROOT] == s2[ws.W_ROOT], (i, x)
            for y in range(53):
                if a2[y] > 0:
                    assert (np_.root_moved(c2, j2, g, r, v, a2, s, y, 1)
                            == np_.root_moved(c2, j2, g, r, v, a2, s2, y, 1)), (i, x, y)
            seen["runs" if r > 0 else "groups"] += 1
    assert seen["runs"] > 300 and seen["groups"] > 300, seen


def test_R4_suit_runs_remembered_by_masks_are_the_window_minima_of_the_suit():
    """A suit's cheapest runs, remembered by its masks (issue 27), are always the windows'
    own minima: on random masks asked many times over, with the memo full and its slots
    shared by many keys; a fresh workspace answers the same."""
    from kalooki_sim.engine._kernels import needed as NK
    from kalooki_sim.engine._kernels.workspace import RUNS_OF

    rng = np.random.default_rng(41)
    _, scratch = NK.new_workspace()
    asked = [(int(h) << 1, int(a) << 1, int(j)) for h, a, j in zip(
        rng.integers(0, 1 << 14, 3 * RUNS_OF), rng.integers(0, 1 << 14, 3 * RUNS_OF),
        rng.integers(0, 4, 3 * RUNS_OF), strict=True)]
    asked = [(h, a & ~h, j) for h, a, j in asked]
    remembered = 0
    for h, a, j in asked + asked[::-1] + asked[:500]:
        want = NK.window_minima(h, a, j, NK.ALL_POSITIONS)
        before = scratch.copy()
        assert NK.suit_runs(h, a, j, scratch) == want, (h, a, j)
        remembered += int((before == scratch).all())
    assert remembered > RUNS_OF // 2  # answers came from the memo
    assert NK.suit_runs(0b1111 << 3, 0, 0, NK.new_workspace()[1]) == (0, 0, 0)
    assert NK.suit_runs(0, 0, 0, NK.new_workspace()[1])[0] == NK.NO_WAY


def test_memo_slot_finds_a_key_until_another_key_takes_its_slot():
    """``workspace._memo_slot`` (the direct-mapped memos of issue 27): a stored key is found
    with its value; a key never stored is not; a key whose slot another key took since is
    not; keys 0 and large ones (the all-run counts' keys reach 2**47) fall in the memo."""
    from kalooki_sim.engine._kernels.workspace import _memo_slot, _memo_store

    size, base = 64, 10
    scratch = np.zeros(base + 2 * size, np.int64)
    rng = np.random.default_rng(52)
    keys = [0, 1, (1 << 47) - 1] + [int(k) for k in rng.integers(0, 1 << 47, 400)]
    last = {}
    for i, key in enumerate(keys):
        o, hit = _memo_slot(scratch, base, size, key)
        assert base <= o < base + 2 * size and (o - base) % 2 == 0
        assert hit == (last.get(o) == key), key
        if not hit:
            _memo_store(scratch, o, key, i)
            last[o] = key
        o2, hit2 = _memo_slot(scratch, base, size, key)
        assert o2 == o and hit2 and scratch[o + 1] == keys.index(key)
    assert len(set(last)) > size // 2  # the keys spread over the slots


def test_R4_root_run_row_remembered_by_the_suits_cheapest_runs_matches_the_run_table():
    """``needed._root_runs`` (issue 27) remembers the root's run row ``R[0, r, t]`` by the
    suits' cheapest runs: asked twice of the same tables (a miss, then a hit) and after other
    tables took memo slots, it must be the row the full ``_run_table`` builds, for 1-4 runs,
    including suits with no run at all."""
    from kalooki_sim.engine._kernels import needed as nk

    rng = np.random.default_rng(61)
    s = np.zeros(nk.SCRATCH, np.int64)
    ref_s = np.zeros(nk.SCRATCH, np.int64)
    tables = []
    for _ in range(3000):
        ns = rng.integers(0, 5, 12)
        ns = np.minimum.accumulate(ns.reshape(4, 3), axis=1).ravel()  # more jokers never cost more
        ns[rng.random(12) < 0.1] = nk.NO_WAY
        tables.append((ns, int(rng.integers(1, 5))))
    seen = Counter()
    for rep in range(2):  # the second pass finds most rows remembered
        for ns, r in tables:
            s[nk.W_NS:nk.W_NS + 12] = ns
            nk._root_runs(r, s)
            ref_s[nk.W_NS:nk.W_NS + 12] = ns
            ref_s[nk.W_PERM:nk.W_PERM + 4] = range(4)
            nk._run_table(ref_s, r)
            for t in range(2 * r + 1):
                o = nk._r_at(0, r, t)
                assert s[o] == ref_s[o], (rep, ns, r, t)
                seen[ref_s[o] < nk.NO_WAY] += 1
    assert seen[True] > 1000 and seen[False] > 100, seen


def test_R3_group_costs_pair_is_group_costs_for_g_and_g_minus_1():
    """``groups.group_costs_pair`` (the root's two group tables from one count of the ranks'
    kinds, issue 27) must be ``group_costs`` of every rank for ``g`` and ``g - 1`` groups."""
    from kalooki_sim.engine._kernels import groups as gk
    from kalooki_sim.engine._kernels import needed as nk

    rng = np.random.default_rng(62)
    s = np.zeros(nk.SCRATCH, np.int64)
    a, b = np.zeros(nk.GMAX, np.int64), np.zeros(nk.GMAX, np.int64)
    want_a, want_b = np.zeros(nk.GMAX, np.int64), np.zeros(nk.GMAX, np.int64)
    seen = Counter()
    for _ in range(5000):
        g = int(rng.integers(1, 5))
        s[nk.W_H + 1:nk.W_H + 14] = rng.integers(0, 5, 13) * (rng.random(13) < 0.6)
        s[nk.W_A + 1:nk.W_A + 14] = rng.integers(0, 4, 13)
        gk.group_costs_pair(g, nk.W_H, nk.W_A, a, b, s)
        gk.group_costs(g, nk.RANKS13, nk.W_H, nk.W_A, want_a, s)
        gk.group_costs(g - 1, nk.RANKS13, nk.W_H, nk.W_A, want_b, s)
        assert (a[:g + 1] == want_a[:g + 1]).all() and (b[:g] == want_b[:g]).all()
        seen[min(int(want_a[0]), 5)] += 1  # 5: no way without jokers
    assert len(seen) == 6 and seen[5] > 20 and seen[0] > 100, seen


def _node_bound_twin(nadd, jok, d, k, g, jokers, aj, run_row, group_row, no_way, tmax):
    """The search's node bound written out plainly: ``nadd`` naturals and ``jok`` jokers
    taken, ``k`` runs from the open levels at ``run_row[t]`` naturals with at most ``t``
    jokers, ``g`` groups at ``group_row[m]`` with ``m`` jokers, each joker beyond the hand's
    ``jokers`` bought (at most ``aj``; R4, R3, R5)."""
    if k > 4 - d:
        return no_way
    costs = [nadd + run_row[t] + group_row[m] + max(0, jok + t + m - jokers)
             for t in range(min(2 * k, tmax) + 1) for m in range(g + 1)
             if run_row[t] < no_way and group_row[m] < no_way
             and jok + t + m - jokers <= aj]
    return min(costs, default=no_way)


def test_R3_R4_node_bound_of_every_contracts_groups_matches_its_plain_twin():
    """``needed._bound`` has one body per contract's groups (1-3, issue 27: constant loops the
    compiler unrolls) and a general one: each must be the plain bound of its twin, on random
    run rows and group rows (some with no way), 0-5 groups, 0-4 runs still wanted, every
    level."""
    from kalooki_sim.engine._kernels import needed as nk

    rng = np.random.default_rng(71)
    s = np.zeros(nk.SCRATCH, np.int64)
    go = nk.W_GL + 2 * nk.GMAX
    seen = Counter()
    for _ in range(6000):
        g, k, d = int(rng.integers(0, 6)), int(rng.integers(0, 5)), int(rng.integers(0, 5))
        run_row = np.where(rng.random(nk.TMAX + 1) < 0.15, nk.NO_WAY,
                           rng.integers(0, 9, nk.TMAX + 1))
        group_row = np.where(rng.random(g + 1) < 0.15, nk.NO_WAY, rng.integers(0, 7, g + 1))
        for t in range(nk.TMAX + 1):
            s[nk._r_at(d, k, t)] = run_row[t]
        s[go:go + g + 1] = group_row
        nadd, jok = int(rng.integers(0, 6)), int(rng.integers(0, 5))
        jokers, aj = int(rng.integers(0, 4)), int(rng.integers(0, 5))
        got = nk._bound(nadd, jok, d, k, g, jokers, aj, s, go)
        want = _node_bound_twin(nadd, jok, d, k, g, jokers, aj, run_row, group_row,
                                nk.NO_WAY, nk.TMAX)
        assert got == want, (nadd, jok, d, k, g, jokers, aj, run_row, group_row)
        seen[(min(g, 4), want < nk.NO_WAY)] += 1
    assert all(seen[(g, True)] > 100 and seen[(g, False)] > 50 for g in range(5)), seen


def test_R4_a_suit_not_listed_yet_has_options_exactly_when_it_has_a_window():
    """The search lists a suit's windows only when it first reaches the suit (issue 27);
    before, ``needed._listed_levels`` says whether the suit has options from its cheapest
    runs (``NS``). On random hands of mixed contracts, at the relevant ranks of the root's
    limit and at every rank, that must agree with the listing made afterwards."""
    from kalooki_sim.engine._kernels import listing as lk
    from kalooki_sim.engine._kernels import needed as nk

    counts, jokers, gs, rs, v6, avail = random_inputs(np.random.default_rng(63), 800)
    o, s = nk.new_workspace()
    seen = Counter()
    rng = np.random.default_rng(64)
    for i in range(2 * len(jokers)):
        c, j, g, r, a = counts[i // 2], int(jokers[i // 2]), int(gs[i // 2]), int(rs[i // 2]), \
            avail[i // 2].copy()
        if r == 0:
            continue
        if i % 2:  # a suit with nothing left to add: most often no window at all
            t = int(rng.integers(0, 4))
            a[13 * t:13 * t + 13] = 0
        aj = int(a[JOKER])
        nk._hand_tables(c, j, r, a, s)
        root = nk._root(g, r, 1, j, aj, s)
        for rel in (nk._relevant(g, r, 1, j, aj, root, s) if g else 0, nk.RANKS13):
            nopt = s[nk.W_NOPT:nk.W_NOPT + 4]
            perm = s[nk.W_PERM:nk.W_PERM + 4]
            perm[:] = range(4)
            nopt[:] = -1
            before = nk._listed_levels(nopt, perm, s)
            for t in range(4):
                nopt[t] = lk._list_suit(t, j + aj, rel, rel, nk.WINDOWS, o[t], s)
            after = nk._listed_levels(nopt, perm, s)
            assert before == after, (i, rel, nopt)
            seen[bin(after).count("1")] += 1
    assert seen[4] > 300 and sum(v for k, v in seen.items() if k < 4) > 20, seen


def _list_every_mask(held, add, maxj, rel_h, rel_a):
    """The slow twin of ``listing._list_windows``: every joker mask of every window tried
    (R4), the options touching no relevant rank merged to the cheapest per joker count (the
    first so cheap), those a free option beats dropped, the rest sorted stably by key."""
    from kalooki_sim.engine._kernels import workspace as wk
    from kalooki_sim.engine._kernels.windows import NO_WAY, WINDOW_JOK, WINDOW_MASKS

    rows, free = [], {}
    for lo in range(1, 12):
        w = 15 << lo
        for i in range(8):
            t = WINDOW_JOK[i]
            jm = WINDOW_MASKS[i] << lo
            jh = jm & held
            nat = w & ~jm
            miss = nat & ~held
            if t > maxj or (jh and wk._ranks_of(jh) & ~rel_h) or miss & ~add:
                continue
            na = bin(miss).count("1")
            fph, fpa = wk._ranks_of(nat & held), wk._ranks_of(miss)
            kh, ka = fph & rel_h, fpa & rel_a
            if kh | ka == 0:
                if t in free and free[t][0] <= na:
                    continue
                row = free[t][1] if t in free else len(rows)
                if row == len(rows):
                    rows.append(None)
                free[t] = (na, row)
            else:
                row = len(rows)
                rows.append(None)
            rows[row] = [na, t, 1, fph, fpa, kh, ka, (na + t) * 3 + t]
    z = [free[t][0] if t in free else NO_WAY for t in range(3)]
    kept = []
    for r in rows:
        na, t = r[0], r[1]
        beat = [NO_WAY, z[0], min(z[0], z[1])][t]  # a free option with fewer jokers
        if r[5] | r[6]:
            beat = min(beat, z[t])
        if beat > na:
            kept.append(r)
    return sorted(kept, key=lambda r: r[7])


def test_R4_window_listing_with_free_windows_in_one_look_up_matches_every_mask():
    """``listing._list_windows`` looks a window touching no relevant rank up in one table
    per joker count (issue 27) instead of trying its eight joker masks: on random suits,
    jokers to be had and relevant ranks, its listing (every column, every row, in order)
    must be the slow twin's, which tries every mask."""
    from kalooki_sim.engine._kernels import listing as lk
    from kalooki_sim.engine._kernels import workspace as wk

    rng = np.random.default_rng(65)
    s = np.zeros(wk.SCRATCH, np.int64)
    o = np.zeros((wk.CAPACITY, wk.N_COLS), np.int64)
    seen = Counter()
    for _ in range(4000):
        hpos = int(rng.integers(0, 1 << 13)) & int(rng.integers(0, 1 << 13))
        held = hpos << 1
        held |= (held & 2) << 13
        add = ((int(rng.integers(0, 1 << 13)) | int(rng.integers(0, 1 << 13))) << 1) & ~held
        add &= 0x3FFE
        add |= (add & 2) << 13
        maxj = int(rng.integers(0, 3))
        rel = (int(rng.integers(0, 1 << 13)) << 1) if rng.random() < 0.8 else 0
        rel_h = rel & wk._ranks_of(held)
        rel_a = (int(rng.integers(0, 1 << 13)) << 1) & wk._ranks_of(add)
        n = lk._list_windows(held, add, maxj, rel_h, rel_a, o, s)
        want = _list_every_mask(held, add, maxj, rel_h, rel_a)
        assert [list(map(int, r)) for r in o[:n]] == want, (held, add, maxj, rel_h, rel_a)
        seen[sum(1 for r in want if r[5] | r[6] == 0)] += 1
    assert seen[0] > 100 and sum(v for k, v in seen.items() if k >= 2) > 100, seen


def _prune_twin(rows):
    """The slow twin of ``listing._prune``: keep an option unless a kept one has fewer or as
    many added naturals and jokers, as many runs or more, and a subset of its relevant held
    and added ranks."""
    kept = []
    for r in rows:
        na, t, w, kh, ka = r[0], r[1], r[2], r[5], r[6]
        if not any(k[0] <= na and k[1] <= t and k[2] >= w and not k[5] & ~kh
                   and not k[6] & ~ka for k in kept):
            kept.append(r)
    return kept


def test_R4_pruned_options_match_the_dominance_twin():
    """``listing._prune`` drops the options a kept one dominates (issue 27: a deepening that
    prunes searches the rest): on random option lists, cheapest first (naturals 0-13, jokers
    0-4, 1-3 runs, random relevant ranks, many alike), the options it keeps (every column, in
    order) must be its slow twin's."""
    from kalooki_sim.engine._kernels import listing as lk
    from kalooki_sim.engine._kernels import workspace as wk

    rng = np.random.default_rng(72)
    o = np.zeros((wk.CAPACITY, wk.N_COLS), np.int64)
    seen = Counter()
    for _ in range(3000):
        n = int(rng.integers(0, 60))
        na, t, w = rng.integers(0, 14, n), rng.integers(0, 5, n), rng.integers(1, 4, n)
        masks = rng.integers(0, 1 << 4, (n, 2)) << rng.integers(1, 11, (n, 1))
        rows = sorted(([int(na[i]), int(t[i]), int(w[i]), 0, 0, int(masks[i, 0]),
                        int(masks[i, 1]), int((na[i] + t[i]) * 14 + t[i])] for i in range(n)),
                      key=lambda r: r[7])
        for i, r in enumerate(rows):
            o[i] = r
        kept = lk._prune(o, n)
        want = _prune_twin(rows)
        assert [list(map(int, r)) for r in o[:kept]] == want
        seen[min(n - kept, 5)] += 1
    assert seen[0] > 100 and seen[5] > 1000, seen
