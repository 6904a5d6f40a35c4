"""How well the coach's judge knows the odds: each seat's chance of the contract at its first judged card,
averaged by role (taker, partner, defender), beside the share of those deals actually made.

A judge that deals its worlds from exactly what a seat knew, and plays them as the deals were played,
is calibrated: over many deals, the mean of a role's chances equals the share made.  A gap says that a
role's worlds are not the deals it sits in (docs/coaching.md, "Calibration").  The chance at a seat's
first card is ``p_made`` of the card it played (``analyzer.coach.cards.judge_card``, the command's
settings and seeds); deals without a taker are skipped, as are seats that never had a choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

from analyzer.coach.auction_reading import reading_of
from analyzer.coach.cards import judge_card
from analyzer.coach.deal import decision_seed
from analyzer.notation import parse_card
from analyzer.runs import Settings

ROLES = ("taker", "partner", "defender")


@dataclass(frozen=True)
class FirstCard:
    """One seat's estimate at its first judged card of one deal."""
    deal: int                  # 0-based, in the file
    seat: int                  # 0-based
    role: str                  # taker, partner (5 players, the called King's holder) or defender
    chance: float              # the judge's chance of the contract, 0 to 1
    made: bool                 # whether the contract was made on the real cards
    effective_worlds: float    # Kish's effective number of the judge's worlds


@dataclass(frozen=True)
class RoleCalibration:
    """A role's mean estimate against the share of its deals made; ``gap_se`` is the gap's standard
    error over deals (one term per deal: the mean of its seats' gaps)."""
    role: str
    seats: int
    deals: int
    chance: float
    made: float
    gap: float
    gap_se: float
    low_effective: int         # first cards judged on fewer than 50 effective worlds


def first_cards(records: Iterable, settings: Settings, progress: Callable[[int, int], None] | None = None,
                noise: float | None = None) -> list[FirstCard]:
    """Every seat's first judged card in ``records`` (``analyzer.records.Record``, every hand known), the
    bids read as ``analyze`` reads them (``analyzer.coach.auction_reading.reading_of``: ``noise`` points of
    error when given)."""
    records = list(records)
    out = []
    for i, rec in enumerate(records):
        final = rec.game
        if final.taker is None:
            if progress:
                progress(i + 1, len(records))
            continue
        made = final.result().seat_scores[final.taker] > 0
        seen: set[int] = set()
        for d in rec.decisions():
            if d.phase != "card" or d.seat in seen:
                continue
            game = rec.position(d.index)
            judged = judge_card(game, parse_card(d.action), settings.with_(seed=decision_seed(settings.seed, d.index)),
                                hindsight=False, reading=reading_of(rec, noise))
            if not judged.judged:
                continue
            seen.add(d.seat)
            role = "taker" if d.seat == final.taker else "partner" if d.seat == final.partner else "defender"
            out.append(FirstCard(i, d.seat, role, judged.made_option.made.p, made, judged.effective_worlds))
        if progress:
            progress(i + 1, len(records))
    return out


def calibration(cards: list[FirstCard]) -> list[RoleCalibration]:
    """Per role present in ``cards``: the mean chance, the share made and the gap with its standard error."""
    rows = []
    for role in ROLES:
        mine = [c for c in cards if c.role == role]
        if not mine:
            continue
        by_deal: dict[int, list[float]] = {}
        for c in mine:
            by_deal.setdefault(c.deal, []).append(c.chance - c.made)
        gaps = [sum(g) / len(g) for g in by_deal.values()]
        n = len(gaps)
        mean_gap = sum(gaps) / n
        se = math.sqrt(sum((g - mean_gap) ** 2 for g in gaps) / (n - 1) / n) if n > 1 else math.nan
        rows.append(RoleCalibration(role, len(mine), n, sum(c.chance for c in mine) / len(mine),
                                    sum(c.made for c in mine) / len(mine), sum(c.chance - c.made for c in mine) / len(mine),
                                    se, sum(c.effective_worlds < 50 for c in mine)))
    return rows
