"""R1: card text, the pack, penalty values."""

import pytest

import kalooki_sim as ks
from kalooki_sim.game.cards import JOKER, card_text, to_codes


def test_R1_unicode_ascii_and_lower_case_agree():
    assert ks.parse_cards("K♠ 10♥ 7♦ A♣ JK") == ["K♠", "10♥", "7♦", "A♣", "JK"]
    assert ks.parse_cards("KS 10H TH 7D AC") == ["K♠", "10♥", "10♥", "7♦", "A♣"]
    assert ks.parse_cards("ks th 7d ac jk, qc") == ["K♠", "10♥", "7♦", "A♣", "JK", "Q♣"]
    assert ks.parse_cards(["k♠", "Joker", "jk", "ac"]) == ["K♠", "JK", "JK", "A♣"]
    assert ks.parse_cards([51, 52, 52, 0]) == ["K♠", "JK", "JK", "A♣"]


def test_R1_a_list_is_texts_or_codes_never_a_mix():
    # ["KS", 7]: 7 is the code of 8♣, more likely a typo for "7♠"; so a list is one or the other
    with pytest.raises(TypeError, match=r"not a mix"):
        ks.parse_cards(["k♠", "Joker", 52, 0])


def test_R1_every_code_round_trips():
    for code in range(53):
        assert to_codes(card_text(code)).tolist() == [code]


@pytest.mark.parametrize("bad", ["1♠", "11H", "KX", "Z", "10", "♠", "AA"])
def test_R1_unknown_token_is_named(bad):
    with pytest.raises(ValueError, match="unknown card") as e:
        ks.parse_cards(f"K♠ {bad}")
    assert repr(bad) in str(e.value)
    assert "JK" in str(e.value)  # says what is allowed


def test_R1_pack_cannot_hold_third_copy_or_fifth_joker():
    with pytest.raises(ValueError, match="3 copies of 7♥.*108-card pack.*at most 2"):
        ks.parse_cards("7♥ 7h 7H")
    with pytest.raises(ValueError, match="5 jokers.*at most 4"):
        ks.parse_cards("JK JK JK JK JK")
    # with three decks (V1) a third copy is fine
    assert ks.parse_cards("7♥ 7h 7H", rules=ks.Rules(decks=3, jokers=6)) == ["7♥"] * 3


def test_R1_bad_code_and_type():
    with pytest.raises(ValueError, match="card code=53 is not allowed"):
        ks.parse_cards([53])
    with pytest.raises(TypeError, match=r"cards=7 is not allowed"):
        ks.parse_cards(7)


def test_R1_penalty_values():
    assert ks.penalty("JK") == 50
    assert ks.penalty("A♠") == ks.penalty("A♣") == 15
    assert ks.penalty("A♥") == ks.penalty("A♦") == 1
    assert ks.penalty("K♠ Q♥ J♦ 10♣") == 40
    assert [ks.penalty(f"{r}♣") for r in range(2, 10)] == list(range(2, 10))
    assert ks.penalty("") == 0


def test_R12_card08_rival_penalty_is_73():
    assert ks.penalty("A♠ A♥ JK 7♦") == 73


def test_pack_penalty_total():
    # two decks: 2 * (15+1+15+1 + 4*(2+..+9) + 16*10) + 4*50
    per_deck = 15 + 1 + 15 + 1 + 4 * sum(range(2, 10)) + 16 * 10
    assert int(ks.PENALTY[:52].sum()) == per_deck
    assert ks.PENALTY[JOKER] == 50
