"""Dealing the unseen cards uniformly, with per-deal random streams.

Every deal ``i`` of a batch draws from its own SplitMix64 stream seeded by ``(seed, i)``, so a batch
gives the same deals with one thread or many, in one call or in chunks.  Bounded integers use
Lemire's multiply-and-reject method on 32-bit draws: exactly uniform, no division in the common case.

``deal_into`` fills the open slots of a deal (cards not fixed in a place) by a Fisher-Yates shuffle
of the unseen cards, which makes every completion equally likely; deals with a petit sec are
rejected and redrawn when asked (the FFT annuls them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.worlds import splitmix64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MASK32 = np.uint64(0xFFFFFFFF)
MAX_TRIES = 100_000


@njit(cache=True)
def stream_state(seed, index):
    """The RNG state of stream ``index`` of a run seeded with ``seed``."""
    state = np.uint64(seed) * GOLDEN + np.uint64(index)
    state, z = splitmix64(state)
    state, z2 = splitmix64(z ^ np.uint64(index))
    return z2


@njit(cache=True)
def below(state, n):
    """A uniform integer in [0, n) for 1 <= n < 2**32; returns (state, value)."""
    n64 = np.uint64(n)
    while True:
        state, z = splitmix64(state)
        m = (z & MASK32) * n64
        low = m & MASK32
        if low >= n64 or low >= ((MASK32 + np.uint64(1)) - n64) % n64:
            return state, np.int64(m >> np.uint64(32))
        m = (z >> np.uint64(32)) * n64
        low = m & MASK32
        if low >= n64 or low >= ((MASK32 + np.uint64(1)) - n64) % n64:
            return state, np.int64(m >> np.uint64(32))


@njit(cache=True)
def has_petit_sec(places, players):
    """Whether a seat's only trump is the Petit, without the Excuse."""
    for s in range(players):
        if places[56] != s or places[77] == s:
            continue
        alone = True
        for c in range(57, 77):
            if places[c] == s:
                alone = False
                break
        if alone:
            return True
    return False


@njit(cache=True, inline="always")
def deal_into(fixed, unseen, slots, players, exclude_petit_sec, state, out):
    """Complete ``fixed`` (place per card, -1 unknown) by dealing ``unseen`` cards into ``slots``
    (the place of each open slot) uniformly; returns (state, tries) with tries = -1 on giving up."""
    m = unseen.shape[0]
    cards = np.empty(m, dtype=np.int64)
    for tries in range(1, MAX_TRIES + 1):
        for c in range(fixed.shape[0]):
            out[c] = fixed[c]
        for k in range(m):
            cards[k] = unseen[k]
        for k in range(m - 1, 0, -1):
            state, j = below(state, k + 1)
            cards[k], cards[j] = cards[j], cards[k]
        for k in range(m):
            out[cards[k]] = slots[k]
        if not exclude_petit_sec or not has_petit_sec(out, players):
            return state, tries
    return state, -1


@njit(cache=True)
def whole_deal(players, hand):
    """(fixed, unseen, slots) for ``deal_into`` to deal all 78 cards: nothing fixed, hands of ``hand``
    cards filled in seat order and the rest to the chien (entry P)."""
    fixed = np.full(78, -1, dtype=np.int8)
    unseen = np.arange(78).astype(np.int64)
    slots = np.empty(78, dtype=np.int64)
    for k in range(78):
        slots[k] = min(k // hand, players)
    return fixed, unseen, slots
