"""``tarot-analyzer play``: simulated whole deals written as deal records."""

from __future__ import annotations

import json

import click

from analyzer.baselines import METHODS
from analyzer.output import atomic_output, check_output
from analyzer.records import records_to_json
from analyzer.records.simulate import PLAY_POLICIES, simulate_records
from cli.options import echo_json, jobs_option, players_option, quiet_option, rules_from, seed_option, variant_option
from cli.simulation_options import worlds_option
from cli.progress import Progress


@click.command()
@players_option
@click.option("--deals", type=click.IntRange(1, None), default=10, show_default=True, help="Deals to simulate.")
@seed_option
@click.option("--policy", type=click.Choice(list(PLAY_POLICIES)), default="heuristic", show_default=True,
              help="How the seats play their cards.")
@click.option("--bidding", type=click.Choice(METHODS), default="tarotclub", show_default=True,
              help="Bidding model deciding who takes and what.")
@worlds_option
@click.option("--out", "out", type=click.Path(dir_okay=False),
              help="Write the records to this file (default: standard output); written whole or not at all.")
@click.option("--to", "target", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Record form.")
@click.option("--names", metavar="NAME,NAME,...",
              help="The players' names, one per seat of the first deal from seat 1, written as the SeatN tags; the "
                   "deal passes to the right after each deal (seat 1 deals the next, each name moves one seat "
                   "down), so a name sits at every seat in turn.")
@jobs_option
@variant_option
@quiet_option
def play(players, deals, seed, policy, bidding, worlds, out, target, names, jobs, variants, quiet) -> None:
    """Simulate whole deals and write them as deal records (docs/records.md).

    Each deal is dealt at random (petit sec excluded), bid by the bidding model; the taker calls (5
    players), discards and announces, the seats show their poignées (and, with misere=on, declare
    their misères), and every card is played by the policy.  Every deal is replayed through the
    reference rules engine, which scores it and writes the record with its Result; a deal everybody
    passes is written with its auction only (thrown in), or played as a Goulash with
    all-pass=goulash.  Same seed, same records, whatever --jobs."""
    rules = rules_from(players, variants)
    seat_names = _names(names, rules.players)
    if out is not None:
        check_output(out)                       # before the simulation, not after it
    with Progress("simulating", quiet) as bar:
        records = list(simulate_records(rules.players, deals, seed, policy, bidding, worlds, jobs, rules=rules,
                                        progress=bar, names=seat_names))
    if target == "json":
        text = None
    else:
        text = "\n".join(r.to_text() for r in records)
    if out is not None:
        with atomic_output(out) as f:
            if text is None:
                json.dump(records_to_json(records), f, ensure_ascii=False, indent=2)
                f.write("\n")
            else:
                f.write(text)
    elif text is None:
        echo_json(records_to_json(records))
    else:
        click.echo(text, nl=False)


def _names(text: str | None, players: int) -> list[str] | None:
    """--names: one distinct, non-empty name per seat (a name is written in a tag: no line break)."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if len(names) != players:
        raise click.BadParameter(f"{text[:80]!r}: {len(names)} name{'s' if len(names) != 1 else ''} for "
                                 f"{players} players (one per seat)", param_hint="--names")
    for n in names:
        if not n or any(c in n for c in "\r\n") or not n.isprintable():
            raise click.BadParameter(f"{n[:40]!r}: a name is printable text on one line, not empty",
                                     param_hint="--names")
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise click.BadParameter(f"{twice!r} is given twice: one name per player", param_hint="--names")
    return names
