"""Hand-advice commands: odds, bid, poignee, discard, call and chelem."""

from __future__ import annotations

import csv
import io

import click

from analyzer import cards as C
from analyzer.advice.auction import BID_NOISE, bid_token, parse_bids
from analyzer.advice.bid import bid_advice
from analyzer.advice.choices import call_options, chelem_options, compare, poignee_options, poignees_shown
from analyzer.advice.discard import DEALS as DISCARD_DEALS
from analyzer.advice.discard import MAX_DEALS as MAX_DISCARD_DEALS
from analyzer.advice.discard import discard_advice
from analyzer.advice.odds import contract_odds
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.notation import format_cards
from analyzer.quality.bidcheck import MAX_HANDS, check_bidding
from analyzer.rules import Contract
from analyzer.runs import MAX_DEALS
from cli.options import (cell, deals_phrase, echo_json, finite_number, format_option, jobs_option, players_option, quiet_option, rules_from,
                         seed_option, variant_option)
from cli.simulation_options import settings_options
from cli.progress import Progress


def simulation_options(players: str = "4"):
    """The options every simulation-based advice command shares (``players``: the default of --players)."""
    def decorate(fn):
        fn = quiet_option(variant_option(settings_options()(fn)))
        fn = click.option("--seat", type=click.IntRange(1, 5), default=1, show_default=True,
                          help="The hand's place in the bidding order (1 speaks first and leads).")(fn)
        return players_option(fn) if players == "4" else click.option(
            "--players", type=click.Choice(["3", "4", "5"]), default=players, show_default=True,
            help="Number of players.")(fn)
    return decorate


def score_legend(players: int) -> str:
    """What the taker's score column means: the taker's total for the deal, and each defender's share."""
    share = {3: "half of it", 4: "a third of it",
             5: "half of it when the taker has a partner, a quarter when the taker plays alone"}[players]
    return f"score: the taker's expected score for the deal (each defender loses {share})."


def play_line(play_model: str, deals: int, searched: int, control: int = 0) -> str:
    """The play model behind the numbers and how many deals were played with search (and, where the
    heuristic's play of them was their control variate, how many deals measured its mean), in one line."""
    controlled = f"; the heuristic's play of them a control variate, its mean from {control:,} deals" if control else ""
    return f"play: {play_model}, {deals_phrase(deals)} ({searched:,} searched{controlled})"


def _setup(hand, players, seat, variants):
    """The rules and the hand, checked against each other (the seat exists, the hand has the right size,
    its deal is not annulled)."""
    rules = rules_from(players, variants)
    if seat > rules.players:
        raise click.BadParameter(f"seat {seat} does not exist at {rules.players} players", param_hint="--seat")
    return rules, Hand.parse(hand, players=rules.players).check_playable(rules)


def auction_options(bids_help: str):
    """The options of the bids made before the seat and how they weigh the deals (odds, bid)."""
    def decorate(command):
        for option in reversed([
            click.option("--bids", default=None, metavar="BID,…", help=bids_help),
            click.option("--bidding", type=click.Choice(["tarotclub", "chavey"]), default="tarotclub",
                         show_default=True, help="The bidding model of the other seats."),
            click.option("--auction-noise", "noise", type=click.FloatRange(0, 100), default=BID_NOISE,
                         show_default=True, callback=finite_number, metavar="POINTS",
                         help="How far from the --bidding count the earlier bidders may stray: each deal weighs the "
                              "probability that its earlier seats make the bids made, with their count off by a "
                              "normal error of this many points (0: exactly the count)."),
            click.option("--no-auction-conditioning", "no_conditioning", is_flag=True,
                         help="Do not condition the deals on the earlier bids."),
        ]):
            command = option(command)
        return command
    return decorate


@click.command()
@click.argument("hand")
@auction_options('Bids made before this seat, e.g. "pass,prise": the contracts that outbid them, on deals '
                 "weighted by them (default: none given, every contract, unweighted deals).")
@simulation_options()
@format_option("table", "json", "csv")
def odds(hand, bids, bidding, noise, no_conditioning, players, seat, settings, variants, quiet, fmt) -> None:
    """How likely each contract is to succeed with HAND, and what it is worth to the taker.

    With --bids, the deals are weighted by how likely their earlier seats were to make the bids made
    (see --auction-noise), as bid weighs them, and only the contracts that outbid them are listed."""
    rules, cards = _setup(hand, players, seat, variants)
    with Progress("simulating", quiet) as bar:
        result = contract_odds(cards, rules, seat=seat - 1, settings=settings.with_(progress=bar),
                               bids=None if bids is None else parse_bids(bids), condition=not no_conditioning,
                               bidding=bidding, noise=noise)
    if fmt == "json":
        echo_json({**result.as_dict(), "variants": rules.variants()})
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
    earlier = "" if result.bids is None else "; bids before: " + (", ".join(map(bid_token, result.bids)) or "none")
    click.echo(f"{result.hand}  (seat {seat} of {result.players}{earlier})")
    click.echo(play_line(result.play_model, result.deals, result.searched_deals, result.control_deals)
               + (f"; weighted by the earlier bids, worth {result.effective_deals:,.0f} deals"
                  if result.auction_noise is not None else ""))
    if result.called is not None:
        click.echo(f"taking, this hand calls {C.TOKENS[result.called]} ({C.name(result.called)}); "
                   "`tarot-analyzer call` compares the other calls")
    click.echo(f"{'contract':<13}{'success':>8}  {'95% interval':<14}{'score':>9} {'± se':>6}  {'points':>6}"
               f"  {'petit au bout taker/def':>23}  {'chelem':>6}")
    for r in rows:
        click.echo(f"{r['contract']:<13}{r['p_success']:>8.1%}  {r['ci95'][0]:>5.1%}–{r['ci95'][1]:<7.1%}"
                   f"{r['expected_score']:>+9.1f} {cell(r['se'], 6)}  {r['mean_points']:>6.1f}"
                   f"  {r['p_petit_au_bout_taker']:>11.1%}/{r['p_petit_au_bout_defence']:<11.1%}"
                   f"  {r['p_chelem']:>6.1%}")
    click.echo(score_legend(result.players) + " points: the taker's side's card points.")


@click.command()
@click.argument("hand")
@auction_options('Bids made before this seat, e.g. "pass,prise".')
@simulation_options()
@format_option("table", "json", "csv")
def bid(hand, bids, bidding, noise, no_conditioning, players, seat, settings, variants, quiet, fmt) -> None:
    """What to bid with HAND from --seat, given the bids so far: every option's expected score.

    The deals are weighted by how likely their earlier seats were to make the bids made (see
    --auction-noise); an unlikely auction leaves fewer effective deals, shown in the header."""
    rules, cards = _setup(hand, players, seat, variants)
    with Progress("simulating", quiet) as bar:
        advice = bid_advice(cards, rules, seat=seat - 1, bids=parse_bids(bids or ""),
                            settings=settings.with_(progress=bar), bidding=bidding, condition=not no_conditioning,
                            noise=noise)
    if fmt == "json":
        echo_json({**advice.as_dict(), "variants": rules.variants()})
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
    earlier = ", ".join(map(bid_token, advice.earlier)) or "none"
    weighing = (f"; weighted by the earlier bids, worth {advice.effective_deals:,.0f} deals"
                if advice.seat and not no_conditioning else "")
    click.echo(f"{advice.hand}  (seat {seat} of {advice.players}; bids before: {earlier})")
    click.echo(play_line(advice.play_model, advice.deals, advice.searched_deals, advice.control_deals) + weighing)
    click.echo(f"{'bid':<13}{'score':>9} {'± se':>6}  {'side wins':>9}  95% interval")
    for r in rows:
        mark = "  <- best" if r["bid"] == advice.recommendation.token else ""
        click.echo(f"{r['bid']:<13}{r['expected_score']:>+9.1f} {cell(r['se'], 6)}  {r['p_success']:>9.1%}  "
                   f"{r['ci95'][0]:.1%}–{r['ci95'][1]:.1%}{mark}")
    click.echo(f"Recommendation: {advice.recommendation.token}. {advice.reason()}")
    click.echo("score: this seat's expected score for the deal, whoever takes. pass: this seat passes and the "
               f"later seats bid by the {bidding} count; one of them "
               + ("or the earlier bidder " if any(b is not None for b in advice.earlier) else "")
               + "may take (this seat then defends), else "
               + ("the deal is played as a Goulash (side wins: this seat scores more than 0)."
                  if rules.all_pass == "goulash" else "the deal is thrown in and scores 0."))


def _render_comparison(comparison, rules, fmt: str, notes: list[str] = ()) -> None:
    rows = [a.as_dict() for a in comparison.alternatives]
    if fmt == "json":
        echo_json({**comparison.as_dict(), "notes": list(notes), "variants": rules.variants()})
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["choice", "expected_score", "se", "n", "p_success", "ci95_low", "ci95_high", "p_chelem",
                         "vs_best", "vs_best_se"])
        for r in rows:
            writer.writerow([r["choice"], r["expected_score"], r["se"], r["n"], r["p_success"], *r["ci95"],
                             r["p_chelem"], r["vs_best"], r["vs_best_se"]])
        click.echo(buf.getvalue(), nl=False)
        return
    c = comparison
    click.echo(f"{c.question}  {c.hand}  ({c.contract.token}, seat {c.seat + 1} of {c.players})")
    click.echo(play_line(c.play_model, c.deals, c.searched_deals, c.control_deals))
    width = max(len(r["choice"]) for r in rows) + 2
    click.echo(f"{'choice':<{width}}{'score':>9} {'± se':>6}  {'made':>6}  {'chelem':>6}  {'vs best':>14}")
    for r in rows:
        click.echo(f"{r['choice']:<{width}}{r['expected_score']:>+9.1f} {cell(r['se'], 6)}  {r['p_success']:>6.1%}  "
                   f"{r['p_chelem']:>6.1%}  {r['vs_best']:>+7.1f} ± {cell(r['vs_best_se'], 5).strip():<5}")
    for note in notes:
        click.echo(note)


def _parse_contract(ctx, param, value: str) -> Contract:
    try:
        return Contract.parse(value)
    except TarotError as exc:
        raise click.BadParameter(str(exc), param_hint="--contract") from None


def _parse_discard_contract(ctx, param, value: str) -> Contract:
    contract = _parse_contract(ctx, param, value)
    if not contract.chien_shown:
        raise click.BadParameter(f"{contract.token} has no discard (the chien is not taken): expected prise or garde",
                                 param_hint="--contract")
    return contract


def _contract_option(default: str):
    """``--contract``, checked as the options are read (before the hand), given as a ``Contract``."""
    return click.option("--contract", default=default, show_default=True, metavar="C", callback=_parse_contract,
                        help="The contract the hand takes (prise, garde, garde-sans, garde-contre).")


def _run(question, cards, rules, contract, options, seat, settings, quiet):
    with Progress("simulating", quiet) as bar:
        return compare(question, cards, rules, contract, options, seat=seat - 1, settings=settings.with_(progress=bar))


@click.command()
@click.argument("hand")
@_contract_option("garde")
@simulation_options(players="5")
@format_option("table", "json", "csv")
def call(hand, contract, players, seat, settings, variants, quiet,
         fmt) -> None:
    """5 players: which card to call with HAND, and the expected score of each choice."""
    if players != "5":
        raise click.BadParameter("a King is called only at 5 players (use --players 5)", param_hint="--players")
    rules, cards = _setup(hand, players, seat, variants)
    result = _run("Call:", cards, rules, contract, call_options(cards), seat, settings, quiet)
    _render_comparison(result, rules, fmt, [f"Recommendation: call {result.best.label}."])


@click.command()
@click.argument("hand")
@_contract_option("garde")
@simulation_options()
@format_option("table", "json", "csv")
def poignee(hand, contract, players, seat, settings, variants, quiet,
            fmt) -> None:
    """Which poignées HAND may show, which trumps to show, and what declaring each is worth."""
    rules, cards = _setup(hand, players, seat, variants)
    options = poignee_options(cards, rules)
    if len(options) == 1:
        raise click.UsageError(f"{cards.trumps()} trumps (the Excuse counted): a poignée needs "
                               f"{rules.poignee_thresholds[0]} at {rules.players} players")
    notes = [f"{name}: show {format_cards(shown)} (the lowest trumps; the Excuse only when no other trump is left)"
             for name, shown in poignees_shown(cards, rules).items()]
    notes.append("The price includes what the showing tells: every seat knows where the shown trumps are "
                 "(the heuristic counts them out of the other hands; --policy pimc also deals them to the shower).")
    result = _run("Poignée:", cards, rules, contract, options, seat, settings, quiet)
    _render_comparison(result, rules, fmt, notes + [f"Recommendation: {result.best.label}."])


@click.command()
@click.argument("hand")
@_contract_option("garde-sans")
@simulation_options()
@format_option("table", "json", "csv")
def chelem(hand, contract, players, seat, settings, variants, quiet,
           fmt) -> None:
    """The probability that HAND takes every trick, and the value of announcing the chelem.

    With --policy mixed (the default) the contract is searched as the mixed model searches it, but the
    taker's side draws at least 12 worlds a decision until its chelem is lost: while it has taken
    every trick, or all but one after announcing a petit chelem (with fewer it lets chelems slip that
    strong play takes)."""
    rules, cards = _setup(hand, players, seat, variants)
    result = _run("Chelem:", cards, rules, contract, chelem_options(rules), seat, settings, quiet)
    _render_comparison(result, rules, fmt, [f"Recommendation: {result.best.label}."])


@click.command()
@click.argument("hand")
@click.option("--chien", required=True, metavar="CARDS", help="The chien's cards.")
@click.option("--contract", default="garde", show_default=True, metavar="prise|garde", callback=_parse_discard_contract,
              help="The contract taken: prise or garde (the two in which the taker discards).")
@click.option("--top", type=click.IntRange(1, 50), default=5, show_default=True, help="How many discards to list.")
@players_option
@click.option("--seat", type=click.IntRange(1, 5), default=1, show_default=True, help="The taker's seat.")
@settings_options(fixed_deals=DISCARD_DEALS, max_fixed=MAX_DISCARD_DEALS, mixed=False)
@variant_option
@quiet_option
@format_option("table", "json", "csv")
def discard(hand, chien, contract, top, players, seat, settings, variants, quiet, fmt) -> None:
    """The best legal discards for HAND after taking --chien, by the taker's expected score.

    Every legal candidate worth comparing (the heuristic's discard, those one card away from it, those
    that empty a suit) is played by the heuristic on the same --deals deals; under the default play
    model (mixed) its five best are played again by the search, which ranks them: on 300 of those
    deals, then 300 more at a time, up to 1,200, for those not two standard errors behind the best
    (within a budget of plays that keeps the command to seconds); each is valued on the deals it was
    played on."""
    rules, cards = _setup(hand, players, seat, variants)
    dog = Hand.parse(chien, what="the chien")
    clash = cards.mask & dog.mask
    if clash:
        raise click.UsageError(f"card {format_cards(clash).split()[0]} is both in the hand and in the chien")
    dog.check_size(rules.chien_size, rules.players, "the chien")
    with Progress("searching the best discards", quiet, unit="plays") as bar:
        advice = discard_advice(cards, dog, contract, rules, seat=seat - 1, settings=settings.with_(progress=bar),
                                top=top)
    rows = advice.rows()
    if fmt == "json":
        echo_json({**advice.as_dict(), "variants": rules.variants()})
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        click.echo(buf.getvalue(), nl=False)
        return
    click.echo(f"{cards} + chien {dog}  ({contract.token})")
    click.echo(f"play: {advice.play_model}")
    click.echo(advice.rule())
    for i, r in enumerate(rows):
        if advice.searched and not r["searched"] and (i == 0 or rows[i - 1]["searched"]):
            click.echo("  the heuristic's next candidates (not searched; scores and differences of its play):")
        shown = f"  shows {r['shown_trumps']}" if r["shown_trumps"] else ""
        searched = f"  on {r['n']:,} searched deals" if r["searched"] else ""      # fewer: stopped behind the best
        click.echo(f"  {r['discard']:<24}{r['expected_score']:>+9.1f} ± {cell(r['se'], 5).strip():<5} vs best "
                   f"{r['vs_best']:>+6.1f} ± {cell(r['vs_best_se'], 4).strip():<4}{shown}{searched}")


@click.command("compare-bidding")
@click.option("--hands", type=click.IntRange(1, MAX_HANDS), default=1000, show_default=True,
              help=f"Random hands (at most {MAX_HANDS:,}).")
@players_option
@click.option("--deals", type=click.IntRange(10, MAX_DEALS), default=1000, show_default=True,
              help=f"Deals per option, to choose and (on fresh deals) to score (at most {MAX_DEALS:,}).")
@seed_option
@jobs_option
@variant_option
@quiet_option
@format_option("table", "json")
def compare_bidding(hands, players, deals, seed, jobs, variants, quiet, fmt) -> None:
    """The bid advice against the two point-count methods: agreement, and points gained per deal."""
    rules = rules_from(players, variants)
    with Progress("comparing", quiet, unit="hands") as bar:
        result = check_bidding(hands, rules.players, deals, seed, jobs=jobs, progress=bar, rules=rules)
    if fmt == "json":
        echo_json(result.as_dict())
        return
    bids = ["pass", "prise", "garde", "garde-sans", "garde-contre"]
    for method, table in result.agreement.items():
        click.echo(f"advice (rows) vs {method} (columns), {result.hands} hands")
        click.echo(" " * 14 + "".join(f"{b:>13}" for b in bids))
        for mine in bids:
            click.echo(f"{mine:<14}" + "".join(f"{table.get((mine, theirs), 0):>13}" for theirs in bids))
        g = result.gain[method]
        click.echo(f"advice gains {g.mean:+.2f} ± {g.se:.2f} points per deal over {method}\n")
