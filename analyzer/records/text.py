"""The text form of deal records: tag pairs, then a ``[Play]`` section with one trick per line.

Reading is strict and names the line and the token of every problem (unknown tag value, bad card,
wrong number of cards, a card given twice).  Several records may follow each other in one text: a
record ends where a blank line is followed by a new tag section, where a tag comes after the
``[Play]`` section (``Result`` excepted), or where a tag is given twice.  Lines starting with ``#``
are comments.  Writing gives the canonical form (tags in a fixed order, cards in the printed order,
each trick line prefixed by its leader's seat).
"""

from __future__ import annotations

import re

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.notation import format_cards, parse_card, parse_cards, split_tokens
from analyzer.records.record import BID_TOKENS, BIDDING_MODELS, BIDDING_TAG, UNKNOWN_BID, UNKNOWN_CARD, Record, RecordError
from analyzer.records.result import format_result, parse_result
from analyzer.rules import CHIEN_SIZE, HAND_SIZE, VARIANTS, Contract

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]++|\\.)*+)"\s*\]$')   # possessive: no backtracking
_PLAY = re.compile(r"^\[\s*play\s*\]$", re.I)
_LEADER = re.compile(r"^([0-9]+)\s*:\s*(.*)$", re.S)          # ASCII digits only: a full-width 1 is not a seat
_SEAT_ENTRY = re.compile(r"^\s*([0-9]+)\s*:\s*(.*)$", re.S)
_SEAT_TAG = re.compile(r"(hand|seat)([0-9]+)", re.I)
KNOWN_TAGS = ("Players", "Variants", "Chien", "Auction", "Call", "Discard", "Chelem", "Poignee", "Misere", "Result")
REPEATABLE = ("Poignee", "Misere")
FREE_FIRST = ("Event", "Site", "Date")
CHECKED_TAGS = (BIDDING_TAG,)     # kept with the free tags, but their values are checked

# What one record may hold: a complete record is about 1,500 characters, its longest tag (a hand) about 60.
MAX_TAG_CHARS = 10_000            # a tag value, or a line of tricks
MAX_RECORD_CHARS = 1_000_000      # the text of one record (its tags and tricks)
_MAX_LINE_CHARS = MAX_TAG_CHARS + 200


def canonical_tag(name: str) -> str:
    """Known tag names are matched case-insensitively, ``HandN`` and ``SeatN`` too (any number: a seat out
    of 1…P is an error, not a free tag); other names are free tags, kept as written."""
    low = name.lower()
    for known in KNOWN_TAGS + CHECKED_TAGS:
        if known.lower() == low:
            return known
    m = _SEAT_TAG.fullmatch(name)
    if m:
        return m.group(1).capitalize() + str(seat_number(m.group(2)))
    return name


def seat_number(digits: str) -> int:
    """A seat written in ASCII digits (``01`` is seat 1); absurdly long numbers are just out of range."""
    return int(digits) if len(digits) <= 6 else 10 ** 6


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value, flags=re.S)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def parse_records(text: str, source: str = "") -> list[Record]:
    """Every record of a text, in order (``RecordError`` on the first problem).  Linear in the text's
    length; a line longer than a tag may be, or a record longer than ``MAX_RECORD_CHARS``, is an error."""
    chunks: list[dict] = []
    current: dict | None = None
    blank_before = False
    for number, raw in enumerate(text.split("\n"), start=1):      # not splitlines: tag values may hold U+2028
        line = raw.strip().lstrip("\ufeff")                        # a byte-order mark (files joined with cat)
        if not line:
            blank_before = True
            continue
        if line.startswith("#"):
            continue
        if len(line) > _MAX_LINE_CHARS:
            raise RecordError(f"a line of {len(line):,} characters: a tag value or a trick line holds at most "
                              f"{MAX_TAG_CHARS:,}", number, line, source)
        tag = _TAG.match(line)
        if tag:
            name = canonical_tag(tag.group(1))
            if len(tag.group(2)) > MAX_TAG_CHARS:
                raise RecordError(f"the {name} tag's value has {len(tag.group(2)):,} characters, at most "
                                  f"{MAX_TAG_CHARS:,}", number, tag.group(2), source)
            if current is None or _starts_new_record(current, name, blank_before):
                current = {"tags": [], "names": set(), "play": None, "start": number, "play_closed": False,
                           "chars": 0}
                chunks.append(current)
            current["tags"].append((name, _unescape(tag.group(2)), number))
            current["names"].add(name)
            current["play_closed"] = current["play"] is not None
        elif _PLAY.match(line):
            if current is None:
                raise RecordError("[Play] before any tag: a record starts with its tags", number, line, source)
            if current["play"] is not None:
                raise RecordError("a second [Play] section in one record", number, line, source)
            current["play"] = []
        elif current is not None and current["play"] is not None and not current["play_closed"]:
            current["play"].append((line, number))
        else:
            raise RecordError('expected a tag pair [Name "value"] or [Play]', number, line, source)
        current["chars"] += len(line) + 1
        if current["chars"] > MAX_RECORD_CHARS:
            raise RecordError(f"the record that starts on line {current['start']} is longer than "
                              f"{MAX_RECORD_CHARS:,} characters", number, line, source)
        blank_before = False
    return [_build(chunk, source) for chunk in chunks]


def _has_tag(chunk: dict, name: str) -> bool:
    return name in chunk["names"]


def _starts_new_record(chunk: dict, name: str, blank_before: bool) -> bool:
    if name == "Result" and not _has_tag(chunk, "Result"):
        return False
    if chunk["play"] is not None or _has_tag(chunk, "Result"):
        return True
    if name not in REPEATABLE and _has_tag(chunk, name):
        return True
    return blank_before and _has_tag(chunk, "Players")


def _build(chunk: dict, source: str) -> Record:
    tags = chunk["tags"]
    players_tags = [(v, n) for name, v, n in tags if name == "Players"]
    if not players_tags:
        raise RecordError("the record has no Players tag (3, 4 or 5)", chunk["start"], None, source)
    value, number = players_tags[0]
    if value.strip() not in ("3", "4", "5"):
        raise RecordError("Players must be 3, 4 or 5", number, value, source)
    players = int(value)
    rec = Record(players=players, source=source)
    rec.lines["Players"] = number
    rec.lines["start"] = chunk["start"]
    for name, value, number in tags:
        try:
            _apply_tag(rec, name, value, number)
        except RecordError:
            raise
        except TarotError as exc:
            raise RecordError(f"{name}: {exc}", number, value, source) from None
    if chunk["play"] is not None:
        rec.tricks = []
        rec.lines["Play"] = []
        for line, number in chunk["play"]:
            leader, cards_text = None, line
            m = _LEADER.match(line)
            if m:
                leader, cards_text = seat_number(m.group(1)), m.group(2)
                if not 1 <= leader <= players:
                    raise RecordError(f"no seat {m.group(1)} at {players} players (seats are 1 to {players})",
                                      number, m.group(1), source)
            trick = []
            for tok in split_tokens(cards_text):
                try:
                    trick.append(parse_card(tok))
                except TarotError as exc:
                    raise RecordError(f"trick {len(rec.tricks) + 1}: {exc}", number, tok, source) from None
            if not trick:
                raise RecordError("a trick line without cards", number, line, source)
            if len(trick) > players:
                raise RecordError(f"trick {len(rec.tricks) + 1} has {len(trick)} cards at {players} players",
                                  number, split_tokens(cards_text)[players], source)
            rec.tricks.append(trick)
            rec.leaders.append(None if leader is None else leader - 1)
            rec.lines["Play"].append(number)
    return rec


def _cards(value: str, what: str, expected: int | None, players: int, number: int, source: str) -> int:
    try:
        ids = parse_cards(value)
    except TarotError as exc:
        raise RecordError(f"{what}: {exc}", number, getattr(exc, "token", value), source) from None
    if expected is not None and len(ids) != expected:
        raise RecordError(f"{what} has {len(ids)} cards, expected {expected} at {players} players",
                          number, value, source)
    return C.mask_of(ids)


def _seat_entry(value: str, players: int, name: str, number: int, source: str) -> tuple[int, str]:
    m = _SEAT_ENTRY.match(value)
    if not m:
        raise RecordError(f"{name} is written SEAT: …", number, value, source)
    seat = seat_number(m.group(1))
    if not 1 <= seat <= players:
        raise RecordError(f"{name}: no seat {m.group(1)} at {players} players (seats are 1 to {players})", number,
                          m.group(1), source)
    return seat - 1, m.group(2).strip()


def _apply_tag(rec: Record, name: str, value: str, number: int) -> None:
    P, src = rec.players, rec.source
    if name == "Players":
        return
    if name == "Variants":
        if not value.strip():
            raise RecordError("Variants is empty: leave the tag out for the FFT rules, or write NAME=VALUE, …",
                              number, value, src)
        for item in [v.strip() for v in value.split(",")]:
            if not item:
                raise RecordError("Variants has an empty item: NAME=VALUE items separated by single commas",
                                  number, value, src)
            key, sep, val = item.partition("=")
            key, val = key.strip().lower(), val.strip().lower()
            if not sep or key not in VARIANTS:
                raise RecordError(f"unknown variant (known: {', '.join(VARIANTS)})", number, item, src)
            rec.variants[key] = val
        _ = rec.rules                                   # validates the values
    elif re.fullmatch(r"Hand[0-9]+", name):
        seat = int(name[4:])
        if not 1 <= seat <= P:
            raise RecordError(f"no seat {seat} at {P} players: seats are 1 to {P}", number, name, src)
        rec.hands[seat - 1] = _cards(value, f"seat {seat}'s hand", HAND_SIZE[P], P, number, src)
    elif name == "Chien":
        rec.chien = _cards(value, "the chien", CHIEN_SIZE[P], P, number, src)
    elif name == "Auction":
        rec.auction = []
        for tok in split_tokens(value):
            rec.auction.append(_bid_token(tok, number, src))
        if len(rec.auction) > P:
            raise RecordError(f"the auction has {len(rec.auction)} bids at {P} players (one round only)",
                              number, split_tokens(value)[P], src)
    elif name == "Call":
        if P != 5:
            raise RecordError(f"a card is called only at 5 players, not {P}", number, value, src)
        tokens = split_tokens(value)
        if len(tokens) != 1:
            raise RecordError("Call names one card (or ? when it was not recorded)", number, value, src)
        rec.call = UNKNOWN_CARD if tokens[0] == "?" else parse_card(tokens[0])
    elif name == "Discard":
        rec.discard = _cards(value, "the discard", CHIEN_SIZE[P], P, number, src)
    elif name == "Chelem":
        key = value.strip().lower()
        if key not in ("announced", "petit-chelem"):
            raise RecordError("Chelem is 'announced' (or 'petit-chelem' under that variant)", number, value, src)
        rec.chelem = "chelem" if key == "announced" else "petit-chelem"
    elif name == "Poignee":
        seat, cards_text = _seat_entry(value, P, "Poignee", number, src)
        rec.poignees.append((seat, _cards(cards_text, "the poignée", None, P, number, src)))
        rec.lines.setdefault("Poignee", []).append(number)
        return
    elif name == "Misere":
        seat, kind = _seat_entry(value, P, "Misere", number, src)
        if kind.lower() not in ("trumps", "honours"):
            raise RecordError("a misère is 'trumps' or 'honours'", number, kind, src)
        rec.miseres.append((seat, kind.lower()))
        rec.lines.setdefault("Misere", []).append(number)
        return
    elif name == "Result":
        rec.result = parse_result(value, P, number, src)
    elif name == BIDDING_TAG:
        model = value.strip().lower()
        if model not in BIDDING_MODELS:
            raise RecordError(f"{BIDDING_TAG} names the bidding model that bid the auction: "
                              f"{' or '.join(BIDDING_MODELS)}", number, value, src)
        rec.tags[name] = model
    else:
        m = re.fullmatch(r"Seat([0-9]+)", name)
        if m and not 1 <= int(m.group(1)) <= P:
            raise RecordError(f"no seat {m.group(1)} at {P} players: seats are 1 to {P}", number, name, src)
        rec.tags[name] = value
    rec.lines[name] = number


def _bid_token(tok: str, number: int, source: str) -> str:
    low = tok.strip().lower()
    if low in (UNKNOWN_BID, "pass", "passe"):
        return "pass" if low != UNKNOWN_BID else UNKNOWN_BID
    try:
        return Contract.parse(low).token
    except TarotError:
        raise RecordError(f"unknown bid (expected one of: {', '.join(BID_TOKENS)}, or ? for a bid not recorded)",
                          number, tok, source) from None


# ---- writing ----------------------------------------------------------------------------------
def format_record(rec: Record) -> str:
    """The canonical text of a record (the leader of each trick is written from the replay when the
    record is valid)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in _free_tags_in_order(rec.tags)]
    lines.append(f'[Players "{rec.players}"]')
    if rec.variants:
        lines.append(f'[Variants "{", ".join(f"{k}={v}" for k, v in rec.variants.items())}"]')
    for seat in sorted(rec.hands):
        lines.append(f'[Hand{seat + 1} "{format_cards(rec.hands[seat])}"]')
    if rec.chien is not None:
        lines.append(f'[Chien "{format_cards(rec.chien)}"]')
    if rec.auction is not None:
        lines.append(f'[Auction "{" ".join(rec.auction)}"]')
    if rec.call is not None:
        lines.append(f'[Call "{"?" if rec.call == UNKNOWN_CARD else C.TOKENS[rec.call]}"]')
    if rec.discard is not None:
        lines.append(f'[Discard "{format_cards(rec.discard)}"]')
    if rec.chelem is not None:
        lines.append(f'[Chelem "{"announced" if rec.chelem == "chelem" else rec.chelem}"]')
    for seat, shown in rec.poignees:
        lines.append(f'[Poignee "{seat + 1}: {format_cards(shown)}"]')
    for seat, kind in rec.miseres:
        lines.append(f'[Misere "{seat + 1}: {kind}"]')
    if rec.tricks is not None:
        lines.append("[Play]")
        leaders = _leaders(rec)
        for i, trick in enumerate(rec.tricks):
            prefix = f"{leaders[i] + 1}: " if i < len(leaders) and leaders[i] is not None else ""
            lines.append(prefix + " ".join(C.TOKENS[c] for c in trick))
    if rec.result is not None:
        lines.append(f'[Result "{format_result(rec.result)}"]')
    return "\n".join(lines) + "\n"


def _free_tags_in_order(tags: dict[str, str]) -> list[tuple[str, str]]:
    first = [(k, tags[k]) for k in FREE_FIRST if k in tags]
    return first + [(k, v) for k, v in tags.items() if k not in FREE_FIRST]


def _leaders(rec: Record) -> list[int | None]:
    """Each trick's leader: from the replay when the record is valid, else as written."""
    try:
        return rec.replay.leaders
    except TarotError:
        return rec.leaders


def format_records(records: list[Record]) -> str:
    return "\n".join(r.to_text() for r in records)
