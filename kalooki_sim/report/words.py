"""The pages' sentences, computed from the numbers: contract difficulty, calls, rule sets and
the two seats of Tuluki (the notebooks' prose; :mod:`.player_words` has the players' pages).
Every sentence says only what its table's intervals support.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._lib import check_columns
from .._stats import share_text
from ..analysis import join_words


def _pct(p, digits: int = 0) -> str:
    """``_pct(0.664) == '66%'``; small and large shares keep two significant digits
    (:func:`kalooki_sim._stats.share_text`)."""
    return share_text(p, digits)


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

_SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int) -> str:
    """``'nine'`` for 9 (0-9 in words, as prose counts them), else the digits."""
    return _SMALL[n] if 0 <= n < len(_SMALL) else f"{n:,}"


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
    from ..analysis import sign_claims

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
