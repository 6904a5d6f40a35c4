"""Inference about the hidden hands: the hard constraints are exactly what the rules of play imply,
the petit sec constraint conditions the worlds without bias, and the auction weights are the
bidding model's probability of the bids on the hands as dealt."""

import random

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.game import Game, Phase
from analyzer.knowledge import revealed_exclusions
from analyzer.play import legal_cards
from analyzer.rules import Rules
from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.bidding import TAROTCLUB, bid_probability
from kernels.pimc import (NO_PAST, RACE_FIRST, RACE_STEP, auction_likelihood, dealt_petit_sec, draw_world,
                          hand_as_dealt, mixture_weights, pimc_card_solving, seat_sampler)
from kernels.endgame import new_workspace
from tests.support.randomplay import random_deal, step
from tests.kernels.test_pimc import positions

EXCUSE_BIT = 1 << C.EXCUSE


def words(mask: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(mask & C.SUIT_BITS), np.uint64(mask >> C.FIRST_TRUMP)


def mask_of_words(s, t) -> int:
    return int(s) | int(t) << C.FIRST_TRUMP


def plays_so_far(game: Game):
    """(seat, card, cards of the trick before it, the seat's hand before it, the trick's index) for every
    card played."""
    hands = [h.mask for h in game.deal.hands]
    if game.contract is not None and game.contract.chien_shown:
        hands[game.taker] = (hands[game.taker] | game.deal.chien.mask) & ~game.discard
    tricks = [list(zip(t.seats, t.cards)) for t in game.tricks] + [list(game.current)]
    for index, trick in enumerate(tricks):
        before = []
        for seat, card in trick:
            yield seat, card, list(before), hands[seat], index
            hands[seat] &= ~(1 << card)
            before.append(card)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_revealed_exclusions_are_exactly_what_the_rules_of_play_imply(players):
    """A card x is excluded from a seat's hand exactly when holding it would have made one of the
    cards the seat played illegal (brute force over every card with the reference rules of play), in
    the reference knowledge and in the kernel state alike."""
    checked = 0
    for game in positions(players, 200, seed=100 + players):
        if game.taker is None:
            continue
        brute = [0] * players
        for seat, card, trick, hand, index in plays_so_far(game):
            forbidden = 0 if trick or index or game.called_card is None else (
                C.suit_mask(C.suit_of(game.called_card)) & ~(1 << game.called_card))
            for x in range(C.N_CARDS):
                if not hand >> x & 1 and not legal_cards(hand | 1 << x, trick, forbidden) >> card & 1:
                    brute[seat] |= 1 << x
        reference = revealed_exclusions(game)
        _, _, st = state_from_game(game)
        for seat in range(players):
            kernel = mask_of_words(st[K.EXCL_S + seat], st[K.EXCL_T + seat])
            poignees = sum(p.shown for p in game.poignees if p.seat != seat)     # shown: in no other hand
            assert reference[seat] & ~EXCUSE_BIT == brute[seat] & ~EXCUSE_BIT, (seat, game)
            assert kernel & ~poignees & ~EXCUSE_BIT == brute[seat] & ~poignees & ~EXCUSE_BIT
            checked += 1
    assert checked > 400


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hands_as_dealt_and_the_auction_likelihood_on_the_real_layout(players):
    """On the real layout, every seat's hand as dealt (its cards now, those it played, for a taker who
    saw the chien the discard less the chien) is its dealt hand, no seat was dealt a petit sec, and
    the auction's likelihood is the product of each other seat's bid probability on its dealt hand."""
    rng = random.Random(players)
    method, noise = TAROTCLUB, 8.0
    checked = 0
    for game in positions(players, 40, seed=200 + players):
        if game.taker is None:
            continue
        hs, ht, st = state_from_game(game)
        bids = [rng.choice([0, 0, 1, 2]) for _ in range(players)]
        K.set_auction(st, np.array(bids, dtype=np.int64), method)
        hs_now, ht_now = hs.copy(), ht.copy()
        for s in range(players):
            assert mask_of_words(*hand_as_dealt(hs_now, ht_now, st, s)) == game.deal.hands[s].mask
        for seat in range(players):
            assert not dealt_petit_sec(hs_now, ht_now, st, seat)
            expected, best = 1.0, 0
            for s in range(players):
                if s != seat:
                    expected *= bid_probability(*words(game.deal.hands[s].mask), method, players, best, bids[s],
                                                noise)
                best = max(best, bids[s])
            assert auction_likelihood(hs_now, ht_now, st, seat, noise) == pytest.approx(expected, rel=1e-12)
            checked += 1
    assert checked > 60


def test_an_unknown_auction_or_an_unrecorded_bid_is_no_evidence():
    game = next(g for g in positions(4, 5, seed=3) if g.taker is not None)
    hs, ht, st = state_from_game(game)
    assert auction_likelihood(hs, ht, st, 0, 8.0) == 1.0                 # no auction recorded
    K.set_auction(st, np.array([-1, -1, -1, -1], dtype=np.int64), TAROTCLUB)
    assert auction_likelihood(hs, ht, st, 0, 8.0) == 1.0


def test_mixture_weights_keep_a_uniform_share_and_are_equal_for_equal_likelihoods():
    out = np.empty(4)
    mixture_weights(np.array([0.0, 0.0, 0.0, 1.0]), out)
    assert out.sum() == pytest.approx(1.0)
    assert out[0] == pytest.approx(0.25 / 4) and out[3] == pytest.approx(0.75 + 0.25 / 4)
    mixture_weights(np.array([0.3, 0.3, 0.3, 0.3]), out)
    assert list(out) == [0.25] * 4
    mixture_weights(np.zeros(4), out)
    assert list(out) == [0.25] * 4


def _early_positions(players, count, seed):
    """Positions in the first tricks (little revealed), where a world may deal some seat a petit sec."""
    rng = random.Random(seed)
    rules = Rules(players=players)
    while count:
        game = Game.new(random_deal(rng, players), rules)
        while game.phase not in (Phase.PLAY, Phase.DONE):
            step(game, rng)
        if game.phase is Phase.DONE or game.taker is None:
            continue
        for _ in range(rng.randrange(2 * players)):
            step(game, rng)
        count -= 1
        yield game


def _python_petit_sec(game: Game, place, seat: int) -> bool:
    """Whether a world (card places) deals a seat other than ``seat`` a petit sec, from the record of
    play (independent of the kernels' bookkeeping)."""
    P = game.rules.players
    petit = C.trump(1)
    played = [0] * P
    for s, c in [sc for t in game.tricks for sc in zip(t.seats, t.cards)] + list(game.current):
        played[s] |= 1 << c
    holder = place[petit] if place[petit] >= 0 else next(s for s in range(P) if played[s] >> petit & 1)
    if holder in (seat, P):
        return False
    hand = played[holder] | sum(1 << c for c in range(C.FIRST_TRUMP, C.N_CARDS) if place[c] == holder)
    if holder == game.taker and game.contract.chien_shown:
        hand = (hand | sum(1 << c for c in range(C.N_CARDS) if place[c] == P)) & ~game.deal.chien.mask
    return hand & (C.TRUMP_BITS | EXCUSE_BIT) == 1 << petit


@pytest.mark.slow
def test_the_petit_sec_constraint_is_uniform_conditioning():
    """Worlds drawn under the constraint never deal a petit sec, the kernel's test agrees with one made
    from the record of play on every world, and where the Petit lies follows the uniform worlds
    conditioned on no petit sec (frequencies within 4.5 standard errors, fixed seed)."""
    players, n = 4, 4000
    binding = 0
    for k, game in enumerate(_early_positions(players, 12, seed=9)):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        sampler = seat_sampler(hs, ht, st, seat)
        place = np.empty(78, dtype=np.int64)
        ws = np.empty(players + 1, dtype=np.uint64)
        wt = np.empty(players + 1, dtype=np.uint64)
        counts = {True: np.zeros(players + 1), False: np.zeros(players + 1)}
        rejected = 0
        for constrain in (False, True):
            state = np.uint64(1000 + k)
            for _ in range(n):
                state, _ = draw_world(sampler, state, place, st, seat, constrain, ws, wt)
                state = np.uint64(state)
                sec = _python_petit_sec(game, place, seat)
                assert sec == dealt_petit_sec(ws, wt, st, seat)
                if constrain:
                    assert not sec
                elif sec:
                    rejected += 1
                    continue
                counts[constrain][place[C.trump(1)]] += 1
        binding += rejected > 0
        a, b = counts[False] / counts[False].sum(), counts[True] / counts[True].sum()
        se = np.sqrt(a * (1 - a) / counts[False].sum() + b * (1 - b) / counts[True].sum()) + 1e-12
        assert (np.abs(a - b) <= 4.5 * se).all(), (k, a, b)
    assert binding >= 3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_weighting_without_an_auction_changes_no_decision(players):
    """With no auction recorded every world weighs the same, so the weighted search plays the card the
    unweighted one plays, on the same random stream."""
    w = new_workspace(1)
    for i, game in enumerate(positions(players, 12, seed=300 + players)):
        if game.taker is None:
            continue
        hs, ht, st = state_from_game(game)
        plain = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i), 0, w, False, False, st, NO_PAST,
                                  False, False, RACE_FIRST, RACE_STEP)
        weighted = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i), 0, w, False, True, st,
                                     NO_PAST, False, False, RACE_FIRST, RACE_STEP)
        assert plain == weighted



@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_search_without_the_inference_plays_as_with_it_turned_off(players):
    """The users' search (``weigh`` and ``past`` None: compiled without the inference) plays the card and
    leaves the random stream of the search with the inference compiled in and turned off, racing, the
    prior and the solver included."""
    w = new_workspace(10)
    for i, game in enumerate(positions(players, 12, seed=500 + players)):
        if game.taker is None:
            continue
        hs, ht, st = state_from_game(game)
        for race, prior in ((False, False), (True, True)):
            args = (8, 1, np.uint64(i), np.int64(4), w, True)
            full = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, False, st, NO_PAST, race, prior,
                                     RACE_FIRST, RACE_STEP)
            lean = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, None, st, None, race, prior,
                                     RACE_FIRST, RACE_STEP)
            assert lean == full
