"""A progress bar on stderr that appears only for runs longer than about a second, and a one-line
notice when the kernels are being compiled (a first run after an install or an update: the wait
before the first chunk is compilation, not simulation)."""

from __future__ import annotations

import sys
import time

from numba.core import event

COMPILE_NOTICE = "compiling the simulation kernels (first run after an install or update; cached after)…"


class _CompileNotice(event.Listener):
    """Writes the notice once, at the first function Numba compiles (cache hits fire no event)."""

    def __init__(self) -> None:
        self.shown = False

    def on_start(self, ev: event.Event) -> None:
        if not self.shown:
            self.shown = True
            sys.stderr.write(COMPILE_NOTICE + "\n")
            sys.stderr.flush()

    def on_end(self, ev: event.Event) -> None:
        pass


class Progress:
    """Call with (done, total); draws on stderr once a second has passed, unless ``quiet``.  Until
    ``close``, a compilation of the kernels is announced on stderr (unless ``quiet``).  A context
    manager: ``with Progress(...) as bar`` closes it on the way out."""

    def __init__(self, label: str, quiet: bool = False, delay: float = 1.0):
        self.label = label
        self.quiet = quiet
        self.start = time.monotonic()
        self.delay = delay
        self.drawn = False
        self.notice = None if quiet else _CompileNotice()
        if self.notice:
            event.register("numba:compile", self.notice)

    def __call__(self, done: int, total: int | None) -> None:
        """``total`` None: running until a precision is reached (the bar shows the count only)."""
        if self.quiet or time.monotonic() - self.start < self.delay:
            return
        width = 30
        if total:
            filled = int(width * done / total)
            bar = f"[{'#' * filled}{'.' * (width - filled)}] "
        else:
            bar = ""
        sys.stderr.write(f"\r{self.label} {bar}{done:,} deals")
        sys.stderr.flush()
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
            sys.stderr.write("\n")
            sys.stderr.flush()
