"""Every worked scoring example of the FFT rules and of the rule pages the project started from (listed in
docs/rules.md), through `tarot-analyzer score --format json`.  The examples live in data/seed_examples.csv."""

import csv
import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.rules import Contract, Rules
from analyzer.scoring import Chelem, DealSummary, score_deal
from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RULES_PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
COLUMNS = ["source", "description", "options", "made", "margin", "contract_points", "taker", "partner", "defender"]

with (ROOT / "data" / "seed_examples.csv").open(encoding="utf-8", newline="") as f:
    reader = csv.DictReader(f)
    HEADER = reader.fieldnames
    ROWS = list(reader)


def _id(row):
    return f"{row['source'].split('_')[0]}-{row['description'].split(':')[0][:40]}"


def test_csv_shape():
    assert HEADER == COLUMNS
    assert len(ROWS) >= 9
    for row in ROWS:
        assert row["made"] in ("true", "false")
        assert row["source"] == "FFT" or row["source"].endswith(".txt")


def test_every_seed_with_a_worked_example_is_covered():
    sources = {row["source"] for row in ROWS}
    # Spanish Mundijuegos (3 worked examples), BGA (5-player shares), Italian (60 -> 180 / -60)
    assert {"000_884f7f9b7eaa1dbe.txt", "001_f9a069da632ce3c6.txt", "003_cee70c4106f1aecf.txt"} <= sources
    assert sum(row["source"] == "000_884f7f9b7eaa1dbe.txt" for row in ROWS) == 3


def test_every_source_page_is_described_in_the_rules_page():
    for row in ROWS:
        if row["source"] != "FFT":
            assert f"`{row['source']}`" in RULES_PAGE, row["source"]


def test_inconsistent_examples_are_flagged():
    chelem_rows = [r for r in ROWS if "--chelem" in r["options"]]
    assert chelem_rows, "seed 000 example 3 (a chelem at 43 points) should be in the file"
    for row in chelem_rows:
        points = float(shlex.split(row["options"])[shlex.split(row["options"]).index("--points") + 1])
        if points < 87:
            assert "INCONSISTENT" in row["description"]


def _arithmetic(options: str) -> dict:
    """The score of an example's options through the Python API, which does the arithmetic without asking
    whether a deal can end so (the command refuses such a summary)."""
    args = shlex.split(options)
    value = dict(zip(args[::2], args[1::2]))
    summary = DealSummary(Contract.parse(value["--contract"]), int(value["--oudlers"]),
                          int(float(value["--points"]) * 2),
                          chelem=Chelem.parse(value["--chelem"]) if "--chelem" in value else None)
    rules = Rules(players=int(value.get("--players", 4)))
    return {"players": rules.players, **score_deal(summary, rules).as_dict()}


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_seed_example(row):
    result = CliRunner().invoke(main, ["score", *shlex.split(row["options"]), "--format", "json"])
    if "INCONSISTENT" in row["description"]:
        assert result.exit_code == 2 and "impossible deal" in result.stderr, result.output
        data = _arithmetic(row["options"])
    else:
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
    assert data["made"] is (row["made"] == "true")
    assert data["margin"] == int(row["margin"])
    assert data["contract_points"] == int(row["contract_points"])
    assert data["taker"] == int(row["taker"])
    assert data["partner"] == (int(row["partner"]) if row["partner"] else None)
    assert data["defender"] == int(row["defender"])
    players = data["players"]
    defenders = players - 1 if data["partner"] is None else players - 2
    assert data["taker"] + (data["partner"] or 0) + defenders * data["defender"] == 0
