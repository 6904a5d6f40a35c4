"""``tarot-analyzer play``: simulated whole deals as records that re-check clean, reproducibly."""

import json

import pytest
from click.testing import CliRunner

from analyzer.records import parse_any
from cli.main import main

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_records_recheck_clean(players, tmp_path):
    out = tmp_path / "deals.txt"
    r = run("play", "--players", players, "--deals", 60, "--seed", 3, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    records = parse_any(out.read_text(encoding="utf-8"))
    assert len(records) == 60
    played = 0
    for i, rec in enumerate(records, start=1):
        rec.check()                                     # the Result written is the one the replay computes
        assert rec.tags["Deal"] == str(i) and rec.result is not None
        assert rec.known_seats == list(range(players))
        if rec.result.get("outcome") == "thrown-in":
            assert rec.auction == ["pass"] * players and rec.tricks is None
        else:
            played += 1
            assert len(rec.tricks) == rec.rules.tricks and all(len(t) == players for t in rec.tricks)
    assert played > 30
    check = run("record", "check", out)
    assert check.exit_code == 0 and len(check.output.splitlines()) == 60


@pytest.mark.parametrize("policy, deals", [("heuristic", 40), ("pimc", 3)])
def test_same_seed_same_records_whatever_the_jobs(policy, deals):
    common = ("play", "--players", 4, "--deals", deals, "--seed", 9, "--policy", policy, "--worlds", 4, "--quiet")
    one = run(*common, "--jobs", 1)
    two = run(*common, "--jobs", 2)
    assert one.exit_code == 0 and one.output == two.output
    other = run(*common[:6], 10, *common[7:])
    assert other.exit_code == 0 and other.output != one.output


def test_pimc_play_and_json_output():
    r = run("play", "--players", 5, "--deals", 2, "--seed", 1, "--policy", "pimc", "--worlds", 4, "--to", "json",
            "--quiet", "--bidding", "chavey")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert len(data) == 2 and data[0]["players"] == 5
    for rec in parse_any(r.output):
        rec.check()
        assert "pimc play, chavey bidding" in rec.tags["Event"]


def test_names_are_written_as_seat_tags_and_move_a_seat_down_each_deal(tmp_path):
    out = tmp_path / "deals.txt"
    r = run("play", "--deals", 5, "--seed", 3, "--names", "Ana, Bruno,Chloé,Dan", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    records = parse_any(out.read_text(encoding="utf-8"))
    names = ["Ana", "Bruno", "Chloé", "Dan"]
    for k, rec in enumerate(records):
        assert [rec.tags[f"Seat{s + 1}"] for s in range(4)] == names[k % 4:] + names[:k % 4]
    plain = parse_any(run("play", "--deals", 5, "--seed", 3).output)
    assert [dict(r.hands) for r in plain] == [dict(r.hands) for r in records]     # the same deals, named


@pytest.mark.parametrize("names, words", [("Ana,Bruno", ["--names", "2 names for 4 players"]),
                                          ("Ana,Bruno,Ana,Dan", ["--names", "'Ana' is given twice"]),
                                          ("Ana,,Chloé,Dan", ["--names", "not empty"])])
def test_bad_names_are_one_line(names, words):
    from tests.support.errorline import assert_one_error_line
    assert_one_error_line(run("play", "--deals", 1, "--names", names, "--quiet"), *words)
