"""The heuristic card-play policy: the principles strong players teach, as small jitted components.

The policy decides from what the acting seat may know (see ``analyzer/knowledge.py``): its own hand
and legal cards, the trick so far (suit led, winning card and seat, points on the table), the cards
still out (neither played nor seen: ``out_s``/``out_t``), the voids revealed in play (``excl_s``/
``excl_t``: cards each seat cannot hold, one word per seat), and which seats it knows to be on its
side (``allies``, a bitmask of seats including its own).  It is deterministic.

Everything is passed as scalars and tuples, never as arrays: a Numba array argument or slice costs
an atomic reference-count increment and decrement, and those dominated the policy's time.

Card sets are two words, as everywhere in the kernels: ``s`` holds the 56 suit cards (bit = card id),
``t`` the trumps 1-21 in bits 0-20 and the Excuse in bit 21.

Principles, each a function below:
* ``excuse_now``: play the Excuse before the last trick (it would change side there) and use it to
  avoid giving points to an opponent's trick; every seat also plays it rather than a trump on a trick
  it cannot win for sure, and the taker's side rather than a trump on a trick of two points or less
  (a trump kept is worth more than the Excuse kept: docs/journal/heuristic-play.md);
* leading: the taker draws trumps while the defence may still hold some and he holds enough, and
  stops when they are out; with fewer than four trumps out he draws only with a master trump
  (leading a low one gives the defence a trick it would not otherwise win);
  a defender with five trumps or more leads them while the taker may hold some, and the taker leads
  the highest spot card (not the lowest) of a long suit;
  everyone cashes master cards in suits the opponents cannot trump; the defence leads the taker's
  void suits to make him trump and hunts the Petit with master trumps; the Petit is kept for the
  last trick ("au bout") and never led into danger;
* following: pile points ("charger") on a trick the partner is sure to win, but keep a master card
  that should win a trick of its own later (``lasting_masters``); keep low cards when an opponent
  wins, win cheaply when a card is sure to hold, save the Petit under a partner's winning trump or
  when it is sure to win, and do not spend the 21 on an empty trick; a defender who trumps a suit
  trick before the taker has played trumps high (his highest trump, the 21 and the Petit apart), so
  the taker must spend a high trump to win it (docs/journal/heuristic-play.md, "Heuristic defence
  play");
* in a Goulash (variant all-pass=goulash, no taker) every point taken is paid: ``goulash_card``
  ducks under the trick and sheds points on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SUIT_WORD_BITS = 56
EXCUSE_BIT = 21           # in the trump word
EXCUSE_ID = 77
FIRST_TRUMP_ID = 56
PETIT_ID = 56
TWENTY_ONE_ID = 76
ALL_TRUMPS = np.uint64((1 << 21) - 1)
EXCUSE_MASK = np.uint64(1 << EXCUSE_BIT)
SUIT_MASK = np.uint64((1 << 14) - 1)
ONE = np.uint64(1)
ZERO = np.uint64(0)
NO_CARD = np.int64(-1)      # not the constant -1: a kernel given it would be compiled for it too


def _half_points_table() -> np.ndarray:
    hp = np.ones(78, dtype=np.int64)
    for suit in range(4):
        for rank, value in ((11, 3), (12, 5), (13, 7), (14, 9)):
            hp[suit * 14 + rank - 1] = value
    hp[PETIT_ID] = hp[TWENTY_ONE_ID] = hp[EXCUSE_ID] = 9
    return hp


HALF_POINTS = _half_points_table()


@njit(cache=True)
def popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero word."""
    return popcount((x & (~x + ONE)) - ONE)


@njit(cache=True)
def highest_bit(x):
    """Index of the highest set bit of a non-zero word."""
    x = np.uint64(x)
    x |= x >> np.uint64(1)
    x |= x >> np.uint64(2)
    x |= x >> np.uint64(4)
    x |= x >> np.uint64(8)
    x |= x >> np.uint64(16)
    x |= x >> np.uint64(32)
    return popcount(x) - 1


@njit(cache=True)
def suit_bits(suit):
    return SUIT_MASK << np.uint64(14 * suit)


@njit(cache=True)
def card_suit(card):
    """0-3 for suit cards, 4 for trumps, 5 for the Excuse."""
    if card < FIRST_TRUMP_ID:
        return card // 14
    return 4 if card < EXCUSE_ID else 5


@njit(cache=True)
def beats(card, best, led):
    """Whether ``card`` beats the trick's best card so far (led: the suit to follow)."""
    if card == EXCUSE_ID:
        return False
    if best == NO_CARD:
        return True
    cs, bs = card_suit(card), card_suit(best)
    if cs == 4:
        return bs != 4 or card > best
    return bs != 4 and cs == led and card > best


@njit(cache=True)
def can_beat(best, led, out_s, out_t, excl_s, excl_t):
    """Whether a seat that cannot hold ``excl_s``/``excl_t`` may hold a card that beats ``best``.

    A seat that may hold a card of the suit led is assumed to follow it; it can trump only if it
    cannot hold any card of that suit (a void revealed, or every card of it accounted for)."""
    may_s = out_s & ~excl_s
    may_t = out_t & ~excl_t & ALL_TRUMPS
    if led == 4 or led == -1:
        if best == NO_CARD:
            return may_s != ZERO or may_t != ZERO
        return may_t >> np.uint64(best - FIRST_TRUMP_ID + 1) != ZERO
    follows = may_s & suit_bits(led)
    if follows != ZERO:
        if card_suit(best) == 4:
            return False
        return follows & ~((ONE << np.uint64(best + 1)) - ONE) != ZERO
    if may_t == ZERO:
        return False
    if card_suit(best) != 4:
        return True
    return may_t >> np.uint64(best - FIRST_TRUMP_ID + 1) != ZERO


@njit(cache=True, inline="always")
def is_safe(best, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t):
    """Whether ``best`` (played now by ``seat``'s side or already winning) cannot be beaten by a
    seat not known to be an ally among those still to play after ``seat``."""
    for k in range(1, players - trick_len):
        q = (seat + k) % players
        if (allies >> q) & 1:
            continue
        if can_beat(best, led, out_s, out_t, excl_s[q], excl_t[q]):
            return False
    return True


@njit(cache=True)
def lowest_value_card(s, t):
    """The cheapest card (fewest points, then lowest), trumps only when no suit card; the Excuse last."""
    best = NO_CARD
    best_key = 1 << 30
    x = s
    while x != ZERO:
        c = lowest_bit(x)
        x &= x - ONE
        key = HALF_POINTS[c] * 100 + c % 14
        if key < best_key:
            best, best_key = c, key
    if best != NO_CARD:
        return best
    tt = t & ALL_TRUMPS & ~ONE          # not the Petit while another trump is there
    if tt != ZERO:
        return FIRST_TRUMP_ID + lowest_bit(tt)
    if t & ONE:
        return PETIT_ID
    return EXCUSE_ID


@njit(cache=True)
def highest_value_card(s):
    """The suit card worth most (highest rank on ties), NO_CARD if none."""
    best = NO_CARD
    best_key = -1
    x = s
    while x != ZERO:
        c = lowest_bit(x)
        x &= x - ONE
        key = HALF_POINTS[c] * 100 + c % 14
        if key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def excuse_now(legal_t, tricks_left, side_won_all, trick_len, best_is_ally_safe, cheapest):
    """Whether to play the Excuse now."""
    if legal_t & EXCUSE_MASK == ZERO:
        return False
    if tricks_left <= 2 and not side_won_all:
        return True
    if trick_len > 0 and not best_is_ally_safe and cheapest != NO_CARD and HALF_POINTS[cheapest] >= 5:
        return True
    return False


@njit(cache=True)
def master_cards(hand_s, out_s):
    """The suit cards of the hand that are the highest still out in their suit."""
    masters = ZERO
    for suit in range(4):
        mine = hand_s & suit_bits(suit)
        if mine == ZERO:
            continue
        top = highest_bit(mine)
        higher_out = out_s & suit_bits(suit) & ~((ONE << np.uint64(top + 1)) - ONE)
        if higher_out == ZERO:
            masters |= ONE << np.uint64(top)
    return masters


@njit(cache=True)
def lasting_masters(players, hand_s, allies, out_s, excl_s):
    """The master cards of the hand (``master_cards``) likely to win a trick of their own later: in a suit
    with more cards still out than there are seats, and that every opponent may still hold."""
    masters = master_cards(hand_s, out_s)
    x = masters
    while x != ZERO:
        c = lowest_bit(x)
        x &= x - ONE
        suit = suit_bits(c // 14)
        lasting = popcount(out_s & suit) >= players + 1
        for q in range(players):
            if (allies >> q) & 1 == 0 and out_s & suit & ~excl_s[q] == ZERO:
                lasting = False
        if not lasting:
            masters &= ~(ONE << np.uint64(c))
    return masters


@njit(cache=True)
def charge_card(players, cards_s, allies, out_s, excl_s):
    """The card to give an ally's sure trick: the most valuable one, a master likely to win a trick of its
    own later apart (``lasting_masters``)."""
    keep = cards_s & ~lasting_masters(players, cards_s, allies, out_s, excl_s)
    return highest_value_card(keep if keep != ZERO else cards_s)


@njit(cache=True)
def honours_of(suit):
    """The four honours (Valet to King) of a suit."""
    return np.uint64(0xF) << np.uint64(14 * suit + 10)


@njit(cache=True)
def still_to_play(players, seat, trick_len, other):
    """Whether seat ``other`` plays to the trick after ``seat`` (``trick_len`` cards before it)."""
    return 0 < (other - seat) % players < players - trick_len


@njit(cache=True)
def opponents_may_trump(players, allies, out_t, excl_t):
    for q in range(players):
        if (allies >> q) & 1:
            continue
        if out_t & ~excl_t[q] & ALL_TRUMPS != ZERO:
            return True
    return False


@njit(cache=True, forceinline=True)
def choose_lead(players, seat, is_taker_side, hand_t, legal_s, legal_t, allies, taker,
                out_s, out_t, excl_s, excl_t, tricks_left):
    my_trumps = hand_t & ALL_TRUMPS
    n_mine = popcount(my_trumps)
    trumps_out = out_t & ALL_TRUMPS
    opp_trumps = opponents_may_trump(players, allies, out_t, excl_t)
    # 1. The taker draws trumps while he has at least as many as are still out.
    if is_taker_side and seat == taker and opp_trumps and n_mine > 0 and n_mine >= popcount(trumps_out):
        top = highest_bit(my_trumps)
        if trumps_out >> np.uint64(top + 1) == ZERO and top != 0:
            return FIRST_TRUMP_ID + top
        low = my_trumps & ~ONE
        if low != ZERO and popcount(trumps_out) >= 4:
            return FIRST_TRUMP_ID + lowest_bit(low)
    # 2. The defence hunts the Petit with master trumps.
    if not is_taker_side and trumps_out & ONE and my_trumps != ZERO:
        top = highest_bit(my_trumps)
        if trumps_out >> np.uint64(top + 1) == ZERO and top != 0 and popcount(my_trumps) >= 2:
            return FIRST_TRUMP_ID + top
    # The defence's next two rules hold while the taker may still have trumps.
    taker_may_trump = not is_taker_side and taker >= 0 and out_t & ~excl_t[taker] & ALL_TRUMPS != ZERO
    # 3. A defender with five trumps or more leads his lowest (the Petit apart): it draws the taker's
    #    trumps, which would otherwise cut the defence's suits.
    if taker_may_trump and n_mine >= 5:
        low = my_trumps & ~ONE
        if low != ZERO:
            return FIRST_TRUMP_ID + lowest_bit(low)
    # 4. The defence leads a suit the taker is known to be void in, to make him trump.
    if taker_may_trump:
        for suit in range(4):
            mine = legal_s & suit_bits(suit)
            if mine != ZERO and excl_s[taker] & suit_bits(suit) == suit_bits(suit):
                return lowest_value_card(mine, ZERO)
    # 5. Cash a master card in a suit no opponent can trump.
    masters = master_cards(legal_s, out_s)
    best = NO_CARD
    while masters != ZERO:
        c = lowest_bit(masters)
        masters &= masters - ONE
        suit = c // 14
        safe = True
        for q in range(players):
            if (allies >> q) & 1:
                continue
            if out_s & ~excl_s[q] & suit_bits(suit) == ZERO and out_t & ~excl_t[q] & ALL_TRUMPS != ZERO:
                safe = False
        if safe and (best == NO_CARD or HALF_POINTS[c] > HALF_POINTS[best]):
            best = c
    if best != NO_CARD:
        return best
    # 6. A low card of the longest suit (the taker, from four cards or more, its highest spot card).
    longest = np.int64(-1)
    length = 0
    for suit in range(4):
        n = popcount(legal_s & suit_bits(suit))
        if n > length:
            longest, length = suit, n
    if longest >= 0:
        if seat == taker and length >= 4:     # the taker: the highest spot card, which may hold the trick
            spots = legal_s & suit_bits(longest) & ~honours_of(longest)
            if spots != ZERO:
                return highest_bit(spots)
        return lowest_value_card(legal_s & suit_bits(longest), ZERO)
    # 7. Only trumps (and maybe the Excuse): keep the Petit for the end.
    trumps = legal_t & ALL_TRUMPS & ~ONE
    if trumps != ZERO:
        return FIRST_TRUMP_ID + lowest_bit(trumps)
    if legal_t & EXCUSE_MASK and tricks_left > 1:
        return EXCUSE_ID
    return PETIT_ID if legal_t & ONE else EXCUSE_ID


@njit(cache=True, forceinline=True)
def choose_follow(players, seat, taker, legal_s, legal_t, trick_len, led, best, best_seat, points, allies,
                  out_s, out_t, excl_s, excl_t):
    ally_wins = best_seat >= 0 and (allies >> best_seat) & 1 == 1
    ally_safe = ally_wins and is_safe(best, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t)
    suit_cards = legal_s
    trumps = legal_t & ALL_TRUMPS
    if suit_cards != ZERO and (led < 4 and led >= 0 and suit_cards & suit_bits(led) != ZERO):
        # Following suit.
        if ally_safe:
            return charge_card(players, suit_cards, allies, out_s, excl_s)
        x = suit_cards
        while x != ZERO:                      # the cheapest card that wins and will hold
            c = lowest_bit(x)
            x &= x - ONE
            if beats(c, best, led) and is_safe(c, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t):
                return c
        return lowest_value_card(suit_cards, ZERO)
    if trumps != ZERO:
        # Trumping (or following a trump lead).
        if ally_safe:
            if trumps & ONE:
                return PETIT_ID                # save the Petit under a partner's sure trick
            return FIRST_TRUMP_ID + lowest_bit(trumps)
        x = trumps
        while x != ZERO:
            bitpos = lowest_bit(x)
            x &= x - ONE
            c = FIRST_TRUMP_ID + bitpos
            if not beats(c, best, led):
                continue
            if not is_safe(c, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t):
                continue
            if c == TWENTY_ONE_ID and points < 4 and trumps & ~(ONE << np.uint64(20)) & ~ONE != ZERO:
                break                          # not the 21 on an empty trick
            return c
        rest = trumps & ~ONE & ~(ONE << np.uint64(20))
        if rest != ZERO and taker >= 0 and (allies >> taker) & 1 == 0 and led != 4 and card_suit(best) != 4 \
                and still_to_play(players, seat, trick_len, taker):
            return FIRST_TRUMP_ID + highest_bit(rest)     # a defender trumping before the taker: high
        if rest != ZERO:
            return FIRST_TRUMP_ID + lowest_bit(rest)
        rest = trumps & ~ONE
        if rest != ZERO:
            return FIRST_TRUMP_ID + lowest_bit(rest)
        return PETIT_ID
    # Neither the suit nor a trump: give points to a sure partner, else the cheapest card.
    if suit_cards != ZERO:
        if ally_safe:
            return highest_value_card(suit_cards)
        return lowest_value_card(suit_cards, ZERO)
    return EXCUSE_ID


@njit(cache=True)
def sure_winner(players, seat, cards_t, trick_len, led, best, allies, out_s, out_t, excl_s, excl_t):
    """Whether one of the trumps ``cards_t`` beats the trick and cannot be beaten after it."""
    x = cards_t & ALL_TRUMPS
    while x != ZERO:
        c = FIRST_TRUMP_ID + lowest_bit(x)
        x &= x - ONE
        if beats(c, best, led) and is_safe(c, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t):
            return True
    return False


@njit(cache=True, inline="always")
def lone_card(legal_s, legal_t):
    """The one legal card when there is only one (the heuristic's first rule: it plays it), else NO_CARD."""
    if legal_s != ZERO and legal_t != ZERO:
        return NO_CARD
    if legal_s != ZERO:
        return lowest_bit(legal_s) if legal_s & (legal_s - ONE) == ZERO else NO_CARD
    return FIRST_TRUMP_ID + lowest_bit(legal_t) if legal_t != ZERO and legal_t & (legal_t - ONE) == ZERO else NO_CARD


@njit(cache=True, forceinline=True)
def heuristic_card(players, seat, taker, allies, hand_t, legal_s, legal_t, trick_len, led, best, best_seat,
                   points, tricks_left, side_won_all, out_s, out_t, excl_s, excl_t):
    """The card the heuristic policy plays (a card id among the legal ones).

    The trick in play: ``trick_len`` cards, ``led`` the suit to follow (0-3, 4 trumps, -1 while no card
    but the Excuse), ``best``/``best_seat`` the winning card and its seat (-1 if none), ``points`` the
    half-points on the table (the Excuse included).  ``excl_s``/``excl_t``: tuples of one word per seat
    (at least ``players`` entries)."""
    lone = lone_card(legal_s, legal_t)
    if lone != NO_CARD:
        return lone
    is_taker_side = taker >= 0 and (allies >> taker) & 1 == 1
    others_s = legal_s
    others_t = legal_t & ~EXCUSE_MASK
    if legal_t & EXCUSE_MASK != ZERO:
        if others_s == ZERO and others_t == ZERO:
            return EXCUSE_ID
        ally_safe = False
        if best_seat >= 0 and (allies >> best_seat) & 1:
            ally_safe = is_safe(best, led, players, seat, trick_len, allies, out_s, out_t, excl_s, excl_t)
        if excuse_now(legal_t, tricks_left, side_won_all, trick_len, ally_safe,
                      lowest_value_card(others_s, others_t)):
            return EXCUSE_ID
        if led != -1 and others_s == ZERO:     # following with trumps only: the Excuse rather than a trump
            if not ally_safe and not sure_winner(players, seat, others_t, trick_len, led, best, allies, out_s, out_t,
                                                 excl_s, excl_t):
                return EXCUSE_ID               # that may lose
            if is_taker_side and points <= 4:
                return EXCUSE_ID               # the taker's side keeps its trumps off a trick of two points or less
    if led == -1:
        return choose_lead(players, seat, is_taker_side, hand_t, others_s, others_t, allies, taker,
                           out_s, out_t, excl_s, excl_t, tricks_left)
    return choose_follow(players, seat, taker, others_s, others_t, trick_len, led, best, best_seat, points,
                         allies, out_s, out_t, excl_s, excl_t)


@njit(cache=True)
def goulash_card(legal_s, legal_t, led, best, tricks_left):
    """The card the heuristic plays in a Goulash (no taker: every seat pays the points it takes, so it
    takes as few as it can).  Following, it sheds its most valuable card that does not beat the trick;
    when every card would win, the Excuse (it never wins a trick) if held, else its highest card, which
    would have won a later trick anyway.  Leading, its cheapest card.  The Excuse goes before the last
    trick, where it would win every card in it."""
    excuse = legal_t & EXCUSE_MASK != ZERO
    others_t = legal_t & ~EXCUSE_MASK
    if legal_s == ZERO and others_t == ZERO:
        return EXCUSE_ID
    if excuse and tricks_left <= 2:
        return EXCUSE_ID
    if led == -1:
        return lowest_value_card(legal_s, others_t)
    duck = NO_CARD
    duck_key = -1
    top = NO_CARD
    for word in range(2):
        x = legal_s if word == 0 else others_t
        while x != ZERO:
            b = lowest_bit(x)
            x &= x - ONE
            c = b if word == 0 else FIRST_TRUMP_ID + b
            if beats(c, best, led):
                if top == NO_CARD or beats(c, top, led):
                    top = c
            else:
                key = HALF_POINTS[c] * 100 + (c % 14 if c < FIRST_TRUMP_ID else c - FIRST_TRUMP_ID)
                if key > duck_key:
                    duck, duck_key = c, key
    if duck != NO_CARD:
        return duck
    return EXCUSE_ID if excuse else top
