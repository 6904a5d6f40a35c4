"""Numba-jitted kernels only (deal sampling, legal moves, tricks, playouts, scoring, batch drivers).

Imports here are limited to numpy, numba and sibling kernel modules.

Numba's on-disk cache keys a compiled function on its own source file only, so a kernel that
calls a kernel of another file would keep running a stale copy of it after an upgrade.  The cache
directory is therefore keyed on a hash of every kernel source: any change starts a fresh cache.
It lives under ``NUMBA_CACHE_DIR`` when that is set, else under the user's cache directory.

A kernel called from another with a constant (``1``, ``True``) or a module-level array (read-only
inside jitted code) is compiled again for that literal or read-only type, with everything it calls:
one more copy of a search costs tens of seconds on a first run.  So jitted callers pass
``np.int64(1)``, ``np.bool_(True)`` and arrays of their own, the types a call from Python gets; and
a large kernel has no default arguments (an omitted one is a type of its own: one more copy).

A function inlined in Numba (``inline="always"``) is typed and lowered again at every call site, and a
threaded loop's passes grow with its body; a function compiled on its own links and optimises again
all it calls.  So small helpers are inlined, and a deal's body that holds several plays is compiled on
its own (``kernels.auction.bid_deal``: docs/performance.md, "First runs").  The heuristic's card
(``heuristic_card`` with ``choose_lead`` and ``choose_follow``) is inlined where it is called: in
``kernels.playout.advance``, at every card of every rollout, a call passed its eighteen arguments
through memory (the searched deals about a tenth faster inlined, a first ``bid`` compiling a tenth
longer: docs/performance.md, "Where a searched deal's time goes").
"""

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tarot-analyzer")
    return os.path.join(base, f"kernels-{digest.hexdigest()[:16]}")


numba.config.CACHE_DIR = _cache_dir()
