"""`tarot-analyzer score` through CliRunner: table breakdown, JSON keys, one-line errors, --version and -h."""

import json
import re

import pytest
from click.testing import CliRunner

from analyzer import __version__
from cli.main import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def score_json(*args):
    result = run("score", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def breakdown(text):
    """label -> last signed number on that line of the table."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s+([a-zé ]+?)\s{2,}.*?([+-]\d+)(?:\s+\(.*\))?$", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


# --- table ----------------------------------------------------------------------------------------

def test_table_shows_every_breakdown_line():
    result = run("score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--petit-au-bout", "defence",
                 "--poignee", "taker:double", "--chelem", "announced-failed")
    assert result.exit_code == 0, result.output
    lines = breakdown(result.stdout)
    # Garde made by 4: +58; petit au bout to the defence: -20; poignée to the winner (taker): +30; chelem -200
    assert lines["base"] == 58
    assert lines["petit au bout"] == -20
    assert lines["poignée"] == 30
    assert lines["chelem"] == -200
    assert lines["per defender"] == -132
    assert lines["taker"] == -396
    assert lines["each defender"] == 132
    assert "partner" not in lines
    assert "made by 4" in result.stdout
    assert "target 41" in result.stdout
    assert "+(25 + 4) x 2 = +58" in result.stdout


def test_table_of_a_lost_deal():
    result = run("score", "--contract", "prise", "--oudlers", "1", "--points", "45")
    assert result.exit_code == 0, result.output
    lines = breakdown(result.stdout)
    assert (lines["base"], lines["petit au bout"], lines["poignée"], lines["chelem"]) == (-31, 0, 0, 0)
    assert (lines["taker"], lines["each defender"]) == (-93, 31)
    assert "lost by 6" in result.stdout


def test_table_five_players_shows_the_partner():
    result = run("score", "--players", "5", "--contract", "garde", "--oudlers", "2", "--points", "45")
    assert result.exit_code == 0, result.output
    lines = breakdown(result.stdout)
    assert (lines["taker"], lines["partner"], lines["each defender"]) == (116, 58, -58)


# --- JSON -----------------------------------------------------------------------------------------

def test_json_keys_and_values_four_players():
    data = score_json("--contract", "garde", "--oudlers", "2", "--points", "45")
    for key in ("made", "margin", "contract_points", "taker", "partner", "defender"):
        assert key in data
    assert (data["made"], data["margin"], data["contract_points"], data["taker"], data["defender"]) == \
        (True, 4, 58, 174, -58)
    assert data["partner"] is None


def test_json_partner_null_at_three_players_and_alone():
    three = score_json("--players", "3", "--contract", "garde", "--oudlers", "2", "--points", "41.5")
    assert (three["margin"], three["contract_points"], three["taker"], three["partner"], three["defender"]) == \
        (1, 52, 104, None, -52)
    alone = score_json("--players", "5", "--contract", "prise", "--oudlers", "1", "--points", "55.5", "--alone")
    assert (alone["margin"], alone["contract_points"], alone["taker"], alone["partner"], alone["defender"]) == \
        (5, 30, 120, None, -30)


def test_json_partner_at_five_players():
    data = score_json("--players", "5", "--contract", "prise", "--oudlers", "1", "--points", "50.5")
    assert (data["made"], data["margin"], data["contract_points"], data["taker"], data["partner"],
            data["defender"]) == (False, -1, -26, -52, -26, 26)


def test_json_variants_are_applied():
    flat = score_json("--contract", "garde-contre", "--oudlers", "2", "--points", "41", "--petit-au-bout", "taker",
                      "--variant", "petit-au-bout=flat")
    assert flat["contract_points"] == 150 + 10
    mult = score_json("--contract", "garde-contre", "--oudlers", "2", "--points", "41", "--petit-au-bout", "taker")
    assert mult["contract_points"] == 150 + 60
    big = score_json("--contract", "prise", "--oudlers", "2", "--points", "41", "--poignee", "defence:triple",
                     "--variant", "poignee-values=20-40-60")
    assert big["contract_points"] == 25 + 60


def test_json_comma_decimal_and_contract_aliases():
    data = score_json("--players", "3", "--contract", "petite", "--oudlers", "2", "--points", "40,5")
    assert (data["made"], data["margin"], data["contract_points"]) == (False, -1, -26)
    data = score_json("--contract", "garde-sans-le-chien", "--oudlers", "3", "--points", "36")
    assert data["contract_points"] == 100



@pytest.mark.parametrize("options,total", [
    # Garde made by 0 (2 oudlers, 41 points): 25 x 2 = 50, then each bonus on its own
    ("", 50),
    ("--petit-au-bout taker", 70),                                   # 10 x 2
    ("--petit-au-bout defence", 30),                                 # to the defence, whatever the result
    ("--petit-au-bout taker --variant petit-au-bout=flat", 60),     # flat 10
    ("--poignee defence:simple", 70),                                # to the side that wins, whoever showed it
    ("--poignee taker:simple --poignee defence:simple", 90),         # 20 + 20, never multiplied
    ("--poignee taker:double --variant poignee-values=20-40-60", 90),
    ("--chelem announced-failed", -150),
])
def test_json_each_bonus(options, total):
    data = score_json("--contract", "garde", "--oudlers", "2", "--points", "41", *options.split())
    assert data["contract_points"] == total and data["taker"] == 3 * total and data["defender"] == -total


@pytest.mark.parametrize("options,total", [
    # a Garde: every trick to the taker's side (3 oudlers, 91 points, made by 55) or to the defence
    # (0 oudlers, the 6 discarded cards: 3 points, lost by 53)
    ("--oudlers 3 --points 91 --chelem announced-made", (25 + 55) * 2 + 400),
    ("--oudlers 3 --points 91 --chelem made", (25 + 55) * 2 + 200),
    ("--oudlers 0 --points 3 --chelem defence", -(25 + 53) * 2 - 200),         # each defender +200
    ("--oudlers 0 --points 3 --chelem announced-failed", -(25 + 53) * 2 - 200),
])
def test_json_chelem_bonus(options, total):
    data = score_json("--contract", "garde", *options.split())
    assert data["contract_points"] == total and data["taker"] == 3 * total and data["defender"] == -total


def test_fft_chelem_example_with_the_excuse_kept_by_the_defence():
    """The FFT's worked example (docs/rules.md, "Scoring"): Garde, chelem announced and made while the
    defence kept its Excuse (the exchange is arithmetic even for a side with no card): 87 points with
    2 oudlers, a simple poignée and the Petit au bout to the taker: 142 + 20 + 20 + 400 = 582."""
    result = run("score", "--contract", "garde", "--oudlers", "2", "--points", "87", "--poignee", "taker:simple",
                 "--petit-au-bout", "taker", "--chelem", "announced-made")
    assert result.exit_code == 0, result.output
    lines = breakdown(result.stdout)
    assert (lines["base"], lines["petit au bout"], lines["poignée"], lines["chelem"]) == (142, 20, 20, 400)
    assert lines["taker"] == 1746
    assert lines["each defender"] == -582
    # one point less has no deal: a side taking every trick counts 91, or 87 when the defence kept its Excuse
    refused = run("score", "--contract", "garde", "--oudlers", "2", "--points", "85", "--chelem", "announced-made")
    assert refused.exit_code != 0 and "exactly 87" in refused.output


def test_json_a_lost_contract_gives_the_poignee_to_the_defence():
    data = score_json("--contract", "garde-contre", "--oudlers", "0", "--points", "50", "--poignee", "taker:simple")
    assert data["contract_points"] == -(25 + 6) * 6 - 20

# --- errors: one line starting with "Error:", no traceback, exit code != 0 --------------------------

BASE = ["--contract", "prise", "--oudlers", "1", "--points", "45"]


def replace(args, option, value):
    args = list(args)
    args[args.index(option) + 1] = value
    return args


@pytest.mark.parametrize("args,word", [
    (replace(BASE, "--contract", "grande"), "grande"),
    (replace(BASE, "--points", "92"), "92"),
    (replace(BASE, "--points", "-1"), "-1"),
    (replace(BASE, "--points", "91.5"), "91.5"),
    (replace(BASE, "--points", "abc"), "abc"),
    (replace(BASE, "--points", "40.5"), "40.5"),
    (replace(BASE, "--points", "40.25"), "40.25"),
    (replace(BASE, "--oudlers", "4"), "4"),
    (BASE + ["--alone"], "5 players"),
    (BASE + ["--variant", "colour=red"], "colour"),
    (BASE + ["--variant", "chelem=grand"], "grand"),
    (BASE + ["--variant", "petit-au-bout"], "petit-au-bout"),
    (BASE + ["--poignee", "taker:quadruple"], "quadruple"),
    (BASE + ["--poignee", "nobody:simple"], "nobody"),
    (BASE + ["--poignee", "taker"], "taker"),
    (BASE + ["--chelem", "maybe"], "maybe"),
    (BASE + ["--chelem", "petit-announced-made"], "petit-chelem"),
    (BASE + ["--petit-au-bout", "nobody"], "nobody"),
    (replace(BASE, "--oudlers", "x"), "x"),
    (["--players", "6"] + BASE, "6"),
    # numbers Python's float() reads but a person does not write
    (replace(BASE, "--points", "4_0"), "4_0"),
    (replace(BASE, "--points", "\u0664\u0665"), "is not a number of points"),      # Arabic-Indic digits
    (replace(BASE, "--points", "1e1"), "1e1"),
    (replace(BASE, "--points", "nan"), "nan"),
    # summaries no deal ends with
    (["--contract", "prise", "--oudlers", "3", "--points", "0"], "0 points with 3 oudlers is impossible"),
    (BASE + ["--chelem", "made"], "took every trick"),
    (["--contract", "prise", "--oudlers", "1", "--points", "70", "--chelem", "defence"], "the defence took every"),
    (["--contract", "prise", "--oudlers", "0", "--points", "60", "--petit-au-bout", "taker"], "holds 0 oudlers"),
    (BASE + ["--poignee", "taker:triple", "--poignee", "defence:triple"], "30 trumps"),
])
def test_bad_input_is_one_error_line(args, word):
    result = run("score", *args)
    assert result.exit_code != 0
    assert result.exit_code in (1, 2)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    err = result.stderr.strip().splitlines()
    assert len(err) == 1, result.stderr
    assert err[0].startswith("Error:")
    assert word in err[0]


def test_missing_required_option_is_an_error():
    result = run("score", "--contract", "prise", "--oudlers", "1")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines()[0].startswith("Error:")
    assert "--points" in result.stderr


# --- --version and -h ----------------------------------------------------------------------------

def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"tarot-analyzer, version {__version__}"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_score_help(flag):
    result = run("score", flag)
    assert result.exit_code == 0
    for option in ("--players", "--contract", "--oudlers", "--points", "--petit-au-bout", "--poignee", "--chelem",
                   "--alone", "--variant", "--format"):
        assert option in result.stdout
    assert result.stdout.startswith("Usage:")


def test_group_help_lists_score():
    result = run("-h")
    assert result.exit_code == 0
    assert re.search(r"^\s+score\s", result.stdout, re.M)
