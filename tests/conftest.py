"""Hypothesis draws the same examples on every run (``derandomize``: the examples follow from each test's
code, so a fresh CI machine checks what the last run here checked, and a failure there is one found
here too); ``HYPOTHESIS_PROFILE=explore`` draws new examples each run, to search further."""

import os

from hypothesis import settings

settings.register_profile("reproducible", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "reproducible"))
