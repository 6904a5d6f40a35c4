"""A progress bar on stderr that appears only for runs longer than about a second."""

from __future__ import annotations

import sys
import time


class Progress:
    """Call with (done, total); draws on stderr once a second has passed, unless ``quiet``."""

    def __init__(self, label: str, quiet: bool = False, delay: float = 1.0):
        self.label = label
        self.quiet = quiet
        self.start = time.monotonic()
        self.delay = delay
        self.drawn = False

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

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
