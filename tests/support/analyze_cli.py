"""Running ``tarot-analyzer analyze`` in the tests: the shipped records and a quick setting (the heuristic
on few worlds; the judge itself is tested in tests/coach/test_mixed_judge.py)."""

from pathlib import Path

from click.testing import CliRunner

from cli.main import main

DATA = Path(__file__).resolve().parents[2] / "data" / "records"
FAST = ["--policy", "heuristic", "--deals", "16", "--seed", "3", "--quiet"]


def run(*args):
    """``analyze`` with ``args``, through Click's runner."""
    return CliRunner().invoke(main, ["analyze", *args])
