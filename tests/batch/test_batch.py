"""batch: rows and columns, identical output whatever the chunking, threads or resuming; clear errors."""

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.batch import BatchError, chunk_frame, run_batch
from analyzer.hand import Hand
from analyzer.rules import Contract
from cli.main import main
from tests.support.errorline import assert_one_error_line


def test_rows_columns_and_replayable_hands(tmp_path):
    out = run_batch(tmp_path / "b.csv", 4, 300, seed=1, takers="all", chunk=128)
    frame = pd.read_csv(out)
    assert len(frame) == 300 * 4
    assert list(frame["deal"][:4]) == [0, 0, 0, 0] and list(frame["seat"][:4]) == [1, 2, 3, 4]
    for col in ("trumps", "oudlers", "kings", "queens", "voids", "singletons", "longest_suit", "poignee", "chavey",
                "tarotclub", "chien_points", "chien_oudlers", "garde_sans_made", "garde_contre_score"):
        assert col in frame
    first = frame.iloc[0]
    hand = Hand.parse(first["hand"], players=4)
    assert hand.trumps() == first["trumps"] and hand.oudlers == first["oudlers"]
    # the four hands of a deal and its chien are disjoint and hold the deck
    deal = frame[frame["deal"] == 0]
    masks = [Hand.parse(h).mask for h in deal["hand"]]
    assert sum(m.bit_count() for m in masks) == 72 and len(set(masks)) == 4
    assert (frame["garde_score"] == 2 * frame["prise_score"]).mean() > 0.9


def test_same_file_whatever_chunks_threads_and_resume(tmp_path):
    a = run_batch(tmp_path / "a.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=250, jobs=2)
    b = run_batch(tmp_path / "b.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=64, jobs=1)
    assert a.read_bytes() == b.read_bytes()

    calls = []

    def interrupt(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(tmp_path / "c.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=64, progress=interrupt)
    assert not (tmp_path / "c.csv").exists()                 # nothing left behind as if complete
    assert len(list((tmp_path / "c.csv.parts").glob("deals-*.parquet"))) == 2
    with pytest.raises(BatchError, match="--resume"):
        run_batch(tmp_path / "c.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=64)
    with pytest.raises(BatchError, match="other settings"):
        run_batch(tmp_path / "c.csv", 3, 250, seed=6, contracts=[Contract.GARDE], chunk=64, resume=True)
    c = run_batch(tmp_path / "c.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=64, resume=True)
    assert c.read_bytes() == a.read_bytes()
    assert not (tmp_path / "c.csv.parts").exists()


def test_parquet_matches_csv(tmp_path):
    a = pd.read_csv(run_batch(tmp_path / "a.csv", 5, 120, seed=2, chunk=50))
    b = pd.read_parquet(run_batch(tmp_path / "b.parquet", 5, 120, seed=2, chunk=50))
    pd.testing.assert_frame_equal(a, b, check_dtype=False)


def test_bad_paths_are_clear_errors(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(main, ["batch", "--deals", "10", "--out", str(tmp_path / "missing" / "b.csv")])
    assert bad.exit_code != 0 and "no such directory" in bad.output and "Traceback" not in bad.output
    bad = runner.invoke(main, ["batch", "--deals", "10", "--out", str(tmp_path / "b.xlsx")])
    assert bad.exit_code != 0 and ".csv or .parquet" in bad.output


@pytest.mark.slow
def test_a_local_dask_cluster_writes_the_same_file(tmp_path):
    pytest.importorskip("distributed")
    alone = run_batch(tmp_path / "alone.csv", 4, 300, seed=11, contracts=[Contract.GARDE], chunk=100)
    cluster = run_batch(tmp_path / "cluster.csv", 4, 300, seed=11, contracts=[Contract.GARDE], chunk=100,
                        local_cluster=2)
    assert cluster.read_bytes() == alone.read_bytes()


def test_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("analyzer.batch.CONNECT_TIMEOUT", "0.5s")
    with pytest.raises(BatchError, match="cannot reach"):
        run_batch(tmp_path / "b.csv", 4, 10, seed=1, scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "b.csv.parts").exists()          # nothing computed, nothing to resume


@pytest.mark.parametrize("address,words", [
    ("http:" "//127.0.0.1:8786", ["'http'", "tcp"]),          # (split: not a web address to follow)
    ("tcp://127.0.0.1", ["HOST:PORT"]),
    ("tcp://[::1:8786", ["IPv6"]),
    ("tcp://127.0.0.1:99999", ["out of range"]),
    ("tcp://127.0.0.1:port", ["PORT"]),
    ("tcp://:8786", ["HOST:PORT"]),
])
def test_a_malformed_scheduler_address_is_refused_before_anything_is_created(tmp_path, address, words):
    out = tmp_path / "b.csv"
    result = CliRunner().invoke(main, ["batch", "--deals", "10", "--out", str(out), "--scheduler", address])
    assert_one_error_line(result, "--scheduler", *words)
    assert not (tmp_path / "b.csv.parts").exists() and not out.exists()


def test_no_contract_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["batch", "--deals", "10", "--out", str(tmp_path / "b.csv"), "--contracts", ",,"])
    assert_one_error_line(result, "--contracts", "at least one contract")


def test_scheduler_addresses_of_every_accepted_form():
    from analyzer.batch import scheduler_address
    assert scheduler_address("10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert scheduler_address("TCP://[::1]:8786") == "tcp://[::1]:8786"
    assert scheduler_address(" tls://sched.example:8786 ") == "tls://sched.example:8786"


@pytest.mark.parametrize("damage,words", [
    ("no settings", ["settings.json", "missing or damaged"]),
    ("empty settings", ["settings.json", "missing or damaged"]),
    ("settings not json", ["settings.json", "missing or damaged"]),
    ("a file", ["not a folder"]),
    ("a stray part", ["not a part of this run"]),
])
def test_resume_on_damaged_parts_is_one_line(tmp_path, damage, words):
    out = tmp_path / "b.csv"
    parts = tmp_path / "b.csv.parts"
    if damage == "a file":
        parts.write_text("x")
    elif damage == "a stray part":
        with pytest.raises(KeyboardInterrupt):
            run_batch(out, 4, 10, seed=1, contracts=[Contract.GARDE], chunk=5, progress=_interrupt_after(1))
        (parts / "deals-000000000010-000000000020.parquet").write_bytes(b"")
    else:
        parts.mkdir()
        if damage == "empty settings":
            (parts / "settings.json").write_text("")
        elif damage == "settings not json":
            (parts / "settings.json").write_bytes(b"\xff{")
    result = CliRunner().invoke(main, ["batch", "--deals", "10", "--seed", "1", "--contracts", "garde",
                                       "--out", str(out), "--resume"])
    assert_one_error_line(result, *words)


def _interrupt_after(chunks):
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == chunks:
            raise KeyboardInterrupt
    return progress


def test_resume_keeps_the_finished_chunks_whatever_the_chunk_size(tmp_path, monkeypatch):
    whole = run_batch(tmp_path / "a.csv", 3, 250, seed=5, contracts=[Contract.GARDE], chunk=250)
    out = tmp_path / "c.csv"
    with pytest.raises(KeyboardInterrupt):
        run_batch(out, 3, 250, seed=5, contracts=[Contract.GARDE], chunk=64, progress=_interrupt_after(2))
    computed = []
    real = chunk_frame

    def recording(players, offset, n, *args):
        computed.append((offset, n))
        return real(players, offset, n, *args)

    monkeypatch.setattr("analyzer.batch.chunk_frame", recording)
    resumed = run_batch(out, 3, 250, seed=5, contracts=[Contract.GARDE], chunk=100, resume=True)
    assert computed == [(128, 100), (228, 22)]             # deals 0-127 kept from the first run
    assert resumed.read_bytes() == whole.read_bytes()


def test_the_output_suffix_is_read_in_any_letter_case(tmp_path):
    out = run_batch(tmp_path / "b.CSV", 4, 20, seed=1, contracts=[Contract.GARDE], chunk=10)
    assert out.name == "b.CSV" and len(pd.read_csv(out)) == 20
    pq = run_batch(tmp_path / "b.Parquet", 4, 20, seed=1, contracts=[Contract.GARDE], chunk=10)
    pd.testing.assert_frame_equal(pd.read_parquet(pq), pd.read_csv(out), check_dtype=False)
