"""Choosing the discard (écart) by simulation: legal candidates, each played out on the same deals.

Candidates are the heuristic discard (``kernels/discard.py``), every legal discard one swap away from
it, and the discards that empty a suit.  Each is played out by the heuristic policy on the same
sampled deals (common random numbers: the deals and streams are shared, so the differences between
candidates are measured much more precisely than the scores themselves).  The taker's expected
score ranks them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import check_discard, discard_options
from analyzer.rules import Contract, Rules
from analyzer.runs import MIXED, PLAY_SEED_SALT, POLICY_IDS, Settings, searching, threads
from analyzer.sampling import sample_deals
from analyzer.simulate import rules_flags
from analyzer.stats import Mean
from kernels.batch import discard_batch, discard_batch_no_search
from kernels.discard import heuristic_discard

MAX_CANDIDATES = 120
DEALS = 2000            # deals every candidate is played on, by default
MAX_DEALS = 200_000     # at most (the scores of every candidate on every deal are kept: 200 MB at the most)


@dataclass(frozen=True)
class DiscardChoice:
    discard: int               # mask of the cards put aside
    score: Mean                # the taker's score
    vs_best: Mean              # difference with the best candidate on the same deals
    shown_trumps: int          # trumps that must be shown (discarded because forced)


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
    heuristic (``Settings.for_contract``'s Prise and Garde at 4 and 5 players) at every player count: at 3
    players the mixed model searches Prise and Garde, and dozens of candidates on the same deals would
    take minutes instead of a second."""
    if not contract.chien_shown:
        raise ValueError(f"{contract.token}: there is no discard (the chien is not taken)")
    return settings.with_(policy="heuristic", mixed_worlds=None) if settings.policy == MIXED else settings


def best_discards(hand: int, chien: int, contract: Contract, rules: Rules, seat: int = 0,
                  settings: Settings = Settings(deals=DEALS), top: int = 5,
                  include: int | None = None) -> list[DiscardChoice]:
    """The ``top`` discards by the taker's expected score (seat ``seat`` takes ``contract``), every
    candidate played on the same ``settings.deals`` deals (``DEALS`` when None); ``include``, a legal
    discard, is valued with them and listed last if it is not among the ``top``."""
    settings = discard_play(settings, contract)        # refuses a contract without a discard
    deals = settings.deals or DEALS
    if deals > MAX_DEALS:
        raise TarotError(f"discard compares its candidates on at most {MAX_DEALS:,} deals, got {deals:,}")
    size = rules.chien_size
    both = hand | chien
    candidates = candidate_discards(both, size)
    if include is not None and include not in candidates:
        check_discard(both, include, size)
        candidates.append(include)
    places = sample_deals(rules.players, deals, settings.seed, fixed={seat: hand, "chien": chien},
                          exclude_petit_sec=rules.petit_sec == "annul")
    masks = np.array(candidates, dtype=object)
    ds = np.array([d & C.SUIT_BITS for d in masks], dtype=np.uint64)
    dt = np.array([d >> C.FIRST_TRUMP for d in masks], dtype=np.uint64)
    scores = np.zeros((deals, len(candidates)), dtype=np.int64)
    policies = np.full(rules.players, POLICY_IDS[settings.policy], dtype=np.int64)
    with threads(settings.jobs):
        batch = discard_batch if searching(policies) else discard_batch_no_search
        batch(places, rules.players, seat, int(contract), ds, dt, policies, settings.worlds,
              np.uint64(settings.seed ^ PLAY_SEED_SALT), 0, True, rules_flags(rules), scores)
    means = scores.mean(axis=0)
    best = int(np.argmax(means))
    order = list(np.argsort(-means, kind="stable")[:top])
    if include is not None and candidates.index(include) not in order:
        order.append(candidates.index(include))
    return [DiscardChoice(candidates[j], Mean.of(scores[:, j]), Mean.of(scores[:, j] - scores[:, best]),
                          candidates[j] & C.TRUMP_BITS) for j in order]
