"""The players' pages in words: the searching player against the experts, the tuned callers,
the intervals of a players' table and one situation as the advisor saw it
(:mod:`.words` has the contract and rule pages' sentences).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .._lib import check_columns
from .._stats import ci_text, decimals, fixed
from ..analysis import join_words
from .words import _count, _hands, _hands_of, _span


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
    from ..analysis import p_from_ci, sign_claims

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


def search_gap_tally(table: pd.DataFrame, alpha: float = 0.05) -> str:
    """How many contracts of the search-versus-expert table point below zero, and how many
    Holm's adjustment over the contracts decides: the count a reader checks the searcher by
    (the bar it is held to: all below zero, five of them decided).

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
    from ..analysis import p_from_ci, sign_claims

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
