"""PIMC with the exact endgame solver (``kernels.pimc.pimc_card_solving``): it changes only the
endings it solves, and like every policy it decides from what the seat may know."""

import random

import numpy as np
import pytest

from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.endgame import W_NODE_LIMIT, new_workspace
from kernels.pimc import NO_PAST, RACE_FIRST, RACE_STEP, pimc_card_solving
from tests.kernels.test_endgame import random_ending
from tests.kernels.test_pimc import _rehide, rollout_card


def endings(players, count, seed, tricks=(1, 3)):
    rng = random.Random(seed)
    for _ in range(count):
        yield random_ending(rng, players, rng.randint(*tricks))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_without_solving_it_is_the_rollout_search(players):
    w = new_workspace(10)
    for i, game in enumerate(endings(players, 10, seed=players)):
        hs, ht, st = state_from_game(game)
        expected = rollout_card(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i))
        # Solving from fewer tricks than are left changes nothing either.
        left = game.rules.tricks - len(game.tricks)
        for solve_tricks in (0, left - 1):
            got = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i), solve_tricks, w, False,
                                    False, st, NO_PAST, False, False, RACE_FIRST, RACE_STEP)
            assert got == expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_solved_decisions_ignore_hidden_cards(players):
    w = new_workspace(12)
    w[W_NODE_LIMIT] = 0
    changed = 0
    differs = 0
    for i, game in enumerate(endings(players, 30, seed=20 + players, tricks=(2, 4))):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        if st[K.CALLED] >= 0 and st[K.PARTNER_KNOWN] == 0 and seat == st[K.PARTNER]:
            continue      # the partner knows its side; rehiding may move the called card away from it
        card, _ = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i), 5, w, False, False, st,
                                    NO_PAST, False, False, RACE_FIRST, RACE_STEP)
        assert game.legal_cards() >> int(card) & 1
        differs += int(card != rollout_card(hs.copy(), ht.copy(), st.copy(), 8, 1, np.uint64(i))[0])
        for k in range(2):
            hs2, ht2, st2 = _rehide(hs, ht, st, seat, 100 * i + k)
            changed += int((hs2 != hs).any() or (ht2 != ht).any())
            again, _ = pimc_card_solving(hs2, ht2, st2, 8, 1, np.uint64(i), 5, w, False, False, st, NO_PAST, False,
                                         False, RACE_FIRST, RACE_STEP)
            assert again == card, f"ending {i}: the decision depends on hidden cards"
    assert changed > 5
    assert differs > 0          # the solver, not the rollouts, decided
