"""Rule variants reach the reference engine, the kernels and the commands (RULES.md, "Variants")."""

import random

from analyzer import cards as C
from analyzer.game import Game, Outcome, Phase
from analyzer.rules import Rules
from tests.randomplay import new_random_game


def goulash_game(rng: random.Random, rules: Rules) -> Game:
    """A deal that everybody passes, played at random to the end as a Goulash."""
    game = new_random_game(rng, rules)
    while game.phase is Phase.BIDDING:
        game.bid(None)
    while game.phase is Phase.DECLARE:
        game.declare()
    while game.phase is Phase.PLAY:
        game.play(rng.choice(list(C.cards_of(game.legal_cards()))))
    return game


def test_goulash_excuse_stays_with_an_owner_who_wins_no_trick():
    """Played before the last trick by a seat that then wins nothing, the Excuse stays with its owner
    (4 points to it, 0.5 to the winners of its trick), not with the winners."""
    rules = Rules(players=4, all_pass="goulash")
    rng = random.Random(5)
    found = 0
    for _ in range(3000):
        game = goulash_game(rng, rules)
        assert game.outcome is Outcome.GOULASH
        trick = next((t for t in game.tricks if C.EXCUSE in t.cards), None)
        if trick is None:                     # in the chien
            continue
        owner = trick.seat_of(C.EXCUSE)
        if trick is game.tricks[-1] or any(t.winner == owner for t in game.tricks):
            continue
        found += 1
        taken = game.result().half_points_taken
        assert taken[owner] == 8
        assert sum(taken) == 182 - game.deal.chien.half_points
        if found == 5:
            break
    assert found == 5
