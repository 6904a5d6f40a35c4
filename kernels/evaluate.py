"""Evaluating the alternatives of one card decision: each candidate card played on the same sampled
worlds (common random numbers) and the deal finished by the given policies, for coaching.

A world is dealt exactly uniformly among the layouts the seat to play cannot tell from the real one
(``kernels.pimc.seat_sampler``, ``kernels.worlds``) and meets the petit sec constraint: the worlds of
the search (``kernels/pimc.py``, policy ``PIMC``).  World ``w`` draws from its own stream
``(seed, w)`` and every candidate is played from the same stream state after the deal, so results do
not depend on the thread schedule and the candidates' differences are measured on equal terms.
``judge_values`` values a card decision for the coach (the last tricks solved exactly, each world
weighted by the auction); ``judge_layout`` does the same on the real layout (hindsight: what each card
was worth had the seat seen every hand); ``candidates_in_world`` serves ``compare-play``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.deals import stream_state
from kernels.declarations import call_card
from kernels.discard import KING_BITS, discard_within
from kernels.endgame import MAX_MOVES, W_NODE_LIMIT, new_workspace, solve_line
from kernels.pimc import (SOLVE_NODE_LIMIT, SOLVE_TABLE_BITS, SOLVE_TRICKS, auction_likelihood, chelem_alive,
                          decision_worlds, draw_world, hand_as_dealt, is_search, load_world, play_to_end,
                          search_card, search_features, seat_sampler)
from kernels.heuristic import popcount
from kernels.playout import (CALLED, CONTRACT, EXCL_S, GARDE, HAND_SIZE, LEADER, PLAYED_S, PLAYERS, R_MADE, RESULT_SIZE,
                             STATE_SIZE, TAKER, TRICK, TRICK_LEN, advance_shared)

# The judge values every card of a decision this close to the end (tricks left, the one in play counted;
# by player count) by the endgame solver alone (both sides perfect, every hand of the world known), and
# finishes each world of an earlier decision by the policy until ENDING_TRICKS are left, which the solver
# plays.  The two differ for time: docs/coaching.md, "Play model and cost".
EXACT_TRICKS = np.array([0, 0, 0, 6, 5, 4], dtype=np.int64)
ENDING_TRICKS = np.array([0, 0, 0, 4, 3, 2], dtype=np.int64)
EXACT_TABLE_BITS = 15      # the solver's table per chunk of worlds (2**15 entries, 1.5 MiB)
CHUNK = 16                 # worlds per workspace (a fixed split: the values do not depend on the threads)
CALL_MISMATCH = 0.1        # a world's weight when its taker would have called another King


@njit(cache=True, inline="always")
def play_candidate(hs, ht, st, card, policies, search_worlds, state, result):
    """Play ``card`` for the seat to play, then finish the deal by ``policies``; the score lands in
    ``result``."""
    forced = np.empty(1, dtype=np.int64)
    forced[0] = card
    no_trace = np.empty(0, dtype=np.int16)
    state, _ = advance_shared(hs, ht, st, policies, state, forced, np.int64(1), result, no_trace)
    play_to_end(hs, ht, st, policies, search_worlds, state, result, no_trace)


@njit(cache=True)
def world_scratch(players):
    """The arrays ``candidates_in_world`` draws a world and plays in (place, world hands, played
    hands, state, result), allocated once by each caller rather than once per world."""
    words = players + 1
    return (np.empty(78, dtype=np.int64), np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64),
            np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64), np.empty(STATE_SIZE, dtype=np.int64),
            np.empty(RESULT_SIZE, dtype=np.int64))


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def play_until(hs, ht, st, policies, search_worlds, state, result, stop):
    """Play by ``policies`` until trick ``stop`` (0-based) is about to start or the deal ends, seats whose
    policy is a search deciding as in ``kernels.pimc.play_out_search``; returns the RNG state."""
    players = st[PLAYERS]
    n_cards = (stop - st[TRICK]) * players - st[TRICK_LEN]
    if n_cards <= 0:
        return state
    none = np.empty(0, dtype=np.int64)
    no_trace = np.empty(0, dtype=np.int16)
    searching = False
    for s in range(players):
        searching = searching or is_search(policies[s])
    if not searching:
        state, _ = advance_shared(hs, ht, st, policies, state, none, n_cards, result, no_trace)
        return state
    w = new_workspace(np.int64(SOLVE_TABLE_BITS))
    w[W_NODE_LIMIT] = SOLVE_NODE_LIMIT
    forced = np.empty(1, dtype=np.int64)
    start = st.copy()
    for _ in range(n_cards):
        seat = (st[LEADER] + st[TRICK_LEN]) % players
        if is_search(policies[seat]):
            solves, constrain, _, _, race, prior, race_first, race_step = search_features(policies[seat])
            solve_tricks = SOLVE_TRICKS[players] if solves else 0
            drawn = decision_worlds(st, seat, policies[seat], search_worlds)
            race = race and not chelem_alive(st, seat, policies[seat])
            forced[0], state = search_card(hs, ht, st, drawn, np.int64(1), state, solve_tricks, w, constrain,
                                           None, start, None, race, prior, race_first, race_step)
            state, _ = advance_shared(hs, ht, st, policies, state, forced, np.int64(1), result, no_trace)
        else:
            state, _ = advance_shared(hs, ht, st, policies, state, none, np.int64(1), result, no_trace)
    return state


@njit(cache=True, inline="always")
def finish_exactly(hs, ht, st, policies, state, w, result):
    """Finish the deal by perfect play of both sides, every hand known (``kernels.endgame.solve_line``,
    workspace ``w``): the line's final score lands in ``result`` (a deal already over is left as scored)."""
    players = st[PLAYERS]
    if st[TRICK] >= HAND_SIZE[players]:
        return
    cards = np.empty(MAX_MOVES, dtype=np.int64)
    values = np.empty(MAX_MOVES, dtype=np.int64)
    line = np.empty(78, dtype=np.int64)
    _, length, _ = solve_line(hs, ht, st, w, cards, values, line)
    advance_shared(hs, ht, st, policies, state, line[:length], np.int64(length), result, np.empty(0, dtype=np.int16))


@njit(cache=True)
def play_candidate_exact(hs, ht, st, card, policies, search_worlds, state, result, exact, w):
    """``play_candidate`` with the last ``exact`` tricks (the trick in play counted) played perfectly by
    both sides (``finish_exactly``): ``card``, then ``policies`` until that many tricks are left, then the
    solver's line."""
    forced = np.empty(1, dtype=np.int64)
    forced[0] = card
    no_trace = np.empty(0, dtype=np.int16)
    state, _ = advance_shared(hs, ht, st, policies, state, forced, np.int64(1), result, no_trace)
    state = play_until(hs, ht, st, policies, search_worlds, state, result, HAND_SIZE[st[PLAYERS]] - exact)
    finish_exactly(hs, ht, st, policies, state, w, result)


@njit(cache=True)
def model_aside(world_s, world_t, st, seat):
    """The taker's discard in a world of ``seat``, a seat that saw the chien but not the discard, made
    as the heuristic taker makes it (``kernels.discard.discard_within``) from the taker's cards of that
    world (its hand now, the cards it played and the world's aside), within what ``seat`` knows: the
    cards the taker played stay played, those of the suits it showed void of stay aside, Kings and
    trumps stay where they are (the trumps aside were shown).  Returns the world's weight for it: 1 over
    the number of ways the sampler could have split those cards between hand and aside, so that every
    set of cards the taker may hold counts as often as it is dealt (a hand rich in Kings and trumps has
    few such splits, a hand of small suit cards many; 1 when nothing is remade).  Drawn uniformly, the
    aside held cards a taker keeps, and weighed by the splits the taker's hand was weaker than any
    taker's: every defender judged against a taker who would not have bid."""
    players = st[PLAYERS]
    taker = st[TAKER]
    if seat == taker or taker < 0 or st[CONTRACT] > GARDE:
        return 1.0
    void = np.uint64(st[EXCL_S + taker])
    aside = world_s[players]
    hand = world_s[taker] | aside
    must = aside & void
    may = hand & ~KING_BITS & ~void
    size = popcount(aside)
    out = discard_within(hand | np.uint64(st[PLAYED_S + taker]), size, must, may)
    world_s[players] = out
    world_s[taker] = hand & ~out
    return 1.0 / choose(popcount(may), size - popcount(must))


@njit(cache=True)
def call_likelihood(world_s, world_t, st, seat):
    """At 5 players, for a seat other than the taker: 1 when the taker's hand as dealt in this world
    calls the King it called by the heuristic's rule (``kernels.declarations.call_card``), else
    ``CALL_MISMATCH`` (a player may call otherwise); 1 when there is no call."""
    taker = st[TAKER]
    if st[CALLED] < 0 or seat == taker or taker < 0:
        return 1.0
    hand_s, _ = hand_as_dealt(world_s, world_t, st, taker)
    return 1.0 if call_card(hand_s) == st[CALLED] else CALL_MISMATCH


@njit(cache=True)
def choose(n, k):
    """The binomial coefficient C(n, k), as a float."""
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True, inline="always")
def judge_world(sampler, st, seat, candidates, policies, search_worlds, state, exact, w, noise, skip, scores, made,
                scratch, hands):
    """``candidates_in_world`` for the judge: each candidate played by ``play_candidate_exact``, the
    taker's discard as a taker makes it (``model_aside``); returns the world's weight: the auction's
    (``kernels.pimc.auction_likelihood`` with an error of ``noise`` points: the chance that the other
    seats bid as recorded, given their hands in this world) times ``model_aside``'s and the King call's
    (``call_likelihood``).  With ``skip``, a world of weight 0 is not played (its scores 0): it counts
    for nothing in a weighted mean."""
    place, world_s, world_t, play_s, play_t, play_st, result = scratch
    state, partner = draw_world(sampler, state, place, st, seat, np.bool_(True), world_s, world_t)
    splits = model_aside(world_s, world_t, st, seat)
    for p in range(st[PLAYERS] + 1):
        hands[0, p] = world_s[p]
        hands[1, p] = world_t[p]
    weight = splits * call_likelihood(world_s, world_t, st, seat) * auction_likelihood(world_s, world_t, st, seat,
                                                                                      noise)
    if skip and weight == 0.0:
        scores[:] = 0
        made[:] = 0
        return weight
    for j in range(candidates.shape[0]):
        load_world(world_s, world_t, st, partner, play_s, play_t, play_st)
        play_candidate_exact(play_s, play_t, play_st, candidates[j], policies, search_worlds, state, result, exact,
                             w)
        scores[j] = result[seat]
        made[j] = result[R_MADE]
    return weight


@njit(nogil=True, cache=True)
def judge_values(lo, hi, first, hs, ht, st, candidates, policies, search_worlds, seed, exact, noise, skip, scores,
                 made, weights, hands):
    """The judge: ``scores[w, j]``/``made[w, j]`` when the seat to play plays ``candidates[j]`` in world
    ``w``, the last ``exact`` tricks played perfectly (``play_candidate_exact``), ``weights[w]`` the
    world's auction weight and ``hands[w]`` its hands (``judge_world``; with ``skip``, the worlds of
    weight 0 not played), for the worlds of chunks ``first + lo … first + hi-1``: worlds are split into
    fixed chunks of ``CHUNK``, each with its own solver workspace, so that the values do not depend on
    the threads, nor on how many worlds are drawn after them; world ``w`` draws from stream
    ``(seed, w)``."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    n = scores.shape[0]
    for c in range(first + lo, first + hi):
        w = new_workspace(np.int64(EXACT_TABLE_BITS if exact > 0 else 1))
        scratch = world_scratch(players)
        for v in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            weights[v] = judge_world(seat_sampler(hs, ht, st, seat), st, seat, candidates, policies, search_worlds,
                                     stream_state(seed, v), exact, w, noise, skip, scores[v], made[v], scratch,
                                     hands[v])


@njit(nogil=True, cache=True)
def judge_layout(lo, hi, hs, ht, st, candidates, policies, search_worlds, seed, exact, scores, made):
    """Hindsight for the judge: ``scores[j]``/``made[j]`` when the seat to play plays ``candidates[j]`` (``j``
    in ``lo … hi-1``) in the real layout, the deal then finished by ``policies`` and its last ``exact`` tricks played
    perfectly (``play_candidate_exact``)."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    for j in range(lo, hi):
        play_s = hs.copy()
        play_t = ht.copy()
        play_st = st.copy()
        result = np.empty(RESULT_SIZE, dtype=np.int64)
        w = new_workspace(np.int64(EXACT_TABLE_BITS if exact > 0 else 1))
        play_candidate_exact(play_s, play_t, play_st, candidates[j], policies, search_worlds,
                             stream_state(seed, np.int64(0)), result, exact, w)
        scores[j] = result[seat]
        made[j] = result[R_MADE]
