"""The two published point-count bidding methods described in ``docs/bidding.md``.

They are the baselines our simulated advice must beat, the bidding model of the simulated seats,
and features in batch statistics.  "Trumps" counts the numbered trumps and the Excuse.

* ``chavey``: Noël Chavey, *Le jeu de tarot* (1986).  Voids and singletons count only "when weighing
  a higher contract": the base count decides whether to bid at all, the count with distribution
  decides how high.
* ``tarotclub``: the TarotClub bot's count.

Thresholds are for 4 players; at 3 players every threshold is 5 higher; at 5 players both methods use
33 / 49 / 64 / 74.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer import cards as C
from analyzer.rules import Contract
from kernels.bidding import CHAVEY, TAROTCLUB

METHODS = ("chavey", "tarotclub")
METHOD_IDS = {"chavey": CHAVEY, "tarotclub": TAROTCLUB}    # the same methods in the kernels (kernels/bidding.py)

# Lowest count for Prise, Garde, Garde sans, Garde contre at 4 players.
_THRESHOLDS_4 = {"chavey": (40, 56, 71, 81), "tarotclub": (36, 51, 66, 76)}
_THRESHOLDS_5 = (33, 49, 64, 74)


@dataclass(frozen=True)
class HandFeatures:
    """The hand features both counts use."""

    trumps: int                 # numbered trumps and the Excuse
    trump_numbers: tuple[int, ...]
    has_21: bool
    has_petit: bool
    has_excuse: bool
    suit_lengths: tuple[int, int, int, int]
    suit_ranks: tuple[tuple[int, ...], ...]   # ranks held per suit

    @classmethod
    def of(cls, hand: int) -> "HandFeatures":
        numbers = tuple(sorted(C.rank_of(c) for c in C.cards_of(hand & C.TRUMP_BITS)))
        ranks = tuple(tuple(sorted(C.rank_of(c) for c in C.cards_of(hand & C.suit_mask(s)))) for s in range(C.N_SUITS))
        return cls(trumps=C.trump_count(hand), trump_numbers=numbers, has_21=bool(hand >> C.TWENTY_ONE & 1),
                   has_petit=bool(hand >> C.PETIT & 1), has_excuse=bool(hand >> C.EXCUSE & 1),
                   suit_lengths=tuple(len(r) for r in ranks), suit_ranks=ranks)

    @property
    def voids(self) -> int:
        return sum(n == 0 for n in self.suit_lengths)

    @property
    def singletons(self) -> int:
        return sum(n == 1 for n in self.suit_lengths)


def _longest_run(values: tuple[int, ...]) -> list[int]:
    """Lengths of the runs of consecutive values (sorted input)."""
    runs, length = [], 0
    for i, v in enumerate(values):
        length = length + 1 if i and v == values[i - 1] + 1 else 1
        if i == len(values) - 1 or values[i + 1] != v + 1:
            runs.append(length)
    return runs


def chavey_points(hand: int, with_distribution: bool = False) -> int:
    """Chavey's count; ``with_distribution`` adds voids (6) and singletons (3) for higher contracts."""
    f = HandFeatures.of(hand)
    pts = 10 * f.has_21 + 8 * f.has_excuse
    if f.has_petit:
        pts += 0 if f.trumps < 5 else 5 if f.trumps == 5 else 7 if f.trumps == 6 else 9
    if f.trumps > 4:
        pts += 2 * f.trumps
    majors = tuple(n for n in f.trump_numbers if n >= 16)
    pts += 2 * len(majors)
    pts += sum(run for run in _longest_run(majors) if run >= 2)
    for ranks in f.suit_ranks:
        king, queen = C.KING in ranks, C.QUEEN in ranks
        pts += 10 if king and queen else 6 if king else 3 if queen else 0
        pts += 2 * (C.KNIGHT in ranks) + (C.JACK in ranks)
        n = len(ranks)
        pts += 0 if n < 5 else 5 if n == 5 else 7 if n == 6 else 9
    if with_distribution:
        pts += 6 * f.voids + 3 * f.singletons
    return pts


def tarotclub_points(hand: int) -> int:
    """The TarotClub bot's count."""
    f = HandFeatures.of(hand)
    pts = 9 * f.has_21 + 7 * f.has_excuse
    if f.has_petit:
        pts += 0 if f.trumps < 5 else 5 if f.trumps == 5 else 7 if f.trumps <= 7 else 8
    pts += 2 * f.trumps + 2 * sum(n >= 15 for n in f.trump_numbers)
    for ranks in f.suit_ranks:
        king, queen = C.KING in ranks, C.QUEEN in ranks
        pts += 6 * king + 3 * queen + 2 * (C.KNIGHT in ranks) + (C.JACK in ranks) + (king and queen)
        pts += 5 * (len(ranks) >= 5)
        pts += 4 * sum(run >= 5 for run in _longest_run(ranks))
    pts += 5 * f.voids + 3 * f.singletons
    return pts


def method_id(method: str) -> int:
    """The kernels' id of a bidding method; an unknown name is a ValueError that names it."""
    if method not in METHOD_IDS:
        raise ValueError(f"unknown bidding method {method!r} (expected {' or '.join(METHODS)})")
    return METHOD_IDS[method]


def thresholds(method: str, players: int) -> tuple[int, int, int, int]:
    """Lowest count for Prise, Garde, Garde sans and Garde contre."""
    method_id(method)
    if players == 5:
        return _THRESHOLDS_5
    base = _THRESHOLDS_4[method]
    return tuple(t + 5 for t in base) if players == 3 else base


def _contract_for(points: int, limits: tuple[int, int, int, int]) -> Contract | None:
    best = None
    for contract, limit in zip(Contract, limits):
        if points >= limit:
            best = contract
    return best


def baseline_contract(hand: int, method: str, players: int) -> Contract | None:
    """The contract the method bids with this hand (None: pass), ignoring earlier bids."""
    limits = thresholds(method, players)
    if method == "chavey":
        if chavey_points(hand) < limits[0]:
            return None
        return _contract_for(chavey_points(hand, with_distribution=True), limits)
    return _contract_for(tarotclub_points(hand), limits)


def baseline_bid(hand: int, method: str, players: int, best_so_far: Contract | None) -> Contract | None:
    """The bidding model of a simulated seat: its method's contract if it outbids, else pass."""
    wanted = baseline_contract(hand, method, players)
    if wanted is None or (best_so_far is not None and wanted <= best_so_far):
        return None
    return wanted
