"""The constrained world sampler is exactly uniform over the assignments meeting the constraints."""

import itertools
import math

import numpy as np

from kernels.worlds import exact_plan, merge_places, plan_worlds, prepare, sample_plan, sample_world


def _sample(allowed, room, n, seed=1):
    allowed = np.asarray(allowed, dtype=np.int64)
    room = np.asarray(room, dtype=np.int64)
    fixed, constrained, last, _, left, strides, table, start = prepare(allowed, room)
    out = np.empty(allowed.shape[0], dtype=np.int64)
    state = np.uint64(seed)
    worlds = []
    for _ in range(n):
        state = np.uint64(sample_world(allowed, fixed, constrained, last, strides, left, table, start, state, out))
        worlds.append(tuple(out))
    return worlds, table[start]


def _sample_plan(allowed, room, place, n, seed=1):
    """``n`` worlds drawn from ``plan_worlds``'s plan (``place`` the one it may open), and whether it checks."""
    plan = plan_worlds(np.asarray(allowed, dtype=np.int64), np.asarray(room, dtype=np.int64), place)
    out = np.empty(len(allowed), dtype=np.int64)
    state = np.uint64(seed)
    worlds = []
    for _ in range(n):
        state = np.uint64(sample_plan(plan, state, out))
        worlds.append(tuple(out))
    return worlds, plan[0]


def _uniform(worlds, valid):
    """Whether the chi-square of the worlds' frequencies over ``valid`` is within 5 standard deviations
    (sqrt(2 dof)) of its mean."""
    freq = {v: 0 for v in valid}
    for w in worlds:
        freq[w] += 1                     # a KeyError here would be a world breaking a constraint
    expected = len(worlds) / len(valid)
    chi2 = sum((f - expected) ** 2 / expected for f in freq.values())
    dof = len(valid) - 1
    return abs(chi2 - dof) < 5 * math.sqrt(2 * dof)


def _valid(allowed, room):
    places = len(room)
    out = []
    for assign in itertools.product(range(places), repeat=len(allowed)):
        if all(a >> p & 1 for a, p in zip(allowed, assign)) and all(
                assign.count(p) == room[p] for p in range(places)):
            out.append(assign)
    return out


def test_uniform_over_a_small_constrained_set():
    # 8 cards, 3 places holding 3, 3 and 2; three cards restricted, one fixed, four free.
    allowed = [0b011, 0b110, 0b101, 0b001, 0b111, 0b111, 0b111, 0b111]
    room = [3, 3, 2]
    valid = _valid(allowed, room)
    n = 120_000
    worlds, count = _sample(allowed, room, n)
    assert count == len(valid)
    assert _uniform(worlds, valid)


def test_uniform_when_the_roomiest_place_is_not_the_first():
    # The table's lowest digit is the place with the most room (here the last), and most codes are
    # out of reach (a total room left below the last group's size): the draws stay uniform.
    allowed = [0b0011, 0b0110, 0b1100, 0b1001, 0b0101, 0b1110, 0b1111, 0b1111, 0b1111, 0b1111]
    room = [1, 2, 3, 4]
    valid = _valid(allowed, room)
    n = 100_000
    worlds, count = _sample(allowed, room, n, seed=3)
    assert count == len(valid)
    assert _uniform(worlds, valid)


def test_alike_places_are_merged_and_the_draws_stay_uniform():
    # Places 0 and 2 take the same cards (place 1 is closed to the last two kinds, place 3 to the
    # first): the plan counts them as one place, then shares their cards out; one card is fixed in 0.
    allowed = [0b0001, 0b0111, 0b0111, 0b1101, 0b1101, 0b1111, 0b1111, 0b1111, 0b1111]
    room = [3, 2, 2, 2]
    allowed_, room_ = np.array(allowed, dtype=np.int64), np.array(room, dtype=np.int64)
    merged, merged_room, classes, left, own = merge_places(allowed_, room_)
    assert list(classes) == [0, 1, 0, 2] and list(merged_room) == [4, 2, 2] and list(left) == [2, 2, 2, 2]
    assert list(own) == [0] + [-1] * 8
    assert merged[0] == 0 and merged[1] == 0b011 and merged[3] == 0b101 and merged[5] == 0b111
    valid = _valid(allowed, room)
    plan = (False, allowed_, room_, exact_plan(allowed_, room_))
    out = np.empty(len(allowed), dtype=np.int64)
    state = np.uint64(11)
    worlds = []
    for _ in range(60_000):
        state = np.uint64(sample_plan(plan, state, out))
        worlds.append(tuple(out))
    assert _uniform(worlds, valid)


def test_a_card_out_of_play_stays_out_and_fixed_cards_stay_put():
    allowed = [0, 0b01, 0b10, 0b11, 0b11]
    worlds, count = _sample(allowed, [2, 2], 200)
    assert count == 2
    assert all(w[0] == -1 and w[1] == 0 and w[2] == 1 for w in worlds)


def test_impossible_constraints_have_no_world():
    # two cards that must both go to place 0, which holds one card
    _, count = _sample([0b01, 0b01, 0b10], [1, 2], 0)
    assert count == 0
    _, count = _sample([0b01, 0b11, 0b11], [1, 1, 1] [:2], 0)
    assert count == 0


def test_a_place_opened_and_its_draws_rejected_stays_uniform():
    # Place 3 (the aside: two free slots) is closed to four of the nine cards that may go elsewhere, as
    # Kings and trumps are to a discard; the plan opens it and draws again the worlds breaking it.
    allowed = [0b1111, 0b1111, 0b1111, 0b1111, 0b1111, 0b0111, 0b0111, 0b0011, 0b0110, 0b1000]
    room = [2, 3, 2, 3]
    valid = _valid(allowed, room)
    worlds, checked = _sample_plan(allowed, room, 3, 100_000, seed=5)
    assert checked
    assert _uniform(worlds, valid)


def test_a_place_closed_to_most_cards_is_planned_exactly():
    # Four slots free in place 2 and only four of ten cards may go there: a draw would be kept too
    # rarely, so the plan is the exact one (no check), and uniform.
    allowed = [0b111, 0b111, 0b111, 0b111, 0b011, 0b011, 0b011, 0b011, 0b011, 0b011]
    room = [3, 3, 4]
    worlds, checked = _sample_plan(allowed, room, 2, 20_000, seed=6)
    assert not checked
    assert _uniform(worlds, _valid(allowed, room))


def test_draws_all_rejected_fall_back_to_the_exact_plan():
    # Place 1 holds 5 cards and only 5 of 30 may go there: one world meets the constraints, one in
    # 142,506 of the opened place's.  The estimated chance rules the opening out; forced anyway, the
    # RELAX_TRIES draws are nearly always all rejected and the exact plan draws the one world.
    allowed = np.array([0b11] * 5 + [0b01] * 25, dtype=np.int64)
    room = np.array([25, 5], dtype=np.int64)
    assert not plan_worlds(allowed, room, 1)[0]
    forced = (True, allowed, room, exact_plan(allowed | 0b10, room))
    out = np.empty(30, dtype=np.int64)
    state = np.uint64(7)
    for _ in range(50):
        state = np.uint64(sample_plan(forced, state, out))
        assert list(out) == [1] * 5 + [0] * 25
