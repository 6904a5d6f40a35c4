"""The paired measure of ``calibrate --paired``: each contract's bias on the same deals, its stop rule,
the chance it gives a hand's answers of falling within ±3 pp (exact, and unbiased over the bias's own
noise, statistically), and its place in the command's output and record (tiny runs)."""

import csv
import io
import json
import math
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.advice.odds import contract_odds
from analyzer.hand import Hand
from analyzer.quality import paired
from analyzer.quality.calibrate import Calibration, Estimate, Gap, HandCheck, bias_summary, calibrate, hand_seed
from analyzer.quality.paired import Bias, measure_biases
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from analyzer.simulation.bridge import simulate_contract
from analyzer.stats import Z95, normal_within
from cli.main import main
from kernels import playout as K
from tests.support.errorline import assert_one_error_line

HAND = Hand.parse("21 19 11 10 7 5S 5H 1H KD QD 8D 6D 5D KC CC 9C 8C 5C")     # 4 players
RULES = Rules(players=4)
TINY = ["calibrate", "--hands", "2", "--deep-worlds", "2", "--deep-deals", "10", "--jobs", "1", "--quiet",
        "--seed", "3", "--policy", "heuristic"]


def check_of(biases: dict[Contract, tuple[float, float]], answer_se: dict[Contract, float]) -> HandCheck:
    """A hand's check holding only what the paired figures read: each contract's answer se and bias ± se."""
    gaps = tuple(Gap(c, Estimate(0.4, answer_se[c]), Estimate(0.4, 0.02)) for c in Contract)
    return HandCheck(HAND, 1, 1, gaps, "pass", "pass", {"pass": (0.0, 0.0)}, {}, 0, 1,
                     tuple(Bias(c, *biases[c], 1000) for c in Contract))


def calibration_of(checks: list[HandCheck]) -> Calibration:
    return Calibration(RULES, 0, Settings(), Settings(policy="pimc", worlds=16, deals=300), checks, paired=1000)


def test_a_hand_s_chance_at_least_is_the_product_of_its_contracts_but_garde():
    """Each answer normal around its measured bias with the answer's se; Garde is Prise's play scored
    again, so it counts with Prise once."""
    se = 0.03 / Z95
    check = check_of({Contract.PRISE: (0.0, 0.01), Contract.GARDE: (0.05, 0.01), Contract.GARDE_SANS: (0.01, 0.01),
                      Contract.GARDE_CONTRE: (-0.02, 0.0)}, {c: se for c in Contract})
    expected = 0.95 * normal_within(0.01, se, 0.03) * normal_within(-0.02, se, 0.03)
    assert check.within_tolerance_at_least() == pytest.approx(expected, abs=1e-4)
    assert normal_within(0.0, se, 0.03) == pytest.approx(0.95, abs=1e-5)
    assert normal_within(0.029, 0.0, 0.03) == 1.0 and normal_within(-0.031, 0.0, 0.03) == 0.0


def test_the_spread_of_the_biases_beyond_their_noise():
    """Biases ±2 pp around 1 pp with se 1 pp: their variance (ddof 1) less the se², square-rooted; from
    one hand, no spread and no bound."""
    biases = [Bias(Contract.PRISE, m, 0.01, 1000) for m in (0.03, -0.01, 0.03, -0.01)]
    summary = bias_summary(biases)
    assert summary["mean"] == pytest.approx(0.01)
    assert summary["spread"] == pytest.approx(math.sqrt(0.02 ** 2 * 4 / 3 - 0.01 ** 2))
    assert summary["spread_upper"] >= summary["spread"]
    one = bias_summary(biases[:1])
    assert math.isnan(one["spread"]) and one["spread_upper"] == math.inf


@pytest.mark.parametrize("means,spreads", [((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),
                                           ((-0.006, -0.002, 0.0), (0.008, 0.012, 0.01)),
                                           ((0.01, 0.0, -0.01), (0.02, 0.005, 0.0))])
def test_the_expected_share_finds_the_true_one_and_its_bounds_stay_below(means, spreads):
    """400 hands (seed 7) whose true biases are normal around ``means`` with ``spreads`` (Prise, Garde sans,
    Garde contre; Garde Prise's), answered with standard errors of 0.3 to 1.3 pp, each bias measured
    with an se of 0.6 to 1.3 pp: the expected share is within 1.5 pp of the true share (each answer
    normal around its true bias), the bounds are not above it by more than that."""
    rng = np.random.default_rng(7)
    three = (Contract.PRISE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
    checks, truth = [], []
    for _ in range(400):
        true = dict(zip(three, rng.normal(means, spreads)))
        true[Contract.GARDE] = true[Contract.PRISE]
        answer_se = dict(zip(three, rng.uniform(0.003, 0.013, 3)))
        answer_se[Contract.GARDE] = answer_se[Contract.PRISE]
        bias_se = rng.uniform(0.006, 0.013, 3)
        measured = {c: (true[c] + rng.normal(0, e), e) for c, e in zip(three, bias_se)}
        measured[Contract.GARDE] = measured[Contract.PRISE]
        checks.append(check_of(measured, answer_se))
        truth.append(math.prod(normal_within(true[c], answer_se[c], 0.03) for c in three))
    summary = calibration_of(checks).paired_summary()
    share = sum(truth) / len(truth)
    assert summary["share_within_3pp_expected"] == pytest.approx(share, abs=0.015)
    assert summary["share_within_3pp_expected_low"] <= share + 0.015
    assert summary["share_within_3pp_at_least"] <= share + 0.015
    assert summary["biases"]["garde-sans"]["spread"] == pytest.approx(spreads[1], abs=0.004)


def test_one_model_against_itself_is_the_same_play_of_the_same_deals():
    """The tested play is deep search's (pimc, 3 worlds, both): every deal plays alike, so each bias is 0,
    its se the floor of one deal in the deals played (the deals and the play's draws are the same)."""
    biases = measure_biases(HAND, RULES, Settings(policy="pimc", worlds=3, jobs=1), 3, 40, 11,
                            {c: 0.01 for c in Contract})
    assert [b.contract for b in biases] == list(Contract)
    assert all(b.mean == 0.0 and b.deals == 40 and b.se == pytest.approx(1 / 40) for b in biases)


def test_a_bias_is_the_difference_of_the_two_plays_of_each_deal():
    """The heuristic against pimc with 2 worlds: each contract's bias is the difference of its made rate
    under each on deals 0…59 of the stream (Garde's: Prise's play scored as Garde), its se the paired
    difference's; the deep play is deep search's ``odds`` of those deals."""
    biases = {b.contract: b for b in measure_biases(HAND, RULES, Settings(policy="heuristic", jobs=1), 2, 60, 11,
                                                    {c: 0.01 for c in Contract})}
    deep = {o.contract: o.success.p for o in contract_odds(HAND, RULES, 0, Settings(policy="pimc", worlds=2, deals=60,
                                                                                    seed=11, jobs=1)).contracts}
    for contract in (Contract.PRISE, Contract.GARDE_SANS, Contract.GARDE_CONTRE):
        made = [simulate_contract(HAND, 0, contract, RULES, policy, 60, 11, worlds=2,
                                  search_driver=True)[:, K.R_MADE] for policy in ("heuristic", "pimc")]
        assert made[1].mean() == pytest.approx(deep[contract])
        d = made[0].astype(float) - made[1]
        assert biases[contract].mean == pytest.approx(d.mean())
        assert biases[contract].se == pytest.approx(max(d.std(ddof=1) / math.sqrt(60), 1 / 60))
        assert biases[contract].deals == 60
    assert biases[Contract.GARDE].mean == pytest.approx(biases[Contract.PRISE].mean)


def test_a_contract_stops_once_its_bias_is_known_to_the_ratio_of_the_answer_s_noise(monkeypatch):
    """A round of deals, then a stop once the bias's se is within the ratio of a loose answer's se; against a
    tight one, every deal asked for, the last round cut short.  The rule, not the deals' count: the rounds
    are shortened here."""
    monkeypatch.setattr(paired, "STEP", 25)
    loose = measure_biases(HAND, RULES, Settings(policy="heuristic", jobs=1), 1, 2 * paired.STEP, 11,
                           {c: 1.0 for c in Contract})
    assert all(b.deals == paired.STEP for b in loose)
    tight = measure_biases(HAND, RULES, Settings(policy="heuristic", jobs=1), 1, paired.STEP + 20, 11,
                           {c: 1e-6 for c in Contract})
    assert all(b.deals == paired.STEP + 20 for b in tight)


@pytest.fixture(scope="module")
def paired_run(tmp_path_factory) -> tuple[dict, str]:
    """Two hands with --paired 20, their record kept: the run's JSON and the record's path, which the tests
    below read (a test that resumes the record resumes a copy of it)."""
    record = tmp_path_factory.mktemp("paired") / "paired.jsonl"
    result = CliRunner().invoke(main, [*TINY, "--paired", "20", "--format", "json", "--record", str(record)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), str(record)


@pytest.fixture(scope="module")
def paired_report(paired_run) -> dict:
    return paired_run[0]


@pytest.fixture(scope="module")
def paired_record(paired_run) -> str:
    return paired_run[1]


def test_the_command_measures_each_hand_s_biases_and_sums_them_up(paired_report):
    assert paired_report["paired"] == {"most_deals": 20, "step": paired.STEP, "stop_at_se_ratio": paired.RATIO,
                                       "seed": paired.SEED, "deep_policy": "pimc"}
    for i, hand in enumerate(paired_report["per_hand"]):
        assert [b["contract"] for b in hand["paired"]] == [c.token for c in Contract]
        biases = measure_biases(Hand.parse(hand["hand"]), RULES, Settings(policy="heuristic", jobs=1), 2, 20,
                                hand_seed(paired.SEED, i), {c: 1.0 for c in Contract})
        assert [b["bias"] for b in hand["paired"]] == pytest.approx([b.mean for b in biases])
        assert 0.0 <= hand["within_3pp_at_least"] <= 1.0
    summary = paired_report["summary"]
    chances = [h["within_3pp_at_least"] for h in paired_report["per_hand"]]
    assert summary["share_within_3pp_at_least"] == pytest.approx(sum(chances) / 2)
    assert 0.0 <= summary["share_within_3pp_expected_low"] <= summary["share_within_3pp_expected"] <= 1.0
    assert summary["biases"]["prise"]["mean"] == pytest.approx(
        sum(h["paired"][0]["bias"] for h in paired_report["per_hand"]) / 2)
    assert "paired" in summary["seconds_per_command"]


def test_without_paired_nothing_of_it_is_said():
    result = CliRunner().invoke(main, [*TINY, "--hands", "1", "--format", "json"])
    data = json.loads(result.stdout)
    assert "paired" not in data and "biases" not in data["summary"] and "paired" not in data["per_hand"][0]


def test_table_and_csv_show_the_biases(paired_record, tmp_path):
    """The paired run's hands taken from its record (--resume): the table of the first alone, then of both,
    and the first's CSV."""
    record = tmp_path / "paired.jsonl"
    shutil.copyfile(paired_record, record)
    taken = [*TINY, "--paired", "20", "--record", str(record), "--resume"]
    table = CliRunner().invoke(main, [*taken, "--hands", "1"]).stdout
    assert "bias  ± se  deals" in table and "paired: the default's play minus deep search's" in table
    assert "every answer within ±3 pp of deep search's expectation, at least: " in table
    assert "spread beyond noise (95% bound)" in table and "(two hands or more)" in table     # one hand: no spread
    assert "at least" in table and "the rest needs two hands or more" in table
    two = CliRunner().invoke(main, taken).stdout
    assert "    expected " in two and "(the spreads at their 95% bound)" in two
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(main, [*taken, "--hands", "1", "--format",
                                                                      "csv"]).stdout)))
    assert len(rows) == 4 and all(r["bias_deals"] == "20" and r["bias"] and r["bias_se"] for r in rows)


def test_a_record_keeps_the_biases_and_refuses_other_paired_settings(tmp_path):
    record = tmp_path / "run.jsonl"
    first = calibrate(4, 1, 3, 2, 10, 1, tested=Settings(policy="heuristic"), record=record, paired=20)
    again = calibrate(4, 1, 3, 2, 10, 1, tested=Settings(policy="heuristic"), record=record, resume=True, paired=20)
    assert again.hands[0].biases == first.hands[0].biases and first.hands[0].biases
    assert json.loads(record.read_text().splitlines()[0])["calibrate"]["paired"]["most_deals"] == 20
    for other in (["--paired", "30"], []):
        args = [*TINY, "--hands", "1", "--deep-deals", "10", "--record", str(record), "--resume", *other]
        assert_one_error_line(CliRunner().invoke(main, args), "paired")


@pytest.mark.parametrize("value", ["5", "x", "0"])
def test_bad_paired_is_one_line(value):
    assert_one_error_line(CliRunner().invoke(main, ["calibrate", "--paired", value]), "--paired")


def test_biases_taken_from_a_paired_record_judge_other_answers_without_measuring(paired_record, monkeypatch):
    """--biases-from: the record's biases, this run's answers (their own standard errors): the share
    expected within ±3 pp as a run measuring both would give it, without playing the paired deals."""
    import analyzer.quality.calibrate as module
    monkeypatch.setattr(module, "measure_biases", lambda *a: pytest.fail("measured again"))
    result = CliRunner().invoke(main, [*TINY, "--precision", "0.03", "--biases-from", paired_record,
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    taken = json.loads(result.stdout)
    _, held, _ = module.read_record(__import__("pathlib").Path(paired_record))
    assert taken["paired"]["taken_from"] == paired_record and taken["paired"]["most_deals"] == 20
    for i, hand in enumerate(taken["per_hand"]):
        assert hand["paired"] == [b.as_dict() for b in held[i].biases]
    checks = [module.HandCheck.from_dict(h, (None, None)) for h in taken["per_hand"]]
    want = calibration_of(checks).paired_summary()
    assert taken["summary"]["share_within_3pp_expected"] == pytest.approx(want["share_within_3pp_expected"])
    assert [h["contracts"][0]["se_default"] for h in taken["per_hand"]] != \
        [held[i].gaps[0].default.se for i in range(2)]                # this run's answers, not the record's


@pytest.mark.parametrize("args,word", [
    (["--paired", "20"], "--paired"), (["--seed", "4"], "seed 3, here 4"),
    (["--policy", "mixed"], "tested.policy heuristic, here mixed"), (["--hands", "3"], "no biases for hand 3"),
])
def test_biases_from_a_record_that_does_not_fit_are_refused(paired_record, args, word):
    invoked = [*TINY, "--biases-from", paired_record, *args]
    if "--hands" in args:
        invoked[invoked.index("--hands") + 1] = args[-1]
        invoked = invoked[:-2]
    assert_one_error_line(CliRunner().invoke(main, invoked), word)


def test_biases_from_a_record_without_them_are_refused(tmp_path):
    record = tmp_path / "plain.jsonl"
    assert CliRunner().invoke(main, [*TINY, "--hands", "1", "--record", str(record)]).exit_code == 0
    assert_one_error_line(CliRunner().invoke(main, [*TINY, "--hands", "1", "--biases-from", str(record)]),
                          "holds no biases for hand 1")
    assert_one_error_line(CliRunner().invoke(main, [*TINY, "--biases-from", str(tmp_path / "none")]), "no such")
