"""odds: logic checks on hands whose answer is clear, and the command's output contract."""

import json
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.advice.auction import BID_NOISE
from analyzer.advice.odds import contract_odds
from analyzer.baselines import method_id
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import CHELEM_WORLDS, Settings
from analyzer.simulation.bridge import fixed_hand, simulate_contract
from cli.main import main
from analyzer.simulation.threads import over_rows
from kernels import playout as K
from kernels.auction import weighted_deals_batch
from tests.support.errorline import assert_one_error_line

TAROTCLUB = method_id("tarotclub")

MONSTER = Hand.parse("21 20 19 18 17 16 15 14 13 12 11 1 EX KS KH KD QD KC")   # 3 oudlers, 12 trumps
WEAK = Hand.parse("7 4 2 QS 9S 5S 3S 10H 6H 2H JD 8D 5D 1D 9C 7C 4C 2C")


@cache
def invoke(*args: str):
    """The command line ``args`` run once for the module: the tests that check the same run read one result."""
    return CliRunner().invoke(main, list(args))


# odds to a precision its first chunk reaches: each group's control run, then its first chunk of searched
# deals, the controlled figures in the output
REACHED = ("odds", str(WEAK), "--seed", "1", "--quiet", "--max-deals", "2000", "--precision", "0.5", "--format", "csv")
# odds on a fixed number of deals, as the play-model test below asks for it
FIXED = ("odds", str(WEAK), "--deals", "20", "--seed", "3", "--quiet")


def test_three_oudlers_and_twelve_trumps_make_garde_sans_almost_surely():
    # on 200 deals, two lost take the 95% interval's low end under 0.97 (none lost: about 0.98): the check
    # asks as much of the hand as on more deals
    r = contract_odds(MONSTER, Rules(players=4), settings=Settings(deals=200, seed=1))      # the default play
    gs = {c.contract: c for c in r.contracts}[Contract.GARDE_SANS]
    assert gs.success.wilson()[0] > 0.97


def test_a_weak_hand_fails_most_contracts():
    # 150 deals: at a success rate of 0.2 the standard error is about 0.033, so the bound is six of them
    # from a hand that makes none
    r = contract_odds(WEAK, Rules(players=4), settings=Settings(deals=150, seed=2))
    assert all(c.success.p < 0.2 for c in r.contracts)


def test_garde_pays_twice_prise_on_the_same_deals_apart_from_poignees():
    rules = Rules(players=4)
    prise = simulate_contract(WEAK, 0, Contract.PRISE, rules, "heuristic", 2000, seed=3, declare=False)
    garde = simulate_contract(WEAK, 0, Contract.GARDE, rules, "heuristic", 2000, seed=3, declare=False)
    assert (prise[:, K.R_MADE] == garde[:, K.R_MADE]).all()
    plain = prise[:, K.R_CHELEM] == 0                 # chelem bonuses are not multiplied
    assert plain.sum() > 1900
    assert (garde[plain, K.R_TOTAL] == 2 * prise[plain, K.R_TOTAL]).all()
    assert (garde[plain, 0] == 2 * prise[plain, 0]).all()


def test_precision_mode_stops_when_every_interval_is_narrow_enough():
    settings = Settings(precision=0.02, seed=4)
    r = contract_odds(WEAK, Rules(players=4), settings=settings)
    for c in r.contracts:        # the mixed model's searched contracts to their own (wider) precision
        limit = settings.for_contract(c.contract, 4).precision
        assert max(p.half_width for p in (c.success, c.pab_taker, c.pab_defence, c.chelem)) <= limit
    assert r.deals < 200_000


@pytest.mark.parametrize("players,hand", [
    (3, "21 18 16 14 13 11 9 6 3 1 EX KS QS 4S KH JH 8H 5H QD 2D KC CC 7C 1C"),
    (5, "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"),
])
def test_json_output_for_three_and_five_players(players, hand):
    # the output's shape: a few deals show it as well as many
    result = CliRunner().invoke(main, ["odds", hand, "--players", str(players), "--deals", "40", "--seed", "1",
                                       "--format", "json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == players and data["deals"] == 40
    assert [c["contract"] for c in data["contracts"]] == ["prise", "garde", "garde-sans", "garde-contre"]
    for c in data["contracts"]:
        assert c["ci95"][0] <= c["p_success"] <= c["ci95"][1] and c["se"] >= 0


def test_same_seed_same_output_and_bad_input():
    runner = CliRunner()
    a, b = invoke(*REACHED), invoke(*REACHED, "--jobs", "1")         # on every thread, and on one
    assert a.exit_code == 0 and a.output == b.output
    bad = runner.invoke(main, ["odds", "21 20 ZZ"])
    assert bad.exit_code != 0 and "ZZ" in bad.output and "Traceback" not in bad.output
    short = runner.invoke(main, ["odds", "21 20 19"])
    assert short.exit_code != 0 and "3 cards" in short.output


def test_a_precision_not_reached_within_max_deals_is_a_one_line_warning():
    runner = CliRunner()
    base = ["odds", str(WEAK), "--seed", "1", "--quiet"]
    short = runner.invoke(main, base + ["--max-deals", "50", "--precision", "0.001", "--format", "json",
                                        "--policy", "heuristic"])
    assert short.exit_code == 0
    assert json.loads(short.stdout)["deals"] == 50            # the data stays whole on stdout
    lines = short.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Warning: precision ±0.001 not reached in 50 deals")
    # the mixed model runs its two groups of contracts apart, to their own precisions: a line for each,
    # naming its contracts
    mixed = runner.invoke(main, base + ["--max-deals", "50", "--precision", "0.001"])
    lines = mixed.stderr.strip().splitlines()
    assert mixed.exit_code == 0 and len(lines) == 2
    assert lines[0].startswith("Warning: prise, garde: precision ±0.0025 not reached")
    assert lines[1].startswith("Warning: garde-sans, garde-contre: precision ±0.0025 not reached")
    reached, fixed = invoke(*REACHED), invoke(*FIXED)
    assert reached.exit_code == fixed.exit_code == 0
    assert "Warning" not in reached.stderr and "Warning" not in fixed.stderr


def test_worlds_sets_the_search_and_only_the_search():
    runner = CliRunner()

    def run(policy, worlds):
        result = runner.invoke(main, ["odds", str(WEAK), "--policy", policy, "--worlds", str(worlds), "--deals", "20",
                                      "--seed", "3", "--format", "csv", "--quiet"])
        assert result.exit_code == 0, result.output
        return result.stdout

    assert run("pimc", 1) != run("pimc", 4)
    assert run("heuristic", 1) == run("heuristic", 4)
    bad = runner.invoke(main, ["odds", str(WEAK), "--worlds", "0"])
    assert bad.exit_code == 2 and "--worlds" in bad.stderr


@pytest.mark.parametrize("command", ["odds", "bid"])
def test_the_output_states_the_play_model_and_the_searched_deals(command):
    def run(*args):
        result = invoke(command, *FIXED[1:], *args)
        assert result.exit_code == 0, result.output
        return result.stdout

    mixed = ("heuristic for a pass, pimc-prior for prise and garde (12 worlds per decision) and for garde sans and "
             "garde contre (4), 20 deals (20 searched)")
    assert f"\nplay: {mixed}" in run()
    assert "\nplay: heuristic, 20 deals (0 searched)" in run("--policy", "heuristic")
    assert "\nplay: pimc, 2 worlds per decision, 20 deals (20 searched)" in run("--policy", "pimc", "--worlds", "2")
    default = json.loads(run("--format", "json"))
    fast = json.loads(run("--format", "json", "--policy", "heuristic"))
    search = json.loads(run("--format", "json", "--policy", "pimc", "--worlds", "2"))
    assert (default["play_model"], default["searched_deals"], default["deals"]) == (mixed.split(", 20")[0], 20, 20)
    assert (fast["play_model"], fast["searched_deals"], fast["deals"]) == ("heuristic", 0, 20)
    assert (search["play_model"], search["searched_deals"]) == ("pimc, 2 worlds per decision", 20)



@pytest.mark.parametrize("args", [["poignee", "--contract", "garde"], ["chelem", "--contract", "garde"],
                                  ["discard", "--chien", "5C 6C 8C 10C 1H 3H", "--contract", "garde"]],
                         ids=["poignee", "chelem", "discard"])
def test_the_choice_commands_state_the_play_model_too(args):
    # Garde at 4 players: the default (mixed) model searches it (12 worlds); a discard's candidates are
    # played by the heuristic, its five best again by that search; a chelem's announcement, and this hand's
    # poignée (a chelem in sight), by the chelem search
    hand = str(WEAK) if args[0] == "discard" else "21 20 19 18 17 16 15 14 13 12 11 KS QS KH QH KD QD KC"
    command = [args[0], hand, *args[1:], "--deals", "20", "--seed", "3"]
    search = "pimc-prior, 12 worlds per decision"
    chelem = f"pimc-chelem, 12 worlds per decision ({CHELEM_WORLDS} for the taker's side until its chelem is lost)"
    model = {"discard": f"heuristic, every candidate on 20 deals; its best 5 played again by {search}, which ranks "
                        "them, on 20 of them",
             "poignee": chelem, "chelem": chelem}[args[0]]
    searched = 20
    runner = CliRunner()
    table = runner.invoke(main, command)
    assert table.exit_code == 0, table.output
    line = f"\nplay: {model}" + ("" if args[0] == "discard" else f", 20 deals ({searched} searched)")
    assert line in table.stdout
    data = json.loads(runner.invoke(main, [*command, "--format", "json"]).stdout)
    assert (data["play_model"], data["searched_deals"], data["deals"]) == (model, searched, 20)


# --- odds for a seat that speaks after others ----------------------------------------------------------

MIDDLING = Hand.parse("20 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D")


def test_odds_after_earlier_bids_are_weighted_by_them_as_bid_weighs_its_deals():
    """With the bids before the seat: only the contracts that outbid them, each probability the mean over
    the same deals weighted by how likely the earlier seats were to bid so (the weights of
    ``kernels.auction.weighted_deals_batch`` on those deals), its interval on the deals' effective number."""
    rules, n = Rules(players=4), 600
    bids = [None, Contract.PRISE]
    r = contract_odds(MIDDLING, rules, 2, Settings(policy="heuristic", deals=n, seed=5), bids=bids)
    assert [c.contract for c in r.contracts] == [Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    fixed, unseen, slots = fixed_hand(MIDDLING, 2, 4)
    weights = np.empty(n)
    over_rows(weighted_deals_batch, n, fixed, unseen, slots, 4, 2, np.array([0, 1]), TAROTCLUB, BID_NOISE, True,
              np.uint64(5), np.arange(n), np.empty((n, 78), dtype=np.int8), weights)
    assert 0 < weights.min() < weights.max()
    effective = weights.sum() ** 2 / (weights ** 2).sum()
    assert r.effective_deals == pytest.approx(effective) and r.auction_noise == BID_NOISE
    for odds in r.contracts:
        rows = simulate_contract(MIDDLING, 2, odds.contract, rules, "heuristic", n, seed=5)
        assert odds.success.p == pytest.approx((weights * rows[:, K.R_MADE]).sum() / weights.sum())
        assert odds.score.mean == pytest.approx((weights * rows[:, 2]).sum() / weights.sum())
        assert odds.success.n_eff == pytest.approx(effective)
    unweighted = contract_odds(MIDDLING, rules, 2, Settings(policy="heuristic", deals=n, seed=5), bids=bids,
                               condition=False)
    plain = contract_odds(MIDDLING, rules, 2, Settings(policy="heuristic", deals=n, seed=5))
    assert unweighted.auction_noise is None and [c.as_dict() for c in unweighted.contracts] == \
        [c.as_dict() for c in plain.contracts[1:]]
    first = contract_odds(MIDDLING, rules, 0, Settings(policy="heuristic", deals=n, seed=5), bids=[])
    assert first.auction_noise is None and len(first.contracts) == 4      # no earlier bid: nothing to weigh


def test_odds_command_takes_the_bids_before_the_seat():
    runner = CliRunner()
    args = ["odds", str(MIDDLING), "--seat", "3", "--deals", "200", "--policy", "heuristic", "--quiet"]
    table = runner.invoke(main, [*args, "--bids", "pass,prise"])
    assert table.exit_code == 0, table.output
    assert "(seat 3 of 4; bids before: pass, prise)" in table.stdout and "weighted by the earlier bids" in table.stdout
    assert "\nprise " not in table.stdout and "\ngarde " in table.stdout
    data = json.loads(runner.invoke(main, [*args, "--bids", "pass,prise", "--format", "json"]).stdout)
    assert data["bids"] == ["pass", "prise"] and data["auction_noise"] == BID_NOISE
    assert 0 < data["effective_deals"] < data["deals"] == 200
    plain = json.loads(runner.invoke(main, [*args, "--format", "json"]).stdout)
    assert plain["bids"] is None and plain["auction_noise"] is None and plain["effective_deals"] == 200
    for bad, word in ((["--bids", "pass"], "--bids"), (["--bids", "pass,garde-contre"], "can only pass"),
                      (["--bids", "pass,prise", "--auction-noise", "-1"], "--auction-noise"),
                      (["--bids", "pass,prise", "--bidding", "x"], "--bidding")):
        assert_one_error_line(runner.invoke(main, [*args, *bad]), word)
