"""Issue 17, the players' own faults: places where a policy did not do what its documentation
says (no rule was broken). Each test replays real traces and checks the documented behaviour.

The traces are replayed by :func:`table_states`, a small bookkeeper of the hands and the melds
on the table (the referee in :mod:`kalooki_sim.game.referee` checks the rules themselves).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections import Counter
from pathlib import Path

import kalooki_sim as ks
from kalooki_sim.game.referee import check

TULUKI = ks.Rules(players=2, tuluki=True)


def table_states(records):
    """Yield ``(rec, hands, melds)`` for every record, with the state before it: ``hands[seat]``
    a Counter of card texts; ``melds[m]`` = (owner, kind, cards), a run's cards as a dict
    position -> card, a group's as a list."""
    hands: dict = {}
    melds: dict = {}
    for rec in records:
        yield rec, hands, melds
        e, seat = rec["event"], rec["seat"]
        if e == "hand":
            hands, melds = {}, {}
        elif e in ("deal", "take", "call", "penalty", "draw"):
            hands.setdefault(seat, Counter())[rec["card"]] += 1
        elif e == "discard":
            hands[seat][rec["card"]] -= 1
        elif e == "meld":
            for card, _ in rec["cards"]:
                hands[seat][card] -= 1
            cards = ({p: c for c, p in rec["cards"]} if rec["kind"] == "run"
                     else [c for c, _ in rec["cards"]])
            melds[rec["meld"]] = (seat, rec["kind"], cards)
        elif e == "layoff":
            hands[seat][rec["card"]] -= 1
            _, kind, cards = melds[rec["meld"]]
            if kind == "run":
                cards[rec["position"]] = rec["card"]  # R11: a joker there moves next record
            else:
                cards.append(rec["card"])
        elif e == "joker_move":
            melds[rec["meld"]][2][rec["to"]] = "JK"


def meld_text(kind, cards):
    return [cards[p] for p in sorted(cards)] if kind == "run" else list(cards)


def rank(card):
    return None if card == "JK" else card[:-1]


# -- 1. hold-for-double calls only a card that completes its contract (R9, R7) ------------------


def test_hold_for_double_calls_only_a_card_that_completes_the_contract_R9_R7():
    rules = ks.Rules(players=8, pack="by-table")
    calls = 0
    for game in (7, 8, 9):
        t = ks.trace(seed=3072, game=game, hand=1, policies="hold-for-double", rules=rules)
        contract = None
        for rec, hands, _ in table_states(t.records):
            if rec["event"] == "hand":
                contract = (rec["groups"], rec["runs"])
            if rec["event"] == "call":
                calls += 1
                cards = list((hands[rec["seat"]] + Counter([rec["card"]])).elements())
                assert ks.solve_opening(cards, contract, rules=rules) is not None, (
                    f"game {game}: seat {rec['seat']} calls {rec['card']} holding "
                    f"{' '.join(sorted(hands[rec['seat']].elements()))}")
        assert check(t.records, t.rules) >= 1
    assert calls >= 1


# -- 2. a joker picked up is no rank: defend refuses only a rank A picked up (V9, R9) -----------


def test_defend_refuses_only_a_rank_of_a_natural_picked_up_not_a_joker_V9_R9():
    refusals = 0
    for game in range(5):
        t = ks.trace(seed=3709, game=game, hand=1, policies=[ks.tuned_policy(1)] * 2,
                     rules=TULUKI)
        took: dict = {}
        for rec in t.records:
            e, seat = rec["event"], rec["seat"]
            if e == "hand":
                took = {}
            elif e in ("take", "call"):
                took.setdefault(seat, set()).add(rank(rec["card"]))
            elif e == "refuse":
                refusals += 1
                a = 1 - seat
                assert rank(rec["card"]) in took.get(a, set()), (
                    f"game {game}: seat {seat} refuses {rec['card']}; seat {a} picked up "
                    f"only {sorted(took.get(a, set()))}")
        assert check(t.records, t.rules) >= 1
    assert refusals >= 1  # games 2 and 4: refusals of a rank A did pick up


# -- 3. an opened B takes a turned card it can lay off now: R11 joker, V3 low end (V9) -----------


def turned_passes_that_could_lay_off(t):
    """The turned cards an opened B passed on (``turned_take``) that fit a meld on the table."""
    bad = []
    opened: set = set()
    for rec, _, melds in table_states(t.records):
        e, seat = rec["event"], rec["seat"]
        if e == "hand":
            opened = set()
        elif e == "open":
            opened.add(seat)
        elif e == "decline" and rec["as"] == "turned_take" and seat in opened:
            for m, (owner, kind, cards) in melds.items():
                if ks.can_lay_off(meld_text(kind, cards), rec["card"], own=owner == seat,
                                  rules=t.rules):
                    bad.append((seat, rec["card"], m, meld_text(kind, cards)))
    return bad


def test_tuluki_opened_b_takes_a_turned_card_that_replaces_a_joker_R11_V9():
    t = ks.trace(seed=3717, game=5, hand=2, policies="greedy", rules=TULUKI)
    assert turned_passes_that_could_lay_off(t) == []
    assert check(t.records, t.rules) >= 1


def test_tuluki_opened_b_takes_a_turned_card_for_a_runs_low_end_under_free_extension_V3_V9():
    # the opened seat 1 passed on 2♣ with 3♣-9♣ on the table (V3: 2♣ may go below the 3♣)
    t = ks.trace(seed=1, game=4, hand=4, policies="greedy", rules=TULUKI.with_(free_extension=True))
    assert turned_passes_that_could_lay_off(t) == []
    assert check(t.records, t.rules) >= 1


# -- 4. hold_turns: hold on own turns 1 to hold_turns, open normally after them (R7, R12) --------


def test_hold_lasts_exactly_hold_turns_own_turns_R7_R12():
    for pol in ("hold-for-double", ks.Policy("hold-1", hold=True, hold_turns=1)):
        limit = ks.preset(pol).hold_turns
        df = ks.play_hands(300, hand=1, policies=pol, seed=1, threads=1)
        held = df[df["opened"] & (df["open_turn"] <= limit)]
        # an opening within the hold leaves at most one card, discarded at once: out on it
        assert held["out_on_opening"].all(), held["open_turn"].value_counts()
        # and after it the player opens as soon as it can
        assert (df.loc[df["opened"], "open_turn"] == limit + 1).any()
    never = ks.play_hands(100, hand=1, policies=ks.Policy("h0", hold=True, hold_turns=0), seed=1,
                          threads=1)
    greedy = ks.play_hands(100, hand=1, policies="greedy", seed=1, threads=1)
    assert never["open_turn"].equals(greedy["open_turn"])


# -- 5. documentation ------------------------------------------------------------------------


def test_preset_lists_name_every_preset_V8():
    summary = " ".join(inspect.getdoc(ks.preset).split("* ``greedy``")[0].split())
    listed = inspect.getdoc(ks.play_hands).split("policies :")[1].split("seed :")[0]
    for name in ("random", "greedy", "never-call", "call-<k>", "hold-for-double", "expert"):
        assert f"``{name}``" in summary, name
        assert f"``{name}``" in " ".join(listed.split()), name


def test_trace_documents_declines_of_seats_whose_policy_never_calls_R9():
    t = ks.trace(seed=3, game=0, hand=1, policies=["never-call", "call-1", "greedy", "greedy"])
    declines = Counter(r["seat"] for r in t.records
                       if r["event"] == "decline" and r["as"] == "call")
    assert declines[0] > 0  # never-call: offered every call, declines each
    doc = " ".join(importlib.import_module("kalooki_sim.engine.trace").__doc__.split())
    assert "never-call" in doc and "call-<k>" in doc


def test_tuluki_pack_other_than_the_cards_is_allowed_V9_6_V1():
    rules = TULUKI.with_(decks=3, jokers=6)
    t = ks.trace(seed=2, game=0, hand=4, rules=rules)
    assert check(t.records, t.rules) >= 1
    text = (Path(ks.__file__).parent / "RULES.md").read_text()
    v96 = " ".join(re.search(r"V9\.6(.*?)- Simulated", text, re.S).group(1).split())
    assert "other packs" in v96 and "V1" in v96
