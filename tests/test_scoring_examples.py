"""The worked scoring examples of RULES.md and of the user's seed documents, through `score`."""

import json

import pytest
from click.testing import CliRunner

from cli.main import main

EXAMPLES = [
    # source, options, made, margin, per-defender total, taker, defender
    ("RULES.md FFT check", "--contract prise --oudlers 1 --points 44 --poignee taker:simple --petit-au-bout taker",
     False, -7, -42, -126, 42),
    ("RULES.md / seed 000 example 1", "--contract garde --oudlers 2 --points 45", True, 4, 58, 174, -58),
    ("RULES.md / seed 000 example 2", "--contract prise --oudlers 1 --points 45", False, -6, -31, -93, 31),
    # seed 000 example 3: a Garde made by 2 with every trick won (unannounced chelem, +200). The seed adds the
    # chelem and then multiplies by 3 for the taker: (27 x 2 + 200) = 254 per defender, 762 for the taker.
    ("seed 000 example 3", "--contract garde --oudlers 2 --points 43 --chelem made", True, 2, 254, 762, -254),
]


@pytest.mark.parametrize("source,options,made,margin,total,taker,defender", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example(source, options, made, margin, total, taker, defender):
    result = CliRunner().invoke(main, ["score", *options.split(), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["made"], data["margin"], data["contract_points"], data["taker"], data["defender"]) == \
        (made, margin, total, taker, defender)


def test_three_and_five_players():
    runner = CliRunner()
    three = json.loads(runner.invoke(main, ["score", "--players", "3", "--contract", "garde", "--oudlers", "2",
                                            "--points", "40.5", "--format", "json"]).output)
    assert three["margin"] == -1 and three["taker"] == -104 and three["defender"] == 52
    five = json.loads(runner.invoke(main, ["score", "--players", "5", "--contract", "prise", "--oudlers", "1",
                                           "--points", "55.5", "--format", "json"]).output)
    assert five["margin"] == 5 and five["taker"] == 60 and five["partner"] == 30 and five["defender"] == -30
    alone = json.loads(runner.invoke(main, ["score", "--players", "5", "--contract", "prise", "--oudlers", "1",
                                            "--points", "55.5", "--alone", "--format", "json"]).output)
    assert alone["taker"] == 120 and alone["partner"] is None


@pytest.mark.parametrize("options,total", [
    # Garde made by 0 (2 oudlers, 41 points): 25 x 2 = 50, then each bonus on its own
    ("", 50),
    ("--petit-au-bout taker", 70),                                   # 10 x 2
    ("--petit-au-bout defence", 30),                                 # to the defence, whatever the result
    ("--petit-au-bout taker --variant petit-au-bout=flat", 60),     # flat 10
    ("--poignee defence:simple", 70),                                # to the side that wins, whoever showed it
    ("--poignee taker:double --poignee defence:triple", 120),        # 30 + 40, never multiplied
    ("--poignee taker:double --variant poignee-values=20-40-60", 90),
    ("--chelem announced-made", 450),
    ("--chelem made", 250),
    ("--chelem announced-failed", -150),
    ("--chelem defence", -150),                                      # each defender +200
])
def test_each_bonus(options, total):
    args = ["score", "--contract", "garde", "--oudlers", "2", "--points", "41", *options.split(), "--format", "json"]
    data = json.loads(CliRunner().invoke(main, args).output)
    assert data["contract_points"] == total and data["taker"] == 3 * total and data["defender"] == -total


def test_a_lost_contract_gives_the_poignee_to_the_defence():
    args = ["score", "--contract", "garde-contre", "--oudlers", "0", "--points", "50", "--poignee", "taker:simple",
            "--format", "json"]
    data = json.loads(CliRunner().invoke(main, args).output)
    assert data["contract_points"] == -(25 + 6) * 6 - 20
