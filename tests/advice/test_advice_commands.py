"""call, poignee, chelem and discard: their logic on hands where the answer is clear, and their output."""

import json

import pytest
from click.testing import CliRunner

from analyzer.advice.choices import call_options, chelem_options, compare, poignee_options
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from cli.main import main

FIVE = Hand.parse("20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C")
SURE = Hand.parse("21 20 19 17 15 12 10 9 8 5 1 KS QS KH QH KD KC CD")
MONSTER = Hand.parse("21 20 19 18 17 16 15 14 13 12 11 10 9 8 1 EX KS KH")


def test_calling_ones_own_king_means_playing_alone_and_costs():
    rules = Rules(players=5)
    options = call_options(FIVE)
    assert set(options) == {"KS", "KH", "KD", "KC"}
    # 150 searched deals: playing alone costs some 260 points a deal, its se about 25, ten standard errors
    # where the check asks for three
    result = compare("call", FIVE, rules, Contract.GARDE, options, settings=Settings(deals=150, seed=1))
    assert result.best.label in ("KH", "KC")                 # Kings the hand does not hold
    own = [a for a in result.alternatives if a.label in ("KS", "KD")]
    assert all(a.vs_best.mean + 3 * a.vs_best.se < 0 for a in own)


def test_a_poignee_on_a_sure_hand_is_worth_its_bonus_to_every_seat_share():
    rules = Rules(players=4)
    options = poignee_options(SURE, rules)
    assert list(options) == ["no poignée", "simple (10 trumps)"]
    # the heuristic's play does not depend on the poignée shown (a search's does: the worlds of the
    # defence hold the trumps shown), so the two options differ by the bonus alone
    result = compare("poignee", SURE, rules, Contract.GARDE, options,
                     settings=Settings(deals=1500, seed=2, policy="heuristic"))
    by = {a.label: a for a in result.alternatives}
    assert by["simple (10 trumps)"].success.p == 1.0
    # made every time: the simple poignée adds 20 per defender, 60 to the taker, on every deal
    assert by["no poignée"].vs_best.mean == pytest.approx(-60)
    assert by["no poignée"].vs_best.se == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("policy, deals", [("heuristic", 500), ("mixed", 200)])
def test_announcing_a_sure_chelem_pays_the_difference(policy, deals):
    # Garde sans: the default searches it.  Where no world tells a King from a trump, the search plays
    # the heuristic's trump (by card ids it led the King and lost the chelem on 3% of deals).
    result = compare("chelem", MONSTER, Rules(players=4), Contract.GARDE_SANS, chelem_options(Rules(players=4)),
                     settings=Settings(policy=policy, deals=deals, seed=3))
    by = {a.label: a for a in result.alternatives}
    assert by["announce"].chelem.p == 1.0
    assert result.best.label == "announce"
    assert result.play_model.startswith("pimc-chelem" if policy == "mixed" else "heuristic")
    assert by["do not announce"].vs_best.mean == pytest.approx(-3 * 200)      # 400 vs 200, taker's share 3x


@pytest.mark.parametrize("args", [
    ["call", str(FIVE), "--players", "5"],
    ["poignee", str(SURE)],
    ["chelem", str(MONSTER)],
])
def test_commands_json(args):
    # the output's shape: a few deals show it as well as many
    result = CliRunner().invoke(main, args + ["--deals", "40", "--seed", "1", "--format", "json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["recommendation"] == data["alternatives"][0]["choice"]
    assert {"expected_score", "se", "p_success", "ci95"} <= data["alternatives"][0].keys()


def test_discard_command_enforces_the_rules():
    runner = CliRunner()
    hand = "21 19 17 15 12 9 7 4 EX 2S KS QS 9S 5S KH 8H 4H 3H"
    result = runner.invoke(main, ["discard", hand, "--chien", "CD 6D 2D 7C 3C KC", "--deals", "50",
                                  "--format", "json", "--quiet"])          # --quiet as every advice command
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "21 EX KS KH KC" in data["rules"]
    assert len(data["discards"]) == 5
    assert all(r["searched"] for r in data["discards"]) and data["searched_deals"] == 50 and data["deals"] == 50
    assert "best 5 played again by pimc-prior" in data["play_model"]
    clash = runner.invoke(main, ["discard", hand, "--chien", "KS 6D 2D 7C 3C KC"])
    assert clash.exit_code != 0 and "KS" in clash.output
    bad = runner.invoke(main, ["call", str(FIVE), "--players", "4"])
    assert bad.exit_code != 0 and "5 players" in bad.output


@pytest.mark.parametrize("command", ["call", "poignee", "chelem"])
def test_a_bad_contract_is_named_before_the_hand_is_looked_at(command):
    # A hand too short for any player count and a bad contract: the option is reported, as one line.
    result = CliRunner().invoke(main, [command, "21 20", "--players", "5", "--contract", "gard"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: Invalid value for --contract: unknown contract 'gard' (expected one of: prise, garde, garde-sans, "
        "garde-contre)"]
