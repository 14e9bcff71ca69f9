"""The policies' compiled helpers against plain-Python twins."""

import numpy as np
from conftest import random_hand

import kalooki_sim as ks
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels.needed import new_workspace as needed_workspace
from kalooki_sim.game.cards import JOKER, PENALTY


def need_twin(row, g, r):
    """Readable twin of engine.need."""
    ranks = sorted(max(0, 3 - sum(row[s * 13 + k - 1] for s in range(4))) for k in range(1, 14))
    runs = []
    for s in range(4):
        best = 4
        for lo in range(1, 12):
            have = sum(row[s * 13 + (0 if p == 14 else p - 1)] > 0 for p in range(lo, lo + 4))
            best = min(best, 4 - have)
        runs.append(best)
    return max(0, sum(ranks[:g]) + sum(sorted(runs)[:r]) - row[JOKER])


def _row(codes):
    row = np.zeros(53, np.int64)
    for c in codes:
        row[c] += 1
    return row


def test_need_matches_twin_and_is_zero_whenever_the_hand_can_open():
    rng = np.random.default_rng(3)
    rules = ks.Rules()
    opened = 0
    for i in range(3000):
        contract = i % 9 + 1
        g, r = rules.contract(contract)
        codes = random_hand(rng, int(rng.integers(9, 23)), joker_rich=i % 4 == 0)
        row = _row(codes)
        n = E.need(row, g, r)
        assert n == need_twin(row, g, r)
        if ks.solve_opening(codes, contract) is not None:
            opened += 1
            assert n == 0, ks.parse_cards(codes)
    assert opened > 50


def test_unopened_discard_is_the_costliest_card_needed_least():
    rng = np.random.default_rng(4)
    rules = ks.Rules()
    pol = np.zeros((1, E.NPARAM))
    ps = np.zeros((1, E.PS_COLS), np.int64)
    gs = np.zeros(E.GS_COLS, np.int64)
    melds = np.zeros((4, 8), np.int64)
    pw = (np.zeros((4, 14), np.int64), *needed_workspace())
    for i in range(2000):
        contract = i % 9 + 1
        rv = np.zeros(E.R_COLS, np.int64)
        rv[E.R_GROUPS], rv[E.R_RUNS] = rules.contract(contract)
        codes = random_hand(rng, int(rng.integers(9, 20)), joker_rich=i % 5 == 0)
        hand = _row(codes)[None, :]
        got = E._choose_discard(0, hand, ps, gs, melds, rv, pol, np.zeros(2, np.uint64), pw)
        cands = [c for c in range(52) if hand[0, c] > 0]
        if not cands:
            assert got == -1
            continue

        def key(c, hand=hand, rv=rv):
            row = hand[0].copy()
            row[c] -= 1
            return (need_twin(row, rv[E.R_GROUPS], rv[E.R_RUNS]), -PENALTY[c], c)

        assert got == min(cands, key=key)
