"""``tarot-analyzer calibrate-choices``: the default answers of call, poignee, chelem and discard against
deep search, on random hands."""

from __future__ import annotations

import click

from analyzer.quality.calibrate import DEEP_WORLDS, MAX_HANDS, NOISE_SES, TOLERANCE
from analyzer.quality.choices_check import DEALS, DISCARDS, MAX_PAIRED_DEALS, QUESTIONS, calibrate_choices
from analyzer.runs import MAX_WORLDS
from cli.calibrate import echo_biases
from cli.options import (check_resume, echo_json, format_option, jobs_option, quiet_option, record_option,
                         resume_option, rules_from, seed_option, variant_option)
from cli.progress import Progress


@click.command("calibrate-choices")
@click.argument("question", type=click.Choice(QUESTIONS))
@click.option("--players", type=click.Choice(["3", "4", "5"]),
              help="Number of players (default: 5 for call, where a King is called, else 4).")
@click.option("--seat", type=click.IntRange(1, 5), default=1, show_default=True,
              help="The taker's seat (seat 1 leads the first trick; another seat leads it only by announcing a "
                   "chelem).")
@click.option("--hands", type=click.IntRange(1, MAX_HANDS), default=10, show_default=True,
              help=f"Hands checked (at most {MAX_HANDS:,}; from a few seconds to half a minute each).")
@seed_option
@click.option("--deals", type=click.IntRange(2, MAX_PAIRED_DEALS), default=DEALS, show_default=True,
              help="Deals a hand on which every alternative is played by the command's model and by deep search.")
@click.option("--deep-worlds", type=click.IntRange(1, MAX_WORLDS), default=DEEP_WORLDS, show_default=True,
              help="Deep search: PIMC worlds per decision.")
@record_option
@resume_option
@jobs_option
@variant_option
@quiet_option
@format_option("table", "json")
def calibrate_choices_command(question, players, seat, hands, seed, deals, deep_worlds, record, resume, jobs, variants,
                              quiet, fmt) -> None:
    """The default answers of call, poignee, chelem or discard (QUESTION) against deep search (PIMC).

    Each of --hands hands of --seat is one the question is asked about: any hand for call (5
    players), one holding a simple poignée's trumps for poignee, a triple poignée's and nothing but
    Kings beside them for chelem (drawn uniformly among such hands), a hand and its chien for discard.
    The command runs with its defaults (its default contract: garde, garde-sans for chelem); then every
    alternative it reported (discard: its five best) is played on the same --deals deals by the
    command's play model and by deep search.
    Per alternative: the command's probabilities, their bias (the command's model minus deep search,
    on the same deals) and deep search's expected score; per hand, the command's choice and deep
    search's, and what the command's choice costs in deep search's play. The summary pools the biases
    over hands and alternatives (their mean and spread beyond noise), gives the share of hands whose
    every reported probability is expected within ±3 pp of deep search's expectation (discard reports
    none; the answers' errors correlated as measured on the paired deals, and as if independent), the
    share whose recommendation agrees (the same, or within one standard error in deep search's play),
    that test's reach (how often a choice knowing deep search's expectations would pass it, the paired
    deals resampled; and, judged on half of the deals, deep search's own choice on the other half
    beside the command's) and the seconds of each command.

    With --record FILE each hand is kept as it ends, and the same command with --resume goes on where
    it stopped."""
    players = players or ("5" if question == "call" else "4")
    rules = rules_from(players, variants)
    if question == "call" and rules.players != 5:
        raise click.BadParameter(f"{players}: a King is called at 5 players only", param_hint="--players")
    if seat > rules.players:
        raise click.BadParameter(f"{seat}: there are {rules.players} seats", param_hint="--seat")
    check_resume(record, resume)
    with Progress("calibrating", quiet, unit="hands") as bar:
        result = calibrate_choices(question, rules, hands, seed, deals, deep_worlds, jobs, progress=bar,
                                   seat=seat - 1, record=record, resume=resume)
    if fmt == "json":
        echo_json(result.as_dict())
        return
    _table(result)


def _table(result) -> None:
    n = len(result.hands)
    probabilities = result.hands[0].reports_probabilities
    click.echo(f"{result.question}: {result.rules.players} players, seat {result.seat + 1} takes "
               f"{result.contract.token}, {n} hands (seed {result.seed})")
    click.echo(f"default: {result.play_model}" + (f" (the alternatives checked: its {DISCARDS} best)"
                                                  if result.question == "discard" else ""))
    click.echo(f"deep:    pimc, {result.deep_worlds} worlds per decision; each alternative on the same "
               f"{result.deals:,} deals by both")
    for i, h in enumerate(result.hands, 1):
        click.echo("")
        click.echo(f"hand {i}: {h.hand}" + (f" + chien {h.chien}" if h.chien else ""))
        head = f"  {'choice':<22}{'score':>8}"
        if probabilities:
            head += f"{'made':>8} {'± se':>5} {'bias':>6} {'± se':>5}{'chelem':>8} {'bias':>6}"
        click.echo(head + f"{'deep score':>12} {'± se':>5}")
        for a in h.alternatives:
            line = f"  {a.answer.label:<22}{a.answer.score:>+8.1f}"
            if probabilities:
                p, se = a.answer.success
                bias = a.success_bias
                line += (f"{p:>8.1%} {100 * se:>5.1f} {100 * bias.mean:>+6.1f} {100 * bias.se:>5.1f}"
                         f"{a.answer.chelem[0]:>8.1%} {100 * a.chelem_bias.mean:>+6.1f}")
            click.echo(line + f"{a.deep_score.mean:>+12.1f} {a.deep_score.se:>5.1f}")
        verdict = ("same" if h.same_recommendation else
                   f"the default's costs {h.cost.mean:+.1f} ± {h.cost.se:.1f} points a deal in deep search's play, "
                   + ("within one se" if h.recommendation_agrees else "beyond one se"))
        click.echo(f"  recommendation: default {h.choice}, deep {h.deep_choice} ({verdict})")
        if h.reach:
            click.echo(f"  the test's reach here: a choice knowing deep search's expectations passes on "
                       f"{h.reach.known[1]:.0%} of draws")
    s = result.summary()
    click.echo("")
    click.echo(f"summary over {n} hands")
    if probabilities:
        click.echo("  biases: the command's play minus deep search's on the same deals, every alternative (pp)")
        echo_biases("probability", s["biases"], n)
        click.echo(f"  every probability expected within ±{100 * TOLERANCE:g} pp of deep search's expectation: "
                   f"{s['share_within_3pp_expected']:.1%} of hands")
        click.echo(f"    ({s['share_within_3pp_expected_low']:.1%} with the spreads at their 95% bound; "
                   f"{s['share_within_3pp_independent']:.1%} were the answers' errors independent, a bound from below)")
    for label, key in (("same recommendation", "share_same_recommendation"),
                       ("recommendation agrees (same, or within one se in deep search's play)",
                        "share_recommendation_agrees"),
                       (f"the same, or within {NOISE_SES:g} se (what the paired deals' noise allows)",
                        "share_recommendation_within_2se")):
        click.echo(f"  {label}: {round(s[key] * n)} of {n} hands ({s[key]:.0%})")
    if "recommendation_reach" in s:
        known, halves = s["recommendation_reach"]["known"], s["recommendation_reach"]["halves"]
        click.echo("  the test's reach (alternatives worth nearly the same are told apart by noise):")
        click.echo(f"    a choice knowing deep search's expectations, the paired deals resampled (at most): the same "
                   f"{known['same']:.0%}, within one se {known['within_1se']:.0%}, within {NOISE_SES:g} se "
                   f"{known['within_2se']:.0%}")
        click.echo(f"    judged on half of the deals: deep search's own choice on the other half within one se "
                   f"{halves['deep_within_1se']:.0%}, the default's {halves['default_within_1se']:.0%}")
    click.echo(f"  the default's choice costs in deep search's play {s['cost_mean']:.1f} points a deal on average, "
               f"{s['cost_worst']:.1f} at worst")
    click.echo("  seconds a hand: " + ", ".join(f"{k} {v['mean']:.1f} (worst {v['worst']:.1f})"
                                            for k, v in s["seconds"].items()))

