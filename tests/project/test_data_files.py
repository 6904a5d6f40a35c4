"""The shipped example hands are valid hands for their player count; the shipped deep answers of
``calibrate`` are records of the hands their seed deals, usable by ``--deep-from``."""

import csv
from pathlib import Path

import pytest

from analyzer.hand import Hand
from analyzer.quality.calibrate import DEEP_SEED, hand_seed, paired_settings, read_record
from analyzer.rules import Contract, Rules
from analyzer.sampling import random_hands

DATA = Path(__file__).resolve().parents[2] / "data"
with (DATA / "example_hands.csv").open(encoding="utf-8") as f:
    ROWS = list(csv.DictReader(f))


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_example_hand_is_valid(row):
    players = int(row["players"])
    hand = Hand.parse(row["hand"], players=players)
    assert str(Hand.parse(str(hand))) == str(hand)
    seat = int(row["seat"])
    assert 1 <= seat <= players
    bids = [b for b in row["bids"].split(",") if b]
    assert len(bids) == seat - 1
    for b in bids:
        if b != "pass":
            Contract.parse(b)


@pytest.mark.kernels
@pytest.mark.parametrize("name,players,hands", [("calibrate-3p", 3, 100), ("calibrate-4p", 4, 100),
                                                ("calibrate-5p", 5, 100), ("calibrate-4p-deep2000", 4, 16)])
def test_calibration_records_hold_the_seed_s_hands_with_their_deep_answers(name, players, hands):
    settings, checks, cut = read_record(DATA / "calibration" / f"{name}.jsonl")
    run = settings["calibrate"]
    assert cut is None and (run["players"], run["deep"]["seed"]) == (players, DEEP_SEED)
    assert run["variants"] == Rules(players=players).variants()
    assert sorted(checks) == list(range(len(checks))) and len(checks) >= hands
    hands = random_hands(Rules(players=players), len(checks), run["seed"])
    assert [checks[i].hand for i in range(len(checks))] == list(hands)
    assert run["streams"] == "per hand"             # each hand's runs seeded apart, as calibrate seeds them
    assert all((c.seed_default, c.seed_deep) == (hand_seed(run["tested"]["seed"], i), hand_seed(DEEP_SEED, i))
               for i, c in checks.items())
    for check in checks.values():
        assert check.deals_deep == run["deep"]["deals"]
        assert [g.contract for g in check.gaps] == list(Contract)
        assert check.recommendation_deep in check.deep_options and check.deep_options[check.recommendation_deep][0] == 0


@pytest.mark.parametrize("name,players,mixed_worlds", [
    ("calibrate-3p-paired", 3, None), ("calibrate-4p-paired", 4, None), ("calibrate-5p-paired", 5, None),
    ("calibrate-5p-4worlds-paired", 5, [4, 4]), ("calibrate-4p-paired-2026-11-28", 4, None),
    ("calibrate-3p-6worlds-paired", 3, [6, 6]),
])
def test_paired_records_hold_each_hand_s_biases_beside_the_deep_answers_they_took(name, players, mixed_worlds):
    """The paired records (``calibrate --paired``; two of other worlds: ``--mixed-worlds 4``, the 5-player
    default before, and ``6,6`` at 3 players) took their deep answers from the record of the same player
    count and hold each contract's bias of every hand, Garde's Prise's."""
    settings, checks, cut = read_record(DATA / "calibration" / f"{name}.jsonl")
    _, deep, _ = read_record(DATA / "calibration" / f"calibrate-{players}p.jsonl")
    run = settings["calibrate"]
    assert cut is None and run["paired"] == paired_settings(run["paired"]["most_deals"])
    assert run["players"] == players and run["tested"].get("mixed_worlds") == mixed_worlds
    assert sorted(checks) == list(range(100))
    for i, check in checks.items():
        assert [g.deep for g in check.gaps] == [g.deep for g in deep[i].gaps] and check.hand == deep[i].hand
        assert [b.contract for b in check.biases] == list(Contract)
        assert all(1 <= b.deals <= run["paired"]["most_deals"] and b.se > 0 for b in check.biases)
        assert check.biases[0].mean == check.biases[1].mean
