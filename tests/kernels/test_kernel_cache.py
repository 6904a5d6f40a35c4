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
