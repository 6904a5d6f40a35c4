"""Card notation (``docs/notation.md``): parse and format, always as a pair.

Tokens are separated by spaces and/or commas, case-insensitive.  Trumps ``1``-``21`` (also
``T7``/``7T``), the Excuse ``EX`` (also ``E X * 0 EXC EXCUSE``), suit cards as rank then suit
(``KS``, ``10H``, ``CD``; ranks ``1-10 J C Q K`` with the aliases ``R``=K, ``D``=Q, ``N``=knight,
``V``=J; suits ``S H D C``, ``♠ ♥ ♦ ♣`` or ``♤ ♡ ♢ ♧``, a symbol possibly followed by the variation
selector U+FE0E or U+FE0F that text copied from web pages carries).  The printed form lists trumps
high to low, then ``EX``, then the suits in the order S H D C, each from the King down.
"""

from __future__ import annotations

import re

from analyzer import cards as C
from analyzer.errors import DuplicateCardError, InvalidNotationError

_EXCUSE_TOKENS = {"EX", "E", "X", "*", "0", "EXC", "EXCUSE"}
_RANKS = {str(n): n for n in range(1, 11)} | {
    "J": C.JACK, "V": C.JACK, "C": C.KNIGHT, "N": C.KNIGHT, "Q": C.QUEEN, "D": C.QUEEN, "K": C.KING, "R": C.KING}
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
          "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_TRUMP = re.compile(r"^(?:T([0-9]{1,2})|([0-9]{1,2})T?)$")
_SEPARATORS = re.compile(r"[\s,]+")
_VARIATION_SELECTORS = {0xFE0E: None, 0xFE0F: None}   # text / emoji presentation of the suit symbols


def parse_card(token: str) -> int:
    """Card id of one token; raises ``InvalidNotationError`` naming the token."""
    raw = token
    tok = token.strip().translate(_VARIATION_SELECTORS)
    if any(not ch.isascii() and ch not in _SUITS for ch in tok):
        raise InvalidNotationError(raw)  # look-alikes: other digits, the long s (upper-cases to "S")
    tok = tok.upper()
    if not tok:
        raise InvalidNotationError(raw, "empty card token")
    if tok in _EXCUSE_TOKENS:
        return C.EXCUSE
    m = _TRUMP.match(tok)
    if m:
        n = int(m.group(1) or m.group(2))
        if 1 <= n <= 21:
            return C.trump(n)
        raise InvalidNotationError(raw, "no such trump (1-21)")
    suit = _SUITS.get(tok[-1])
    rank = _RANKS.get(tok[:-1])
    if suit is None or rank is None:
        raise InvalidNotationError(raw)
    return C.suit_card(suit, rank)


def split_tokens(text: str) -> list[str]:
    return [t for t in _SEPARATORS.split(text.strip()) if t]


def parse_cards(text: str) -> list[int]:
    """Card ids in the order written; raises on an unknown or duplicate token."""
    seen: dict[int, str] = {}
    out = []
    for tok in split_tokens(text):
        card = parse_card(tok)
        if card in seen:
            raise DuplicateCardError(tok)
        seen[card] = tok
        out.append(card)
    return out


def parse_mask(text: str) -> int:
    return C.mask_of(parse_cards(text))


def sort_key(card: int) -> tuple[int, int]:
    """Printing order: trumps high to low, the Excuse, then S H D C from the King down."""
    if C.is_trump(card):
        return (0, -card)
    if card == C.EXCUSE:
        return (1, 0)
    return (2 + C.suit_of(card), -C.rank_of(card))


def format_cards(cards_or_mask: "int | list[int] | tuple[int, ...] | set[int]") -> str:
    """Canonical printed form of a set of cards (a mask or an iterable of ids)."""
    ids = C.cards_of(cards_or_mask) if isinstance(cards_or_mask, int) else cards_or_mask
    return " ".join(C.TOKENS[c] for c in sorted(ids, key=sort_key))
