"""``compare-analyses`` and ``calibrate-coach``'s arithmetic, on constructed analyses and first cards."""

import json
import math

import pytest
from click.testing import CliRunner

from analyzer.errors import TarotError
from analyzer.quality.coach_calibration import FirstCard, calibration
from analyzer.quality.judge_agreement import card_decisions, compare
from cli.main import main


def card(trick: int, played: str, best_group: list[str], verdict: str | None, alternatives: list[tuple],
         judged_by: str = "heuristic") -> dict:
    return {"seat": 1, "phase": "card", "trick": trick, "played": played, "judged": True, "best": best_group[0],
            "best_group": best_group, "verdict": verdict, "judged_by": judged_by,
            "alternatives": [{"choice": c, "vs_best": v, "vs_best_se": se} for c, v, se in alternatives]}


def write(path, decisions) -> str:
    path.write_text(json.dumps({"deals": [{"index": 0, "decisions": decisions}]}))
    return str(path)


TESTED = [card(1, "KS", ["KS"], None, [("KS", 0, 0), ("2S", -5, 1)]),
          card(2, "1", ["21"], "blunder", [("21", 0, 0), ("1", -90, 5)], judged_by="pimc-prior"),
          card(3, "7H", ["2H"], "inaccuracy", [("2H", 0, 0), ("7H", -6, 1)]),
          card(4, "QD", ["QD"], None, [("QD", 0, 0), ("1D", -3, 1)]),
          {"seat": 1, "phase": "card", "trick": 5, "played": "4C", "judged": False}]
REFERENCE = [card(1, "KS", ["2S"], None, [("2S", 0, 0), ("KS", -1, 2)]),     # KS within one se of the best
             card(2, "1", ["21"], "blunder", [("21", 0, 0), ("1", -80, 6)]),
             card(3, "7H", ["7H", "2H"], None, [("7H", 0, 0), ("2H", -1, 1)]),
             card(4, "QD", ["1D"], "mistake", [("1D", 0, 0), ("QD", -12, 1)])]


def test_agreement_counts(tmp_path):
    result = compare(card_decisions(write(tmp_path / "a.json", TESTED)),
                     card_decisions(write(tmp_path / "b.json", REFERENCE)))
    assert (result.cards, result.same_best) == (4, 3)            # trick 4: QD is 12 below the reference's best
    assert (result.flagged, result.reference_flagged, result.common) == (2, 2, 1)
    assert (result.false_flags, result.missed, result.searched) == (1, 1, 1)


def test_the_command_prints_the_shares_and_refuses_what_is_not_an_analysis(tmp_path):
    a, b = write(tmp_path / "a.json", TESTED), write(tmp_path / "b.json", REFERENCE)
    out = CliRunner().invoke(main, ["compare-analyses", a, b])
    assert out.exit_code == 0 and "3 (75%)" in out.output and "false flags 1, missed 1" in out.output
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    out = CliRunner().invoke(main, ["compare-analyses", a, str(bad)])
    assert out.exit_code != 0 and "not the JSON of tarot-analyzer analyze" in out.output
    with pytest.raises(TarotError):
        compare(card_decisions(a), {})


def test_calibration_by_role_with_the_gap_s_standard_error_over_deals():
    cards = [FirstCard(0, 0, "taker", 0.9, True, 300), FirstCard(0, 1, "defender", 0.5, True, 40),
             FirstCard(0, 2, "defender", 0.7, True, 300), FirstCard(1, 1, "taker", 0.2, False, 300),
             FirstCard(1, 0, "defender", 0.1, False, 300)]
    rows = {r.role: r for r in calibration(cards)}
    taker, defender = rows["taker"], rows["defender"]
    assert (taker.seats, taker.deals) == (2, 2) and math.isclose(taker.chance, 0.55) and taker.made == 0.5
    assert math.isclose(taker.gap, 0.05)
    assert math.isclose(taker.gap_se, math.sqrt(((-0.1 - 0.05) ** 2 + (0.2 - 0.05) ** 2) / 1 / 2))
    assert (defender.seats, defender.deals, defender.low_effective) == (3, 2, 1)
    assert math.isclose(defender.gap, (-0.5 - 0.3 + 0.1) / 3)
    assert "partner" not in rows
