"""Replaying a record: every action through the rules, the first rule broken as one ``RecordError``.

First the places: hands left out are determined where the rest allows it (a complete play gives
every hand that played; the chien and the discard follow from what was not played; a single place
left unknown is the rest of the deck).  Then the actions, in order: the bids, the call, the
discard, the chelem announcement, each seat's declarations, the cards.

* Every hand known: the actions go through the reference engine (``analyzer.game.Game``), so the
  rules live in one place; the record's result is the engine's.
* Some hand unknown (what one player remembers): ``PartialTable`` replays the same actions with the
  engine's rule functions, checking everything the known cards allow: the known seats' cards are
  legal, nobody plays a card known to be elsewhere or already played, nobody plays a card of a
  suit it showed it lacks.  Such a record is analysed from its known seats only.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Callable

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import (Game, Phase, PoigneeShown, Trick, check_discard, legal_calls, misere_allowed,
                           poignee_level)
from analyzer.hand import Deal, Hand
from analyzer.knowledge import SeatView, seat_view
from analyzer.notation import format_cards
from analyzer.play import highest_trump, led_suit, legal_cards, trick_winner
from analyzer.records.record import UNKNOWN_BID, UNKNOWN_CARD, Decision, Record, RecordError
from analyzer.records.result import computed_result, result_differences
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


def _where(rec: Record, name: str, index: int | None = None) -> int | None:
    line = rec.lines.get(name)
    if isinstance(line, list):
        return line[index] if index is not None and index < len(line) else None
    return line


# ---- the places ----------------------------------------------------------------------------------
def _check_places(rec: Record) -> None:
    """No card given in two places (hands, chien)."""
    placed: dict[int, str] = {}
    places = [(f"Hand{s + 1}", f"seat {s + 1}'s hand", rec.hands[s]) for s in sorted(rec.hands)]
    if rec.chien is not None:
        places.append(("Chien", "the chien", rec.chien))
    for tag, what, mask in places:
        for card in C.cards_of(mask):
            if card in placed:
                raise RecordError(f"{C.TOKENS[card]} given for {what} is already in {placed[card]}",
                                  _where(rec, tag), C.TOKENS[card], rec.source)
            placed[card] = what


def played_by(rec: Record, rules: Rules) -> list[int] | None:
    """Cards each seat played, when the play is complete (else None); the leaders follow the trick winners."""
    P = rules.players
    if rec.tricks is None or len(rec.tricks) != rules.tricks or any(len(t) != P for t in rec.tricks):
        return None
    leader = _taker(rec) if rec.chelem and _taker(rec) is not None else 0
    out = [0] * P
    for trick in rec.tricks:
        for k, card in enumerate(trick):
            out[(leader + k) % P] |= 1 << card
        try:
            leader = (leader + trick_winner(trick)) % P
        except ValueError:
            return None
    return out


def _taker(rec: Record) -> int | None:
    bids = [Contract.parse(b) if b not in ("pass", UNKNOWN_BID) else None for b in rec.auction or []]
    known = [(b, s) for s, b in enumerate(bids) if b is not None]
    return max(known)[1] if known else None


def _contract(rec: Record) -> Contract | None:
    bids = [Contract.parse(b) for b in rec.auction or [] if b not in ("pass", UNKNOWN_BID)]
    return max(bids) if bids else None


def determine_places(rec: Record, rules: Rules) -> tuple[list[int | None], int | None, int | None]:
    """(hands as dealt, chien, discard), each None where the record does not determine it."""
    P = rules.players
    hands: list[int | None] = [rec.hands.get(s) for s in range(P)]
    chien, discard = rec.chien, rec.discard
    taker, contract = _taker(rec), _contract(rec)
    played = played_by(rec, rules)
    if played is not None and taker is not None:
        unplayed = C.ALL_CARDS & ~C.mask_of(c for t in rec.tricks for c in t)
        for s in range(P):
            if s != taker or not contract.chien_shown:
                hands[s] = played[s] if hands[s] is None else hands[s]
        if contract.chien_shown:
            discard = unplayed if discard is None else discard
            if chien is None and hands[taker] is not None:
                chien = (played[taker] | discard) & ~hands[taker]
            if hands[taker] is None and chien is not None:
                hands[taker] = (played[taker] | discard) & ~chien
        elif chien is None:
            chien = unplayed
    unknown = [s for s in range(P) if hands[s] is None] + ([P] if chien is None else [])
    if len(unknown) == 1:
        rest = C.ALL_CARDS
        for h in hands + [chien]:
            rest &= ~(h or 0)
        if unknown[0] == P:
            chien = rest
        else:
            hands[unknown[0]] = rest
    return hands, chien, discard


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


# ---- the replay ----------------------------------------------------------------------------------
class _Stop(Exception):
    pass


@dataclass
class Replay:
    """A checked record: the places it determines, the leaders of its tricks, its computed result, and
    (every hand known) the reference game at its end."""

    record: Record
    dealt: list[int | None]
    chien: int | None
    discard: int | None
    game: Game | PartialTable
    leaders: list[int]
    result: dict | None
    actions: int

    @property
    def complete(self) -> bool:
        return isinstance(self.game, Game)

    def position(self, actions: int | None) -> Game:
        if not self.complete:
            unknown = ", ".join(str(s + 1) for s, h in enumerate(self.dealt) if h is None)
            raise RecordError(f"the hands of seats {unknown} are not known: the record can only be analysed "
                              f"from seats {', '.join(str(s + 1) for s, h in enumerate(self.dealt) if h is not None)}",
                              source=self.record.source)
        if actions is None:
            return self.game
        if not 0 <= actions <= self.actions:
            raise RecordError(f"the record has {self.actions} actions, not {actions}", source=self.record.source)
        return _drive(self.record, self._fresh(), stop_after=actions)[0]

    def _fresh(self):
        return _new_engine(self.record, self.record.rules, self.dealt, self.chien)

    @property
    def decisions(self) -> list[Decision]:
        out: list[Decision] = []

        def collect(engine, index, seat, phase, action, line):
            hand = engine.hands[seat]
            view = None
            if phase == "card" and hand is not None:
                view = engine.view(seat) if isinstance(engine, PartialTable) else seat_view(engine, seat)
            out.append(Decision(index, seat, phase, action, line, hand, view))

        _drive(self.record, self._fresh(), on_decision=collect)
        return out


def _past_auction(rec: Record) -> bool:
    return bool(rec.call is not None or rec.discard is not None or rec.chelem or rec.poignees or rec.miseres
                or rec.tricks is not None)


def _new_engine(rec: Record, rules: Rules, dealt, chien):
    call_unknown = rec.call == UNKNOWN_CARD
    if all(h is not None for h in dealt) and chien is not None and not call_unknown:
        game = Game.new(Deal(tuple(Hand(h) for h in dealt), Hand(chien)), rules)
        if game.phase is Phase.DONE and rec.auction:
            seat = game.deal.petit_sec_seat()
            raise RecordError(f"seat {seat + 1}'s hand is petit sec (only the Petit, no Excuse): the deal is "
                              "annulled and not bid (variant petit-sec=play plays it)", _where(rec, f"Hand{seat + 1}"),
                              f"Hand{seat + 1}", rec.source)
        return game
    return PartialTable(rules, list(dealt), chien)


def replay(rec: Record) -> Replay:
    """Check ``rec`` and replay it (``RecordError`` naming the line, the token and the rule)."""
    try:
        rules = rec.rules
    except TarotError as exc:
        raise RecordError(str(exc), _where(rec, "Variants"), "Variants", rec.source) from None
    _check_places(rec)
    dealt, chien, discard = determine_places(rec, rules)
    if not _consistent(dealt, chien):
        # derived places that clash come from an illegal play: replay on the given places, which names it
        _drive(rec, PartialTable(rules, [rec.hands.get(s) for s in range(rules.players)], rec.chien),
               discard=rec.discard)
        raise RecordError("the hands given and the cards played do not fit together", _where(rec, "Players"),
                          "Players", rec.source)
    engine = _new_engine(rec, rules, dealt, chien)
    engine, actions = _drive(rec, engine, discard=discard)
    leaders = [t.leader for t in engine.tricks]
    if engine.current:
        leaders.append(engine.leader)
    result = computed_result(engine) if isinstance(engine, Game) and engine.phase is Phase.DONE else None
    if rec.result is not None:
        line = _where(rec, "Result")
        if result is None:
            raise RecordError("a Result is given but the record does not reach the end of the deal "
                              "with every hand known", line, "Result", rec.source)
        diffs = result_differences(rec.result, result)
        if diffs:
            raise RecordError("the Result disagrees with the play: " + "; ".join(diffs), line, "Result", rec.source)
    return Replay(rec, dealt, chien, discard, engine, leaders, result, actions)


def _consistent(dealt: list[int | None], chien: int | None) -> bool:
    """The known places are disjoint, and cover the deck when every place is known."""
    total = 0
    for h in dealt + [chien]:
        if h is None:
            continue
        if total & h:
            return False
        total |= h
    return total == C.ALL_CARDS or any(h is None for h in dealt + [chien])


def _drive(rec: Record, engine, discard: int | None = None, stop_after: int | None = None,
           on_decision: Callable | None = None):
    """Apply the record's actions to ``engine`` in order; returns the engine."""
    src = rec.source
    count = [0]
    if discard is None:
        discard = determine_places(rec, rec.rules)[2]

    def act(seat, phase, action, line, token, apply, decisions=None):
        if stop_after is not None and count[0] >= stop_after:
            raise _Stop
        for ph, ac in [(phase, action)] if decisions is None else decisions:
            if on_decision:
                on_decision(engine, count[0], seat, ph, ac, line)
        try:
            apply()
        except RecordError:
            raise
        except TarotError as exc:
            raise RecordError(str(exc), line, token, src) from None
        count[0] += 1

    try:
        _drive_actions(rec, engine, discard, act)
    except _Stop:
        pass
    return engine, count[0]


def _drive_actions(rec: Record, engine, discard, act) -> None:
    P = rec.players
    src = rec.source
    later = _past_auction(rec)
    auction_line = _where(rec, "Auction")
    if engine.phase is Phase.DONE:                          # annulled by a petit sec
        if later:
            raise RecordError("the deal is annulled (petit sec): nothing follows", None, None, src)
        return
    bids = rec.auction or []
    taker = _taker(rec)
    if UNKNOWN_BID in bids[taker or 0:] and (later or len(bids) == P):
        raise RecordError("a bid not recorded (?) that may be the highest leaves the taker unknown",
                          auction_line, UNKNOWN_BID, src)
    for seat, tok in enumerate(bids):
        contract = None if tok in ("pass", UNKNOWN_BID) else Contract.parse(tok)
        act(seat, "bid", tok, auction_line, tok, lambda c=contract: engine.bid(c))
    if engine.phase is Phase.BIDDING:
        if later and rec.auction is None:
            raise RecordError("the record has no Auction: the bids come before the rest of the deal",
                              _where(rec, "Players"), "Players", src)
        if later:
            raise RecordError(f"the auction has {len(bids)} bids: every seat speaks before the rest of the deal",
                              auction_line, "Auction", src)
        return
    if engine.phase is Phase.DONE:                          # everybody passed
        if later:
            raise RecordError("everybody passed: the deal is thrown in and nothing follows", auction_line,
                              " ".join(bids), src)
        return
    taker = engine.taker
    if engine.phase is Phase.CALL:
        if rec.call is None:
            if later:
                raise RecordError("at 5 players the taker calls a card (a Call tag) before the rest of the deal",
                                  auction_line, "Auction", src)
            return
        if rec.call == UNKNOWN_CARD:
            act(taker, "call", "?", _where(rec, "Call"), "?", lambda: setattr(engine, "phase", engine.after_call()))
        else:
            act(taker, "call", C.TOKENS[rec.call], _where(rec, "Call"), C.TOKENS[rec.call],
                lambda: engine.call(rec.call))
    elif rec.call is not None:
        raise RecordError("a Call with no taker", _where(rec, "Call"), "Call", src)
    declarations = rec.chelem or rec.poignees or rec.miseres or rec.tricks is not None
    if engine.phase is Phase.DISCARD:
        if discard is None and isinstance(engine, Game):
            if declarations:
                raise RecordError(f"{engine.contract.token}: the taker's discard (a Discard tag) is needed to "
                                  "replay the rest", auction_line, "Auction", src)
            return
        if discard is None and not declarations:
            return
        line = _where(rec, "Discard")
        token = format_cards(discard) if discard is not None else "Discard"
        act(taker, "discard", format_cards(discard) if discard is not None else "?", line, token,
            lambda: engine.make_discard(discard))
    elif rec.discard is not None:
        raise RecordError("the chien is not taken (no Prise or Garde), so there is no discard",
                          _where(rec, "Discard"), "Discard", src)
    if not declarations:
        return
    if taker is not None:
        act(taker, "chelem", "announced" if rec.chelem else "none", _where(rec, "Chelem"), "Chelem",
            lambda: engine.announce_chelem(rec.chelem))
    elif rec.chelem:
        raise RecordError("a chelem is announced by a taker", _where(rec, "Chelem"), "Chelem", src)
    _declarations(rec, engine, act)
    _play(rec, engine, act)


def _declarations(rec: Record, engine, act) -> None:
    src = rec.source
    shown: dict[int, int] = {}
    for i, (seat, mask) in enumerate(rec.poignees):
        if seat in shown:
            raise RecordError(f"seat {seat + 1} shows a second poignée", _where(rec, "Poignee", i),
                              format_cards(mask), src)
        shown[seat] = mask
    kinds: dict[int, list[str]] = {}
    for seat, kind in rec.miseres:
        kinds.setdefault(seat, []).append(kind)
    for _ in range(rec.players):
        seat = engine.to_act
        mask = shown.get(seat, 0)
        index = next((i for i, (s, _) in enumerate(rec.poignees) if s == seat), None)
        misere_index = next((i for i, (s, _) in enumerate(rec.miseres) if s == seat), None)
        line = _where(rec, "Poignee", index) if mask else _where(rec, "Misere", misere_index)
        token = f"{seat + 1}: {format_cards(mask)}" if mask else f"{seat + 1}: {' '.join(kinds.get(seat, []))}"
        decisions = []
        hand = engine.hands[seat]
        could_show = mask or hand is None or any(C.trump_count(hand) >= n for n in rec.rules.poignee_thresholds)
        if could_show:
            decisions.append(("poignee", format_cards(mask) if mask else "none"))
        if rec.rules.misere == "on":
            decisions.append(("misere", " ".join(kinds.get(seat, [])) or "none"))
        act(seat, "poignee", None, line, token,
            lambda s=seat, m=mask: engine.declare(poignee=m, miseres=tuple(kinds.get(s, []))),
            decisions=decisions)


def _play(rec: Record, engine, act) -> None:
    src = rec.source
    P = rec.players
    tricks = rec.tricks or []
    lines = rec.lines.get("Play", [])
    seen: dict[int, int] = {}
    for i, trick in enumerate(tricks):
        line = lines[i] if i < len(lines) else None
        if i >= rec.rules.tricks:
            raise RecordError(f"a deal has {rec.rules.tricks} tricks at {P} players", line, " ".join(
                C.TOKENS[c] for c in trick), src)
        if len(trick) < P and i < len(tricks) - 1:
            raise RecordError(f"trick {i + 1} has {len(trick)} cards: only the last trick may be unfinished",
                              line, C.TOKENS[trick[-1]], src)
        written = rec.leaders[i] if i < len(rec.leaders) else None
        if written is not None and written != engine.leader:
            why = ("seat 1 leads the first trick" if engine.chelem_announced is None else
                   "the taker leads after announcing a chelem") if i == 0 else \
                f"seat {engine.leader + 1} won trick {i}"
            raise RecordError(f"trick {i + 1} is led by seat {engine.leader + 1}, not seat {written + 1} ({why})",
                              line, f"{written + 1}:", src)
        for card in trick:
            seat = engine.to_act
            tok = C.TOKENS[card]
            if card in seen:
                raise RecordError(f"trick {i + 1}, seat {seat + 1} played {tok} but it was already played in "
                                  f"trick {seen[card]}", line, tok, src)
            why = _refusal(engine, card)
            if why:
                raise RecordError(f"trick {i + 1}, seat {seat + 1} played {tok} {why}", line, tok, src)
            seen[card] = i + 1
            act(seat, "card", tok, line, tok, lambda c=card: engine.play(c))


def _refusal(engine, card: int) -> str | None:
    if isinstance(engine, PartialTable):
        return engine.refuse(card)
    hand = engine.hands[engine.to_act]
    if not hand >> card & 1:
        return "but does not hold it"
    if not engine.legal_cards() >> card & 1:
        forbidden = 0
        if engine.called_card is not None and not engine.tricks and not engine.current:
            forbidden = C.suit_mask(C.suit_of(engine.called_card)) & ~(1 << engine.called_card)
        return "but " + illegal_reason(hand, [c for _, c in engine.current], card, forbidden, engine.called_card)
    return None
