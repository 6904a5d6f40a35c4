"""Impossible deal summaries (analyzer/summary_check.py): every summary the reference engine produces is
accepted, and each contradiction a summary can hold is refused with a message naming it."""

from __future__ import annotations

import random

import pytest

from analyzer import cards as C
from analyzer.game import Game, Outcome, Phase
from analyzer.hand import Deal
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.scoring import Chelem, DealSummary, Side
from analyzer.summary_check import taker_counts, why_impossible
from tests.support.randomplay import new_random_game, step

PRISE, GARDE, SANS, CONTRE = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE
TAKER, DEFENCE = Side.TAKER, Side.DEFENCE
SIMPLE, DOUBLE, TRIPLE = PoigneeLevel.SIMPLE, PoigneeLevel.DOUBLE, PoigneeLevel.TRIPLE


def _strength(card: int) -> tuple[bool, int, int]:
    return C.is_trump(card), C.half_points(card), card


def _stacked_game(rng: random.Random, rules: Rules, favoured: Side) -> Game:
    """Seat 1 holds nearly the strongest (or the weakest) cards and takes; the others pass."""
    while True:
        by_strength = sorted(range(C.N_CARDS), key=_strength, reverse=favoured is TAKER)
        hand = set(rng.sample(by_strength[:rules.hand_size + 3], rules.hand_size))
        others = [c for c in range(C.N_CARDS) if c not in hand]
        rng.shuffle(others)
        places = [0] * C.N_CARDS
        for i, card in enumerate(others):
            places[card] = min(1 + i // rules.hand_size, rules.players)
        game = Game.new(Deal.from_places(places, rules.players), rules)
        if game.phase is not Phase.DONE:
            break
    game.bid(rng.choice(list(Contract)))
    while game.phase is Phase.BIDDING:
        game.bid(None)
    return game


def _play_biased(rng: random.Random, rules: Rules):
    """A game in which one side (chosen at random, or neither) is dealt strong cards and plays its
    strongest legal card, the other its weakest: many chelems, defence chelems and extreme counts."""
    favoured = rng.choice([TAKER, DEFENCE, None])
    game = new_random_game(rng, rules) if favoured is None else _stacked_game(rng, rules, favoured)
    while game.phase is not Phase.DONE:
        if game.phase is Phase.PLAY and favoured is not None:
            legal = list(C.cards_of(game.legal_cards()))
            strong = (game.side(game.to_act) is favoured)
            game.play(max(legal, key=_strength) if strong else min(legal, key=_strength))
        else:
            step(game, rng, chelem_rate=0.3)
    return game


@pytest.mark.parametrize("players,seed", [(3, 3), (4, 4), (5, 5)])
def test_every_engine_summary_is_possible(players, seed):
    rng = random.Random(seed)
    rules = Rules(players=players, chelem="petit-chelem")
    seen_chelems = set()
    checked = 0
    for _ in range(400):
        game = _play_biased(rng, rules)
        r = game.result()
        if r.outcome is not Outcome.PLAYED or r.contract is None:
            continue
        summary = DealSummary(r.contract, r.taker_oudlers, r.taker_half_points, r.petit_au_bout,
                              tuple((game.side(p.seat), p.level) for p in r.poignees), r.chelem,
                              players == 5 and r.partner is None)
        assert why_impossible(summary, rules) is None, (summary, why_impossible(summary, rules))
        seen_chelems.add(r.chelem)
        checked += 1
    assert checked > 150
    assert {Chelem.MADE, Chelem.DEFENCE, None} <= seen_chelems


def contradiction(contract=PRISE, oudlers=1, points=51.0, players=4, **kw):
    summary = DealSummary(contract, oudlers, int(points * 2), **kw)
    return why_impossible(summary, Rules(players=players, chelem="petit-chelem"))


@pytest.mark.parametrize("kw,words", [
    (dict(oudlers=3, points=0), "0 points with 3 oudlers is impossible"),
    (dict(oudlers=0, points=0), "from 3 to 77"),                       # the 6 discarded cards count
    (dict(contract=CONTRE, oudlers=0, points=0.5, players=3), "never exactly 0.5"),
    (dict(oudlers=1, points=44, chelem=Chelem.MADE), "took every trick (--chelem made)"),
    (dict(oudlers=3, points=60, chelem=Chelem.ANNOUNCED_MADE), "counts exactly 91"),
    (dict(oudlers=1, points=70, chelem=Chelem.DEFENCE), "the defence took every trick"),
    (dict(oudlers=0, points=40, petit_au_bout=TAKER), "holds 0 oudlers"),
    (dict(oudlers=3, points=60, petit_au_bout=DEFENCE), "holds all 3 oudlers"),
    (dict(oudlers=2, points=85, chelem=Chelem.MADE, petit_au_bout=DEFENCE), "the defence took no trick"),
    (dict(oudlers=1, points=7, chelem=Chelem.DEFENCE, petit_au_bout=TAKER), "the taker's side took no trick"),
    (dict(poignees=((TAKER, TRIPLE), (DEFENCE, TRIPLE))), "30 trumps"),
    (dict(poignees=((TAKER, SIMPLE), (TAKER, SIMPLE))), "one poignée per player"),
    (dict(players=5, alone=True, poignees=((TAKER, SIMPLE), (TAKER, SIMPLE))), "one poignée per player"),
    (dict(points=50.5), "always whole"),
    (dict(oudlers=3, points=91), "did it take every trick?"),
    (dict(oudlers=0, points=3), "did the defence take every trick?"),
    (dict(oudlers=1, points=81, chelem=Chelem.PETIT_ANNOUNCED_FAILED), "two tricks at least"),
    # every trick to the taker: all 91 points, or 87 when the defence kept its Excuse (the exchange)
    (dict(contract=GARDE, oudlers=2, points=85, chelem=Chelem.ANNOUNCED_MADE), "counts exactly 87"),
    (dict(contract=CONTRE, oudlers=1, points=6, chelem=Chelem.DEFENCE), "counts exactly 4"),
])
def test_contradictions_are_named(kw, words):
    why = contradiction(**kw)
    assert why is not None and words in why, why
    assert "\n" not in why


@pytest.mark.parametrize("kw", [
    dict(oudlers=1, points=44, petit_au_bout=TAKER, poignees=((TAKER, SIMPLE),)),     # the FFT worked check
    dict(contract=GARDE, oudlers=2, points=45),
    dict(oudlers=3, points=91, chelem=Chelem.ANNOUNCED_MADE, petit_au_bout=TAKER),
    dict(oudlers=0, points=3, chelem=Chelem.DEFENCE),
    dict(oudlers=0, points=3, chelem=Chelem.ANNOUNCED_FAILED),
    dict(contract=CONTRE, oudlers=0, points=0, chelem=Chelem.DEFENCE),
    dict(contract=SANS, oudlers=3, points=15, chelem=Chelem.DEFENCE),                 # all 3 in the chien
    dict(poignees=((TAKER, SIMPLE), (DEFENCE, SIMPLE))),                              # 20 of 22 trumps
    dict(players=5, poignees=((TAKER, SIMPLE), (TAKER, SIMPLE))),                    # taker and partner
    dict(players=3, contract=PRISE, oudlers=2, points=40.5),
    # the exchange is arithmetic even for a side with no other card (docs/rules.md, "Play"):
    # the FFT's example, the defence keeping its Excuse under the taker's chelem (91 - 4) ...
    dict(contract=GARDE, oudlers=2, points=87, chelem=Chelem.ANNOUNCED_MADE, petit_au_bout=TAKER,
         poignees=((TAKER, SIMPLE),)),
    dict(players=3, contract=SANS, oudlers=2, points=87, chelem=Chelem.MADE),
    dict(players=5, contract=GARDE, oudlers=2, points=87, chelem=Chelem.MADE),
    # ... and a Garde contre taker taking no trick keeping its own (4 points, 1 oudler)
    dict(contract=CONTRE, oudlers=1, points=4, chelem=Chelem.DEFENCE),
])
def test_possible_summaries_pass(kw):
    assert contradiction(**kw) is None


def test_counts_have_the_parity_of_the_pile():
    """Every card is worth an odd number of half-points: at 4 players the taker's piles hold an even number
    of cards, so every count is whole; at 3 players piles of both parities exist."""
    every = tuple(range(19))
    for contract in Contract:
        for oudlers in range(4):
            assert all(h % 2 == 0 for h in taker_counts(4, contract, oudlers, every, None))
    assert any(h % 2 for h in taker_counts(3, PRISE, 1, tuple(range(25)), None))
