"""Batch drivers: deals ``lo … hi-1`` of a run one after the other without the GIL, each writing its own
row of preallocated outputs (``analyzer.simulation.threads`` runs ranges side by side on the threads;
``sample_batch`` alone is a threaded loop of Numba's).

Deal ``i`` uses the random stream ``(seed, offset + i)`` (``kernels/deals.py``), so results do not
depend on the thread count, the scheduling or how a run is cut into ranges; the advice drivers take
each deal's stream index instead (``deals[i]``), so that a run can play a chosen subset of the deals
(``analyzer.advice.auction.ThinnedDeals``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from kernels.bidding import run_auction
from kernels.deals import deal_into, stream_state
from kernels.pimc import play_deal
from kernels.playout import (CH_DISCARD, CH_DISCARD_S, CH_DISCARD_T, RESULT_SIZE, STATE_SIZE, auto_choices,
                             deal_to_play_shared, exclude_petit_sec, play_out, score_again,
                             start_with_choices_shared)


@njit(cache=True)
def places_to_words(places, players, hs, ht):
    for p in range(players + 1):
        hs[p] = np.uint64(0)
        ht[p] = np.uint64(0)
    for c in range(78):
        p = places[c]
        if p < 0:
            continue
        if c < 56:
            hs[p] |= np.uint64(1) << np.uint64(c)
        else:
            ht[p] |= np.uint64(1) << np.uint64(c - 56)


@njit(cache=True)
def deal_and_bid(fixed, unseen, slots, players, method, flags, seed, index, places, hs, ht, bids):
    """Deal ``index`` of the run ``seed`` (``deal_into`` with ``whole_deal``'s plan; petit sec deals
    excluded unless the variant ``flags`` plays them) into ``places`` and the hand words ``hs``/``ht``,
    then one round of bidding by the model ``method`` into ``bids``: the start of a simulated deal.
    Returns (RNG state, the taker or -1 when everybody passed)."""
    state = stream_state(seed, index)
    state, _ = deal_into(fixed, unseen, slots, players, exclude_petit_sec(flags), state, places)
    places_to_words(places, players, hs, ht)
    return state, run_auction(hs, ht, players, method, bids)


@njit(parallel=True, cache=True)
def sample_batch(fixed, unseen, slots, players, exclude_petit_sec, seed, offset, out, tries):
    """Deals ``offset … offset+n-1`` into ``out`` (n × 78 places); ``tries[i]`` draws used (-1: gave up).
    The one driver left on Numba's threaded loop: nothing heavy beneath it to compile twice, and its
    deals run faster there than in a range on the caller's threads (docs/journal/compiling.md)."""
    for i in prange(out.shape[0]):
        state = stream_state(seed, offset + i)
        _, tries[i] = deal_into(fixed, unseen, slots, players, exclude_petit_sec, state, out[i])


@njit(nogil=True, cache=True)
def play_batch(lo, hi, places, players, takers, contracts, policies, seed, offset, declare, flags, results, traces):
    """Play deals ``lo … hi-1`` of ``places`` (n × 78) from the start: the taker's call, discard and
    declarations by the simulated seats, then the cards by ``policies[i, seat]``; a taker of -1 plays
    a Goulash.  Scores and the count go to ``results[i]`` (see ``kernels/playout.py``), the cards
    played to ``traces[i]``.  ``flags``: the rule variants (``kernels.playout.F_*``)."""
    for i in range(lo, hi):
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        st = np.empty(STATE_SIZE, dtype=np.int64)
        places_to_words(places[i], players, hs, ht)
        deal_to_play_shared(hs, ht, st, players, takers[i], contracts[i], flags, declare)
        state = stream_state(seed, offset + i)
        play_out(hs, ht, st, policies[i], state, results[i], traces[i])


@njit(nogil=True, cache=True)
def deal_and_play_batch(lo, hi, fixed, unseen, slots, players, taker, contract, policies, seed, offset, declare,
                        flags, results):
    """Deal (petit sec excluded unless the variant plays it) and play deals ``lo … hi-1``: the benchmark's
    loop, its scratch arrays reused from deal to deal (deal ``i`` draws from stream ``(seed, offset + i)``)."""
    places = np.empty(78, dtype=np.int8)
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(0, dtype=np.int16)
    for i in range(lo, hi):
        state = stream_state(seed, offset + i)
        state, tries = deal_into(fixed, unseen, slots, players, exclude_petit_sec(flags), state, places)
        places_to_words(places, players, hs, ht)
        deal_to_play_shared(hs, ht, st, players, taker, contract, flags, declare)
        play_out(hs, ht, st, policies, state, results[i], trace)


@njit(cache=True, inline="always")
def discard_deal(i, places, players, taker, contract, discards_s, discards_t, policies, worlds, seed, offset, declare,
                 flags, scores, searching):
    """``discard_deals``'s deal ``i``."""
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    trace = np.empty(0, dtype=np.int16)
    choices = auto_choices()
    choices[CH_DISCARD] = 1
    for j in range(discards_s.shape[0]):
        places_to_words(places[i], players, hs, ht)
        choices[CH_DISCARD_S] = np.int64(discards_s[j])
        choices[CH_DISCARD_T] = np.int64(discards_t[j])
        start_with_choices_shared(hs, ht, st, players, taker, contract, choices, flags, declare)
        play_deal(searching, hs, ht, st, policies, worlds, stream_state(seed, offset + i), result, trace)
        scores[i, j] = result[taker]


@njit(nogil=True, cache=True)
def discard_deals(lo, hi, places, players, taker, contract, discards_s, discards_t, policies, worlds, seed, offset,
                  declare, flags, scores, searching):
    """Deals ``lo … hi-1`` of ``places`` played by ``policies`` once per candidate discard (same deal, same
    random stream: common random numbers); ``scores[i, j]`` is the taker's score with discard j
    (``searching``: ``SEARCH`` where some policy may search, else ``None``, ``kernels.pimc.play_deal``)."""
    for i in range(lo, hi):
        discard_deal(i, places, players, taker, contract, discards_s, discards_t, policies, worlds, seed, offset,
                     declare, flags, scores, searching)


@njit(cache=True, inline="always")
def advice_deal(i, fixed, unseen, slots, players, taker, contract, choices, policies, worlds, seed, deals, declare,
                flags, results, also, also_results, searching):
    """``advice_deals``'s deal ``i``."""
    places = np.empty(78, dtype=np.int8)
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    trace = np.empty(0, dtype=np.int16)
    state = stream_state(seed, deals[i])
    state, tries = deal_into(fixed, unseen, slots, players, exclude_petit_sec(flags), state, places)
    places_to_words(places, players, hs, ht)
    start_with_choices_shared(hs, ht, st, players, taker, contract, choices, flags, declare)
    play_deal(searching, hs, ht, st, policies, worlds, state, results[i], trace)
    if also >= 0:
        score_again(st, results[i], also, also_results[i])


@njit(nogil=True, cache=True)
def advice_deals(lo, hi, fixed, unseen, slots, players, taker, contract, choices, policies, worlds, seed, deals,
                 declare, flags, results, also, also_results, searching):
    """Deal (petit sec excluded unless the variant plays it) and play deals ``deals[lo:hi]`` (stream indices),
    one after the other without the GIL (``analyzer.simulation.threads`` runs ranges side by side), with
    the taker's ``choices`` (``kernels.playout.start_with_choices``); ``searching``: ``SEARCH`` where some
    seat's policy may be PIMC search, else ``None`` (``kernels.pimc.play_deal``).  ``also`` (a contract,
    or -1): each deal scored as that contract too, into ``also_results`` (``kernels.playout.score_again``:
    Prise as played for Garde, or Garde as played for Prise)."""
    for i in range(lo, hi):
        advice_deal(i, fixed, unseen, slots, players, taker, contract, choices, policies, worlds, seed, deals,
                    declare, flags, results, also, also_results, searching)
