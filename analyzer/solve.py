"""Perfect-information analysis of a deal in play: every legal card's value for the seat to play.

All hands known, both sides play perfectly to the end (``kernels/endgame.py``); a card's value is
the taker's score at the end of the deal (the taker's seat score: 3 × each defender's at 4 players),
so the taker's side looks for the highest value and the defence for the lowest.  With the values
come the best card, the principal line (both sides' best cards to the end; among equal cards the
highest suit card, else the highest trump), the nodes searched and the time taken: a double-dummy
table for Tarot.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.game import Game, Phase
from analyzer.simulate import state_from_game
from kernels import endgame as E
from kernels import playout as K

TABLE_BITS = 20          # 2**20 table entries (48 MiB): ample for endings of 8 tricks and more


@dataclass(frozen=True)
class Solution:
    seat: int                           # 0-based
    trick: int                          # 0-based index of the trick in play
    values: tuple[tuple[int, float], ...]   # (card id, value), in card order
    best: int
    line: tuple[int, ...]
    nodes: int
    seconds: float

    def value_of(self, card: int) -> float:
        return dict(self.values)[card]

    def as_dict(self) -> dict:
        """The JSON form: seats and tricks counted from 1, cards as tokens."""
        return {"seat": self.seat + 1, "trick": self.trick + 1,
                "cards": [{"card": C.TOKENS[c], "value": v} for c, v in self.values],
                "best": C.TOKENS[self.best], "line": [C.TOKENS[c] for c in self.line], "nodes": self.nodes,
                "seconds": self.seconds}


def solve(game: Game, table_bits: int = TABLE_BITS) -> Solution:
    """Solve the game from its current position (it must be in play, with a taker; it is not changed)."""
    if game.phase is not Phase.PLAY or game.taker is None:
        raise IllegalActionError(f"solving needs a deal in play with a taker (the game is at {game.phase.value})")
    hs, ht, st = state_from_game(game)
    players = game.rules.players
    cards = np.empty(E.MAX_MOVES, dtype=np.int64)
    values = np.empty(E.MAX_MOVES, dtype=np.int64)
    line = np.empty(C.N_CARDS, dtype=np.int64)
    w = E.new_workspace(table_bits)
    start = time.perf_counter()
    k, length, nodes = E.solve_line(hs, ht, st, w, cards, values, line)
    seconds = time.perf_counter() - start
    share = E.seat_share(players, game.taker, st[K.PARTNER], game.taker)
    pairs = tuple(sorted((int(cards[i]), float(values[i] * share)) for i in range(k)))
    return Solution(seat=game.to_act, trick=len(game.tricks), values=pairs, best=int(line[0]),
                    line=tuple(int(c) for c in line[:length]), nodes=int(nodes), seconds=seconds)
