"""solve: the double-dummy table of a recorded deal in play, checked against the solver itself."""

import json
from pathlib import Path

from click.testing import CliRunner

from analyzer import cards as C
from analyzer.records import load_records
from analyzer.solve import solve
from cli.main import main

MIDPLAY = Path(__file__).resolve().parents[2] / "data" / "records" / "four-players-midplay.txt"
COMPLETE = MIDPLAY.with_name("four-players.txt")


def test_json_gives_every_legal_card_and_a_line_that_ends_the_deal():
    result = CliRunner().invoke(main, ["solve", str(MIDPLAY), "--format", "json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout)
    game = load_records(MIDPLAY)[0].game
    assert table["seat"] == game.to_act + 1 and table["trick"] == 13
    assert {c["card"] for c in table["cards"]} == {C.TOKENS[c] for c in C.cards_of(game.legal_cards())}
    values = [c["value"] for c in table["cards"]]
    best = next(c["value"] for c in table["cards"] if c["card"] == table["best"])
    assert best == max(values) and values == sorted(values, reverse=True)     # the seat's own score
    assert len(table["line"]) == 4 * 6 - 2                  # the rest of trick 13 and five more tricks
    assert [t["trick"] for t in table["tricks"]] == list(range(13, 19))
    assert table["final_scores"][table["seat"] - 1] == best
    assert C.TOKENS[solve(game).best] == table["best"]


def test_table_groups_equal_cards_and_shows_the_line_by_trick():
    result = CliRunner().invoke(main, ["solve", str(MIDPLAY)])
    assert result.exit_code == 0, result.output
    solution = solve(load_records(MIDPLAY)[0].game)
    lines = result.output.splitlines()
    assert lines[0].startswith(f"Seat {solution.seat + 1} (defender) to play in trick 13")
    # One row per group of equal cards, best first, each card in exactly one row.
    rows = lines[1:1 + len(solution.groups)]
    for row, (value, cards) in zip(rows, solution.groups):
        assert row.split()[0] == f"{value:+.0f}" and row.split()[1:1 + len(cards)] == [C.TOKENS[c] for c in cards]
    assert rows[0].rstrip().endswith("best")
    tricks = [line for line in lines if line.strip().startswith("trick")]
    assert len(tricks) == 6 and tricks[0].split()[1] == "13:" and tricks[-1].split()[1] == "18:"
    assert lines[-1].startswith("Final scores: seat 1 ")


def test_a_finished_deal_or_a_missing_record_is_one_line():
    done = CliRunner().invoke(main, ["solve", str(COMPLETE)])
    assert done.exit_code == 1 and "stop during the play" in done.output
    missing = CliRunner().invoke(main, ["solve", str(MIDPLAY), "--record", "2"])
    assert missing.exit_code == 2 and "--record" in missing.output
