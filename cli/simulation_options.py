"""The simulation settings' options (--policy, --worlds, --mixed-worlds, --deals, --precision, …): their help
names the policies of ``analyzer.simulation.policies`` and the defaults of ``analyzer.runs``, whose import
loads Numba, so they live apart from ``cli.options`` and only the commands that simulate import them."""

from __future__ import annotations

import functools

import click

from analyzer.advice.auction import BID_NOISE
from analyzer.errors import TarotError
from analyzer.runs import MAX_DEALS, MAX_WORLDS, MIXED, MIXED_WORLDS, PIMC_WORLDS, Settings
from analyzer.simulation.policies import advice_choices, choices_help, play_choices
from cli.options import finite_number, jobs_option, seed_option

policy_option = click.option("--policy", type=click.Choice(advice_choices()), default=MIXED, show_default=True,
                             help="How the simulated seats play their cards: " + choices_help(advice_choices())
                                  + ". Every answer names the play behind it.")
# analyze judges one deal's play, whose contract is known: the mixed judge, or one policy for all of it.
play_policy_option = click.option(
    "--policy", type=click.Choice([MIXED, *play_choices()]), default=MIXED, show_default=True,
    help="How the worlds of each decision are played out: mixed, the heuristic on every card and the search "
         "(the mixed model's, on fewer worlds, the heuristic's values as control variates) again on the "
         "cards the heuristic flags or cannot clear; or one policy for all: "
         + choices_help(play_choices()) + ".")
auction_noise_option = click.option(
    "--auction-noise", "noise", type=click.FloatRange(0, 100),
    help=f"How far, in points of the bidding model's count, the players are taken to bid off the model: each "
         f"world counts by the chance of the recorded bids given its hands (default: {BID_NOISE:g} for players "
         f"at a table; 0, exactly the model, for a record whose Bidding tag names the model that bid it, as "
         f"play writes).")
worlds_option = click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=PIMC_WORLDS, show_default=True,
                             help="PIMC: the most worlds sampled per decision (pimc stops sooner once one card "
                                  "is clearly best; more: stronger play, slower).")


def mixed_worlds(ctx, param, value):
    """Click callback: "N" or "N,M" as (N, N) or (N, M) (None stays None; ``Settings`` checks the range)."""
    if value is None:
        return None
    parts = value.split(",")
    if len(parts) > 2 or not all(p.strip().isdecimal() for p in parts):
        raise click.BadParameter(f"{value!r} is not N or N,M (worlds per decision)", param=param)
    return int(parts[0]), int(parts[-1])


mixed_worlds_option = click.option(
    "--mixed-worlds", type=str, metavar="N[,M]", callback=mixed_worlds,
    help="With --policy mixed: its search's worlds per decision for prise and garde (N) and for garde sans and "
         "garde contre (M, else N); by default " + "; ".join(f"{a},{b} at {p} players"
                                                           for p, (a, b) in MIXED_WORLDS.items())
         + ". More: closer to deep search, slower.")


def with_mixed_worlds(settings: Settings, worlds: tuple[int, int] | None) -> Settings:
    """``settings`` with the mixed model's ``worlds`` (None: its defaults); what ``Settings`` refuses (worlds
    out of range, a policy other than mixed) is refused naming the option."""
    if worlds is None:
        return settings
    try:
        return settings.with_(mixed_worlds=worlds)
    except TarotError as exc:
        raise click.BadParameter(str(exc), param_hint="--mixed-worlds") from None


def settings_options(fixed_deals: int | None = None, max_fixed: int = MAX_DEALS, mixed: bool = True):
    """The simulation settings' options (--policy, --worlds, --mixed-worlds, --deals, --precision, --max-deals,
    --seed, --jobs), given to the command as one ``settings`` argument (``analyzer.runs.Settings``).  With
    ``fixed_deals``, runs have a fixed number of deals (that default, at most ``max_fixed``) and no
    precision target; without ``mixed``, no --mixed-worlds (a command whose mixed model searches nothing)."""
    if fixed_deals is None:
        sizes = [
            click.option("--deals", type=click.IntRange(1, MAX_DEALS),
                         help="A fixed number of deals (else --precision)."),
            click.option("--precision", type=click.FloatRange(0.001, 0.5), default=0.01, show_default=True,
                         callback=finite_number, help="Run until every probability's 95% half-width is at most this."),
            click.option("--max-deals", type=click.IntRange(1, MAX_DEALS), default=200_000, show_default=True,
                         help="Upper bound on deals with --precision."),
        ]
    else:
        sizes = [click.option("--deals", type=click.IntRange(10, max_fixed), default=fixed_deals, show_default=True,
                              help="Deals each alternative is played on (the same deals for all).")]
    options = [policy_option, worlds_option, *([mixed_worlds_option] if mixed else []), *sizes, seed_option,
               jobs_option]

    def decorate(fn):
        @functools.wraps(fn)
        def command(*args, policy, worlds, deals, seed, jobs, precision=0.01, max_deals=200_000, mixed_worlds=None,
                    **kwargs):
            settings = Settings(policy=policy, worlds=worlds, deals=deals, precision=precision, max_deals=max_deals,
                                seed=seed, jobs=jobs)
            return fn(*args, settings=with_mixed_worlds(settings, mixed_worlds), **kwargs)

        for option in reversed(options):
            command = option(command)
        return command

    return decorate
