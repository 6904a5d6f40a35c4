"""The simulation-based discard chooser: legal candidates, ranked by the taker's expected score (the
heuristic's best played again by the search under the mixed model)."""

from analyzer import cards as C
from analyzer.advice.discard import SEARCHED, SEARCHED_DEALS, best_discards, candidate_discards
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


def test_the_mixed_model_searches_the_heuristic_s_best_candidates_and_ranks_them_by_that():
    """Under the mixed model (the default) the heuristic's SEARCHED best candidates are played again by the
    search on SEARCHED_DEALS of the same deals and listed first, in the search's order; the others follow
    in the heuristic's order, their differences to the heuristic's best.  With --policy heuristic no
    candidate is searched and the heuristic's order is the answer."""
    rules = Rules(players=4)
    heuristic = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=Settings(policy="heuristic", deals=400,
                                                                                      seed=3), top=8)
    mixed = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=Settings(deals=400, seed=3), top=8)
    assert not any(c.searched for c in heuristic)
    assert [c.searched for c in mixed] == [True] * SEARCHED + [False] * 3
    assert {c.discard for c in mixed[:SEARCHED]} == {c.discard for c in heuristic[:SEARCHED]}
    assert [c.discard for c in mixed[SEARCHED:]] == [c.discard for c in heuristic[SEARCHED:]]
    searched_scores = [c.score.mean for c in mixed[:SEARCHED]]
    assert searched_scores == sorted(searched_scores, reverse=True)
    assert all(c.score.n == SEARCHED_DEALS for c in mixed[:SEARCHED])
    assert [c.vs_best.mean for c in mixed[SEARCHED:]] == [c.vs_best.mean for c in heuristic[SEARCHED:]]
    assert mixed[0].vs_best.mean == 0 and all(c.vs_best.mean <= 0 for c in mixed[:SEARCHED])


def test_a_discard_to_judge_is_searched_with_the_best():
    rules = Rules(players=4)
    settings = Settings(deals=200, seed=3)
    last = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=settings.with_(policy="heuristic"), top=200)[-1]
    judged = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=settings, top=2, include=last.discard)
    assert len(judged) == 3 and judged[-1].discard == last.discard and judged[-1].searched
    assert judged[-1].score.n == 200                        # the searched deals: at most the deals asked for
