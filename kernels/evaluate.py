"""Evaluating the alternatives of one card decision: each candidate card played on the same sampled
worlds (common random numbers) and the deal finished by the given policies, for coaching.

A world is dealt exactly uniformly among the layouts the seat to play cannot tell from the real one
(``kernels.pimc.seat_sampler``, ``kernels.worlds``) and meets the petit sec constraint: the worlds of
the search (``kernels/pimc.py``, policy ``PIMC``).  World ``w`` draws from its own stream
``(seed, w)`` and every candidate is played from the same stream state after the deal, so results do
not depend on the thread schedule and the candidates' differences are measured on equal terms.
``layout_values`` does the same on the real layout (hindsight: what each card was worth had the seat
seen every hand, the other seats still playing by their policies).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from kernels.deals import stream_state
from kernels.pimc import draw_world, load_world, play_to_end, seat_sampler
from kernels.playout import LEADER, PLAYERS, R_MADE, RESULT_SIZE, STATE_SIZE, TRICK_LEN, advance


@njit(cache=True)
def play_candidate(hs, ht, st, card, policies, search_worlds, state, result):
    """Play ``card`` for the seat to play, then finish the deal by ``policies``; the score lands in
    ``result``."""
    forced = np.empty(1, dtype=np.int64)
    forced[0] = card
    no_trace = np.empty(0, dtype=np.int16)
    state, _ = advance(hs, ht, st, policies, state, forced, np.int64(1), result, no_trace)
    play_to_end(hs, ht, st, policies, search_worlds, state, result, no_trace)


@njit(cache=True)
def world_scratch(players):
    """The arrays ``candidates_in_world`` draws a world and plays in (place, world hands, played
    hands, state, result), allocated once by each caller rather than once per world."""
    words = players + 1
    return (np.empty(78, dtype=np.int64), np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64),
            np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64), np.empty(STATE_SIZE, dtype=np.int64),
            np.empty(RESULT_SIZE, dtype=np.int64))


@njit(cache=True)
def candidates_in_world(sampler, st, seat, candidates, policies, search_worlds, state, scores, made, scratch):
    """Draw one world for ``seat`` (``draw_world`` with ``sampler``, from ``state``) and play each of
    ``candidates`` in it from the same stream state: ``scores[j]`` the seat's final score, ``made[j]``
    the contract made; the work is done in ``scratch`` (``world_scratch``).  Returns the RNG state
    after the draw."""
    place, world_s, world_t, play_s, play_t, play_st, result = scratch
    state, partner = draw_world(sampler, state, place, st, seat, np.bool_(True), world_s, world_t)
    for j in range(candidates.shape[0]):
        load_world(world_s, world_t, st, partner, play_s, play_t, play_st)
        play_candidate(play_s, play_t, play_st, candidates[j], policies, search_worlds, state, result)
        scores[j] = result[seat]
        made[j] = result[R_MADE]
    return state


@njit(parallel=True, cache=True)
def world_values(hs, ht, st, candidates, policies, search_worlds, seed, scores, made):
    """``scores[w, j]`` (the seat to play's final score) and ``made[w, j]`` (the contract made) when
    that seat plays ``candidates[j]`` in world ``w`` (``scores.shape[0]`` worlds)."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    for w in prange(scores.shape[0]):
        # A plan of its own for each world: a plan's draws use its work arrays (one thread at a time).
        candidates_in_world(seat_sampler(hs, ht, st, seat), st, seat, candidates, policies, search_worlds,
                            stream_state(seed, np.int64(w)), scores[w], made[w], world_scratch(players))


@njit(parallel=True, cache=True)
def layout_values(hs, ht, st, candidates, policies, search_worlds, seed, scores, made):
    """Hindsight: ``scores[j]``/``made[j]`` when the seat to play plays ``candidates[j]`` in the real
    layout, the deal then finished by ``policies``."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    for j in prange(candidates.shape[0]):
        play_s = hs.copy()
        play_t = ht.copy()
        play_st = st.copy()
        result = np.empty(RESULT_SIZE, dtype=np.int64)
        play_candidate(play_s, play_t, play_st, candidates[j], policies, search_worlds, stream_state(seed, np.int64(0)),
                       result)
        scores[j] = result[seat]
        made[j] = result[R_MADE]
