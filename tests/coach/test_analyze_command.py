"""analyze: every format on the shipped records, seats chosen, reproducibility, clear errors."""

import csv
import io
import json

import pytest

from analyzer.coach.reasons import LABELS
from tests.support.analyze_cli import DATA, FAST, run


@pytest.fixture(scope="module")
def three_json():
    result = run(str(DATA / "three-players.txt"), "--seat", "2", *FAST, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_json_lists_every_decision_of_the_chosen_seat_in_order(three_json):
    deal = three_json["deals"][0]
    assert deal["players"] == 3
    decisions = deal["decisions"]
    assert {d["seat"] for d in decisions} == {2}
    cards = [d for d in decisions if d["phase"] == "card"]
    assert len(cards) == 24 and [d["trick"] for d in cards] == list(range(1, 25))
    assert decisions[0]["phase"] == "bid"
    for d in cards:
        if d["judged"]:
            assert d["best"] == d["alternatives"][0]["choice"]
            assert d["loss"] >= 0 and d["played"] in {a["choice"] for a in d["alternatives"]}
            assert d["best"] == d["best_group"][0] and d["loss"] * d["scale"] == pytest.approx(d["loss_score"])
            assert d["scale"] in (1, 2, 4, 6, 8, 12)        # the seat's share (2 or 1 at 3 players) × the multiplier
            if d["verdict"]:
                assert d["played"] not in d["best_group"] and set(d["reasons"]) <= set(LABELS)
        else:
            assert d["note"] in ("forced", "equivalent cards") and d["verdict"] is None
    for d in decisions:
        if d["judged"] and d["played"] in d["best_group"]:
            assert d["verdict"] is None
        if d["judged"] and d["played"] == d["best"]:
            assert d["loss"] == 0 and d["verdict"] is None         # the best choice loses nothing, bids included
    summary = deal["summary"]["2"]
    assert set(summary["verdicts"]) == {"inaccuracy", "mistake", "blunder"}
    assert summary["accuracy"] is None or 0 <= summary["accuracy"] <= 100


def test_tricks_chosen_are_judged_as_in_the_whole_report(three_json):
    """Each decision draws from its own seed: judging only tricks 3 and 20-21 gives their rows of the
    whole report, and nothing else (no bid, no other trick)."""
    some = run(str(DATA / "three-players.txt"), "--seat", "2", "--trick", "3,20-21", *FAST, "--format", "json")
    assert some.exit_code == 0, some.output
    rows = json.loads(some.output)["deals"][0]["decisions"]
    assert [d["trick"] for d in rows] == [3, 20, 21]
    whole = [d for d in three_json["deals"][0]["decisions"] if d["trick"] in (3, 20, 21)]
    assert rows == whole


def test_same_seed_same_report_whatever_the_threads(three_json):
    again = run(str(DATA / "three-players.txt"), "--seat", "2", *FAST, "--format", "json", "--jobs", "1")
    assert json.loads(again.output) == three_json


def test_table_and_csv_show_the_judged_decisions():
    table = run(str(DATA / "four-players.txt"), "--seat", "3", *FAST)
    assert table.exit_code == 0, table.output
    assert "summary" in table.output and "seat 3:" in table.output
    rows = list(csv.DictReader(io.StringIO(run(str(DATA / "four-players.txt"), "--seat", "3", *FAST,
                                                "--format", "csv").output)))
    assert rows and {r["seat"] for r in rows} == {"3"}
    assert set(rows[0]) == {"deal", "seat", "phase", "trick", "played", "best", "best_group", "loss", "loss_se",
                            "loss_score", "loss_score_se", "verdict", "reasons", "hindsight_best"}
    assert "contract points" in table.output


def test_html_is_one_self_contained_page(tmp_path):
    out = tmp_path / "report.html"
    result = run(str(DATA / "five-players.txt"), "--seat", "1", *FAST, "--format", "html", "--out", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "Deal 1" in page
    assert not any(link in page for link in ('src="http', "href=\"http", "<link", "<script src", "url(http"))
    again = tmp_path / "again.html"
    run(str(DATA / "five-players.txt"), "--seat", "1", *FAST, "--format", "html", "--out", str(again))
    assert again.read_text(encoding="utf-8") == page                     # reproducible, no date inside


@pytest.mark.parametrize("args,needle", [
    (["--seat", "6"], "--seat"),
    (["--seat", "x"], "--seat"),
    (["--format", "html"], "--out"),
    (["--trick", "25"], "--trick"),
    (["--trick", "7-x"], "7-x"),
    (["--trick", "9-3"], "9-3"),
])
def test_bad_options_give_one_line(args, needle):
    result = run(str(DATA / "three-players.txt"), *args, "--quiet")
    assert result.exit_code == 2 and needle in result.output and "Traceback" not in result.output


def test_a_trick_the_deal_does_not_have_is_named():
    result = run(str(DATA / "four-players.txt"), "--trick", "19", "--quiet")
    assert result.exit_code == 2 and "trick 19 does not exist at 4 players (18 tricks)" in result.output


def test_a_missing_file_is_named():
    result = run("no-such-file.txt")
    assert result.exit_code != 0 and "no-such-file.txt" in result.output


def test_a_record_of_one_seat_is_judged_from_that_seat_without_hindsight():
    result = run(str(DATA / "one-seat.txt"), *FAST, "--format", "json")
    assert result.exit_code == 0, result.output
    decisions = json.loads(result.output)["deals"][0]["decisions"]
    assert {d["seat"] for d in decisions} == {2}
    cards = [d for d in decisions if d["phase"] == "card"]
    assert len(cards) == 9 and all(d["hindsight_best"] is None for d in cards)
    other = run(str(DATA / "one-seat.txt"), "--seat", "1", "--quiet")
    assert other.exit_code == 2 and "seat(s) 2 only" in other.output


def test_a_partial_record_is_judged_as_far_as_it_goes():
    result = run(str(DATA / "partial.txt"), *FAST, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["deals"][0]["decisions"]


def test_an_empty_file_is_said_to_hold_no_record(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    result = run(str(empty), "--quiet")
    assert result.exit_code == 1 and "holds no deal record" in result.output
