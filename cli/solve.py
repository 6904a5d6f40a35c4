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
    the score that seat ends the deal with, best first, equal cards together, with the best line
    trick by trick."""
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
    seat = solution.seat + 1
    role = "taker" if solution.seat == game.taker else "partner" if solution.seat == game.partner else "defender"
    click.echo(f"Seat {seat} ({role}) to play in trick {solution.trick + 1}: seat {seat}'s score at the end "
               f"under perfect play by both sides, all hands seen ({solution.nodes:,} nodes, "
               f"{solution.seconds:.3f} s)")
    for i, (value, cards) in enumerate(solution.groups):
        mark = "  best" if i == 0 else f"  {value - solution.groups[0][0]:+.0f}"
        click.echo(f"  {value:>+6.0f}  {' '.join(C.TOKENS[c] for c in cards):<24}{mark}")
    click.echo("The best line:")
    for t in solution.tricks:
        played = "  ".join(f"{C.TOKENS[c]}" + ("" if i >= t.played_before else "*")
                           for i, c in enumerate(t.cards))
        click.echo(f"  trick {t.number + 1:>2}: seat {t.leader + 1} leads  {played:<24} won by seat {t.winner + 1}")
    if any(t.played_before for t in solution.tricks):
        click.echo("  (* already played)")
    scores = "  ".join(f"seat {s + 1} {v:+.0f}" for s, v in enumerate(solution.final_scores))
    click.echo(f"Final scores: {scores}")
