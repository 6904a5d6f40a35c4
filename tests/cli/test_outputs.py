"""Output files never lose a user's work: checked before the work, written whole or not at all, and every
failure one line naming the path (play --out, analyze --out, compare-play --decisions, batch)."""

import errno
import os
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import analyzer.output as output
from analyzer.output import OutputError, atomic_output, atomic_path, check_output, write_text
from analyzer.records import load_records
from cli.main import main
from tests.support.errorline import assert_one_error_line

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "records"
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---- the helper ---------------------------------------------------------------------------------------
def test_a_failed_write_keeps_the_existing_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("the work of yesterday", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target) as handle:
            handle.write("half of today's")
            raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "the work of yesterday"
    assert leftovers(tmp_path) == []


def test_a_full_disk_at_the_rename_is_one_line_and_keeps_the_file(tmp_path, monkeypatch):
    target = tmp_path / "report.txt"
    target.write_text("kept", encoding="utf-8")

    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "replace", full)
    with pytest.raises(OutputError, match=f"--out {target}: cannot write it"):
        write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "kept" and leftovers(tmp_path) == []


def test_a_successful_write_replaces_the_file_with_its_permissions(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new" and leftovers(tmp_path) == []
    assert target.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.txt"
    write_text(fresh, "x")
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_link_is_written_through(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize("path, words", [("", "empty path"), ("{tmp}/missing/out.txt", "no such folder"),
                                         ("{tmp}", "is a")])
def test_check_output_refuses_before_any_work(tmp_path, path, words):
    with pytest.raises(OutputError, match=words):
        check_output(path.format(tmp=tmp_path))


@needs_dev_full
def test_writing_to_a_device_is_in_place_and_a_full_device_is_one_line():
    assert check_output(FULL) == FULL
    with pytest.raises(OutputError, match="/dev/full: cannot write it"):
        write_text(FULL, "x" * 100_000)
    assert FULL.exists() and not FULL.is_file()          # the device itself is never replaced
    with atomic_path(os.devnull) as path:
        assert str(path) == os.devnull


# ---- play --out ---------------------------------------------------------------------------------------
@pytest.fixture
def fake_play(monkeypatch):
    """play without the simulation (no kernel to compile): the records of data/records/four-players.txt."""
    import cli.play
    calls = []

    def simulate(*args, **kwargs):
        calls.append(args)
        return load_records(DATA / "four-players.txt") * 2

    monkeypatch.setattr(cli.play, "simulate_records", simulate)
    return calls


@pytest.mark.parametrize("out, words", [("{tmp}/missing/deals.txt", "no such folder"), ("", "empty path"),
                                        ("{tmp}", "is a")])
def test_play_refuses_an_output_it_cannot_write_before_simulating(tmp_path, fake_play, out, words):
    result = run("play", "--deals", 2, "--quiet", "--out", out.format(tmp=tmp_path))
    assert_one_error_line(result, "--out", words)
    assert fake_play == []


@needs_dev_full
@pytest.mark.parametrize("form", ["text", "json"])
def test_play_onto_a_full_disk_is_one_line(fake_play, form):
    result = run("play", "--deals", 2, "--quiet", "--to", form, "--out", FULL)
    assert_one_error_line(result, "/dev/full", "cannot write")


@pytest.mark.parametrize("form", ["text", "json"])
def test_play_failing_while_writing_keeps_the_existing_file(tmp_path, fake_play, monkeypatch, form):
    from analyzer.records import Record
    out = tmp_path / "deals.txt"
    out.write_text("yesterday's deals\n", encoding="utf-8")
    written = []

    def interrupted(self):
        if written:
            raise KeyboardInterrupt           # interrupted with one record written
        written.append(self)
        return "[Players \"4\"]\n" if form == "text" else {"players": 4}

    monkeypatch.setattr(Record, "to_text" if form == "text" else "to_json", interrupted)
    run("play", "--deals", 2, "--quiet", "--to", form, "--out", out)
    assert written
    assert out.read_text(encoding="utf-8") == "yesterday's deals\n" and leftovers(tmp_path) == []


def test_play_writes_its_records(tmp_path, fake_play):
    out = tmp_path / "deals.txt"
    assert run("play", "--deals", 2, "--quiet", "--out", out).exit_code == 0
    assert load_records(out) == load_records(DATA / "four-players.txt") * 2 and leftovers(tmp_path) == []


# ---- analyze --out ------------------------------------------------------------------------------------
@pytest.fixture
def fake_analysis(monkeypatch):
    import cli.analyze
    calls = []

    def analyze_deals(tasks, *args, **kwargs):
        calls.append(tasks)
        return [object() for _ in tasks]

    monkeypatch.setattr(cli.analyze, "analyze_deals", analyze_deals)
    monkeypatch.setattr(cli.analyze, "_render", lambda reports, records, fmt, only_mistakes=False: "the report\n" * 10_000)
    return calls


@pytest.mark.parametrize("out, words", [("{tmp}/missing/report.html", "no such folder"), ("", "empty path"),
                                        ("{tmp}", "is a")])
def test_analyze_refuses_an_output_it_cannot_write_before_the_analysis(tmp_path, fake_analysis, out, words):
    result = run("analyze", DATA / "four-players.txt", "--format", "html", "--out", out.format(tmp=tmp_path))
    assert_one_error_line(result, "--out", words)
    assert fake_analysis == []


@needs_dev_full
def test_analyze_onto_a_full_disk_is_one_line(fake_analysis):
    assert_one_error_line(run("analyze", DATA / "four-players.txt", "--out", FULL, "--quiet"), "/dev/full")


def test_analyze_writes_its_report(tmp_path, fake_analysis):
    out = tmp_path / "report.txt"
    out.write_text("old", encoding="utf-8")
    assert run("analyze", DATA / "four-players.txt", "--out", out, "--quiet").exit_code == 0
    assert out.read_text(encoding="utf-8") == "the report\n" * 10_000 and leftovers(tmp_path) == []


# ---- compare-play --decisions -------------------------------------------------------------------------
class _Comparison:
    decisions = pd.DataFrame({"side": ["taker"] * 1000, "cost": [1.5] * 1000})

    def as_dict(self, by):
        return {"deals": 1}


@pytest.fixture
def fake_comparison(monkeypatch):
    import cli.compare_play
    calls = []

    def compare_play(*args, **kwargs):
        calls.append(args)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return _Comparison()

    monkeypatch.setattr(cli.compare_play, "compare_play", compare_play)
    return calls


@pytest.mark.parametrize("out, words", [("{tmp}/missing/d.csv", "no such folder"), ("", "empty path")])
def test_compare_play_refuses_a_decisions_file_it_cannot_write_before_the_work(tmp_path, fake_comparison, out, words):
    result = run("compare-play", "--deals", 1, "--quiet", "--decisions", out.format(tmp=tmp_path))
    assert_one_error_line(result, "--decisions", words)
    assert fake_comparison == []


@needs_dev_full
def test_compare_play_decisions_onto_a_full_disk_is_one_line(fake_comparison):
    result = run("compare-play", "--deals", 1, "--quiet", "--format", "json", "--decisions", FULL)
    assert_one_error_line(result, "--decisions /dev/full", "cannot write")


def test_compare_play_keeps_an_existing_decisions_file_until_it_has_the_new_one(tmp_path, fake_comparison):
    out = tmp_path / "d.csv"
    assert run("compare-play", "--deals", 1, "--quiet", "--format", "json", "--decisions", out).exit_code == 0
    first = out.read_text(encoding="utf-8")
    assert first.startswith("side,cost\ntaker,1.5\n") and len(first.splitlines()) == 1001
    run("compare-play", "--deals", 1, "--quiet", "--format", "json", "--decisions", out)     # interrupted
    assert out.read_text(encoding="utf-8") == first and leftovers(tmp_path) == []


# ---- batch --------------------------------------------------------------------------------------------
def _fake_chunk(players, offset, n, seed, policy, takers, contracts, rules=None):
    rows = n * (players if takers == "all" else 1)
    return pd.DataFrame({"deal": [offset + i // (rows // n) for i in range(rows)], "seat": 1, "x": 2.5})


@pytest.fixture
def fake_chunks(monkeypatch):
    import analyzer.batch as batch
    computed = []

    def chunk_frame(players, offset, n, *args):
        computed.append((offset, n))
        return _fake_chunk(players, offset, n, *args)

    monkeypatch.setattr(batch, "chunk_frame", chunk_frame)
    return computed


def _interrupted_run(tmp_path, fake_chunks, suffix: str):
    from analyzer.batch import run_batch

    def progress(done, total):
        if done == 20:
            raise KeyboardInterrupt

    out = tmp_path / f"deals{suffix}"
    with pytest.raises(KeyboardInterrupt):
        run_batch(out, 4, 50, chunk=10, progress=progress)
    parts = tmp_path / f"deals{suffix}.parts"
    assert len(list(parts.glob("deals-*.parquet"))) == 2
    return out, parts


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("damage", ["truncate", "empty", "garbage"])
def test_batch_resume_recomputes_a_damaged_part(tmp_path, fake_chunks, suffix, damage):
    from analyzer.batch import run_batch
    out, parts = _interrupted_run(tmp_path, fake_chunks, suffix)
    part = sorted(parts.glob("deals-*.parquet"))[1]
    data = part.read_bytes()
    part.write_bytes({"truncate": data[: len(data) // 2], "empty": b"", "garbage": b"PAR1" + b"\0" * 50}[damage])
    fake_chunks.clear()
    run_batch(out, 4, 50, chunk=10, resume=True)
    assert (10, 10) in fake_chunks and (0, 10) not in fake_chunks
    frame = pd.read_parquet(out) if suffix == ".parquet" else pd.read_csv(out)
    assert list(frame["deal"]) == list(range(50))
    assert not parts.exists() and leftovers(tmp_path) == []


def test_batch_resume_recomputes_a_part_with_the_wrong_rows(tmp_path, fake_chunks):
    from analyzer.batch import run_batch
    out, parts = _interrupted_run(tmp_path, fake_chunks, ".parquet")
    part = sorted(parts.glob("deals-*.parquet"))[0]
    pd.read_parquet(part).head(3).to_parquet(part, index=False)
    run_batch(out, 4, 50, chunk=10, resume=True)
    assert list(pd.read_parquet(out)["deal"]) == list(range(50))


def test_batch_cli_resume_over_a_damaged_part(tmp_path, fake_chunks):
    out, parts = _interrupted_run(tmp_path, fake_chunks, ".csv")
    part = sorted(parts.glob("deals-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    result = run("batch", "--deals", 50, "--chunk-size", 10, "--out", out, "--resume", "--quiet")
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 50


def test_a_part_damaged_before_the_assembly_is_one_line(tmp_path, fake_chunks, monkeypatch):
    import analyzer.batch as batch
    from analyzer.batch import BatchError, run_batch
    monkeypatch.setattr(batch, "_part_is_whole", lambda part, rows: True)       # damaged after the check
    out, parts = _interrupted_run(tmp_path, fake_chunks, ".parquet")
    part = sorted(parts.glob("deals-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    fake_chunks.clear()
    with pytest.raises(BatchError, match=f"{part.name}: a damaged part") as info:
        run_batch(out, 4, 50, chunk=10, resume=True)
    assert "\n" not in str(info.value) and not out.exists()


def test_batch_keeps_an_existing_output_when_the_assembly_fails(tmp_path, fake_chunks, monkeypatch):
    import analyzer.batch as batch
    from analyzer.batch import run_batch
    out = tmp_path / "deals.csv"
    out.write_text("yesterday\n", encoding="utf-8")

    def failing(files, tmp, suffix):
        tmp.write_text("half", encoding="utf-8")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(batch, "_assemble_into", failing)
    with pytest.raises(OutputError, match="No space left on device"):
        run_batch(out, 4, 20, chunk=10)
    assert out.read_text(encoding="utf-8") == "yesterday\n" and leftovers(tmp_path) == []


def test_batch_that_cannot_write_its_settings_leaves_nothing_to_resume(tmp_path, fake_chunks, monkeypatch):
    from analyzer.batch import BatchError, run_batch

    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "replace", full)
    with pytest.raises(BatchError, match="settings.json: cannot write it") as info:
        run_batch(tmp_path / "deals.csv", 4, 20, chunk=10)
    assert "\n" not in str(info.value) and list(tmp_path.iterdir()) == [] and fake_chunks == []
