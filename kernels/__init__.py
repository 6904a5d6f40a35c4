"""Numba-jitted kernels only (deal sampling, legal moves, tricks, playouts, scoring, batch drivers).

A batch driver plays rows ``lo … hi-1`` of a run (``nogil``); the threads come from the caller
(``analyzer.simulation.threads``), not from Numba's threaded loops, which compile a driver's whole body
twice over (the loop's function, then its wrapper).  The deal sampler's ``kernels.batch.sample_batch``,
with nothing heavy beneath it, stays a threaded loop: its deals run faster there.

Imports here are limited to numpy, numba and sibling kernel modules.

Numba's on-disk cache keys a compiled function on its own source file only, so a kernel that
calls a kernel of another file would keep running a stale copy of it after an upgrade.  The cache
directory is therefore keyed on a hash of every kernel source (and Numba's version): any change starts
a fresh cache.  It lives under ``NUMBA_CACHE_DIR`` when that is set, else under the user's cache
directory, and does not depend on where the package is installed (``SourcesCacheLocator``): a second
clone or virtual environment of the same sources finds the kernels another compiled.

A kernel called from another with a constant (``1``, ``True``) or a module-level array (read-only
inside jitted code) is compiled again for that literal or read-only type, with everything it calls:
one more copy of a search lengthens a first run.  So jitted callers pass ``np.int64(1)``,
``np.bool_(True)`` and arrays of their own, the types a call from Python gets; and a large kernel has
no default arguments (an omitted one is a type of its own: one more copy).

A function inlined in Numba (``inline="always"``) is typed and lowered again at every call site; a
function compiled on its own links and optimises again all it calls, so every layer compiled on its own
above the search processes the whole search again.  So small helpers are inlined, and so are functions
called from one place above the search (the search's loop, ``kernels.pimc.search_loop``; the bid's play,
``kernels.auction.play_option``, called once by ``bid_deal``; a deal's body in its driver, e.g.
``kernels.auction.bid_deal`` in ``bid_deals``; the judge's world and the play it finishes,
``kernels.evaluate.judge_world``, ``play_until``, ``finish_exactly``; compare-play's deal and the
candidates it plays in a world, ``kernels.compare_play.compare_deal``,
``kernels.evaluate.candidates_in_world``, ``play_candidate``); and the inference's yardsticks are
compiled only where asked for (``kernels.pimc.play_out_search``'s ``inferring``):
docs/journal/compiling.md.  The large functions a hot loop needs inlined (the heuristic's
card in ``kernels.playout.advance``: ``heuristic_choice``, ``heuristic_card``, ``choose_lead``,
``choose_follow``; the endgame solver's ``enter``, ``descend``, ``close``, ``gen_moves``, ``value_bounds``)
are ``forceinline=True``: each typed once on its own, then inlined by LLVM (``alwaysinline``) where it is
called, the same machine code as Numba's inlining without Numba's typing of one huge function (a call
passed their arguments through memory: docs/journal/search-time.md, "Where a searched deal's time goes").
``heuristic_at`` asks ``advance`` for the heuristic's card on a copy of the position.  The users' search,
``advance``, ``deal_to_play`` and ``start_with_choices`` are not linked into their callers: they call each
one's single compiled copy through a pointer (``kernels/shared.py``), loaded once per process by the first
call.
"""

import hashlib
import os
from pathlib import Path

import numba
from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent


def _sources_digest() -> str:
    """A hash of every kernel source: a kernel calling one of another file is stale when either changes."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> str:
    """The folder of every cache of the kernels: ``NUMBA_CACHE_DIR`` when set, else the user's cache."""
    return os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tarot-analyzer")


def cache_dir() -> str:
    """This version's cache: one per (kernel sources, Numba version), whatever folder the package is
    installed in (the CPU is part of each entry's key in Numba's index)."""
    return os.path.join(cache_root(), f"kernels-{_sources_digest()}-numba-{numba.__version__}")


class SourcesCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba's cache locator for the kernels, without the install path in it.

    Numba's own locators file a function's cache under a folder named after the absolute path of its
    source's directory, so every clone and every virtual environment of the same sources compiled them
    again.  Here the folder is ``cache_dir()``: keyed on the sources' content and Numba's version, and
    each index entry is stamped with its source file's content hash (Numba 0.68) and keyed on the CPU, so
    any copy of the same sources finds what another compiled.  Functions outside this package, or a
    folder that cannot be written, fall through to Numba's own locators."""

    _folder: str | None = None

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = type(self)._folder

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if cls._folder is None:
            return None
        try:
            if Path(py_file).resolve().parent != _PACKAGE:
                return None
        except OSError:
            return None
        return super().from_function(py_func, py_file)


_numba_save = caching.IndexDataCacheFile.save


def _save_one_at_a_time(self, key, data):
    """Numba's ``IndexDataCacheFile.save``, one process at a time in the kernels' folder.

    Numba saves an entry by reading the function's index, adding the key with the first free data file's
    name, writing the index back and then the data, with no lock: two processes compiling one function
    for different types at once (``warm``'s jobs, two commands started together) can each drop the other's
    entry from the index, or leave a key naming the other's data file, a function compiled for other
    types.  An exclusive lock on the folder makes each save read the index the last one wrote; loads read
    files each written whole (Numba writes a temporary file and renames it)."""
    folder = SourcesCacheLocator._folder
    if folder is None or os.path.dirname(os.path.abspath(self._index_path)) != os.path.abspath(folder):
        return _numba_save(self, key, data)
    try:
        import fcntl
    except ImportError:             # not a POSIX system: Numba's own save
        return _numba_save(self, key, data)
    with open(os.path.join(self._cache_path, ".lock"), "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return _numba_save(self, key, data)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _install_locator() -> None:
    SourcesCacheLocator._folder = cache_dir()
    caching.IndexDataCacheFile.save = _save_one_at_a_time
    # Numba's fallback (a folder it cannot write, or a file of another package): its own locators,
    # under the same versioned folder when ``NUMBA_CACHE_DIR`` names one.
    numba.config.CACHE_DIR = SourcesCacheLocator._folder
    locators = caching.CacheImpl._locator_classes
    if SourcesCacheLocator not in locators:
        locators.insert(0, SourcesCacheLocator)


_install_locator()
