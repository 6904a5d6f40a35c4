"""Batches of deals under constraints: exact per-card place constraints (``kernels/worlds.py``),
then rejection for what they cannot express (no petit sec, "at least / at most k of a group")."""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.deals import MAX_TRIES, has_petit_sec, stream_state
from kernels.worlds import meets_counts, sample_world


@njit(nogil=True, cache=True)
def sample_constrained_batch(lo, hi, allowed, fixed, constrained, last, strides, left, table, start, players,
                             exclude_petit_sec, count_seat, count_cards, count_min, count_max, seed, offset,
                             out, tries):
    """Deals ``offset+lo … offset+hi-1`` into ``out[lo:hi]``; ``tries[i]`` worlds drawn (-1: gave up)."""
    for i in range(lo, hi):
        state = stream_state(seed, offset + i)
        place = np.empty(78, dtype=np.int64)
        tries[i] = -1
        for t in range(1, MAX_TRIES + 1):
            state = sample_world(allowed, fixed, constrained, last, strides, left, table, start, state, place)
            for c in range(78):
                out[i, c] = place[c]
            if exclude_petit_sec and has_petit_sec(out[i], players):
                continue
            if not meets_counts(out[i], count_seat, count_cards, count_min, count_max):
                continue
            tries[i] = t
            break
