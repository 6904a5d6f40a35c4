"""Card-play rules of docs/rules.md ("Play", "5 players: the called King"), on crafted positions."""

from __future__ import annotations


from analyzer import cards as C
from analyzer.notation import parse_mask
from analyzer.play import legal_cards, trick_winner


def T(text: str) -> list[int]:
    return [_id(t) for t in text.split()]


def _id(tok: str) -> int:
    m = parse_mask(tok)
    return m.bit_length() - 1


def test_follow_suit_no_obligation_to_beat():
    hand = parse_mask("2S KS 5H 10T")
    assert legal_cards(hand, T("QS")) == parse_mask("2S KS")


def test_follow_suit_with_excuse_in_hand():
    hand = parse_mask("2S EX 5H 10T")
    assert legal_cards(hand, T("QS")) == parse_mask("2S EX")


def test_cannot_follow_must_trump():
    hand = parse_mask("5H 3T 18T")
    assert legal_cards(hand, T("QS")) == parse_mask("3T 18T")


def test_must_overtrump_trump_in_trick():
    hand = parse_mask("5H 3T 18T 12T")
    assert legal_cards(hand, T("QS 10T")) == parse_mask("18T 12T")


def test_must_overtrump_even_partner_trump():
    # seat order irrelevant to legality: any trump in the trick must be beaten if possible
    hand = parse_mask("3T 18T")
    assert legal_cards(hand, T("2S 15T 4S")) == parse_mask("18T")


def test_undertrump_when_cannot_overtrump():
    hand = parse_mask("5H 3T 8T")
    assert legal_cards(hand, T("QS 10T")) == parse_mask("3T 8T")


def test_trump_led_must_go_higher():
    hand = parse_mask("2S 3T 18T 19T")
    assert legal_cards(hand, T("10T")) == parse_mask("18T 19T")


def test_trump_led_must_beat_highest_in_trick():
    hand = parse_mask("3T 14T 18T")
    assert legal_cards(hand, T("10T 16T")) == parse_mask("18T")


def test_trump_led_any_trump_if_cannot_beat():
    hand = parse_mask("2S 3T 8T")
    assert legal_cards(hand, T("10T")) == parse_mask("3T 8T")


def test_trump_led_no_trump_anything():
    hand = parse_mask("2S KH 4D")
    assert legal_cards(hand, T("10T")) == hand


def test_no_suit_no_trump_anything():
    hand = parse_mask("2H KD 4C")
    assert legal_cards(hand, T("QS 5T")) == hand


def test_excuse_always_playable_when_following():
    hand = parse_mask("EX 2S 5T")
    assert legal_cards(hand, T("KS")) == parse_mask("EX 2S")


def test_excuse_always_playable_when_trumping():
    hand = parse_mask("EX 5H 5T 20T")
    assert legal_cards(hand, T("KS 10T")) == parse_mask("EX 20T")


def test_excuse_always_playable_trump_led():
    hand = parse_mask("EX 5T")
    assert legal_cards(hand, T("10T")) == parse_mask("EX 5T")


def test_excuse_alone_in_hand():
    assert legal_cards(parse_mask("EX"), T("KS")) == parse_mask("EX")


def test_empty_trick_anything():
    hand = parse_mask("EX 2S 5T KH")
    assert legal_cards(hand, []) == hand


def test_excuse_led_next_card_any():
    hand = parse_mask("2S 5T KH")
    assert legal_cards(hand, T("EX")) == hand


def test_excuse_led_second_card_sets_suit():
    hand = parse_mask("2S 5T KH 3H")
    assert legal_cards(hand, T("EX 7H")) == parse_mask("KH 3H")


def test_excuse_led_second_card_trump_sets_trump():
    hand = parse_mask("2S 5T 12T KH")
    assert legal_cards(hand, T("EX 7T")) == parse_mask("12T")


def test_winner_highest_of_led_suit():
    assert trick_winner(T("5S KS QS 1S")) == 1


def test_winner_off_suit_higher_rank_does_not_win():
    assert trick_winner(T("5S KH 2S 4D")) == 0


def test_winner_highest_trump():
    assert trick_winner(T("KS 2T 20T 5T")) == 2


def test_winner_petit_beats_suit():
    assert trick_winner(T("KS QS 1T")) == 2


def test_winner_excuse_ignored():
    assert trick_winner(T("5S EX 7S")) == 2


def test_winner_excuse_led():
    assert trick_winner(T("EX 5H KH 2H")) == 2


def test_winner_excuse_never_wins_over_suit():
    assert trick_winner(T("2S EX")) == 0


def test_winner_face_order():
    assert trick_winner(T("JS CS 10S")) == 1
    assert trick_winner(T("CS QS")) == 1


def test_five_player_first_lead_called_suit_forbidden():
    called = _id("KH")
    forbidden = C.suit_mask(C.suit_of(called)) & ~(1 << called)
    hand = parse_mask("2H QH 5S 3T")
    assert legal_cards(hand, [], forbidden) == parse_mask("5S 3T")


def test_five_player_first_lead_called_card_itself_allowed():
    called = _id("KH")
    forbidden = C.suit_mask(C.suit_of(called)) & ~(1 << called)
    hand = parse_mask("2H KH 5S")
    assert legal_cards(hand, [], forbidden) == parse_mask("KH 5S")


def test_five_player_forbidden_only_on_lead():
    called = _id("KH")
    forbidden = C.suit_mask(C.suit_of(called)) & ~(1 << called)
    hand = parse_mask("2H QH 5S")
    assert legal_cards(hand, T("7H"), forbidden) == parse_mask("2H QH")
