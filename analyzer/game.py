"""The reference game engine: one deal of French Tarot, plain and readable, for 3, 4 and 5 players.

This is the oracle the Numba kernels are checked against, so it favours being obviously right over
being fast.  A ``Game`` goes through phases (after OpenSpiel): bidding, the 5-player call, the
discard, declarations (chelem, poignées, misères), play, done; each phase has its legal actions and
an ``apply``-style method.  ``Game.for_play`` sets up the start of play directly (for simulations).

How the Excuse is settled (docs/rules.md, "Play"): played before the last trick it stays with its owner's
side, and the exchange is arithmetic: that side counts 4 points for it and the trick's winners 0.5
(one half-point moves), even when the side ends the deal with no other card at all (the FFT's worked
example: a chelem made while the defence kept its Excuse counts 87 for the taker, with 2 oudlers). In
the last trick it goes to whoever wins that trick, unless its side won every other trick: then it
wins the last trick (the chelem exception) and the Petit counts "au bout" in the second-to-last
trick.  In a Goulash the Excuse likewise stays with its owner (4 points to the owner, 0.5 to the
winners), and wins the last trick whenever it is played in it.

One engine for whole and partial deals: ``Game.partial`` sets up a deal of which some hands or the chien
are unknown (a record of what one player remembers).  The rules are checked wherever the known cards
allow it: a known hand follows every rule; a seat whose hand is unknown may not play a card known to be
elsewhere (another hand, the chien, a poignée another seat showed, the discard) nor one of a suit it
showed it lacks (``Game.refusal``).  The partner (5 players) is known once the called card is played;
the count at the end needs only the tricks (what was not played is the discard or the chien), so a
partial deal played to its end is scored as the whole deal is.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.hand import Deal, Hand
from analyzer.notation import format_cards
from analyzer.play import highest_trump, illegal_reason, led_suit, legal_cards, trick_winner
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.scoring import (Chelem, DealScore, DealSummary, Side, goulash_scores, misere_scores,
                              score_deal, seat_scores)


class Phase(enum.Enum):
    BIDDING = "bidding"
    CALL = "call"
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    DONE = "done"


class Outcome(enum.Enum):
    PLAYED = "played"
    ANNULLED = "annulled"        # a petit sec was shown
    THROWN_IN = "thrown-in"      # everybody passed: redeal
    GOULASH = "goulash"          # everybody passed, played anyway (variant)


MISERE_KINDS = ("trumps", "honours")
SUIT_WORDS = C.SUIT_NAMES + ("trumps",)
FACE_CARDS = C.mask_of(C.suit_card(s, r) for s in range(C.N_SUITS) for r in (C.JACK, C.KNIGHT, C.QUEEN, C.KING))


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]      # in play order
    seats: tuple[int, ...]      # who played each card
    winner: int                 # seat

    def seat_of(self, card: int) -> int:
        return self.seats[self.cards.index(card)]


@dataclass(frozen=True)
class PoigneeShown:
    seat: int
    shown: int                  # mask of the trumps (and maybe the Excuse) shown
    level: PoigneeLevel


@dataclass(frozen=True)
class DealResult:
    outcome: Outcome
    seat_scores: list[float]
    taker: int | None = None
    partner: int | None = None
    contract: Contract | None = None
    taker_half_points: int | None = None
    taker_oudlers: int | None = None
    petit_au_bout: Side | None = None
    chelem: Chelem | None = None
    poignees: tuple[PoigneeShown, ...] = ()
    score: DealScore | None = None
    half_points_taken: tuple[int, ...] = ()   # per seat, Goulash only


def misere_allowed(hand: int, kind: str) -> bool:
    """Trump misère: no trump and no Excuse.  Honours misère: no face card and no oudler."""
    if kind == "trumps":
        return not hand & (C.TRUMP_BITS | 1 << C.EXCUSE)
    if kind == "honours":
        return not hand & (FACE_CARDS | C.OUDLER_BITS)
    raise IllegalActionError(f"unknown misère {kind!r} (expected trumps or honours)")


def poignee_level(hand: int, shown: int, rules: Rules) -> PoigneeLevel:
    """Level of a legal showing; raises ``IllegalActionError`` saying why a showing is not legal.

    Exactly 10/13/15 cards (4 players), all trumps from the hand; the Excuse only as the last
    stand-in, i.e. only when every trump of the hand is shown with it.
    """
    if shown & ~hand:
        raise IllegalActionError("a poignée shows only cards of one's own hand")
    if shown & ~(C.TRUMP_BITS | 1 << C.EXCUSE):
        raise IllegalActionError("a poignée shows only trumps (and maybe the Excuse)")
    n = shown.bit_count()
    if n not in rules.poignee_thresholds:
        sizes = "/".join(map(str, rules.poignee_thresholds))
        raise IllegalActionError(f"a poignée shows exactly {sizes} cards, not {n}")
    if shown >> C.EXCUSE & 1 and (hand & C.TRUMP_BITS) & ~shown:
        raise IllegalActionError("the Excuse may be shown only when no other trump is left to show")
    return PoigneeLevel(rules.poignee_thresholds.index(n))


def lowest_poignee(hand: int, level: PoigneeLevel, rules: Rules) -> int:
    """A legal showing of ``level`` using the lowest trumps, the Excuse only if needed (0 if none)."""
    need = rules.poignee_thresholds[level]
    trumps = sorted(C.cards_of(hand & C.TRUMP_BITS))
    shown = C.mask_of(trumps[:need])
    if len(trumps) < need and hand >> C.EXCUSE & 1:
        shown |= 1 << C.EXCUSE
    return shown if shown.bit_count() == need else 0


def legal_calls(hand: int) -> list[int]:
    """5 players: the cards the taker may call: a King; with all four Kings a Queen; and so on down.

    Calling a card of one's own hand is allowed (the taker then plays alone)."""
    for rank in (C.KING, C.QUEEN, C.KNIGHT, C.JACK):
        cards = [C.suit_card(s, rank) for s in range(C.N_SUITS)]
        if not all(hand >> c & 1 for c in cards):
            return cards
    raise AssertionError("a 15-card hand cannot hold all sixteen face cards")


def discard_options(hand: int) -> tuple[int, int]:
    """(cards that may go freely, trumps that may go only when the free ones are too few).

    Kings and oudlers may never be discarded."""
    kings = C.mask_of(C.KINGS)
    free = hand & C.SUIT_BITS & ~kings
    trumps = hand & C.TRUMP_BITS & ~C.OUDLER_BITS
    return free, trumps


def check_discard(hand: int, discard: int, size: int) -> None:
    """Raise ``IllegalActionError`` naming the rule a discard breaks."""
    if discard & ~hand:
        raise IllegalActionError(f"cannot discard {format_cards(discard & ~hand)}: not in the hand")
    if discard.bit_count() != size:
        raise IllegalActionError(f"the discard has {size} cards, not {discard.bit_count()}")
    kings = discard & C.mask_of(C.KINGS)
    if kings:
        raise IllegalActionError(f"a King may not be discarded: {format_cards(kings)}")
    oudlers = discard & C.OUDLER_BITS
    if oudlers:
        raise IllegalActionError(f"an oudler may not be discarded: {format_cards(oudlers)}")
    free, _ = discard_options(hand)
    trumps = discard & C.TRUMP_BITS
    if trumps and (free & ~discard):
        raise IllegalActionError(
            f"trumps {format_cards(trumps)} may be discarded only when no other card can go "
            f"({format_cards(free & ~discard)} can)")


@dataclass
class Game:
    """One deal, from the bidding to the score.  Mutable; actions check their legality.

    A partial deal (``Game.partial``) has ``deal`` None, None for each unknown hand in ``hands`` and
    maybe an unknown chien (``chien``), discard (``discard_known``) or partner (``partner_known``)."""

    rules: Rules
    deal: Deal | None
    hands: list[int | None] = field(default_factory=list)
    phase: Phase = Phase.BIDDING
    to_act: int = 0
    bids: list[Contract | None] = field(default_factory=list)
    taker: int | None = None
    contract: Contract | None = None
    called_card: int | None = None
    partner: int | None = None
    discard: int = 0
    chelem_announced: str | None = None          # None, "chelem" or "petit-chelem"
    chelem_decided: bool = False
    declared: list[int] = field(default_factory=list)   # seats that made their declarations
    poignees: list[PoigneeShown] = field(default_factory=list)
    miseres: list[tuple[int, str]] = field(default_factory=list)
    leader: int = 0
    current: list[tuple[int, int]] = field(default_factory=list)   # (seat, card) of the trick in play
    tricks: list[Trick] = field(default_factory=list)
    outcome: Outcome = Outcome.PLAYED
    partial_chien: int | None = None     # a partial deal's chien as dealt (None: unknown)
    discard_known: bool = True
    partner_known: bool = True           # False while the partner of a partial deal is not known
    _result: DealResult | None = None

    # ---- set-up -------------------------------------------------------------------------------
    @classmethod
    def new(cls, deal: Deal, rules: Rules) -> "Game":
        """A dealt game at the start of the bidding (or done at once if a petit sec annuls it)."""
        if deal.players != rules.players:
            raise IllegalActionError(f"a {deal.players}-player deal under {rules.players}-player rules")
        game = cls(rules=rules, deal=deal, hands=[h.mask for h in deal.hands])
        if rules.petit_sec == "annul" and deal.petit_sec_seat() is not None:
            game._end(Outcome.ANNULLED)
        return game

    @classmethod
    def partial(cls, rules: Rules, hands: list[int | None], chien: int | None) -> "Game":
        """A dealt game of which the hands given as None, and the chien when None, are unknown (a
        whole game when everything is known)."""
        if len(hands) != rules.players:
            raise IllegalActionError(f"a {len(hands)}-player deal under {rules.players}-player rules")
        if all(h is not None for h in hands) and chien is not None:
            return cls.new(Deal(tuple(Hand(h) for h in hands), Hand(chien)), rules)
        game = cls(rules=rules, deal=None, hands=list(hands), partial_chien=chien)
        if rules.petit_sec == "annul" and game.petit_sec_seat() is not None:
            game._end(Outcome.ANNULLED)
        return game

    @property
    def complete(self) -> bool:
        """Whether every hand and the chien are known."""
        return self.deal is not None

    @property
    def chien(self) -> int | None:
        """The chien as dealt (None when unknown)."""
        return self.deal.chien.mask if self.deal is not None else self.partial_chien

    def petit_sec_seat(self) -> int | None:
        """A seat whose (known) hand as dealt is petit sec, or None."""
        if self.deal is not None:
            return self.deal.petit_sec_seat()
        return next((s for s, h in enumerate(self.hands) if h is not None and Hand(h).is_petit_sec), None)

    def cards_played(self, seat: int) -> int:
        """Mask of the cards ``seat`` has played so far."""
        out = C.mask_of(c for t in self.tricks for s, c in zip(t.seats, t.cards) if s == seat)
        return out | C.mask_of(c for s, c in self.current if s == seat)

    @classmethod
    def for_play(cls, deal: Deal, rules: Rules, taker: int, contract: Contract, called_card: int | None = None,
                 discard: int | None = None, chelem: bool | str = False,
                 poignees: dict[int, int] | None = None,
                 miseres: dict[int, tuple[str, ...]] | None = None) -> "Game":
        """A game at the first card: ``taker`` took ``contract`` (bids skipped), called ``called_card``
        (5 players), discarded ``discard`` (Prise/Garde), announced a chelem or not, the seats in
        ``poignees`` showed those trumps and those in ``miseres`` declared those misères."""
        game = cls.new(deal, rules)
        if game.phase is Phase.DONE:
            raise IllegalActionError("this deal is annulled (petit sec)")
        game.bids = [None] * rules.players
        game.bids[taker] = contract
        game._take(taker, contract)
        if game.phase is Phase.CALL:
            if called_card is None:
                raise IllegalActionError("at 5 players the taker must call a card")
            game.call(called_card)
        if game.phase is Phase.DISCARD:
            if discard is None:
                raise IllegalActionError(f"{contract.token}: the taker's discard is required")
            game.make_discard(discard)
        game.announce_chelem("chelem" if chelem is True else (chelem or None))
        shown = poignees or {}
        declared = miseres or {}
        while game.phase is Phase.DECLARE:
            game.declare(poignee=shown.get(game.to_act, 0), miseres=declared.get(game.to_act, ()))
        return game

    # ---- bidding ------------------------------------------------------------------------------
    def legal_bids(self) -> list[Contract | None]:
        self._expect(Phase.BIDDING)
        best = max((b for b in self.bids if b is not None), default=None)
        return [None] + [c for c in Contract if best is None or c > best]

    def bid(self, contract: Contract | None) -> None:
        """The seat to act passes (None) or bids a contract higher than every earlier bid."""
        if contract not in self.legal_bids():
            raise IllegalActionError(f"seat {self.to_act + 1} may not bid {contract.token} now: bids must rise")
        self.bids.append(contract)
        if len(self.bids) < self.rules.players:
            self.to_act += 1
            return
        if all(b is None for b in self.bids):
            if self.rules.all_pass == "goulash":
                self.outcome = Outcome.GOULASH
                self._start_declarations()
            else:
                self._end(Outcome.THROWN_IN)
            return
        best = max(b for b in self.bids if b is not None)
        self._take(self.bids.index(best), best)

    def _take(self, taker: int, contract: Contract) -> None:
        self.taker, self.contract = taker, contract
        self.to_act = taker
        if self.rules.players == 5:
            self.phase = Phase.CALL
        else:
            self._after_call()

    # ---- 5 players: the call --------------------------------------------------------------------
    def legal_calls(self) -> list[int]:
        """The cards the taker may call (any face card while its hand is unknown)."""
        self._expect(Phase.CALL)
        hand = self.hands[self.taker]
        if hand is None:
            return [C.suit_card(s, r) for r in (C.KING, C.QUEEN, C.KNIGHT, C.JACK) for s in range(C.N_SUITS)]
        return legal_calls(hand)

    def call(self, card: int | None) -> None:
        """The taker calls ``card`` (None: a partial record does not say which)."""
        if card is None:
            self._expect(Phase.CALL)
            self.partner, self.partner_known = None, False
            self._after_call()
            return
        if card not in self.legal_calls():
            allowed = [c for c in self.legal_calls() if C.rank_of(c) == C.KING] \
                if self.hands[self.taker] is None else self.legal_calls()
            raise IllegalActionError(
                f"{C.TOKENS[card]} may not be called (call one of {' '.join(C.TOKENS[c] for c in allowed)})")
        self.called_card = card
        places = [h for h in self.hands] + [self.chien]
        holder = next((p for p, h in enumerate(places) if h is not None and h >> card & 1), None)
        self.partner_known = holder is not None
        self.partner = holder if holder not in (self.taker, self.rules.players, None) else None
        self._after_call()

    def _after_call(self) -> None:
        if self.contract.chien_shown:
            hand, chien = self.hands[self.taker], self.chien
            self.hands[self.taker] = hand | chien if hand is not None and chien is not None else None
            self.phase = Phase.DISCARD
        else:
            self._start_declarations()

    # ---- the discard ----------------------------------------------------------------------------
    def discard_options(self) -> tuple[int, int]:
        self._expect(Phase.DISCARD)
        return discard_options(self.hands[self.taker])

    def make_discard(self, discard: int | None) -> None:
        """The taker, holding the chien, puts ``discard`` (a mask; None: a partial record does not say)
        aside; trumps in it are shown.  Checked when the taker's hand and the chien are known."""
        self._expect(Phase.DISCARD)
        hand = self.hands[self.taker]
        if discard is not None and hand is not None:
            check_discard(hand, discard, self.rules.chien_size)
        self.hands[self.taker] = hand & ~discard if discard is not None and hand is not None else None
        self.discard, self.discard_known = discard or 0, discard is not None
        self._start_declarations()

    @property
    def shown_discard_trumps(self) -> int:
        return self.discard & C.TRUMP_BITS

    # ---- declarations ---------------------------------------------------------------------------
    def _start_declarations(self) -> None:
        self.phase = Phase.DECLARE
        self.chelem_decided = self.outcome is Outcome.GOULASH
        self.to_act = self.taker if self.taker is not None else 0

    def announce_chelem(self, kind: str | None) -> None:
        """The taker announces a chelem ("chelem"; "petit-chelem" under that variant) or not (None)."""
        self._expect(Phase.DECLARE)
        if self.chelem_decided:
            raise IllegalActionError("the chelem is announced once, by the taker, before the declarations")
        allowed = {None, "chelem"} | ({"petit-chelem"} if self.rules.chelem == "petit-chelem" else set())
        if kind not in allowed:
            raise IllegalActionError(f"unknown chelem announcement {kind!r}")
        self.chelem_announced = kind
        self.chelem_decided = True
        self.leader = self.taker if kind else 0
        self.to_act = self.leader

    def poignee_options(self, seat: int | None = None) -> list[PoigneeLevel]:
        """Levels the seat may show (none in a Goulash)."""
        if self.outcome is Outcome.GOULASH:
            return []
        hand = self.hands[self.to_act if seat is None else seat]
        n = C.trump_count(hand) if hand is not None else 22     # unknown: any level
        return [lvl for lvl, need in zip(PoigneeLevel, self.rules.poignee_thresholds) if n >= need]

    def declare(self, poignee: int = 0, miseres: tuple[str, ...] = ()) -> None:
        """The seat to act shows a poignée (a mask; 0 for none) and/or declares misères, in play order."""
        self._expect(Phase.DECLARE)
        if not self.chelem_decided:
            raise IllegalActionError("the taker first announces a chelem or not (announce_chelem)")
        seat = self.to_act
        hand = self.hands[seat]
        if poignee:
            if self.outcome is Outcome.GOULASH:
                raise IllegalActionError("no poignée in a Goulash")
            level = poignee_level(hand if hand is not None else poignee, poignee, self.rules)
            self.poignees.append(PoigneeShown(seat, poignee, level))
        for kind in miseres:
            if self.rules.misere != "on":
                raise IllegalActionError("misères are not played (variant misere=on)")
            if hand is not None and not misere_allowed(hand, kind):
                raise IllegalActionError(f"seat {seat + 1} cannot declare a {kind} misère with this hand")
            self.miseres.append((seat, kind))
        self.declared.append(seat)
        if len(self.declared) == self.rules.players:
            self.phase = Phase.PLAY
            self.to_act = self.leader
        else:
            self.to_act = (seat + 1) % self.rules.players

    # ---- play -----------------------------------------------------------------------------------
    def _forbidden_lead(self) -> int:
        if self.called_card is not None and not self.tricks and not self.current:
            return C.suit_mask(C.suit_of(self.called_card)) & ~(1 << self.called_card)
        return 0

    def legal_cards(self) -> int:
        """Mask of the cards the seat to act may play (its hand must be known)."""
        self._expect(Phase.PLAY)
        hand = self.hands[self.to_act]
        if hand is None:
            raise IllegalActionError(f"seat {self.to_act + 1}'s hand is not known")
        return legal_cards(hand, [c for _, c in self.current], self._forbidden_lead())

    def refusal(self, card: int) -> str | None:
        """Why the seat to act may not play ``card``, as far as the known cards tell ("but …"), or None."""
        self._expect(Phase.PLAY)
        seat, hand = self.to_act, self.hands[self.to_act]
        trick = [c for _, c in self.current]
        if hand is not None:
            if not hand >> card & 1:
                return "but does not hold it"
            if not legal_cards(hand, trick, self._forbidden_lead()) >> card & 1:
                return "but " + illegal_reason(hand, trick, card, self._forbidden_lead(), self.called_card)
            return None
        for s, other in enumerate(self.hands):
            if s != seat and other is not None and other >> card & 1:
                return f"but it is in seat {s + 1}'s hand"
        played = C.mask_of(c for t in self.tricks for c in t.cards) | C.mask_of(trick)
        for p in self.poignees:
            if p.seat != seat and (p.shown & ~played) >> card & 1:
                return f"but seat {p.seat + 1} showed it in a poignée"
        chien = self.chien
        taken = self.contract is not None and self.contract.chien_shown and seat == self.taker
        if chien is not None and chien >> card & 1 and not taken:
            return "but it is in the chien"
        if self.discard_known and self.discard >> card & 1:
            return "but it is in the discard"
        lacks, cap = self._revealed(seat)
        suit = C.suit_of(card)
        if suit in lacks:
            return f"but showed it had no {SUIT_WORDS[suit]} in trick {lacks[suit]}"
        if C.is_trump(card) and cap is not None and card > cap[0]:
            return f"but showed it had no trump above {C.rank_of(cap[0])} in trick {cap[1]}"
        return None

    def _revealed(self, seat: int) -> tuple[dict[int, int], tuple[int, int] | None]:
        """What ``seat`` showed it lacks by how it followed: {suit (0-4): first trick}, and (highest
        trump it may hold, trick) once it played a trump under one already in a trick."""
        lacks: dict[int, int] = {}
        cap = None
        tricks = [list(zip(t.seats, t.cards)) for t in self.tricks] + [self.current]
        for n, pairs in enumerate(tricks, start=1):
            before: list[int] = []
            for s, card in pairs:
                if s == seat and card != C.EXCUSE:
                    led, suit, top = led_suit(before), C.suit_of(card), highest_trump(before)
                    if led is not None and suit != led:
                        if led < C.N_SUITS:
                            lacks.setdefault(led, n)
                        if suit != 4:
                            lacks.setdefault(4, n)
                    if suit == 4 and top is not None and card < top and cap is None:
                        cap = (top, n)
                before.append(card)
        return lacks, cap

    def play(self, card: int) -> None:
        seat = self.to_act
        hand = self.hands[seat]
        if hand is not None:
            if not self.legal_cards() >> card & 1:
                raise IllegalActionError(f"seat {seat + 1} may not play {C.TOKENS[card]} now")
            self.hands[seat] = hand & ~(1 << card)
        else:
            why = self.refusal(card)
            if why:
                raise IllegalActionError(f"seat {seat + 1} may not play {C.TOKENS[card]} now: {why[4:]}")
        if not self.partner_known and card == self.called_card:
            self.partner, self.partner_known = (seat if seat != self.taker else None), True
        self.current.append((seat, card))
        if len(self.current) < self.rules.players:
            self.to_act = (seat + 1) % self.rules.players
            return
        seats = tuple(s for s, _ in self.current)
        cards_ = tuple(c for _, c in self.current)
        winner = seats[trick_winner(cards_)]
        last = len(self.tricks) == self.rules.tricks - 1
        if last and not self.partner_known and self.called_card is not None:
            self.partner, self.partner_known = None, True      # the called card was put aside: alone
        if last and C.EXCUSE in cards_ and self.partner_known:
            owner = seats[cards_.index(C.EXCUSE)]
            if self.outcome is Outcome.GOULASH or all(self.side(t.winner) == self.side(owner) for t in self.tricks):
                winner = owner
        self.tricks.append(Trick(self.leader, cards_, seats, winner))
        self.current = []
        self.leader = self.to_act = winner
        if len(self.tricks) == self.rules.tricks:
            self._finish()

    def side(self, seat: int) -> object:
        """The seat's side: Side.TAKER or Side.DEFENCE (in a Goulash every seat is its own side)."""
        if self.taker is None:
            return seat
        return Side.TAKER if seat in (self.taker, self.partner) else Side.DEFENCE

    # ---- the end ------------------------------------------------------------------------------
    def result(self) -> DealResult:
        if self._result is None:
            if self.phase is Phase.DONE:
                raise IllegalActionError("the called card is not known: the sides, and so the scores, are not")
            raise IllegalActionError(f"the deal is not over (phase {self.phase.value})")
        return self._result

    @property
    def counted(self) -> bool:
        """Whether the deal is over and scored (a partial deal whose called card is unknown is not)."""
        return self._result is not None

    def _expect(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"not the {phase.value} phase (now {self.phase.value})")

    def _end(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.phase = Phase.DONE
        self._result = DealResult(outcome=outcome, seat_scores=[0] * self.rules.players)

    def _piles(self) -> tuple[dict[object, int], dict[object, int]]:
        """Cards each side (or seat, in a Goulash) ends with, and half-point corrections for the
        Excuse exchange."""
        piles: dict[object, int] = {}
        moved: dict[object, int] = {}
        excuse_debt = None          # (owner side, winner side) of an Excuse kept before the last trick
        for i, t in enumerate(self.tricks):
            taker_of_trick = self.side(t.winner)
            won = C.mask_of(t.cards)
            if C.EXCUSE in t.cards and i < len(self.tricks) - 1:
                owner = self.side(t.seat_of(C.EXCUSE))
                if owner != taker_of_trick:
                    won &= ~(1 << C.EXCUSE)
                    excuse_debt = (owner, taker_of_trick)
            piles[taker_of_trick] = piles.get(taker_of_trick, 0) | won
        if self.taker is not None:
            # what was not played: the discard (Prise, Garde) or the chien (Garde sans, Garde contre)
            aside = C.ALL_CARDS & ~C.mask_of(c for t in self.tricks for c in t.cards)
            side = Side.TAKER if self.contract.chien_to_taker else Side.DEFENCE
            piles[side] = piles.get(side, 0) | aside
        if excuse_debt is not None:         # it stays with its owner's side, even one with no other card
            owner, winners = excuse_debt
            piles[owner] = piles.get(owner, 0) | 1 << C.EXCUSE
            moved[owner] = moved.get(owner, 0) - 1
            moved[winners] = moved.get(winners, 0) + 1
        return piles, moved

    def _finish(self) -> None:
        self.phase = Phase.DONE
        if not self.partner_known:
            return                      # a partial deal whose called card is unknown: no count
        piles, moved = self._piles()
        misere = [0] * self.rules.players
        for seat, _ in self.miseres:
            misere = [a + b for a, b in zip(misere, misere_scores(self.rules.players, seat))]
        if self.outcome is Outcome.GOULASH:
            taken = tuple(C.mask_half_points(piles.get(s, 0)) + moved.get(s, 0) for s in range(self.rules.players))
            scores = [g + m for g, m in zip(goulash_scores(list(taken)), misere)]
            self._result = DealResult(outcome=Outcome.GOULASH, seat_scores=scores, half_points_taken=taken)
            return
        taker_pile = piles.get(Side.TAKER, 0)
        half_points = C.mask_half_points(taker_pile) + moved.get(Side.TAKER, 0)
        oudlers = C.mask_oudlers(taker_pile)
        pab = self._petit_au_bout()
        chelem = self._chelem()
        poignees = tuple((self.side(p.seat), p.level) for p in self.poignees)
        summary = DealSummary(contract=self.contract, oudlers=oudlers, half_points=half_points, petit_au_bout=pab,
                              poignees=poignees, chelem=chelem, alone=self.rules.players == 5 and self.partner is None)
        score = score_deal(summary, self.rules)
        scores = seat_scores(score, self.rules.players, self.taker, self.partner)
        self._result = DealResult(
            outcome=Outcome.PLAYED, seat_scores=[s + m for s, m in zip(scores, misere)], taker=self.taker,
            partner=self.partner, contract=self.contract, taker_half_points=half_points, taker_oudlers=oudlers,
            petit_au_bout=pab, chelem=chelem, poignees=tuple(self.poignees), score=score)

    def _petit_au_bout(self) -> Side | None:
        """The side that won the last trick with the Petit in it (the second-to-last trick when the
        chelem exception gave the last trick to the Excuse)."""
        last = self.tricks[-1]
        if C.PETIT in last.cards:
            return self.side(last.winner)
        if C.EXCUSE in last.cards and last.winner == last.seat_of(C.EXCUSE) and len(self.tricks) > 1:
            before = self.tricks[-2]
            if C.PETIT in before.cards:
                return self.side(before.winner)
        return None

    def _chelem(self) -> Chelem | None:
        won = sum(self.side(t.winner) is Side.TAKER for t in self.tricks)
        n = len(self.tricks)
        if self.chelem_announced == "chelem":
            return Chelem.ANNOUNCED_MADE if won == n else Chelem.ANNOUNCED_FAILED
        if self.chelem_announced == "petit-chelem":
            return Chelem.PETIT_ANNOUNCED_MADE if won >= n - 1 else Chelem.PETIT_ANNOUNCED_FAILED
        if won == n:
            return Chelem.MADE
        if won == 0:
            return Chelem.DEFENCE
        return None
