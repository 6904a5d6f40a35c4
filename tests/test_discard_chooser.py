"""The simulation-based discard chooser: legal candidates, ranked by the taker's expected score."""

from analyzer import cards as C
from analyzer.advice.discard import best_discards, candidate_discards
from analyzer.game import check_discard
from analyzer.notation import format_cards, parse_mask
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings

HAND = parse_mask("21 19 17 15 12 9 7 4 EX 2S KS QS 9S 5S KH 8H 4H 3H")   # 9 trumps: no poignée
CHIEN = parse_mask("CD 6D 2D 7C 3C KC")


def test_candidates_are_legal_distinct_and_start_with_the_heuristic():
    cands = candidate_discards(HAND | CHIEN, 6)
    assert len(cands) == len(set(cands)) > 10
    for d in cands:
        check_discard(HAND | CHIEN, d, 6)
    # emptying diamonds (no King there) is among them
    assert any(d & C.suit_mask(2) == C.suit_mask(2) & CHIEN for d in cands)


def test_best_discards_ranked_with_standard_errors():
    choices = best_discards(HAND, CHIEN, Contract.GARDE, Rules(players=4), settings=Settings(deals=300, seed=2), top=5)
    assert len(choices) == 5
    scores = [c.score.mean for c in choices]
    assert scores == sorted(scores, reverse=True)
    assert choices[0].vs_best.mean == 0
    assert all(c.score.se > 0 and c.score.n == 300 for c in choices)
    # a Garde pays twice a Prise on the same deals with the same discard, apart from a rare defender's
    # poignée (20, not multiplied) or chelem
    prise = best_discards(HAND, CHIEN, Contract.PRISE, Rules(players=4), settings=Settings(deals=300, seed=2), top=1)[0]
    garde_same = [c for c in best_discards(HAND, CHIEN, Contract.GARDE, Rules(players=4),
                                           settings=Settings(deals=300, seed=2), top=200)
                  if c.discard == prise.discard][0]
    assert abs(garde_same.score.mean - 2 * prise.score.mean) < 1.0, format_cards(prise.discard)
