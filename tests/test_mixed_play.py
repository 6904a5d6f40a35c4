"""The mixed play model: Prise and Garde played by the heuristic, Garde sans and Garde contre by a
search of a few worlds, each answer the one its own play model gives on the same deals."""

import json

import pytest
from click.testing import CliRunner

from analyzer.advice.bid import bid_advice
from analyzer.advice.discard import best_discards, discard_play
from analyzer.advice.odds import contract_odds
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import MIXED_PRECISION, MIXED_SEARCH, MIXED_WORLDS, Settings
from cli.main import main

HAND = Hand.parse("21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C")
RULES = Rules(players=4)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_mixed_model_searches_the_contracts_without_a_chien_and_at_three_players_every_one(players):
    mixed = Settings(policy="mixed", precision=0.02, seed=5)
    heuristic = [None] + ([] if players == 3 else [Contract.PRISE, Contract.GARDE])
    for contract in heuristic:
        assert mixed.for_contract(contract, players) == mixed.with_(policy="heuristic")
    for contract in (c for c in Contract if c not in heuristic):
        searched = mixed.for_contract(contract, players)
        assert (searched.policy, searched.worlds, searched.seed) == (MIXED_SEARCH, MIXED_WORLDS, 5)
        assert searched.searches
        assert searched.precision == pytest.approx(0.02 * MIXED_PRECISION[players])
    plain = Settings(policy="pimc", worlds=8)
    assert all(plain.for_contract(c, players) is plain for c in (None, *Contract))
    words = mixed.play_model(players)
    assert ("every contract" in words) == (players == 3) and ("prise and garde" in words) == (players > 3)


def odds_by_contract(settings):
    return {o.contract: o.as_dict() for o in contract_odds(HAND, RULES, 0, settings).contracts}


def test_mixed_odds_are_each_contracts_own_play_models_on_the_same_deals():
    mixed = contract_odds(HAND, RULES, 0, Settings(policy="mixed", deals=30, seed=2))
    heuristic = odds_by_contract(Settings(policy="heuristic", deals=30, seed=2))
    search = odds_by_contract(Settings(policy=MIXED_SEARCH, worlds=MIXED_WORLDS, deals=30, seed=2))
    for o in mixed.contracts:
        assert o.as_dict() == (search if o.contract >= Contract.GARDE_SANS else heuristic)[o.contract]
    assert (mixed.deals, mixed.searched_deals) == (30, 30)


def test_at_three_players_mixed_odds_and_bids_are_the_search_s_but_a_pass():
    """At 3 players the mixed model searches Prise and Garde too: every contract's odds and bid value are
    the search's own on the same deals; a pass is still played by the heuristic."""
    hand, rules = Hand.parse("21 15 4 3 EX QS 9S 6S 4S 2S KH 10H 6H QD CD 10D KC CC JC 10C 9C 8C 4C 3C"), Rules(3)
    mixed = contract_odds(hand, rules, 0, Settings(policy="mixed", deals=20, seed=2))
    search = contract_odds(hand, rules, 0, Settings(policy=MIXED_SEARCH, worlds=MIXED_WORLDS, deals=20, seed=2))
    assert [o.as_dict() for o in mixed.contracts] == [o.as_dict() for o in search.contracts]
    assert (mixed.deals, mixed.searched_deals) == (20, 20)

    def advice(policy):
        return bid_advice(hand, rules, 1, [None], Settings(policy=policy, worlds=MIXED_WORLDS, deals=16, seed=4))

    mixed, heuristic, search = advice("mixed"), advice("heuristic"), advice(MIXED_SEARCH)
    for got, fast, deep in zip(mixed.options, heuristic.options, search.options):
        want = fast if got.bid is None else deep
        assert (got.score, got.success) == (want.score, want.success)


def test_a_discard_s_candidates_are_played_by_the_heuristic_under_the_mixed_model():
    """Dozens of candidates on the same deals: the heuristic, also at 3 players where the mixed model
    searches Prise and Garde; another policy asked for is kept."""
    for contract in (Contract.PRISE, Contract.GARDE):
        assert discard_play(Settings(seed=3), contract) == Settings(seed=3, policy="heuristic")
        assert discard_play(Settings(policy="pimc", worlds=8), contract).policy == "pimc"
    hand = Hand.parse("21 15 4 3 EX QS 9S 6S 4S 2S KH 10H 6H QD CD 10D KC CC JC 10C 9C 8C 4C 3C")
    chien = Hand.parse("7 1H 2H 5D 6D 7C")
    mixed, fast = (best_discards(hand.mask, chien.mask, Contract.GARDE, Rules(3), 0,
                                 Settings(policy=policy, deals=40, seed=1), top=3) for policy in ("mixed", "heuristic"))
    assert mixed == fast


def test_mixed_odds_stop_each_contract_at_its_own_precision():
    mixed = contract_odds(HAND, RULES, 0, Settings(policy="mixed", precision=0.05, seed=2))
    by = {o.contract: o for o in mixed.contracts}
    assert by[Contract.PRISE].score.n == mixed.deals > by[Contract.GARDE_SANS].score.n == mixed.searched_deals
    assert by[Contract.GARDE_SANS].score.n == by[Contract.GARDE_CONTRE].score.n


def test_at_five_players_the_searched_contracts_run_to_twice_the_precision_asked():
    """Garde sans and contre are often near even odds at 5 players: their search runs to 2x the precision
    asked (3x at 3 and 4 players), so that its own noise seldom puts a gap beyond +-3 pp."""
    hand = Hand.parse("21 18 13 7 2 JS 7S 1S 9H 5H 3H 10D QC JC 4C")
    mixed = contract_odds(hand, Rules(5), 0, Settings(policy="mixed", precision=0.03, seed=2))
    for o in mixed.contracts:
        low, high = o.success.wilson()
        assert (high - low) / 2 <= (0.06 if o.contract >= Contract.GARDE_SANS else 0.03)
    assert mixed.searched_deals < mixed.deals


def test_progress_counts_rise_across_the_groups():
    """The mixed model runs its groups in turn: the progress count goes on from the earlier groups'
    deals instead of starting again (one count rising, the deals simulated so far)."""
    calls = []
    settings = Settings(policy="mixed", precision=0.05, seed=2, progress=lambda done, total: calls.append(done))
    mixed = contract_odds(HAND, RULES, 0, settings)
    assert calls == sorted(calls) and calls[-1] == mixed.deals + mixed.searched_deals
    calls.clear()
    advice = bid_advice(HAND, RULES, 0, [], settings)
    assert calls == sorted(calls) and calls[-1] == advice.deals + advice.searched_deals


def test_mixed_bid_values_each_option_by_its_play_model():
    def advice(policy):
        return bid_advice(HAND, RULES, 1, [None], Settings(policy=policy, worlds=MIXED_WORLDS, deals=24, seed=4))

    mixed, heuristic, search = advice("mixed"), advice("heuristic"), advice(MIXED_SEARCH)
    for got, fast, deep in zip(mixed.options, heuristic.options, search.options):
        want = deep if got.bid is not None and got.bid >= Contract.GARDE_SANS else fast
        assert (got.score, got.success) == (want.score, want.success)
        assert got.vs_best.mean == pytest.approx(got.score.mean - mixed.recommendation.score.mean)
    assert (mixed.deals, mixed.searched_deals) == (24, 24)


def test_mixed_bid_compares_a_searched_option_on_the_searched_deals():
    mixed = bid_advice(HAND, RULES, 0, [], Settings(policy="mixed", precision=0.05, seed=4))
    assert mixed.deals > mixed.searched_deals > 0
    best = mixed.recommendation
    for got in mixed.options:
        searched = got.bid is not None and got.bid >= Contract.GARDE_SANS
        assert got.score.n == (mixed.searched_deals if searched else mixed.deals)
        if got is not best:
            both_plain = not searched and not (best.bid is not None and best.bid >= Contract.GARDE_SANS)
            assert got.vs_best.n == (mixed.deals if both_plain else mixed.searched_deals)


def test_the_mixed_model_is_the_default_on_the_command_line():
    assert Settings().policy == "mixed"
    result = CliRunner().invoke(main, ["odds", str(HAND), "--deals", "20", "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["policy"] == "mixed" and out["searched_deals"] == 20
    assert out["play_model"] == Settings().play_model(4)
