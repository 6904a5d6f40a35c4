"""``over_rows`` plays every row exactly once, whatever the threads and the rows' cost, spreads costly rows
over the threads and passes a kernel's error on (plain Python kernels here: nothing is compiled)."""

import threading
import time

import pytest

from analyzer.runs import threads
from analyzer.simulation.threads import over_rows


def recorder(cost_s=0.0):
    """A kernel that records each range it is given and the thread that played it, ``cost_s`` a row."""
    calls = []
    lock = threading.Lock()

    def kernel(lo, hi, tag):
        assert tag == "args"
        if cost_s:
            time.sleep(cost_s * (hi - lo))
        with lock:
            calls.append((lo, hi, threading.get_ident()))
    return kernel, calls


@pytest.mark.parametrize("n", [0, 1, 2, 7, 100, 10_000])
@pytest.mark.parametrize("jobs", [1, 2])
def test_every_row_is_played_once(n, jobs):
    kernel, calls = recorder()
    with threads(jobs):
        over_rows(kernel, n, "args")
    rows = sorted(i for lo, hi, _ in calls for i in range(lo, hi))
    assert rows == list(range(n))
    assert all(lo < hi for lo, hi, _ in calls)


def test_costly_rows_are_shared_by_the_threads():
    kernel, calls = recorder(cost_s=0.002)
    with threads(2):
        over_rows(kernel, 40, "args")
    assert sorted(i for lo, hi, _ in calls for i in range(lo, hi)) == list(range(40))
    assert len({ident for _, _, ident in calls}) == 2


def test_a_kernel_s_error_reaches_the_caller():
    def failing(lo, hi):
        time.sleep(0.001 * (hi - lo))
        if lo <= 30 < hi:
            raise ValueError("row 30")
    with threads(2), pytest.raises(ValueError, match="row 30"):
        over_rows(failing, 40)


def test_a_forked_child_runs_its_ranges_on_threads_of_its_own():
    # The pool's threads are not copied into a forked child: the child must not wait for them.
    import os
    import subprocess
    import sys
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    code = """
import os, time, numba
from analyzer.simulation.threads import over_rows
def kernel(lo, hi):
    time.sleep(0.002 * (hi - lo))
numba.set_num_threads(2)
over_rows(kernel, 40)
pid = os.fork()
if pid == 0:
    over_rows(kernel, 40)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
