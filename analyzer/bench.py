"""The benchmark behind ``tarot-analyzer bench``: the kernels' throughput and first-call time.

* ``deals_per_s``: 4 players, one 18-card hand fixed, the other 60 cards dealt, petit sec excluded;
* ``random_playouts_per_s``: 4 players, deal included, 18 tricks of uniformly random legal play,
  Garde by the fixed hand with the heuristic discard, scores computed;
* ``heuristic_playouts_per_s``: the same with the heuristic card play;
* ``pimc_deal_s``: one whole 4-player deal with every seat deciding by determinized search at the
  default settings, the last tricks of each world solved exactly (mean over a few deals, one
  thread); ``pimc_uniform_deal_s`` the same with heuristic rollouts to the end (``pimc-uniform``),
  ``pimc_plays_deal_s`` that with its worlds resampled by the cards played (``pimc-plays``; not in
  ``--quick``, which ``warm`` runs: that search is compiled only for it and ``match``);
* ``endgame_ms_<k>_tricks``: the exact endgame solver (``kernels/endgame.py``) on 4-player endings of k
  tricks (the deal played by the heuristic until k tricks are left, Garde by a seat in turn): the
  median milliseconds to value every legal card of the seat to lead, one thread (a solve stopped
  past 50 million nodes counts as slower than all others);
* ``first_call_s``: a fresh Python process importing the kernels and making one small call of each
  (compilation, or loading the on-disk cache).

Each throughput is the best of a few repetitions after a warm-up call, at one thread and at the
requested number of threads.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

from analyzer import cards as C
from analyzer.notation import parse_mask
from analyzer.runs import PIMC_ROLLOUTS, PIMC_WORLDS
from analyzer.simulation.threads import over_rows
from kernels import playout as K
from kernels.batch import deal_and_play_batch, places_to_words, sample_batch
from kernels.deals import deal_into, stream_state
from kernels.endgame import MAX_MOVES, W_NODE_LIMIT, card_values, new_workspace
from kernels.pimc import INFER, PIMC_PLAYS, PIMC_UNIFORM, play_out_search

FFT = np.zeros(K.FLAGS_SIZE, dtype=np.int64)      # the rule variants: FFT's
BENCH_HAND = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C"
PLAYERS = 4


def _setup():
    fixed = np.full(C.N_CARDS, -1, dtype=np.int8)
    for card in C.cards_of(parse_mask(BENCH_HAND)):
        fixed[card] = 0
    unseen = np.array([c for c in range(C.N_CARDS) if fixed[c] < 0], dtype=np.int64)
    slots = np.array([1] * 18 + [2] * 18 + [3] * 18 + [4] * 6, dtype=np.int64)
    return fixed, unseen, slots


def _best_rate(fn, n: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t)
    return n / best


def deals_rate(n: int = 2_000_000, repeats: int = 3) -> float:
    fixed, unseen, slots = _setup()
    out = np.empty((n, C.N_CARDS), dtype=np.int8)
    tries = np.empty(n, dtype=np.int64)

    def run(k):
        sample_batch(fixed, unseen, slots, PLAYERS, True, np.uint64(1), 0, out[:k], tries[:k])

    run(100)
    return _best_rate(run, n, repeats)


def playouts_rate(policy: int, n: int, repeats: int = 3) -> float:
    fixed, unseen, slots = _setup()
    policies = np.full(PLAYERS, policy, dtype=np.int64)
    results = np.empty((n, K.RESULT_SIZE), dtype=np.int64)

    def run(k):
        over_rows(deal_and_play_batch, k, fixed, unseen, slots, PLAYERS, 0, K.GARDE, policies, np.uint64(1), 0,
                  True, FFT, results)

    run(100)
    return _best_rate(run, n, repeats)


def pimc_deal_seconds(deals: int = 6, worlds: int = PIMC_WORLDS, rollouts: int = PIMC_ROLLOUTS,
                      policy: int = K.PIMC) -> float:
    """Mean seconds for a whole 4-player deal with every seat on PIMC (``policy``: or another search)."""
    fixed, unseen, slots = _setup()
    places = np.empty(C.N_CARDS, dtype=np.int8)
    hs = np.empty(PLAYERS + 1, dtype=np.uint64)
    ht = np.empty(PLAYERS + 1, dtype=np.uint64)
    st = np.empty(K.STATE_SIZE, dtype=np.int64)
    result = np.empty(K.RESULT_SIZE, dtype=np.int64)
    policies = np.full(PLAYERS, policy, dtype=np.int64)
    total = 0.0
    for i in range(deals + 1):
        state, _ = deal_into(fixed, unseen, slots, PLAYERS, True, np.uint64(stream_state(np.uint64(2), i)), places)
        places_to_words(places, PLAYERS, hs, ht)
        K.deal_to_play(hs, ht, st, PLAYERS, 0, K.GARDE, FFT, True)
        t = time.perf_counter()
        play_out_search(hs, ht, st, policies, worlds, rollouts, np.uint64(state), result, np.empty(0, dtype=np.int16),
                        INFER if policy == PIMC_PLAYS else None)
        if i:                                    # the first deal warms up
            total += time.perf_counter() - t
    return total / deals


ENDGAME_TRICKS = {5: 30, 6: 30, 7: 12, 8: 8}      # ending sizes measured, and positions of each
ENDGAME_NODE_LIMIT = 50_000_000


def endgame_position(index: int, tricks: int):
    """A 4-player deal played by the heuristic until ``tricks`` tricks are left: (hs, ht, st)."""
    fixed = np.full(C.N_CARDS, -1, dtype=np.int8)
    unseen = np.arange(C.N_CARDS, dtype=np.int64)
    slots = np.array([min(k // 18, PLAYERS) for k in range(C.N_CARDS)], dtype=np.int64)
    places = np.empty(C.N_CARDS, dtype=np.int8)
    hs = np.empty(PLAYERS + 1, dtype=np.uint64)
    ht = np.empty(PLAYERS + 1, dtype=np.uint64)
    st = np.empty(K.STATE_SIZE, dtype=np.int64)
    state, _ = deal_into(fixed, unseen, slots, PLAYERS, True, np.uint64(stream_state(np.uint64(3), index)), places)
    places_to_words(places, PLAYERS, hs, ht)
    K.deal_to_play(hs, ht, st, PLAYERS, index % PLAYERS, K.GARDE, FFT, True)
    K.advance(hs, ht, st, np.full(PLAYERS, K.HEURISTIC, dtype=np.int64), np.uint64(state), np.empty(0, dtype=np.int64),
              (18 - tricks) * PLAYERS, np.empty(K.RESULT_SIZE, dtype=np.int64), np.empty(0, dtype=np.int16))
    return hs, ht, st


def endgame_ms(tricks: int, positions: int) -> float:
    """Median milliseconds to value every legal card of 4-player endings of ``tricks`` tricks."""
    w = new_workspace(20)
    w[W_NODE_LIMIT] = ENDGAME_NODE_LIMIT
    cards = np.empty(MAX_MOVES, dtype=np.int64)
    values = np.empty(MAX_MOVES, dtype=np.int64)
    card_values(*endgame_position(0, 2), w, True, cards, values)          # warm-up
    times = []
    for i in range(positions):
        hs, ht, st = endgame_position(i, tricks)
        t = time.perf_counter()
        done = card_values(hs, ht, st, w, True, cards, values) >= 0
        times.append(time.perf_counter() - t if done else float("inf"))
    return float(np.median(times)) * 1000


FIRST_CALL_SNIPPET = """
import time
t = time.perf_counter()
from analyzer.bench import deals_rate, pimc_deal_seconds, playouts_rate
deals_rate(1000, 1); playouts_rate(0, 100, 1); playouts_rate(1, 100, 1); pimc_deal_seconds(1)
print(time.perf_counter() - t)
"""


def first_call_seconds() -> float:
    """Import and first calls in a fresh process (with this environment's Numba cache)."""
    out = subprocess.run([sys.executable, "-c", FIRST_CALL_SNIPPET], capture_output=True, text=True, check=True,
                         env=os.environ.copy())
    return float(out.stdout.strip().splitlines()[-1])


def run_bench(jobs: int | None = None, quick: bool = False) -> dict:
    """All figures; ``quick`` uses small sizes (for tests)."""
    threads = jobs or numba.config.NUMBA_NUM_THREADS
    threads = max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
    scale = 0.01 if quick else 1.0
    sizes = {"deals": int(2_000_000 * scale), "random": int(400_000 * scale), "heuristic": int(150_000 * scale)}
    figures: dict = {"pimc_deal_s": round(pimc_deal_seconds(2 if quick else 6), 4)}
    figures["pimc_uniform_deal_s"] = round(pimc_deal_seconds(2 if quick else 6, policy=PIMC_UNIFORM), 4)
    if not quick:       # a yardstick's search, compiled only here and by match (not by warm's quick bench)
        figures["pimc_plays_deal_s"] = round(pimc_deal_seconds(6, policy=PIMC_PLAYS), 4)
    for tricks, positions in ENDGAME_TRICKS.items():
        if not quick or tricks <= 6:
            figures[f"endgame_ms_{tricks}_tricks"] = round(endgame_ms(tricks, 3 if quick else positions), 3)
    previous = numba.get_num_threads()
    try:
        for label, count in (("1_thread", 1), ("", threads)):
            if label == "" and threads == 1:
                break
            numba.set_num_threads(count)
            suffix = f"_{label}" if label else ""
            figures[f"deals_per_s{suffix}"] = round(deals_rate(sizes["deals"]))
            figures[f"random_playouts_per_s{suffix}"] = round(playouts_rate(K.RANDOM, sizes["random"]))
            figures[f"heuristic_playouts_per_s{suffix}"] = round(playouts_rate(K.HEURISTIC, sizes["heuristic"]))
    finally:
        numba.set_num_threads(previous)
    if threads == 1:
        for key in ("deals_per_s", "random_playouts_per_s", "heuristic_playouts_per_s"):
            figures[key] = figures[f"{key}_1_thread"]
    figures["threads"] = threads
    figures["cpu_count"] = os.cpu_count()
    # Last, once this process has compiled (or loaded) every kernel it times: the fresh process loads them
    # from the cache, on an empty cache too, as a user's second command would.
    return {"first_call_s": round(first_call_seconds(), 3), **figures}
