"""The heuristic discard is always legal, makes voids, and keeps points safe."""

import random

import numpy as np

from analyzer import cards as C
from analyzer.game import check_discard
from analyzer.notation import format_cards, parse_mask
from kernels.discard import heuristic_discard


def discard(mask: int, k: int = 6) -> int:
    s, t = heuristic_discard(np.uint64(mask & C.SUIT_BITS), np.uint64(mask >> C.FIRST_TRUMP), k)
    return int(s) | int(t) << C.FIRST_TRUMP


def test_always_legal_on_random_hands():
    rng = random.Random(3)
    for size, k in ((30, 6), (24, 6), (18, 3)):
        for _ in range(3000):
            hand = C.mask_of(rng.sample(range(C.N_CARDS), size))
            check_discard(hand, discard(hand, k), k)


def test_forced_trumps_are_the_lowest():
    hand = parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 1 EX KS KH KD")
    assert format_cards(discard(hand)) == "8 7 6 5 4 3"


def test_makes_voids_in_short_suits_without_king():
    hand = parse_mask("21 19 17 15 12 9 7 4 2 EX KS QS 9S 5S KH 8H 4H 3H CD 6D 2D 7C 3C KC")
    # diamonds (3 cards, no King) go entirely; then the points of the suits without a King... none left
    # to protect: the lowest cards of the shortest suits
    d = discard(hand)
    assert d & C.suit_mask(2) == C.suit_mask(2) & hand
    assert d.bit_count() == 6


def test_puts_away_an_unguarded_queen():
    hand = parse_mask("21 19 17 15 12 9 7 4 2 1 QS 9S 8S 5S KH 8H 4H 3H KD 6D KC 7C 3C 2C")
    d = discard(hand)
    assert d >> parse_mask("QS").bit_length() - 1 & 1
