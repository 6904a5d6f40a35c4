"""``analyzer.solve``: every legal card's value, the best card and the principal line of a deal in play."""

import random

import pytest

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.game import Game
from analyzer.rules import Rules
from analyzer.scoring import Side
from analyzer.solve import solve
from tests.kernels.test_endgame import brute_values, clone, random_ending
from tests.support.randomplay import random_deal


@pytest.mark.parametrize("players", [3, 4, 5])
def test_values_best_card_and_line(players):
    rng = random.Random(50 + players)
    for _ in range(12):
        game = random_ending(rng, players, rng.randint(2, 3))
        before = (list(game.hands), list(game.current), len(game.tricks))
        sol = solve(game, table_bits=12)
        assert (list(game.hands), list(game.current), len(game.tricks)) == before     # not changed
        assert dict(sol.values) == brute_values(game)
        assert sol.seat == game.to_act and sol.trick == len(game.tricks)
        pick = max if game.side(game.to_act) is Side.TAKER else min
        assert sol.value_of(sol.best) == pick(v for _, v in sol.values)
        # The principal line is legal, reaches the end, and scores the best card's value.
        g = clone(game)
        for card in sol.line:
            g.play(card)
        assert g.result().seat_scores[g.taker] == sol.value_of(sol.best)
        assert sol.nodes > 0 and sol.seconds >= 0


def test_json_form():
    rng = random.Random(7)
    game = random_ending(rng, 4, 2)
    d = solve(game, table_bits=10).as_dict()
    assert set(d) == {"seat", "trick", "cards", "best", "line", "nodes", "seconds"}
    assert d["seat"] == game.to_act + 1 and d["trick"] == len(game.tricks) + 1
    assert {c["card"] for c in d["cards"]} == {C.TOKENS[c] for c in C.cards_of(game.legal_cards())}
    assert d["best"] == d["line"][0]


def test_a_game_not_in_play_is_refused():
    game = Game.new(random_deal(random.Random(1), 4), Rules())
    with pytest.raises(IllegalActionError, match="in play"):
        solve(game)
