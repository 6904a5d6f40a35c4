"""``tarot-analyzer calibrate-coach``: the coach's chance of the contract against the deals made."""

from __future__ import annotations

import dataclasses

import click

from analyzer.coach.auction_reading import readings_words
from analyzer.coach.cards import WORLDS
from analyzer.quality.coach_calibration import calibration, first_cards
from analyzer.runs import Settings
from cli.options import cell, echo_json, format_option, jobs_option, quiet_option, seed_option
from cli.progress import Progress
from cli.record import load_checked
from cli.simulation_options import auction_noise_option, play_policy_option, worlds_option


@click.command("calibrate-coach")
@click.argument("file", type=click.Path(dir_okay=False))
@play_policy_option
@worlds_option
@click.option("--deals", type=click.IntRange(10, 100_000),
              help=f"Worlds each first card is judged on (default {WORLDS}, as analyze).")
@seed_option
@jobs_option
@quiet_option
@auction_noise_option
@format_option("table", "json")
def calibrate_coach_command(file, policy, worlds, deals, seed, jobs, quiet, noise, fmt) -> None:
    """Whether the coach (analyze) knows the odds: on the played deals of FILE (every hand known, e.g.
    written by play), each seat's chance of the contract at its first judged card, averaged by role
    (taker, partner, defender), beside the share of those deals made, with the gap and its standard
    error.  A calibrated judge's gap is within noise of 0 for every role (docs/coaching.md)."""
    records = load_checked(file)
    settings = Settings(policy=policy, worlds=worlds, deals=deals, worlds_per_card=deals, seed=seed, jobs=jobs)
    with Progress("calibrate-coach: deal", quiet, unit="deals") as bar:
        cards = first_cards(records, settings, bar, noise=noise)
    rows = calibration(cards)
    if fmt == "json":
        echo_json({"roles": [dataclasses.asdict(r) for r in rows],
                   "first_cards": [dataclasses.asdict(c) for c in cards]})
        return
    click.echo(f"{len(records)} deals, {sum(r.deals for r in rows if r.role == 'taker')} with a taker; "
               f"{policy} play, {deals or WORLDS} worlds per card, bids read as {readings_words(records, noise)}")
    click.echo(f"{'role':<9}{'seats':>6}{'chance':>8}{'made':>7}{'gap':>8}{'± se':>7}  under 50 worlds")
    for r in rows:
        click.echo(f"{r.role:<9}{r.seats:>6}{cell(100 * r.chance, 7)}%{cell(100 * r.made, 6)}%"
                   f"{cell(100 * r.gap, 7, signed=True)}{cell(100 * r.gap_se, 7)}  {r.low_effective}")
