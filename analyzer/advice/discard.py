"""Choosing the discard (écart) by simulation: legal candidates, each played out on the same deals.

Candidates are the heuristic discard (``kernels/discard.py``), every legal discard one swap away from
it, and the discards that empty a suit.  Each is played out by the heuristic policy on the same
sampled deals (common random numbers: the deals and streams are shared, so the differences between
candidates are measured much more precisely than the scores themselves).  The taker's expected
score ranks them.  Under the mixed model the heuristic's ``SEARCHED`` best are then played again by
the model's search for the contract on the first of those deals, and ranked by that: the heuristic
screens dozens of candidates quickly, the search decides between the few it leaves (the heuristic's own
first choice can be far from deep search's).  The search plays them ``SEARCH_CHUNK`` deals at a time
(``race``), up to ``SEARCHED_DEALS``, its deals going to the candidates not ``RACE_BEHIND_Z`` standard
errors behind its best, within a budget of plays by player count: close candidates need many deals to part
(docs/design.md, "The default: the heuristic where it agrees, a short search where it does not";
docs/journal/calibration.md, "The taker's choices against deep search").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import check_discard, discard_options
from analyzer.hand import Hand
from analyzer.notation import format_cards
from analyzer.rules import Contract, Rules
from analyzer.runs import MIXED, PLAY_SEED_SALT, Settings, clearly_behind, search_arg, threads
from analyzer.sampling import sample_deals
from analyzer.simulate import rules_flags
from analyzer.simulation.bridge import policy_ids
from analyzer.simulation.threads import over_rows
from analyzer.stats import Mean
from kernels.batch import discard_deals
from kernels.discard import heuristic_discard

MAX_CANDIDATES = 120
DEALS = 2000            # deals every candidate is played on, by default
MAX_DEALS = 200_000     # at most (the scores of every candidate on every deal are kept: 200 MB at the most)
SEARCHED = 5            # under the mixed model, the heuristic's best candidates the search plays again
SEARCH_CHUNK = 300      # on the first of the same deals, so many at a time (``race``),
SEARCHED_DEALS = 1200   # up to so many,
# and at most so many plays (a candidate on a deal) in all, by player count: a command within 10 s on two
# cores (docs/journal/calibration.md, "The taker's choices against deep search").
SEARCH_BUDGET: dict[int, int] = {3: 3000, 4: 2400, 5: 3300}
# A candidate stops once its score is so many standard errors behind the best one's on the deals played
# (``bid`` stops an option at ``analyzer.runs.BEHIND_Z``, 4: there the stopped option's figures are
# reported; here only the choice is).  2 agreed with deep search as 4 did, for fewer plays
# (docs/journal/calibration.md, "The taker's choices against deep search").
RACE_BEHIND_Z = 2.0


@dataclass(frozen=True)
class DiscardChoice:
    discard: int               # mask of the cards put aside
    score: Mean                # the taker's score (on the deals it was played on: ``race``)
    vs_best: Mean              # difference with the best candidate on the same deals (of its stage)
    shown_trumps: int          # trumps that must be shown (discarded because forced)
    searched: bool = False     # played by the search (else its score is the heuristic's)


@dataclass(frozen=True)
class DiscardAdvice:
    """The best discards of a hand after taking the chien (``discard_advice``), and what the rules leave."""
    hand: Hand
    chien: Hand
    contract: Contract
    choices: list[DiscardChoice]   # the searched first (when the mixed model searches), then the heuristic's
    play_model: str                # the play behind the ranking, in words (``discard_model``)
    deals: int                     # deals every candidate was played on by the screening play
    searched: bool                 # the best few were played again by the search, which ranks them
    kept: int                      # mask of the Kings and oudlers held, which may not go
    forced: int                    # trumps that must go (and are shown): too few other cards may

    @property
    def searched_deals(self) -> int:
        """The searched deals of the best searched discard (the most: the others may have stopped behind)."""
        return max((c.score.n for c in self.choices if c.searched), default=0)

    def rule(self) -> str:
        """What may not go and which trumps must, in words."""
        return (f"may not go: {format_cards(self.kept) or 'none held'} (Kings and oudlers); "
                + (f"{self.forced} trump(s) must go and are shown" if self.forced else "no trump may go"))

    def rows(self) -> list[dict]:
        return [{"discard": format_cards(c.discard), "expected_score": c.score.mean, "se": c.score.se,
                 "n": c.score.n, "vs_best": c.vs_best.mean, "vs_best_se": c.vs_best.se,
                 "shown_trumps": format_cards(c.shown_trumps), "searched": c.searched} for c in self.choices]

    def as_dict(self) -> dict:
        return {"hand": str(self.hand), "chien": str(self.chien), "contract": self.contract.token,
                "play_model": self.play_model, "deals": self.deals, "searched_deals": self.searched_deals,
                "rules": self.rule(), "discards": self.rows()}


def discard_advice(hand: Hand, chien: Hand, contract: Contract, rules: Rules, *, seat: int = 0,
                   settings: Settings = Settings(deals=DEALS), top: int = 5) -> DiscardAdvice:
    """The ``top`` discards of ``hand`` after taking ``chien`` (``best_discards``), with the play behind
    them and what the rules leave (the Kings and oudlers kept, the trumps that must go)."""
    choices = best_discards(hand.mask, chien.mask, contract, rules, seat, settings, top)
    both = hand.mask | chien.mask
    free, _ = discard_options(both)
    return DiscardAdvice(hand, chien, contract, choices, discard_model(settings, contract, rules.players),
                         discard_play(settings, contract).deals, search_stage(settings, contract, rules.players)
                         is not None, both & (C.mask_of(C.KINGS) | C.OUDLER_BITS),
                         max(0, rules.chien_size - free.bit_count()))


def heuristic(hand: int, size: int) -> int:
    s, t = heuristic_discard(np.uint64(hand & C.SUIT_BITS), np.uint64(hand >> C.FIRST_TRUMP), size)
    return int(s) | int(t) << C.FIRST_TRUMP


def candidate_discards(hand: int, size: int) -> list[int]:
    """Legal discards worth comparing, the heuristic's first."""
    base = heuristic(hand, size)
    free, trumps = discard_options(hand)
    pool = free if free.bit_count() >= size else free | trumps
    out = [base]
    seen = {base}

    def add(d: int) -> None:
        if d not in seen and len(out) < MAX_CANDIDATES:
            try:
                check_discard(hand, d, size)
            except ValueError:
                return
            seen.add(d)
            out.append(d)

    for suit in range(C.N_SUITS):          # empty a suit, filled up in the heuristic's order
        cards = free & C.suit_mask(suit)
        if 0 < cards.bit_count() <= size and not hand >> C.KINGS[suit] & 1:
            rest = [c for c in C.cards_of(base) if not cards >> c & 1]
            add(cards | C.mask_of(rest[:size - cards.bit_count()]))
    for out_card in C.cards_of(base):
        for in_card in C.cards_of(pool & ~base):
            add(base & ~(1 << out_card) | 1 << in_card)
    return out


def discard_play(settings: Settings, contract: Contract) -> Settings:
    """The settings a discard's candidates are played with: these, but under the mixed model the
    heuristic at every player count (the search then plays the best few again: ``search_stage``): at 3
    players the mixed model searches Prise and Garde, and dozens of candidates on the same deals would
    take minutes instead of a second."""
    if not contract.chien_shown:
        raise ValueError(f"{contract.token}: there is no discard (the chien is not taken)")
    return settings.with_(policy="heuristic", mixed_worlds=None) if settings.policy == MIXED else settings


def search_stage(settings: Settings, contract: Contract, players: int) -> Settings | None:
    """Under the mixed model, the settings the heuristic's ``SEARCHED`` best candidates are played again
    with (the mixed model's search for ``contract``, on at most ``SEARCHED_DEALS`` deals: ``race``); else None."""
    if settings.policy != MIXED:
        return None
    search = settings.for_contract(contract, players)
    return search.with_(deals=min(settings.deals or DEALS, SEARCHED_DEALS), control=False)


def discard_model(settings: Settings, contract: Contract, players: int) -> str:
    """The play behind a discard's ranking, in words."""
    screen = discard_play(settings, contract)
    search = search_stage(settings, contract, players)
    words = f"{screen.play_model(players)}, every candidate on {screen.deals or DEALS:,} deals"
    if search is not None:
        words += f"; its best {SEARCHED} played again by {search.play_model(players)}, which ranks them, on "
        words += (f"{search.deals:,} of them" if search.deals <= SEARCH_CHUNK else
                  f"up to {search.deals:,} of them, {SEARCH_CHUNK} at a time while they are close "
                  f"({SEARCH_BUDGET[players]:,} plays at most)")
    return words


def best_discards(hand: int, chien: int, contract: Contract, rules: Rules, seat: int = 0,
                  settings: Settings = Settings(deals=DEALS), top: int = 5, *,
                  include: int | None = None) -> list[DiscardChoice]:
    """The ``top`` discards by the taker's expected score (seat ``seat`` takes ``contract``), every
    candidate played on the same ``settings.deals`` deals (``DEALS`` when None); under the mixed model
    the heuristic's ``SEARCHED`` best (and ``include``) played again by the search (``search_stage``,
    ``race``) and listed first, ranked by it: those it played to the end by their scores, then those it
    stopped, the later first, each valued on the deals it was played on.  ``include``, a legal discard,
    is valued with them and listed last if it is not among the ``top``.  ``settings.progress`` hears the
    search stage's plays (a candidate on a deal) after each of its chunks."""
    screen = discard_play(settings, contract)        # refuses a contract without a discard
    deals = screen.deals or DEALS
    if deals > MAX_DEALS:
        raise TarotError(f"discard compares its candidates on at most {MAX_DEALS:,} deals, got {deals:,}")
    size = rules.chien_size
    both = hand | chien
    candidates = candidate_discards(both, size)
    if include is not None and include not in candidates:
        check_discard(both, include, size)
        candidates.append(include)
    places = sample_deals(rules.players, deals, screen.seed, fixed={seat: hand, "chien": chien},
                          exclude_petit_sec=rules.petit_sec == "annul")
    scores = _scores(places, candidates, rules, seat, contract, screen)
    order = [int(j) for j in np.argsort(-scores.mean(axis=0), kind="stable")]

    def choice(j: int, own: np.ndarray, best: np.ndarray, searched: bool) -> DiscardChoice:
        """Candidate ``j`` by its scores ``own`` and those of its stage's best on the same deals."""
        return DiscardChoice(candidates[j], Mean.of(own), Mean.of(own - best), candidates[j] & C.TRUMP_BITS, searched)

    listed, picked = [], []
    search = search_stage(settings, contract, rules.players)
    if search is not None:
        picked = order[:SEARCHED]
        if include is not None and candidates.index(include) not in picked:
            picked.append(candidates.index(include))

        plays = [0]

        def play(offset: int, n: int, columns: list[int]) -> np.ndarray:
            scored = _scores(places[offset:offset + n], [candidates[picked[k]] for k in columns], rules, seat,
                             contract, search, offset)
            plays[0] += n * len(columns)
            if settings.progress:
                settings.progress(plays[0], None)       # no total: the race may stop short of its budget
            return scored

        raced, played = race(play, len(picked), search.deals, SEARCH_BUDGET[rules.players])
        ranks = sorted(range(len(picked)), key=lambda k: (-played[k], -raced[:played[k], k].mean()))
        listed = [choice(picked[k], raced[:played[k], k], raced[:played[k], ranks[0]], True) for k in ranks]
    listed += [choice(j, scores[:, j], scores[:, order[0]], False) for j in order if j not in picked]
    shown = listed[:top]
    if include is not None and include not in [c.discard for c in shown]:
        shown.append(next(c for c in listed if c.discard == include))
    return shown


def race(play: Callable[[int, int, list[int]], np.ndarray], count: int, deals: int, budget: int,
         chunk: int = SEARCH_CHUNK, z: float = RACE_BEHIND_Z) -> tuple[np.ndarray, list[int]]:
    """Candidates 0 … ``count``−1 played on the same deals ``chunk`` at a time, ``play(offset, n, columns)``
    giving the scores of deals ``offset`` … ``offset``+n−1 (rows) of candidates ``columns``: every one on
    the first chunk, then those not ``z`` standard errors behind the best so far (``analyzer.runs.clearly_behind``,
    on the deals played), until one is left, ``deals`` deals, or ``budget`` plays (a candidate on a deal;
    the last chunk as long as the budget lets every candidate still in play have).  The scores (a
    stopped candidate's rows past its stop 0) and the deals each was played on."""
    scores = np.zeros((deals, count), dtype=np.int64)
    played = [0] * count
    live, n, spent = list(range(count)), 0, 0
    while n < deals:
        step = min(chunk, deals - n) if n == 0 else min(chunk, deals - n, (budget - spent) // len(live))
        if step <= 0:
            break
        scores[n:n + step, live] = play(n, step, live)
        n += step
        spent += step * len(live)
        for k in live:
            played[k] = n
        lead = max(live, key=lambda k: scores[:n, k].mean())
        live = [k for k in live if k == lead or not clearly_behind(Mean.of(scores[:n, lead] - scores[:n, k]), z)]
        if len(live) == 1:
            break
    return scores, played


def _scores(places: np.ndarray, discards: list[int], rules: Rules, seat: int, contract: Contract,
            settings: Settings, offset: int = 0) -> np.ndarray:
    """The taker's score of each deal of ``places`` (rows) with each of ``discards`` (columns), played by
    ``settings``' policy on the same streams (deal i on stream ``offset`` + i: a chunk of a longer run)."""
    ds = np.array([d & C.SUIT_BITS for d in discards], dtype=np.uint64)
    dt = np.array([d >> C.FIRST_TRUMP for d in discards], dtype=np.uint64)
    scores = np.zeros((places.shape[0], len(discards)), dtype=np.int64)
    policies = policy_ids(settings.policy, rules.players)
    with threads(settings.jobs):
        over_rows(discard_deals, places.shape[0], places, rules.players, seat, int(contract), ds, dt, policies,
                  settings.worlds, np.uint64(settings.seed ^ PLAY_SEED_SALT), offset, True, rules_flags(rules), scores,
                  search_arg(policies))
    return scores
