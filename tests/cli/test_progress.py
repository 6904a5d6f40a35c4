"""The progress bar and its compile notice, both only on a terminal (a captured log or a test gets neither):
the notice is one line, shown once when Numba compiles during a run (quiet or not), never after the run
is closed; the bar shows the total."""

import io

from numba import njit

from cli.progress import COMPILE_NOTICE, Progress, compile_notice


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _compile_something_new(k: int) -> None:
    """A fresh jitted function (not cached): calling it compiles it."""
    njit(lambda x: x + k)(1)


def test_compile_notice_once_and_only_while_running():
    tty = Terminal()
    bar = Progress("simulating", stream=tty)
    _compile_something_new(1)
    _compile_something_new(2)
    bar.close()
    _compile_something_new(3)
    assert tty.getvalue().count(COMPILE_NOTICE) == 1


def test_compile_notice_in_one_line_when_quiet():
    tty = Terminal()
    bar = Progress("simulating", quiet=True, stream=tty)
    _compile_something_new(4)
    _compile_something_new(5)
    bar.close()
    assert tty.getvalue() == COMPILE_NOTICE + "\n"


def test_compile_notice_alone_for_commands_without_a_count():
    tty = Terminal()
    with compile_notice(tty):
        _compile_something_new(6)
    assert tty.getvalue() == COMPILE_NOTICE + "\n"


def test_neither_bar_nor_notice_when_stderr_is_not_a_terminal(capsys):
    log = io.StringIO()
    with Progress("simulating", delay=0.0, stream=log) as bar:
        _compile_something_new(7)
        for done in range(0, 10_001, 100):
            bar(done, 10_000)
    assert log.getvalue() == ""
    with Progress("simulating"):             # stderr captured by pytest: not a terminal
        _compile_something_new(8)
    assert capsys.readouterr().err == ""


def test_bar_with_its_total_on_a_terminal():
    tty = Terminal()
    with Progress("playing", delay=0.0, stream=tty) as bar:
        bar(500, 2000)
        bar(2000, 2000)
    text = tty.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n")
    assert "500 of 2,000 deals" in text and "2,000 of 2,000 deals" in text


def test_quiet_draws_no_bar_on_a_terminal():
    tty = Terminal()
    with Progress("simulating", quiet=True, delay=0.0, stream=tty) as bar:
        bar(1, 2)
    assert tty.getvalue() == ""
