"""Batch statistics: many simulated deals to CSV or Parquet, one row per (deal, taker seat).

Deals are dealt at random (petit sec excluded unless the variant plays it); for each taker seat asked
for, the deal is played once per contract by the chosen policy, under the rule variants asked for.  Each row holds the taker's hand (in the notation, so it can
be replayed), its features and both point counts, the chien, and each contract's outcome; the columns
are described in ``docs/batch-columns.md``.

The run is cut into chunks written as part files (atomically, by rename) in ``OUT.parts/``; the
output is assembled from them at the end, under a temporary name renamed into place.  An interrupted
run resumes (``resume=True``) from the parts already written.  Deal i always comes from the random
stream (seed, i), so the file is the same whatever the chunk size, the thread count, or resuming.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from analyzer import cards as C
from analyzer.baselines import chavey_points, tarotclub_points
from analyzer.errors import TarotError
from analyzer.notation import format_cards
from analyzer.rules import Contract, Rules
from analyzer.runs import PLAY_SEED_SALT, threads
from analyzer.sampling import sample
from analyzer.simulate import play_deals

ROW_GROUP = 100_000
CONNECT_TIMEOUT = "30s"           # to reach a dask scheduler


class BatchError(TarotError):
    """A batch run that cannot start or resume (bad path, settings differing from the run resumed)."""


def hand_features(places: np.ndarray, seat: int, players: int) -> pd.DataFrame:
    """Features of ``seat``'s hand in each deal (vectorized over the deals)."""
    held = places == seat
    suits = np.stack([held[:, s * 14:(s + 1) * 14].sum(axis=1) for s in range(4)], axis=1)
    kings = held[:, list(C.KINGS)].sum(axis=1)
    queens = held[:, [C.suit_card(s, C.QUEEN) for s in range(4)]].sum(axis=1)
    trumps = held[:, C.FIRST_TRUMP:].sum(axis=1)            # the Excuse counted
    thresholds = Rules(players=players).poignee_thresholds
    poignee = sum((trumps >= t).astype(np.int64) for t in thresholds)
    masks = [sum(1 << int(c) for c in np.flatnonzero(row)) for row in held]
    return pd.DataFrame({
        "hand": [format_cards(m) for m in masks],
        "trumps": trumps, "oudlers": held[:, list(C.OUDLERS)].sum(axis=1), "kings": kings, "queens": queens,
        "voids": (suits == 0).sum(axis=1), "singletons": (suits == 1).sum(axis=1),
        "longest_suit": suits.max(axis=1), "poignee": poignee,
        "chavey": [chavey_points(m) for m in masks], "tarotclub": [tarotclub_points(m) for m in masks],
    })


def chien_columns(places: np.ndarray, players: int) -> pd.DataFrame:
    aside = places == players
    hp = np.array(C.HALF_POINTS)
    return pd.DataFrame({"chien_points": (aside * hp).sum(axis=1) / 2,
                         "chien_oudlers": aside[:, list(C.OUDLERS)].sum(axis=1)})


def chunk_frame(players: int, offset: int, n: int, seed: int, policy: str, takers: str,
                contracts: list[Contract], rules: Rules | None = None) -> pd.DataFrame:
    """The rows of deals ``offset … offset+n-1`` (``rules``: FFT when None)."""
    rules = rules or Rules(players=players)
    places = sample(players, n, seed, offset=offset, exclude_petit_sec=rules.petit_sec == "annul").places
    frames = []
    for seat in (range(players) if takers == "all" else [0]):
        frame = pd.DataFrame({"deal": np.arange(offset, offset + n), "seat": seat + 1, "players": players})
        frame = pd.concat([frame, hand_features(places, seat, players), chien_columns(places, players)], axis=1)
        for contract in contracts:
            result = play_deals(places, seat, int(contract), rules, policy, seed=seed ^ PLAY_SEED_SALT, offset=offset)
            col = contract.token.replace("-", "_")
            frame[f"{col}_made"] = result["made"].to_numpy()
            frame[f"{col}_points"] = result["taker_points"].to_numpy()
            frame[f"{col}_oudlers"] = result["oudlers"].to_numpy()
            frame[f"{col}_score"] = result[f"score_{seat + 1}"].to_numpy()
            frame[f"{col}_petit_au_bout"] = result["petit_au_bout"].astype(str).to_numpy()
            frame[f"{col}_chelem"] = result["chelem"].to_numpy()
        frames.append(frame)
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["deal", "seat"], kind="stable").reset_index(drop=True)


def run_batch(out: str | Path, players: int, deals: int, seed: int = 0, policy: str = "heuristic",
              takers: str = "first", contracts: list[Contract] | None = None, chunk: int = 20_000,
              jobs: int | None = None, resume: bool = False,
              progress: Callable[[int, int | None], None] | None = None, scheduler: str | None = None,
              local_cluster: int | None = None, rules: Rules | None = None) -> Path:
    """Write the batch to ``out`` (.csv or .parquet) under ``rules`` (FFT when None); returns its path.

    With ``scheduler`` (a dask.distributed address) or ``local_cluster`` (a number of worker
    processes started here), the chunks are computed by the cluster's workers, which run the same
    kernels; this process writes the parts as they arrive and assembles the same output."""
    out = Path(out)
    if out.suffix not in (".csv", ".parquet"):
        raise BatchError(f"{out}: the output must end in .csv or .parquet")
    if not out.parent.exists():
        raise BatchError(f"{out.parent}: no such directory")
    if takers not in ("first", "all"):
        raise BatchError(f"--takers {takers!r}: expected first or all")
    contracts = list(contracts or Contract)
    rules = rules or Rules(players=players)
    settings = {"players": players, "deals": deals, "seed": seed, "policy": policy, "takers": takers,
                "contracts": [c.token for c in contracts], "format": out.suffix, "variants": rules.variants()}
    parts = out.with_name(out.name + ".parts")
    manifest = parts / "settings.json"
    if parts.exists():
        if not resume:
            raise BatchError(f"{parts} holds an unfinished run: resume it with --resume, or remove it")
        if json.loads(manifest.read_text()) != settings:
            raise BatchError(f"{parts} holds a run with other settings; remove it to start this one")
    else:
        try:
            parts.mkdir()
        except OSError as exc:
            raise BatchError(f"{parts}: cannot create it ({exc.strerror})") from None
        manifest.write_text(json.dumps(settings))
    chunks = [(offset, min(chunk, deals - offset)) for offset in range(0, deals, chunk)]
    todo = [(offset, n) for offset, n in chunks if not _part(parts, offset, n).exists()]
    done = deals - sum(n for _, n in todo)
    args = (players, seed, policy, takers, contracts, rules)
    if scheduler or local_cluster:
        _run_on_cluster(todo, args, parts, scheduler, local_cluster, done, deals, progress)
    else:
        with threads(jobs):
            for offset, n in todo:
                _write_part(_part(parts, offset, n), chunk_frame(players, offset, n, *args[1:]))
                done += n
                if progress:
                    progress(done, deals)
    _assemble(parts, out, settings)
    shutil.rmtree(parts)
    return out


def _part(parts: Path, offset: int, n: int) -> Path:
    return parts / f"deals-{offset:012d}-{offset + n:012d}.parquet"


def _write_part(part: Path, frame: pd.DataFrame) -> None:
    """Write a chunk under a temporary name and rename it: a part file is complete or absent."""
    tmp = part.with_suffix(".tmp")
    frame.to_parquet(tmp, index=False)
    tmp.rename(part)


def _run_on_cluster(todo, args, parts: Path, scheduler: str | None, local_cluster: int | None, done: int,
                    deals: int, progress) -> None:
    """Compute the missing chunks on a dask.distributed cluster and write their parts here."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BatchError("distributed runs need dask.distributed: pip install 'tarot-analyzer[dask]'") from None
    players, seed, policy, takers, contracts, rules = args
    cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True,
                           dashboard_address=None) if local_cluster else None
    try:
        try:
            client = Client(cluster if cluster else scheduler, timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            raise BatchError(f"cannot reach the dask scheduler at {scheduler} ({exc})") from None
        with client:
            futures = {client.submit(chunk_frame, players, offset, n, seed, policy, takers, contracts, rules,
                                     pure=False):
                       (offset, n) for offset, n in todo}
            for future in as_completed(futures):
                offset, n = futures[future]
                _write_part(_part(parts, offset, n), future.result())
                done += n
                if progress:
                    progress(done, deals)
    finally:
        if cluster:
            cluster.close()


def _assemble(parts: Path, out: Path, settings: dict) -> None:
    """Stream the parts, in deal order, into ``out`` (written under a temporary name first)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = out.with_name(out.name + ".tmp")
    files = sorted(parts.glob("deals-*.parquet"))
    expected = settings["deals"]
    covered = sum(int(f.stem.split("-")[2]) - int(f.stem.split("-")[1]) for f in files)
    if covered != expected:
        raise BatchError(f"{parts}: the parts cover {covered} deals, not {expected}")
    if out.suffix == ".parquet":
        writer = None
        buffered: list[pa.Table] = []
        rows = 0
        for f in files:
            table = pq.read_table(f)
            buffered.append(table)
            rows += table.num_rows
            while rows >= ROW_GROUP:
                whole = pa.concat_tables(buffered)
                head, rest = whole.slice(0, ROW_GROUP), whole.slice(ROW_GROUP)
                writer = writer or pq.ParquetWriter(tmp, head.schema)
                writer.write_table(head, row_group_size=ROW_GROUP)
                buffered, rows = [rest], rest.num_rows
        if rows or writer is None:
            whole = pa.concat_tables(buffered)
            writer = writer or pq.ParquetWriter(tmp, whole.schema)
            writer.write_table(whole, row_group_size=ROW_GROUP)
        writer.close()
    else:
        with tmp.open("w", encoding="utf-8", newline="") as handle:
            for i, f in enumerate(files):
                pd.read_parquet(f).to_csv(handle, index=False, header=i == 0)
    tmp.rename(out)
