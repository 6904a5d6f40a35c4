"""Crafted deals for tests that compare engines on a rule: whole deals whose play is scripted.

Deal D (4 players), as in tests/game/test_game_rules.py: seat 0 holds the Petit and trumps 5-21 and wins
every trick when it plays its highest card (the Petit last); seat 2 holds the Excuse.
"""

from __future__ import annotations

from analyzer import cards as C
from analyzer.game import Game, Phase, lowest_poignee
from analyzer.hand import Deal, Hand
from analyzer.rules import Contract, PoigneeLevel, Rules

S, H, D, CL = range(4)
EX = 1 << C.EXCUSE


def tr(lo: int, hi: int) -> int:
    return C.mask_of(C.trump(n) for n in range(lo, hi + 1))


def su(suit: int, lo: int, hi: int) -> int:
    return C.mask_of(C.suit_card(suit, r) for r in range(lo, hi + 1))


STRONG_D = C.bit(C.PETIT) | tr(5, 21)
DEAL_D = Deal((Hand(STRONG_D), Hand(tr(2, 4) | su(S, 1, 10) | su(H, 1, 5)),
               Hand(EX | su(S, 11, 14) | su(H, 6, 14) | su(D, 1, 4)), Hand(su(D, 5, 14) | su(CL, 1, 8))),
              Hand(su(CL, 9, 14)))


def play_scripted(game: Game, excuse_trick: int = 0, until: int | None = None) -> Game:
    """Seat 0 plays its highest card (the Petit last), the others their lowest, except that seat 2
    plays the Excuse in trick ``excuse_trick``; stops with ``until`` tricks played when given."""
    while game.phase is Phase.PLAY and (until is None or len(game.tricks) < until or game.current):
        legal = list(C.cards_of(game.legal_cards()))
        if len(game.tricks) == excuse_trick and C.EXCUSE in legal:
            card = C.EXCUSE
        elif game.to_act == 0:
            card = sorted(legal, key=lambda c: (c == C.EXCUSE, c == C.PETIT, -c))[0]
        else:
            card = min(legal)
        game.play(card)
    return game


def fft_chelem_game() -> Game:
    """The FFT's chelem example at its first card: Garde by seat 0, chelem announced, a simple poignée;
    played by ``play_scripted`` the defence keeps its Excuse and the taker counts 87 with 2 oudlers."""
    rules = Rules()
    hand = (STRONG_D | DEAL_D.chien.mask) & ~(su(CL, 9, 13) | tr(5, 5))
    return Game.for_play(DEAL_D, rules, 0, Contract.GARDE, discard=su(CL, 9, 13) | tr(5, 5), chelem="chelem",
                         poignees={0: lowest_poignee(hand, PoigneeLevel.SIMPLE, rules)})


def defence_chelem_game() -> Game:
    """Seat 2 (the Excuse's holder) takes a Garde contre and takes no trick: it keeps its Excuse."""
    return Game.for_play(DEAL_D, Rules(), 2, Contract.GARDE_CONTRE)
