"""The judge's worlds give the taker the discard a taker makes (``kernels.evaluate.model_aside``), within
what the judged seat knows, and the King call it makes (``call_likelihood``); ``discard_within`` is the
heuristic discard when nothing is forced."""

import random

import numpy as np

from analyzer import cards as C
from analyzer.coach.cards import judge_chunks
from analyzer.records import load_records
from analyzer.simulate import state_from_game
from analyzer.simulation.threads import over_rows
from kernels.declarations import call_card
from kernels.discard import KING_BITS, discard_within, heuristic_discard
from kernels.evaluate import CALL_MISMATCH, ENDING_TRICKS, call_likelihood, judge_values
from kernels.pimc import hand_as_dealt
from kernels.playout import CALLED, EXCL_S, HEURISTIC, PLAYED_S

RECORD = "data/records/four-players.txt"       # a Garde: the chien shown, the discard hidden


def test_discard_within_is_the_heuristic_discard_when_nothing_is_forced():
    rng = random.Random(11)
    for size, k in ((24, 6), (18, 3), (30, 6)):
        for _ in range(2000):
            hand = C.mask_of(rng.sample(range(C.N_CARDS), size))
            suits = np.uint64(hand & C.SUIT_BITS)
            whole, _ = heuristic_discard(suits, np.uint64(hand >> C.FIRST_TRUMP), k)
            within = discard_within(suits, k, np.uint64(0), suits & ~KING_BITS)
            if int(whole).bit_count() == k:          # no trump forced: the same suit cards
                assert int(within) == int(whole)


def test_discard_within_keeps_what_is_forced_and_takes_only_what_may_go():
    hand = C.mask_of(range(0, 56, 2)) & ~int(KING_BITS)
    must = C.mask_of([2, 4])
    may = hand & ~C.mask_of([0, 6, 8])
    out = int(discard_within(np.uint64(hand), 6, np.uint64(must), np.uint64(may)))
    assert out & must == must and out.bit_count() == 6 and out & ~(may | must) == 0


def test_a_defender_s_worlds_give_the_taker_a_discard_it_would_make():
    record = load_records(RECORD)[0]
    decision = next(d for d in record.decisions() if d.phase == "card" and d.seat == 2 and d.index > 30)
    game = record.position(decision.index)
    taker = game.taker
    hs, ht, st = state_from_game(game)
    seat = game.to_act
    assert seat != taker
    worlds = 64
    legal = [c for c in range(C.N_CARDS) if game.legal_cards() >> c & 1][:2]
    hands = np.zeros((worlds, 2, 5), dtype=np.uint64)
    policies = np.full(4, HEURISTIC, dtype=np.int64)
    over_rows(judge_values, judge_chunks(worlds), 0, hs, ht, st, np.array(legal, dtype=np.int64), policies, 1,
              np.uint64(5), int(ENDING_TRICKS[4]), 8.0, False, np.zeros((worlds, 2), dtype=np.int64),
              np.zeros((worlds, 2), dtype=np.int64), np.zeros(worlds), hands)
    void = int(st[EXCL_S + taker])
    played = int(st[PLAYED_S + taker])
    fixed = {p: int(hs[p]) for p in range(4) if p not in (taker,)}
    discards = set()
    for w in range(worlds):
        aside, held = int(hands[w, 0, 4]), int(hands[w, 0, taker])
        assert aside.bit_count() == int(hs[4]).bit_count() and int(hands[w, 1, 4]) == int(ht[4])
        assert held.bit_count() + int(hands[w, 1, taker]).bit_count() == int(hs[taker]).bit_count() + int(
            ht[taker]).bit_count()
        assert aside & int(KING_BITS) == 0 and held & void == 0 and aside & played == 0
        assert int(hands[w, 0, seat]) == fixed[seat]          # the judged seat's hand is its own
        expected = discard_within(np.uint64(held | aside | played), aside.bit_count(), np.uint64(aside & void),
                                  np.uint64((held | aside) & ~int(KING_BITS) & ~void))
        assert int(expected) == aside
        discards.add(aside)
    assert len(discards) > 1                      # the taker's cards differ from world to world


def test_a_defender_s_worlds_weigh_the_king_called_as_the_taker_s_hand_would_call_it():
    record = load_records("data/records/five-players.txt")[0]
    decision = next(d for d in record.decisions() if d.phase == "card")
    game = record.position(decision.index)
    seat, taker = game.to_act, game.taker
    assert seat != taker
    hs, ht, st = state_from_game(game)
    dealt_s, _ = hand_as_dealt(hs, ht, st, taker)
    st[CALLED] = call_card(dealt_s)
    assert call_likelihood(hs, ht, st, seat) == 1.0
    other = next(C.suit_card(suit, 14) for suit in range(4)
                 if C.suit_card(suit, 14) != st[CALLED] and not int(dealt_s) >> C.suit_card(suit, 14) & 1)
    st[CALLED] = other
    assert call_likelihood(hs, ht, st, seat) == CALL_MISMATCH
    assert call_likelihood(hs, ht, st, taker) == 1.0          # the taker knows its own hand
    st[CALLED] = -1
    assert call_likelihood(hs, ht, st, seat) == 1.0
