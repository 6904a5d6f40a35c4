"""The mixed judge: which decisions the heuristic's screen leaves open, the search's values on fewer
worlds with the heuristic's as control variates (``analyzer.coach.cards.controlled_options``), and the
default analysis that puts them together."""

import numpy as np

from analyzer import cards as C
from analyzer.coach.cards import (SEARCH_EFFECTIVE, SEARCH_WORLDS, WorldValues, controlled_options, search_worlds,
                                 weighted_options)
from analyzer.coach.deal import analyze_record
from analyzer.coach.verdicts import THRESHOLDS, Decision, Option, is_open
from analyzer.records import load_records
from analyzer.runs import Settings
from analyzer.stats import Mean, Proportion

CARDS = [C.trump(21), C.trump(5), C.suit_card(0, 3)]


def decision(loss: float, se: float) -> Decision:
    best = Option("21", Mean(10.0, 1.0, 400), Proportion(200, 400), Mean(0.0, 0.0, 400))
    played = Option("5", Mean(10.0 - loss, 1.0, 400), Proportion(200, 400), Mean(-loss, se, 400))
    return Decision(0, "card", 3, "5", [best, played] if loss > 0 else [played, best])


def test_open_is_a_verdict_or_one_that_noise_cannot_rule_out():
    low = THRESHOLDS[-1][1]
    assert is_open(decision(low + 10.0, 1.0))                  # flagged
    assert is_open(decision(low - 1.0, 1.0))                   # within two standard errors of a verdict
    assert not is_open(decision(low - 3.0, 0.5))               # clearly under the lowest threshold
    assert not is_open(decision(0.0, 0.1))                     # the best card
    assert not is_open(Decision(0, "card", 3, "5", note="forced"))


def values(rng, worlds: int, shift: np.ndarray, noise: float, n: int = 64) -> tuple[WorldValues, WorldValues]:
    """A screen (the heuristic) on ``worlds`` worlds and a search on the first ``n`` of them, whose values
    are the screen's plus ``shift`` per candidate and a little noise of their own."""
    base = rng.normal(0.0, 100.0, size=(worlds, 1)) + rng.normal(0.0, 20.0, size=(worlds, len(shift)))
    made = (base > 0).astype(np.int64)
    screen = WorldValues(np.round(base).astype(np.int64), made, rng.uniform(0.2, 1.0, worlds),
                         np.zeros(len(shift), dtype=np.int64))
    searched = WorldValues(np.round(base[:n] + shift + rng.normal(0.0, noise, size=(n, len(shift)))).astype(np.int64),
                           made[:n], screen.weights[:n], screen.truth_scores)
    return screen, searched


def test_the_search_s_values_on_fewer_worlds_with_the_heuristic_as_control():
    rng = np.random.default_rng(4)
    shift = np.array([0.0, -30.0, 15.0])
    errors, ses, plain_ses = [], [], []
    for _ in range(200):
        screen, searched = values(rng, 400, shift, 5.0)
        n = 64
        options = {o.choice: o for o in controlled_options(CARDS, CARDS[0], searched, screen, n)[0]}
        plain = {o.choice: o for o in weighted_options(CARDS, CARDS[0], searched.scores, searched.made,
                                                       searched.weights)[0]}
        truth = shift            # the worlds' values are centred on 0, the search's shifted by ``shift``
        for j, card in enumerate(CARDS):
            o = options[C.TOKENS[card]]
            errors.append((o.score.mean - truth[j]) / o.score.se)
            ses.append(o.score.se)
            plain_ses.append(plain[C.TOKENS[card]].score.se)
    errors = np.array(errors)
    assert abs(errors.mean()) < 0.25                       # unbiased within its own standard errors
    assert 0.7 < errors.std() < 1.4                        # and its standard errors honest
    assert np.mean(ses) < 0.5 * np.mean(plain_ses)         # far tighter than the 64 searched worlds alone


def test_controlled_options_rank_by_the_search_and_measure_differences_to_the_best():
    rng = np.random.default_rng(9)
    screen, searched = values(rng, 400, np.array([0.0, -60.0, 40.0]), 2.0)
    options, _ = controlled_options(CARDS, CARDS[1], searched, screen, 64)
    assert [o.choice for o in options] == [C.TOKENS[CARDS[2]], C.TOKENS[CARDS[0]], C.TOKENS[CARDS[1]]]
    assert options[0].vs_best.mean == 0.0
    assert abs(options[2].vs_best.mean + 100.0) < 4 * options[2].vs_best.se + 1.0


def test_the_search_takes_more_worlds_while_the_auction_leaves_few_effective_ones():
    assert search_worlds(np.ones(400)) == SEARCH_WORLDS
    skewed = np.where(np.arange(400) % 4 == 0, 1.0, 0.0)            # one world in four fits the auction
    n = search_worlds(skewed)
    assert n is not None and n > SEARCH_WORLDS and skewed[:n].sum() >= SEARCH_EFFECTIVE
    assert search_worlds(np.where(np.arange(400) % 40 == 0, 1.0, 0.0)) is None       # too few anywhere
    assert search_worlds(np.ones(100)) is None                   # the reference needs as many worlds


def test_the_default_judge_searches_the_open_cards_and_solves_the_last_tricks():
    record = load_records("data/records/four-players.txt")[0]
    report = analyze_record(record, [0], Settings(seed=0, jobs=1), with_board=False)
    assert report.policy == "mixed"
    cards = [d for d in report.decisions if d.phase == "card" and d.judged]
    by = {d.judged_by for d in cards}
    assert by <= {"heuristic", "pimc-prior", "solver"} and {"pimc-prior", "solver"} <= by
    assert all((18 - d.trick + 1 <= 5) == (d.judged_by == "solver") for d in cards)
    # what the heuristic leaves clear stays the heuristic's: never flagged, never near a verdict
    assert all(not is_open(d) for d in cards if d.judged_by == "heuristic")


def test_deals_set_size_both_looks_at_a_decision_before_the_play():
    # analyze --deals N: the screen and the second look of a close bid or discard each on N deals (the
    # second look otherwise runs to the advice command's precision, 2,400 plays for the discard's race).
    record = load_records("data/records/four-players.txt")[0]
    report = analyze_record(record, [0], Settings(seed=0, jobs=1, deals=40), with_board=False,
                            phases=("bid", "discard"))
    judged = [d for d in report.decisions if d.judged]
    assert {d.phase for d in judged} == {"bid", "discard"}
    assert any(d.judged_by == "mixed" for d in judged)
    assert all(o.score.n <= 40 for d in judged for o in d.options)
