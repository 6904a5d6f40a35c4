"""Notation (NOTATION.md): every token form, the printed order, round trips, and typed errors only."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import cards as C
from analyzer.errors import (CardPlacedElsewhereError, DuplicateCardError, InvalidNotationError, TarotError,
                             WrongCardCountError)
from analyzer.hand import Deal, Hand
from analyzer.notation import format_cards, parse_card, parse_cards


@pytest.mark.parametrize("token,card", [
    ("1", C.trump(1)), ("21", C.trump(21)), ("T7", C.trump(7)), ("7T", C.trump(7)), ("t12", C.trump(12)),
    ("EX", C.EXCUSE), ("E", C.EXCUSE), ("X", C.EXCUSE), ("*", C.EXCUSE), ("0", C.EXCUSE), ("exc", C.EXCUSE),
    ("Excuse", C.EXCUSE),
    ("KS", C.suit_card(0, C.KING)), ("RS", C.suit_card(0, C.KING)), ("QH", C.suit_card(1, C.QUEEN)),
    ("DH", C.suit_card(1, C.QUEEN)), ("CD", C.suit_card(2, C.KNIGHT)), ("ND", C.suit_card(2, C.KNIGHT)),
    ("JC", C.suit_card(3, C.JACK)), ("VC", C.suit_card(3, C.JACK)), ("10S", C.suit_card(0, 10)),
    ("1H", C.suit_card(1, 1)), ("CC", C.suit_card(3, C.KNIGHT)), ("DD", C.suit_card(2, C.QUEEN)),
    ("K♠", C.suit_card(0, C.KING)), ("7♥", C.suit_card(1, 7)), ("Q♦", C.suit_card(2, C.QUEEN)),
    ("2♣", C.suit_card(3, 2)), ("ks", C.suit_card(0, C.KING)),
])
def test_every_token_form(token, card):
    assert parse_card(token) == card


def test_printed_order_of_notation_md():
    text = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C"
    shuffled = "4C, kc 2d,9D cd 3h KH 7s qs ks ex 1 5 8 12 15 19 21"
    assert format_cards(parse_cards(shuffled)) == text
    assert str(Hand.parse(text)) == text


@given(st.sets(st.integers(0, 77)))
def test_round_trip(cards):
    hand = Hand.of(cards)
    assert Hand.parse(str(hand)) == hand


@settings(max_examples=300)
@given(st.text())
def test_garbage_raises_only_typed_errors(text):
    try:
        parse_cards(text)
    except TarotError:
        pass


def test_errors_name_the_bad_token():
    with pytest.raises(InvalidNotationError, match="'ZZ'"):
        parse_cards("21 ZZ")
    with pytest.raises(InvalidNotationError, match="'22'"):
        parse_cards("22")
    with pytest.raises(DuplicateCardError, match="'KS'"):
        parse_cards("KS 21 KS")
    with pytest.raises(WrongCardCountError, match="17 cards, expected 18"):
        Hand.parse(" ".join(C.TOKENS[c] for c in range(17)), players=4)
    hands = [Hand.of(range(i * 18, i * 18 + 18)) for i in range(4)]
    with pytest.raises(CardPlacedElsewhereError, match="'1S'"):
        Deal((hands[0], hands[1], hands[2], Hand.of(range(0, 18))), Hand.of(range(72, 78)))
    assert issubclass(TarotError, ValueError)


def test_card_table():
    assert C.N_CARDS == 78 and sum(C.HALF_POINTS) == 182
    assert sorted(C.HALF_POINTS[c] for c in C.OUDLERS) == [9, 9, 9]
    values = {C.KING: 9, C.QUEEN: 7, C.KNIGHT: 5, C.JACK: 3, 10: 1, 1: 1}
    for rank, hp in values.items():
        assert all(C.HALF_POINTS[C.suit_card(s, rank)] == hp for s in range(4))
    assert C.HALF_POINTS[C.trump(10)] == 1
    assert Hand.parse("1 KS QS").is_petit_sec and not Hand.parse("1 EX KS").is_petit_sec
    assert not Hand.parse("1 2 KS").is_petit_sec
