"""Bid advice kernels: deals consistent with the bids already made, and the value of each bid.

The seats that spoke before the hand are assumed to bid by the bidding model
(``kernels/bidding.py``); a deal is kept only if the model, given those seats' cards, makes exactly
the bids that were made (rejection; ``tries`` reports how many deals were drawn).  For the option
being valued, the seats after the hand bid by the model too; the highest bidder takes (the hand may
end up defending), and a deal that everybody passes is thrown in (score 0), or played as a Goulash
under that variant.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from kernels.batch import places_to_words
from kernels.bidding import baseline_bid
from kernels.deals import MAX_TRIES, deal_into, stream_state
from kernels.pimc import play_to_end
from kernels.playout import (F_GOULASH, PARTNER, RESULT_SIZE, R_MADE, STATE_SIZE, deal_to_play,
                             exclude_petit_sec)

# Output columns per deal.
B_SCORE = 0            # the hand's score, in half-points (a Goulash's may end in .5)
B_WON = 1              # 1 if the hand's side won the deal (in a Goulash: scored more than 0), 0 if not, -1 thrown in
B_TAKER = 2            # -1 thrown in
B_CONTRACT = 3
B_TRIES = 4            # deals drawn to meet the earlier bids (-1: gave up)
BID_SIZE = 5


@njit(cache=True)
def deal_matching_bids(fixed, unseen, slots, players, seat, earlier, condition, method, state, places, hs, ht,
                       exclude=True):
    """Deal into ``places``/``hs``/``ht`` until the seats before ``seat`` would have bid ``earlier``
    under the model (any deal when not ``condition``); returns (state, deals drawn or -1).  Deals with
    a petit sec are redrawn when ``exclude``."""
    for t in range(1, MAX_TRIES + 1):
        state, _ = deal_into(fixed, unseen, slots, players, exclude, state, places)
        places_to_words(places, players, hs, ht)
        if not condition:
            return state, t
        best = 0
        ok = True
        for s in range(seat):
            b = baseline_bid(hs[s], ht[s], method, players, best)
            if b != earlier[s]:
                ok = False
                break
            if b > best:
                best = b
        if ok:
            return state, t
    return state, -1


@njit(parallel=True, cache=True)
def conditioned_deals_batch(fixed, unseen, slots, players, seat, earlier, method, seed, offset, out, tries):
    """Deals ``offset … offset+n-1`` conditioned on the earlier bids, as card places."""
    for i in prange(out.shape[0]):
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        _, tries[i] = deal_matching_bids(fixed, unseen, slots, players, seat, earlier, True, method,
                                         stream_state(seed, offset + i), out[i], hs, ht)


@njit(parallel=True, cache=True)
def bid_batch(fixed, unseen, slots, players, seat, earlier, condition, option, method, policies, worlds, seed,
              offset, declare, flags, out):
    """Deals ``offset … offset+n-1`` with the hand's seat bidding ``option`` (0 pass … 4); ``flags``:
    the rule variants (``kernels.playout.F_*``)."""
    for i in prange(out.shape[0]):
        places = np.empty(78, dtype=np.int8)
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        st = np.empty(STATE_SIZE, dtype=np.int64)
        result = np.empty(RESULT_SIZE, dtype=np.int64)
        trace = np.empty(0, dtype=np.int16)
        state, out[i, B_TRIES] = deal_matching_bids(fixed, unseen, slots, players, seat, earlier, condition, method,
                                                    stream_state(seed, offset + i), places, hs, ht,
                                                    exclude_petit_sec(flags))
        if out[i, B_TRIES] < 0:
            continue
        best = 0
        taker = -1
        for s in range(seat):
            if earlier[s] > best:
                best, taker = earlier[s], s
        if option > best:
            best, taker = option, seat
        for s in range(seat + 1, players):
            b = baseline_bid(hs[s], ht[s], method, players, best)
            if b > best:
                best, taker = b, s
        out[i, B_TAKER] = taker
        out[i, B_CONTRACT] = best
        if taker < 0 and flags[F_GOULASH] == 0:
            out[i, B_SCORE] = 0
            out[i, B_WON] = -1
            continue
        deal_to_play(hs, ht, st, players, taker, best, flags, declare)
        play_to_end(hs, ht, st, policies, worlds, state, result, trace)
        if taker < 0:                   # a Goulash: its scores are in half-points already
            out[i, B_SCORE] = result[seat]
            out[i, B_WON] = 1 if result[seat] > 0 else 0
            continue
        out[i, B_SCORE] = 2 * result[seat]
        on_taker_side = seat == taker or seat == st[PARTNER]
        out[i, B_WON] = 1 if (result[R_MADE] == 1) == on_taker_side else 0
