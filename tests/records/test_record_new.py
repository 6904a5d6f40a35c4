"""``tarot-analyzer record new``: a deal entered by scripted answers, checked as it is typed."""

import dataclasses
from pathlib import Path

from click.testing import CliRunner

from analyzer import cards as C
from analyzer.notation import format_cards
from analyzer.records import Record, load_records
from analyzer.records.entry import DealEntry
from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "records"
BRUNO = "18 15 14 4 3 KS QS JS 10S 6S 4S 3S 5D 3D KC CC JC 4C"
# players, variants, Event, Date, four seat names: all skipped
START = ["4", "", "", "", "", "", "", ""]


def new(answers, *args):
    return CliRunner().invoke(main, ["record", "new", *map(str, args)], input="".join(a + "\n" for a in answers))


def one_seat(tricks):
    """Bruno's answers (seat 2, the other hands unknown): the Garde of seat 1 and some tricks."""
    return START + ["2", BRUNO, "", "", "", "garde", "pass", "pass", "pass", "20 2 QD JD 8D 4D", "", "",
                    "1: 21 20 19 13 12 10 9 7 2 1", ""] + tricks


def full_deal():
    """``four-players.txt`` as typed: every answer, one card a line."""
    rec = load_records(DATA / "four-players.txt")[0]
    answers = ["4", "petit-au-bout=flat", "Club night, table 3", "2026.11.20", "Ana", "Bruno", "", "", "1"]
    answers += [format_cards(rec.hands[s]) for s in range(4)] + rec.auction
    answers += [format_cards(rec.chien), format_cards(rec.discard), "", "1: 21 20 19 13 12 10 9 7 2 1", ""]
    return rec, answers + [C.TOKENS[c] for t in rec.tricks for c in t]


def errors(output):
    return [line for line in output.splitlines() if line.startswith("error: ")]


def test_one_seat_record_is_checked_and_round_trips(tmp_path):
    r = new(one_seat(["KH 3 CH QH", "KS 9S CS 1", "1C 4C QC 7C", "1S", "end"]))
    assert r.exit_code == 0, r.output
    text = r.stdout
    assert '[Hand2 "' + BRUNO + '"]' in text and "[Hand1" not in text
    rec = Record.from_text(text).check()
    assert rec.known_seats == [1]
    assert rec.tricks[-1] == [C.suit_card(0, 1)]
    path = tmp_path / "bruno.txt"
    path.write_text(text)
    checked = CliRunner().invoke(main, ["record", "check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "stops: trick 4, after 1 card" in checked.output
    assert Record.from_text(rec.to_text()) == rec


def test_full_deal_entered_card_by_card_equals_the_original(tmp_path):
    original, answers = full_deal()
    out = tmp_path / "deal.txt"
    r = new(answers, "--out", out)
    assert r.exit_code == 0, r.output
    assert not errors(r.output) and r.stdout == ""
    (entered,) = load_records(out)
    entered.check()
    assert dataclasses.replace(entered, result=None) == dataclasses.replace(original, result=None)
    assert {k: entered.result[k] for k in original.result} == original.result
    checked = CliRunner().invoke(main, ["record", "check", str(out)])
    assert checked.exit_code == 0 and "made by 8; scores +258 -86 -86 -86" in checked.output


def test_refused_answers_name_the_rule_and_the_dialogue_goes_on():
    _, answers = full_deal()
    play = answers.index("KH")
    bids = answers.index("garde")
    typed = (answers[:bids + 1] + ["prise"] + answers[bids + 1:play]
             + ["KH", "3", "9S",              # seat 3 holds hearts
                "CH", "QH", "KS", "9S", "CS", "1", "1C", "4C", "QC", "7C", "1S", "6",
                "2",                            # seat 1 holds a trump above the 6
                "7", "3S", "5C", "JC", "9C", "3C",
                "KH",                           # played in trick 1
                "ZZ"]                           # not a card
             + answers[play + 20:])
    r = new(typed)
    assert r.exit_code == 0, r.output
    assert errors(r.output) == [
        "error: 'prise': seat 2 may not bid prise now: bids must rise",
        "error: '9S': trick 1, seat 3 played 9S but must follow in hearts",
        "error: '2': trick 4, seat 1 played 2 but must play a trump higher than 6",
        "error: 'KH': trick 6, seat 2 played KH but it was already played in trick 1",
        "error: unknown card token: 'ZZ' (cards: trumps 1…21, EX, suit cards as KS, 10H, CD: docs/notation.md)",
    ]
    assert Record.from_text(r.stdout).check().computed_result()["by"] == 8


def test_not_trumping_and_a_known_card_in_a_one_seat_record():
    # Bruno holds no heart: he must trump the King of hearts; seat 3 may not play a card Bruno holds
    r = new(one_seat(["KH", "KS", "3", "QS", "CH QH", "end"]))
    assert r.exit_code == 0, r.output
    assert errors(r.output) == ["error: 'KS': trick 1, seat 2 played KS but has no hearts and must trump",
                                "error: 'QS': trick 1, seat 3 played QS but it is in seat 2's hand"]
    assert Record.from_text(r.stdout).check().tricks == [[C.suit_card(1, C.KING), C.trump(3), C.suit_card(1, C.KNIGHT),
                                                          C.suit_card(1, C.QUEEN)]]


def test_undo_takes_back_a_card_and_an_answer():
    # three cards, then the end of the poignées, then the poignée itself
    r = new(one_seat(["KH 3 CH", "undo", "undo", "undo", "undo", "undo", "", "KH 3 CH QH", "end"]))
    assert r.exit_code == 0, r.output
    rec = Record.from_text(r.stdout).check()
    assert rec.poignees == [] and len(rec.tricks) == 1
    assert r.output.count("\nundone\n") == 5
    assert "undone\nPoignée shown" in r.output


def test_undo_before_anything_and_end_too_early():
    entry = DealEntry()
    assert entry.answer("undo").error == "'undo': nothing to undo"
    assert entry.answer("end").error.startswith("'end': a record needs")
    assert entry.answer("6").error == "'6': a deal has 3, 4 or 5 players"
    assert entry.answer("4").text.startswith("Variants")


def test_bad_tokens_in_the_questions_before_the_play():
    r = new(START + ["9", "2", "18 15", BRUNO, "", "", "", "gardez", "garde", "pass", "pass", "pass", "",
                     "5H", "maybe", "", "1 21", "", "end"])
    assert r.exit_code == 0, r.output
    assert [e.split(":")[1].strip() for e in errors(r.output)] == ["'9'", "'18 15'", "'gardez'", "'maybe'",
                                                                   "'1 21'"]


def test_the_end_of_the_input_writes_nothing(tmp_path):
    out = tmp_path / "deal.txt"
    out.write_text("kept\n")
    r = new(one_seat(["KH 3"]), "--out", out)
    assert r.exit_code == 1
    assert r.output.splitlines()[-1].startswith("Error: the input ended before the deal was entered: nothing written")
    assert "Traceback" not in r.output and out.read_text() == "kept\n"


def test_partial_keeps_a_deal_stopped_by_the_end_of_the_input():
    r = new(one_seat(["KH 3"]), "--partial")
    assert r.exit_code == 0, r.output
    assert Record.from_text(r.stdout).check().tricks == [[C.suit_card(1, C.KING), C.trump(3)]]


def test_out_into_a_missing_folder_fails_before_any_question(tmp_path):
    r = new(one_seat([]), "--out", tmp_path / "missing" / "deal.txt")
    assert r.exit_code == 1
    assert "Players" not in r.output
    assert r.output.startswith("Error: --out ") and "no such folder" in r.output


def test_a_thrown_in_deal_ends_after_the_auction():
    r = new(START + ["1", BRUNO, "", "", "", "pass", "pass", "pass", "pass"])
    assert r.exit_code == 0, r.output
    rec = Record.from_text(r.stdout).check()
    assert rec.auction == ["pass"] * 4 and rec.tricks is None


def test_five_players_the_call_is_asked_and_checked():
    own = "21 15 14 3 1 KS 10S 6S 5S 1S 6D 1D CC 2C 1C"
    r = new(["5", "", "", ""] + [""] * 5 + ["2", own, "", "", "", "", "pass", "prise", "pass", "pass", "pass",
                                             "QC", "KC", "7 4 7C", "", "", "", "3H 1 5 2H 1H", "end"])
    assert r.exit_code == 0, r.output
    assert errors(r.output) == ["error: 'QC': QC may not be called (call one of KS KH KD KC)"]
    rec = Record.from_text(r.stdout).check()
    assert rec.call == C.suit_card(3, C.KING) and len(rec.tricks) == 1
