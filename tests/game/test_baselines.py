"""The point-count bidding methods of docs/bidding.md, on hands counted by hand."""

import pytest

from analyzer.baselines import baseline_bid, baseline_contract, chavey_points, tarotclub_points, thresholds
from analyzer.notation import parse_mask
from analyzer.rules import Contract
from tests.support.hands import FFT_HAND

# 8 trumps with the three oudlers; mariage in spades, Kings of hearts and clubs, the knight of diamonds.
STRONG = parse_mask(FFT_HAND)
# Four consecutive majors, seven spades with a 7-J run, void in clubs, singleton heart.
LONG_SPADES = parse_mask("20 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D")
WEAK = parse_mask("7 4 2 QS 9S 5S 3S 10H 6H 2H JD 8D 5D 1D 9C 7C 4C 2C")


def test_chavey_counts_by_hand():
    # 21 10 + Excuse 8 + Petit with 8 trumps 9 + 8 trumps x 2 + majors 21, 19 x 2 + mariage 10 + K 6 + C 2 + K 6
    assert chavey_points(STRONG) == 71
    assert chavey_points(STRONG, with_distribution=True) == 71
    # 6 trumps x 2 + 4 majors x 2 + run of 4 majors x 1 + mariage 10 + J 1 + seven spades 9 + K 6
    assert chavey_points(LONG_SPADES) == 50
    # ... plus a void 6 and a singleton 3 when weighing a higher contract
    assert chavey_points(LONG_SPADES, with_distribution=True) == 59


def test_tarotclub_counts_by_hand():
    # 21 9 + Excuse 7 + Petit with > 7 trumps 8 + 8 trumps x 2 + three trumps >= 15 x 2 + 3 Kings 18 + Q 3 + C 2 + K+Q 1
    assert tarotclub_points(STRONG) == 70
    # 6 trumps x 2 + 4 x 2 + 2 Kings 12 + Q 3 + J 1 + K+Q 1 + long suit 5 + run 7-J 4 + void 5 + singleton 3
    assert tarotclub_points(LONG_SPADES) == 54


def test_weak_hand_passes_with_both_methods():
    assert chavey_points(WEAK) < 40 and tarotclub_points(WEAK) <= 35
    assert baseline_contract(WEAK, "chavey", 4) is None
    assert baseline_contract(WEAK, "tarotclub", 4) is None


def test_contracts_from_counts():
    assert baseline_contract(STRONG, "chavey", 4) is Contract.GARDE_SANS      # 71: 71-80
    assert baseline_contract(STRONG, "tarotclub", 4) is Contract.GARDE_SANS   # 70: 66-75
    assert baseline_contract(LONG_SPADES, "chavey", 4) is Contract.GARDE      # bids on 50, Garde on 59
    assert baseline_contract(LONG_SPADES, "tarotclub", 4) is Contract.GARDE   # 54: 51-65


def test_thresholds_by_player_count():
    assert thresholds("chavey", 4) == (40, 56, 71, 81)
    assert thresholds("tarotclub", 4) == (36, 51, 66, 76)
    assert thresholds("chavey", 3) == (45, 61, 76, 86)
    assert thresholds("tarotclub", 5) == (33, 49, 64, 74)
    with pytest.raises(ValueError, match="unknown bidding method"):
        thresholds("gut-feeling", 4)
    # 3 players: 71 Chavey points is only a Garde (61-75)
    assert baseline_contract(STRONG, "chavey", 3) is Contract.GARDE


def test_bidding_model_must_outbid():
    assert baseline_bid(LONG_SPADES, "tarotclub", 4, None) is Contract.GARDE
    assert baseline_bid(LONG_SPADES, "tarotclub", 4, Contract.PRISE) is Contract.GARDE
    assert baseline_bid(LONG_SPADES, "tarotclub", 4, Contract.GARDE) is None
