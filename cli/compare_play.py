"""``tarot-analyzer compare-play``: where the heuristic's card play differs from the search's."""

from __future__ import annotations


import click

from analyzer.baselines import METHODS
from analyzer.output import atomic_output, check_output
from analyzer.quality.compare_play import (EVAL_WORLDS, GROUPINGS, MAX_DEALS, PLAYERS_OF_THE_DEALS, SEARCH_WORLDS,
                                           SIDES, compare_play)
from analyzer.runs import MAX_WORLDS
from cli.options import (cell, deals_phrase, echo_json, format_option, jobs_option, players_option, quiet_option, rules_from,
                         seed_option, variant_option)
from cli.progress import Progress


@click.command("compare-play")
@players_option
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=200, show_default=True,
              help=f"Random deals (at 4 players about 3.5 s per 100 on two threads, a third of that with "
                   f"--side taker; at most {MAX_DEALS:,}).")
@click.option("--side", type=click.Choice(list(SIDES)), default="both", show_default=True,
              help="Whose decisions are compared: the taker's side (with the partner at 5 players), the defence, "
                   "or both.")
@click.option("--play", type=click.Choice(PLAYERS_OF_THE_DEALS), default="heuristic", show_default=True,
              help="Who plays the deals: the heuristic (the positions the default answers of Prise and Garde "
                   "meet) or the search (every seat's card the search's: the positions strong play meets; several "
                   "times slower).")
@click.option("--by", type=click.Choice(GROUPINGS), default="situation", show_default=True,
              help="Grouping: situation (the decisions that differ, by phase and the two cards' kinds), phase, or "
                   "trick.")
@click.option("--top", type=click.IntRange(1, None), default=15, show_default=True,
              help="Table: the costliest groups shown (JSON and --decisions keep all).")
@seed_option
@click.option("--bidding", type=click.Choice(METHODS), default="tarotclub", show_default=True,
              help="Bidding model deciding who takes and what.")
@click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=SEARCH_WORLDS, show_default=True,
              help="Worlds per decision of the search whose card is compared.")
@click.option("--eval-worlds", type=click.IntRange(1, MAX_WORLDS), default=EVAL_WORLDS, show_default=True,
              help="Fresh worlds on which the two cards are played when they differ.")
@click.option("--decisions", "decisions_file", type=click.Path(dir_okay=False),
              help="Also write every decision compared to this CSV file (situation, both cards, cost); written "
                   "whole or not at all.")
@jobs_option
@variant_option
@quiet_option
@format_option("table", "json")
def compare_play_command(players, deals, side, play, by, top, seed, bidding, worlds, eval_worlds, decisions_file, jobs,
                         variants, quiet, fmt) -> None:
    """Where the heuristic's card play differs from the search's, and what it costs.

    Deals are dealt and bid at random and played by the heuristic (the default answers' play model
    for Prise and Garde at 5 players, and for a pass at 4 and 5), or with --play search by the search.
    At each decision of --side with more than one legal card, the heuristic's card is set against the
    search's (pimc, --worlds worlds). Where they differ, both cards are played on the same --eval-worlds
    fresh worlds and the deal finished by the heuristic: the cost is the search's card's gain in the
    deciding seat's own score (at 4 players a defender's score is a third of the taker's).
    The table gives, per group, the decisions, how many differ, their mean cost with its standard
    error, and the cost per deal played: the situations where a better heuristic would gain most."""
    rules = rules_from(players, variants)
    if decisions_file is not None:
        check_output(decisions_file, "--decisions")        # before the comparison, not after it
    with Progress("comparing", quiet) as bar:
        r = compare_play(rules.players, deals, side, seed, bidding, worlds, eval_worlds, jobs, bar, rules, play)
    if decisions_file is not None:
        with atomic_output(decisions_file, "--decisions", newline="") as handle:
            r.decisions.to_csv(handle, index=False, lineterminator="\n")
    if fmt == "json":
        echo_json(r.as_dict(by))
        return
    _table(r, by, top)


def _table(r, by: str, top: int) -> None:
    click.echo(f"{r.players} players, {deals_phrase(r.deals)} played by the {r.play} ({r.skipped:,} skipped: everybody "
               f"passed); search: pimc, {r.worlds} worlds a decision; costs on {r.eval_worlds} fresh worlds; "
               f"{r.seconds:.1f} s")
    click.echo("costs: the search's card minus the heuristic's, in points of the deciding seat's own score")
    click.echo("")
    click.echo(f"{'side':<14}{'decisions':<16}{'compared':>9}{'differ':>8}{'a deal':>9}{'± se':>6}")
    for g in r.totals():
        click.echo(f"{g.side:<14}{g.label:<16}{g.decisions:>9,}{g.differ / max(g.decisions, 1):>8.0%}"
                   f"{g.per_deal:>+9.1f}{cell(g.per_deal_se, 6, 1)}")
    groups = r.groups(by)
    shown = groups if by == "trick" else groups[:top]
    click.echo("")
    title = {"situation": "where the cards differ, costliest first",
             "phase": "by phase, costliest first", "trick": "by trick"}[by]
    click.echo(f"{title} ({len(shown)} of {len(groups)} groups):")
    width = max([len(g.label) for g in shown] + [5])
    click.echo(f"{'side':<14}{'group':<{width}}{'compared':>9}{'differ':>8}{'mean cost':>10}{'± se':>6}"
               f"{'a deal':>9}{'± se':>6}")
    for g in shown:
        click.echo(f"{g.side:<14}{g.label:<{width}}{g.decisions:>9,}{g.differ:>8,}{cell(g.cost, 10, 2, signed=True)}"
                   f"{cell(g.cost_se, 6, 2)}{g.per_deal:>+9.2f}{cell(g.per_deal_se, 6, 2)}")
