"""One offer as the player knows it (:class:`Situation`): the hand, the card, the seats, the
stock, the table and the table's history, read once and checked as a whole, for the advisor,
the review, the command line and the forms.

The checks cover each entry on its own (cards, seats, sizes: R1, R2, R9) and the story they
tell together: every card counted once wherever it shows (the history's discards, takes and
calls included, R1), the pile the history leaves (R9), the stock its turns need (R6, R9, R13)
and the melds an opened seat has down (R7). Each refusal is one line naming the entry.
"""

from __future__ import annotations

from collections import Counter, namedtuple
from dataclasses import dataclass, field

import numpy as np

from .._lib import check_bool, check_int, is_int, not_allowed
from ..engine.kernels import engine as _E
from ..engine.kernels import history as _H
from ..engine.kernels import known_row
from ..game.cards import JOKER, N_CODES, card_text, to_codes_named
from ..game.kernels import layoff as _L
from ..game.melds import meld_record, one_card, resolve_contract
from ._history import H_UPCARD, check_history, engine_events
from ._story import pile_in_seen, read_story


def contract_text(g, r):
    """A contract in words: ``g`` groups and ``r`` runs.

    >>> contract_text(3, 1), contract_text(0, 2)
    ('3 groups + 1 run', '2 runs')
    """
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
        codes = to_codes_named("table", m, rules)
        try:
            rec = meld_record(codes, rules=rules)  # V1: the rules' pack, not the default
        except ValueError as e:
            raise ValueError(f"table: {e}") from None
        out.append((owner, rec, codes))
    return out


def _seat_map(name, value, players, allowed):
    """``{offset: text}`` from a dict, a ``"1: 7♠ 7♥; 3: 2♣"`` text or ``"k:..."`` strings."""
    if value is None:
        return {}
    if isinstance(value, str):
        value = [v for v in value.split(";") if v.strip()]
    if isinstance(value, dict):
        items = list(value.items())
    else:
        items = []
        for v in value:
            if not isinstance(v, str) or ":" not in v:
                raise ValueError(not_allowed(name, v, allowed))
            k, _, rest = v.partition(":")
            items.append((k, rest))
    out = {}
    why = f"seats to your right, each 1-{players - 1}, as in opened"
    for k, v in items:
        if isinstance(k, str):
            try:
                k = int(k.strip())
            except ValueError:
                raise ValueError(not_allowed(name, value, allowed)) from None
        k = check_int(f"{name} seat", k, 1, players - 1, why=why)
        if k in out:
            raise ValueError(not_allowed(name, value, allowed, f"seat {k} given twice"))
        out[k] = v
    return out


def _known(known, players, rules):
    """``{offset: codes}``: the cards each opponent took or called and still holds."""
    allowed = ('a dict {seat: cards}, e.g. {1: "7♠ 7♥ 6♥"}, or text "1: 7♠ 7♥ 6♥; 3: 2♣" '
               f"(seats to your right, 1-{players - 1})")
    return {k: to_codes_named(f"known[{k}]", v, rules)
            for k, v in _seat_map("known", known, players, allowed).items()}


def _sizes(hand_sizes, players):
    """``{offset: int}``: the opponents' hand sizes a player counted."""
    allowed = ('a dict {seat: cards}, e.g. {1: 11, 3: 9}, or text "1:11, 3:9" '
               f"(seats to your right, 1-{players - 1})")
    if isinstance(hand_sizes, str):
        hand_sizes = [v for v in hand_sizes.replace(",", ";").split(";") if v.strip()]
    out = {}
    for k, v in _seat_map("hand_sizes", hand_sizes, players, allowed).items():
        if isinstance(v, str):
            try:
                v = int(v.strip())
            except ValueError:
                raise ValueError(not_allowed("hand_sizes", hand_sizes, allowed)) from None
        out[k] = v
    return out


def _check_copies(parts, rules, pile=()):
    """A card shown more often than the pack holds it (R1) is an impossible history: the error
    says where each copy was given, and which entry of the history is one copy too many when
    the history's pile (``pile``: its ``(entry, code)``) holds one."""
    total = Counter()
    where = {}
    for name, codes in parts:
        for c in codes:
            total[int(c)] += 1
            where.setdefault(int(c), Counter())[name] += 1
    for c, n in total.items():
        cap = rules.jokers if c == JOKER else rules.decks
        if n > cap:
            places = ", ".join(f"{k} {v}" for k, v in where[c].items())
            entries = [i for i, x in pile if x == c]
            head = (f"history[{entries[len(entries) - (n - cap)]}]: " if entries
                    and n - cap <= len(entries) else "")
            raise ValueError(
                f"{head}{card_text(c)} is given {n} times ({places}); the pack holds {cap} "
                f"({rules.pack_text}, R1): a history that cannot "
                "happen")


def _opponent_sizes(sizes, known, opened, laid, cards, rules, rules_g, rules_r, shown_calls):
    """Each opponent's hand size: as typed, else the cards dealt plus 2 per call the history
    shows (less its melds if opened); an unopened opponent holds the cards dealt plus 2 per
    call (R9), at least as many calls as the history shows, an opened one at least 1 (R12),
    and no seat holds fewer cards than are known in it."""
    P, lim = rules.players, rules.call_limit
    out, calls = {}, {}
    for k in range(1, P):
        shown = shown_calls[k]
        if shown > lim:
            raise ValueError(f"history: seat {k} calls {shown} times, but the rules allow "
                             f"{lim} calls a hand (R9, V8)")
        if k in sizes:
            n = sizes[k]
            if k in opened:  # its opening laid at least 3 cards a group, 4 a run (R3, R4)
                hi = max(1, cards + 2 * lim - 3 * rules_g - 4 * rules_r)
                n = check_int(f"hand_sizes[{k}]", n, 1, hi,
                              why=f"seat {k} has opened: 1 to the cards dealt plus 2 per call "
                                  "less the cards of its contract")
            else:
                ok = [cards + 2 * c for c in range(shown, lim + 1)]
                why = (f"seat {k} has not opened: {cards} dealt plus 2 per call, R9"
                       + (f"; the history shows {shown} call{'s' * (shown != 1)} of it"
                          if shown else ""))
                n = check_int(f"hand_sizes[{k}]", n, cards, cards + 2 * lim,
                              why=f"one of {', '.join(map(str, ok))} ({why})")
                if n not in ok:
                    raise ValueError(not_allowed(f"hand_sizes[{k}]", n,
                                                 "one of " + ", ".join(map(str, ok)), why))
                calls[k] = (n - cards) // 2
        elif k in opened:
            n = max(1, cards + 2 * shown - laid[k])
        else:
            n, calls[k] = cards + 2 * shown, shown
        m = len(known.get(k, ()))
        if m > n:
            raise ValueError(
                f"known[{k}] holds {m} cards but seat {k} holds {n}; give at most {n} known "
                f"cards, or its hand size with hand_sizes={{{k}: ...}} if it called (R9: a "
                "call brings 2 cards)")
        out[k] = n
    return out, calls


def _calls_made(calls_made, story, rules):
    """Your calls this hand: as given (at least those the history shows), else the history's."""
    shown = story.calls[0]
    if calls_made is None:
        calls_made = shown
    why = f"your calls this hand, up to the rules' limit {rules.call_limit}"
    calls_made = check_int("calls_made", calls_made, 0, rules.call_limit, why=why)
    if calls_made < shown:
        raise ValueError(f"calls_made={calls_made} is not allowed: the history shows {shown} "
                         f"call{'s' * (shown != 1)} of yours (seat 0); give calls_made={shown} "
                         "or more, or leave it out to count them from the history (R9)")
    return calls_made


def _opened_have_melds(opened, melds, g, r):
    """An opened seat laid its whole contract (R7): at least ``g + r`` melds of its own."""
    need = g + r
    owned = Counter(owner for owner, _, _ in melds)
    for k in opened:
        if owned[k] < need:
            have = f"{owned[k]} meld{'s' * (owned[k] != 1)}" if owned[k] else "no meld"
            raise ValueError(
                f"opened: seat {k} has opened, but the table holds {have} of its; an opening "
                f"lays the whole contract, {contract_text(g, r)} (R7): give its melds in "
                f"table (e.g. table=[({k}, \"Q♠ Q♥ Q♦\"), ...]) or leave seat {k} out of "
                "opened")


def _pile_agrees(story, seen, events):
    """The history's pile (its discards nobody took or called, R9) lies in ``seen``, in order."""
    i = pile_in_seen(story, seen)
    if i is not None:
        s_, _, c = (int(x) for x in events[i])
        raise ValueError(
            f"history[{i}]: seat {s_}'s discard of {card_text(c)} was not taken or called, so "
            f"it lies in the pile, but seen has no {card_text(c)} where the history puts it "
            "(seen lists the pile bottom first); give seen in that order, or leave seen out "
            "and the history's discards make the pile")


def _check_taken(down, held, story, known, hand, rules, events):
    """The cards the history shows taken or called and not discarded since are in the taker's
    hand (as known, or unknown) or went down on the table or the pile: with every other copy
    shown (``down``: the pile and the table; ``held``: your hand, the card, the known cards),
    at most the pack's copies (R1)."""
    mine = Counter(int(c) for c in hand)
    for c in {c for h in story.held.values() for c in h}:
        hidden = sum(max(0, n - len([x for x in known.get(k, ()) if int(x) == c]))
                     for k, h in story.held.items() if k and (n := h[c]))
        hidden += max(0, story.held[0][c] - mine[c])
        if not hidden:
            continue
        total = held[c] + max(down[c], hidden)
        cap = rules.jokers if c == JOKER else rules.decks
        if total > cap:
            takers = [k for k, h in story.held.items() if h[c]]
            i = max(j for j, e in enumerate(events) if int(e[2]) == c
                    and int(e[1]) in (_H.H_TAKE, _H.H_CALL))
            raise ValueError(
                f"history[{i}]: {card_text(c)} taken or called by seat"
                f"{'s' * (len(takers) > 1)} {', '.join(map(str, takers))} and not discarded "
                f"since is a copy besides the {held[c] + down[c]} given elsewhere; the pack holds "
                f"{cap} ({rules.pack_text}, R1): a history that "
                "cannot happen")


def _stock_fits(stock_left, used, dealt_stock, story, penalties, events):
    """The stock the history's turns need (R6: a draw a turn unless it was a take; R9: a
    penalty card a call) fits in the stock as dealt, less ``stock_left``."""
    left = 0 if stock_left is None else stock_left
    if is_int(left) and used + left > dealt_stock:
        extra = penalties - story.penalties  # calls not shown in the history
        over = next((i for i, u in enumerate(story.used) if u + extra + left > dealt_stock),
                    None)
        where = (f"history[{over}] is past the stock" if over is not None
                 else "the offer's own turn is past the stock")
        hi = dealt_stock - used
        say = (f"stock_left={stock_left} is not allowed" if stock_left is not None
               else "the history is not possible")
        raise ValueError(
            f"{say}: {where}: the history shows or implies {story.draws} stock draws "
            f"({story.left_out} turns it leaves out counted, R6) and there were {penalties} "
            f"penalty cards (R9) of the {dealt_stock} cards in the stock after the deal, so "
            + (f"at most {hi} are left" if hi >= 0 else "the stock ran out")
            + "; give reshuffled=True if the stock was made again (R13), a smaller "
            "stock_left, or a history with fewer turns")


def _situation(hand, card, contract, players, discarder, stock_left, calls_made, opened, table,
               seen, rules, known=None, hand_sizes=None, reshuffled=False, history=None,
               drawn=0):
    """The base table (seat 0 is the player) and the hidden cards' pool, validated; ``drawn``
    1: the player has passed and drawn from the stock since (its discard, R6)."""
    P = rules.players
    g, r = resolve_contract(contract, rules)
    hand_no = next((h for h in range(1, rules.hands + 1) if rules.contract(h) == (g, r)), None)
    if hand_no is None:
        raise ValueError(not_allowed("contract", contract,
                                     f"a hand number 1-{rules.hands} or a (groups, runs) pair "
                                     "of the rules' schedule"))
    cards, g, r = rules.deal(hand_no)
    codes = to_codes_named("hand", hand, rules)
    top = one_card(card, rules)
    discarder = check_int("discarder", discarder, 1, P - 1,
                          why="how many seats to your right the discarder sits (1: you are next)")
    reshuffled = check_bool("reshuffled", reshuffled)
    events = check_history(history, P, top, discarder, rules, answered=drawn == 1)
    story = read_story(events, P, discarder, top)
    calls_made = _calls_made(calls_made, story, rules)
    if discarder >= 2 and calls_made >= rules.call_limit:
        raise ValueError(f"calls_made={calls_made} is not allowed for a call: the rules allow "
                         f"{rules.call_limit} calls a hand (R9, V8)")
    size = cards + 2 * calls_made + drawn  # R9: a call brings the card and a penalty card
    if len(codes) != size:
        raise ValueError(
            f"hand has {len(codes)} cards; in hand {hand_no} ({contract_text(g, r)}) a player "
            f"who has not opened holds the {cards} dealt plus 2 for each call"
            + (" plus the card drawn at its discard" if drawn else "")
            + f", so {size} with calls_made={calls_made} (R2, R6, R9)")
    opened = _seats("opened", opened, P)
    melds = _melds(table, opened, P, rules)
    _opened_have_melds(opened, melds, g, r)
    seen_codes = to_codes_named("seen", seen, rules)
    seen_name = "in seen"
    if not reshuffled and story.pile:  # R9: the discards nobody took lie in the pile
        if not len(seen_codes):
            seen_codes = np.array([c for _, c in story.pile], np.int64)
            seen_name = "in the history's pile"
        else:
            _pile_agrees(story, seen_codes, events)
    known = _known(known, P, rules)
    sizes = _sizes(hand_sizes, P)
    parts = ([("in your hand", codes), ("as the card", [top]), (seen_name, seen_codes)]
             + [("on the table", [x for m in melds for x in m[2]])]
             + [(f"in known[{k}]", v) for k, v in known.items()])
    _check_copies(parts, rules, story.pile if seen_name != "in seen" else ())
    if not reshuffled:
        down = Counter(int(c) for c in seen_codes) + Counter(int(x) for m in melds for x in m[2])
        held = Counter(int(c) for c in codes) + Counter([int(top)]) + Counter(
            int(c) for v in known.values() for c in v)
        _check_taken(down, held, story, known, codes, rules, events)
    shown = [codes, [top], seen_codes] + [m[2] for m in melds] + list(known.values())
    dealt_stock = rules.pack_size - P * cards - 1
    laid = {k: 0 for k in range(1, P)}
    for owner, _, c in melds:
        laid[owner] += len(c)
    n_size, opp_calls = _opponent_sizes(sizes, known, opened, laid, cards, rules, g, r,
                                        story.calls)
    pool = np.full(N_CODES, rules.decks, np.int64)
    pool[JOKER] = rules.jokers
    for c in np.concatenate(shown):
        pool[c] -= 1
    seat = {k: (-k) % P for k in range(1, P)}  # offset to the right -> engine seat
    opp = np.zeros(P, np.int64)  # hidden cards per seat
    for k in range(1, P):
        opp[seat[k]] = n_size[k] - len(known.get(k, ()))
    n_pool = int(pool.sum())
    room = n_pool - int(opp.sum())
    if room < 0:
        raise ValueError(
            f"hand_sizes={n_size} is not allowed: the opponents would hold {int(opp.sum())} "
            f"unknown cards but only {n_pool} cards are not in your hand, the pile, the table or "
            "known; give smaller hands or fewer cards elsewhere")
    # the stock the story used: its draws (shown or implied) and every call's penalty card
    penalties = calls_made + sum(opp_calls.get(k, story.calls[k]) for k in range(1, P))
    used = story.draws + penalties + drawn
    if not reshuffled:
        _stock_fits(stock_left, used, dealt_stock, story, penalties, events)
    if stock_left is None:
        if reshuffled:
            raise ValueError("stock_left=None is not allowed with reshuffled=True; give the "
                             "cards in the stock after R13's reshuffle")
        # as full as the rest allows: the stock after the deal less the draws the history
        # shows or implies and the calls' penalty cards (R6, R9), and no more than the cards
        # not placed elsewhere
        stock_left = max(0, min(dealt_stock - used, room))
        default = " (stock_left=None: as full as the rest allows)"
    else:
        default = ""
    hi = room if reshuffled else min(dealt_stock, room)
    why = (f"at most {hi}: the pack less your hand, the pile and table you gave, the known "
           "cards and the opponents' hands" + ("" if reshuffled or hi < dealt_stock else
                                              "; without reshuffled=True the stock is within "
                                              "the first stock (R13)") + default)
    stock_left = check_int("stock_left", stock_left, 0, hi, why=why)
    if top == JOKER and (len(seen_codes) or melds or stock_left != dealt_stock or reshuffled):
        raise ValueError("card='JK' is not allowed here; a joker is never discarded (R6): only "
                         f"the upcard may be one (C1), with the stock as dealt ({dealt_stock} "
                         "cards), nothing seen and nothing on the table")
    pile_extra = room - stock_left
    # the base table
    t = _E.new_table(P, rules.pack_size)
    hand_arr, ps, gs, disc, mtab = t.hand, t.ps, t.gs, t.disc, t.melds
    for c in codes:
        hand_arr[0, c] += 1
    ps[:, _E.PS_OPEN_TURN] = -1
    ps[:, _E.PS_NC_VAL0] = -1
    ps[:, _E.PS_NC_VAL1] = -1
    ps[0, _E.PS_CALLS] = calls_made
    for k, n in opp_calls.items():
        ps[seat[k], _E.PS_CALLS] = n
    for k, cs in known.items():  # in the hand, known to the table, their ranks marked (R9)
        for c in cs:
            hand_arr[seat[k], c] += 1
            hand_arr[known_row(hand_arr, seat[k]), c] += 1
            if c != JOKER:
                ps[seat[k], _E.PS_TOOK] |= 1 << (int(c) % 13 + 1)
    turns = dealt_stock if reshuffled else max(0, dealt_stock - stock_left)
    ps[:, _E.PS_TURNS] = turns // P
    gs[_E.GS_TURNS] = turns
    gs[_E.GS_OUT] = -1
    gs[_E.GS_FIRST_DOWN] = seat[min(opened)] if opened else -1
    gs[_E.GS_TAKEN_BY] = -1
    gs[_E.GS_CALLED_BY] = -1
    gs[_E.GS_RESHUFFLED] = 1 if reshuffled else 0
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
    if reshuffled:  # R13's reshuffle is spent: the pile never comes back
        for c in list(seen_codes) + [top]:
            hand_arr[P, c] += 1
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
    dead = [x for m in melds for x in m[2]] + [x for v in known.values() for x in v]
    if reshuffled:
        dead += list(seen_codes)
    events = _with_passes(events, discarder, top)
    info = dict(hand=[card_text(c) for c in codes], card=card_text(top), hand_no=hand_no,
                contract=contract_text(g, r), players=P, discarder=discarder,
                stock_left=stock_left, calls_made=calls_made, opened=opened,
                table=[[card_text(x) for x in m[2]] for m in melds],
                seen=[card_text(c) for c in seen_codes],
                known={k: [card_text(c) for c in v] for k, v in known.items()},
                hand_sizes=n_size, reshuffled=reshuffled, hidden=n_pool,
                buried_unknown=pile_extra, out_of_reach=[card_text(c) for c in dead],
                history=[(int(a), _HIST_NAMES[int(b)], None if c < 0 else card_text(int(c)))
                         for a, b, c in events],
                turns_left_out=story.left_out, stock_draws=story.draws, penalty_cards=penalties,
                events=events)
    return t, hand_no, flat, opp, pile_extra, mask, info




_HIST_NAMES = {_H.H_DISCARD: "discard", _H.H_PASS_TAKE: "pass", _H.H_PASS_CALL: "pass",
               _H.H_TAKE: "take", _H.H_CALL: "call", _H.H_DRAW: "draw", H_UPCARD: "upcard"}


def _with_passes(events, discarder, card):
    """The history with the passes the offer implies: every seat between the discarder and
    you was asked first and passed (R9; the next player's pass is a declined take), unless the
    history already has that seat answer the offer after its discard."""
    said = set()
    for i in range(len(events) - 1, -1, -1):
        if events[i, 1] in (_H.H_DISCARD, H_UPCARD):
            if (int(events[i, 0]), int(events[i, 2])) == (discarder, card):
                said = {int(e[0]) for e in events[i + 1:]}
            break
    rows = [tuple(int(x) for x in e) for e in events]
    for k in range(discarder - 1, 0, -1):
        if k not in said:
            rows.append((k, _H.H_PASS_TAKE if k == discarder - 1 else _H.H_PASS_CALL, card))
    return np.asarray(rows, np.int64).reshape(-1, _H.H_COLS)




#: what :func:`situation` and :func:`~kalooki_sim.advise` read of one offer, for a reader
Rollout = namedtuple("Rollout", "base flat opp pile_extra mask events")


@dataclass(frozen=True)
class Situation:
    """One offer as the player at seat 0 knows it, read and checked once (:func:`situation`).

    The fields are the situation as checked, in the advisor's words: ``hand`` (your cards),
    ``card`` (the card offered), ``hand_no`` and ``contract`` (its words), ``players``,
    ``discarder`` (seats to your right), ``stock_left``, ``calls_made``, ``opened``,
    ``table`` (the melds' cards), ``seen`` (the pile under the card, bottom first: the
    history's discards nobody took when ``seen`` was not given), ``known``, ``hand_sizes``,
    ``reshuffled``, ``history`` (the events as read, ``(seat, action, card)``). What follows
    from them: ``hidden`` (cards you cannot see: the stock, the opponents' unknown cards and
    the pile you did not list), ``buried_unknown`` (of those, discards under the pile you did
    not list), ``out_of_reach`` (cards on the table or known in an opponent's hand, and the
    pile once reshuffled, R13), ``turns_left_out`` (turns the history leaves out, counted by
    table order), ``stock_draws`` (stock draws the history shows or implies, the offer's turn
    included) and ``penalty_cards`` (every call's penalty card, R9). ``rules``: the rules.
    """

    hand: tuple
    card: str
    hand_no: int
    contract: str
    players: int
    discarder: int
    stock_left: int
    calls_made: int
    opened: tuple
    table: tuple
    seen: tuple
    known: dict
    hand_sizes: dict
    reshuffled: bool
    history: tuple
    hidden: int
    buried_unknown: int
    out_of_reach: tuple
    turns_left_out: int
    stock_draws: int
    penalty_cards: int
    rules: object = field(repr=False, compare=False)
    rollout: Rollout = field(repr=False, compare=False, default=None)

    def as_dict(self) -> dict:
        """The situation as a plain dict (lists for tuples), as :attr:`Advice.situation`."""
        out = {f: getattr(self, f) for f in self.__dataclass_fields__
               if f not in ("rules", "rollout")}
        for k in ("hand", "opened", "seen", "out_of_reach"):
            out[k] = list(out[k])
        out["table"] = [list(m) for m in out["table"]]
        out["history"] = list(out["history"])
        return out


def situation(hand, card, contract, *, players=4, discarder=2, stock_left=None,
              calls_made=None, opened=(), table=(), seen=(), known=None, hand_sizes=None,
              reshuffled=False, history=None, rules=None) -> Situation:
    """One offer as you know it, checked as a whole: what :func:`~kalooki_sim.advise` and the
    review read of the table, without the rollouts.

    Parameters
    ----------
    hand : str or iterable
        Your cards (you have not opened: R8 lets only such a player take or call).
    card : str
        The card just discarded (never a joker, R6; the upcard may be one, C1).
    contract : int or (int, int)
        The hand number of the schedule (1-9) or its ``(groups, runs)``.
    players : int
        Seats at the table (defers to ``rules.players`` when rules are given).
    discarder : int
        How many seats to your right the discarder sits: 1, you are next and choose to take it
        or draw (R9.1); 2 or more, you may call it (R9.2) or pass; the players between you
        were asked first and passed.
    stock_left : int, optional
        Cards left in the stock; default: as full as the rest allows (the stock right after the
        deal less the calls' penalty cards, R9); required with ``reshuffled=True``.
    calls_made : int
        Your calls so far this hand (each brought you 2 cards).
    opened : iterable of int or str
        Opponents who have opened, as seats to your right (``(1, 3)`` or ``"1,3"``).
    table : iterable
        Melds on the table, each cards (owned in turn by the opened seats) or ``(seat, cards)``;
        as text, melds separated by ``;``.
    seen : str or iterable
        The discards under the offered card, in the order they went down (bottom first), as far
        as you saw them; the cards the count leaves over are buried unseen.
    known : dict, str or iterable, optional
        The public history: for each opponent (seat to your right, as in ``opened``) the cards
        it took or called (R9) and has not laid down or discarded since, e.g.
        ``{1: "7♠ 7♥ 6♥"}``, or text ``"1: 7♠ 7♥ 6♥; 3: 2♣"``. Every rollout gives that seat
        these cards plus random unseen ones up to its hand size.
    hand_sizes : dict or str, optional
        Opponents' hand sizes, ``{1: 11, 3: 9}`` or ``"1:11, 3:9"``; default: the cards dealt
        (less the cards of its melds given, if opened). An unopened seat holds the cards dealt
        plus 2 per call (R9).
    reshuffled : bool
        The stock was made again from the pile (R13): the next empty stock voids the hand and
        the pile (``seen``, the card) can never come back.
    history : list or str, optional
        What the table saw, in table order: events ``(seat, action, card)`` with ``seat`` to
        your right as in ``opened`` (0: you), ``action`` one of ``discard``, ``pass`` (declined
        to take or call the live discard), ``take``, ``call``, ``draw`` (from the stock: leave
        the card out or give ``None``); or text ``"3:discard:7♦, 1:pass:7♦, 2:draw"``. Each
        sample is weighted by how likely the model player (``policies``) was to do exactly
        what each opponent did with the hand it was dealt (:mod:`.engine._kernels.history`);
        the seats asked before you about this card passed (R9), history or not. A pass, take
        or call answers the last discard (R9); a history that ends with a live discard ends
        with this offer. ``known`` still says which taken or called cards a seat holds.
    rules : Rules, optional
        Jamaican defaults otherwise.

    Returns
    -------
    Situation
        The offer, read and checked.

    Raises
    ------
    ValueError
        Besides each entry on its own, the story they tell together must be possible:

        - every card is counted once wherever it shows (your hand, the card, ``seen``, the table,
          ``known`` and the history's discards, takes and calls) and at most as often as the pack
          holds it (R1);
        - the history's discards that nobody took or called lie in the pile under the card (R9):
          without ``seen`` they are the pile; with it, ``seen`` must hold them in the same order;
        - a history may leave turns out (what you remember, in table order): the turns it leaves
          out between its events and before the offer are counted by table order (R2; a call does
          not move the turn, R9), each drew from the stock unless shown as a take (the first turn
          shown may have taken the upcard, C1); these draws and every call's penalty card (R9)
          must fit in the stock as dealt less ``stock_left`` (without ``reshuffled``, R13), and
          ``stock_left``'s default counts them;
        - an opened seat has its contract's melds on the table (R7); an unopened seat holds the
          cards dealt plus 2 per call, at least the calls the history shows (R9); ``calls_made``
          defaults to your calls in the history.

        Each refusal is a ``ValueError`` of one line naming the entry (``history[7]``,
        ``opened``, ``stock_left``) and what would make it possible.

    Examples
    --------
    >>> import kalooki_sim as ks
    >>> s = ks.situation("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, discarder=2,
    ...                  history=[(3, "discard", "6♣"), (0, "pass", "6♣"), (2, "draw"),
    ...                           (2, "discard", "6♦")])
    >>> s.seen, s.hidden, s.stock_left
    (('6♣',), 97, 70)
    >>> ks.situation("K♠ K♥ K♦ Q♠ Q♥ Q♦ 6♠ 6♥ 2♣", "6♦", 1, opened=(1,))
    Traceback (most recent call last):
    ...
    ValueError: opened: seat 1 has opened, but the table holds no meld of its; ...
    """
    from ..engine.play import defer_players, setup

    rules = setup(defer_players(players, rules), "greedy", 0, rules, None)[0]
    return _build(hand, card, contract, discarder, stock_left, calls_made, opened, table,
                  seen, known, hand_sizes, reshuffled, history, rules)


def _build(hand, card, contract, discarder, stock_left, calls_made, opened, table, seen,
           known, hand_sizes, reshuffled, history, rules, drawn=0) -> Situation:
    """:class:`Situation` from checked rules (``drawn``: see :func:`_situation`)."""
    base, hand_no, flat, opp, extra, mask, info = _situation(
        hand, card, contract, rules.players, discarder, stock_left, calls_made, opened, table,
        seen, rules, known=known, hand_sizes=hand_sizes, reshuffled=reshuffled,
        history=history, drawn=drawn)
    events = info.pop("events")
    return Situation(
        hand=tuple(info["hand"]), card=info["card"], hand_no=hand_no,
        contract=info["contract"], players=rules.players, discarder=info["discarder"],
        stock_left=info["stock_left"], calls_made=info["calls_made"],
        opened=tuple(info["opened"]), table=tuple(tuple(m) for m in info["table"]),
        seen=tuple(info["seen"]), known=info["known"], hand_sizes=info["hand_sizes"],
        reshuffled=info["reshuffled"], history=tuple(info["history"]), hidden=info["hidden"],
        buried_unknown=info["buried_unknown"], out_of_reach=tuple(info["out_of_reach"]),
        turns_left_out=info["turns_left_out"], stock_draws=info["stock_draws"],
        penalty_cards=info["penalty_cards"], rules=rules,
        rollout=Rollout(base, flat, opp, extra, mask, engine_events(events, rules.players)))
