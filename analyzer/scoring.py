"""Scoring a finished deal from its summary (docs/rules.md, "Scoring"), with every bonus as its own function.

Everything is computed "per defender, seen from the taker's side" (``total``) and then shared out
to the seats: at 4 players the taker gets 3 × total; at 3 players 2 × total; at 5 players the taker
2 ×, the partner 1 × (a lone taker 4 ×), each defender −total.  Misère and Goulash, the two seed
variants, are scored here too.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from analyzer import cards as C
from analyzer.errors import RulesError
from analyzer.rules import Contract, PoigneeLevel, Rules, target_half_points


class Side(enum.Enum):
    TAKER = "taker"
    DEFENCE = "defence"

    @classmethod
    def parse(cls, text: str) -> "Side":
        key = text.strip().lower()
        key = {"defense": "defence", "attack": "taker", "attacker": "taker"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise RulesError(f"unknown side {text!r} (expected taker or defence)") from None


class Chelem(enum.Enum):
    """How a deal ended with respect to the slam (None when nobody tried or made one)."""

    ANNOUNCED_MADE = "announced-made"
    MADE = "made"
    ANNOUNCED_FAILED = "announced-failed"
    DEFENCE = "defence"
    PETIT_ANNOUNCED_MADE = "petit-announced-made"      # variant chelem=petit-chelem
    PETIT_ANNOUNCED_FAILED = "petit-announced-failed"  # variant chelem=petit-chelem

    @classmethod
    def parse(cls, text: str) -> "Chelem":
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise RulesError(
                f"unknown chelem outcome {text!r} (expected {', '.join(c.value for c in cls)})") from None


_CHELEM_BONUS = {Chelem.ANNOUNCED_MADE: 400, Chelem.MADE: 200, Chelem.ANNOUNCED_FAILED: -200,
                 Chelem.DEFENCE: -200, Chelem.PETIT_ANNOUNCED_MADE: 300, Chelem.PETIT_ANNOUNCED_FAILED: -150}


@dataclass(frozen=True)
class DealSummary:
    """What the table agrees on at the end of a deal: enough to score it."""

    contract: Contract
    oudlers: int
    half_points: int                      # taker's side, in half-points (0-182)
    petit_au_bout: Side | None = None
    poignees: tuple[tuple[Side, PoigneeLevel], ...] = ()
    chelem: Chelem | None = None
    alone: bool = False                   # 5 players: the taker has no partner


@dataclass(frozen=True)
class DealScore:
    """The score of a deal, with its breakdown, seen from the taker's side per defender."""

    made: bool
    points: float                 # taker's side card points after the half-point rule
    target: int
    margin: int                   # points - target (signed)
    base: int                     # ±(25 + |margin|) × multiplier
    petit_au_bout: int
    poignee: int
    chelem: int
    total: int                    # per defender, signed for the taker's side
    taker: int
    partner: int | None
    defender: int
    defenders: int

    def as_dict(self) -> dict:
        return {
            "made": self.made, "points": self.points, "target": self.target, "margin": self.margin,
            "base": self.base, "petit_au_bout": self.petit_au_bout, "poignee": self.poignee,
            "chelem": self.chelem, "contract_points": self.total, "taker": self.taker,
            "partner": self.partner, "defender": self.defender, "defenders": self.defenders,
        }


def counted_points(half_points: int, target_hp: int, rules: Rules) -> int:
    """Whole points the taker's side is credited with: a trailing half goes to the winning side
    (3 and 5 players; at 4 players the taker's count is always whole)."""
    if half_points % 2 == 0:
        return half_points // 2
    if not rules.half_point_rule:
        raise RulesError(f"{half_points / 2} points is impossible at 4 players: the taker's count is always whole")
    return (half_points + 1) // 2 if half_points >= target_hp else (half_points - 1) // 2


def base_score(contract: Contract, margin: int) -> int:
    sign = 1 if margin >= 0 else -1
    return sign * (25 + abs(margin)) * contract.multiplier


def petit_au_bout_score(side: Side | None, contract: Contract, rules: Rules) -> int:
    if side is None:
        return 0
    bonus = rules.petit_au_bout_bonus(contract)
    return bonus if side is Side.TAKER else -bonus


def poignee_score(poignees: tuple[tuple[Side, PoigneeLevel], ...], made: bool, rules: Rules) -> int:
    """Every poignée shown, by either side, goes to the side that wins the deal; never multiplied."""
    bonus = sum(rules.poignee_bonus(level) for _, level in poignees)
    return bonus if made else -bonus


def chelem_score(chelem: Chelem | None, rules: Rules) -> int:
    if chelem is None:
        return 0
    if chelem in (Chelem.PETIT_ANNOUNCED_MADE, Chelem.PETIT_ANNOUNCED_FAILED) and rules.chelem != "petit-chelem":
        raise RulesError(f"chelem outcome {chelem.value!r} needs --variant chelem=petit-chelem")
    return _CHELEM_BONUS[chelem]


def seat_shares(players: int, alone: bool, rules: Rules) -> tuple[int, int | None, int]:
    """Multipliers of ``total`` for (taker, partner, each defender) and the number of defenders."""
    if players == 4:
        return 3, None, 3
    if players == 3:
        return 2, None, 2
    if alone:
        return int(rules.lone_taker_share), None, 4
    return 2, 1, 3


def score_deal(summary: DealSummary, rules: Rules) -> DealScore:
    """Score a finished deal.  Raises ``RulesError`` on counts out of range; whether a deal can end with
    the summary at all is ``analyzer.summary_check``'s question."""
    if not 0 <= summary.oudlers <= 3:
        raise RulesError(f"oudlers must be 0-3, got {summary.oudlers}")
    if not 0 <= summary.half_points <= 182:
        raise RulesError(f"points must be between 0 and 91, got {summary.half_points / 2:g}")
    if summary.alone and rules.players != 5:
        raise RulesError(f"playing alone only exists at 5 players (got {rules.players})")
    target_hp = target_half_points(summary.oudlers)
    points = counted_points(summary.half_points, target_hp, rules)
    target = target_hp // 2
    margin = points - target
    made = margin >= 0
    base = base_score(summary.contract, margin)
    pab = petit_au_bout_score(summary.petit_au_bout, summary.contract, rules)
    poignee = poignee_score(summary.poignees, made, rules)
    chelem = chelem_score(summary.chelem, rules)
    total = base + pab + poignee + chelem
    taker_share, partner_share, defenders = seat_shares(rules.players, summary.alone, rules)
    return DealScore(
        made=made, points=summary.half_points / 2, target=target, margin=margin, base=base,
        petit_au_bout=pab, poignee=poignee, chelem=chelem, total=total,
        taker=taker_share * total, partner=None if partner_share is None else partner_share * total,
        defender=-total, defenders=defenders)


def seat_scores(score: DealScore, players: int, taker: int, partner: int | None) -> list[int]:
    """Per-seat scores (seats 0…P-1) of a scored deal; they sum to zero.  A score with a partner's share
    needs the partner's seat, and a partner's seat needs that share (else the shares would not balance)."""
    has_partner = partner is not None and partner != taker
    if has_partner != (score.partner is not None):
        raise ValueError("the partner's seat and the score's partner share must go together")
    out = [score.defender] * players
    out[taker] = score.taker
    if has_partner:
        out[partner] = score.partner
    return out


def goulash_scores(half_points_taken: list[int]) -> list[float]:
    """Goulash (everybody passed, deal played anyway): each player pays every other player the points
    they took.  Seat i scores (sum of all points taken) − P × (points i took)."""
    players = len(half_points_taken)
    total = sum(half_points_taken)
    return [(total - players * hp) / 2 for hp in half_points_taken]


def misere_scores(players: int, declarer: int) -> list[int]:
    """Misère: every other player pays the declarer 10 at once."""
    out = [-10] * players
    out[declarer] = 10 * (players - 1)
    return out


def miseres_scores(declarers: list[int], rules: Rules) -> list[int]:
    """Per seat, what the misères declared by ``declarers`` (seats 0…P-1, once per misère) pay; a seat
    may declare each of the two kinds once.  Raises ``RulesError`` unless the variant is on."""
    if declarers and rules.misere != "on":
        raise RulesError("misères are scored only under --variant misere=on")
    out = [0] * rules.players
    for seat in declarers:
        if not 0 <= seat < rules.players:
            raise RulesError(f"seat {seat + 1} does not exist at {rules.players} players")
        if declarers.count(seat) > 2:
            raise RulesError(f"seat {seat + 1} declared {declarers.count(seat)} misères: a hand has two kinds at most "
                             "(trumps, honours)")
        out = [a + b for a, b in zip(out, misere_scores(rules.players, seat))]
    return out


def check_goulash_points(half_points_taken: list[int], rules: Rules) -> None:
    """Raise ``RulesError`` unless ``half_points_taken`` (per seat) can end a Goulash: one count per seat,
    and together the deck less a chien (which counts for nobody) of the right number of cards."""
    if rules.all_pass != "goulash":
        raise RulesError("a Goulash is played only under --variant all-pass=goulash")
    if len(half_points_taken) != rules.players:
        raise RulesError(f"a Goulash needs the points of each of the {rules.players} seats, got {len(half_points_taken)}")
    values = sorted(C.HALF_POINTS)
    size = rules.chien_size
    low, high = C.DECK_HALF_POINTS - sum(values[-size:]), C.DECK_HALF_POINTS - sum(values[:size])
    total = sum(half_points_taken)
    if not low <= total <= high or (C.DECK_HALF_POINTS - total) % 2 != size % 2:
        raise RulesError(f"the seats' points add up to {total / 2:g}: with a {size}-card chien counting for nobody "
                         f"they add up to {low / 2:g}-{high / 2:g}, ending in "
                         f"{'.5' if (C.DECK_HALF_POINTS - size) % 2 else '.0'}")
