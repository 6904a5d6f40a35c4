"""docs/cli.md is the commands' current help."""

from pathlib import Path

from cli.reference import reference


def test_cli_reference_is_up_to_date():
    path = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
    assert path.read_text(encoding="utf-8") == reference(), "run: python -m cli.reference > docs/cli.md"
