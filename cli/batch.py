"""``tarot-analyzer batch``: many simulated deals to CSV or Parquet, in resumable chunks."""

from __future__ import annotations

import click

from analyzer.rules import Contract
from analyzer.runs import MAX_DEALS
from cli.options import jobs_option, players_option, quiet_option, rules_from, seed_option, variant_option
from cli.progress import Progress


@click.command()
@players_option
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), required=True,
              help=f"Deals to simulate (at most {MAX_DEALS:,}).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Output file, .csv or .parquet.")
@click.option("--policy", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True,
              help="How the simulated seats play.")
@seed_option
@jobs_option
@click.option("--takers", type=click.Choice(["first", "all"]), default="first", show_default=True,
              help="Which seats are evaluated as taker on each deal.")
@click.option("--contracts", default="prise,garde,garde-sans,garde-contre", show_default=True,
              help="Contracts to play, comma-separated.")
@click.option("--chunk-size", type=click.IntRange(1, None), default=20_000, show_default=True,
              help="Deals per chunk (memory stays flat; the output does not depend on it).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run from the chunks already written.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the chunks on a dask.distributed cluster (tcp://host:8786).")
@click.option("--local-cluster", type=click.IntRange(1, None), metavar="N",
              help="Start a dask.distributed cluster of N worker processes here and run on it.")
@variant_option
@quiet_option
def batch(players, deals, out, policy, seed, jobs, takers, contracts, chunk_size, resume, scheduler, local_cluster,
          variants, quiet) -> None:
    """Simulate DEALS deals; one row per (deal, taker seat) with the hand, its features and each contract's
    outcome (columns: docs/batch-columns.md)."""
    from analyzer.batch import run_batch        # pandas: imported by the commands that use it only
    rules = rules_from(players, variants)
    wanted = [Contract.parse(c) for c in contracts.split(",") if c.strip()]
    if not wanted:
        raise click.BadParameter("name at least one contract", param_hint="--contracts")
    with Progress("simulating", quiet) as bar:
        path = run_batch(out, int(players), deals, seed, policy, takers, wanted, chunk_size, jobs, resume, bar,
                         scheduler, local_cluster, rules)
    click.echo(f"wrote {path}", err=True)
