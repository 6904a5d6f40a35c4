"""Kernels called through a pointer to their one compiled copy (``kernels/shared.py``): the users' search
(``kernels.pimc.search_card``), ``advance``, ``deal_to_play`` and ``start_with_choices``
(``kernels.playout.*_shared``) give what the kernels themselves give, from several threads at once; a caller's code holds a call, not the callee; other
argument types are refused where the caller compiles; a fresh process loads a callee at its first call."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from analyzer.rules import Rules
from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.endgame import new_workspace
from kernels.pimc import (NO_PAST, RACE_FIRST, RACE_STEP, SOLVE_TRICKS, USERS_SEARCH, pimc_card_solving,
                          search_card)
from kernels.batch import places_to_words
from kernels.playout import ADVANCE, DEAL_TO_PLAY, advance_shared, deal_to_play_shared, start_with_choices_shared
from tests.kernels.test_pimc import positions


@njit(nogil=True)
def search_through_pointer(hs, ht, st, worlds, state, solve_tricks, w, race):
    return search_card(hs, ht, st, worlds, np.int64(1), state, solve_tricks, w, np.bool_(True), None, st, None, race,
                       np.bool_(True), np.int64(RACE_FIRST), np.int64(RACE_STEP))


@njit(nogil=True)
def advance_through_pointer(hs, ht, st, policies, state, max_cards, result, trace):
    return advance_shared(hs, ht, st, policies, state, st[:0], max_cards, result, trace)


@njit(nogil=True)
def deal_through_pointer(hs, ht, st, players, taker, contract, flags, declare):
    deal_to_play_shared(hs, ht, st, players, taker, contract, flags, declare)


@njit(nogil=True)
def choices_through_pointer(hs, ht, st, players, taker, contract, choices, flags, declare):
    start_with_choices_shared(hs, ht, st, players, taker, contract, choices, flags, declare)


def _games(players, count, seed):
    return [state_from_game(g) for g in positions(players, count, seed=seed, rules=Rules(players=players))]


@pytest.mark.kernels
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_search_through_its_pointer_plays_its_card_from_several_threads(players):
    games = _games(players, 24, 90 + players)

    def pointed(i):
        hs, ht, st = games[i]
        return search_through_pointer(hs.copy(), ht.copy(), st.copy(), 6, np.uint64(i), SOLVE_TRICKS[players],
                                      new_workspace(12), i % 2 == 0)

    def direct(i):          # the users' search's compiled copy, called from Python
        hs, ht, st = games[i]
        return pimc_card_solving(hs.copy(), ht.copy(), st.copy(), 6, 1, np.uint64(i), SOLVE_TRICKS[players],
                                 new_workspace(12), True, None, st.copy(), None, i % 2 == 0, True, RACE_FIRST,
                                 RACE_STEP)

    with ThreadPoolExecutor(3) as pool:
        got = list(pool.map(pointed, range(len(games))))
    assert got == [direct(i) for i in range(len(games))]
    assert USERS_SEARCH.pointer.value                      # loaded by the first call


@pytest.mark.kernels
@pytest.mark.parametrize("players", [3, 4, 5])
def test_advance_through_its_pointer_plays_what_advance_plays(players):
    for i, (hs, ht, st) in enumerate(_games(players, 30, 70 + players)):
        policies = np.full(players, K.HEURISTIC if i % 3 else K.RANDOM, dtype=np.int64)
        outs = []
        for kernel in (advance_through_pointer, lambda *a: K.advance(*a[:5], a[2][:0], *a[5:])):
            s, t, position = hs.copy(), ht.copy(), st.copy()
            result, trace = np.zeros(K.RESULT_SIZE, dtype=np.int64), np.zeros(80, dtype=np.int16)
            state, played = kernel(s, t, position, policies, np.uint64(i), np.int64(K.TO_THE_END if i % 2 else 3),
                                   result, trace)
            outs.append((int(state), int(played), s.tolist(), t.tolist(), position.tolist(), result.tolist(),
                         trace[:played].tolist()))
        assert outs[0] == outs[1]


@pytest.mark.kernels
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_deal_s_start_through_its_pointer_is_the_kernel_s(players):
    rng = np.random.default_rng(players)
    size = Rules(players=players).hand_size
    for i in range(40):
        places = np.minimum(np.argsort(rng.permutation(78)) // size, players).astype(np.int8)
        taker, contract = int(rng.integers(-1, players)), int(rng.integers(K.PRISE, K.GARDE_CONTRE + 1))
        flags = rng.integers(0, 2, K.FLAGS_SIZE).astype(np.int64)
        choices = K.auto_choices()
        if i % 2:
            choices[K.CH_POIGNEE] = 0                      # the caller's: a simple poignée if held
        declare = bool(i % 3)
        outs = []
        for start in (lambda *a: deal_through_pointer(*a[:6], a[7], a[8]),
                      lambda *a: K.deal_to_play(*a[:6], a[7], a[8]),
                      lambda *a: choices_through_pointer(*a) if a[4] >= 0 else None,
                      lambda *a: K.start_with_choices(*a) if a[4] >= 0 else None):
            hs, ht = np.zeros(players + 1, dtype=np.uint64), np.zeros(players + 1, dtype=np.uint64)
            places_to_words(places, players, hs, ht)
            st = np.zeros(K.STATE_SIZE, dtype=np.int64)
            start(hs, ht, st, players, taker, contract, choices, flags, declare)
            outs.append((hs.tolist(), ht.tolist(), st.tolist()))
        assert outs[0] == outs[1] and outs[2] == outs[3]


@pytest.mark.kernels
def test_a_caller_holds_a_call_not_the_callee():
    hs, ht, st = _games(4, 1, 3)[0]
    search_through_pointer(hs.copy(), ht.copy(), st.copy(), 4, np.uint64(1), 0, new_workspace(1), False)
    advance_through_pointer(hs.copy(), ht.copy(), st.copy(), np.zeros(4, dtype=np.int64), np.uint64(1), np.int64(1),
                            np.zeros(K.RESULT_SIZE, dtype=np.int64), np.zeros(1, dtype=np.int16))
    # Numba's mangled name of a kernel: module and name, each after its length (a linked copy is defined)
    deal_through_pointer.compile(DEAL_TO_PLAY.arg_types)
    for kernel, shared, mangled in ((search_through_pointer, USERS_SEARCH, "7kernels4pimc17pimc_card_solvingB"),
                                    (advance_through_pointer, ADVANCE, "7kernels7playout7advanceB"),
                                    (deal_through_pointer, DEAL_TO_PLAY, "7kernels7playout12deal_to_playB")):
        lines = kernel.inspect_llvm(kernel.signatures[0]).splitlines()
        assert not [line for line in lines if line.startswith("define") and mangled in line]
        assert any(shared.symbol in line for line in lines)


def test_other_argument_types_are_refused_where_the_caller_compiles():
    @njit
    def weighed(hs, ht, st, w):
        return search_card(hs, ht, st, np.int64(4), np.int64(1), np.uint64(1), np.int64(0), w, np.bool_(False),
                           np.bool_(False), st, NO_PAST, np.bool_(False), np.bool_(False), np.int64(RACE_FIRST),
                           np.int64(RACE_STEP))

    hs, ht, st = _games(4, 1, 3)[0]
    with pytest.raises(TypingError, match="search takes exactly"):
        weighed(hs, ht, st, new_workspace(1))


@pytest.mark.kernels
def test_a_fresh_process_loads_the_search_at_its_first_call():
    script = ("import numpy as np\n"
              "from tests.kernels.test_shared_kernels import _games, search_through_pointer\n"
              "from kernels.endgame import new_workspace\n"
              "from kernels.pimc import USERS_SEARCH\n"
              "hs, ht, st = _games(4, 1, 3)[0]\n"
              "before = USERS_SEARCH.pointer.value\n"
              "card, _ = search_through_pointer(hs, ht, st, 4, np.uint64(1), 0, new_workspace(1), False)\n"
              "print(before, bool(USERS_SEARCH.pointer.value), card >= 0)\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=root).stdout
    assert out.split() == ["None", "True", "True"]
