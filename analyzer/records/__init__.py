"""Deal records: reading, checking, writing and replaying whole played deals.

``load_records(path)`` reads a file of records (the text form of ``docs/records.md`` or its JSON
twin); each ``Record`` replays through the reference engine (``Record.game``,
``Record.position(n)``), lists its decisions with what each seat knew (``Record.decisions()``) and
writes itself back (``Record.to_text()``, ``Record.to_json()``).  Errors are ``RecordError``s naming
the line, the token and the rule broken.
"""

from analyzer.records.jsonform import load_records, parse_any, records_to_json, records_to_text
from analyzer.records.record import PHASES, Decision, Record, RecordError
from analyzer.records.text import parse_records

__all__ = ["Decision", "PHASES", "Record", "RecordError", "load_records", "parse_any", "parse_records",
           "records_to_json", "records_to_text"]
