"""Call value per decision (issue 9): branching a hand at each take or call (R9).

The branches are checked three ways: the branch along the decision the policy made is the
unbranched hand, move for move; both branches pass the referee (cards conserved, every move
legal); and the values behave as the game says they must (a card that completes the contract
is worth taking).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim.analysis import mean_ci
from kalooki_sim.game.referee import check


@pytest.fixture(scope="module")
def greedy_h2():
    return ks.call_decisions(40, hand=2, policies="greedy", seed=11, pairing="stock")


def _attempt_records(records, attempt):
    """The records of one hand attempt in a trace (from its ``hand`` record to the next)."""
    out, keep = [], False
    for r in records:
        if r["event"] == "hand":
            keep = r["attempt"] == attempt
        if keep:
            out.append(r)
    return out


def _turn_records(records, turn):
    """The records of the table's ``turn``-th turn of a hand attempt."""
    out, k = [], 0
    for x in records:
        if x["event"] == "turn":
            k += 1
        if k == turn:
            out.append(x)
    return out


def test_R9_decision_rows_have_the_documented_columns(greedy_h2):
    d = greedy_h2
    from kalooki_sim.studies.decisions import COLUMNS
    assert tuple(d.columns) == COLUMNS
    assert set(d["decision"]) == {"take", "call"}
    for x in ("penalty", "out", "doubled"):
        assert np.allclose(d[f"d_{x}"], d[f"{x}_act"] - d[f"{x}_pass"])
    # a void branch scores 0 (R13); an out scores 0 (R12)
    assert (d.loc[d["void_act"] == 1, "penalty_act"] == 0).all()
    assert (d.loc[d["out_pass"] == 1, "penalty_pass"] == 0).all()
    assert (d["card"] != "JK").all() and (d["card_penalty"] <= 15).all()  # R6, R1
    # the next player's take comes first in each offer (R9.1)
    first = d.groupby(["game", "attempt", "turn"], sort=False)["decision"].first()
    calls_only = d.groupby(["game", "attempt", "turn"])["decision"].agg(lambda s: set(s))
    assert ((first == "take") | (calls_only.loc[first.index] == {"call"})).all()


def test_R9_branch_along_the_taken_decision_is_the_unbranched_hand(greedy_h2):
    d = greedy_h2
    rows = ks.play_hands(40, hand=2, policies="greedy", seed=11, voids=True)
    picked = pd.concat([d[d["taken"]].head(4), d[~d["taken"]].head(4)])
    for _, r in picked.iterrows():
        plain = ks.trace(11, game=int(r.game), hand=2, policies="greedy").records
        branch = ks.trace_decision(11, int(r.game), 2, int(r.turn), int(r.seat), bool(r.taken),
                                   attempt=int(r.attempt), policies="greedy",
                                   pairing="stock").records
        assert branch == _attempt_records(plain, int(r.attempt))
        # and the branch's outcome in the row is the seat's outcome in the real hand
        real = rows[(rows.game == r.game) & (rows.attempt == r.attempt) & (rows.seat == r.seat)]
        side = "act" if r.taken else "pass"
        pen = 0 if bool(real["void"].iat[0]) else int(real["penalty"].iat[0])
        assert r[f"penalty_{side}"] == pen
        assert r[f"out_{side}"] == int(real["went_out"].iat[0])
        assert r[f"doubled_{side}"] == int(real["doubled"].iat[0])


@pytest.mark.parametrize("policies, hand, pairing", [
    ("greedy", 2, "stock"), ("expert", 5, "seat"), ("random", 7, "seat"), ("greedy", 9, "seat"),
])
def test_R9_both_branches_conserve_cards_and_pass_the_referee(policies, hand, pairing):
    d = ks.call_decisions(6, hand=hand, policies=policies, seed=3, pairing=pairing)
    assert len(d) > 0
    rules = ks.Rules()
    for _, r in d.sample(min(len(d), 6), random_state=0).iterrows():
        plain = ks.trace(3, game=int(r.game), hand=hand, policies=policies).records
        before = [x for a in range(int(r.attempt)) for x in _attempt_records(plain, a)]
        for act in (True, False):
            t = ks.trace_decision(3, int(r.game), hand, int(r.turn), int(r.seat), act,
                                  attempt=int(r.attempt), policies=policies, pairing=pairing)
            # the referee reads a hand from its first attempt (R13)
            assert check(before + t.records, rules) == int(r.attempt) + 1
            # the forced answer is the one played, by the seat named, in the turn named
            mine = [x for x in _turn_records(t.records, int(r.turn)) if x["seat"] == r.seat
                    and x["event"] in ("take", "call", "decline")]
            assert mine, "the decision was never offered in the branch"
            moved = [x for x in mine if x["event"] in ("take", "call")]
            assert bool(moved) == act
            # its outcome is the row's
            score = [x for x in t.records if x["event"] == "score" and x["seat"] == r.seat]
            side = "act" if act else "pass"
            assert (score[0]["penalty"] if score else 0) == r[f"penalty_{side}"]


def test_R7_a_card_that_completes_the_contract_is_worth_taking():
    d = ks.call_decisions(150, hand=1, policies="greedy", seed=5)
    done = d[(d["needed_before"] >= 1) & (d["needed_after"] == 0)]
    assert len(done) >= 30
    m, lo, hi, _ = mean_ci(done["d_penalty"])
    assert hi < -5, (m, lo, hi)
    # and going out becomes likelier
    assert done["d_out"].mean() > 0


def test_C3_decisions_do_not_depend_on_threads_and_replicas_keep_the_main_line():
    a = ks.call_decisions(12, hand=3, policies="greedy", seed=8, threads=1)
    b = ks.call_decisions(12, hand=3, policies="greedy", seed=8, threads=2)
    pd.testing.assert_frame_equal(a, b)
    c = ks.call_decisions(12, hand=3, policies="greedy", seed=8, replicas=3)
    key = ["game", "attempt", "turn", "seat", "decision", "card", "needed_before", "taken"]
    pd.testing.assert_frame_equal(a[key], c[key])
    # a replica deals the hidden cards again: outcomes are means of 3 plays, not the real deal
    assert not np.allclose(a["penalty_act"], c["penalty_act"])
    assert ((c["out_act"] * 3).round(9) % 1 == 0).all()


def test_replicas_deal_again_only_what_the_seat_has_not_seen():
    """``reshuffle_unseen`` keeps the seat's hand, the table, the pile, the hand sizes and the
    cards others are known to hold (taken from the pile), and only permutes the rest."""
    from kalooki_sim.engine._kernels import branch as B
    from kalooki_sim.engine._kernels import engine as E
    from kalooki_sim.engine.play import rules_vector

    rules = ks.Rules()
    rv = rules_vector(rules, 3)
    pol = np.stack([ks.preset("random").vector()] * 4)
    moved = 0
    for game in range(30):
        t = E.new_table(4, rules.pack_size)
        E.start_hand(rv, t, E.Deal(2, game, 3, 0, 0))
        for _ in range(12):
            if E.one_turn(rv, pol, t):
                break
        before = [a.copy() for a in t[:6]]  # hand .. melds
        st = np.array([B.R.stream_key(1, game, 0, 0, 5), 0], np.uint64)
        B.reshuffle_unseen(1, t, st)
        hand, gs = t[0], t[2]
        P = 4
        keep = [1, P] + list(range(P + 4, 2 * P + 4))  # the seat, the dead cards, the known ones
        assert (hand[keep] == before[0][keep]).all()
        for p in (0, 2, 3):
            assert hand[p].sum() == before[0][p].sum()
            assert (hand[p] >= hand[P + 4 + p]).all()  # known cards stay where they are
        n = gs[E.GS_STOCK_N]
        assert n == before[2][E.GS_STOCK_N]
        pool = lambda h, st_: np.bincount(st_[:n], minlength=53) + h[[0, 2, 3]].sum(0)  # noqa
        assert (pool(hand, t[3]) == pool(before[0], before[3])).all()
        assert (t[4] == before[4]).all() and (t[5] == before[5]).all()
        moved += int((t[3][:n] != before[3][:n]).any())
    assert moved >= 25


@pytest.mark.parametrize("kw, msg", [
    (dict(n=-1, hand=1), "n=-1"),
    (dict(n=2, hand=10), "10"),
    (dict(n=2, hand=1, replicas=0), "replicas=0"),
    (dict(n=2, hand=1, policies="bogus"), "bogus"),
    (dict(n=2, hand=1, players=9), "players=9"),
])
def test_call_decisions_errors_name_the_bad_value(kw, msg):
    with pytest.raises((ValueError, TypeError), match=msg):
        ks.call_decisions(**kw)


def test_C3_seat_pairing_plays_the_same_game_and_pairs_tighter():
    """Dealing the rest of the stock by seat changes which card a draw gets but not the law of
    play (the stock is a random order of unseen cards): the branch along the policy's own
    answer scores like the real hand. And it pairs the two branches more tightly."""
    from kalooki_sim.analysis import variance_ratio

    seat = ks.call_decisions(120, hand=2, policies="greedy", seed=21)
    stock = ks.call_decisions(120, hand=2, policies="greedy", seed=21, pairing="stock")
    for d in (seat, stock):
        d["real"] = np.where(d["taken"], d["penalty_act"], d["penalty_pass"])
    # per deal: the mean over its decisions of the taken branch's penalty
    a = seat.groupby("game")["real"].mean()
    b = stock.groupby("game")["real"].mean()
    m, lo, hi, _ = mean_ci(a.to_numpy() - b.to_numpy())
    assert lo < 0 < hi, (m, lo, hi)
    vs, vk = variance_ratio(seat, boot=50), variance_ratio(stock, boot=50)
    assert vs["lo"] > vk["hi"], (vs, vk)


def test_sample_branches_a_subset_of_the_same_decisions():
    """``sample``: the rows are exactly those of the full run that the decision's own draw
    keeps (R9 decisions, same values), about the asked share, the same on 1 or 2 threads."""
    full = ks.call_decisions(30, hand=2, policies="greedy", seed=5, threads=1)
    part = ks.call_decisions(30, hand=2, policies="greedy", seed=5, sample=0.4, threads=2)
    again = ks.call_decisions(30, hand=2, policies="greedy", seed=5, sample=0.4, threads=1)
    pd.testing.assert_frame_equal(part, again)
    keys = ["game", "attempt", "turn", "seat", "decision"]
    merged = part.merge(full, on=keys, how="left", suffixes=("", "_full"), indicator=True)
    assert (merged["_merge"] == "both").all()
    for col in ("d_penalty", "needed_after", "outs_after", "taken"):
        assert (merged[col].astype("float") .fillna(-9)
                == merged[col + "_full"].astype("float").fillna(-9)).all(), col
    share = len(part) / len(full)
    assert 0.25 < share < 0.55, share


def test_sample_must_be_a_share():
    with pytest.raises(ValueError, match="sample"):
        ks.call_decisions(2, hand=1, sample=0)
    with pytest.raises(ValueError, match="sample"):
        ks.call_decisions(2, hand=1, sample=1.5)
