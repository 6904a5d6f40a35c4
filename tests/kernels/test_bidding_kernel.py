"""The bidding kernels agree with the plain-Python point counts on random hands."""

import random

import numpy as np

from analyzer import baselines as B
from analyzer import cards as C
from kernels import bidding as K


def words(mask):
    return np.uint64(mask & C.SUIT_BITS), np.uint64(mask >> C.FIRST_TRUMP)


def test_counts_and_contracts_match_the_reference():
    rng = random.Random(11)
    for i in range(3000):
        players = (3, 4, 5)[i % 3]
        size = {3: 24, 4: 18, 5: 15}[players]
        hand = C.mask_of(rng.sample(range(C.N_CARDS), size))
        s, t = words(hand)
        assert K.chavey_points(s, t, False) == B.chavey_points(hand)
        assert K.chavey_points(s, t, True) == B.chavey_points(hand, with_distribution=True)
        assert K.tarotclub_points(s, t) == B.tarotclub_points(hand)
        for method_id, method in enumerate(B.METHODS):
            expected = B.baseline_contract(hand, method, players)
            assert K.baseline_contract(s, t, method_id, players) == (0 if expected is None else int(expected))


def test_auction_one_round_rising_bids():
    hands = [C.mask_of(range(i * 18, i * 18 + 18)) for i in range(4)]
    hs = np.array([words(h)[0] for h in hands], dtype=np.uint64)
    ht = np.array([words(h)[1] for h in hands], dtype=np.uint64)
    bids = np.zeros(4, dtype=np.int64)
    taker = K.run_auction(hs, ht, 4, K.TAROTCLUB, bids)
    best = 0
    for b in bids:
        if b:
            assert b > best
            best = b
    assert taker == (max(range(4), key=lambda s: bids[s]) if best else -1)
