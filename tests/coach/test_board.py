"""The replay board's figures in analyze's JSON (the table, the curves, "show me how" lines, luck and
skill) and the page that embeds them, without a browser (tests/coach/test_board_browser.py drives it)."""

import json
import re

import pytest

from tests.support.analyze_cli import DATA, FAST, run


@pytest.fixture(scope="module")
def four():
    result = run(str(DATA / "four-players.txt"), *FAST, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["deals"][0]


def test_the_table_and_the_play_as_they_happened(four):
    t = four["table"]
    assert t["players"] == 4 and t["taker"] == 1 and t["contract"] == "garde" and t["partner"] is None
    assert t["auction"] == ["garde", "pass", "pass", "pass"] and t["names"] == {"1": "Ana", "2": "Bruno"}
    assert all(len(h) == 18 for h in t["hands"]) and len(t["chien"]) == 6 and len(t["discard"]) == 6
    assert set(t["hands_in_play"][0]) == (set(t["hands"][0]) | set(t["chien"])) - set(t["discard"])
    assert len(t["tricks"]) == 18 and t["tricks"][0] == {
        "leader": 1, "seats": [1, 2, 3, 4], "cards": ["KH", "3", "CH", "QH"], "winner": 2,
        "points": {"taker": 0.0, "defence": 11.0}, "oudlers": {"taker": 0, "defence": 0}}
    last = t["tricks"][-1]
    assert last["points"]["taker"] + last["points"]["defence"] == 91 - 7        # all but the discard's 7 points
    assert last["oudlers"]["taker"] + last["oudlers"]["defence"] == 3
    assert t["result"]["scores"] == [258, -86, -86, -86] and t["result"]["made"]


def test_existing_keys_stay_and_steps_number_the_cards(four):
    assert {"index", "players", "policy", "worlds", "decisions", "summary"} <= set(four)
    cards = [d for d in four["decisions"] if d["phase"] == "card"]
    steps = [s for d, s in zip(four["decisions"], four["steps"]) if d["phase"] == "card"]
    assert sorted(steps) == list(range(1, 73)) and len(cards) == 72
    assert all(s == 0 for d, s in zip(four["decisions"], four["steps"]) if d["phase"] != "card")
    for i, d in enumerate(four["decisions"]):
        if d["phase"] == "card" and d["judged"]:
            classes = four["classes"][str(i)]
            assert {a["choice"] for a in d["alternatives"]} == set(classes)
            assert all(choice in members for choice, members in classes.items())


def test_curves_have_gaps_not_invented_points(four):
    curve = four["curve"]
    assert curve["cards"] == 72
    assert len(curve["hindsight"]) == 72 and set(curve["hindsight"]) <= {0.0, 1.0}
    assert curve["hindsight"][-1] == 1.0                                     # the contract was made
    steps = four["steps"]
    for seat, points in curve["knowledge"].items():
        judged = {steps[i] - 1 for i, d in enumerate(four["decisions"])
                  if d["seat"] == int(seat) and d["phase"] == "card" and d["judged"]}
        assert {k for k, _ in points} == judged                               # a point at each judged card, no other
        assert all(0 <= p <= 1 for _, p in points)


def test_show_me_how_lines_for_every_flagged_card(four):
    flagged = [i for i, d in enumerate(four["decisions"]) if d["verdict"] and d["phase"] == "card"]
    assert flagged, "the shipped deal has flagged cards at this seed"
    assert [line["decision"] for line in four["lines"]] == flagged
    for line in four["lines"]:
        d = four["decisions"][line["decision"]]
        assert line["card"] == d["best"] and line["played"] == d["played"] and line["trick"] == d["trick"]
        alt, actual = line["line"], line["actual"]
        assert alt["tricks"][0]["cards"][alt["tricks"][0]["seats"].index(d["seat"])] == d["best"]
        assert len(alt["tricks"]) == len(actual["tricks"]) == 18 - d["trick"] + 1
        assert alt["finished_by"] in ("solver", "heuristic")
        assert alt["finished_by"] == ("solver" if 18 - d["trick"] + 1 <= 6 else "heuristic")
        assert actual["scores"] == [258, -86, -86, -86] and sum(alt["scores"]) == 0
        played = [c for t in alt["tricks"] for c in t["cards"]]
        assert len(played) == len(set(played)) == 4 * len(alt["tricks"])


def test_luck_and_skill_add_up(four):
    for seat, luck in four["luck"].items():
        lost = four["summary"][seat]["points_lost"]
        assert luck["own_decisions"] == -lost
        assert luck["actual"] == four["table"]["result"]["scores"][int(seat) - 1]
        bid = next(d for d in four["decisions"] if d["seat"] == int(seat) and d["phase"] == "bid")
        assert luck["expected"] == bid["alternatives"][0]["expected_score"]
        assert luck["rest"] == pytest.approx(luck["actual"] - luck["expected"] + lost)


def test_a_record_from_one_seat_shows_no_hidden_hand_and_no_hindsight():
    result = run(str(DATA / "one-seat.txt"), *FAST, "--format", "json")
    assert result.exit_code == 0, result.output
    deal = json.loads(result.output)["deals"][0]
    t = deal["table"]
    assert [h is not None for h in t["hands"]] == [False, True, False, False]      # no stand-in hand shown
    assert t["discard"] is None and t["result"] is None
    assert deal["curve"]["hindsight"] is None and deal["lines"] == []
    assert set(deal["curve"]["knowledge"]) <= {"2"}
    assert deal["luck"]["2"]["actual"] is None and deal["luck"]["2"]["rest"] is None


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("board") / "board.html"
    result = run(str(DATA / "four-players.txt"), *FAST, "--format", "html", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_the_page_is_one_offline_file_under_a_megabyte(page, four):
    text = page.read_text(encoding="utf-8")
    assert page.stat().st_size < 1_000_000
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)|<link|@import|url\(", text)
    assert "<script src" not in text and "fetch(" not in text and "XMLHttpRequest" not in text
    data = re.search(r'<script type="application/json" id="analysis">(.*?)</script>', text, re.S).group(1)
    embedded = json.loads(data)["deals"][0]
    assert embedded == four                                             # the page embeds analyze's JSON


def test_same_input_and_seed_same_bytes(page, tmp_path):
    again = tmp_path / "again.html"
    run(str(DATA / "four-players.txt"), *FAST, "--format", "html", "--out", str(again))
    assert again.read_bytes() == page.read_bytes()


def test_a_partner_only_a_stand_in_layout_would_name_stays_unknown(tmp_path):
    record = tmp_path / "five.txt"
    record.write_text('[Players "5"]\n[Hand1 "JS 9S 4S QH CH 10H 7H 4H 3H 10D 8D 7D 10C 5C 4C"]\n[Chien "7 4 7C"]\n'
                      '[Auction "pass prise pass pass pass"]\n[Call "KC"]\n[Play]\n1: 3H 1 5 2H 1H\n3: 2S 2 CS 4S 1S\n',
                      encoding="utf-8")
    result = run(str(record), "--policy", "heuristic", "--deals", "10", "--seed", "1", "--quiet", "--format", "json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)["deals"][0]["table"]
    assert table["called"] == "KC" and table["partner"] is None and not table["partner_known"]
    assert all(t["points"] is None and t["oudlers"] is None for t in table["tricks"])   # no side count invented
    assert table["hands"][1:] == [None] * 4
