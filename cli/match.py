"""``tarot-analyzer match``: duplicate matches between card-play policies."""

from __future__ import annotations

import math

import click

from analyzer.baselines import METHODS
from analyzer.quality.match import MAX_DEALS, POLICY_IDS, run_match
from analyzer.runs import MAX_ROLLOUTS, PIMC_ROLLOUTS
from cli.options import (deals_phrase, echo_json, format_option, jobs_option, players_option, quiet_option, rules_from, seed_option,
                         variant_option)
from cli.simulation_options import worlds_option
from cli.progress import Progress

POLICY = click.Choice(list(POLICY_IDS))
POLICIES = ", ".join(POLICY_IDS)


@click.command()
@click.option("--a", "policy_a", type=POLICY, required=True, metavar="POLICY",
              help=f"Policy A, one of: {POLICIES}.")
@click.option("--b", "policy_b", type=POLICY, required=True, metavar="POLICY", help="Policy B (as --a).")
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=2000, show_default=True,
              help=f"Deals (each played twice; at most {MAX_DEALS:,}).")
@players_option
@seed_option
@click.option("--bidding", type=click.Choice(METHODS), default="tarotclub", show_default=True,
              help="Bidding model deciding who takes and what.")
@worlds_option
@click.option("--rollouts", type=click.IntRange(1, MAX_ROLLOUTS), default=PIMC_ROLLOUTS, show_default=True,
              help="PIMC: rollouts per world and card.")
@jobs_option
@variant_option
@quiet_option
@format_option("table", "json")
def match(policy_a, policy_b, deals, players, seed, bidding, worlds, rollouts, jobs, variants, quiet, fmt) -> None:
    """Duplicate match: each deal played with A on the taker's side and B in defence, then swapped.

    Reports A's mean gain per deal over B with its standard error and 95% interval.  Policies: random,
    heuristic, pimc (determinized search: the last tricks of each world solved exactly, no world
    dealing a seat a petit sec, a decision stopped once one card is clearly best, the heuristic's card
    kept unless another beats it beyond noise) and pimc-uniform (worlds uniform under the revealed
    voids, every world finished by heuristic rollouts); pimc-fixed is pimc searching every card in
    every world (no early stop); pimc-solver, pimc-constrained and pimc-prior are pimc-uniform with
    one of pimc's three parts (pimc-prior stops early too, from 4 worlds; pimc-chelem is pimc-prior
    whose taker's side draws at least 12 worlds a decision, without the early stop, until its chelem
    is lost), pimc-weighted with its worlds weighted by how well
    they explain the auction (measured: no gain, so pimc does not weigh), pimc-plays with its worlds
    drawn in proportion to how well they explain the cards played (measured: a gain against heuristic
    players only, so pimc does not use it).  Deals that everybody passes are skipped (under
    all-pass=goulash too: a Goulash has no sides to swap)."""
    rules = rules_from(players, variants)
    with Progress("playing", quiet) as bar:
        r = run_match(policy_a, policy_b, deals, rules.players, seed, bidding, worlds, rollouts, jobs, bar, rules)
    if fmt == "json":
        echo_json(r.as_dict())
        return
    click.echo(f"{r.policy_a} vs {r.policy_b}, {r.players} players, {deals_phrase(r.deals)} played "
               f"({r.skipped:,} skipped: everybody passed)")
    if not math.isfinite(r.mean_diff):
        click.echo(f"mean gain of {r.policy_a} per deal: none (no deal played)")
    elif not math.isfinite(r.se):
        click.echo(f"mean gain of {r.policy_a} per deal: {r.mean_diff:+.1f} (one deal: no standard error; "
                   "play more deals)")
    else:
        click.echo(f"mean gain of {r.policy_a} per deal: {r.mean_diff:+.1f} ± {r.se:.1f} (se), "
                   f"95% interval {r.ci95[0]:+.1f} to {r.ci95[1]:+.1f}")
