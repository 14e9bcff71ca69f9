"""Slow, readable twins of the fast kernels (STUMPY style), written straight from RULES.md.

Nothing here imports the kernels' logic: cards are plain (suit, rank) tuples or "JK".
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

JK = "JK"


def value(card) -> int:
    """R1 penalty of a card given as (suit, rank) with suits 0 ♣ 1 ♦ 2 ♥ 3 ♠, or 'JK'."""
    if card == JK:
        return 50
    s, k = card
    if k == 1:
        return 15 if s in (0, 3) else 1
    return 10 if k >= 10 else k


def is_group(cards) -> bool:
    """R3: 3+ cards of one rank, at least 2 naturals."""
    nat = [c for c in cards if c != JK]
    return len(cards) >= 3 and len(nat) >= 2 and len({k for _, k in nat}) == 1


def run_positions(cards):
    """R4: the positions (lo..hi) of a run given low to high, or None if it is not a run."""
    n = len(cards)
    if not 4 <= n <= 13:
        return None
    if any(a == JK and b == JK for a, b in zip(cards, cards[1:], strict=False)):
        return None
    nat = [(i, c) for i, c in enumerate(cards) if c != JK]
    if not nat or len({s for _, (s, _) in nat}) != 1:
        return None
    for lo in range(1, 16 - n):
        if all(k == lo + i or (k == 1 and lo + i == 14) for i, (_, k) in nat):
            return lo, lo + n - 1
    return None


def _run_candidates(hand: Counter, suit: int, jokers: int):
    """Every run of `suit` the hand can make, as ``(naturals used, jokers used)`` pairs.

    Every span (R4: 4-13 long, never both 1 and 14) and every joker placement, jokers also
    standing where the hand holds the natural (that natural then stays free for a group or in
    hand). Runs that use the same naturals and the same number of jokers are interchangeable for
    everything else, so each such pair is listed once.
    """
    out = set()
    for lo in range(1, 12):
        for hi in range(lo + 3, min(14, lo + 12) + 1):
            span = list(range(lo, hi + 1))
            held = [p for p in span if hand[(suit, 1 if p == 14 else p)] > 0]
            forced = [p for p in span if p not in held]  # no natural: a joker must stand there
            if len(forced) > jokers:
                continue
            for extra in range(0, min(jokers - len(forced), len(held)) + 1):
                for over in itertools.combinations(held, extra):
                    jpos = set(forced) | set(over)
                    cards = [JK if p in jpos else (suit, 1 if p == 14 else p) for p in span]
                    if run_positions(cards):
                        nat = tuple(sorted(c for c in cards if c != JK))
                        out.add((nat, len(jpos)))
    return sorted(out)


def _groups_best(rem: Counter, jl: int, groups: int):
    """Best ``(value, cards)`` of own groups from ``rem`` with ``jl`` jokers, at least ``groups``.

    A DP over ranks trying, for each rank, no group or every sub-multiset of its naturals with at
    least 2 cards and every joker count making 3+ cards (R3; R5: one group per rank).
    """
    by_rank = {k: [(s, n) for (s, kk), n in rem.items() if kk == k and n > 0] for k in
               range(1, 14)}

    @cache
    def f(k: int, jl: int, ng: int):
        # best (value, cards) from ranks k..13, ng capped at `groups`
        if k == 14:
            return (0, 0) if ng >= groups else None
        res = f(k + 1, jl, ng)
        suits = by_rank[k]
        for take in itertools.product(*[range(n + 1) for _, n in suits]):
            nat = sum(take)
            if nat < 2:
                continue
            v_nat = sum(t * value((s, k)) for t, (s, _) in zip(take, suits, strict=True))
            for j in range(0, jl + 1):
                if nat + j < 3:
                    continue
                sub = f(k + 1, jl - j, min(ng + 1, groups))
                if sub is not None:
                    cand = (v_nat + 50 * j + sub[0], nat + j + sub[1])
                    if res is None or cand > res:
                        res = cand
        return res

    return f(1, jl, 0)


def best_opening(cards, groups: int, runs: int, v6: bool = False):
    """Best ``(value laid, cards laid)`` of an opening, or None if the contract cannot be laid.

    Brute force over every combination of at most one run per suit (R5), each run any span and
    any joker placement (R4), then the best groups from what is left (R3, R5); at least
    ``groups`` groups and ``runs`` runs (R7: the contract plus any further own melds). V6: a
    13-card run counts as three runs when the contract has three. The lay-down laying the most
    penalty wins; ties go to the one laying more cards (fewer left in hand).
    """
    hand = Counter(cards)
    jokers = hand.pop(JK, 0)
    per_suit = [[None] + _run_candidates(hand, s, jokers) for s in range(4)]
    memo = {}
    best = None
    for choice in itertools.product(*per_suit):
        nruns = 0
        used = Counter()
        jused = 0
        for opt in choice:
            if opt is None:
                continue
            nat, nj = opt
            jused += nj
            used.update(nat)
            nruns += 3 if (v6 and runs == 3 and len(nat) + nj == 13) else 1
        if nruns < runs or jused > jokers:
            continue
        rem = hand - used
        key = (frozenset(rem.items()), jokers - jused)
        if key not in memo:
            memo[key] = _groups_best(rem, jokers - jused, groups)
        gv = memo[key]
        if gv is None:
            continue
        total = (gv[0] + sum(value(c) * n for c, n in used.items()) + 50 * jused,
                 gv[1] + sum(used.values()) + jused)
        if best is None or total > best:
            best = total
    return best


def best_opening_value(cards, groups: int, runs: int, v6: bool = False):
    """Largest penalty value an opening can lay down (None if the contract cannot be laid)."""
    best = best_opening(cards, groups, runs, v6)
    return None if best is None else best[0]


# -- lay-off twin (R10, R11) -----------------------------------------------------------------


def lay_off_run(run, card, own=True, free_extension=False, jokers_on_others=False):
    """What a run (low to high) becomes with `card` laid off, or None. Straight from R10/R11."""
    lohi = run_positions(run)
    assert lohi, run
    lo, hi = lohi
    suit = next(c[0] for c in run if c != JK)
    pos = dict(zip(range(lo, hi + 1), run, strict=True))

    def as_list(d):
        return [d[p] for p in sorted(d)]

    def growth_spots():
        spots = [hi + 1] if hi < 14 else [lo - 1]
        if free_extension:
            spots = [hi + 1, lo - 1]
        return spots

    if card == JK:
        if not (own or jokers_on_others):
            return None
        for p in growth_spots():
            new = dict(pos)
            new[p] = JK
            cand = as_list(new)
            if 1 <= p <= 14 and run_positions(cand) and max(new) - min(new) == len(new) - 1:
                return cand
        return None
    s, k = card
    if s != suit:
        return None
    places = [k] + ([14] if k == 1 else [])
    for p in places:
        if pos.get(p) == JK:
            new = dict(pos)
            new[p] = card
            q = hi + 1 if hi < 14 else lo - 1
            if not 1 <= q <= 14:
                return None
            new[q] = JK
            cand = as_list(new)
            return cand if run_positions(cand) else None
    for p in places:
        if p in growth_spots():
            new = dict(pos)
            new[p] = card
            cand = as_list(new)
            if run_positions(cand):
                return cand
    return None


# -- cards needed and outs twins (issue 8) -----------------------------------------------------


def _card_key(c):
    return (9, 0) if c == JK else c


def can_open(cards, groups: int, runs: int, v6: bool = False) -> bool:
    """Whether the hand can lay the contract (R3-R5, R7): every combination of runs (as in
    :func:`best_opening`), then groups from what is left: a rank with 3+ naturals needs no
    joker, one with exactly 2 needs one (R3); at least ``groups`` distinct ranks (R5)."""
    hand = Counter(cards)
    jokers = hand.pop(JK, 0)
    per_suit = [[None] + _run_candidates(hand, s, jokers) for s in range(4)]
    for choice in itertools.product(*per_suit):
        used = Counter()
        jl = jokers
        nruns = 0
        for opt in choice:
            if opt is not None:
                used.update(opt[0])
                jl -= opt[1]
                nruns += 3 if (v6 and runs == 3 and len(opt[0]) + opt[1] == 13) else 1
        if jl < 0 or nruns < runs:
            continue
        rem = hand - used
        per_rank = Counter()
        for (_, k), n in rem.items():
            per_rank[k] += n
        n3 = sum(1 for n in per_rank.values() if n >= 3)
        n2 = sum(1 for n in per_rank.values() if n == 2)
        if n3 + min(n2, jl) >= groups:
            return True
    return False


def cards_needed(cards, groups: int, runs: int, v6: bool = False, avail=None, cap: int = 3):
    """Least number of cards to add so the hand can open, or None if more than ``cap``.

    ``avail`` (a Counter, 'JK' included) is how many copies of each card the pack can still
    supply. Obvious search: the hand itself, then every hand with one card added, every hand
    with two cards added, ... each asked of the exhaustive opening search.
    """
    start = tuple(sorted(cards, key=_card_key))
    if can_open(start, groups, runs, v6):
        return 0
    base = Counter(start)
    frontier = {start}
    for n in range(1, cap + 1):
        grown = set()
        for h in frontier:
            hc = Counter(h)
            for c, a in avail.items():
                if hc[c] - base[c] < a:
                    grown.add(tuple(sorted(h + (c,), key=_card_key)))
        for h in grown:
            if can_open(h, groups, runs, v6):
                return n
        frontier = grown
    return None


def outs(cards, groups: int, runs: int, v6: bool = False, avail=None, cap: int = 3):
    """``(needed, rows)``: rows ``(card, unseen, needed_after)`` of every distinct addable card
    whose addition lowers :func:`cards_needed` by one (None for ``needed`` above ``cap``)."""
    need = cards_needed(cards, groups, runs, v6, avail, cap)
    rows = []
    if need is None or need == 0:
        return need, rows
    for c in sorted(avail, key=_card_key):
        if avail[c] <= 0:
            continue
        rest = Counter(avail)
        rest[c] -= 1
        after = cards_needed(list(cards) + [c], groups, runs, v6, rest, need - 1)
        if after == need - 1:
            rows.append((c, avail[c], after))
    return need, rows
