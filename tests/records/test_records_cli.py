"""``tarot-analyzer record check | convert | import``."""

import json
from pathlib import Path

from click.testing import CliRunner

from analyzer import cards as C

from analyzer.records import load_records, parse_any
from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "records"
TAROTCLUB = ROOT / "data" / "tarotclub-deal.json"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_check_prints_one_line_per_deal():
    r = run("record", "check", DATA / "four-players.txt", DATA / "partial.txt", DATA / "five-players.txt")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].endswith("four-players.txt #1: 4 players; seat 1 garde; made by 8; scores +258 -86 -86 -86")
    assert lines[1].endswith("partial.txt #1: 4 players; seat 1 garde; stops: trick 7, after 2 cards")
    assert lines[2].endswith("partial.txt #2: 5 players; seat 2 prise; stops: after the auction")
    assert lines[3].endswith("five-players.txt #1: 5 players; seat 2 prise calling KC (partner seat 4); made by 6; "
                             "scores -51 +102 -51 +51 -51")


def test_check_json():
    r = run("record", "check", DATA / "three-players.txt", DATA / "one-seat.txt", "--format", "json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert rows[0] | {"file": ""} == {"file": "", "record": 1, "players": 3, "taker": 2, "contract": "garde-sans",
                                      "called": None, "partner": None, "made": True, "by": 17,
                                      "scores": [-128, 256, -128], "stops": None, "known_seats": [1, 2, 3],
                                      "outcome": "played"}
    assert rows[1]["known_seats"] == [2] and rows[1]["scores"] is None


def test_check_stops_at_the_first_invalid_record(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text((DATA / "four-players.txt").read_text(encoding="utf-8").replace("1: KH 3 CH QH", "1: KH 3 CH CS"),
                   encoding="utf-8")
    r = run("record", "check", DATA / "three-players.txt", bad, DATA / "five-players.txt")
    assert r.exit_code == 1
    assert "three-players.txt #1" in r.output and "five-players" not in r.output
    assert f"Error: {bad}:line 18 'CS': trick 1, seat 4 played CS but must follow in hearts" in r.output


def test_convert_round_trips(tmp_path):
    for path in sorted(DATA.glob("*.txt")):
        as_json = run("record", "convert", path, "--to", "json")
        assert as_json.exit_code == 0, as_json.output
        target = tmp_path / (path.stem + ".json")
        target.write_text(as_json.output, encoding="utf-8")
        assert load_records(target) == load_records(path)
        back = run("record", "convert", target, "--to", "text")
        assert back.exit_code == 0, back.output
        assert parse_any(back.output) == load_records(path)
        assert run("record", "convert", path, "--to", "text").output == back.output


def test_convert_writes_nothing_for_an_invalid_record(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Players "4"]\n[Auction "garde prise"]\n', encoding="utf-8")
    r = run("record", "convert", bad, "--to", "json")
    assert r.exit_code == 1 and "{" not in r.output
    assert "line 2 'prise': seat 2 may not bid prise now: bids must rise" in r.output


def test_import_the_shipped_tarotclub_deal():
    r = run("record", "import", TAROTCLUB, "--from", "tarotclub")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("# imported from TarotClub: seat 1 is West (the first to lead), then South, East, North\n"
                               "# TarotClub records only the taker's bid: the bids before it (seat 1) are written ?\n")
    rec = parse_any(r.output)[0].check()
    assert rec.auction == ["?", "prise", "pass", "pass"]
    assert rec.poignees[0][0] == 1                      # South, seat 2, the taker, showed it
    assert rec.computed_result()["scores"] == [-54, 162, -54, -54]
    assert len(rec.known_seats) == 4                    # the hands follow from the play and the chien


def test_import_rejects_a_bad_card(tmp_path):
    data = json.loads(TAROTCLUB.read_text(encoding="utf-8"))
    data["tricks"][0] = data["tricks"][0].replace("14-D", "15-D")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    r = run("record", "import", bad, "--from", "tarotclub")
    assert r.exit_code == 1
    assert r.output.strip() == f"Error: {bad} '15-D': no such TarotClub card"


def _tarotclub_card(card):
    """A card in TarotClub's NN-S notation (for writing a log in the test)."""
    if card == C.EXCUSE:
        return "00-T"
    if C.is_trump(card):
        return f"{C.rank_of(card):02d}-T"
    return f"{C.rank_of(card):02d}-{'SHDC'[C.suit_of(card)]}"


def test_import_a_five_player_deal_leaves_an_undetermined_call_out(tmp_path):
    rec = load_records(DATA / "five-players.txt")[0]
    places = ["North", "West", "Fifth", "South", "East"]      # seat 1 is North, then anti-clockwise
    log = {"version": 3, "deal_info": {
        "number_of_players": 5, "taker": "West", "contract": "Take", "slam": False, "first_trick_lead": "North",
        "dog": ";".join(_tarotclub_card(c) for c in C.cards_of(rec.chien)), "attack_handle": "",
        "defense_handle": ";".join(_tarotclub_card(c) for c in C.cards_of(rec.poignees[0][1]))},
        "tricks": [";".join(_tarotclub_card(c) for c in t) for t in rec.tricks]}
    assert places[1] == log["deal_info"]["taker"]
    path = tmp_path / "five.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    r = run("record", "import", path, "--from", "tarotclub")
    assert r.exit_code == 0, r.output
    assert ("# TarotClub does not record the called card, and the deal does not determine it (one of KS KD KC): "
            "written ?, so the partner and the scores stay unknown") in r.output
    imported = parse_any(r.output)[0].check()
    assert imported.poignees == rec.poignees                  # the defence's poignée placed with seat 3
    assert imported.tricks == rec.tricks and imported.dealt == rec.dealt
    assert imported.computed_result() is None


def test_the_readme_example_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Deal records", 1)[1].split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    command, expected = block[0], block[1]
    assert command.startswith("tarot-analyzer record check ")
    r = run(*command.split()[1:])
    assert r.exit_code == 0 and r.output.strip() == expected


def test_the_documented_example_is_the_shipped_record():
    doc = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    rec = parse_any(example)[0].check()
    assert rec == load_records(DATA / "four-players.txt")[0]


def test_the_api_is_exported_from_analyzer():
    import analyzer
    assert analyzer.load_records(DATA / "three-players.txt")[0].players == 3
    assert analyzer.Record is type(load_records(DATA / "three-players.txt")[0])


def test_import_and_check_a_deal_everybody_passed(tmp_path):
    data = json.loads(TAROTCLUB.read_text(encoding="utf-8"))
    data["deal_info"]["contract"] = "Pass"
    data["tricks"] = []
    log = tmp_path / "pass.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    imported = run("record", "import", log, "--from", "tarotclub")
    assert imported.exit_code == 0, imported.output
    record = tmp_path / "pass.txt"
    record.write_text(imported.output, encoding="utf-8")
    r = run("record", "check", record)
    # no hand known, yet counted as the whole deal is: a deal thrown in scores nothing
    assert r.exit_code == 0 and r.output == (f"{record} #1: 4 players; everybody passed (thrown in); "
                                             "scores 0 0 0 0; no hand known\n")
