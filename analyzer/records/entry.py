"""Entering a deal one answer at a time (``tarot-analyzer record new``; docs/records.md, "Entering a deal").

``DealEntry`` is a small state machine with no terminal I/O: ``prompt`` is the question it asks now,
``answer(text)`` takes one answer and returns the next ``Prompt`` (or the same question with a one-line
``error`` naming the token and the rule broken), ``record()`` builds the ``Record`` entered so far.

The questions: the players, the rule variants, the Event and the Date, the seat names, your seat and
your hand (required), the other hands known, one bid per seat, the called card at 5 players, the chien,
the taker's discard, a chelem announcement, the poignées shown, then each card in turn
(``trick 3, seat 2``; several cards may stand on one line).  ``undo`` goes back one step (the last card,
or the last answer before the play); ``end`` (or ``done``) stops the deal where it stands, once the
hands are entered; the deal ends by itself after its last card or an auction everybody passed.

Every answer is checked by replaying the record entered so far through the reference engine
(``analyzer.records.replay``, on ``Game.partial`` when some hands are unknown), so the rules and their
wording live in one place; the record is written by ``format_record``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.errors import TarotError
from analyzer.game import Phase
from analyzer.notation import parse_card, parse_mask, split_tokens
from analyzer.records.record import BID_TOKENS, UNKNOWN_BID, UNKNOWN_CARD, Record, RecordError, shown_token
from analyzer.records.replay import Replay, replay
from analyzer.rules import Contract, Rules

UNDO_WORDS = ("undo",)
END_WORDS = ("end", "done")
YES, NO = ("yes", "y", "oui", "o"), ("no", "n", "non", "")


class EntryError(Exception):
    """An answer refused: the message names the token and the rule."""


@dataclass(frozen=True)
class Prompt:
    """A question (``text``), with the ``error`` that refused the last answer or a ``note`` on it;
    ``done`` once the deal is entered (``text`` is then empty)."""

    text: str
    error: str | None = None
    note: str | None = None
    done: bool = False


@dataclass
class _State:
    stage: str = "players"
    index: int = 0                     # the seat (0-based) asked about, for names, hands and bids
    players: int = 0
    variants: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    own: int | None = None
    hands: dict[int, int] = field(default_factory=dict)
    auction: list[str] = field(default_factory=list)
    call: int | None = None
    chien: int | None = None
    discard: int | None = None
    chelem: str | None = None
    poignees: list[tuple[int, int]] = field(default_factory=list)
    cards: list[int] | None = None     # the cards played, in order (None before the play)
    ended: bool = False

    def copy(self) -> "_State":
        return _State(self.stage, self.index, self.players, dict(self.variants), dict(self.tags), self.own,
                      dict(self.hands), list(self.auction), self.call, self.chien, self.discard, self.chelem,
                      list(self.poignees), None if self.cards is None else list(self.cards), self.ended)


class DealEntry:
    """The dialogue that enters one deal (see the module's docstring)."""

    def __init__(self) -> None:
        self._state = _State()
        self._history: list[_State] = []
        self._replay: Replay | None = None

    # ---- the dialogue ---------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._state.stage == "done"

    @property
    def prompt(self) -> Prompt:
        return Prompt(self._question(), done=self.done)

    def answer(self, text: str) -> Prompt:
        """Take one answer; the next question, or this one again with the error that refused it."""
        if self.done:
            raise EntryError("the deal is already entered")
        text = text.strip()
        word = text.lower()
        if word in UNDO_WORDS:
            return self._undo()
        if word in END_WORDS:
            return self._end()
        try:
            self._take(text)
        except EntryError as exc:
            return Prompt(self._question(), error=str(exc))
        return self.prompt

    def record(self) -> Record:
        """The record entered so far (checked), with its computed ``Result`` when the deal is over."""
        rec = self._record(self._state)
        rec.result = replay(rec).result
        return rec.check()

    @property
    def can_end(self) -> bool:
        """Whether the deal may be stopped here (the hands known have been entered)."""
        return self._state.stage in _AFTER_HANDS

    # ---- undo and end ---------------------------------------------------------------------------
    def _undo(self) -> Prompt:
        if not self._history:
            return Prompt(self._question(), error="'undo': nothing to undo")
        self._state = self._history.pop()
        self._replay = self._check(self._state) if self._state.players else None
        return Prompt(self._question(), note="undone")

    def _end(self) -> Prompt:
        if not self.can_end:
            return Prompt(self._question(), error="'end': a record needs the players and your hand first")
        self._history.append(self._state.copy())
        st = self._state
        if st.cards == []:
            st.cards = None
        st.stage, st.ended = "done", True
        return self.prompt

    # ---- one answer -----------------------------------------------------------------------------
    def _take(self, text: str) -> None:
        st = self._state
        if st.stage == "play":
            tokens = split_tokens(text)
            if not tokens:
                raise EntryError("'': a card, 'undo' or 'end'")
            for i, tok in enumerate(tokens):    # each card is one step; the cards before an error stay
                try:
                    self._step(lambda new, t=tok: self._card(new, t))
                except EntryError as exc:
                    if i:
                        raise EntryError(f"{exc} ({' '.join(tokens[:i])} taken)") from None
                    raise
                if self.done:
                    if i + 1 < len(tokens):
                        raise EntryError(f"{shown_token(tokens[i + 1])}: the deal is over after its last card")
                    return
            return
        self._step(lambda new: getattr(self, f"_{st.stage}")(new, text))

    def _step(self, change) -> None:
        """Apply ``change`` to a copy of the state; keep it (and the old state for undo) once checked."""
        new = self._state.copy()
        change(new)
        self._replay = self._check(new) if new.players else None
        self._history.append(self._state)
        self._state = new
        self._advance()

    def _check(self, st: _State) -> Replay:
        rec = self._record(st)
        try:
            return replay(rec)
        except RecordError as exc:
            raise EntryError(str(exc)) from None
        except TarotError as exc:
            raise EntryError(str(exc)) from None

    def _advance(self) -> None:
        """Move on by itself where nothing is left to ask: a thrown-in deal, or the last card."""
        st, rep = self._state, self._replay
        if rep is None:
            return
        game = rep.game
        if st.stage in ("call", "chien", "discard", "chelem", "poignee", "play") and game.phase is Phase.DONE:
            st.stage = "done"
        elif st.stage == "call" and game.phase is not Phase.CALL:
            st.stage = "chien"
        if st.stage == "chelem" and game.taker is None:
            st.stage = "poignee"
        if st.stage == "discard" and not _chien_shown(st):
            st.stage = "chelem" if game.taker is not None else "poignee"

    # ---- the questions, one handler each (``new`` is the state to change) ----------------------
    def _players(self, new: _State, text: str) -> None:
        if text not in ("3", "4", "5"):
            raise EntryError(f"{shown_token(text)}: a deal has 3, 4 or 5 players")
        new.players, new.stage = int(text), "variants"

    def _variants(self, new: _State, text: str) -> None:
        variants = {}
        for item in [t.strip() for t in text.split(",") if t.strip()]:
            name, sep, value = item.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise EntryError(f"{shown_token(item)}: a variant is written NAME=VALUE")
            variants[name.strip()] = value.strip()
        try:
            Rules.from_options(new.players, [f"{k}={v}" for k, v in variants.items()])
        except TarotError as exc:
            raise EntryError(f"{shown_token(text)}: {exc}") from None
        new.variants, new.stage = variants, "event"

    def _event(self, new: _State, text: str) -> None:
        if text:
            new.tags["Event"] = text
        new.stage = "date"

    def _date(self, new: _State, text: str) -> None:
        if text:
            new.tags["Date"] = text
        new.stage, new.index = "name", 0

    def _name(self, new: _State, text: str) -> None:
        if text:
            new.tags[f"Seat{new.index + 1}"] = text
        new.index += 1
        if new.index == new.players:
            new.stage = "seat"

    def _seat(self, new: _State, text: str) -> None:
        seat = _seat_number(text, new.players)
        new.own, new.stage, new.index = seat, "hand", seat

    def _hand(self, new: _State, text: str) -> None:
        seat = new.index
        if text:
            new.hands[seat] = _sized_cards(text, Rules.from_options(new.players).hand_size, "a hand", new.players)
        elif seat == new.own:
            raise EntryError("'': your own hand is needed (the record is analysed from your seat)")
        others = [s for s in range(new.players) if s != new.own]
        later = [s for s in others if seat == new.own or s > seat]
        if later:
            new.index = later[0]
        else:
            new.stage, new.index = "bid", 0

    def _bid(self, new: _State, text: str) -> None:
        token = text.lower()
        if token not in BID_TOKENS + (UNKNOWN_BID,):
            try:
                token = Contract.parse(token).token
            except (TarotError, ValueError):
                raise EntryError(f"{shown_token(text)}: a bid is one of {', '.join(BID_TOKENS)} or ? (not "
                                 "recorded)") from None
        new.auction.append(token)
        new.index += 1
        if new.index == new.players:
            new.stage = "call" if new.players == 5 else "chien"

    def _call(self, new: _State, text: str) -> None:
        new.call = UNKNOWN_CARD if text == "?" else _card(text)
        new.stage = "chien"

    def _chien(self, new: _State, text: str) -> None:
        if text:
            new.chien = _sized_cards(text, Rules.from_options(new.players).chien_size, "the chien", new.players)
        new.stage = "discard"

    def _discard(self, new: _State, text: str) -> None:
        if text:
            new.discard = _cards(text)
        new.cards = []                                  # the play must be able to follow
        self._check(new)
        new.cards = None
        new.stage = "chelem"

    def _chelem(self, new: _State, text: str) -> None:
        word = text.lower()
        if word in YES:
            new.chelem = "chelem"
        elif word not in NO:
            raise EntryError(f"{shown_token(text)}: answer yes or no (Enter: no)")
        new.stage = "poignee"

    def _poignee(self, new: _State, text: str) -> None:
        if not text:
            new.stage, new.cards = "play", []
            return
        seat_text, sep, cards = text.partition(":")
        if not sep:
            raise EntryError(f"{shown_token(text)}: a poignée is written SEAT: TRUMPS (1: 21 20 …)")
        seat = _seat_number(seat_text.strip(), new.players)
        new.poignees.append((seat, _cards(cards)))

    def _card(self, new: _State, token: str) -> None:
        new.cards.append(_card(token))     # the replay names a card already played or refused

    # ---- the question asked now -----------------------------------------------------------------
    def _question(self) -> str:
        st = self._state
        P = st.players
        if st.stage == "players":
            return "Players (3, 4 or 5; seat 1 bids first and leads, the dealer is the last seat)"
        if st.stage == "variants":
            return "Variants (NAME=VALUE, commas between; Enter: FFT rules)"
        if st.stage == "event":
            return "Event (Enter to skip)"
        if st.stage == "date":
            return "Date (YYYY.MM.DD, Enter to skip)"
        if st.stage == "name":
            return f"Seat {st.index + 1}'s name (Enter to skip)"
        if st.stage == "seat":
            return f"Your seat (1-{P})"
        rules = Rules.from_options(P)
        if st.stage == "hand":
            which = "your hand" if st.index == st.own else "Enter if not known"
            return f"Seat {st.index + 1}'s hand, {rules.hand_size} cards ({which})"
        if st.stage == "bid":
            return f"Bid of seat {st.index + 1} ({', '.join(BID_TOKENS)}, ? if not recorded)"
        if st.stage == "call":
            return "Called card (a King, or ? if not recorded)"
        if st.stage == "chien":
            return f"Chien, {rules.chien_size} cards (Enter if not seen)"
        if st.stage == "discard":
            return f"Taker's discard, {rules.chien_size} cards (Enter if not known)"
        if st.stage == "chelem":
            return "Chelem announced by the taker? (yes/no, Enter: no)"
        if st.stage == "poignee":
            return "Poignée shown (SEAT: TRUMPS; Enter: no more)"
        if st.stage == "play":
            game = self._replay.game
            return f"trick {len(game.tricks) + 1}, seat {game.to_act + 1}"
        return ""

    # ---- the record -----------------------------------------------------------------------------
    @staticmethod
    def _record(st: _State) -> Record:
        P = st.players
        started = st.stage not in ("players", "variants", "event", "date", "name", "seat", "hand")
        tricks = None
        if st.cards is not None:
            tricks = [st.cards[i:i + P] for i in range(0, len(st.cards), P)]
        return Record(players=P, variants=dict(st.variants), tags=dict(st.tags), hands=dict(st.hands),
                      chien=st.chien, auction=list(st.auction) if started and st.auction else None,
                      call=st.call, discard=st.discard, chelem=st.chelem, poignees=list(st.poignees),
                      tricks=tricks)


_AFTER_HANDS = ("bid", "call", "chien", "discard", "chelem", "poignee", "play")


def _chien_shown(st: _State) -> bool:
    bids = [Contract.parse(b) for b in st.auction if b not in ("pass", UNKNOWN_BID)]
    return bool(bids) and max(bids).chien_shown


def _seat_number(text: str, players: int) -> int:
    if not text.isdigit() or not 1 <= int(text) <= players:
        raise EntryError(f"{shown_token(text)}: a seat is 1 to {players}")
    return int(text) - 1


def _card(token: str) -> int:
    try:
        return parse_card(token)
    except TarotError as exc:
        raise EntryError(_why(exc)) from None


def _sized_cards(text: str, size: int, what: str, players: int) -> int:
    """The cards of ``text``, which must be ``size`` of them (``what``: "a hand", "the chien")."""
    mask = _cards(text)
    if mask.bit_count() != size:
        raise EntryError(f"{shown_token(text)}: {what} holds {size} cards at {players} players, "
                         f"not {mask.bit_count()}")
    return mask


def _cards(text: str) -> int:
    try:
        return parse_mask(text)
    except TarotError as exc:
        raise EntryError(_why(exc)) from None


def _why(exc: TarotError) -> str:
    return f"{exc} (cards: trumps 1…21, EX, suit cards as KS, 10H, CD: docs/notation.md)"
