"""The heuristic discard (écart) for Prise and Garde: always legal, aiming at voids, keeping points safe.

Rules (docs/rules.md): no King and no oudler may be discarded; trumps only when no other card can go.
Strategy, as taught: the discarded cards count for the taker, so (1) empty short suits without a
King, shortest first, to trump them later; (2) then put away the points the defence could otherwise
catch (Queens, Knights, Jacks of suits without their King); (3) then the lowest cards of the shortest
suits; (4) trumps, lowest first, only when forced.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.heuristic import ALL_TRUMPS, HALF_POINTS, ONE, ZERO, lowest_bit, popcount, suit_bits

KING_OFFSET = 13          # rank 14 is bit 13 of a suit's 14 bits
KING_BITS = np.uint64(sum(1 << (s * 14 + KING_OFFSET) for s in range(4)))


@njit(cache=True)
def heuristic_discard(hand_s, hand_t, k):
    """(suit word, trump word) of the ``k`` cards to discard from the taker's hand."""
    out_s = discard_within(hand_s, k, ZERO, hand_s & ~KING_BITS)
    left = k - popcount(out_s)
    # 4. trumps only when forced: the lowest, never the Petit or the 21 (oudlers)
    out_t = ZERO
    trumps = hand_t & ALL_TRUMPS & ~ONE & ~(ONE << np.uint64(20))
    while left > 0 and trumps != ZERO:
        b = lowest_bit(trumps)
        out_t |= ONE << np.uint64(b)
        trumps &= trumps - ONE
        left -= 1
    return out_s, out_t


@njit(cache=True)
def discard_within(hand_s, k, must_s, may_s):
    """The suit cards of a discard of ``k`` from ``hand_s`` (the taker's suit cards, chien included):
    ``must_s`` and then, by the heuristic's order (steps 1 to 3), cards of ``may_s`` (those that may go),
    as many as there are, up to ``k`` in all.  With nothing forced and every card but the Kings free,
    the heuristic's own discard; the coach's judge forces what a seat knows of the real one."""
    out_s = must_s
    left = k - popcount(must_s)
    # 1. voids: whole short suits without a King, shortest first
    while left > 0:
        best_suit = -1
        best_len = 99
        for suit in range(4):
            cards = hand_s & suit_bits(suit) & ~out_s
            n = popcount(cards)
            if n == 0 or cards & ~may_s != ZERO:
                continue
            if n <= left and n < best_len:
                best_suit, best_len = suit, n
        if best_suit < 0:
            break
        out_s |= hand_s & suit_bits(best_suit)
        left -= best_len
    # 2. then 3.: by priority, points of suits without their King, then low cards of short suits
    while left > 0:
        best = -1
        best_key = -(1 << 40)
        x = may_s & ~out_s
        while x != ZERO:
            c = lowest_bit(x)
            x &= x - ONE
            suit = c // 14
            guarded = hand_s & KING_BITS & suit_bits(suit) != ZERO
            length = popcount(hand_s & suit_bits(suit) & ~out_s)
            if HALF_POINTS[c] > 1 and not guarded:
                key = 1000 + HALF_POINTS[c] * 10 - length
            else:
                key = -length * 100 - HALF_POINTS[c] * 10 - (c % 14)
            if key > best_key:
                best, best_key = c, key
        if best < 0:
            break
        out_s |= ONE << np.uint64(best)
        left -= 1
    return out_s
