"""Duplicate matches between two card-play policies, deal by deal.

Each deal is dealt at random (petit sec excluded unless the variant plays it) and bid by the baseline
bidding model; a deal that everybody passes is skipped (even under the Goulash variant: a Goulash has
no taker's side to give each policy in turn).  It is then played twice from the same start (same call, discard and
declarations, which do not depend on the card-play policy, and the same random stream): policy A on
the taker's side and B on the defence, then the other way round.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.batch import deal_and_bid
from kernels.deals import whole_deal
from kernels.pimc import play_out_search
from kernels.playout import HAND_SIZE, PARTNER, RESULT_SIZE, STATE_SIZE, deal_to_play_shared, set_auction

# Output columns per deal.
M_TAKER = 0            # -1 when everybody passed
M_CONTRACT = 1
M_A_TAKES = 2          # the taker's side's score (taker + partner) with A on that side
M_B_TAKES = 3          # the same with B on that side
MATCH_SIZE = 4


@njit(nogil=True, cache=True)
def match_batch(lo, hi, players, method, policy_a, policy_b, worlds, rollouts, flags, seed, offset, out, inferring):
    """Deals ``offset+lo … offset+hi-1`` in duplicate into ``out[lo:hi]`` (``flags``: the rule variants; ``inferring``:
    ``kernels.pimc.INFER`` when a policy is ``PIMC_WEIGHTED`` or ``PIMC_PLAYS``, else ``None``,
    ``kernels.pimc.play_out_search``)."""
    fixed, unseen, slots = whole_deal(players, HAND_SIZE[players])
    for i in range(lo, hi):
        places = np.empty(78, dtype=np.int8)
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        play_s = np.empty(players + 1, dtype=np.uint64)
        play_t = np.empty(players + 1, dtype=np.uint64)
        st = np.empty(STATE_SIZE, dtype=np.int64)
        bids = np.empty(players, dtype=np.int64)
        policies = np.empty(players, dtype=np.int64)
        result = np.empty(RESULT_SIZE, dtype=np.int64)
        trace = np.empty(0, dtype=np.int16)
        state, taker = deal_and_bid(fixed, unseen, slots, players, method, flags, seed, offset + i, places, hs, ht,
                                    bids)
        out[i, M_TAKER] = taker
        out[i, M_CONTRACT] = bids[taker] if taker >= 0 else 0
        if taker < 0:
            continue
        for swap in range(2):
            for p in range(players + 1):
                play_s[p] = hs[p]
                play_t[p] = ht[p]
            deal_to_play_shared(play_s, play_t, st, players, taker, bids[taker], flags, True)
            set_auction(st, bids, method)
            partner = st[PARTNER]
            taker_side = policy_a if swap == 0 else policy_b
            defence = policy_b if swap == 0 else policy_a
            for s in range(players):
                policies[s] = taker_side if s == taker or s == partner else defence
            play_out_search(play_s, play_t, st, policies, worlds, rollouts, state, result, trace, inferring)
            score = result[taker] + (result[partner] if partner >= 0 else 0)
            out[i, M_A_TAKES + swap] = score
