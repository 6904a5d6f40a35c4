"""summarize: grouped success rates and mean scores on CSV, Parquet and partitioned input."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.summarize import BatchFileError, summarize
from cli.main import main
from tests.support.errorline import assert_one_error_line


@pytest.fixture
def batch(tmp_path):
    rng = np.random.default_rng(4)
    n = 5000
    frame = pd.DataFrame({
        "oudlers": rng.integers(0, 4, n),
        "trumps": rng.integers(4, 12, n),
    })
    for col in ("prise", "garde"):
        made = rng.random(n) < 0.2 + 0.2 * frame["oudlers"]
        frame[f"{col}_made"] = made
        frame[f"{col}_score"] = np.where(made, 30.0, -30.0) * (1 if col == "prise" else 2)
    path = tmp_path / "batch.csv"
    frame.to_csv(path, index=False)
    return frame, path


def test_groups_match_pandas(batch):
    frame, path = batch
    out = summarize(path, ["oudlers"], ["garde"])
    assert [g.keys["oudlers"] for g in out] == [0, 1, 2, 3]
    for g in out:
        sub = frame[frame["oudlers"] == g.keys["oudlers"]]
        assert g.n == len(sub)
        assert g.success_rate == pytest.approx(sub["garde_made"].mean())
        assert g.mean_score == pytest.approx(sub["garde_score"].mean())
        assert g.se == pytest.approx(sub["garde_score"].std(ddof=1) / math.sqrt(len(sub)))
        assert g.ci95[0] < g.success_rate < g.ci95[1]


def test_parquet_and_partitioned_directory_give_the_same(batch, tmp_path):
    frame, path = batch
    pq_path = tmp_path / "batch.parquet"
    frame.to_parquet(pq_path)
    parts = tmp_path / "parts"
    parts.mkdir()
    frame.iloc[:2000].to_parquet(parts / "part-0.parquet")
    frame.iloc[2000:].to_parquet(parts / "part-1.parquet")
    a = [g.as_dict() for g in summarize(path, ["oudlers", "trumps"])]
    b = [g.as_dict() for g in summarize(pq_path, ["oudlers", "trumps"])]
    c = [g.as_dict() for g in summarize(parts, ["oudlers", "trumps"])]
    assert a == b
    for x, y in zip(a, c):
        assert x.keys() == y.keys() and x["n"] == y["n"]
        assert x["mean_score"] == pytest.approx(y["mean_score"])


def test_cli_json_and_errors(batch, tmp_path):
    _, path = batch
    runner = CliRunner()
    result = runner.invoke(main, ["summarize", str(path), "--by", "oudlers", "--contract", "prise", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {"oudlers", "n", "success_rate", "ci95", "mean_score", "se"} <= rows[0].keys()
    bad = runner.invoke(main, ["summarize", str(path), "--by", "colour"])
    assert bad.exit_code != 0 and "unknown column 'colour'" in bad.output and "Traceback" not in bad.output
    corrupt = tmp_path / "corrupt.parquet"
    corrupt.write_bytes(b"not a parquet file")
    bad = runner.invoke(main, ["summarize", str(corrupt), "--by", "oudlers"])
    assert bad.exit_code != 0 and "cannot read" in bad.output
    with pytest.raises(BatchFileError, match="no such file"):
        summarize(tmp_path / "missing.csv", ["oudlers"])


@pytest.mark.parametrize("column,cell,words", [
    ("prise_score", "abc", ["'prise_score'", "'abc'", "not a number"]),
    ("prise_score", "inf", ["'prise_score'", "not a number"]),
    ("prise_made", "maybe", ["'prise_made'", "'maybe'", "not true/false"]),
    ("prise_made", "2", ["'prise_made'", "not true/false"]),
])
def test_a_result_column_that_is_not_numbers_is_one_line(batch, tmp_path, column, cell, words):
    frame, _ = batch
    frame = frame.astype({column: object})
    frame.loc[7, column] = cell
    path = tmp_path / "odd.csv"
    frame.to_csv(path, index=False)
    assert_one_error_line(CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers"]), str(path), *words)


def test_true_false_words_and_blanks_in_result_columns_are_read(tmp_path):
    path = tmp_path / "words.csv"
    path.write_text("oudlers,prise_made,prise_score\n1,True,30\n1,false,-30\n1,,\n2,1,40\n")
    out = summarize(path, ["oudlers"])
    rows = [(g.keys["oudlers"], g.n, g.success_rate, g.mean_score) for g in out]
    assert rows == [(1, 2, 0.5, 0.0), (2, 1, 1.0, 40.0)]


def test_a_column_named_twice_in_by_counts_once(batch):
    _, path = batch
    result = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers,oudlers", "--format", "json"])
    assert result.exit_code == 0, result.output
    once = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers", "--format", "json"])
    assert result.stdout == once.stdout


def test_a_truncated_csv_is_refused(batch, tmp_path):
    _, path = batch
    cut = tmp_path / "cut.csv"
    data = path.read_bytes()
    cut.write_bytes(data[:data.rindex(b",")])                 # the last row loses its last field
    result = CliRunner().invoke(main, ["summarize", str(cut), "--by", "oudlers"])
    assert_one_error_line(result, "truncated", str(cut), "5 of 6 fields")


def test_a_complete_csv_without_its_last_newline_is_read(batch, tmp_path):
    _, path = batch
    bare = tmp_path / "bare.csv"
    bare.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert summarize(bare, ["oudlers"]) == summarize(path, ["oudlers"])


@pytest.mark.parametrize("spelling", ["Garde", "GARDE", " garde ", "guard"])
def test_contract_spellings_are_those_of_every_command(batch, spelling):
    _, path = batch
    assert summarize(path, ["oudlers"], [spelling]) == summarize(path, ["oudlers"], ["garde"])
    result = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers", "--contract", "garde_sans"])
    assert_one_error_line(result, "'garde-sans' is not in this file")
    assert_one_error_line(CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers", "--contract", "gard"]),
                    "unknown contract 'gard'")


def test_an_upper_case_suffix_is_read(batch, tmp_path):
    frame, _ = batch
    path = tmp_path / "B.CSV"
    frame.to_csv(path, index=False)
    assert [g.n for g in summarize(path, ["oudlers"], ["prise"])] == [int((frame.oudlers == k).sum()) for k in range(4)]


def test_a_by_column_of_lists_is_one_line(tmp_path):
    path = tmp_path / "lists.parquet"
    pd.DataFrame({"oudlers": [[1], [2]], "prise_made": [True, False], "prise_score": [1.0, 2.0]}).to_parquet(path)
    result = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers"])
    assert_one_error_line(result, "'oudlers'", "cannot be grouped")


def test_a_one_row_group_has_no_standard_error_in_the_table(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("oudlers,prise_made,prise_score\n1,True,30\n")
    result = CliRunner().invoke(main, ["summarize", str(path), "--by", "oudlers"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split()[-1] == "–" and "nan" not in result.stdout
