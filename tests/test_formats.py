"""Named formats (V7): Kalooki, Super Kalooki, Jamaican, Baby Kalooki, reachable by name."""

import pytest

import kalooki_sim as ks
from kalooki_sim.game.rules import FORMATS, JAMAICAN_SCHEDULE


def test_V7_formats_are_slices_of_the_jamaican_nine():
    assert ks.Rules.jamaican().schedule == JAMAICAN_SCHEDULE == ks.Rules().schedule
    assert ks.Rules.kalooki().schedule == JAMAICAN_SCHEDULE[:4]
    assert ks.Rules.super_kalooki().schedule == JAMAICAN_SCHEDULE[4:]
    assert ks.Rules.super_kalooki(players=5, call_limit=2).call_limit == 2
    assert set(FORMATS) == {"jamaican", "kalooki", "super-kalooki"}


@pytest.mark.parametrize("name, hands, start", [("kalooki", 4, 1), ("super-kalooki", 5, 5),
                                                ("Super Kalooki", 5, 5), ("jamaican", 9, 1)])
def test_V7_formats_by_name_wherever_rules_are_chosen(name, hands, start):
    g = ks.play_games(10, rules=name, seed=2)
    assert g["hand"].max() == hands and g["complete"].all()
    h = ks.play_hands(20, hand=1, rules=name, players=5, seed=2)
    assert h["players"].iat[0] == 5
    first = JAMAICAN_SCHEDULE[start - 1]  # the format's hand 1 is the Jamaican hand `start`
    assert (h["cards_dealt"].iat[0], h["groups"].iat[0], h["runs"].iat[0]) == first
    assert ks.trace(1, hand=1, rules=name).records[0]["hand"] == 1
    t = ks.tournament(["greedy", "expert", "greedy", "greedy"], games=4, rules=name)
    assert len(t) == 2


def test_V7_baby_kalooki_needs_the_users_eight_card_schedule():
    r = ks.Rules.baby_kalooki([(8, 2, 0), (8, 1, 1), (8, 0, 2)])
    assert r.hands == 3 and all(c == 8 for c, _, _ in r.schedule)
    assert len(ks.play_games(5, rules=r, seed=1)) == 5 * 3 * 4
    with pytest.raises(ValueError, match="8 cards in every hand"):
        ks.Rules.baby_kalooki([(9, 3, 0)])
    with pytest.raises(ValueError, match="need 12 cards"):
        ks.Rules.baby_kalooki([(8, 0, 3)])
    with pytest.raises(ValueError, match="not in the article"):
        ks.play_hands(1, rules="baby-kalooki")
    with pytest.raises(ValueError, match="format name"):
        ks.play_hands(1, rules="canasta")
