"""The heuristic policy, component by component, on crafted positions where the right card is clear."""

from __future__ import annotations

import numpy as np

from analyzer import cards as C
from analyzer.notation import parse_card, parse_mask
from analyzer.play import led_suit, legal_cards, trick_winner
from kernels.heuristic import heuristic_card


def decide(hand: str, trick: list[tuple[int, str]] = (), *, players: int = 4, seat: int = 0, taker: int = 0,
           allies: tuple[int, ...] | None = None, played: str = "", aside: str = "",
           excluded: dict[int, str] | None = None, tricks_left: int = 10, side_won_all: bool = False) -> str:
    """Token of the card the policy plays for ``seat`` holding ``hand`` on ``trick``."""
    hand_m = parse_mask(hand)
    trick_cards = [parse_card(c) for _, c in trick]
    legal = legal_cards(hand_m, trick_cards)
    if allies is None:
        allies = (seat, taker) if seat == taker else tuple(s for s in range(players) if s != taker)
    out = C.ALL_CARDS & ~hand_m & ~parse_mask(played) & ~C.mask_of(trick_cards) & ~parse_mask(aside)
    excl = [0] * players
    for s, text in (excluded or {}).items():
        excl[s] = parse_mask(text) if text not in ("S", "H", "D", "C", "T") else (
            C.TRUMP_BITS if text == "T" else C.suit_mask("SHDC".index(text)))
    words = lambda m: (np.uint64(m & C.SUIT_BITS), np.uint64(m >> C.FIRST_TRUMP))
    ls, lt = words(legal)
    os_, ot = words(out)
    es = tuple(words(e)[0] for e in excl) + (np.uint64(0),) * (5 - players)
    et = tuple(words(e)[1] for e in excl) + (np.uint64(0),) * (5 - players)
    led, best, best_seat = -1, -1, -1
    if led_suit(trick_cards) is not None:
        led = led_suit(trick_cards)
        i = trick_winner(trick_cards)
        best, best_seat = trick_cards[i], trick[i][0]
    points = sum(C.HALF_POINTS[c] for c in trick_cards)
    mask_allies = sum(1 << a for a in set(allies))
    card = heuristic_card(players, seat, taker, mask_allies, words(hand_m)[1], ls, lt, len(trick), led, best,
                          best_seat, points, tricks_left, side_won_all, os_, ot, es, et)
    assert legal >> int(card) & 1, f"illegal card {C.TOKENS[card]}"
    return C.TOKENS[int(card)]


# ---- following ---------------------------------------------------------------------------------------
def test_charges_points_on_a_trick_the_partner_is_sure_to_win():
    # Seat 3 (defender) plays last; its partner seat 2 wins with the 10 of hearts (the King still out).
    assert decide("QH 3H 2H 9S 8S 7D 6D 5C 4C", [(0, "5H"), (1, "10H"), (2, "7H")], seat=3) == "QH"


def test_keeps_a_master_that_should_win_its_own_trick():
    # The partner wins with the King of hearts: the Queen is now the master heart, and eight hearts are
    # still out (more than the four seats), so it is kept for a trick of its own and a low heart goes.
    assert decide("QH 3H 2H 9S 8S 7D 6D 5C 4C", [(0, "5H"), (1, "KH"), (2, "7H")], seat=3) == "3H"


def test_charges_a_master_the_opponents_can_trump():
    # The same trick, the taker known void in hearts: the Queen would be trumped later, so it is given now.
    assert decide("QH 3H 2H 9S 8S 7D 6D 5C 4C", [(0, "5H"), (1, "KH"), (2, "7H")], seat=3,
                  excluded={0: "H"}) == "QH"


def test_charges_a_master_when_few_cards_of_its_suit_are_out():
    # Only three hearts still out (fewer than the four seats): the master Queen goes on the sure trick.
    assert decide("QH 3H 9S 8S 7D", [(0, "5H"), (1, "KH"), (2, "7H")], seat=3,
                  played="1H 2H 4H 6H 8H 9H") == "QH"


def test_keeps_low_cards_when_the_opponent_wins():
    # The taker (seat 0) leads the King of hearts; seat 1 cannot beat it: plays its lowest heart.
    assert decide("QH 3H 2H 9S 8S 7D 6D 5C 4C", [(0, "KH")], seat=1) == "2H"


def test_wins_cheaply_when_last_to_play():
    # The taker (seat 1) wins with the 9 of spades; seat 3 plays last and takes it with the 10, not the King.
    assert decide("KS 10S 2S 7D 6D", [(0, "5S"), (1, "9S"), (2, "3S")], seat=3, taker=1) == "10S"


def test_trumps_low_when_the_trick_is_the_opponents():
    # Void in spades, seat 3 plays last on the taker's trick: the lowest trump that wins.
    assert decide("18 12 4 2 7D 6D", [(0, "KS"), (1, "5S"), (2, "3S")], seat=3, taker=0) == "2"


def test_saves_the_petit_under_a_partners_sure_trump():
    # Seat 2's partner seat 1 trumped with the 21 after the taker; seat 2 cannot follow, holds the Petit.
    assert decide("1 9 6 7D 6D", [(0, "KS"), (1, "21")], seat=2, taker=0, excluded={3: "T"}) == "1"


def test_plays_the_petit_when_it_is_sure_to_win():
    # Last to play on a spade trick without trumps: the Petit wins it safely.
    assert decide("1 7D 6D", [(0, "KS"), (1, "5S"), (2, "3S")], seat=3, taker=3, allies=(3,)) == "1"


def test_defender_trumps_high_before_the_taker():
    # Seat 1 (defender), void in spades, trumps the spade lead before the taker (seat 3, known void in
    # spades too): with its highest trump (neither the 21 nor the Petit), so that the taker must spend a
    # higher one to win the trick.
    assert decide("18 12 4 1 7D 6D", [(0, "KS")], seat=1, taker=3, excluded={3: "S"}) == "18"


def test_does_not_waste_the_21_on_an_empty_trick():
    # A trump lead of small cards: the 21 would win, but a lower trump goes.
    assert decide("21 15 5D", [(0, "3"), (1, "2"), (2, "4")], seat=3, taker=0) == "15"


def test_gives_points_to_a_sure_partner_when_discarding():
    assert decide("KD 5D 4C", [(0, "2S"), (1, "21"), (2, "3S")], seat=3, taker=0,
                  excluded={3: "T"}) == "KD"


# ---- the Excuse --------------------------------------------------------------------------------------
def test_plays_the_excuse_before_the_last_trick():
    assert decide("EX 5D", [], seat=0, tricks_left=2) == "EX"


def test_keeps_the_excuse_for_the_last_trick_in_a_chelem():
    assert decide("EX 21", [], seat=0, tricks_left=2, side_won_all=True) == "21"


def test_defender_plays_the_excuse_rather_than_a_trump_that_may_lose():
    # Void in spades, the taker (seat 3, void in spades too) still to play and trumps out above the 12:
    # no trump of seat 1 wins for sure, so the Excuse goes and the trumps are kept.
    assert decide("EX 12 4 7D 6D", [(0, "KS")], seat=1, taker=3, excluded={3: "S"}, tricks_left=8) == "EX"


def test_taker_keeps_its_trumps_off_a_poor_trick():
    # A trump lead of small trumps (one point on the table): the taker plays the Excuse, not the 20.
    assert decide("21 20 9 EX 5D 6D", [(0, "3"), (1, "4")], seat=2, taker=2, tricks_left=8) == "EX"


def test_taker_trumps_a_rich_trick():
    # The same hand on a King of spades led (void in spades): the trick is worth its sure trump, the 20.
    assert decide("21 20 9 EX 5D 6D", [(0, "KS"), (1, "4S")], seat=2, taker=2, excluded={3: "S"},
                  tricks_left=8) == "20"


def test_excuse_avoids_giving_a_queen_to_the_opponent():
    assert decide("EX QH KS", [(0, "KH")], seat=1, tricks_left=8) == "EX"


# ---- leading ---------------------------------------------------------------------------------------
def test_taker_leads_the_highest_spot_card_of_a_long_suit():
    # The taker, short of trumps, leads from its longest suit (five hearts): the 9, not the 2.
    assert decide("QH JH 9H 4H 2H 7D 6D 5C 3 2", seat=0, taker=0) == "9H"


def test_defender_leads_the_lowest_card_of_its_long_suit():
    assert decide("QH JH 9H 4H 2H 7D 6D 5C 3 2", seat=1, taker=0) == "2H"


def test_taker_draws_trumps_when_long():
    hand = "21 20 19 18 17 16 15 14 13 12 11 10 9 KS 5S 4D"
    assert decide(hand, [], seat=0, taker=0) == "21"


def test_taker_stops_drawing_when_defenders_are_out():
    hand = "21 20 19 18 KS QS 5S"
    assert decide(hand, [], seat=0, taker=0, excluded={1: "T", 2: "T", 3: "T"}) == "KS"


def test_defence_leads_the_takers_void_suit():
    assert decide("KS 8H 3H 9D", [], seat=1, taker=0, excluded={0: "H"}) == "3H"


def test_defence_with_five_trumps_leads_them():
    # A defender with five trumps leads its lowest (not the Petit) while the taker may still hold trumps.
    assert decide("17 12 9 6 3 1 KS QS 7D 6D 4C", seat=1, taker=0) == "3"


def test_defence_with_five_trumps_leads_a_suit_once_the_taker_has_none():
    # The taker has no trump left: the defender cashes its master King instead.
    assert decide("17 12 9 6 3 1 KS QS 7D 6D 4C", seat=1, taker=0, excluded={0: "T"}) == "KS"


def test_defence_hunts_the_petit_with_master_trumps():
    assert decide("21 20 6 KS 9D", [], seat=1, taker=0) == "21"


def test_never_leads_the_petit_while_another_card_remains():
    assert decide("1 5D", [], seat=0, taker=0, excluded={1: "D", 2: "D", 3: "D"}) == "5D"
