"""How the judge reads a record's auction (``analyzer.coach.auction_reading``): players at a table by
``bid``'s model with its error, a record a bidding model bid (its ``Bidding`` tag, which ``play``
writes) by that model exactly, and ``--auction-noise`` over both."""

import dataclasses

import pytest

from analyzer.advice.auction import BID_NOISE
from analyzer.coach.auction_reading import AuctionReading, reading_of, readings_words
from analyzer.coach.deal import analyze_record
from analyzer.records.simulate import simulate_records
from analyzer.records.record import BIDDING_TAG
from analyzer.runs import Settings

QUICK = Settings(policy="heuristic", worlds_per_card=60, seed=4, jobs=1)


def played(bidding: str, seed: int):
    """The first deal of ``play --seed seed --bidding bidding`` with a taker."""
    return next(r for r in simulate_records(4, 6, seed=seed, bidding=bidding) if r.game.taker is not None)


def untagged(record):
    return dataclasses.replace(record, tags={k: v for k, v in record.tags.items() if k != BIDDING_TAG})


@pytest.mark.kernels
def test_a_record_bid_by_a_model_is_read_by_it_exactly():
    rec = played("tarotclub", 3)
    assert reading_of(rec) == AuctionReading("tarotclub", 0.0)
    assert reading_of(untagged(rec)) == AuctionReading("tarotclub", BID_NOISE)
    assert reading_of(rec, noise=3.0) == reading_of(untagged(rec), noise=3.0) == AuctionReading("tarotclub", 3.0)
    assert readings_words([rec]) == "tarotclub exactly"
    assert readings_words([rec, untagged(rec)]) == "tarotclub exactly (1 deal), tarotclub ± 8 points (1 deal)"


def _cards(record, noise=None):
    report = analyze_record(record, None, QUICK, with_board=False, noise=noise, tricks=[1, 2])
    return [(d.seat, d.trick, d.played, [(o.choice, o.score.mean) for o in d.options], d.effective_worlds)
            for d in report.decisions], report.reading


@pytest.mark.kernels
def test_the_judge_weighs_the_worlds_as_the_record_s_reading_says():
    """A tagged record is judged as the same record untagged with no error; the default reading of the
    untagged one (8 points) weighs the worlds otherwise."""
    rec = played("tarotclub", 3)
    tagged, reading = _cards(rec)
    assert reading == AuctionReading("tarotclub", 0.0)
    assert tagged == _cards(untagged(rec), noise=0.0)[0]
    default, reading = _cards(untagged(rec))
    assert reading == AuctionReading("tarotclub", BID_NOISE)
    assert [d[4] for d in default] != [d[4] for d in tagged]            # the effective worlds differ


@pytest.mark.kernels
def test_a_record_bid_by_chavey_s_count_is_read_by_it():
    rec = played("chavey", 5)
    assert reading_of(rec) == AuctionReading("chavey", 0.0)
    cards, _ = _cards(rec)
    as_tarotclub, _ = _cards(dataclasses.replace(rec, tags={**rec.tags, BIDDING_TAG: "tarotclub"}))
    assert [d[4] for d in cards] != [d[4] for d in as_tarotclub]
