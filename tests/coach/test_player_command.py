"""analyze --player over several files or a folder: the player's seat in each deal, the deals skipped,
the CSV, JSON and HTML reports, --only-mistakes, the same output whatever --jobs and the chunks, and
one-line errors."""

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner

from analyzer.records import parse_any
from cli.main import main
from tests.support.errorline import assert_one_error_line

FAST = ["--policy", "heuristic", "--deals", "50", "--seed", "4", "--quiet"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Deals played at random (so that some decisions are flagged): two files where Ana sits (at every
    seat in turn), one where she does not, and a file that is not a record."""
    root = tmp_path_factory.mktemp("deals")
    for name, deals, seed, names in (("a.txt", 2, 3, "Ana,Bruno,Chloe,Dan"), ("b.txt", 2, 5, "Eve,Fay,Gus,Ana"),
                                     ("c.txt", 1, 7, "Eve,Fay,Gus,Hal")):
        r = run("play", "--deals", deals, "--seed", seed, "--policy", "random", "--names", names, "--quiet",
                "--out", root / name)
        assert r.exit_code == 0, r.output
    (root / "notes.md").write_text("not a record\n", encoding="utf-8")
    return root


def rows(text, level=None):
    out = list(csv.DictReader(io.StringIO(text)))
    return [r for r in out if level is None or r["level"] == level]


@pytest.fixture(scope="module")
def folder_csv(folder):
    r = run("analyze", folder, "--player", "ana", *FAST, "--format", "csv", "--jobs", "1")
    assert r.exit_code == 0, r.output
    return r.output


def test_the_player_s_seat_in_each_deal_and_the_deals_skipped(folder, folder_csv):
    (player,) = rows(folder_csv, "player")
    assert player["player"] == "Ana" and player["count"] == "4" and player["skipped"] == "1"
    deals = rows(folder_csv, "deal")
    seats = []
    for name in ("a.txt", "b.txt"):
        for rec in parse_any((folder / name).read_text(encoding="utf-8")):
            seats.append(next(int(k[4:]) for k, v in rec.tags.items() if k.startswith("Seat") and v == "Ana"))
    assert [(d["file"], d["record"], d["deal"], int(d["seat"])) for d in deals] == [
        ("a.txt", "1", "1", seats[0]), ("a.txt", "2", "2", seats[1]), ("b.txt", "1", "3", seats[2]),
        ("b.txt", "2", "4", seats[3])]
    assert seats[:2] == [1, 4] and seats[2:] == [4, 3]          # a name moves a seat down each deal
    decisions = rows(folder_csv, "decision")
    assert decisions and all(int(d["seat"]) == seats[int(d["deal"]) - 1] for d in decisions)
    assert sum(int(d["judged"]) for d in deals) == len(decisions) == int(player["judged"])
    assert sum(float(d["lost"]) for d in deals) == pytest.approx(float(player["lost"]), abs=1e-5)
    assert sum(float(p["lost"]) for p in rows(folder_csv, "phase")) == pytest.approx(float(player["lost"]), abs=1e-5)
    flagged = [d for d in decisions if d["verdict"]]
    assert flagged and len(flagged) == int(player["flagged"])
    ranked = sorted((d for d in flagged if d["rank"]), key=lambda d: int(d["rank"]))
    assert [float(d["loss"]) for d in ranked] == sorted((float(d["loss"]) for d in flagged), reverse=True)[:10]
    for d in decisions:
        step = re.fullmatch(r"#d(\d)-t(\d+)-c(\d)-s(\d)", d["link"])
        assert step and step[1] == d["deal"] and step[4] == d["seat"]
        assert (step[2] == "0") == (d["phase"] != "card") and (d["trick"] or "0") == step[2]


def test_the_same_report_from_the_files_whatever_the_jobs_and_the_chunks(folder, folder_csv):
    r = run("analyze", folder / "a.txt", folder / "b.txt", folder / "c.txt", "--player", "Ana", *FAST,
            "--format", "csv", "--jobs", "2", "--chunk-size", "1")
    assert r.exit_code == 0, r.output
    assert r.output == folder_csv


def test_only_mistakes_keeps_the_flagged_decisions(folder, folder_csv):
    r = run("analyze", folder, "--player", "Ana", *FAST, "--format", "csv", "--only-mistakes")
    assert r.exit_code == 0, r.output
    kept = rows(r.output, "decision")
    assert kept == [d for d in rows(folder_csv, "decision") if d["verdict"]]
    assert [x for x in rows(r.output) if x["level"] != "decision"] == [
        x for x in rows(folder_csv) if x["level"] != "decision"]


def test_json_carries_the_player_summary_and_each_deal(folder, folder_csv):
    r = run("analyze", folder, "--player", "Ana", *FAST, "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    player = data["player"]
    assert player["player"] == "Ana" and player["deals"] == 4 and player["not_seated"] == 1
    (row,) = rows(folder_csv, "player")
    assert player["judged"] == int(row["judged"]) and player["accuracy"] == pytest.approx(float(row["accuracy"]))
    assert [d["seat"] for d in data["deals"]] == [int(d["seat"]) for d in rows(folder_csv, "deal")]
    assert all({x["seat"] for x in d["decisions"]} <= {d["seat"]} for d in data["deals"])
    for d, summary in zip(data["deals"], player["per_deal"]):
        assert d["steps"] and d["table"]["names"][str(d["seat"])] == "Ana" and summary["file"] == d["file"]


def test_the_page_is_one_self_contained_file_the_same_whatever_the_jobs(folder, tmp_path):
    pages = []
    for jobs in ("1", "2"):
        out = tmp_path / f"ana-{jobs}.html"
        r = run("analyze", folder, "--player", "Ana", *FAST, "--format", "html", "--out", out, "--jobs", jobs)
        assert r.exit_code == 0, r.output
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
    page = pages[0].decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Ana across 4 deals" in page and 'id="worst"' in page
    assert not any(link in page for link in ('src="http', 'href="http', "<link", "<script src", "url(http"))
    assert 'href="#d1-t0-c0-s1"' in page and "a.txt #1" in page and "1 without Ana" in page


def test_a_single_file_keeps_its_report_and_several_are_numbered_in_order(folder):
    one = run("analyze", folder / "a.txt", *FAST, "--format", "csv", "--seat", "1")
    both = run("analyze", folder / "a.txt", folder / "c.txt", *FAST, "--format", "csv", "--seat", "1")
    assert one.exit_code == 0 and both.exit_code == 0, both.output
    assert both.output.startswith(one.output) and {r["deal"] for r in rows(both.output)} <= {"1", "2", "3"}
    mistakes = run("analyze", folder / "a.txt", *FAST, "--format", "csv", "--seat", "1", "--only-mistakes")
    assert rows(mistakes.output) == [r for r in rows(one.output) if r["verdict"]]


@pytest.mark.parametrize("args, words", [
    (["--player", "Zoé"], ["--player 'Zoé'", "no deal", "Ana, Bruno"]),
    (["--player", "Ana", "--seat", "1"], ["--player", "not both"]),
    (["--player", "Ana", "--only-mistakes"], ["--only-mistakes", "--format csv"]),
    (["--player", "Ana", "--scheduler", "http:" "//x:1"], ["--scheduler", "'http'"]),
])
def test_bad_options_are_one_line(folder, args, words):
    assert_one_error_line(run("analyze", folder, *args, "--quiet"), *words)


def test_bad_inputs_are_one_line(folder, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.md").write_text("x", encoding="utf-8")
    assert_one_error_line(run("analyze", empty, "--player", "Ana"), "empty", "no record file")
    assert_one_error_line(run("analyze", tmp_path / "nope.txt", "--player", "Ana"), "nope.txt", "no such file")
    bad = tmp_path / "bad.txt"
    bad.write_text((folder / "a.txt").read_text(encoding="utf-8").replace("[Players", "[Playerz"), encoding="utf-8")
    assert_one_error_line(run("analyze", folder / "a.txt", bad, "--player", "Ana"), "bad.txt")


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_report(folder, folder_csv):
    pytest.importorskip("distributed")
    r = run("analyze", folder, "--player", "Ana", *FAST, "--format", "csv", "--local-cluster", "2", "--chunk-size", "1")
    assert r.exit_code == 0, r.output
    assert r.output == folder_csv
