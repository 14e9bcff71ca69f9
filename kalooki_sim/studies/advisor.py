"""Should I call? A position advisor (issue 9).

A player types in one situation: their hand, the card just discarded, where the discarder
sits, the stock left, their calls so far, who has opened and what is on the table. The advisor
deals the cards the player cannot see at random, consistently with all that (each sample is a
full legal table), plays every sample on both ways with the same cards and the same later
random draws, and compares: the paired difference is the decision's value, with an interval.
Like a poker equity calculator it can stop early at a target interval width or a time limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd
from scipy import stats

from ..engine._kernels import branch as _B
from ..engine._kernels import engine as _E
from ..engine.play import _setup, _threads, defer_players, rules_vector
from ..game._checks import check_bool, check_int, check_real, not_allowed
from ..game._kernels import layoff as _L
from ..game._progress import progress_bar
from ..game.cards import JOKER, N_CODES, card_text, check_pack
from ..game.melds import _one_card, meld_record, resolve_contract
from ..players.needed import _parse

BATCH = 250  # rollouts between checks of the margin and the clock

_ACT = {True: "take", False: "call"}  # by "is the seat next" (R9.1 take, R9.2 call)
_PASS = {True: "draw", False: "pass"}


@dataclass
class Advice:
    """What :func:`advise` found. ``table``: one row per action (expected hand penalty, chance of
    going out first, of being caught doubled, of the hand ending void, each with a 95%
    interval); ``difference``: act minus not act, paired (``penalty``, ``penalty_lo``,
    ``penalty_hi``, ``out``, ``out_lo``, ``out_hi``); ``action``: ``"call"``, ``"pass"``,
    ``"take"``, ``"draw"`` or ``"unsure"`` (the penalty interval contains zero);
    ``recommendation``: a sentence; ``rollouts``: paired rollouts played; ``stopped_by``:
    ``"rollouts"``, ``"margin"`` or ``"time_limit"``."""

    table: pd.DataFrame
    difference: dict
    action: str
    recommendation: str
    rollouts: int
    stopped_by: str
    seconds: float
    situation: dict = field(default_factory=dict)

    def __str__(self) -> str:
        shown = self.table.copy()
        for c in shown.columns:
            if c.startswith(("out", "doubled", "void")):
                shown[c] = (100 * shown[c]).map("{:.1f}%".format)
            elif c.startswith("penalty"):
                shown[c] = shown[c].map("{:.1f}".format)
        return f"{self.recommendation}\n\n{shown.to_string(index=False)}"


def _contract_text(g, r):
    """``"3 groups + 1 run"``."""
    parts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((g, "group"), (r, "run")) if n]
    return " + ".join(parts)


def _seats(name, value, players, allow_empty=True):
    """Seat offsets (seats to the player's right, 1..players-1) from ints or a text list."""
    allowed = f"seats to your right, each 1-{players - 1} (1 = the player before you)"
    if isinstance(value, str):
        parts = [p for p in value.replace(",", " ").split() if p]
        try:
            value = [int(p) for p in parts]
        except ValueError:
            raise ValueError(not_allowed(name, value, allowed)) from None
    try:
        out = [check_int(name, v, 1, players - 1, why=allowed) for v in value]
    except TypeError:
        raise TypeError(not_allowed(name, value, allowed)) from None
    if len(set(out)) != len(out):
        raise ValueError(not_allowed(name, value, allowed, "each seat once"))
    return out


def _melds(table, opened, players, rules):
    """``[(owner offset, record, codes)]`` of the melds on the table (R5, R7)."""
    if isinstance(table, str):
        table = [m for m in table.split(";") if m.strip()]
    out = []
    for i, m in enumerate(table):
        owner = None
        if isinstance(m, tuple) and len(m) == 2 and not isinstance(m[0], str):
            owner, m = m
            owner = check_int("table owner", owner, 1, players - 1,
                              why="the seat, to your right, of the opponent who laid it")
            if owner not in opened:
                raise ValueError(f"table: the meld {m!r} belongs to seat {owner}, which has not "
                                 "opened (R7: melds go down with the contract); add it to "
                                 "opened")
        elif not opened:
            raise ValueError("table holds melds but opened is empty: only an opponent who has "
                             "opened has melds down (R7); say which seats opened")
        else:
            owner = opened[i % len(opened)]
        codes = _parse("table", m, rules)
        try:
            rec = meld_record(codes)
        except ValueError as e:
            raise ValueError(f"table: {e}") from None
        out.append((owner, rec, codes))
    return out


def _situation(hand, card, contract, players, discarder, stock_left, calls_made, opened, table,
               seen, rules):
    """The base table (seat 0 is the player) and the hidden cards' pool, validated."""
    P = rules.players
    g, r = resolve_contract(contract, rules)
    hand_no = next((h for h in range(1, rules.hands + 1) if rules.contract(h) == (g, r)), None)
    if hand_no is None:
        raise ValueError(not_allowed("contract", contract,
                                     f"a hand number 1-{rules.hands} or a (groups, runs) pair "
                                     "of the rules' schedule"))
    cards, g, r = rules.deal(hand_no)
    codes = _parse("hand", hand, rules)
    top = _one_card(card, rules)
    if top == JOKER:
        raise ValueError("card='JK' is not allowed; a joker is never discarded (R6)")
    discarder = check_int("discarder", discarder, 1, P - 1,
                          why="how many seats to your right the discarder sits (1: you are next)")
    calls_made = check_int("calls_made", calls_made, 0, rules.call_limit,
                           why=f"your calls this hand, up to the rules' limit {rules.call_limit}")
    if discarder >= 2 and calls_made >= rules.call_limit:
        raise ValueError(f"calls_made={calls_made} is not allowed for a call: the rules allow "
                         f"{rules.call_limit} calls a hand (R9, V8)")
    size = cards + 2 * calls_made  # R9: a call brings the card and a penalty card
    if len(codes) != size:
        raise ValueError(
            f"hand has {len(codes)} cards; in hand {hand_no} ({_contract_text(g, r)}) a player "
            f"who has not opened holds the {cards} dealt plus 2 for each call, so {size} with "
            f"calls_made={calls_made} (R2, R9)")
    opened = _seats("opened", opened, P)
    melds = _melds(table, opened, P, rules)
    seen_codes = _parse("seen", seen, rules)
    shown = [codes, [top], seen_codes] + [m[2] for m in melds]
    try:
        check_pack(np.concatenate(shown), rules)
    except ValueError as e:
        raise ValueError(f"the hand, card, table and seen cards together: {e}") from None
    dealt_stock = rules.pack_size - P * cards - 1
    if stock_left is None:
        stock_left = dealt_stock
    stock_left = check_int("stock_left", stock_left, 0, dealt_stock,
                           why=f"cards in the stock, at most {dealt_stock} right after the deal "
                               "(the advisor does not play past R13's reshuffle)")
    pool = np.full(N_CODES, rules.decks, np.int64)
    pool[JOKER] = rules.jokers
    for c in np.concatenate(shown):
        pool[c] -= 1
    seat = {k: (-k) % P for k in range(1, P)}  # offset to the right -> engine seat
    laid = {k: 0 for k in opened}
    for owner, _, c in melds:
        laid[owner] += len(c)
    opp = np.zeros(P, np.int64)
    for k in range(1, P):
        opp[seat[k]] = max(1, cards - laid[k]) if k in opened else cards
    n_pool = int(pool.sum())
    pile_extra = n_pool - int(opp.sum()) - stock_left
    if pile_extra < 0:
        raise ValueError(
            f"stock_left={stock_left} is not allowed: with {P} players holding their cards and "
            f"the cards you gave, only {n_pool - int(opp.sum())} cards can be in the stock")
    # the base table
    t = _E.new_table(P, rules.pack_size)
    hand_arr, ps, gs, _, disc, mtab = t[0], t[1], t[2], t[3], t[4], t[5]
    for c in codes:
        hand_arr[0, c] += 1
    ps[:, _E.PS_OPEN_TURN] = -1
    ps[:, _E.PS_NC_VAL0] = -1
    ps[:, _E.PS_NC_VAL1] = -1
    ps[0, _E.PS_CALLS] = calls_made
    turns = max(0, dealt_stock - stock_left)
    ps[:, _E.PS_TURNS] = turns // P
    gs[_E.GS_TURNS] = turns
    gs[_E.GS_OUT] = -1
    gs[_E.GS_FIRST_DOWN] = seat[min(opened)] if opened else -1
    gs[_E.GS_TAKEN_BY] = -1
    gs[_E.GS_CALLED_BY] = -1
    for k in opened:
        ps[seat[k], _E.PS_OPENED] = 1
        ps[seat[k], _E.PS_OPEN_TURN] = ps[seat[k], _E.PS_TURNS]
    for i, (owner, rec, c) in enumerate(melds):
        s = seat[owner]
        rec = rec.copy()
        rec[_L.OWNER] = s
        mtab[i] = rec
        if rec[_L.KIND] == _L.GROUP:
            if ps[s, _E.PS_BAN_R] >> int(rec[_L.KEY]) & 1:
                raise ValueError(f"table: seat {owner} has two groups of one rank (R5)")
            ps[s, _E.PS_BAN_R] |= 1 << int(rec[_L.KEY])
        else:
            if ps[s, _E.PS_BAN_S] >> int(rec[_L.KEY]) & 1:
                raise ValueError(f"table: seat {owner} has two runs of one suit (R5)")
            ps[s, _E.PS_BAN_S] |= 1 << int(rec[_L.KEY])
        for x in c:
            hand_arr[P, x] += 1  # dead: on the table
    gs[_E.GS_N_MELDS] = len(melds)
    for i, c in enumerate(seen_codes):
        disc[i] = c
    disc[len(seen_codes)] = top
    gs[_E.GS_DISC_N] = len(seen_codes) + 1
    gs[_E.GS_LIVE] = 1
    D = seat[discarder]
    gs[_E.GS_DISCARDER] = D
    nxt = (D + 1) % P
    gs[_E.GS_CUR] = nxt
    # the seats asked before the player pass (the card reached the player), R9
    mask, s = 0, nxt
    while True:
        mask |= 1 << s
        if s == 0:
            break
        s = (s + 1) % P
    flat = np.repeat(np.arange(N_CODES, dtype=np.int64), pool)
    info = dict(hand=[card_text(c) for c in codes], card=card_text(top), hand_no=hand_no,
                contract=_contract_text(g, r), players=P, discarder=discarder,
                stock_left=stock_left, calls_made=calls_made, opened=opened,
                table=[[card_text(x) for x in m[2]] for m in melds],
                seen=[card_text(c) for c in seen_codes], hidden=n_pool,
                buried_unknown=pile_extra)
    return t, hand_no, flat, opp, pile_extra, mask, info


def _t_interval(x):
    """Mean of the rollouts ``x`` with its 95% Student t interval (``scipy.stats``); an exact
    value when every rollout agrees, NaN bounds below two rollouts."""
    x = np.asarray(x, float)
    m = float(x.mean()) if x.size else np.nan
    if x.size < 2:
        return m, np.nan, np.nan
    se = float(x.std(ddof=1)) / np.sqrt(x.size)
    if se == 0:
        return m, m, m
    lo, hi = stats.t.interval(0.95, x.size - 1, loc=m, scale=se)
    return m, float(lo), float(hi)


def _wilson(k: int, n: int):
    """Share ``k / n`` with its 95% Wilson score interval (``scipy.stats.binomtest``)."""
    ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def _summary(res, act_name, pass_name):
    """The per-action table and the paired difference of rollout results ``res``."""
    rows = []
    for name, o in ((act_name, 0), (pass_name, 4)):
        pen = res[:, o]
        m, lo, hi = _t_interval(pen)
        row = {"action": name, "penalty": m, "penalty_lo": lo, "penalty_hi": hi}
        for j, col in ((1, "out"), (2, "doubled"), (3, "void")):
            p, plo, phi = _wilson(int(res[:, o + j].sum()), len(res))
            row.update({col: p, f"{col}_lo": plo, f"{col}_hi": phi})
        row["rollouts"] = len(res)
        rows.append(row)
    d, dlo, dhi = _t_interval(res[:, 0] - res[:, 4])
    o, olo, ohi = _t_interval(res[:, 1] - res[:, 5])
    diff = {k: float(v) for k, v in (("penalty", d), ("penalty_lo", dlo), ("penalty_hi", dhi),
                                     ("out", o), ("out_lo", olo), ("out_hi", ohi))}
    return pd.DataFrame(rows), diff


def _sentence(action, act_name, pass_name, card, diff, table, n, stopped_by):
    d, lo, hi = diff["penalty"], diff["penalty_lo"], diff["penalty_hi"]
    verb = {"take": "taking", "call": "calling"}[act_name]
    p_act, p_pass = table["out"].iat[0], table["out"].iat[1]
    how = (f"over {n:,} paired rollouts" + ("" if stopped_by == "rollouts" else
                                             f" (stopped by {stopped_by.replace('_', ' ')})"))
    odds = (f"; your chance of going out first goes from {p_pass:.0%} to {p_act:.0%} "
            f"(difference {diff['out']:+.1%}, 95% interval {diff['out_lo']:+.1%} to "
            f"{diff['out_hi']:+.1%})")
    if action == "unsure":
        return (f"Too close to call: {verb} {card} changes your expected hand penalty by "
                f"{d:+.1f} points (95% interval {lo:+.1f} to {hi:+.1f}) {how}, so either choice "
                f"is reasonable; more rollouts may separate them{odds}.")
    better = action == act_name
    sure = "clearly" if (hi < -10 or lo > 10) else "probably"
    head = (f"{action.capitalize()} {card}" if better
            else f"{action.capitalize()}, do not {act_name} {card}")
    change = "lowers" if d < 0 else "raises"
    return (f"{head} ({sure}): {verb} it {change} your expected hand penalty by {abs(d):.1f} "
            f"points (95% interval {lo:+.1f} to {hi:+.1f}) {how}{odds}.")


def advise(hand, card, contract, *, players=4, discarder=2, stock_left=None, calls_made=0,
           opened=(), table=(), seen=(), policies="expert", rollouts=2000, margin=None,
           time_limit=None, seed=0, rules=None, progress=False) -> Advice:
    """Should I call (or take) this card? Paired rollouts from one situation (R9).

    Parameters
    ----------
    hand : str or iterable
        Your cards (you have not opened: R8 lets only such a player take or call).
    card : str
        The card just discarded (never a joker, R6).
    contract : int or (int, int)
        The hand number of the schedule (1-9) or its ``(groups, runs)``.
    players : int
        Seats at the table (defers to ``rules.players`` when rules are given).
    discarder : int
        How many seats to your right the discarder sits: 1, you are next and choose to take it
        or draw (R9.1); 2 or more, you may call it (R9.2) or pass; the players between you
        were asked first and passed.
    stock_left : int, optional
        Cards left in the stock; default the stock right after the deal.
    calls_made : int
        Your calls so far this hand (each brought you 2 cards).
    opened : iterable of int or str
        Opponents who have opened, as seats to your right (``(1, 3)`` or ``"1,3"``).
    table : iterable
        Melds on the table, each cards (owned in turn by the opened seats) or ``(seat, cards)``;
        as text, melds separated by ``;``.
    seen : str or iterable
        Other cards you saw go out of play into the pile (buried discards).
    policies : str, Policy or list
        How everyone plays on from here (you included after this choice); ``"expert"``.
    rollouts : int
        Most paired rollouts to play.
    margin : float, optional
        Stop once the half-width of the paired penalty interval is at most this (points).
    time_limit : float, optional
        Stop after about this many seconds (checked every 250 rollouts).
    seed : int
        Seed of the samples and of all play (C3): the same seed gives the same advice.
    rules : Rules, optional
        Jamaican defaults otherwise.
    progress : bool, optional
        A progress bar of rollouts on stderr (advanced every 250); ``None``: on when stderr is
        a terminal; ``False`` (default): off.

    Returns
    -------
    Advice

    Notes
    -----
    The hidden cards (the stock, the opponents' hands, any discards you did not list) are
    dealt uniformly at random given what you typed: opponents who have not opened hold the
    cards dealt (calls they made are not known), an opened opponent the cards dealt less those
    of its melds, at least one. What the other players showed by their choices is not used.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> a = ks.advise("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=1, rollouts=200,
    ...               policies="greedy", seed=1)
    >>> a.action, a.rollouts
    ('take', 200)
    """
    rules, pols, pol, seed, _ = _setup(defer_players(players, rules), policies, seed, rules, None)
    if rules.tuluki:
        raise ValueError("rules with tuluki=True are not allowed here: the advisor weighs "
                         "Kalooki's R9 offers (take, or call out of turn); Tuluki's discard "
                         "step (V9) is a different choice it does not model yet")
    rollouts = check_int("rollouts", rollouts, 2, 10_000_000)
    if margin is not None:
        margin = check_real("margin", margin, 0, open_lo=True)
    if time_limit is not None:
        time_limit = check_real("time_limit", time_limit, 0, open_lo=True)
    base, hand_no, flat, opp, pile_extra, mask, info = _situation(
        hand, card, contract, players, discarder, stock_left, calls_made, opened, table, seen,
        rules)
    next_up = info["discarder"] == 1
    act_name, pass_name = _ACT[next_up], _PASS[next_up]
    rv = rules_vector(rules, hand_no)
    if progress is not None:
        progress = check_bool("progress", progress)
    bar = progress_bar(progress, rollouts, auto_at=0, unit="rollout", desc="kalooki advise")
    t0 = time.perf_counter()
    res = np.zeros((rollouts, 8), np.float64)
    done, stopped_by = 0, "rollouts"
    nw = max(1, 4 * numba.get_num_threads())
    with _threads(None):
        while done < rollouts:
            k = min(BATCH, rollouts - done)
            _B.rollout_block(seed, rv, pol, base, flat, len(flat), opp, pile_extra, 0, mask,
                             done, k, nw, rules.pack_size, res[done:done + k])
            done += k
            bar.update(k)
            if done >= rollouts:
                break
            if margin is not None and done >= 2 * BATCH // 5:
                _, lo, hi = _t_interval(res[:done, 0] - res[:done, 4])
                if (hi - lo) / 2 <= margin:
                    stopped_by = "margin"
                    break
            if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                stopped_by = "time_limit"
                break
    bar.close()
    res = res[:done]
    tab, diff = _summary(res, act_name, pass_name)
    if diff["penalty_hi"] < 0:
        action = act_name
    elif diff["penalty_lo"] > 0:
        action = pass_name
    else:
        action = "unsure"
    text = _sentence(action, act_name, pass_name, info["card"], diff, tab, done, stopped_by)
    return Advice(table=tab, difference=diff, action=action, recommendation=text, rollouts=done,
                  stopped_by=stopped_by, seconds=time.perf_counter() - t0, situation=info)
