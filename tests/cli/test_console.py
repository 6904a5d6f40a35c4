"""The console script (cli.console.run): the installed `tarot-analyzer` runs the command group as the
tests' CliRunner does, with the same output, exit status and one-line errors, and leaves the garbage
collector on for the command itself."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SCORE = ["score", "--contract", "garde", "--oudlers", "2", "--points", "48"]


def console(*args: str) -> subprocess.CompletedProcess:
    code = "import sys; from cli.console import run; sys.argv[0] = 'tarot-analyzer'; run()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True)


def test_the_installed_script_is_the_console_runner():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["tarot-analyzer"] == "cli.console:run"


def test_a_command_answers_as_under_the_test_runner():
    done = console(*SCORE)
    assert done.returncode == 0, done.stderr
    assert done.stdout == CliRunner().invoke(main, SCORE).stdout
    assert done.stderr == ""


def test_a_bad_token_is_one_line_and_status_2():
    done = console("odds", "21 XX")
    assert done.returncode == 2
    assert done.stderr == "Error: unknown card token: 'XX'\n" and done.stdout == ""


def test_the_collector_stays_on_with_the_imports_frozen():
    # Frozen at import and at exit only: a command's own cycles are still collected while it runs.
    code = ("import gc, sys\nfrom cli.console import run\nsys.argv = ['tarot-analyzer', '--version']\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\nprint(gc.isenabled(), gc.get_freeze_count() > 10_000)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "True True"


def test_a_threading_layer_numba_cannot_load_is_one_line():
    # NUMBA_THREADING_LAYER set to a layer Numba does not know (or cannot load): the command says so in
    # one line and stops with status 2, as for any bad input, instead of Numba's traceback.
    code = "import sys; from cli.console import run; sys.argv[0] = 'tarot-analyzer'; run()"
    done = subprocess.run([sys.executable, "-c", code, "odds", "21 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D",
                           "--policy", "heuristic", "--deals", "10"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_THREADING_LAYER": "bogus"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "NUMBA_THREADING_LAYER" in done.stderr and "bogus" in done.stderr
