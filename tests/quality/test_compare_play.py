"""The heuristic's cards against the search's (``compare-play``): every decision compared is one the
heuristic's own play of the deal meets, described as it was; the cost is a paired difference (zero for
one card against itself, the opposite when the two cards swap); the search's cards gain on average;
the situations are spelt out as the rows say; same seed, same table whatever the threads and chunks."""

import json

import numpy as np
import pandas as pd
from click.testing import CliRunner

from analyzer.quality import compare_play as A
from analyzer.quality.compare_play import compare_play, decision_frame, summary
from cli.main import main
from analyzer.simulation.threads import over_rows
from kernels import compare_play as K
from kernels.batch import deal_and_bid
from kernels.bidding import TAROTCLUB
from kernels.deals import whole_deal
from kernels.heuristic import popcount
from kernels.playout import (HAND_SIZE, HEURISTIC, LEADER, PLAYERS, RESULT_SIZE, STATE_SIZE, TRICK, TRICK_LEN,
                             advance, deal_to_play, heuristic_at, legal_words, set_auction)
from tests.support.errorline import assert_one_error_line

FLAGS = np.zeros(6, dtype=np.int64)


def heuristic_deal(players, seed, i, stop, hs, ht, st, seats, legal_s, legal_t, trace, forced, heuristic):
    """Deal ``i`` dealt and bid as ``compare_batch`` does (``deal_and_bid``), played for ``stop`` cards by
    the heuristic but where ``forced`` gives a card (-1: none), each step's seat, legal cards, heuristic
    card and card played recorded; returns the taker (-1: all passed).  The play is driven from here, a
    kernel call a card, so that only the kernels' own compiled code runs."""
    fixed, unseen, slots = whole_deal(players, HAND_SIZE[players])
    places = np.empty(78, dtype=np.int8)
    bids = np.empty(players, dtype=np.int64)
    state, taker = deal_and_bid(fixed, unseen, slots, players, TAROTCLUB, FLAGS, np.uint64(seed), i, places, hs, ht,
                                bids)
    if taker < 0:
        return taker
    deal_to_play(hs, ht, st, players, taker, bids[taker], FLAGS, True)
    set_auction(st, bids, TAROTCLUB)
    policies = np.full(players, HEURISTIC, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    card = np.empty(1, dtype=np.int16)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    k = 0
    while st[TRICK] < HAND_SIZE[players] and k < stop:
        seat = (st[LEADER] + st[TRICK_LEN]) % players
        seats[k] = seat
        legal_s[k], legal_t[k] = legal_words(hs[seat], ht[seat], st)
        heuristic[k] = heuristic_at(hs, ht, st)
        state, _ = advance(hs, ht, st, policies, np.uint64(state), forced[k:k + 1] if forced[k] >= 0 else none, 1,
                           result, card)
        trace[k] = card[0]
        k += 1
    return taker


def played_deal(players, seed, i, stop=100, forced=None):
    hs = np.empty(players + 1, dtype=np.uint64)
    ht = np.empty(players + 1, dtype=np.uint64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    seats, trace, heuristic = np.zeros(80, dtype=np.int64), np.zeros(80, dtype=np.int16), np.zeros(80, dtype=np.int64)
    legal_s, legal_t = np.zeros(80, dtype=np.uint64), np.zeros(80, dtype=np.uint64)
    forced = np.full(80, -1, dtype=np.int64) if forced is None else forced
    taker = heuristic_deal(players, seed, i, stop, hs, ht, st, seats, legal_s, legal_t, trace, forced, heuristic)
    return taker, (hs, ht, st), seats, legal_s, legal_t, trace, heuristic


def compared_batch(players, by_search, seed, n):
    """``compare_batch`` on deals 0…n-1, both sides compared, 8 worlds each way: (rows, costs, counts)."""
    rows = np.zeros((n, K.MAX_DECISIONS, K.ROW_SIZE), dtype=np.int64)
    costs = np.zeros((n, K.MAX_DECISIONS))
    counts = np.zeros(n, dtype=np.int64)
    over_rows(K.compare_batch, n, players, TAROTCLUB, K.SIDE_TAKER | K.SIDE_DEFENCE, by_search, 8, 8, FLAGS,
              np.uint64(seed), 0, rows, costs, counts)
    return rows, costs, counts


def is_legal(card, words_s, words_t):
    return bool(words_t >> np.uint64(card - 56) & np.uint64(1)) if card >= 56 else \
        bool(words_s >> np.uint64(card) & np.uint64(1))


def led_of(cards):
    """What the first card other than the Excuse says was led: a suit 0-3, 4 trumps, -1 nothing yet."""
    for c in cards:
        if c != 77:
            return 4 if c >= 56 else c // 14
    return -1


def test_each_row_is_a_decision_of_the_heuristic_deal_described_as_it_was():
    checked = 0
    for players in (3, 4, 5):
        n = 6
        rows, costs, counts = compared_batch(players, False, 11, n)
        for i in range(n):
            taker, _, seats, legal_s, legal_t, trace, _ = played_deal(players, 11, i)
            if taker < 0:
                assert counts[i] == -1
                continue
            steps = [k for k in range(HAND_SIZE[players] * players)
                     if popcount(legal_s[k]) + popcount(legal_t[k]) > 1]
            assert counts[i] == len(steps)
            for row, cost, k in zip(rows[i, :counts[i]], costs[i, :counts[i]], steps):
                position = k % players
                trick_seats = seats[k - position:k]
                assert row[K.R_DEAL] == i and row[K.R_SEAT] == seats[k]
                assert (row[K.R_TRICK], row[K.R_POSITION]) == (k // players, position)
                assert row[K.R_HEURISTIC] == trace[k], "the heuristic's card is the card the deal went on with"
                assert is_legal(row[K.R_SEARCH], legal_s[k], legal_t[k])
                assert row[K.R_LEGAL] == popcount(legal_s[k]) + popcount(legal_t[k])
                assert (row[K.R_ROLE] == 1) == (seats[k] == taker)
                led = led_of(trace[k - position:k])
                assert row[K.R_LED] == led
                if led >= 0:
                    suit_cards = [c for c in range(56) if is_legal(c, legal_s[k], 0)]
                    holds = (any(is_legal(c, 0, legal_t[k]) and c != 77 for c in range(56, 78)) if led == 4
                             else any(c // 14 == led for c in suit_cards))
                    assert row[K.R_HOLDS_LED] == holds
                assert row[K.R_TAKER_PLAYED] == (seats[k] != taker and taker in trick_seats)
                assert 0 <= row[K.R_TRUMPS] and row[K.R_TRUMPS] + row[K.R_TRUMPS_OUT] <= 21
                if row[K.R_HEURISTIC] == row[K.R_SEARCH]:
                    assert cost == 0
                checked += 1
    assert checked > 500


def test_deals_played_by_the_search_go_on_with_the_search_cards():
    """With the deals played by the search, replaying each deal with the recorded search cards (one
    legal card: the heuristic's) meets the same positions: each recorded card legal there and the
    heuristic's card the one recorded."""
    for players in (3, 5):
        n = 4
        rows, _, counts = compared_batch(players, True, 7, n)
        heuristic_play, _, _ = compared_batch(players, False, 7, n)
        assert not np.array_equal(rows, heuristic_play), "the search's play leads elsewhere"
        for i in range(n):
            if counts[i] < 0:
                continue
            position = (rows[i, :counts[i], K.R_TRICK] * players + rows[i, :counts[i], K.R_POSITION])
            forced = np.full(80, -1, dtype=np.int64)
            forced[position] = rows[i, :counts[i], K.R_SEARCH]
            _, _, seats, legal_s, legal_t, trace, heuristic = played_deal(players, 7, i, forced=forced)
            for row, k in zip(rows[i, :counts[i]], position):
                assert row[K.R_SEAT] == seats[k] and trace[k] == row[K.R_SEARCH]
                assert is_legal(row[K.R_SEARCH], legal_s[k], legal_t[k])
                assert row[K.R_HEURISTIC] == heuristic[k]


def test_the_cost_is_a_paired_difference():
    taker, (hs, ht, st), _, _, _, _, _ = played_deal(4, 5, 0, stop=9)
    assert taker >= 0
    seat = (st[LEADER] + st[TRICK_LEN]) % st[PLAYERS]
    ls, lt = legal_words(hs[seat], ht[seat], st)
    cards = [c for c in range(78) if is_legal(c, ls, lt)]
    assert len(cards) >= 2
    a, b = cards[0], cards[-1]
    state = np.uint64(12345)
    same, _ = K.paired_cost(hs, ht, st, seat, a, a, 16, state)
    ab, _ = K.paired_cost(hs, ht, st, seat, a, b, 16, state)
    ba, _ = K.paired_cost(hs, ht, st, seat, b, a, 16, state)
    assert same == 0 and ab == -ba and ab != 0


def test_the_search_cards_gain_where_they_differ():
    r = compare_play(4, 60, "taker", seed=2)
    differ = r.decisions[r.decisions["differ"]]
    assert len(differ) > 200
    mean, se = differ["cost"].mean(), differ["cost"].std() / np.sqrt(len(differ))
    assert mean > 3 * se, (mean, se)


def test_same_seed_same_decisions_whatever_the_threads_and_chunks(monkeypatch):
    one = compare_play(3, 12, "both", seed=4, worlds=8, eval_worlds=8, jobs=1)
    monkeypatch.setattr(A, "PIMC_CHUNK", 5)
    two = compare_play(3, 12, "both", seed=4, worlds=8, eval_worlds=8, jobs=2)
    pd.testing.assert_frame_equal(one.decisions, two.decisions)
    assert (one.deals, one.skipped) == (two.deals, two.skipped)


def row(role=0, trick=0, position=0, led=-1, holds=0, trumps=5, out=10, taker_played=0, mine=3, theirs=3):
    r = np.zeros(K.ROW_SIZE, dtype=np.int64)
    r[[K.R_ROLE, K.R_TRICK, K.R_POSITION, K.R_LED, K.R_HOLDS_LED, K.R_TRUMPS, K.R_TRUMPS_OUT, K.R_TAKER_PLAYED,
       K.R_HEURISTIC, K.R_SEARCH]] = role, trick, position, led, holds, trumps, out, taker_played, mine, theirs
    return r


def test_situations_are_spelt_out_from_the_rows():
    rows = np.array([
        row(role=1, trumps=6, out=6, mine=60, theirs=3),                    # taker leads, as many trumps as out
        row(role=2, trumps=2, out=9, mine=3, theirs=77),                    # partner leads, fewer
        row(position=2, led=1, holds=1, taker_played=1, mine=15, theirs=20),  # defender follows hearts after the taker
        row(position=1, led=0, holds=0, trumps=3, mine=57, theirs=77),      # defender trumps before the taker
        row(position=1, led=0, holds=0, trumps=0, mine=30, theirs=30),      # defender discards
        row(role=1, position=1, led=4, holds=1, mine=70, theirs=71),        # taker follows a trump lead
        row(position=1, led=-1, mine=5, theirs=6),                          # first card after the Excuse led
        row(position=3, led=4, holds=0, trumps=0, taker_played=1, mine=8, theirs=9),   # no trump on a trump lead
    ])
    d = decision_frame(rows, np.array([4.0, 1.5, 0.5, 2.0, 0.0, -1.0, 0.0, 0.5]))
    assert list(d["phase"]) == ["leading, mine ≥ out", "leading, mine < out", "following suit after the taker",
                                "trumping a suit trick before the taker", "discarding on a suit trick before the taker",
                                "following a trump lead", "leading after the Excuse",
                                "discarding on a trump lead after the taker"]
    assert list(d["cards"]) == ["heuristic a trump, search a suit card", "heuristic a suit card, search the Excuse",
                                "both a suit card, not the same", "heuristic a trump, search the Excuse",
                                "the same card", "both a trump, not the same", "both a suit card, not the same",
                                "both a suit card, not the same"]
    assert list(d["side"]) == ["taker's side", "taker's side", "defence", "defence", "defence", "taker's side",
                               "defence", "defence"]
    assert list(d["heuristic"][:2]) == ["5", "4S"] and list(d["search"][:2]) == ["4S", "EX"]


def test_per_deal_costs_count_every_deal_played():
    d = pd.DataFrame({"deal": [0, 0, 2, 5], "cost": [3.0, 1.0, 2.0, 0.0], "differ": [True, True, True, False]})
    g = summary(d, 5, "defence", "x")
    assert (g.decisions, g.differ) == (4, 3)
    assert g.cost == 2.0
    assert g.per_deal == 6.0 / 5
    assert np.isclose(g.per_deal_se, np.std([4.0, 2.0, 0.0, 0.0, 0.0], ddof=1) / np.sqrt(5))


def test_cli_table_json_and_decisions_file(tmp_path):
    runner = CliRunner()
    path = tmp_path / "decisions.csv"
    args = ["compare-play", "--players", "5", "--deals", "6", "--worlds", "4", "--eval-worlds", "4", "--seed", "3",
            "--quiet"]
    table = runner.invoke(main, args + ["--by", "phase", "--decisions", str(path)])
    assert table.exit_code == 0, table.output
    assert "taker's side" in table.output and "by phase" in table.output
    decisions = pd.read_csv(path)
    assert {"deal", "seat", "role", "phase", "cards", "heuristic", "search", "cost", "hand"} <= set(decisions.columns)
    for hand, mine, theirs in zip(decisions["hand"], decisions["heuristic"], decisions["search"]):
        assert {str(mine), str(theirs)} <= set(hand.split())
    data = json.loads(runner.invoke(main, args + ["--format", "json", "--by", "trick"]).stdout)
    assert data["deals"] + data["skipped"] == 6 and data["by"] == "trick"
    compared = sum(g["decisions"] for g in data["groups"])
    assert compared == len(decisions) == sum(t["decisions"] for t in data["totals"] if t["group"] == "all decisions")
    searched = json.loads(runner.invoke(main, args + ["--format", "json", "--play", "search"]).stdout)
    assert searched["play"] == "search" and searched["deals"] == data["deals"]
    bad = runner.invoke(main, ["compare-play", "--side", "north"])
    assert_one_error_line(bad, "north")
