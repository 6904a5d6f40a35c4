"""The endgame solver (``kernels/endgame.py``) against a brute-force minimax on the reference engine.

Random endings are played at random through ``analyzer.game.Game`` (random contracts, calls,
discards, chelem announcements, poignées and rule variants), some with every trick so far won by one
side so that the chelem, its Excuse exception and petit au bout come up.  From each, a plain
minimax over every legal continuation scores every legal card with the reference engine's own count
(the taker's seat score at the end); the solver must give every card the same value.

The suite checks a few hundred endings per player count; ``ENDGAME_CHECKS=N`` (endings per player
count) and ``ENDGAME_TRICKS=a-b`` run the larger checks by hand.
"""

from __future__ import annotations

import copy
import os
import random

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.game import Game, Phase
from analyzer.rules import Rules
from analyzer.scoring import Side
from analyzer.simulate import state_from_game
from kernels import endgame as E
from kernels import playout as K
from tests.randomplay import new_random_game, step

CHECKS = int(os.environ.get("ENDGAME_CHECKS", "120"))
TRICKS = tuple(int(x) for x in os.environ.get("ENDGAME_TRICKS", "2-3").split("-"))


def clone(game: Game) -> Game:
    """A copy that playing cards on does not touch the original."""
    g = copy.copy(game)
    g.hands = list(game.hands)
    g.current = list(game.current)
    g.tricks = list(game.tricks)
    return g


def minimax(game: Game) -> float:
    """The taker's score at the end under perfect play by both sides (every continuation tried)."""
    if game.phase is Phase.DONE:
        return game.result().seat_scores[game.taker]
    maximise = game.side(game.to_act) is Side.TAKER
    values = []
    for card in C.cards_of(game.legal_cards()):
        g = clone(game)
        g.play(card)
        values.append(minimax(g))
    return max(values) if maximise else min(values)


def brute_values(game: Game) -> dict[int, float]:
    values = {}
    for card in C.cards_of(game.legal_cards()):
        g = clone(game)
        g.play(card)
        values[card] = minimax(g)
    return values


def random_rules(rng: random.Random, players: int) -> Rules:
    return Rules(players=players, petit_au_bout=rng.choice(["multiplied", "flat"]),
                 poignee_values=rng.choice(["20-30-40", "20-40-60"]), chelem=rng.choice(["fft", "petit-chelem"]))


def play_trick_won_by(game: Game, rng: random.Random, side: Side, tries: int = 40) -> None:
    """Play one trick at random, preferring (over ``tries`` random tries) one that ``side`` wins."""
    for _ in range(tries):
        g = clone(game)
        for _ in range(game.rules.players):
            g.play(rng.choice(list(C.cards_of(g.legal_cards()))))
        if g.side(g.tricks[-1].winner) is side:
            break
    game.hands, game.current, game.tricks = g.hands, g.current, g.tricks
    game.leader, game.to_act, game.phase, game._result = g.leader, g.to_act, g.phase, g._result


def random_ending(rng: random.Random, players: int, tricks_left: int) -> Game:
    """A game in play with ``tricks_left`` tricks to go (the last of them maybe begun)."""
    while True:
        game = new_random_game(rng, random_rules(rng, players))
        while game.phase not in (Phase.PLAY, Phase.DONE):
            step(game, rng, chelem_rate=0.25)
        if game.phase is Phase.PLAY:
            break
    one_side = rng.random()
    begun = rng.randrange(players)
    while len(game.tricks) < game.rules.tricks - tricks_left:
        if one_side < 0.2:
            play_trick_won_by(game, rng, Side.TAKER)
        elif one_side < 0.3:
            play_trick_won_by(game, rng, Side.DEFENCE)
        else:
            for _ in range(players):
                step(game, rng)
    for _ in range(begun if tricks_left > 1 else 0):
        step(game, rng)
    return game


def solver_values(game: Game, w: np.ndarray) -> dict[int, float]:
    hs, ht, st = state_from_game(game)
    cards = np.empty(24, dtype=np.int64)
    values = np.empty(24, dtype=np.int64)
    k = E.card_values(hs, ht, st, w, True, cards, values)
    share = E.seat_share(st[K.PLAYERS], st[K.TAKER], st[K.PARTNER], st[K.TAKER])
    return {int(cards[i]): float(values[i] * share) for i in range(k)}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_value_matches_brute_force(players):
    rng = random.Random(9000 + players)
    w = E.new_workspace(12)
    low, high = TRICKS
    for i in range(CHECKS):
        game = random_ending(rng, players, rng.randint(low, high) if i % 4 else low)
        expected = brute_values(game)
        got = solver_values(game, w)
        assert got == expected, (i, [C.TOKENS[c] for t in game.tricks[-3:] for c in t.cards],
                                 {C.TOKENS[c]: v for c, v in expected.items()},
                                 {C.TOKENS[c]: v for c, v in got.items()})
