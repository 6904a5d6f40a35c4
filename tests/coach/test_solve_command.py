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
    defence = game.to_act != game.taker
    values = [c["value"] for c in table["cards"]]
    best = next(c["value"] for c in table["cards"] if c["card"] == table["best"])
    assert best == (min(values) if defence else max(values))
    assert len(table["line"]) == 4 * 6 - 2                  # the rest of trick 13 and five more tricks
    assert C.TOKENS[solve(game).best] == table["best"]


def test_a_finished_deal_or_a_missing_record_is_one_line():
    done = CliRunner().invoke(main, ["solve", str(COMPLETE)])
    assert done.exit_code == 1 and "stop during the play" in done.output
    missing = CliRunner().invoke(main, ["solve", str(MIDPLAY), "--record", "2"])
    assert missing.exit_code == 2 and "--record" in missing.output
