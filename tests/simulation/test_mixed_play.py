"""The mixed play model: each contract played by the heuristic or by a search of a few worlds, as
MIXED_WORLDS says for its player count, each answer the one its own play model gives on the same deals."""

import json
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.advice.bid import bid_advice
from analyzer.advice.discard import SEARCHED, SEARCHED_DEALS, best_discards, discard_play, search_stage
from analyzer.advice.choices import call_options, compared_model
from analyzer.advice.odds import contract_model, contract_odds
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import (BEHIND_Z, MIXED_PASS_WORLDS, MIXED_PRECISION, MIXED_SEARCH, MIXED_WORLDS, ODDS_PRECISION,
                           POLICY_IDS, Settings)
from analyzer.simulation.features import OPTION
from analyzer.simulation.trials import FIRST, Layout, Stopped, Trials
from analyzer.stats import Moments
from cli.main import main
from kernels import auction as auction_kernels
from tests.support.errorline import assert_one_error_line
from tests.support.hands import FFT_HAND

HAND = Hand.parse(FFT_HAND)
RULES = Rules(players=4)
HAND_5 = Hand.parse("21 18 13 7 2 JS 7S 1S 9H 5H 3H 10D QC JC 4C")      # 5 players: every contract searched
HAND_3 = Hand.parse("21 15 4 3 EX QS 9S 6S 4S 2S KH 10H 6H QD CD 10D KC CC JC 10C 9C 8C 4C 3C")   # and a pass


def own_model(contract: Contract | None, players: int, **settings) -> Settings:
    """The settings that play ``contract`` alone (None: a pass) as the mixed model plays it."""
    worlds = MIXED_PASS_WORLDS[players] if contract is None else MIXED_WORLDS[players][0 if contract.chien_shown else 1]
    return Settings(policy="heuristic", **settings) if worlds is None else \
        Settings(policy=MIXED_SEARCH, worlds=worlds, **settings)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_mixed_model_plays_each_contract_as_its_table_says(players):
    mixed = Settings(policy="mixed", precision=0.02, seed=5)
    for contract in (None, *Contract):
        run, own = mixed.for_contract(contract, players), own_model(contract, players, precision=0.02, seed=5)
        if own.searches:
            assert (run.policy, run.worlds, run.seed, run.searches) == (MIXED_SEARCH, own.worlds, 5, True)
            assert run.precision == pytest.approx(0.02 * MIXED_PRECISION)
        else:
            assert run == own
    plain = Settings(policy="pimc", worlds=8)
    assert all(plain.for_contract(c, players) is plain for c in (None, *Contract))
    words = {3: f"({MIXED_PASS_WORLDS[3]} worlds per decision) for a pass, pimc-prior ({MIXED_WORLDS[3][0]} worlds "
                "per decision) for every contract",
             5: "heuristic for a pass, pimc-prior (8 worlds per decision) for every contract",
             4: f"for prise and garde ({MIXED_WORLDS[4][0]} worlds per decision) and for garde sans"}
    assert words[players] in mixed.play_model(players)


def test_the_heuristic_plays_no_contract_and_a_pass_at_four_and_five_players():
    """The calibration found the heuristic's Prise and Garde spread beyond noise at every player count:
    they are searched (at 5 players since the heuristic's play became the search's control variate,
    which brought the search within the seconds; docs/journal/calibration.md)."""
    for players in (3, 4, 5):
        assert [own_model(c, players).searches for c in Contract] == [True] * 4
    assert MIXED_WORLDS[3][0] == MIXED_WORLDS[3][1] and MIXED_WORLDS[4][0] > MIXED_WORLDS[4][1]  # more for Prise at 4
    assert [own_model(None, p).searches for p in (3, 4, 5)] == [True, False, False]     # a pass, at 3 only


@cache
def odds_by_contract(settings, hand=HAND, rules=RULES):
    """Every contract's odds as one play model gives them: run once for the module per model (the contracts
    a model plays alike ask for the same run)."""
    return {o.contract: o.as_dict() for o in contract_odds(hand, rules, 0, settings).contracts}


@cache
def mixed_run(command: str, hand: Hand, players: int, precision: float, seed: int):
    """``odds`` (``contract_odds``) or ``bid`` (``bid_advice``, no earlier bid) for the seat first to speak under
    the mixed model, to ``precision``, with the progress counts it reported: run once for the module, for
    the tests that check the same run."""
    heard = []
    settings = Settings(policy="mixed", precision=precision, seed=seed, progress=lambda done, total: heard.append(done))
    if command == "odds":
        return contract_odds(hand, Rules(players), 0, settings), heard
    return bid_advice(hand, Rules(players), 0, [], settings), heard


@cache
def own_bid(hand: Hand, rules: Rules, seat: int, bids: tuple, settings: Settings):
    """``bid_advice`` by one play model: run once for the module per model, as ``odds_by_contract``."""
    return bid_advice(hand, rules, seat, list(bids), settings)


@pytest.mark.parametrize("hand,rules", [(HAND, RULES), (HAND_5, Rules(5)), (HAND_3, Rules(3))])
def test_mixed_odds_are_each_contracts_own_play_models_on_the_same_deals(hand, rules):
    mixed = contract_odds(hand, rules, 0, Settings(policy="mixed", deals=30, seed=2))
    for o in mixed.contracts:
        assert o.as_dict() == odds_by_contract(own_model(o.contract, rules.players, deals=30, seed=2),
                                               hand, rules)[o.contract]
    assert (mixed.deals, mixed.searched_deals) == (30, 30)


def test_a_discard_s_candidates_are_screened_by_the_heuristic_under_the_mixed_model():
    """Dozens of candidates on the same deals: the heuristic, also at 3 players where the mixed model
    searches Prise and Garde, then its SEARCHED best by the mixed model's search for the contract
    (``search_stage``); another policy asked for is kept, without a search stage."""
    for contract in (Contract.PRISE, Contract.GARDE):
        assert discard_play(Settings(seed=3), contract) == Settings(seed=3, policy="heuristic")
        assert discard_play(Settings(policy="pimc", worlds=8), contract).policy == "pimc"
        assert discard_play(Settings(seed=3, mixed_worlds=(8, 8)), contract) == Settings(seed=3, policy="heuristic")
        search = search_stage(Settings(seed=3), contract, 3)
        assert (search.policy, search.worlds, search.deals, search.seed) == ("pimc-prior", MIXED_WORLDS[3][0],
                                                                             SEARCHED_DEALS, 3)
        assert search_stage(Settings(seed=3, deals=40), contract, 3).deals == 40
        assert search_stage(Settings(policy="heuristic"), contract, 3) is None
    hand = HAND_3
    chien = Hand.parse("7 1H 2H 5D 6D 7C")
    mixed, fast = (best_discards(hand.mask, chien.mask, Contract.GARDE, Rules(3), 0,
                                 Settings(policy=policy, deals=40, seed=1), top=SEARCHED + 2)
                   for policy in ("mixed", "heuristic"))
    assert {c.discard for c in mixed[:SEARCHED]} == {c.discard for c in fast[:SEARCHED]}
    assert mixed[SEARCHED:] == fast[SEARCHED:]


def test_mixed_odds_stop_each_group_of_contracts_at_its_own_precision():
    """At 4 players Prise and Garde (12 worlds) and Garde sans and contre (4) are searched apart: each
    group's searched deals its own, the more of them reported, and the control runs' deals beyond."""
    mixed, _ = mixed_run("odds", HAND, 4, 0.03, 2)         # the next test's run
    n = {o.contract: o.score.n for o in mixed.contracts}
    assert n[Contract.PRISE] == n[Contract.GARDE] and n[Contract.GARDE_SANS] == n[Contract.GARDE_CONTRE]
    assert mixed.searched_deals == max(n.values()) and mixed.deals == mixed.control_deals > mixed.searched_deals


@pytest.mark.parametrize("players,hand", [(4, HAND), (5, HAND_5)])
def test_the_searched_contracts_run_to_their_multiple_of_the_precision_asked(players, hand):
    """A search runs to ODDS_PRECISION times the precision asked (by player count), so that its own noise
    seldom puts a gap beyond +-3 pp; the control run to half of that, its deals the most of the command's."""
    mixed, _ = mixed_run("odds", hand, players, 0.03, 2)
    for o in mixed.contracts:
        low, high = o.success.wilson()
        assert (high - low) / 2 <= 0.03 * ODDS_PRECISION[players]
    assert mixed.searched_deals < mixed.deals == mixed.control_deals


def test_odds_and_bid_run_to_their_own_multiple_of_the_precision():
    """odds' and bid's searched contracts run to ODDS_PRECISION's multiple for the player count (at 5
    players tighter than the search's own MIXED_PRECISION), but near a chelem; the taker's choices (call)
    to MIXED_PRECISION's."""
    mixed = Settings(policy="mixed", precision=0.02)
    assert ODDS_PRECISION[5] < MIXED_PRECISION == ODDS_PRECISION[3] == ODDS_PRECISION[4]
    for players in (3, 4, 5):
        run = contract_model(mixed, Contract.GARDE, players, sight=False)
        assert run.precision == pytest.approx(0.02 * ODDS_PRECISION[players])
        assert contract_model(mixed, Contract.GARDE, players, sight=True).precision == pytest.approx(0.02 * 2.5)
        assert contract_model(mixed, None, players, sight=False) == mixed.for_contract(None, players)
    called = compared_model(mixed, HAND_5, 0, Rules(5), Contract.GARDE, call_options(HAND_5))
    assert called.precision == pytest.approx(0.02 * MIXED_PRECISION)


def test_progress_counts_rise_across_the_groups():
    """The mixed model runs its groups in turn: the progress count goes on from the earlier groups'
    deals instead of starting again (one count rising, the deals simulated so far)."""
    mixed, calls = mixed_run("odds", HAND_5, 5, 0.03, 2)      # the runs that the precision tests check
    assert mixed.control_deals > 0          # the control run of the control variate, then the searched run
    assert calls == sorted(calls) and calls[-1] == mixed.control_deals + mixed.searched_deals
    advice, calls = mixed_run("bid", HAND_5, 5, 0.05, 4)
    assert calls == sorted(calls) and calls[-1] == advice.control_deals + advice.deals + advice.searched_deals


@pytest.mark.parametrize("hand,rules", [(HAND, RULES), (HAND_5, Rules(5)), (HAND_3, Rules(3))])
@pytest.mark.parametrize("seat,bids", [(0, []), (1, [None])])
def test_mixed_bid_values_each_option_by_its_play_model(hand, rules, seat, bids):
    """Each option valued by its own play model on the same deals: at 3 players a pass searched too, every
    option's deals searched."""
    mixed = bid_advice(hand, rules, seat, bids, Settings(policy="mixed", deals=24, seed=4))
    for got in mixed.options:
        own = own_bid(hand, rules, seat, tuple(bids), own_model(got.bid, rules.players, deals=24, seed=4))
        want = next(o for o in own.options if o.bid == got.bid)
        assert (got.score, got.success) == (want.score, want.success)
        if not bids:        # every run on the same 24 deals (weighted, the search's are drawn by their weights)
            assert got.vs_best.mean == pytest.approx(got.score.mean - mixed.recommendation.score.mean)
    assert (mixed.deals, mixed.searched_deals) == (24, 24)


@pytest.mark.parametrize("hand,rules", [(HAND, RULES), (HAND_5, Rules(5))])
def test_mixed_bid_compares_a_searched_option_on_the_searched_deals(hand, rules):
    """A searched option is valued on the searched deals, or on their first ones where, clearly behind the
    best (``BEHIND_Z``) and within the precision, it stopped; compared with another on the deals both were
    played on."""
    mixed, _ = mixed_run("bid", hand, rules.players, 0.05, 4)
    assert mixed.deals > mixed.searched_deals > 0
    best = mixed.recommendation
    searched = {o.bid: own_model(o.bid, rules.players).searches for o in mixed.options}
    for got in mixed.options:
        if not searched[got.bid]:
            assert got.score.n == mixed.deals
        elif got.score.n < mixed.searched_deals:
            assert got.vs_best.mean < -BEHIND_Z * got.vs_best.se
            assert got.success.half_width <= 0.05 * ODDS_PRECISION[rules.players]
        else:
            assert got.score.n == mixed.searched_deals
        if got is not best:
            both_plain = not searched[got.bid] and not searched[best.bid]
            assert got.vs_best.n == (mixed.deals if both_plain else min(got.score.n, best.score.n))


def test_a_stopped_option_is_measured_on_the_deals_it_was_played_on():
    """An option stopped after the run's first deals is valued on those, and so is any difference that
    takes it in: on the first deals of the earliest stopped option in it (rows of random figures, the
    figures checked against moments of just those rows)."""
    rows = np.random.default_rng(3).normal(size=(60, 1 + 4 * 3))
    rows[:, 0] = np.random.default_rng(4).uniform(0.5, 1.5, size=60)         # the deals' weights

    def moments(n: int) -> Moments:
        m = Moments(rows.shape[1])
        m.add(rows[:n])
        return m

    stopped = Stopped()
    stopped.stop(1, moments(20))
    stopped.stop(2, moments(45))
    layout = Layout(OPTION, 3, FIRST)
    run = Trials([0, 1, 2], layout, moments(60), stopped=stopped)
    alone = {n: Trials([0, 1, 2], layout, moments(n)) for n in (20, 45, 60)}
    for combination, n in [({0: 1.0}, 60), ({1: 1.0}, 20), ({2: 1.0}, 45), ({0: 1.0, 2: -1.0}, 45),
                           ({1: 1.0, 2: -1.0}, 20), ({0: 1.0, 1: -1.0}, 20)]:
        assert run.combination(combination, "score") == alone[n].combination(combination, "score")
    assert [run.share(i, "won") for i in range(3)] == [alone[n].share(i, "won") for i, n in enumerate((60, 20, 45))]


def test_a_searched_option_clearly_behind_stops_being_played(monkeypatch):
    """At 3 players every option is searched: an option BEHIND_Z standard errors behind the best, its
    probability within the precision, is played no more (its searched deals are those it is valued on,
    fewer than the run's), the others go on."""
    played: dict[int, int] = {}
    kernel = auction_kernels.bid_deals

    def counting(*args):
        lo, hi, option, policies, twin = args[0], args[1], args[9], args[12], args[20]
        if policies[0] != POLICY_IDS["heuristic"]:
            for o in {option, twin} - {-1}:
                played[o] = played.get(o, 0) + hi - lo
        return kernel(*args)

    monkeypatch.setattr(auction_kernels, "bid_deals", counting)
    advice = bid_advice(HAND_3, Rules(3), 0, [], Settings(precision=0.03, seed=3))
    ids = {o.bid: 0 if o.bid is None else int(o.bid) for o in advice.options}
    stopped = [o for o in advice.options if o.score.n < advice.searched_deals]
    assert Contract.PRISE in {o.bid for o in stopped} and advice.recommendation.bid == Contract.GARDE  # Garde goes on
    assert all(o.success.half_width <= 0.03 * ODDS_PRECISION[3] for o in stopped)
    for o in advice.options:
        assert played[ids[o.bid]] == o.score.n


def test_the_mixed_model_is_the_default_on_the_command_line():
    assert Settings().policy == "mixed"
    result = CliRunner().invoke(main, ["odds", str(HAND), "--deals", "20", "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["policy"] == "mixed" and out["searched_deals"] == 20
    assert out["play_model"] == Settings().play_model(4)


def test_mixed_worlds_set_the_search_of_each_contract_and_are_said():
    """--mixed-worlds N,M: Prise and Garde searched with N worlds, Garde sans and contre with M, the pass as by
    default; the answers are those of the mixed model so set, and the play model says so."""
    mixed = Settings(mixed_worlds=(8, 2), seed=5)
    assert [mixed.for_contract(c, 4).worlds for c in Contract] == [8, 8, 2, 2]
    assert mixed.for_contract(None, 3) == Settings(seed=5).for_contract(None, 3)        # the pass as by default
    assert all(mixed.for_contract(c, 4).mixed_worlds is None for c in (None, *Contract))
    assert mixed.play_model(5) == ("heuristic for a pass, pimc-prior for prise and garde (8 worlds per decision) "
                                   "and for garde sans and garde contre (2)")
    passing = MIXED_PASS_WORLDS[3]
    alike = Settings(mixed_worlds=(passing, passing))           # at 3 players the pass's worlds for every contract
    assert alike.play_model(3) == f"pimc-prior ({passing} worlds per decision) for a pass and every contract"
    with pytest.raises(TarotError, match="the policy is heuristic"):
        Settings(policy="heuristic", mixed_worlds=(8, 8))
    with pytest.raises(TarotError, match="between 1 and"):
        Settings(mixed_worlds=(0, 8))
    result = CliRunner().invoke(main, ["odds", str(HAND), "--deals", "12", "--mixed-worlds", "2", "--quiet",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["play_model"] == "heuristic for a pass, pimc-prior (2 worlds per decision) for every contract"
    direct = odds_by_contract(Settings(deals=12, mixed_worlds=(2, 2)))
    assert {c["contract"]: c["p_success"] for c in out["contracts"]} == \
        {c.token: d["p_success"] for c, d in direct.items()}


@pytest.mark.parametrize("args,word", [(["--mixed-worlds", "0"], "--mixed-worlds"),
                                       (["--mixed-worlds", "4,x"], "--mixed-worlds"),
                                       (["--mixed-worlds", "4,4,4"], "--mixed-worlds"),
                                       (["--mixed-worlds", "²"], "--mixed-worlds"),
                                       (["--mixed-worlds", "4", "--policy", "heuristic"], "--mixed-worlds")])
def test_bad_mixed_worlds_are_one_line(args, word):
    assert_one_error_line(CliRunner().invoke(main, ["odds", str(HAND), "--deals", "10", *args]), word)
