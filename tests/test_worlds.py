"""The constrained world sampler is exactly uniform over the assignments meeting the constraints."""

import itertools
import math

import numpy as np

from kernels.worlds import prepare, sample_world


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
    freq = {v: 0 for v in valid}
    for w in worlds:
        freq[w] += 1                     # a KeyError here would be a world breaking a constraint
    expected = n / len(valid)
    chi2 = sum((f - expected) ** 2 / expected for f in freq.values())
    dof = len(valid) - 1
    # chi-square within 5 standard deviations of its mean (sd = sqrt(2 dof))
    assert abs(chi2 - dof) < 5 * math.sqrt(2 * dof)


def test_uniform_when_the_roomiest_place_is_not_the_first():
    # The table's lowest digit is the place with the most room (here the last), and most codes are
    # out of reach (a total room left below the last group's size): the draws stay uniform.
    allowed = [0b0011, 0b0110, 0b1100, 0b1001, 0b0101, 0b1110, 0b1111, 0b1111, 0b1111, 0b1111]
    room = [1, 2, 3, 4]
    valid = _valid(allowed, room)
    n = 100_000
    worlds, count = _sample(allowed, room, n, seed=3)
    assert count == len(valid)
    freq = {v: 0 for v in valid}
    for w in worlds:
        freq[w] += 1
    expected = n / len(valid)
    chi2 = sum((f - expected) ** 2 / expected for f in freq.values())
    dof = len(valid) - 1
    assert abs(chi2 - dof) < 5 * math.sqrt(2 * dof)


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
