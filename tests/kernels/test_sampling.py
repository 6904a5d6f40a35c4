"""The deal sampler: exact hypergeometric frequencies, uniform conditioning, determinism, clear errors.

Tolerances are stated in standard errors of the sampled frequency (fixed seeds, so a failure is
reproducible and not a fluke of this run)."""

import itertools
import math

import numba
import numpy as np
import pytest

from analyzer import cards as C
from analyzer.notation import parse_mask
from analyzer.sampling import CountBetween, Holds, SamplingError, Void, sample, sample_deals
from tests.support.hands import FFT_HAND

N = 100_000
TOL_SE = 5.0
TRUMPS_AND_EXCUSE = [c for c in range(C.FIRST_TRUMP, C.N_CARDS)]


def hypergeom(k, good, total, draws):
    return math.comb(good, k) * math.comb(total - good, draws - k) / math.comb(total, draws)


def assert_frequencies(counts, probs, n):
    for k, p in probs.items():
        se = math.sqrt(p * (1 - p) / n)
        assert abs(counts.get(k, 0) / n - p) <= TOL_SE * se + 1e-12, (k, counts.get(k, 0) / n, p)


def tally(values):
    vals, cnt = np.unique(values, return_counts=True)
    return dict(zip(vals.tolist(), cnt.tolist()))


@pytest.mark.slow
def test_trumps_with_excuse_in_a_hand_is_hypergeometric():
    places = sample_deals(4, N, seed=1, exclude_petit_sec=False)
    trumps = (places[:, C.FIRST_TRUMP:] == 2).sum(axis=1)          # seat 3, the 22 trumps and the Excuse
    assert_frequencies(tally(trumps), {k: hypergeom(k, 22, 78, 18) for k in range(0, 19)}, N)


@pytest.mark.slow
def test_oudlers_in_a_hand_is_hypergeometric():
    places = sample_deals(3, N, seed=2, exclude_petit_sec=False)
    oudlers = (places[:, list(C.OUDLERS)] == 0).sum(axis=1)
    assert_frequencies(tally(oudlers), {k: hypergeom(k, 3, 78, 24) for k in range(4)}, N)


@pytest.mark.slow
def test_chien_given_a_fixed_hand():
    hand = FFT_HAND
    places = sample_deals(4, N, seed=3, fixed={0: hand}, exclude_petit_sec=False)
    assert (places[:, list(C.cards_of(parse_mask(hand)))] == 0).all()
    trumps_out = 22 - 8
    chien_trumps = (places[:, C.FIRST_TRUMP:] == 4).sum(axis=1)
    assert_frequencies(tally(chien_trumps), {k: hypergeom(k, trumps_out, 60, 6) for k in range(7)}, N)


@pytest.mark.slow
def test_void_frequency():
    places = sample_deals(5, N, seed=4, exclude_petit_sec=False)
    void = ((places[:, :14] == 1).sum(axis=1) == 0).mean()
    p = math.comb(64, 15) / math.comb(78, 15)
    assert abs(void - p) <= TOL_SE * math.sqrt(p * (1 - p) / N)


def _small_case():
    """4 players; all but 8 cards fixed: seat 0 lacks 2 cards, seats 1-3 lack 2 each."""
    unseen = [0, 1, 14, 15, 28, 29, 56, 57]                   # 1S 2S 1H 2H 1D 2D, trumps 1 and 2
    rest = [c for c in range(C.N_CARDS) if c not in unseen]
    fixed = {0: rest[:16], 1: rest[16:32], 2: rest[32:48], 3: rest[48:64], "chien": rest[64:70]}
    return unseen, fixed


def _enumerate(unseen, seats_room, ok):
    out = []
    for perm in set(itertools.permutations([s for s, r in seats_room for _ in range(r)])):
        assign = dict(zip(unseen, perm))
        if ok(assign):
            out.append(tuple(assign[c] for c in unseen))
    return out


@pytest.mark.slow
def test_conditioning_on_a_void_is_uniform_over_the_constrained_set():
    unseen, fixed = _small_case()
    valid = _enumerate(unseen, [(0, 2), (1, 2), (2, 2), (3, 2)],
                       lambda a: all(a[c] != 1 for c in (0, 1)) and all(a[c] != 2 for c in (56, 57)))
    n = 60_000
    places = sample_deals(4, n, seed=5, fixed=fixed, constraints=[Void(1, "S"), Void(2, "T")], exclude_petit_sec=False)
    seen = tally([hash(tuple(row)) for row in places[:, unseen].tolist()])
    keys = {hash(v): v for v in valid}
    assert set(seen) <= set(keys)                       # every deal meets the constraints
    expected = n / len(valid)
    chi2 = sum((seen.get(k, 0) - expected) ** 2 / expected for k in keys)
    dof = len(valid) - 1
    assert abs(chi2 - dof) < TOL_SE * math.sqrt(2 * dof)


@pytest.mark.slow
def test_petit_sec_exclusion_is_uniform_over_the_remaining_deals():
    unseen, fixed = _small_case()
    # Seat 4 has no trump among its fixed cards: it is petit sec when it gets the Petit (card 56) alone.
    holder = {s: set(cards) for s, cards in fixed.items()}
    trumps_fixed = {s: any(c >= C.FIRST_TRUMP for c in cards) for s, cards in holder.items()}

    def not_petit_sec(a):
        for seat in range(4):
            if a[56] == seat and a[57] != seat and not trumps_fixed[seat]:
                return False
        return True

    valid = _enumerate(unseen, [(0, 2), (1, 2), (2, 2), (3, 2)], not_petit_sec)
    result = sample(4, 40_000, seed=6, fixed=fixed)
    seen = tally([hash(tuple(row)) for row in result.places[:, unseen].tolist()])
    keys = {hash(v): v for v in valid}
    assert set(seen) <= set(keys)
    expected = 40_000 / len(valid)
    chi2 = sum((seen.get(k, 0) - expected) ** 2 / expected for k in keys)
    assert abs(chi2 - (len(valid) - 1)) < TOL_SE * math.sqrt(2 * (len(valid) - 1))
    assert 0 < result.acceptance < 1


def test_count_constraint_by_rejection():
    trumps = C.TRUMP_BITS | 1 << C.EXCUSE
    result = sample(4, 2000, seed=7, constraints=[CountBetween(0, trumps, at_least=10)])
    assert ((result.places[:, C.FIRST_TRUMP:] == 0).sum(axis=1) >= 10).all()
    assert result.acceptance < 0.1


def test_holds_places_the_cards():
    places = sample_deals(5, 500, seed=8, constraints=[Holds(3, "KS 21")])
    assert (places[:, [C.KINGS[0], C.TWENTY_ONE]] == 3).all()


def test_same_seed_same_deals_whatever_threads_and_chunks():
    fixed = {0: FFT_HAND}
    numba.set_num_threads(1)
    try:
        one = sample(4, 3000, seed=9, fixed=fixed).places
        voids1 = sample(4, 3000, seed=9, fixed=fixed, constraints=[Void(2, "H")]).places
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    two = sample(4, 3000, seed=9, fixed=fixed).places
    voids2 = sample(4, 3000, seed=9, fixed=fixed, constraints=[Void(2, "H")]).places
    chunks = np.concatenate([sample(4, 1000, seed=9, fixed=fixed, offset=o).places for o in (0, 1000, 2000)])
    assert (one == two).all() and (one == chunks).all() and (voids1 == voids2).all()
    assert not (one == sample(4, 3000, seed=10, fixed=fixed).places).all()


def test_impossible_constraints_are_clear_errors():
    with pytest.raises(SamplingError, match="void"):
        sample_deals(4, 10, seed=1, fixed={1: "21"}, constraints=[Void(1, "T")])
    with pytest.raises(SamplingError, match="holds 18"):
        sample_deals(4, 10, seed=1, fixed={0: " ".join(C.TOKENS[c] for c in range(19))})
    with pytest.raises(SamplingError, match="no deal"):
        # three seats void in trumps and the chien cannot hold 22 trumps with the Excuse
        sample_deals(4, 10, seed=1, constraints=[Void(1, "T"), Void(2, "T"), Void(3, "T"), Void(0, "T")])
    with pytest.raises(SamplingError, match="too rarely"):
        sample_deals(4, 1, seed=1, constraints=[CountBetween(0, C.TRUMP_BITS, at_least=19)])
