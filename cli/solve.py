"""``tarot-analyzer solve``: the double-dummy table of a recorded deal stopped in the middle of the play."""

from __future__ import annotations

import click

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.solve import solve as solve_game
from cli.options import echo_json, format_option
from cli.record import load_checked

MAX_TRICKS_LEFT = 10     # each trick more multiplies the work (bench's endgame_ms_<k>_tricks figures)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--record", "number", type=click.IntRange(1, None), default=1, show_default=True,
              help="Which record of FILE (1 for the first).")
@format_option("table", "json")
def solve(file, number, fmt) -> None:
    """Every legal card's value for the seat to play in a recorded deal whose hands are all known and
    whose play stops before the end, under perfect play by both sides (all hands seen): the value is
    the taker's score at the end of the deal (3 × each defender's at 4 players), with the best card and
    the principal line."""
    records = load_checked(file)
    if number > len(records):
        raise click.BadParameter(f"{file} holds {len(records)} record(s), not {number}", param_hint="--record")
    game = records[number - 1].game
    left = game.rules.tricks - len(game.tricks)
    if game.taker is None or game.phase.value != "play":
        raise click.ClickException("the record does not stop during the play of a deal with a taker")
    if left > MAX_TRICKS_LEFT:
        raise click.ClickException(f"{left} tricks are left to play: solving is exact up to {MAX_TRICKS_LEFT} "
                                   "(record the deal further)")
    try:
        solution = solve_game(game)
    except TarotError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        echo_json(solution.as_dict())
        return
    click.echo(f"seat {solution.seat + 1} to play in trick {solution.trick + 1} "
               f"({solution.nodes:,} nodes, {solution.seconds:.3f} s); the taker's score under perfect play "
               "(the taker's side plays for the highest, the defence for the lowest):")
    for card, value in sorted(solution.values, key=lambda cv: -cv[1]):
        mark = "  <- best" if card == solution.best else ""
        click.echo(f"  {C.TOKENS[card]:<4}{value:>+8.0f}{mark}")
    click.echo("line: " + " ".join(C.TOKENS[c] for c in solution.line))
