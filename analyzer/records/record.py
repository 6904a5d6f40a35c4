"""The ``Record`` object: one played (or partly played) deal as written, and its replay.

A record holds what was written (hands, chien, auction, call, discard, declarations, tricks, the
players' ``Result``), with cards as ids and card sets as 78-bit masks, seats 0…P-1 in bidding order.
Loading a record replays it (``analyzer.records.replay``) through the reference engine
(``analyzer.game.Game``), whether every hand is known or follows from the rest or some hands stay
unknown (what one player remembers: the engine then checks everything the known cards allow, and the
record can be analysed only from the known seats).

The replay and the two written forms live in modules that import this one; they are looked up in
``IMPLEMENTATIONS``, which ``analyzer.records`` fills when it is imported, so no import goes in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterator

from analyzer.errors import TarotError
from analyzer.rules import Rules

if TYPE_CHECKING:
    from analyzer.game import Game
    from analyzer.knowledge import SeatView
    from analyzer.records.replay import Replay

UNKNOWN_BID = "?"
UNKNOWN_CARD = -1          # a called card not recorded (written ?)
BID_TOKENS = ("pass", "prise", "garde", "garde-sans", "garde-contre")
PHASES = ("bid", "call", "discard", "chelem", "poignee", "misere", "card")
# name -> function: replay, format_record, parse_records, record_to_json, record_from_json (set by
# analyzer/records/__init__.py)
IMPLEMENTATIONS: dict[str, Callable] = {}


TOKEN_SHOWN = 60          # characters of a token quoted in an error (a pasted page must not fill the screen)


def shown_token(token: str) -> str:
    """``token`` quoted for an error message, cut after ``TOKEN_SHOWN`` characters."""
    return repr(token) if len(token) <= TOKEN_SHOWN else repr(token[:TOKEN_SHOWN]) + "…"


class RecordError(TarotError):
    """A record that cannot be read or breaks a rule; the message names the line, the token and the rule."""

    def __init__(self, message: str, line: int | None = None, token: str | None = None, source: str = ""):
        self.line, self.token, self.source, self.reason = line, token, source, message
        where = []
        if source:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        prefix = ":".join(where)
        if token is not None:
            prefix = f"{prefix} {shown_token(token)}" if prefix else shown_token(token)
        super().__init__(f"{prefix}: {message}" if prefix else message)


BIDDING_TAG = "Bidding"                     # the tag naming the bidding model that bid the auction
BIDDING_MODELS = ("chavey", "tarotclub")    # the models it may name (``analyzer.baselines.METHODS``)

@dataclass
class Record:
    """One deal record.  Fields hold what was written; ``replay`` checks it and derives the rest.

    ``hands`` maps seat (0-based) to the hand as dealt, for the seats the record gives; ``auction`` is
    one token per seat from seat 1 (``pass``, a contract token, or ``?`` for a bid not recorded);
    ``call`` the called card (``UNKNOWN_CARD`` when not recorded: the partner then stays unknown);
    ``chelem`` is None, ``"chelem"`` or ``"petit-chelem"``; ``poignees`` are (seat, mask of the cards
    shown); ``miseres`` (seat, ``trumps``/``honours``); ``tricks`` the cards of each trick in play
    order from its leader (the last one may be incomplete); ``result`` the fields of the ``Result``
    tag as written (see ``analyzer.records.result``)."""

    players: int
    variants: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    hands: dict[int, int] = field(default_factory=dict)
    chien: int | None = None
    auction: list[str] | None = None
    call: int | None = None
    discard: int | None = None
    chelem: str | None = None
    poignees: list[tuple[int, int]] = field(default_factory=list)
    miseres: list[tuple[int, str]] = field(default_factory=list)
    tricks: list[list[int]] | None = None
    result: dict | None = None
    # Where each part was written (line numbers for errors) and the leaders written as ``SEAT:``
    # prefixes: not part of the record's content.
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    leaders: list[int | None] = field(default_factory=list, compare=False, repr=False)
    source: str = field(default="", compare=False, repr=False)

    @property
    def bidding_model(self) -> str | None:
        """The bidding model that bid this record's auction exactly, when its ``Bidding`` tag names one
        (``play`` writes it); None for players at a table."""
        named = self.tags.get(BIDDING_TAG, "").strip().lower()
        return named if named in BIDDING_MODELS else None

    # ---- rules and replay ---------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return Rules.from_options(self.players, [f"{k}={v}" for k, v in self.variants.items()])

    @cached_property
    def replay(self) -> "Replay":
        """The checked replay (raises ``RecordError`` on the first rule broken).  Computed once: to change
        a checked record, make a new one (``dataclasses.replace``)."""
        start = self.lines.get("start")            # where a text record starts (None for JSON)
        try:
            return IMPLEMENTATIONS["replay"](self)
        except RecordError as exc:
            if exc.line is not None or start is None:
                raise
            raise RecordError(f"{exc.reason} (in the record that starts on line {start})", start, exc.token,
                              exc.source or self.source) from None
        except TarotError as exc:       # a rule the replay did not name (a hand it inferred of the wrong size …)
            where = "" if start is None else f" (in the record that starts on line {start})"
            raise RecordError(f"{exc}{where}", start, getattr(exc, "token", None), self.source) from None

    def check(self) -> "Record":
        """Replay and check the record (``RecordError`` on the first problem); returns it."""
        _ = self.replay
        return self

    @property
    def complete_deal(self) -> bool:
        """Whether every hand and the chien are known (given or determined by the rest)."""
        return self.replay.game.complete

    @property
    def dealt(self) -> list[int | None]:
        """Each seat's hand as dealt (a mask), None where the record does not determine it."""
        return list(self.replay.dealt)

    @property
    def dealt_chien(self) -> int | None:
        return self.replay.chien

    @property
    def known_seats(self) -> list[int]:
        """Seats whose hand is known: the seats the record can be analysed from."""
        return [s for s, h in enumerate(self.replay.dealt) if h is not None]

    @property
    def game(self) -> "Game":
        """The reference engine's game at the end of the record (every hand must be known)."""
        return self.replay.position(None)

    def position(self, actions: int) -> "Game":
        """The game after the first ``actions`` actions (bids, call, discard, declarations, cards)."""
        return self.replay.position(actions)

    def decisions(self) -> Iterator["Decision"]:
        """Every decision in order, with the seat, the phase and what that seat knew then."""
        return iter(self.replay.decisions)

    def computed_result(self) -> dict | None:
        """The result computed from the play (None until the deal is over)."""
        return self.replay.result

    # ---- formats ------------------------------------------------------------------------------
    def to_text(self) -> str:
        return IMPLEMENTATIONS["format_record"](self)

    def to_json(self) -> dict:
        return IMPLEMENTATIONS["record_to_json"](self)

    @classmethod
    def from_json(cls, obj: dict, source: str = "") -> "Record":
        return IMPLEMENTATIONS["record_from_json"](obj, source)

    @classmethod
    def from_text(cls, text: str, source: str = "") -> "Record":
        records = IMPLEMENTATIONS["parse_records"](text, source)
        if len(records) != 1:
            raise RecordError(f"expected one record, found {len(records)}", source=source)
        return records[0]


@dataclass(frozen=True)
class Decision:
    """One decision of a record: ``index`` actions were made before it (``Record.position(index)``
    is the game it was made in, for complete deals).

    ``phase`` is one of bid, call, discard, chelem, poignee, misere, card; ``action`` the choice as
    written in records (a bid token, a card, the discarded cards, ``announced``/``none``, the
    poignée's cards or ``none``, the misère kind or ``none``).  What the seat knew: ``hand``, its
    cards at that moment (with the chien at the discard; None if the record does not know them),
    the public actions before it (the earlier decisions), and for cards ``view``, its full
    information set (``analyzer.knowledge.SeatView``)."""

    index: int
    seat: int
    phase: str
    action: str
    line: int | None
    hand: int | None
    view: "SeatView | None" = None
