"""bid: auction conditioning, option values, and the command's contract."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import cards as C
from analyzer.advice.auction import check_bids, parse_bids
from analyzer.advice.bid import bid_advice
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from cli.main import main
from analyzer.baselines import method_id
from analyzer.simulate import rules_flags
from analyzer.simulation.bridge import fixed_hand
from analyzer.simulation.threads import over_rows
from kernels import auction as A
from kernels import playout as K
from kernels.auction import weighted_deals_batch
from kernels.bidding import TAROTCLUB
from tests.support.hands import FFT_HAND

WEAK = Hand.parse("7 4 2 QS 9S 5S 3S 10H 6H 2H JD 8D 5D 1D 9C 7C 4C 2C")
STRONG = Hand.parse(FFT_HAND)


def test_earlier_passes_lower_the_chance_that_an_earlier_seat_holds_the_21():
    hand = Hand.parse("20 18 15 12 8 5 KS QS 7S KH 3H CD 9D 2D KC 4C 3C 2C")
    fixed, unseen, slots = fixed_hand(hand, 2, 4)
    n = 20_000
    out = np.empty((n, 78), dtype=np.int8)
    weights = np.empty(n)
    over_rows(weighted_deals_batch, n, fixed, unseen, slots, 4, 2, np.array([0, 0]), TAROTCLUB, 8.0, True,
              np.uint64(1), np.arange(n), out, weights)
    holds = out[:, C.TWENTY_ONE] == 0
    unconditioned = holds.mean()
    passed = (weights * holds).sum() / weights.sum()
    assert abs(unconditioned - 18 / 60) < 0.02                 # seat 1 holds 18 of the 60 unseen cards
    assert passed < unconditioned - 0.05
    assert (out[:, list(hand)] == 2).all()                     # the hand itself never moves
    # no earlier bid: every deal weighs 1
    over_rows(weighted_deals_batch, n, fixed, unseen, slots, 4, 0, np.array([0]), TAROTCLUB, 8.0, True,
              np.uint64(1), np.arange(n), out, weights)
    assert (weights == 1).all()


@pytest.mark.parametrize("players", [4, 5])
def test_a_bid_row_s_margin_says_whether_the_hand_s_side_won(players):
    """``B_MARGIN``, the half-points the hand's side took beyond those it needed (in defence the taker's
    short of them): the hand's side won where it is 0 or more on the taker's side, above 0 in defence;
    0 where everybody passed.  Over a pass (others take) and a Garde (the hand takes, unless outbid)."""
    hand = Hand.parse(" ".join(str(STRONG).split()[:Rules(players=players).hand_size]), players)
    fixed, unseen, slots = fixed_hand(hand, 1, players)
    policies = np.full(players, K.HEURISTIC, dtype=np.int64)
    sides = set()
    for option in (0, int(Contract.GARDE)):
        rows, weights = np.zeros((400, A.BID_SIZE), dtype=np.int64), np.empty(400)
        over_rows(A.bid_deals, 400, fixed, unseen, slots, players, 1, np.array([0], dtype=np.int64), False, option,
                  method_id("tarotclub"), 8.0, policies, 1, np.uint64(9), np.arange(400), True,
                  rules_flags(Rules(players=players)), rows, weights, -1, np.empty((0, A.BID_SIZE), dtype=np.int64),
                  None)
        thrown = rows[:, A.B_WON] == -1
        assert (rows[thrown, A.B_MARGIN] == 0).all()
        played = rows[~thrown]
        taking = played[:, A.B_TAKER] == 1
        assert np.array_equal(played[taking, A.B_WON] == 1, played[taking, A.B_MARGIN] >= 0)
        defending = played[~taking]
        if players == 4:        # at 5 the hand may be the called partner, on the taker's side
            assert np.array_equal(defending[:, A.B_WON] == 1, defending[:, A.B_MARGIN] > 0)
        sides |= {bool(t) for t in taking}
        assert (np.abs(played[:, A.B_MARGIN]) <= 182).all() and played[:, A.B_MARGIN].std() > 10
    assert sides == {True, False}


def test_strong_hand_bids_and_weak_hand_passes():
    strong = bid_advice(STRONG, Rules(players=4), settings=Settings(seed=1))          # the defaults
    assert strong.recommendation.bid is not None and strong.recommendation.bid >= Contract.GARDE
    weak = bid_advice(WEAK, Rules(players=4), seat=1, bids=[None], settings=Settings(seed=1))
    assert weak.recommendation.bid is None
    assert [o.token for o in weak.options] == ["pass", "prise", "garde", "garde-sans", "garde-contre"]


def test_each_option_is_compared_with_the_best_on_the_same_deals_and_the_best_with_itself_not_at_all():
    for seat, bids in ((0, []), (2, [None, Contract.PRISE])):
        advice = bid_advice(STRONG, Rules(players=4), seat, bids, Settings(policy="heuristic", deals=300, seed=3))
        best = advice.recommendation
        assert (best.vs_best.mean, best.vs_best.se) == (0.0, 0.0)
        for option in advice.options:
            assert option.vs_best.mean == pytest.approx(option.score.mean - best.score.mean)
            assert option is best or option.vs_best.se > 0


def test_options_are_only_higher_bids():
    advice = bid_advice(WEAK, Rules(players=4), seat=2, bids=[None, Contract.GARDE],
                        settings=Settings(deals=20, seed=2))          # the options, whatever the deals
    assert [o.token for o in advice.options] == ["pass", "garde-sans", "garde-contre"]


def test_bad_auctions_are_refused():
    for bids, seat in (([Contract.GARDE, Contract.PRISE], 2), ([None], 2)):
        try:
            check_bids(bids, seat)
        except TarotError:
            continue
        raise AssertionError(f"{bids} accepted at seat {seat + 1}")
    assert parse_bids("pass, Garde-Sans") == [None, Contract.GARDE_SANS]


def test_cli_json_and_errors():
    runner = CliRunner()
    result = runner.invoke(main, ["bid", str(WEAK), "--seat", "2", "--bids", "pass", "--deals", "40",
                                  "--format", "json", "--quiet"])                     # the output's shape
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["recommendation"] in [o["bid"] for o in data["options"]]
    assert {"bid", "expected_score", "se", "p_success"} <= data["options"][0].keys()
    bad = runner.invoke(main, ["bid", str(WEAK), "--seat", "3", "--bids", "garde,prise"])
    assert bad.exit_code != 0 and "does not outbid" in bad.output and "Traceback" not in bad.output


def test_compare_bidding_small_run():
    result = CliRunner().invoke(main, ["compare-bidding", "--hands", "6", "--deals", "100", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 6
    for method in ("chavey", "tarotclub"):
        assert sum(data["agreement"][method].values()) == 6
        assert data["gain"][method]["n"] == 6


def test_a_precision_not_reached_names_the_options_of_its_run():
    """Under the mixed model the heuristic's options and the searched ones run to precisions of their own:
    a warning says which run stopped at the deal limit."""
    result = CliRunner().invoke(main, ["bid", str(STRONG), "--max-deals", "50", "--precision", "0.001", "--quiet",
                                       "--seed", "1"])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 0 and len(lines) == 2
    assert lines[0].startswith("Warning: pass: precision ±0.001 not reached in 50 deals")      # at 4 players
    assert lines[1].startswith("Warning: prise, garde, garde-sans, garde-contre: precision ±0.0025 not reached in 50 "
                               "deals")                                             # every bid searched
    plain = CliRunner().invoke(main, ["bid", str(STRONG), "--max-deals", "50", "--precision", "0.001", "--quiet",
                                      "--seed", "1", "--policy", "heuristic"])
    assert plain.stderr.strip().splitlines()[0].startswith("Warning: precision ±0.001 not reached in 50 deals")
