"""Options and conversions shared by several commands."""

from __future__ import annotations

import json

import click

from analyzer.errors import TarotError
from analyzer.rules import Rules
from analyzer.runs import PIMC_WORLDS

players_option = click.option("--players", type=click.Choice(["3", "4", "5"]), default="4", show_default=True,
                              help="Number of players.")
seed_option = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                           help="Random seed (same seed, same output, whatever --jobs).")
policy_option = click.option("--policy", type=click.Choice(["heuristic", "pimc", "random"]), default="heuristic",
                             show_default=True, help="How the simulated seats play their cards.")
jobs_option = click.option("--jobs", type=click.IntRange(1, None), help="Threads (default: all).")
quiet_option = click.option("--quiet", is_flag=True,
                            help="No progress bar (a first run still says, in one line, that it compiles the kernels).")
worlds_option = click.option("--worlds", type=click.IntRange(1, None), default=PIMC_WORLDS, show_default=True,
                             help="PIMC: worlds sampled per decision (more: stronger play, slower).")
variant_option = click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE",
                              help="Rule variant (repeatable), e.g. petit-au-bout=flat.")


def format_option(*choices: str):
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default=choices[0], show_default=True,
                        help="Output format.")


def rules_from(players: str, variants: tuple[str, ...]) -> Rules:
    try:
        return Rules.from_options(int(players), variants)
    except TarotError as exc:
        raise click.BadParameter(str(exc), param_hint="--variant") from None


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))
