"""Partial deals through the reference engine (``Game.partial``): some hands, or the chien, unknown.

The rules hold wherever the known cards allow it, and a partial deal played to its end is counted as
the whole deal is (docs/records.md, "The play")."""

from __future__ import annotations

import random

import pytest

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.game import Game, Outcome, Phase
from analyzer.rules import Contract, Rules
from tests.support.crafted import DEAL_D, S, su, tr
from tests.support.randomplay import random_game


def replay_partial(game: Game, known: set[int], chien_known: bool) -> Game:
    """The actions of the finished ``game`` replayed on a partial deal that knows only ``known`` hands."""
    hands = [h.mask if s in known else None for s, h in enumerate(game.deal.hands)]
    p = Game.partial(game.rules, hands, game.deal.chien.mask if chien_known else None)
    for bid in game.bids:
        p.bid(bid)
    if p.phase is Phase.CALL:
        p.call(game.called_card)
    if p.phase is Phase.DISCARD:
        p.make_discard(game.discard)
    if p.phase is Phase.DECLARE and not p.chelem_decided:
        p.announce_chelem(game.chelem_announced)
    shown = {x.seat: x.shown for x in game.poignees}
    while p.phase is Phase.DECLARE:
        p.declare(poignee=shown.get(p.to_act, 0), miseres=tuple(k for s, k in game.miseres if s == p.to_act))
    for trick in game.tricks:
        for card in trick.cards:
            p.play(card)
    return p


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_partial_deal_played_to_its_end_is_counted_as_the_whole_deal(players):
    rng = random.Random(60 + players)
    rules = Rules(players=players, chelem="petit-chelem", all_pass="goulash")
    compared = partner_learnt = 0
    for _ in range(60):
        game = random_game(rng, rules)
        if game.outcome is Outcome.ANNULLED:
            continue
        known = {rng.randrange(players)} if rng.random() < 0.8 else set()
        p = replay_partial(game, known, chien_known=rng.random() < 0.5)
        assert not p.complete
        assert [t.winner for t in p.tricks] == [t.winner for t in game.tricks]
        assert p.result().seat_scores == game.result().seat_scores
        assert (p.partner, p.result().taker_half_points) == (game.partner, game.result().taker_half_points)
        compared += 1
        partner_learnt += players == 5 and game.partner is not None and game.partner not in known
    assert compared > 40
    assert partner_learnt > 5 or players != 5


def test_an_unknown_called_card_leaves_the_deal_uncounted():
    rng = random.Random(3)
    rules = Rules(players=5)
    game = random_game(rng, rules)
    while game.taker is None:
        game = random_game(rng, rules)
    p = Game.partial(rules, [None] * 5, None)
    for bid in game.bids:
        p.bid(bid)
    p.call(None)
    if p.phase is Phase.DISCARD:
        p.make_discard(None)
    p.announce_chelem(game.chelem_announced)
    while p.phase is Phase.DECLARE:
        p.declare()
    for trick in game.tricks:
        for card in trick.cards:
            p.play(card)
    assert p.phase is Phase.DONE and not p.counted
    with pytest.raises(IllegalActionError, match="called card is not known"):
        p.result()


def test_known_cards_bind_the_unknown_hands():
    """Seat 1 and seat 3 known (Garde sans: no chien shown).  An unknown seat may not play a card of a
    known hand, nor trumps once it showed it has none; a known seat plays only its own cards."""
    hands = [h.mask for h in DEAL_D.hands]
    g = Game.partial(Rules(), [hands[0], None, hands[2], None], None)
    for bid in (Contract.GARDE_SANS, None, None, None):
        g.bid(bid)
    g.announce_chelem(None)
    while g.phase is Phase.DECLARE:
        g.declare()
    spade_king = C.suit_card(S, C.KING)
    g.play(C.trump(21))                                       # seat 1 leads the 21
    assert g.refusal(spade_king) == "but it is in seat 3's hand"
    with pytest.raises(IllegalActionError, match="may not play KS now: it is in seat 3's hand"):
        g.play(spade_king)
    g.play(C.suit_card(S, 1))                                 # seat 2 (unknown) shows it has no trump
    assert g.refusal(C.suit_card(S, 1)) == "but does not hold it"          # seat 3, known
    assert g.refusal(C.suit_card(S, 11)) is None                           # no trump: anything
    g.play(C.EXCUSE)
    g.play(C.suit_card(S, 2))                                 # seat 4: no trump either
    g.play(C.trump(20))                                       # seat 1 again
    assert g.refusal(C.trump(2)) == "but showed it had no trumps in trick 1"
    assert g.refusal(C.suit_card(S, 3)) is None


def test_a_known_petit_sec_hand_annuls_a_partial_deal():
    petit_sec = C.bit(C.PETIT) | su(S, 1, 14) | su(1, 1, 3)
    assert Game.partial(Rules(), [None, petit_sec, None, None], None).outcome is Outcome.ANNULLED
    assert Game.partial(Rules(petit_sec="play"), [None, petit_sec, None, None], None).phase is Phase.BIDDING
    assert Game.partial(Rules(), [None, petit_sec | tr(2, 2), None, None], None).phase is Phase.BIDDING
