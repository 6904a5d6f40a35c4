"""Record fuzzing: the repository's records (text and JSON) mutated at random (tokens dropped,
duplicated, swapped or renamed, seats out of range, files cut short, bytes changed, JSON values replaced)
always read as records that round-trip (text and JSON) or fail with one ``RecordError`` line naming
where (the line, or the JSON key) and what; never any other exception.  Plain Python: no kernel."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.records import RecordError, load_records, parse_any, records_to_json, records_to_text
from analyzer.records.tarotclub import tarotclub_record

ROOT = Path(__file__).resolve().parents[2]
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "data" / "records").glob("*.txt"))}
JSONS = {name: json.dumps(records_to_json(parse_any(text)), ensure_ascii=False, indent=1)
         for name, text in TEXTS.items()}
TAROTCLUB = json.loads((ROOT / "data" / "tarotclub-deal.json").read_text(encoding="utf-8"))
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_PIECES = re.compile(r"\s+|[^\s\"\[\]:;,=]+|.", re.S)          # whitespace, words, and each punctuation mark
ODD_TOKENS = ["0", "6", "9", "-1", "10", "01", "\uff11", "\uff14", "99999999999999999999", "1" * 5000, "", " ",
              "\ufeff", "[", "]", '"', "\\", "\\\"", "#", ":", ";", ",", "=", "?", "nan", "inf", "1e400", "-0",
              "Infinity", "Hand0", "Hand5", "Seat0", "Seat9", "Play", "Players", "Result", "Variants", "EX", "KH",
              "21", "1", "pass", "garde", "taker", "made", "by", "scores", "\u2028", "\x00", "é", "♠", "x" * 20_000]


NUMBERS = ["0", "6", "-1", "1e400", "inf", "nan", "Infinity", "\uff11", "\uff14", "1_0", "01", "4.5", "1e5",
           "99999999999999999999", "9" * 5000]


def pieces(text: str) -> list[str]:
    return _PIECES.findall(text)


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with one to four token-level mutations, then maybe cut short."""
    parts = pieces(text)
    words = [i for i, p in enumerate(parts) if not p.isspace()]
    for _ in range(draw(st.integers(1, 4))):
        if not words:
            break
        i = draw(st.sampled_from(words))
        kind = draw(st.sampled_from(["drop", "duplicate", "swap", "rename", "rename", "seat", "number", "newline"]))
        if kind == "drop":
            parts[i] = ""
        elif kind == "duplicate":
            parts[i] = parts[i] + draw(st.sampled_from([" ", "", "\n"])) + parts[i]
        elif kind == "swap":
            j = draw(st.sampled_from(words))
            parts[i], parts[j] = parts[j], parts[i]
        elif kind == "rename":
            parts[i] = draw(st.one_of(st.sampled_from(ODD_TOKENS), st.sampled_from([parts[k] for k in words]),
                                      st.text(max_size=6)))
        elif kind == "seat":
            parts[i] = str(draw(st.integers(-2, 7)))
        elif kind == "number":
            numbers = [k for k in words if parts[k].isdigit()] or words
            parts[draw(st.sampled_from(numbers))] = draw(st.sampled_from(NUMBERS))
        else:
            parts[i] = parts[i] + "\n"
    out = "".join(parts)
    if draw(st.booleans()):
        out = out[:draw(st.integers(0, len(out)))]
    return out


def assert_round_trips_or_one_line(read, json_form: bool = False) -> None:
    """``read()`` gives records that check and round-trip, or raises one well-formed ``RecordError``."""
    try:
        records = read()
        for rec in records:
            rec.check()
    except RecordError as exc:
        message = str(exc)
        assert message.strip() and "\n" not in message and "\r" not in message, repr(message)
        assert len(message) < 600, message
        if json_form:
            assert exc.line is not None or exc.token is not None, message          # a line, or the key
        else:
            assert exc.line is not None and f"line {exc.line}" in message, message
        return
    for rec in records:                  # seats are 1…P: never a hand or a seat kept as a free tag
        for name in rec.tags:
            m = re.fullmatch(r"(hand|seat)([0-9]+)", name, re.I)
            assert not m or m.group(1) == "Seat" and 1 <= int(m.group(2)) <= rec.players, name
    again = parse_any(records_to_text(records))
    assert again == records
    for rec in again:
        rec.check()
    as_json = json.dumps(records_to_json(records), ensure_ascii=False)
    assert parse_any(as_json) == records


@FUZZ
@given(st.sampled_from(sorted(TEXTS)).flatmap(lambda name: mutated(TEXTS[name])))
def test_mutated_text_records(text):
    assert_round_trips_or_one_line(lambda: parse_any(text, "fuzz.txt"))


@FUZZ
@given(st.sampled_from(sorted(JSONS)).flatmap(lambda name: mutated(JSONS[name])))
def test_mutated_json_text(text):
    assert_round_trips_or_one_line(lambda: parse_any(text, "fuzz.json"), json_form=True)


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 7), st.sampled_from([1e400, -1e400, 0.5, 10 ** 30]),
                        st.sampled_from(["", "0", "\uff11", "KH", "1: 21", "x\ny", "garde", "?", "a=b", "Hand0"]),
                        st.lists(st.sampled_from(["KH", "pass", "1", "", "1:", 3]), max_size=3),
                        st.dictionaries(st.sampled_from(["0", "1", "5", "seat", "cards", "kind", "Event", "Players"]),
                                        st.sampled_from(["KH", 1, None, ""]), max_size=2))


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


@st.composite
def json_variant(draw):
    data = json.loads(JSONS[draw(st.sampled_from(sorted(JSONS)))])
    obj = data[0] if isinstance(data, list) else data
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from([p for p in _paths(obj) if p]))
        parent = obj
        for step in path[:-1]:
            parent = parent[step]
        kind = draw(st.sampled_from(["replace", "delete", "rename"]))
        if kind == "delete":
            del parent[path[-1]]
        elif kind == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["0", "6", "\uff11", "Hand1", "x", "players"]))] = parent.pop(path[-1])
        else:
            parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data, ensure_ascii=False)


@FUZZ
@given(json_variant())
def test_json_variants(text):
    assert_round_trips_or_one_line(lambda: parse_any(text, "fuzz.json"), json_form=True)


@FUZZ
@given(st.sampled_from(sorted(TEXTS)), st.data())
def test_changed_bytes_read_from_a_file(name, data):
    raw = bytearray(TEXTS[name].encode("utf-8"))
    if data.draw(st.booleans()):
        raw[:0] = b"\xef\xbb\xbf"
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at:at + data.draw(st.integers(0, 2))] = data.draw(st.binary(max_size=3))
    fd, name = tempfile.mkstemp(suffix=".txt")
    try:
        os.write(fd, bytes(raw))
        os.close(fd)
        assert_round_trips_or_one_line(lambda: load_records(name))
    finally:
        os.unlink(name)


@FUZZ
@given(st.data())
def test_tarotclub_variants(data):
    log = json.loads(json.dumps(TAROTCLUB))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in _paths(log) if p]))
        parent = log
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(st.one_of(JSON_VALUES, st.sampled_from(["14-D;04-D", "yes", "West", "Take",
                                                                                "\uff11\uff14-D", "00-T"])))
    assert_round_trips_or_one_line(lambda: [tarotclub_record(log, "club.json")[0]], json_form=True)
