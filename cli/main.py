"""The Click group ``tarot-analyzer`` and its commands."""

from __future__ import annotations

import sys
import warnings

import click

from analyzer import __version__
from analyzer.errors import TarotError
from analyzer.runs import PrecisionNotReached
from cli.advice import bid, call, chelem, compare_bidding, discard, odds, poignee
from cli.analyze import analyze
from cli.batch import batch
from cli.calibrate import calibrate_command
from cli.calibrate_choices import calibrate_choices_command
from cli.compare_play import compare_play_command
from cli.bench import bench
from cli.match import match
from cli.play import play
from cli.record import record
from cli.score import score
from cli.solve import solve
from cli.summarize import summarize

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


class OneLineErrorGroup(click.Group):
    """A Click group whose user errors print as one line on stderr (no usage block, no traceback)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        if not (sys.argv[1:] if args is None else list(args)):
            # No arguments at all: the help, as a successful answer (not a usage error).
            ctx = click.Context(self, info_name=prog_name or "tarot-analyzer", **self.context_settings)
            click.echo(self.get_help(ctx))
            sys.exit(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", PrecisionNotReached)
                warnings.showwarning = _one_line_warning
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as exc:
            click.echo(f"Error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except TarotError as exc:
            click.echo(f"Error: {_one_line(str(exc))}", err=True)
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


main.add_command(analyze)
main.add_command(batch)
main.add_command(bench)
main.add_command(bid)
main.add_command(calibrate_command)
main.add_command(calibrate_choices_command)
main.add_command(compare_play_command)
main.add_command(call)
main.add_command(chelem)
main.add_command(compare_bidding)
main.add_command(discard)
main.add_command(odds)
main.add_command(poignee)
main.add_command(match)
main.add_command(score)
main.add_command(solve)
main.add_command(play)
main.add_command(record)
main.add_command(summarize)
