"""``tarot-analyzer score``: score a finished deal from its summary."""

from __future__ import annotations

import re

import click

from analyzer.errors import TarotError
from analyzer.rules import Contract, PoigneeLevel
from analyzer.scoring import Chelem, DealScore, DealSummary, Side, score_deal
from analyzer.summary_check import check_summary
from cli.options import echo_json, format_option, players_option, rules_from, variant_option


_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


def _half_points(text: str) -> int:
    if not _POINTS.fullmatch(text.strip()):
        raise click.BadParameter(f"{text[:40]!r} is not a number of points such as 45 or 40.5", param_hint="--points")
    value = float(text.strip().replace(",", "."))
    if not 0 <= value <= 91:
        raise click.BadParameter(f"{text.strip()[:40]} is outside 0-91", param_hint="--points")
    if value * 2 != int(value * 2):
        raise click.BadParameter(f"{text.strip()[:40]} is not a whole or half point", param_hint="--points")
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


@click.command()
@players_option
@click.option("--contract", required=True, metavar="prise|garde|garde-sans|garde-contre", help="The contract played.")
@click.option("--oudlers", required=True, type=click.IntRange(0, 3), help="Oudlers the taker's side holds at the end.")
@click.option("--points", required=True, metavar="X", help="Card points of the taker's side (may end in .5).")
@click.option("--petit-au-bout", "pab", metavar="taker|defence", callback=lambda ctx, param, v: _side(v),
              help="Side that took the last trick with the Petit in it.")
@click.option("--poignee", "poignees", multiple=True, metavar="SIDE:LEVEL",
              help="A poignée shown (repeatable): taker|defence : simple|double|triple.")
@click.option("--chelem", metavar="OUTCOME", help="announced-made, made, announced-failed or defence.")
@click.option("--alone", is_flag=True, help="5 players: the taker played without a partner.")
@variant_option
@format_option("table", "json")
def score(players, contract, oudlers, points, pab, poignees, chelem, alone, variants, fmt) -> None:
    """Score a finished deal from its summary (scores per seat, with the breakdown).

    A summary that no deal can end with is refused, naming the contradiction: points out of reach with
    those oudlers and that contract, a chelem or a petit au bout the count or the oudlers rule out, more
    poignées than players or more trumps shown than exist."""
    rules = rules_from(players, variants)
    summary = DealSummary(
        contract=Contract.parse(contract), oudlers=oudlers, half_points=_half_points(points),
        petit_au_bout=pab, poignees=tuple(_poignee(p) for p in poignees),
        chelem=Chelem.parse(chelem) if chelem else None, alone=alone)
    result = score_deal(summary, rules)
    check_summary(summary, rules)
    if fmt == "json":
        echo_json({"players": rules.players, "contract": summary.contract.token, **result.as_dict()})
    else:
        click.echo(_table(summary, result, rules.players))


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
