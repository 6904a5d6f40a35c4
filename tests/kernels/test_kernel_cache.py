"""The kernels' on-disk cache does not depend on where the package lies (kernels.SourcesCacheLocator)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Compiles one small kernel and prints how many functions Numba compiled and where the cache is.
PROGRAM = """
from numba.core import event
count = [0]
class Counter(event.Listener):
    def on_start(self, ev): count[0] += 1
    def on_end(self, ev): pass
event.register("numba:compile", Counter())
import numpy as np
import kernels
from kernels.deals import stream_state
stream_state(np.uint64(1), np.int64(2))
print(count[0], stream_state._cache._cache_path)
"""


def _run(copy: Path, cache: Path) -> tuple[int, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(copy)}
    out = subprocess.run([sys.executable, "-c", PROGRAM], cwd=copy, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), out[1]


def test_a_second_copy_at_another_path_compiles_nothing(tmp_path):
    cache = tmp_path / "cache"
    for name in ("one", "two"):
        shutil.copytree(ROOT / "kernels", tmp_path / name / "kernels",
                        ignore=shutil.ignore_patterns("__pycache__"))
    first, path_one = _run(tmp_path / "one", cache)
    second, path_two = _run(tmp_path / "two", cache)
    assert first > 0
    assert second == 0
    assert path_one == path_two and path_one.startswith(str(cache))


def test_the_folder_is_keyed_on_the_sources_and_numba():
    import numba

    import kernels
    folder = os.path.basename(kernels.cache_dir())
    assert folder.startswith("kernels-") and folder.endswith(f"-numba-{numba.__version__}")


def test_an_unwritable_cache_falls_back_to_numbas_own_locators(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    shutil.copytree(ROOT / "kernels", tmp_path / "one" / "kernels", ignore=shutil.ignore_patterns("__pycache__"))
    compiled, path = _run(tmp_path / "one", blocked)
    assert compiled > 0
    assert path == str(tmp_path / "one" / "kernels" / "__pycache__")


# Saves ROUNDS entries of its own into one function's index of the kernels' cache, all processes
# starting at once: the way warm's jobs save a function compiled for different types by each.
SAVER = """
import os, sys, time
import kernels
from numba.core import caching
me, start, rounds = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
cache = caching.IndexDataCacheFile(cache_path=kernels.cache_dir(), filename_base="shared", source_stamp=(0, 1))
os.makedirs(kernels.cache_dir(), exist_ok=True)
while time.time() < start:
    pass
for r in range(rounds):
    cache.save((me, r), f"entry {me} {r}")
"""


def test_processes_saving_at_once_keep_every_entry_with_its_own_data(tmp_path):
    import time
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    processes, rounds = 6, 40
    start = time.time() + 2                       # after every process has imported Numba
    running = [subprocess.Popen([sys.executable, "-c", SAVER, str(me), str(start), str(rounds)], env=env)
               for me in range(processes)]
    assert [p.wait() for p in running] == [0] * processes
    code = "import kernels; print(kernels.cache_dir())"
    folder = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            check=True).stdout.strip()
    from numba.core import caching
    cache = caching.IndexDataCacheFile(cache_path=folder, filename_base="shared", source_stamp=(0, 1))
    kept = {(me, r): cache.load((me, r)) for me in range(processes) for r in range(rounds)}
    assert kept == {(me, r): f"entry {me} {r}" for me in range(processes) for r in range(rounds)}
