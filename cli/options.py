"""Options and conversions shared by several commands."""

from __future__ import annotations

import functools
import json
import math

import click
import numpy as np

from analyzer.advice.odds import CHELEM_SIGHT
from analyzer.errors import TarotError
from analyzer.rules import Rules
from analyzer.runs import (CHELEM_WORLDS, MAX_DEALS, MAX_WORLDS, MIXED, MIXED_PRECISION, MIXED_WORLDS, ODDS_PRECISION,
                          PIMC_WORLDS, Settings, mixed_play_model)

players_option = click.option("--players", type=click.Choice(["3", "4", "5"]), default="4", show_default=True,
                              help="Number of players.")
seed_option = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                           help="Random seed (same seed, same output, whatever --jobs).")
policy_option = click.option("--policy", type=click.Choice(["mixed", "heuristic", "pimc", "random"]),
                             default=MIXED, show_default=True,
                             help="How the simulated seats play their cards: mixed searches the contracts the "
                                  "heuristic misses and plays the others by it ("
                                  + "; ".join(f"at {p} players {mixed_play_model(p)}" for p in (3, 4, 5))
                                  + f"; a hand whose heuristic play takes every trick at prise on {CHELEM_SIGHT:.0%} "
                                  f"of deals or more has its taker's side search at least {CHELEM_WORLDS} worlds a "
                                  "decision until its chelem is lost"
                                  + f"; whatever --worlds, to {MIXED_PRECISION:g} times --precision"
                                  + "".join(f" (odds' and bid's contracts at {p} players {scale:g} times, but "
                                            "near a chelem)"
                                            for p, scale in ODDS_PRECISION.items() if scale != MIXED_PRECISION)
                                  + ", the "
                                  "heuristic's play of the same deals a control variate: seconds); heuristic plays "
                                  "every contract "
                                  "at once (under a second, rougher); pimc searches every card (minutes).")
# analyze judges one deal's play, whose contract is known: one policy for all of it.
play_policy_option = click.option("--policy", type=click.Choice(["heuristic", "pimc", "random"]), default="heuristic",
                                  show_default=True, help="How the simulated seats play their cards.")
jobs_option = click.option("--jobs", type=click.IntRange(1, None), help="Threads (default: all).")
quiet_option = click.option("--quiet", is_flag=True,
                            help="No progress bar (on a terminal, a first run still says in one line that it compiles "
                                 "the kernels).")
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


def json_safe(obj):
    """``obj`` with every non-finite float (NaN, ±inf: a standard error of one row, say) as None, which
    JSON writes ``null``; tuples become lists and NumPy scalars plain numbers."""
    if isinstance(obj, dict):
        return {key: json_safe(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(value) for value in obj]
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def json_text(obj) -> str:
    """``obj`` as indented, strict JSON text (never NaN or Infinity: those are written null)."""
    return json.dumps(json_safe(obj), ensure_ascii=False, indent=2, allow_nan=False)


def echo_json(obj) -> None:
    click.echo(json_text(obj))


def finite_number(ctx, param, value):
    """Click callback: a float option must be a number (click's ranges let NaN through)."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number", param=param)
    return value


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


# A long check's run record (``analyzer.quality.run_record``): calibrate and calibrate-choices.
record_option = click.option("--record", type=click.Path(dir_okay=False), metavar="FILE",
                             help="Write each hand's check to FILE as it ends (JSON lines), so that a long run can "
                                  "stop and go on.")
resume_option = click.option("--resume", is_flag=True,
                             help="Take the hands the --record FILE already holds (same settings) and check only the "
                                  "others.")


def check_resume(record: str | None, resume: bool) -> None:
    """--resume goes on with a --record: refused without one."""
    if resume and not record:
        raise click.BadParameter("--resume goes on with a --record FILE: name it", param_hint="--resume")
