"""``tarot-analyzer warm``: compiles every command's kernels ahead of the first question."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

import click

from analyzer.warm import Done, Job, cache_is_warm, warm as warm_jobs

LONG_SPADES = "20 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D"      # the README's hand
FIVE = "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"
TEN_TRUMPS = "21 20 19 18 17 16 15 14 13 12 EX KS QS JS KH QH KD 2C"        # a poignée to show
RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"     # the repository's example records
RECORD = str(RECORDS / "four-players.txt")
ONE_SEAT = str(RECORDS / "one-seat.txt")       # hands unknown: judged on a stand-in layout
MIDPLAY = str(RECORDS / "four-players-midplay.txt")
OUT = "{tmp}"       # replaced by a temporary folder in the process that runs the job

# Each command on a tiny input, with the options that choose its kernels left at their defaults (and the
# heuristic policy where users ask for it), so that the versions compiled are exactly those a user's
# command loads: a size (--deals, --precision) changes no kernel's types.  cold_s: each job's seconds on an
# empty cache in a warm of two processes on two cores (docs/journal/compiling.md, 2026-11-29).  The
# commands that search wait for odds, which compiles the search they share, and meanwhile the others
# compile the heuristic's drivers (its odds, then its bid: analyze's screen uses both); bid and discard
# wait for analyze, which compiles their drivers among its own (two processes compiling one function both
# compile all of it).
USER_JOBS = (
    Job("odds", ("odds", LONG_SPADES, "--precision", "0.5"), 25),
    Job("bid", ("bid", LONG_SPADES, "--seat", "3", "--bids", "pass,prise", "--precision", "0.5", "--seed", "1"), 2,
        after=("analyze",)),
    Job("bid --policy heuristic", ("bid", LONG_SPADES, "--policy", "heuristic", "--precision", "0.5"), 7,
        after=("odds --policy heuristic",)),
    Job("odds --policy heuristic", ("odds", LONG_SPADES, "--policy", "heuristic", "--precision", "0.5"), 3),
    Job("poignee", ("poignee", TEN_TRUMPS, "--deals", "10"), 1, after=("odds",)),
    Job("chelem", ("chelem", LONG_SPADES, "--deals", "10"), 1, after=("odds",)),
    Job("call", ("call", FIVE, "--players", "5", "--deals", "10"), 1, after=("odds",)),
    Job("discard", ("discard", "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C", "--chien", "KD 6C 2H 9H 4S 3C",
                    "--deals", "10"), 1, after=("analyze",)),
    Job("analyze", ("analyze", RECORD, ONE_SEAT, "--deals", "10", "--format", "json"), 15,
        after=("odds", "bid --policy heuristic")),
    Job("solve", ("solve", MIDPLAY), 14),
    Job("play", ("play", "--deals", "2", "--seed", "1", "--out", os.path.join(OUT, "deals.txt")), 3),
    Job("play --policy pimc", ("play", "--deals", "1", "--seed", "1", "--policy", "pimc", "--worlds", "2", "--out",
                               os.path.join(OUT, "deals.txt")), 3, after=("odds",)),
    Job("match", ("match", "--a", "pimc", "--b", "heuristic", "--deals", "2"), 3, after=("odds",)),
    Job("batch", ("batch", "--deals", "10", "--out", os.path.join(OUT, "deals.csv")), 2),
    Job("compare-play", ("compare-play", "--deals", "2"), 7, after=("odds",)),
    Job("bench", ("bench", "--quick"), 3, after=("odds",)),
)
# The quality commands (deep search as a yardstick): with --all only.
QUALITY_JOBS = (
    Job("calibrate", ("calibrate", "--hands", "1", "--deep-deals", "10", "--precision", "0.5"), 120),
    *(Job(f"calibrate-choices {question}", ("calibrate-choices", question, "--hands", "1", "--deals", "2"), 60,
          after=("calibrate",)) for question in ("call", "poignee", "chelem", "discard")),
    Job("compare-bidding", ("compare-bidding", "--hands", "1", "--deals", "10"), 60),
)


def run_command(args: tuple[str, ...]) -> None:
    """Runs one command of this program here, its output discarded (a job of ``warm``: in its own process)."""
    from cli.main import main

    tmp = tempfile.mkdtemp(prefix="tarot-warm-")
    try:
        argv = [a.replace(OUT, tmp) for a in args]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main.main(argv, prog_name="tarot-analyzer", standalone_mode=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


@click.command()
@click.option("--jobs", type=click.IntRange(1, None), default=None,
              help="Processes compiling at once (default: the cores, at most 4).")
@click.option("--all", "everything", is_flag=True,
              help="The quality commands too (calibrate, calibrate-choices, compare-bidding).")
@click.option("--quiet", is_flag=True, help="Only the last line.")
def warm(jobs, everything, quiet) -> None:
    """Compiles every command's kernels now, so that no later command waits for it.

    A command's first run compiles the kernels it uses, minutes in all; warm compiles them all at once,
    in several processes, and caches them on disk for every clone and virtual environment of this version
    (NUMBA_CACHE_DIR, else ~/.cache/tarot-analyzer). Run again, it checks the cache in seconds.
    """
    # analyze and solve read the repository's example records: skipped where the package is installed alone.
    todo = tuple(j for j in USER_JOBS + (QUALITY_JOBS if everything else ())
                 if all(os.path.exists(a) for a in j.args if a.startswith(str(RECORDS))))
    workers = jobs or max(1, min(4, os.cpu_count() or 1))
    cold = not cache_is_warm()
    say = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    if cold:
        total = sum(j.cold_s for j in todo) / workers
        say(f"warm: compiling the kernels of {len(todo)} commands in {workers} processes "
            f"(on an empty cache about {_minutes(total)}; once, for every later run)…")
    else:
        say(f"warm: checking the kernels of {len(todo)} commands in {workers} processes…")

    def report(done: Done, finished: int, total: int, left: float | None) -> None:
        status = (f"failed: {done.error}" if done.error else
                  f"{done.compiled} functions compiled" if done.compiled else "already compiled")
        eta = f", about {_minutes(left)} left" if left else ""
        say(f"[{finished}/{total}] {done.job.name}: {status} ({done.seconds:.0f} s){eta}")

    results = warm_jobs(todo, run_command, workers=workers, report=report)
    failed = [d for d in results if d.error]
    compiled = sum(d.compiled for d in results)
    if failed:
        raise click.ClickException(f"warm: {len(failed)} of {len(results)} commands failed: "
                                   + "; ".join(f"{d.job.name}: {d.error}" for d in failed))
    click.echo(f"warm: done, every command's kernels are compiled and cached ({compiled} functions compiled now).",
               err=True)
    sys.stdout.flush()
