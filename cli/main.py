"""The Click group ``tarot-analyzer`` and its commands."""

from __future__ import annotations

import importlib
import os
import sys
import warnings

import click

from analyzer import __version__
from analyzer.errors import PrecisionNotReached, TarotError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}

# Each command and where it is defined: a command imports its module (and the analyses and kernels that
# module needs) only when it runs, so that a quick command does not wait for every other one's imports
# (docs/journal/advice-commands.md, "Start and exit").
COMMANDS = {
    "analyze": "cli.analyze:analyze",
    "batch": "cli.batch:batch",
    "bench": "cli.bench:bench",
    "bid": "cli.advice:bid",
    "calibrate": "cli.calibrate:calibrate_command",
    "calibrate-choices": "cli.calibrate_choices:calibrate_choices_command",
    "calibrate-coach": "cli.calibrate_coach:calibrate_coach_command",
    "call": "cli.advice:call",
    "chelem": "cli.advice:chelem",
    "compare-analyses": "cli.compare_analyses:compare_analyses_command",
    "compare-bidding": "cli.advice:compare_bidding",
    "compare-play": "cli.compare_play:compare_play_command",
    "discard": "cli.advice:discard",
    "match": "cli.match:match",
    "odds": "cli.advice:odds",
    "play": "cli.play:play",
    "poignee": "cli.advice:poignee",
    "record": "cli.record:record",
    "score": "cli.score:score",
    "solve": "cli.solve:solve",
    "summarize": "cli.summarize:summarize",
    "warm": "cli.warm:warm",
}


class OneLineErrorGroup(click.Group):
    """A Click group whose commands load when called (``COMMANDS``) and whose user errors print as one
    line on stderr (no usage block, no traceback)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name].split(":")
        return getattr(importlib.import_module(module), attribute)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", PrecisionNotReached)
                warnings.showwarning = _one_line_warning
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # A group without its subcommand (the program itself, ``record``): its help, as a successful
            # answer (not a usage error).
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:
            click.echo(f"Error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except TarotError as exc:
            click.echo(f"Error: {_one_line(str(exc))}", err=True)
            sys.exit(2)
        except ValueError as exc:
            if "threading layer" not in str(exc):       # Numba's, when it starts its threads; else a bug
                raise
            click.echo(f"Error: {_one_line(str(exc))} (NUMBA_THREADING_LAYER is "
                       f"{os.environ.get('NUMBA_THREADING_LAYER', 'not set')})", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _one_line(message: str) -> str:
    """A message on one line (Click lists the choices of a missing option on lines of their own)."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    click.echo(f"Warning: {_one_line(str(message))}", err=True)


@click.group(cls=OneLineErrorGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="tarot-analyzer")
def main() -> None:
    """Monte Carlo hand analyzer for French Tarot (3, 4 and 5 players).

    Cards (docs/notation.md): trumps 1-21 (or T1-T21), EX (or *) for the Excuse, suit cards as rank
    then suit (KS, 10H, CD; French R D N V for King Queen Knight Jack and the symbols ♠ ♥ ♦ ♣ work
    too). Seats follow the bidding order: seat 1 speaks first and leads. The rules and their
    variants: docs/rules.md.
    """

