"""The console script ``tarot-analyzer``: the command group of ``cli.main``, started and ended without
Python's cyclic garbage collector sweeping the heap that Numba builds.

Importing Numba and loading cached kernels creates a great many objects that live until the process
ends.  Left alone, the collector traverses them again and again while the modules import, and once more
when the interpreter shuts down: a noticeable part of a quick command (docs/journal/advice-commands.md,
"Start and exit").  So the collector is off while the modules import, the objects alive then are frozen
(``gc.freeze``: kept out of every later collection, which still collects what the command itself
leaves), and everything alive at the end is frozen too, so the shutdown does not sweep it.  Files and
streams are closed and flushed at exit as usual; only the collector's traversal is skipped.
"""

from __future__ import annotations

import gc


def run() -> None:
    gc.disable()
    try:
        from cli.main import main       # here, not above: the collector is off while Numba imports
    finally:
        gc.freeze()
        gc.enable()
    try:
        main()
    finally:
        gc.freeze()
