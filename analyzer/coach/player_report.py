"""One player's report across many deals (``analyze --player NAME``).

The player's seat in each deal is the one whose name tag (``SeatN``, docs/records.md) is NAME
(``seat_player``); only that seat's decisions are judged.  Over the judged decisions of every deal
``player_report`` gives the accuracy (overall, on all of them pooled, and per deal), the contract
points lost by phase (bid, call, discard, poignée and chelem, card play), the named errors
(``analyzer.coach.reasons``) most often made, and the worst decisions, each with its place on the
replay board (the page's address, ``#d3-t7-c2-s1``).  docs/coaching.md, "One player across deals",
says how each figure is computed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from analyzer.coach.deal import DealReport, accuracy
from analyzer.coach.many_deals import InputDeal
from analyzer.coach.reasons import LABELS
from analyzer.coach.verdicts import Decision
from analyzer.errors import TarotError
from analyzer.game import Phase
from analyzer.notation import parse_card

# The phases a player's losses are told by, each with the decision phases it gathers.
PHASE_GROUPS = (("bid", ("bid",)), ("call", ("call",)), ("discard", ("discard",)),
                ("poignee_chelem", ("poignee", "chelem", "misere")), ("card", ("card",)))
PHASE_LABELS = {"bid": "bid", "call": "King call", "discard": "discard", "poignee_chelem": "poignée and chelem",
                "card": "card play"}
VERDICTS = ("inaccuracy", "mistake", "blunder")
WORST = 10                      # worst decisions listed


class PlayerError(TarotError):
    """A player name that no deal seats, or that one deal seats twice."""


def same_name(tag: str | None, name: str) -> bool:
    """Whether a ``SeatN`` tag names ``name``: compared without surrounding spaces and letter case."""
    return tag is not None and tag.strip().casefold() == name.strip().casefold()


def seat_of(deal: InputDeal, name: str) -> int | None:
    """The 0-based seat whose name tag is ``name`` in ``deal`` (None: not seated); two seats of one
    name is a ``PlayerError`` naming the deal."""
    rec = deal.record
    seats = [s for s in range(rec.players) if same_name(rec.tags.get(f"Seat{s + 1}"), name)]
    if len(seats) > 1:
        raise PlayerError(f"--player {name!r}: {deal.source} #{deal.number} names seats "
                          f"{' and '.join(str(s + 1) for s in seats)} so")
    return seats[0] if seats else None


@dataclass(frozen=True)
class Seating:
    """The deals ``name`` sits in with the seat it holds (those whose hand is known), and how many were
    left out: not seated there, or seated with a hand the record does not give."""

    seated: list[tuple[InputDeal, int]]
    not_seated: int
    hand_unknown: int
    name: str                   # as the first deal that seats it writes it


def seat_player(deals: list[InputDeal], name: str) -> Seating:
    """Where ``name`` sits; a name no deal seats is a ``PlayerError`` naming it (and a few names that are)."""
    if not name.strip():
        raise PlayerError("--player '': give a player's name as the records write it (SeatN tags)")
    seated, not_seated, unknown, written = [], 0, 0, None
    for deal in deals:
        seat = seat_of(deal, name)
        if seat is None:
            not_seated += 1
            continue
        written = written or deal.record.tags[f"Seat{seat + 1}"].strip()
        if seat not in deal.record.known_seats:
            unknown += 1
        else:
            seated.append((deal, seat))
    if not seated and not unknown:
        names = sorted({v.strip() for d in deals for k, v in d.record.tags.items()
                        if k.lower().startswith("seat") and k[4:].isdigit() and v.strip()})
        known = (f"names there: {', '.join(names[:8])}{', …' if len(names) > 8 else ''}" if names
                 else "no record names its seats (SeatN tags)")
        raise PlayerError(f"--player {name!r}: no deal of the input seats this player ({known})")
    if not seated:
        raise PlayerError(f"--player {name!r}: sits in {unknown} deal{'s' if unknown != 1 else ''} of the input, but no "
                          "record of them gives the player's hand")
    return Seating(seated, not_seated, unknown, written)


def board_step(decision: Decision, record, players: int) -> int:
    """The replay board's step at ``decision``: 0 before the first card, else the number of the card
    played, from 1 (the board's ``steps``); found in the record's tricks."""
    if decision.phase != "card":
        return 0
    card = parse_card(decision.played)
    before = sum(len(t) for t in record.tricks[:decision.trick - 1])
    return before + record.tricks[decision.trick - 1].index(card) + 1


def anchor(page_deal: int, step: int, players: int, seat: int | None = None) -> str:
    """The replay board's address of a step (``board.js``: ``#d{deal}-t{trick}-c{card}``, ``-s{seat}``
    for a seat's view; deal and seat 1-based, trick and card 0 before the first card)."""
    trick, card = (0, 0) if step == 0 else ((step - 1) // players + 1, (step - 1) % players + 1)
    return f"#d{page_deal}-t{trick}-c{card}" + ("" if seat is None else f"-s{seat}")


@dataclass(frozen=True)
class PhaseLoss:
    phase: str                  # a ``PHASE_GROUPS`` name
    judged: int
    flagged: int
    lost: float                 # contract points

    def as_dict(self) -> dict:
        return {"phase": self.phase, "label": PHASE_LABELS[self.phase], "judged": self.judged,
                "flagged": self.flagged, "contract_points_lost": self.lost}


@dataclass(frozen=True)
class NamedError:
    reason: str                 # an ``analyzer.coach.reasons.LABELS`` identifier
    count: int                  # flagged decisions it names
    lost: float                 # the contract points those decisions lost

    def as_dict(self) -> dict:
        return {"reason": self.reason, "label": LABELS[self.reason], "count": self.count,
                "contract_points_lost": self.lost}


@dataclass(frozen=True)
class PlayerDecision:
    """One judged decision of the player, where it stands: the deal (its place on the page, 1-based; its
    file and number there), the board's step and address."""

    deal: int
    source: str
    number: int
    step: int
    link: str
    decision: Decision

    def as_dict(self) -> dict:
        d = self.decision
        return {"deal": self.deal, "file": self.source, "record": self.number, "seat": d.seat + 1, "phase": d.phase,
                "trick": d.trick, "played": d.played, "best_group": d.best_group, "loss": d.loss.mean,
                "loss_se": d.loss.se, "verdict": d.verdict, "reasons": list(d.reasons),
                "reason_labels": [LABELS[r] for r in d.reasons], "link": self.link}


@dataclass(frozen=True)
class PlayerDeal:
    """The player's figures on one deal."""

    deal: int                   # its place on the page, 1-based
    source: str
    number: int
    seat: int                   # 0-based
    players: int
    contract: str | None        # the contract played (None: everybody passed)
    role: str                   # taker, partner, defence, or "" when nobody took
    score: float | None         # the seat's score as the deal ended (None: not played out, or not known)
    judged: int
    flagged: int
    lost: float
    accuracy: float | None
    link: str                   # the board at the deal's start, from the seat's view
    decisions: list[PlayerDecision]

    def as_dict(self) -> dict:
        return {"deal": self.deal, "file": self.source, "record": self.number, "seat": self.seat + 1,
                "players": self.players, "contract": self.contract, "role": self.role, "score": self.score,
                "judged": self.judged, "flagged": self.flagged, "contract_points_lost": self.lost,
                "accuracy": self.accuracy, "link": self.link}


@dataclass(frozen=True)
class PlayerReport:
    """A player's figures across the deals it sat in (``player_report``)."""

    player: str
    deals: list[PlayerDeal]
    not_seated: int             # deals of the input where the player does not sit
    hand_unknown: int           # deals where it sits but the record does not give its hand
    judged: int
    flagged: int
    verdicts: dict[str, int]
    lost: float                 # contract points, all phases
    accuracy: float | None      # on every judged decision pooled (``analyzer.coach.deal.accuracy``)
    phases: list[PhaseLoss]
    errors: list[NamedError]    # most frequent first
    unnamed: int                # flagged decisions without a named fact
    worst: list[PlayerDecision]  # the flagged decisions that lost the most, worst first

    @property
    def lost_per_deal(self) -> float | None:
        return self.lost / len(self.deals) if self.deals else None

    def as_dict(self) -> dict:
        return {"player": self.player, "deals": len(self.deals), "not_seated": self.not_seated,
                "hand_unknown": self.hand_unknown, "judged": self.judged, "flagged": self.flagged,
                "verdicts": dict(self.verdicts), "accuracy": self.accuracy, "contract_points_lost": self.lost,
                "contract_points_lost_per_deal": self.lost_per_deal,
                "by_phase": [p.as_dict() for p in self.phases], "errors": [e.as_dict() for e in self.errors],
                "unnamed_errors": self.unnamed, "worst": [w.as_dict() for w in self.worst],
                "per_deal": [d.as_dict() for d in self.deals]}


def _context(record, seat: int) -> tuple[str | None, str, float | None]:
    """The contract, the seat's role in it and its score as the deal ended (None where not known)."""
    from analyzer.coach.board import known_partner
    game = record.replay.game
    if game.taker is None or game.contract is None:
        return None, "", None
    partner = known_partner(record, game)
    role = "taker" if seat == game.taker else "partner" if seat == partner else "defence"
    score = None
    if game.phase is Phase.DONE:
        try:
            score = float(game.result().seat_scores[seat])
        except TarotError:
            score = None
    return game.contract.token, role, score


def player_deal(page: int, deal: InputDeal, seat: int, report: DealReport) -> PlayerDeal:
    """The player's figures on ``deal`` (at ``page`` on the page, 1-based) from its ``report``."""
    rec, players = deal.record, report.players
    mine = [d for d in report.decisions if d.seat == seat and d.judged]
    decisions = []
    for d in mine:
        step = board_step(d, rec, players)
        decisions.append(PlayerDecision(page, deal.source, deal.number, step, anchor(page, step, players, seat + 1), d))
    contract, role, score = _context(rec, seat)
    return PlayerDeal(page, deal.source, deal.number, seat, players, contract, role, score, len(mine),
                      sum(1 for d in mine if d.verdict), sum(d.loss.mean for d in mine), accuracy(mine),
                      anchor(page, 0, players, seat + 1), decisions)


def player_report(player: str, analysed: list[tuple[InputDeal, int, DealReport]], not_seated: int = 0,
                  hand_unknown: int = 0, worst: int = WORST) -> PlayerReport:
    """The report of ``player`` from its deals (each with the player's 0-based seat and the deal's
    report, in the page's order): sums and counts over the judged decisions of that seat."""
    deals = [player_deal(k, deal, seat, report) for k, (deal, seat, report) in enumerate(analysed, start=1)]
    every = [pd for deal in deals for pd in deal.decisions]
    decisions = [pd.decision for pd in every]
    flagged = [pd for pd in every if pd.decision.verdict]
    verdicts = {v: sum(1 for pd in flagged if pd.decision.verdict == v) for v in VERDICTS}
    phases = []
    for group, members in PHASE_GROUPS:
        inside = [d for d in decisions if d.phase in members]
        phases.append(PhaseLoss(group, len(inside), sum(1 for d in inside if d.verdict),
                                sum(d.loss.mean for d in inside)))
    counts: Counter = Counter()
    lost: dict[str, float] = {}
    for pd in flagged:
        for r in pd.decision.reasons:
            counts[r] += 1
            lost[r] = lost.get(r, 0.0) + pd.decision.loss.mean
    order = list(LABELS)
    errors = [NamedError(r, counts[r], lost[r]) for r in sorted(counts, key=lambda r: (-counts[r], -lost[r],
                                                                                         order.index(r)))]
    ranked = sorted(flagged, key=lambda pd: -pd.decision.loss.mean)     # stable: the deal's order on ties
    return PlayerReport(player, deals, not_seated, hand_unknown, len(decisions), len(flagged), verdicts,
                        sum(d.loss.mean for d in decisions), accuracy(decisions), phases, errors,
                        sum(1 for pd in flagged if not pd.decision.reasons), ranked[:worst])
