"""What the advice commands' output says about itself: whose score a column is, which card a 5-player
taker calls, what the pass line of bid counts; the defaults and help a user relies on."""

import json

import numpy as np
from click.testing import CliRunner

from analyzer.cards import TOKENS
from analyzer.hand import Hand
from cli.main import main
from kernels.declarations import call_card
from tests.support.hands import FFT_HAND

FIVE = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D"
FOUR = FFT_HAND
WEAK = "7 4 2 QS 9S 5S 3S 10H 6H 2H JD 8D 5D 1D 9C 7C 4C 2C"


def run(*args):
    """The command's output (what it says of itself: a few deals show it as well as many)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_odds_says_the_score_is_the_takers_and_each_defenders_share():
    text = run("odds", FOUR, "--deals", "10", "--quiet")
    assert "score: the taker's expected score for the deal (each defender loses a third of it)" in text
    data = json.loads(run("odds", FOUR, "--deals", "10", "--quiet", "--format", "json"))
    assert data["score_of"] == "taker" and data["called"] is None


def test_five_player_odds_names_the_called_card():
    called = TOKENS[call_card(np.uint64(Hand.parse(FIVE).suit_bits))]
    assert called == "KD"          # no King of diamonds or clubs held; diamonds the longer of the two
    text = run("odds", FIVE, "--players", "5", "--deals", "10", "--quiet")
    assert "this hand calls KD (King of diamonds)" in text
    data = json.loads(run("odds", FIVE, "--players", "5", "--deals", "10", "--quiet", "--format", "json"))
    assert data["called"] == "KD"


def test_bid_explains_its_score_and_its_pass_line():
    text = run("bid", WEAK, "--seat", "2", "--bids", "pass", "--deals", "10", "--quiet")
    assert "score: this seat's expected score for the deal, whoever takes." in text
    assert "pass: this seat passes and the later seats bid by the tarotclub count" in text
    assert "or the earlier bidder" not in text
    text = run("bid", WEAK, "--seat", "2", "--bids", "prise", "--deals", "10", "--quiet",
               "--no-auction-conditioning")
    assert "or the earlier bidder may take" in text


def test_call_defaults_to_five_players():
    data = json.loads(run("call", FIVE, "--deals", "20", "--quiet", "--format", "json"))
    assert data["players"] == 5
    bad = CliRunner().invoke(main, ["call", FOUR, "--players", "4"])
    assert bad.exit_code == 2 and "only at 5 players" in bad.output


def test_discard_contract_has_help_and_compare_bidding_has_jobs():
    assert "the two in which the taker discards" in " ".join(run("discard", "--help").split())
    text = run("compare-bidding", "--help")
    assert "--jobs" in text and "--quiet" in text


def test_compare_bidding_same_output_whatever_the_threads():
    args = ["compare-bidding", "--hands", "3", "--deals", "40", "--seed", "4", "--format", "json", "--quiet"]
    assert run(*args, "--jobs", "1") == run(*args, "--jobs", "2")
