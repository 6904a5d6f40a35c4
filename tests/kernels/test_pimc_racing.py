"""The search's shortcuts: equivalent cards searched once (``candidate_classes``) and racing
(``race_cut``): the classes are those the definition gives, their cards are worth exactly the same
under perfect play, and racing drops only the classes the worlds so far rule out."""

import random

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.rules import Rules
from analyzer.runs import MIXED_WORLDS
from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.endgame import W_NODE_LIMIT, new_workspace
from kernels.pimc import (NO_PAST, PIMC_CHELEM, PIMC_PRIOR, PRIOR_RACE_FIRST, PRIOR_RACE_STEP, RACE_ALIKE_FIRST,
                          RACE_FIRST, RACE_STEP, SOLVE_TRICKS, candidate_classes, draw_world, paired_difference,
                          pimc_card_solving, race_cut, search_features, seat_sampler)
from tests.kernels.test_endgame import brute_values, random_ending
from tests.kernels.test_pimc import positions


def classes_of(hs, ht, st):
    """(candidates, rep) for the seat to play, from the kernel."""
    players = int(st[K.PLAYERS])
    seat = (int(st[K.LEADER]) + int(st[K.TRICK_LEN])) % players
    legal_s, legal_t = K.legal_words(hs[seat], ht[seat], st)
    cands = np.array([c for c in range(56) if int(legal_s) >> c & 1] +
                     [56 + c for c in range(22) if int(legal_t) >> c & 1], dtype=np.int64)
    rep = np.empty(len(cands), dtype=np.int64)
    n = candidate_classes(hs, ht, st, seat, np.uint64(legal_s), np.uint64(legal_t), cands, rep)
    return seat, cands, rep, n


def held(hs, ht, p, card):
    return bool(int(hs[p]) >> card & 1) if card < 56 else bool(int(ht[p]) >> (card - 56) & 1)


def equivalent_by_definition(hs, ht, st, seat, a, b):
    """Cards a < b of the seat's hand play alike: one half-point each, the same suit (or both trumps
    2-20), neither shown in a poignée, and no card between them in another hand, aside or on the
    table."""
    if C.half_points(a) != 1 or C.half_points(b) != 1 or C.is_oudler(a) or C.is_oudler(b):
        return False
    if C.is_trump(a) != C.is_trump(b) or (not C.is_trump(a) and C.suit_of(a) != C.suit_of(b)):
        return False
    shown = int(st[K.POIGNEE_T + seat])
    if any(C.is_trump(c) and shown >> (c - 56) & 1 for c in (a, b)):
        return False
    players = int(st[K.PLAYERS])
    table = {int(st[K.TRICK_CARDS + i]) for i in range(int(st[K.TRICK_LEN]))}
    for c in range(a + 1, b):
        if c in table or any(held(hs, ht, p, c) for p in range(players + 1) if p != seat):
            return False
    return True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_classes_are_the_definition(players):
    merged = 0
    for game in positions(players, 120, seed=40 + players):
        hs, ht, st = state_from_game(game)
        seat, cands, rep, n = classes_of(hs, ht, st)
        assert n == len(set(rep.tolist()))
        for j in range(len(cands)):
            assert rep[rep[j]] == rep[j] and rep[j] >= j          # the highest card of its class stands for it
            for i in range(j + 1, len(cands)):
                # Cards of a class are consecutive among the candidates; two neighbours share a class
                # exactly when the definition says so.
                if i == j + 1:
                    same = equivalent_by_definition(hs, ht, st, seat, int(cands[j]), int(cands[i]))
                    assert (rep[i] == rep[j]) == same, (C.token(int(cands[j])), C.token(int(cands[i])))
        merged += len(cands) - n
    assert merged > 50


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_of_a_class_have_the_same_exact_value(players):
    rng = random.Random(7 + players)
    checked = 0
    for _ in range(300):
        game = random_ending(rng, players, rng.randint(2, 3))
        hs, ht, st = state_from_game(game)
        _, cands, rep, n = classes_of(hs, ht, st)
        if n == len(cands):
            continue
        values = brute_values(game)
        for j in range(len(cands)):
            assert values[int(cands[j])] == values[int(cands[rep[j]])]
            checked += int(rep[j] != j)
    assert checked > 20


def test_race_drops_what_the_worlds_rule_out():
    rng = np.random.default_rng(1)
    n = 16
    values = np.zeros((64, 4))
    values[:n, 0] = rng.normal(100, 40, n)
    values[:n, 1] = values[:n, 0] - 30 + rng.normal(0, 5, n)    # always behind the first: dropped
    values[:n, 2] = values[:n, 0] + rng.normal(0, 40, n)         # as good within noise: kept
    values[:n, 3] = values[:n, 0]                                # tied in every world: dropped
    alive = np.array([True, True, True, True])
    left = race_cut(values, n, alive, 0)
    assert list(alive) == [True, False, True, False] and left == 2
    # A class already dropped stays dropped, and the leader is never dropped.
    values[:n, 2] = values[:n, 0] + 50
    left = race_cut(values, n, alive, 0)
    assert list(alive) == [False, False, True, False] and left == 1


def test_race_drops_classes_alike_in_every_world_only_after_enough_worlds():
    # Four worlds alike say little of the rare world where two cards part: a class behind the leader by
    # the same in every world, or tied with it in every one, stays until RACE_ALIKE_FIRST worlds; one
    # behind beyond noise goes at once.
    rng = np.random.default_rng(4)
    values = np.zeros((16, 4))
    values[:, 0] = rng.normal(100, 40, 16)
    values[:, 1] = values[:, 0] - 30 + rng.normal(0, 2, 16)
    values[:, 2] = values[:, 0] - 5
    values[:, 3] = values[:, 0]
    alive = np.ones(4, dtype=np.bool_)
    assert race_cut(values, PRIOR_RACE_FIRST, alive, 0) == 3
    assert list(alive) == [True, False, True, True]
    assert race_cut(values, RACE_ALIKE_FIRST, alive, 0) == 1
    assert list(alive) == [True, False, False, False]


def test_race_leads_with_the_preferred_class_among_equals():
    # Classes 0 and 2 tie in every world: the preferred one leads and the other is dropped.
    rng = np.random.default_rng(3)
    n = 16
    values = np.zeros((16, 3))
    values[:, 0] = rng.normal(100, 40, n)
    values[:, 1] = values[:, 0] + rng.normal(0, 40, n)
    values[:, 1] += values[:, 0].mean() - values[:, 1].mean() - 1.0     # a point behind, within noise
    values[:, 2] = values[:, 0]
    for preferred, dropped in ((2, 0), (0, 2)):
        alive = np.ones(3, dtype=np.bool_)
        assert race_cut(values, n, alive, preferred) == 2
        assert alive[preferred] and alive[1] and not alive[dropped]


def test_race_keeps_every_class_on_equal_noise():
    rng = np.random.default_rng(2)
    n = 32
    values = np.zeros((64, 3))
    values[:n] = rng.normal(0, 30, (n, 3))
    alive = np.ones(3, dtype=np.bool_)
    race_cut(values, n, alive, 0)
    assert alive.sum() >= 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_racing_search_plays_legal_cards_reproducibly(players):
    w = new_workspace(12)
    w[W_NODE_LIMIT] = 20000
    same = 0
    stopped = 0
    count = 0
    for i, game in enumerate(positions(players, 40, seed=60 + players, rules=Rules(players=players))):
        hs, ht, st = state_from_game(game)
        args = (64, 1, np.uint64(i), SOLVE_TRICKS[players], w, True, False, st, NO_PAST)
        racing = (RACE_FIRST, RACE_STEP)
        card, state = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, True, False, *racing)
        again, _ = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, True, False, *racing)
        plain, plain_state = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, False, False, *racing)
        assert game.legal_cards() >> int(card) & 1 and card == again
        same += int(card == plain)
        stopped += int(state != plain_state)       # fewer worlds drawn: the stream stopped earlier
        count += 1
    assert stopped >= 3                 # racing stops early (6 to 9 of these 40 random-play positions)
    assert same >= 0.8 * count          # and on the same worlds mostly plays the same card


def test_one_class_needs_no_search():
    # Every legal card in one class: the lowest is played without drawing a world (the RNG state is
    # returned as it came).
    rng = random.Random(3)
    for _ in range(200):
        game = random_ending(rng, 4, 3)
        hs, ht, st = state_from_game(game)
        _, cands, rep, n = classes_of(hs, ht, st)
        if n == 1 and len(cands) > 1:
            w = new_workspace(10)
            card, state = pimc_card_solving(hs, ht, st, 8, 1, np.uint64(5), 4, w, True, False, st, NO_PAST, True, False,
                                            RACE_FIRST, RACE_STEP)
            assert card == cands[0] and state == np.uint64(5)
            return
    pytest.fail("no position with one class of several cards")


def test_one_class_without_racing_draws_its_worlds_and_plays_the_heuristics_card():
    # Not racing (the mixed default's search): the worlds are drawn and played as ever (skipping their
    # rollouts would save about 1% of a search's work: measured, not done), every card ties, and the
    # tie goes to the heuristic's card.
    rng = random.Random(3)
    found = 0
    for _ in range(400):
        game = random_ending(rng, 4, 3)
        hs, ht, st = state_from_game(game)
        seat, cands, rep, n = classes_of(hs, ht, st)
        if n != 1 or len(cands) == 1:
            continue
        card, state = pimc_card_solving(hs, ht, st, 8, 1, np.uint64(5), 0, new_workspace(10), False, False, st,
                                        NO_PAST, False, True, RACE_FIRST, RACE_STEP)
        sampler = seat_sampler(hs, ht, st, seat)
        expected = np.uint64(5)
        place = np.empty(78, dtype=np.int64)
        world_s, world_t = np.empty(5, dtype=np.uint64), np.empty(5, dtype=np.uint64)
        for _ in range(8):
            state_out, _ = draw_world(sampler, expected, place, st, seat, False, world_s, world_t)
            expected = np.uint64(state_out)
        assert card == K.heuristic_at(hs, ht, st) and state == expected
        found += 1
    assert found >= 3


def test_paired_difference_is_the_mean_and_sample_variance_of_the_differences():
    rng = np.random.default_rng(4)
    values = rng.normal(0, 10, (12, 3))
    mean, var = paired_difference(values, 9, 2, 0)
    d = values[:9, 2] - values[:9, 0]
    assert mean == pytest.approx(d.mean()) and var == pytest.approx(d.var(ddof=1))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_prior_only_moves_the_pick_to_the_heuristics_card(players):
    # On the same worlds (the same RNG state in and out) the search with the prior plays its own card
    # or the heuristic's, and with 4 worlds it keeps the heuristic's card where the search's is ahead
    # by chance only.
    w = new_workspace(12)
    w[W_NODE_LIMIT] = 20000
    moved = 0
    for i, game in enumerate(positions(players, 60, seed=80 + players, rules=Rules(players=players))):
        hs, ht, st = state_from_game(game)
        mine = K.heuristic_at(hs, ht, st)
        args = (4, 1, np.uint64(i), SOLVE_TRICKS[players], w, True, False, st, NO_PAST, False)
        plain, plain_state = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, False, RACE_FIRST, RACE_STEP)
        card, state = pimc_card_solving(hs.copy(), ht.copy(), st.copy(), *args, True, RACE_FIRST, RACE_STEP)
        assert state == plain_state and card in (plain, mine)
        moved += int(card != plain)
    assert moved >= 3


def test_the_mixed_models_search_races_from_its_few_worlds():
    # pimc-prior (the default answers' search) races from PRIOR_RACE_FIRST worlds, pimc from RACE_FIRST; the
    # chelem search as pimc-prior but where its chelem is alive (tests/advice/test_chelem_search.py).
    assert search_features(PIMC_PRIOR)[4:] == (True, True, PRIOR_RACE_FIRST, PRIOR_RACE_STEP)
    assert search_features(K.PIMC)[4:] == (True, True, RACE_FIRST, RACE_STEP)
    assert search_features(PIMC_CHELEM) == search_features(PIMC_PRIOR)
    assert PRIOR_RACE_FIRST < MIXED_WORLDS[5][0]        # an 8-world decision races after its fourth world
