"""Random legal play through the reference engine, for tests: deals and every phase's choices."""

from __future__ import annotations

import random

from analyzer import cards as C
from analyzer.game import FACE_CARDS, MISERE_KINDS, Game, Phase, lowest_poignee, misere_allowed
from analyzer.hand import Deal
from analyzer.rules import Rules


def random_deal(rng: random.Random, players: int) -> Deal:
    deck = list(range(C.N_CARDS))
    rng.shuffle(deck)
    size = Rules(players=players).hand_size
    places = [0] * C.N_CARDS
    for i, card in enumerate(deck):
        places[card] = min(i // size, players)
    return Deal.from_places(places, players)


def held_miseres(hand: int) -> tuple[str, ...]:
    """The misères a hand allows (the simulated seats declare them all)."""
    return tuple(kind for kind in MISERE_KINDS if misere_allowed(hand, kind))


def misere_deal(rng: random.Random, players: int) -> Deal:
    """A random deal in which a random seat holds only plain suit cards under the Jack (no trump, no
    Excuse, no face card): it may declare both misères."""
    seat = rng.randrange(players)
    size = Rules(players=players).hand_size
    plain = [c for c in range(C.FIRST_TRUMP) if not FACE_CARDS >> c & 1]
    rng.shuffle(plain)
    mine = plain[:size]
    rest = [c for c in range(C.N_CARDS) if c not in mine]
    rng.shuffle(rest)
    places = [0] * C.N_CARDS
    for c in mine:
        places[c] = seat
    others = [p for p in range(players) if p != seat]
    for i, c in enumerate(rest):
        places[c] = others[i // size] if i // size < len(others) else players
    return Deal.from_places(places, players)


def random_discard(game: Game, rng: random.Random) -> int:
    free, trumps = game.discard_options()
    need = game.rules.chien_size
    free_cards, trump_cards = list(C.cards_of(free)), list(C.cards_of(trumps))
    if len(free_cards) >= need:
        return C.mask_of(rng.sample(free_cards, need))
    return C.mask_of(free_cards + rng.sample(trump_cards, need - len(free_cards)))


def step(game: Game, rng: random.Random, chelem_rate: float = 0.05, poignee_rate: float = 0.7) -> None:
    """Take one random legal action in the game's current phase."""
    if game.phase is Phase.BIDDING:
        game.bid(rng.choice(game.legal_bids()))
    elif game.phase is Phase.CALL:
        game.call(rng.choice(game.legal_calls()))
    elif game.phase is Phase.DISCARD:
        game.make_discard(random_discard(game, rng))
    elif game.phase is Phase.DECLARE:
        if not game.chelem_decided:
            game.announce_chelem("chelem" if rng.random() < chelem_rate else None)
            return
        levels = game.poignee_options()
        shown = 0
        if levels and rng.random() < poignee_rate:
            shown = lowest_poignee(game.hands[game.to_act], rng.choice(levels), game.rules)
        game.declare(poignee=shown)
    elif game.phase is Phase.PLAY:
        game.play(rng.choice(list(C.cards_of(game.legal_cards()))))
    else:
        raise ValueError("the game is over")


def new_random_game(rng: random.Random, rules: Rules) -> Game:
    """A game on a random deal, ready for bidding (annulled deals, petit sec, are redealt)."""
    while True:
        game = Game.new(random_deal(rng, rules.players), rules)
        if game.phase is not Phase.DONE:
            return game


def random_game(rng: random.Random, rules: Rules) -> Game:
    """A game dealt and played at random to the end (annulled deals are redealt)."""
    game = new_random_game(rng, rules)
    while game.phase is not Phase.DONE:
        step(game, rng)
    return game
