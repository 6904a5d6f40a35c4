"""docs/cli.md is the commands' current help."""

from pathlib import Path

from cli.reference import reference


def test_cli_reference_is_up_to_date():
    path = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
    assert path.read_text(encoding="utf-8") == reference(), "run: python -m cli.reference > docs/cli.md"


def test_usage_lines_name_the_program_once():
    text = reference()
    assert "tarot-analyzer tarot-analyzer" not in text
    assert "Usage: tarot-analyzer batch [OPTIONS]" in text
    assert "Usage: tarot-analyzer [OPTIONS] COMMAND [ARGS]..." in text


def test_no_arguments_prints_the_help_and_succeeds():
    from click.testing import CliRunner

    from cli.main import main
    result = CliRunner().invoke(main, [], prog_name="tarot-analyzer")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: tarot-analyzer [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in result.stdout and "Error" not in result.output
