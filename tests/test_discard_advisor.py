"""The discard advisor (R6.3): every card a hand may let go, played on from the same rollouts;
the engine's forced discard against a slow readable twin of the turn; the command line and the
review's discard rows."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import kalooki_sim as ks
from kalooki_sim import cli
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import melds as ML
from kalooki_sim.engine._kernels.table import PS_NC_KEY0
from kalooki_sim.engine.play import rules_vector, setup
from kalooki_sim.engine.trace import hand_records
from kalooki_sim.game.referee import check
from kalooki_sim.studies.discard_advisor import discard_block, discard_situation

# contract 1 is three groups (R3): K and Q groups complete, a pair of 6s, two lone cards
GROUPS = dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 9♦", contract=1, seen="5♣")


def test_R6_breaking_a_complete_group_ranks_below_a_lone_card_decided():
    a = ks.advise_discard(**GROUPS, rollouts=300, policies="greedy", seed=1)
    tab = a.table.set_index("discard")
    # jokers never (R6), every other distinct card once
    assert sorted(tab.index) == sorted(set(GROUPS["hand"].split()))
    assert a.best in ("9♦", "2♣")
    for c in ("K♠", "K♥", "K♦", "Q♠", "Q♥", "Q♦"):
        assert tab.loc[c, "points"] > tab.loc["9♦", "points"]
        assert tab.loc[c, "vs_best_lo"] > 0  # decided: its interval against the best
    assert f"Discard {a.best}" in a.recommendation and "300" in a.recommendation


def test_the_ranking_carries_its_intervals():
    a = ks.advise_discard(**GROUPS, rollouts=250, policies="greedy", seed=2)
    t = a.table
    assert (t["points"].diff().dropna() >= 0).all()  # best first
    assert (t["points_lo"] <= t["points"]).all() and (t["points"] <= t["points_hi"]).all()
    assert (t["vs_best_lo"] <= t["vs_best"]).all() and (t["vs_best"] <= t["vs_best_hi"]).all()
    assert t["vs_best"].iat[0] == 0 and (t["vs_best"] >= 0).all()
    for c in ("out", "doubled", "void"):
        assert t[c].between(0, 1).all()
    # the verdict reads the second best's interval against the best
    lo, hi = t["vs_best_lo"].iat[1], t["vs_best_hi"].iat[1]
    want = "decided" if lo > 0 else "equal" if -2 <= lo and hi <= 2 else "unsure"
    assert a.verdict == want


def test_C3_the_same_seed_gives_the_same_table_on_one_or_two_threads():
    kw = dict(**GROUPS, rollouts=120, policies="greedy", seed=7)
    a = ks.advise_discard(**kw, threads=1)
    b = ks.advise_discard(**kw, threads=2)
    pd.testing.assert_frame_equal(a.table, b.table)
    c = ks.advise_discard(**{**kw, "seed": 8}, threads=1)
    assert not a.table["points"].equals(c.table["points"])


def test_candidates_are_paired_the_same_rollout_whatever_the_other_candidates():
    rules = ks.Rules()
    sit, cands = discard_situation(GROUPS["hand"], 1, rules, seen=GROUPS["seen"])
    pol = setup(4, "greedy", 0, None, 1)[2]
    k9, k2, kk = (int(ks.to_codes(c)[0]) for c in ("9♦", "2♣", "K♠"))
    r1, w1 = discard_block(sit, np.array([k9, kk]), pol, 3, 10, 30)
    r2, w2 = discard_block(sit, np.array([k2, k9]), pol, 3, 10, 30)
    np.testing.assert_array_equal(r1[:, 0], r2[:, 1])
    np.testing.assert_array_equal(w1, w2)
    # the same sample as the take-or-call advisor's rollout i (one dealing of the hidden cards)
    assert sorted(int(c) for c in cands) == sorted({int(c) for c in
                                                     ks.to_codes(GROUPS["hand"])})


@pytest.mark.parametrize("kw, msg", [
    (dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣"), "plus the card drawn at its discard"),
    (dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣ 1X"), "hand"),
    (dict(took="7♣"), "took='7♣' is not allowed"),
    (dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 9♦", took="9♦"),
     "hand has 9 cards.* plus the card taken, so 10"),
    (dict(seen=""), "seen is empty"),
    (dict(objective="points"), "objective"),
])
def test_bad_arguments_are_clear_errors(kw, msg):
    args = {**GROUPS, **kw}
    with pytest.raises(ValueError, match=msg) as e:
        ks.advise_discard(**args, rollouts=10, policies="greedy")
    assert "\n" not in str(e.value) and "numba" not in str(e.value).lower()


def test_R9_1_a_taken_card_comes_off_the_pile_into_the_hand():
    rules = ks.Rules()
    sit, cands = discard_situation(GROUPS["hand"], 1, rules, took="9♦", seen="5♣ 4♥")
    base = sit.rollout.base
    nine = int(ks.to_codes("9♦")[0])
    assert base.hand[0, nine] == 1 and base.gs[E.GS_DISC_N] == 2  # 5♣ 4♥ left on the pile
    assert base.hand[E._known_row(base.hand, 0), nine] == 1  # the table saw the take
    assert base.gs[E.GS_LIVE] == 0 and base.gs[E.GS_CUR] == 0
    assert len(sit.hand) == 10 and nine in cands


def test_R9_the_history_up_to_the_offer_or_with_your_own_pass_and_draw_reads_the_same():
    h = [(3, "discard", "9♣"), (2, "draw"), (2, "discard", "8♦"), (1, "draw"),
         (1, "discard", "5♣")]
    kw = dict(hand=GROUPS["hand"], contract=1, rollouts=40, policies="greedy", seed=3)
    with warnings.catch_warnings():  # a collapse of the weights is not what is tested here
        warnings.simplefilter("ignore", RuntimeWarning)
        a = ks.advise_discard(**kw, history=h)
        b = ks.advise_discard(**kw, history=h + [(0, "pass", "5♣"), (0, "draw")])
        c = ks.advise_discard(**kw, history="3:discard:9♣, 2:draw, 2:discard:8♦, 1:draw, "
                                            "1:discard:5♣, 0:pass:5♣, 0:draw")
    # the history's discards nobody took are the pile; the stock less the draws and yours
    assert a.situation["seen"] == ["9♣", "8♦"] and a.situation["card"] == "5♣"
    assert a.situation["stock_left"] == 108 - 4 * 9 - 1 - 3
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.table, c.table)


# -- the engine's forced discard against a slow readable twin of the turn ----------------------

def _turn_to_discard(rv, pol, t):
    """Slow readable twin of the engine's turn (:func:`.engine._turn`) up to its discard:
    the turn counted, the policy streams restarted at it (C3), the draw and calls (R6.1, R9),
    the melds and lay-offs (R6.2). Returns whether the seat opened now."""
    gs, ps, P = t.gs, t.ps, t.ps.shape[0]
    cur = gs[E.GS_CUR]
    gs[E.GS_TURNS] += 1
    ps[cur, E.PS_TURNS] += 1
    for p in range(P):
        t.streams[2 + p, 1] = np.uint64(gs[E.GS_TURNS]) << np.uint64(32)
    gs[E.GS_TAKEN_BY] = gs[E.GS_CALLED_BY] = -1
    E._log(t.log, gs, E.EV_TURN, cur, -1, ps[cur, E.PS_TURNS], 0, 0, 0)
    assert E._draw_phase(rv, pol, t, cur)
    gs[E.GS_FORCE_MASK] = 0
    opened_now = ML._meld_phase(rv, pol, t, cur)
    if ps[cur, E.PS_OPENED] == 1 and E._hand_size(t.hand[cur]) > 0:
        ML._lay_offs(rv, pol, t, cur)
    return bool(opened_now)


@pytest.mark.parametrize("seed, hand_no", [(1, 1), (4, 3), (9, 6)])
def test_R6_the_forced_discard_is_the_one_played_and_the_rest_is_the_ordinary_hand(seed,
                                                                                  hand_no):
    rules, _, pol, _, _ = setup(4, "expert", seed, None, 1)
    rv = rules_vector(rules, hand_no)
    t = E.new_table(4, rules.pack_size, log_on=True)
    deal = E.Deal(seed, 0, hand_no, 0, 0)
    E.start_hand(rv, t, deal)
    for _ in range(5):  # a few ordinary turns first
        assert not E.one_turn(rv, pol, t)
    cur = int(t.gs[E.GS_CUR])
    natural = E.copy_table(t)
    done = E.one_turn(rv, pol, natural)
    n0 = int(t.gs[E.GS_LOG_N])
    ev = natural.log[n0:natural.gs[E.GS_LOG_N]]
    d = int(next(r[2] for r in ev if r[0] == E.EV_DISCARD and r[1] == cur))
    if not done:
        E.play_out(rv, pol, natural)
    forced = E.copy_table(t)
    opened_now = _turn_to_discard(rv, pol, forced)
    E.play_from_discard(rv, pol, forced, cur, d, opened_now)
    for name in ("hand", "gs", "stock", "disc"):
        np.testing.assert_array_equal(getattr(forced, name), getattr(natural, name), name)
    # the seats' state but the needed count's memo (a cache the policy's own choice fills)
    np.testing.assert_array_equal(forced.ps[:, :PS_NC_KEY0], natural.ps[:, :PS_NC_KEY0])
    n = int(natural.gs[E.GS_LOG_N])
    np.testing.assert_array_equal(forced.log[:n], natural.log[:n])
    # another card forced: that discard is logged, and the referee accepts the whole log
    other = E.copy_table(t)
    opened_now = _turn_to_discard(rv, pol, other)
    held = [c for c in range(E.JOKER) if other.hand[cur, c] > 0 and c != d]
    d2 = held[len(held) // 2]
    m = int(other.gs[E.GS_LOG_N])
    E.play_from_discard(rv, pol, other, cur, d2, opened_now)
    assert list(other.log[m, :3]) == [E.EV_DISCARD, cur, d2]
    E.score_hand(rv, other, deal, np.zeros((4, E.O_COLS), np.int32), 0)
    recs = hand_records(other, rules, 0, hand_no, 0, 0)
    assert check(recs, rules) == 1


# -- the command line --------------------------------------------------------------------------

def test_cli_advise_discard_prints_the_ranking_and_the_sentence(capsys):
    code = cli.main(["advise", "--discard", "--cards", GROUPS["hand"], "--contract", "1",
                     "--seen", "5♣", "--rollouts", "60", "--policies", "greedy", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("Discard ") and "vs_best" in out and "60 paired rollouts" in out
    for c in GROUPS["hand"].split():
        assert c in out


def test_cli_advise_discard_refuses_card_and_advise_needs_card(capsys):
    code = None
    try:
        code = cli.main(["advise", "--discard", "--cards", GROUPS["hand"], "--contract", "1",
                         "--card", "7♥"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and "--card is not allowed with --discard" in err
    try:
        code = cli.main(["advise", "--cards", GROUPS["hand"], "--contract", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and "--card is required" in err


# -- the review --------------------------------------------------------------------------------

def test_review_lists_the_seats_discards_before_it_opened():
    t = ks.trace(seed=1, game=0, hand=1, policies="expert")
    r = ks.review(t, seat=0, rollouts=40, block=20, policies="greedy", discard_rollouts=40,
                  discard_hand_rollouts=200)
    d = r[r["decision"] == "discard"]
    mine = [x["card"] for x in t.records if x["event"] == "discard" and x["seat"] == 0]
    assert len(d) >= 1 and set(d["card"]) <= set(mine)
    assert (d["lost_lo"] <= d["lost"]).all() and (d["lost"] <= d["lost_hi"]).all()
    assert set(d["rating"]) <= set(ks.studies.rating.RATINGS)
    assert d["compared"].notna().all() and (d["compared"] != d["card"]).all()
    assert (d["best"].isin(d["card"]) | d["best"].isin(d["compared"])).all()
    tot = ks.review_total(r)
    assert int(tot["decisions"].sum()) == len(r)
    off = ks.review(t, seat=0, rollouts=40, block=20, policies="greedy", discards=False)
    assert "discard" not in set(off["decision"])
    assert len(off) == len(r) - len(d)


def test_the_review_page_shows_the_discard_rows():
    from kalooki_sim.report.review_page import review_html

    t = ks.trace(seed=1, game=0, hand=1, policies="expert")
    r = ks.review(t, seat=0, rollouts=30, block=15, policies="greedy", discard_rollouts=30,
                  discard_hand_rollouts=120)
    d = r[r["decision"] == "discard"]
    page = review_html(t, 0, r, title="Review")
    assert len(d) >= 1 and f"and {len(d)} discards of seat 0" in page
    # each discard in its turn's row of the timeline, and in the decisions table
    assert page.count("discard: you let") == len(d)
    assert page.count("<td>discard</td>") == 2 * len(d)  # the decision, and what was done
    for v in ("good", "mistake", "close"):
        n = int((r["verdict"] == v).sum())
        assert page.count(f'<span class="v {v}">{v}</span>') == n


def test_R12_the_discard_that_goes_out_is_decided_and_the_budget_stops_early():
    # three complete groups (contract 1, R3) and a lone 2♣: letting it go keeps them, so the
    # seat opens at its next turn and nearly always goes out first (R7, R12)
    kw = dict(hand="K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", contract=1, seen="5♣",
              policies="greedy", seed=4)
    a = ks.advise_discard(**kw, rollouts=1000, decide=True)
    assert a.best == "2♣" and a.verdict == "decided" and a.stopped_by == "decided"
    assert a.rollouts == 250 and a.table["out"].iat[0] > 0.95 > a.table["out"].iat[1]
    assert "Discard 2♣ (decided" in a.recommendation
    b = ks.advise_discard(**kw, rollouts=1000, margin=100.0)
    assert b.stopped_by == "margin" and b.rollouts == 250
    pd.testing.assert_frame_equal(a.table, b.table)  # the same first 250 rollouts
    # the budget's last look is one of the rule's looks: it decides there too, as the advisor's
    c = ks.advise_discard(**kw, rollouts=250, decide=True)
    assert c.stopped_by == "decided" and c.verdict == "decided"


def test_the_discards_answer_reports_what_its_pairing_bought_issue_51():
    """``DiscardAdvice.variance_ratio``: the best and the second best's intervals read back
    give it exactly (equal weights without a history); one candidate has none."""
    kw = dict(hand="K♠ K♥ K♦ Q♠ Q♥ 6♠ 6♥ 6♦ 2♣ 9♦", contract=1, seen="5♣", policies="greedy",
              seed=4, rollouts=300)
    a = ks.advise_discard(**kw)
    t = a.table
    half = t["points_hi"] - t["points_lo"]
    d = t["vs_best_hi"].iat[1] - t["vs_best_lo"].iat[1]
    assert a.variance_ratio == pytest.approx((half.iat[0] ** 2 + half.iat[1] ** 2) / d ** 2)
    assert np.isfinite(a.variance_ratio) and "variance ratio" in str(a)


def _called_moments(seed, hands):
    """The review's discard moments of seat 0 whose history ends with another seat's call of
    the card seat 0 passed on (``1:discard:X, 0:pass:X, s:call:X``, then its draw)."""
    from kalooki_sim.studies.review import _Reader
    from kalooki_sim.studies.review_discard import discard_moments
    out = []
    for hand in hands:
        tr = ks.trace(seed=seed, game=0, hand=hand, policies="expert")
        out += [(tr, m) for m in discard_moments(tr, 0, _Reader)
                if m.situation["history"] and m.situation["history"][-1][1] == "call"]
    return out


def test_R9_2_a_discard_after_the_card_you_passed_was_called_reads_the_call():
    """The card passed to you and called by another seat left the pile for its hand (R9.2):
    the position keeps the history (it was read without it), the card known in the caller's
    hand, its penalty card among the caller's hidden cards, the pile and stock as they are."""
    from kalooki_sim.engine.kernels import known_row
    from kalooki_sim.game.cards import to_codes
    found = _called_moments(3, (3, 9))
    assert len(found) >= 2
    for tr, m in found:
        kw = dict(m.situation)
        seat, _, x = kw["history"][-1]
        sit, _ = discard_situation(rules=tr.rules, **kw)
        assert sit.history == tuple(tuple(e) for e in kw["history"])  # the call kept
        base, r = sit.rollout.base, sit.rollout
        s = (-seat) % tr.rules.players
        pile = [int(c) for c in to_codes(kw["seen"])]
        assert base.gs[E.GS_DISC_N] == len(pile)
        assert [int(c) for c in base.disc[:len(pile)]] == pile  # the card is off the pile
        code = int(to_codes(x)[0])
        assert base.hand[s, code] >= 1 and base.hand[known_row(base.hand, s), code] >= 1
        for k, n in kw["hand_sizes"].items():  # hidden + known = the seat's cards
            assert r.opp[(-k) % tr.rules.players] + len(sit.known.get(k, ())) == n, k
        assert len(r.flat) - r.opp.sum() - r.pile_extra == kw["stock_left"] == sit.stock_left
        assert r.events[-1].tolist() == [s, 4, code]  # the call weighs in the history (H_CALL)


def test_the_review_reads_the_history_of_a_discard_after_a_call_and_marks_one_it_cannot(
        monkeypatch):
    from kalooki_sim.studies import review_discard as RD
    tr, m = _called_moments(3, (3,))[0]
    kw = dict(rollouts=40, block=20, policies="greedy", discard_rollouts=40,
              discard_hand_rollouts=400, seed=2)
    r = ks.review(tr, seat=0, **kw)
    d = r[r["decision"] == "discard"]
    assert m.turn in set(d["turn"]) and (d["history_strength"] > 0).all()
    real = RD.discard_situation

    def refuse_history(*a, **k):
        if k.get("history"):
            raise ValueError("refused")
        return real(*a, **k)
    monkeypatch.setattr(RD, "discard_situation", refuse_history)
    d2 = ks.review(tr, seat=0, **kw)
    d2 = d2[d2["decision"] == "discard"]
    assert len(d2) == len(d) and (d2["history_strength"] == 0).all()


def test_a_discard_history_from_a_file_reads_as_the_same_text(tmp_path):
    """``history="@FILE"`` (events one per line, ``#`` comments) is the text it holds, as for
    ``advise``: the pile's top comes from its last discard when ``seen`` is not given."""
    events = ["3:discard:9♣", "0:pass:9♣", "2:draw", "2:discard:6♦", "1:draw", "1:discard:5♣"]
    f = tmp_path / "events.txt"
    f.write_text("# the table so far\n" + "\n".join(events) + "\n", encoding="utf-8")
    rules = ks.Rules()
    hand = GROUPS["hand"]
    a, ca = discard_situation(hand, 1, rules, history=f"@{f}")
    b, cb = discard_situation(hand, 1, rules, history=", ".join(events))
    assert a.card == b.card == "5♣" and a.history == b.history and (ca == cb).all()
    assert (a.rollout.events == b.rollout.events).all()
    with pytest.raises(ValueError, match="history='@.* is not allowed; give events as text"):
        discard_situation(hand, 1, rules, history=f"@{tmp_path / 'missing.txt'}")
