"""Many deals analysed in one run: the records of several files, or of every record file in a folder,
taken in one order (``load_deals``), each deal judged on a seed of its own (``deal_seed``: the run's
seed and the deal's place in that order only), in chunks run here on ``--jobs`` threads or on a
dask.distributed cluster by the machinery ``batch`` runs on (``analyzer.batch.run_chunks``).  The same
input and seed give the same reports whatever the chunks, the threads or the workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Sequence

from analyzer.coach.deal import DealReport, analyze_record, to_judge
from analyzer.errors import TarotError
from analyzer.records import Record, RecordError, load_records
from analyzer.runs import Settings

RECORD_SUFFIXES = (".txt", ".json")      # the files of a folder that are read as records
DEAL_STEP = 0x632BE59BD9B4E019          # odd: deal k's seed is the run's seed plus k steps (mod 2^63)
CHUNK = 4                                # deals per chunk, by default


class InputError(TarotError):
    """A path given to ``analyze`` that names no record file (missing, or a folder without one)."""


@dataclass(frozen=True)
class InputDeal:
    """One deal of a run: its place in the run's order (0-based), its file (``source``: the file's name,
    or the path given where two files of the run share a name) and number there (1-based)."""

    position: int
    source: str
    number: int
    record: Record


def record_paths(paths: Sequence[str]) -> list[str]:
    """The files ``paths`` name, in the order given: a file as it is, a folder as the record files in it
    (``RECORD_SUFFIXES``, in any letter case; hidden files and sub-folders left out), sorted by name."""
    out = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = sorted(p.name for p in path.iterdir()
                           if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in RECORD_SUFFIXES)
            if not found:
                raise InputError(f"{text}: a folder holding no record file ({', '.join('*' + s for s in RECORD_SUFFIXES)})")
            out.extend(str(path / name) for name in found)
        elif path.exists():
            out.append(text)
        else:
            raise InputError(f"{text}: no such file or folder")
    return out


def load_deals(paths: Sequence[str]) -> list[InputDeal]:
    """Every record of the files ``paths`` name (``record_paths``), each replayed and checked, in order: a
    bad record, or a file without one, is a ``RecordError`` naming it."""
    deals: list[InputDeal] = []
    files = record_paths(paths)
    names = [Path(p).name for p in files]
    for path in files:
        shown = Path(path).name if names.count(Path(path).name) == 1 else path
        records = load_records(path)
        if not records:
            raise RecordError(f"{path} holds no deal record")
        for k, rec in enumerate(records, start=1):
            rec.check()
            deals.append(InputDeal(len(deals), shown, k, rec))
    return deals


def deal_seed(seed: int, position: int) -> int:
    """The seed deal ``position`` (0-based, in the run's order) is judged on: the run's for the first deal
    (so a file of one deal gives the report it gave before runs of many deals), then ``DEAL_STEP`` further
    for each deal after it, modulo 2^63.  Every decision of the deal then draws from its own seed
    (``analyzer.coach.deal.decision_seed``)."""
    return (seed + position * DEAL_STEP) % 2**63


def decisions_to_judge(deal: InputDeal, seats: Sequence[int] | None, tricks: Sequence[int] | None = None) -> int:
    """How many decisions of ``seats`` (None: every known seat; with ``tricks``, only the cards of those
    tricks) ``analyze_record`` goes through."""
    return len(to_judge(deal.record, seats, tricks=tricks))


def analyze_chunk(tasks: list[tuple[InputDeal, tuple[int, ...] | None]], settings: Settings, with_board: bool,
                  progress: Callable[[int], None] | None = None, noise: float | None = None,
                  tricks: tuple[int, ...] | None = None) -> list[DealReport]:
    """The reports of ``tasks`` (a deal and the seats judged in it), each on its own seed (``deal_seed``),
    the bids read with an error of ``noise`` points when given (else as each record says:
    ``analyzer.coach.auction_reading``), with ``tricks`` only the cards of those tricks;
    ``progress(n)`` after each decision, ``n`` the decisions judged so far in this call."""
    out, done = [], 0
    for deal, seats in tasks:
        own = settings.with_(seed=deal_seed(settings.seed, deal.position))
        base = done

        def step(k: int, _total: int, base=base) -> None:
            if progress:
                progress(base + k)

        out.append(analyze_record(deal.record, seats, own, deal.position, step, with_board=with_board, noise=noise,
                                  tricks=tricks))
        done += len(out[-1].decisions)          # one per decision gone through (no second replay to count them)
    return out


def analyze_deals(tasks: list[tuple[InputDeal, tuple[int, ...] | None]], settings: Settings,
                  with_board: bool = True, chunk: int = CHUNK, scheduler: str | None = None,
                  local_cluster: int | None = None,
                  progress: Callable[[int, int], None] | None = None, noise: float | None = None,
                  tricks: tuple[int, ...] | None = None) -> list[DealReport]:
    """Judge each of ``tasks`` (a deal and the seats whose decisions are judged, None: every known seat;
    the bids read with an error of ``noise`` points when given, else as each record says; with
    ``tricks``, only the cards of those tricks)
    in chunks of ``chunk`` deals (``analyzer.batch.run_chunks``: here on ``settings.jobs`` threads, or
    on a dask.distributed cluster); the reports in the tasks' order.  ``progress(done, total)`` counts
    the decisions judged: after each one here, after each chunk on a cluster."""
    from analyzer.batch import chunks, run_chunks, scheduler_address     # pandas: only when analysing
    if scheduler is not None:
        scheduler = scheduler_address(scheduler)
    counts = [decisions_to_judge(deal, seats, tricks) for deal, seats in tasks]
    total = sum(counts)
    settings = settings.with_(progress=None)            # what travels to the workers must pickle
    reports: dict[int, list[DealReport]] = {}
    done = 0
    here = not (scheduler or local_cluster)
    pieces = [(offset, tasks[offset:offset + n]) for offset, n in chunks(len(tasks), chunk)]

    def live(n: int) -> None:                           # here: after each decision of the chunk running
        if progress:
            progress(done + n, total)

    def accept(piece, result) -> None:
        nonlocal done
        offset, part = piece
        reports[offset] = result
        done += sum(counts[offset:offset + len(part)])
        if progress:
            progress(done, total)

    compute = partial(_chunk_task, settings=settings, with_board=with_board, progress=live if here else None,
                      noise=noise, tricks=tricks)
    run_chunks(pieces, compute, accept, settings.jobs, scheduler, local_cluster)
    return [r for offset in sorted(reports) for r in reports[offset]]


def _chunk_task(offset: int, part, settings: Settings, with_board: bool, progress=None,
                noise: float | None = None, tricks: tuple[int, ...] | None = None) -> list[DealReport]:
    return analyze_chunk(part, settings, with_board, progress, noise, tricks)
