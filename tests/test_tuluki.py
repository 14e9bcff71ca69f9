"""V9 Tuluki, the two-player game: each step of its discard step on hand-built engine positions,
the referee over real Tuluki traces for every preset, and the entry points.

Hand-built positions: a table is dealt by :func:`engine.start_hand`, then the hands, the pile
and the top of the stock are replaced by the test's cards, with seat 0 (A) having discarded
``D`` and seat 1 (B) on turn; one :func:`engine.one_turn` is played and its draw-phase records
are compared. The policies are greedy vectors whose gains make them want every card (``ALWAYS``)
or none (``NEVER``), so each choice of the rule is reached directly.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import kalooki_sim as ks
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine.play import rules_vector
from kalooki_sim.engine.trace import _records
from kalooki_sim.game._kernels import layoff as L
from kalooki_sim.game.cards import card_text, to_codes
from kalooki_sim.game.referee import check

RT = ks.Rules(players=2, tuluki=True)
A, B = 0, 1
HAND_A = "2♣ 5♦ 9♥ J♠ K♣ 4♥ 7♠ 10♦ Q♥"
HAND_B = "3♣ 6♦ 8♥ Q♠ A♦ 5♠ 10♣ J♦ K♥"


def pol_vector(want, defend=False, call_limit=-1, take=None):
    """Greedy wanting every card (``want``) or none; ``take`` overrides it for takes."""
    v = ks.preset("greedy").vector()
    v[E.P_CALL_GAIN] = v[E.P_TAKE_GAIN] = -100 if want else 100
    if take is not None:
        v[E.P_TAKE_GAIN] = -100 if take else 100
    v[E.P_DEFEND] = 1.0 if defend else 0.0
    v[E.P_CALL_LIMIT] = call_limit
    return v


ALWAYS, NEVER = pol_vector(True), pol_vector(False)


def position(D, top, hand_a=HAND_A, hand_b=HAND_B, opened=(0, 0), calls=(0, 0), took_a=(),
             pile=(), stock_n=None, reshuffled=False, group_of=None, rules=RT):
    """Table after A's discard ``D`` (on ``pile``), the stock's top cards ``top`` (first drawn
    first), B on turn; ``group_of``: a rank B has a group of on the table."""
    rv = rules_vector(rules, 1)
    t = E.new_table(2, rules.pack_size, log_on=True)
    E.start_hand(rv, t, E.Deal(0, 0, 1, 0, 0))
    hand, ps, gs, stock, disc, melds = t[:6]
    hand[:, :] = 0
    pack = Counter({c: rules.decks for c in range(52)})
    pack[E.JOKER] = rules.jokers
    for seat, cards in ((A, hand_a), (B, hand_b)):
        for c in to_codes(cards):
            hand[seat, c] += 1
            pack[c] -= 1
    pile = list(to_codes(pile)) + [int(to_codes(D)[0])]
    top = list(to_codes(top))
    for c in pile + top:
        pack[c] -= 1
    rest = list(pack.elements())
    if stock_n is not None:  # a short stock: the rest goes under the pile
        pile = rest[stock_n:] + pile
        rest = rest[:stock_n]
    st = rest + top[::-1]  # the top of the stock is the end of the array
    stock[:len(st)] = st
    gs[E.GS_STOCK_N] = len(st)
    disc[:len(pile)] = pile
    gs[E.GS_DISC_N] = len(pile)
    gs[E.GS_LIVE] = 1
    gs[E.GS_DISCARDER] = A
    gs[E.GS_CUR] = B
    gs[E.GS_RESHUFFLED] = 1 if reshuffled else 0
    ps[:, E.PS_OPENED] = opened
    ps[:, E.PS_CALLS] = calls
    for k in took_a:
        ps[A, E.PS_TOOK] |= 1 << k
    if group_of is not None:
        m = melds[0]
        m[:] = 0
        m[L.KIND], m[L.OWNER], m[L.KEY], m[L.NAT] = L.GROUP, B, group_of, 3
        gs[E.GS_N_MELDS] = 1
        ps[B, E.PS_BAN_R] |= 1 << group_of
    gs[E.GS_LOG_N] = 0
    return t, rv


def draw_step(t, rv, pol_a, pol_b):
    """Play B's turn; its records up to B's draw, as ``(event, seat, card, extra)``."""
    pol = np.stack([pol_a, pol_b])
    E.one_turn(rv, pol, t)
    recs = _records(t[6], int(t[2][E.GS_LOG_N]), {})[1:]
    out = []
    for r in recs[1:]:  # after the turn record
        if r["event"] in ("open", "meld", "layoff", "discard", "out", "no_discard"):
            break
        extra = r.get("as") or ("turned" if r.get("turned") else r.get("cards"))
        out.append((r["event"], r["seat"], r.get("card"), extra))
    return out


# -- each step and each choice ----------------------------------------------------------------


def test_V9a_B_calls_D_with_a_penalty_card_then_A_turns_up_for_B():
    t, rv = position("7♣", "2♦ 4♠")
    assert draw_step(t, rv, NEVER, ALWAYS) == [
        ("call", B, "7♣", None), ("penalty", B, "2♦", None), ("turn_up", A, "4♠", None),
        ("take", B, "4♠", "turned")]
    assert t[1][B, E.PS_CALLS] == 1 and t[1][A, E.PS_CALLS] == 0


def test_V9a_D_is_never_taken_and_a_pass_is_a_declined_call():
    t, rv = position("7♣", "4♠ 6♥")
    assert draw_step(t, rv, NEVER, NEVER) == [
        ("decline", B, "7♣", "call"), ("turn_up", A, "4♠", None),
        ("decline", B, "4♠", "turned_take"), ("decline", A, "4♠", "turned_call"),
        ("bury", A, "4♠", None), ("draw", B, "6♥", None)]


def test_V9b_B_takes_the_turned_card_as_its_draw_and_D_is_buried():
    t, rv = position("7♣", "4♠ 6♥")
    recs = draw_step(t, rv, NEVER, pol_vector(False, take=True))
    assert recs == [("decline", B, "7♣", "call"), ("turn_up", A, "4♠", None),
                    ("take", B, "4♠", "turned")]
    assert not any(r[0] == "draw" for r in recs)
    # the turned card is known to be in B's hand, and marks its rank
    assert t[0][E._known_row(t[0], B), to_codes("4♠")[0]] == 1
    assert (t[1][B, E.PS_TOOK] >> 4) & 1


def test_V9b_a_turned_joker_must_be_taken():
    t, rv = position("7♣", "JK 6♥")
    assert draw_step(t, rv, ALWAYS, NEVER) == [
        ("decline", B, "7♣", "call"), ("turn_up", A, "JK", None), ("take", B, "JK", "turned")]


def test_V9b_A_calls_the_turned_card_with_a_penalty_card_then_B_draws():
    t, rv = position("7♣", "4♠ 6♥ 8♦")
    assert draw_step(t, rv, ALWAYS, NEVER) == [
        ("decline", B, "7♣", "call"), ("turn_up", A, "4♠", None),
        ("decline", B, "4♠", "turned_take"), ("call", A, "4♠", "turned"),
        ("penalty", A, "6♥", None), ("draw", B, "8♦", None)]
    assert t[1][A, E.PS_CALLS] == 1


@pytest.mark.parametrize("took, b_opened, refused", [
    ((4,), 0, True),    # defend, and A has taken a 4 this hand: B refuses
    ((5,), 0, False),   # a rank A has not taken: B allows
    ((4,), 1, False),   # an opened B cannot refuse a valid call (R8)
])
def test_V9b_B_refuses_A_call_only_to_defend_a_rank_A_took(took, b_opened, refused):
    t, rv = position("7♣", "4♠ 6♥ 8♦", opened=(0, b_opened), took_a=took)
    recs = draw_step(t, rv, ALWAYS, pol_vector(False, defend=True))
    if refused:
        assert recs[-3:] == [("refuse", B, "4♠", None), ("bury", A, "4♠", None),
                             ("draw", B, "6♥", None)]
    else:
        assert ("call", A, "4♠", "turned") in recs and ("refuse", B, "4♠", None) not in recs


def test_V9b_without_defend_B_always_allows():
    t, rv = position("7♣", "4♠ 6♥ 8♦", took_a=(4,))
    assert ("call", A, "4♠", "turned") in draw_step(t, rv, ALWAYS, NEVER)


def test_R8_opened_B_is_offered_no_call_and_takes_a_turned_card_it_can_lay_off():
    t, rv = position("7♣", "4♠ 6♥", opened=(0, 1), group_of=4)
    assert draw_step(t, rv, NEVER, ALWAYS) == [
        ("turn_up", A, "4♠", None), ("take", B, "4♠", "turned")]
    t, rv = position("7♣", "4♠ 6♥", opened=(0, 1), group_of=9)  # 4♠ lays nowhere
    assert draw_step(t, rv, NEVER, ALWAYS)[:2] == [
        ("turn_up", A, "4♠", None), ("decline", B, "4♠", "turned_take")]


def test_R8_opened_A_cannot_call_the_turned_card():
    t, rv = position("7♣", "4♠ 6♥", opened=(1, 0))
    assert draw_step(t, rv, ALWAYS, NEVER) == [
        ("decline", B, "7♣", "call"), ("turn_up", A, "4♠", None),
        ("decline", B, "4♠", "turned_take"), ("bury", A, "4♠", None), ("draw", B, "6♥", None)]


def test_V8_the_call_limit_counts_both_kinds_of_call():
    # at the rules' limit neither is offered a call; under a policy's own limit they decline
    t, rv = position("7♣", "4♠ 6♥", calls=(3, 3))
    assert draw_step(t, rv, ALWAYS, NEVER) == [
        ("turn_up", A, "4♠", None), ("decline", B, "4♠", "turned_take"),
        ("bury", A, "4♠", None), ("draw", B, "6♥", None)]
    t, rv = position("7♣", "4♠ 6♥", calls=(1, 1))
    capped = pol_vector(True, call_limit=1)
    assert draw_step(t, rv, capped, pol_vector(False, call_limit=1))[0] == (
        "decline", B, "7♣", "call")
    t, rv = position("7♣", "4♠ 6♥", calls=(1, 1))
    assert ("decline", A, "4♠", "turned_call") in draw_step(t, rv, capped, NEVER)
    rv2 = rules_vector(RT.with_(call_limit=1), 1)
    t, _ = position("7♣", "4♠ 6♥", calls=(1, 1), rules=RT.with_(call_limit=1))
    assert draw_step(t, rv2, ALWAYS, ALWAYS) == [
        ("turn_up", A, "4♠", None), ("take", B, "4♠", "turned")]


def test_V9_a_buried_card_goes_onto_the_pile_and_is_not_live():
    t, rv = position("7♣", "4♠ 6♥", pile="9♣")
    draw_step(t, rv, NEVER, NEVER)
    gs, disc = t[2], t[4]
    pile = [card_text(int(c)) for c in disc[:gs[E.GS_DISC_N]]]
    assert pile[:3] == ["9♣", "7♣", "4♠"]  # D buried under the turned card
    assert gs[E.GS_LIVE] == 1 and gs[E.GS_DISCARDER] == B and len(pile) == 4  # B's discard
    # after the one reshuffle a buried card is dead: it can never come again (R13)
    t, rv = position("7♣", "4♠ 6♥", reshuffled=True)
    seen = t[0][E._seen_row(t[0])].copy()
    draw_step(t, rv, NEVER, NEVER)
    assert t[0][E._seen_row(t[0]), to_codes("4♠")[0]] == seen[to_codes("4♠")[0]] + 1


def test_R13_the_turn_up_reshuffles_an_empty_stock_and_voids_a_spent_one():
    t, rv = position("7♣", "", stock_n=0)
    recs = draw_step(t, rv, NEVER, NEVER)
    assert recs[0] == ("decline", B, "7♣", "call")
    assert recs[1][0] == "reshuffle" and recs[2][0] == "turn_up"
    t, rv = position("7♣", "", stock_n=0, reshuffled=True)
    assert draw_step(t, rv, NEVER, NEVER) == [("decline", B, "7♣", "call"),
                                              ("void", -1, None, None)]


def test_C1_the_upcard_is_the_dealers_discard_so_the_first_turn_starts_with_step_one():
    for game in range(6):
        recs = ks.trace(1, game=game, hand=2, rules=RT).records
        i = next(k for k, r in enumerate(recs) if r["event"] == "turn")
        dealer = recs[0]["dealer"]
        assert recs[i + 1]["event"] in ("call", "decline")
        assert recs[i + 1]["seat"] == 1 - dealer and recs[i + 1]["card"] == recs[i - 1]["card"]
        j = next(k for k, r in enumerate(recs) if r["event"] == "turn_up")
        assert recs[j]["seat"] == dealer


# -- the referee over real traces --------------------------------------------------------------

PRESETS = ["greedy", "expert", "random", "never-call", "call-2", "hold-for-double"]


def referee_tuluki(n, hand, policies, seed, rules=RT):
    df = ks.play_hands(n, hand=hand, policies=policies, seed=seed, rules=rules, voids=True)
    cols = ["seat", "dealer", "attempt", "penalty", "went_out", "calls", "opened", "cards_left",
            "void", "doubled", "out_on_opening", "open_turn", "turns", "reshuffled", "stalled"]
    events = Counter()
    for game in range(n):
        t = ks.trace(seed, game=game, hand=hand, policies=policies, rules=rules)
        assert check(t.records, t.rules, df.loc[df["game"] == game, cols]) >= 1
        events.update(r["event"] + ("/turned" if r.get("turned") else "") for r in t.records)
    return events


@pytest.mark.parametrize("preset", PRESETS)
def test_referee_passes_real_tuluki_traces_for_every_preset(preset):
    events = Counter()
    for hand in (1, 4, 8):
        events += referee_tuluki(3, hand, preset, seed=hand)
    assert events["turn_up"] > 0 and events["take/turned"] > 0


def test_referee_passes_mixed_tuluki_tables_and_variants():
    events = Counter()
    for pols in (["expert", "random"], ["greedy", "hold-for-double"], ["call-2", "never-call"]):
        events += referee_tuluki(6, 2, pols, seed=5)
    events += referee_tuluki(6, 3, "random", seed=6, rules=RT.with_(call_limit=1))
    for e in ("call", "call/turned", "bury", "take/turned", "penalty"):
        assert events[e] > 0, e


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS + [["expert", "random"]])
def test_referee_tuluki_sweep_slow(preset):
    for hand in range(1, 10):
        referee_tuluki(12, hand, preset, seed=100 + hand)


# -- entry points ------------------------------------------------------------------------------


def test_tuluki_plays_through_play_hands_play_games_trace_and_tournament():
    df = ks.play_hands(40, hand=2, rules=RT, seed=1)
    assert len(df) == 80 and set(df["seat"]) == {0, 1}
    assert df.loc[~df["void"], "went_out"].groupby(df["game"]).sum().eq(1).all()
    g = ks.play_games(2, rules=RT, seed=2, policies=["expert", "greedy"])
    assert set(g["hand"]) == set(range(1, 10))
    t = ks.trace(2, game=1, rules=RT, whole_game=True, policies=["expert", "greedy"])
    final = g.loc[(g["game"] == 1) & (g["attempt"] == g["attempts"] - 1)]
    assert check(t.records, t.rules) >= 9
    assert "turns up" in t.play_by_play()
    assert final["total"].notna().all()
    tt = ks.tournament(["expert", "greedy"], games=3, rules=RT, seed=1)
    assert sorted(tt["policy"]) == ["expert", "greedy"] and tt.attrs["players"] == 2


def test_two_players_without_tuluki_is_a_clear_error_naming_V9():
    with pytest.raises(ValueError, match="V9"):
        ks.play_hands(2, players=2)
    with pytest.raises(ValueError, match="V9"):
        ks.Rules(players=2)


def test_kalooki_rules_vectors_leave_the_tuluki_path_off():
    assert rules_vector(ks.Rules(), 1)[E.R_TULUKI] == 0
    assert rules_vector(RT, 1)[E.R_TULUKI] == 1


def test_call_decisions_branch_the_call_of_the_discard_in_tuluki():
    d = ks.call_decisions(6, hand=1, rules=RT, policies="greedy", seed=1)
    assert len(d) > 0 and set(d["decision"]) == {"call"}
    assert (d["d_penalty"] == d["penalty_act"] - d["penalty_pass"]).all()
