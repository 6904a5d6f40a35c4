"""The bitmask playout engine: one deal from the first card (or from any point of play) to its score.

A position is three arrays, so that a kernel can copy it cheaply and many run side by side:

* ``hs``/``ht`` (uint64, P+1 entries): the suit word and the trump word (trumps 1-21 in bits 0-20,
  the Excuse in bit 21) of each seat's hand, entry P being the cards put aside (discard or chien);
* ``st`` (int64, ``STATE_SIZE``): everything else, at the indices named below: the contract and sides,
  the trick in play, what each seat may infer (revealed voids), and what the count needs at the end
  (points and oudlers won so far, where the Excuse and the Petit went, tricks won by each side).

Rules follow docs/rules.md and ``analyzer/game.py`` (the reference these kernels are tested against):
the Excuse's exchange and its last-trick and chelem exceptions, petit au bout (and its chelem
second-to-last case), poignées, chelems, the 3/5-player half-point rule and the 5-player shares.
The rule variants come as one small array (``F_*`` flags, built by ``analyzer.simulate.rules_flags``):
petit au bout and poignée values, petit sec deals kept, the petit chelem, misères (declared by every
seat holding one, paid at the end) and the Goulash (a deal played with no taker, ``GOULASH``).

Card-play policies are chosen per seat by id: ``RANDOM`` (uniform among legal cards) and
``HEURISTIC`` (``kernels/heuristic.py``).  Randomness comes from an explicit SplitMix64 state.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from kernels.declarations import (POIGNEE_THRESHOLDS, announce_chelem, call_card, poignee_of_level,
                                  poignee_to_show)
from kernels.discard import heuristic_discard
from kernels.heuristic import (ALL_TRUMPS, EXCUSE_ID, EXCUSE_MASK, FIRST_TRUMP_ID, HALF_POINTS, NO_CARD, ONE,
                               PETIT_ID, TWENTY_ONE_ID, ZERO, goulash_card, heuristic_card, lone_card, lowest_bit,
                               popcount, suit_bits)
from kernels.shared import INTS, WORDS, SharedKernel
from kernels.worlds import splitmix64

RANDOM = 0
HEURISTIC = 1
NOISY = 2              # the heuristic, with one card in eight played at random (rollout variety)
PIMC = 3               # determinized search (kernels/pimc.py), driven by play_out_search

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
EXCL_S = 34            # P entries: suit cards each seat cannot hold (revealed in play)
EXCL_T = 39            # P entries: trump words each seat cannot hold
LED = 44               # the trick in play: suit led (0-3, 4 trumps, -1 none yet)
TOP = 45               # highest trump in it (card id) or -1
BEST = 46              # its winning card so far, or -1
BEST_SEAT = 47
POINTS = 48            # half-points in it, the Excuse apart
EXCUSE_SEAT = 49       # who played the Excuse in it, or -1
CHIEN_S = 50           # the chien as dealt (suit word, trump word): seen by all in Prise and Garde
CHIEN_T = 51
POIGNEE_T = 52         # P entries: trump word of the poignée each seat showed (0: none)
TRICK_WINNERS = 57     # bitmask of the seats that have won a trick
MISERE = 58            # P entries: each seat's net score from the misères declared (variant misere=on)
SEAT_HP = 63           # P entries, Goulash: half-points each seat won in tricks (the Excuse apart)
PLAYED_S = 68          # P entries: suit cards each seat has played (what inference adds back to a hand)
PLAYED_T = 73          # P entries: trump words each seat has played
BIDS = 78              # P entries: each seat's bid (0 pass … 4 garde contre), -1 not known
BID_METHOD = 83        # the bidding model the bids are read by (kernels/bidding.py), -1: no auction known
PETIT_SEC_ANNULLED = 84  # 1 when a deal with a petit sec is annulled (FFT), so that no hand as dealt held one
STATE_SIZE = 85

# The contract of a Goulash (variant all-pass=goulash: everybody passed, the deal is played anyway,
# no taker, nobody sees the chien, which counts for nobody).
GOULASH = 5

# The rule variants, one int64 array built by ``analyzer.simulate.rules_flags``: 1 where the variant
# departs from the FFT default.
F_PAB_FLAT = 0         # petit au bout a flat 10
F_POIGNEE_VALUES = 1   # poignées worth 20/40/60
F_PETIT_SEC_PLAY = 2   # petit sec deals are played (the samplers keep them)
F_GOULASH = 3          # everybody passing plays a Goulash
F_MISERE = 4           # misères are declared and paid
F_PETIT_CHELEM = 5     # a petit chelem may be announced
FLAGS_SIZE = 6

# Result vector (per deal): per-seat scores in 0..P-1, then these.
R_TAKER_HP = 5
R_OUDLERS = 6
R_PAB = 7              # +1 taker's side, -1 defence, 0 none
R_CHELEM = 8           # 0 none, 1 announced-made, 2 made, 3 announced-failed, 4 defence,
                       # 5 petit-announced-made, 6 petit-announced-failed
R_MADE = 9
R_TOTAL = 10           # per defender, seen from the taker's side
RESULT_SIZE = 11
# In a Goulash the per-seat scores are in half-points (they may end in .5 at 3 and 5 players) and the
# other fields are 0.

FACE_S = np.uint64(sum(((1 << 4) - 1) << (14 * s + 10) for s in range(4)))   # Jacks to Kings
OUDLERS_T = np.uint64(1 | 1 << 20 | 1 << 21)


@njit(cache=True, inline="always")
def exclude_petit_sec(flags):
    """Whether the samplers reject deals with a petit sec (the FFT default: such deals are annulled)."""
    return flags[F_PETIT_SEC_PLAY] == 0


@njit(cache=True, inline="always")
def side_of(st, seat):
    """1 for the taker's side, 0 for the defence."""
    return 1 if seat == st[TAKER] or seat == st[PARTNER] else 0


@njit(cache=True, inline="always")
def legal_from(hand_s, hand_t, led, top, forbidden_lead):
    """(suit word, trump word) of the legal cards of a hand, given the suit led (-1: leading, or only
    the Excuse so far), the highest trump in the trick (card id or -1) and, for a lead, the cards
    that may not be led unless nothing else is left (5 players, first trick)."""
    if led == -1:
        if forbidden_lead != ZERO and (hand_s & ~forbidden_lead != ZERO or hand_t != ZERO):
            return hand_s & ~forbidden_lead, hand_t
        return hand_s, hand_t
    excuse = hand_t & EXCUSE_MASK
    if led < 4:
        follow = hand_s & suit_bits(led)
        if follow != ZERO:
            return follow, excuse
    trumps = hand_t & ALL_TRUMPS
    if trumps != ZERO:
        if top >= 0:
            over = trumps & ~((ONE << np.uint64(top - FIRST_TRUMP_ID + 1)) - ONE)
            if over != ZERO:
                return ZERO, over | excuse
        return ZERO, trumps | excuse
    return hand_s, hand_t


@njit(cache=True, inline="always")
def forbidden_first_lead(called, trick, n):
    """The called suit but the called card, while the first trick is being led (5 players)."""
    if called < 0 or trick != 0 or n != 0:
        return ZERO
    return suit_bits(called // 14) & ~(ONE << np.uint64(called))


@njit(cache=True)
def legal_words(hand_s, hand_t, st):
    """(suit word, trump word) of the legal cards of a hand in the trick in play."""
    return legal_from(hand_s, hand_t, st[LED], st[TOP],
                      forbidden_first_lead(st[CALLED], st[TRICK], st[TRICK_LEN]))


@njit(cache=True)
def new_trick(st, leader):
    st[LEADER] = leader
    st[TRICK_LEN] = 0
    st[LED] = -1
    st[TOP] = -1
    st[BEST] = -1
    st[BEST_SEAT] = -1
    st[POINTS] = 0
    st[EXCUSE_SEAT] = -1


@njit(cache=True)
def finish(hs, ht, st, result):
    """Count the deal and score it into ``result`` (per-seat scores, then the R_* fields), the misères
    declared included."""
    players = st[PLAYERS]
    if st[CONTRACT] == GOULASH:
        finish_goulash(st, result)
    else:
        finish_contract(hs, ht, st, result)
    for s in range(players):
        result[s] += st[MISERE + s] * (2 if st[CONTRACT] == GOULASH else 1)


@njit(cache=True)
def finish_goulash(st, result):
    """A Goulash's count: each seat pays every other the points they took, in half-points.  The chien
    counts for nobody; the Excuse stays with its owner, who gives the winners of its trick a
    half-point in exchange (docs/rules.md, "Goulash")."""
    players = st[PLAYERS]
    for i in range(RESULT_SIZE):
        result[i] = 0
    taken = np.zeros(5, dtype=np.int64)
    for s in range(players):
        taken[s] = st[SEAT_HP + s]
    if st[EXCUSE_TRICK] >= 0:
        owner = st[EXCUSE_OWNER]
        taken[owner] += HALF_POINTS[EXCUSE_ID]
        if st[EXCUSE_WINNER] != owner:
            taken[owner] -= 1
            taken[st[EXCUSE_WINNER]] += 1
    total = 0
    for s in range(players):
        total += taken[s]
    for s in range(players):
        result[s] = total - players * taken[s]


@njit(cache=True)
def finish_contract(hs, ht, st, result):
    """The count and score of a deal with a taker."""
    players = st[PLAYERS]
    aside_hp, aside_oudlers, _ = pile_count(hs[players], ht[players])
    taker_hp, oudlers, pab, chelem = settle(
        players, st[CONTRACT], st[TAKER_HP], st[TAKER_OUDLERS], aside_hp, aside_oudlers,
        st[EXCUSE_TRICK], st[EXCUSE_OWNER], st[EXCUSE_WINNER], st[PETIT_TRICK], st[PETIT_WINNER],
        st[LAST_TRICK_SIDE_ALL], st[TAKER_TRICKS], st[CHELEM])
    score_into(players, st[CONTRACT], taker_hp, oudlers, pab, chelem, st[POIGNEE], st[PAB_FLAT], st[TAKER],
               st[PARTNER], result)


@njit(cache=True, inline="always")
def score_again(st, result, contract, out):
    """A counted deal's score (``result``, ``st`` at its end) as ``contract`` instead of its own, into
    ``out``: the same count, petit au bout, chelem and poignées.  Prise and Garde are played alike
    (the chien taken and put aside the same way), so one play scores both."""
    score_into(st[PLAYERS], contract, result[R_TAKER_HP], result[R_OUDLERS], result[R_PAB], result[R_CHELEM],
               st[POIGNEE], st[PAB_FLAT], st[TAKER], st[PARTNER], out)


@njit(cache=True)
def pile_count(pile_s, pile_t):
    """(half-points, oudlers, cards) of a pile of cards given as its two words."""
    hp = 0
    oudlers = 0
    x = pile_s
    while x != ZERO:
        hp += HALF_POINTS[lowest_bit(x)]
        x &= x - ONE
    x = pile_t
    while x != ZERO:
        b = lowest_bit(x)
        hp += HALF_POINTS[FIRST_TRUMP_ID + b]
        if b == 0 or b == 20 or b == 21:
            oudlers += 1
        x &= x - ONE
    return hp, oudlers, popcount(pile_s) + popcount(pile_t)


@njit(cache=True)
def settle(players, contract, taker_hp, oudlers, aside_hp, aside_oudlers, excuse_trick, excuse_owner,
           excuse_winner, petit_trick, petit_winner, side_all, taker_tricks, chelem_announced):
    """The count of a played deal from its running totals: the cards aside, the Excuse's exchange,
    petit au bout and the chelem.  Returns (taker's half-points, oudlers, pab, chelem code); shared by
    ``finish`` and the endgame solver (``kernels/endgame.py``)."""
    n_tricks = HAND_SIZE[players]
    aside_to_taker = contract != GARDE_CONTRE
    if aside_to_taker:
        taker_hp += aside_hp
        oudlers += aside_oudlers
    # The Excuse (if it was played: in Garde sans/contre it may lie in the chien, counted above).
    if excuse_trick >= 0:
        if excuse_trick == n_tricks - 1 or excuse_owner == excuse_winner:
            keeper = excuse_winner
        else:               # kept by its owner's side, even with no other card (docs/rules.md, "Play")
            keeper = excuse_owner
            taker_hp += -1 if excuse_owner == 1 else 1          # the half-point given in exchange
        if keeper == 1:
            taker_hp += HALF_POINTS[EXCUSE_ID]
            oudlers += 1
    # Petit au bout.
    pab = 0
    last = n_tricks - 1
    if petit_trick == last:
        pab = 1 if petit_winner == 1 else -1
    elif petit_trick == last - 1 and excuse_trick == last and excuse_owner == excuse_winner \
            and side_all == (1 if excuse_owner == 1 else -1):
        pab = 1 if petit_winner == 1 else -1
    # Chelem.
    won = taker_tricks
    if chelem_announced == 1:
        chelem = 1 if won == n_tricks else 3
    elif chelem_announced == 2:
        chelem = 5 if won >= n_tricks - 1 else 6
    elif won == n_tricks:
        chelem = 2
    elif won == 0:
        chelem = 4
    else:
        chelem = 0
    return taker_hp, oudlers, pab, chelem


@njit(cache=True)
def score_into(players, contract, taker_hp, oudlers, pab, chelem, poignee, pab_flat, taker, partner, result):
    """The FFT score of a counted deal (docs/rules.md, "Scoring"), per seat and in its parts."""
    total, made = contract_total(contract, taker_hp, oudlers, pab, chelem, poignee, pab_flat)
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
def contract_total(contract, taker_hp, oudlers, pab, chelem, poignee, pab_flat):
    """(total per defender seen from the taker's side, made) of a counted deal."""
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
    return total, made


@njit(cache=True, inline="always")
def no_auction(st, players, flags):
    """The auction unknown (``set_auction`` records it) and the petit-sec rule of the deal."""
    for s in range(players):
        st[BIDS + s] = -1
    st[BID_METHOD] = -1
    st[PETIT_SEC_ANNULLED] = 1 - flags[F_PETIT_SEC_PLAY]


@njit(cache=True)
def set_auction(st, bids, method):
    """Record the auction (``bids[s]``: 0 pass … 4, seat 0 first) and the bidding model (a
    ``kernels.bidding`` method id) its bids are read by, for the search's inference."""
    for s in range(st[PLAYERS]):
        st[BIDS + s] = bids[s]
    st[BID_METHOD] = method


@njit(cache=True, inline="always")
def start_play(hs, ht, st, players, taker, contract, called, chelem, discard_s, discard_t, poignee_shown, flags):
    """Fill ``hs``/``ht``/``st`` for the first card (``flags``: the rule variants, ``F_*``).

    On entry ``hs``/``ht`` hold the dealt hands and the chien (entry P).  For Prise and Garde the
    taker takes the chien and puts ``discard_s``/``discard_t`` aside (given; see ``deal_to_play`` for
    the policies' own).  ``poignee_shown[s]`` is the trump word seat s shows as a poignée (0: none), a
    tuple of five words."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[PLAYERS] = players
    st[TAKER] = taker
    st[CONTRACT] = contract
    st[CALLED] = called
    st[CHELEM] = chelem
    st[PAB_FLAT] = flags[F_PAB_FLAT]
    st[POIGNEE_VALUES] = flags[F_POIGNEE_VALUES]
    no_auction(st, players, flags)
    poignee_values = flags[F_POIGNEE_VALUES]
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
    st[CHIEN_S] = np.int64(hs[players])
    st[CHIEN_T] = np.int64(ht[players])
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
        st[POIGNEE_T + s] = np.int64(poignee_shown[s])
        for q in range(players):              # the trumps a seat showed are in no other hand: all know it
            if q != s:
                st[EXCL_T + q] |= np.int64(poignee_shown[s])
        shown = popcount(poignee_shown[s])
        for level in range(3):
            if shown == POIGNEE_THRESHOLDS[players - 3, level]:
                bonus += POIGNEE_BONUS[poignee_values, level]
    st[POIGNEE] = bonus
    st[LAST_WINNER] = -1
    new_trick(st, taker if chelem > 0 else np.int64(0))


@njit(cache=True, inline="always")
def start_goulash(hs, ht, st, players, flags):
    """Fill ``st`` for the first card of a Goulash (everybody passed, variant all-pass=goulash): no
    taker, no call, no discard, nobody sees the chien, no poignée and no chelem; seat 0 leads.  The
    simulated seats declare the misères they hold when the variant is on."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[PLAYERS] = players
    st[TAKER] = -1
    st[PARTNER] = -1
    st[CONTRACT] = GOULASH
    st[CALLED] = -1
    st[EXCUSE_TRICK] = -1
    st[PETIT_TRICK] = -1
    st[PAB_FLAT] = flags[F_PAB_FLAT]
    st[POIGNEE_VALUES] = flags[F_POIGNEE_VALUES]
    no_auction(st, players, flags)
    st[CHIEN_S] = np.int64(hs[players])
    st[CHIEN_T] = np.int64(ht[players])
    st[LAST_WINNER] = -1
    new_trick(st, np.int64(0))
    if flags[F_MISERE]:
        declare_miseres(hs, ht, st, players)


@njit(cache=True, inline="always")
def misere_kinds(hand_s, hand_t):
    """(trump misère, honours misère) the hand allows: no trump and no Excuse; no face card and no oudler."""
    return hand_t == ZERO, hand_s & FACE_S == ZERO and hand_t & OUDLERS_T == ZERO


@njit(cache=True)
def declare_misere(st, players, seat, kind):
    """``seat`` declares a misère (kind 0 trumps, 1 honours): every other seat pays it 10, and all
    now know what its hand lacks."""
    for s in range(players):
        st[MISERE + s] += 10 * (players - 1) if s == seat else -10
    if kind == 0:
        st[EXCL_T + seat] |= np.int64(ALL_TRUMPS | EXCUSE_MASK)
    else:
        st[EXCL_S + seat] |= np.int64(FACE_S)
        st[EXCL_T + seat] |= np.int64(OUDLERS_T)


@njit(cache=True)
def declare_miseres(hs, ht, st, players):
    """Every seat declares the misères its hand allows (the taker's hand after the discard)."""
    for s in range(players):
        trumps, honours = misere_kinds(hs[s], ht[s])
        if trumps:
            declare_misere(st, players, s, np.int64(0))
        if honours:
            declare_misere(st, players, s, np.int64(1))


# The taker's choices before the first card, as ``start_with_choices`` takes them (AUTO: the
# simulated seat's own choice).
AUTO = -2
CH_CALLED = 0          # card id to call (5 players), or AUTO
CH_DISCARD = 1         # 1: the discard below, AUTO: the heuristic discard
CH_DISCARD_S = 2
CH_DISCARD_T = 3
CH_CHELEM = 4          # 0 no, 1 announce, 2 announce a petit chelem (variant), AUTO
CH_POIGNEE = 5         # poignée level the taker shows (0-2; -1 none; skipped if the hand lacks it), or AUTO
CHOICES_SIZE = 6


ALL_AUTO = np.full(CHOICES_SIZE, AUTO, dtype=np.int64)
TO_THE_END = 1 << 30       # ``advance``'s card limit that plays the deal out


@njit(cache=True)
def auto_choices():
    """A fresh choices array with every choice left to the simulated seats."""
    return ALL_AUTO.copy()


@njit(cache=True)
def deal_to_play(hs, ht, st, players, taker, contract, flags, declare):
    """Start of play with every choice the simulated seats' own (see ``start_with_choices``); a
    ``taker`` of -1 starts a Goulash.  The kernels call it through its pointer (``deal_to_play_shared``)."""
    if taker < 0:
        start_goulash(hs, ht, st, players, flags)
    else:
        start_with_choices(hs, ht, st, players, taker, contract, ALL_AUTO, flags, declare)


@njit(cache=True, inline="always")
def shown_poignee(s, players, taker, hand_t_after, ht, choices, declare):
    """The trump word seat ``s`` shows as a poignée (0: none, and for seats beyond ``players``)."""
    if s >= players:
        return ZERO
    if s == taker and choices[CH_POIGNEE] != AUTO:
        return poignee_of_level(hand_t_after, players, choices[CH_POIGNEE])
    if declare:
        return poignee_to_show(hand_t_after if s == taker else ht[s], players)[1]
    return ZERO


@njit(cache=True, inline="always")
def start_with_choices(hs, ht, st, players, taker, contract, choices, flags, declare):
    """Start of play: the King call (5 players), the discard (Prise, Garde), the chelem announcement
    and the poignées, each given in ``choices`` or left to the simulated seats (the heuristic
    discard, ``declarations.py``; other seats show poignées only if ``declare``); then, under the
    variant, every seat declares the misères it holds.  ``flags``: the rule variants (``F_*``)."""
    called = -1
    if players == 5:
        called = call_card(hs[taker]) if choices[CH_CALLED] == AUTO else choices[CH_CALLED]
    discard_s = ZERO
    discard_t = ZERO
    if contract <= GARDE:
        if choices[CH_DISCARD] == AUTO:
            discard_s, discard_t = heuristic_discard(hs[taker] | hs[players], ht[taker] | ht[players],
                                                     CHIEN_SIZE[players])
        else:
            discard_s, discard_t = np.uint64(choices[CH_DISCARD_S]), np.uint64(choices[CH_DISCARD_T])
    hand_s_after = hs[taker]
    hand_t_after = ht[taker]
    if contract <= GARDE:
        hand_s_after = (hs[taker] | hs[players]) & ~discard_s
        hand_t_after = (ht[taker] | ht[players]) & ~discard_t
    shown = (shown_poignee(0, players, taker, hand_t_after, ht, choices, declare),
             shown_poignee(1, players, taker, hand_t_after, ht, choices, declare),
             shown_poignee(2, players, taker, hand_t_after, ht, choices, declare),
             shown_poignee(3, players, taker, hand_t_after, ht, choices, declare),
             shown_poignee(4, players, taker, hand_t_after, ht, choices, declare))
    if choices[CH_CHELEM] == AUTO:
        chelem = announce_chelem(hand_s_after, hand_t_after, flags[F_PETIT_CHELEM] == 1)
    else:
        chelem = choices[CH_CHELEM]
    start_play(hs, ht, st, players, taker, contract, called, chelem, discard_s, discard_t, shown, flags)
    if flags[F_MISERE]:
        declare_miseres(hs, ht, st, players)


@njit(cache=True, inline="always")
def allies_of(players, taker, partner, partner_known, seat):
    """Bitmask of the seats ``seat`` knows to be on its side (itself included).

    At 5 players the sides are public only once the called card is played (or seen in the chien);
    before that the partner knows the taker, and the others know only themselves.  In a Goulash (no
    taker) every seat plays for itself."""
    if taker < 0:
        return 1 << seat
    if players != 5 or partner_known == 1:
        mine = seat == taker or seat == partner
        mask = 0
        for s in range(players):
            if (s == taker or s == partner) == mine:
                mask |= 1 << s
        return mask
    if seat == partner:
        return (1 << seat) | (1 << taker)
    return 1 << seat


@njit(cache=True)
def seat_allies(st, seat):
    return allies_of(st[PLAYERS], st[TAKER], st[PARTNER], st[PARTNER_KNOWN], seat)


@njit(cache=True, inline="always")
def seat_words(st, base):
    """The five per-seat words at ``st[base:base + 5]`` as a tuple (a value: no reference counting)."""
    return (np.uint64(st[base]), np.uint64(st[base + 1]), np.uint64(st[base + 2]), np.uint64(st[base + 3]),
            np.uint64(st[base + 4]))


@njit(cache=True, inline="always")
def random_card(legal_s, legal_t, state):
    """A uniformly random card among the legal ones; returns (card, state)."""
    ns = popcount(legal_s)
    state, z = splitmix64(state)
    k = np.int64(((z >> np.uint64(32)) * np.uint64(ns + popcount(legal_t))) >> np.uint64(32))
    if k < ns:
        x = legal_s
        for _ in range(k):
            x &= x - ONE
        return lowest_bit(x), state
    x = legal_t
    for _ in range(k - ns):
        x &= x - ONE
    return FIRST_TRUMP_ID + lowest_bit(x), state


@njit(cache=True, forceinline=True)
def heuristic_choice(st, seat, hand_t, legal_s, legal_t, partner, partner_known, trick, n, led, best, best_seat,
                     points, excuse_seat, winners, out_s, out_t, aside_s, aside_t, taker_knows_aside):
    """The heuristic's card for ``seat`` (``kernels/heuristic.py``; in a Goulash ``goulash_card``) from
    the trick in play and what the seat has not seen: ``out_s``/``out_t`` the cards in the other hands,
    ``aside_s``/``aside_t`` those put aside but the trumps shown from them, unseen unless the seat is a
    taker who made the discard.  The trick's fields come as arguments because ``advance`` keeps them in
    local variables while it plays."""
    players = st[PLAYERS]
    taker = st[TAKER]
    tricks_left = HAND_SIZE[players] - trick
    if st[CONTRACT] == GOULASH:
        return goulash_card(legal_s, legal_t, led, best, tricks_left)
    if not (taker_knows_aside and seat == taker):
        out_s |= aside_s
        out_t |= aside_t
    allies = allies_of(players, taker, partner, partner_known, seat)
    side_won_all = trick > 0 and winners & ~allies == 0     # as far as the seat can tell
    on_table = points + (HALF_POINTS[EXCUSE_ID] if excuse_seat >= 0 else 0)
    return heuristic_card(players, seat, taker, allies, hand_t, legal_s, legal_t, n, led, best, best_seat, on_table,
                          tricks_left, side_won_all, out_s, out_t, seat_words(st, EXCL_S), seat_words(st, EXCL_T))


@njit(cache=True)
def heuristic_at(hs, ht, st):
    """The heuristic's card for the seat to play in the position ``hs``/``ht``/``st`` (nothing is
    changed): what ``advance`` plays for a seat whose policy is ``HEURISTIC``, played here on a copy of
    the position, so that the heuristic's card is compiled in ``advance`` only (docs/journal/compiling.md)."""
    players = st[PLAYERS]
    trace = np.empty(1, dtype=np.int16)
    position = st.copy()
    advance_shared(hs.copy(), ht.copy(), position, np.full(players, HEURISTIC, dtype=np.int64), ZERO, position[:0],
                   np.int64(1), np.empty(RESULT_SIZE, dtype=np.int64), trace)
    return np.int64(trace[0])


@njit(cache=True)
def advance(hs, ht, st, policies, state, forced, max_cards, result, trace):
    """Play ``forced`` cards first, then the cards ``policies[seat]`` choose, until ``max_cards`` cards
    are played or the deal ends; at the end the deal is counted and scored into ``result``.  Cards
    played are recorded in ``trace`` while it has room.  Returns (RNG state, cards played).

    The trick in play and the running count live in local variables here (the state vector is read
    at the start and written back at the end), which keeps the hot loop in registers."""
    players = st[PLAYERS]
    taker = st[TAKER]
    partner = st[PARTNER]
    called = st[CALLED]
    n_tricks = HAND_SIZE[players]
    trick = st[TRICK]
    leader = st[LEADER]
    n = st[TRICK_LEN]
    led = st[LED]
    top = st[TOP]
    best = st[BEST]
    best_seat = st[BEST_SEAT]
    points = st[POINTS]
    excuse_seat = st[EXCUSE_SEAT]
    taker_tricks = st[TAKER_TRICKS]
    taker_hp = st[TAKER_HP]
    taker_oudlers = st[TAKER_OUDLERS]
    partner_known = st[PARTNER_KNOWN]
    side_all = st[LAST_TRICK_SIDE_ALL]
    last_winner = st[LAST_WINNER]
    winners = st[TRICK_WINNERS]
    goulash = st[CONTRACT] == GOULASH
    # What a seat has not seen: the other hands, and the cards aside unless they were shown to it (the
    # taker's own discard; in Prise and Garde the discarded trumps shown to everybody).
    in_hands_s = ZERO
    in_hands_t = ZERO
    for s in range(players):
        in_hands_s |= hs[s]
        in_hands_t |= ht[s]
    aside_s = hs[players]
    aside_t = ht[players]
    taker_knows_aside = st[CONTRACT] <= GARDE
    if taker_knows_aside:
        aside_t &= ~np.uint64(st[SHOWN_T])
    played = 0
    while trick < n_tricks and played < max_cards:
        seat = leader + n
        if seat >= players:
            seat -= players
        hand_s = hs[seat]
        hand_t = ht[seat]
        if played < forced.shape[0]:
            card = forced[played]
        else:
            legal_s, legal_t = legal_from(hand_s, hand_t, led, top, forbidden_first_lead(called, trick, n))
            policy = policies[seat]
            if policy == NOISY:
                state, z = splitmix64(state)
                policy = RANDOM if z & np.uint64(7) == ZERO else HEURISTIC
            if policy == HEURISTIC:
                # A lone legal card without setting up the heuristic's call (a Goulash has rules of its own).
                card = NO_CARD if goulash else lone_card(legal_s, legal_t)
                if card == NO_CARD:
                    card = heuristic_choice(st, seat, hand_t, legal_s, legal_t, partner, partner_known, trick, n,
                                            led, best, best_seat, points, excuse_seat, winners, in_hands_s & ~hand_s,
                                            in_hands_t & ~hand_t, aside_s, aside_t, taker_knows_aside)
            else:
                card, state = random_card(legal_s, legal_t, state)
        if played < trace.shape[0]:
            trace[played] = card
        played += 1
        # The card leaves the hand and what it reveals becomes public.
        if card < FIRST_TRUMP_ID:
            suit = card // 14
            hs[seat] = hand_s & ~(ONE << np.uint64(card))
            in_hands_s &= ~(ONE << np.uint64(card))
            st[PLAYED_S + seat] |= np.int64(1) << card
        else:
            suit = 4 if card < EXCUSE_ID else 5
            ht[seat] = hand_t & ~(ONE << np.uint64(card - FIRST_TRUMP_ID))
            in_hands_t &= ~(ONE << np.uint64(card - FIRST_TRUMP_ID))
            st[PLAYED_T + seat] |= np.int64(1) << (card - FIRST_TRUMP_ID)
        if led != -1 and suit != 5:
            if suit != led:
                if led < 4:
                    st[EXCL_S + seat] |= np.int64(suit_bits(led))
                if suit != 4:
                    st[EXCL_T + seat] |= np.int64(ALL_TRUMPS)
            if suit == 4 and top >= 0 and card < top:
                st[EXCL_T + seat] |= np.int64(ALL_TRUMPS & ~((ONE << np.uint64(top - FIRST_TRUMP_ID + 1)) - ONE))
        st[TRICK_CARDS + n] = card
        n += 1
        if card == called:
            partner_known = 1
        if card == EXCUSE_ID:
            excuse_seat = seat
        else:
            points += HALF_POINTS[card]
            if led == -1:
                led = suit
            if best == -1 or (suit == 4 and (best < FIRST_TRUMP_ID or card > best)) \
                    or (suit == led and best < FIRST_TRUMP_ID and card > best):
                best = card
                best_seat = seat
            if suit == 4 and card > top:
                top = card
        if n < players:
            continue
        # The trick is complete: to its winner.
        winner = best_seat
        if excuse_seat >= 0:
            owner = 1 if excuse_seat == taker or excuse_seat == partner else 0
            if trick == n_tricks - 1 and (goulash or (trick > 0 and side_all == (1 if owner == 1 else -1))):
                winner = excuse_seat            # the chelem exception (always in a Goulash): it wins the last trick
            st[EXCUSE_TRICK] = trick
            st[EXCUSE_OWNER] = excuse_seat if goulash else owner
        wside = 1 if winner == taker or winner == partner else 0
        if excuse_seat >= 0:
            st[EXCUSE_WINNER] = winner if goulash else wside
        if goulash:
            st[SEAT_HP + winner] += points
        for i in range(players):
            c = st[TRICK_CARDS + i]
            if c == PETIT_ID:
                st[PETIT_TRICK] = trick
                st[PETIT_WINNER] = wside
                taker_oudlers += wside
            elif c == TWENTY_ONE_ID:
                taker_oudlers += wside
        if wside == 1:
            taker_hp += points
            taker_tricks += 1
        sign = 1 if wside == 1 else -1
        if trick == 0:
            side_all = sign
        elif side_all != sign:
            side_all = 0
        last_winner = winner
        winners |= 1 << winner
        trick += 1
        leader = winner
        n = 0
        led = np.int64(-1)      # not the constant -1, which suit_bits would be compiled for too
        top = -1
        best = -1
        best_seat = -1
        points = 0
        excuse_seat = -1
    st[TRICK] = trick
    st[LEADER] = leader
    st[TRICK_LEN] = n
    st[LED] = led
    st[TOP] = top
    st[BEST] = best
    st[BEST_SEAT] = best_seat
    st[POINTS] = points
    st[EXCUSE_SEAT] = excuse_seat
    st[TAKER_TRICKS] = taker_tricks
    st[TAKER_HP] = taker_hp
    st[TAKER_OUDLERS] = taker_oudlers
    st[PARTNER_KNOWN] = partner_known
    st[LAST_TRICK_SIDE_ALL] = side_all
    st[LAST_WINNER] = last_winner
    st[TRICK_WINNERS] = winners
    if trick == n_tricks:
        finish(hs, ht, st, result)
    return state, played


# ``advance`` for its one set of argument types, compiled once per process and called through a pointer by
# the kernels (kernels/shared.py), not linked into each of them.  Python calls ``advance`` itself.
ADVANCE = SharedKernel(advance, "advance", (WORDS, WORDS, INTS, INTS, types.uint64, INTS, types.int64, INTS,
                                            types.Array(types.int16, 1, "C")), types.Tuple((types.uint64, types.int64)))


@intrinsic
def advance_shared(typingctx, hs, ht, st, policies, state, forced, max_cards, result, trace):
    """``advance`` through its one compiled copy (``ADVANCE``)."""
    return ADVANCE.typed(hs, ht, st, policies, state, forced, max_cards, result, trace)


# ``deal_to_play`` likewise (the discard, the King's call, the declarations: typed and emitted again in
# every driver that deals and plays, inlined).
DEAL_TO_PLAY = SharedKernel(deal_to_play, "deal_to_play", (WORDS, WORDS, INTS, types.int64, types.int64, types.int64,
                                                           INTS, types.boolean), types.none)


@intrinsic
def deal_to_play_shared(typingctx, hs, ht, st, players, taker, contract, flags, declare):
    """``deal_to_play`` through its one compiled copy (``DEAL_TO_PLAY``)."""
    return DEAL_TO_PLAY.typed(hs, ht, st, players, taker, contract, flags, declare)


# ``start_with_choices`` with choices of the caller's (a discard to play, the advice's options); inlined
# in ``deal_to_play`` itself.
START_WITH_CHOICES = SharedKernel(start_with_choices, "start_with_choices",
                                  (WORDS, WORDS, INTS, types.int64, types.int64, types.int64, INTS, INTS,
                                   types.boolean), types.none)


@intrinsic
def start_with_choices_shared(typingctx, hs, ht, st, players, taker, contract, choices, flags, declare):
    """``start_with_choices`` through its one compiled copy (``START_WITH_CHOICES``)."""
    return START_WITH_CHOICES.typed(hs, ht, st, players, taker, contract, choices, flags, declare)


@njit(cache=True)
def play_card(hs, ht, st, card):
    """Play one given card (assumed legal) for the seat to play."""
    forced = np.empty(1, dtype=np.int64)
    forced[0] = card
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    advance_shared(hs, ht, st, np.zeros(st[PLAYERS], dtype=np.int64), np.uint64(0), forced, np.int64(1), result,
                   np.empty(0, dtype=np.int16))


@njit(cache=True, inline="always")
def play_out(hs, ht, st, policies, state, result, trace):
    """Play to the end with ``policies[seat]`` and score into ``result``; returns the RNG state.  Inlined:
    one layer less between a driver and ``advance`` (called through its pointer: kernels/shared.py)."""
    # nothing forced
    state, _ = advance_shared(hs, ht, st, policies, state, st[:0], np.int64(TO_THE_END), result, trace)
    return state
