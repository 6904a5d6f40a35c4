"""Whole simulated deals with every action kept, for deal records: deal, auction, start of play, cards.

Deal ``i`` uses the random stream ``(seed, offset + i)``: it is dealt (petit sec excluded unless the
variant plays it), bid by the bidding model (``kernels/bidding.py``), and when somebody takes, the
taker calls, discards and announces, every seat shows its poignée (``kernels/declarations.py``, as
in ``kernels/match.py``) and declares the misères it holds (variant), and every card is played by
``policy`` (PIMC through ``kernels.pimc.play_deal``).  A deal everybody passes is played as a
Goulash under that variant.  Rows are independent, so the output does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.batch import deal_and_bid
from kernels.deals import whole_deal
from kernels.pimc import play_deal
from kernels.playout import (CALLED, CHELEM, F_GOULASH, GARDE, HAND_SIZE, POIGNEE_T, RESULT_SIZE, STATE_SIZE,
                             deal_to_play_shared, set_auction)

# Columns of ``start`` per deal.
S_TAKER = 0            # -1 when everybody passed
S_CALLED = 1           # called card id (5 players) or -1
S_DISCARD_S = 2        # the discard's suit word and trump word (Prise, Garde)
S_DISCARD_T = 3
S_CHELEM = 4           # 1 if the taker announced a chelem, 2 a petit chelem (variant)
S_POIGNEE = 5          # P entries: trump word of the poignée each seat showed (0: none)
START_SIZE = 10


@njit(cache=True, inline="always")
def record_deal(i, players, method, policy, worlds, flags, seed, offset, fixed, unseen, slots, places, bids, start,
                trace, searching):
    """``record_batch``'s deal ``i``."""
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    policies = np.full(players, policy, dtype=np.int64)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    state, taker = deal_and_bid(fixed, unseen, slots, players, method, flags, seed, offset + i, places[i], hs, ht,
                                bids[i])
    start[i, S_TAKER] = taker
    if taker < 0 and flags[F_GOULASH] == 0:
        return
    contract = bids[i, taker] if taker >= 0 else 0
    deal_to_play_shared(hs, ht, st, players, taker, contract, flags, np.bool_(True))
    set_auction(st, bids[i], method)
    start[i, S_CALLED] = st[CALLED]
    start[i, S_CHELEM] = st[CHELEM]
    if taker >= 0 and contract <= GARDE:
        start[i, S_DISCARD_S] = np.int64(hs[players])
        start[i, S_DISCARD_T] = np.int64(ht[players])
    for s in range(players):
        start[i, S_POIGNEE + s] = st[POIGNEE_T + s]
    play_deal(searching, hs, ht, st, policies, worlds, state, result, trace[i])


@njit(nogil=True, cache=True)
def record_batch(lo, hi, players, method, policy, worlds, flags, seed, offset, places, bids, start, trace, searching):
    """Deals ``offset+lo … offset+hi-1`` into rows ``lo … hi-1``: ``places`` (card places), ``bids`` (P
    each, 0 pass … 4), ``start`` (``START_SIZE`` each, above) and ``trace`` (-1 where not played); ``flags``:
    the rule variants (``kernels.playout.F_*``); ``searching``: ``SEARCH`` when ``policy`` searches, else
    ``None`` (``kernels.pimc.play_deal``)."""
    fixed, unseen, slots = whole_deal(players, HAND_SIZE[players])
    for i in range(lo, hi):
        record_deal(i, players, method, policy, worlds, flags, seed, offset, fixed, unseen, slots, places, bids, start,
                    trace, searching)
