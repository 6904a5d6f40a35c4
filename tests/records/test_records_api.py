"""Deal records: loading the shipped examples, the Python API (replayed game, positions, decisions),
the places a record determines, and writing records back."""

import copy
import random
from pathlib import Path

import pytest

from analyzer import cards as C
from analyzer.game import Game, Phase
from analyzer.knowledge import seat_view
from analyzer.notation import parse_mask
from analyzer.records import PHASES, Record, RecordError, load_records, parse_records
from analyzer.records.build import record_of_game
from analyzer.rules import Contract, Rules
from tests.support.randomplay import random_game

DATA = Path(__file__).resolve().parents[2] / "data" / "records"

HAND_WRITTEN = """
# typed from memory, in the style of the format's own example: lower case, aliases, commas
[Event "Club night"]
[Players "4"]
[Hand1 "21 19 13 12 10 9 7 1 RH 8H 6H 5H 1D 10C 8C 6C 5C 1C"]
[hand2 "18, 15, 14, 4, 3, ks, qs, js, 10s, 6s, 4s, 3s, 5d, 3d, kc, cc, jc, 4c"]
[Hand3 "17 5 EXC 9S 8S 7S 5S 2S 1S CH JH 3H 2H 1H 7D 6D DC 9C"]
[Chien "20 2 QD JD 8D 4D"]
[Auction "Garde pass pass pass"]
[Discard "5H QD JD 8D 4D 1D"]
[Poignee "1: 21 20 19 13 12 10 9 7 2 1"]
[Play]
KH 3 CH QH
2: KS 9S CS 1
"""


def test_every_shipped_record_loads_and_checks():
    loaded = {path.name: load_records(path) for path in sorted(DATA.glob("*.txt"))}
    assert set(loaded) == {"four-players.txt", "three-players.txt", "five-players.txt", "partial.txt",
                           "one-seat.txt", "four-players-midplay.txt"}
    for records in loaded.values():
        for rec in records:
            rec.check()
    assert [r.players for r in loaded["partial.txt"]] == [4, 5]
    assert loaded["one-seat.txt"][0].known_seats == [1]


def test_a_hand_written_record_loads():
    rec = parse_records(HAND_WRITTEN)[0].check()
    assert rec.tags == {"Event": "Club night"}
    assert rec.known_seats == [0, 1, 2, 3]                     # seat 4's hand: the rest of the deck
    assert str(C.TOKENS[rec.game.tricks[0].cards[0]]) == "KH"
    assert rec.game.phase is Phase.PLAY and rec.game.to_act == rec.game.leader == 0   # the Petit won trick 2


def test_the_complete_record_replays_to_its_result():
    rec = load_records(DATA / "four-players.txt")[0]
    game = rec.game
    assert game.phase is Phase.DONE
    assert game.result().seat_scores == [258, -86, -86, -86]
    assert rec.computed_result() == rec.result | {"contract": "garde"}
    assert rec.rules == Rules.from_options(4, ["petit-au-bout=flat"])


def test_hands_follow_from_the_play_and_the_chien():
    five = load_records(DATA / "five-players.txt")[0]
    assert five.hands == {}
    assert five.dealt[1] == parse_mask("21 15 14 3 1 KS 10S 6S 5S 1S 6D 1D CC 2C 1C")
    assert five.replay.discard == parse_mask("6D 1D CC")
    three = load_records(DATA / "three-players.txt")[0]
    assert three.dealt[2] == parse_mask("19 15 14 10 9 8 7 4 2 JS 8S 7S 6S JH 8H 7H 6H QD 10D 7D 5D 4D CC 8C")


def test_positions_after_each_action():
    rec = load_records(DATA / "four-players.txt")[0]
    assert rec.position(0).phase is Phase.BIDDING
    after_auction = rec.position(4)
    assert after_auction.phase is Phase.DISCARD and after_auction.taker == 0
    assert rec.position(5).phase is Phase.DECLARE                   # after the discard
    first_card = rec.position(10)                                     # chelem + 4 declarations
    assert first_card.phase is Phase.PLAY and not first_card.current
    assert rec.position(11).current == [(0, C.suit_card(1, C.KING))]
    assert rec.position(rec.replay.actions).phase is Phase.DONE
    with pytest.raises(RecordError, match="the record has 82 actions, not 83"):
        rec.position(83)


def test_decisions_in_order_with_what_the_seat_knew():
    rec = load_records(DATA / "four-players.txt")[0]
    decisions = list(rec.decisions())
    assert [d.phase for d in decisions[:4]] == ["bid"] * 4
    assert [d.action for d in decisions[:4]] == ["garde", "pass", "pass", "pass"]
    assert decisions[0].hand == rec.hands[0]
    discard = decisions[4]
    assert (discard.phase, discard.seat) == ("discard", 0)
    assert discard.hand == rec.hands[0] | rec.chien                  # the taker holds the chien when discarding
    assert decisions[5].phase == "chelem" and decisions[5].action == "none"
    poignees = [d for d in decisions if d.phase == "poignee"]
    assert [(d.seat, d.action) for d in poignees] == [(0, "21 20 19 13 12 10 9 7 2 1")]
    cards = [d for d in decisions if d.phase == "card"]
    assert len(cards) == 72 and {d.phase for d in decisions} <= set(PHASES)
    seventh = cards[7]
    game = rec.position(seventh.index)
    assert seventh.view == seat_view(game, seventh.seat) and seventh.hand == game.hands[seventh.seat]


def test_one_seat_record_is_analysed_from_that_seat_only():
    rec = load_records(DATA / "one-seat.txt")[0]
    with pytest.raises(RecordError, match=r"the hands of seats 1, 3, 4 are not known: .* from seats 2"):
        rec.game
    cards = [d for d in rec.decisions() if d.phase == "card"]
    mine = [d for d in cards if d.seat == 1]
    assert all(d.view is not None for d in mine) and all(d.view is None for d in cards if d.seat != 1)
    last = mine[-1].view
    assert last.hand == parse_mask("18 15 14 4 QS JS 10S 5D 3D KC")    # seat 2 before its card in trick 9
    assert last.sizes == (9, 10, 10, 10, 6)                          # seat 1 has led trick 9
    assert last.held[0] == parse_mask("20 19 13 10 2")             # the taker's poignée, not yet played
    assert last.with_taker_or_aside == parse_mask("20 2 QD JD 8D 4D")  # the chien, with the taker or discarded
    assert last.excluded[0] & C.suit_mask(0) == C.suit_mask(0)        # seat 1 trumped spades in trick 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_records_of_random_games_replay_to_the_same_game(players):
    rng = random.Random(players)
    for _ in range(30):
        game = random_game(rng, Rules(players=players))
        rec = parse_records(record_of_game(game).to_text())[0].check()
        assert rec.game.result().seat_scores == game.result().seat_scores
        assert [t.cards for t in rec.game.tricks] == [t.cards for t in game.tricks]


def test_partial_records_of_random_games_load():
    rng = random.Random(5)
    for players in (3, 4, 5):
        for _ in range(20):
            rec = record_of_game(random_game(rng, Rules(players=players)), result=False)
            if rec.tricks is None:
                continue
            seat = rng.randrange(players)
            cut = copy.deepcopy(rec)
            cut.hands = {seat: rec.hands[seat]}
            k = rng.randrange(len(cut.tricks))
            cut.tricks = cut.tricks[:k] + [cut.tricks[k][:rng.randrange(1, players + 1)]]
            cut.discard = None
            cut = parse_records(cut.to_text())[0].check()
            assert cut.known_seats == [seat] or len(cut.known_seats) == players
            assert sum(d.phase == "card" for d in cut.decisions()) == sum(map(len, cut.tricks))


def test_unrecorded_bids_and_call():
    rec = load_records(DATA / "five-players.txt")[0]
    text = rec.to_text().replace('[Auction "pass prise', '[Auction "? prise').replace('[Call "KC"]', '[Call "?"]')
    text = text.split("[Result")[0]
    unknown = parse_records(text)[0].check()
    assert unknown.auction[0] == "?" and unknown.call == -1
    assert unknown.computed_result() is None                          # the partner is unknown: no score
    assert Record.from_json(unknown.to_json()) == unknown


def test_several_records_per_file_and_blank_lines():
    four = (DATA / "four-players.txt").read_text(encoding="utf-8")
    records = parse_records(four + "\n\n" + four.replace("Ana", "Anna"))
    assert len(records) == 2 and records[1].tags["Seat1"] == "Anna"
    glued = parse_records(four + four)             # no blank line: a new tag after [Play] starts a record
    assert len(glued) == 2


def test_the_result_may_stand_before_the_play():
    four = (DATA / "four-players.txt").read_text(encoding="utf-8")
    result = four[four.index("[Result"):]
    moved = four.replace(result, "").replace("[Play]", result + "[Play]")
    assert parse_records(moved)[0].check() == load_records(DATA / "four-players.txt")[0]


def test_a_thrown_in_deal():
    rec = parse_records('[Players "3"]\n[Auction "pass pass pass"]\n')[0].check()
    # no hand given: a partial deal, counted as a whole one is (a thrown-in deal scores nothing)
    assert rec.computed_result() == {"outcome": "thrown-in", "scores": [0, 0, 0]}
    assert not rec.replay.complete
    game = random_game(random.Random(1), Rules(players=3))
    full = record_of_game(game)
    full.auction, full.call, full.discard, full.chelem, full.poignees, full.tricks, full.result = (
        ["pass"] * 3, None, None, None, [], None, None)
    full = parse_records(full.to_text())[0].check()
    assert full.computed_result() == {"outcome": "thrown-in", "scores": [0, 0, 0]}
    assert Contract.PRISE.token == "prise"
    assert isinstance(full.game, Game)


def test_a_partial_record_is_scored_as_the_whole_record_when_the_excuse_takes_the_last_trick():
    """One engine for whole and partial records: the taker (seat 1) announces a chelem, wins every
    trick and leads the Excuse last, which then wins the last trick (docs/rules.md, "Play") and puts
    the Petit au bout in the trick before.  The record of what seat 2 knows (its hand; the taker's
    hand, the chien and the discard unknown) is scored as the whole record is."""
    from tests.support.crafted import CL, EX, play_scripted, su, tr
    S, H, D = 0, 1, 2
    hands = [EX | 1 << C.PETIT | tr(6, 21), tr(2, 5) | su(S, 1, 10) | su(H, 1, 4),
             su(S, 11, 14) | su(H, 5, 14) | su(D, 1, 4), su(D, 5, 14) | su(CL, 1, 8)]
    rules = Rules()
    game = Game.partial(rules, hands, su(CL, 9, 14))
    for bid in (Contract.GARDE, None, None, None):
        game.bid(bid)
    game.make_discard(su(CL, 9, 13) | tr(6, 6))
    game.announce_chelem("chelem")
    while game.phase is Phase.DECLARE:
        game.declare()
    play_scripted(game, excuse_trick=-1)
    assert game.tricks[-1].cards[0] == C.EXCUSE and game.tricks[-1].winner == 0
    whole = parse_records(record_of_game(game).to_text())[0].check()
    assert whole.computed_result()["chelem"] == "announced-made"
    assert whole.computed_result()["petit-au-bout"] == "taker"

    seen = copy.deepcopy(whole)
    seen.hands, seen.chien, seen.discard = {1: hands[1]}, None, None
    partial = parse_records(seen.to_text())[0].check()          # the whole record's Result is checked too
    assert partial.known_seats != [0, 1, 2, 3] and not partial.replay.complete
    assert whole.complete_deal and not partial.complete_deal
    assert partial.replay.game.tricks[-1].winner == 0
    assert partial.computed_result() == whole.computed_result()
