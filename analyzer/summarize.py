"""Grouped summaries of batch results (CSV or Parquet), streamed so files larger than memory work.

For each group of the ``by`` columns and each contract: the number of rows, the success rate with
its 95% Wilson interval, and the taker's mean score with its standard error.  The input is read in
chunks (pandas for CSV, pyarrow record batches for Parquet, every file of a partitioned directory),
and only the needed columns; per-group sums are combined at the end.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from analyzer.errors import TarotError
from analyzer.rules import CONTRACT_TOKENS, Contract
from analyzer.stats import wilson_interval

CONTRACT_COLUMNS = {tok: tok.replace("-", "_") for tok in CONTRACT_TOKENS.values()}
CHUNK_ROWS = 200_000


class BatchFileError(TarotError):
    """An unreadable, corrupt or unsuitable batch file."""


@dataclass(frozen=True)
class GroupSummary:
    keys: dict
    contract: str
    n: int
    success_rate: float
    ci95: tuple[float, float]
    mean_score: float
    se: float

    def as_dict(self) -> dict:
        return {**self.keys, "contract": self.contract, "n": self.n, "success_rate": self.success_rate,
                "ci95": list(self.ci95), "mean_score": self.mean_score, "se": self.se}


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in (".csv", ".parquet") and p.is_file())
        if not files:
            raise BatchFileError(f"{path}: no .csv or .parquet file in this directory")
        return files
    if not path.exists():
        raise BatchFileError(f"{path}: no such file")
    if path.suffix.lower() not in (".csv", ".parquet"):
        raise BatchFileError(f"{path}: expected a .csv or .parquet file")
    return [path]


def _columns(path: Path) -> list[str]:
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq
            return list(pq.ParquetFile(path).schema_arrow.names)
        return list(pd.read_csv(path, nrows=0).columns)
    except Exception as exc:  # noqa: BLE001 - any reader failure is a corrupt file to the user
        raise BatchFileError(f"{path}: cannot read it as {path.suffix[1:]} ({exc.__class__.__name__}: {exc})") from None


def _chunks(path: Path, columns: list[str]) -> Iterator[pd.DataFrame]:
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq
            for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK_ROWS, columns=columns):
                yield batch.to_pandas()
        else:
            yield from pd.read_csv(path, usecols=columns, chunksize=CHUNK_ROWS)
    except BatchFileError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise BatchFileError(f"{path}: cannot read it ({exc.__class__.__name__}: {exc})") from None


_TRUTH_WORDS = {"true": 1.0, "false": 0.0}


def _numbers(values: pd.Series, column: str, path: Path, flags: bool = False) -> pd.Series:
    """A result column as floats (missing values stay NaN); a cell that is not a finite number (or,
    with ``flags``, not true/false/1/0) is a ``BatchFileError`` naming the file, column and cell."""
    if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)):
        values = values.astype(object).map(
            lambda v: _TRUTH_WORDS.get(v.strip().lower(), v) if isinstance(v, str) else v)
    numbers = pd.to_numeric(values, errors="coerce").astype("float64")
    bad = values.notna() & ~np.isfinite(numbers)
    if flags:
        bad |= numbers.notna() & ~numbers.isin([0.0, 1.0])
    if bad.any():
        cell = str(values[bad].iloc[0])[:40]
        kind = "true/false" if flags else "a number"
        raise BatchFileError(f"{path}: column {column!r} holds {cell!r}, not {kind}")
    return numbers


def _check_groupable(chunk: pd.DataFrame, by: list[str], path: Path) -> None:
    """--by columns must hold plain values (a Parquet column of lists or records cannot be grouped)."""
    for column in by:
        values = chunk[column]
        if values.dtype == object:
            odd = values.map(lambda v: isinstance(v, (list, tuple, dict, set, np.ndarray)))
            if odd.any():
                raise BatchFileError(f"{path}: column {column!r} holds {type(values[odd].iloc[0]).__name__} values, "
                                     "which cannot be grouped: choose other --by columns")


def _check_complete(path: Path) -> None:
    """A CSV file cut short (a copy or a run interrupted while writing) ends inside a row: without its
    last newline and with fewer fields on its last line than in its header.  (A complete last line
    without a newline, as some editors write, is fine.)"""
    if path.suffix.lower() != ".csv":
        return
    size = path.stat().st_size
    with path.open("rb") as handle:
        header = handle.readline()
        handle.seek(max(0, size - 65536))
        tail = handle.read()
    if not tail or tail.endswith((b"\n", b"\r")):
        return
    last = tail.splitlines()[-1]
    got, expected = _field_count(last), _field_count(header)
    if got < expected or last.endswith(b","):
        raise BatchFileError(f"{path}: the file ends in the middle of a row ({got} of {expected} fields): "
                             "truncated? remove its last line to summarize the rest")


def _field_count(line: bytes) -> int:
    return len(next(csv.reader([line.decode("utf-8", "replace").rstrip("\r\n")]), []))


def summarize(path: str | Path, by: list[str], contracts: list[str] | None = None) -> list[GroupSummary]:
    """Summaries per group of ``by`` (a column named twice counts once) and per contract (any spelling
    ``Contract.parse`` reads; default: every contract in the file)."""
    by = list(dict.fromkeys(by))
    files = _files(Path(path))
    for file in files:
        _check_complete(file)
    available = _columns(files[0])
    missing = [c for c in by if c not in available]
    if missing:
        raise BatchFileError(f"unknown column {missing[0]!r} in --by (columns: {', '.join(available)})")
    if contracts is None:
        contracts = [tok for tok, col in CONTRACT_COLUMNS.items() if f"{col}_made" in available]
    else:
        contracts = [Contract.parse(tok).token for tok in contracts]
        for tok in contracts:
            if f"{CONTRACT_COLUMNS[tok]}_made" not in available:
                raise BatchFileError(f"contract {tok!r} is not in this file")
    if not contracts:
        raise BatchFileError("no contract results in this file")
    needed = list(dict.fromkeys(by + [f"{CONTRACT_COLUMNS[t]}_{k}" for t in contracts for k in ("made", "score")]))
    sums: pd.DataFrame | None = None
    for file in files:
        for chunk in _chunks(file, needed):
            _check_groupable(chunk, by, file)
            parts = []
            for tok in contracts:
                col = CONTRACT_COLUMNS[tok]
                made = _numbers(chunk[f"{col}_made"], f"{col}_made", file, flags=True)
                score = _numbers(chunk[f"{col}_score"], f"{col}_score", file)
                frame = chunk[by].copy()
                frame["contract"] = tok
                frame["n"] = made.notna().astype("int64")
                frame["made"] = made.fillna(0.0)
                frame["score"] = score.fillna(0.0)
                frame["score2"] = score.fillna(0.0) ** 2
                parts.append(frame)
            agg = pd.concat(parts).groupby(by + ["contract"], dropna=False, sort=False)[
                ["n", "made", "score", "score2"]].sum()
            sums = agg if sums is None else sums.add(agg, fill_value=0)
    if sums is None:
        return []
    out = []
    order = {tok: i for i, tok in enumerate(CONTRACT_COLUMNS)}
    rows = sorted(sums.iterrows(), key=lambda kv: (tuple(_sort_key(v) for v in kv[0][:-1]), order[kv[0][-1]]))
    for key, row in rows:
        n = int(row["n"])
        if n == 0:
            continue
        mean = row["score"] / n
        var = (row["score2"] - n * mean * mean) / (n - 1) if n > 1 else float("nan")
        made = int(round(row["made"]))
        keys = {col: _plain(v) for col, v in zip(by, key[:-1])}
        out.append(GroupSummary(keys=keys, contract=key[-1], n=n, success_rate=made / n,
                                ci95=wilson_interval(made, n), mean_score=float(mean),
                                se=math.sqrt(max(var, 0.0) / n) if n > 1 else float("nan")))
    return out


def _plain(value):
    """numpy scalars to plain Python for JSON."""
    return value.item() if hasattr(value, "item") else value


def _sort_key(value):
    return (0, value) if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, str(value))
