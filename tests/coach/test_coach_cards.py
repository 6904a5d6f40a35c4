"""Coaching a card: equivalent cards, verdicts beyond noise, the Petit thrown under the 21, forced
cards, reproducibility whatever the threads."""

import pytest

from analyzer import cards as C
from analyzer.coach.cards import judge_card
from analyzer.coach.equivalence import card_classes, equivalent
from analyzer.coach.verdicts import THRESHOLDS, verdict
from analyzer.game import Game
from analyzer.hand import Deal, Hand
from analyzer.notation import parse_mask
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from analyzer.stats import Mean

TAKER = Hand.parse("21 20 19 18 17 16 15 14 13 EX KS QS KH QH KD QD KC QC")
DEFENDER = Hand.parse("1 2 3 4 5 1S 2S 3S 4S 1H 2H 3H 4H 1D 2D 3D 1C 2C")


def petit_game() -> Game:
    """Seat 1 takes a Garde sans with the nine top trumps and leads the 21; seat 2 holds the Petit
    and four other small trumps."""
    rest = [c for c in range(56) if not (TAKER.mask | DEFENDER.mask) >> c & 1]
    second = Hand(parse_mask("6 7 8 9 10") | C.mask_of(rest[:13]))
    third = Hand(parse_mask("11 12") | C.mask_of(rest[13:29]))
    deal = Deal((TAKER, DEFENDER, second, third), Hand(C.mask_of(rest[29:35])))
    game = Game.for_play(deal, Rules(players=4), 0, Contract.GARDE_SANS)
    game.play(C.trump(21))
    return game


def test_equivalent_cards_are_adjacent_same_value_cards_with_nothing_out_between():
    out = parse_mask("6S 7 9")
    assert equivalent(C.suit_card(0, 4), C.suit_card(0, 5), out)            # 4S 5S
    assert not equivalent(C.suit_card(0, 5), C.suit_card(0, 8), out)        # 6S is out between them
    assert not equivalent(C.trump(1), C.trump(2), out)                      # the Petit is an oudler
    assert not equivalent(C.suit_card(0, 10), C.suit_card(0, 11), out)      # 10S and JS differ in points
    assert equivalent(C.trump(2), C.trump(6), out)                           # 3 4 5 are not out
    assert not equivalent(C.trump(8), C.trump(10), out)
    assert card_classes(parse_mask("1 2 3 4 5"), out) == [[C.trump(1)], [C.trump(n) for n in (2, 3, 4, 5)]]


def test_a_verdict_needs_a_loss_beyond_noise_and_above_a_threshold():
    assert verdict(Mean(100.0, 60.0, 400)) is None                          # within two standard errors
    assert verdict(Mean(100.0, 10.0, 400)) == "blunder"
    assert verdict(Mean(THRESHOLDS[1][1], 1.0, 400)) == "mistake"
    assert verdict(Mean(THRESHOLDS[2][1] - 0.5, 0.1, 400)) is None           # beyond noise but too small


def test_the_petit_under_the_21_is_a_blunder_and_a_small_trump_is_not_judged_wrong():
    game = petit_game()
    settings = Settings(worlds_per_card=300, seed=1)
    petit = judge_card(game, C.trump(1), settings)
    assert petit.judged and petit.verdict == "blunder" and petit.best.choice == "2"
    assert petit.loss.mean > 60 and petit.p_made_change > 0.2               # 0.29 on these 300 deals
    small = judge_card(game, C.trump(4), settings)
    assert small.verdict is None and small.loss.mean == 0
    assert [o.choice for o in small.options] == ["4", "1"]                  # 2 3 4 5 are one choice
    assert small.hindsight_best == "4"


def test_forced_and_equivalent_cards_are_not_judged():
    game = petit_game()
    for card in (C.trump(2), C.trump(6), C.trump(11), C.suit_card(0, 14)):   # the taker wins and leads the KS
        game.play(card)
    spades = judge_card(game, C.suit_card(0, 1), Settings(worlds_per_card=50, seed=1))   # 1S 2S 3S 4S: one choice
    assert not spades.judged and spades.note == "equivalent cards" and spades.verdict is None
    while len(game.tricks) < game.rules.tricks - 1:
        game.play(next(C.cards_of(game.legal_cards())))
    last = judge_card(game, next(C.cards_of(game.legal_cards())), Settings(worlds_per_card=50, seed=1))
    assert not last.judged and last.note == "forced" and last.loss.mean == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_same_seed_same_judgement_whatever_the_threads(jobs):
    game = petit_game()
    one = judge_card(game, C.trump(1), Settings(worlds_per_card=120, seed=9, jobs=1))
    other = judge_card(game, C.trump(1), Settings(worlds_per_card=120, seed=9, jobs=jobs))
    assert one == other


def test_hindsight_in_the_last_tricks_is_the_solver_s_best_card():
    from pathlib import Path

    from analyzer.records import load_records
    from analyzer.solve import solve
    record = load_records(Path(__file__).resolve().parents[2] / "data" / "records" / "four-players-midplay.txt")[0]
    game = record.game
    solution = solve(game)
    best_value = max(v for _, v in solution.values)          # the seat's own score
    for card, _ in solution.values:
        decision = judge_card(game, card, Settings(worlds_per_card=20, seed=1))
        if decision.judged:
            assert solution.value_of(C.TOKENS.index(decision.hindsight_best)) == best_value
