"""calibrate-choices: the hands each question is checked on (trump-rich hands against exact
combinatorics), the paired arithmetic against direct calls, the expected share, the output and the
one-line errors (one or two hands, a few deals)."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer import cards as C
from analyzer.advice.choices import compare, poignee_options
from analyzer.errors import SizeLimitError, TarotError
from analyzer.hand import Hand
from analyzer.quality import choices_check
from analyzer.quality.calibrate import hand_seed
from analyzer.quality.choices_check import (SEED, AlternativeCheck, Answer, ChoiceCheck, ChoicesCalibration, Reach,
                                            _outcomes, calibrate_choices, check_choices, error_correlation,
                                            hands_for, recommendation_reach, trump_rich_hands)
from analyzer.quality.paired import Bias
from analyzer.rules import Contract, Rules
from analyzer.runs import CHELEM_WORLDS, Settings
from analyzer.sampling import sample_deals
from analyzer.stats import Mean, normal_within
from cli.main import main
from tests.support.errorline import assert_one_error_line

HAND = Hand.parse("21 19 18 17 14 7 5 4 2 1 2S 1S 7H CD 6D 2D 4C 1C")       # a simple poignée at 4 players


def test_trump_rich_hands_follow_the_exact_conditional_law():
    """Hands of 18 cards with at least 10 trumps (the Excuse counted): the trump count's frequencies
    against C(22, k)·C(56, 18 − k) normalised over k ≥ 10, within 4.5 standard errors (fixed seed), and
    every trump alike likely (the 21 as often as the 1, within 4.5 se)."""
    n = 6000
    hands = trump_rich_hands(18, 10, n, seed=5)
    counts = np.array([h.trumps() for h in hands])
    assert all(len(h) == 18 for h in hands) and counts.min() >= 10
    weights = {k: math.comb(22, k) * math.comb(56, 18 - k) for k in range(10, 19)}
    total = sum(weights.values())
    for k, w in weights.items():
        p = w / total
        assert abs((counts == k).mean() - p) <= 4.5 * math.sqrt(p * (1 - p) / n), k
    expected = counts.mean() / 22
    for card in (C.FIRST_TRUMP, C.FIRST_TRUMP + 20, C.EXCUSE):
        share = np.mean([h.mask >> card & 1 for h in hands])
        assert abs(share - expected) <= 4.5 * math.sqrt(expected * (1 - expected) / n), card


def test_hands_that_may_take_every_trick_follow_their_law():
    """Chelem hands at 4 players: 15 trumps or more and Kings beside them, k trumps in proportion to
    C(22, k)·C(4, 18 − k), within 4.5 standard errors."""
    n = 3000
    counts = np.array([h.trumps() for h in trump_rich_hands(18, 15, n, 2, np.array(C.KINGS))])
    weights = {k: math.comb(22, k) * math.comb(4, 18 - k) for k in range(15, 19)}
    for k, w in weights.items():
        p = w / sum(weights.values())
        assert abs((counts == k).mean() - p) <= 4.5 * math.sqrt(p * (1 - p) / n), k


def test_each_question_s_hands():
    rules = Rules(players=4)
    assert all(h.trumps() >= 10 and chien is None for h, chien in hands_for("poignee", rules, 20, 1))
    kings = C.mask_of(C.KINGS)
    assert all(h.trumps() >= 15 and not h.mask & ~(C.TRUMP_BITS | 1 << C.EXCUSE | kings)
               for h, _ in hands_for("chelem", rules, 20, 1))
    places = sample_deals(4, 3, 2)
    for i, (hand, chien) in enumerate(hands_for("discard", rules, 3, 2, seat=2)):
        assert hand.mask == sum(1 << c for c in range(C.N_CARDS) if places[i, c] == 2)
        assert chien.mask == sum(1 << c for c in range(C.N_CARDS) if places[i, c] == 4) and len(chien) == 6
    assert [len(h) for h, _ in hands_for("call", Rules(players=5), 3, 0)] == [15] * 3
    with pytest.raises(TarotError, match="5 players"):
        hands_for("call", rules, 1, 0)
    with pytest.raises(TarotError, match="seat 5"):
        hands_for("poignee", rules, 1, 0, seat=4)


def test_a_hand_s_check_is_the_command_s_answer_and_the_paired_plays():
    """The answers are those of ``compare`` under the same settings; each bias is the mean difference of
    the two plays on the same deals, each deep score their deep play's mean; the deep choice scores best."""
    rules = Rules(players=4)
    tested = Settings(seed=7, jobs=1, precision=0.05)
    check = check_choices("poignee", HAND, None, rules, tested, 30, 4, seed=11)
    direct = compare("poignee", HAND, rules, Contract.GARDE, poignee_options(HAND, rules), 0, tested)
    assert [a.answer.label for a in check.alternatives] == [a.label for a in direct.alternatives]
    assert [a.answer.success[0] for a in check.alternatives] == [a.success.p for a in direct.alternatives]
    model = tested.for_contract(Contract.GARDE, 4)
    options = poignee_options(HAND, rules)
    for a in check.alternatives:
        choices = options[a.answer.label]
        mine = _outcomes(HAND, 0, rules, Contract.GARDE, model.policy, model.worlds, choices, None, 30, 11)
        deep = _outcomes(HAND, 0, rules, Contract.GARDE, "pimc", 4, choices, None, 30, 11)
        assert a.success_bias.mean == pytest.approx(mine[:, 1].mean() - deep[:, 1].mean())
        assert a.chelem_bias.mean == pytest.approx(mine[:, 2].mean() - deep[:, 2].mean())
        assert a.deep_score.mean == pytest.approx(deep[:, 0].mean())
    assert check.deep_choice == max(check.alternatives, key=lambda a: a.deep_score.mean).answer.label


def test_the_same_model_on_both_sides_has_no_bias():
    """Tested by deep search itself: both plays are the same on every deal, so every bias is 0 (its se the
    1/deals floor) and the choices agree.  The hand makes its garde on some deals and loses it on others, so
    that a play that differed would show: the tested side on 4 worlds a decision against deep search's 2
    does."""
    hand = Hand.parse("21 19 17 15 13 11 9 7 5 3 KS 4S KH 6H 2D KC 8C 1C")

    def biases(worlds: int):
        tested = Settings(policy="pimc", worlds=worlds, deals=40, seed=3, jobs=1)
        check = check_choices("poignee", hand, None, Rules(players=4), tested, 40, 2, seed=9)
        return [(a.success_bias, a.chelem_bias) for a in check.alternatives]

    for success, chelem in biases(2):
        assert (success.mean, chelem.mean) == (0.0, 0.0)
        assert success.se == pytest.approx(1 / 40)
    assert any(success.mean != 0 for success, _ in biases(4))


def _check(deep_scores: dict[str, tuple[float, float]], bias: float, se: float,
           correlation: np.ndarray | None = None) -> ChoiceCheck:
    """A hand whose first alternative is the command's choice: deep scores {label: (mean, se of the first's
    difference to the best)}, every success probability's bias ``bias`` and its answer's se ``se``."""
    alternatives = tuple(AlternativeCheck(Answer(label, 0.0, (0.5, se), (0.0, 0.001)),
                                          Bias(Contract.GARDE, bias, 0.001, 1000),
                                          Bias(Contract.GARDE, 0.0, 0.001, 1000), Mean(mean, 1.0, 1000))
                         for label, (mean, _) in deep_scores.items())
    best = max(deep_scores, key=lambda label: deep_scores[label][0])
    first = next(iter(deep_scores))
    cost = Mean(deep_scores[first][0] - deep_scores[best][0], deep_scores[first][1], 1000)
    return ChoiceCheck(HAND, None, alternatives, best, cost, {"default": 1.0, "paired": 1.0},
                       np.eye(len(alternatives)) if correlation is None else correlation)


def test_a_recommendation_agrees_when_the_same_or_within_one_se():
    assert _check({"a": (10, 0), "b": (5, 0)}, 0, 0.01).same_recommendation
    close = _check({"a": (9, 2), "b": (10, 0)}, 0, 0.01)
    assert not close.same_recommendation and close.recommendation_agrees
    beyond = _check({"a": (7, 2), "b": (10, 0)}, 0, 0.01)
    assert not beyond.recommendation_agrees and beyond.within_ses(2.0) and not beyond.within_ses(1.4)


def test_the_recommendation_test_s_reach_where_two_alternatives_tie():
    """Two alternatives with the same mean on the paired deals (one the other's deals reordered), a third
    far behind: a choice knowing the expectations is a resample's best half the time, and beyond one
    (two) standard errors of it when the resample's gap is below -1 (-2) of its se: 84.1% (97.7%) pass,
    within 0.04 (2,000 resamples; each share's own noise under 0.01)."""
    rng = np.random.default_rng(1)
    a = rng.normal(0, 10, 2000)
    reach = recommendation_reach(np.stack([a, rng.permutation(a), a - 50], axis=1), 2, seed=1, resamples=2000)
    assert reach.known == pytest.approx((0.5, 0.841, 0.977), abs=0.04)
    assert reach.halves[1] == 0.0           # the command's choice, 50 points behind, never passes


def test_on_halves_deep_search_s_choice_and_a_tied_one_pass_alike():
    """Over 100 hands of two truly tied alternatives (independent deals, the same mean) and a third far
    behind: deep search's choice on one half of the deals is the other half's best half the time, and
    otherwise within one se of it with chance P(|Z| < 1): 84.1% in all, and so is a command that always
    picks the first; within 0.05 (the hands' own gaps move each hand's share: 0.025 se over 100)."""
    rng = np.random.default_rng(2)
    shares = np.mean([recommendation_reach(np.stack([rng.normal(0, 10, 400), rng.normal(0, 10, 400),
                                                     rng.normal(-30, 10, 400)], axis=1), 0, seed, 200).halves
                      for seed in range(100)], axis=0)
    assert shares == pytest.approx((0.841, 0.841), abs=0.05)


def test_a_clear_best_passes_every_draw():
    rng = np.random.default_rng(3)
    deep = np.stack([rng.normal(0, 10, 400), rng.normal(-20, 10, 400)], axis=1)
    reach = recommendation_reach(deep, 0, seed=3)
    assert reach.known == (1.0, 1.0, 1.0) and reach.halves == (1.0, 1.0)
    assert recommendation_reach(deep, 1, seed=3).halves == (1.0, 0.0)
    assert recommendation_reach(deep[:3], 0, seed=3) is None       # no halves to judge on


def test_the_reach_is_kept_in_a_record_and_summed_over_hands_that_have_it():
    """A hand's reach goes to its record line and back; the summary averages it over the hands, and
    leaves it out when a hand (of a record written before it) has none."""
    reached = replace(_check({"a": (10, 0), "b": (5, 0)}, 0, 0.01), reach=Reach((0.5, 0.8, 1.0), (0.6, 0.7)))
    again = ChoiceCheck.from_dict(json.loads(json.dumps(reached.as_dict(digits=None))), Contract.GARDE, 1000)
    assert again.reach == reached.reach
    other = replace(reached, reach=Reach((1.0, 1.0, 1.0), (0.8, 0.9)))
    summary = ChoicesCalibration("poignee", Rules(players=4), 0, 1000, 16, "m", [reached, other]).summary()
    assert summary["recommendation_reach"] == {
        "known": pytest.approx({"same": 0.75, "within_1se": 0.9, "within_2se": 1.0}),
        "halves": pytest.approx({"deep_within_1se": 0.7, "default_within_1se": 0.8})}
    older = replace(other, reach=None)
    assert "recommendation_reach" not in ChoicesCalibration("poignee", Rules(players=4), 0, 1000, 16, "m",
                                                             [reached, older]).summary()


@pytest.mark.parametrize("bias, se, low, high", [
    (0.0, 0.001, 0.999, 1.0),         # unbiased, precise: every answer within
    (0.05, 0.001, 0.0, 0.001),        # biased beyond the tolerance: none
    (0.0, 0.03, 0.46, 0.47),          # unbiased, se 3 pp: 68.3% an answer, two 46.6% (the chelem answers all within)
])
def test_the_expected_share_within_3pp(bias, se, low, high):
    """Biases alike on every hand (no spread): each answer within ±3 pp with the normal's chance, every
    answer of a hand with their product."""
    hands = [_check({"a": (10, 0), "b": (5, 0)}, bias, se) for _ in range(3)]
    result = ChoicesCalibration("poignee", Rules(players=4), 0, 1000, 16, "m", hands)
    summary = result.summary()
    assert low <= summary["share_within_3pp_independent"] <= high
    assert summary["share_within_3pp_expected"] == pytest.approx(summary["share_within_3pp_independent"], abs=0.01)


def test_correlated_answers_are_all_within_more_often_than_independent_ones():
    """Two answers of se 3 pp: independent, 0.683² of hands; their errors the same, 0.683 (20,000 draws:
    within 0.01); a bias shifts both."""
    same = np.ones((2, 2))
    independent = _check({"a": (10, 0), "b": (5, 0)}, 0.0, 0.03)
    together = _check({"a": (10, 0), "b": (5, 0)}, 0.0, 0.03, same)
    one = normal_within(0.0, 0.03, 0.03)
    chelem = normal_within(0.0, 0.001, 0.03) ** 2
    assert independent.within_tolerance_chance((0.0, 0.0), (0.0, 0.0)) == pytest.approx(one ** 2 * chelem, abs=0.01)
    assert together.within_tolerance_chance((0.0, 0.0), (0.0, 0.0)) == pytest.approx(one * chelem, abs=0.01)
    assert together.within_tolerance_chance((0.0, 0.0), (0.0, 0.0), correlated=False) == pytest.approx(
        one ** 2 * chelem)
    assert together.within_tolerance_chance((0.02, 0.0), (0.0, 0.0)) == pytest.approx(
        normal_within(0.02, 0.03, 0.03) * chelem, abs=0.01)


def test_the_answers_error_correlation():
    """Of the outcomes themselves without a control; with one, of what is left once each is controlled:
    two alternatives that differ from their controls by unrelated noise are uncorrelated."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, 5000).astype(float)
    noise = [rng.integers(0, 2, 5000) * (rng.random(5000) < 0.2) for _ in range(2)]
    y = [np.clip(x + n, 0, 1) for n in noise]
    assert error_correlation(y, None)[0, 1] > 0.8
    assert abs(error_correlation(y, [x, x])[0, 1]) < 0.1
    assert error_correlation([x, np.ones(5000)], None).tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_the_command_runs_and_says_what_it_measured(tmp_path):
    """One hand, its check written to a record: the run's JSON, then the table of the same check taken
    from the record (a run with --resume).  Seed 9 deals a strong hand, whose answers reach the default
    precision in few deals: the output is what is checked here, not the figures."""
    record = tmp_path / "run.jsonl"
    args = ["calibrate-choices", "poignee", "--hands", "1", "--deals", "6", "--deep-worlds", "2", "--seed", "9",
            "--jobs", "1", "--quiet", "--record", str(record)]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["question"], data["players"], data["seat"], data["contract"], data["hands"]) == (
        "poignee", 4, 1, "garde", 1)
    assert data["deep"] == {"policy": "pimc", "worlds": 2, "paired_deals": 6, "seed": SEED}
    hand = data["per_hand"][0]
    assert Hand.parse(hand["hand"]) == hands_for("poignee", Rules(players=4), 1, 9)[0][0]
    assert hand["alternatives"][0]["choice"] == hand["recommendation_default"]
    assert {"share_within_3pp_expected", "share_recommendation_agrees",
            "recommendation_reach"} <= set(data["summary"])
    assert set(hand["recommendation_reach"]) == {"known", "halves"}
    table = CliRunner().invoke(main, [*args, "--resume"])
    assert table.exit_code == 0, table.output
    assert "every probability expected within ±3 pp" in table.stdout and "recommendation: default" in table.stdout
    assert "knowing deep search's expectations" in table.stdout and "the test's reach here" in table.stdout
    assert f"hand 1: {hand['hand']}" in table.stdout


def test_a_discard_check_judges_the_recommendation_only(monkeypatch):
    """The check's shape, not its figures: the discard's candidates compared on fewer deals than the
    command's default (its search stage then races them on those deals alone)."""
    monkeypatch.setattr(choices_check, "DISCARD_DEALS", 40)
    result = calibrate_choices("discard", Rules(players=4), 1, seed=2, deals=6, deep_worlds=2, jobs=1)
    assert "every candidate on 40 deals" in result.play_model
    hand = result.hands[0]
    assert len(hand.alternatives) == 5 and hand.chien is not None and not hand.reports_probabilities
    assert "biases" not in result.summary() and "share_recommendation_agrees" in result.summary()
    assert hand.alternatives[0].answer.label != hand.alternatives[1].answer.label


# Two chelem hands checked straight through, their record kept: the run both tests below read.
CHELEM_RUN = ["calibrate-choices", "chelem", "--hands", "2", "--deals", "4", "--deep-worlds", "2", "--seed", "1",
              "--jobs", "1", "--quiet", "--format", "json"]


@pytest.fixture(scope="module")
def chelem_run(tmp_path_factory) -> tuple[dict, str]:
    """The straight run's JSON and the text of the record it wrote."""
    record = tmp_path_factory.mktemp("chelem") / "run.jsonl"
    straight = CliRunner().invoke(main, [*CHELEM_RUN, "--record", str(record)])
    assert straight.exit_code == 0, straight.output
    return json.loads(straight.stdout), record.read_text(encoding="utf-8")


def test_each_hand_s_command_runs_on_a_seed_of_its_own(chelem_run):
    rules = Rules(players=4)
    data, _ = chelem_run
    hand = hands_for("chelem", rules, 2, 1)[1][0]
    alone = check_choices("chelem", hand, None, rules, Settings(jobs=1, seed=hand_seed(0, 1)), 4, 2, hand_seed(SEED, 1))
    second = ChoiceCheck.from_dict(data["per_hand"][1], Contract.GARDE_SANS, 4)
    assert second.hand == hand
    assert [a.answer for a in alone.alternatives] == [a.answer for a in second.alternatives]
    assert data["default"]["play_model"].startswith(
        f"pimc-chelem, 4 worlds per decision ({CHELEM_WORLDS} for the taker's side")


def test_a_record_lets_a_run_stop_and_go_on(tmp_path, chelem_run):
    """Hands are kept as they end; a run stopped (even while writing a line) goes on with --resume, checks
    only the hands missing, and says what one straight run says; a record of other settings is refused."""
    first, written = chelem_run
    record = tmp_path / "run.jsonl"
    run = lambda *more: CliRunner().invoke(main, [*CHELEM_RUN, *more])                       # noqa: E731
    lines = written.splitlines()
    assert json.loads(lines[0])["calibrate-choices"]["question"] == "chelem"
    assert [json.loads(line)["index"] for line in lines[1:]] == [0, 1]
    # stopped while writing hand 2's line: that line is dropped and the hand checked again
    record.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40], encoding="utf-8")
    resumed = run("--record", str(record), "--resume")
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(resumed.stdout)
    assert again["per_hand"][0] == first["per_hand"][0]                       # taken, seconds and all
    assert {**again["per_hand"][1], "seconds": None} == {**first["per_hand"][1], "seconds": None}
    assert again["summary"]["share_within_3pp_expected"] == first["summary"]["share_within_3pp_expected"]
    assert_one_error_line(run("--hands", "1", "--record", str(record), "--resume"), "hands 2, here 1")
    assert_one_error_line(run("--record", str(record)), "--resume")
    assert_one_error_line(run("--deals", "6", "--record", str(record), "--resume"), "deals 4, here 6")


@pytest.mark.parametrize("args, word", [
    (["call", "--players", "4"], "--players"), (["poignee", "--seat", "5"], "--seat"),
    (["call", "--seat", "6"], "--seat"), (["bid"], "'bid'"), (["poignee", "--hands", "0"], "--hands"),
    (["poignee", "--deals", "1"], "--deals"), (["poignee", "--deals", "100001"], "--deals"),
    (["poignee", "--deep-worlds", "0"], "--deep-worlds"),
    (["poignee", "--format", "csv"], "--format"), (["chelem", "--variant", "x=y"], "--variant"),
    (["poignee", "--resume"], "--resume"),
])
def test_bad_options_are_one_line(args, word):
    assert_one_error_line(CliRunner().invoke(main, ["calibrate-choices", *args]), word)


def test_the_analyzer_refuses_what_it_cannot_run():
    with pytest.raises(SizeLimitError, match="--hands"):
        calibrate_choices("poignee", Rules(players=4), 10 ** 6)
    with pytest.raises(TarotError, match="expected one of"):
        calibrate_choices("bid", Rules(players=4), 1)
