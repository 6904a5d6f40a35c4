"""Card play, plain and readable: the legal cards of a hand in a trick, and who wins a trick.

A trick is the list of card ids played so far, in order.  The Excuse may always be played and
never wins; when it is led, the next card sets the suit.
"""

from __future__ import annotations

from typing import Sequence

from analyzer import cards as C


def led_suit(trick: Sequence[int]) -> int | None:
    """Suit to follow (0-3, 4 for trumps), or None while the trick is empty or holds only the Excuse."""
    for card in trick:
        if card != C.EXCUSE:
            return C.suit_of(card)
    return None


def highest_trump(trick: Sequence[int]) -> int | None:
    trumps = [c for c in trick if C.is_trump(c)]
    return max(trumps) if trumps else None


def legal_cards(hand: int, trick: Sequence[int], forbidden_lead: int = 0) -> int:
    """Mask of the cards of ``hand`` (a mask) that may be played on ``trick``.

    ``forbidden_lead`` is a mask of cards that may not be led (5 players, first trick: the called
    suit except the called card); it is ignored when the hand has nothing else.
    """
    excuse = hand & (1 << C.EXCUSE)
    suit = led_suit(trick)
    if suit is None:
        if not trick and hand & ~forbidden_lead:
            return hand & ~forbidden_lead
        return hand
    if suit < C.N_SUITS:
        following = hand & C.suit_mask(suit)
        if following:
            return following | excuse
    trumps = hand & C.TRUMP_BITS
    if trumps:
        top = highest_trump(trick)
        if top is not None:
            over = trumps & ~((1 << (top + 1)) - 1)
            if over:
                return over | excuse
        return trumps | excuse
    return hand


def trick_winner(trick: Sequence[int]) -> int:
    """Index in ``trick`` of the winning card (the Excuse never wins)."""
    top = highest_trump(trick)
    if top is not None:
        return list(trick).index(top)
    suit = led_suit(trick)
    if suit is None:
        raise ValueError("a trick of the Excuse alone has no winner")
    best = max((c for c in trick if C.suit_of(c) == suit), key=C.rank_of)
    return list(trick).index(best)


def illegal_reason(hand: int, trick: Sequence[int], card: int, forbidden_lead: int, called: int | None) -> str:
    """The rule a card of ``hand`` breaks on ``trick`` (the card is held and not legal), in words."""
    if not trick and forbidden_lead >> card & 1:
        return (f"may not lead the called suit ({C.SUIT_NAMES[C.suit_of(called)]}) in the first trick "
                f"unless with the called card {C.TOKENS[called]}")
    suit = led_suit(trick)
    if suit is not None and suit < C.N_SUITS and hand & C.suit_mask(suit):
        return f"must follow in {C.SUIT_NAMES[suit]}"
    top = highest_trump(trick)
    over = hand & C.TRUMP_BITS & ~((1 << (top + 1)) - 1) if top is not None else 0
    if over and C.is_trump(card):
        return f"must play a trump higher than {C.rank_of(top)}"
    if suit == 4:
        return "must follow in trumps" + (f" higher than {C.rank_of(top)}" if over else "")
    if over:
        return f"has no {C.SUIT_NAMES[suit]} and must trump higher than {C.rank_of(top)}"
    return f"has no {C.SUIT_NAMES[suit]} and must trump"
