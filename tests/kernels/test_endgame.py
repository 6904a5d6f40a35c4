"""The endgame solver (``kernels/endgame.py``) against a brute-force minimax on the reference engine.

Random endings are played at random through ``analyzer.game.Game`` (random contracts, calls,
discards, chelem announcements, poignées and rule variants), some with every trick so far won by one
side so that the chelem, its Excuse exception and petit au bout come up.  From each, a plain
minimax over every legal continuation scores every legal card with the reference engine's own count
(the taker's seat score at the end); the solver must give every card the same value.

The suite checks 120 endings of 2-3 tricks per player count and a few of 4 tricks at 3 players;
``ENDGAME_CHECKS=N`` (endings per player count) and ``ENDGAME_TRICKS=a-b`` run larger checks by hand.
"""

from __future__ import annotations

import copy
import math
import os
import random

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.game import Game, Phase
from analyzer.hand import Deal
from analyzer.rules import Contract, Rules
from analyzer.scoring import Side
from analyzer.simulate import state_from_game
from kernels import endgame as E
from kernels import playout as K
from tests.support.crafted import defence_chelem_game, fft_chelem_game, play_scripted
from tests.support.randomplay import new_random_game, step

CHECKS = int(os.environ.get("ENDGAME_CHECKS", "120"))
TRICKS = tuple(int(x) for x in os.environ.get("ENDGAME_TRICKS", "2-3").split("-"))


def clone(game: Game) -> Game:
    """A copy that playing cards on does not touch the original."""
    g = copy.copy(game)
    g.hands = list(game.hands)
    g.current = list(game.current)
    g.tricks = list(game.tricks)
    return g


def minimax(game: Game, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The taker's score at the end under perfect play by both sides: every legal continuation, cut
    only by plain alpha-beta (a value outside (alpha, beta) is a bound on that side)."""
    if game.phase is Phase.DONE:
        return game.result().seat_scores[game.taker]
    maximise = game.side(game.to_act) is Side.TAKER
    best = -math.inf if maximise else math.inf
    for card in C.cards_of(game.legal_cards()):
        g = clone(game)
        g.play(card)
        v = minimax(g, alpha, beta)
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def brute_values(game: Game) -> dict[int, float]:
    """Every legal card's exact value (each searched with a full window)."""
    values = {}
    for card in C.cards_of(game.legal_cards()):
        g = clone(game)
        g.play(card)
        values[card] = minimax(g)
    return values


def random_rules(rng: random.Random, players: int) -> Rules:
    return Rules(players=players, petit_au_bout=rng.choice(["multiplied", "flat"]),
                 poignee_values=rng.choice(["20-30-40", "20-40-60"]), chelem=rng.choice(["fft", "petit-chelem"]))


INTERESTING = [C.PETIT, C.TWENTY_ONE, C.EXCUSE] + [C.FIRST_TRUMP + r - 1 for r in range(12, 21)] + \
    [C.suit_card(s, r) for s in range(C.N_SUITS) for r in (C.JACK, C.KNIGHT, C.QUEEN, C.KING)]


def random_card(game: Game, rng: random.Random, keep: int) -> int:
    """A random legal card, one not in ``keep`` when there is one (keeping those for the ending)."""
    legal = game.legal_cards()
    spare = legal & ~keep
    return rng.choice(list(C.cards_of(spare or legal)))


def play_trick(game: Game, rng: random.Random, keep: int, side: Side | None, tries: int = 40) -> None:
    """Play one trick at random (see ``random_card``), preferring (over ``tries`` tries) one that
    ``side`` wins when it is given."""
    for _ in range(tries if side else 1):
        g = clone(game)
        for _ in range(game.rules.players):
            g.play(random_card(g, rng, keep))
        if side is None or g.side(g.tricks[-1].winner) is side:
            break
    game.hands, game.current, game.tricks = g.hands, g.current, g.tricks
    game.leader, game.to_act, game.phase, game._result = g.leader, g.to_act, g.phase, g._result


def strong_deal(rng: random.Random, players: int, strong: int) -> Deal:
    """A deal where seat ``strong`` holds the Excuse and the top trumps, and the rest is random."""
    size = Rules(players=players).hand_size
    top = [C.EXCUSE] + [C.TWENTY_ONE - i for i in range(min(size - 1, 21) - rng.randrange(4))]
    rest = [c for c in range(C.N_CARDS) if c not in top]
    rng.shuffle(rest)
    places = [-1] * C.N_CARDS
    for c in top:
        places[c] = strong
    slots = [s for s in range(players) for _ in range(size - (len(top) if s == strong else 0))] + [players] * 24
    for c, place in zip(rest, slots):
        places[c] = place
    return Deal.from_places(places, players)


def start_of_play(rng: random.Random, players: int) -> tuple[Game, Side | None]:
    """A game at its first card, and the side (if any) that the play so far should favour: in a
    third of the games one seat holds the top trumps and the Excuse and its side is to win every trick."""
    rules = random_rules(rng, players)
    kind = rng.random()
    while True:
        if kind < 0.67:
            game, side = new_random_game(rng, rules), None
            while game.phase is Phase.BIDDING:
                step(game, rng)
        else:
            strong = rng.randrange(players)
            game = Game.new(strong_deal(rng, players, strong), rules)
            taker = strong if kind < 0.85 else (strong + 1) % players
            side = Side.TAKER if taker == strong else Side.DEFENCE
            if game.phase is Phase.DONE:
                continue
            for seat in range(players):
                game.bid(rng.choice(list(Contract)) if seat == taker else None)
        while game.phase not in (Phase.PLAY, Phase.DONE):
            step(game, rng, chelem_rate=0.25)
        if game.phase is Phase.PLAY:
            return game, side


def random_ending(rng: random.Random, players: int, tricks_left: int) -> Game:
    """A game in play with ``tricks_left`` tricks to go (the last of them maybe begun).

    The play so far is random but keeps a random set of oudlers, high trumps and face cards for the
    end; with a strong seat (``start_of_play``) its side wins every trick it can."""
    game, side = start_of_play(rng, players)
    keep = C.mask_of(rng.sample(INTERESTING, rng.randrange(len(INTERESTING))))
    while len(game.tricks) < game.rules.tricks - tricks_left:
        play_trick(game, rng, keep, side)
    for _ in range(rng.randrange(players) if tricks_left > 1 else 0):
        game.play(random_card(game, rng, keep))
    return game


def solver_values(game: Game, w: np.ndarray) -> dict[int, float]:
    hs, ht, st = state_from_game(game)
    cards = np.empty(24, dtype=np.int64)
    values = np.empty(24, dtype=np.int64)
    k = E.card_values(hs, ht, st, w, True, cards, values)
    share = E.seat_share(st[K.PLAYERS], st[K.TAKER], st[K.PARTNER], st[K.TAKER])
    return {int(cards[i]): float(values[i] * share) for i in range(k)}


def check_endings(players: int, count: int, tricks: tuple[int, int], seed: int) -> None:
    rng = random.Random(seed)
    w = E.new_workspace(12)
    for i in range(count):
        game = random_ending(rng, players, rng.randint(*tricks))
        expected = brute_values(game)
        got = solver_values(game, w)
        assert got == expected, (i, [C.TOKENS[c] for t in game.tricks[-3:] for c in t.cards],
                                 {C.TOKENS[c]: v for c, v in expected.items()},
                                 {C.TOKENS[c]: v for c, v in got.items()})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_value_matches_brute_force(players):
    check_endings(players, CHECKS, TRICKS, 9000 + players)


def test_four_trick_endings_at_three_players():
    """Longer endings, where the table is probed at two trick starts (cheap to brute-force at 3 players)."""
    check_endings(3, 25, (4, 4), 4000)


@pytest.mark.parametrize("make,value", [(fft_chelem_game, max), (defence_chelem_game, min)],
                         ids=["fft-chelem", "garde-contre-defence-chelem"])
def test_excuse_kept_by_a_side_with_no_card(make, value):
    """Two tricks from the end of a deal whose Excuse went early to a side that takes no trick and has
    no card aside (it keeps it, docs/rules.md "Play"): the solver values every card as the reference."""
    game = make()
    play_scripted(game, until=game.rules.tricks - 2)
    assert C.EXCUSE in game.tricks[0].cards and game.to_act == 0
    expected = brute_values(game)
    assert solver_values(game, E.new_workspace(12)) == expected
    assert value(expected.values()) == play_scripted(game).result().seat_scores[game.taker]
