"""Compiling the kernels ahead of the user (``tarot-analyzer warm``).

A command's first run compiles the kernels it uses (minutes for the search); every later run, in any
clone or virtual environment of the same sources, loads them from the on-disk cache
(``kernels.cache_dir``).  ``warm`` runs jobs (each one command on a tiny input, so that exactly the
versions a user's command needs are compiled) in separate processes, several at once, and reports each
as it ends: how many functions it compiled and how long it took.  On a warm cache each job loads its
kernels and ends in a second or two, so warming again costs seconds.

The jobs themselves come from the caller (the command line's own commands, ``cli.warm``): this module only
schedules them, counts Numba's compile events in each process and estimates what is left.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class Job:
    """One warming job: ``name`` for the report, ``args`` for ``run``, its processor time on an empty
    cache (seconds of one core; the estimate's unit) and the jobs it waits for (``after``): two processes
    compiling the same search at once would each compile all of it."""

    name: str
    args: tuple[str, ...]
    cold_s: float
    after: tuple[str, ...] = ()     # jobs whose kernels this one shares: started once those are done


@dataclass(frozen=True)
class Done:
    """A job's outcome: functions compiled, seconds it took, and an error message when it failed."""

    job: Job
    compiled: int
    seconds: float
    error: str | None = None


def count_compiles(run: Callable[[tuple[str, ...]], None], args: tuple[str, ...]) -> tuple[int, float, str | None]:
    """Runs ``run(args)`` here, counting the functions Numba compiles meanwhile (a cache hit compiles none)."""
    from numba.core import event

    class Counter(event.Listener):
        count = 0

        def on_start(self, ev: event.Event) -> None:
            Counter.count += 1

        def on_end(self, ev: event.Event) -> None:
            pass

    counter = Counter()
    start = time.monotonic()
    error = None
    with event.install_listener("numba:compile", counter):
        try:
            run(args)
        except BaseException as exc:        # noqa: BLE001 - a failed job is reported, not fatal
            error = f"{type(exc).__name__}: {exc}"
    return counter.count, time.monotonic() - start, error


def cache_is_warm() -> bool:
    """Whether this version's kernel cache holds anything yet (a rough guess for the estimate)."""
    from kernels import cache_dir

    try:
        return any(name.endswith(".nbi") for name in os.listdir(cache_dir()))
    except OSError:
        return False


def warm(jobs: Sequence[Job], run: Callable[[tuple[str, ...]], None], workers: int = 2,
         report: Callable[[Done, int, int, float | None], None] | None = None) -> list[Done]:
    """Runs every job through ``run`` (a module-level function: it is sent to other processes) in up to
    ``workers`` processes, the costliest first; ``report(done, finished, total, seconds_left)`` after each
    (``seconds_left`` an estimate from the jobs' cold costs and the pace so far, None when unknown).  The
    processes are started fresh (``spawn``, one job each): each job's compile count is its own, what its
    command compiles with the cache as the jobs before it left it."""
    order = sorted(jobs, key=lambda j: -j.cold_s)
    names = {j.name for j in order}
    results: list[Done] = []
    start = time.monotonic()
    context = multiprocessing.get_context("spawn")
    waiting = list(order)
    finished_names: set[str] = set()
    left_cost = sum(j.cold_s for j in order)
    done_cost = 0.0
    with ProcessPoolExecutor(max_workers=max(1, workers), mp_context=context, max_tasks_per_child=1) as pool:
        pending = {}
        while waiting or pending:
            # Start the costliest jobs whose predecessor is done, one per free process.
            for job in list(waiting):
                if len(pending) >= max(1, workers):
                    break
                if all(name in finished_names or name not in names for name in job.after):
                    waiting.remove(job)
                    pending[pool.submit(count_compiles, run, job.args)] = job
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                job = pending.pop(future)
                try:
                    compiled, seconds, error = future.result()
                except Exception as exc:            # noqa: BLE001 - a worker that died
                    compiled, seconds, error = 0, 0.0, f"{type(exc).__name__}: {exc}"
                done = Done(job, compiled, seconds, error)
                results.append(done)
                finished_names.add(job.name)
                left_cost -= job.cold_s
                done_cost += job.cold_s
                elapsed = time.monotonic() - start
                # The pace so far (wall seconds per second of cold cost) applied to what is left.
                more = bool(waiting or pending)
                estimate = left_cost * elapsed / done_cost if more and done_cost else (None if more else 0.0)
                if report:
                    report(done, len(results), len(order), estimate)
    return results
