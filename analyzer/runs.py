"""Running simulations: the thread count for a call, and chunks until a target precision.

Every chunk draws deals ``offset … offset+n-1`` from the per-deal random streams, so where a run stops
and how it is cut never changes the deals themselves: same seed, same output, whatever the threads.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from typing import Callable, Hashable, Iterator

import numba
import numpy as np

PLAY_SEED_SALT = 0x5DEECE66D   # deals given to a playout kernel are played from streams other than their dealing's
CHUNK = 2000            # deals per chunk with the fast policies
PIMC_CHUNK = 100        # with determinized search
# Determinized search: worlds sampled per decision, and heuristic rollouts per world and card.  Measured
# in duplicate matches against the heuristic (4 players, 2,000 deals): 12 worlds +40.9, 32 +53.8,
# 64 +63.9, 128 +66.6 points per deal; a second rollout per world adds nothing (64 x 2: +65.0).
PIMC_WORLDS = 64
PIMC_ROLLOUTS = 1


class PrecisionNotReached(UserWarning):
    """A run asked to reach a precision stopped at its deal limit first (the answer stands, less sure)."""


@contextmanager
def threads(jobs: int | None) -> Iterator[None]:
    """Use ``jobs`` threads (all when None) inside the block, and restore the count after."""
    previous = numba.get_num_threads()
    try:
        if jobs:
            numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))
        yield
    finally:
        numba.set_num_threads(previous)


def run_in_chunks(simulate: Callable[[int, int], dict[Hashable, np.ndarray]], deals: int | None, max_deals: int,
                  precision: float, widest: Callable[[dict[Hashable, np.ndarray]], float], policy: str,
                  jobs: int | None = None,
                  progress: Callable[[int, int | None], None] | None = None) -> dict[Hashable, np.ndarray]:
    """Call ``simulate(offset, n)`` (result rows per key) chunk after chunk, until ``deals`` deals, or
    (``deals`` None) until ``widest(rows so far) <= precision`` or ``max_deals``; stopping at
    ``max_deals`` first warns ``PrecisionNotReached``."""
    chunk = PIMC_CHUNK if policy == "pimc" else CHUNK
    target = deals if deals is not None else max_deals
    parts: dict[Hashable, list[np.ndarray]] = {}
    done = 0
    width = float("inf")
    with threads(jobs):
        while done < target:
            n = min(chunk, target - done)
            for key, rows in simulate(done, n).items():
                parts.setdefault(key, []).append(rows)
            done += n
            if progress:
                progress(done, deals)
            if deals is None:
                width = widest({k: np.concatenate(v) for k, v in parts.items()})
                if width <= precision:
                    break
        else:
            if deals is None:
                warnings.warn(f"precision ±{precision:g} not reached in {done:,} deals (the limit): the widest 95% "
                              f"interval is ±{width:.3f}", PrecisionNotReached, stacklevel=2)
    return {k: np.concatenate(v) for k, v in parts.items()}
