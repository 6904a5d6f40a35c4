"""``tarot-analyzer analyze``: judge every decision of played deals (coaching)."""

from __future__ import annotations

import csv
import io

import click

from analyzer.coach.cards import WORLDS
from analyzer.coach.deal import analyze_record
from analyzer.coach.html import report_page
from analyzer.output import check_output, write_text
from analyzer.records import RecordError
from analyzer.runs import Settings
from cli.options import format_option, json_text, jobs_option, quiet_option, seed_option
from cli.simulation_options import auction_noise_option, play_policy_option, worlds_option
from cli.progress import Progress
from cli.record import load_checked

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", None: ""}
CSV_FIELDS = ["deal", "seat", "phase", "trick", "played", "best", "best_group", "loss", "loss_se", "loss_score",
              "loss_score_se", "verdict", "reasons", "hindsight_best"]


def _seats(ctx, param, value: str):
    if value == "all":
        return None
    try:
        seats = sorted({int(v) for v in value.split(",")})
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected a seat number (1-5), a list like 1,3, or all") from None
    if not all(1 <= s <= 5 for s in seats):
        raise click.BadParameter(f"{value!r}: seats are numbered 1 to 5")
    return [s - 1 for s in seats]


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seats", default="all", show_default=True, callback=_seats, metavar="N|N,M|all",
              help="The seats whose decisions are judged.")
@play_policy_option
@worlds_option
@click.option("--deals", type=click.IntRange(10, 100_000),
              help=f"Worlds each card decision is judged on (default {WORLDS}; 2,000 deals for the decisions "
                   "before the play).")
@seed_option
@jobs_option
@quiet_option
@auction_noise_option
@format_option("table", "json", "csv", "html")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Write the report here (required for html); written whole or not at all.")
def analyze(file, seats, policy, worlds, deals, seed, jobs, quiet, noise, fmt, out) -> None:
    """Judge every decision of the deals in FILE (deal records, docs/records.md) from what the seat
    knew then: the best alternatives (those equal within noise together), the expected points lost
    in contract points with its standard error, a verdict (inaccuracy, mistake, blunder) when the
    loss is beyond noise with the facts that make it, the best choice in hindsight, and a summary per
    seat with an accuracy (docs/coaching.md)."""
    if fmt == "html" and out is None:
        raise click.UsageError("--format html writes a page: give its path with --out")
    if out is not None:
        check_output(out)                       # before the analysis, not after it
    records = load_checked(file)                # a file without a record: one line, as record check says
    settings = Settings(policy=policy, worlds=worlds, deals=deals, worlds_per_card=deals, seed=seed, jobs=jobs)
    reports = []
    for i, rec in enumerate(records):
        wanted = seats
        if wanted is not None:
            bad = [s + 1 for s in wanted if s >= rec.players]
            if bad:
                raise click.BadParameter(f"seat {bad[0]} does not exist at {rec.players} players", param_hint="--seat")
        with Progress(f"deal {i + 1}/{len(records)}: decision", quiet) as bar:
            try:
                reports.append(analyze_record(rec, wanted, settings, i, bar, with_board=fmt in ("json", "html"),
                                              noise=noise))
            except RecordError as exc:
                raise click.ClickException(str(exc)) from None
    text = _render(reports, records, fmt)
    if out is not None:
        write_text(out, text)
    else:
        click.echo(text, nl=False)


def _render(reports, records, fmt: str) -> str:
    if fmt == "json":
        return json_text({"deals": [r.as_dict() for r in reports]}) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for r in reports:
            for d in r.decisions:
                if d.judged:
                    row = d.as_dict()
                    row["best_group"] = group_text(row["best_group"], "|")
                    row["reasons"] = " ".join(row["reasons"])
                    writer.writerow({"deal": r.index + 1, **{k: row[k] for k in CSV_FIELDS if k != "deal"}})
        return buf.getvalue()
    if fmt == "html":
        return report_page(reports, records)
    return "".join(_table(r) for r in reports)


def group_text(choices: list[str], sep: str | None = None, width: int | None = None) -> str:
    """Equal alternatives together: "13, 11 or 4" (or joined by ``sep``); within ``width`` characters,
    the first ones and how many more: "EX, 1S (+5 equal)"."""
    if sep is not None:
        return sep.join(choices)
    text = choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + " or " + choices[-1]
    k = len(choices)
    while width is not None and len(text) > width and k > 1:
        k -= 1
        text = ", ".join(choices[:k]) + f" (+{len(choices) - k} equal)"
    return text


def _table(report) -> str:
    from analyzer.coach.reasons import LABELS
    lines = [f"deal {report.index + 1} ({report.players} players; {report.policy} play, "
             f"{report.worlds} worlds per card; losses in contract points)"]
    lines.append(f"{'seat':>4}  {'phase':<8}{'trick':>5}  {'played':<26}{'best':<26}{'loss':>8} {'± se':>6}  verdict")
    for d in report.decisions:
        if not d.judged:
            continue
        loss = d.loss
        best = group_text(d.best_group, width=25)
        why = "; ".join(LABELS[r] for r in d.reasons)
        lines.append(f"{d.seat + 1:>4}  {d.phase:<8}{d.trick or '':>5}  {d.played + MARKS[d.verdict]:<26}"
                     f"{best:<26}{loss.mean:>8.1f} {loss.se:>6.1f}  {d.verdict or ''}"
                     f"{': ' + why if why else ''}".rstrip())
    lines.append("summary (contract points lost, verdicts, accuracy):")
    for seat, s in report.summary().items():
        acc = "n/a" if s.accuracy is None else f"{s.accuracy:.0f}%"
        counts = ", ".join(f"{n} {k}" for k, n in s.verdicts.items())
        lines.append(f"  seat {seat + 1}: {s.lost:.1f} contract points lost over {s.judged} judged decisions; "
                     f"{counts}; accuracy {acc}")
    return "\n".join(lines) + "\n\n"
