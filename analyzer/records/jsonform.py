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
from pathlib import Path

from analyzer import cards as C
from analyzer.notation import format_cards
from analyzer.records.record import UNKNOWN_CARD, Record, RecordError
from analyzer.records.result import result_from_json
from analyzer.records.text import format_record, parse_records

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


def record_from_json(obj: dict, source: str = "") -> Record:
    """A record from its JSON object: written as text tags and read by the text reader, so both forms
    go through the same checks and give the same errors."""
    if not isinstance(obj, dict):
        raise RecordError("a JSON record is an object", source=source)
    unknown = set(obj) - set(KEYS)
    if unknown:
        raise RecordError(f"unknown key (known: {', '.join(KEYS)})", None, sorted(unknown)[0], source)
    if "players" not in obj:
        raise RecordError("the record has no 'players'", source=source)
    try:
        lines = [f"[{name} {_quote(value)}]" for name, value in (obj.get("tags") or {}).items()]
        lines.append(f"[Players {_quote(obj['players'])}]")
        if obj.get("variants"):
            lines.append(f"[Variants {_quote(', '.join(f'{k}={v}' for k, v in obj['variants'].items()))}]")
        for seat, cards in (obj.get("hands") or {}).items():
            lines.append(f"[Hand{seat} {_quote(cards)}]")
        for key, tag in (("chien", "Chien"), ("call", "Call"), ("discard", "Discard")):
            if obj.get(key) is not None:
                lines.append(f"[{tag} {_quote(obj[key])}]")
        if obj.get("auction") is not None:
            lines.append(f"[Auction {_quote(' '.join(obj['auction']))}]")
        chelem = obj.get("chelem")
        if chelem:
            lines.append(f"[Chelem {_quote('announced' if chelem is True else chelem)}]")
        for p in obj.get("poignees") or []:
            lines.append(f"[Poignee {_quote(str(p['seat']) + ': ' + p['cards'])}]")
        for m in obj.get("miseres") or []:
            lines.append(f"[Misere {_quote(str(m['seat']) + ': ' + m['kind'])}]")
        if obj.get("tricks") is not None:
            lines.append("[Play]")
            lines += [" ".join(trick) for trick in obj["tricks"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise RecordError(f"malformed JSON record ({exc})", source=source) from None
    rec = parse_records("\n".join(lines) + "\n", source)[0]
    if obj.get("result") is not None:
        rec.result = result_from_json(obj["result"], rec.players, source)
    rec.lines = {}          # the lines of a text written on the fly mean nothing to the reader
    return rec


def load_records(path: str | Path) -> list[Record]:
    """Every record of a file: the text form, or JSON (one object or a list) when it starts with ``{`` or ``[{``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text (byte {exc.start}): records are UTF-8 text or JSON",
                          source=str(path)) from None
    return parse_any(text, str(path))


def parse_any(text: str, source: str = "") -> list[Record]:
    stripped = text.lstrip()
    if stripped.startswith("{") or (stripped.startswith("[") and stripped[1:].lstrip().startswith(("{", "]"))):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"invalid JSON: {exc.msg}", exc.lineno, None, source) from None
        items = data if isinstance(data, list) else [data]
        return [record_from_json(item, source) for item in items]
    return parse_records(text, source)


def records_to_json(records: list[Record]) -> list[dict]:
    return [r.to_json() for r in records]


def records_to_text(records: list[Record]) -> str:
    return "\n".join(format_record(r) for r in records)
