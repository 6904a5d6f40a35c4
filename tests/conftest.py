"""Shared by every test: the Hypothesis profile, the two tiers, and the example hands.

Hypothesis draws the same examples on every run (``derandomize``: the examples follow from each test's
code, so a fresh CI machine checks what the last run here checked, and a failure there is one found here
too); ``HYPOTHESIS_PROFILE=explore`` draws new examples each run, to search further.

Tiers: the tests of ``kernels``, ``simulation``, ``advice``, ``coach``, ``quality`` and ``batch``, and
any test or file marked ``kernels`` elsewhere, run Numba kernels (compiled on a first run).  The rest,
``python -m pytest -m "not kernels"``, runs in seconds without compiling anything; a test of that tier
that runs a kernel fails, naming the marker it needs.
"""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))

KERNEL_FOLDERS = {"kernels", "simulation", "advice", "coach", "quality", "batch"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).parent.name in KERNEL_FOLDERS:
            item.add_marker(pytest.mark.kernels)


def kernel_specialisations() -> int:
    """How many compiled (or cache-loaded) specialisations the loaded kernel modules hold."""
    dispatchers = {}            # each dispatcher once, however many modules import it
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "kernels" or name.startswith("kernels.")):
            continue
        for value in vars(module).values():
            if hasattr(value, "py_func") and hasattr(value, "overloads"):
                dispatchers[id(value)] = len(value.overloads)
    return sum(dispatchers.values())


@pytest.fixture(autouse=True)
def _fast_tier_runs_no_kernel(request):
    """A test outside the ``kernels`` tier may not run a kernel (it would compile on a first run)."""
    if request.node.get_closest_marker("kernels"):
        yield
        return
    before = kernel_specialisations()
    yield
    if kernel_specialisations() > before:
        pytest.fail("this test runs Numba kernels: mark it (or its file) with pytest.mark.kernels", pytrace=False)
