"""The example hands the tests share: the shipped ones of ``data/example_hands.csv``, by name."""

import csv
from pathlib import Path

with (Path(__file__).resolve().parents[2] / "data" / "example_hands.csv").open(encoding="utf-8") as f:
    EXAMPLES = {row["name"]: row["hand"] for row in csv.DictReader(f)}

FFT_HAND = EXAMPLES["fft-notation"]          # 4 players: the printed-form example of docs/notation.md
LONG_SPADES = EXAMPLES["long-spades"]        # 4 players: the README's bid example (seat 3 after pass, prise)
WEAK = EXAMPLES["weak"]                      # 4 players: a clear pass
