"""Planted errors: a deal played by the heuristic, one card of it replaced by a known error at a real
position (the rest of the deal then played again by the heuristic on the real layout), as a record
that ``analyze`` judges.

Kinds: ``petit_under_20`` (the Petit dropped on the other side's 20 or 21 with another trump to
play), ``queen_under_king`` (a defender's Queen played under the taker's King, winning the trick so far,
with a smaller card of the suit to play), ``excuse_kept`` (the Excuse kept to the last trick and lost there),
``petit_led_into_20`` (the Petit led while the other side holds the 20 or the 21).
"""

from __future__ import annotations

import copy
from typing import Iterator

from analyzer import cards as C
from analyzer.coach.board import _finish
from analyzer.coach.reasons import excuse_lost, winner_so_far
from analyzer.game import Game
from analyzer.records.build import record_of_game
from analyzer.records.simulate import simulate_records
from analyzer.runs import Settings

KINDS = ("petit_under_20", "queen_under_king", "excuse_kept", "petit_led_into_20")


def _plant(game: Game, kind: str) -> int | None:
    """The planted card for ``kind`` at this position, None when the position does not lend itself."""
    seat, hand, legal, side = game.to_act, game.hands[game.to_act], game.legal_cards(), game.side(game.to_act)
    high = (C.trump(20), C.trump(21))
    if kind == "petit_under_20":
        others = [c for c in C.cards_of(legal) if C.is_trump(c) and c != C.PETIT]
        if legal >> C.PETIT & 1 and others and any(c in high and game.side(s) != side for s, c in game.current):
            return C.PETIT
    elif kind == "queen_under_king":
        winner = winner_so_far([c for _, c in game.current], [s for s, _ in game.current])
        for s, c in game.current:
            if (C.is_suit_card(c) and C.rank_of(c) == C.KING and s == game.taker == winner
                    and side != game.side(s)):
                q = C.suit_card(C.suit_of(c), C.QUEEN)
                if legal >> q & 1 and any(C.suit_of(x) == C.suit_of(c) and x != q for x in C.cards_of(legal)):
                    return q
    elif kind == "excuse_kept":
        if len(game.tricks) == game.rules.tricks - 2 and hand >> C.EXCUSE & 1 and hand.bit_count() == 2:
            other = next(c for c in C.cards_of(hand) if c != C.EXCUSE)
            if legal >> other & 1:
                return other
    elif kind == "petit_led_into_20":
        if not game.current and hand >> C.PETIT & 1 and hand.bit_count() > 3 and any(
                game.hands[s] >> t & 1 for s in range(game.rules.players) if game.side(s) != side for t in high):
            return C.PETIT
    return None


def heuristic_deals(seed: int, deals: int = 40, players: int = 4):
    """The records of ``play --policy heuristic`` at ``seed``."""
    return list(simulate_records(players, deals, seed, "heuristic", jobs=1))


def planted(seed: int, kind: str) -> Iterator[tuple[object, int, int, int]]:
    """Records with one planted error of ``kind`` among the heuristic's deals at ``seed``: (record,
    seat, trick (1-based), planted card); the actual card was another one."""
    for r, rec in enumerate(heuristic_deals(seed)):
        if rec.game.taker is None:
            continue
        for d in rec.decisions():
            if d.phase != "card":
                continue
            game = rec.position(d.index)
            card = _plant(game, kind)
            if card is None or C.TOKENS[card] == d.action:
                continue
            seat, trick = game.to_act, len(game.tricks) + 1
            after = copy.deepcopy(game)
            after.play(card)
            after, _ = _finish(after, Settings(policy="heuristic", seed=seed), seed * 1000 + r)
            if kind == "excuse_kept" and not excuse_lost(after, seat, trick - 1):
                continue
            yield record_of_game(after), seat, trick, card


# ---- errors before the play -------------------------------------------------------------------------

MONSTER = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 1 EX KS KH"


def monster_passed(seed: int):
    """A 4-player deal in which seat 1 holds ``MONSTER`` (the other hands dealt from ``seed``) and
    everybody passes: (record, seat)."""
    import random
    from analyzer.hand import Deal, Hand
    from analyzer.rules import Rules
    monster = Hand.parse(MONSTER)
    rest = [c for c in range(C.N_CARDS) if not monster.mask >> c & 1]
    random.Random(seed).shuffle(rest)
    hands = (monster,) + tuple(Hand(C.mask_of(rest[18 * k:18 * k + 18])) for k in range(3))
    game = Game.new(Deal(hands, Hand(C.mask_of(rest[54:]))), Rules(players=4))
    while game.bids.__len__() < 4:
        game.bid(None)
    return record_of_game(game), 0


def _replayed(rec, seed: int, **changes) -> Game:
    """``rec``'s deal taken by the same taker and contract with ``changes`` to ``Game.for_play`` (the
    call, the discard), then played by the heuristic on the real layout."""
    g = rec.game
    args = {"called_card": g.called_card, "discard": g.discard or None} | changes
    game = Game.for_play(g.deal, g.rules, g.taker, g.contract, **args)
    game, _ = _finish(game, Settings(policy="heuristic", seed=seed), seed)
    return game


def bad_discard(seed: int):
    """The first Prise or Garde of the heuristic's 4-player deals at ``seed`` with its discard replaced
    by the six smallest cards of the taker's longest plain suits (no void made, short suits kept):
    (record, seat, discard mask)."""
    from analyzer.rules import Contract
    for rec in heuristic_deals(seed):
        g = rec.game
        if g.taker is None or g.contract > Contract.GARDE:
            continue
        full = g.deal.hands[g.taker].mask | g.deal.chien.mask
        plain = [c for c in C.cards_of(full) if C.is_suit_card(c) and C.rank_of(c) != C.KING]
        length = {s: sum(1 for c in plain if C.suit_of(c) == s) for s in range(C.N_SUITS)}
        plain.sort(key=lambda c: (-length[C.suit_of(c)], C.rank_of(c)))
        discard = C.mask_of(plain[:6])
        if len(plain) < 6 or discard == g.discard:
            continue
        return record_of_game(_replayed(rec, seed, discard=discard)), g.taker, discard
    raise LookupError("no Prise or Garde")


def wrong_call(seed: int):
    """The first 5-player heuristic deal at ``seed`` whose taker holds a King, that King called
    instead (the taker then plays alone): (record, seat, called card)."""
    for rec in heuristic_deals(seed, players=5):
        g = rec.game
        if g.taker is None:
            continue
        own = [c for c in C.KINGS if g.deal.hands[g.taker].mask >> c & 1]
        if not own or g.called_card in own:
            continue
        return record_of_game(_replayed(rec, seed, called_card=own[0])), g.taker, own[0]
    raise LookupError("no taker with a King")
