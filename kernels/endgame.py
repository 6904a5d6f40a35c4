"""Exact endgame solver: the value of every card under perfect play by both sides, all hands known.

From any position of the playout engine (``hs``/``ht``/``st``, see ``kernels/playout.py``) the deal
is played to its end by two sides, the taker (with the partner at 5 players) and the defence, each
card chosen to maximise its side's final score: the contract's ``total`` as docs/rules.md computes it
(card points with the Excuse's exchange, the target set by the oudlers, petit au bout, the chelem,
the poignées' sign), not the trick points alone.  The value of a position is that ``total`` (per
defender, seen from the taker's side); a seat's score is it times ``seat_share``.

The search is a fail-soft alpha-beta over single cards (minimax: the side to move changes with the
seat, not every ply), with
* a transposition table probed at the start of each trick, keyed on the cards still in the hands,
  the leader and what of the past still counts (the taker's points, oudlers and tricks so far, who
  owns and who won the Excuse); it keeps a lower and an upper bound and the best lead;
* merging of equivalent cards: two cards of one hand worth the same points with no card still out
  between them in play order (the trick in play included) play alike, so only one is searched;
* move ordering: the table's lead first, then high leads; when following, a partner's winning trick
  is loaded with points, an opponent's is won with the cheapest winning card or given the cheapest.
* bounds at each trick's start: the values if the defence, or the taker's side, took every card
  left (the value grows with the taker's points and oudlers; the Excuse, petit au bout and the
  chelem counted at their worst and best); a window outside them cuts the trick at once.  Bounds
  from sure tricks (top cards that must win) are not used yet.

The search runs on an explicit stack (Numba's on-disk cache mishandles recursive functions), and
everything lives in one int64 workspace (``new_workspace``): the hands, the per-ply move lists and
frames and the table, so it allocates nothing.  A node limit (``W_NODE_LIMIT``) bounds a search's
time, for callers with a budget (PIMC).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.heuristic import (ALL_TRUMPS, EXCUSE_ID, EXCUSE_MASK, FIRST_TRUMP_ID, HALF_POINTS, ONE, ZERO, lowest_bit,
                               popcount)
from kernels.playout import (BEST, BEST_SEAT, CALLED, CHELEM, CONTRACT, EXCUSE_OWNER, EXCUSE_SEAT, EXCUSE_TRICK,
                             EXCUSE_WINNER, GARDE_CONTRE, HAND_SIZE, LEADER, LED, PARTNER, PETIT_TRICK, PETIT_WINNER, PAB_FLAT,
                             PLAYERS, POIGNEE, POINTS, TAKER, TAKER_HP, TAKER_OUDLERS, TAKER_TRICKS, TOP,
                             TRICK, TRICK_CARDS, TRICK_LEN, contract_total, forbidden_first_lead, legal_from, pile_count,
                             play_card, settle)

INF = np.int64(1) << np.int64(40)
MAX_MOVES = 24                 # a 3-player hand
MAX_PLIES = 79

# Workspace layout (int64).
W_HS = 16                      # suit word of each seat's hand, then the trump words
W_HT = 21
W_SIDE = 26                    # 1 for the taker's side, per seat
W_PLAYERS = 31
W_TAKER = 32
W_PARTNER = 33
W_CONTRACT = 34
W_CHELEM = 35
W_POIGNEE = 36
W_PAB_FLAT = 37
W_CALLED = 38
W_ASIDE_HP = 39
W_ASIDE_OUDLERS = 40
W_ASIDE_CARDS = 41
W_NODES = 42
W_STAMP = 43
W_TT_MASK = 44
W_NODE_LIMIT = 45               # a search stops (ABORTED) past this many nodes; 0: no limit
W_MOVES = 64                                   # per ply: MAX_MOVES cards, then their ordering keys
W_KEYS = W_MOVES + MAX_PLIES * MAX_MOVES
W_STACK = W_KEYS + MAX_PLIES * MAX_MOVES       # one frame per ply (fields below)
# Stack frame fields: one frame per ply, the position then the search's bookkeeping.
F_TRICK, F_N, F_LEADER, F_LED, F_TOP, F_BEST, F_BEST_SEAT, F_POINTS, F_EXCUSE_SEAT = 0, 1, 2, 3, 4, 5, 6, 7, 8
F_TRICK_S, F_TRICK_T = 9, 10            # cards of the trick in play
F_TAKER_TRICKS, F_TAKER_HP, F_OUDLERS = 11, 12, 13
F_EXC_TRICK, F_EXC_OWNER, F_EXC_WINNER, F_PETIT_TRICK, F_PETIT_WINNER = 14, 15, 16, 17, 18
F_ALPHA, F_BETA, F_A0, F_B0, F_VALUE, F_BEST_MOVE = 19, 20, 21, 22, 23, 24
F_SLOT, F_K1, F_K2, F_COUNT, F_NEXT, F_SEAT, F_MAX, F_CARD = 25, 26, 27, 28, 29, 30, 31, 32
FRAME = 33
W_TT = W_STACK + MAX_PLIES * FRAME            # the table
TT_ENTRY = 6                                   # remaining suit cards, packed key, stamp, lower, upper, lead
DEFAULT_TT_BITS = 16

# Ranks by their points, and the trump oudlers, to count the points of a set of cards.
JACKS = np.uint64(sum(1 << (14 * s + 10) for s in range(4)))
KNIGHTS = JACKS << np.uint64(1)
QUEENS = JACKS << np.uint64(2)
KINGS = JACKS << np.uint64(3)
TRUMP_OUDLERS = np.uint64(1 | 1 << 20)

# Cards that may merge with their neighbour: ranks 1-10 of a suit (one half-point each) and trumps 2-20.
LOW_SUIT_BITS = np.uint64(sum(((1 << 10) - 1) << (14 * s) for s in range(4)))
MID_TRUMP_BITS = np.uint64(((1 << 20) - 1) & ~1)


@njit(cache=True)
def new_workspace(tt_bits=DEFAULT_TT_BITS):
    """A zeroed workspace with a table of 2**tt_bits entries (reusable across solves of any deal)."""
    w = np.zeros(W_TT + TT_ENTRY * (1 << tt_bits), dtype=np.int64)
    w[W_TT_MASK] = (1 << tt_bits) - 1
    return w


@njit(cache=True)
def seat_share(players, taker, partner, seat):
    """A seat's score per unit of ``total`` (docs/rules.md, "Scoring")."""
    if seat == taker:
        if players == 4:
            return 3
        if players == 3 or partner >= 0:
            return 2
        return 4
    if seat == partner:
        return 1
    return -1


@njit(cache=True)
def load(hs, ht, st, w, fresh):
    """Copy a position's hands and fixed facts into the workspace.  ``fresh``: a new stamp empties the
    table (needed for another deal; positions of one deal may share it)."""
    players = st[PLAYERS]
    for s in range(5):
        w[W_HS + s] = np.int64(hs[s]) if s < players else 0
        w[W_HT + s] = np.int64(ht[s]) if s < players else 0
        w[W_SIDE + s] = 1 if s < players and (s == st[TAKER] or s == st[PARTNER]) else 0
    w[W_PLAYERS] = players
    w[W_TAKER] = st[TAKER]
    w[W_PARTNER] = st[PARTNER]
    w[W_CONTRACT] = st[CONTRACT]
    w[W_CHELEM] = st[CHELEM]
    w[W_POIGNEE] = st[POIGNEE]
    w[W_PAB_FLAT] = st[PAB_FLAT]
    w[W_CALLED] = st[CALLED]
    w[W_ASIDE_HP], w[W_ASIDE_OUDLERS], w[W_ASIDE_CARDS] = pile_count(hs[players], ht[players])
    w[W_NODES] = 0
    if fresh:
        w[W_STAMP] += 1


@njit(cache=True, inline="always")
def final_total(w, taker_tricks, taker_hp, oudlers, exc_trick, exc_owner, exc_winner, petit_trick, petit_winner):
    """``total`` of the finished deal."""
    players = w[W_PLAYERS]
    n_tricks = HAND_SIZE[players]
    side_all = 1 if taker_tricks == n_tricks else (-1 if taker_tricks == 0 else 0)
    hp, oud, pab, chelem = settle(players, w[W_CONTRACT], taker_hp, oudlers, w[W_ASIDE_HP], w[W_ASIDE_OUDLERS],
                                  exc_trick, exc_owner, exc_winner, petit_trick, petit_winner,
                                  side_all, taker_tricks, w[W_CHELEM])
    return contract_total(w[W_CONTRACT], hp, oud, pab, chelem, w[W_POIGNEE], w[W_PAB_FLAT])[0]


@njit(cache=True, inline="always")
def beats(card, suit, led, best):
    """Whether ``card`` (of ``suit``; not the Excuse) takes the lead of a trick whose best card is
    ``best`` (-1: none yet) and suit led ``led`` (-1: none yet)."""
    if best == -1:
        return True
    if suit == 4:
        return best < FIRST_TRUMP_ID or card > best
    return suit == led and best < FIRST_TRUMP_ID and card > best


@njit(cache=True, inline="always")
def merge_skip(bit, legal, out, mergeable):
    """Whether the card ``bit`` is searched through an equivalent card above it: the next card still
    out above it (``out``: the hands and the trick in play) is legal in this hand and every rank from
    one to the other is ``mergeable`` (low cards of one suit, or middle trumps: one half-point each)."""
    if bit & mergeable == ZERO:
        return False
    above = out & ~((bit << ONE) - ONE)
    if above == ZERO:
        return False
    first = above & (~above + ONE)
    return first & legal != ZERO and ((first << ONE) - bit) & ~mergeable == ZERO


@njit(cache=True, forceinline=True)
def gen_moves(w, ply, seat, led, top, best, best_seat, trick, n, trick_s, trick_t, tt_move):
    """Fill the ply's move list (one card per class of equivalent cards), best first; returns its size."""
    players = w[W_PLAYERS]
    hand_s = np.uint64(w[W_HS + seat])
    hand_t = np.uint64(w[W_HT + seat])
    legal_s, legal_t = legal_from(hand_s, hand_t, led, top, forbidden_first_lead(w[W_CALLED], trick, n))
    out_s = np.uint64(trick_s)
    out_t = np.uint64(trick_t)
    for s in range(players):
        out_s |= np.uint64(w[W_HS + s])
        out_t |= np.uint64(w[W_HT + s])
    base = W_MOVES + ply * MAX_MOVES
    kbase = W_KEYS + ply * MAX_MOVES
    mine = w[W_SIDE + seat]
    ally_wins = best_seat >= 0 and w[W_SIDE + best_seat] == mine
    k = 0
    for word in range(2):
        x = legal_s if word == 0 else legal_t
        while x != ZERO:
            bit = x & (~x + ONE)
            x &= x - ONE
            if word == 0:
                if merge_skip(bit, legal_s, out_s, LOW_SUIT_BITS):
                    continue
                card = lowest_bit(bit)
            else:
                if merge_skip(bit, legal_t, out_t, MID_TRUMP_BITS):
                    continue
                card = FIRST_TRUMP_ID + lowest_bit(bit)
            hp = HALF_POINTS[card]
            if card == tt_move:
                key = 1000
            elif card == EXCUSE_ID:
                key = 200 if n > 0 and not ally_wins else 40
            elif n == 0:
                # Leading: high cards first (trumps by rank, then suit cards by rank).
                key = 300 + (card - FIRST_TRUMP_ID) if card >= FIRST_TRUMP_ID else 200 + card % 14
            else:
                suit = card // 14 if card < FIRST_TRUMP_ID else 4
                wins = beats(card, suit, led if led >= 0 else suit, best)
                if ally_wins and not wins:
                    key = 500 + hp * 10 - card % 14      # load the partner's trick
                elif wins:
                    key = 600 - (card - FIRST_TRUMP_ID if suit == 4 else card % 14) + hp * 3
                else:
                    key = 100 - hp * 10 - (card % 14 if card < FIRST_TRUMP_ID else 0)
            # Insertion by key, highest first.
            j = k
            while j > 0 and w[kbase + j - 1] < key:
                w[base + j] = w[base + j - 1]
                w[kbase + j] = w[kbase + j - 1]
                j -= 1
            w[base + j] = card
            w[kbase + j] = key
            k += 1
    return k


@njit(cache=True, forceinline=True)
def value_bounds(w, f, rest_s, rest_t, trick):
    """(lowest, highest) value of the position at a trick's start with two tricks or more to go: the
    values if the defence, or the taker's side, took every card left (the Excuse counted 0 to 4.5
    points, petit au bout and the chelem at their worst and best).  ``total`` grows with the
    taker's points and oudlers, so these bound every outcome."""
    players = w[W_PLAYERS]
    n_tricks = HAND_SIZE[players]
    rs = np.uint64(rest_s)
    rt = np.uint64(rest_t)
    rest_hp = popcount(rs) + 2 * popcount(rs & JACKS) + 4 * popcount(rs & KNIGHTS) + 6 * popcount(rs & QUEENS) + \
        8 * popcount(rs & KINGS) + popcount(rt & ALL_TRUMPS) + 8 * popcount(rt & TRUMP_OUDLERS)
    rest_oudlers = popcount(rt & TRUMP_OUDLERS)
    contract = w[W_CONTRACT]
    hp = w[f + F_TAKER_HP]
    oudlers = w[f + F_OUDLERS]
    if contract != GARDE_CONTRE:
        hp += w[W_ASIDE_HP]
        oudlers += w[W_ASIDE_OUDLERS]
    excuse = 1 if rt & EXCUSE_MASK != ZERO or w[f + F_EXC_TRICK] >= 0 else 0
    petit = 1 if rt & ONE != ZERO else 0
    taken = w[f + F_TAKER_TRICKS]
    announced = w[W_CHELEM]
    if announced == 1:
        chelem_hi = 1 if taken == trick else 3
        chelem_lo = 3
    elif announced == 2:
        chelem_hi = 5 if taken + n_tricks - trick >= n_tricks - 1 else 6
        chelem_lo = 6
    else:
        chelem_hi = 2 if taken == trick else 0
        chelem_lo = 4 if taken == 0 else 0
    hi = contract_total(contract, hp + rest_hp + 9 * excuse, oudlers + rest_oudlers + excuse, petit, chelem_hi,
                        w[W_POIGNEE], w[W_PAB_FLAT])[0]
    lo = contract_total(contract, hp, oudlers, -petit, chelem_lo, w[W_POIGNEE], w[W_PAB_FLAT])[0]
    return lo, hi


@njit(cache=True, inline="always")
def tt_slot(w, k1, k2):
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return W_TT + TT_ENTRY * np.int64(h & np.uint64(w[W_TT_MASK]))


PENDING = -(np.int64(1) << np.int64(50))       # a node whose moves are still being searched
ABORTED = -(np.int64(1) << np.int64(51))       # the node limit was reached


@njit(cache=True, forceinline=True)
def enter(w, f, ply, only):
    """Open the node in frame ``f``: its value if known at once (the end of the deal, or the table),
    else PENDING with its moves listed (``only`` >= 0: that card alone)."""
    w[W_NODES] += 1
    players = w[W_PLAYERS]
    n_tricks = HAND_SIZE[players]
    trick = w[f + F_TRICK]
    if trick == n_tricks:
        return final_total(w, w[f + F_TAKER_TRICKS], w[f + F_TAKER_HP], w[f + F_OUDLERS], w[f + F_EXC_TRICK],
                           w[f + F_EXC_OWNER], w[f + F_EXC_WINNER], w[f + F_PETIT_TRICK], w[f + F_PETIT_WINNER])
    n = w[f + F_N]
    leader = w[f + F_LEADER]
    seat = leader + n
    if seat >= players:
        seat -= players
    w[f + F_SEAT] = seat
    maximise = w[W_SIDE + seat]
    w[f + F_MAX] = maximise
    alpha = w[f + F_ALPHA]
    beta = w[f + F_BETA]
    slot = -1
    tt_move = -1
    if n == 0 and n_tricks - trick >= 2 and only < 0:
        rest_s = np.int64(0)        # not a constant 0, for which value_bounds would be compiled once more
        rest_t = np.int64(0)
        for s in range(players):
            rest_s |= w[W_HS + s]
            rest_t |= w[W_HT + s]
        exc_trick = w[f + F_EXC_TRICK]
        exc_state = 0 if exc_trick < 0 else 1 + 2 * w[f + F_EXC_OWNER] + w[f + F_EXC_WINNER]
        k1 = rest_s
        k2 = rest_t | leader << 22 | w[f + F_TAKER_HP] << 25 | w[f + F_OUDLERS] << 34 | \
            w[f + F_TAKER_TRICKS] << 36 | exc_state << 41
        slot = tt_slot(w, k1, k2)
        w[f + F_K1] = k1
        w[f + F_K2] = k2
        lo, hi = value_bounds(w, f, rest_s, rest_t, trick)
        if w[slot + 2] == w[W_STAMP] and w[slot] == k1 and w[slot + 1] == k2:
            lo = max(lo, w[slot + 3])
            hi = min(hi, w[slot + 4])
            tt_move = w[slot + 5]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    w[f + F_SLOT] = slot
    w[f + F_ALPHA] = alpha
    w[f + F_BETA] = beta
    w[f + F_A0] = alpha
    w[f + F_B0] = beta
    if only >= 0:
        w[W_MOVES + ply * MAX_MOVES] = only
        w[f + F_COUNT] = 1
    else:
        w[f + F_COUNT] = gen_moves(w, ply, seat, w[f + F_LED], w[f + F_TOP], w[f + F_BEST], w[f + F_BEST_SEAT],
                                   trick, n, w[f + F_TRICK_S], w[f + F_TRICK_T], tt_move)
    w[f + F_NEXT] = 0
    w[f + F_VALUE] = -INF if maximise == 1 else INF
    w[f + F_BEST_MOVE] = -1
    return PENDING


@njit(cache=True, forceinline=True)
def descend(w, f, card):
    """Play ``card`` in the node of frame ``f``: the child's position goes to the next frame."""
    players = w[W_PLAYERS]
    n_tricks = HAND_SIZE[players]
    c = f + FRAME
    seat = w[f + F_SEAT]
    w[f + F_CARD] = card
    trick_s = w[f + F_TRICK_S]
    trick_t = w[f + F_TRICK_T]
    if card < FIRST_TRUMP_ID:
        bit = np.int64(1) << card
        w[W_HS + seat] ^= bit
        suit = card // 14
        trick_s |= bit
    else:
        bit = np.int64(1) << (card - FIRST_TRUMP_ID)
        w[W_HT + seat] ^= bit
        suit = 4 if card < EXCUSE_ID else 5
        trick_t |= bit
    led = w[f + F_LED]
    top = w[f + F_TOP]
    best = w[f + F_BEST]
    best_seat = w[f + F_BEST_SEAT]
    points = w[f + F_POINTS]
    excuse_seat = w[f + F_EXCUSE_SEAT]
    if card == EXCUSE_ID:
        excuse_seat = seat
    else:
        points += HALF_POINTS[card]
        if led == -1:
            led = suit
        if beats(card, suit, led, best):
            best = card
            best_seat = seat
        if suit == 4 and card > top:
            top = card
    for i in range(F_TRICK, F_PETIT_WINNER + 1):
        w[c + i] = w[f + i]
    w[c + F_ALPHA] = w[f + F_ALPHA]
    w[c + F_BETA] = w[f + F_BETA]
    n = w[f + F_N]
    if n + 1 < players:
        w[c + F_N] = n + 1
        w[c + F_LED] = led
        w[c + F_TOP] = top
        w[c + F_BEST] = best
        w[c + F_BEST_SEAT] = best_seat
        w[c + F_POINTS] = points
        w[c + F_EXCUSE_SEAT] = excuse_seat
        w[c + F_TRICK_S] = trick_s
        w[c + F_TRICK_T] = trick_t
        return
    # The trick is complete: to its winner (playout.advance's count, on scalars).
    trick = w[f + F_TRICK]
    taker_tricks = w[f + F_TAKER_TRICKS]
    winner = best_seat
    if excuse_seat >= 0:
        owner = w[W_SIDE + excuse_seat]
        side_all = 1 if taker_tricks == trick else (-1 if taker_tricks == 0 else 0)
        if trick == n_tricks - 1 and trick > 0 and side_all == (1 if owner == 1 else -1):
            winner = excuse_seat            # the chelem exception: the Excuse wins the last trick
        w[c + F_EXC_TRICK] = trick
        w[c + F_EXC_OWNER] = owner
    wside = w[W_SIDE + winner]
    if excuse_seat >= 0:
        w[c + F_EXC_WINNER] = wside
    if trick_t & 1:
        w[c + F_PETIT_TRICK] = trick
        w[c + F_PETIT_WINNER] = wside
        w[c + F_OUDLERS] += wside
    if trick_t & (1 << 20):
        w[c + F_OUDLERS] += wside
    if wside == 1:
        w[c + F_TAKER_HP] += points
        w[c + F_TAKER_TRICKS] += 1
    w[c + F_TRICK] = trick + 1
    w[c + F_N] = 0
    w[c + F_LEADER] = winner
    w[c + F_LED] = -1
    w[c + F_TOP] = -1
    w[c + F_BEST] = -1
    w[c + F_BEST_SEAT] = -1
    w[c + F_POINTS] = 0
    w[c + F_EXCUSE_SEAT] = -1
    w[c + F_TRICK_S] = 0
    w[c + F_TRICK_T] = 0


@njit(cache=True, forceinline=True)
def close(w, f):
    """The value of the searched node of frame ``f``, stored in the table where it is probed."""
    value = w[f + F_VALUE]
    slot = w[f + F_SLOT]
    if slot >= 0:
        k1 = w[f + F_K1]
        k2 = w[f + F_K2]
        lo = -INF
        hi = INF
        if w[slot + 2] == w[W_STAMP] and w[slot] == k1 and w[slot + 1] == k2:
            lo = w[slot + 3]
            hi = w[slot + 4]
        if value <= w[f + F_A0]:
            hi = min(hi, value)
        elif value >= w[f + F_B0]:
            lo = max(lo, value)
        else:
            lo = value
            hi = value
        w[slot] = k1
        w[slot + 1] = k2
        w[slot + 2] = w[W_STAMP]
        w[slot + 3] = lo
        w[slot + 4] = hi
        w[slot + 5] = w[f + F_BEST_MOVE]
    return value


@njit(cache=True)
def search(w, only):
    """Value (``total``) of the position in frame 0 under perfect play, fail-soft within the frame's
    (alpha, beta): a value at most alpha is an upper bound, one at least beta a lower bound.
    ``only`` >= 0: the value of playing that card (the root's per-card values), -1: of the position.
    An explicit stack: no recursion, nothing allocated.  Returns ABORTED past the node limit (the
    hands in the workspace are then left as they were at that point: ``load`` again)."""
    limit = w[W_NODE_LIMIT]
    ply = np.int64(0)
    f = np.int64(W_STACK)       # np.int64: not constants, for which enter would be compiled once more
    v = enter(w, f, ply, only)
    while True:
        if v == PENDING:
            i = w[f + F_NEXT]
            if i < w[f + F_COUNT] and w[f + F_ALPHA] < w[f + F_BETA]:
                w[f + F_NEXT] = i + 1
                if limit > 0 and w[W_NODES] >= limit:
                    return ABORTED
                descend(w, f, w[W_MOVES + ply * MAX_MOVES + i])
                ply += 1
                f += FRAME
                v = enter(w, f, ply, np.int64(-1))
                continue
            v = close(w, f)
        if ply == 0:
            return v
        ply -= 1
        f -= FRAME
        card = w[f + F_CARD]
        seat = w[f + F_SEAT]
        if card < FIRST_TRUMP_ID:
            w[W_HS + seat] ^= np.int64(1) << card
        else:
            w[W_HT + seat] ^= np.int64(1) << (card - FIRST_TRUMP_ID)
        if w[f + F_MAX] == 1:
            if v > w[f + F_VALUE]:
                w[f + F_VALUE] = v
                w[f + F_BEST_MOVE] = card
                if v > w[f + F_ALPHA]:
                    w[f + F_ALPHA] = v
        elif v < w[f + F_VALUE]:
            w[f + F_VALUE] = v
            w[f + F_BEST_MOVE] = card
            if v < w[f + F_BETA]:
                w[f + F_BETA] = v
        v = PENDING


@njit(cache=True)
def trick_words(st):
    """The cards of the trick in play (suit word, trump word), as int64."""
    trick_s = 0
    trick_t = 0
    for i in range(st[TRICK_LEN]):
        c = st[TRICK_CARDS + i]
        if c < FIRST_TRUMP_ID:
            trick_s |= np.int64(1) << c
        else:
            trick_t |= np.int64(1) << (c - FIRST_TRUMP_ID)
    return trick_s, trick_t


# The root frame's fields and the state vector's entries they come from.
ROOT_FIELDS = np.array([[F_TRICK, TRICK], [F_N, TRICK_LEN], [F_LEADER, LEADER], [F_LED, LED], [F_TOP, TOP],
                        [F_BEST, BEST], [F_BEST_SEAT, BEST_SEAT], [F_POINTS, POINTS], [F_EXCUSE_SEAT, EXCUSE_SEAT],
                        [F_TAKER_TRICKS, TAKER_TRICKS], [F_TAKER_HP, TAKER_HP], [F_OUDLERS, TAKER_OUDLERS],
                        [F_EXC_TRICK, EXCUSE_TRICK], [F_EXC_OWNER, EXCUSE_OWNER], [F_EXC_WINNER, EXCUSE_WINNER],
                        [F_PETIT_TRICK, PETIT_TRICK], [F_PETIT_WINNER, PETIT_WINNER]], dtype=np.int64)


@njit(cache=True)
def set_root(w, st, alpha, beta):
    """Frame 0 := the position ``st`` (the hands are loaded by ``load``), searched within (alpha, beta)."""
    f = W_STACK
    trick_s, trick_t = trick_words(st)
    for i in range(ROOT_FIELDS.shape[0]):
        w[f + ROOT_FIELDS[i, 0]] = st[ROOT_FIELDS[i, 1]]
    w[f + F_TRICK_S] = trick_s
    w[f + F_TRICK_T] = trick_t
    w[f + F_ALPHA] = alpha
    w[f + F_BETA] = beta


@njit(cache=True)
def search_card(w, st, card):
    """Value of playing ``card`` (legal) now in the loaded position ``st``."""
    set_root(w, st, -INF, INF)
    return search(w, card)


@njit(cache=True)
def card_values(hs, ht, st, w, fresh, cards, values):
    """Every legal card of the seat to play and its value (``total`` under perfect play from there),
    into ``cards``/``values``; returns their number, or -1 if the node limit (``W_NODE_LIMIT``, over
    all the cards) stopped the search.  Equivalent cards share one search."""
    load(hs, ht, st, w, fresh)
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    legal_s, legal_t = legal_from(hs[seat], ht[seat], st[LED], st[TOP],
                                  forbidden_first_lead(st[CALLED], st[TRICK], st[TRICK_LEN]))
    trick_s, trick_t = trick_words(st)
    out_s = np.uint64(trick_s)
    out_t = np.uint64(trick_t)
    for s in range(players):
        out_s |= hs[s]
        out_t |= ht[s]
    by_card = np.empty(78, dtype=np.int64)
    k = 0
    for word in range(2):                      # high cards first: a merged card's equivalent is above it
        legal = legal_t if word == 1 else legal_s
        out = out_t if word == 1 else out_s
        mergeable = MID_TRUMP_BITS if word == 1 else LOW_SUIT_BITS
        offset = FIRST_TRUMP_ID if word == 1 else 0
        for b in range(63, -1, -1):
            bit = ONE << np.uint64(b)
            if legal & bit == ZERO:
                continue
            card = offset + b
            if merge_skip(bit, legal, out, mergeable):
                above = out & ~((bit << ONE) - ONE)
                by_card[card] = by_card[offset + lowest_bit(above)]
            else:
                by_card[card] = search_card(w, st, card)
                if by_card[card] == ABORTED:
                    return -1
            cards[k] = card
            values[k] = by_card[card]
            k += 1
    return k


@njit(cache=True)
def best_index(w, seat, values, k):
    """Index of the best of ``k`` values for ``seat``'s side (the first of equals: ``card_values``
    lists the suit cards from the highest, then the trumps from the highest)."""
    best = 0
    for i in range(1, k):
        if (values[i] > values[best]) if w[W_SIDE + seat] == 1 else (values[i] < values[best]):
            best = i
    return best


@njit(cache=True)
def solve_line(hs, ht, st, w, cards, values, line):
    """Every legal card's value now (``card_values``), then the principal line to the end of the deal
    (each side playing its best card, the first of equals) into ``line``.  ``hs``/``ht``/``st`` are
    left as they were.  Returns (legal cards, cards in the line, nodes searched in all)."""
    players = st[PLAYERS]
    k = card_values(hs, ht, st, w, np.bool_(True), cards, values)
    nodes = w[W_NODES]
    play_s = hs.copy()
    play_t = ht.copy()
    play_st = st.copy()
    step_cards = np.empty(MAX_MOVES, dtype=np.int64)
    step_values = np.empty(MAX_MOVES, dtype=np.int64)
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    card = cards[best_index(w, seat, values, k)]
    length = 0
    while True:
        line[length] = card
        length += 1
        play_card(play_s, play_t, play_st, card)
        if play_st[TRICK] == HAND_SIZE[players]:
            break
        m = card_values(play_s, play_t, play_st, w, np.bool_(False), step_cards, step_values)
        nodes += w[W_NODES]
        seat = (play_st[LEADER] + play_st[TRICK_LEN]) % players
        card = step_cards[best_index(w, seat, step_values, m)]
    return k, length, nodes
