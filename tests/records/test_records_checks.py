"""Every check of a deal record is one error naming the line, the token and the rule broken."""

from pathlib import Path

import pytest

from analyzer.records import RecordError, parse_records

DATA = Path(__file__).resolve().parents[2] / "data" / "records"
FOUR = (DATA / "four-players.txt").read_text(encoding="utf-8")
FIVE = (DATA / "five-players.txt").read_text(encoding="utf-8")
PARTIAL = (DATA / "partial.txt").read_text(encoding="utf-8")
ONE_SEAT = (DATA / "one-seat.txt").read_text(encoding="utf-8")
POIGNEE = '[Poignee "1: 21 20 19 13 12 10 9 7 2 1"]'


def error_of(text: str) -> str:
    with pytest.raises(RecordError) as info:
        for rec in parse_records(text):
            rec.check()
    return str(info.value)


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


CASES = {
    # every card exists once; hand and chien sizes fit the player count
    "duplicate card in a hand": (FOUR, '[Hand1 "21 19', '[Hand1 "21 21',
                                 "line 9 '21': seat 1's hand: duplicate card: '21'"),
    "card in two hands": (FOUR, '[Hand2 "18 15 14 4 3 KS', '[Hand2 "18 15 14 4 3 KH',
                          "line 10 'KH': KH given for seat 2's hand is already in seat 1's hand"),
    "hand size": (FOUR, '[Hand1 "21 19 ', '[Hand1 "21 ',
                  "line 9 '21 13 12 10 9 7 1 KH 8H 6H 5H 1D 10C 8C 6C 5C 1C': seat 1's hand has 17 cards, "
                  "expected 18 at 4 players"),
    "chien size": (FOUR, '[Chien "20 2 ', '[Chien "20 ',
                   "line 13 '20 QD JD 8D 4D': the chien has 5 cards, expected 6 at 4 players"),
    "unknown card": (FOUR, "1: KH 3 CH QH", "1: KH 3 ZZ QH", "line 18 'ZZ': trick 1: unknown card token: 'ZZ'"),
    "card played twice": (FOUR, "1: 5C JC 9C 3C", "1: 1C JC 9C 3C",
                          "line 22 '1C': trick 5, seat 1 played 1C but it was already played in trick 3"),
    # the auction
    "bids must rise": (FOUR, "garde pass pass pass", "garde prise pass pass",
                       "line 14 'prise': seat 2 may not bid prise now: bids must rise"),
    "one round": (FOUR, "garde pass pass pass", "garde pass pass pass pass",
                  "line 14 'pass': the auction has 5 bids at 4 players (one round only)"),
    "unknown bid": (FOUR, "garde pass pass pass", "garde pass pas pass",
                    "line 14 'pas': unknown bid (expected one of: pass, prise, garde, garde-sans, garde-contre, "
                    "or ? for a bid not recorded)"),
    "bid not recorded that may be the highest": (FOUR, "garde pass pass pass", "garde pass ? pass",
                                                 "line 14 '?': a bid not recorded (?) that may be the highest "
                                                 "leaves the taker unknown"),
    "play after everybody passed": (FOUR, "garde pass pass pass", "pass pass pass pass",
                                    "line 14 'pass pass pass pass': everybody passed: the deal is thrown in and "
                                    "nothing follows"),
    "no auction": (FOUR, '[Auction "garde pass pass pass"]\n', "",
                   "line 5 'Players': the record has no Auction: the bids come before the rest of the deal"),
    # the discard
    "King discarded": (FOUR, '[Discard "5H QD', '[Discard "KH QD',
                       "line 15 'KH QD JD 8D 4D 1D': a King may not be discarded: KH"),
    "oudler discarded": (FOUR, '[Discard "5H QD', '[Discard "21 QD',
                         "line 15 '21 QD JD 8D 4D 1D': an oudler may not be discarded: 21"),
    "trump discarded": (FOUR, '[Discard "5H QD', '[Discard "13 QD',
                        "line 15 '13 QD JD 8D 4D 1D': trumps 13 may be discarded only when no other card can go "
                        "(8H 6H 5H 10C 8C 6C 5C 1C can)"),
    "discard not held": (FOUR, '[Discard "5H QD', '[Discard "KS QD',
                         "line 15 'KS QD JD 8D 4D 1D': cannot discard KS: not in the hand"),
    # declarations
    "poignee size": (FOUR, POIGNEE, '[Poignee "1: 21 20 19 13 12 10 9 7 2"]',
                     "line 16 '1: 21 20 19 13 12 10 9 7 2': a poignée shows exactly 10/13/15 cards, not 9"),
    "poignee not held": (FOUR, POIGNEE, '[Poignee "1: 21 20 19 13 12 10 9 7 2 18"]',
                         "line 16 '1: 21 20 19 18 13 12 10 9 7 2': a poignée shows only cards of one's own hand"),
    "misere not played": (FOUR, "[Play]", '[Misere "2: trumps"]\n[Play]',
                          "line 17 '2: trumps': misères are not played (variant misere=on)"),
    "chelem without a taker": (FOUR, "garde pass pass pass", "pass pass pass",
                               "line 14 'Auction': the auction has 3 bids: every seat speaks before the rest of "
                               "the deal"),
    # the play
    "must follow": (FOUR, "1: KH 3 CH QH", "1: KH 3 CH CS",
                    "line 18 'CS': trick 1, seat 4 played CS but must follow in hearts"),
    "must trump": (FOUR, "1: KH 3 CH QH", "1: KH 5D CH QH",
                   "line 18 '5D': trick 1, seat 2 played 5D but has no hearts and must trump"),
    "must overtrump": (FOUR, "3: 1S 6 7 3S", "3: 1S 6 2 3S",
                       "line 21 '2': trick 4, seat 1 played 2 but must play a trump higher than 6"),
    "card not held": (FOUR, "1: KH 3 CH QH", "1: KS 3 CH QH",
                      "line 18 'KS': trick 1, seat 1 played KS but does not hold it"),
    "wrong leader": (FOUR, "2: KS 9S CS 1", "3: KS 9S CS 1",
                     "line 19 '3:': trick 2 is led by seat 2, not seat 3 (seat 2 won trick 1)"),
    "too many cards in a trick": (FOUR, "1: KH 3 CH QH", "1: KH 3 CH QH 4H",
                                  "line 18 '4H': trick 1 has 5 cards at 4 players"),
    "unfinished trick before the last": (FOUR, "1: 5C JC 9C 3C", "1: 5C JC 9C",
                                         "line 22 '9C': trick 5 has 3 cards: only the last trick may be unfinished"),
    "too many tricks": (FOUR, "1: 8C QS 7D CD", "1: 8C QS 7D CD\n1: 2H",
                        "line 36 '2H': a deal has 18 tricks at 4 players"),
    "called suit led in the first trick": (FIVE, '[Call "KC"]', '[Call "KH"]',
                                           "line 9 '3H': trick 1, seat 1 played 3H but may not lead the called "
                                           "suit (hearts) in the first trick unless with the called card KH"),
    "call not allowed": (FIVE, '[Call "KC"]', '[Call "QC"]',
                         "line 6 'QC': QC may not be called (call one of KS KH KD KC)"),
    "call missing": (FIVE, '[Call "KC"]\n', "",
                     "line 5 'Auction': at 5 players the taker calls a card (a Call tag) before the rest of the deal"),
    # the result, field by field
    "result disagrees": (FOUR, "made by 8; points 49; oudlers 2", "made by 7; points 49; oudlers 3",
                         "line 36 'Result': the Result disagrees with the play: written 'made by 7', computed "
                         "'made by 8'; written 'oudlers 3', computed 'oudlers 2'"),
    "result scores": (FOUR, "+258 -86 -86 -86", "+258 -86 -80 -86",
                      "line 36 'Result': the Result disagrees with the play: written 'scores +258 -86 -80 -86', "
                      "computed 'scores +258 -86 -86 -86'"),
    "result of an unfinished deal": (PARTIAL, "1: 6C CC\n", '1: 6C CC\n[Result "taker 1"]\n',
                                     "line 21 'Result': a Result is given but the record does not reach the end "
                                     "of the deal"),
    "unreadable result": (FOUR, "oudlers 2;", "oudlers two;",
                          "line 36 'oudlers two': unreadable Result field (expected e.g. 'taker 2; made by 4; "
                          "points 45; oudlers 2; scores' with 4 scores)"),
    # the form
    "no Players tag": (FOUR, '[Players "4"]\n', "", "line 3: the record has no Players tag (3, 4 or 5)"),
    "unknown variant value": (FOUR, "petit-au-bout=flat", "petit-au-bout=never",
                              "line 6 'petit-au-bout=never': Variants: variant petit-au-bout=never: unknown value "
                              "(expected multiplied or flat)"),
    "not a tag": (FOUR, '[Date "2026.11.20"]', "Date 2026", "line 4 'Date 2026': expected a tag pair "
                                                          '[Name "value"] or [Play]'),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_check_gives_its_exact_error(name):
    text, old, new, expected = CASES[name]
    assert error_of(edit(text, old, new)) == expected


def test_a_misere_must_fit_the_hand():
    text = edit(edit(FOUR, "petit-au-bout=flat", "petit-au-bout=flat, misere=on"), "[Play]",
                '[Misere "2: trumps"]\n[Play]')
    assert error_of(text) == "line 17 '2: trumps': seat 2 cannot declare a trumps misère with this hand"


def test_the_excuse_is_shown_only_as_the_last_trump():
    # seat 1 gets the Excuse for the 1C of seat 3: ten trumps and the Excuse, the Excuse shown with a trump kept
    text = edit(edit(FOUR, "5C 1C\"]", "5C EX\"]"), "17 5 EX 9S", "17 5 1C 9S")
    text = edit(text, POIGNEE, '[Poignee "1: 21 20 19 13 12 10 9 7 2 EX"]')
    assert error_of(text) == ("line 16 '1: 21 20 19 13 12 10 9 7 2 EX': the Excuse may be shown only when no "
                              "other trump is left to show")


def test_a_missing_discard_is_named():
    text = edit(FOUR, '[Discard "5H QD JD 8D 4D 1D"]\n', "")
    text = edit(text, "1: 8C QS 7D CD\n", "")         # incomplete play: the discard does not follow from it
    assert error_of(text.replace("[Result", "#")) == (
        "line 14 'Auction': garde: the taker's discard (a Discard tag) is needed to replay the rest")


ONE_SEAT_CASES = {
    "a card of the known hand": ("1: KH 3 CH QH", "1: KH 3 KS QH",
                                 "line 12 'KS': trick 1, seat 3 played KS but it is in seat 2's hand"),
    "a card of the chien (Garde: the taker's)": ("1: KH 3 CH QH", "1: KH 3 QD QH",
                                                 "line 12 'QD': trick 1, seat 3 played QD but it is in the chien"),
    "a suit the seat showed it lacks": ("1: 21 4 17 16", "1: 21 4 17 16\n1: 8S",
                                        "line 21 '8S': trick 10, seat 1 played 8S but showed it had no spades in "
                                        "trick 2"),
    "a card of a shown poignée": ("1: KH 3 CH QH", "1: KH 3 CH 13",
                                  "line 12 '13': trick 1, seat 4 played 13 but seat 1 showed it in a poignée"),
    "the known seat's own rules": ("1: KH 3 CH QH", "1: KH KC CH QH",
                                   "line 12 'KC': trick 1, seat 2 played KC but has no hearts and must trump"),
}


@pytest.mark.parametrize("name", list(ONE_SEAT_CASES))
def test_one_seat_record_checks_what_is_known(name):
    old, new, expected = ONE_SEAT_CASES[name]
    assert error_of(edit(ONE_SEAT, old, new)) == expected
