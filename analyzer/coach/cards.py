"""Judging a card: every legal card (one per class of equivalent cards) played on the same worlds
dealt from what the seat to play knew, each world finished by the chosen policy until its last tricks
(``kernels.evaluate.EXACT_TRICKS``), which the endgame solver plays perfectly; and the same on the real
layout for hindsight.  Each world counts by the chance that the other seats bid as recorded given its
hands (``analyzer.coach.auction_reading``: ``bid``'s model and error for players at a table, the model
itself, exactly, for a record it bid): the values are weighted means, with
Kish's effective number of worlds.  A world the auction rules out (weight 0) is not played; more are
drawn (up to ``MOST_DRAWN`` times as many) until as many as asked fit it.

Under the mixed model (the default) the heuristic screens every decision on all the worlds; a decision
the screen leaves open (``is_open``: a verdict, or one its noise cannot rule out) is valued again by the
search on the first of the same worlds (``search_worlds``: at least ``SEARCH_WORLDS``, more while the
auction's weights leave too few effective ones), each card's heuristic value in those worlds its control
variate and the heuristic on the other worlds their reference (``controlled_options``)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer import cards as C
from analyzer.baselines import method_id
from analyzer.coach.auction_reading import AuctionReading
from analyzer.coach.equivalence import card_classes
from analyzer.coach.verdicts import Decision, Option
from analyzer.errors import TarotError
from analyzer.game import Game, Phase
from analyzer.runs import Settings, threads
from analyzer.simulation.policies import MIXED
from analyzer.simulate import state_from_game
from analyzer.simulation.bridge import policy_ids
from analyzer.simulation.threads import over_rows
from analyzer.solve import solve
from analyzer.stats import Mean, Moments, WeightedProportion
from kernels.evaluate import ENDING_TRICKS
from kernels.evaluate import EXACT_TRICKS as EXACT_BY_PLAYERS
from kernels.evaluate import CHUNK as JUDGE_CHUNK
from kernels.evaluate import judge_layout, judge_values
from kernels.playout import set_auction

WORLDS = 400            # worlds per card decision by default
EXACT_TRICKS = 6        # hindsight is solved exactly from this many tricks before the end (a few ms)
LOW_EFFECTIVE = 50      # below this many effective worlds (Kish's) a decision says so in its note
SEARCH_WORLDS = 64      # worlds an open decision is valued on again by the search, under the mixed model, at least
SEARCH_EFFECTIVE = 24   # ... and as many more as make this many effective worlds (Kish's), up to
SEARCH_MOST = 192       # ... this many played; a decision whose worlds cannot is left to the heuristic
MOST_DRAWN = 8          # worlds drawn per world asked, at most, while too few of them fit the auction


def cards_out(game: Game, seat: int) -> int:
    """The cards ``seat`` has not seen played and does not hold or know to be aside (its own discard)."""
    played = C.mask_of(c for t in game.tricks for c in t.cards) | C.mask_of(c for _, c in game.current)
    aside = game.discard if seat == game.taker and game.discard else 0
    return C.ALL_CARDS & ~played & ~game.hands[seat] & ~aside


def judge_card(game: Game, card: int, settings: Settings, hindsight: bool = True,
               is_open: Callable[[Decision], bool] | None = None,
               reading: AuctionReading = AuctionReading()) -> Decision:
    """The decision of the seat to play in ``game`` (in play, every hand known to the engine) to play
    ``card``: its alternatives valued on ``settings.worlds_per_card`` worlds (``WORLDS`` when None) from what the
    seat knew, finished by ``settings.policy``; with ``hindsight``, also on the real layout.  Under the
    mixed model the heuristic values them, and the search again where ``is_open`` says the heuristic's
    decision is open (without ``is_open``, never).  The other seats' bids are read as ``reading`` says
    (``analyzer.coach.auction_reading``)."""
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
    mixed = settings.policy == MIXED
    screen = settings.with_(policy="heuristic") if mixed else settings.for_contract(game.contract,
                                                                                    game.rules.players)
    worlds = settings.worlds_per_card or WORLDS
    values = _world_values(game, candidates, screen, worlds, hindsight, reading, most=MOST_DRAWN * worlds)
    note = ""
    if not values.weights.max() > 0:         # no world explains the auction: every world counts alike
        values = _world_values(game, candidates, screen, worlds, hindsight, reading, skip=False)
        values.weights[:] = 1.0
        note = "no world explains the auction: worlds weighed alike"
    values.weights /= values.weights.max()
    options, effective, held = weighted_options(candidates, card, values.scores, values.made, values.weights)
    if effective < LOW_EFFECTIVE and not note:
        note = f"few worlds fit the auction: {effective:.0f} effective worlds of {len(values.weights)} drawn"
    truth_scores = values.truth_scores
    exact = int(EXACT_BY_PLAYERS[game.rules.players])
    left = game.rules.tricks - len(game.tricks)
    if hindsight and exact < left <= EXACT_TRICKS:        # solved on the layout only from ``exact`` tricks
        truth_scores = _exact_values(game, candidates)
    best_known = C.TOKENS[candidates[_best(truth_scores, candidates.index(card))]] if hindsight else None
    decision = Decision(seat, "card", trick, C.TOKENS[card], options, best_known, note=note,
                        effective_worlds=effective, judged_by="solver" if left <= exact else screen.policy,
                        held_out=held)
    if not mixed or left <= exact or is_open is None or not is_open(decision):   # solved: nothing to search
        return decision
    n = search_worlds(values.weights)
    if n is None:
        note = note or "the heuristic's values: too few effective worlds to search"
        return dataclasses.replace(decision, note=note)
    search = settings.for_contract(game.contract, game.rules.players)
    searched = _world_values(game, candidates, search, n, False, reading)
    options, held = controlled_options(candidates, card, searched, values, n)
    return dataclasses.replace(decision, options=options, judged_by=search.policy, held_out=held)


def search_worlds(weights: np.ndarray) -> int | None:
    """How many of the first worlds the search values: ``SEARCH_WORLDS``, or more until Kish's effective
    number of those worlds reaches ``SEARCH_EFFECTIVE``, leaving at least as many worlds to the reference
    (the heuristic's alone), with at most ``SEARCH_MOST`` of them played (those of weight 0, which the
    auction rules out, are not); None when no such count does."""
    total = len(weights)
    first = np.cumsum(weights)
    second = np.cumsum(weights * weights)
    played = np.cumsum(weights > 0)
    for n in range(SEARCH_WORLDS, total // 2 + 1, 16):
        if played[n - 1] > SEARCH_MOST:
            return None
        if second[n - 1] > 0 and first[n - 1] ** 2 / second[n - 1] >= SEARCH_EFFECTIVE:
            return n
    return None


@dataclass
class WorldValues:
    """A card decision's candidates played on its worlds: ``scores[w, j]`` and ``made[w, j]`` (candidate j
    in world w), each world's auction weight, and the candidates' scores on the real layout (hindsight;
    zeros when not asked)."""
    scores: np.ndarray
    made: np.ndarray
    weights: np.ndarray
    truth_scores: np.ndarray


def judge_chunks(worlds: int) -> int:
    """The number of ``kernels.evaluate.judge_values``' chunks (its rows) for ``worlds`` worlds."""
    return -(-worlds // JUDGE_CHUNK)


def _world_values(game: Game, candidates: list[int], settings: Settings, worlds: int, hindsight: bool,
                  reading: AuctionReading, most: int | None = None, skip: bool = True) -> WorldValues:
    """``candidates`` played by ``settings.policy`` on the first worlds of ``settings.seed``
    (``kernels.evaluate.judge_values``; the same worlds whatever the policy), and on the real layout with
    ``hindsight`` (``judge_layout``).  With ``skip``, a world of weight 0 (one the auction rules out) is
    not played, and worlds are drawn until ``worlds`` of them are played or ``most`` (``worlds`` when
    None) are drawn: as many worlds played as asked, on the worlds that fit the auction."""
    hs, ht, st = state_from_game(game)
    if len(game.bids) == game.rules.players:
        set_auction(st, np.array([0 if b is None else int(b) for b in game.bids], dtype=np.int64),
                    method_id(reading.bidding))
    policies = policy_ids(settings.policy, game.rules.players)
    exact = int(EXACT_BY_PLAYERS[game.rules.players])
    if game.rules.tricks - len(game.tricks) > exact:     # the solver plays the last tricks of each world only
        exact = int(ENDING_TRICKS[game.rules.players])
    k = len(candidates)
    most = max(most or worlds, worlds)
    out = WorldValues(np.zeros((most, k), dtype=np.int64), np.zeros((most, k), dtype=np.int64),
                      np.zeros(most), np.zeros(k, dtype=np.int64))
    hands = np.zeros((most, 2, game.rules.players + 1), dtype=np.uint64)
    picks = np.array(candidates, dtype=np.int64)
    truth_made = np.zeros(k, dtype=np.int64)
    drawn, end = 0, worlds
    with threads(settings.jobs):
        while True:
            first = drawn // JUDGE_CHUNK            # a chunk begun is drawn again whole: the same worlds
            over_rows(judge_values, judge_chunks(end) - first, first, hs, ht, st, picks, policies, settings.worlds,
                      np.uint64(settings.seed), exact, float(reading.noise), skip, out.scores[:end], out.made[:end],
                      out.weights[:end], hands[:end])
            drawn = end
            played = int(np.count_nonzero(out.weights[:drawn]))
            if played >= worlds or drawn >= most:
                break
            rate = max(played, 1) / drawn           # the share of the worlds drawn that fit the auction
            end = min(most, drawn + math.ceil(1.1 * (worlds - played) / rate))
        if hindsight:
            over_rows(judge_layout, k, hs, ht, st, picks, policies, settings.worlds, np.uint64(settings.seed), exact,
                      out.truth_scores, truth_made)
    return WorldValues(out.scores[:drawn], out.made[:drawn], out.weights[:drawn], out.truth_scores)


def controlled_options(candidates: list[int], card: int, searched: WorldValues, screen: WorldValues,
                       n: int) -> tuple[list[Option], Mean]:
    """The options of a card decision valued by the search on the first ``n`` worlds (``searched``), each
    with the heuristic's value of the same card (of the same difference, of the same chance) in the same
    worlds as its control variate, and the heuristic's on the other worlds of ``screen`` as the control's
    reference (``analyzer.stats.Moments.controlled``): the search's estimate, with most of its world-to-
    world noise gone where the two agree world by world.  Weighted by the auction as
    ``weighted_options``; best first; and the held-out loss of the card played, the same way."""
    k = len(candidates)
    w = screen.weights
    rest = w[n:]
    head = w[:n, None]
    here = Moments(4 * k + 1)
    here.add(np.column_stack([head * searched.scores, head * searched.made, head * screen.scores[:n],
                              head * screen.made[:n], w[:n]]))
    there = Moments(2 * k + 1)
    there.add(np.column_stack([rest[:, None] * screen.scores[n:], rest[:, None] * screen.made[n:], rest]))

    def value(numerator: dict[int, float]) -> Mean:
        """The searched combination ``numerator`` (over the searched columns) with the heuristic's same
        combination as its control."""
        control = {2 * k + (i % k) + (k if i >= k else 0): c for i, c in numerator.items()}
        reference = there.control_means([dict(numerator)], 2 * k)      # the same columns there
        return here.controlled(numerator, [control], reference, 4 * k)

    values = [value({j: 1.0}) for j in range(k)]
    played = candidates.index(card)
    best = _best(np.array([v.mean for v in values]), played)
    options = []
    for j, c in enumerate(candidates):
        made = value({k + j: 1.0})
        share = WeightedProportion(min(1.0, max(0.0, made.mean)), made.se, here.effective_n(4 * k))
        options.append(Option(C.TOKENS[c], values[j], share,
                              value({j: 1.0, best: -1.0}) if j != best else Mean(0.0, 0.0, n)))
    options.sort(key=lambda o: -o.score.mean)
    # The held-out loss (``held_out_picks``, the picks by the search's values), the heuristic's same
    # difference its control as above.
    picks = held_out_picks(searched.scores, w[:n], played)
    index = np.arange(len(w))
    parity_picks = picks[index % 2] if n >= 2 else np.full(len(w), played)
    searched_held = searched.scores[np.arange(n), picks] - searched.scores[:, played]
    screen_held = screen.scores[index, parity_picks] - screen.scores[:, played]
    held_here = Moments(3)
    held_here.add(np.column_stack([w[:n] * searched_held, w[:n] * screen_held[:n], w[:n]]))
    held_there = Moments(2)
    held_there.add(np.column_stack([rest * screen_held[n:], rest]))
    held = held_here.controlled({0: 1.0}, [{1: 1.0}], held_there.control_means([{0: 1.0}], 1), 2)
    return options, held


def weighted_options(candidates: list[int], card: int, scores: np.ndarray, made: np.ndarray,
                     weights: np.ndarray) -> tuple[list[Option], float, Mean]:
    """The options of a card decision from its worlds' values (``scores``/``made``, world by candidate)
    and the worlds' weights: weighted means (``Moments.ratio``, the importance-sampling ratio estimator),
    best first, Kish's effective number of worlds, and the held-out loss of the card played
    (``held_out_picks``)."""
    k = len(candidates)
    played = candidates.index(card)
    picks = held_out_picks(scores, weights, played)
    held = scores[np.arange(len(weights)), picks] - scores[:, played]
    rows = np.column_stack([weights[:, None] * scores, weights[:, None] * made, weights, weights * held])
    moments = Moments(2 * k + 2)
    moments.add(rows)
    w = 2 * k
    means = np.array([moments.ratio({j: 1.0}, w).mean for j in range(k)])
    best = _best(means, played)
    options = [Option(C.TOKENS[c], moments.ratio({j: 1.0}, w), moments.weighted_proportion(k + j, w),
                      moments.ratio({j: 1.0, best: -1.0} if j != best else {j: 0.0}, w)) for j, c in enumerate(candidates)]
    options.sort(key=lambda o: -o.score.mean)
    return options, moments.effective_n(w), moments.ratio({w + 1: 1.0}, w)


def held_out_picks(scores: np.ndarray, weights: np.ndarray, played: int) -> np.ndarray:
    """For each world, the candidate that is best on the other half of the worlds (even and odd
    indices), the card played where it ties for best there.  The best of several close cards, picked
    and valued on the same worlds, looks better than it is (its luck on those worlds counts for it);
    valued on the worlds that did not pick it, the loss of the card played against it is not inflated
    so (the held-out loss, ``analyzer.coach.verdicts.Decision.held_out``)."""
    n = len(weights)
    half = np.arange(n) % 2
    picks = np.full(n, played, dtype=np.int64)
    if n < 2:
        return picks
    for h in (0, 1):
        here = half == h
        total = weights[here].sum()
        if total > 0:
            picks[~here] = _best((weights[here, None] * scores[here]).sum(axis=0) / total, played)
    return picks


def _best(values: np.ndarray, played: int) -> int:
    """The index of the highest value, the choice made when it ties for the highest."""
    return played if values[played] >= values.max() else int(np.argmax(values))


def _exact_values(game: Game, candidates: list[int]) -> np.ndarray:
    """Each candidate's value for the seat to play under perfect play on the real layout (the endgame
    solver), oriented so that higher is better for that seat."""
    values = dict(solve(game).values)              # the seat's own score
    return np.array([values[c] for c in candidates])
