"""``analyzer.solve``: every legal card's value, the best card and the principal line of a deal in play."""

import random

import pytest

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.game import Game
from analyzer.rules import Rules
from analyzer.solve import solve
from kernels import endgame as E
from tests.kernels.test_endgame import brute_values, clone, random_ending
from tests.support.randomplay import random_deal


def own_score(game: Game, taker_score: float) -> float:
    """The seat to play's own score, given the taker's (the seats' shares of the per-defender total)."""
    partner = -1 if game.partner is None else game.partner
    share = E.seat_share(game.rules.players, game.taker, partner, game.to_act)
    return taker_score / E.seat_share(game.rules.players, game.taker, partner, game.taker) * share


@pytest.mark.parametrize("players", [3, 4, 5])
def test_values_best_card_and_line(players):
    rng = random.Random(50 + players)
    for _ in range(12):
        game = random_ending(rng, players, rng.randint(2, 3))
        before = (list(game.hands), list(game.current), len(game.tricks))
        sol = solve(game, table_bits=12)
        assert (list(game.hands), list(game.current), len(game.tricks)) == before     # not changed
        assert dict(sol.values) == {c: own_score(game, v) for c, v in brute_values(game).items()}
        assert sol.seat == game.to_act and sol.trick == len(game.tricks)
        # Best first, in the seat's own score: the best card is the highest whichever the side.
        assert [v for _, v in sol.values] == sorted((v for _, v in sol.values), reverse=True)
        assert sol.value_of(sol.best) == sol.values[0][1] == sol.groups[0][0]
        # The groups hold every card once, each with its exact value, values strictly falling.
        assert sorted(c for _, cards in sol.groups for c in cards) == sorted(c for c, _ in sol.values)
        assert all(sol.value_of(c) == v for v, cards in sol.groups for c in cards)
        assert all(a[0] > b[0] for a, b in zip(sol.groups, sol.groups[1:]))
        assert sol.best in sol.groups[0][1]
        # The principal line is legal, reaches the end, and scores the best card's value.
        g = clone(game)
        for card in sol.line:
            g.play(card)
        assert g.result().seat_scores[game.to_act] == sol.value_of(sol.best)
        assert sol.final_scores == tuple(g.result().seat_scores)
        # Its tricks: the trick in play (with the cards already on the table) and each one after.
        assert [t.number for t in sol.tricks] == list(range(len(game.tricks), game.rules.tricks))
        assert sol.tricks[0].played_before == len(game.current)
        assert [c for t in sol.tricks for c in t.cards[t.played_before:]] == list(sol.line)
        assert [(t.leader, t.cards, t.winner) for t in sol.tricks] == \
            [(t.leader, t.cards, t.winner) for t in g.tricks[len(game.tricks):]]
        assert sol.nodes > 0 and sol.seconds >= 0


def test_equal_cards_are_grouped():
    """A position where several cards tie exactly: they stand in one group (found among random endings)."""
    rng = random.Random(11)
    for _ in range(200):
        game = random_ending(rng, 4, 2)
        sol = solve(game, table_bits=10)
        if any(len(cards) > 1 for _, cards in sol.groups):
            values = [v for _, v in sol.values]
            assert len(sol.groups) == len(set(values)) < len(values)
            return
    pytest.fail("no ending with tied cards among 200")


def test_json_form():
    rng = random.Random(7)
    game = random_ending(rng, 4, 2)
    d = solve(game, table_bits=10).as_dict()
    assert set(d) == {"seat", "trick", "cards", "groups", "best", "line", "tricks", "final_scores", "nodes",
                      "seconds"}
    assert d["seat"] == game.to_act + 1 and d["trick"] == len(game.tricks) + 1
    assert {c["card"] for c in d["cards"]} == {C.TOKENS[c] for c in C.cards_of(game.legal_cards())}
    assert d["best"] == d["line"][0] == d["cards"][0]["card"]
    assert d["groups"][0]["value"] == d["cards"][0]["value"] and d["best"] in d["groups"][0]["cards"]
    assert [c["card"] for t in d["tricks"] for c in t["cards"][t["played_before"]:]] == d["line"]
    assert all(1 <= c["seat"] <= 4 for t in d["tricks"] for c in t["cards"])


def test_a_game_not_in_play_is_refused():
    game = Game.new(random_deal(random.Random(1), 4), Rules())
    with pytest.raises(IllegalActionError, match="in play"):
        solve(game)
