"""Perfect-information analysis of a deal in play: every legal card's value for the seat to play.

All hands known, both sides play perfectly to the end (``kernels/endgame.py``).  A card's value is the
score the seat to play ends the deal with (its own seat score), so the best card is the highest one
whichever side the seat is on.  With the values come the cards grouped by equal value, the best card,
the principal line (both sides' best cards to the end; among equal cards the highest suit card, else
the highest trump) broken into tricks, the nodes searched and the time taken: a double-dummy table for
Tarot.
"""

from __future__ import annotations

import copy
import threading
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
_WORKSPACES = threading.local()      # each thread's workspaces by table size (``workspace``)


@dataclass(frozen=True)
class LineTrick:
    """One trick of the principal line: its number (0-based), who led, the cards in play order with
    their seats (a trick already begun starts with the cards played before the position), the winner."""
    number: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int
    played_before: int              # how many of ``cards`` were on the table before the position


@dataclass(frozen=True)
class Solution:
    seat: int                               # the seat to play, 0-based
    trick: int                              # 0-based index of the trick in play
    values: tuple[tuple[int, float], ...]   # (card id, the seat's own final score), best first
    groups: tuple[tuple[float, tuple[int, ...]], ...]   # (value, cards of that value), best first
    best: int
    line: tuple[int, ...]
    tricks: tuple[LineTrick, ...]           # the principal line trick by trick, to the end of the deal
    final_scores: tuple[float, ...]         # every seat's score at the end of the principal line
    nodes: int
    seconds: float

    def value_of(self, card: int) -> float:
        return dict(self.values)[card]

    def as_dict(self) -> dict:
        """The JSON form: seats and tricks counted from 1, cards as tokens."""
        return {"seat": self.seat + 1, "trick": self.trick + 1,
                "cards": [{"card": C.TOKENS[c], "value": v} for c, v in self.values],
                "groups": [{"value": v, "cards": [C.TOKENS[c] for c in cards]} for v, cards in self.groups],
                "best": C.TOKENS[self.best], "line": [C.TOKENS[c] for c in self.line],
                "tricks": [{"trick": t.number + 1, "leader": t.leader + 1,
                            "cards": [{"seat": s + 1, "card": C.TOKENS[c]} for s, c in zip(t.seats, t.cards)],
                            "played_before": t.played_before, "winner": t.winner + 1} for t in self.tricks],
                "final_scores": list(self.final_scores), "nodes": self.nodes, "seconds": self.seconds}


def solve(game: Game, table_bits: int = TABLE_BITS) -> Solution:
    """Solve the game from its current position (it must be in play, with a taker; it is not changed)."""
    if game.phase is not Phase.PLAY or game.taker is None:
        raise IllegalActionError(f"solving needs a deal in play with a taker (the game is at {game.phase.value})")
    hs, ht, st = state_from_game(game)
    cards = np.empty(E.MAX_MOVES, dtype=np.int64)
    values = np.empty(E.MAX_MOVES, dtype=np.int64)
    line = np.empty(C.N_CARDS, dtype=np.int64)
    w = workspace(table_bits)
    start = time.perf_counter()
    k, length, nodes = E.solve_line(hs, ht, st, w, cards, values, line)
    seconds = time.perf_counter() - start
    share = E.seat_share(game.rules.players, game.taker, st[K.PARTNER], game.to_act)
    principal = tuple(int(c) for c in line[:length])
    # Best first; among equal cards the principal line's first, then in card order.
    pairs = sorted(((int(cards[i]), float(values[i] * share)) for i in range(k)),
                   key=lambda cv: (-cv[1], cv[0] != principal[0], cv[0]))
    tricks, final = _replay(game, principal)
    return Solution(seat=game.to_act, trick=len(game.tricks), values=tuple(pairs), groups=_groups(pairs),
                    best=principal[0], line=principal, tricks=tricks, final_scores=final, nodes=int(nodes),
                    seconds=seconds)


def workspace(table_bits: int = TABLE_BITS) -> np.ndarray:
    """The solver's workspace with a table of 2**``table_bits`` entries, one per thread and size, made
    once and kept: zeroing a fresh table costs more than most endings take to solve (a board solves every
    card of a deal's last tricks).  Each solve starts a new stamp (``kernels.endgame.load``), which
    empties the table, so a solve on a used workspace gives the values, the line and the nodes of one on
    a new workspace."""
    kept = getattr(_WORKSPACES, "by_bits", None)
    if kept is None:
        kept = _WORKSPACES.by_bits = {}
    if table_bits not in kept:
        kept[table_bits] = E.new_workspace(table_bits)
    return kept[table_bits]


def _groups(pairs: list[tuple[int, float]]) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """Cards of exactly equal value together (perfect play makes ties exact), best first."""
    groups: list[tuple[float, list[int]]] = []
    for card, value in pairs:
        if groups and groups[-1][0] == value:
            groups[-1][1].append(card)
        else:
            groups.append((value, [card]))
    return tuple((v, tuple(cards)) for v, cards in groups)


def _replay(game: Game, line: tuple[int, ...]) -> tuple[tuple[LineTrick, ...], tuple[float, ...]]:
    """The principal line played on a copy of the game: its tricks and every seat's final score."""
    g = copy.deepcopy(game)
    before = len(g.current)
    first = len(g.tricks)
    for card in line:
        g.play(card)
    tricks = tuple(LineTrick(number=i, leader=t.leader, seats=t.seats, cards=t.cards, winner=t.winner,
                             played_before=before if i == first else 0)
                   for i, t in enumerate(g.tricks) if i >= first)
    return tricks, tuple(g.result().seat_scores)
