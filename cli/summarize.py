"""``tarot-analyzer summarize``: success rates and mean scores per group of a batch file."""

from __future__ import annotations

import csv
import io
import math

import click

from cli.options import echo_json, format_option


def _se(se: float) -> str:
    """A standard error for the table; a group of one row has none."""
    return f"{se:.1f}" if math.isfinite(se) else "–"


@click.command()
@click.argument("file", type=click.Path(dir_okay=True, file_okay=True))
@click.option("--by", required=True, metavar="COL[,COL…]", help="Columns to group by, e.g. oudlers,trumps.")
@click.option("--contract", "contract", metavar="C", help="One contract (default: every contract in the file).")
@format_option("table", "csv", "json")
def summarize(file, by, contract, fmt) -> None:
    """Per group: n, success rate with its 95% interval, mean taker score with its standard error."""
    from analyzer.summarize import summarize as summarize_file     # pandas: only the commands that use it
    columns = list(dict.fromkeys(c.strip() for c in by.split(",") if c.strip()))
    if not columns:
        raise click.BadParameter("name at least one column", param_hint="--by")
    groups = summarize_file(file, columns, [contract] if contract else None)
    rows = [g.as_dict() for g in groups]
    if fmt == "json":
        echo_json(rows)
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns + ["contract", "n", "success_rate", "ci95_low", "ci95_high", "mean_score", "se"])
        for g in groups:
            writer.writerow([g.keys[c] for c in columns] + [g.contract, g.n, f"{g.success_rate:.4f}",
                            f"{g.ci95[0]:.4f}", f"{g.ci95[1]:.4f}", f"{g.mean_score:.2f}",
                            f"{g.se:.2f}" if math.isfinite(g.se) else ""])
        click.echo(buf.getvalue(), nl=False)
        return
    header = columns + ["contract", "n", "success", "95% interval", "mean score", "± se"]
    body = [[str(g.keys[c]) for c in columns] + [g.contract, str(g.n), f"{g.success_rate:.1%}",
            f"{g.ci95[0]:.1%}–{g.ci95[1]:.1%}", f"{g.mean_score:+.1f}", _se(g.se)] for g in groups]
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(header)]
    click.echo("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in body:
        click.echo("  ".join(v.rjust(w) for v, w in zip(r, widths)))
