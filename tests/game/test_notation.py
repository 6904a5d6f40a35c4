"""Card notation and the card table, checked against docs/notation.md and docs/rules.md ("Cards and points", "Deal").

Every accepted token form and alias, the printed order, parse/format round trips, and the typed errors
(each a subclass of TarotError / ValueError naming the bad token).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer import cards as C
from analyzer.errors import (CardPlacedElsewhereError, DuplicateCardError, InvalidNotationError, RulesError,
                             TarotError, WrongCardCountError)
from analyzer.hand import Deal, Hand
from analyzer.notation import format_cards, parse_card, parse_cards

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_LETTERS = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS}
SUIT_SYMBOLS = {"♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS}
RANK_TOKENS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": C.JACK, "C": C.KNIGHT, "Q": C.QUEEN, "K": C.KING}
RANK_ALIASES = {"R": C.KING, "D": C.QUEEN, "N": C.KNIGHT, "V": C.JACK}


# --- the card table -------------------------------------------------------------------------------

def test_card_ids_are_the_documented_layout():
    assert C.N_CARDS == 78
    assert C.suit_card(SPADES, 1) == 0
    assert C.suit_card(CLUBS, C.KING) == 55
    assert C.trump(1) == 56 == C.PETIT
    assert C.trump(21) == 76 == C.TWENTY_ONE
    assert C.EXCUSE == 77
    assert len(set(C.TOKENS)) == 78
    assert C.ALL_CARDS == (1 << 78) - 1


def test_deck_total_is_182_half_points():
    assert sum(C.HALF_POINTS) == 182 == C.DECK_HALF_POINTS
    assert C.mask_half_points(C.ALL_CARDS) == 182


def test_three_oudlers():
    assert sorted(C.OUDLERS) == [C.PETIT, C.TWENTY_ONE, C.EXCUSE]
    assert [c for c in range(78) if C.is_oudler(c)] == [C.PETIT, C.TWENTY_ONE, C.EXCUSE]
    assert C.mask_oudlers(C.ALL_CARDS) == 3


@pytest.mark.parametrize("card,half", [
    (C.PETIT, 9), (C.TWENTY_ONE, 9), (C.EXCUSE, 9),                 # oudlers 4.5
    (C.suit_card(SPADES, C.KING), 9), (C.suit_card(CLUBS, C.KING), 9),  # Kings 4.5
    (C.suit_card(HEARTS, C.QUEEN), 7),                                # Queens 3.5
    (C.suit_card(DIAMONDS, C.KNIGHT), 5),                             # Knights 2.5
    (C.suit_card(CLUBS, C.JACK), 3),                                  # Jacks 1.5
    (C.suit_card(SPADES, 10), 1), (C.suit_card(HEARTS, 1), 1),       # pips 0.5
    (C.trump(2), 1), (C.trump(20), 1), (C.trump(11), 1),             # trumps 2-20: 0.5
])
def test_card_values(card, half):
    assert C.HALF_POINTS[card] == half
    assert C.Card(card).half_points == half


def test_value_counts_over_the_deck():
    counts = {}
    for c in range(78):
        counts[C.HALF_POINTS[c]] = counts.get(C.HALF_POINTS[c], 0) + 1
    # 3 oudlers + 4 Kings at 4.5; 4 Queens; 4 Knights; 4 Jacks; 40 pips + 19 trumps at 0.5
    assert counts == {9: 7, 7: 4, 5: 4, 3: 4, 1: 59}


def test_every_trump_value_between_2_and_20_is_half_a_point():
    assert [C.HALF_POINTS[C.trump(n)] for n in range(2, 21)] == [1] * 19


# --- every token form -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 22))
def test_trump_tokens(n):
    card = C.trump(n)
    assert parse_card(str(n)) == card
    assert parse_card(f"T{n}") == card
    assert parse_card(f"{n}T") == card
    assert parse_card(f"t{n}") == card
    assert parse_card(f"{n}t") == card


@pytest.mark.parametrize("token", ["EX", "E", "X", "*", "0", "EXC", "EXCUSE",
                                   "ex", "e", "x", "exc", "excuse", "Excuse", "eXcUsE"])
def test_excuse_tokens(token):
    assert parse_card(token) == C.EXCUSE


@pytest.mark.parametrize("rank", list(RANK_TOKENS) + list(RANK_ALIASES))
@pytest.mark.parametrize("suit", list(SUIT_LETTERS) + list(SUIT_SYMBOLS))
def test_suit_card_tokens_and_french_rank_aliases(rank, suit):
    suit_index = SUIT_LETTERS.get(suit, SUIT_SYMBOLS.get(suit))
    card = C.suit_card(suit_index, (RANK_TOKENS | RANK_ALIASES)[rank])
    assert parse_card(rank + suit) == card
    assert parse_card((rank + suit).lower()) == card


def test_rank_first_suit_last_ambiguities():
    assert parse_card("CC") == C.suit_card(CLUBS, C.KNIGHT)     # knight of clubs
    assert parse_card("DD") == C.suit_card(DIAMONDS, C.QUEEN)   # queen of diamonds (D = dame)
    assert parse_card("CD") == C.suit_card(DIAMONDS, C.KNIGHT)
    assert parse_card("DC") == C.suit_card(CLUBS, C.QUEEN)
    assert parse_card("DS") == C.suit_card(SPADES, C.QUEEN)
    assert parse_card("CH") == C.suit_card(HEARTS, C.KNIGHT)
    assert parse_card("1H") == C.suit_card(HEARTS, 1)           # not trump 1
    assert parse_card("1") == C.PETIT
    assert parse_card("10S") == C.suit_card(SPADES, 10)
    assert parse_card("10") == C.trump(10)


def test_separators_commas_and_spaces():
    expected = [C.trump(21), C.EXCUSE, C.suit_card(SPADES, C.KING), C.suit_card(HEARTS, 10)]
    for text in ["21 EX KS 10H", "21,EX,KS,10H", "21, EX, KS, 10H", "  21 ,, EX\tKS\n10H , ",
                 "21 ,EX , KS,10H"]:
        assert parse_cards(text) == expected, text


def test_case_insensitive_hand():
    assert Hand.parse("ks qh cd jc 10s excuse t7 21") == Hand.parse("KS QH CD JC 10S EXCUSE T7 21")


# --- printed form ---------------------------------------------------------------------------------

NOTATION_EXAMPLE = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C"


def test_printed_order_example_of_notation_md():
    hand = Hand.parse(NOTATION_EXAMPLE)
    assert str(hand) == NOTATION_EXAMPLE
    assert len(hand) == 18


def test_printed_order_from_shuffled_aliases():
    shuffled = "4♣, 2d, T1, x, 7s, 9D, 12T, RS, dS, 3♥, 5, 19, Rc, RH, 8, nd, 15t, 21"
    assert format_cards(parse_cards(shuffled)) == NOTATION_EXAMPLE


def test_format_of_a_mask_and_of_a_list_agree():
    ids = parse_cards(NOTATION_EXAMPLE)
    assert format_cards(C.mask_of(ids)) == NOTATION_EXAMPLE
    assert format_cards(list(reversed(ids))) == NOTATION_EXAMPLE


def test_full_deck_printed_order():
    text = format_cards(C.ALL_CARDS).split()
    assert text[:22] == [str(n) for n in range(21, 0, -1)] + ["EX"]
    suit_order = ["K", "Q", "C", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    assert text[22:] == [r + s for s in "SHDC" for r in suit_order]


def test_card_str_and_hand_repr():
    assert str(C.Card(C.suit_card(HEARTS, 10))) == "10H"
    assert str(C.Card(C.EXCUSE)) == "EX"
    hand = Hand.parse("KS 1 EX")
    assert eval(repr(hand), {"Hand": Hand}) == hand


# --- round trips ----------------------------------------------------------------------------------

@given(st.sets(st.integers(0, 77)))
def test_round_trip_over_random_subsets(ids):
    hand = Hand.of(ids)
    assert Hand.parse(str(hand)) == hand
    assert set(parse_cards(format_cards(ids))) == ids
    assert format_cards(C.mask_of(parse_cards(format_cards(ids)))) == format_cards(ids)


@given(st.integers(0, 77))
def test_every_card_token_round_trips(card):
    assert parse_card(C.TOKENS[card]) == card
    assert parse_card(C.TOKENS[card].lower()) == card


# --- errors ---------------------------------------------------------------------------------------

@given(st.text(max_size=40))
def test_garbage_raises_only_typed_errors(text):
    try:
        hand = Hand.parse(text)
    except TarotError as exc:
        assert isinstance(exc, ValueError)
        assert str(exc)
    else:
        assert Hand.parse(str(hand)) == hand


@given(st.text(alphabet="0123456789TEXCDSHJQKRNV*♠♥♦♣,. -tx", max_size=30))
def test_near_miss_garbage_raises_only_typed_errors(text):
    try:
        hand = Hand.parse(text, players=4)
    except (InvalidNotationError, DuplicateCardError, WrongCardCountError):
        pass
    else:
        assert len(hand) == 18


@pytest.mark.parametrize("token", ["22", "T22", "22T", "00", "T0", "ZZ", "KZ", "11S", "0S", "KSS", "EXCU", "♠",
                                   "S", "K", "TT", "T", "1.5", "-1", "K-S"])
def test_unknown_tokens_are_invalid_and_named(token):
    with pytest.raises(InvalidNotationError) as info:
        parse_card(token)
    assert info.value.token == token
    assert repr(token) in str(info.value)
    assert isinstance(info.value, TarotError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("token", ["\u0661", "\u0662\u0661", "\uff12\uff11", "T\u0661", "K\u017f"])
def test_non_ascii_look_alikes_are_unknown_tokens(token):
    # docs/notation.md: digits and letters are ASCII (plus the four suit symbols): Arabic-Indic or full-width digits
    # and the long s (which upper-cases to "S") are not card tokens.
    with pytest.raises(InvalidNotationError) as info:
        parse_card(token)
    assert info.value.token == token


def test_unknown_token_in_a_hand_is_named():
    with pytest.raises(InvalidNotationError) as info:
        Hand.parse("21 EX KS ZQ 10H")
    assert info.value.token == "ZQ"
    assert "'ZQ'" in str(info.value)


@pytest.mark.parametrize("text,dup", [("KS 21 RS", "RS"), ("EX 1 *", "*"), ("7 T7", "T7"), ("cc 1h CC", "CC"),
                                      ("dd, q♦", "q♦")])
def test_duplicate_card_names_the_token(text, dup):
    with pytest.raises(DuplicateCardError) as info:
        Hand.parse(text)
    assert info.value.token == dup
    assert repr(dup) in str(info.value)
    assert isinstance(info.value, TarotError) and isinstance(info.value, ValueError)


def test_wrong_card_count_at_4_players():
    seventeen = " ".join(NOTATION_EXAMPLE.split()[:17])
    with pytest.raises(WrongCardCountError) as info:
        Hand.parse(seventeen, players=4)
    assert (info.value.got, info.value.expected) == (17, 18)
    assert "17" in str(info.value) and "18" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert len(Hand.parse(NOTATION_EXAMPLE, players=4)) == 18


@pytest.mark.parametrize("players,size", [(3, 24), (4, 18), (5, 15)])
def test_hand_size_per_player_count(players, size):
    ids = list(range(size))
    assert len(Hand.parse(format_cards(ids), players=players)) == size
    with pytest.raises(WrongCardCountError):
        Hand.parse(format_cards(ids[:-1]), players=players)
    with pytest.raises(WrongCardCountError):
        Hand.parse(format_cards(list(range(size + 1))), players=players)


@pytest.mark.parametrize("players", [2, 6])
def test_hand_size_for_an_unsupported_player_count_is_a_rules_error(players):
    with pytest.raises(RulesError) as info:
        Hand.parse(format_cards(list(range(18))), players=players)
    assert str(players) in str(info.value)


def _deal_4p():
    hands = tuple(Hand.of(range(18 * s, 18 * s + 18)) for s in range(4))
    return hands, Hand.of(range(72, 78))


def test_valid_deal_builds():
    hands, chien = _deal_4p()
    deal = Deal(hands, chien)
    assert deal.players == 4
    assert sorted(deal.places()) == sorted([0] * 18 + [1] * 18 + [2] * 18 + [3] * 18 + [4] * 6)


def test_card_in_two_seats_names_the_card():
    hands, chien = _deal_4p()
    ks = C.suit_card(SPADES, C.KING)           # card 13: in seat 1
    assert ks in hands[0]
    # seat 3 gets the King of spades instead of its own first card (so every size stays right)
    seat3 = Hand((hands[2].mask & ~(1 << 36)) | 1 << ks)
    with pytest.raises(CardPlacedElsewhereError) as info:
        Deal((hands[0], hands[1], seat3, hands[3]), chien)
    assert info.value.token == "KS"
    assert "'KS'" in str(info.value)
    assert isinstance(info.value, TarotError) and isinstance(info.value, ValueError)


def test_card_in_a_seat_and_the_chien_names_the_card():
    hands, chien = _deal_4p()
    chien2 = Hand((chien.mask & ~(1 << 72)) | 1 << C.PETIT)   # the Petit is also in seat 4 (ids 54-71)
    assert C.PETIT in hands[3]
    with pytest.raises(CardPlacedElsewhereError) as info:
        Deal(hands, chien2)
    assert info.value.token == "1"
    assert "'1'" in str(info.value)


# --- petit sec ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,petit_sec", [
    ("1 KS QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H", True),    # only trump the Petit, no Excuse
    ("1 EX QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H", False),   # with the Excuse: not sec
    ("1 2 QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H", False),    # another trump
    ("21 KS QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H", False),  # one trump, not the Petit
    ("EX KS QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H", False),  # only the Excuse
    ("KS QS CS JS 10S 9S 8S 7S KH QH CH JH 10H 9H 8H 7H 6H 5H", False),  # no trump at all
])
def test_petit_sec_detection(text, petit_sec):
    hand = Hand.parse(text, players=4)
    assert hand.is_petit_sec is petit_sec


def test_petit_sec_seat_in_a_deal():
    hands, chien = _deal_4p()
    # seat 4 (ids 54-71) holds trumps 1-16; make seat 2 hold the Petit alone instead
    assert Deal(hands, chien).petit_sec_seat() is None
    seat2 = Hand((hands[1].mask & ~(1 << 18)) | 1 << C.PETIT)
    seat4 = Hand((hands[3].mask & ~(1 << C.PETIT)) | 1 << 18)
    deal = Deal((hands[0], seat2, hands[2], seat4), chien)
    assert deal.petit_sec_seat() == 1


# --- forgiving input ------------------------------------------------------------------------------

@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f"])
@pytest.mark.parametrize("symbol,suit", list(SUIT_SYMBOLS.items())
                         + [("♤", SPADES), ("♡", HEARTS), ("♢", DIAMONDS), ("♧", CLUBS)])
def test_suit_symbol_with_a_variation_selector(symbol, suit, selector):
    # as copied from web pages: "K♠️" is K, the spade and U+FE0F (emoji presentation)
    assert parse_card("K" + symbol + selector) == C.suit_card(suit, C.KING)
    assert parse_card("10" + symbol + selector) == C.suit_card(suit, 10)


def test_hand_copied_with_variation_selectors():
    text = ("21 19 15 12 8 5 1 EX K\u2660\ufe0f Q\u2660\ufe0f 7\u2660\ufe0e K\u2665\ufe0f 3\u2665 C\u2666\ufe0f "
            "9\u2666 2D K\u2663\ufe0f 4C")
    assert str(Hand.parse(text, players=4)) == NOTATION_EXAMPLE


def test_a_lone_variation_selector_is_no_card():
    with pytest.raises(InvalidNotationError):
        parse_card("\ufe0f")
    with pytest.raises(InvalidNotationError):
        parse_card("\u2660\ufe0f")


def test_a_huge_bad_token_is_cut_in_the_message():
    token = "KS" * 5000                                  # a hand pasted without spaces
    with pytest.raises(InvalidNotationError) as info:
        Hand.parse(token)
    assert info.value.token == token                     # the whole token stays on the error
    message = str(info.value)
    assert len(message) < 60
    assert message == f"unknown card token: {token[:20]!r}…"


def test_a_short_bad_token_is_shown_whole():
    assert str(InvalidNotationError("K" * 20)) == f"unknown card token: {'K' * 20!r}"


@pytest.mark.parametrize("players,size,hint", [
    (4, 15, "is this a 5-player hand? use --players 5"),
    (4, 24, "is this a 3-player hand? use --players 3"),
    (5, 18, "is this a 4-player hand? use --players 4"),
    (3, 18, "is this a 4-player hand? use --players 4"),
])
def test_a_hand_of_another_player_count_says_so(players, size, hint):
    with pytest.raises(WrongCardCountError) as info:
        Hand.parse(format_cards(list(range(size))), players=players)
    assert str(info.value).endswith(hint)


def test_a_hand_of_no_player_count_gives_no_hint():
    with pytest.raises(WrongCardCountError) as info:
        Hand.parse(format_cards(list(range(17))), players=4)
    assert str(info.value) == "hand has 17 cards, expected 18 at 4 players"


def test_a_chien_of_another_player_count_says_so():
    with pytest.raises(WrongCardCountError) as info:
        Hand.of(range(3)).check_size(6, 4, "the chien")
    assert str(info.value).endswith("is this a 5-player chien? use --players 5")
    with pytest.raises(WrongCardCountError) as info:
        Hand.of(range(6)).check_size(3, 5, "the chien")
    assert str(info.value).endswith("is this a 3- or 4-player chien? use --players 3 or 4")


def test_huge_contract_and_variant_names_are_cut_too():
    from analyzer.rules import Contract, Rules
    for call in (lambda: Contract.parse("garde" * 1000), lambda: Rules.from_options(4, ["x" * 5000 + "=1"]),
                 lambda: Rules.from_options(4, ["y" * 5000])):
        with pytest.raises(RulesError) as info:
            call()
        assert len(str(info.value)) < 200 and "…" in str(info.value)
