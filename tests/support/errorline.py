"""The shape every user error must have: a non-zero exit (1 or 2) and one line on stderr, no traceback."""

from __future__ import annotations


def assert_one_error_line(result, *words: str) -> str:
    """Check a CliRunner result and return its line; each of ``words`` must be in it."""
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
