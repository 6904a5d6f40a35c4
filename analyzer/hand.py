"""Immutable ``Hand`` and ``Deal`` objects: thin views over 78-bit card masks.

A ``Hand`` is a set of cards; ``str(hand)`` is its notation and ``Hand.parse`` reads it back.  A
``Deal`` gives every card a place: seat 0 (first to speak) … seat P-1 (the dealer), P the chien.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from analyzer import cards as C
from analyzer.errors import AnnulledDealError, CardPlacedElsewhereError, RulesError, WrongCardCountError
from analyzer.notation import format_cards, parse_cards
from analyzer.rules import CHIEN_SIZE, HAND_SIZE, Rules


@dataclass(frozen=True)
class Hand:
    """A set of cards as a 78-bit mask (bit = card id)."""

    mask: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.mask <= C.ALL_CARDS:
            raise ValueError("a hand mask has 78 bits")

    @classmethod
    def parse(cls, text: str, players: int | None = None, what: str = "hand") -> "Hand":
        """Parse notation; with ``players``, also check the hand size for that player count."""
        hand = cls(C.mask_of(parse_cards(text)))
        if players is not None:
            if players not in HAND_SIZE:
                raise RulesError(f"unsupported player count {players} (expected 3, 4 or 5)")
            hand.check_size(HAND_SIZE[players], players, what)
        return hand

    @classmethod
    def of(cls, cards: Iterable[int]) -> "Hand":
        return cls(C.mask_of(cards))

    def check_size(self, expected: int, players: int, what: str = "hand") -> "Hand":
        """Raise ``WrongCardCountError`` unless the hand has ``expected`` cards; when its size is right
        for another player count, the message asks whether that count was meant."""
        if len(self) != expected:
            chien = what == "the chien"
            sizes = CHIEN_SIZE if chien else HAND_SIZE
            fits = [p for p, n in sizes.items() if n == len(self) and p != players]
            hint = ""
            if fits:
                counts = " or ".join(map(str, fits))
                hint = (f"is this a {'- or '.join(map(str, fits))}-player {'chien' if chien else 'hand'}? "
                        f"use --players {counts}")
            raise WrongCardCountError(what, len(self), expected, players, hint)
        return self

    def __str__(self) -> str:
        return format_cards(self.mask)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __iter__(self) -> Iterator[int]:
        return C.cards_of(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < C.N_CARDS and bool(self.mask >> card & 1)

    def __or__(self, other: "Hand") -> "Hand":
        return Hand(self.mask | other.mask)

    def __and__(self, other: "Hand") -> "Hand":
        return Hand(self.mask & other.mask)

    def __sub__(self, other: "Hand") -> "Hand":
        return Hand(self.mask & ~other.mask)

    @property
    def suit_bits(self) -> int:
        """The kernels' first word: 56 suit-card bits."""
        return self.mask & C.SUIT_BITS

    @property
    def trump_bits(self) -> int:
        """The kernels' second word: trumps 1-21 in bits 0-20, the Excuse in bit 21."""
        return self.mask >> C.FIRST_TRUMP

    def trumps(self, with_excuse: bool = True) -> int:
        return C.trump_count(self.mask, with_excuse)

    @property
    def oudlers(self) -> int:
        return C.mask_oudlers(self.mask)

    @property
    def half_points(self) -> int:
        return C.mask_half_points(self.mask)

    def suit_length(self, suit: int) -> int:
        return (self.mask & C.suit_mask(suit)).bit_count()

    @property
    def is_petit_sec(self) -> bool:
        """Only trump the Petit, and no Excuse: the deal is annulled (FFT)."""
        return self.mask & (C.TRUMP_BITS | 1 << C.EXCUSE) == 1 << C.PETIT

    def check_playable(self, rules: Rules) -> "Hand":
        """Raise ``AnnulledDealError`` when the rules annul the deal of this dealt hand (petit sec)."""
        if self.is_petit_sec and rules.petit_sec == "annul":
            raise AnnulledDealError(
                "this hand is petit sec (the Petit is its only trump, without the Excuse): the deal is annulled "
                "under FFT rules; to analyse it anyway, add --variant petit-sec=play")
        return self


@dataclass(frozen=True)
class Deal:
    """Every card's place: ``hands[s]`` for seats 0…P-1 in bidding order, ``chien``."""

    hands: tuple[Hand, ...]
    chien: Hand

    def __post_init__(self) -> None:
        players = len(self.hands)
        if players not in HAND_SIZE:
            raise ValueError(f"a deal has 3, 4 or 5 hands, got {players}")
        placed = 0
        for where, hand in [(f"seat {s + 1}", h) for s, h in enumerate(self.hands)] + [("the chien", self.chien)]:
            clash = placed & hand.mask
            if clash:
                card = next(C.cards_of(clash))
                raise CardPlacedElsewhereError(C.TOKENS[card], where, self._owner_name(card))
            placed |= hand.mask
        for s, hand in enumerate(self.hands):
            hand.check_size(HAND_SIZE[players], players, f"seat {s + 1}")
        self.chien.check_size(CHIEN_SIZE[players], players, "the chien")

    def _owner_name(self, card: int) -> str:
        for s, h in enumerate(self.hands):
            if card in h:
                return f"seat {s + 1}"
        return "the chien"

    @property
    def players(self) -> int:
        return len(self.hands)

    @classmethod
    def from_places(cls, places: Sequence[int], players: int) -> "Deal":
        """From an array giving each card's place (seat 0…P-1, P for the chien)."""
        masks = [0] * (players + 1)
        for card, place in enumerate(places):
            masks[int(place)] |= 1 << card
        return cls(tuple(Hand(m) for m in masks[:players]), Hand(masks[players]))

    def places(self) -> list[int]:
        out = [self.players] * C.N_CARDS
        for s, h in enumerate(self.hands):
            for card in h:
                out[card] = s
        return out

    def holder(self, card: int) -> int:
        """Seat holding ``card``, or P for the chien."""
        return self.places()[card]

    def petit_sec_seat(self) -> int | None:
        for s, h in enumerate(self.hands):
            if h.is_petit_sec:
                return s
        return None

    def __str__(self) -> str:
        lines = [f"seat {s + 1}: {h}" for s, h in enumerate(self.hands)]
        return "\n".join(lines + [f"chien: {self.chien}"])
