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


@njit(cache=True)
def heuristic_discard(hand_s, hand_t, k):
    """(suit word, trump word) of the ``k`` cards to discard from the taker's hand."""
    out_s = ZERO
    left = k
    kings = ZERO
    for suit in range(4):
        kings |= ONE << np.uint64(suit * 14 + KING_OFFSET)
    free = hand_s & ~kings
    # 1. voids: whole short suits without a King, shortest first
    while left > 0:
        best_suit = -1
        best_len = 99
        for suit in range(4):
            cards = free & suit_bits(suit) & ~out_s
            n = popcount(cards)
            if n == 0 or hand_s & kings & suit_bits(suit) != ZERO:
                continue
            if n <= left and n < best_len:
                best_suit, best_len = suit, n
        if best_suit < 0:
            break
        out_s |= free & suit_bits(best_suit)
        left -= best_len
    # 2. then 3.: by priority, points of suits without their King, then low cards of short suits
    while left > 0:
        best = -1
        best_key = -(1 << 40)
        x = free & ~out_s
        while x != ZERO:
            c = lowest_bit(x)
            x &= x - ONE
            suit = c // 14
            guarded = hand_s & kings & suit_bits(suit) != ZERO
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
    # 4. trumps only when forced: the lowest, never the Petit or the 21 (oudlers)
    out_t = ZERO
    trumps = hand_t & ALL_TRUMPS & ~ONE & ~(ONE << np.uint64(20))
    while left > 0 and trumps != ZERO:
        b = lowest_bit(trumps)
        out_t |= ONE << np.uint64(b)
        trumps &= trumps - ONE
        left -= 1
    return out_s, out_t
