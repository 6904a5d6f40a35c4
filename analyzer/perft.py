"""Perft: the number of legal card sequences of a given length from a position (a move-generator check).

Counted with the reference engine; the kernels must reproduce the same numbers (after chess
engines' perft).  ``data/perft.csv`` stores counts for fixed deals.
"""

from __future__ import annotations

import copy

from analyzer import cards as C
from analyzer.game import Game, Phase


def perft(game: Game, depth: int) -> int:
    """Number of legal sequences of ``depth`` cards from ``game`` (in the play phase)."""
    if depth == 0 or game.phase is not Phase.PLAY:
        return 1
    total = 0
    for card in C.cards_of(game.legal_cards()):
        child = copy.deepcopy(game)
        child.play(card)
        total += perft(child, depth - 1)
    return total
