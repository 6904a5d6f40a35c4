"""Declarations of simulated seats: the poignée to show, the chelem announcement, the King to call.

* Poignée: the highest level the hand allows, shown with its lowest trumps (the Excuse only as the
  last stand-in, as the rules require), so as to give away as little as possible.  Whether showing
  pays is the ``poignee`` advice's question; the simulated seats show when they can, as most players do.
* Chelem: announced only with an overwhelming hand: the 21 and the Excuse, at most one card that is
  not a trump, and every plain suit headed by its King or empty.  Under the petit chelem variant
  (all tricks but one), a hand one trick short of that announces a petit chelem: the 21, at most two
  cards that are not trumps, of which at most one is not a King.
* King call (5 players): among the callable cards (Kings; with all four Kings, Queens, …), the one of
  the suit where the taker holds most cards, a Queen there counting double, so that the partner's
  card is strong where the taker leads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.heuristic import ALL_TRUMPS, EXCUSE_MASK, ONE, ZERO, lowest_bit, popcount, suit_bits

KINGS_S = np.uint64(sum(1 << (14 * s + 13) for s in range(4)))
POIGNEE_THRESHOLDS = np.array([[13, 15, 18], [10, 13, 15], [8, 10, 13]], dtype=np.int64)  # 3, 4, 5 players


@njit(cache=True)
def poignee_to_show(hand_t, players):
    """(level 0-2 or -1 for none, trump word of the cards shown): the highest level the hand allows."""
    need = POIGNEE_THRESHOLDS[players - 3]
    n = popcount(hand_t & ALL_TRUMPS) + (1 if hand_t & EXCUSE_MASK else 0)
    level = np.int64(-1)        # not a constant: poignee_of_level would be compiled for it too
    for i in range(3):
        if n >= need[i]:
            level = i
    return level, poignee_of_level(hand_t, players, level)


@njit(cache=True)
def poignee_of_level(hand_t, players, level):
    """Trump word of a legal showing of ``level`` with the lowest trumps (the Excuse only as the last
    stand-in); 0 when the hand does not allow it."""
    if level < 0:
        return ZERO
    numbered = hand_t & ALL_TRUMPS
    if popcount(numbered) + (1 if hand_t & EXCUSE_MASK else 0) < POIGNEE_THRESHOLDS[players - 3, level]:
        return ZERO
    shown = ZERO
    left = POIGNEE_THRESHOLDS[players - 3, level]
    x = numbered
    while left > 0 and x != ZERO:
        b = lowest_bit(x)
        shown |= ONE << np.uint64(b)
        x &= x - ONE
        left -= 1
    if left > 0:
        shown |= EXCUSE_MASK
    return shown


@njit(cache=True)
def announce_chelem(hand_s, hand_t, petit_chelem):
    """What the taker announces with this hand (after the discard): 0 nothing, 1 a chelem, 2 a petit
    chelem (only when ``petit_chelem``, the variant, allows it)."""
    if hand_t >> np.uint64(20) & ONE == ZERO:
        return 0
    losers = popcount(hand_s & ~KINGS_S)
    if hand_t & EXCUSE_MASK != ZERO and popcount(hand_s) <= 1 and losers == 0:
        return 1
    if petit_chelem and popcount(hand_s) <= 2 and losers <= 1:
        return 2
    return 0


@njit(cache=True)
def call_card(hand_s):
    """The card id the taker calls at 5 players."""
    for rank in range(14, 10, -1):
        best = -1
        best_key = -1
        for suit in range(4):
            card = suit * 14 + rank - 1
            if hand_s >> np.uint64(card) & ONE:
                continue
            cards = hand_s & suit_bits(suit)
            key = popcount(cards) + (2 if cards >> np.uint64(suit * 14 + 12) & ONE else 0)
            if key > best_key:
                best, best_key = card, key
        if best >= 0:
            return best
    return -1
