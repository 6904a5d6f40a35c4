"""The 78-card Tarot deck: one table of card ids, names and half-point values used everywhere.

Card ids are stable small integers shared with the Numba kernels:

* suit cards 0-55: ``suit * 14 + rank - 1`` with suits in the order spades, hearts, diamonds,
  clubs (0-3) and ranks 1-10, 11 Jack, 12 Knight, 13 Queen, 14 King;
* trumps 56-76: trump ``n`` (1-21) has id ``55 + n``;
* the Excuse: 77.

A set of cards is a Python int used as a 78-bit mask (bit ``id``).  The kernels split the same mask
into two machine words: the 56 suit bits (``mask & SUIT_BITS``) and the 21 trump bits plus the
Excuse (``mask >> 56``), so converting between the two is a shift and a mask.

Points are integer half-points: oudlers and Kings 9, Queens 7, Knights 5, Jacks 3, every other
card 1, 182 in the deck (91 points).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

N_CARDS = 78
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
N_SUITS = 4
RANKS_PER_SUIT = 14
JACK, KNIGHT, QUEEN, KING = 11, 12, 13, 14
RANK_TOKENS = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               JACK: "J", KNIGHT: "C", QUEEN: "Q", KING: "K"}
RANK_NAMES = {JACK: "Jack", KNIGHT: "Knight", QUEEN: "Queen", KING: "King"}

FIRST_TRUMP = 56
EXCUSE = 77
PETIT = FIRST_TRUMP          # trump 1
TWENTY_ONE = FIRST_TRUMP + 20  # trump 21
OUDLERS = (TWENTY_ONE, PETIT, EXCUSE)

SUIT_BITS = (1 << FIRST_TRUMP) - 1
TRUMP_BITS = ((1 << 21) - 1) << FIRST_TRUMP      # trumps 1-21, Excuse excluded
ALL_CARDS = (1 << N_CARDS) - 1
OUDLER_BITS = sum(1 << c for c in OUDLERS)
DECK_HALF_POINTS = 182

_FACE_HALF_POINTS = {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}


def suit_card(suit: int, rank: int) -> int:
    """Id of the suit card of ``rank`` (1-14) in ``suit`` (0-3)."""
    if not (0 <= suit < N_SUITS and 1 <= rank <= RANKS_PER_SUIT):
        raise ValueError(f"no suit card with suit {suit} and rank {rank}")
    return suit * RANKS_PER_SUIT + rank - 1


def trump(n: int) -> int:
    """Id of trump ``n`` (1-21)."""
    if not 1 <= n <= 21:
        raise ValueError(f"no trump numbered {n}")
    return FIRST_TRUMP + n - 1


def is_trump(card: int) -> bool:
    """True for trumps 1-21 (the Excuse is not a trump for following rules)."""
    return FIRST_TRUMP <= card < EXCUSE


def is_suit_card(card: int) -> bool:
    return 0 <= card < FIRST_TRUMP


def suit_of(card: int) -> int:
    """Suit index 0-3 of a suit card; 4 for trumps; 5 for the Excuse."""
    if card < FIRST_TRUMP:
        return card // RANKS_PER_SUIT
    return 4 if card < EXCUSE else 5


def rank_of(card: int) -> int:
    """Rank 1-14 of a suit card, the number 1-21 of a trump, 0 for the Excuse."""
    if card < FIRST_TRUMP:
        return card % RANKS_PER_SUIT + 1
    return card - FIRST_TRUMP + 1 if card < EXCUSE else 0


def half_points(card: int) -> int:
    """Card value in half-points."""
    if card in OUDLERS:
        return 9
    if card < FIRST_TRUMP:
        return _FACE_HALF_POINTS.get(rank_of(card), 1)
    return 1


def is_oudler(card: int) -> bool:
    return card in OUDLERS


def token(card: int) -> str:
    """Canonical notation token (``21``, ``EX``, ``KS``, ``10H`` …)."""
    if card == EXCUSE:
        return "EX"
    if card >= FIRST_TRUMP:
        return str(rank_of(card))
    return RANK_TOKENS[rank_of(card)] + SUITS[suit_of(card)]


def name(card: int) -> str:
    """English name, e.g. ``King of spades``, ``trump 21``, ``the Excuse``."""
    if card == EXCUSE:
        return "the Excuse"
    if card >= FIRST_TRUMP:
        return "the Petit (trump 1)" if card == PETIT else f"trump {rank_of(card)}"
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, str(rank))} of {SUIT_NAMES[suit_of(card)]}"


# Per-card lookup tables (index = card id), handy for vectorised code and the kernels.
HALF_POINTS = tuple(half_points(c) for c in range(N_CARDS))
TOKENS = tuple(token(c) for c in range(N_CARDS))
KINGS = tuple(suit_card(s, KING) for s in range(N_SUITS))


def bit(card: int) -> int:
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> Iterator[int]:
    """Card ids in a mask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def suit_mask(suit: int) -> int:
    """Mask of the 14 cards of a suit (0-3), of the 21 trumps (4) or of the Excuse (5)."""
    if suit < N_SUITS:
        return ((1 << RANKS_PER_SUIT) - 1) << (suit * RANKS_PER_SUIT)
    return TRUMP_BITS if suit == 4 else 1 << EXCUSE


def mask_half_points(mask: int) -> int:
    return sum(HALF_POINTS[c] for c in cards_of(mask))


def mask_oudlers(mask: int) -> int:
    return (mask & OUDLER_BITS).bit_count()


def trump_count(mask: int, with_excuse: bool = True) -> int:
    """Trumps held; the Excuse counts as a trump unless ``with_excuse`` is False."""
    bits = TRUMP_BITS | (1 << EXCUSE) if with_excuse else TRUMP_BITS
    return (mask & bits).bit_count()


@dataclass(frozen=True, order=True)
class Card:
    """One card; ``Card(77)`` is the Excuse.  ``str`` gives the notation token."""

    id: int

    def __post_init__(self) -> None:
        if not 0 <= self.id < N_CARDS:
            raise ValueError(f"card id {self.id} out of range 0-77")

    def __str__(self) -> str:
        return TOKENS[self.id]

    def __repr__(self) -> str:
        return f"Card({self.id})"

    @property
    def name(self) -> str:
        return name(self.id)

    @property
    def half_points(self) -> int:
        return HALF_POINTS[self.id]

    @property
    def is_oudler(self) -> bool:
        return self.id in OUDLERS
