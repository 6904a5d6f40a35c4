"""Errors outside a single command's own checks: every one is one line on stderr, never a traceback
(a missing option with choices, files that are not UTF-8 text)."""

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.support.errorline import assert_one_error_line


def test_a_missing_option_with_choices_is_one_line(tmp_path):
    path = tmp_path / "log.json"
    path.write_text("{}")
    result = CliRunner().invoke(main, ["record", "import", str(path)])
    assert_one_error_line(result, "Missing option '--from'", "tarotclub")


@pytest.mark.parametrize("args", [["analyze", "{}", "--deals", "10"], ["record", "check", "{}"],
                                  ["record", "import", "--from", "tarotclub", "{}"]])
def test_a_file_that_is_not_utf8_is_one_line(tmp_path, args):
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = CliRunner().invoke(main, [str(path) if a == "{}" else a for a in args])
    assert_one_error_line(result, "not UTF-8", "binary.txt")


def test_a_group_without_its_subcommand_prints_its_help():
    # `record` alone asks what `record` does: its help, as the program's own help is for no arguments
    # (not a usage error flattened onto one line).
    result = CliRunner().invoke(main, ["record"], prog_name="tarot-analyzer")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: tarot-analyzer record [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in result.stdout and "check" in result.stdout and result.stderr == ""
