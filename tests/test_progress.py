"""The progress bar's compile notice: shown once when Numba compiles during a run, never when quiet,
never after the run is closed."""

from numba import njit

from cli.progress import COMPILE_NOTICE, Progress


def _compile_something_new(k: int) -> None:
    """A fresh jitted function (not cached): calling it compiles it."""
    njit(lambda x: x + k)(1)


def test_compile_notice_once_and_only_while_running(capsys):
    bar = Progress("simulating")
    _compile_something_new(1)
    _compile_something_new(2)
    bar.close()
    _compile_something_new(3)
    assert capsys.readouterr().err.count(COMPILE_NOTICE) == 1


def test_no_compile_notice_when_quiet(capsys):
    bar = Progress("simulating", quiet=True)
    _compile_something_new(4)
    bar.close()
    assert COMPILE_NOTICE not in capsys.readouterr().err
