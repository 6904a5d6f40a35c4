"""The users' search called through its pointer (``kernels.pimc.search_card``): the same card and RNG state
as the search linked in, from several threads at once; a caller's code holds a call, not the search; other
argument types are refused where the caller compiles; a fresh process loads the search on its first call."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

import kernels
from analyzer.rules import Rules
from analyzer.simulate import state_from_game
from kernels.endgame import new_workspace
from kernels.pimc import NO_PAST, RACE_FIRST, RACE_STEP, SOLVE_TRICKS, pimc_card_solving, search_card
from tests.kernels.test_pimc import positions


@njit(nogil=True)
def through_pointer(hs, ht, st, worlds, state, solve_tricks, w, race):
    return search_card(hs, ht, st, worlds, np.int64(1), state, solve_tricks, w, np.bool_(True), None, st, None, race,
                       np.bool_(True), np.int64(RACE_FIRST), np.int64(RACE_STEP))


@njit(nogil=True)
def linked(hs, ht, st, worlds, state, solve_tricks, w, race):
    return pimc_card_solving(hs, ht, st, worlds, np.int64(1), state, solve_tricks, w, np.bool_(True), None, st, None,
                             race, np.bool_(True), np.int64(RACE_FIRST), np.int64(RACE_STEP))


@pytest.mark.kernels
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_pointer_plays_the_linked_search_s_card_from_several_threads(players):
    games = [state_from_game(g) for g in positions(players, 24, seed=90 + players, rules=Rules(players=players))]

    def call(kernel, i):
        hs, ht, st = games[i]
        return kernel(hs.copy(), ht.copy(), st.copy(), 6, np.uint64(i), SOLVE_TRICKS[players], new_workspace(12),
                      i % 2 == 0)

    with ThreadPoolExecutor(3) as pool:
        pointed = list(pool.map(lambda i: call(through_pointer, i), range(len(games))))
    assert pointed == [call(linked, i) for i in range(len(games))]
    assert kernels.SEARCH_POINTER.value                    # loaded by the first call


@pytest.mark.kernels
def test_a_caller_holds_a_call_not_the_search():
    games = [state_from_game(g) for g in positions(4, 1, seed=3, rules=Rules(players=4))]
    hs, ht, st = games[0]
    args = (hs, ht, st, 4, np.uint64(1), 0, new_workspace(1), False)
    through_pointer(*args)
    linked(*args)
    defines = {name: sum(line.startswith("define") and "pimc_card_solving" in line
                         for line in kernel.inspect_llvm(kernel.signatures[0]).splitlines())
               for name, kernel in (("pointer", through_pointer), ("linked", linked))}
    assert defines == {"pointer": 0, "linked": 1}


def test_other_argument_types_are_refused_where_the_caller_compiles():
    @njit
    def weighed(hs, ht, st, w):
        return search_card(hs, ht, st, np.int64(4), np.int64(1), np.uint64(1), np.int64(0), w, np.bool_(False),
                           np.bool_(False), st, NO_PAST, np.bool_(False), np.bool_(False), np.int64(RACE_FIRST),
                           np.int64(RACE_STEP))

    hs, ht, st = state_from_game(next(positions(4, 1, seed=3, rules=Rules(players=4))))
    with pytest.raises(TypingError, match="users' search's types"):
        weighed(hs, ht, st, new_workspace(1))


@pytest.mark.kernels
def test_a_fresh_process_loads_the_search_at_its_first_call():
    script = ("import kernels, numpy as np\n"
              "from tests.kernels.test_search_pointer import through_pointer, positions\n"
              "from analyzer.rules import Rules\n"
              "from analyzer.simulate import state_from_game\n"
              "from kernels.endgame import new_workspace\n"
              "hs, ht, st = state_from_game(next(positions(4, 1, seed=3, rules=Rules(players=4))))\n"
              "before = kernels.SEARCH_POINTER.value\n"
              "card, _ = through_pointer(hs, ht, st, 4, np.uint64(1), 0, new_workspace(1), False)\n"
              "print(before, bool(kernels.SEARCH_POINTER.value), card >= 0)\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=root).stdout
    assert out.split() == ["None", "True", "True"]
