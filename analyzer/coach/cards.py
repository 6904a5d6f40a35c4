"""Judging a card: every legal card (one per class of equivalent cards) played on the same worlds
dealt from what the seat to play knew, each world finished by the chosen policy; and the same on the
real layout for hindsight."""

from __future__ import annotations

import numpy as np

from analyzer import cards as C
from analyzer.coach.equivalence import card_classes
from analyzer.coach.verdicts import Decision, Option
from analyzer.errors import TarotError
from analyzer.game import Game, Phase
from analyzer.runs import POLICY_IDS, Settings, threads
from analyzer.simulate import state_from_game
from analyzer.solve import solve
from analyzer.stats import Mean, Proportion
from kernels.evaluate import layout_values, world_values

WORLDS = 400            # worlds per card decision by default
EXACT_TRICKS = 6        # hindsight is solved exactly from this many tricks before the end (a few ms)


def cards_out(game: Game, seat: int) -> int:
    """The cards ``seat`` has not seen played and does not hold or know to be aside (its own discard)."""
    played = C.mask_of(c for t in game.tricks for c in t.cards) | C.mask_of(c for _, c in game.current)
    aside = game.discard if seat == game.taker and game.discard else 0
    return C.ALL_CARDS & ~played & ~game.hands[seat] & ~aside


def judge_card(game: Game, card: int, settings: Settings, hindsight: bool = True) -> Decision:
    """The decision of the seat to play in ``game`` (in play, every hand known to the engine) to play
    ``card``: its alternatives valued on ``settings.deals`` worlds (``WORLDS`` when None) from what the
    seat knew, finished by ``settings.policy`` (the deal's contract's, under the mixed model); with
    ``hindsight``, also on the real layout."""
    if game.phase is not Phase.PLAY or game.taker is None:
        raise TarotError("a card is judged during the play of a deal with a taker")
    seat = game.to_act
    legal = game.legal_cards()
    if not legal >> card & 1:
        raise TarotError(f"{C.TOKENS[card]} is not a legal card for seat {seat + 1} here")
    trick = len(game.tricks) + 1
    classes = card_classes(legal, cards_out(game, seat))
    if len(classes) == 1:
        note = "forced" if legal.bit_count() == 1 else "equivalent cards"
        return Decision(seat, "card", trick, C.TOKENS[card], note=note)
    candidates = [card if card in cls else cls[0] for cls in classes]
    settings = settings.for_contract(game.contract, game.rules.players)
    hs, ht, st = state_from_game(game)
    policies = np.full(game.rules.players, POLICY_IDS[settings.policy], dtype=np.int64)
    worlds = settings.deals or WORLDS
    scores = np.zeros((worlds, len(candidates)), dtype=np.int64)
    made = np.zeros((worlds, len(candidates)), dtype=np.int64)
    picks = np.array(candidates, dtype=np.int64)
    truth_scores = np.zeros(len(candidates), dtype=np.int64)
    truth_made = np.zeros(len(candidates), dtype=np.int64)
    with threads(settings.jobs):
        world_values(hs, ht, st, picks, policies, settings.worlds, np.uint64(settings.seed), scores, made)
        if hindsight:
            layout_values(hs, ht, st, picks, policies, settings.worlds, np.uint64(settings.seed), truth_scores,
                          truth_made)
    best = _best(scores.mean(axis=0), candidates.index(card))
    options = [Option(C.TOKENS[c], Mean.of(scores[:, j]), Proportion(int(made[:, j].sum()), worlds),
                      Mean.of(scores[:, j] - scores[:, best])) for j, c in enumerate(candidates)]
    options.sort(key=lambda o: -o.score.mean)
    if hindsight and game.rules.tricks - len(game.tricks) <= EXACT_TRICKS:
        truth_scores = _exact_values(game, candidates)
    best_known = C.TOKENS[candidates[_best(truth_scores, candidates.index(card))]] if hindsight else None
    return Decision(seat, "card", trick, C.TOKENS[card], options, best_known)


def _best(values: np.ndarray, played: int) -> int:
    """The index of the highest value, the choice made when it ties for the highest."""
    return played if values[played] >= values.max() else int(np.argmax(values))


def _exact_values(game: Game, candidates: list[int]) -> np.ndarray:
    """Each candidate's value for the seat to play under perfect play on the real layout (the endgame
    solver), oriented so that higher is better for that seat."""
    values = dict(solve(game).values)              # the seat's own score
    return np.array([values[c] for c in candidates])
