"""Exactly uniform worlds under per-card constraints: the sampler behind the determinized search.

What a seat knows (``analyzer/knowledge.py``) becomes, for each unseen card, the set of places it may
be in (seats 0…P-1, P the aside pile), and each place's number of cards.  Every assignment meeting
these constraints is equally likely, so a world is drawn with probability 1 / (their number):

* cards with a single allowed place are placed at once;
* the largest group of cards sharing one allowed set is dealt last: given the room left in each
  place, its cards can be placed in multinomial(n; room) ways, and a uniform shuffle does it;
* the other cards ("constrained") are placed one by one, each in place p with probability
  proportional to the number of ways to complete the assignment from there, counted once per
  position by dynamic programming over the room left (a mixed-radix code).  The room left says how
  many constrained cards are placed, so the table holds one number per code, filled in one pass.
  Only the codes whose total is between the last group's size and that plus the constrained cards
  can be reached; the place with the most room is the code's lowest digit, so those codes are runs
  of consecutive codes, and the pass visits them alone (the table's other entries are never read and
  never written).

Worlds are then drawn by ``sample_world`` cheaply.  The plan needs no rejection, so even very
constrained positions late in a deal (two seats out of trumps, one holding them all) cost nothing extra.

The table's size is the product of the places' room, so the search plans with alike places merged
(``exact_plan``): places that every card may go to together or not at all (seats that have shown no
void, or whose voids are the same) are one place holding their room, planned and drawn as such, and
``draw_exact`` then shuffles each merged place's cards and deals them to its places by their room.
Every way to fill the merged places splits into the same number of ways to share their cards out, so
the draws stay uniform.  This matters most at 5 players, where four seats and the aside are planned
(docs/design.md, "Dealing what a seat cannot see"; docs/journal/search-time.md, "Planning the
worlds").  A plan holds the work arrays of its draws, so one plan draws in one thread at a time.

The plan's cost grows with the constrained cards, and one case makes many: a place with little room
closed to cards that may go everywhere else.  Under Prise and Garde a defender knows that no King and
no unshown trump was discarded, so some twenty cards form a group of their own beside the free cards,
and the table counts every way they spread over the seats: at 5 players a defender's early decisions
cost far more to plan than their worlds to draw.  ``plan_worlds`` then plans with that place open to
those cards too (one group: the plan costs next to nothing) and ``sample_plan`` draws again any world
that puts one of them there: rejection, uniform over the worlds that meet every constraint.
It does so when the chance that a draw is kept is at least ``RELAX_MIN_CHANCE`` (estimated as if the
place's free room were filled at random from the cards that may go there), and after ``RELAX_TRIES``
draws all rejected it draws from the exact plan (a mixture of uniform draws is uniform).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_PLACES = 6
RELAX_MIN_CHANCE = 0.2
RELAX_TRIES = 64


@njit(cache=True)
def splitmix64(state):
    """One step of SplitMix64: (new state, 64 random bits)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform01(state):
    state, z = splitmix64(state)
    return state, np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def popcount_small(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def sorted_by_sets(allowed, room):
    """The cards by allowed set: (each card's one allowed place or -1, each place's room left by the cards
    of one place, the number of cards of two places or more with each allowed set)."""
    left = room.copy()
    own = np.full(allowed.shape[0], -1, dtype=np.int64)
    group_size = np.zeros(1 << room.shape[0], dtype=np.int64)
    for card in range(allowed.shape[0]):
        a = allowed[card]
        if a == 0:
            continue
        if a & (a - 1):
            group_size[a] += 1
        else:
            p = 0
            while not (a >> p) & 1:
                p += 1
            own[card] = p
            left[p] -= 1
    return own, left, group_size


@njit(cache=True, inline="always")
def last_group_ways(digits, last_mask, fact, n_last):
    """The ways to deal the last group's ``n_last`` cards into the room ``digits`` (0 when some of it
    is in a place the group cannot go)."""
    ways = fact[n_last]
    for p in range(digits.shape[0]):
        if digits[p] > 0 and not (last_mask >> p) & 1:
            return 0.0
        if digits[p] > 1:                   # 0! = 1! = 1: no division (an exact one)
            ways /= fact[digits[p]]
    return ways


@njit(cache=True)
def prepare(allowed, room):
    """Plan the sampling of one position.

    ``allowed[card]``: bitmask of allowed places (0: out of play); ``room[p]``: cards place p holds.
    Returns (fixed_place per card or -1, constrained cards in order, last-group cards, last-group
    place mask, room left for the free cards, mixed-radix strides, table of completion counts W[code]
    (the number of ways to finish once the room left is ``code``, the constrained cards placed so far
    being those the code's total implies; filled only at the codes a draw can reach), the starting
    code).  ``W[start] == 0`` means that no assignment exists.
    """
    n_places = room.shape[0]
    fixed, left, group_size = sorted_by_sets(allowed, room)
    last_mask = 0
    for a in range(group_size.shape[0]):
        if group_size[a] > group_size[last_mask]:
            last_mask = a
    n_constrained = 0
    n_last = group_size[last_mask]
    for a in range(group_size.shape[0]):
        if a != last_mask:
            n_constrained += group_size[a]
    constrained = np.empty(n_constrained, dtype=np.int64)
    last = np.empty(n_last, dtype=np.int64)
    i = 0
    j = 0
    for card in range(allowed.shape[0]):
        a = allowed[card]
        if a == 0 or fixed[card] >= 0:
            continue
        if a == last_mask:
            last[j] = card
            j += 1
        else:
            constrained[i] = card
            i += 1
    # The room-left codes are mixed-radix numbers whose lowest digit is the place with the most room
    # (``inner``): the codes in range, whose total room left is between n_last and n_last plus the
    # constrained cards, are then runs of consecutive codes, one run per value of the other digits.
    inner = 0
    for p in range(n_places):
        if left[p] > left[inner]:
            inner = p
    strides = np.empty(n_places, dtype=np.int64)
    strides[inner] = 1
    size = max(left[inner], 0) + 1
    for p in range(n_places):
        if p != inner:
            strides[p] = size
            size *= max(left[p], 0) + 1
    start = 0
    for p in range(n_places):
        start += max(left[p], 0) * strides[p]
    table = np.empty(size, dtype=np.float64)
    table[start] = 0.0
    for p in range(n_places):
        if left[p] < 0:
            return fixed, constrained, last, last_mask, left, strides, table, start
    fact = np.ones(n_last + 1, dtype=np.float64)
    for k in range(1, n_last + 1):
        fact[k] = fact[k - 1] * k
    top = n_last + n_constrained
    if n_constrained == 0:
        # Only the last group: the start code's count is all the sampler reads.
        if left.sum() == n_last:
            table[start] = last_group_ways(left, last_mask, fact, n_last)
        return fixed, constrained, last, last_mask, left, strides, table, start
    # One pass over the codes in range in increasing order (each count depends only on codes with one
    # card fewer placed, which are smaller).  A code's total room left tells which card is next: with
    # ``total`` places free, the constrained cards still to place are the last ``total - n_last``, so
    # one number per code is enough.
    digits = np.zeros(n_places, dtype=np.int64)
    run = left[inner] + 1
    others = 0                       # the total of the digits other than the inner one
    for outer in range(size // run):
        if outer > 0:
            for p in range(n_places):
                if p == inner:
                    continue
                digits[p] += 1
                others += 1
                if digits[p] <= left[p]:
                    break
                others -= digits[p]
                digits[p] = 0
        for d in range(max(0, n_last - others), min(left[inner], top - others) + 1):
            code = outer * run + d
            digits[inner] = d
            if others + d == n_last:
                # Every constrained card is placed: the last group fills the room left.
                table[code] = last_group_ways(digits, last_mask, fact, n_last)
                continue
            a = allowed[constrained[top - others - d]]
            w = 0.0
            for p in range(n_places):
                if (a >> p) & 1 and digits[p] > 0:
                    w += table[code - strides[p]]
            table[code] = w
    return fixed, constrained, last, last_mask, left, strides, table, start


@njit(cache=True, inline="always")
def shuffle(cards, lo, n, state):
    """Shuffle ``cards[lo:lo + n]`` uniformly (Fisher-Yates); returns the RNG state."""
    for k in range(n - 1, 0, -1):
        state, u = uniform01(state)
        j = np.int64(u * (k + 1))
        cards[lo + k], cards[lo + j] = cards[lo + j], cards[lo + k]
    return state


@njit(cache=True, inline="always")
def draw_into(allowed, fixed, constrained, last, strides, left, table, start, state, out_place, room, cards):
    """``sample_world`` with its work arrays given: ``room`` (one per place) and ``cards`` (as long as
    ``last``)."""
    n_places = strides.shape[0]
    for card in range(out_place.shape[0]):
        out_place[card] = fixed[card]
    for p in range(n_places):
        room[p] = max(left[p], 0)           # the room left in each place: the code's digits
    code = start
    for i in range(constrained.shape[0]):
        card = constrained[i]
        a = allowed[card]
        state, u = uniform01(state)
        target = u * table[code]
        chosen = -1
        acc = 0.0
        for p in range(n_places):
            if (a >> p) & 1 and room[p] > 0:
                w = table[code - strides[p]]
                if w <= 0.0:
                    continue
                acc += w
                chosen = p
                if target < acc:
                    break
        out_place[card] = chosen
        code -= strides[chosen]
        room[chosen] -= 1
    # The last group: a uniform shuffle into the room left.
    for i in range(last.shape[0]):
        cards[i] = last[i]
    state = shuffle(cards, 0, cards.shape[0], state)
    k = 0
    for p in range(n_places):
        for _ in range(room[p]):
            out_place[cards[k]] = p
            k += 1
    return state


@njit(cache=True)
def sample_world(allowed, fixed, constrained, last, strides, left, table, start, state, out_place):
    """Draw one world of ``prepare``'s plan into ``out_place`` (the place of each card, -1 out of
    play); returns the RNG state."""
    room = np.empty(strides.shape[0], dtype=np.int64)
    cards = np.empty(last.shape[0], dtype=np.int64)
    return draw_into(allowed, fixed, constrained, last, strides, left, table, start, state, out_place, room, cards)


@njit(cache=True)
def merge_places(allowed, room):
    """Places that every card may go to together or not at all, merged into one: (the cards' allowed
    sets of merged places, each merged place's room, each place's merged place, each place's room left
    by the cards it alone may hold, each card's one allowed place or -1).  Cards with one allowed
    place are out of play in the merged problem.  Merged places are numbered in the order of their
    first place, so that with no two places alike the merged problem is the problem itself."""
    n_places = room.shape[0]
    own, left, group_size = sorted_by_sets(allowed, room)
    shapes = np.zeros(n_places, dtype=np.uint64)   # each place's allowed sets of cards of 2+ places, as bits
    for a in range(group_size.shape[0]):           # (a set is below 2 ** MAX_PLACES = 64)
        if group_size[a] > 0:
            for p in range(n_places):
                if (a >> p) & 1:
                    shapes[p] |= np.uint64(1) << np.uint64(a)
    classes = np.empty(n_places, dtype=np.int64)
    n_classes = 0
    for p in range(n_places):
        classes[p] = -1
        for q in range(p):
            if shapes[q] == shapes[p]:
                classes[p] = classes[q]
                break
        if classes[p] < 0:
            classes[p] = n_classes
            n_classes += 1
    merged_room = np.zeros(n_classes, dtype=np.int64)
    overfull = False
    for p in range(n_places):
        merged_room[classes[p]] += left[p]
        overfull = overfull or left[p] < 0
    if overfull:
        merged_room[:] = -1                # no world, as in the problem itself
    remap = np.zeros(1 << n_places, dtype=np.int64)     # an allowed set's merged places
    for a in range(1, 1 << n_places):
        for p in range(n_places):
            if (a >> p) & 1:
                remap[a] |= 1 << classes[p]
    merged = np.zeros(allowed.shape[0], dtype=np.int64)
    for card in range(allowed.shape[0]):
        if own[card] < 0:
            merged[card] = remap[allowed[card]]
    return merged, merged_room, classes, left, own


@njit(cache=True)
def exact_plan(allowed, room):
    """``prepare``'s plan of ``allowed`` with alike places merged (``merge_places``), for ``draw_exact``,
    with the work arrays of its draws (a plan draws in one thread at a time).  Uniform: every way to
    fill the merged places with their cards splits into the same number of ways to share each merged
    place's cards among its places by their room, and each card may go to any of them."""
    merged, merged_room, classes, left, base = merge_places(allowed, room)
    fixed, constrained, last, _, merged_left, strides, table, start = prepare(merged, merged_room)
    n_classes = merged_room.shape[0]
    members = np.bincount(classes, minlength=n_classes)
    single = np.full(n_classes, -1, dtype=np.int64)     # the place of a merged place of one place, else -1
    for p in range(classes.shape[0]):
        if members[classes[p]] == 1:
            single[classes[p]] = p
    # The pool holds the cards of each merged place of several places from ``segment[c]`` to
    # ``segment[c + 1]``, those it holds before the draw first (to ``heads_end[c]``); the other cards
    # start in their one place or their merged place's one place.
    segment = np.zeros(n_classes + 1, dtype=np.int64)
    for c in range(n_classes):
        segment[c + 1] = segment[c] + (max(merged_room[c], 0) if single[c] < 0 else 0)
    heads = np.empty(segment[n_classes], dtype=np.int64)
    heads_end = segment[:n_classes].copy()
    for card in range(allowed.shape[0]):
        c = fixed[card]
        if base[card] < 0 and c >= 0:
            if single[c] >= 0:
                base[card] = single[c]
            else:
                heads[heads_end[c]] = card
                heads_end[c] += 1
    work = (np.empty(n_classes, dtype=np.int64), np.empty(n_classes, dtype=np.int64),
            np.empty(last.shape[0], dtype=np.int64), np.empty(heads.shape[0], dtype=np.int64))
    return (classes, left, single, segment, heads, heads_end, merged, base, constrained, last, strides, merged_left,
            table, start, work)


@njit(cache=True, inline="always")
def draw_exact(plan, state, out_place):
    """Draw one world of ``exact_plan``'s plan into ``out_place``; returns the RNG state.  The cards of
    each merged place of several places are shuffled and dealt to them by their room."""
    (classes, left, single, segment, heads, heads_end, merged, base, constrained, last, strides, merged_left,
     table, start, work) = plan
    room, fill, cards, pool = work
    state = draw_into(merged, base, constrained, last, strides, merged_left, table, start, state, out_place,
                      room, cards)
    n_places = classes.shape[0]
    n_classes = single.shape[0]
    if n_classes == n_places:              # no two places alike: merged places are places
        return state
    for i in range(heads.shape[0]):
        pool[i] = heads[i]
    for c in range(n_classes):
        fill[c] = heads_end[c]
    for i in range(constrained.shape[0] + last.shape[0]):
        card = constrained[i] if i < constrained.shape[0] else last[i - constrained.shape[0]]
        c = out_place[card]
        if single[c] >= 0:
            out_place[card] = single[c]
        else:
            pool[fill[c]] = card
            fill[c] += 1
    for c in range(n_classes):
        if single[c] >= 0:
            continue
        k = segment[c]
        state = shuffle(pool, k, segment[c + 1] - k, state)
        for p in range(n_places):
            if classes[p] == c:
                for _ in range(left[p]):
                    out_place[pool[k]] = p
                    k += 1
    return state


@njit(cache=True)
def plan_worlds(allowed, room, place):
    """The plan ``sample_plan`` draws from: (whether draws are checked, ``allowed``, ``room``, then
    ``exact_plan``'s plan of the constraints planned).  Those are ``allowed`` with ``place`` opened to
    every card that may go to two places or more when that keeps a chance of at least
    ``RELAX_MIN_CHANCE`` that a draw meets ``allowed`` (module docstring), else ``allowed`` itself."""
    bit = 1 << place
    free = room[place]
    may = 0                          # cards of two places or more that may go to ``place``
    closed = 0                       # and those that may not
    for card in range(allowed.shape[0]):
        a = allowed[card]
        if a == bit:
            free -= 1
        elif popcount_small(a) > 1:
            if a & bit:
                may += 1
            else:
                closed += 1
    chance = 1.0
    for i in range(max(free, 0)):
        if may - i <= 0:
            chance = 0.0             # the place cannot be filled from the cards that may go there
            break
        chance *= (may - i) / (may + closed - i)
    check = closed > 0 and chance >= RELAX_MIN_CHANCE
    loose = allowed.copy() if check else allowed
    if check:
        for card in range(allowed.shape[0]):
            if popcount_small(allowed[card]) > 1:
                loose[card] |= bit
    return check, allowed, room, exact_plan(loose, room)


@njit(cache=True, inline="always")
def meets(allowed, out_place):
    """Whether every card in play is in one of its allowed places."""
    for card in range(allowed.shape[0]):
        if allowed[card] != 0 and not (allowed[card] >> out_place[card]) & 1:
            return False
    return True


@njit(cache=True)
def draw_once(allowed, room, state, out_place):
    """A world of ``allowed`` drawn from an exact plan made for this one draw (``sample_plan``'s
    fallback); returns the RNG state."""
    return draw_exact(exact_plan(allowed, room), state, out_place)


@njit(cache=True, inline="always")
def sample_plan(plan, state, out_place):
    """Draw one world of ``plan_worlds``'s plan into ``out_place``; returns the RNG state."""
    check, allowed, room, planned = plan
    for _ in range(RELAX_TRIES if check else 1):
        state = draw_exact(planned, state, out_place)
        if not check or meets(allowed, out_place):
            return state
    return draw_once(allowed, room, state, out_place)


@njit(cache=True)
def meets_counts(places, count_seat, count_cards, count_min, count_max):
    """Whether every "seat holds between min and max cards of a group" constraint holds
    (``count_cards[k]`` is a boolean row over the 78 cards)."""
    for k in range(count_seat.shape[0]):
        n = 0
        for c in range(78):
            if count_cards[k, c] and places[c] == count_seat[k]:
                n += 1
        if n < count_min[k] or n > count_max[k]:
            return False
    return True
