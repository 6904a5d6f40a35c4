"""Running a batch kernel on every thread: the rows ``0 … n-1`` cut into ranges, each range one call of a
kernel compiled ``nogil`` (``kernel(lo, hi, *args)``), the calls shared by a pool of Python threads.

Numba's threaded loops (``parallel=True``) compile a loop's body twice over (the loop's own function,
then the wrapper that links and optimises it again, with all it calls); a kernel that plays its range in a
plain loop is compiled once, and the threads come from here.  Row ``i`` of a run depends only on ``i``
(its random stream is the run's seed and ``i``), so the results do not depend on the thread count or on
how the rows are cut.  The thread count is Numba's (``numba.set_num_threads``, ``analyzer.runs.threads``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numba

# Ranges per thread: enough for the threads to finish together when rows cost unequal times (a searched
# deal takes from one to a hundred milliseconds), few enough that the calls' own cost (tens of microseconds
# each) stays out of sight.
RANGES_PER_THREAD = 8

_pools: dict[int, ThreadPoolExecutor] = {}


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
    size = -(-n // (threads * RANGES_PER_THREAD))
    futures = [_pool(threads).submit(kernel, lo, min(n, lo + size), *args) for lo in range(0, n, size)]
    for future in futures:
        future.result()
