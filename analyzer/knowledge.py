"""What one seat knows during a deal, as constraints on where every unseen card may lie.

A simulated seat decides only from what it could know (docs/rules.md, "What a sound simulation
respects"): its own hand, the cards played and by whom, the chien when shown, its own discard (the
taker) or the trumps shown in it, shown poignées, the misères declared, and the voids revealed in
play.  ``seat_view``
turns a reference ``Game`` into that knowledge, and ``SeatView.allowed_places`` into per-card sets of
places (seats 0…P-1, P for the cards put aside: the discard, or the unseen chien) with the number of
cards each place still holds.  The sampler deals the unseen cards uniformly under these constraints.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer import cards as C
from analyzer.game import FACE_CARDS, Game, Phase
from analyzer.rules import Contract

KING_BITS = C.mask_of(C.KINGS)
MISERE_LACKS = {"trumps": C.TRUMP_BITS | 1 << C.EXCUSE, "honours": FACE_CARDS | C.OUDLER_BITS}


@dataclass(frozen=True)
class SeatView:
    """The information set of ``seat``, everything as card masks."""

    seat: int
    players: int
    hand: int                           # the seat's cards now
    sizes: tuple[int, ...]              # cards each place holds now (seats, then the aside pile)
    played: int                         # every card played so far (out of every place)
    aside_known: int                    # cards known to be in the aside pile (own discard, shown discarded trumps)
    aside_forbidden: int                # cards that cannot be in the aside pile (Kings, oudlers, unshown trumps)
    with_taker_or_aside: int            # the shown chien: with the taker or in the discard
    held: tuple[int, ...]               # per seat: cards known to be in that hand (shown poignée not yet played)
    excluded: tuple[int, ...]           # per seat: cards that seat cannot hold (revealed voids)
    taker: int | None
    contract: Contract | None

    def allowed_places(self) -> list[int]:
        """For each card id, a bitmask of the places it may be in (0 for cards out of play)."""
        P = self.players
        everywhere = (1 << (P + 1)) - 1
        out = []
        for card in range(C.N_CARDS):
            bit = 1 << card
            if self.played & bit:
                out.append(0)
                continue
            if self.hand & bit:
                out.append(1 << self.seat)
                continue
            if self.aside_known & bit:
                out.append(1 << P)
                continue
            held_by = [s for s in range(P) if self.held[s] & bit]
            if held_by:
                out.append(1 << held_by[0])
                continue
            allowed = everywhere & ~(1 << self.seat)
            if self.aside_known.bit_count() == self.sizes[P] or self.aside_forbidden & bit:
                allowed &= ~(1 << P)
            if self.with_taker_or_aside & bit:
                allowed &= (1 << self.taker) | (1 << P)
            for s in range(P):
                if self.excluded[s] & bit:
                    allowed &= ~(1 << s)
            out.append(allowed)
        return out


def revealed_exclusions(game: Game) -> list[int]:
    """Per seat, the cards it cannot hold given how it followed (or failed to follow) in play.

    Not following the suit led: void in it.  Not trumping either: no trump at all.  Playing a trump
    under one already in the trick (or a non-trump on a trump lead): no trump above that one."""
    excluded = [0] * game.rules.players
    tricks = [(t.seats, t.cards) for t in game.tricks]
    if game.current:
        tricks.append((tuple(s for s, _ in game.current), tuple(c for _, c in game.current)))
    for seats, cards_ in tricks:
        led = None
        top = None          # highest trump so far in the trick
        for seat, card in zip(seats, cards_):
            if card == C.EXCUSE:
                continue
            suit = C.suit_of(card)
            if led is None:
                led = suit
            elif suit != led:
                if led < C.N_SUITS:
                    excluded[seat] |= C.suit_mask(led)
                if suit != 4:
                    excluded[seat] |= C.TRUMP_BITS
            if suit == 4:
                if top is not None and card < top:
                    excluded[seat] |= C.TRUMP_BITS & ~((1 << (top + 1)) - 1)
                top = card if top is None else max(top, card)
    return excluded


def seat_view(game: Game, seat: int) -> SeatView:
    """The knowledge of ``seat`` in a game being played (declarations done)."""
    if game.phase not in (Phase.PLAY, Phase.DONE):
        raise ValueError(f"a seat view is taken during play, not in the {game.phase.value} phase")
    P = game.rules.players
    played = 0
    for t in game.tricks:
        played |= C.mask_of(t.cards)
    played |= C.mask_of(c for _, c in game.current)
    contract = game.contract
    shown_chien = contract is not None and contract.chien_shown
    aside_known = 0
    aside_forbidden = 0
    with_taker_or_aside = 0
    if shown_chien:
        aside_known = game.discard if seat == game.taker else game.shown_discard_trumps
        aside_forbidden = (KING_BITS | C.OUDLER_BITS | C.TRUMP_BITS) & ~game.shown_discard_trumps
        if seat != game.taker:
            with_taker_or_aside = (game.chien or 0) & ~played
    held = [0] * P
    for p in game.poignees:
        held[p.seat] |= p.shown & ~played
    excluded = revealed_exclusions(game)
    for p in game.poignees:
        if p.shown >> C.EXCUSE & 1:          # showing the Excuse means "no more trumps"
            excluded[p.seat] |= C.TRUMP_BITS & ~p.shown
    for misere_seat, kind in game.miseres:  # a misère declared tells what the hand lacks
        excluded[misere_seat] |= MISERE_LACKS[kind]
    sizes = tuple(h.bit_count() if h is not None else game.rules.hand_size - game.cards_played(s).bit_count()
                  for s, h in enumerate(game.hands)) + (game.rules.chien_size,)
    return SeatView(seat=seat, players=P, hand=game.hands[seat], sizes=sizes, played=played,
                    aside_known=aside_known, aside_forbidden=aside_forbidden,
                    with_taker_or_aside=with_taker_or_aside, held=tuple(held), excluded=tuple(excluded),
                    taker=game.taker, contract=contract)
