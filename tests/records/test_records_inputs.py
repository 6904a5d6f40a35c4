"""Records read strictly and safely: seats 1…P only, every bad input one line naming its token (never a
traceback), a byte-order mark accepted, and bounded memory and time on huge inputs."""

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.records import RecordError, load_records, parse_any
from analyzer.records.text import MAX_RECORD_CHARS, MAX_TAG_CHARS
from cli.main import main
from tests.support.errorline import assert_one_error_line

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "records"
FOUR = (DATA / "four-players.txt").read_text(encoding="utf-8")
TAROTCLUB = json.loads((ROOT / "data" / "tarotclub-deal.json").read_text(encoding="utf-8"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(text: str, *words: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        for rec in parse_any(text, "r.txt"):
            rec.check()
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return info.value


# ---- 1. seats are 1…P ------------------------------------------------------------------------------
def _zero_based(text: str) -> str:
    for seat in range(1, 5):
        text = text.replace(f"[Hand{seat} ", f"[Hand{seat - 1} ")
    return text


def test_zero_based_hand_tags_are_an_error_naming_the_tag():
    error = one_line_error(_zero_based(FOUR), "'Hand0'", "no seat 0 at 4 players")
    assert error.line == 9


@pytest.mark.parametrize("tag", ["Hand0", "hand0", "Hand5", "Hand6", "Hand10", "Seat0", "Seat5", "seat9"])
def test_out_of_range_seat_tags_are_errors(tag):
    text = FOUR.replace('[Event "Club night, table 3"]', f'[{tag} "21 19"]')
    one_line_error(text, f"no seat {re.sub('[^0-9]', '', tag)} at 4 players")


def test_json_hands_with_a_key_0_are_an_error_naming_the_key():
    obj = load_records(DATA / "four-players.txt")[0].to_json()
    obj["hands"] = {str(int(k) - 1): v for k, v in obj["hands"].items()}
    one_line_error(json.dumps(obj), "hands.0")


@pytest.mark.parametrize("where, old, new", [
    ("leader", "1: KH 3 CH QH", "\uff11: KH 3 CH QH"),                     # full-width 1
    ("poignee", '[Poignee "1: ', '[Poignee "\uff11: '),
    ("result", "[Result \"taker 1;", "[Result \"taker \uff11;"),
    ("result", "made by 8", "made by \uff18"),
    ("result", "made by 8", "made by 0_8"),
])
def test_full_width_digits_are_not_seat_numbers(where, old, new):
    assert old in FOUR
    one_line_error(FOUR.replace(old, new))


def test_a_leader_of_thousands_of_digits_is_out_of_range():
    one_line_error(FOUR.replace("1: KH 3 CH QH", "9" * 5000 + ": KH 3 CH QH"), "no seat")


# ---- 2. numbers that overflow ------------------------------------------------------------------------
@pytest.mark.parametrize("points", ["1e400", "inf", "-inf", "nan", "Infinity"])
def test_result_points_that_are_not_finite_are_one_line(points):
    line = FOUR[:FOUR.index("[Result")].count("\n") + 1
    one_line_error(FOUR.replace("points 49", f"points {points}"), f"line {line}", f"points {points}")


@pytest.mark.parametrize("value", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_json_result_points_that_are_not_finite_are_one_line(value):
    obj = load_records(DATA / "four-players.txt")[0].to_json()
    text = json.dumps(obj).replace('"points": 49', f'"points": {value}')
    assert value in text
    one_line_error(text, "points")


@pytest.mark.parametrize("field, value", [("taker", '"1; points 3"'), ("scores", '"258 -86"'), ("made", "1"),
                                          ("taker", "true"), ("scores", "[1, 2, 3, true]")])
def test_json_result_fields_of_the_wrong_type_are_one_line(field, value):
    obj = load_records(DATA / "four-players.txt")[0].to_json()
    obj["result"][field] = json.loads(value)
    one_line_error(json.dumps(obj), repr(field))


@pytest.mark.parametrize("key, value", [("auction", '"garde pass pass pass"'), ("tricks", '[["KH 3", "CH", "QH"]]'),
                                        ("tricks", '[[]]'), ("tags", '{"Players": "5"}'), ("tags", '{"Hand1": "x"}'),
                                        ("tags", '{"Event": "two\\nlines"}'), ("poignees", '[{"seat": "1: 21"}]'),
                                        ("tricks", '[["1:", "KH"]]'), ("variants", '{"a": "b, c=d"}'),
                                        ("hands", '{"\uff11": "KH"}'), ("players", "[4]")])
def test_json_values_of_the_wrong_shape_are_one_line_naming_the_key(key, value):
    obj = load_records(DATA / "four-players.txt")[0].to_json()
    obj[key] = json.loads(value)
    error = one_line_error(json.dumps(obj), key)
    assert error.line is None                    # no line of a text the reader wrote for itself


def test_json_with_a_number_of_thousands_of_digits_or_deep_nesting_is_one_line():
    one_line_error('{"players": ' + "4" * 5000 + "}", "invalid JSON")
    one_line_error('[{"players": ' + "[" * 100_000 + "]" * 100_000 + "}]", "invalid JSON")


def test_tarotclub_tricks_null_is_read_as_no_trick(tmp_path):
    data = dict(TAROTCLUB, tricks=None)
    data["deal_info"] = dict(TAROTCLUB["deal_info"], attack_handle="")      # no trick shows it was held
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("record", "import", path, "--from", "tarotclub")
    assert result.exit_code == 0, result.output
    assert "[Play]" in result.output and "14-D" not in result.output


@pytest.mark.parametrize("tricks", ['"14-D;04-D"', "3", '[["14-D"]]', '[null]'])
def test_tarotclub_tricks_of_the_wrong_shape_are_one_line(tmp_path, tricks):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(dict(TAROTCLUB, tricks=json.loads(tricks))), encoding="utf-8")
    assert_one_error_line(run("record", "import", path, "--from", "tarotclub"), "trick")


# ---- 3. refused or accepted wrongly ------------------------------------------------------------------
def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + FOUR.encode("utf-8"))
    assert load_records(path) == load_records(DATA / "four-players.txt")
    result = run("record", "check", path)
    assert result.exit_code == 0 and "made by 8" in result.output, result.output
    as_json = tmp_path / "bom.json"
    as_json.write_bytes(b"\xef\xbb\xbf" + json.dumps(load_records(path)[0].to_json()).encode("utf-8"))
    assert load_records(as_json) == load_records(path)
    club = tmp_path / "club.json"
    club.write_bytes(b"\xef\xbb\xbf" + json.dumps(TAROTCLUB).encode("utf-8"))
    assert run("record", "import", club, "--from", "tarotclub").exit_code == 0


def test_files_joined_with_a_byte_order_mark_inside_are_read():
    joined = FOUR + "\n\ufeff" + (DATA / "three-players.txt").read_text(encoding="utf-8")
    assert len(parse_any(joined)) == 2


@pytest.mark.parametrize("content", ["", "\n\n", "# nothing but a comment\n", "\ufeff# a comment\n", "[]"])
def test_check_of_a_file_without_a_record_is_an_error(tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_text(content, encoding="utf-8")
    for args in (("check", path), ("convert", path, "--to", "json")):
        assert_one_error_line(run("record", *args), f"{path} holds no deal record")


def test_check_reports_the_records_before_an_empty_file(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing\n", encoding="utf-8")
    result = run("record", "check", DATA / "four-players.txt", path)
    assert result.exit_code == 1 and "made by 8" in result.stdout


@pytest.mark.parametrize("variants", ["", " ", ",,,", "petit-au-bout=flat,", ",petit-au-bout=flat",
                                      "petit-au-bout=flat,,misere=on"])
def test_empty_variants_are_errors(variants):
    text = FOUR.replace('[Variants "petit-au-bout=flat"]', f'[Variants "{variants}"]')
    one_line_error(text, "line 6", "Variants")


@pytest.mark.parametrize("slam", ['"yes"', '"no"', "1", "0", '"true"', "[]"])
def test_tarotclub_slam_must_be_true_or_false(tmp_path, slam):
    data = json.loads(json.dumps(TAROTCLUB))
    data["deal_info"]["slam"] = json.loads(slam)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_one_error_line(run("record", "import", path, "--from", "tarotclub"), "slam")


def test_tarotclub_full_width_digits_are_not_cards(tmp_path):
    data = json.loads(json.dumps(TAROTCLUB))
    data["tricks"][0] = data["tricks"][0].replace("14-D", "\uff11\uff14-D")
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_one_error_line(run("record", "import", path, "--from", "tarotclub"), "not a TarotClub card")


def test_an_annulled_deal_is_summarized_as_annulled(tmp_path):
    from analyzer import cards as C
    from analyzer.notation import format_cards, parse_mask
    petit_sec = parse_mask("1 KS QS JS CS 10S 9S 8S 7S KH QH JH CH 10H 9H 8H 7H 6H")
    rest = [c for c in range(C.N_CARDS) if not petit_sec >> c & 1]
    hands = [petit_sec] + [C.mask_of(rest[i * 18:(i + 1) * 18]) for i in range(3)]
    text = ('[Players "4"]\n' + "".join(f'[Hand{i + 1} "{format_cards(h)}"]\n' for i, h in enumerate(hands))
            + f'[Chien "{format_cards(C.mask_of(rest[54:]))}"]\n')
    path = tmp_path / "annulled.txt"
    path.write_text(text, encoding="utf-8")
    result = run("record", "check", path)
    assert result.exit_code == 0, result.output
    assert "annulled" in result.output and "no taker yet" not in result.output


# ---- 4. resources ------------------------------------------------------------------------------------
def test_a_huge_tag_value_is_one_line_error_naming_the_line():
    text = '[Players "4"]\n[Event "' + "x" * 5_000_000 + '"]\n'
    error = one_line_error(text, "line 2", f"{MAX_TAG_CHARS:,}")
    assert len(str(error)) < 300


def test_the_longest_tag_value_allowed_is_read():
    text = f'[Players "4"]\n[Event "{"x" * MAX_TAG_CHARS}"]\n'
    assert parse_any(text)[0].tags["Event"] == "x" * MAX_TAG_CHARS
    one_line_error(f'[Players "4"]\n[Event "{"x" * (MAX_TAG_CHARS + 1)}"]\n', "line 2", "Event")


def test_a_huge_record_is_one_line_error():
    lines = "".join(f'[Tag{i} "{"y" * 9_000}"]\n' for i in range(MAX_RECORD_CHARS // 9_000 + 2))
    one_line_error('[Players "4"]\n' + lines, "longer than", "starts on line 1")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import analyzer.records.jsonform as jsonform
    monkeypatch.setattr(jsonform, "MAX_FILE_BYTES", len(FOUR) - 1)
    path = tmp_path / "big.txt"
    path.write_text(FOUR, encoding="utf-8")
    with pytest.raises(RecordError, match="more than"):
        load_records(path)


def test_parsing_many_tags_takes_linear_time():
    def seconds(n):
        text = '[Players "4"]\n' + "".join(f'[Tag{i} "v"]\n' for i in range(n))
        start = time.perf_counter()
        assert len(parse_any(text)[0].tags) == n
        return time.perf_counter() - start

    seconds(1_000)
    assert seconds(20_000) < 2.0          # a quadratic parse takes many times longer


def test_a_long_token_is_cut_in_the_message():
    error = one_line_error(FOUR.replace("1: KH 3 CH QH", "1: " + "Z" * 5_000), "trick 1")
    assert len(str(error)) < 300


def test_an_inferred_hand_of_the_wrong_size_is_a_record_error_naming_the_record():
    five = (DATA / "five-players.txt").read_text(encoding="utf-8")
    assert "9H 10H 14 16 20\n" in five
    start = five[:five.index("[Players")].count("\n") + 1
    error = one_line_error(five.replace("9H 10H 14 16 20\n", "9H 10H 14 16 2\n"), "has 16 cards",
                           f"the record that starts on line {start}")
    assert error.line == start


# ---- the Bidding tag: the model that bid the auction ------------------------------------------------
def test_the_bidding_tag_names_a_model_any_case_and_is_written_back():
    from analyzer.baselines import METHODS
    from analyzer.records.record import BIDDING_MODELS
    assert BIDDING_MODELS == METHODS
    rec = parse_any(FOUR.replace('[Event "Club night, table 3"]', '[bidding " TarotClub "]'))[0]
    assert rec.bidding_model == "tarotclub" and rec.tags["Bidding"] == "tarotclub"
    assert '[Bidding "tarotclub"]' in rec.to_text()
    assert parse_any(json.dumps(rec.to_json()))[0].bidding_model == "tarotclub"
    assert parse_any(FOUR)[0].bidding_model is None                 # players at a table


def test_a_bidding_tag_that_names_no_model_is_an_error_naming_it():
    one_line_error(FOUR.replace('[Event "Club night, table 3"]', '[Bidding "my own count"]'),
                   "'my own count'", "chavey or tarotclub", "line 3")


@pytest.mark.kernels
def test_play_writes_the_model_its_seats_bid_by():
    for bidding in ("tarotclub", "chavey"):
        out = run("play", "--deals", 1, "--seed", 2, "--bidding", bidding, "--quiet")
        assert out.exit_code == 0, out.output
        assert parse_any(out.output)[0].bidding_model == bidding
