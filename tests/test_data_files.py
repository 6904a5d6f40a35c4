"""The shipped example hands are valid hands for their player count."""

import csv
from pathlib import Path

import pytest

from analyzer.hand import Hand
from analyzer.rules import Contract

DATA = Path(__file__).resolve().parent.parent / "data"
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
