"""Judging the decisions before the first card: the bid, the King call, the discard, the poignée and
the chelem announcement, each valued by the advice analyses on the same deals for every alternative
(but "the best bid + chelem", offered beside the bids when a chelem is in sight: ``with_chelem``).

The bid is valued as ``bid`` values it from the seat's hand given the earlier bids; the call, the
poignée and the chelem as ``call``, ``poignee`` and ``chelem`` do for the taker (deals dealt from the
taker's hand as dealt for the call, as it stands after the discard for the poignée and the chelem:
an approximation, the simulated taker then takes a chien of its own); the discard as ``discard``
does, with the discard made among the candidates.
A defender's poignée and the misères are listed but not judged: the simulations offer those choices
to the taker only.
"""

from __future__ import annotations

import math

from analyzer.advice.bid import bid_advice
from analyzer.advice.choices import POIGNEE_NAMES, call_options, chelem_options, compare, poignee_options
from analyzer.advice.discard import best_discards
from analyzer.advice.odds import chelem_in_sight
from analyzer.coach.auction_reading import AuctionReading
from analyzer.coach.verdicts import Decision, Option
from analyzer.errors import TarotError
from analyzer.game import Game, poignee_level
from analyzer.hand import Hand
from analyzer.notation import format_cards, parse_mask
from analyzer.rules import Contract
from analyzer.runs import MIXED, Settings
from analyzer.stats import Mean

DEALS = 2000            # deals per decision before the play, by default


def judge_before_play(game: Game, decision, settings: Settings, to_precision: bool = False,
                      reading: AuctionReading = AuctionReading()) -> Decision:
    """Judge ``decision`` (an ``analyzer.records.Decision`` of a phase before the play) made in ``game``:
    on ``settings.deals`` deals (``DEALS`` when None), or with ``to_precision`` as the advice commands
    run, to their precision (the mixed judge's second look at an open decision).  A bid is valued given
    the earlier bids read as ``reading`` says (``analyzer.coach.auction_reading``)."""
    if settings.deals is None and not to_precision:
        settings = settings.with_(deals=DEALS)
    seat, phase, action = decision.seat, decision.phase, decision.action
    try:
        if phase == "bid":
            return _bid(game, seat, action, settings, reading)
        if phase == "discard":
            return _discard(game, seat, action, settings)
        if seat != game.taker or phase == "misere":
            return Decision(seat, phase, None, action, note="not judged: the simulations offer this choice to "
                                                            "the taker only" if phase != "misere" else
                            "not judged: misères are not simulated as a choice")
        return _taker_choice(game, seat, phase, action, settings)
    except TarotError as exc:
        return Decision(seat, phase, None, action, note=f"not judged: {exc}")


def _dealt(game: Game, seat: int) -> Hand:
    return game.deal.hands[seat]


def _bid(game: Game, seat: int, action: str, settings: Settings, reading: AuctionReading) -> Decision:
    advice = bid_advice(_dealt(game, seat), game.rules, seat, list(game.bids), settings, bidding=reading.bidding,
                        noise=reading.noise)
    options = [Option(o.token, o.score, None, o.vs_best) for o in advice.options]    # no contract yet
    return _decision(seat, "bid", action, with_chelem(game, seat, options, settings))


CHELEM_SUFFIX = " + chelem"


def with_chelem(game: Game, seat: int, options: list[Option], settings: Settings) -> list[Option]:
    """The bid's alternatives with "the best contract + chelem" added when a chelem is in sight
    (``analyzer.advice.odds.chelem_in_sight``, asked of the mixed model's test whatever the policy):
    its value is the best contract's plus the difference between announcing and not, measured by
    ``compare`` on deals of its own (so not paired with the bids' deals: its standard errors add)."""
    best = max(options, key=lambda o: o.score.mean)
    try:
        contract = Contract.parse(best.choice)
    except TarotError:
        return options                                          # the best is a pass
    hand = _dealt(game, seat)
    if not chelem_in_sight(hand, seat, game.rules, settings.with_(policy=MIXED)):
        return options
    result = compare("chelem", hand, game.rules, contract, chelem_options(game.rules), seat, settings)
    by = {a.label: a for a in result.alternatives}
    announce, silent = by["announce"], by["do not announce"]
    diff = announce.vs_best.mean - silent.vs_best.mean
    diff_se = max(announce.vs_best.se, silent.vs_best.se)
    n = min(best.score.n, announce.score.n)
    score = Mean(best.score.mean + diff, math.hypot(best.score.se, diff_se), n)
    if diff <= 0:
        return options + [Option(best.choice + CHELEM_SUFFIX, score, None, Mean(diff, diff_se, n))]
    shifted = [Option(o.choice, o.score, o.made, Mean(o.vs_best.mean - diff, math.hypot(o.vs_best.se, diff_se), n))
               for o in options]
    return shifted + [Option(best.choice + CHELEM_SUFFIX, score, None, Mean(0.0, 0.0, n))]


def _discard(game: Game, seat: int, action: str, settings: Settings) -> Decision:
    made = parse_mask(action)
    choices = best_discards(_dealt(game, seat).mask, game.deal.chien.mask, game.contract, game.rules, seat,
                            settings, top=4, include=made)
    options = [Option(format_cards(c.discard), c.score, None, c.vs_best) for c in choices]
    return _decision(seat, "discard", format_cards(made), options)


def _taker_choice(game: Game, seat: int, phase: str, action: str, settings: Settings) -> Decision:
    hand = _dealt(game, seat) if phase == "call" else Hand(game.hands[seat])     # after the discard
    contract: Contract = game.contract
    if phase == "call":
        options, played = call_options(hand), action
    elif phase == "chelem":
        options, played = chelem_options(game.rules), "do not announce" if action in ("none", "no") else "announce"
    else:                                           # poignee
        options = poignee_options(hand, game.rules)
        if action == "none":
            played = "no poignée"
        else:
            level = poignee_level(hand.mask, parse_mask(action), game.rules)
            played = next(label for label in options if label.startswith(POIGNEE_NAMES[level]))
    result = compare(phase, hand, game.rules, contract, options, seat, settings)
    choices = [Option(a.label, a.score, a.success, a.vs_best) for a in result.alternatives]
    return _decision(seat, phase, played, choices)


def _decision(seat: int, phase: str, played: str, options: list[Option]) -> Decision:
    options = sorted(options, key=lambda o: -o.score.mean)
    if not any(o.choice == played for o in options):
        raise TarotError(f"the choice made ({played}) is not among the alternatives valued")
    return Decision(seat, phase, None, played, options)

