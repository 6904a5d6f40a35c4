"""Where the heuristic's card differs from the search's, and what the difference costs.

Each deal is dealt and bid as in ``kernels/match.py`` and played by the heuristic throughout, or by
the search (every seat's card the search's: the positions strong play meets).  At each decision of a
chosen side with more than one legal card, the heuristic's card (``heuristic_at``) is
set against the card of the search (``pimc_card_solving`` as policy ``PIMC`` plays it: the solver
over the last tricks, the petit sec constraint).  Where they differ, both cards are played on the
same fresh worlds (``eval_worlds`` of them, drawn as the search draws its own, independently of the
worlds that chose the search's card, so that the search's own noise does not count in its favour),
each deal finished by the heuristic: the cost is the mean difference of the deciding seat's score,
search's card minus heuristic's.  What each decision looked like is kept in a row of small ints
(``R_*``) for the analysis to group by situation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.batch import deal_and_bid
from kernels.deals import whole_deal
from kernels.endgame import W_NODE_LIMIT, new_workspace
from kernels.evaluate import candidates_in_world, world_scratch
from kernels.heuristic import ALL_TRUMPS, ZERO, popcount, suit_bits
from kernels.pimc import (RACE_FIRST, RACE_STEP, SOLVE_NODE_LIMIT, SOLVE_TABLE_BITS, SOLVE_TRICKS, search_card,
                          seat_sampler)
from kernels.playout import (HAND_SIZE, HEURISTIC, LED, LEADER, PARTNER, PLAYED_T, PLAYERS, POINTS, RESULT_SIZE,
                             STATE_SIZE, TAKER, TRICK, TRICK_LEN, advance_shared, deal_to_play_shared, heuristic_at,
                             legal_words, set_auction, side_of)

# One row per decision compared.
R_DEAL = 0
R_SEAT = 1
R_ROLE = 2             # 0 defender, 1 taker, 2 the taker's partner (5 players)
R_TRICK = 3            # 0 for the first trick
R_POSITION = 4         # cards already in the trick (0: leading)
R_LED = 5              # suit led (0-3), 4 trumps, -1 none (leading, or only the Excuse played)
R_HOLDS_LED = 6        # 1 when the seat holds a card of what was led (a trump for a trump lead)
R_TRUMPS = 7           # trumps in the seat's hand (the Excuse apart)
R_TRUMPS_OUT = 8       # trumps neither in the seat's hand nor played yet
R_TAKER_PLAYED = 9     # 1 when the taker has played to this trick already
R_TRICK_POINTS = 10    # half-points in the trick so far (the Excuse apart)
R_LEGAL = 11           # legal cards
R_HEURISTIC = 12       # the heuristic's card
R_SEARCH = 13          # the search's card
R_HAND_S = 14          # the seat's hand: suit word (cards 0-55)
R_HAND_T = 15          # trump word (trumps 1-21, the Excuse bit 21)
ROW_SIZE = 16
MAX_DECISIONS = 75     # the cards of a deal: 72 at 3 and 4 players, 75 at 5

SIDE_DEFENCE = 1       # ``sides`` bits: which seats' decisions are compared
SIDE_TAKER = 2         # the taker and, at 5 players, the partner


@njit(cache=True)
def paired_cost(hs, ht, st, seat, better, worse, eval_worlds, state):
    """Mean over ``eval_worlds`` fresh worlds of the seat's score with card ``better`` minus with card
    ``worse``, both played on the same worlds and finished by the heuristic; returns (cost, state)."""
    sampler = seat_sampler(hs, ht, st, seat)
    policies = np.full(st[PLAYERS], HEURISTIC, dtype=np.int64)
    pair = np.array([better, worse], dtype=np.int64)
    scores = np.empty(2, dtype=np.float64)
    made = np.empty(2, dtype=np.int64)
    scratch = world_scratch(st[PLAYERS])
    total = 0.0
    for _ in range(eval_worlds):
        state = candidates_in_world(sampler, st, seat, pair, policies, np.int64(1), state, scores, made, scratch)
        total += scores[0] - scores[1]
    return total / eval_worlds, state


@njit(cache=True)
def describe(hs, ht, st, seat, row):
    """Fill the situation columns of ``row`` for the seat to play."""
    players = st[PLAYERS]
    taker = st[TAKER]
    row[R_SEAT] = seat
    row[R_ROLE] = 1 if seat == taker else (2 if seat == st[PARTNER] else 0)
    row[R_TRICK] = st[TRICK]
    row[R_POSITION] = st[TRICK_LEN]
    led = st[LED]
    row[R_LED] = led
    if led < 0:
        row[R_HOLDS_LED] = 0
    elif led == 4:
        row[R_HOLDS_LED] = 1 if ht[seat] & ALL_TRUMPS != ZERO else 0
    else:
        row[R_HOLDS_LED] = 1 if hs[seat] & suit_bits(led) != ZERO else 0
    played = ht[seat] & ALL_TRUMPS
    for s in range(players):
        played |= np.uint64(st[PLAYED_T + s])
    row[R_TRUMPS] = popcount(ht[seat] & ALL_TRUMPS)
    row[R_TRUMPS_OUT] = 21 - popcount(played & ALL_TRUMPS)
    row[R_TAKER_PLAYED] = 1 if seat != taker and (taker - st[LEADER]) % players < st[TRICK_LEN] else 0
    row[R_TRICK_POINTS] = st[POINTS]
    row[R_HAND_S] = np.int64(hs[seat])
    row[R_HAND_T] = np.int64(ht[seat])


@njit(cache=True, inline="always")
def compare_deal(hs, ht, st, sides, by_search, worlds, eval_worlds, w, state, rows, costs):
    """Play the deal from ``st`` by the heuristic (by the search when ``by_search``), comparing each
    decision of ``sides`` with the search's (``rows``/``costs``, one entry per decision); returns
    (decisions, state)."""
    players = st[PLAYERS]
    policies = np.full(players, HEURISTIC, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    forced = np.empty(1, dtype=np.int64)
    card = np.empty(1, dtype=np.int16)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    solve_tricks = SOLVE_TRICKS[players]
    k = 0
    while st[TRICK] < HAND_SIZE[players]:
        seat = (st[LEADER] + st[TRICK_LEN]) % players
        compared = sides & (SIDE_TAKER if side_of(st, seat) == 1 else SIDE_DEFENCE) != 0
        searched = False
        theirs = -1
        if compared or by_search:
            legal_s, legal_t = legal_words(hs[seat], ht[seat], st)
            n_legal = popcount(legal_s) + popcount(legal_t)
            if n_legal > 1:
                theirs, state = search_card(hs, ht, st, worlds, np.int64(1), state, solve_tricks, w,
                                            np.bool_(True), None, st, None, np.bool_(False),
                                            np.bool_(False), np.int64(RACE_FIRST), np.int64(RACE_STEP))
                searched = True
                if compared:
                    mine = heuristic_at(hs, ht, st)
                    describe(hs, ht, st, seat, rows[k])
                    rows[k, R_LEGAL] = n_legal
                    rows[k, R_HEURISTIC] = mine
                    rows[k, R_SEARCH] = theirs
                    costs[k] = 0.0
                    if theirs != mine:
                        costs[k], state = paired_cost(hs, ht, st, seat, theirs, mine, eval_worlds, state)
                    k += 1
        if by_search and searched:
            forced[0] = theirs
            state, _ = advance_shared(hs, ht, st, policies, state, forced, np.int64(1), result, card)
        else:
            state, _ = advance_shared(hs, ht, st, policies, state, none, np.int64(1), result, card)
    return k, state


@njit(nogil=True, cache=True)
def compare_batch(lo, hi, players, method, sides, by_search, worlds, eval_worlds, flags, seed, offset, rows, costs,
                  counts):
    """Deals ``offset+lo … offset+hi-1`` (rows ``lo … hi-1``) played by the heuristic, or by the
    search when ``by_search``: ``counts[i]`` decisions compared in deal ``i`` (-1 when everybody
    passed), their rows in ``rows[i, :counts[i]]``."""
    fixed, unseen, slots = whole_deal(players, HAND_SIZE[players])
    for i in range(lo, hi):
        places = np.empty(78, dtype=np.int8)
        hs = np.empty(players + 1, dtype=np.uint64)
        ht = np.empty(players + 1, dtype=np.uint64)
        st = np.empty(STATE_SIZE, dtype=np.int64)
        bids = np.empty(players, dtype=np.int64)
        w = new_workspace(np.int64(SOLVE_TABLE_BITS))
        w[W_NODE_LIMIT] = SOLVE_NODE_LIMIT
        state, taker = deal_and_bid(fixed, unseen, slots, players, method, flags, seed, offset + i, places, hs, ht,
                                    bids)
        counts[i] = -1
        if taker < 0:
            continue
        deal_to_play_shared(hs, ht, st, players, taker, bids[taker], flags, True)
        set_auction(st, bids, method)
        counts[i], state = compare_deal(hs, ht, st, sides, by_search, worlds, eval_worlds, w, state, rows[i],
                                        costs[i])
        for k in range(counts[i]):
            rows[i, k, R_DEAL] = offset + i
