"""``tarot-analyzer analyze``: judge every decision of played deals (coaching)."""

from __future__ import annotations

import csv
import io

import click

from analyzer.coach.cards import WORLDS
from analyzer.coach.html import player_page, report_page
from analyzer.coach.many_deals import CHUNK, analyze_deals, load_deals
from analyzer.coach.player_report import player_report, seat_player
from analyzer.output import check_output, write_text
from analyzer.records import RecordError
from analyzer.rules import HAND_SIZE
from analyzer.runs import Settings
from cli.options import format_option, json_text, jobs_option, quiet_option, seed_option
from cli.simulation_options import auction_noise_option, play_policy_option, worlds_option
from cli.progress import Progress

MAX_TRICKS = max(HAND_SIZE.values())      # a deal has as many tricks as cards in a hand
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


def _tricks(ctx, param, value: str | None):
    """"7", "5-9" or "3,7,10-12" as the sorted trick numbers (None: every decision)."""
    if value is None:
        return None
    tricks = set()
    for part in value.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            lo = int(first)
            hi = int(last) if dash else lo
        except ValueError:
            raise click.BadParameter(f"{part.strip()!r}: expected a trick number, a range like 5-9, or a list "
                                     "like 3,7") from None
        if not 1 <= lo <= hi <= MAX_TRICKS:
            raise click.BadParameter(f"{part.strip()!r}: tricks are numbered 1 to {MAX_TRICKS}, a range from "
                                     "low to high")
        tricks.update(range(lo, hi + 1))
    return tuple(sorted(tricks))


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE|FOLDER...", type=click.Path())
@click.option("--seat", "seats", default="all", show_default=True, callback=_seats, metavar="N|N,M|all",
              help="The seats whose decisions are judged.")
@click.option("--trick", "tricks", callback=_tricks, metavar="N|N-M|N,M",
              help="Judge only the cards played in these tricks (7, 5-9 or 3,7; the decisions before the "
                   "play are then left out): a quick answer on one card.")
@click.option("--player", metavar="NAME",
              help="Judge one player across the deals: in each deal the seat whose name tag (SeatN) is NAME; the "
                   "deals where NAME does not sit are skipped and counted. Reports the player's accuracy, losses "
                   "by phase, most frequent errors and worst decisions (docs/coaching.md).")
@play_policy_option
@worlds_option
@click.option("--deals", type=click.IntRange(10, 100_000),
              help=f"Worlds each card is judged on and deals each decision before the play is judged on (default: "
                   f"{WORLDS} worlds; 2,000 deals, a close decision then judged again as its advice command judges it, "
                   "to its precision).")
@seed_option
@jobs_option
@click.option("--chunk-size", type=click.IntRange(1, None), default=CHUNK, show_default=True,
              help="Deals per chunk of work (as batch's; the output does not depend on it).")
@click.option("--scheduler", metavar="ADDRESS", help="Analyse the chunks on a dask.distributed cluster (tcp://host:8786).")
@click.option("--local-cluster", type=click.IntRange(1, None), metavar="N",
              help="Start a dask.distributed cluster of N worker processes here and analyse on it.")
@quiet_option
@auction_noise_option
@format_option("table", "json", "csv", "html")
@click.option("--only-mistakes", is_flag=True,
              help="With --format csv: only the flagged decisions (an inaccuracy, a mistake or a blunder).")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Write the report here (required for html); written whole or not at all.")
def analyze(files, seats, tricks, player, policy, worlds, deals, seed, jobs, chunk_size, scheduler, local_cluster, quiet, noise,
            fmt, only_mistakes, out) -> None:
    """Judge every decision of the deals in FILE (deal records, docs/records.md; several files, or a
    folder's record files, *.txt and *.json, in name order) from what the seat knew then: the best
    alternatives (those equal within noise together), the expected points lost in contract points
    with its standard error, a verdict (inaccuracy, mistake, blunder) when the loss is beyond noise
    with the facts that make it, the best choice in hindsight, and a summary per seat with an
    accuracy (docs/coaching.md).  With --player NAME, one player's report across the deals."""
    if fmt == "html" and out is None:
        raise click.UsageError("--format html writes a page: give its path with --out")
    if only_mistakes and fmt != "csv":
        raise click.BadParameter("keeps the CSV's flagged decisions: give --format csv", param_hint="--only-mistakes")
    if player is not None and seats is not None:
        raise click.BadParameter("--player chooses each deal's seat: give --seat or --player, not both",
                                 param_hint="--player")
    if out is not None:
        check_output(out)                       # before the analysis, not after it
    if scheduler is not None:
        from analyzer.batch import scheduler_address     # pandas: only for a cluster run
        scheduler_address(scheduler)            # its form, before the analysis
    inputs = load_inputs(files)                 # a file without a record: one line, as record check says
    if player is not None:
        seating = seat_player(inputs, player)
        tasks = [(deal, (seat,)) for deal, seat in seating.seated]
    else:
        for deal in inputs:
            bad = [s + 1 for s in seats or () if s >= deal.record.players]
            if bad:
                raise click.BadParameter(f"seat {bad[0]} does not exist at {deal.record.players} players",
                                         param_hint="--seat")
        tasks = [(deal, None if seats is None else tuple(seats)) for deal in inputs]
    for deal in inputs:
        rules = deal.record.rules
        if tricks and tricks[-1] > rules.tricks:
            raise click.BadParameter(f"trick {tricks[-1]} does not exist at {rules.players} players ({rules.tricks} "
                                     "tricks)", param_hint="--trick")
    settings = Settings(policy=policy, worlds=worlds, deals=deals, worlds_per_card=deals, seed=seed, jobs=jobs)
    with Progress("judging", quiet, unit="decisions") as bar:
        reports = analyze_deals(tasks, settings, fmt in ("json", "html"), chunk_size, scheduler, local_cluster, bar,
                                noise=noise, tricks=tricks)
    if player is not None:
        summary = player_report(seating.name, [(deal, seat, r) for (deal, seat), r in zip(seating.seated, reports)],
                                seating.not_seated, seating.hand_unknown)
        text = _render_player(summary, reports, fmt, only_mistakes)
    else:
        text = _render(reports, [deal.record for deal in inputs], fmt, only_mistakes)
    if out is not None:
        write_text(out, text)
    else:
        click.echo(text, nl=False)


def load_inputs(files):
    """The deals of ``files`` (files or folders), checked; a bad one is a one-line error."""
    try:
        return load_deals(files)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None


def _render(reports, records, fmt: str, only_mistakes: bool = False) -> str:
    if fmt == "json":
        return json_text({"deals": [r.as_dict() for r in reports]}) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for r in reports:
            for d in r.decisions:
                if d.judged and (d.verdict or not only_mistakes):
                    writer.writerow({"deal": r.index + 1, **_decision_row(d)})
        return buf.getvalue()
    if fmt == "html":
        return report_page(reports, records)
    return "".join(_table(r) for r in reports)


def _decision_row(d) -> dict:
    row = d.as_dict()
    row["best_group"] = group_text(row["best_group"], "|")
    row["reasons"] = " ".join(row["reasons"])
    return {k: row[k] for k in CSV_FIELDS if k != "deal"}


# ---- one player across deals ---------------------------------------------------------------------------

PLAYER_FIELDS = ["level", "player", "file", "record", "deal", "seat", "phase", "trick", "played", "best", "verdict",
                 "reasons", "judged", "flagged", "count", "skipped", "loss", "loss_se", "lost", "accuracy", "rank", "link"]


def _render_player(report, reports, fmt: str, only_mistakes: bool) -> str:
    if fmt == "json":
        deals = [{"file": d.source, "record": d.number, "seat": d.seat + 1, **r.as_dict()}
                 for d, r in zip(report.deals, reports)]
        return json_text({"player": report.as_dict(), "deals": deals}) + "\n"
    if fmt == "csv":
        return _player_csv(report, only_mistakes)
    if fmt == "html":
        return player_page(report, reports)
    return _player_table(report)


def _player_csv(report, only_mistakes: bool) -> str:
    """One CSV, a row per figure, its kind in ``level``: player (the totals), phase, error (a named
    error), deal, decision (every judged one, or the flagged ones; ``rank`` for the worst)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=PLAYER_FIELDS, lineterminator="\n", restval="")
    writer.writeheader()
    name = report.player
    writer.writerow({"level": "player", "player": name, "judged": report.judged, "flagged": report.flagged,
                     "count": len(report.deals), "skipped": report.not_seated + report.hand_unknown, "lost": _f(report.lost), "accuracy": _f(report.accuracy)})
    for p in report.phases:
        writer.writerow({"level": "phase", "player": name, "phase": p.phase, "judged": p.judged, "flagged": p.flagged,
                         "lost": _f(p.lost)})
    for e in report.errors:
        writer.writerow({"level": "error", "player": name, "reasons": e.reason, "count": e.count, "lost": _f(e.lost)})
    for d in report.deals:
        writer.writerow({"level": "deal", "player": name, "file": d.source, "record": d.number, "deal": d.deal,
                         "seat": d.seat + 1, "judged": d.judged, "flagged": d.flagged, "lost": _f(d.lost),
                         "accuracy": _f(d.accuracy), "link": d.link})
    rank = {id(w): k for k, w in enumerate(report.worst, start=1)}
    for deal in report.deals:
        for w in deal.decisions:
            d = w.decision
            if only_mistakes and not d.verdict:
                continue
            writer.writerow({"level": "decision", "player": name, "file": w.source, "record": w.number, "deal": w.deal,
                             "seat": d.seat + 1, "phase": d.phase, "trick": d.trick or "", "played": d.played,
                             "best": group_text(d.best_group, "|"), "verdict": d.verdict or "",
                             "reasons": " ".join(d.reasons), "loss": _f(d.loss.mean), "loss_se": _f(d.loss.se),
                             "rank": rank.get(id(w), ""), "link": w.link})
    return buf.getvalue()


def _f(x: float | None) -> str:
    return "" if x is None else repr(round(float(x), 6))


def _player_table(report) -> str:
    from analyzer.coach.player_report import PHASE_LABELS
    from analyzer.coach.reasons import LABELS
    r = report
    acc = "n/a" if r.accuracy is None else f"{r.accuracy:.0f}%"
    lines = [f"{r.player}: {len(r.deals)} deals analysed, {r.not_seated} without {r.player}"
             + (f", {r.hand_unknown} without {r.player}'s hand" if r.hand_unknown else "")
             + f"; {r.judged} decisions judged, {r.flagged} flagged "
             f"({r.verdicts['blunder']} blunders, {r.verdicts['mistake']} mistakes, {r.verdicts['inaccuracy']} "
             f"inaccuracies); accuracy {acc}; {r.lost:.1f} contract points lost", "",
             f"{'phase':<20}{'judged':>7}{'flagged':>8}{'lost':>8}"]
    lines += [f"{PHASE_LABELS[p.phase]:<20}{p.judged:>7}{p.flagged:>8}{p.lost:>8.1f}" for p in r.phases]
    if r.errors:
        lines += ["", f"{'most frequent errors':<52}{'times':>6}{'lost':>8}"]
        lines += [f"{LABELS[e.reason]:<52}{e.count:>6}{e.lost:>8.1f}" for e in r.errors]
    if r.worst:
        lines += ["", "worst decisions (deal, where, played, best, loss, verdict; the board's address):"]
        for k, w in enumerate(r.worst, start=1):
            d = w.decision
            where = d.phase if d.phase != "card" else f"trick {d.trick}"
            lines.append(f"{k:>3}. {w.source} #{w.number} seat {d.seat + 1}, {where}: {d.played}, best "
                         f"{group_text(d.best_group, width=25)}; {d.loss.mean:.1f} ± {d.loss.se:.1f} {d.verdict}  {w.link}")
    lines += ["", f"{'deal':<40}{'seat':>5}{'judged':>7}{'lost':>8}{'accuracy':>9}"]
    for d in r.deals:
        acc = "n/a" if d.accuracy is None else f"{d.accuracy:.0f}%"
        lines.append(f"{(d.source + ' #' + str(d.number))[-40:]:<40}{d.seat + 1:>5}{d.judged:>7}{d.lost:>8.1f}{acc:>9}")
    return "\n".join(lines) + "\n"


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
             f"{report.worlds} worlds per card; bids read as {report.reading.words()}; losses in contract points)"]
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
