"""The chelem search (``pimc-chelem``): pimc-prior whose taker's side draws ``CHELEM_WORLDS`` worlds a decision
while its chelem is alive; the mixed model plays it where a chelem's announcement is the question."""

import numpy as np
import pytest

from analyzer.advice.choices import announces_chelem, call_options, chelem_options, poignee_options, taker_choices
from analyzer.advice.odds import fixed_hand
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import CHELEM_SEARCH, MIXED_SEARCH, MIXED_WORLDS, POLICY_IDS, Settings
from analyzer.simulate import rules_flags
from kernels import playout as K
from kernels.batch import advice_batch
from kernels.pimc import CHELEM_WORLDS, PIMC_CHELEM, PIMC_PRIOR, decision_worlds

# A hand that takes every trick about half the time from seat 2 in Garde sans (the chelem check's hands: a
# triple poignée's trumps and Kings).
HAND = Hand.parse("21 20 18 17 14 13 12 11 9 8 7 6 5 3 1 KH KD KC")
RULES = Rules(players=4)
TAKER = 1


def state(players: int = 4, trick: int = 0, won: int = 0, partner: int = -1, announced: int = 0) -> np.ndarray:
    """A state in trick ``trick`` (from 0), ``won`` tricks the taker's side's, a chelem ``announced`` (0 none,
    1 a chelem, 2 a petit chelem)."""
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    st[K.PLAYERS], st[K.TAKER], st[K.PARTNER], st[K.CHELEM] = players, TAKER, partner, announced
    st[K.TRICK], st[K.TAKER_TRICKS] = trick, won
    return st


@pytest.mark.parametrize("st, seat, policy, worlds, drawn", [
    (state(), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS),                 # the first trick
    (state(), 0, PIMC_CHELEM, 4, 4),                                  # a defender
    (state(trick=5, won=5), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS),   # every trick the taker's side's
    (state(trick=5, won=4), TAKER, PIMC_CHELEM, 4, 4),               # one lost
    (state(trick=5, won=4, announced=1), TAKER, PIMC_CHELEM, 4, 4),
    (state(trick=5, won=4, announced=2), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS),   # a petit chelem: one may go
    (state(trick=5, won=3, announced=2), TAKER, PIMC_CHELEM, 4, 4),
    (state(), TAKER, PIMC_CHELEM, 4 * CHELEM_WORLDS, 4 * CHELEM_WORLDS),   # never fewer than asked
    (state(), TAKER, PIMC_PRIOR, 4, 4),                               # another search
    (state(players=5, trick=2, won=2, partner=3), 3, PIMC_CHELEM, 8, CHELEM_WORLDS),   # the partner
    (state(players=5, trick=2, won=2, partner=3), 4, PIMC_CHELEM, 8, 8),
])
def test_the_taker_side_draws_the_chelems_worlds_while_it_has_taken_every_trick(st, seat, policy, worlds, drawn):
    assert decision_worlds(st, seat, policy, worlds) == drawn


def play(taker: str, defence: str, worlds: int, deals: int = 40) -> np.ndarray:
    """Result rows of ``deals`` deals of HAND announcing a chelem in Garde sans from seat 2, the taker's seat
    playing by ``taker``, the others by ``defence``."""
    fixed, unseen, slots = fixed_hand(HAND, TAKER, RULES.players)
    policies = np.full(RULES.players, POLICY_IDS[defence], dtype=np.int64)
    policies[TAKER] = POLICY_IDS[taker]
    results = np.zeros((deals, K.RESULT_SIZE), dtype=np.int64)
    advice_batch(fixed, unseen, slots, RULES.players, TAKER, int(Contract.GARDE_SANS), taker_choices(CH_CHELEM=1),
                 policies, worlds, np.uint64(11), np.arange(deals), True, rules_flags(RULES), results, -1,
                 np.empty((0, K.RESULT_SIZE), dtype=np.int64))
    return results


def test_only_the_takers_side_plays_otherwise():
    chelem = play(CHELEM_SEARCH, CHELEM_SEARCH, 2)
    assert np.array_equal(chelem, play(CHELEM_SEARCH, MIXED_SEARCH, 2))       # the defence as pimc-prior's
    took = np.isin(chelem[:, K.R_CHELEM], (1, 2, 5))
    assert 0 < took.sum() < len(took)
    prior = play(MIXED_SEARCH, MIXED_SEARCH, 2)
    assert not np.array_equal(took, np.isin(prior[:, K.R_CHELEM], (1, 2, 5)))


def test_the_mixed_model_searches_a_chelems_announcement_with_the_chelem_search():
    assert announces_chelem(chelem_options(RULES))
    assert not announces_chelem(poignee_options(HAND, RULES))
    assert not announces_chelem(call_options(Hand.parse("20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C")))
    mixed = Settings()
    chelem = mixed.for_contract(Contract.GARDE_SANS, 4, chelem=True)
    assert (chelem.policy, chelem.worlds, chelem.controlled) == (CHELEM_SEARCH, MIXED_WORLDS[4][1], True)
    assert chelem.play_model(4) == (f"{CHELEM_SEARCH}, {MIXED_WORLDS[4][1]} worlds per decision ({CHELEM_WORLDS} for "
                                    f"the taker's side until its chelem is lost)")
    assert mixed.for_contract(Contract.GARDE_SANS, 4).policy == MIXED_SEARCH
    assert mixed.for_contract(None, 3, chelem=True).policy == MIXED_SEARCH        # a pass: no taker's side
    heuristic = Settings(policy="heuristic")
    assert heuristic.for_contract(Contract.GARDE_SANS, 4, chelem=True) is heuristic
    wide = Settings(mixed_worlds=(64, 64)).for_contract(Contract.GARDE, 4, chelem=True)
    assert wide.play_model(4).startswith(f"{CHELEM_SEARCH}, 64 worlds per decision (64 for")
