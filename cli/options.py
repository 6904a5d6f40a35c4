"""Options and conversions shared by several commands; those of the simulations' settings, which need the
analyses and so Numba, are in ``cli.simulation_options`` (a command that simulates nothing starts without them).
"""

from __future__ import annotations

import json
import math

import click
import numpy as np

from analyzer.errors import TarotError
from analyzer.rules import Rules

players_option = click.option("--players", type=click.Choice(["3", "4", "5"]), default="4", show_default=True,
                              help="Number of players.")
seed_option = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
                           help="Random seed (same seed, same output, whatever --jobs).")
jobs_option = click.option("--jobs", type=click.IntRange(1, None), help="Threads (default: all).")
quiet_option = click.option("--quiet", is_flag=True,
                            help="No progress bar (on a terminal, a first run still says in one line that it compiles "
                                 "the kernels).")
variant_option = click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE",
                              help="Rule variant (repeatable), e.g. petit-au-bout=flat.")


def deals_phrase(n: int) -> str:
    """``1 deal``, ``2,000 deals``."""
    return f"{n:,} deal" if n == 1 else f"{n:,} deals"


def cell(value: float, width: int, digits: int = 1, signed: bool = False) -> str:
    """A number for a table, right-aligned in ``width``; a dash where there is none (a standard error of
    one deal, a share of no deal), never ``nan``."""
    if not math.isfinite(value):
        return f"{'–':>{width}}"
    return f"{value:>{'+' if signed else ''}{width}.{digits}f}"


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
