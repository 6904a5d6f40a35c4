"""The simulation-based discard chooser: legal candidates, ranked by the taker's expected score (the
heuristic's best played again by the search under the mixed model, the close ones the longest)."""

from functools import cache

import numpy as np

from analyzer import cards as C
from analyzer.advice.discard import (RACE_BEHIND_Z, SEARCH_CHUNK, SEARCHED, _scores, best_discards,
                                     candidate_discards, race, search_stage)
from analyzer.game import check_discard
from analyzer.notation import format_cards, parse_mask
from analyzer.rules import Contract, Rules
from analyzer.runs import BEHIND_Z, Settings
from analyzer.sampling import sample_deals

HAND = parse_mask("21 19 17 15 12 9 7 4 EX 2S KS QS 9S 5S KH 8H 4H 3H")   # 9 trumps: no poignée
CHIEN = parse_mask("CD 6D 2D 7C 3C KC")


@cache
def mixed_garde() -> tuple[list, list[tuple[int, int | None]]]:
    """The mixed model's eight best discards for a Garde on 400 deals (seed 3), with what a progress callback
    heard as they were played: one search, for the two tests that read it."""
    heard = []
    settings = Settings(deals=400, seed=3, progress=lambda done, total: heard.append((done, total)))
    return best_discards(HAND, CHIEN, Contract.GARDE, Rules(players=4), top=8, settings=settings), heard


def test_candidates_are_legal_distinct_and_start_with_the_heuristic():
    cands = candidate_discards(HAND | CHIEN, 6)
    assert len(cands) == len(set(cands)) > 10
    for d in cands:
        check_discard(HAND | CHIEN, d, 6)
    # emptying diamonds (no King there) is among them
    assert any(d & C.suit_mask(2) == C.suit_mask(2) & CHIEN for d in cands)


def test_best_discards_ranked_with_standard_errors():
    """The ranking and its arithmetic, on the heuristic's play (the mixed model's search of the best five is
    the next test's)."""
    rules = Rules(players=4)
    heuristic = Settings(policy="heuristic", deals=300, seed=2)
    choices = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=heuristic, top=5)
    assert len(choices) == 5
    scores = [c.score.mean for c in choices]
    assert scores == sorted(scores, reverse=True)
    assert choices[0].vs_best.mean == 0
    assert all(c.score.se > 0 and c.score.n == 300 for c in choices)
    # a Garde pays twice a Prise on the same deals with the same discard, apart from a rare defender's
    # poignée (20, not multiplied) or chelem
    prise = best_discards(HAND, CHIEN, Contract.PRISE, rules, settings=heuristic, top=1)[0]
    garde_same = [c for c in best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=heuristic, top=200)
                  if c.discard == prise.discard][0]
    assert abs(garde_same.score.mean - 2 * prise.score.mean) < 1.0, format_cards(prise.discard)


def test_the_mixed_model_searches_the_heuristic_s_best_candidates_and_ranks_them_by_that():
    """Under the mixed model (the default) the heuristic's SEARCHED best candidates are played again by the
    search on the first of the same deals (``race``) and listed first, in the search's order; the others follow
    in the heuristic's order, their differences to the heuristic's best.  With --policy heuristic no
    candidate is searched and the heuristic's order is the answer."""
    rules = Rules(players=4)
    heuristic = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=Settings(policy="heuristic", deals=400,
                                                                                      seed=3), top=8)
    mixed, _ = mixed_garde()
    assert not any(c.searched for c in heuristic)
    assert [c.searched for c in mixed] == [True] * SEARCHED + [False] * 3
    assert {c.discard for c in mixed[:SEARCHED]} == {c.discard for c in heuristic[:SEARCHED]}
    assert [c.discard for c in mixed[SEARCHED:]] == [c.discard for c in heuristic[SEARCHED:]]
    played_on = [c.score.n for c in mixed[:SEARCHED]]       # the race's deals: 300, then 100 more for the close ones
    assert set(played_on) <= {SEARCH_CHUNK, 400} and played_on == sorted(played_on, reverse=True)
    for n in set(played_on):                                # by their scores among those played as long
        scores = [c.score.mean for c in mixed[:SEARCHED] if c.score.n == n]
        assert scores == sorted(scores, reverse=True)
    assert [c.vs_best.mean for c in mixed[SEARCHED:]] == [c.vs_best.mean for c in heuristic[SEARCHED:]]
    assert mixed[0].vs_best.mean == 0 and all(c.vs_best.mean <= 0 for c in mixed[:SEARCHED])


def test_a_discard_to_judge_is_searched_with_the_best():
    rules = Rules(players=4)
    settings = Settings(deals=100, seed=3)          # under a search chunk: the race plays them all at once
    last = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=settings.with_(policy="heuristic"), top=200)[-1]
    judged = best_discards(HAND, CHIEN, Contract.GARDE, rules, settings=settings, top=2, include=last.discard)
    assert len(judged) == 3 and judged[-1].discard == last.discard and judged[-1].searched
    assert judged[-1].score.n == 100                        # the searched deals: at most the deals asked for


def _synthetic(means: list[float], calls: list[tuple[int, int, list[int]]]):
    """A race's ``play`` whose candidates score ``means`` give or take 50 points a deal (each deal's noise
    its own, whatever the chunk), recording its calls."""
    def play(offset: int, n: int, columns: list[int]) -> np.ndarray:
        calls.append((offset, n, list(columns)))
        noise = np.array([np.random.default_rng(offset + i).normal(0, 50, len(means)) for i in range(n)])
        return np.round(noise[:, columns] + np.array(means)[columns]).astype(np.int64)
    return play


def test_the_race_stops_a_candidate_clearly_behind_and_plays_the_close_ones_on():
    calls = []
    scores, played = race(_synthetic([0, -1, -200], calls), 3, 900, budget=10_000, chunk=300)
    assert calls == [(0, 300, [0, 1, 2]), (300, 300, [0, 1]), (600, 300, [0, 1])]
    assert played == [900, 900, 300] and not scores[300:, 2].any()
    whole = _synthetic([0, -1, -200], [])(0, 900, [0, 1, 2])      # chunk by chunk, the same scores
    assert (scores[:, :2] == whole[:, :2]).all() and (scores[:300, 2] == whole[:300, 2]).all()


def test_the_race_stops_a_candidate_two_standard_errors_behind_where_bid_would_play_on():
    """The race judges the choice only: a candidate 2.9 standard errors behind after the first chunk
    (10 points on noise of 50 a candidate) stops at ``RACE_BEHIND_Z`` (2), where ``bid``'s 4 plays it on."""
    calls = []
    _, played = race(_synthetic([0, -10], calls), 2, 600, budget=10_000, chunk=300)
    assert RACE_BEHIND_Z == 2 and calls == [(0, 300, [0, 1])] and played == [300, 300]
    calls = []
    _, played = race(_synthetic([0, -10], calls), 2, 600, budget=10_000, chunk=300, z=BEHIND_Z)
    assert calls == [(0, 300, [0, 1]), (300, 300, [0, 1])] and played == [600, 600]


def test_the_race_keeps_to_its_budget_and_ends_with_one_candidate_left():
    calls = []
    _, played = race(_synthetic([0, -1, -2, -3], calls), 4, 1200, budget=2000, chunk=300)
    # 4 x 300, then the 800 plays left shared by the four still close: 200 deals each, the budget spent
    assert calls == [(0, 300, [0, 1, 2, 3]), (300, 200, [0, 1, 2, 3])] and played == [500] * 4
    calls = []
    _, played = race(_synthetic([0, -300], calls), 2, 1200, budget=10_000, chunk=300)
    assert calls == [(0, 300, [0, 1])] and played == [300, 300]       # one left: its deals decide nothing more


def test_a_search_played_chunk_by_chunk_gives_the_scores_of_one_run():
    """Deal i is played on stream offset + i: the race's chunks are the same plays as one run's rows, so
    the answer does not depend on where the chunks fall."""
    rules = Rules(players=4)
    search = search_stage(Settings(seed=5), Contract.GARDE, 4)
    places = sample_deals(4, 6, 5, fixed={0: HAND, "chien": CHIEN})
    discards = candidate_discards(HAND | CHIEN, 6)[:2]
    whole = _scores(places, discards, rules, 0, Contract.GARDE, search)
    chunks = [_scores(places[i:i + 3], discards, rules, 0, Contract.GARDE, search, i) for i in (0, 3)]
    assert (np.concatenate(chunks) == whole).all()


def test_the_search_stage_reports_its_plays_as_it_goes():
    """A progress callback (``Settings.progress``) hears the search stage's plays (a candidate on a deal)
    after each chunk, rising to those the race played in all; no total (the race may stop short of its
    budget). The heuristic's screening, a fraction of a second, reports nothing."""
    rules = Rules(players=4)
    mixed, heard = mixed_garde()
    counts = [done for done, _ in heard]
    assert counts == sorted(counts) and len(counts) >= 2 and all(total is None for _, total in heard)
    assert counts[-1] == sum(c.score.n for c in mixed if c.searched)
    heard = []
    best_discards(HAND, CHIEN, Contract.GARDE, rules, top=1,
                  settings=Settings(policy="heuristic", deals=400, seed=3, progress=lambda *a: heard.append(a)))
    assert heard == []
