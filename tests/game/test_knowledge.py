"""A seat's knowledge: the true position always satisfies it, and each inference follows a rule."""

import random

import pytest

from analyzer import cards as C
from analyzer.game import Game, Phase
from analyzer.hand import Deal, Hand
from analyzer.knowledge import revealed_exclusions, seat_view
from analyzer.notation import parse_card, parse_mask
from analyzer.rules import Contract, Rules
from tests.support.randomplay import random_deal, step


@pytest.mark.parametrize("players", [3, 4, 5])
def test_true_position_is_always_consistent(players):
    """Every card's real place is among its allowed places, for every seat, at every card played."""
    rng = random.Random(players)
    rules = Rules(players=players)
    checked = 0
    for _ in range(60):
        game = Game.new(random_deal(rng, players), rules)
        while game.phase not in (Phase.PLAY, Phase.DONE):
            step(game, rng)
        while game.phase is Phase.PLAY:
            truth = [0] * C.N_CARDS
            for s in range(players):
                for card in C.cards_of(game.hands[s]):
                    truth[card] = 1 << s
            aside = game.discard if game.contract.chien_shown else game.deal.chien.mask
            for card in C.cards_of(aside):
                truth[card] = 1 << players
            for seat in range(players):
                view = seat_view(game, seat)
                allowed = view.allowed_places()
                assert all(a & t == t for a, t in zip(allowed, truth))
                assert sum(bool(a) for a in allowed) == sum(view.sizes)
                checked += 1
            step(game, rng)
    assert checked > 1000


def _game(hands: list[str], chien: str, contract=Contract.GARDE_SANS, taker=0) -> Game:
    deal = Deal(tuple(Hand.parse(h) for h in hands), Hand.parse(chien))
    return Game.for_play(deal, Rules(players=4), taker=taker, contract=contract)


# Seat 1 holds every spade but one; seat 2 has no spade and trumps low; seat 3 has no spade and no trump.
HANDS = [
    "KS QS CS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S 21 20 19 18 17",
    "1S 16 2 KH QH CH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 1H KD",
    "QD CD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D 1D KC QC CC JC 10C",
    "15 14 13 12 11 10 9 8 7 6 5 4 3 1 EX 9C 8C 7C",
]
CHIEN = "6C 5C 4C 3C 2C 1C"


def test_not_following_reveals_a_void_and_not_trumping_no_trumps():
    game = _game(HANDS, CHIEN)
    game.play(parse_card("KS"))          # seat 1 leads spades
    game.play(parse_card("1S"))          # seat 2 follows
    game.play(parse_card("QD"))          # seat 3 neither follows nor trumps: no spade, no trump
    ex = revealed_exclusions(game)
    assert ex[2] & C.suit_mask(0) == C.suit_mask(0)
    assert ex[2] & C.TRUMP_BITS == C.TRUMP_BITS
    assert ex[0] == ex[1] == 0


def test_undertrumping_reveals_no_higher_trump():
    game = _game(HANDS, CHIEN)
    game.play(parse_card("21"))          # trump lead
    game.play(parse_card("2"))           # seat 2 cannot overtrump the 21: nothing new (no trump above 21)
    game.play(parse_card("QD"))          # seat 3 plays no trump on a trump lead: no trump at all
    game.play(parse_card("15"))          # seat 4 under the 21
    ex = revealed_exclusions(game)
    assert ex[1] == 0
    assert ex[2] == C.TRUMP_BITS
    assert ex[3] == 0                    # nothing above the 21 exists


def test_taker_knows_the_discard_defenders_know_the_chien_and_shown_trumps():
    deal = Deal(tuple(Hand.parse(h) for h in HANDS), Hand.parse(CHIEN))
    game = Game.for_play(deal, Rules(players=4), taker=0, contract=Contract.GARDE,
                         discard=parse_mask("6C 5C 4C 3C 2C 1C"))
    taker_view = seat_view(game, 0).allowed_places()
    assert all(taker_view[c] == 1 << 4 for c in C.cards_of(parse_mask(CHIEN)))
    defender = seat_view(game, 1).allowed_places()
    # the chien's clubs were seen: they are with the taker or in the discard
    assert defender[parse_card("6C")] == (1 << 0) | (1 << 4)
    # a King can never be in the discard
    assert not defender[parse_card("KC")] & 1 << 4
