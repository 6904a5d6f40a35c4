"""Declarations of simulated seats are legal and follow their stated rules."""

import random

import numpy as np

from analyzer import cards as C
from analyzer.game import legal_calls, poignee_level
from analyzer.notation import parse_mask
from analyzer.rules import Rules
from kernels.declarations import announce_chelem, call_card, poignee_to_show


def words(mask):
    return np.uint64(mask & C.SUIT_BITS), np.uint64(mask >> C.FIRST_TRUMP)


def test_poignee_is_the_highest_legal_level_with_the_lowest_trumps():
    rng = random.Random(5)
    shown_any = 0
    for i in range(4000):
        players = (3, 4, 5)[i % 3]
        rules = Rules(players=players)
        hand = C.mask_of(rng.sample(range(C.N_CARDS), rules.hand_size))
        level, shown_t = poignee_to_show(words(hand)[1], players)
        eligible = [lvl for lvl, need in enumerate(rules.poignee_thresholds) if C.trump_count(hand) >= need]
        if not eligible:
            assert level == -1
            continue
        shown = int(shown_t) << C.FIRST_TRUMP
        assert poignee_level(hand, shown, rules) == max(eligible) == level
        shown_any += 1
    assert shown_any > 20


def test_poignee_shows_the_excuse_only_as_last_stand_in():
    hand = parse_mask("20 17 15 12 10 9 8 6 4 EX KS QS 7S KH 3H CD 9D 2D")   # 9 trumps + Excuse
    level, shown_t = poignee_to_show(words(hand)[1], 4)
    assert level == 0 and int(shown_t) >> 21 & 1


def test_chelem_only_with_an_overwhelming_hand():
    sure = parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 EX KS")
    assert announce_chelem(*words(sure), False) == 1
    assert announce_chelem(*words(parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 EX QS")), False) == 0
    assert announce_chelem(*words(parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 KS")), False) == 0


def test_petit_chelem_announced_only_under_its_variant_with_one_trick_to_spare():
    one_loser = words(parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 EX QS"))
    assert announce_chelem(*one_loser, False) == 0
    assert announce_chelem(*one_loser, True) == 2
    sure = words(parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 EX KS"))
    assert announce_chelem(*sure, True) == 1                       # the full chelem, worth more, when sure
    assert announce_chelem(*words(parse_mask("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 QS 2H")), True) == 0
    assert announce_chelem(*words(parse_mask("20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 EX QS")), True) == 0


def test_call_is_legal_and_not_a_card_of_ones_own():
    rng = random.Random(9)
    for _ in range(2000):
        hand = C.mask_of(rng.sample(range(C.N_CARDS), 15))
        card = call_card(words(hand)[0])
        assert card in legal_calls(hand)
        assert not hand >> card & 1
    # the King of the suit where the taker is longest (a Queen there counts double)
    hand = parse_mask("21 15 9 4 1 QH 9H 3H 8S 7S 6S 5S KD 2C 3C")
    assert C.TOKENS[call_card(words(hand)[0])] == "KH"
