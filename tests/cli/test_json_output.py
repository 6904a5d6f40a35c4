"""Every ``--format json`` output is strict JSON: a statistic that does not exist (the standard error of
one deal or of a one-row group) is written ``null``, never ``NaN``, which JSON does not have."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cli.main import main
from cli.options import json_safe
from tests.support.hands import FFT_HAND

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)

HAND = FFT_HAND
FIVE = "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"


def _refuse(constant: str):
    raise AssertionError(f"{constant} in the JSON output")


def strict_json(text: str):
    """Parse as the JSON standard does: NaN, Infinity and -Infinity are not JSON."""
    return json.loads(text, parse_constant=_refuse)


def _nulls(obj) -> int:
    if isinstance(obj, dict):
        return sum(_nulls(v) for v in obj.values())
    if isinstance(obj, list):
        return sum(_nulls(v) for v in obj)
    return obj is None


def test_json_safe_replaces_every_non_finite_float():
    data = {"a": float("nan"), "b": [np.float64("inf"), (1.5, -math.inf)], "c": np.int64(3), "d": "nan"}
    assert json_safe(data) == {"a": None, "b": [None, [1.5, None]], "c": 3, "d": "nan"}


@pytest.mark.parametrize("args", [
    ["odds", HAND],
    ["bid", HAND, "--seat", "1"],
    ["poignee", "21 20 19 17 15 12 10 9 8 5 1 KS QS 7S KH 3H CD 9D"],
    ["chelem", HAND],
    ["call", FIVE, "--players", "5"],
    ["match", "--a", "heuristic", "--b", "random"],
])
def test_one_deal_gives_null_not_nan(args):
    result = CliRunner().invoke(main, args + ["--deals", "1", "--format", "json"]
                                + (["--quiet"] if args[0] != "match" else []))
    assert result.exit_code == 0, result.output
    assert "NaN" not in result.stdout
    data = strict_json(result.stdout)
    assert _nulls(data) > 0          # the standard errors of a single deal


def test_summarize_one_row_group_gives_null(tmp_path):
    path = tmp_path / "batch.csv"
    pd.DataFrame({"oudlers": [0, 1, 1], "prise_made": [True, False, True],
                  "prise_score": [30.0, -40.0, 50.0]}).to_csv(path, index=False)
    result = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = strict_json(result.stdout)
    assert rows[0]["n"] == 1 and rows[0]["se"] is None
    assert rows[1]["n"] == 2 and rows[1]["se"] == pytest.approx(45.0)      # sd 90 / sqrt(2) over sqrt(2)
