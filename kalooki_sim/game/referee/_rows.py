"""The engine's result rows against the referee's own outcome of each hand (R12, R14).
"""

from __future__ import annotations

from collections import Counter

from ._state import RefereeError

# -- the engine's result rows ---------------------------------------------------------------

#: the rule each row column reports on, for the error message
_COLUMN_RULE = {
    "seat": "R2", "dealer": "R2", "attempt": "R13", "hand": "R2", "game": "R14",
    "groups": "R2", "runs": "R2", "cards_dealt": "R2", "players": "R2",
    "penalty": "R12", "went_out": "R12", "calls": "R9", "opened": "R7", "cards_left": "R12",
    "void": "R13", "doubled": "R12", "out_on_opening": "R12", "open_turn": "R7",
    "turns": "R6", "reshuffled": "R13", "attempts": "R13", "stalled": "R13",
    "dealt_meets_contract": "R7", "total": "R14", "winner": "R14", "complete": "R14",
}


def _expected_rows(results, rules, can_lay, columns):
    """Column -> expected values (``None`` = NA; ``...`` = not checked) for every seat-row."""
    P = rules.players
    exp = {c: [] for c in _COLUMN_RULE if c in columns}
    attempts = Counter((r["head"].get("game", 0), r["head"]["hand"]) for r in results)
    per_game = _game_totals(results, rules) if {"total", "winner", "complete"} & set(exp) else {}
    for res in results:
        h, seats = res["head"], res["seats"]
        game = h.get("game", 0)
        meets = [...] * P
        if "dealt_meets_contract" in exp and can_lay is not None:
            meets = [can_lay(list(res["dealt"][p]), h["groups"], h["runs"]) for p in range(P)]
            meets = [... if m is None else bool(m) for m in meets]
        whole = dict(dealer=h["dealer"], attempt=h["attempt"], hand=h["hand"], game=game,
                     groups=h["groups"], runs=h["runs"], cards_dealt=h["cards_dealt"],
                     players=P, void=res["void"], reshuffled=res["reshuffled"],
                     attempts=attempts[(game, h["hand"])])
        for col, vals in exp.items():
            if col in seats:
                vals.extend(seats[col])
            elif col in whole:
                vals.extend([whole[col]] * P)
            elif col == "stalled":
                vals.extend([res["stalled"]] * P)
            elif col == "dealt_meets_contract":
                vals.extend(meets)
            else:  # total, winner, complete
                vals.extend(per_game[game][col][p] for p in range(P))
    return exp


def _game_totals(results, rules):
    """R14: each game's totals over scored hands, shared wins, and whether every hand scored."""
    P = rules.players
    games: dict = {}
    for res in results:
        h = res["head"]
        g = games.setdefault(h.get("game", 0), dict(total=[0] * P, scored=set(), seen=set()))
        g["seen"].add(h["hand"])
        if not res["void"]:
            g["scored"].add(h["hand"])
            for p in range(P):
                g["total"][p] += res["seats"]["penalty"][p]
    out = {}
    for game, g in games.items():
        if g["seen"] != set(range(1, rules.hands + 1)):
            raise RefereeError(f"game {game}: rows with totals need the whole game's records "
                               f"(hands 1-{rules.hands}); the log has {sorted(g['seen'])} (R14)")
        best = min(g["total"])
        complete = g["scored"] == g["seen"]
        out[game] = dict(total=g["total"], winner=[t == best for t in g["total"]],
                         complete=[complete] * P)
    return out


def _check_rows(results, rows, rules, can_lay=None):
    import pandas as pd

    n = len(results) * rules.players
    if len(rows) != n:
        raise RefereeError(f"{len(rows)} engine rows for {n} refereed seat-attempts")
    exp = _expected_rows(results, rules, can_lay, set(rows.columns))
    for col, want in exp.items():
        got = rows[col].to_numpy(dtype=object)
        na = pd.isna(got)
        for j, (g, w) in enumerate(zip(got, want, strict=True)):
            if w is ... or (w is None and na[j]):
                continue
            if w is None or na[j] or int(g) != int(w):
                res = results[j // rules.players]
                h = res["head"]
                raise RefereeError(
                    f"engine row {j} (game {h.get('game', 0)} hand {h['hand']} attempt "
                    f"{h['attempt']} seat {j % rules.players}) says {col}={g}, referee finds "
                    f"{'<NA>' if w is None else w} ({_COLUMN_RULE[col]})")
