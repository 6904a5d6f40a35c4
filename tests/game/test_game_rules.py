"""Game rules of docs/rules.md through the reference engine: bidding, chien, call, discard, declarations,
the Excuse, petit au bout, chelem, half-points, Goulash and misères.  Whole deals are crafted so that
play is scripted and the expected counts can be worked out by hand (comments give the arithmetic)."""

from __future__ import annotations

import pytest

from analyzer import cards as C
from analyzer.errors import IllegalActionError
from analyzer.game import (Game, Outcome, Phase, check_discard, discard_options, legal_calls, lowest_poignee,
                           misere_allowed, poignee_level)
from analyzer.hand import Deal, Hand
from analyzer.notation import parse_mask
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.scoring import Chelem, DealSummary, Side, score_deal, seat_scores

S, H, D, CL = range(4)


def tr(lo: int, hi: int) -> int:
    return C.mask_of(C.trump(n) for n in range(lo, hi + 1))


def su(suit: int, lo: int, hi: int) -> int:
    return C.mask_of(C.suit_card(suit, r) for r in range(lo, hi + 1))


EX = 1 << C.EXCUSE


def deal(*masks: int) -> Deal:
    return Deal(tuple(Hand(m) for m in masks[:-1]), Hand(masks[-1]))


# Deal D (4 players).  The trump holder leads trumps from the top and the Petit last; the
# defenders hold three small trumps between them (seat 1), so the trump holder wins every trick.
TAKER_D = C.bit(C.PETIT) | tr(5, 21)                                   # 18 cards
DEF1_D = tr(2, 4) | su(S, 1, 10) | su(H, 1, 5)                          # 18
DEF2_D = EX | su(S, 11, 14) | su(H, 6, 14) | su(D, 1, 4)              # 18
DEF3_D = su(D, 5, 14) | su(CL, 1, 8)                                    # 18
CHIEN_D = su(CL, 9, 14)                                                 # 6 cards, 26 half-points


def deal_d(rotate: int = 0) -> Deal:
    hands = [TAKER_D, DEF1_D, DEF2_D, DEF3_D]
    hands = hands[-rotate:] + hands[:-rotate] if rotate else hands
    return deal(*hands, CHIEN_D)


def scripted(game: Game, taker_seat: int, excuse_trick: int | None = None) -> None:
    """Play to the end: the taker's side plays its highest card (the Petit last), the others their
    lowest card id, except that the Excuse holder plays it in trick ``excuse_trick`` when given."""
    while game.phase is Phase.PLAY:
        legal = list(C.cards_of(game.legal_cards()))
        seat = game.to_act
        if excuse_trick is not None and len(game.tricks) == excuse_trick and C.EXCUSE in legal and seat != taker_seat:
            card = C.EXCUSE
        elif seat == taker_seat:
            card = sorted(legal, key=lambda c: (c == C.EXCUSE, c == C.PETIT, -c))[0]
        else:
            card = min(legal)
        game.play(card)


def declare_nothing(game: Game) -> None:
    """No chelem announcement, and no poignée or misère from anybody."""
    game.announce_chelem(None)
    while game.phase is Phase.DECLARE:
        game.declare()


def bid_all(game: Game, bids: list[Contract | None]) -> None:
    for b in bids:
        game.bid(b)


# ---- bidding --------------------------------------------------------------------------------------

def test_bidding_one_round_highest_bidder_takes():
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.PRISE, None, Contract.GARDE, None])
    assert g.taker == 2
    assert g.contract is Contract.GARDE
    assert g.phase is Phase.DISCARD


def test_bidding_must_be_strictly_higher():
    g = Game.new(deal_d(), Rules())
    g.bid(Contract.GARDE)
    assert g.legal_bids() == [None, Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    with pytest.raises(IllegalActionError):
        g.bid(Contract.GARDE)
    with pytest.raises(IllegalActionError):
        g.bid(Contract.PRISE)


def test_bidding_no_second_round():
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.PRISE, Contract.GARDE, None, None])
    assert g.taker == 1
    assert g.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError):
        g.bid(Contract.GARDE_SANS)


def test_all_pass_thrown_in():
    g = Game.new(deal_d(), Rules())
    bid_all(g, [None] * 4)
    assert g.phase is Phase.DONE
    r = g.result()
    assert r.outcome is Outcome.THROWN_IN
    assert r.seat_scores == [0, 0, 0, 0]


def test_all_pass_goulash_plays_on_and_each_pays_the_points_taken():
    # Seat 0 (the trump holder) wins every trick; the Excuse (seat 2) is played last and, in a
    # Goulash, wins that last trick for its owner.  No chien is taken.
    g = Game.new(deal_d(), Rules(all_pass="goulash"))
    bid_all(g, [None] * 4)
    assert g.outcome is Outcome.GOULASH
    assert g.phase is Phase.DECLARE
    while g.phase is Phase.DECLARE:
        g.declare()
    assert g.to_act == 0
    scripted(g, taker_seat=0)
    r = g.result()
    assert r.outcome is Outcome.GOULASH
    last = g.tricks[-1]
    assert last.winner == 2
    # seat 2 takes the last trick: EX 4.5 + the 3 others' last cards
    last_hp = C.mask_half_points(C.mask_of(last.cards))
    hp0 = 182 - C.mask_half_points(CHIEN_D) - last_hp
    assert r.half_points_taken == (hp0, 0, last_hp, 0)
    total = hp0 + last_hp
    assert r.seat_scores == [(total - 4 * hp0) / 2, total / 2, (total - 4 * last_hp) / 2, total / 2]
    assert sum(r.seat_scores) == 0


# ---- petit sec ------------------------------------------------------------------------------------

PETIT_SEC_DEAL = deal(C.bit(C.PETIT) | su(S, 1, 14) | su(H, 1, 3),     # petit sec, no Excuse
                      tr(2, 19),
                      tr(20, 21) | EX | su(H, 4, 14) | su(D, 1, 4),
                      su(D, 5, 14) | su(CL, 1, 8),
                      su(CL, 9, 14))


def test_petit_sec_annuls_the_deal():
    g = Game.new(PETIT_SEC_DEAL, Rules())
    assert g.phase is Phase.DONE
    r = g.result()
    assert r.outcome is Outcome.ANNULLED
    assert r.seat_scores == [0, 0, 0, 0]


def test_petit_sec_played_under_variant():
    g = Game.new(PETIT_SEC_DEAL, Rules(petit_sec="play"))
    assert g.phase is Phase.BIDDING


def test_petit_with_excuse_is_not_sec():
    d = deal(C.bit(C.PETIT) | EX | su(S, 1, 14) | su(H, 1, 2), tr(2, 19),
             tr(20, 21) | su(H, 3, 14) | su(D, 1, 4), su(D, 5, 14) | su(CL, 1, 8), su(CL, 9, 14))
    assert Game.new(d, Rules()).phase is Phase.BIDDING


# ---- chien, discard and whole deals ----------------------------------------------------------------

def test_garde_contre_chien_to_defence_excuse_exchange():
    # Excuse played by seat 2 in trick 0: the defence keeps it (its pile has the chien) and gives a
    # half-point.  Taker: 182 - chien 26 - Excuse 9 + 1 = 148 hp = 74 points, oudlers 21 + Petit = 2,
    # target 41, margin 33: (25+33)*6 = 348; petit au bout 60; chelem made 200 -> 608.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.GARDE_CONTRE, None, None, None])
    assert g.phase is Phase.DECLARE
    declare_nothing(g)
    scripted(g, 0, excuse_trick=0)
    r = g.result()
    assert r.taker_half_points == 148
    assert r.taker_oudlers == 2
    assert r.petit_au_bout is Side.TAKER
    assert r.chelem is Chelem.MADE
    assert r.score.total == 608
    assert r.seat_scores == [1824, -608, -608, -608]


def test_excuse_exchange_is_arithmetic_whatever_cards_its_side_holds():
    # Decided (docs/rules.md, "Play"): the exchange is arithmetic.  Here the defence's only cards are
    # a chien of six face cards (no half-point card to hand over): it still keeps the Excuse at 4
    # points and the taker gets 0.5.  Chien DJ DC CJ CC CQ CK = 32 hp; taker 182 - 32 - 9 + 1 = 142
    # hp = 71 points, 2 oudlers, target 41, margin 30: (25+30)*6 = 330 + petit au bout 60 + chelem
    # made 200 = 590.
    chien = su(D, 11, 12) | su(CL, 11, 14)
    def3 = su(D, 5, 10) | su(D, 13, 14) | su(CL, 1, 10)
    g = Game.new(deal(TAKER_D, DEF1_D, DEF2_D, def3, chien), Rules())
    bid_all(g, [Contract.GARDE_CONTRE, None, None, None])
    declare_nothing(g)
    scripted(g, 0, excuse_trick=0)
    r = g.result()
    assert all(C.HALF_POINTS[c] > 1 for c in C.cards_of(chien))
    assert r.taker_half_points == 142
    assert r.taker_oudlers == 2
    assert r.chelem is Chelem.MADE
    assert r.score.total == 590


def test_garde_contre_excuse_in_last_trick_goes_to_winners():
    # Excuse (seat 2) played in the last trick, won by the taker: it goes to the taker.
    # 182 - 26 = 156 hp = 78, 3 oudlers, target 36, margin 42: 67*6 = 402 + 60 + 200 = 662.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.GARDE_CONTRE, None, None, None])
    declare_nothing(g)
    scripted(g, 0)
    r = g.result()
    assert C.EXCUSE in g.tricks[-1].cards
    assert r.taker_half_points == 156
    assert r.taker_oudlers == 3
    assert r.score.total == 662
    assert r.seat_scores == [1986, -662, -662, -662]


def test_garde_sans_chien_counts_for_taker_unseen():
    # The chien is not added to the taker's hand; it counts for the taker: 182 hp, 3 oudlers,
    # margin 55: 80*4 = 320 + 40 + 200 = 560.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.GARDE_SANS, None, None, None])
    assert g.phase is Phase.DECLARE
    assert g.hands[0] == TAKER_D
    declare_nothing(g)
    scripted(g, 0)
    r = g.result()
    assert r.taker_half_points == 182
    assert r.taker_oudlers == 3
    assert r.score.total == 560
    assert r.seat_scores == [1680, -560, -560, -560]


def test_garde_sans_defence_keeps_its_excuse_with_no_card_at_all():
    # Decided (docs/rules.md, "Play"): the defence played the Excuse early and ends with no card at
    # all, yet keeps it (the exchange is arithmetic): 182 - 9 + 1 = 174 hp = 87 points, 2 oudlers,
    # margin 46: (25+46)*4 = 284 + petit au bout 40 + chelem made 200 = 524.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.GARDE_SANS, None, None, None])
    declare_nothing(g)
    scripted(g, 0, excuse_trick=0)
    r = g.result()
    assert all(t.winner == 0 for t in g.tricks)
    assert r.taker_half_points == 174
    assert r.taker_oudlers == 2
    assert r.petit_au_bout is Side.TAKER
    assert r.chelem is Chelem.MADE
    assert r.score.total == 524


def test_fft_chelem_example_defence_keeps_its_excuse():
    # The FFT's worked example (docs/rules.md, "Scoring"): Garde, the taker (the Petit and 5-21)
    # announces a chelem, shows a simple poignée and takes every trick, the Petit last; the defence
    # played the Excuse in the first trick and keeps it: 87 points, 2 oudlers, margin 46:
    # (25+46)*2 = 142 + petit au bout 20 + poignée 20 + chelem 400 = 582, the taker +1,746.
    rules = Rules()
    g = Game.new(deal_d(), rules)
    bid_all(g, [Contract.GARDE, None, None, None])
    g.make_discard(su(CL, 9, 13) | tr(5, 5))
    g.announce_chelem("chelem")
    g.declare(poignee=lowest_poignee(g.hands[0], PoigneeLevel.SIMPLE, rules))
    while g.phase is Phase.DECLARE:
        g.declare()
    scripted(g, 0, excuse_trick=0)
    r = g.result()
    assert C.EXCUSE in g.tricks[0].cards and g.tricks[0].winner == 0
    assert all(t.winner == 0 for t in g.tricks)
    assert (r.taker_half_points, r.taker_oudlers) == (174, 2)
    assert (r.petit_au_bout, r.chelem) == (Side.TAKER, Chelem.ANNOUNCED_MADE)
    assert (r.score.base, r.score.petit_au_bout, r.score.poignee, r.score.chelem) == (142, 20, 20, 400)
    assert r.seat_scores == [1746, -582, -582, -582]


def test_prise_chien_taken_forced_trump_discard_and_poignee():
    # Prise: the chien (C9-CK) is shown and added; only 5 cards may go freely (C9 C10 CJ CC CQ),
    # so exactly one trump must go, never the King, the 21 or the Petit.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.PRISE, None, None, None])
    assert g.phase is Phase.DISCARD
    assert g.hands[0] == TAKER_D | CHIEN_D
    free, trumps = g.discard_options()
    assert free == su(CL, 9, 13)
    assert trumps == tr(5, 20)
    with pytest.raises(IllegalActionError):
        g.make_discard(su(CL, 9, 14))                        # a King
    with pytest.raises(IllegalActionError):
        g.make_discard(su(CL, 9, 13) | C.bit(C.TWENTY_ONE))  # an oudler
    with pytest.raises(IllegalActionError):
        g.make_discard(su(CL, 9, 13))                        # 5 cards, not 6
    with pytest.raises(IllegalActionError):
        g.make_discard(su(CL, 10, 13) | tr(5, 6))            # a trump while C9 could go
    g.make_discard(su(CL, 9, 13) | tr(5, 5))
    assert g.shown_discard_trumps == tr(5, 5)
    g.announce_chelem(None)
    shown = tr(6, 20)                                         # 15 trumps: triple
    g.declare(poignee=shown)
    while g.phase is Phase.DECLARE:
        g.declare()
    scripted(g, 0)
    r = g.result()
    # taker wins every trick (the King of clubs included) and the Excuse in the last one:
    # 182 hp, 3 oudlers, margin 55: 80 + pab 10 + poignée 40 + chelem 200 = 330
    assert r.taker_half_points == 182
    assert r.taker_oudlers == 3
    assert r.petit_au_bout is Side.TAKER
    assert r.score.total == 330
    assert r.seat_scores == [990, -330, -330, -330]


def test_defence_chelem_petit_au_bout_and_defender_poignee():
    # Seat 3 (no trumps) takes a Prise; seat 0 (defender) shows a triple poignée and wins every
    # trick, the Petit in the last.  Taker's pile: the discard only (D5-D10 = 6 hp = 3 points),
    # 0 oudlers, margin -53: -78 - pab 10 - poignée 40 (to the defence, who win) - 200 = -328.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [None, None, None, Contract.PRISE])
    g.make_discard(su(D, 5, 10))
    g.announce_chelem(None)
    assert g.to_act == 0              # declarations in play order, from the leader
    g.declare(poignee=tr(6, 20))      # seat 0
    g.declare()
    g.declare()
    g.declare()                       # seat 3
    assert g.to_act == 0
    scripted(g, 0)
    r = g.result()
    assert all(t.winner == 0 for t in g.tricks[:-1])
    # The Excuse (seat 2, defence) in the last trick: engine choice, the chelem exception is applied to
    # the defence too, so seat 2 wins the last trick; either way the defence wins it.
    assert g.tricks[-1].winner == 2
    assert r.taker_half_points == 6
    assert r.taker_oudlers == 0
    assert r.petit_au_bout is Side.DEFENCE
    assert r.chelem is Chelem.DEFENCE
    assert r.score.total == -328
    assert r.seat_scores == [328, 328, 328, -984]


def test_chelem_announcement_makes_taker_lead():
    # Rotated: the trump hand sits at seat 2; announced chelem, made.  182 hp, 3 oudlers:
    # Garde sans 320 + pab 40 + 400 = 760.
    g = Game.new(deal_d(rotate=2), Rules())
    bid_all(g, [None, None, Contract.GARDE_SANS, None])
    g.announce_chelem("chelem")
    while g.phase is Phase.DECLARE:
        g.declare()
    assert g.to_act == 2
    assert g.leader == 2
    scripted(g, 2)
    r = g.result()
    assert g.tricks[0].leader == 2
    assert r.chelem is Chelem.ANNOUNCED_MADE
    assert r.score.total == 760
    assert r.seat_scores == [-760, -760, 2280, -760]


def test_without_announcement_seat_zero_leads():
    g = Game.new(deal_d(rotate=2), Rules())
    bid_all(g, [None, None, Contract.GARDE_SANS, None])
    declare_nothing(g)
    assert g.to_act == 0


def test_chelem_announced_failed():
    # Seat 3 takes (no trumps) and announces: it wins no trick.  Decided (docs/rules.md, "Scoring"):
    # only the failed announcement's -200 applies, not the defence's unannounced +200 on top.  Taker
    # pile = discard 6 hp, 0 oudlers: -78 - 10 - 200 = -288.
    g = Game.new(deal_d(), Rules())
    bid_all(g, [None, None, None, Contract.PRISE])
    g.make_discard(su(D, 5, 10))
    g.announce_chelem("chelem")
    while g.phase is Phase.DECLARE:
        g.declare()
    assert g.to_act == 3
    scripted(g, 0)
    r = g.result()
    assert r.chelem is Chelem.ANNOUNCED_FAILED
    assert r.score.total == -288


# Deal E (4 players): the taker holds the Excuse and plays it last after winning every trick.
TAKER_E = EX | C.bit(C.PETIT) | tr(6, 21)
DEF1_E = tr(2, 5) | su(S, 1, 10) | su(H, 1, 4)
DEF2_E = su(S, 11, 14) | su(H, 5, 14) | su(D, 1, 4)
DEF3_E = su(D, 5, 14) | su(CL, 1, 8)


def test_chelem_excuse_last_wins_and_petit_au_bout_second_to_last():
    g = Game.new(deal(TAKER_E, DEF1_E, DEF2_E, DEF3_E, CHIEN_D), Rules())
    bid_all(g, [Contract.GARDE_SANS, None, None, None])
    g.announce_chelem("chelem")
    while g.phase is Phase.DECLARE:
        g.declare()
    scripted(g, 0)
    assert g.tricks[-1].cards[0] == C.EXCUSE
    assert C.PETIT in g.tricks[-2].cards
    assert g.tricks[-1].winner == 0
    r = g.result()
    assert r.taker_half_points == 182
    assert r.petit_au_bout is Side.TAKER
    assert r.chelem is Chelem.ANNOUNCED_MADE
    assert r.score.total == 320 + 40 + 400
    assert r.seat_scores == [2280, -760, -760, -760]


# ---- the 3-player half-point rule through a whole deal ----------------------------------------------

def test_three_players_half_point_to_winner():
    # Seat 0 leads SK; seat 1 (void in spades) must trump with the Petit (its only trump) and wins
    # {SK, 1T, S1} = 19 hp.  The taker wins every other trick and the Excuse in the last trick.
    # Taker 163 hp = 81.5 points, oudlers 21 + Excuse = 2: counted 82, margin 41: 66*4 = 264.
    taker = tr(2, 21) | C.mask_of(C.KINGS)
    d1 = C.bit(C.PETIT) | EX | su(H, 1, 13) | su(D, 1, 9)
    d2 = su(S, 1, 13) | su(D, 10, 13) | su(CL, 1, 7)
    chien = su(CL, 8, 13)
    g = Game.new(deal(taker, d1, d2, chien), Rules(players=3))
    bid_all(g, [Contract.GARDE_SANS, None, None])
    declare_nothing(g)
    g.play(C.suit_card(S, C.KING))
    scripted(g, 0)
    assert g.tricks[0].winner == 1
    assert g.tricks[0].cards == (C.suit_card(S, C.KING), C.PETIT, C.suit_card(S, 1))
    r = g.result()
    assert r.taker_half_points == 163
    assert r.taker_oudlers == 2
    assert r.score.margin == 41
    assert r.score.total == 264
    assert r.seat_scores == [528, -264, -264]


@pytest.mark.parametrize("players,hp,oudlers,margin", [
    (3, 81, 2, -1), (3, 83, 2, 1), (5, 81, 2, -1), (5, 83, 2, 1), (3, 111, 0, -1), (3, 113, 0, 1)])
def test_half_point_rounding_examples(players, hp, oudlers, margin):
    # docs/rules.md: 2 oudlers, 40.5 -> lost by 1; 41.5 -> won by 1.
    s = score_deal(DealSummary(Contract.PRISE, oudlers, hp), Rules(players=players))
    assert s.margin == margin


# ---- 5 players: the call ---------------------------------------------------------------------------

def five_deal() -> Deal:
    # 15 cards each by card id: seat 0 S1-SK H1, seat 1 H2-HK D1 D2, ...; chien 20 21 EX.
    return Deal.from_places([min(i // 15, 5) for i in range(78)], 5)


def test_legal_calls_kings_then_queens():
    kings = C.mask_of(C.KINGS)
    assert legal_calls(parse_mask("2S 3H")) == list(C.KINGS)
    queens = [C.suit_card(s, C.QUEEN) for s in range(4)]
    assert legal_calls(kings | parse_mask("2S")) == queens
    knights = [C.suit_card(s, C.KNIGHT) for s in range(4)]
    assert legal_calls(kings | C.mask_of(queens)) == knights


def test_call_partner_self_and_chien():
    d = five_deal()
    for card, expect in [(C.suit_card(H, C.KING), 1), (C.suit_card(S, C.KING), None)]:
        g = Game.new(d, Rules(players=5))
        bid_all(g, [Contract.GARDE, None, None, None, None])
        assert g.phase is Phase.CALL
        g.call(card)
        assert g.partner == expect
    g = Game.new(d, Rules(players=5))
    bid_all(g, [None, Contract.PRISE, None, None, None])
    with pytest.raises(IllegalActionError):
        g.call(C.suit_card(S, C.QUEEN))


def test_called_card_in_chien_plays_alone():
    places = [min(i // 15, 5) for i in range(78)]
    king_c = C.suit_card(CL, C.KING)
    # swap the King of clubs into the chien with a chien card
    chien_card = 75
    places[king_c], places[chien_card] = places[chien_card], places[king_c]
    d = Deal.from_places(places, 5)
    assert d.holder(king_c) == 5
    g = Game.new(d, Rules(players=5))
    bid_all(g, [Contract.GARDE, None, None, None, None])
    g.call(king_c)
    assert g.partner is None


def test_five_player_shares():
    s = score_deal(DealSummary(Contract.GARDE, 2, 90), Rules(players=5))   # 45 points: (25+4)*2 = 58
    assert s.total == 58
    assert seat_scores(s, 5, 1, 3) == [-58, 116, -58, 58, -58]
    alone = score_deal(DealSummary(Contract.GARDE, 2, 90, alone=True), Rules(players=5))
    assert seat_scores(alone, 5, 1, None) == [-58, 232, -58, -58, -58]


def test_five_player_first_lead_restriction_in_game():
    d = Deal.from_places([min(i // 15, 5) for i in range(78)], 5)
    # seat 0 holds S1..SK and H1: calling KH (seat 1) -> seat 0 may not lead H1? H1 is hearts: forbidden.
    g = Game.new(d, Rules(players=5))
    bid_all(g, [None, None, Contract.GARDE_SANS, None, None])
    g.call(C.suit_card(H, C.KING))
    declare_nothing(g)
    assert g.to_act == 0
    assert g.legal_cards() == su(S, 1, 14)


def test_worked_examples_four_players():
    s = score_deal(DealSummary(Contract.GARDE, 2, 90), Rules())
    assert (s.taker, s.defender) == (174, -58)
    s = score_deal(DealSummary(Contract.PRISE, 1, 90), Rules())
    assert (s.taker, s.defender) == (-93, 31)
    s = score_deal(DealSummary(Contract.PRISE, 1, 88, petit_au_bout=Side.TAKER,
                               poignees=((Side.TAKER, PoigneeLevel.SIMPLE),)), Rules())
    assert s.total == -42
    assert s.taker == -126


# ---- discard legality (module functions) ------------------------------------------------------------

def test_check_discard_rules():
    hand = parse_mask("KS QS 2S 3S 4S 5S 6S 21 1 EX 5 7")
    check_discard(hand, parse_mask("QS 2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("KS 2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("EX 2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("1 2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("5 2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("2S 3S 4S 5S 6S"), 6)
    with pytest.raises(IllegalActionError):
        check_discard(hand, parse_mask("2S 3S 4S 5S 6S 7S"), 6)
    free, trumps = discard_options(hand)
    assert free == parse_mask("QS 2S 3S 4S 5S 6S")
    assert trumps == parse_mask("5 7")


# ---- poignée ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,sizes", [(3, (13, 15, 18)), (4, (10, 13, 15)), (5, (8, 10, 13))])
def test_poignee_exact_sizes(players, sizes):
    rules = Rules(players=players)
    hand = tr(1, 21) | EX
    for level, n in zip(PoigneeLevel, sizes):
        assert poignee_level(hand, tr(1, n), rules) is level
        with pytest.raises(IllegalActionError):
            poignee_level(hand, tr(1, n - 1) if n - 1 not in sizes else tr(1, n + 1), rules)


def test_poignee_excuse_only_as_last_stand_in():
    rules = Rules()
    hand = tr(1, 9) | EX | su(S, 1, 8)
    assert poignee_level(hand, tr(1, 9) | EX, rules) is PoigneeLevel.SIMPLE
    assert lowest_poignee(hand, PoigneeLevel.SIMPLE, rules) == tr(1, 9) | EX
    hand2 = tr(1, 10) | EX | su(S, 1, 7)
    with pytest.raises(IllegalActionError):
        poignee_level(hand2, tr(1, 9) | EX, rules)
    assert lowest_poignee(hand2, PoigneeLevel.SIMPLE, rules) == tr(1, 10)


def test_poignee_only_own_trumps():
    with pytest.raises(IllegalActionError):
        poignee_level(tr(1, 9) | su(S, 1, 9), tr(1, 9) | C.bit(C.suit_card(S, 1)), Rules())
    with pytest.raises(IllegalActionError):
        poignee_level(tr(1, 9), tr(1, 10), Rules())


# ---- misère ----------------------------------------------------------------------------------------

def test_misere_allowed():
    assert misere_allowed(su(S, 1, 14), "trumps")
    assert not misere_allowed(su(S, 1, 13) | EX, "trumps")
    assert not misere_allowed(su(S, 1, 13) | tr(2, 2), "trumps")
    assert misere_allowed(su(S, 1, 10) | tr(2, 20), "honours")
    assert not misere_allowed(su(S, 1, 10) | C.bit(C.suit_card(H, C.JACK)), "honours")
    assert not misere_allowed(su(S, 1, 10) | EX, "honours")
    assert not misere_allowed(su(S, 1, 10) | tr(21, 21), "honours")
    assert not misere_allowed(su(S, 1, 10) | tr(1, 1), "honours")


def test_misere_pays_ten_each_in_a_whole_deal():
    # Deal D, Garde sans by seat 0 (560, see above); seat 3 (no trump, no Excuse) declares a trump
    # misère: the three others pay it 10.
    g = Game.new(deal_d(), Rules(misere="on"))
    bid_all(g, [Contract.GARDE_SANS, None, None, None])
    g.announce_chelem(None)
    g.declare()
    with pytest.raises(IllegalActionError):
        g.declare(miseres=("trumps",))               # seat 1 holds trumps
    g.declare()
    g.declare()
    g.declare(miseres=("trumps",))
    scripted(g, 0)
    assert g.result().seat_scores == [1680 - 10, -560 - 10, -560 - 10, -560 + 30]


def test_misere_off_by_default():
    g = Game.new(deal_d(), Rules())
    bid_all(g, [Contract.GARDE_SANS, None, None, None])
    g.announce_chelem(None)
    g.declare()
    g.declare()
    g.declare()
    with pytest.raises(IllegalActionError):
        g.declare(miseres=("trumps",))


def test_five_players_alone_half_point_whole_deal():
    # Seat 0 calls its own King of spades (alone), Garde sans, leads it: seat 1 (void) must trump with
    # the Petit, seat 4 must overtrump with the 2 and wins {SK 1T S1 D2 2T} = 21 hp.  The taker wins
    # the 14 other tricks (the Excuse in the last).  161 hp = 80.5 points, oudlers 21 + Excuse = 2:
    # counted 81, margin 40: 65*4 = 260; alone: taker 4 x 260.
    taker = tr(8, 21) | C.bit(C.suit_card(S, C.KING))
    d1 = C.bit(C.PETIT) | EX | su(H, 1, 13)
    d2 = su(S, 1, 13) | C.bit(C.suit_card(H, C.KING)) | su(D, 1, 1)
    d3 = su(D, 2, 14) | su(CL, 1, 2)
    d4 = su(CL, 3, 14) | tr(2, 4)
    g = Game.new(deal(taker, d1, d2, d3, d4, tr(5, 7)), Rules(players=5))
    bid_all(g, [Contract.GARDE_SANS, None, None, None, None])
    g.call(C.suit_card(S, C.KING))
    assert g.partner is None
    declare_nothing(g)
    g.play(C.suit_card(S, C.KING))
    scripted(g, 0)
    assert g.tricks[0].winner == 4
    r = g.result()
    assert r.taker_half_points == 161
    assert r.taker_oudlers == 2
    assert r.petit_au_bout is None
    assert r.score.margin == 40
    assert r.score.total == 260
    assert r.seat_scores == [1040, -260, -260, -260, -260]


def test_goulash_has_no_poignee():
    g = Game.new(deal_d(), Rules(all_pass="goulash"))
    bid_all(g, [None] * 4)
    assert g.poignee_options(0) == []
    with pytest.raises(IllegalActionError):
        g.declare(poignee=tr(6, 20))
