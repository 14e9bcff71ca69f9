"""The game record (issue 52): one seat's view of a hand in plain text, read back to the same
decisions (R9), and refused line by line where it cannot be (R1-R13)."""

from __future__ import annotations

from pathlib import Path

import pytest

import kalooki_sim as ks
from kalooki_sim.studies.record import RecordError, check_record, read_record, record_trace
from kalooki_sim.studies.review import walk

# a table of each size, each contract, and the seeds whose traces hold a reshuffle (R13), a
# void attempt, a joker replaced (R11) and calls with penalties (R9.2)
CASES = [(4, h, 1) for h in range(1, 10)] + [(3, 7, 2), (5, 9, 1), (6, 4, 0), (4, 4, 5)]


@pytest.mark.parametrize("players, hand, seed", CASES)
def test_round_trip_R9_a_written_trace_reads_back_to_its_decisions(players, hand, seed):
    t = ks.trace(seed=seed, hand=hand, players=players, policies="expert")
    for seat in (0, players - 1):
        text = ks.write_record(t, seat)
        back = record_trace(text)
        want, _ = walk(t, seat)
        got, _ = walk(back, seat)
        assert len(got) == len(want) > 0
        for w, g in zip(want, got, strict=True):
            # the turn, the card, what the seat did and everything it knew (the situation)
            assert (g.game, g.hand, g.attempt, g.turn, g.decision, g.card, g.acted) == (
                w.game, w.hand, w.attempt, w.turn, w.decision, w.card, w.acted)
            assert g.situation == w.situation


def test_round_trip_holds_reshuffles_voids_and_joker_moves_R11_R13():
    """The cases above reach the rare lines: the test would not see them otherwise."""
    seen = set()
    for players, hand, seed in CASES:
        text = ks.write_record(ks.trace(seed=seed, hand=hand, players=players,
                                        policies="expert"), 0)
        back = record_trace(text)
        seen |= {r["event"] for r in back.records}
        seen |= {"reshuffle line"} if "\nreshuffle\n" in text else set()
    assert {"reshuffle", "void", "joker_move", "call", "penalty", "layoff", "out"} <= seen


def test_review_record_R9_equals_review_of_the_trace():
    t = ks.trace(seed=1, hand=5, policies="expert")
    want = ks.review(t, 1, rollouts=16, policies="greedy", seed=3)
    got = ks.review_record(ks.write_record(t, 1), rollouts=16, policies="greedy", seed=3)
    assert list(got.columns) == ["line"] + list(want.columns)
    assert got.drop(columns="line").equals(want)
    text = ks.write_record(t, 1).splitlines()
    for n, card in zip(got["line"], got["card"], strict=True):  # the line names the card or
        assert card in text[n - 1] or "draw" in text[n - 1]     # follows the pass


def example_record() -> str:
    """The example of the record's guide page (``guide/record.md``)."""
    md = (Path(ks.__file__).parent / "report" / "guide" / "record.md").read_text("utf-8")
    return md.split("```text\n# kalooki game record", 1)[1].split("```", 1)[0].join(
        ["# kalooki game record", ""])


def test_the_guide_example_is_the_trace_it_names_and_a_whole_hand():
    ex = example_record()
    assert ex == ks.write_record(ks.trace(seed=2, hand=2, policies="expert"), 3)
    t = check_record(ex)
    events = [r["event"] for r in t.records]
    assert "out" in events and "open" in events and events.count("hand") == 1
    assert len(walk(t, t.record_seat)[0]) == 5  # the page says: a call, takes, passes


HEAD = "players 4\ncontract 1\nyou 0\ndealer 3\ndealt K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣\nupcard 7♦\n"


@pytest.mark.parametrize("text, line, words", [
    ("players 4\ncontract 1\nfoo", 3, "expected a header line"),
    ("players 9\ncontract 1\ndealer 0\ndealt K♠\nupcard 7♦\nyou take 7♦", 1, "give 3-8"),
    (HEAD.replace("dealt K♠", "dealt Z♠"), 5, "unknown card 'Z♠'"),
    (HEAD.replace(" 2♣", ""), 5, "expected 9 cards"),
    (HEAD + "you take 8♦", 7, "the card on offer is 7♦"),
    (HEAD + "seat 1 take 7♦", 7, "only seat 0"),
    (HEAD + "you draw", 7, "your draw needs its card"),
    (HEAD + "you draw 5♣\nyou discard 9♣", 8, "you do not hold 9♣"),
    (HEAD + "you draw 5♣\nyou discard 5♣\nseat 2 draws", 9, "it is seat 1's turn"),
    (HEAD + "you draw 5♣\nyou discard 5♣\nseat 1 draws 4♦", 9, "face down"),
    (HEAD + "seat 2 calls 7♦ penalty 4♦", 7, "face down"),
    (HEAD + "you take 7♦\nyou discard JK", 8, "never discarded (R6)"),
    (HEAD + "you fly 7♦", 7, "unknown action 'fly'"),
    (HEAD + "seat 7 draws", 7, "give 0-3"),
    (HEAD + "you draw 5♣\nyou lay off 5♣ on 1", 8, "has not opened"),
    (HEAD + "you draw 5♣\nyou discard 5♣\nreshuffle", 9, "no reshuffle now"),
    (HEAD + "you take 7♦\nyou discard 2♣\nseat 2 calls 2♣\nseat 3 calls 2♣", 10,
     "no discard is on offer"),
])
def test_a_bad_line_is_named_with_what_was_expected(text, line, words):
    with pytest.raises(RecordError) as e:
        record_trace(text)
    assert e.value.line == line
    assert str(e.value).startswith(f"line {line}: ") and words in str(e.value)


def test_an_impossible_table_names_the_decisions_line_R1():
    # a third 7♦ at a two-deck table: the line parses, the situation at the decision cannot be
    text = (HEAD.replace("6♥ 2♣", "7♦ 7♦") + "you draw 5♣\nyou discard 5♣\nseat 1 draws\n"
            "seat 1 discards 3♣\nseat 2 draws\nseat 2 discards 4♣")
    with pytest.raises(RecordError, match=r"^line 7: 'you draw 5♣': the table this record "):
        check_record(text)


def test_read_record_holds_several_hands_and_refuses_a_huge_text():
    t = ks.trace(seed=1, game=0, hand=2, policies="expert")
    two = ks.write_record(t, 0) + "\n" + ks.write_record(ks.trace(seed=1, hand=3), 0)
    assert [h.contract for h in read_record(two)] == [2, 3]
    with pytest.raises(ValueError, match="characters is not allowed"):
        read_record("#" * 1_000_001)
