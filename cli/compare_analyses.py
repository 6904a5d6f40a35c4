"""``tarot-analyzer compare-analyses``: two analyses of the same deals, card by card."""

from __future__ import annotations

import dataclasses

import click

from analyzer.errors import TarotError
from analyzer.quality.judge_agreement import card_decisions, compare
from cli.options import echo_json, format_option


@click.command("compare-analyses")
@click.argument("tested", type=click.Path(dir_okay=False, exists=True))
@click.argument("reference", type=click.Path(dir_okay=False, exists=True))
@format_option("table", "json")
def compare_analyses_command(tested, reference, fmt) -> None:
    """How far the analysis TESTED agrees with REFERENCE (both the JSON of analyze on the same deals and
    seats; the reference, for instance, --policy pimc with more worlds): the card decisions both judged,
    the share whose best choice agrees (TESTED's best is REFERENCE's, or one REFERENCE values within one
    standard error of it), the flags (verdicts) of each, those in common, the false flags (flagged by
    TESTED only) and the missed ones (flagged by REFERENCE only)."""
    try:
        result = compare(card_decisions(tested), card_decisions(reference))
    except TarotError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        echo_json(dataclasses.asdict(result))
        return
    r = result
    click.echo(f"card decisions judged by both: {r.cards} ({r.searched} valued by the search in {tested})")
    click.echo(f"best choice agrees (or within one se): {r.same_best} ({100 * r.share(r.same_best):.0f}%)")
    click.echo(f"flags: {r.flagged} tested, {r.reference_flagged} reference, {r.common} in common; "
               f"false flags {r.false_flags}, missed {r.missed}")
