"""Judging a card: every legal card (one per class of equivalent cards) played on the same worlds
dealt from what the seat to play knew, each world finished by the chosen policy until its last tricks
(``kernels.evaluate.EXACT_TRICKS``), which the endgame solver plays perfectly; and the same on the real
layout for hindsight.  Each world counts by the chance that the other seats bid as recorded given its
hands (``bid``'s model and error, ``analyzer.advice.auction``): the values are weighted means, with
Kish's effective number of worlds."""

from __future__ import annotations

import numpy as np

from analyzer import cards as C
from analyzer.advice.auction import BID_NOISE
from analyzer.baselines import method_id
from analyzer.coach.equivalence import card_classes
from analyzer.coach.verdicts import Decision, Option
from analyzer.errors import TarotError
from analyzer.game import Game, Phase
from analyzer.runs import Settings, threads
from analyzer.simulate import state_from_game
from analyzer.simulation.bridge import policy_ids
from analyzer.solve import solve
from analyzer.stats import Moments
from kernels.evaluate import ENDING_TRICKS
from kernels.evaluate import EXACT_TRICKS as EXACT_BY_PLAYERS
from kernels.evaluate import judge_layout, judge_values
from kernels.playout import set_auction

WORLDS = 400            # worlds per card decision by default
EXACT_TRICKS = 6        # hindsight is solved exactly from this many tricks before the end (a few ms)
BIDDING = "tarotclub"   # the bidding model the recorded auction is read by (``bid``'s default)
LOW_EFFECTIVE = 50      # below this many effective worlds (Kish's) a decision says so in its note


def cards_out(game: Game, seat: int) -> int:
    """The cards ``seat`` has not seen played and does not hold or know to be aside (its own discard)."""
    played = C.mask_of(c for t in game.tricks for c in t.cards) | C.mask_of(c for _, c in game.current)
    aside = game.discard if seat == game.taker and game.discard else 0
    return C.ALL_CARDS & ~played & ~game.hands[seat] & ~aside


def judge_card(game: Game, card: int, settings: Settings, hindsight: bool = True) -> Decision:
    """The decision of the seat to play in ``game`` (in play, every hand known to the engine) to play
    ``card``: its alternatives valued on ``settings.worlds_per_card`` worlds (``WORLDS`` when None) from what the
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
    if len(game.bids) == game.rules.players:
        set_auction(st, np.array([0 if b is None else int(b) for b in game.bids], dtype=np.int64),
                    method_id(BIDDING))
    policies = policy_ids(settings.policy, game.rules.players)
    exact = int(EXACT_BY_PLAYERS[game.rules.players])
    if game.rules.tricks - len(game.tricks) > exact:     # the solver plays the last tricks of each world only
        exact = int(ENDING_TRICKS[game.rules.players])
    worlds = settings.worlds_per_card or WORLDS
    scores = np.zeros((worlds, len(candidates)), dtype=np.int64)
    made = np.zeros((worlds, len(candidates)), dtype=np.int64)
    weights = np.zeros(worlds)
    picks = np.array(candidates, dtype=np.int64)
    truth_scores = np.zeros(len(candidates), dtype=np.int64)
    truth_made = np.zeros(len(candidates), dtype=np.int64)
    with threads(settings.jobs):
        judge_values(hs, ht, st, picks, policies, settings.worlds, np.uint64(settings.seed), exact, BID_NOISE,
                     scores, made, weights, np.zeros((worlds, 2, game.rules.players + 1), dtype=np.uint64))
        if hindsight:
            judge_layout(hs, ht, st, picks, policies, settings.worlds, np.uint64(settings.seed), exact,
                         truth_scores, truth_made)
    note = ""
    if not weights.max() > 0:         # no world explains the auction: every world counts alike
        weights[:] = 1.0
        note = "no world explains the auction: worlds weighed alike"
    weights /= weights.max()
    options, effective = weighted_options(candidates, card, scores, made, weights)
    if effective < LOW_EFFECTIVE and not note:
        note = f"few worlds fit the auction: {effective:.0f} effective worlds of {worlds}"
    if hindsight and exact < game.rules.tricks - len(game.tricks) <= EXACT_TRICKS:
        truth_scores = _exact_values(game, candidates)
    best_known = C.TOKENS[candidates[_best(truth_scores, candidates.index(card))]] if hindsight else None
    return Decision(seat, "card", trick, C.TOKENS[card], options, best_known, note=note,
                    effective_worlds=effective)


def weighted_options(candidates: list[int], card: int, scores: np.ndarray, made: np.ndarray,
                     weights: np.ndarray) -> tuple[list[Option], float]:
    """The options of a card decision from its worlds' values (``scores``/``made``, world by candidate)
    and the worlds' weights: weighted means (``Moments.ratio``, the importance-sampling ratio estimator),
    best first, and Kish's effective number of worlds."""
    k = len(candidates)
    rows = np.column_stack([weights[:, None] * scores, weights[:, None] * made, weights])
    moments = Moments(2 * k + 1)
    moments.add(rows)
    w = 2 * k
    means = np.array([moments.ratio({j: 1.0}, w).mean for j in range(k)])
    best = _best(means, candidates.index(card))
    options = [Option(C.TOKENS[c], moments.ratio({j: 1.0}, w), moments.weighted_proportion(k + j, w),
                      moments.ratio({j: 1.0, best: -1.0} if j != best else {j: 0.0}, w)) for j, c in enumerate(candidates)]
    options.sort(key=lambda o: -o.score.mean)
    return options, moments.effective_n(w)


def _best(values: np.ndarray, played: int) -> int:
    """The index of the highest value, the choice made when it ties for the highest."""
    return played if values[played] >= values.max() else int(np.argmax(values))


def _exact_values(game: Game, candidates: list[int]) -> np.ndarray:
    """Each candidate's value for the seat to play under perfect play on the real layout (the endgame
    solver), oriented so that higher is better for that seat."""
    values = dict(solve(game).values)              # the seat's own score
    return np.array([values[c] for c in candidates])
