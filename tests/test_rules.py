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
    "kwargs, err, msg",
    [
        ({"players": 9}, ValueError, "players=9 is not allowed; give an integer 3-8"),
        ({"players": 2}, ValueError, "Tuluki"),
        ({"players": 3, "tuluki": True}, ValueError, "two-player"),
        ({"players": "4"}, TypeError, "integer"),
        ({"call_limit": -1}, ValueError, "call_limit=-1"),
        ({"free_extension": 1}, TypeError, "True or False"),
    ],
)
def test_rules_validation_names_the_bad_value(kwargs, err, msg):
    with pytest.raises(err, match=msg):
        ks.Rules(**kwargs)


def test_V9_two_players_with_tuluki():
    assert ks.Rules(players=2, tuluki=True).players == 2


def test_V1_pack_by_table_follows_the_player_count():
    assert ks.Rules().pack == "card" and ks.Rules().pack_size == 108
    for players, decks, jokers in [(3, 2, 4), (4, 2, 4), (5, 3, 6), (6, 3, 6), (7, 4, 8),
                                   (8, 4, 8)]:
        r = ks.Rules(players=players, pack="by-table")
        assert (r.decks, r.jokers, r.pack_size) == (decks, jokers, 52 * decks + jokers)
    # giving the table's own values is fine; anything else says the pack sets them
    assert ks.Rules(players=7, pack="by-table", decks=4, jokers=8).pack_size == 216
    with pytest.raises(ValueError, match=r"decks=3 is not allowed with pack='by-table'"):
        ks.Rules(players=7, pack="by-table", decks=3)
    with pytest.raises(ValueError, match=r"jokers=5 is not allowed with pack='by-table'"):
        ks.Rules(pack="by-table", jokers=5)
    # the card's pack with 7 players is too small and says how to get a larger one
    with pytest.raises(ValueError, match=r"more decks \(V1\) or pack='by-table'"):
        ks.Rules(players=7)


def test_V1_pack_by_table_with_():
    r = ks.Rules(players=5, pack="by-table")
    assert r.with_(players=7).decks == 4 and r.with_(players=3).decks == 2
    assert r.with_(call_limit=1).decks == 3
    back = r.with_(pack="card")
    assert (back.decks, back.jokers) == (2, 4) and back.pack == "card"
    assert r.with_(pack="card", decks=3, jokers=6).pack_size == 162
    assert ks.Rules(players=7, decks=4, jokers=8).with_(pack="by-table").pack_size == 216
    assert ks.Rules().with_(players=8, pack="by-table").pack_size == 216


def test_max_replays():
    default = ks.Rules().max_replays
    assert type(default) is int and default >= 1000
    assert ks.Rules(max_replays=0).max_replays == 0
    assert ks.Rules(max_replays=10**7).with_(players=5).max_replays == 10**7
    with pytest.raises(ValueError, match=r"max_replays=10000001 is not allowed"):
        ks.Rules(max_replays=10**7 + 1)


def test_V8_policy_call_limits():
    from kalooki_sim.engine._kernels import engine as E

    # presets without a number call up to the rules' limit: no limit of their own (-1)
    for name in ("greedy", "random", "hold-for-double"):
        p = ks.preset(name)
        assert p.call_limit is None and p.vector()[E.P_CALL_LIMIT] == -1
    # call-<k> and never-call carry their own limit; the engine takes min(rules, policy)
    assert ks.preset("call-2").vector()[E.P_CALL_LIMIT] == 2
    assert ks.preset("call-7").call_limit == 7
    assert ks.preset("never-call").vector()[E.P_CALL_LIMIT] == 0
    assert ks.Policy(call_limit=1).vector()[E.P_CALL_LIMIT] == 1
    assert "smaller of" in ks.Policy.__doc__ and "call_gain" in ks.Policy.__doc__


def test_with_revalidates():
    r = ks.Rules().with_(call_limit=1)
    assert r.call_limit == 1
    with pytest.raises(ValueError):
        r.with_(players=1)
