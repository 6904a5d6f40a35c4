"""Scoring (docs/rules.md, "Scoring" and "Variants") through the Python API, with exact values.

``total`` is the score per defender seen from the taker's side; at 4 players the taker gets 3 x total,
at 3 players 2 x total, at 5 players taker 2 x / partner 1 x (alone: taker 4 x) and each defender -total.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.errors import RulesError
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.scoring import (Chelem, DealSummary, Side, goulash_scores, misere_scores, score_deal,
                              seat_scores)

PRISE, GARDE, SANS, CONTRE = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE
TAKER, DEFENCE = Side.TAKER, Side.DEFENCE
SIMPLE, DOUBLE, TRIPLE = PoigneeLevel.SIMPLE, PoigneeLevel.DOUBLE, PoigneeLevel.TRIPLE


def deal(contract=PRISE, oudlers=1, points=51.0, players=4, rules=None, **kw):
    summary = DealSummary(contract=contract, oudlers=oudlers, half_points=int(points * 2), **kw)
    return score_deal(summary, rules or Rules(players=players))


# --- the worked examples of docs/rules.md ---------------------------------------------------------

def test_fft_check_poignee_and_petit_au_bout():
    # Prise lost by 7, the taker showed a simple poignée and took the Petit in the last trick.
    s = deal(PRISE, 1, 44, petit_au_bout=TAKER, poignees=((TAKER, SIMPLE),))
    assert (s.made, s.margin, s.base, s.petit_au_bout, s.poignee, s.chelem) == (False, -7, -32, 10, -20, 0)
    assert s.total == -42
    assert s.taker == -126
    assert s.defender == 42
    assert s.partner is None
    assert s.defenders == 3


def test_garde_two_oudlers_45_points():
    s = deal(GARDE, 2, 45)
    assert (s.made, s.margin, s.target, s.base, s.total) == (True, 4, 41, 58, 58)
    assert (s.taker, s.defender) == (174, -58)


def test_prise_one_oudler_45_points():
    s = deal(PRISE, 1, 45)
    assert (s.made, s.margin, s.target, s.base, s.total) == (False, -6, 51, -31, -31)
    assert (s.taker, s.defender) == (-93, 31)


# --- targets and multipliers ----------------------------------------------------------------------

@pytest.mark.parametrize("oudlers,target", [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_target_by_oudlers_exactly_is_a_win_by_zero(oudlers, target):
    s = deal(PRISE, oudlers, target)
    assert (s.target, s.made, s.margin, s.total, s.taker, s.defender) == (target, True, 0, 25, 75, -25)
    below = deal(PRISE, oudlers, target - 1)
    assert (below.made, below.margin, below.total, below.taker, below.defender) == (False, -1, -26, -78, 26)


@pytest.mark.parametrize("contract,mult", [(PRISE, 1), (GARDE, 2), (SANS, 4), (CONTRE, 6)])
def test_multipliers(contract, mult):
    assert contract.multiplier == mult
    won = deal(contract, 3, 41)                      # won by 5: 30 x mult
    assert (won.base, won.total, won.taker, won.defender) == (30 * mult, 30 * mult, 90 * mult, -30 * mult)
    lost = deal(contract, 0, 46)                     # lost by 10: -35 x mult
    assert (lost.base, lost.total, lost.taker, lost.defender) == (-35 * mult, -35 * mult, -105 * mult, 35 * mult)


def test_full_deck_and_empty_count():
    top = deal(SANS, 3, 91)                          # (25 + 55) x 4
    assert (top.margin, top.total, top.taker) == (55, 320, 960)
    bottom = deal(PRISE, 0, 0)                       # -(25 + 56)
    assert (bottom.margin, bottom.total, bottom.taker, bottom.defender) == (-56, -81, -243, 81)


# --- 3 players and the half-point rule -------------------------------------------------------------

def test_three_players_half_point_goes_to_the_winner():
    lost = deal(GARDE, 2, 40.5, players=3)
    assert (lost.made, lost.margin, lost.total) == (False, -1, -52)
    assert (lost.taker, lost.defender, lost.defenders) == (-104, 52, 2)
    won = deal(GARDE, 2, 41.5, players=3)
    assert (won.made, won.margin, won.total) == (True, 1, 52)
    assert (won.taker, won.defender, won.defenders) == (104, -52, 2)


@pytest.mark.parametrize("points,made,margin", [(55.5, True, 5), (50.5, False, -1), (51.5, True, 1),
                                                (0.5, False, -51), (90.5, True, 40)])
def test_three_players_half_points_one_oudler(points, made, margin):
    s = deal(PRISE, 1, points, players=3)
    assert (s.made, s.margin) == (made, margin)
    assert s.total == (1 if made else -1) * (25 + abs(margin))
    assert s.taker == 2 * s.total and s.defender == -s.total


def test_half_point_is_impossible_at_four_players():
    with pytest.raises(RulesError, match="40.5"):
        deal(GARDE, 2, 40.5, players=4)


# --- 5 players ------------------------------------------------------------------------------------

def test_five_players_with_partner():
    s = deal(GARDE, 2, 45, players=5)
    assert (s.total, s.taker, s.partner, s.defender, s.defenders) == (58, 116, 58, -58, 3)
    lost = deal(PRISE, 1, 45, players=5)
    assert (lost.total, lost.taker, lost.partner, lost.defender, lost.defenders) == (-31, -62, -31, 31, 3)


def test_five_players_alone():
    s = deal(GARDE, 2, 45, players=5, alone=True)
    assert (s.total, s.taker, s.partner, s.defender, s.defenders) == (58, 232, None, -58, 4)
    lost = deal(PRISE, 1, 45, players=5, alone=True)
    assert (lost.taker, lost.partner, lost.defender, lost.defenders) == (-124, None, 31, 4)


def test_five_players_half_point_rule():
    s = deal(PRISE, 1, 55.5, players=5)
    assert (s.margin, s.total, s.taker, s.partner, s.defender) == (5, 30, 60, 30, -30)
    s = deal(PRISE, 1, 50.5, players=5)
    assert (s.made, s.margin, s.total) == (False, -1, -26)


@pytest.mark.parametrize("players", [3, 4])
def test_alone_only_at_five_players(players):
    with pytest.raises(RulesError):
        deal(PRISE, 1, 51, players=players, alone=True)


# --- petit au bout --------------------------------------------------------------------------------

@pytest.mark.parametrize("contract,mult", [(PRISE, 1), (GARDE, 2), (SANS, 4), (CONTRE, 6)])
def test_petit_au_bout_multiplied_either_side_whatever_the_result(contract, mult):
    # won by 0 (2 oudlers, 41): base 25 x mult
    assert deal(contract, 2, 41, petit_au_bout=TAKER).total == 35 * mult
    assert deal(contract, 2, 41, petit_au_bout=DEFENCE).total == 15 * mult
    # lost by 1 (2 oudlers, 40): base -26 x mult
    assert deal(contract, 2, 40, petit_au_bout=TAKER).total == -16 * mult
    assert deal(contract, 2, 40, petit_au_bout=DEFENCE).total == -36 * mult
    s = deal(contract, 2, 40, petit_au_bout=TAKER)
    assert (s.base, s.petit_au_bout) == (-26 * mult, 10 * mult)


@pytest.mark.parametrize("contract", [PRISE, GARDE, SANS, CONTRE])
def test_petit_au_bout_flat_variant(contract):
    rules = Rules(petit_au_bout="flat")
    mult = contract.multiplier
    won_taker = deal(contract, 2, 41, rules=rules, petit_au_bout=TAKER)
    assert (won_taker.petit_au_bout, won_taker.total) == (10, 25 * mult + 10)
    lost_defence = deal(contract, 2, 40, rules=rules, petit_au_bout=DEFENCE)
    assert (lost_defence.petit_au_bout, lost_defence.total) == (-10, -26 * mult - 10)
    assert Rules.from_options(4, ["petit-au-bout=flat"]) == rules


def test_no_petit_au_bout():
    assert deal(GARDE, 2, 41).petit_au_bout == 0


# --- poignée --------------------------------------------------------------------------------------

@pytest.mark.parametrize("level,bonus", [(SIMPLE, 20), (DOUBLE, 30), (TRIPLE, 40)])
@pytest.mark.parametrize("shower", [TAKER, DEFENCE])
@pytest.mark.parametrize("contract", [PRISE, CONTRE])
def test_poignee_never_multiplied_to_the_winner_whoever_showed_it(level, bonus, shower, contract):
    mult = contract.multiplier
    won = deal(contract, 2, 41, poignees=((shower, level),))
    assert (won.poignee, won.total) == (bonus, 25 * mult + bonus)
    assert won.taker == 3 * (25 * mult + bonus)
    lost = deal(contract, 2, 40, poignees=((shower, level),))
    assert (lost.poignee, lost.total) == (-bonus, -26 * mult - bonus)
    assert lost.defender == 26 * mult + bonus


@pytest.mark.parametrize("level,bonus", [(SIMPLE, 20), (DOUBLE, 40), (TRIPLE, 60)])
def test_poignee_20_40_60_variant(level, bonus):
    rules = Rules(poignee_values="20-40-60")
    assert deal(GARDE, 2, 41, rules=rules, poignees=((DEFENCE, level),)).poignee == bonus
    assert deal(GARDE, 2, 40, rules=rules, poignees=((TAKER, level),)).poignee == -bonus


def test_several_poignees_add_up():
    s = deal(GARDE, 2, 45, poignees=((TAKER, SIMPLE), (DEFENCE, DOUBLE)))
    assert (s.poignee, s.total, s.taker) == (50, 108, 324)
    lost = deal(GARDE, 2, 37, poignees=((TAKER, TRIPLE), (DEFENCE, SIMPLE)))
    assert (lost.poignee, lost.total, lost.defender) == (-60, -118, 118)


# --- chelem ---------------------------------------------------------------------------------------

def test_chelem_announced_and_made():
    s = deal(SANS, 3, 91, chelem=Chelem.ANNOUNCED_MADE)
    assert (s.base, s.chelem, s.total, s.taker, s.defender) == (320, 400, 720, 2160, -720)


def test_chelem_made_unannounced():
    s = deal(GARDE, 3, 87, chelem=Chelem.MADE)
    assert (s.base, s.chelem, s.total, s.taker, s.defender) == (152, 200, 352, 1056, -352)


def test_chelem_announced_and_failed():
    s = deal(PRISE, 3, 80, chelem=Chelem.ANNOUNCED_FAILED)
    assert (s.base, s.chelem, s.total, s.taker, s.defender) == (69, -200, -131, -393, 131)


def test_chelem_by_the_defence_gives_each_defender_200():
    s = deal(PRISE, 0, 0, chelem=Chelem.DEFENCE)
    assert (s.base, s.total, s.taker, s.defender) == (-81, -281, -843, 281)
    plain = deal(PRISE, 0, 0)
    assert s.defender - plain.defender == 200


def test_chelem_is_not_multiplied():
    for contract in (PRISE, GARDE, SANS, CONTRE):
        s = deal(contract, 3, 91, chelem=Chelem.ANNOUNCED_MADE)
        assert s.chelem == 400
        assert s.total == 80 * contract.multiplier + 400


def test_petit_chelem_variant():
    rules = Rules(chelem="petit-chelem")
    made = deal(GARDE, 3, 80, rules=rules, chelem=Chelem.PETIT_ANNOUNCED_MADE)
    assert (made.chelem, made.total) == (300, 138 + 300)
    failed = deal(GARDE, 3, 80, rules=rules, chelem=Chelem.PETIT_ANNOUNCED_FAILED)
    assert (failed.chelem, failed.total) == (-150, 138 - 150)
    with pytest.raises(RulesError):
        deal(GARDE, 3, 80, chelem=Chelem.PETIT_ANNOUNCED_MADE)


# --- everything at once and bad summaries ---------------------------------------------------------

def test_every_bonus_together_five_players():
    s = deal(GARDE, 2, 45, players=5, petit_au_bout=TAKER, poignees=((DEFENCE, DOUBLE),), chelem=Chelem.MADE)
    assert (s.base, s.petit_au_bout, s.poignee, s.chelem, s.total) == (58, 20, 30, 200, 308)
    assert (s.taker, s.partner, s.defender) == (616, 308, -308)


@pytest.mark.parametrize("oudlers,points", [(4, 40), (-1, 40), (1, 91.5), (1, -0.5)])
def test_impossible_summaries_raise_rules_error(oudlers, points):
    with pytest.raises(RulesError):
        deal(PRISE, oudlers, points, players=3)


# --- per-seat scores ------------------------------------------------------------------------------

def test_seat_scores_four_players():
    s = deal(GARDE, 2, 45)
    assert seat_scores(s, 4, 2, None) == [-58, -58, 174, -58]


def test_seat_scores_three_players():
    s = deal(GARDE, 2, 40.5, players=3)
    assert seat_scores(s, 3, 0, None) == [-104, 52, 52]


def test_seat_scores_five_players():
    s = deal(GARDE, 2, 45, players=5)
    assert seat_scores(s, 5, 1, 3) == [-58, 116, -58, 58, -58]
    alone = deal(GARDE, 2, 45, players=5, alone=True)
    assert seat_scores(alone, 5, 4, None) == [-58, -58, -58, -58, 232]


def test_seat_scores_refuse_a_partner_share_without_its_seat_and_the_reverse():
    with pytest.raises(ValueError):
        seat_scores(deal(GARDE, 2, 45, players=5), 5, 1, None)
    with pytest.raises(ValueError):
        seat_scores(deal(GARDE, 2, 45, players=5, alone=True), 5, 1, 3)


@given(
    players=st.sampled_from([3, 4, 5]),
    contract=st.sampled_from(list(Contract)),
    oudlers=st.integers(0, 3),
    half_points=st.integers(0, 182),
    pab=st.sampled_from([None, TAKER, DEFENCE]),
    poignees=st.lists(st.tuples(st.sampled_from([TAKER, DEFENCE]), st.sampled_from(list(PoigneeLevel))), max_size=2),
    chelem=st.sampled_from([None] + [c for c in Chelem if not c.value.startswith("petit")]),
    alone=st.booleans(),
    taker=st.integers(0, 4),
    partner=st.integers(0, 4),
)
def test_seat_scores_sum_to_zero(players, contract, oudlers, half_points, pab, poignees, chelem, alone, taker,
                                 partner):
    if players == 4 and half_points % 2:
        half_points += 1
    alone = alone and players == 5
    taker %= players
    partner %= players
    summary = DealSummary(contract, oudlers, half_points, pab, tuple(poignees), chelem, alone)
    s = score_deal(summary, Rules(players=players))
    has_partner = players == 5 and not alone and partner != taker
    if players == 5 and not alone and not has_partner:
        return   # a partner is required at 5 players when not alone
    seats = seat_scores(s, players, taker, partner if has_partner else None)
    assert sum(seats) == 0
    assert seats[taker] == s.taker
    # the rule's formula, from docs/rules.md
    target = (56, 51, 41, 36)[oudlers]
    if half_points % 2:
        pts = (half_points + 1) // 2 if half_points >= 2 * target else (half_points - 1) // 2
    else:
        pts = half_points // 2
    sign = 1 if pts >= target else -1
    pab_sign = {None: 0, TAKER: 1, DEFENCE: -1}[pab]
    bonus = sum((20, 30, 40)[level] for _, level in poignees)
    chelem_bonus = {None: 0, Chelem.ANNOUNCED_MADE: 400, Chelem.MADE: 200, Chelem.ANNOUNCED_FAILED: -200,
                    Chelem.DEFENCE: -200}[chelem]
    expected = (sign * (25 + abs(pts - target)) * contract.multiplier + pab_sign * 10 * contract.multiplier
                + sign * bonus + chelem_bonus)
    assert s.total == expected


# --- seed variants: Goulash and Misère (BGA, seed 001) ---------------------------------------------

def test_goulash_each_player_pays_every_other_the_points_taken():
    # 4 players took 20, 30, 15 and 26 points (91 in all).  Seat 0 pays 20 to each of 3 others (-60) and
    # receives 30 + 15 + 26 = 71: +11.
    assert goulash_scores([40, 60, 30, 52]) == [11, -29, 31, -13]


def test_goulash_with_an_unowned_chien_and_half_points():
    # 5 players, the chien (3 cards, 1.5 points) belongs to nobody: 89.5 points taken in all
    scores = goulash_scores([35, 36, 37, 36, 35])
    assert scores == [2.0, -0.5, -3.0, -0.5, 2.0]
    assert sum(scores) == 0


def test_goulash_three_players():
    assert goulash_scores([100, 40, 42]) == [-59.0, 31.0, 28.0]


@pytest.mark.parametrize("players,declarer,expected", [
    (3, 1, [-10, 20, -10]),
    (4, 2, [-10, -10, 30, -10]),
    (5, 0, [40, -10, -10, -10, -10]),
])
def test_misere_every_other_player_pays_ten(players, declarer, expected):
    assert misere_scores(players, declarer) == expected
    assert sum(misere_scores(players, declarer)) == 0
