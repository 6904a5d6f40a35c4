"""Perft counts from fixed deals: the reference engine reproduces data/perft.csv."""

import csv
from pathlib import Path

import pytest

from analyzer.game import Game
from analyzer.hand import Deal
from analyzer.notation import parse_card
from analyzer.perft import perft
from analyzer.rules import Contract, Rules

with (Path(__file__).resolve().parents[2] / "data" / "perft.csv").open(encoding="utf-8") as f:
    ROWS = list(csv.DictReader(f))


def game_of(row) -> Game:
    players = int(row["players"])
    deal = Deal.from_places([int(ch) for ch in row["places"]], players)
    return Game.for_play(deal, Rules(players=players), taker=int(row["taker"]),
                         contract=Contract.parse(row["contract"]),
                         called_card=parse_card(row["called"]) if row["called"] else None)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['players']}p-d{r['depth']}-{i}" for i, r in enumerate(ROWS)])
def test_reference_perft(row):
    assert perft(game_of(row), int(row["depth"])) == int(row["sequences"])
