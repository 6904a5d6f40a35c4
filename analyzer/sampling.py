"""Dealing the unseen cards uniformly, consistent with what is known: the Python face of the sampler.

``sample_deals(players, n, seed, fixed=…, constraints=…)`` returns an (n, 78) int8 array giving
each card's place: seat 0 (first to speak) … seat P-1 (the dealer), P for the chien.  Deals with a
petit sec are excluded unless asked otherwise.

* ``fixed``: cards whose place is known, as ``{place: cards}`` (cards as notation, a ``Hand``, a
  mask or card ids; place a seat index or ``"chien"``).
* ``constraints``: ``Void(seat, suit)`` (a suit "S"/"H"/"D"/"C" or "T" for trumps, as revealed in
  play), ``Holds(seat, cards)`` (a shown poignée, a revealed King), ``CountBetween(seat, cards, at_least,
  at_most)`` (how many of a group a seat holds).

``random_hands(rules, n, seed)``: random hands of the first seat to speak (the yardsticks' hands).

Fixed cards and voids are met exactly (complement dealing, or the exact constrained sampler when a
void is given); petit sec and counts by rejection, with the acceptance rate reported and a clear
error when the constraints are impossible or too rare to meet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.notation import parse_mask
from analyzer.rules import CHIEN_SIZE, HAND_SIZE, Rules
from analyzer.simulation.threads import over_rows
from kernels.batch import sample_batch
from kernels.deals import MAX_TRIES
from kernels.constrained import sample_constrained_batch
from kernels.worlds import prepare


class SamplingError(TarotError):
    """Constraints that no deal meets, or that too few deals meet to sample them."""


@dataclass(frozen=True)
class Void:
    """``seat`` holds no card of ``suit`` ("S", "H", "D", "C", or "T": no trump)."""
    seat: int
    suit: str


@dataclass(frozen=True)
class Holds:
    """``seat`` holds every card of ``cards``."""
    seat: int
    cards: "str | Hand | int"


@dataclass(frozen=True)
class CountBetween:
    """``seat`` holds at least ``at_least`` and at most ``at_most`` of ``cards``."""
    seat: int
    cards: "str | Hand | int"
    at_least: int = 0
    at_most: int = 78


@dataclass(frozen=True)
class Sample:
    places: np.ndarray         # (n, 78) int8
    acceptance: float          # deals kept / deals drawn


def _mask(cards) -> int:
    if isinstance(cards, Hand):
        return cards.mask
    if isinstance(cards, str):
        return parse_mask(cards)
    if isinstance(cards, int):
        return cards
    return C.mask_of(cards)


def _void_mask(suit: str) -> int:
    key = suit.strip().upper()
    if key in ("T", "TRUMP", "TRUMPS"):
        return C.TRUMP_BITS
    if len(key) == 1 and key in C.SUITS:
        return C.suit_mask(C.SUITS.index(key))
    raise SamplingError(f"unknown suit {suit!r} in a void constraint (expected S, H, D, C or T)")


def sample(players: int, n: int, seed: int, fixed: Mapping | None = None, constraints: Iterable = (),
           exclude_petit_sec: bool = True, offset: int = 0) -> Sample:
    """Draw ``n`` deals (deal i from the random stream (seed, offset + i)) and the acceptance rate."""
    if players not in HAND_SIZE:
        raise SamplingError(f"unsupported player count {players}")
    sizes = [HAND_SIZE[players]] * players + [CHIEN_SIZE[players]]
    place_of = np.full(C.N_CARDS, -1, dtype=np.int8)
    for where, cards in (fixed or {}).items():
        place = players if where == "chien" else int(where)
        if not 0 <= place <= players:
            raise SamplingError(f"no place {where!r} at {players} players")
        for card in C.cards_of(_mask(cards)):
            if place_of[card] >= 0 and place_of[card] != place:
                raise SamplingError(f"card {C.TOKENS[card]} is fixed in two places")
            place_of[card] = place
    voids = [0] * players
    counts = []
    for con in constraints:
        if isinstance(con, Void):
            voids[con.seat] |= _void_mask(con.suit)
        elif isinstance(con, Holds):
            for card in C.cards_of(_mask(con.cards)):
                if place_of[card] >= 0 and place_of[card] != con.seat:
                    raise SamplingError(f"card {C.TOKENS[card]} is fixed elsewhere but held by seat {con.seat + 1}")
                place_of[card] = con.seat
        elif isinstance(con, CountBetween):
            counts.append(con)
        else:
            raise SamplingError(f"unknown constraint {con!r}")
    for place in range(players + 1):
        held = int((place_of == place).sum())
        if held > sizes[place]:
            where = "the chien" if place == players else f"seat {place + 1}"
            raise SamplingError(f"{held} cards fixed in {where}, which holds {sizes[place]}")
    for seat in range(players):
        held = C.mask_of(c for c in range(C.N_CARDS) if place_of[c] == seat)
        if exclude_petit_sec and held.bit_count() == sizes[seat] and Hand(held).is_petit_sec:
            raise SamplingError(f"seat {seat + 1}'s hand is petit sec: the deal is annulled under FFT rules, "
                                "no deal to sample (petit sec deals are kept with exclude_petit_sec=False)")
    for seat, void in enumerate(voids):
        clash = [c for c in C.cards_of(void) if place_of[c] == seat]
        if clash:
            raise SamplingError(f"seat {seat + 1} is void in a suit but holds {C.TOKENS[clash[0]]}")
    out = np.empty((n, C.N_CARDS), dtype=np.int8)
    tries = np.empty(n, dtype=np.int64)
    if not any(voids) and not counts:
        unseen = np.array([c for c in range(C.N_CARDS) if place_of[c] < 0], dtype=np.int64)
        slots = np.array([p for p in range(players + 1) for _ in range(sizes[p] - int((place_of == p).sum()))],
                         dtype=np.int64)
        sample_batch(place_of, unseen, slots, players, exclude_petit_sec, np.uint64(seed), offset, out, tries)
    else:
        everywhere = (1 << (players + 1)) - 1
        allowed = np.zeros(C.N_CARDS, dtype=np.int64)
        for card in range(C.N_CARDS):
            if place_of[card] >= 0:
                allowed[card] = 1 << int(place_of[card])
            else:
                allowed[card] = everywhere & ~sum(1 << s for s in range(players) if voids[s] >> card & 1)
        room = np.array(sizes, dtype=np.int64)
        fixed_, constrained, last, _, left, strides, table, start = prepare(allowed, room)
        if table[start] == 0:
            raise SamplingError("no deal meets these constraints")
        count_seat = np.array([c.seat for c in counts], dtype=np.int64)
        count_cards = np.zeros((len(counts), C.N_CARDS), dtype=np.bool_)
        for k, c in enumerate(counts):
            for card in C.cards_of(_mask(c.cards)):
                count_cards[k, card] = True
        count_min = np.array([c.at_least for c in counts], dtype=np.int64)
        count_max = np.array([c.at_most for c in counts], dtype=np.int64)
        over_rows(sample_constrained_batch, n, allowed, fixed_, constrained, last, strides, left, table, start,
                  players, exclude_petit_sec, count_seat, count_cards, count_min, count_max, np.uint64(seed), offset,
                  out, tries)
    if n and (tries < 0).any():
        raise SamplingError(f"these constraints are met too rarely to sample them (no deal in {MAX_TRIES} tries)")
    return Sample(out, float(n / tries.sum()) if n else 1.0)


def sample_deals(players: int, n: int, seed: int, fixed: Mapping | None = None, constraints: Iterable = (),
                 exclude_petit_sec: bool = True) -> np.ndarray:
    """(n, 78) int8 array of card places; see the module docstring."""
    return sample(players, n, seed, fixed, constraints, exclude_petit_sec).places


def random_hands(rules: Rules, n: int, seed: int) -> list[Hand]:
    """``n`` random hands of the first seat to speak, dealt by ``sample_deals`` (no petit sec when the
    rules annul it), reproducibly from ``seed``."""
    places = sample_deals(rules.players, n, seed, exclude_petit_sec=rules.petit_sec == "annul")
    return [Hand(sum(1 << c for c in range(C.N_CARDS) if places[i, c] == 0)) for i in range(n)]
