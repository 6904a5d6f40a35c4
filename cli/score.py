"""``tarot-analyzer score``: score a finished deal from its summary (a Goulash from each seat's points)."""

from __future__ import annotations

import re

import click

from analyzer.errors import TarotError
from analyzer.rules import Contract, PoigneeLevel
from analyzer.scoring import (Chelem, DealScore, DealSummary, Side, check_goulash_points, goulash_scores,
                              miseres_scores, score_deal)
from analyzer.summary_check import check_summary
from cli.options import echo_json, format_option, players_option, rules_from, variant_option


_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


def _half_points(text: str, option: str = "--points") -> int:
    if not _POINTS.fullmatch(text.strip()):
        raise click.BadParameter(f"{text[:40]!r} is not a number of points such as 45 or 40.5", param_hint=option)
    value = float(text.strip().replace(",", "."))
    if not 0 <= value <= 91:
        raise click.BadParameter(f"{text.strip()[:40]} is outside 0-91", param_hint=option)
    if value * 2 != int(value * 2):
        raise click.BadParameter(f"{text.strip()[:40]} is not a whole or half point", param_hint=option)
    return int(value * 2)


def _side(text: str | None) -> Side | None:
    try:
        return Side.parse(text) if text is not None else None
    except TarotError as exc:
        raise click.BadParameter(str(exc), param_hint="--petit-au-bout") from None


def _poignee(text: str) -> tuple[Side, PoigneeLevel]:
    side, sep, level = text.partition(":")
    if not sep:
        raise click.BadParameter(f"{text!r}: expected SIDE:LEVEL, e.g. taker:simple", param_hint="--poignee")
    try:
        return Side.parse(side), PoigneeLevel.parse(level)
    except TarotError as exc:
        raise click.BadParameter(str(exc), param_hint="--poignee") from None


def _goulash_points(text: str) -> list[int]:
    return [_half_points(part.strip(), "--goulash") for part in text.split(",")]


@click.command()
@players_option
@click.option("--contract", metavar="prise|garde|garde-sans|garde-contre",
              help="The contract played (required but with --goulash).")
@click.option("--oudlers", type=click.IntRange(0, 3),
              help="Oudlers the taker's side holds at the end (required but with --goulash).")
@click.option("--points", metavar="X",
              help="Card points of the taker's side (may end in .5; required but with --goulash).")
@click.option("--petit-au-bout", "pab", metavar="taker|defence", callback=lambda ctx, param, v: _side(v),
              help="Side that took the last trick with the Petit in it.")
@click.option("--poignee", "poignees", multiple=True, metavar="SIDE:LEVEL",
              help="A poignée shown (repeatable): taker|defence : simple|double|triple.")
@click.option("--chelem", metavar="OUTCOME", help="announced-made, made, announced-failed or defence (with "
              "chelem=petit-chelem also petit-announced-made, petit-announced-failed).")
@click.option("--alone", is_flag=True, help="5 players: the taker played without a partner.")
@click.option("--misere", "miseres", multiple=True, type=click.IntRange(1, 5), metavar="SEAT",
              help="A seat that declared a misère (repeatable, once per misère; needs --variant misere=on): "
                   "every other seat pays it 10.")
@click.option("--goulash", metavar="P1,P2,…",
              help="Score a Goulash instead (everybody passed, the deal played anyway; needs --variant "
                   "all-pass=goulash): the card points each seat took, in seat order.")
@variant_option
@format_option("table", "json")
def score(players, contract, oudlers, points, pab, poignees, chelem, alone, miseres, goulash, variants, fmt) -> None:
    """Score a finished deal from its summary (scores per seat, with the breakdown).

    A summary that no deal can end with is refused, naming the contradiction: points out of reach with
    those oudlers and that contract, a chelem or a petit au bout the count or the oudlers rule out, more
    poignées than players or more trumps shown than exist."""
    rules = rules_from(players, variants)
    misere = miseres_scores([seat - 1 for seat in miseres], rules)
    if goulash is not None:
        given = [name for name, value in (("--contract", contract), ("--oudlers", oudlers), ("--points", points),
                                          ("--petit-au-bout", pab), ("--chelem", chelem)) if value is not None]
        if given or poignees or alone:
            raise click.UsageError(f"a Goulash has no taker: {(given or ['--poignee/--alone'])[0]} does not apply")
        _score_goulash(_goulash_points(goulash), misere, rules, fmt)
        return
    for name, value in (("--contract", contract), ("--oudlers", oudlers), ("--points", points)):
        if value is None:
            raise click.UsageError(f"Missing option '{name}'.")
    summary = DealSummary(
        contract=Contract.parse(contract), oudlers=oudlers, half_points=_half_points(points),
        petit_au_bout=pab, poignees=tuple(_poignee(p) for p in poignees),
        chelem=Chelem.parse(chelem) if chelem else None, alone=alone)
    result = score_deal(summary, rules)
    check_summary(summary, rules)
    if fmt == "json":
        echo_json({"players": rules.players, "contract": summary.contract.token, **result.as_dict(),
                   "misere": misere, "variants": rules.variants()})
    else:
        click.echo(_table(summary, result, rules.players))
        if miseres:
            click.echo(_misere_line(misere))


def _score_goulash(taken: list[int], misere: list[int], rules, fmt: str) -> None:
    check_goulash_points(taken, rules)
    scores = [g + m for g, m in zip(goulash_scores(taken), misere)]
    if fmt == "json":
        echo_json({"players": rules.players, "contract": "goulash", "points": [hp / 2 for hp in taken],
                   "misere": misere, "scores": scores, "variants": rules.variants()})
        return
    click.echo(f"Goulash at {rules.players} players: each seat pays every other the points it took")
    for seat, (hp, total) in enumerate(zip(taken, scores)):
        click.echo(f"  seat {seat + 1}  took {hp / 2:>4g}  scores {total:+g}")
    if any(misere):
        click.echo(_misere_line(misere) + " (included above)")


def _misere_line(misere: list[int]) -> str:
    return "  misères        " + ", ".join(f"seat {s + 1} {m:+d}" for s, m in enumerate(misere))


def _signed(n: int) -> str:
    return f"{n:+d}"


def _table(summary: DealSummary, r: DealScore, players: int) -> str:
    c = summary.contract
    outcome = "made" if r.made else "lost"
    lines = [
        f"{c.token} (x{c.multiplier}) at {players} players: {outcome} by {abs(r.margin)} "
        f"({r.points:g} points counted as {r.target + r.margin}, target {r.target} with {summary.oudlers} oudler(s))",
        f"  base           {'+' if r.made else '-'}(25 + {abs(r.margin)}) x {c.multiplier} = {_signed(r.base)}",
        f"  petit au bout  {_signed(r.petit_au_bout)}",
        f"  poignée        {_signed(r.poignee)}",
        f"  chelem         {_signed(r.chelem)}",
        f"  per defender   {_signed(r.total)}  (seen from the taker's side)",
        "",
        f"  taker          {_signed(r.taker)}",
    ]
    if r.partner is not None:
        lines.append(f"  partner        {_signed(r.partner)}")
    lines.append(f"  each defender  {_signed(r.defender)}  (x{r.defenders})")
    return "\n".join(lines)
