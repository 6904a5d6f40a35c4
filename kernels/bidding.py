"""The two point-count bidding methods as kernels (the bidding model of simulated seats).

Jitted twins of ``analyzer/baselines.py`` (which documents the counts), checked against it on random
hands.  Method ids: 0 = Chavey, 1 = TarotClub.  Contracts as ints: 0 pass, 1 Prise, 2 Garde,
3 Garde sans, 4 Garde contre.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from kernels.heuristic import ALL_TRUMPS, EXCUSE_MASK, ONE, popcount, suit_bits

CHAVEY = 0
TAROTCLUB = 1
# Lowest count for Prise, Garde, Garde sans, Garde contre, by method (rows) at 4 players.
THRESHOLDS_4 = np.array([[40, 56, 71, 81], [36, 51, 66, 76]], dtype=np.int64)
THRESHOLDS_5 = np.array([33, 49, 64, 74], dtype=np.int64)


@njit(cache=True)
def _runs_bonus(bits, n_bits, min_run, per_card):
    """Points for runs of consecutive set bits: ``per_card`` per card of each run of ``min_run``+
    (per_card=0: a flat 1 per qualifying run)."""
    total = 0
    run = 0
    for i in range(n_bits + 1):
        if i < n_bits and (bits >> np.uint64(i)) & ONE:
            run += 1
        else:
            if run >= min_run:
                total += run * per_card if per_card > 0 else 1
            run = 0
    return total


@njit(cache=True)
def _petit_points(trumps, table):
    if trumps < 5:
        return 0
    if trumps == 5:
        return table[0]
    if trumps == 6:
        return table[1]
    if trumps == 7:
        return table[2]
    return table[3]


@njit(cache=True)
def chavey_points(hand_s, hand_t, with_distribution):
    numbered = hand_t & ALL_TRUMPS
    trumps = popcount(numbered) + (1 if hand_t & EXCUSE_MASK else 0)
    pts = 0
    if numbered >> np.uint64(20) & ONE:
        pts += 10
    if hand_t & EXCUSE_MASK:
        pts += 8
    if numbered & ONE:
        pts += _petit_points(trumps, np.array([5, 7, 9, 9]))
    if trumps > 4:
        pts += 2 * trumps
    majors = numbered >> np.uint64(15)           # trumps 16-21 as bits 0-5
    pts += 2 * popcount(majors)
    pts += _runs_bonus(majors, np.int64(6), np.int64(2), np.int64(1))
    for suit in range(4):
        cards = (hand_s & suit_bits(suit)) >> np.uint64(14 * suit)
        king = cards >> np.uint64(13) & ONE == ONE
        queen = cards >> np.uint64(12) & ONE == ONE
        if king and queen:
            pts += 10
        elif king:
            pts += 6
        elif queen:
            pts += 3
        pts += 2 * np.int64(cards >> np.uint64(11) & ONE) + np.int64(cards >> np.uint64(10) & ONE)
        n = popcount(cards)
        if n == 5:
            pts += 5
        elif n == 6:
            pts += 7
        elif n >= 7:
            pts += 9
        if with_distribution:
            if n == 0:
                pts += 6
            elif n == 1:
                pts += 3
    return pts


@njit(cache=True)
def tarotclub_points(hand_s, hand_t):
    numbered = hand_t & ALL_TRUMPS
    trumps = popcount(numbered) + (1 if hand_t & EXCUSE_MASK else 0)
    pts = 0
    if numbered >> np.uint64(20) & ONE:
        pts += 9
    if hand_t & EXCUSE_MASK:
        pts += 7
    if numbered & ONE:
        pts += _petit_points(trumps, np.array([5, 7, 7, 8]))
    pts += 2 * trumps + 2 * popcount(numbered >> np.uint64(14))   # trumps 15-21
    for suit in range(4):
        cards = (hand_s & suit_bits(suit)) >> np.uint64(14 * suit)
        king = np.int64(cards >> np.uint64(13) & ONE)
        queen = np.int64(cards >> np.uint64(12) & ONE)
        pts += 6 * king + 3 * queen + 2 * np.int64(cards >> np.uint64(11) & ONE) \
            + np.int64(cards >> np.uint64(10) & ONE) + king * queen
        n = popcount(cards)
        if n >= 5:
            pts += 5
        pts += 4 * _runs_bonus(cards, np.int64(14), np.int64(5), np.int64(0))
        if n == 0:
            pts += 5
        elif n == 1:
            pts += 3
    return pts


@njit(cache=True)
def thresholds(method, players):
    out = np.empty(4, dtype=np.int64)
    for i in range(4):
        if players == 5:
            out[i] = THRESHOLDS_5[i]
        else:
            out[i] = THRESHOLDS_4[method, i] + (5 if players == 3 else 0)
    return out


@njit(cache=True)
def baseline_contract(hand_s, hand_t, method, players):
    """The contract (0 pass … 4 Garde contre) the method bids with this hand, ignoring earlier bids."""
    limits = thresholds(method, players)
    if method == CHAVEY:
        if chavey_points(hand_s, hand_t, np.bool_(False)) < limits[0]:
            return 0
        pts = chavey_points(hand_s, hand_t, np.bool_(True))
    else:
        pts = tarotclub_points(hand_s, hand_t)
    best = 0
    for i in range(4):
        if pts >= limits[i]:
            best = i + 1
    return best


@njit(cache=True)
def baseline_bid(hand_s, hand_t, method, players, best_so_far):
    """The bidding model of a simulated seat: its method's contract if it outbids, else pass (0)."""
    wanted = baseline_contract(hand_s, hand_t, method, players)
    return wanted if wanted > best_so_far else 0


@njit(cache=True)
def run_auction(hands_s, hands_t, players, method, out_bids):
    """One round of bidding by the model, seat 0 first; fills ``out_bids`` and returns the taker
    (or -1 when everybody passes)."""
    return finish_auction(hands_s, hands_t, players, method, out_bids, np.int64(0))


@njit(cache=True)
def finish_auction(hands_s, hands_t, players, method, bids, first):
    """The round of bidding with ``bids[:first]`` already made: seats ``first``… bid by the model
    into ``bids``; returns the taker (the highest bidder, or -1 when everybody passes)."""
    best = np.int64(0)          # not a constant 0: baseline_bid would be compiled for it too
    taker = -1
    for seat in range(players):
        if seat >= first:
            bids[seat] = baseline_bid(hands_s[seat], hands_t[seat], method, players, best)
        if bids[seat] > best:
            best, taker = bids[seat], seat
    return taker


SQRT2 = math.sqrt(2.0)


@njit(cache=True)
def _error_below(x, noise):
    """P(error < x) for a normal error of standard deviation ``noise`` (0: no error)."""
    if noise <= 0.0:
        return 1.0 if x > 0.0 else 0.0
    return 0.5 * math.erfc(-x / (noise * SQRT2))


@njit(cache=True)
def bid_probability(hand_s, hand_t, method, players, best, bid, noise):
    """P(a seat with this hand bids ``bid`` (0 pass … 4) after the best bid ``best``) when it bids by
    ``method`` with its count off by a normal error of ``noise`` points.

    With the error e and the thresholds T_k (lowest count for contract k, less half a point), the seat
    wants contract k when ``base + e >= T_1`` and ``T_k <= dist + e < T_(k+1)`` (Chavey: ``base``
    without voids and singletons, ``dist`` with them; TarotClub: one count), and passes when what it
    wants does not outbid ``best``."""
    limits = thresholds(method, players)
    if method == CHAVEY:
        base = chavey_points(hand_s, hand_t, np.bool_(False))
        dist = chavey_points(hand_s, hand_t, np.bool_(True))
    else:
        base = tarotclub_points(hand_s, hand_t)
        dist = base
    first = limits[0] - 0.5 - base              # the seat bids at all when e >= first
    if bid == 0:
        if best >= 4:
            return 1.0
        return _error_below(max(first, limits[best] - 0.5 - dist), noise)
    if bid <= best:
        return 0.0
    low = max(first, limits[bid - 1] - 0.5 - dist)
    if bid == 4:
        return 1.0 - _error_below(low, noise)
    return max(0.0, _error_below(limits[bid] - 0.5 - dist, noise) - _error_below(low, noise))
