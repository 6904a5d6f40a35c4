"""The bitmask playout engine: one deal from the first card (or from any point of play) to its score.

A position is three arrays, so that a kernel can copy it cheaply and many run side by side:

* ``hs``/``ht`` (uint64, P+1 entries): the suit word and the trump word (trumps 1-21 in bits 0-20,
  the Excuse in bit 21) of each seat's hand, entry P being the cards put aside (discard or chien);
* ``st`` (int64, ``STATE_SIZE``): everything else, at the indices named below: the contract and sides,
  the trick in play, what each seat may infer (revealed voids), and what the count needs at the end
  (points and oudlers won so far, where the Excuse and the Petit went, tricks won by each side).

Rules follow RULES.md and ``analyzer/game.py`` (the reference these kernels are tested against):
the Excuse's exchange and its last-trick and chelem exceptions, petit au bout (and its chelem
second-to-last case), poignées, chelems, the 3/5-player half-point rule and the 5-player shares.

Card-play policies are chosen per seat by id: ``RANDOM`` (uniform among legal cards) and
``HEURISTIC`` (``kernels/heuristic.py``).  Randomness comes from an explicit SplitMix64 state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.declarations import announce_chelem, call_card, poignee_to_show
from kernels.discard import heuristic_discard
from kernels.heuristic import (ALL_TRUMPS, EXCUSE_ID, EXCUSE_MASK, FIRST_TRUMP_ID, HALF_POINTS, ONE, PETIT_ID,
                               TWENTY_ONE_ID, ZERO, heuristic_card, lowest_bit, popcount, suit_bits)
from kernels.worlds import splitmix64

RANDOM = 0
HEURISTIC = 1

# Contracts as ints, as in kernels/bidding.py.
PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 1, 2, 3, 4
MULTIPLIER = np.array([0, 1, 2, 4, 6], dtype=np.int64)
TARGET_HP = np.array([112, 102, 82, 72], dtype=np.int64)
POIGNEE_BONUS = np.array([[20, 30, 40], [20, 40, 60]], dtype=np.int64)
HAND_SIZE = np.array([0, 0, 0, 24, 18, 15], dtype=np.int64)
CHIEN_SIZE = np.array([0, 0, 0, 6, 6, 3], dtype=np.int64)

# Indices into the state vector ``st``.
PLAYERS = 0
TAKER = 1
PARTNER = 2            # seat, or -1 (4 and 3 players, or a 5-player taker alone)
CONTRACT = 3
CALLED = 4             # called card id (5 players) or -1
CHELEM = 5             # 0 none, 1 chelem announced, 2 petit chelem announced (variant)
LEADER = 6
TRICK = 7              # index of the trick in play
TRICK_LEN = 8
TAKER_TRICKS = 9
TAKER_HP = 10          # half-points won in tricks by the taker's side (the Excuse apart)
TAKER_OUDLERS = 11     # the 21 and the Petit won by the taker's side
EXCUSE_TRICK = 12      # trick the Excuse was played in, or -1
EXCUSE_OWNER = 13      # 1 taker's side, 0 defence
EXCUSE_WINNER = 14     # side that won the Excuse's trick
PETIT_TRICK = 15
PETIT_WINNER = 16      # side that won the Petit's trick
POIGNEE = 17           # total of the poignée bonuses shown
PARTNER_KNOWN = 18     # 1 once the called card has been played
PAB_FLAT = 19          # variant: petit au bout a flat 10
POIGNEE_VALUES = 20    # variant: 0 for 20/30/40, 1 for 20/40/60
LAST_WINNER = 21       # seat that won the previous trick
LAST_TRICK_SIDE_ALL = 22   # 1 while every trick so far went to one side: +1 taker, -1 defence, 0 mixed
SHOWN_T = 23           # trump word of the discarded trumps shown (Prise/Garde)
TRICK_CARDS = 24       # P entries: cards of the trick in play
TRICK_SEATS = 29       # P entries: who played them
EXCL_S = 34            # P entries: suit cards each seat cannot hold (revealed in play)
EXCL_T = 39            # P entries: trump words each seat cannot hold
LED = 44               # the trick in play: suit led (0-3, 4 trumps, -1 none yet)
TOP = 45               # highest trump in it (card id) or -1
BEST = 46              # its winning card so far, or -1
BEST_SEAT = 47
POINTS = 48            # half-points in it, the Excuse apart
EXCUSE_SEAT = 49       # who played the Excuse in it, or -1
STATE_SIZE = 50

# Result vector (per deal): per-seat scores in 0..P-1, then these.
R_TAKER_HP = 5
R_OUDLERS = 6
R_PAB = 7              # +1 taker's side, -1 defence, 0 none
R_CHELEM = 8           # 0 none, 1 announced-made, 2 made, 3 announced-failed, 4 defence,
                       # 5 petit-announced-made, 6 petit-announced-failed
R_MADE = 9
R_TOTAL = 10           # per defender, seen from the taker's side
RESULT_SIZE = 11


@njit(cache=True, inline="always")
def side_of(st, seat):
    """1 for the taker's side, 0 for the defence."""
    return 1 if seat == st[TAKER] or seat == st[PARTNER] else 0


@njit(cache=True, inline="always")
def legal_words(hand_s, hand_t, st):
    """(suit word, trump word) of the legal cards of a hand in the trick in play."""
    led = st[LED]
    if led == -1:
        if st[TRICK_LEN] == 0 and st[TRICK] == 0 and st[CALLED] >= 0:
            called = st[CALLED]
            forbidden = suit_bits(called // 14) & ~(ONE << np.uint64(called))
            if hand_s & ~forbidden != ZERO or hand_t != ZERO:
                return hand_s & ~forbidden, hand_t
        return hand_s, hand_t
    excuse = hand_t & EXCUSE_MASK
    if led < 4:
        follow = hand_s & suit_bits(led)
        if follow != ZERO:
            return follow, excuse
    trumps = hand_t & ALL_TRUMPS
    if trumps != ZERO:
        top = st[TOP]
        if top >= 0:
            over = trumps & ~((ONE << np.uint64(top - FIRST_TRUMP_ID + 1)) - ONE)
            if over != ZERO:
                return ZERO, over | excuse
        return ZERO, trumps | excuse
    return hand_s, hand_t


@njit(cache=True, inline="always")
def reveal(st, seat, card, suit):
    """What ``seat`` playing ``card`` (of ``suit``) tells everybody: voids, no trumps, no trump above
    the trick's highest."""
    led = st[LED]
    if led == -1 or card == EXCUSE_ID:
        return
    if suit != led:
        if led < 4:
            st[EXCL_S + seat] |= np.int64(suit_bits(led))
        if suit != 4:
            st[EXCL_T + seat] |= np.int64(ALL_TRUMPS)
    top = st[TOP]
    if suit == 4 and top >= 0 and card < top:
        st[EXCL_T + seat] |= np.int64(ALL_TRUMPS & ~((ONE << np.uint64(top - FIRST_TRUMP_ID + 1)) - ONE))


@njit(cache=True, inline="always")
def new_trick(st, leader):
    st[LEADER] = leader
    st[TRICK_LEN] = 0
    st[LED] = -1
    st[TOP] = -1
    st[BEST] = -1
    st[BEST_SEAT] = -1
    st[POINTS] = 0
    st[EXCUSE_SEAT] = -1


@njit(cache=True, inline="always")
def play_card(hs, ht, st, card):
    """The seat to play plays ``card`` (assumed legal); resolves the trick when it is complete."""
    players = st[PLAYERS]
    n = st[TRICK_LEN]
    seat = st[LEADER] + n
    if seat >= players:
        seat -= players
    if card < FIRST_TRUMP_ID:
        suit = card // 14
        hs[seat] &= ~(ONE << np.uint64(card))
    else:
        suit = 4 if card < EXCUSE_ID else 5
        ht[seat] &= ~(ONE << np.uint64(card - FIRST_TRUMP_ID))
    reveal(st, seat, card, suit)
    st[TRICK_CARDS + n] = card
    st[TRICK_SEATS + n] = seat
    st[TRICK_LEN] = n + 1
    if card == st[CALLED]:
        st[PARTNER_KNOWN] = 1
    if card == EXCUSE_ID:
        st[EXCUSE_SEAT] = seat
    else:
        st[POINTS] += HALF_POINTS[card]
        if st[LED] == -1:
            st[LED] = suit
        best = st[BEST]
        if best == -1:
            wins = True
        elif suit == 4:
            wins = best < FIRST_TRUMP_ID or card > best
        else:
            wins = best < FIRST_TRUMP_ID and suit == st[LED] and card > best
        if wins:
            st[BEST] = card
            st[BEST_SEAT] = seat
        if suit == 4 and card > st[TOP]:
            st[TOP] = card
    if n + 1 == players:
        end_trick(st)


@njit(cache=True, inline="always")
def end_trick(st):
    """Give the complete trick to its winner and note what the count will need."""
    players = st[PLAYERS]
    last = st[TRICK] == HAND_SIZE[players] - 1
    winner = st[BEST_SEAT]
    excuse_seat = st[EXCUSE_SEAT]
    if excuse_seat >= 0:
        owner = side_of(st, excuse_seat)
        if last and st[TRICK] > 0 and st[LAST_TRICK_SIDE_ALL] == (1 if owner == 1 else -1):
            winner = excuse_seat                # the chelem exception: the Excuse wins the last trick
        st[EXCUSE_TRICK] = st[TRICK]
        st[EXCUSE_OWNER] = owner
    wside = side_of(st, winner)
    if excuse_seat >= 0:
        st[EXCUSE_WINNER] = wside
    for i in range(players):
        c = st[TRICK_CARDS + i]
        if c == PETIT_ID:
            st[PETIT_TRICK] = st[TRICK]
            st[PETIT_WINNER] = wside
            if wside == 1:
                st[TAKER_OUDLERS] += 1
        elif c == TWENTY_ONE_ID and wside == 1:
            st[TAKER_OUDLERS] += 1
    if wside == 1:
        st[TAKER_HP] += st[POINTS]
        st[TAKER_TRICKS] += 1
    sign = 1 if wside == 1 else -1
    if st[TRICK] == 0:
        st[LAST_TRICK_SIDE_ALL] = sign
    elif st[LAST_TRICK_SIDE_ALL] != sign:
        st[LAST_TRICK_SIDE_ALL] = 0
    st[LAST_WINNER] = winner
    st[TRICK] += 1
    new_trick(st, winner)


@njit(cache=True)
def finish(hs, ht, st, result):
    """Count the deal and score it into ``result`` (per-seat scores, then the R_* fields)."""
    players = st[PLAYERS]
    n_tricks = HAND_SIZE[players]
    contract = st[CONTRACT]
    taker_hp = st[TAKER_HP]
    oudlers = st[TAKER_OUDLERS]
    aside_hp = 0
    aside_oudlers = 0
    x = hs[players]
    while x != ZERO:
        aside_hp += HALF_POINTS[lowest_bit(x)]
        x &= x - ONE
    x = ht[players]
    while x != ZERO:
        b = lowest_bit(x)
        aside_hp += HALF_POINTS[FIRST_TRUMP_ID + b]
        if b == 0 or b == 20 or b == 21:
            aside_oudlers += 1
        x &= x - ONE
    aside_cards = popcount(hs[players]) + popcount(ht[players])
    aside_to_taker = contract != GARDE_CONTRE
    if aside_to_taker:
        taker_hp += aside_hp
        oudlers += aside_oudlers
    # The Excuse (if it was played: in Garde sans/contre it may lie in the chien, counted above).
    if st[EXCUSE_TRICK] >= 0:
        owner = st[EXCUSE_OWNER]
        winners = st[EXCUSE_WINNER]
        if st[EXCUSE_TRICK] == n_tricks - 1 or owner == winners:
            keeper = winners
        else:
            owner_tricks = st[TAKER_TRICKS] if owner == 1 else n_tricks - st[TAKER_TRICKS]
            owner_has_cards = owner_tricks > 0 or (aside_cards > 0 and aside_to_taker == (owner == 1))
            if owner_has_cards:
                keeper = owner
                taker_hp += -1 if owner == 1 else 1          # the half-point card given in exchange
            else:
                keeper = winners
        if keeper == 1:
            taker_hp += HALF_POINTS[EXCUSE_ID]
            oudlers += 1
    # Petit au bout.
    pab = 0
    last = n_tricks - 1
    if st[PETIT_TRICK] == last:
        pab = 1 if st[PETIT_WINNER] == 1 else -1
    elif st[PETIT_TRICK] == last - 1 and st[EXCUSE_TRICK] == last and st[EXCUSE_OWNER] == st[EXCUSE_WINNER] \
            and st[LAST_TRICK_SIDE_ALL] == (1 if st[EXCUSE_OWNER] == 1 else -1):
        pab = 1 if st[PETIT_WINNER] == 1 else -1
    # Chelem.
    won = st[TAKER_TRICKS]
    if st[CHELEM] == 1:
        chelem = 1 if won == n_tricks else 3
    elif st[CHELEM] == 2:
        chelem = 5 if won >= n_tricks - 1 else 6
    elif won == n_tricks:
        chelem = 2
    elif won == 0:
        chelem = 4
    else:
        chelem = 0
    score_into(players, contract, taker_hp, oudlers, pab, chelem, st[POIGNEE], st[PAB_FLAT], st[TAKER],
               st[PARTNER], result)


@njit(cache=True)
def score_into(players, contract, taker_hp, oudlers, pab, chelem, poignee, pab_flat, taker, partner, result):
    """The FFT score of a counted deal (RULES.md, "Scoring"), per seat and in its parts."""
    target = TARGET_HP[oudlers]
    if taker_hp % 2 == 0:
        points = taker_hp // 2
    elif taker_hp >= target:
        points = (taker_hp + 1) // 2
    else:
        points = (taker_hp - 1) // 2
    margin = points - target // 2
    made = margin >= 0
    sign = 1 if made else -1
    mult = MULTIPLIER[contract]
    total = sign * (25 + abs(margin)) * mult
    total += pab * (10 if pab_flat else 10 * mult)
    total += sign * poignee
    if chelem == 1:
        total += 400
    elif chelem == 2:
        total += 200
    elif chelem == 3 or chelem == 4:
        total -= 200
    elif chelem == 5:
        total += 300
    elif chelem == 6:
        total -= 150
    for s in range(players):
        result[s] = -total
    if players == 4:
        result[taker] = 3 * total
    elif players == 3:
        result[taker] = 2 * total
    elif partner >= 0:
        result[taker] = 2 * total
        result[partner] = total
    else:
        result[taker] = 4 * total
    result[R_TAKER_HP] = taker_hp
    result[R_OUDLERS] = oudlers
    result[R_PAB] = pab
    result[R_CHELEM] = chelem
    result[R_MADE] = 1 if made else 0
    result[R_TOTAL] = total


@njit(cache=True)
def start_play(hs, ht, st, players, taker, contract, called, chelem, discard_s, discard_t, poignee_levels,
               pab_flat, poignee_values):
    """Fill ``hs``/``ht``/``st`` for the first card.

    On entry ``hs``/``ht`` hold the dealt hands and the chien (entry P).  For Prise and Garde the
    taker takes the chien and puts ``discard_s``/``discard_t`` aside (given; see ``deal_to_play`` for
    the policies' own).  ``poignee_levels[s]`` is the level seat s shows (-1 none)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[PLAYERS] = players
    st[TAKER] = taker
    st[CONTRACT] = contract
    st[CALLED] = called
    st[CHELEM] = chelem
    st[PAB_FLAT] = pab_flat
    st[POIGNEE_VALUES] = poignee_values
    st[PARTNER] = -1
    st[EXCUSE_TRICK] = -1
    st[PETIT_TRICK] = -1
    if called >= 0:
        b = ONE << np.uint64(called)        # a called card is a suit card
        for s in range(players):
            if hs[s] & b != ZERO and s != taker:
                st[PARTNER] = s
    if called >= 0 and contract <= GARDE:
        if hs[players] & (ONE << np.uint64(called)) != ZERO:
            st[PARTNER_KNOWN] = 1                # the chien is shown: the taker is alone, for all to see
    if contract <= GARDE:
        hs[taker] |= hs[players]
        ht[taker] |= ht[players]
        hs[taker] &= ~discard_s
        ht[taker] &= ~discard_t
        hs[players] = discard_s
        ht[players] = discard_t
        st[SHOWN_T] = np.int64(discard_t)
    bonus = 0
    for s in range(players):
        if poignee_levels[s] >= 0:
            bonus += POIGNEE_BONUS[poignee_values, poignee_levels[s]]
    st[POIGNEE] = bonus
    st[LAST_WINNER] = -1
    new_trick(st, taker if chelem > 0 else 0)


@njit(cache=True)
def deal_to_play(hs, ht, st, players, taker, contract, pab_flat, poignee_values, declare):
    """Start of play with the simulated seats' own choices: the King call (5 players), the heuristic
    discard, the chelem announcement and (if ``declare``) the poignées they show."""
    called = -1
    if players == 5:
        called = call_card(hs[taker])
    discard_s = ZERO
    discard_t = ZERO
    if contract <= GARDE:
        discard_s, discard_t = heuristic_discard(hs[taker] | hs[players], ht[taker] | ht[players],
                                                 CHIEN_SIZE[players])
    levels = np.full(players, -1, dtype=np.int64)
    if declare:
        for s in range(players):
            hand_t = ht[s]
            if s == taker and contract <= GARDE:
                hand_t = (ht[s] | ht[players]) & ~discard_t
            level, _ = poignee_to_show(hand_t, players)
            levels[s] = level
    hand_s_after = hs[taker]
    hand_t_after = ht[taker]
    if contract <= GARDE:
        hand_s_after = (hs[taker] | hs[players]) & ~discard_s
        hand_t_after = (ht[taker] | ht[players]) & ~discard_t
    chelem = 1 if announce_chelem(hand_s_after, hand_t_after) else 0
    start_play(hs, ht, st, players, taker, contract, called, chelem, discard_s, discard_t, levels,
               pab_flat, poignee_values)


@njit(cache=True)
def seat_allies(st, seat):
    """Bitmask of the seats ``seat`` knows to be on its side (itself included).

    At 5 players the sides are public only once the called card is played (or seen in the chien);
    before that the partner knows the taker, and the others know only themselves."""
    players = st[PLAYERS]
    if players != 5 or st[PARTNER_KNOWN] == 1:
        mask = 0
        side = side_of(st, seat)
        for s in range(players):
            if side_of(st, s) == side:
                mask |= 1 << s
        return mask
    if seat == st[PARTNER]:
        return (1 << seat) | (1 << st[TAKER])
    return 1 << seat


@njit(cache=True)
def outstanding(hs, ht, st, seat):
    """(suit word, trump word) of the cards ``seat`` has not seen: in other hands or unknown aside."""
    players = st[PLAYERS]
    out_s = ZERO
    out_t = ZERO
    for s in range(players):
        if s != seat:
            out_s |= hs[s]
            out_t |= ht[s]
    contract = st[CONTRACT]
    if contract <= GARDE:
        if seat != st[TAKER]:
            out_s |= hs[players]
            out_t |= ht[players] & ~np.uint64(st[SHOWN_T])
    else:
        out_s |= hs[players]
        out_t |= ht[players]
    return out_s, out_t


@njit(cache=True)
def choose(hs, ht, st, policy, state):
    """The card the seat to play chooses under ``policy``; returns (card, RNG state)."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    legal_s, legal_t = legal_words(hs[seat], ht[seat], st)
    if policy == HEURISTIC:
        out_s, out_t = outstanding(hs, ht, st, seat)
        excl_s = np.empty(players, dtype=np.uint64)
        excl_t = np.empty(players, dtype=np.uint64)
        for s in range(players):
            excl_s[s] = np.uint64(st[EXCL_S + s])
            excl_t[s] = np.uint64(st[EXCL_T + s])
        allies = seat_allies(st, seat)
        my_side = side_of(st, seat)
        side_won_all = st[TRICK] > 0 and st[LAST_TRICK_SIDE_ALL] == (1 if my_side == 1 else -1)
        taker = st[TAKER]
        card = heuristic_card(players, seat, taker, allies, ht[seat], legal_s, legal_t,
                              st[TRICK_CARDS:TRICK_CARDS + players], st[TRICK_SEATS:TRICK_SEATS + players],
                              st[TRICK_LEN], HAND_SIZE[players] - st[TRICK], side_won_all, out_s, out_t,
                              excl_s, excl_t)
        return card, state
    n = popcount(legal_s) + popcount(legal_t)
    state, z = splitmix64(state)
    k = np.int64(z % np.uint64(n))
    x = legal_s
    while x != ZERO:
        b = lowest_bit(x)
        if k == 0:
            return b, state
        k -= 1
        x &= x - ONE
    x = legal_t
    while x != ZERO:
        b = lowest_bit(x)
        if k == 0:
            return FIRST_TRUMP_ID + b, state
        k -= 1
        x &= x - ONE
    return -1, state


@njit(cache=True)
def play_out(hs, ht, st, policies, state, result, trace):
    """Play to the end with ``policies[seat]`` and score into ``result``; records every card played
    from here in ``trace`` (if it has room).  Returns the RNG state."""
    players = st[PLAYERS]
    n_tricks = HAND_SIZE[players]
    k = 0
    while st[TRICK] < n_tricks:
        seat = (st[LEADER] + st[TRICK_LEN]) % players
        card, state = choose(hs, ht, st, policies[seat], state)
        if k < trace.shape[0]:
            trace[k] = card
        k += 1
        play_card(hs, ht, st, card)
    finish(hs, ht, st, result)
    return state
