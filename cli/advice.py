"""Hand-advice commands: ``odds`` and ``bid`` (poignée, discard, call and chelem advice are to come)."""

from __future__ import annotations

import csv
import io

import click

from analyzer.bid import bid_advice, parse_bids
from analyzer.hand import Hand
from analyzer.odds import contract_odds
from cli.options import echo_json, format_option, players_option, rules_from, variant_option
from cli.progress import Progress


def simulation_options(fn):
    """The options every simulation-based advice command shares."""
    for option in reversed([
        players_option,
        click.option("--seat", type=click.IntRange(1, 5), default=1, show_default=True,
                     help="The hand's place in the bidding order (1 speaks first and leads)."),
        click.option("--policy", type=click.Choice(["heuristic", "pimc", "random"]), default="heuristic",
                     show_default=True, help="How the simulated seats play their cards."),
        click.option("--deals", type=click.IntRange(1, None), help="A fixed number of deals (else --precision)."),
        click.option("--precision", type=click.FloatRange(0.001, 0.5), default=0.01, show_default=True,
                     help="Run until every probability's 95% half-width is at most this."),
        click.option("--max-deals", type=click.IntRange(1, None), default=200_000, show_default=True,
                     help="Upper bound on deals with --precision."),
        click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
        click.option("--jobs", type=click.IntRange(1, None), help="Threads (default: all)."),
        variant_option,
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]):
        fn = option(fn)
    return fn


@click.command()
@click.argument("hand")
@simulation_options
@format_option("table", "json", "csv")
def odds(hand, players, seat, policy, deals, precision, max_deals, seed, jobs, variants, quiet, fmt) -> None:
    """How likely each contract is to succeed with HAND, and what it is worth to the taker."""
    rules = rules_from(players, variants)
    if seat > rules.players:
        raise click.BadParameter(f"seat {seat} does not exist at {rules.players} players", param_hint="--seat")
    cards = Hand.parse(hand, players=rules.players)
    bar = Progress("simulating", quiet)
    try:
        result = contract_odds(cards, rules, seat - 1, policy, deals, precision, max_deals, seed, jobs, bar)
    finally:
        bar.close()
    if fmt == "json":
        echo_json(result.as_dict())
        return
    rows = [c.as_dict() for c in result.contracts]
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=["contract", "p_success", "ci95_low", "ci95_high", "expected_score",
                                                 "se", "n", "mean_points", "points_se", "p_petit_au_bout_taker",
                                                 "p_petit_au_bout_defence", "p_chelem"], lineterminator="\n")
        writer.writeheader()
        for r in rows:
            low, high = r.pop("ci95")
            writer.writerow({**r, "ci95_low": low, "ci95_high": high})
        click.echo(buf.getvalue(), nl=False)
        return
    click.echo(f"{result.hand}  (seat {seat} of {result.players}, {result.deals:,} deals, {policy} play)")
    click.echo(f"{'contract':<13}{'success':>8}  {'95% interval':<14}{'score':>9} {'± se':>6}  {'points':>6}"
               f"  {'petit au bout taker/def':>23}  {'chelem':>6}")
    for r in rows:
        click.echo(f"{r['contract']:<13}{r['p_success']:>8.1%}  {r['ci95'][0]:>5.1%}–{r['ci95'][1]:<7.1%}"
                   f"{r['expected_score']:>+9.1f} {r['se']:>6.1f}  {r['mean_points']:>6.1f}"
                   f"  {r['p_petit_au_bout_taker']:>11.1%}/{r['p_petit_au_bout_defence']:<11.1%}  {r['p_chelem']:>6.1%}")


@click.command()
@click.argument("hand")
@click.option("--bids", default="", metavar="BID,…", help='Bids made before this seat, e.g. "pass,prise".')
@click.option("--bidding", type=click.Choice(["tarotclub", "chavey"]), default="tarotclub", show_default=True,
              help="The bidding model of the other seats.")
@click.option("--no-auction-conditioning", "no_conditioning", is_flag=True,
              help="Do not condition the deals on the earlier bids.")
@simulation_options
@format_option("table", "json", "csv")
def bid(hand, bids, bidding, no_conditioning, players, seat, policy, deals, precision, max_deals, seed, jobs,
        variants, quiet, fmt) -> None:
    """What to bid with HAND from --seat, given the bids so far: every option's expected score."""
    rules = rules_from(players, variants)
    if seat > rules.players:
        raise click.BadParameter(f"seat {seat} does not exist at {rules.players} players", param_hint="--seat")
    cards = Hand.parse(hand, players=rules.players)
    bar = Progress("simulating", quiet)
    try:
        advice = bid_advice(cards, rules, seat - 1, parse_bids(bids), policy, deals, precision, max_deals, seed,
                            jobs, bidding, not no_conditioning, bar)
    finally:
        bar.close()
    if fmt == "json":
        echo_json(advice.as_dict())
        return
    rows = [o.as_dict() for o in advice.options]
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["bid", "expected_score", "se", "n", "p_success", "ci95_low", "ci95_high", "recommended"])
        for r in rows:
            writer.writerow([r["bid"], r["expected_score"], r["se"], r["n"], r["p_success"], *r["ci95"],
                             r["bid"] == advice.recommendation.token])
        click.echo(buf.getvalue(), nl=False)
        return
    earlier = ", ".join("pass" if b is None else b.token for b in advice.earlier) or "none"
    click.echo(f"{advice.hand}  (seat {seat} of {advice.players}; bids before: {earlier}; {advice.deals:,} deals)")
    click.echo(f"{'bid':<13}{'score':>9} {'± se':>6}  {'side wins':>9}  95% interval")
    for r in rows:
        mark = "  <- best" if r["bid"] == advice.recommendation.token else ""
        click.echo(f"{r['bid']:<13}{r['expected_score']:>+9.1f} {r['se']:>6.1f}  {r['p_success']:>9.1%}  "
                   f"{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}{mark}")
    click.echo(f"Recommendation: {advice.recommendation.token}. {advice.reason()}")
