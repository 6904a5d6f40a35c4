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


def played_at(players: int, bidding: str, seed: int):
    """The first deal of ``play --players players --seed seed --bidding bidding`` with a taker."""
    return next(r for r in simulate_records(players, 6, seed=seed, bidding=bidding) if r.game.taker is not None)


def played(bidding: str, seed: int):
    return played_at(4, bidding, seed)


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


def _first_defender_card(rec):
    """The game at the first card a defender plays, and that card."""
    from analyzer.notation import parse_card
    final = rec.game
    d = next(d for d in rec.decisions() if d.phase == "card" and d.seat not in (final.taker, final.partner))
    game = rec.position(d.index)
    legal = [c for c in range(78) if game.legal_cards() >> c & 1]
    return game, parse_card(d.action), legal


@pytest.mark.kernels
def test_where_few_worlds_fit_the_auction_more_are_drawn_and_only_those_played():
    """Read exactly, most worlds a 5-player defender draws break the recorded passes (weight 0): they are
    not played, and worlds are drawn until as many fit as asked; the first worlds are the same ones."""
    from analyzer.coach.cards import _world_values
    rec = played_at(5, "tarotclub", 3)
    game, _, legal = _first_defender_card(rec)
    heuristic = QUICK.with_(policy="heuristic")
    exact = AuctionReading("tarotclub", 0.0)
    alone = _world_values(game, legal, heuristic, 64, False, exact)
    assert 0 < (alone.weights > 0).sum() < 64                       # some worlds break the auction
    assert not alone.scores[alone.weights == 0].any()                # not played
    more = _world_values(game, legal, heuristic, 64, False, exact, most=8 * 64)
    assert (more.weights > 0).sum() >= 64 or len(more.weights) == 8 * 64
    assert len(more.weights) > 64
    assert (more.scores[:64] == alone.scores).all() and (more.weights[:64] == alone.weights).all()
    every = _world_values(game, legal, heuristic, 64, False, exact, skip=False)
    fit = alone.weights > 0
    assert (every.scores[fit] == alone.scores[fit]).all() and (every.weights == alone.weights).all()


def test_the_search_counts_the_worlds_it_plays():
    import numpy as np

    from analyzer.coach.cards import SEARCH_EFFECTIVE, SEARCH_MOST, search_worlds
    sparse = np.zeros(1600)
    sparse[::16] = 1.0                                             # one world in sixteen fits
    n = search_worlds(sparse)
    assert n is not None and n > SEARCH_MOST and (sparse[:n] > 0).sum() >= SEARCH_EFFECTIVE
    assert search_worlds(np.ones(1600)) == 64                       # every world fits: as before
    assert search_worlds(np.r_[np.ones(1), np.zeros(1599)]) is None
