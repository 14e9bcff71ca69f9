"""The Rules object: R2 schedule, V-options and validation."""

import dataclasses

import pytest

import kalooki_sim as ks


def test_R2_jamaican_defaults():
    r = ks.Rules()
    assert r.players == 4 and r.decks == 2 and r.jokers == 4 and r.call_limit == 3
    assert r.pack_size == 108 and r.hands == 9
    assert [c for c, _, _ in r.schedule] == [9, 10, 11, 12, 12, 13, 14, 15, 16]
    assert [r.contract(h) for h in range(1, 10)] == [
        (3, 0), (2, 1), (1, 2), (0, 3), (4, 0), (3, 1), (2, 2), (1, 3), (0, 4)
    ]


def test_rules_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ks.Rules().players = 5


def test_V1_table_too_large_for_the_pack_is_a_clear_error():
    with pytest.raises(ValueError, match=r"7 players x 16 cards.*108.*more decks \(V1\)"):
        ks.Rules(players=7)
    assert ks.Rules(players=7, decks=3, jokers=6).pack_size == 162


def test_V2_early_big_deal():
    r = ks.Rules(early_big_deal=True)
    assert [c for c, _, _ in r.schedule[:4]] == [12, 12, 12, 12]
    assert r.contract(1) == (3, 0)


def test_V7_custom_schedule_and_bad_entries():
    baby = ks.Rules(schedule=[(8, 2, 0), (8, 1, 1)])
    assert baby.hands == 2 and baby.deal(2) == (8, 1, 1)
    with pytest.raises(ValueError, match="runs=5"):
        ks.Rules(schedule=[(12, 0, 5)])
    with pytest.raises(ValueError, match="at least one meld"):
        ks.Rules(schedule=[(12, 0, 0)])
    with pytest.raises(ValueError, match="hand=10"):
        ks.Rules().contract(10)


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"players": 9}, "players=9"),
        ({"players": 2}, "Tuluki"),
        ({"players": 3, "tuluki": True}, "two-player"),
        ({"players": "4"}, "integer"),
        ({"call_limit": -1}, "call_limit=-1"),
        ({"free_extension": 1}, "True or False"),
    ],
)
def test_rules_validation_names_the_bad_value(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        ks.Rules(**kwargs)


def test_with_revalidates():
    r = ks.Rules().with_(call_limit=1)
    assert r.call_limit == 1
    with pytest.raises(ValueError):
        r.with_(players=1)
