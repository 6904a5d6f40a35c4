"""Run records: the hands of a long check (``calibrate``, ``calibrate-choices``) kept as they end, so that a
run stopped goes on where it stopped.

A record is a file of JSON lines: a first line of the run's settings, ``{kind: {...}}``, which a run that
goes on with it must match, then one line a hand checked, ``{"index": i, ...}``, in the order they ended.
A last line cut short (a run stopped while writing it) is dropped when the run goes on; anything else
amiss is refused, naming the file and what to do.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from analyzer.errors import TarotError

Check = TypeVar("Check")
# A hand's check from its line, given the settings of its record's run (what ``kind`` names in the first line).
Parse = Callable[[dict, dict], Check]


class RecordError(TarotError):
    """A record that cannot be used or written (the message names the file and what to do)."""


def plain(data):
    """``data`` as JSON reads it back (tuples as lists), to compare with what a record holds."""
    return json.loads(json.dumps(data))


@contextmanager
def record_lock(path: Path | None, kind: str) -> Iterator[None]:
    """Hold the record (when there is one) for this run: a second run on the same file is refused
    instead of writing its lines between this one's (an advisory lock, where the system has them)."""
    if path is None:
        yield
        return
    try:
        import fcntl
    except ImportError:                       # not a POSIX system: no lock
        yield
        return
    try:
        handle = path.open("a", encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: cannot write it ({exc.strerror})") from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RecordError(f"{path} is in use by another {kind} run") from None
        yield


def open_record(path: Path, settings: dict, resume: bool, parse: Parse) -> dict[int, Check]:
    """The hands a record holds, by index (none for a new record, whose settings line is written).  Its
    settings must be ``settings`` (one key, the run's kind); a last line cut short is dropped from the
    file."""
    kind = next(iter(settings))
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise RecordError(f"{path} already holds a record: go on with it with --resume, or name another "
                              "--record")
        held, checks, whole = read_record(path, kind, parse)
        if held != plain(settings):
            raise RecordError(f"{path} was written with other settings "
                              f"({first_difference(held[kind], plain(settings[kind]))}): use another --record")
        if whole is not None:                     # stopped while writing its last line: drop it
            with path.open("w", encoding="utf-8") as handle:
                handle.write(whole)
        return checks
    try:
        with path.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps(settings) + "\n")
    except OSError as exc:
        raise RecordError(f"{path}: cannot write it ({exc.strerror})") from None
    return {}


def read_record(path: Path, kind: str, parse: Parse) -> tuple[dict, dict[int, Check], str | None]:
    """A record's settings line, its checks by hand index (``parse``), and, when its last line was cut
    short (a run stopped while writing it), its text without that line (else None); a file that is not
    a record of ``kind``, or a damaged line, is refused naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read it ({exc})") from None
    whole, _, cut = text.rpartition("\n")
    lines = whole.split("\n") if whole else []
    try:
        settings = json.loads(lines[0]) if lines else None
    except ValueError:
        settings = None
    if not isinstance(settings, dict) or not isinstance(settings.get(kind), dict):
        raise RecordError(f"{path} is not a {kind} record (its first line is not one's settings): "
                          "name another record")
    checks = {}
    for number, line in enumerate(lines[1:], 2):
        try:
            entry = json.loads(line)
            checks[entry["index"]] = parse(settings[kind], entry)
        except (ValueError, KeyError, TypeError):
            raise RecordError(f"{path}: line {number} is damaged; remove it to check that hand again") from None
    return settings, checks, whole + "\n" if cut else None


def first_difference(held, wanted, where: str = "") -> str:
    """The first setting where ``held`` and ``wanted`` differ, as "deep.worlds 16, here 64"."""
    if isinstance(held, dict) and isinstance(wanted, dict):
        for key in [*wanted, *(k for k in held if k not in wanted)]:
            if held.get(key) != wanted.get(key):
                return first_difference(held.get(key), wanted.get(key), f"{where}.{key}" if where else key)
    return f"{where or 'settings'} {held}, here {wanted}"


def append_check(path: Path, index: int, entry: dict) -> None:
    """Write hand ``index``'s check (``entry``, its fields) at the end of the record, to disk before the
    next hand starts."""
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"index": index, **entry}) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise RecordError(f"{path}: cannot write it ({exc.strerror})") from None
