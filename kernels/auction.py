"""Bid advice kernels: deals weighted by how well they explain the bids already made, and the value of
each bid.

The seats that spoke before the hand are assumed to bid by the bidding model (``kernels/bidding.py``)
with some slack: a seat's bid is the model's for its count plus a normal error of ``noise`` points (the
thresholds are moved half a point down so that ``noise`` 0 is exactly the model).  A deal is drawn
uniformly (the hand fixed, petit sec excluded unless the variant plays it) and weighted by the
probability that its earlier seats would have made exactly the bids that were made (importance
sampling: weighted means are posterior means given the bids, and no auction, however unlikely, leaves
the weights all zero unless ``noise`` is 0).  For the option being valued, the seats after the hand bid
by the model itself; the highest bidder takes (the hand may end up defending), and a deal that
everybody passes is thrown in (score 0), or played as a Goulash under that variant.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.batch import places_to_words
from kernels.bidding import bid_probability, finish_auction
from kernels.deals import deal_into, stream_state
from kernels.pimc import play_deal
from kernels.playout import (F_GOULASH, GARDE, PARTNER, R_MADE, R_OUDLERS, R_TAKER_HP, RESULT_SIZE, STATE_SIZE,
                             TARGET_HP, deal_to_play_shared, exclude_petit_sec, score_again, set_auction)
from kernels.worlds import splitmix64

# Output columns per deal.
B_SCORE = 0            # the hand's score, in half-points (a Goulash's may end in .5)
B_WON = 1              # 1 if the hand's side won the deal (in a Goulash: scored more than 0), 0 if not, -1 thrown in
B_TAKER = 2            # -1 thrown in
B_CONTRACT = 3
B_MARGIN = 4           # the half-points the hand's side took beyond those it needed (the defence's: those the
                       # taker's side fell short by, so 0 or below where the taker made it); 0 thrown in or a Goulash
BID_SIZE = 5

@njit(cache=True)
def bids_likelihood(hs, ht, players, seat, earlier, method, noise):
    """P(the seats before ``seat`` bid ``earlier``), each by ``bid_probability``."""
    likelihood = 1.0
    best = np.int64(0)          # not a constant 0: bid_probability would be compiled for it too
    for s in range(seat):
        likelihood *= bid_probability(hs[s], ht[s], method, players, best, earlier[s], noise)
        if earlier[s] > best:
            best = earlier[s]
    return likelihood


@njit(nogil=True, cache=True)
def weighted_deals_batch(lo, hi, fixed, unseen, slots, players, seat, earlier, method, noise, exclude, seed, deals,
                         out, weights):
    """Deals ``deals[lo:hi]`` (stream indices) as card places (petit sec excluded when ``exclude``), each
    with its weight given the earlier bids: the deals the other drivers draw from the same seed and indices."""
    for i in range(lo, hi):
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        deal_into(fixed, unseen, slots, players, exclude, stream_state(seed, deals[i]), out[i])
        places_to_words(out[i], players, hs, ht)
        weights[i] = bids_likelihood(hs, ht, players, seat, earlier, method, noise)


@njit(nogil=True, cache=True)
def uniform_draws(lo, hi, seed, offset, out):
    """One uniform draw in [0, 1) into ``out[i]`` for each ``i`` of ``lo … hi-1``, from stream ``offset + i``
    of the streams seeded by ``seed`` (53 bits of the stream's first output)."""
    for i in range(lo, hi):
        _, z = splitmix64(stream_state(seed, offset + i))
        out[i] = (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def option_auction(hs, ht, players, seat, earlier, option, method, bids):
    """The auction, into ``bids``, where the hand's seat bids ``option`` (0 pass … 4; a pass when it
    does not outbid ``earlier``) and the later seats bid by the model; returns (taker or -1, contract)."""
    best = 0
    for s in range(seat):
        bids[s] = earlier[s]
        best = max(best, earlier[s])
    bids[seat] = option if option > best else 0
    taker = finish_auction(hs, ht, players, method, bids, seat + 1)
    return taker, (bids[taker] if taker >= 0 else 0)


@njit(cache=True)
def hand_row(result, seat, taker, partner, row):
    """The hand's score, success and margin (``B_SCORE``, ``B_WON``, ``B_MARGIN``) of a played deal's ``result``."""
    if taker < 0:                   # a Goulash: its scores are in half-points already
        row[B_SCORE] = result[seat]
        row[B_WON] = 1 if result[seat] > 0 else 0
        row[B_MARGIN] = 0
        return
    row[B_SCORE] = 2 * result[seat]
    on_taker_side = seat == taker or seat == partner
    row[B_WON] = 1 if (result[R_MADE] == 1) == on_taker_side else 0
    margin = result[R_TAKER_HP] - TARGET_HP[result[R_OUDLERS]]
    row[B_MARGIN] = margin if on_taker_side else -margin


@njit(cache=True, inline="always")
def play_option(hs, ht, players, seat, taker, contract, bids, method, policies, worlds, state, declare, flags, st,
                result, row, searching):
    """Play the dealt hands ``hs``/``ht`` (changed) after the auction ``bids`` (``option_auction``),
    the hand's row into ``row``; ``st`` and ``result`` hold the deal's end (unless thrown in)."""
    row[B_TAKER] = taker
    row[B_CONTRACT] = contract
    if taker < 0 and flags[F_GOULASH] == 0:
        row[B_SCORE] = 0
        row[B_WON] = -1
        row[B_MARGIN] = 0
        return
    deal_to_play_shared(hs, ht, st, players, taker, contract, flags, declare)
    set_auction(st, bids, method)
    play_deal(searching, hs, ht, st, policies, worlds, state, result, np.empty(0, dtype=np.int16))
    hand_row(result, seat, taker, st[PARTNER], row)


@njit(cache=True, inline="always")
def bid_deal(i, fixed, unseen, slots, players, seat, earlier, condition, option, method, noise, policies, worlds, seed,
             deals, declare, flags, out, weights, also, also_out, searching):
    """``bid_deals``'s deal ``i``."""
    places = np.empty(78, dtype=np.int8)
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    state, _ = deal_into(fixed, unseen, slots, players, exclude_petit_sec(flags), stream_state(seed, deals[i]),
                         places)
    places_to_words(places, players, hs, ht)
    weights[i] = bids_likelihood(hs, ht, players, seat, earlier, method, noise) if condition else 1.0
    dealt_s = hs.copy() if also >= 0 else hs        # the hands as dealt, for the ``also`` option
    dealt_t = ht.copy() if also >= 0 else ht
    bids = np.empty(players, dtype=np.int64)
    taker, contract = option_auction(hs, ht, players, seat, earlier, option, method, bids)
    also_bids = np.empty(players, dtype=np.int64)
    also_taker, also_contract = taker, contract
    if also >= 0:
        also_taker, also_contract = option_auction(dealt_s, dealt_t, players, seat, earlier, also, method, also_bids)
    same = also_taker == taker and also_contract == contract     # the same auction's end, so the same play
    alike = also_taker == taker == seat and contract <= GARDE and also_contract <= GARDE   # Prise and Garde
    # The option's play, then the ``also`` option's where neither holds: one call site, so that ``play_option``
    # (inlined) is typed once and no layer is compiled on its own between this and the search.
    for k in range(1 if also < 0 or same or alike else 2):
        first = k == 0
        play_option(hs if first else dealt_s, ht if first else dealt_t, players, seat, taker if first else also_taker,
                    contract if first else also_contract, bids if first else also_bids, method, policies, worlds,
                    state, declare, flags, st, result, out[i] if first else also_out[i], searching)
    if also < 0:
        return
    if same:
        for k in range(BID_SIZE):
            also_out[i, k] = out[i, k]
    elif alike:
        also_result = np.empty(RESULT_SIZE, dtype=np.int64)       # played alike: one play scored as each
        score_again(st, result, also_contract, also_result)
        also_out[i, B_TAKER] = taker
        also_out[i, B_CONTRACT] = also_contract
        hand_row(also_result, seat, taker, st[PARTNER], also_out[i])


@njit(nogil=True, cache=True)
def bid_deals(lo, hi, fixed, unseen, slots, players, seat, earlier, condition, option, method, noise, policies, worlds,
              seed, deals, declare, flags, out, weights, also, also_out, searching):
    """Deals ``deals[lo:hi]`` (stream indices: ``kernels/deals.py``) with the hand's seat bidding ``option``
    (0 pass … 4), one after the other without the GIL (``analyzer.simulation.threads`` runs ranges side
    by side); ``weights[i]`` gets deal i's weight given the earlier bids (1 when not ``condition``);
    ``flags``: the rule variants (``kernels.playout.F_*``); ``searching``: ``SEARCH`` or ``None``
    (``kernels.pimc.play_deal``).  ``also`` (an option, or -1): the same deals with the hand bidding that
    instead, into ``also_out``, played again only where its auction ends otherwise (the same taker and
    contract: the same play; the hand taking Prise in one and Garde in the other: one play scored as
    each, ``kernels.playout.score_again``)."""
    for i in range(lo, hi):
        bid_deal(i, fixed, unseen, slots, players, seat, earlier, condition, option, method, noise, policies, worlds,
                 seed, deals, declare, flags, out, weights, also, also_out, searching)
