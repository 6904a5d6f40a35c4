"""``tarot-analyzer warm``: every command's kernels compiled once, after which no command compiles any."""

import pytest

from analyzer.warm import Job, count_compiles, warm
from cli.main import main
from cli.warm import QUALITY_JOBS, USER_JOBS, run_command

CHEAP = Job("score", ("score", "--players", "5", "--contract", "garde", "--oudlers", "1", "--points", "53.5"), 0)


def test_jobs_run_in_processes_of_their_own_and_report_each():
    seen = []
    done = warm([CHEAP, CHEAP], run_command, workers=2, report=lambda d, n, total, left: seen.append((n, total)))
    assert [d.error for d in done] == [None, None]
    assert [d.compiled for d in done] == [0, 0]          # score compiles no kernel
    assert seen == [(1, 2), (2, 2)]


def test_a_job_waits_for_the_one_it_comes_after():
    first = Job("first", CHEAP.args, 1)
    then = Job("then", CHEAP.args, 5, after=("first",))
    done = warm([then, first], run_command, workers=2)
    assert [d.job.name for d in done] == ["first", "then"]


def test_a_failing_job_is_reported_not_raised():
    done = warm([Job("bad", ("score", "--no-such-option"), 0)], run_command, workers=1)
    assert done[0].error and "no-such-option" in done[0].error


def test_every_simulating_command_has_a_job():
    warmed = {job.args[0] for job in USER_JOBS + QUALITY_JOBS}
    assert warmed == {"analyze", "batch", "bench", "bid", "calibrate", "calibrate-choices", "call", "chelem",
                      "compare-bidding", "compare-play", "discard", "match", "odds", "play", "poignee", "solve"}


def test_every_job_is_a_valid_command_line():
    import click
    ctx = click.Context(main, info_name="tarot-analyzer", **main.context_settings)     # -h as the program
    for job in USER_JOBS + QUALITY_JOBS:
        command = main.get_command(ctx, job.args[0])
        command.make_context(job.args[0], [a.replace("{tmp}", "out") for a in job.args[1:]], parent=ctx)


@pytest.mark.slow
@pytest.mark.kernels
def test_after_warm_no_command_compiles_anything():
    # Each command, one after the other in this process, counting Numba's compile events (a function a
    # command needs and the cache lacks is compiled, and counted, by the first command that needs it).  On
    # a warm cache (CI warms before the tests) nothing compiles the first time; on a cache that lacked
    # something, the first pass compiles it (minutes on an empty cache) and a second pass must compile nothing.
    def each():
        return {job.name: count_compiles(run_command, job.args) for job in USER_JOBS}
    first = each()
    assert {name: error for name, (_, _, error) in first.items() if error} == {}
    again = each() if any(compiled for compiled, _, _ in first.values()) else first
    assert {name: error for name, (_, _, error) in again.items() if error} == {}
    assert {name: compiled for name, (compiled, _, _) in again.items() if compiled} == {}


KNOWN_DUPLICATES = {"heuristic.suit_bits"}

# Run in a fresh process on an empty cache of its own (the suite's shared cache holds what every test
# compiled, for whatever argument types it passed) and at NUMBA_OPT=0: the argument types each function
# is compiled for come from typing alone, so LLVM's optimisation can be spared.  Prints, as JSON, the
# functions of the kernels compiled more than once for the same argument types but for a constant
# (``Literal[int](-1)``) or the other sign of integer (a threaded loop's index).
DUPLICATES_SCRIPT = """
import collections, json, sys
from numba.core import types
from numba.core.dispatcher import Dispatcher
from cli.main import main

for command in json.loads(sys.argv[1]):
    main.main(command, prog_name="tarot-analyzer", standalone_mode=False)

def plain(t):
    t = types.unliteral(t)
    return types.int64 if t == types.uint64 else t

found, seen, compiled = {}, set(), 0
for module in [m for name, m in sys.modules.items() if name.startswith("kernels.")]:
    for d in vars(module).values():
        if not isinstance(d, Dispatcher) or id(d) in seen:
            continue
        seen.add(id(d))
        compiled += len(d.overloads)
        groups = collections.defaultdict(list)
        for sig in d.overloads:
            groups[tuple(plain(t) for t in sig)].append(sig)
        twice = [sigs for sigs in groups.values() if len(sigs) > 1]
        if twice:
            name = d.py_func.__module__.removeprefix("kernels.") + "." + d.py_func.__qualname__
            found[name] = [[str(t) for t in sig] for sig in twice[0]]
print(json.dumps({"compiled": compiled, "twice": found}))
"""


@pytest.mark.slow
@pytest.mark.kernels
def test_each_kernel_compiles_once_per_argument_types(tmp_path):
    """The heuristic's odds and bid (DUPLICATES_SCRIPT): no function is compiled twice for the same
    types but for a constant or the other sign of integer."""
    import json
    import os
    import subprocess
    import sys

    from tests.support.hands import FFT_HAND
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_OPT": "0"}
    commands = [["odds", FFT_HAND, "--policy", "heuristic", "--deals", "200", "--quiet"],
                ["bid", FFT_HAND, "--policy", "heuristic", "--deals", "200", "--quiet"]]
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", DUPLICATES_SCRIPT, json.dumps(commands)], env=env,
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out.splitlines()[-1])
    assert report["compiled"] > 50                  # the kernels' dispatchers were found, and compiled here
    # suit_bits still gets a constant -1 from a caller not yet found (an inlined heuristic helper).
    assert set(report["twice"]) <= KNOWN_DUPLICATES
