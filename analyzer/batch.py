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
import re
import shutil
from functools import partial
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit

import numpy as np
import pandas as pd

from analyzer import cards as C
from analyzer.baselines import chavey_points, tarotclub_points
from analyzer.errors import SizeLimitError, TarotError
from analyzer.notation import format_cards
from analyzer.output import OutputError, atomic_path, check_output, write_text
from analyzer.rules import Contract, Rules
from analyzer.runs import MAX_DEALS, PLAY_SEED_SALT, threads
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
    """Write the batch to ``out`` (.csv or .parquet, in any letter case) under ``rules`` (FFT when None);
    returns its path.

    With ``scheduler`` (a dask.distributed address) or ``local_cluster`` (a number of worker
    processes started here), the chunks are computed by the cluster's workers, which run the same
    kernels; this process writes the parts as they arrive and assembles the same output.  Resuming
    keeps every part already written, whatever ``chunk`` was then and is now: only the deals no part
    holds are computed, in chunks of ``chunk``."""
    if not 1 <= deals <= MAX_DEALS:
        raise SizeLimitError(f"--deals {deals:,}: a batch simulates 1 to {MAX_DEALS:,} deals")
    out = Path(out)
    if out.suffix.lower() not in (".csv", ".parquet"):
        raise BatchError(f"{out}: the output must end in .csv or .parquet")
    if not out.parent.exists():
        raise BatchError(f"{out.parent}: no such directory")
    check_output(out)                     # a folder that cannot be written: before the run, not after it
    if takers not in ("first", "all"):
        raise BatchError(f"--takers {takers!r}: expected first or all")
    if scheduler is not None:
        scheduler = scheduler_address(scheduler)
    contracts = list(contracts or Contract)
    rules = rules or Rules(players=players)
    settings = {"players": players, "deals": deals, "seed": seed, "policy": policy, "takers": takers,
                "contracts": [c.token for c in contracts], "format": out.suffix.lower(),
                "variants": rules.variants()}
    parts = out.with_name(out.name + ".parts")
    created = _open_parts(parts, settings, resume)
    try:
        finished = _finished(parts, deals, players if takers == "all" else 1)
        done = sum(end - start for start, end in finished)
        todo = _missing(finished, deals, chunk)
        args = (players, seed, policy, takers, contracts, rules)

        def write(task, frame) -> None:
            nonlocal done
            offset, n = task
            _write_part(_part(parts, offset, n), frame)
            done += n
            if progress:
                progress(done, deals)

        run_chunks(list(todo), partial(_chunk_of, args), write, jobs, scheduler, local_cluster)
    except BaseException:
        if created and not any(parts.glob("deals-*.parquet")):
            shutil.rmtree(parts)          # nothing computed: leave nothing that asks for --resume
        raise
    _assemble(parts, out, settings)
    shutil.rmtree(parts)
    return out


SCHEDULER_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx")


def scheduler_address(text: str) -> str:
    """A dask.distributed scheduler address checked for its form (``tcp://HOST:PORT``, ``HOST:PORT``,
    ``tcp://[::1]:8786``), before anything is created; the error names what is wrong."""
    address = text.strip()
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    expected = "expected PROTOCOL://HOST:PORT, e.g. tcp://10.0.0.5:8786"
    if scheme.lower() not in SCHEDULER_PROTOCOLS:
        raise BatchError(f"--scheduler {text[:80]!r}: protocol {scheme[:20]!r} is not one of "
                         f"{', '.join(SCHEDULER_PROTOCOLS)} ({expected})")
    try:
        parsed = urlsplit(f"{scheme.lower()}://{rest}")
        host, port = parsed.hostname, parsed.port
    except ValueError as exc:
        raise BatchError(f"--scheduler {text[:80]!r}: {exc} ({expected}; an IPv6 host in brackets)") from None
    if not host or port is None or not 0 < port or parsed.path or parsed.query or parsed.fragment \
            or parsed.username or parsed.password:
        raise BatchError(f"--scheduler {text[:80]!r}: {expected}")
    return f"{scheme.lower()}://{rest}"


def _open_parts(parts: Path, settings: dict, resume: bool) -> bool:
    """Create ``parts`` with its settings, or check the unfinished run it holds; True when created."""
    manifest = parts / "settings.json"
    if parts.exists() or parts.is_symlink():
        if not resume:
            raise BatchError(f"{parts} holds an unfinished run: resume it with --resume, or remove it")
        if not parts.is_dir():
            raise BatchError(f"{parts} is not a folder of parts: remove it to start this run")
        try:
            held = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            raise BatchError(f"{manifest} is missing or damaged: remove {parts} to start this run again") from None
        if held != settings:
            raise BatchError(f"{parts} holds a run with other settings; remove it to start this one")
        return False
    try:
        parts.mkdir()
    except OSError as exc:
        raise BatchError(f"{parts}: cannot create it ({exc.strerror})") from None
    try:
        write_text(manifest, json.dumps(settings), "settings")       # whole or absent, as every part
    except OutputError as exc:
        shutil.rmtree(parts, ignore_errors=True)
        raise BatchError(str(exc).removeprefix("settings ")) from None
    return True


_PART_NAME = re.compile(r"deals-([0-9]{12})-([0-9]{12})")


def _finished(parts: Path, deals: int, rows_per_deal: int = 1) -> list[tuple[int, int]]:
    """The deal ranges [start, end) of the parts written, in order; refuses overlapping or stray parts.
    A damaged part (cut short by a full disk or a copy, or holding the wrong number of rows) is removed,
    so that its deals are computed again."""
    ranges = []
    for f in sorted(parts.glob("deals-*.parquet")):
        m = _PART_NAME.fullmatch(f.stem)
        if not m or not int(m[1]) < int(m[2]) <= deals:
            raise BatchError(f"{f}: not a part of this run of {deals} deals; remove {parts} to start again")
        if not _part_is_whole(f, (int(m[2]) - int(m[1])) * rows_per_deal):
            try:
                f.unlink()
            except OSError as exc:
                raise BatchError(f"{f}: a damaged part that cannot be removed ({exc.strerror}); remove it to "
                                 "resume") from None
            continue
        ranges.append((int(m[1]), int(m[2])))
    ranges.sort()
    for (_, end), (start, _) in zip(ranges, ranges[1:]):
        if start < end:
            raise BatchError(f"{parts}: parts overlap at deal {start}; remove {parts} to start again")
    return ranges


def _missing(finished: list[tuple[int, int]], deals: int, chunk: int) -> Iterator[tuple[int, int]]:
    """(offset, n) chunks of at most ``chunk`` deals covering every deal no finished part holds."""
    start = 0
    for begin, end in finished + [(deals, deals)]:
        for offset in range(start, begin, chunk):
            yield offset, min(chunk, begin - offset)
        start = max(start, end)


def _part(parts: Path, offset: int, n: int) -> Path:
    return parts / f"deals-{offset:012d}-{offset + n:012d}.parquet"


def _part_is_whole(part: Path, rows: int) -> bool:
    """Whether a part file reads as Parquet (its footer) and holds ``rows`` rows."""
    import pyarrow.parquet as pq
    try:
        return pq.ParquetFile(part).metadata.num_rows == rows
    except Exception:  # noqa: BLE001 - any reader failure is a damaged part, computed again
        return False


def _write_part(part: Path, frame: pd.DataFrame) -> None:
    """Write a chunk under a temporary name, flushed to disk, and rename it: a part file is complete or absent."""
    try:
        with atomic_path(part, "part") as tmp:
            frame.to_parquet(tmp, index=False)
    except OutputError as exc:
        raise BatchError(str(exc).removeprefix("part ")) from None


def chunks(n: int, chunk: int) -> list[tuple[int, int]]:
    """(offset, count) chunks of at most ``chunk`` items covering ``0 … n-1`` in order."""
    return list(_missing([], n, chunk))


def _chunk_of(args, offset: int, n: int) -> pd.DataFrame:
    players, *rest = args
    return chunk_frame(players, offset, n, *rest)


def run_chunks(tasks: list[tuple], compute: Callable, accept: Callable[[tuple, object], None],
               jobs: int | None = None, scheduler: str | None = None, local_cluster: int | None = None) -> None:
    """``compute(*task)`` for each of ``tasks``, each result handed to ``accept(task, result)``: here, in
    order, on ``jobs`` threads (all when None); or, with ``scheduler`` (a dask.distributed address,
    checked by ``scheduler_address``) or ``local_cluster`` (a number of worker processes started here),
    on the cluster's workers, accepted here as they arrive.  ``compute`` and the tasks must pickle (a
    module-level function, a ``functools.partial`` of one).  Whatever runs it, each result depends on its
    task only: a caller that orders the results gets the same output."""
    if not (scheduler or local_cluster):
        with threads(jobs):
            for task in tasks:
                accept(task, compute(*task))
        return
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BatchError("distributed runs need dask.distributed: pip install 'tarot-analyzer[dask]'") from None
    cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True,
                           dashboard_address=None) if local_cluster else None
    try:
        try:
            client = Client(cluster if cluster else scheduler, timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            raise BatchError(f"cannot reach the dask scheduler at {scheduler} ({exc})") from None
        with client:
            futures = {client.submit(compute, *task, pure=False): task for task in tasks}
            for future in as_completed(futures):
                accept(futures[future], future.result())
    finally:
        if cluster:
            cluster.close()


def _assemble(parts: Path, out: Path, settings: dict) -> None:
    """Stream the parts, in deal order, into ``out`` (written under a temporary name first)."""
    files = sorted(parts.glob("deals-*.parquet"))
    expected = settings["deals"]
    covered = sum(int(f.stem.split("-")[2]) - int(f.stem.split("-")[1]) for f in files)
    if covered != expected:
        raise BatchError(f"{parts}: the parts cover {covered} deals, not {expected}")
    with atomic_path(out) as tmp:
        _assemble_into(files, tmp, out.suffix.lower())


def _read_part(part: Path):
    """A part's table; a part damaged since it was written is a one-line error naming it."""
    import pyarrow.parquet as pq
    try:
        return pq.read_table(part)
    except Exception as exc:  # noqa: BLE001 - pyarrow's ArrowInvalid, OSError …
        raise BatchError(f"{part}: a damaged part ({exc.__class__.__name__}); run again with --resume to compute "
                         "its deals again") from None


def _assemble_into(files: list[Path], tmp: Path, suffix: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if suffix == ".parquet":
        writer = None
        buffered: list[pa.Table] = []
        rows = 0
        for f in files:
            table = _read_part(f)
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
                _read_part(f).to_pandas().to_csv(handle, index=False, header=i == 0)
