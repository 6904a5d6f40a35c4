"""Run sizes beyond what memory or time allows (--deals, --hands near 10^12; a batch's --deals past 10^8)
are refused in one line, before any work, and --help states the bounds."""

import pytest
from click.testing import CliRunner

from analyzer.batch import run_batch
from analyzer.quality.bidcheck import MAX_HANDS, check_bidding
from analyzer.errors import SizeLimitError
from analyzer.quality.match import MAX_DEALS as MAX_MATCH_DEALS
from analyzer.quality.match import run_match
from analyzer.runs import MAX_DEALS as MAX_BATCH_DEALS
from cli.main import main
from tests.support.errorline import assert_one_error_line
from tests.support.hands import FFT_HAND

HAND = FFT_HAND
CHIEN = "CD 6D 2D 7C 3C KC"
DISCARD_HAND = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H 9D 4D 2H 4C 5C"


@pytest.mark.parametrize("args,option", [
    (["compare-bidding", "--hands", str(10 ** 12)], "--hands"),
    (["compare-bidding", "--deals", str(10 ** 12)], "--deals"),
    (["match", "--a", "random", "--b", "random", "--deals", str(10 ** 12)], "--deals"),
    (["discard", DISCARD_HAND, "--chien", CHIEN, "--deals", str(10 ** 12)], "--deals"),
    (["batch", "--out", "out.csv", "--deals", "9" * 30], "--deals"),      # would run for ever: chunk after chunk
])
def test_huge_sizes_are_one_line(args, option):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert_one_error_line(result, option)


@pytest.mark.parametrize("command,bound", [("compare-bidding", f"{MAX_HANDS:,}"), ("match", f"{MAX_MATCH_DEALS:,}"),
                                           ("batch", f"{MAX_BATCH_DEALS:,}")])
def test_help_states_the_bounds(command, bound):
    assert bound in CliRunner().invoke(main, [command, "--help"]).stdout


def test_the_analyzer_refuses_them_too():
    with pytest.raises(SizeLimitError, match="--hands"):
        check_bidding(MAX_HANDS + 1)
    with pytest.raises(SizeLimitError, match="--deals"):
        run_match("heuristic", "random", MAX_MATCH_DEALS + 1)
    with pytest.raises(SizeLimitError, match="--deals"):
        run_batch("out.csv", 4, MAX_BATCH_DEALS + 1)
