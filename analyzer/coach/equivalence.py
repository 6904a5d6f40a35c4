"""Equivalent cards: two cards of a hand whose exchange can never change a trick or the count.

Two cards are equivalent for the seat holding them when they are of the same suit (or both trumps),
are worth the same points, are not oudlers, and every card ranked between them is already played or
in the same hand: whichever of the two is played, every trick goes the same way and counts the same.
Coaching judges one card per class (the one played, if it is in the class), so a choice between
equivalent cards is never called a mistake.
"""

from __future__ import annotations

from analyzer import cards as C


def equivalent(a: int, b: int, out: int) -> bool:
    """True when cards ``a`` and ``b`` are interchangeable, ``out`` being the mask of the cards still
    in other hands or aside (neither played nor held by the seat)."""
    if a == b:
        return True
    low, high = min(a, b), max(a, b)
    if C.suit_of(low) != C.suit_of(high) or C.suit_of(low) == 5:
        return False
    if C.is_oudler(low) or C.is_oudler(high) or C.HALF_POINTS[low] != C.HALF_POINTS[high]:
        return False
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return not out & between


def card_classes(legal: int, out: int) -> list[list[int]]:
    """The legal cards (a mask) grouped into classes of equivalent cards, lowest card first in each."""
    classes: list[list[int]] = []
    for card in C.cards_of(legal):
        if classes and equivalent(classes[-1][-1], card, out):
            classes[-1].append(card)
        else:
            classes.append([card])
    return classes
