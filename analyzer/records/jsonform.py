"""The JSON twin of the text form: one object per record, converting both ways without loss.

``{"players": 4, "variants": {"petit-au-bout": "flat"}, "tags": {"Event": "…"}, "hands": {"1": "…"},
"chien": "…", "auction": ["pass", "garde", "pass", "pass"], "call": null, "discard": "…",
"chelem": false, "poignees": [{"seat": 3, "cards": "…"}], "miseres": [{"seat": 2, "kind": "trumps"}],
"tricks": [["KS", "2S", "7S", "10S"], …], "result": {…}}``.  Cards are written in the notation;
a part the record leaves out is null (``hands`` holds only the seats given, ``tricks`` is null when
there is no play section).  Reading a JSON record checks it exactly as the text reader does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer import cards as C
from analyzer.notation import format_cards
from analyzer.records.record import UNKNOWN_CARD, Record, RecordError
from analyzer.records.result import result_from_json
from analyzer.records.text import KNOWN_TAGS, canonical_tag, format_record, parse_records

KEYS = ("players", "variants", "tags", "hands", "chien", "auction", "call", "discard", "chelem", "poignees",
        "miseres", "tricks", "result")


def record_to_json(rec: Record) -> dict:
    return {
        "players": rec.players,
        "variants": dict(rec.variants),
        "tags": dict(rec.tags),
        "hands": {str(s + 1): format_cards(rec.hands[s]) for s in sorted(rec.hands)},
        "chien": None if rec.chien is None else format_cards(rec.chien),
        "auction": None if rec.auction is None else list(rec.auction),
        "call": None if rec.call is None else "?" if rec.call == UNKNOWN_CARD else C.TOKENS[rec.call],
        "discard": None if rec.discard is None else format_cards(rec.discard),
        "chelem": {None: False, "chelem": True}.get(rec.chelem, rec.chelem),
        "poignees": [{"seat": s + 1, "cards": format_cards(m)} for s, m in rec.poignees],
        "miseres": [{"seat": s + 1, "kind": k} for s, k in rec.miseres],
        "tricks": None if rec.tricks is None else [[C.TOKENS[c] for c in t] for t in rec.tricks],
        "result": None if rec.result is None else dict(rec.result),
    }


def _quote(value: str) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


MAX_FILE_BYTES = 256 * 1024 * 1024     # a file of records: about 200,000 simulated deals
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_TOKEN = re.compile(r'[^\s:#\[\]"]+')     # a bid or a card: one token, nothing the text form reads otherwise


def _bad(key: str, what: str, source: str) -> RecordError:
    shown = key if len(key) <= 40 else key[:40] + "…"
    return RecordError(f"JSON key {shown}: {what}", None, key, source)


def _text(value, key: str, source: str, numbers: bool = False) -> str:
    """A JSON value written into a text tag: a string on one line (or a whole number where ``numbers``)."""
    if numbers and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise _bad(key, f"expected {'a number or ' if numbers else ''}a string, not {type(value).__name__}", source)
    if "\n" in value:
        raise _bad(key, "a value on one line (no line break)", source)
    return value


def _seat(value, key: str, source: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(key, f"a seat is a whole number, not {value!r:.30}", source)
    return str(value)


def _tokens(value, key: str, source: str, empty: bool = False) -> str:
    if not isinstance(value, list) or not (value or empty):
        raise _bad(key, "expected a non-empty list of tokens", source)
    for tok in value:
        if not isinstance(tok, str) or not _TOKEN.fullmatch(tok):
            raise _bad(key, f"{tok!r:.30} is not one card or bid token", source)
    return " ".join(value)


def _entries(value, key: str, fields: tuple[str, str], source: str) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(e, dict) and set(e) == set(fields) for e in value):
        raise _bad(key, f"expected a list of objects with keys {' and '.join(fields)}", source)
    return value


def record_from_json(obj: dict, source: str = "") -> Record:
    """A record from its JSON object: written as text tags and read by the text reader, so both forms
    go through the same checks and give the same errors.  Each key's value is checked for its JSON type
    first; an error names the key."""
    if not isinstance(obj, dict):
        raise RecordError("a JSON record is an object", source=source)
    unknown = set(obj) - set(KEYS)
    if unknown:
        raise RecordError(f"unknown key (known: {', '.join(KEYS)})", None, sorted(unknown)[0], source)
    if "players" not in obj:
        raise RecordError("the record has no 'players'", None, "players", source)
    players = _text(obj["players"], "players", source, numbers=True)
    lines = []
    tags = {} if obj.get("tags") is None else obj["tags"]
    if not isinstance(tags, dict):
        raise _bad("tags", "expected an object of free tags", source)
    for name, value in tags.items():
        key = f"tags.{name}"
        if not _TAG_NAME.fullmatch(name):
            raise _bad(key, "a tag name is a letter then letters, digits, - or _", source)
        canonical = canonical_tag(name)
        if canonical in KNOWN_TAGS or canonical.startswith("Hand") and canonical[4:].isdigit():
            raise _bad(key, f"{canonical} is not a free tag: it has its own key", source)
        lines.append(f"[{name} {_quote(_text(value, key, source))}]")
    lines.append(f"[Players {_quote(players)}]")
    variants = obj.get("variants")
    if variants is not None and not isinstance(variants, dict):
        raise _bad("variants", "expected an object of NAME: VALUE", source)
    if variants:
        items = []
        for name, value in variants.items():
            value = _text(value, f"variants.{name}", source)
            if not name.strip() or not value.strip() or any(ch in name + value for ch in ",="):
                raise _bad(f"variants.{name}", f"not a variant NAME: VALUE ({value!r:.30})", source)
            items.append(f"{name}={value}")
        lines.append(f"[Variants {_quote(', '.join(items))}]")
    hands = {} if obj.get("hands") is None else obj["hands"]
    if not isinstance(hands, dict):
        raise _bad("hands", "expected an object of SEAT: CARDS", source)
    for seat, cards in hands.items():
        if not re.fullmatch(r"[0-9]{1,3}", seat) or not 1 <= int(seat) <= 5:
            raise _bad(f"hands.{seat}", "a hand's key is its seat, 1 to the number of players", source)
        lines.append(f"[Hand{seat} {_quote(_text(cards, f'hands.{seat}', source))}]")
    for key, tag in (("chien", "Chien"), ("call", "Call"), ("discard", "Discard")):
        if obj.get(key) is not None:
            lines.append(f"[{tag} {_quote(_text(obj[key], key, source))}]")
    if obj.get("auction") is not None:
        lines.append(f"[Auction {_quote(_tokens(obj['auction'], 'auction', source, empty=True))}]")
    chelem = obj.get("chelem")
    if chelem is not None and chelem is not False:
        if chelem is not True and not isinstance(chelem, str):
            raise _bad("chelem", "expected true, false or a kind of chelem", source)
        lines.append(f"[Chelem {_quote('announced' if chelem is True else _text(chelem, 'chelem', source))}]")
    for p in _entries([] if obj.get("poignees") is None else obj["poignees"], "poignees", ("seat", "cards"), source):
        entry = _seat(p["seat"], "poignees", source) + ": " + _text(p["cards"], "poignees", source)
        lines.append(f"[Poignee {_quote(entry)}]")
    for m in _entries([] if obj.get("miseres") is None else obj["miseres"], "miseres", ("seat", "kind"), source):
        entry = _seat(m["seat"], "miseres", source) + ": " + _text(m["kind"], "miseres", source)
        lines.append(f"[Misere {_quote(entry)}]")
    tricks = obj.get("tricks")
    if tricks is not None:
        if not isinstance(tricks, list):
            raise _bad("tricks", "expected a list of tricks, each a list of cards", source)
        lines.append("[Play]")
        lines += [_tokens(trick, f"tricks[{i}]", source) for i, trick in enumerate(tricks)]
    try:
        records = parse_records("\n".join(lines) + "\n", source)
    except RecordError as exc:       # the lines of a text written on the fly mean nothing to the reader
        raise RecordError(exc.reason, None, exc.token, source) from None
    if len(records) != 1:
        raise RecordError(f"one JSON object gave {len(records)} records", source=source)
    rec = records[0]
    if obj.get("result") is not None:
        rec.result = result_from_json(obj["result"], rec.players, source)
    rec.lines = {}
    return rec


def load_records(path: str | Path) -> list[Record]:
    """Every record of a file: the text form, or JSON (one object or a list) when it starts with ``{`` or ``[{``.
    UTF-8, with or without a byte-order mark; at most ``MAX_FILE_BYTES``."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RecordError(f"the file has {size:,} bytes, more than the {MAX_FILE_BYTES:,} a file of records may "
                              "hold: split it", source=str(path))
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise not_utf8(raw, exc, str(path), "records are UTF-8 text or JSON") from None
    return parse_any(text, str(path))


def not_utf8(raw: bytes, exc: UnicodeDecodeError, source: str, what: str) -> RecordError:
    """The error for bytes that are not UTF-8: the line they stand on and the bytes themselves."""
    line = raw[:exc.start].count(b"\n") + 1
    return RecordError(f"not UTF-8 text (byte {exc.start:,} of the file): {what}", line,
                       repr(raw[exc.start:exc.end]), source)


def load_json(text: str, source: str = "") -> object:
    """``json.loads``, its failures one ``RecordError`` naming the line and the text where it failed."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"invalid JSON: {exc.msg} (column {exc.colno})", exc.lineno,
                          text[exc.pos:exc.pos + 12].split("\n")[0], source) from None
    except ValueError:                       # Python's limit on the digits of an integer
        long = re.search(r"[0-9]{1000,}", text)
        at = long.start() if long else 0
        digits = f"{len(long.group()):,}" if long else "too many"
        raise RecordError(f"invalid JSON: a number of {digits} digits",
                          text[:at].count("\n") + 1, text[at:at + 12], source) from None
    except RecursionError:
        raise RecordError("invalid JSON: nested too deep", 1, text.lstrip()[:12], source) from None


def parse_any(text: str, source: str = "") -> list[Record]:
    text = text.removeprefix("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("{") or (stripped.startswith("[") and stripped[1:].lstrip().startswith(("{", "]"))):
        data = load_json(text, source)
        items = data if isinstance(data, list) else [data]
        return [record_from_json(item, source) for item in items]
    return parse_records(text, source)


def records_to_json(records: list[Record]) -> list[dict]:
    return [r.to_json() for r in records]


def records_to_text(records: list[Record]) -> str:
    return "\n".join(format_record(r) for r in records)
