"""The judge's exact endings and auction weights: within the solver's reach every card's value in each
world is the solver's, a card perfect play ranks best in every world is never flagged, and the worlds'
weights are ``bid``'s on the same hands."""

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.advice.auction import BID_NOISE
from analyzer.baselines import method_id
from analyzer.coach.cards import cards_out, judge_card, judge_chunks
from analyzer.coach.equivalence import card_classes
from analyzer.game import Game, Phase
from analyzer.hand import Deal, Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from analyzer.simulate import state_from_game
from analyzer.simulation.bridge import policy_ids
from analyzer.solve import solve
from analyzer.simulation.threads import over_rows
from kernels.evaluate import EXACT_TRICKS, judge_values
from kernels.auction import bids_likelihood
from kernels.pimc import hand_as_dealt
from kernels.playout import LEADER, PLAYERS, TRICK_LEN, set_auction

from tests.coach.test_coach_cards import petit_game


def late_game(left: int) -> Game:
    """``petit_game`` played on by the first legal card until ``left`` tricks remain."""
    game = petit_game()
    while game.rules.tricks - len(game.tricks) > left:
        game.play(next(C.cards_of(game.legal_cards())))
    return game


def world_game(game: Game, world_s: np.ndarray, world_t: np.ndarray, st: np.ndarray) -> Game:
    """The game on a drawn world's layout (a Garde sans: the chien is the world's aside), replayed to the
    same position."""
    players = game.rules.players
    hands = []
    for s in range(players):
        suit, trump = hand_as_dealt(world_s, world_t, st, s)
        hands.append(Hand(int(suit) | int(trump) << C.FIRST_TRUMP))
    chien = Hand(int(world_s[players]) | int(world_t[players]) << C.FIRST_TRUMP)
    world = Game.for_play(Deal(tuple(hands), chien), game.rules, game.taker, game.contract)
    for trick in game.tricks:
        for card in trick.cards:
            world.play(card)
    for _, card in game.current:
        world.play(card)
    return world


@pytest.mark.parametrize("left", [3, 5])
def test_within_the_solver_s_reach_each_world_s_values_are_solve_s(left):
    game = late_game(left)
    assert left <= EXACT_TRICKS[4]
    hs, ht, st = state_from_game(game)
    seat = (st[LEADER] + st[TRICK_LEN]) % st[PLAYERS]
    candidates = np.array(sorted(C.cards_of(game.legal_cards())), dtype=np.int64)
    assert len(candidates) > 1
    n, seed = 6, np.uint64(5)
    scores = np.zeros((n, len(candidates)), dtype=np.int64)
    made = np.zeros((n, len(candidates)), dtype=np.int64)
    weights = np.zeros(n)
    hands = np.zeros((n, 2, 5), dtype=np.uint64)
    over_rows(judge_values, judge_chunks(n), 0, hs, ht, st, candidates, policy_ids("heuristic", 4), 1, seed,
              EXACT_TRICKS[4], 8.0, False, scores, made, weights, hands)
    taker_side = game.side(seat) == game.side(game.taker)
    assert len({hands[w].tobytes() for w in range(n)}) == n                  # worlds of their own
    for w in range(n):
        solution = solve(world_game(game, hands[w, 0], hands[w, 1], st))      # the seat's own score
        for j, card in enumerate(candidates):
            value = solution.value_of(int(card))
            assert scores[w, j] == value
            assert made[w, j] == ((value > 0) if taker_side else (value < 0))


def test_a_card_perfect_play_ranks_best_in_every_world_is_never_flagged():
    checked = 0
    for left in (5, 4, 3, 2):
        game = late_game(left)
        for _ in range(4):                             # each seat's card of that trick
            hs, ht, st = state_from_game(game)
            candidates = np.array(sorted(C.cards_of(game.legal_cards())), dtype=np.int64)
            settings = Settings(worlds_per_card=40, seed=3)
            scores = np.zeros((40, len(candidates)), dtype=np.int64)
            made = np.zeros_like(scores)
            over_rows(judge_values, judge_chunks(40), 0, hs, ht, st, candidates, policy_ids("heuristic", 4), 1,
                      np.uint64(3), EXACT_TRICKS[4], 8.0, False, scores, made, np.zeros(40),
                      np.zeros((40, 2, 5), dtype=np.uint64))
            for j, card in enumerate(candidates):
                if (scores[:, j] == scores.max(axis=1)).all():
                    decision = judge_card(game, int(card), settings)
                    assert decision.verdict is None and decision.loss.mean <= 0
                    checked += 1
            game.play(next(C.cards_of(game.legal_cards())))
    assert checked >= 8


def auction_game() -> tuple[Game, list[Contract | None]]:
    """A 4-player deal bid pass, Garde sans, pass, pass, played on by the first legal card until seat 4 has a
    choice to make."""
    g = petit_game()
    game = Game.new(g.deal, Rules(players=4))
    bids = [None, Contract.GARDE_SANS, None, None]
    for bid in bids:
        game.bid(bid)
    game.announce_chelem(None)
    while game.phase is not Phase.PLAY:
        game.declare()
    while game.to_act != 3 or len(card_classes(game.legal_cards(), cards_out(game, 3))) < 2:
        game.play(next(C.cards_of(game.legal_cards())))
    return game, bids


def test_the_worlds_weights_are_bid_s_on_the_same_hands():
    game, bids = auction_game()
    hs, ht, st = state_from_game(game)
    set_auction(st, np.array([0 if b is None else int(b) for b in bids], dtype=np.int64), method_id("tarotclub"))
    candidates = np.array(sorted(C.cards_of(game.legal_cards())), dtype=np.int64)
    n = 60
    weights = np.zeros(n)
    hands = np.zeros((n, 2, 5), dtype=np.uint64)
    over_rows(judge_values, judge_chunks(n), 0, hs, ht, st, candidates, policy_ids("heuristic", 4), 1, np.uint64(7),
              EXACT_TRICKS[4], BID_NOISE, False, np.zeros((n, len(candidates)), dtype=np.int64),
              np.zeros((n, len(candidates)), dtype=np.int64), weights, hands)
    earlier = np.array([0 if b is None else int(b) for b in bids[:3]], dtype=np.int64)
    for w in range(n):
        dealt_s = np.zeros(5, dtype=np.uint64)
        dealt_t = np.zeros(5, dtype=np.uint64)
        for s in range(4):
            dealt_s[s], dealt_t[s] = hand_as_dealt(hands[w, 0], hands[w, 1], st, s)
        # bid's weight for seat 4: the chance that seats 1 to 3 bid as they did (AuctionWeights' kernel)
        assert weights[w] == bids_likelihood(dealt_s, dealt_t, 4, 3, earlier, method_id("tarotclub"), BID_NOISE)
    assert 0 < weights.min() < weights.max()
    decision = judge_card(game, int(candidates[0]), Settings(worlds_per_card=n, seed=7))
    assert decision.judged
    effective = weights.sum() ** 2 / (weights ** 2).sum()
    assert decision.effective_worlds == pytest.approx(effective)
    assert decision.as_dict()["effective_worlds"] == decision.effective_worlds
