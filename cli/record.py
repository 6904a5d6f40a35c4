"""``tarot-analyzer record``: check, convert, import and enter deal records (docs/records.md)."""

from __future__ import annotations

import sys

import click

from analyzer.output import OutputError, check_output, write_text
from analyzer.records import RecordError, load_records, records_to_json, records_to_text
from analyzer.records.entry import DealEntry
from analyzer.records.summary import record_summary, summary_line
from analyzer.records.tarotclub import load_tarotclub
from cli.options import echo_json, format_option


@click.group()
def record() -> None:
    """Deal records: one played (or partly played) deal as tag pairs and a [Play] section of tricks,
    several per file (the format: docs/records.md)."""


@record.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@format_option("table", "json")
def check(files, fmt) -> None:
    """Check every record of FILES (text or JSON) and print one line per deal: the players, the taker
    and contract, the called card, made or lost by how much, each seat's score.

    Stops with exit status 1 at the first invalid record, naming its line, the token and the rule
    broken, or at a file that holds no record."""
    rows = []
    for path in files:
        try:
            records = load_records(path)
            if not records:
                raise RecordError(no_record_message(path))
        except RecordError as exc:
            _flush(rows, fmt)
            raise click.ClickException(str(exc)) from None
        for i, rec in enumerate(records, start=1):
            try:
                rec.check()
            except RecordError as exc:
                _flush(rows, fmt)
                raise click.ClickException(str(exc)) from None
            row = {"file": path, "record": i} | record_summary(rec)
            rows.append(row)
            if fmt == "table":
                click.echo(f"{path} #{i}: {summary_line(row)}")
    _flush(rows, fmt)


def _flush(rows: list[dict], fmt: str) -> None:
    if fmt == "json":
        echo_json(rows)


@record.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "target", type=click.Choice(["json", "text"]), required=True, help="Output form.")
def convert(file, target) -> None:
    """Convert the records of FILE to JSON or to text, without loss (each record is checked first;
    nothing is written if one is invalid)."""
    records = load_checked(file)
    if target == "json":
        data = records_to_json(records)
        echo_json(data[0] if len(data) == 1 else data)
    else:
        click.echo(records_to_text(records), nl=False)


def no_record_message(path: str) -> str:
    return f"{path} holds no deal record"


def load_checked(path: str):
    """The records of ``path``, each replayed and checked; a bad one, or none, is a one-line error."""
    try:
        records = load_records(path)
        if not records:
            raise RecordError(no_record_message(path))
        for rec in records:
            rec.check()
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    return records


@record.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--from", "source", type=click.Choice(["tarotclub"]), required=True,
              help="The program that wrote FILE: tarotclub (its played-deal JSON log, version 3).")
def import_(file, source) -> None:
    """Read a deal played in another program and write it as a checked record (text).

    What the other program does not record (the bids before the taker's, the 5-player called card)
    is inferred where the deal determines it, else left out with a comment saying so."""
    try:
        rec, notes = load_tarotclub(file)
        rec.check()
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    for note in notes:
        click.echo(f"# {note}")
    click.echo(rec.to_text(), nl=False)


@record.command("new")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Write the record to FILE (replaced whole at the end) instead of printing it.")
@click.option("--partial", is_flag=True,
              help="At the end of the input before the deal is over, keep what was entered (else nothing "
                   "is written).")
def new(out, partial) -> None:
    """Enter a deal at the terminal, one question at a time: the players, the variants, the seat names,
    your seat and hand (others if known), the auction, the call, the chien, the discard, the chelem and
    the poignées, then each card in turn ("trick 3, seat 2").

    Every answer is checked against the rules as it is typed: a refused one is named in one line and
    asked again.  "undo" goes back one step (the last card, or the last answer before the play); "end"
    stops the deal where it stands (a record may stop anywhere).  The questions go to stderr; the record
    to stdout, or to --out (checked before the first question).  The end of the input before the deal is
    over writes nothing, unless --partial."""
    if out is not None:
        try:
            check_output(out)
        except OutputError as exc:
            raise click.ClickException(str(exc)) from None
    entry = DealEntry()
    prompt = entry.prompt
    stdin = sys.stdin
    typed = stdin.isatty()                  # piped answers are echoed, so that the dialogue reads as a transcript
    while not prompt.done:
        click.echo(f"{prompt.text}: ", nl=False, err=True)
        line = stdin.readline()
        if not line:
            click.echo(err=True)
            if partial and entry.can_end:
                prompt = entry.answer("end")
                break
            raise click.ClickException("the input ended before the deal was entered: nothing written"
                                       + ("" if partial else " (--partial keeps a deal stopped early)"))
        if not typed:
            click.echo(line.rstrip("\r\n"), err=True)
        prompt = entry.answer(line.rstrip("\r\n"))
        if prompt.error:
            click.echo(f"error: {prompt.error}", err=True)
        elif prompt.note:
            click.echo(prompt.note, err=True)
    try:
        text = entry.record().to_text()
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        write_text(out, text)
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"record written to {out}", err=True)
