"""Random legal games through the reference engine: invariants that every deal must keep (docs/rules.md)."""

from __future__ import annotations

import random

import pytest

from analyzer import cards as C
from analyzer.game import Game, Outcome, Phase, misere_allowed
from analyzer.rules import Rules
from analyzer.scoring import Side
from tests.support.randomplay import new_random_game, step


def _check_cover(game: Game) -> None:
    masks = list(game.hands)
    for t in game.tricks:
        masks.append(C.mask_of(t.cards))
    masks.append(C.mask_of(c for _, c in game.current))
    if game.taker is not None and game.contract.chien_shown and game.phase not in (Phase.BIDDING, Phase.CALL):
        if game.phase is not Phase.DISCARD:          # during the discard the chien is in the taker's hand
            masks.append(game.discard)
    else:
        masks.append(game.deal.chien.mask)
    total = 0
    for m in masks:
        assert total & m == 0, "a card is in two places"
        total |= m
    assert total == C.ALL_CARDS


def _play_one(rng: random.Random, rules: Rules) -> Game:
    game = new_random_game(rng, rules)
    while game.phase is not Phase.DONE:
        _check_cover(game)
        if game.phase is Phase.PLAY:
            assert game.legal_cards() != 0
            assert game.legal_cards() & ~game.hands[game.to_act] == 0
        if game.phase is Phase.DECLARE and game.chelem_decided and rules.misere == "on" and rng.random() < 0.3:
            hand = game.hands[game.to_act]
            kinds = tuple(k for k in ("trumps", "honours") if misere_allowed(hand, k))
            game.declare(miseres=kinds)
            continue
        step(game, rng)
    return game


def _run(players: int, n: int, seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    played = 0
    for _ in range(n):
        game = _play_one(rng, rules)
        res = game.result()
        assert sum(res.seat_scores) == 0
        if res.outcome is Outcome.THROWN_IN:
            assert res.seat_scores == [0] * players
            continue
        assert len(game.tricks) == rules.tricks
        assert all(h == 0 for h in game.hands)
        _check_cover(game)
        if res.outcome is Outcome.GOULASH:
            # Goulash: no chien is taken, so the players share the 182 half-points less the chien's
            assert sum(res.half_points_taken) + game.deal.chien.half_points == 182
            continue
        played += 1
        assert 0 <= res.taker_half_points <= 182
        # defence half-points: recompute from the piles
        piles, moved = game._piles()
        defence = C.mask_half_points(piles.get(Side.DEFENCE, 0)) + moved.get(Side.DEFENCE, 0)
        assert res.taker_half_points + defence == 182
        assert piles.get(Side.TAKER, 0) & piles.get(Side.DEFENCE, 0) == 0
        assert piles.get(Side.TAKER, 0) | piles.get(Side.DEFENCE, 0) == C.ALL_CARDS
        if players == 4:
            assert res.taker_half_points % 2 == 0
    assert played > n // 4


@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(3, 31), (4, 41), (5, 51)])
def test_random_games_invariants(players: int, seed: int) -> None:
    _run(players, 2000, seed, Rules(players=players))


@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(3, 32), (4, 42), (5, 52)])
def test_random_games_goulash_misere(players: int, seed: int) -> None:
    _run(players, 300, seed, Rules(players=players, all_pass="goulash", misere="on"))
