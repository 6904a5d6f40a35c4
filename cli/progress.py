"""A progress bar on stderr that appears only for runs longer than about a second, and a one-line
notice when the kernels are being compiled (a first run after an install or an update: the wait
before the first chunk is compilation, not simulation).  Both are for a person watching: they are
written only when stderr is a terminal, so a captured log or a test never gets redrawn lines or a
notice that depends on the state of the cache.  ``--quiet`` drops the bar but keeps the notice (one
line, without which a first run looks hung)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from numba.core import event

COMPILE_NOTICE = ("compiling the simulation kernels: a first run after an install or update waits up to about 2 "
                  "minutes, once (`tarot-analyzer warm` compiles every command's at once)…")


class _CompileNotice(event.Listener):
    """Writes the notice once, at the first function Numba compiles (cache hits fire no event)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def on_start(self, ev: event.Event) -> None:
        if not self.shown:
            self.shown = True
            self.stream.write(COMPILE_NOTICE + "\n")
            self.stream.flush()

    def on_end(self, ev: event.Event) -> None:
        pass


class Progress:
    """Call with (done, total); draws on stderr once a second has passed, when stderr is a terminal
    and not ``quiet``.  Until ``close``, a compilation of the kernels is announced in one line when
    stderr is a terminal (even when ``quiet``).  A context manager: ``with Progress(...) as bar``
    closes it on the way out.  ``unit`` names what is counted (deals, hands)."""

    def __init__(self, label: str, quiet: bool = False, delay: float = 1.0, unit: str = "deals",
                 stream: TextIO | None = None):
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        terminal = bool(isatty and isatty())
        self.live = terminal and not quiet
        self.start = time.monotonic()
        self.delay = delay
        self.drawn = False
        self.notice = _CompileNotice(self.stream) if terminal else None
        if self.notice:
            event.register("numba:compile", self.notice)

    def __call__(self, done: int, total: int | None) -> None:
        """``total`` None: running until a precision is reached (the bar shows the count only)."""
        if not self.live or time.monotonic() - self.start < self.delay:
            return
        width = 30
        if total:
            filled = int(width * done / total)
            bar = f"[{'#' * filled}{'.' * (width - filled)}] "
        else:
            bar = ""
        of = f" of {total:,}" if total else ""
        self.stream.write(f"\r{self.label} {bar}{done:,}{of} {self.unit}")
        self.stream.flush()
        self.drawn = True

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.notice:
            event.unregister("numba:compile", self.notice)
            self.notice = None
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def compile_notice(stream: TextIO | None = None) -> Progress:
    """Only the one-line compile notice, for a command with no count to show (``with compile_notice():``)."""
    return Progress("", quiet=True, stream=stream)
