"""Soft evidence from the cards played (``kernels/pimc.py``: ``play_likelihood``, ``resampled_worlds``):
the heuristic's card read off a position is the card ``advance`` plays for it, a world's likelihood
counts exactly the cards played off the heuristic's choice, and resampling keeps each world in
proportion to its weight."""

import random

import numpy as np
import pytest

from analyzer.game import Game, Phase
from analyzer.rules import Rules
from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.pimc import (PLAY_MISMATCH, play_likelihood, replay_scratch, resampled_worlds, seat_sampler,
                          systematic_counts)
from tests.support.randomplay import random_deal, step
from tests.kernels.test_pimc import positions

VARIANTS = [{}, {"misere": "on", "all_pass": "goulash"}]


def heuristic_card(hs, ht, st):
    """The card ``advance`` plays for the seat to play under ``HEURISTIC`` (on copies)."""
    trace = np.empty(1, dtype=np.int16)
    K.advance(hs.copy(), ht.copy(), st.copy(), np.full(st[K.PLAYERS], K.HEURISTIC, dtype=np.int64), np.uint64(0),
              np.empty(0, dtype=np.int64), 1, np.empty(K.RESULT_SIZE, dtype=np.int64), trace)
    return int(trace[0])


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variants", VARIANTS, ids=["fft", "misere-goulash"])
def test_heuristic_at_is_the_card_advance_plays(players, variants):
    """``advance`` plays a lone legal card without asking the heuristic (whose first rule plays it):
    the positions checked include such cards, and the many-card ones the heuristic decides."""
    forced = 0
    for game in positions(players, 150, seed=40 + players, rules=Rules(players=players, **variants)):
        hs, ht, st = state_from_game(game)
        assert K.heuristic_at(hs, ht, st) == heuristic_card(hs, ht, st)
        seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
        legal_s, legal_t = K.legal_words(hs[seat], ht[seat], st)
        forced += bin(int(legal_s)).count("1") + bin(int(legal_t)).count("1") == 1
    assert 10 <= forced <= 140


def start_of_play(players, rng):
    """A reference game at its first card, with a taker."""
    while True:
        game = Game.new(random_deal(rng, players), Rules(players=players))
        while game.phase not in (Phase.PLAY, Phase.DONE):
            step(game, rng)
        if game.phase is Phase.PLAY and game.taker is not None:
            return game


def played_from_start(players, rng):
    """A deal played part of the way from its first card, each card the heuristic's or (one in three)
    a random legal one: (hands and state now, state at the first card, the cards played, and for
    each card its seat when it was not the heuristic's choice, else -1)."""
    hs, ht, st = state_from_game(start_of_play(players, rng))
    start = st.copy()
    past, off = [], []
    for _ in range(rng.randrange(1, K.HAND_SIZE[players] * players)):
        seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
        legal_s, legal_t = K.legal_words(hs[seat], ht[seat], st)
        legal = [c for c in range(56) if int(legal_s) >> c & 1] + [56 + b for b in range(22) if int(legal_t) >> b & 1]
        chosen = K.heuristic_at(hs, ht, st)
        card = rng.choice(legal) if rng.random() < 1 / 3 else chosen
        past.append(card)
        off.append(seat if card != chosen else -1)
        K.play_card(hs, ht, st, card)
    return hs, ht, st, start, np.array(past, dtype=np.int64), off


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_real_layout_is_weighed_by_the_cards_off_the_heuristic(players):
    """On the real hands the likelihood seen from any seat is the mismatch weight to the power of the
    other seats' cards that were not the heuristic's choice."""
    rng = random.Random(players)
    scratch = replay_scratch(players)
    mismatched = 0
    for _ in range(25):
        hs, ht, st, start, past, off = played_from_start(players, rng)
        for seat in range(players):
            m = sum(1 for s in off if s >= 0 and s != seat)
            mismatched += m
            got = play_likelihood(hs, ht, st, start, past, seat, st[K.PARTNER], PLAY_MISMATCH, scratch)
            assert got == pytest.approx(PLAY_MISMATCH ** m, rel=1e-12)
    assert mismatched > 50


def test_systematic_counts_give_each_item_its_share():
    rng = np.random.default_rng(5)
    counts = np.empty(40, dtype=np.int64)
    for _ in range(500):
        weights = rng.random(40) ** 3
        weights /= weights.sum()
        n = int(rng.integers(1, 100))
        systematic_counts(weights, n, rng.random(), counts)
        assert counts.sum() == n
        assert (counts >= np.floor(n * weights) - 1e-9).all() and (counts <= np.ceil(n * weights) + 1e-9).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_resampled_worlds_are_worlds_the_seat_cannot_rule_out(players):
    """Every world kept puts each card in a place the seat allows, with each place's number of
    cards, and the counts add up to the worlds asked for."""
    rng = random.Random(70 + players)
    worlds = 16
    for _ in range(20):
        hs, ht, st, start, past, _ = played_from_start(players, rng)
        seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
        sampler = seat_sampler(hs, ht, st, seat)
        allowed = sampler[1]
        kept_s = np.empty((worlds, players + 1), dtype=np.uint64)
        kept_t = np.empty((worlds, players + 1), dtype=np.uint64)
        kept_partner = np.empty(worlds, dtype=np.int64)
        kept_count = np.empty(worlds, dtype=np.int64)
        _, kept = resampled_worlds(sampler, np.uint64(rng.getrandbits(63)), st, seat, True, start, past, worlds,
                                   kept_s, kept_t, kept_partner, kept_count)
        assert 1 <= kept <= worlds and kept_count[:kept].sum() == worlds
        for v in range(kept):
            for p in range(players + 1):
                assert int(kept_s[v, p]).bit_count() + int(kept_t[v, p]).bit_count() == \
                    int(hs[p]).bit_count() + int(ht[p]).bit_count()
                for c in range(78):
                    word = kept_s[v, p] if c < 56 else kept_t[v, p]
                    if int(word) >> (c if c < 56 else c - 56) & 1:
                        assert allowed[c] >> p & 1
