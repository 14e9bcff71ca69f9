"""R3, R4 meld shapes and the exact opening solver (R5, R7), checked against tests/reference.py."""

from collections import Counter

import numpy as np
import pytest
from conftest import random_hand, to_ref
from hypothesis import given
from hypothesis import strategies as st
from reference import best_opening, best_opening_value, is_group, run_positions

import kalooki_sim as ks
from kalooki_sim.game.cards import PENALTY, to_codes


@pytest.mark.parametrize("meld", ["4♠ 4♥ JK", "7♥ JK 7♠ JK", "K♠ K♠ K♥", "A♣ A♥ A♦ A♠ JK"])
def test_R3_valid_groups(meld):
    assert ks.meld_kind(meld) == "group"


@pytest.mark.parametrize("meld", ["9♠ JK JK", "JK 9♠ JK", "4♠ 4♥", "4♠ 5♠ 4♥"])
def test_R3_invalid_groups(meld):
    assert ks.meld_kind(meld) is None


@pytest.mark.parametrize(
    "meld",
    ["A♥ 2♥ 3♥ 4♥", "J♥ Q♥ K♥ A♥", "9♣ JK J♣ JK", "JK 2♦ 3♦ 4♦", "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ "
     "J♠ Q♠ K♠ A♠", "JK Q♣ K♣ A♣"],
)
def test_R4_valid_runs(meld):
    assert ks.meld_kind(meld) == "run"


@pytest.mark.parametrize(
    "meld",
    [
        "K♠ A♠ 2♠ 3♠",  # ace only at an end
        "9♣ JK JK Q♣",  # jokers adjacent
        "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠",  # both 1 and 14
        "JK A♥ 2♥ 3♥",  # a joker below the low ace stands for nothing
        "J♥ Q♥ K♥ A♥ JK",  # nor above the high ace
        "5♥ 6♥ 7♣ 8♥",  # one suit
        "5♥ 7♥ 6♥ 8♥",  # low to high
        "5♥ 6♥ 7♥",  # 4 or more
    ],
)
def test_R4_invalid_runs(meld):
    assert ks.meld_kind(meld) is None


def test_R12_card08_out_on_the_opening():
    o = ks.solve_opening("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", 1)
    assert o.leftover == ["2♣"] and o.leftover_penalty == 2
    assert sorted(Counter(m[0][:-1] for m in o.melds).items()) == [("6", 1), ("K", 1), ("Q", 1)]


def test_R5_groups_need_distinct_ranks():
    # six sixes make one group, never the two of a 2-group contract
    assert ks.solve_opening("6♠ 6♥ 6♦ 6♣ 6♠ 6♥ 2♣", (2, 0)) is None
    assert ks.solve_opening("6♠ 6♥ 6♦ 6♣ 6♠ 6♥ 2♣", (1, 0)).leftover == ["2♣"]


def test_R5_runs_need_distinct_suits():
    hand = "2♥ 3♥ 4♥ 5♥ 7♥ 8♥ 9♥ 10♥"
    assert ks.solve_opening(hand, (0, 2)) is None
    assert ks.solve_opening(hand, (0, 1)).leftover_penalty == 14  # 2-5 or 7-10 stays


def test_R7_extra_melds_and_lengthening_on_the_opening():
    o = ks.solve_opening("5♣ 5♦ 5♥ 9♠ 9♥ 9♦ 2♠ 3♠ 4♠ 5♠ 6♠ K♦", (1, 0))
    assert o.leftover == ["K♦"]  # the contract's group plus a second group and a run
    assert sorted(len(m) for m in o.melds) == [3, 3, 5]


def test_R3_joker_frees_a_natural_for_a_group():
    # best is run 5-6-JK-8 and group 7♣ 7♥ JK: only a joker in the run's 7 spot lays all
    o = ks.solve_opening("5♥ 6♥ 7♥ 8♥ 7♣ JK JK", (1, 1))
    assert o.leftover == [] and o.leftover_penalty == 0


def test_V6_complete_suit_stands_for_three_runs():
    hand = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"
    assert ks.solve_opening(hand, 4) is None
    o = ks.solve_opening(hand, 4, rules=ks.Rules(complete_suit_for_three_runs=True))
    assert o.leftover == []


def test_solver_bad_contract_is_a_clear_error():
    with pytest.raises(ValueError, match=r"contract=10.*1-9"):
        ks.solve_opening("A♠", 10)
    with pytest.raises(ValueError, match=r"contract=\(0, 5\)"):
        ks.solve_opening("A♠", (0, 5))


def check_opening(codes, contract, o, rules=None):
    """Every card once; every meld valid; R5 distinct ranks/suits; contract met; penalty right."""
    g, r = ks.Rules().contract(contract) if isinstance(contract, int) else contract
    parsed = [to_codes(m, rules).tolist() for m in o.melds]
    laid = Counter(c for m in parsed for c in m) + Counter(to_codes(o.leftover, rules).tolist())
    assert laid == Counter(codes.tolist())
    kinds = [ks.meld_kind(m) if rules is None else
             ("group" if is_group(to_ref(m)) else "run" if run_positions(to_ref(m)) else None)
             for m in parsed]
    assert None not in kinds
    grp = [m for m, k in zip(parsed, kinds, strict=True) if k == "group"]
    run = [m for m, k in zip(parsed, kinds, strict=True) if k == "run"]
    assert len(grp) >= g and len(run) >= r
    assert len({next(c % 13 for c in m if c != ks.JOKER) for m in grp}) == len(grp)
    assert len({next(c // 13 for c in m if c != ks.JOKER) for m in run}) == len(run)
    assert o.leftover_penalty == int(PENALTY[to_codes(o.leftover, rules)].sum())


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(9, 23),
    contract=st.integers(1, 9),
    joker_rich=st.booleans(),
)
def test_property_opening_is_a_valid_partition(seed, n, contract, joker_rich):
    codes = random_hand(np.random.default_rng(seed), n, joker_rich)
    o = ks.solve_opening(codes, contract)
    if o is not None:
        check_opening(codes, contract, o)


def _compare_with_reference(rng, n_hands):
    rules = ks.Rules()
    for i in range(n_hands):
        n = int(rng.integers(9, 24))
        contract = i % 9 + 1
        codes = random_hand(rng, n, joker_rich=(i % 3 == 0))
        g, r = rules.contract(contract)
        ref = best_opening_value(to_ref(codes), g, r)
        o = ks.solve_opening(codes, contract)
        if ref is None:
            assert o is None, (ks.parse_cards(codes), contract)
        else:
            assert o is not None, (ks.parse_cards(codes), contract)
            total = int(PENALTY[codes].sum())
            assert total - o.leftover_penalty == ref, (ks.parse_cards(codes), contract)
            check_opening(codes, contract, o)


def test_solver_matches_exhaustive_search_on_random_hands():
    _compare_with_reference(np.random.default_rng(2024), 1500)


def test_solver_matches_exhaustive_search_on_near_contract_hands():
    """Hands built to almost lay each contract, where the search is hardest."""
    rng = np.random.default_rng(7)
    rules = ks.Rules()
    for i in range(600):
        contract = i % 9 + 1
        g, r = rules.contract(contract)
        cards = []
        for k in rng.choice(np.arange(13), g, replace=False):
            cards += [int(s) * 13 + int(k) for s in rng.choice(8, 3, replace=False) % 4]
        for s in rng.choice(4, r, replace=False):
            lo = int(rng.integers(0, 10))
            cards += [int(s) * 13 + (lo + j) % 13 for j in range(4)]
        extra = rng.choice(108, int(rng.integers(0, 6)), replace=False)
        cards += [52 if x >= 104 else int(x) % 52 for x in extra]
        drop = rng.choice(len(cards), int(rng.integers(0, 3)), replace=False)
        codes = np.array([c for j, c in enumerate(cards) if j not in set(drop.tolist())])
        if max(Counter(codes.tolist()).get(c, 0) for c in range(52)) > 2:
            continue
        if (codes == 52).sum() > 4:
            continue
        ref = best_opening_value(to_ref(codes), g, r)
        o = ks.solve_opening(codes, contract)
        got = None if o is None else int(PENALTY[codes].sum()) - o.leftover_penalty
        assert got == ref, (ks.parse_cards(codes), contract)


@pytest.mark.slow
def test_solver_matches_exhaustive_search_many_hands():
    _compare_with_reference(np.random.default_rng(99), 10000)


def test_reference_helpers_agree_with_meld_kind(rng):
    # the twin's meld checks and the package's agree on random 3-6 card sequences
    for _ in range(3000):
        n = int(rng.integers(3, 7))
        s = int(rng.integers(0, 4))
        lo = int(rng.integers(1, 12))
        codes = [52 if rng.random() < 0.25 else s * 13 + (lo + j - 1) % 13 for j in range(n)]
        if rng.random() < 0.3:
            k = int(rng.integers(0, 13))
            codes = [52 if rng.random() < 0.3 else int(rng.integers(0, 4)) * 13 + k
                     for _ in range(n)]
        if any(n > (4 if c == 52 else 2) for c, n in Counter(codes).items()):
            continue
        ref = "group" if is_group(to_ref(codes)) else ("run" if run_positions(to_ref(codes))
                                                        else None)
        assert ks.meld_kind(codes) == ref, ks.parse_cards(codes)


# -- issue 7: jokers over held naturals, joker-rich packs (R3, R4, R5, R7) -------------------


@pytest.mark.parametrize(
    "hand, contract, rules, left, pen",
    [
        # A♣ JK 3♣ JK keeps the 2♣ (2) and lays both jokers; A♣ 2♣ 3♣ JK would keep a joker (50)
        ("A♣ 2♣ 3♣ JK JK", (0, 1), ks.Rules(), ["2♣"], 2),
        ("A♣ 2♣ 3♣ Q♠ K♠ A♠ JK JK JK", (0, 2), ks.Rules(jokers=8), ["2♣"], 2),
        # from a 30-joker pack (the old solver left 70)
        ("2♣ 3♣ 6♣ 4♦ 10♦ A♠ J♠ K♠ JK JK JK JK JK", (0, 2), ks.Rules(decks=3, jokers=30),
         None, 35),
    ],
)
def test_R4_R7_solver_plays_joker_over_held_natural(hand, contract, rules, left, pen):
    o = ks.solve_opening(hand, contract, rules)
    codes = to_codes(hand, rules)
    assert o.leftover_penalty == pen
    if left is not None:
        assert o.leftover == left
    check_opening(codes, contract, o, rules)
    ref = best_opening(to_ref(codes), *contract)
    assert ref == (int(PENALTY[codes].sum()) - pen, len(codes) - len(o.leftover))


def joker_rich_hand(rng, decks, jokers, max_cards=20):
    """A hand built near a random (groups, runs) contract from a pack of ``decks`` decks and
    ``jokers`` jokers: partial groups and runs, a few stray cards, 0-8 jokers."""
    g = int(rng.integers(0, 4))
    r = int(rng.integers(0, 5)) or (0 if g else 1)
    cards = []
    for k in rng.choice(13, g, replace=False):
        cards += [int(s) * 13 + int(k) for s in rng.choice(4, int(rng.integers(1, 4)))]
    for s in rng.choice(4, r, replace=False):
        lo, n = int(rng.integers(0, 13)), int(rng.integers(3, 8))
        cards += [int(s) * 13 + (lo + j) % 13 for j in range(n) if rng.random() < 0.7]
    cards += [int(x) for x in rng.integers(0, 52, int(rng.integers(0, 4)))]
    cnt = Counter(cards)
    cards = [c for c in cnt for _ in range(min(cnt[c], decks))]
    nj = int(rng.integers(0, min(jokers, 8) + 1))
    if len(cards) > max_cards - nj:
        cards = [int(c) for c in rng.permutation(cards)[: max_cards - nj]]
    if rng.random() < 0.5 and g + r > 1:
        g = max(0, g - 1)
    return np.array(cards + [ks.JOKER] * nj, dtype=np.int64), (g, r)


def _compare_joker_rich(rng, n_hands):
    for _ in range(n_hands):
        rules = ks.Rules(decks=int(rng.integers(2, 5)), jokers=int(rng.integers(4, 31)))
        codes, contract = joker_rich_hand(rng, rules.decks, rules.jokers)
        ref = best_opening(to_ref(codes), *contract)
        o = ks.solve_opening(codes, contract, rules)
        got = None if o is None else (int(PENALTY[codes].sum()) - o.leftover_penalty,
                                      len(codes) - len(o.leftover))
        assert got == ref, (ks.parse_cards(codes, rules), contract)
        if o is not None:
            check_opening(codes, contract, o, rules)


def test_R3_R4_R5_solver_matches_twin_on_joker_rich_packs():
    """3-4 decks, 6-30 jokers, hands near a contract: value and leftover count as the twin."""
    _compare_joker_rich(np.random.default_rng(31), 600)


@pytest.mark.slow
def test_R3_R4_R5_solver_matches_twin_on_joker_rich_packs_many():
    _compare_joker_rich(np.random.default_rng(32), 4000)
