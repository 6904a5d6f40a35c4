"""Running a batch kernel on every thread: the rows ``0 … n-1`` cut into ranges, each range one call of a
kernel compiled ``nogil`` (``kernel(lo, hi, *args)``), the calls shared by this thread and a pool of others.

Numba's threaded loops (``parallel=True``) compile a loop's body twice over (the loop's own function,
then the wrapper that links and optimises it again, with all it calls); a kernel that plays its range in a
plain loop is compiled once, and the threads come from here.  Row ``i`` of a run depends only on ``i``
(its random stream is the run's seed and ``i``), so the results do not depend on the thread count or on
how the rows are cut, and the cut can follow the rows' cost: the first rows are played here, in ranges
that double, until they have taken ``PROBE_S``; the rest is played here alone when it would take less than
``ALONE_S``, else in ranges of at least ``RANGE_S`` (more ranges than threads, taken in turn, so that the
threads end together when rows cost unequal times, as searched deals do).  The thread count is Numba's
(``numba.set_num_threads``, ``analyzer.runs.threads``).
"""

from __future__ import annotations

import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numba

PROBE_S = 2e-4            # rows played here first, to learn what a row costs
ALONE_S = 1e-3            # work left under this is not worth waking the other threads
RANGE_S = 5e-4            # a range's least cost: calling a kernel and handing ranges out cost microseconds
RANGES_PER_THREAD = 8     # at most: ranges of equal rows, for threads to end together on unequal ones

_pools: dict[int, ThreadPoolExecutor] = {}
if hasattr(os, "register_at_fork"):     # a forked child has none of the pools' threads: it starts its own
    os.register_at_fork(after_in_child=_pools.clear)


def _pool(size: int) -> ThreadPoolExecutor:
    pool = _pools.get(size)
    if pool is None:
        pool = _pools[size] = ThreadPoolExecutor(max_workers=size, thread_name_prefix="tarot-kernels")
    return pool


def over_rows(kernel: Callable[..., Any], n: int, *args: Any) -> None:
    """``kernel(lo, hi, *args)`` over ranges covering ``0 … n-1``, on ``numba.get_num_threads()`` threads."""
    threads = min(numba.get_num_threads(), n)
    if threads <= 1:
        if n > 0:
            kernel(0, n, *args)
        return
    done, spent = 0, 0.0
    while done < n and spent < PROBE_S:
        hi = min(n, 2 * done if done else 1)
        start = time.perf_counter()
        kernel(done, hi, *args)
        spent += time.perf_counter() - start
        done = hi
    left = n - done
    if left == 0:
        return
    per_row = spent / done
    if left * per_row < ALONE_S:
        kernel(done, n, *args)
        return
    size = max(math.ceil(left / (threads * RANGES_PER_THREAD)), math.ceil(RANGE_S / per_row))
    starts = iter(range(done, n, size))
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                lo = next(starts, None)
            if lo is None:
                return
            kernel(lo, min(n, lo + size), *args)

    helpers = [_pool(threads - 1).submit(work) for _ in range(threads - 1)]
    try:
        work()
    finally:
        for helper in helpers:
            helper.result()
