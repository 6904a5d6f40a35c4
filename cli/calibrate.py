"""``tarot-analyzer calibrate``: the default answers of odds and bid against deep search, on random hands."""

from __future__ import annotations

import csv
import io

import click

from analyzer.quality import paired as paired_measure
from analyzer.quality.calibrate import (DEEP_DEALS, DEEP_SEED, DEEP_WORLDS, MAX_HANDS, NOISE_SES, STREAMS, TOLERANCE,
                                        calibrate)
from analyzer.runs import MAX_DEALS, MAX_WORLDS, Settings
from cli.options import (check_resume, echo_json, finite_number, format_option, jobs_option, players_option,
                         quiet_option, record_option, resume_option, rules_from, seed_option, variant_option)
from cli.simulation_options import mixed_worlds_option, with_mixed_worlds
from cli.progress import Progress

CSV_COLUMNS = ["hand_index", "hand", "contract", "p_default", "se_default", "p_deep", "se_deep", "gap", "gap_se",
               "recommendation_default", "recommendation_deep", "recommendation_agrees"]
PAIRED_COLUMNS = ["bias", "bias_se", "bias_deals"]     # with --paired


@click.command("calibrate")
@players_option
@click.option("--hands", type=click.IntRange(1, MAX_HANDS), default=10, show_default=True,
              help=f"Random hands of seat 1 (at most {MAX_HANDS:,}; about a minute each at the deep defaults).")
@seed_option
@click.option("--deep-worlds", "worlds", type=click.IntRange(1, MAX_WORLDS), default=DEEP_WORLDS, show_default=True,
              help="Deep search: PIMC worlds per decision.")
@click.option("--deep-deals", "deals", type=click.IntRange(10, MAX_DEALS), default=DEEP_DEALS, show_default=True,
              help="Deep search: deals per hand (each of odds and bid).")
@click.option("--policy", type=click.Choice(["mixed", "heuristic", "pimc"]), default=Settings().policy,
              show_default=True,
              help="The answers set against deep search: how their seats play (mixed, the default of odds and bid: "
                   "a search of a few worlds for the contracts the heuristic misses, the heuristic for the others; "
                   "the heuristic alone; or a search).")
@click.option("--worlds", "tested_worlds", type=click.IntRange(1, MAX_WORLDS), default=Settings().worlds,
              show_default=True, help="With --policy pimc: the most worlds per decision of those answers.")
@mixed_worlds_option
@click.option("--precision", type=click.FloatRange(0.001, 0.5), default=Settings().precision, show_default=True,
              callback=finite_number,
              help="Those answers run until every probability's 95% half-width is at most this.")
@record_option
@resume_option
@click.option("--deep-from", type=click.Path(dir_okay=False), metavar="RECORD",
              help="Take the deep answers from RECORD (a --record of an earlier run with the same --players, --seed "
                   "and variants, its deep settings replacing --deep-worlds and --deep-deals) instead of searching "
                   "again: other settings set against one long deep run in the time of their own answers.")
@click.option("--paired", type=click.IntRange(10, MAX_DEALS), metavar="DEALS",
              help="Also play each contract on the same deals by the tested play model and by deep search (at most "
                   f"DEALS deals, {paired_measure.STEP} a round, until the difference's standard error is "
                   f"{paired_measure.RATIO:g} times the answer's): each contract's bias, measured closely, and the "
                   "share of hands whose every answer is expected within ±3 pp of deep search's expectation.")
@click.option("--biases-from", type=click.Path(dir_okay=False), metavar="RECORD",
              help="Take each hand's biases from RECORD (a --record of a --paired run with the same --players, "
                   "--seed, variants and play model) instead of measuring them: the share of hands whose every "
                   "answer is expected within ±3 pp of deep search's expectation, for these answers (another "
                   "--precision, say), in the time of the answers alone.")
@jobs_option
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Hands checked at once, each in a process of its own with --jobs threads (default then 1): "
                   "the same checks, sooner on a machine of many cores; each command's seconds are then those of "
                   "its worker.")
@variant_option
@quiet_option
@format_option("table", "json", "csv")
@click.pass_context
def calibrate_command(ctx, players, hands, seed, worlds, deals, policy, tested_worlds, mixed_worlds, precision, record,
                      resume, deep_from, paired, biases_from, jobs, workers, variants, quiet, fmt) -> None:
    """The default answers of odds and bid against deep search (PIMC) on random hands.

    For each of --hands random hands of seat 1 (dealt from --seed), each contract's probability of
    success by `odds` with the default settings (or those of --policy, --worlds and --precision) next
    to the deep-search one, with their standard errors and the gap, and the recommendation of `bid`
    under each; then per contract the mean gap, the mean and worst absolute gap, the gaps' spread
    beyond their noise and the share within ±3 pp with the share the runs' noise alone allows; the
    share of hands whose every gap is within ±3 pp (with the shares the runs' noise and the default's
    own noise alone allow: what a default whose expectation is deep search's would score) or within two
    standard errors of the difference, the share whose recommendation agrees, and the seconds per
    command. Each hand's two runs have seeds of their own, so the two estimates are independent, and
    so are the hands (with one seed for all, the deals' luck would move every gap alike).

    The deep run's own noise blurs each gap (2.9 pp at 300 deals near even odds). --paired DEALS
    measures each contract's bias instead, the tested model's play against deep search's on the same
    deals (their outcomes differ on few deals, so the difference is known closely). From the biases'
    spread from hand to hand and each answer's own standard error comes the share of hands whose
    every answer is expected within ±3 pp of deep search's expectation, with two bounds from below:
    at the spreads' 95% bound, and each hand's biases taken as measured, their noise added.

    A hundred hands take hours: with --record FILE each hand is kept as it ends, and the same command
    with --resume goes on where it stopped (or grows the run with a larger --hands); --workers checks
    several hands at once; --deep-from takes the deep answers of such a record, so that other settings
    are judged in the time of their own answers, and --biases-from the biases of a --paired one."""
    check_resume(record, resume)
    for name, flag in (("worlds", "--deep-worlds"), ("deals", "--deep-deals")):
        if deep_from and ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT:
            raise click.BadParameter(f"the deep answers come from --deep-from {deep_from}, with its own settings",
                                     param_hint=flag)
    rules = rules_from(players, variants)
    tested = with_mixed_worlds(Settings(policy=policy, worlds=tested_worlds, precision=precision), mixed_worlds)
    with Progress("calibrating", quiet, unit="hands") as bar:
        result = calibrate(rules.players, hands, seed, worlds, deals, jobs, progress=bar, rules=rules, tested=tested,
                           record=record, resume=resume, workers=workers, deep_from=deep_from, paired=paired,
                           biases_from=biases_from)
    if fmt == "json":
        echo_json(result.as_dict())
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS + (PAIRED_COLUMNS if result.paired else []),
                                lineterminator="\n")
        writer.writeheader()
        for i, h in enumerate(result.hands, 1):
            row = h.as_dict()
            biases = {b.contract.token: b for b in h.biases}
            for gap in row["contracts"]:
                bias = biases.get(gap["contract"])
                writer.writerow({"hand_index": i, "hand": row["hand"], **gap,
                                 **{k: row[k] for k in CSV_COLUMNS[-3:]},
                                 **(dict(zip(PAIRED_COLUMNS, (bias.mean, bias.se, bias.deals))) if bias else {})})
        click.echo(buf.getvalue(), nl=False)
        return
    _table(result)


def _table(result) -> None:
    click.echo(f"{result.players} players, seat 1, {len(result.hands)} random hands (seed {result.seed})")
    click.echo(f"default: {result.default.play_model(result.players)}, until every probability is within "
               f"±{result.default.precision:g}" + (" (the defaults of odds and bid)" if result.tests_the_defaults else
                                                   " (odds and bid with these settings)"))
    click.echo(f"deep:    {result.deep.play_model(result.players)}, {result.deep.deals:,} deals"
               + (f", taken from {result.deep_from}" if result.deep_from else ""))
    if result.deep_streams == STREAMS:
        click.echo(f"each hand's runs have seeds of their own (from seed {result.default.seed} and from {DEEP_SEED}): "
                   "the hands' answers are independent")
    else:
        click.echo(f"the deep answers were made with seed {DEEP_SEED} for every hand: their deals' luck is common "
                   "to all the hands and moves every gap alike")
    for i, h in enumerate(result.hands, 1):
        click.echo("")
        click.echo(f"hand {i}: {h.hand}  ({h.deals_default:,} default deals, seed {h.seed_default})")
        click.echo(f"  {'contract':<13}{'default':>8} {'± se':>5}  {'deep':>7} {'± se':>5}  {'gap':>7} {'± se':>5}"
                   + (f"  {'bias':>6} {'± se':>5} {'deals':>6}" if h.biases else ""))
        biases = {b.contract: b for b in h.biases}
        for g in h.gaps:
            beyond = f"  beyond ±{100 * TOLERANCE:g} pp"
            if abs(g.gap) > NOISE_SES * g.se:
                beyond += f" and {NOISE_SES:g} se"
            mark = beyond if abs(g.gap) > TOLERANCE else ""
            bias = biases.get(g.contract)
            paired = f"  {100 * bias.mean:>+6.1f} {100 * bias.se:>5.1f} {bias.deals:>6,}" if bias else ""
            click.echo(f"  {g.contract.token:<13}{g.default.p:>8.1%} {100 * g.default.se:>5.1f}  {g.deep.p:>7.1%} "
                       f"{100 * g.deep.se:>5.1f}  {100 * g.gap:>+7.1f} {100 * g.se:>5.1f}{paired}{mark}")
        if h.biases:
            click.echo(f"  every answer within ±{100 * TOLERANCE:g} pp of deep search's expectation, at least: "
                       f"{h.within_tolerance_at_least():.1%} (each bias as measured)")
        cost, se = h.deep_cost
        verdict = ("same" if h.same_recommendation else
                   f"the default's costs {cost:+.1f} ± {se:.1f} points per deal in the deep run, "
                   + ("within one se" if h.recommendation_agrees else "beyond one se"))
        click.echo(f"  bid: default {h.recommendation_default}, deep {h.recommendation_deep} "
                   f"({verdict})")
    s = result.summary()
    n = len(result.hands)
    click.echo("")
    click.echo(f"summary over {n} hands (gaps in percentage points: default minus deep)")
    within = f"within ±{TOLERANCE * 100:g} pp"
    click.echo(f"  {'contract':<13}{'mean gap':>9}{'mean |gap|':>11}{'worst |gap|':>12}{'spread beyond noise':>20}"
               f"{within:>16}{'noise allows':>14}")
    for token, g in s["gaps"].items():
        click.echo(f"  {token:<13}{100 * g['mean']:>+9.1f}{100 * g['mean_abs']:>11.1f}{100 * g['worst_abs']:>12.1f}"
                   f"{100 * g['spread_beyond_noise']:>20.1f}{g['within_3pp']:>16.0%}"
                   f"{g['within_3pp_if_unbiased']:>14.0%}")
    for label, key in ((f"every gap within ±{TOLERANCE * 100:g} pp", "share_within_3pp"),
                       (f"every gap within {NOISE_SES:g} se of the difference", "share_within_2se"),
                       ("same recommendation", "share_same_recommendation"),
                       ("recommendation agrees (same, or within one se in the deep run)",
                        "share_recommendation_agrees")):
        click.echo(f"  {label}: {round(s[key] * n)} of {n} hands ({s[key]:.0%})")
        if key == "share_within_3pp":
            click.echo(f"    (the runs' noise alone allows {s['share_within_3pp_if_unbiased']:.0%}: the share expected "
                       "if the default's expectation were deep search's;")
            click.echo(f"    the default's own noise alone {s['share_within_3pp_default_noise']:.0%}: "
                       "the same, deep search's value exact)")
    if result.paired:
        _paired_summary(s, n, result.biases_from)
    click.echo("  seconds per command: " + ", ".join(f"{k} {v:.2f}" for k, v in s["seconds_per_command"].items()))


def _paired_summary(s: dict, n: int, taken_from: str | None) -> None:
    click.echo("")
    click.echo("paired: the default's play minus deep search's on the same deals (percentage points)"
               + (f", taken from {taken_from}" if taken_from else ""))
    echo_biases("contract", s["biases"], n, deals=True)
    click.echo(f"  every answer within ±{TOLERANCE * 100:g} pp of deep search's expectation, share of the {n} hands:")
    if n > 1:
        click.echo(f"    expected {s['share_within_3pp_expected']:.1%} (each contract's bias spread as measured, each "
                   "answer's noise its own)")
        click.echo(f"    at least {s['share_within_3pp_expected_low']:.1%} (the spreads at their 95% bound) and "
                   f"{s['share_within_3pp_at_least']:.1%} (each hand's biases as measured, their noise added)")
    else:
        click.echo(f"    at least {s['share_within_3pp_at_least']:.1%} (the hand's biases as measured, their noise "
                   "added; the rest needs two hands or more)")


def echo_biases(first: str, biases: dict, n: int, deals: bool = False) -> None:
    """A table of biases (``bias_summary``s, in percentage points), a row for each contract or probability
    (the first column's heading ``first``), with their mean deals when ``deals``; from one hand, no spread."""
    click.echo(f"  {first:<13}{'mean bias':>10}{'mean |bias|':>12}{'worst |bias|':>13}"
               f"{'spread beyond noise (95% bound)':>32}{'mean se':>8}" + (f"{'mean deals':>11}" if deals else ""))
    for token, b in biases.items():
        spread = f"{100 * b['spread']:.1f} ({100 * b['spread_upper']:.1f})" if n > 1 else "(two hands or more)"
        click.echo(f"  {token:<13}{100 * b['mean']:>+10.1f}{100 * b['mean_abs']:>12.1f}{100 * b['worst_abs']:>13.1f}"
                   f"{spread:>32}{100 * b['mean_se']:>8.1f}" + (f"{b['mean_deals']:>11,.0f}" if deals else ""))
