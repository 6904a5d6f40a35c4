"""The bridge from Python to the kernels: a deal's known cards (``KnownCards``: the hand at its seat, and any
other card known) and one contract played out on deals drawn around them (``simulate_contract``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from analyzer import cards as C
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import PIMC_WORLDS, search_arg
from analyzer.simulate import rules_flags
from analyzer.simulation.policies import kernel_id
from analyzer.simulation.threads import over_rows
from kernels import playout as K
from kernels.batch import advice_deals


class KnownCards(NamedTuple):
    """What the kernels deal around: each card's place (a seat, the chien's index, or -1 unseen), the
    unseen cards, and the place of each open slot, one per unseen card."""
    fixed: np.ndarray
    unseen: np.ndarray
    slots: np.ndarray


def fixed_hand(hand: Hand, seat: int, players: int, extra: dict[int, int] | None = None) -> KnownCards:
    """The known cards of a deal with ``hand`` at ``seat`` and the ``extra`` cards ({place: mask}) known too."""
    fixed = np.full(C.N_CARDS, -1, dtype=np.int8)
    for card in hand:
        fixed[card] = seat
    for place, mask in (extra or {}).items():
        for card in C.cards_of(mask):
            fixed[card] = place
    unseen = np.array([c for c in range(C.N_CARDS) if fixed[c] < 0], dtype=np.int64)
    rules = Rules(players=players)
    sizes = [rules.hand_size] * players + [rules.chien_size]
    slots = [p for p in range(players + 1) for _ in range(sizes[p] - int((fixed == p).sum()))]
    return KnownCards(fixed, unseen, np.array(slots, dtype=np.int64))


def policy_ids(policy: str, players: int) -> np.ndarray:
    """Every seat playing by ``policy``, as the kernels take it (one policy id per seat)."""
    return np.full(players, kernel_id(policy), dtype=np.int64)


def simulate_contract(hand: Hand, seat: int, contract: Contract, rules: Rules, policy: str, n: int, seed: int,
                      offset: int = 0, worlds: int = PIMC_WORLDS, *, declare: bool = True,
                      choices: np.ndarray | None = None, fixed_extra: dict[int, int] | None = None,
                      search_driver: bool = False, deals: np.ndarray | None = None, also: Contract | None = None,
                      also_rows: np.ndarray | None = None) -> np.ndarray:
    """Result rows (``kernels.playout`` layout) of deals ``offset … offset+n-1`` (or of stream indices
    ``deals``, n of them) with the hand's holder taking ``contract`` (``declare``: the seats show the
    poignées they hold; ``choices``: the taker's choices, ``kernels.playout.start_with_choices``;
    ``fixed_extra``: more known cards, as {place: mask}, e.g. the chien seen; ``search_driver``: through
    the driver with the search compiled in even when ``policy`` does not search, ``Settings.may_search``).
    ``also``: the same play scored as that contract too, into ``also_rows`` (n rows; Prise and Garde
    are played alike: ``kernels.playout.score_again``)."""
    players = rules.players
    fixed, unseen, slots = fixed_hand(hand, seat, players, fixed_extra)
    results = np.zeros((n, K.RESULT_SIZE), dtype=np.int64)
    policies = policy_ids(policy, players)
    over_rows(advice_deals, n, fixed, unseen, slots, players, seat, int(contract),
              choices if choices is not None else K.auto_choices(), policies, worlds, np.uint64(seed),
              np.arange(offset, offset + n) if deals is None else deals, declare, rules_flags(rules), results,
              -1 if also is None else int(also),
              np.empty((0, K.RESULT_SIZE), dtype=np.int64) if also_rows is None else also_rows,
              search_arg(policies, always=search_driver))
    return results
