"""R10 lay-offs and R11 joker moves, against RULES.md's examples and the reference twin."""

import pytest
from conftest import to_ref
from reference import lay_off_run

import kalooki_sim as ks
from kalooki_sim.game.cards import JOKER, card_text


def test_R11_card06_example_then_R10_low_end_still_illegal():
    after = ks.lay_off("8♥ JK 10♥ J♥", "9♥")
    assert after == ["8♥", "9♥", "10♥", "J♥", "JK"]  # the joker now stands for Q♥
    assert ks.lay_off(after, "7♥") is None
    assert not ks.can_lay_off("8♥ 9♥ 10♥ J♥", "7♥")


def test_R10_runs_grow_up_first():
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "Q♥") == ["8♥", "9♥", "10♥", "J♥", "Q♥"]
    assert ks.lay_off("J♥ Q♥ K♥ A♥", "10♥") == ["10♥", "J♥", "Q♥", "K♥", "A♥"]
    assert ks.lay_off("10♥ J♥ Q♥ K♥", "A♥") == ["10♥", "J♥", "Q♥", "K♥", "A♥"]
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "K♥") is None  # not the next position
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "Q♠") is None  # other suit


def test_V3_free_extension_allows_the_low_end():
    rules = ks.Rules(free_extension=True)
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "7♥", rules=rules) == ["7♥", "8♥", "9♥", "10♥", "J♥"]


def test_R11_joker_already_at_high_ace_moves_below_the_bottom():
    assert ks.lay_off("J♥ Q♥ K♥ JK", "A♥") == ["JK", "J♥", "Q♥", "K♥", "A♥"]


def test_R4_complete_run_takes_nothing():
    full = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠"
    for card in ["A♠", "JK", "2♠"]:
        assert ks.lay_off(full, card) is None
    # and a joker in a complete run cannot move, so its natural cannot replace it
    assert ks.lay_off("2♠ 3♠ 4♠ 5♠ JK 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠", "6♠") is None
    # 12 cards: the joker's move completes the suit, which is allowed
    assert ks.lay_off("3♠ 4♠ 5♠ JK 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠", "6♠")[0] == "JK"


def test_R11_joker_move_may_not_touch_another_joker():
    assert ks.lay_off("8♥ JK 10♥ JK", "9♥") is None
    # the other joker can be replaced: it moves to Q, next to J which is natural
    assert ks.lay_off("8♥ JK 10♥ JK", "J♥") == ["8♥", "JK", "10♥", "J♥", "JK"]


def test_R10_jokers_only_on_own_melds_and_never_adjacent():
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "JK") == ["8♥", "9♥", "10♥", "J♥", "JK"]
    assert ks.lay_off("8♥ 9♥ 10♥ J♥", "JK", own=False) is None
    assert ks.lay_off("8♥ 9♥ 10♥ JK", "JK") is None  # would touch the top joker
    assert ks.lay_off("7♣ 7♥ 7♦", "JK", own=False) is None
    assert ks.lay_off("7♣ 7♥ 7♦", "JK") == ["7♣", "7♥", "7♦", "JK"]
    # V5 lets jokers go on others' melds
    assert ks.lay_off("7♣ 7♥ 7♦", "JK", own=False, rules=ks.Rules(jokers_on_others=True))


def test_R10_groups_take_naturals_of_their_rank_from_anyone():
    assert ks.lay_off("7♣ 7♥ JK", "7♥", own=False) == ["7♣", "7♥", "7♥", "JK"]
    assert ks.lay_off("7♣ 7♥ JK", "8♥") is None


def test_R3_joker_in_a_group_never_moves():
    assert ks.lay_off("7♣ 7♥ JK", "7♠") == ["7♣", "7♥", "7♠", "JK"]


def test_lay_off_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="not a meld"):
        ks.lay_off("7♣ 8♥ 9♦", "7♠")
    with pytest.raises(ValueError, match="exactly one card"):
        ks.lay_off("7♣ 7♥ 7♦", "7♠ 7♠")


def _all_runs():
    """Every run of hearts up to 7 long with up to two jokers (non-adjacent)."""
    for lo in range(1, 12):
        for n in range(4, 8):
            hi = lo + n - 1
            if hi > 14:
                continue
            for jm in range(1 << n):
                if jm & (jm >> 1) or bin(jm).count("1") > 2:
                    continue
                cards = [
                    JOKER if (jm >> i) & 1 else 2 * 13 + ((lo + i - 1) % 13)
                    for i in range(n)
                ]
                if ks.meld_kind(cards) == "run":
                    yield cards


@pytest.mark.parametrize("free", [False, True])
def test_lay_off_matches_reference_twin_on_every_small_run(free):
    rules = ks.Rules(free_extension=free)
    checked = 0
    for run in _all_runs():
        for card in [JOKER] + list(range(26, 39)) + [0]:
            for own in (True, False):
                got = ks.lay_off(run, card, own=own, rules=rules)
                ref = lay_off_run(to_ref(run), to_ref([card])[0], own=own, free_extension=free)
                ref_txt = None if ref is None else [card_text(c) for c in _codes(ref)]
                assert got == ref_txt, (ks.parse_cards(run), card_text(card), own)
                checked += 1
    assert checked > 10000


def _codes(ref_cards):
    return [JOKER if c == "JK" else c[0] * 13 + c[1] - 1 for c in ref_cards]
