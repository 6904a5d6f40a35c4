"""The README keeps exactly two set-up commands, and its main command runs."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
import pytest

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
SETUP = README.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
BLOCKS = re.findall(r"```bash\n(.*?)```", SETUP, re.S)


def test_two_setup_commands_one_for_tests():
    assert len(BLOCKS) == 2
    assert all(len(b.strip().splitlines()) == 1 for b in BLOCKS)
    assert "pip install -e '.[test]'" in BLOCKS[1] and "pytest" in BLOCKS[1]


def test_main_command_runs():
    command = BLOCKS[0].strip().split("&&")[-1].strip()
    argv = shlex.split(command)
    assert argv[0] == "tarot-analyzer"
    result = CliRunner().invoke(main, argv[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    assert BLOCKS[1].strip().split("&&", 2)[-1].strip() in ci
