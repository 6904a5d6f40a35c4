"""Determinized search: the kernel's knowledge equals the reference one, and decisions depend only
on what the seat may know (changing hidden cards within its information never changes them)."""

import random

import numpy as np
import pytest

from analyzer.game import Game, Phase
from analyzer.knowledge import seat_view
from analyzer.rules import Rules
from analyzer.simulate import state_from_game
from kernels import playout as K
from kernels.endgame import new_workspace
from kernels.pimc import RACE_FIRST, RACE_STEP, pimc_card_solving, seat_knowledge, seat_sampler
from kernels.worlds import draw_exact, exact_plan, merge_places, prepare, sample_plan, sample_world
from tests.support.randomplay import held_miseres, misere_deal, random_deal, step


def rollout_card(hs, ht, st, worlds, rollouts, state):
    """The card the users' search plays with every world finished by heuristic rollouts (no solved
    ending, no inference, no race), called as the commands' kernels call it; returns (card, RNG state)."""
    return pimc_card_solving(hs, ht, st, worlds, rollouts, state, 0, new_workspace(1), False, None, st, None, False,
                             False, RACE_FIRST, RACE_STEP)


def positions(players, games, seed, rules=None):
    """Reference games stopped at random points of play (under the variants, many deals are passed
    into a Goulash, about one in three has a seat holding both misères, and every seat declares the
    misères it holds)."""
    rng = random.Random(seed)
    rules = rules or Rules(players=players)

    def deal():
        return misere_deal(rng, players) if rules.misere == "on" and rng.random() < 0.3 else random_deal(rng, players)

    for _ in range(games):
        game = Game.new(deal(), rules)
        while game.phase is not Phase.PLAY:
            if game.phase is Phase.DONE:          # annulled or thrown in: deal again
                game = Game.new(deal(), rules)
            elif game.phase is Phase.BIDDING and rules.all_pass == "goulash" and rng.random() < 0.6:
                game.bid(None)                   # many Goulash deals
            elif game.phase is Phase.DECLARE and game.chelem_decided and rules.misere == "on":
                game.declare(miseres=held_miseres(game.hands[game.to_act]))
            else:
                step(game, rng)
        for _ in range(rng.randrange(rules.tricks * players - 1)):
            step(game, rng)
        yield game


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variants", [{}, {"misere": "on", "all_pass": "goulash"}], ids=["fft", "misere-goulash"])
def test_kernel_knowledge_equals_the_reference(players, variants):
    allowed = np.empty(78, dtype=np.int64)
    checked = 0
    for game in positions(players, 80, seed=players, rules=Rules(players=players, **variants)):
        hs, ht, st = state_from_game(game)
        room = np.empty(players + 1, dtype=np.int64)
        for seat in range(players):
            seat_knowledge(hs, ht, st, seat, allowed, room)
            view = seat_view(game, seat)
            assert list(allowed) == view.allowed_places()
            assert list(room) == list(view.sizes)
            checked += 1
    assert checked == 80 * players


def _rehide(hs, ht, st, seat, seed):
    """The same position with the cards hidden from ``seat`` redealt among the worlds it cannot
    tell apart (partner recomputed from the called card)."""
    players = int(st[K.PLAYERS])
    place = np.empty(78, dtype=np.int64)
    sample_plan(seat_sampler(hs, ht, st, seat), np.uint64(seed), place)
    hs2 = np.zeros_like(hs)
    ht2 = np.zeros_like(ht)
    for card in range(78):
        if place[card] >= 0:
            if card < 56:
                hs2[place[card]] |= np.uint64(1 << card)
            else:
                ht2[place[card]] |= np.uint64(1 << (card - 56))
    st2 = st.copy()
    if st[K.CALLED] >= 0 and st[K.PARTNER_KNOWN] == 0:
        holder = place[st[K.CALLED]]
        st2[K.PARTNER] = holder if holder not in (players, st[K.TAKER]) else -1
    return hs2, ht2, st2


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_hidden_cards_never_change_a_decision(players):
    changed_worlds = 0
    for i, game in enumerate(positions(players, 25, seed=10 + players)):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        if st[K.CALLED] >= 0 and st[K.PARTNER_KNOWN] == 0 and seat == st[K.PARTNER]:
            continue      # the partner knows its side; rehiding may move the called card away from it
        card, _ = rollout_card(hs.copy(), ht.copy(), st.copy(), 6, 1, np.uint64(i))
        assert game.legal_cards() >> int(card) & 1
        for k in range(3):
            hs2, ht2, st2 = _rehide(hs, ht, st, seat, 1000 * i + k)
            changed_worlds += int((hs2 != hs).any() or (ht2 != ht).any())
            again, _ = rollout_card(hs2, ht2, st2, 6, 1, np.uint64(i))
            assert again == card, f"position {i}: the decision depends on hidden cards"
    assert changed_worlds > 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_decisions_ignore_hidden_cards(players):
    """The heuristic policy's card is the same in every world the seat cannot tell from the real one."""
    policies = np.full(players, K.HEURISTIC, dtype=np.int64)
    result = np.empty(K.RESULT_SIZE, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    compared = 0
    for i, game in enumerate(positions(players, 60, seed=40 + players)):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        if st[K.CALLED] >= 0 and st[K.PARTNER_KNOWN] == 0 and seat == st[K.PARTNER]:
            continue
        trace = np.empty(1, dtype=np.int16)
        K.advance(hs.copy(), ht.copy(), st.copy(), policies, np.uint64(1), none, 1, result, trace)
        for k in range(3):
            hs2, ht2, st2 = _rehide(hs, ht, st, seat, 77 * i + k)
            again = np.empty(1, dtype=np.int16)
            K.advance(hs2, ht2, st2, policies, np.uint64(1), none, 1, result, again)
            assert again[0] == trace[0], f"position {i}: the heuristic used hidden cards"
            compared += 1
    assert compared > 100


DRAWS = 3000


def _shares(draw, allowed, room, seed):
    """Each card's share of ``DRAWS`` worlds in each place, ``draw(state, place)`` drawing one world
    (every world checked: each card in an allowed place, each place holding its room)."""
    place = np.empty(78, dtype=np.int64)
    tally = np.zeros((78, room.shape[0]))
    state = np.uint64(seed)
    for _ in range(DRAWS):
        state = np.uint64(draw(state, place))
        for card in range(78):
            if place[card] >= 0:
                assert allowed[card] >> place[card] & 1
                tally[card, place[card]] += 1
        assert (np.bincount(place[place >= 0], minlength=room.shape[0]) == room).all()
    return tally / DRAWS


def _alike(p, q):
    """Whether two tables of shares agree within 5 standard errors of their difference everywhere."""
    se = np.sqrt((p * (1 - p) + q * (1 - q)) / DRAWS)
    return (np.abs(p - q) <= 5 * se + 1e-12).all()


@pytest.mark.parametrize("players", [4, 5])
def test_worlds_drawn_by_rejection_follow_the_exact_plan(players):
    """Where a defender's worlds are drawn with the aside opened and checked (``kernels.worlds.plan_worlds``:
    Kings and trumps cannot be discarded under Prise and Garde), where each card lies follows the exact
    plan's draws (each card's share in each place within 5 standard errors of their difference, fixed seeds)."""
    checked = 0
    for k, game in enumerate(positions(players, 300, seed=60 + players)):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        plan = seat_sampler(hs, ht, st, seat)
        if not plan[0]:
            continue
        if checked == 4:
            break
        _, allowed, room, _ = plan
        exact = (False, allowed, room, exact_plan(allowed, room))
        shares = [_shares(lambda state, place: sample_plan(sampler, state, place), allowed, room, 100 + k)
                  for sampler in (plan, exact)]
        assert _alike(*shares)
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("players", [4, 5])
def test_worlds_of_merged_places_follow_the_unmerged_plan(players):
    """Where some places are alike and others not (voids shown), the plan with alike places merged
    (``kernels.worlds.exact_plan``) draws each card into each place as often as ``prepare``'s plan of
    every place apart (within 5 standard errors of their difference, fixed seeds)."""
    checked = 0
    for k, game in enumerate(positions(players, 300, seed=80 + players)):
        hs, ht, st = state_from_game(game)
        seat = game.to_act
        _, allowed, room, _ = seat_sampler(hs, ht, st, seat)
        merged_room = merge_places(allowed, room)[1]
        if not 1 < merged_room.shape[0] < room.shape[0]:
            continue
        if checked == 4:
            break
        merged = exact_plan(allowed, room)
        apart = prepare(allowed, room)
        fixed, constrained, last, _, left, strides, table, start = apart
        assert _alike(_shares(lambda state, place: draw_exact(merged, state, place), allowed, room, 200 + k),
                      _shares(lambda state, place: sample_world(allowed, fixed, constrained, last, strides, left,
                                                                table, start, state, place), allowed, room, 200 + k))
        checked += 1
    assert checked == 4
