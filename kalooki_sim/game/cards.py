"""Cards: the numeric encoding used by the kernels, and text I/O (R1).

Encoding
--------
A card is a small integer ``code``:

* a natural card is ``suit * 13 + (rank - 1)`` with suits ``♣ ♦ ♥ ♠`` = 0 1 2 3 and ranks
  ``A 2 … 10 J Q K`` = 1 … 13, so codes 0 … 51;
* the joker is ``52`` (:data:`JOKER`).

The two copies of a card in a two-deck pack share one code (R1: they are interchangeable).
Kernels mostly work on a *count* view of a hand: ``counts[suit, rank]`` (shape 4×14, column
0 unused) plus a joker count, which is what :func:`hand_counts` returns.

Run positions (R4) are ``1 … 14``: position ``p`` holds rank ``p`` except ``14``, which is
the ace played high.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .._lib import check_int, is_int, not_allowed, show_value

SUITS = "♣♦♥♠"
SUIT_ASCII = "CDHS"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
JOKER = 52
N_CODES = 53

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)}
_SUIT_OF_CHAR.update({c: i for i, c in enumerate(SUIT_ASCII)})
_SUIT_OF_CHAR.update({c: i for i, c in enumerate("♧♢♡♤")})  # outline glyphs, same suits
_RANK_OF_TEXT = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_OF_TEXT["T"] = 10
_JOKER_TEXT = {"JK", "JOKER", "🃏", "*"}
_TOKEN_RE = re.compile(r"^(10|[2-9AJQKT])([♣♦♥♠♧♢♡♤CDHS])$")
_SPLIT_RE = re.compile(r"[\s,;]+")

ALLOWED = (
    "a rank A 2-10 J Q K (or T for 10) followed by a suit ♣ ♦ ♥ ♠ (or C D H S), "
    "or JK for a joker; any case"
)


def _penalty_table() -> np.ndarray:
    # R1: joker 50, black ace 15, red ace 1, K Q J 10 = 10, 2-9 face value.
    t = np.zeros(N_CODES, dtype=np.int64)
    for suit in range(4):
        for rank in range(1, 14):
            if rank == 1:
                v = 15 if suit in (0, 3) else 1
            elif rank >= 10:
                v = 10
            else:
                v = rank
            t[suit * 13 + rank - 1] = v
    t[JOKER] = 50
    return t


#: ``PENALTY[code]``: the R1 penalty value of each card code.
PENALTY = _penalty_table()


def card_code(suit: int, rank: int) -> int:
    """Code of the natural card of ``suit`` (0-3, ♣♦♥♠) and ``rank`` (1-13, A..K)."""
    return suit * 13 + rank - 1


def suit_of(code: int) -> int:
    """Suit index (0-3) of a natural card code."""
    return code // 13


def rank_of(code: int) -> int:
    """Rank (1-13) of a natural card code."""
    return code % 13 + 1


def card_text(code: int) -> str:
    """Canonical text of a card code: ``10♥``, ``A♣``, ``JK``."""
    code = check_int("code", code, 0, JOKER, why="52 is the joker")
    if code == JOKER:
        return "JK"
    return RANKS[rank_of(code) - 1] + SUITS[suit_of(code)]


def _code_of_token(token: str) -> int:
    t = token.strip().upper()
    if t in _JOKER_TEXT:
        return JOKER
    m = _TOKEN_RE.match(t)
    if not m:
        raise ValueError(f"unknown card {token!r}: expected {ALLOWED}")
    return card_code(_SUIT_OF_CHAR[m.group(2)], _RANK_OF_TEXT[m.group(1)])


_CODES_ALLOWED = "integer codes 0-51 and 52 (joker)"


def _tokens(cards) -> list:
    if isinstance(cards, str):
        return [t for t in _SPLIT_RE.split(cards.strip()) if t]
    if isinstance(cards, Iterable) and not isinstance(cards, (bytes, dict)):
        return list(cards)
    raise TypeError(not_allowed("cards", cards, f"card text such as 'K♠ 10♥ JK' or a list of "
                                f"card texts or of {_CODES_ALLOWED}"))


def _code_array(arr: np.ndarray) -> np.ndarray:
    """A 1-D integer array of codes, range-checked (the fast path for the kernels' arrays)."""
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise TypeError(not_allowed("cards", arr, f"a 1-D array of {_CODES_ALLOWED}"))
    if len(arr) and (arr.min() < 0 or arr.max() >= N_CODES):  # min/max: the common case fast
        bad = (arr < 0) | (arr >= N_CODES)
        raise ValueError(not_allowed("card code", arr[bad][0], _CODES_ALLOWED))
    return arr.astype(np.int64, copy=False)


def to_codes(cards, rules=None) -> np.ndarray:
    """Parse cards (text, a list of texts, or integer codes) into an ``int64`` array of codes.

    Parameters
    ----------
    cards : str, iterable of str, or iterable of int
        ``"K♠ 10♥ 7♦ A♣ JK"``, ``"KS TH 7d"``, a list of such tokens, or card codes (a list of
        ints or a numpy integer array, as the kernels use). A list holds texts or codes, not a
        mix of the two: ``["KS", 7]`` is an error (is 7 the code of 8♣ or a typo for 7♠?).
    rules : Rules, optional
        The pack to check against (decks, jokers); the Jamaican 108-card pack by default.

    Raises
    ------
    TypeError
        For something that is neither text nor codes, or a list mixing the two.
    ValueError
        For an unknown token (named in the message), a code outside 0-52, or a multiset the
        pack cannot hold (e.g. a third 7♥ or a fifth joker with two decks and four jokers).
    """
    arr = parse_codes(cards)
    check_pack(arr, rules)
    return arr


def to_codes_named(name: str, cards, rules=None) -> np.ndarray:
    """:func:`to_codes` with the argument's ``name`` at the head of any error message (what a
    public function taking several card arguments reports)."""
    try:
        return to_codes(cards, rules)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{name}: {e}") from None


_NO_CODES = np.zeros(0, dtype=np.int64)
_NO_CODES.setflags(write=False)


def parse_codes(cards) -> np.ndarray:
    """:func:`to_codes` without the pack check (for callers that check a whole position at
    once); the same parsing and the same errors otherwise."""
    if isinstance(cards, np.ndarray) and cards.dtype.kind in "iub":
        return _code_array(cards)
    if isinstance(cards, (str, tuple, list)) and len(cards) == 0:
        return _NO_CODES
    toks = _tokens(cards)
    allowed = f"all card texts (e.g. 'K♠') or all {_CODES_ALLOWED}"
    for tok in toks:
        if not (isinstance(tok, str) or is_int(tok)):
            raise TypeError(not_allowed("cards", cards, allowed, f"{show_value(tok)} is neither"))
    texts = sum(isinstance(t, str) for t in toks)
    if 0 < texts < len(toks):
        raise TypeError(not_allowed("cards", cards, allowed, "not a mix of the two"))
    if texts:
        return np.asarray([_code_of_token(t) for t in toks], dtype=np.int64)
    return _code_array(np.asarray(toks, dtype=np.int64))


def check_pack(codes: np.ndarray, rules=None) -> None:
    """Raise ``ValueError`` if the pack of ``rules`` cannot hold this multiset of cards."""
    from .rules import as_rules

    rules = as_rules(rules)
    counts = np.bincount(np.asarray(codes, dtype=np.int64), minlength=N_CODES)
    if counts[:JOKER].max() <= rules.decks and counts[JOKER] <= rules.jokers:
        return
    over = np.flatnonzero(counts[:JOKER] > rules.decks)
    c = int(over[0]) if len(over) else JOKER
    cap = rules.jokers if c == JOKER else rules.decks
    what = "jokers" if c == JOKER else f"copies of {card_text(c)}"
    raise ValueError(
        f"{counts[c]} {what} cannot come from one pack: a {rules.pack_size}-card pack "
        f"({rules.pack_text}) holds at most {cap}"
    )


def parse_cards(text_or_tokens, rules=None) -> list[str]:
    """Parse cards into canonical text (``10♥``, ``K♠``, ``JK``), keeping their order.

    Accepts Unicode suits or ASCII letters (``KS 10H TH 7D AC``), any case, separated by
    spaces or commas, or an iterable of tokens, or an iterable of integer codes (not a mix of
    tokens and codes). See :func:`to_codes` for errors.

    Examples
    --------
    >>> parse_cards("ks th 7d ac jk")
    ['K♠', '10♥', '7♦', 'A♣', 'JK']
    """
    return [card_text(c) for c in to_codes(text_or_tokens, rules)]


def penalty(cards, rules=None) -> int:
    """Penalty value of cards left in hand (R1, R12).

    Examples
    --------
    Card 08 of the rules: a rival holding A♠ A♥ JK 7♦ scores 73.

    >>> penalty("A♠ A♥ JK 7♦")
    73
    """
    return int(PENALTY[to_codes(cards, rules)].sum())


def hand_counts(codes) -> tuple[np.ndarray, int]:
    """Count view of a hand: ``(counts[4, 14], jokers)``; ``counts[s, r]`` for ranks 1-13."""
    n = np.bincount(np.asarray(codes, dtype=np.int64), minlength=N_CODES)
    counts = np.zeros((4, 14), dtype=np.int64)
    counts[:, 1:] = n[:JOKER].reshape(4, 13)
    return counts, int(n[JOKER])


def sort_key(code: int) -> tuple[int, int]:
    """Display order: by suit then rank, jokers last."""
    return (4, 0) if code == JOKER else (suit_of(code), rank_of(code))
