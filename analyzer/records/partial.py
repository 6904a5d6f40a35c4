"""Replaying a record of which some hands are unknown (what one player remembers).

``PartialTable`` goes through the reference engine's phases with its rule functions
(``analyzer.game``, ``analyzer.play``) and checks everything the known cards allow: the known seats'
cards follow every rule; nobody plays a card known to be elsewhere (a known hand, the chien, another
seat's shown poignée, the discard) or of a suit it showed it lacks.  It has the attributes of a
``Game`` that ``analyzer.knowledge.seat_view`` reads, so a known seat's knowledge comes from the same
function as in a complete deal.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import (Phase, PoigneeShown, Trick, check_discard, legal_calls, misere_allowed,
                           poignee_level)
from analyzer.knowledge import SeatView, seat_view
from analyzer.play import highest_trump, led_suit, legal_cards, trick_winner
from analyzer.rules import Contract, Rules

SUIT_WORDS = C.SUIT_NAMES + ("trumps",)


# ---- why a card may not be played ----------------------------------------------------------------
def illegal_reason(hand: int, trick: list[int], card: int, forbidden_lead: int, called: int | None) -> str:
    """The rule a card of ``hand`` breaks on ``trick`` (the card is held and illegal)."""
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


# ---- the partial table ---------------------------------------------------------------------------
@dataclass
class _ChienView:
    mask: int


@dataclass
class _DealView:
    chien: _ChienView


@dataclass
class PartialTable:
    """The engine's phases and checks for a deal of which some hands are unknown (None)."""

    rules: Rules
    hands: list[int | None]
    chien: int | None
    phase: Phase = Phase.BIDDING
    to_act: int = 0
    bids: list[Contract | None] = field(default_factory=list)
    taker: int | None = None
    contract: Contract | None = None
    called_card: int | None = None
    discard: int = 0
    discard_known: bool = False
    chelem_announced: str | None = None
    chelem_decided: bool = False
    declared: list[int] = field(default_factory=list)
    poignees: list[PoigneeShown] = field(default_factory=list)
    miseres: list[tuple[int, str]] = field(default_factory=list)
    leader: int = 0
    current: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    played: int = 0
    cards_played: list[int] = field(default_factory=list)
    lacks: list[dict[int, int]] = field(default_factory=list)      # seat -> {suit (0-4): trick shown}
    trump_cap: list[tuple[int, int] | None] = field(default_factory=list)  # seat -> (highest trump it may hold, trick)

    def __post_init__(self) -> None:
        P = self.rules.players
        self.cards_played = [0] * P
        self.lacks = [{} for _ in range(P)]
        self.trump_cap = [None] * P

    def bid(self, contract: Contract | None) -> None:
        best = max((b for b in self.bids if b is not None), default=None)
        if contract is not None and best is not None and contract <= best:
            raise TarotError(f"seat {self.to_act + 1} may not bid {contract.token} now: bids must rise")
        self.bids.append(contract)
        self.to_act += 1
        if len(self.bids) == self.rules.players:
            if all(b is None for b in self.bids):
                goulash = self.rules.all_pass == "goulash"
                self.phase, self.chelem_decided, self.to_act = (Phase.DECLARE if goulash else Phase.DONE), True, 0
                return
            best = max(b for b in self.bids if b is not None)
            self.taker, self.contract = self.bids.index(best), best
            self.to_act = self.taker
            self.phase = Phase.CALL if self.rules.players == 5 else self.after_call()

    def call(self, card: int) -> None:
        hand = self.hands[self.taker]
        allowed = legal_calls(hand) if hand is not None else [C.suit_card(s, C.KING) for s in range(4)]
        if hand is None and C.is_suit_card(card) and C.rank_of(card) >= C.JACK:
            allowed = [card]          # a Queen … is legal if the taker holds the four Kings: unknown here
        if card not in allowed:
            raise TarotError(f"{C.TOKENS[card]} may not be called (call one of {' '.join(C.TOKENS[c] for c in allowed)})")
        self.called_card = card
        self.phase = self.after_call()

    def after_call(self) -> Phase:
        return Phase.DISCARD if self.contract.chien_shown else Phase.DECLARE

    def make_discard(self, discard: int | None) -> None:
        hand = self.hands[self.taker]
        if discard is not None and hand is not None and self.chien is not None:
            check_discard(hand | self.chien, discard, self.rules.chien_size)
        self.discard, self.discard_known = discard or 0, discard is not None
        if hand is not None:
            self.hands[self.taker] = (hand | self.chien) & ~discard \
                if discard is not None and self.chien is not None else None
        self.phase = Phase.DECLARE

    def announce_chelem(self, kind: str | None) -> None:
        self.chelem_announced, self.chelem_decided = kind, True
        self.leader = self.to_act = self.taker if kind else 0

    def declare(self, poignee: int = 0, miseres: tuple[str, ...] = ()) -> None:
        seat = self.to_act
        hand = self.hands[seat]
        if poignee:
            self.poignees.append(PoigneeShown(seat, poignee, poignee_level(hand if hand is not None else poignee,
                                                                           poignee, self.rules)))
        for kind in miseres:
            if self.rules.misere != "on":
                raise TarotError("misères are not played (variant misere=on)")
            if hand is not None and not misere_allowed(hand, kind):
                raise TarotError(f"seat {seat + 1} cannot declare a {kind} misère with this hand")
            self.miseres.append((seat, kind))
        self.declared.append(seat)
        self.to_act = (seat + 1) % self.rules.players
        if len(self.declared) == self.rules.players:
            self.phase, self.to_act = Phase.PLAY, self.leader

    def forbidden_lead(self) -> int:
        if self.called_card is not None and not self.tricks and not self.current:
            return C.suit_mask(C.suit_of(self.called_card)) & ~(1 << self.called_card)
        return 0

    def refuse(self, card: int) -> str | None:
        """Why the seat to act may not play ``card`` as far as the known cards tell (None: it may)."""
        seat, P = self.to_act, self.rules.players
        hand = self.hands[seat]
        trick = [c for _, c in self.current]
        if hand is not None:
            if not hand >> card & 1:
                return "but does not hold it"
            if not legal_cards(hand, trick, self.forbidden_lead()) >> card & 1:
                return "but " + illegal_reason(hand, trick, card, self.forbidden_lead(), self.called_card)
            return None
        for s in range(P):
            if s != seat and self.hands[s] is not None and self.hands[s] >> card & 1:
                return f"but it is in seat {s + 1}'s hand"
        for p in self.poignees:
            if p.seat != seat and p.shown >> card & 1:
                return f"but seat {p.seat + 1} showed it in a poignée"
        if self.chien is not None and self.chien >> card & 1 and not (self.contract.chien_shown and seat == self.taker):
            return "but it is in the chien"
        if self.discard_known and self.discard >> card & 1:
            return "but it is in the discard"
        suit = C.suit_of(card)
        if suit in self.lacks[seat]:
            return f"but showed it had no {SUIT_WORDS[suit]} in trick {self.lacks[seat][suit]}"
        cap = self.trump_cap[seat]
        if C.is_trump(card) and cap is not None and card > cap[0]:
            return f"but showed it had no trump above {C.rank_of(cap[0])} in trick {cap[1]}"
        return None

    def play(self, card: int) -> None:
        seat, P = self.to_act, self.rules.players
        trick = [c for _, c in self.current]
        self._learn(seat, trick, card)
        if self.hands[seat] is not None:
            self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.cards_played[seat] |= 1 << card
        self.current.append((seat, card))
        self.to_act = (seat + 1) % P
        if len(self.current) == P:
            seats = tuple(s for s, _ in self.current)
            cards_ = tuple(c for _, c in self.current)
            winner = seats[trick_winner(cards_)]
            self.tricks.append(Trick(self.leader, cards_, seats, winner))
            self.current = []
            self.leader = self.to_act = winner
            if len(self.tricks) == self.rules.tricks:
                self.phase = Phase.DONE

    def _learn(self, seat: int, trick: list[int], card: int) -> None:
        """Voids a seat reveals by how it follows (``analyzer.knowledge.revealed_exclusions``)."""
        if card == C.EXCUSE:
            return
        n = len(self.tricks) + 1
        led = led_suit(trick)
        suit = C.suit_of(card)
        if led is not None and suit != led:
            if led < C.N_SUITS:
                self.lacks[seat].setdefault(led, n)
            if suit != 4:
                self.lacks[seat].setdefault(4, n)
        top = highest_trump(trick)
        if suit == 4 and top is not None and card < top and self.trump_cap[seat] is None:
            self.trump_cap[seat] = (top, n)

    # what ``analyzer.knowledge.seat_view`` reads of a game
    @property
    def shown_discard_trumps(self) -> int:
        return self.discard & C.TRUMP_BITS

    @property
    def deal(self) -> _DealView:
        return _DealView(_ChienView(self.chien or 0))

    def view(self, seat: int) -> SeatView:
        """The knowledge of a known seat (its sizes from the cards played, the other hands unknown)."""
        known = copy.copy(self)
        known.hands = [h if h is not None else 0 for h in self.hands]
        view = seat_view(known, seat)
        size = self.rules.hand_size
        sizes = tuple(size - self.cards_played[s].bit_count() for s in range(self.rules.players))
        return replace(view, sizes=sizes + (self.rules.chien_size,))
