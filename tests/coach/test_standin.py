"""``analyzer.coach.standin``: the stand-in layout of a record with unknown hands, for any seed."""

from pathlib import Path

from analyzer.coach.standin import stand_in
from analyzer.records import load_records
from kernels.deals import stream_state

import numpy as np

ONE_SEAT = Path(__file__).resolve().parents[2] / "data" / "records" / "one-seat.txt"


def test_any_seed_gives_a_layout_whatever_came_before():
    """Random states of both halves of the 64-bit range in one process (a state past 2**63 reached
    the kernel as a Python int and overflowed once a smaller one had typed it)."""
    record = load_records(ONE_SEAT)[0]
    seat = record.known_seats[0]
    seeds = {}
    for seed in range(64):
        high = int(stream_state(np.uint64(seed), 0)) >= 2**63
        seeds.setdefault(high, seed)
        if len(seeds) == 2:
            break
    assert set(seeds) == {False, True}
    for seed in (seeds[False], seeds[True], seeds[False]):
        standin = stand_in(record, seat, seed)
        assert standin.replay.complete
