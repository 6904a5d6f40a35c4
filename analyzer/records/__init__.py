"""Deal records: reading, checking, writing and replaying whole played deals.

``load_records(path)`` reads a file of records (the text form of ``docs/records.md`` or its JSON
twin); each ``Record`` replays through the reference engine (``Record.game``,
``Record.position(n)``), lists its decisions with what each seat knew (``Record.decisions()``) and
writes itself back (``Record.to_text()``, ``Record.to_json()``).  Errors are ``RecordError``s naming
the line, the token and the rule broken.
"""

from analyzer.records.jsonform import (load_records, parse_any, record_from_json, record_to_json, records_to_json,
                                       records_to_text)
from analyzer.records.record import IMPLEMENTATIONS, PHASES, Decision, Record, RecordError
from analyzer.records.replay import replay
from analyzer.records.text import format_record, parse_records

IMPLEMENTATIONS.update(replay=replay, format_record=format_record, parse_records=parse_records,
                       record_to_json=record_to_json, record_from_json=record_from_json)

__all__ = ["Decision", "PHASES", "Record", "RecordError", "load_records", "parse_any", "parse_records",
           "records_to_json", "records_to_text"]
