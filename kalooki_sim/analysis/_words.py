"""Sentence building for the report: words computed from the numbers.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .._stats import share_text
from ..game._checks import check_columns
from ._multiplicity import first_set


def join_words(items, empty: str = "none") -> str:
    """``'1, 2 and 3'`` for a list; ``empty`` for none.

    Examples
    --------
    >>> join_words([7, 9]), join_words([1, 2, 3]), join_words([])
    ('7 and 9', '1, 2 and 3', 'none')
    """
    items = [str(x) for x in items]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def first_phrase(ranks: pd.DataFrame, noun: str = "hand", nouns: str | None = None) -> str:
    """What a :func:`rank_intervals` table allows one to say about first place.

    ``'hand 7'`` when one item alone can be first; otherwise ``'one of hands 7 and 9 (their
    rank intervals overlap: no single one is clearly first)'``.
    """
    first = sorted(first_set(ranks), key=str)
    if len(first) == 1:
        return f"{noun} {first[0]}"
    return (f"one of {nouns or noun + 's'} {join_words(first)} (their rank intervals "
            "overlap: no single one is clearly first)")


def overlap_note(ranks: pd.DataFrame, intervals: dict, higher_first: bool = True,
                 noun: str = "hand", order: str = "most often") -> str:
    """The items a first-place claim leaves out although their 95% intervals overlap first
    place's, each with its rank interval: a reader who sees the overlap reads why.

    :func:`first_phrase` names the items whose simultaneous rank interval reaches 1. An item
    whose own interval overlaps one of theirs can still be ruled out (the ranks weigh every
    item's data at once); this says so, and by which rank interval. ``intervals``: item ->
    ``(lo, hi)``, the 95% intervals the page shows; ``higher_first`` as the ranks were made;
    ``order`` says what rank 1 is. Empty string when no item is left out that way.

    Examples
    --------
    >>> ranks = pd.DataFrame({"item": [8, 9, 3], "rank_lo": [1, 1, 3], "rank_hi": [2, 2, 3]})
    >>> iv = {8: (0.0, 1.5e-5), 9: (0.0, 1.5e-5), 3: (1.4e-5, 5.8e-5)}
    >>> overlap_note(ranks, iv, higher_first=False, order="least often")
    "Hand 3's 95% interval overlaps theirs, but its rank interval does not reach 1 (1 = least \
often; hand 3: 3 to 3)."
    >>> overlap_note(ranks, {**iv, 3: (1.6e-5, 5.8e-5)}, higher_first=False)
    ''
    """
    first = first_set(ranks)
    r = ranks.set_index("item")
    if higher_first:
        reach = min(intervals[f][0] for f in first)
        close = [i for i in r.index if i not in first and intervals[i][1] >= reach]
    else:
        reach = max(intervals[f][1] for f in first)
        close = [i for i in r.index if i not in first and intervals[i][0] <= reach]
    if not close:
        return ""
    close = sorted(close, key=str)
    whose = "theirs" if len(first) > 1 else f"{noun} {first[0]}'s"
    each = "; ".join(f"{noun} {i}: {r.loc[i, 'rank_lo']} to {r.loc[i, 'rank_hi']}"
                     for i in close)
    if len(close) == 1:
        head = f"{noun.capitalize()} {close[0]}'s 95% interval overlaps {whose}, but its rank "
        head += "interval does not reach 1"
    else:
        head = (f"The 95% intervals of {noun}s {join_words(close)} overlap {whose}, but their "
                "rank intervals do not reach 1")
    return f"{head} (1 = {order}; {each})."


# -- numbers in words (the analysis layer cannot reach report.plots) --------------------------


def _pct(p, digits: int = 0) -> str:
    """``_pct(0.664) == '66%'``; small and large shares keep two significant digits
    (:func:`kalooki_sim._stats.share_text`)."""
    return share_text(p, digits)


def decimals(lo, hi, most: int = 6) -> int | None:
    """Decimals that show an interval ``[lo, hi]`` and no more: those of the first significant
    digit of its half-width, or of the second when the first is a 1 (``0.12`` is not ``0.1``;
    the Particle Data Group's rule); negative: round to tens, hundreds...; ``None`` for an
    empty or unknown width.

    Examples
    --------
    >>> decimals(13.79, 14.03), decimals(-0.0028, 0.0044), decimals(5076, 12658), decimals(1, 1)
    (2, 3, -3, None)
    >>> decimals(12.1, 12.5), decimals(-0.73, 1.78)
    (1, 1)
    """
    if lo is None or hi is None or not (np.isfinite(lo) and np.isfinite(hi)) or hi <= lo:
        return None
    half = (hi - lo) / 2
    first = -int(np.floor(np.log10(half)))
    lead = int(round(half * 10.0**first, 6))  # the first significant digit
    return int(min(most, first + (lead == 1)))


def fixed(v: float, d: int, signed: bool = False) -> str:
    """``v`` with ``d`` decimals (``d < 0``: rounded to ``10**-d``), thousands separated, a
    true minus sign."""
    v = round(float(v), d) + 0.0  # no "-0"
    text = f"{v:{'+' if signed else ''},.{max(d, 0)}f}"
    return text.replace("-", "−")


def bound(v: float, d: int, signed: bool = False, limit: float = 0.0) -> str:
    """An interval's end with :func:`fixed`'s ``d`` decimals, or more where those would print
    it as ``limit`` (0; 100 for a percentage's upper end) that it is not: a lower end of a
    share seen at least once is above 0, and a bound just across zero keeps its side.

    Examples
    --------
    >>> bound(0.0044, 2), bound(-0.004, 0, signed=True), bound(99.996, 2, limit=100.0)
    ('0.004', '−0.004', '99.996')
    >>> bound(0.0, 2), bound(24.8, -1), bound(100.0, 1, limit=100.0)
    ('0.00', '20', '100.0')
    """
    v = float(v)
    if np.isfinite(v) and v != limit:
        while round(v, d) == limit and d < 12:
            d += 1
    return fixed(v, d, signed)


def ci_text(m, lo, hi, signed: bool = False, unit: str = "") -> str:
    """``m [lo, hi]`` with the decimals the interval supports (:func:`decimals`); an
    interval of no width is the number alone (``"0"`` for zero).

    >>> ci_text(0.0008, -0.0028, 0.0044, signed=True), ci_text(0.0, 0.0, 0.0, signed=True)
    ('+0.001 [−0.003, +0.004]', '0')
    >>> ci_text(0.52, -0.73, 1.78, signed=True, unit=" points")
    '+0.5 points [−0.7, +1.8]'
    """
    if lo == hi == m:
        return ("0" if m == 0 else fixed(m, 4, signed)) + unit
    d = decimals(lo, hi)
    d = 4 if d is None else d
    return f"{fixed(m, d, signed)}{unit} [{bound(lo, d, signed)}, {bound(hi, d, signed)}]"


def _span(values, digits: int = 0, scale: float = 1.0) -> str:
    """``'11–23'`` (or ``'11'`` when all equal) for the absolute values, scaled."""
    v = np.abs(np.asarray(values, float)) * scale
    lo, hi = f"{v.min():.{digits}f}", f"{v.max():.{digits}f}"
    return lo if lo == hi else f"{lo}–{hi}"


def _hands(hs) -> str:
    hs = sorted(int(h) for h in hs)
    return f"hand{'s' * (len(hs) != 1)} {join_words(hs)}"


def _hands_of(hs, n: int) -> str:
    """:func:`_hands`, or "all nine contracts" when ``hs`` are all ``n`` (> 1) of a table.

    >>> _hands_of([1, 2, 3], 3), _hands_of([1, 3], 3), _hands_of([2], 1)
    ('all three contracts', 'hands 1 and 3', 'hand 2')
    """
    if len(hs) == n > 1:
        return f"all {_count(n)} contracts"
    return _hands(hs)


def _turn(m, lo=None, hi=None, last: int = 20) -> str:
    if not np.isfinite(m):
        return f"after own turn {last}" if m == np.inf else "n/a"
    if lo is None or not np.isfinite(lo):
        return f"{m:.0f}"
    hi_t = f"> {last}" if not np.isfinite(hi) else f"{hi:.0f}"
    return f"{m:.0f} [{lo:.0f}, {hi_t}]"


# -- contract difficulty ----------------------------------------------------------------------


def open_speed_sentence(ct: pd.DataFrame, fast: pd.DataFrame, players: int,
                        max_turn: int = 20) -> str:
    """Slowest and fastest contracts to open, from :func:`contract_table` (``ct``: its rank
    intervals put the hardest first) and ``fast``, a :func:`rank_intervals` table of the same
    bootstrap replicates with ``higher_first=False``. Every contract with a median is ranked;
    those without one are named as such.

    Examples
    --------
    >>> ct = pd.DataFrame({"hand": [1, 2, 3], "median_open_turn": [2.0, 4.0, 9.0],
    ...                    "median_open_turn_lo": [2.0, 3.0, 8.0],
    ...                    "median_open_turn_hi": [3.0, 5.0, 10.0],
    ...                    "rank_lo": [3, 2, 1]})
    >>> fast = pd.DataFrame({"item": [1, 2, 3], "rank_lo": [1, 2, 3]})
    >>> open_speed_sentence(ct, fast, 4)[:60]
    'At 4 players seats are slowest to put their contract down in'
    """
    c = ct.set_index("hand")
    slow = c.index[c["rank_lo"] == 1].tolist()
    quick = fast.loc[fast["rank_lo"] == 1, "item"].tolist()

    def med(hs):
        return "; ".join(f"{_turn(c.loc[h, 'median_open_turn'], c.loc[h, 'median_open_turn_lo'], c.loc[h, 'median_open_turn_hi'], max_turn)} in hand {h}"  # noqa: E501
                         for h in sorted(hs))

    def which(hs):
        if len(hs) == 1:
            return f"hand {hs[0]}"
        return f"one of {_hands(hs)} (their rank intervals overlap)"

    text = (f"At {players} players seats are slowest to put their contract down in "
            f"{which(slow)}: half the seats have opened by own turn {med(slow)}. They are "
            f"fastest in {which(quick)}: {med(quick)}.")
    none = c.index[~np.isfinite(c["median_open_turn"].astype(float))
                   & c["median_open_turn"].isna()].tolist()
    if none:
        text += f" Too few seats remain to estimate a median in {_hands(none)}."
    return text + (" (A seat whose hand ended first counts as censored, not as one that never "
                   "opens.)")


def selection_note(table: pd.DataFrame, max_void: float = 0.5) -> str:
    """Warn where few deals are scored: a scored hand there is a selected deal.

    ``table``: rows of :func:`contract_difficulty` (``hand, players, p_void,
    p_out_on_opening``; ``series`` names the table if present). Cells whose void share is at
    least ``max_void`` are named with the share of deals scored and the share of hands won on
    the opening. Empty string when there is none.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [8, 9, 1], "players": 6, "p_void": [0.97, 0.99, 0.1],
    ...                   "p_out_on_opening": [0.66, 0.93, 0.02]})
    >>> selection_note(t)[:48]
    'Few deals are scored in hands 8 and 9 at 6 playe'
    >>> selection_note(t.assign(p_void=0.1))
    ''
    """
    t = table[table["p_void"] >= max_void]
    if t.empty:
        return ""
    name = t["series"] if "series" in t else t["players"].map(lambda p: f"{p} players")
    parts = []
    for series, g in t.assign(_s=name).groupby("_s", sort=False):
        cells = "; ".join(f"hand {int(r.hand)}: {_pct(1 - r.p_void, 1)} of deals scored, "
                          f"{_pct(r.p_out_on_opening)} of them won on the opening"
                          for r in g.itertuples())
        parts.append(f"{_hands(g['hand'])} at {series} ({cells})")
    return ("Few deals are scored in " + "; and in ".join(parts) + ". Most deals there are "
            "void and dealt again, so a scored hand is a selected deal, not a typical one: "
            "its figures (the share won on the opening among them) describe the deals that "
            "get scored.")


def some_seat_sentence(anyseat: pd.DataFrame) -> str:
    """Does a bigger table make it likelier that *some* seat is dealt its contract?

    From :func:`p_some_seat_dealt` (``hand, players, p_any, lo, hi``), per contract: up when
    the largest table's interval lies above the smallest's, down when below, else unclear.

    Examples
    --------
    >>> a = pd.DataFrame({"hand": [1, 1, 2, 2], "players": [3, 6, 3, 6],
    ...                   "p_any": [0.1, 0.2, 0.01, 0.012], "lo": [0.09, 0.18, 0.005, 0.006],
    ...                   "hi": [0.11, 0.22, 0.02, 0.02]})
    >>> s = some_seat_sentence(a)
    >>> "more often in hand 1 (non-overlapping" in s, "in hand 2 the intervals overlap" in s
    (True, True)
    """
    up, down, flat = [], [], []
    ps = sorted(anyseat["players"].unique())
    if len(ps) < 2:
        return ""
    for h, g in anyseat.groupby("hand"):
        g = g.set_index("players")
        a, b = g.loc[ps[0]], g.loc[ps[-1]]
        (up if b["lo"] > a["hi"] else down if b["hi"] < a["lo"] else flat).append(h)
    parts = []
    if up:
        parts.append(f"more often in {_hands(up)}")
    if down:
        parts.append(f"less often in {_hands(down)}")
    text = f"With {ps[-1]} players rather than {ps[0]}, some seat is dealt its contract "
    if parts:
        text += " and ".join(parts) + " (non-overlapping 95% intervals)"
        if flat:
            text += f"; in {_hands(flat)} the intervals overlap: the data do not show a change"
    else:
        text = (f"Between {ps[0]} and {ps[-1]} players the intervals of every contract "
                "overlap: the data do not show that more seats make it likelier that some seat "
                "is dealt its contract")
    return text + "."


# -- calls ------------------------------------------------------------------------------------


def call_sign_line(policy: str, rows: pd.DataFrame, claims: dict) -> str:
    """One policy's line of Holm-adjusted sign claims on the penalty change.

    ``rows``: that policy's :func:`call_value` rows (``hand, calls, d_penalty, d_penalty_lo,
    d_penalty_hi``); ``claims``: :func:`sign_claims` over ``(policy, hand)``. A hand where
    the policy made no call has a difference of exactly zero and is said so, not "unclear".

    Examples
    --------
    >>> r = pd.DataFrame({"hand": [1, 2, 3], "calls": [0.4, 0.0, 0.3],
    ...                   "d_penalty": [-3.0, 0.0, 0.5], "d_penalty_lo": [-4.0, 0.0, -1.0],
    ...                   "d_penalty_hi": [-2.0, 0.0, 2.0]})
    >>> cl = {"lower": [("call-3", 1)], "higher": [], "unclear": [("call-3", 2), ("call-3", 3)]}
    >>> s = call_sign_line("call-3", r, cl)
    >>> s.startswith("`call-3` lowers the expected penalty in hand 1; in hand 3 the data")
    True
    >>> s.endswith("in hand 2 it made no call, so the difference is exactly zero.")
    True
    """
    r = rows.set_index("hand")
    zero = [h for h in r.index if r.loc[h, "calls"] == 0
            or (r.loc[h, "d_penalty"] == 0
                and r.loc[h, "d_penalty_lo"] == r.loc[h, "d_penalty_hi"])]
    of = {k: [h for p, h in v if p == policy and h not in zero] for k, v in claims.items()}
    s = f"`{policy}` lowers the expected penalty in {_hands(of['lower'])}" if of["lower"] \
        else f"`{policy}` lowers the expected penalty in no contract"
    if of["higher"]:
        s += f", raises it in {_hands(of['higher'])}"
    if of["unclear"]:
        s += f"; in {_hands(of['unclear'])} the data do not say which way"
    if zero:
        s += f"; in {_hands(zero)} it made no call, so the difference is exactly zero"
    return s + "."


def call_void_sentence(c3: pd.DataFrame, policy: str = "call-3") -> str:
    """How calling changes void deals, per contract, from the paired ``d_attempts`` (deals
    per scored hand, this policy minus never calling; a void deal is one more deal).

    ``c3``: :func:`call_value` rows of one policy indexed by hand, with ``d_attempts``,
    ``d_attempts_lo``, ``d_attempts_hi``.

    Examples
    --------
    >>> c = pd.DataFrame({"d_attempts": [0.02, -0.01, 0.0], "d_attempts_lo": [0.01, -0.02, -0.01],
    ...                   "d_attempts_hi": [0.03, -0.005, 0.01]}, index=[9, 3, 5])
    >>> s = call_void_sentence(c)
    >>> "(more void deals) in hand 9 and fewer in hand 3; in hand 5 the data do not" in s
    True
    """
    more = [h for h in c3.index if c3.loc[h, "d_attempts_lo"] > 0]
    fewer = [h for h in c3.index if c3.loc[h, "d_attempts_hi"] < 0]
    flat = [h for h in c3.index if h not in more and h not in fewer]
    if not more and not fewer:
        return (f"`{policy}` does not clearly change how many deals are void in any contract "
                "(every paired 95% interval on the deals per scored hand holds 0).")
    parts = []
    if more:
        parts.append(f"more deals per scored hand than never calling (more void deals) in "
                     f"{_hands(more)}")
    if fewer:
        parts.append(("fewer" if more else "fewer deals per scored hand than never calling "
                      "(fewer void deals)") + f" in {_hands(fewer)}")
    s = f"`{policy}` needs " + " and ".join(parts)
    if flat:
        s += f"; in {_hands(flat)} the data do not say which way"
    return s + " (paired 95% intervals over the same deal sequences)."


def spread_sentence(never, call, hand: int, policy: str = "call-3") -> str:
    """What calling does to the penalty's mean and spread in one contract, each measure of
    spread with its own direction (standard deviation, 90th percentile, chance of >= 200).

    ``never``, ``call``: :func:`call_value` rows (mappings) of the baseline and the policy.
    A measure "rises" or "falls" only when its interval excludes no change (for the 90th
    percentile: the two order-statistic intervals do not overlap).
    """
    def way(lo, hi):
        return "rises" if lo > 0 else "falls" if hi < 0 else "does not clearly change"

    mean = way(call["d_penalty_lo"], call["d_penalty_hi"])
    sd = way(call["d_pen_sd_lo"], call["d_pen_sd_hi"])
    q90 = ("rises" if call["pen_q90_lo"] > never["pen_q90_hi"] else "falls"
           if call["pen_q90_hi"] < never["pen_q90_lo"] else "does not clearly change")
    p200 = way(call["d_p_pen200_lo"], call["d_p_pen200_hi"])
    ways = {sd, q90, p200}
    if ways == {"rises"}:
        summary = "its spread rises on every measure"
    elif ways == {"falls"}:
        summary = "its spread falls on every measure"
    elif ways == {"does not clearly change"}:
        summary = "no measure of its spread clearly changes"
    else:
        summary = "the measures of its spread disagree"
    return (f"In hand {hand} with `{policy}` the mean penalty {mean} "
            f"({never['penalty']:.1f} → {call['penalty']:.1f} points) and {summary}: the "
            f"standard deviation {sd} ({never['pen_sd']:.0f} → {call['pen_sd']:.0f}), the 90th "
            f"percentile {q90} ({never['pen_q90']:.0f} → {call['pen_q90']:.0f}) and the chance "
            f"of paying 200 or more {p200} ({_pct(never['p_pen200'], 1)} → "
            f"{_pct(call['p_pen200'], 1)}).")


# -- rule sets --------------------------------------------------------------------------------

#: rule-set measures: name -> (words, unit, scale to the unit, digits)
RULE_MEASURE_WORDS = {
    "loser_penalty": ("the losers' penalty", "points", 1.0, 0),
    "doubled": ("hands doubled", "percentage points", 100.0, 0),
    "void": ("void first deals", "percentage points", 100.0, 0),
    "turns": ("table turns per hand", "turns", 1.0, 1),
}


def variant_sentence(name: str, t: pd.DataFrame, sig: dict, deals: int) -> str:
    """Direction and size of one rule variant's changes, from :func:`compare_rules` rows of
    that variant (``t``: ``hand, d_<m>``) and ``sig``: ``(name, hand, measure) -> bool``
    (Holm-adjusted). Sizes are the range of the point estimates over the hands named.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 2, 3], "d_loser_penalty": [-11.0, -23.0, 1.0],
    ...                   "d_doubled": [-0.16, -0.43, 0.0], "d_turns": [0.0, 0.1, 0.2],
    ...                   "d_void": [0.0, 0.0, 0.0]})
    >>> sig = {("V4", h, m): (m in ("loser_penalty", "doubled") and h < 3)
    ...        for h in (1, 2, 3) for m in RULE_MEASURE_WORDS}
    >>> s = variant_sentence("V4", t, sig, 3000)
    >>> s[:58]
    "V4 cuts the losers' penalty by 11–23 points (hands 1 and 2"
    >>> "and cuts hands doubled by 16–43 percentage points (hands 1 and 2)" in s
    True
    """
    r = t.set_index("hand")
    parts = []
    for m, (words, unit, scale, digits) in RULE_MEASURE_WORDS.items():
        hs = [h for h in r.index if sig.get((name, h, m), False)]
        if not hs:
            continue
        d = r.loc[hs, f"d_{m}"]
        for verb, sub in (("raises", d[d > 0]), ("cuts", d[d < 0])):
            if len(sub):
                parts.append(f"{verb} {words} by {_span(sub, digits, scale)} {unit} "
                             f"({_hands(sub.index)})")
    if not parts:
        return f"{name}: no change survives the Holm adjustment at {deals:,} deals per contract."
    return f"{name} {join_words(parts)}, against the card on the same deals (Holm-adjusted)."


# -- Tuluki: the two seats ---------------------------------------------------------------------


def dealer_sentence(seats: pd.DataFrame, alpha: float = 0.05) -> str:
    """Which Tuluki seat pays less, per contract, from :func:`dealer_seats` rows: a sign claim
    on the paired ``d_penalty`` (non-dealer minus dealer) that survives Holm's adjustment over
    the contracts given, with the size (the range of the point estimates named).

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 2, 3], "d_penalty": [-5.1, -7.0, 1.0],
    ...                   "d_penalty_p": [0.0001, 0.001, 0.6]})
    >>> s = dealer_sentence(t)
    >>> s.startswith("In Tuluki the non-dealer (who plays first and is offered the upcard) "
    ...              "pays 5–7 points less per deal than the dealer in hands 1 and 2")
    True
    >>> "in hand 3 the data do not say which seat pays less" in s
    True
    """
    from ._multiplicity import sign_claims

    check_columns("seats", seats, ["hand", "d_penalty", "d_penalty_p"])
    hands = seats["hand"].astype(int).tolist()
    claims = sign_claims(hands, seats["d_penalty"], seats["d_penalty_p"], alpha=alpha)
    d = seats.set_index(seats["hand"].astype(int))["d_penalty"]
    def points(hs):
        span = _span(d[hs])
        return f"{span} point{'s' * (span != '1')}"

    parts = []
    if claims["lower"]:
        parts.append(f"pays {points(claims['lower'])} less per deal than the dealer in "
                     f"{_hands(claims['lower'])}")
    if claims["higher"]:
        parts.append(f"pays {points(claims['higher'])} more than the dealer in "
                     f"{_hands(claims['higher'])}")
    who = "In Tuluki the non-dealer (who plays first and is offered the upcard)"
    if not parts:
        return (f"{who} and the dealer: in no contract do the data say which seat pays less "
                "(paired by deal; Holm-adjusted over the contracts).")
    s = f"{who} " + " and ".join(parts)
    if claims["unclear"]:
        s += f"; in {_hands(claims['unclear'])} the data do not say which seat pays less"
    return s + f" (paired by deal; Holm-adjusted over the {len(hands)} contracts)."


def search_gap_sentence(table: pd.DataFrame, alpha: float = 0.05) -> str:
    """What the search-versus-expert table says about the expert's take and call rule (R9).

    ``table`` has one row per contract with ``hand, d_penalty, d_penalty_lo, d_penalty_hi``
    (search minus expert, points per hand, 95% interval; see
    :func:`kalooki_sim.analysis.search_gap.search_table`), and may have ``rollouts`` and
    ``screen`` (True: only the offers of a card that cuts the cards still needed were
    searched). A contract is named where the sign
    survives Holm's adjustment over the contracts given (p recovered from the interval):
    below zero, the expert's rule leaves that many points per hand on the table; above zero,
    the expert's rule is the better one against this searcher.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 5, 9], "d_penalty": [-4.0, 0.5, 7.1],
    ...                   "d_penalty_lo": [-6.0, -1.5, 3.9], "d_penalty_hi": [-2.0, 2.5, 10.2],
    ...                   "rollouts": 24})
    >>> s = search_gap_sentence(t)
    >>> s.startswith("A player that searches at every take and call (24 rollouts a decision) "
    ...              "pays 4 points per hand less than the expert in hand 1 and pays 7 points "
    ...              "per hand more in hand 9; in hand 5 the data do not say")
    True
    >>> "leaves up to 4 points per hand on the table" in s
    True
    >>> search_gap_sentence(t.assign(screen=True)).startswith(
    ...     "A player that searches at every take and call of a card that cuts its cards still "
    ...     "needed (24 rollouts a decision) pays")
    True
    >>> search_gap_sentence(t.assign(d_penalty=-4.0, d_penalty_lo=-6.0, d_penalty_hi=-2.0)
    ...                     ).startswith("A player that searches at every take and call (24 "
    ...                                  "rollouts a decision) pays 4 points per hand less than "
    ...                                  "the expert in all three contracts (Holm")
    True
    >>> nine = pd.DataFrame({"hand": range(1, 10), "deals": 1000, "d_penalty": -0.6,
    ...                      "d_penalty_lo": -1.5, "d_penalty_hi": 0.3, "rollouts": 96})
    >>> s = search_gap_sentence(nine)
    >>> "not distinguishable from the expert in any contract" in s
    True
    >>> s.endswith("but a whole game does. Over a game of the nine contracts it pays 5.4 "
    ...            "points less than the expert (search − expert -5.4, 95% interval -8.1 to "
    ...            "-2.7 points a game; the nine contracts' differences added, their deals "
    ...            "independent).")
    True
    >>> s = search_gap_sentence(nine.assign(d_penalty=-0.2, d_penalty_lo=-1.1, d_penalty_hi=0.7))
    >>> "a stronger searcher might. Over a game of the nine contracts the data do not say " in s
    True
    >>> "which pays less (search − expert -1.8, 95% interval -4.5 to +0.9 points a game" in s
    True
    >>> "no contract" in search_gap_sentence(t.assign(d_penalty=[4.0, 0.5, 7.1],
    ...                                                 d_penalty_lo=[2.0, -1.5, 3.9],
    ...                                                 d_penalty_hi=[6.0, 2.5, 10.2]))
    True
    """
    from ._multiplicity import p_from_ci, sign_claims

    check_columns("table", table, ["hand", "d_penalty", "d_penalty_lo", "d_penalty_hi"])
    hands = table["hand"].astype(int).tolist()
    p = p_from_ci(table["d_penalty"], table["d_penalty_lo"], table["d_penalty_hi"])
    claims = sign_claims(hands, table["d_penalty"], p, alpha=alpha)
    d = table.set_index(table["hand"].astype(int))["d_penalty"]

    def points(hs):
        span = _span(d[hs])
        return f"{span} point{'s' * (span != '1')} per hand"

    rollouts = (f" ({int(table['rollouts'].iloc[0])} rollouts a decision)"
                if "rollouts" in table and table["rollouts"].nunique() == 1 else "")
    who = ("A player that searches at every take and call"
           + (" of a card that cuts its cards still needed" if screened(table) else "")
           + rollouts)
    parts = []
    if claims["lower"]:
        parts.append(f"pays {points(claims['lower'])} less than the expert in "
                     f"{_hands_of(claims['lower'], len(hands))}")
    if claims["higher"]:
        than = "" if claims["lower"] else " than the expert"
        parts.append(f"pays {points(claims['higher'])} more{than} in "
                     f"{_hands_of(claims['higher'], len(hands))}")
    family = f"Holm-adjusted over the {len(hands)} contracts"
    if not parts:
        s = (f"{who} is not distinguishable from the expert in any contract ({family})")
    else:
        s = f"{who} " + " and ".join(parts)
        if claims["unclear"]:
            s += f"; in {_hands(claims['unclear'])} the data do not say which pays less"
        s += f" ({family})"
    game = _game_sum(table) if sorted(hands) == list(range(1, 10)) else None
    if claims["lower"]:
        worst = float(-d[claims["lower"]].min())
        s += (f". So the expert's rule, the table the call chart assumes, leaves up to "
              f"{worst:.0f} points per hand on the table in "
              f"{_hands_of(claims['lower'], len(hands))}.")
    elif game is not None and game[2] < 0:
        s += (". No one contract shows the expert's rule, the table the call chart assumes, "
              "leaving points on the table, but a whole game does.")
    else:
        s += (". In no contract does this searcher show the expert's rule, the table the call "
              "chart assumes, leaving points on the table; a stronger searcher might.")
    if game is not None:
        m, lo, hi = game
        if hi < 0 or lo > 0:
            s += (f" Over a game of the nine contracts it pays {abs(m):.1f} points "
                  f"{'less' if hi < 0 else 'more'} than the expert")
        else:
            s += " Over a game of the nine contracts the data do not say which pays less"
        s += (f" (search − expert {m:+.1f}, 95% interval {lo:+.1f} to {hi:+.1f} points a game; "
              "the nine contracts' differences added, their deals independent).")
    return s


def screened(table: pd.DataFrame) -> bool:
    """Did the searcher of a search-versus-expert table search only the offers of a card that
    cuts its cards still needed (its ``screen`` column all True)? False without the column."""
    return "screen" in table and bool(table["screen"].all())


_SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int) -> str:
    """``'nine'`` for 9 (0-9 in words, as prose counts them), else the digits."""
    return _SMALL[n] if 0 <= n < len(_SMALL) else f"{n:,}"


def search_gap_tally(table: pd.DataFrame, alpha: float = 0.05) -> str:
    """How many contracts of the search-versus-expert table point below zero, and how many
    Holm's adjustment over the contracts decides: the count a reader checks the searcher by
    (issue 29 asks for all below zero, five of them decided).

    ``table`` as for :func:`search_gap_sentence`. With no contract decided, the sentence names
    the smallest p-value and Holm's first threshold (``alpha`` over the number of contracts),
    so the reader sees how far the closest one is.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 2, 3], "d_penalty": [-4.0, -0.5, 0.3],
    ...                   "d_penalty_lo": [-6.0, -1.5, -0.6], "d_penalty_hi": [-2.0, 0.5, 1.2]})
    >>> print(search_gap_tally(t))  # doctest: +NORMALIZE_WHITESPACE
    Two of the three contracts point below zero, one above. After Holm's adjustment over the
    three contracts, one is below zero (hand 1); the other two are not decided.
    >>> print(search_gap_tally(t.assign(d_penalty_lo=[-6.5, -0.9, -0.2],
    ...                                 d_penalty_hi=[-1.5, -0.1, 0.8])))
    ... # doctest: +NORMALIZE_WHITESPACE
    Two of the three contracts point below zero, one above. After Holm's adjustment over the
    three contracts, two are below zero (hands 1 and 2); the other one is not decided.
    >>> print(search_gap_tally(t.assign(d_penalty=-4.0, d_penalty_lo=-6.0, d_penalty_hi=-2.0)))
    ... # doctest: +NORMALIZE_WHITESPACE
    All three contracts point below zero. After Holm's adjustment over the three contracts,
    all three are below zero.
    >>> print(search_gap_tally(t.assign(d_penalty=-0.5, d_penalty_lo=-1.4, d_penalty_hi=0.4)))
    ... # doctest: +NORMALIZE_WHITESPACE
    All three contracts point below zero, but the smallest p-value (hand 1, 0.28) is above
    Holm's first threshold (0.05 / 3 = 0.017), so no single contract is decided.
    """
    from ._multiplicity import p_from_ci, sign_claims

    check_columns("table", table, ["hand", "d_penalty", "d_penalty_lo", "d_penalty_hi"])
    hands = table["hand"].astype(int).tolist()
    d = table["d_penalty"].to_numpy(float)
    n = len(hands)
    below, above = int((d < 0).sum()), int((d > 0).sum())
    p = p_from_ci(table["d_penalty"], table["d_penalty_lo"], table["d_penalty_hi"])
    claims = sign_claims(hands, d, p, alpha=alpha)
    if below == n:
        s = f"All {_count(n)} contracts point below zero"
    else:
        s = f"{_count(below).capitalize()} of the {_count(n)} contracts point below zero"
        if above:
            s += f", {_count(above)} above"
    decided = len(claims["lower"]) + len(claims["higher"])
    if not decided:
        i = int(np.nanargmin(p))
        return (s + f", but the smallest p-value (hand {hands[i]}, {_p(p[i])}) is above Holm's "
                f"first threshold ({alpha:g} / {n} = {_p(alpha / n)}), so no single contract "
                "is decided.")
    parts = []
    for key, side in (("lower", "below"), ("higher", "above")):
        if claims[key]:
            k = len(claims[key])
            if k == n > 1:
                parts.append(f"all {_count(k)} are {side} zero")
            else:
                parts.append(f"{_count(k)} {'is' if k == 1 else 'are'} {side} zero "
                             f"({_hands(claims[key])})")
    s += f". After Holm's adjustment over the {_count(n)} contracts, " + " and ".join(parts)
    rest = len(claims["unclear"])
    if rest:
        s += f"; the other {_count(rest)} {'is' if rest == 1 else 'are'} not decided"
    return s + "."


def _p(x: float) -> str:
    """A p-value to two significant figures (``0.28``, ``0.010``, ``0.0056``, ``1.5e-08``).

    >>> [_p(x) for x in (0.2763, 0.0104, 0.05 / 9, 1.5e-8, 0.0)]
    ['0.28', '0.010', '0.0056', '1.5e-08', '0']
    """
    if x == 0:
        return "0"
    if x < 1e-4:
        return f"{x:.1e}"
    return f"{x:.{max(0, 1 - math.floor(math.log10(x)))}f}"


def _game_sum(table: pd.DataFrame) -> tuple[float, float, float]:
    """Search minus expert over a game of the nine contracts: the sum of the contracts' mean
    differences and its 95% normal interval, each contract's standard error recovered from
    its 95% t interval (``deals - 1`` degrees of freedom; normal without ``deals``)."""
    from scipy import stats

    lo = table["d_penalty_lo"].to_numpy(float)
    hi = table["d_penalty_hi"].to_numpy(float)
    if "deals" in table:
        q = stats.t.ppf(0.975, np.maximum(table["deals"].to_numpy(float) - 1, 1))
    else:
        q = stats.norm.ppf(0.975)
    se = (hi - lo) / (2 * q)
    m = float(table["d_penalty"].sum())
    half = float(stats.norm.ppf(0.975) * np.sqrt(np.sum(se ** 2)))
    return m, m - half, m + half


def tuned_sentence(tuned: pd.DataFrame, expert_max_need: int) -> str:
    """What the tuned call table (:func:`kalooki_sim.players.tuning.tuned_table`) changed in
    the expert's call rule (R9).

    ``tuned`` has one row per contract with ``hand``, ``adopted`` (the winner's confirmed gain
    lies below zero at 95%), ``p_holm`` (Holm over the contracts; NaN where the winner is the
    expert itself) and ``call_max_need``; ``expert_max_need`` is the expert's own.

    Examples
    --------
    >>> t = pd.DataFrame({"hand": [1, 5, 9], "adopted": [False, True, True],
    ...                   "p_holm": [float("nan"), 0.2, 0.01], "call_max_need": [5, 99, 7]})
    >>> s = tuned_sentence(t, 5)
    >>> s.startswith("The search changed the expert's call rule in 2 of 3 contracts (hands 5 "
    ...              "and 9: the tuned rule pays fewer points on fresh deals")
    True
    >>> "after a Holm adjustment over the contracts, 1 remains (hand 9)." in s
    True
    >>> "while needing up to 99 and 7 cards, against its 5" in s
    True
    >>> tuned_sentence(t.assign(adopted=False, p_holm=float("nan")), 5).startswith(
    ...     "The search confirmed no change to the expert's call rule: in none of the 3 ")
    True
    >>> "more* freely" in tuned_sentence(t.assign(call_max_need=[5, 3, 7]), 5)
    False
    """
    check_columns("tuned", tuned, ["hand", "adopted", "p_holm", "call_max_need"])
    n = len(tuned)
    adopted = tuned[tuned["adopted"].astype(bool)]
    if adopted.empty:
        return (f"The search confirmed no change to the expert's call rule: in none of the {n} "
                "contracts did a tuned rule pay fewer points on fresh deals (95%), so "
                "`tuned_policy` is the expert everywhere.")
    better = tuned[tuned["p_holm"] < 0.05]
    k = len(better)
    text = (f"The search changed the expert's call rule in {len(adopted)} of {n} contracts "
            f"({_hands(adopted['hand'])}: the tuned rule pays fewer points on fresh deals, 95% "
            f"interval below zero); after a Holm adjustment over the contracts, {k} "
            f"remain{'s' * (k == 1)} ({_hands(better['hand']) if k else 'none'}).")
    needs = adopted["call_max_need"].astype(int)
    if (needs > expert_max_need).all():
        text += (" Every adopted winner calls *more* freely than the expert (while needing up "
                 f"to {join_words(needs.tolist())} cards, against its {expert_max_need}).")
    return text


def interval_sentence(table: pd.DataFrame, names: dict, csv: str) -> str:
    """Which of a table's measures carry a 95% interval, read from its columns: ``x`` has one
    when ``x_lo`` and ``x_hi`` are there (``difficulty_rank``: ``rank_lo``, ``rank_hi``).

    ``names`` gives each measure's words on the page, in the page's order; measures not in
    ``table`` are left out.

    Examples
    --------
    >>> t = pd.DataFrame(columns=["hand", "turns", "losers_penalty", "losers_penalty_lo",
    ...                           "losers_penalty_hi"])
    >>> print(interval_sentence(t, {"losers_penalty": "losers' penalty",
    ...                             "turns": "table turns"}, "t.csv"))  # doctest: +ELLIPSIS
    Every column is in t.csv; with a 95% interval ...: losers' penalty; without one: table turns.
    >>> interval_sentence(t[["hand", "turns"]], {"turns": "table turns"}, "t.csv")
    'Every column is in t.csv; none has an interval.'
    """
    def has_ci(c):
        tail = c.split("_")[-1]
        return {f"{c}_lo", f"{c}_hi"} <= set(table.columns) or (
            c.endswith("_rank") and {f"{tail}_lo", f"{tail}_hi"} <= set(table.columns))

    shown = [c for c in names if c in table.columns]
    with_ci = [names[c] for c in shown if has_ci(c)]
    without = [names[c] for c in shown if not has_ci(c)]
    if not with_ci:
        return f"Every column is in {csv}; none has an interval."
    tail = f"; without one: {join_words(without)}" if without else ""
    return (f"Every column is in {csv}; with a 95% interval (its _lo and _hi columns): "
            f"{join_words(with_ci)}{tail}.")


_GAMES_LINE = re.compile(
    r"^(?P<what>.*?) \((?P<n>\d+) deal sequences\): total gain (?P<g>\S+) \[(?P<glo>\S+), "
    r"(?P<ghi>\S+)\] points, win share (?P<w>\S+) vs expert (?P<we>\S+), difference "
    r"(?P<d>\S+) \[(?P<dlo>\S+), (?P<dhi>\S+)\]$")


def tuned_games_sentence(line: str) -> str:
    """A ``nine-hand games`` line of ``tuned_calls.csv``'s header as a sentence, its numbers
    with the digits their intervals support (:func:`ci_text`); shares in percent.

    Examples
    --------
    >>> print(tuned_games_sentence("nine-hand games, every winner in its hand (2000 deal "
    ...       "sequences): total gain +0.52 [-0.73, +1.78] points, win share 0.3082 vs expert "
    ...       "0.3074, difference +0.0008 [-0.0028, +0.0044]"))  # doctest: +NORMALIZE_WHITESPACE
    In nine-hand games, every winner in its hand (2,000 deal sequences): total gain
    +0.5 [−0.7, +1.8] points, win share 30.8% against expert's 30.7%, a difference of
    +0.1 [−0.3, +0.4] percentage points.
    >>> print(tuned_games_sentence("nine-hand games, the adopted set (2000 deal sequences): "
    ...       "total gain +0.00 [+0.00, +0.00] points, win share 0.3074 vs expert 0.3074, "
    ...       "difference +0.0000 [+0.0000, +0.0000]"))  # doctest: +NORMALIZE_WHITESPACE
    In nine-hand games, the adopted set (2,000 deal sequences): the same games as expert's
    (no gain, win share 30.74% for both).
    """
    m = _GAMES_LINE.match(line.strip())
    if m is None:
        return f"In {line[0].lower()}{line[1:]}."
    v = {k: float(x) for k, x in m.groupdict().items() if k not in ("what", "n")}
    head = f"In {m['what'][0].lower()}{m['what'][1:]} ({int(m['n']):,} deal sequences): "
    d = decimals(100 * v["dlo"], 100 * v["dhi"])

    def share(x):
        return f"{fixed(100 * x, 2 if d is None else max(d, 0))}%"

    if v["g"] == v["glo"] == v["ghi"] == 0 and v["d"] == v["dlo"] == v["dhi"] == 0:
        return (f"{head}the same games as expert's (no gain, win share {share(v['w'])} for "
                "both).")
    return (f"{head}total gain {ci_text(v['g'], v['glo'], v['ghi'], True)} points, win "
            f"share {share(v['w'])} against expert's {share(v['we'])}, a difference of "
            f"{ci_text(100 * v['d'], 100 * v['dlo'], 100 * v['dhi'], True)} percentage points.")


def situation_sentence(sit: dict) -> str:
    """An advisor's ``situation`` (:class:`~kalooki_sim.Advice`) in words, no field names;
    seats are numbered as the advisor numbers them (1, 2, ... counted to your right).

    Examples
    --------
    >>> print(situation_sentence({"hand": ["K♠", "K♥", "2♣"], "card": "6♦", "hand_no": 1,
    ...     "contract": "3 groups", "players": 4, "discarder": 1, "stock_left": 71,
    ...     "calls_made": 0, "opened": [], "table": [], "seen": [], "known": {},
    ...     "hand_sizes": {1: 9, 2: 9, 3: 9}, "reshuffled": False, "out_of_reach": []}))
    ... # doctest: +NORMALIZE_WHITESPACE
    hand 1 (3 groups), 4 players; your 3 cards K♠ K♥ 2♣; the card offered 6♦, discarded by
    the player just before you (you are next: take it or draw); 71 cards left in the stock;
    no call made yet; nobody has opened; the opponents in seats 1, 2 and 3 (counted to your
    right) hold 9, 9 and 9 cards
    """
    def cards(x):
        return " ".join(map(str, x))

    g = sit.get
    d = g("discarder")
    who = ("the player just before you (you are next: take it or draw)" if d == 1 else
           f"the player in seat {d} (you may call it or pass)") if d is not None else ""
    parts = [f"hand {g('hand_no')} ({g('contract')}), {g('players')} players",
             f"your {len(g('hand', []))} cards {cards(g('hand', []))}",
             f"the card offered {g('card')}" + (f", discarded by {who}" if who else "")]
    if g("stock_left") is not None:
        parts.append(f"{g('stock_left')} cards left in the stock"
                     + (" (the pile was reshuffled once: the next empty stock voids the hand)"
                        if g("reshuffled") else ""))
    n = g("calls_made") or 0
    parts.append("no call made yet" if n == 0 else f"{n} call{'s' if n != 1 else ''} made")
    opened = list(g("opened") or [])
    parts.append("nobody has opened" if not opened else
                 f"seat{'s' if len(opened) > 1 else ''} {join_words(opened)} "
                 f"{'have' if len(opened) > 1 else 'has'} opened")
    if g("table"):
        parts.append("on the table " + "; ".join(cards(m) for m in g("table")))
    if g("seen"):
        parts.append(f"seen in the pile {cards(g('seen'))}")
    for seat, held in (g("known") or {}).items():
        parts.append(f"seat {seat} took or called and holds {cards(held)}")
    sizes = g("hand_sizes") or {}
    if sizes:
        parts.append(f"the opponents in seats {join_words(list(sizes))} (counted to your "
                     f"right) hold {join_words(list(sizes.values()))} cards")
    return "; ".join(parts)
