"""The chelem search (``pimc-chelem``): pimc-prior whose taker's side draws ``CHELEM_WORLDS`` worlds a decision,
without racing, while its chelem is alive; the mixed model plays it where a chelem's announcement is the question or
a chelem is in sight."""

import random

import numpy as np
import pytest
from click.testing import CliRunner

import analyzer.advice.odds as odds_module
from analyzer.advice.choices import announces_chelem, call_options, chelem_options, poignee_options, taker_choices
from analyzer.advice.bid import bid_advice
from analyzer.advice.odds import chelem_in_sight, contract_odds
from analyzer.game import Game, Phase
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import CHELEM_SEARCH, MIXED_SEARCH, MIXED_WORLDS, POLICY_IDS, Settings
from analyzer.simulate import rules_flags, state_from_game
from analyzer.simulation.bridge import fixed_hand
from cli.main import main
from analyzer.simulation.threads import over_rows
from kernels import playout as K
from kernels.batch import advice_deals
from kernels.endgame import W_NODE_LIMIT, new_workspace
from kernels.pimc import (CHELEM_WORLDS, NO_PAST, PIMC_CHELEM, PIMC_PRIOR, SEARCH, SOLVE_NODE_LIMIT,
                          SOLVE_TABLE_BITS, SOLVE_TRICKS, chelem_alive, decision_worlds, pimc_card_solving,
                          play_out_search, search_features)
from tests.support.randomplay import random_deal, step

# A hand that takes every trick about half the time from seat 2 in Garde sans (the chelem check's hands: a
# triple poignée's trumps and Kings).
HAND = Hand.parse("21 20 18 17 14 13 12 11 9 8 7 6 5 3 1 KH KD KC")
RULES = Rules(players=4)
TAKER = 1


def state(players: int = 4, trick: int = 0, won: int = 0, partner: int = -1, announced: int = 0) -> np.ndarray:
    """A state in trick ``trick`` (from 0), ``won`` tricks the taker's side's, a chelem ``announced`` (0 none,
    1 a chelem, 2 a petit chelem)."""
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    st[K.PLAYERS], st[K.TAKER], st[K.PARTNER], st[K.CHELEM] = players, TAKER, partner, announced
    st[K.TRICK], st[K.TAKER_TRICKS] = trick, won
    return st


@pytest.mark.parametrize("st, seat, policy, worlds, drawn, alive", [
    (state(), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS, True),                 # the first trick
    (state(), 0, PIMC_CHELEM, 4, 4, False),                                 # a defender
    (state(trick=5, won=5), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS, True),   # every trick the taker's side's
    (state(trick=5, won=4), TAKER, PIMC_CHELEM, 4, 4, False),              # one lost
    (state(trick=5, won=4, announced=1), TAKER, PIMC_CHELEM, 4, 4, False),
    (state(trick=5, won=4, announced=2), TAKER, PIMC_CHELEM, 4, CHELEM_WORLDS, True),   # a petit chelem: one may go
    (state(trick=5, won=3, announced=2), TAKER, PIMC_CHELEM, 4, 4, False),
    (state(), TAKER, PIMC_CHELEM, 4 * CHELEM_WORLDS, 4 * CHELEM_WORLDS, True),   # never fewer than asked
    (state(), TAKER, PIMC_PRIOR, 4, 4, False),                              # another search
    (state(players=5, trick=2, won=2, partner=3), 3, PIMC_CHELEM, 8, CHELEM_WORLDS, True),   # the partner
    (state(players=5, trick=2, won=2, partner=3), 4, PIMC_CHELEM, 8, 8, False),
])
def test_the_taker_side_draws_the_chelems_worlds_while_it_has_taken_every_trick(st, seat, policy, worlds, drawn,
                                                                                alive):
    assert decision_worlds(st, seat, policy, worlds) == drawn
    assert chelem_alive(st, seat, policy) is alive        # where the decision does not race (``play_out_search``)


def play(taker: str, defence: str, worlds: int, deals: int = 40) -> np.ndarray:
    """Result rows of ``deals`` deals of HAND announcing a chelem in Garde sans from seat 2, the taker's seat
    playing by ``taker``, the others by ``defence``."""
    fixed, unseen, slots = fixed_hand(HAND, TAKER, RULES.players)
    policies = np.full(RULES.players, POLICY_IDS[defence], dtype=np.int64)
    policies[TAKER] = POLICY_IDS[taker]
    results = np.zeros((deals, K.RESULT_SIZE), dtype=np.int64)
    over_rows(advice_deals, deals, fixed, unseen, slots, RULES.players, TAKER, int(Contract.GARDE_SANS),
              taker_choices(CH_CHELEM=1), policies, worlds, np.uint64(11), np.arange(deals), True, rules_flags(RULES),
              results, -1, np.empty((0, K.RESULT_SIZE), dtype=np.int64), SEARCH)
    return results


def test_the_chelem_search_plays_otherwise_than_the_mixed_search():
    # Which seats draw the chelem's worlds, without racing, is the test above; the worlds the taker's side
    # draws move the random streams, so the defences' worlds differ too.
    chelem = play(CHELEM_SEARCH, CHELEM_SEARCH, 2)
    took = np.isin(chelem[:, K.R_CHELEM], (1, 2, 5))
    assert 0 < took.sum() < len(took)
    prior = play(MIXED_SEARCH, MIXED_SEARCH, 2)
    assert not np.array_equal(took, np.isin(prior[:, K.R_CHELEM], (1, 2, 5)))


def test_the_mixed_model_searches_a_chelems_announcement_with_the_chelem_search():
    assert announces_chelem(chelem_options(RULES))
    assert not announces_chelem(poignee_options(HAND, RULES))
    assert not announces_chelem(call_options(Hand.parse("20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C")))
    mixed = Settings()
    chelem = mixed.for_contract(Contract.GARDE_SANS, 4, chelem=True)
    assert (chelem.policy, chelem.worlds, chelem.controlled) == (CHELEM_SEARCH, MIXED_WORLDS[4][1], True)
    assert chelem.play_model(4) == (f"{CHELEM_SEARCH}, {MIXED_WORLDS[4][1]} worlds per decision ({CHELEM_WORLDS} for "
                                    f"the taker's side until its chelem is lost)")
    assert mixed.for_contract(Contract.GARDE_SANS, 4).policy == MIXED_SEARCH
    assert mixed.for_contract(None, 3, chelem=True).policy == MIXED_SEARCH        # a pass: no taker's side
    heuristic = Settings(policy="heuristic")
    assert heuristic.for_contract(Contract.GARDE_SANS, 4, chelem=True) is heuristic
    wide = Settings(mixed_worlds=(64, 64)).for_contract(Contract.GARDE, 4, chelem=True)
    assert wide.play_model(4).startswith(f"{CHELEM_SEARCH}, 64 worlds per decision (64 for")


# A hand whose heuristic play takes every trick at Prise on about 9% of deals from seat 1, and an ordinary one.
NEAR = Hand.parse("20 19 18 17 16 15 14 13 12 11 10 9 8 EX KS KH KD KC")
ORDINARY = Hand.parse("20 17 15 12 9 6 1 EX KS 10S 4S QH 6H KD 5D 2C 9C 3C")


def test_a_chelem_is_in_sight_where_the_heuristic_takes_one_at_prise_often_enough(monkeypatch):
    mixed = Settings(seed=4)
    assert chelem_in_sight(HAND, TAKER, RULES, mixed)
    assert chelem_in_sight(NEAR, 0, RULES, mixed)
    monkeypatch.setattr(odds_module, "CHELEM_SIGHT", 0.2)
    assert not chelem_in_sight(NEAR, 0, RULES, mixed)
    monkeypatch.undo()
    assert not chelem_in_sight(ORDINARY, 0, RULES, mixed)
    assert not chelem_in_sight(HAND, TAKER, RULES, mixed.with_(policy="heuristic"))   # the mixed model's choice only
    assert not chelem_in_sight(HAND, TAKER, RULES, mixed.with_(policy="pimc"))


def test_odds_and_bid_search_a_hand_with_a_chelem_in_sight_by_the_chelem_search():
    mixed = Settings(deals=8, seed=2)
    for hand, seat, sight in ((HAND, TAKER, True), (ORDINARY, 0, False)):
        odds = contract_odds(hand, RULES, seat, mixed)
        bid = bid_advice(hand, RULES, seat, [None] * seat, settings=mixed)
        for model in (odds.play_model, bid.play_model):
            assert model == mixed.play_model(4, sight)
            assert (CHELEM_SEARCH in model) is sight and ("a chelem in sight" in model) is sight
    assert mixed.play_model(4, True) == (f"heuristic for a pass, {CHELEM_SEARCH} for prise and garde (12 worlds per "
                                         "decision) and for garde sans and garde contre (4); a chelem in sight, the "
                                         f"taker's side searches at least {CHELEM_WORLDS} worlds a decision until its "
                                         "chelem is lost")


@pytest.mark.parametrize("command", ["chelem", "match"])
def test_the_help_names_the_chelem_searchs_worlds(command):
    result = CliRunner().invoke(main, [command, "-h"])
    assert result.exit_code == 0, result.output
    assert f"draws at least {CHELEM_WORLDS} worlds a decision" in " ".join(result.output.split())


def first_trick(players: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random deal's state when its first card is to be played (the auction and the aside done)."""
    rng = random.Random(seed)
    game = Game.new(random_deal(rng, players), Rules(players=players))
    while game.phase is not Phase.PLAY:
        if game.phase is Phase.DONE:
            game = Game.new(random_deal(rng, players), Rules(players=players))
        else:
            step(game, rng)
    return state_from_game(game)


def replayed(hs, ht, st, policies, worlds, state, race_everywhere=False):
    """``play_out_search``'s deal decision by decision from Python, every seat searching: each card
    ``pimc_card_solving``'s with ``decision_worlds``' worlds, racing as ``search_features`` says but
    where ``chelem_alive`` (or, ``race_everywhere``, there too); the cards and the RNG state at the end."""
    players = int(st[K.PLAYERS])
    w = new_workspace(np.int64(SOLVE_TABLE_BITS))
    w[W_NODE_LIMIT] = SOLVE_NODE_LIMIT
    start, result = st.copy(), np.zeros(K.RESULT_SIZE, dtype=np.int64)
    forced, card, cards = np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int16), []
    while st[K.TRICK] < K.HAND_SIZE[players]:
        seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
        policy = policies[seat]
        solves, constrain, weigh, _, race, prior, first, every = search_features(policy)
        race = race and (race_everywhere or not chelem_alive(st, seat, policy))
        forced[0], state = pimc_card_solving(hs, ht, st, decision_worlds(st, seat, policy, worlds), 1, state,
                                             SOLVE_TRICKS[players] if solves else 0, w, constrain, weigh, start,
                                             NO_PAST, race, prior, first, every)
        state, _ = K.advance(hs, ht, st, policies, np.uint64(state), forced, np.int64(1), result, card)
        state = np.uint64(state)            # a kernel's uint64 comes back a Python int
        cards.append(int(card[0]))
    return cards, state


def test_the_chelem_search_races_but_where_its_chelem_is_alive():
    # The kernel's deals, every seat on the chelem search, against the same deals played from Python by
    # the rule; racing at the taker's side's decisions while its chelem is alive too plays otherwise.
    differ = 0
    for game in range(6):
        hs, ht, st = first_trick(4, 40 + game)
        policies = np.full(4, PIMC_CHELEM, dtype=np.int64)
        trace, result = np.full(72, -1, dtype=np.int16), np.zeros(K.RESULT_SIZE, dtype=np.int64)
        state = play_out_search(hs.copy(), ht.copy(), st.copy(), policies, np.int64(4), np.int64(1),
                                np.uint64(game), result, trace, None)
        assert replayed(hs.copy(), ht.copy(), st.copy(), policies, 4, np.uint64(game)) == (trace.tolist(), state)
        differ += replayed(hs.copy(), ht.copy(), st.copy(), policies, 4, np.uint64(game), True)[1] != state
    assert differ > 0
