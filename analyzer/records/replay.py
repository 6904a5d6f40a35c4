"""Replaying a record: every action through the rules, the first rule broken as one ``RecordError``.

First the places: hands left out are determined where the rest allows it (a complete play gives
every hand that played; the chien and the discard follow from what was not played; a single place
left unknown is the rest of the deck).  Then the actions, in order: the bids, the call, the
discard, the chelem announcement, each seat's declarations, the cards.

The actions go through the reference engine (``analyzer.game.Game``), so the rules live in one
place, whether every hand is known or only some (what one player remembers: ``Game.partial`` checks
everything the known cards allow); the record's result is the engine's, for a partial record played to
its end too.  A record with an unknown hand is analysed from its known seats only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import Game, Phase
from analyzer.knowledge import seat_view
from analyzer.notation import format_cards
from analyzer.play import trick_winner
from analyzer.records.record import UNKNOWN_BID, UNKNOWN_CARD, Decision, Record, RecordError
from analyzer.records.result import computed_result, result_differences
from analyzer.rules import Contract, Rules


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


# ---- the replay ----------------------------------------------------------------------------------
class _Stop(Exception):
    pass


@dataclass
class Replay:
    """A checked record: the places it determines, the leaders of its tricks, its computed result, and
    the reference game at its end (a partial one when some hand is unknown)."""

    record: Record
    dealt: list[int | None]
    chien: int | None
    discard: int | None
    game: Game
    leaders: list[int]
    result: dict | None
    actions: int

    @property
    def complete(self) -> bool:
        return self.game.complete and self.record.call != UNKNOWN_CARD

    def position(self, actions: int | None) -> Game:
        if not self.complete and self.game.complete:
            raise RecordError("the called card is not known: the record cannot be analysed", source=self.record.source)
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
                view = seat_view(engine, seat)
            out.append(Decision(index, seat, phase, action, line, hand, view))

        _drive(self.record, self._fresh(), on_decision=collect)
        return out


def _past_auction(rec: Record) -> bool:
    return bool(rec.call is not None or rec.discard is not None or rec.chelem or rec.poignees or rec.miseres
                or rec.tricks is not None)


def _new_engine(rec: Record, rules: Rules, dealt, chien):
    game = Game.partial(rules, list(dealt), chien)
    if game.phase is Phase.DONE and rec.auction:
        seat = game.petit_sec_seat()
        raise RecordError(f"seat {seat + 1}'s hand is petit sec (only the Petit, no Excuse): the deal is "
                          "annulled and not bid (variant petit-sec=play plays it)", _where(rec, f"Hand{seat + 1}"),
                          f"Hand{seat + 1}", rec.source)
    return game


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
        _drive(rec, Game.partial(rules, [rec.hands.get(s) for s in range(rules.players)], rec.chien),
               discard=rec.discard)
        raise RecordError("the hands given and the cards played do not fit together", _where(rec, "Players"),
                          "Players", rec.source)
    engine = _new_engine(rec, rules, dealt, chien)
    engine, actions = _drive(rec, engine, discard=discard)
    leaders = [t.leader for t in engine.tricks]
    if engine.current:
        leaders.append(engine.leader)
    result = computed_result(engine) if engine.counted else None
    if rec.result is not None:
        line = _where(rec, "Result")
        if result is None:
            why = ("its called card is not known, so neither are the sides" if engine.phase is Phase.DONE
                   else "the record does not reach the end of the deal")
            raise RecordError(f"a Result is given but {why}", line, "Result", rec.source)
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
            act(taker, "call", "?", _where(rec, "Call"), "?", lambda: engine.call(None))
        else:
            act(taker, "call", C.TOKENS[rec.call], _where(rec, "Call"), C.TOKENS[rec.call],
                lambda: engine.call(rec.call))
    elif rec.call is not None:
        raise RecordError("a Call with no taker", _where(rec, "Call"), "Call", src)
    declarations = rec.chelem or rec.poignees or rec.miseres or rec.tricks is not None
    if engine.phase is Phase.DISCARD:
        if discard is None and engine.complete:
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


def _refusal(engine: Game, card: int) -> str | None:
    return engine.refusal(card)
