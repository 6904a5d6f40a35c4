"""One spelling rule for contracts and sides in every command: any letter case, '_' or ' ' for '-', and the
aliases of Contract.parse / Side.parse (petite, guard, defense …)."""

import json

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.support.errorline import assert_one_error_line

DISCARD_HAND = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H 9D 4D 2H 4C 5C"
CHIEN = "CD 6D 2D 7C 3C KC"


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("side", ["defence", "Defence", "DEFENSE", " defence "])
def test_score_petit_au_bout_sides(side):
    result = run("score", "--contract", "Garde", "--oudlers", "2", "--points", "41", "--petit-au-bout", side,
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["petit_au_bout"] == -20


@pytest.mark.kernels
@pytest.mark.parametrize("spelling,token", [("Prise", "prise"), ("petite", "prise"), ("GUARD", "garde")])
def test_discard_contract_spellings(spelling, token):
    result = run("discard", DISCARD_HAND, "--chien", CHIEN, "--contract", spelling, "--deals", "10",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["contract"] == token


@pytest.mark.parametrize("spelling,words", [("garde_sans", "garde-sans has no discard"), ("gard", "'gard'")])
def test_discard_contract_without_a_discard_is_one_line(spelling, words):
    result = run("discard", DISCARD_HAND, "--chien", CHIEN, "--contract", spelling)
    assert result.exit_code == 2
    assert_one_error_line(result, "--contract", words)
