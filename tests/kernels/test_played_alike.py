"""Prise and Garde are played once and scored as each (kernels.playout.score_again; odds' groups and
bid's options): the heuristic plays the two contracts alike, so Garde's rows scored from Prise's play
are exactly those of Garde played, poignées, petit au bout and chelem included, under every scoring
variant and player count, and bid's Garde option valued beside its Prise option is the option valued
alone, whether the auction ends the same under both or not; the search's differ only where the
unmultiplied bonuses change a card's rank, which one test bounds."""

import numpy as np
import pytest

from analyzer.baselines import method_id
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.sampling import random_hands
from analyzer.simulate import rules_flags
from analyzer.simulation.bridge import fixed_hand, simulate_contract
from analyzer.simulation.threads import over_rows
from kernels import auction
from kernels import playout as K

VARIANTS = [{}, {"petit_au_bout": "flat", "poignee_values": "20-40-60"}]


def hands(players: int, n: int, seed: int) -> list[Hand]:
    """Seat 1's hands of ``n`` random deals, the ones holding most trumps first (poignées are shown)."""
    return sorted(random_hands(Rules(players=players), n, seed), key=lambda h: -sum(1 for c in h if c >= 56))


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variants", VARIANTS)
def test_garde_scored_from_the_prise_play_is_garde_played(players, variants):
    rules = Rules(players=players, **variants)
    bonuses = petits = 0
    for hand in hands(players, 40, seed=players)[:4]:
        garde = np.zeros((600, K.RESULT_SIZE), dtype=np.int64)
        prise = simulate_contract(hand, 0, Contract.PRISE, rules, "heuristic", 600, 9, also=Contract.GARDE,
                                  also_rows=garde)
        played = simulate_contract(hand, 0, Contract.GARDE, rules, "heuristic", 600, 9)
        assert np.array_equal(garde, played)
        assert np.array_equal(garde[:, K.R_MADE], prise[:, K.R_MADE]) and (garde[:, 0] != prise[:, 0]).all()
        # a total not twice Prise's (petit au bout flat apart): a poignée or a chelem was scored again
        flat = 10 * prise[:, K.R_PAB] if variants else 0
        bonuses += int((2 * prise[:, K.R_TOTAL] - garde[:, K.R_TOTAL] - flat != 0).sum())
        petits += int((prise[:, K.R_PAB] != 0).sum())
    assert bonuses > 0 and petits > 0


def test_garde_scored_from_the_prise_search_is_close_to_garde_searched():
    # The search weighs the unmultiplied bonuses differently under each contract, so its cards may
    # differ; on 4 players' strong hands (100 deals each, 4 worlds) the outcome differs on at most 1%.
    rules = Rules(players=4)
    differ = total = 0
    for hand in hands(4, 40, seed=21)[:3]:
        garde = np.zeros((100, K.RESULT_SIZE), dtype=np.int64)
        simulate_contract(hand, 0, Contract.PRISE, rules, "pimc-prior", 100, 4, worlds=4, also=Contract.GARDE,
                          also_rows=garde)
        played = simulate_contract(hand, 0, Contract.GARDE, rules, "pimc-prior", 100, 4, worlds=4)
        differ += int((garde[:, K.R_MADE] != played[:, K.R_MADE]).sum())
        total += 100
    assert differ <= 0.01 * total


@pytest.mark.parametrize("players,seat,earlier", [(3, 0, []), (4, 1, [0]), (4, 2, [0, 1]), (5, 3, [0, 0, 0])])
@pytest.mark.parametrize("variants", VARIANTS + [{"all_pass": "goulash"}])
def test_bid_garde_beside_prise_is_garde_alone(players, seat, earlier, variants):
    rules = Rules(players=players, **variants)
    flags = rules_flags(rules)
    policies = np.full(players, K.HEURISTIC, dtype=np.int64)
    ends = {"both taken": 0, "otherwise": 0}
    for hand in hands(players, 40, seed=10 + players)[3:9:2]:
        fixed, unseen, slots = fixed_hand(hand, seat, players)
        n = 400
        prise, garde, alone = (np.zeros((n, auction.BID_SIZE), dtype=np.int64) for _ in range(3))
        weights = np.empty(n)
        args = (fixed, unseen, slots, players, seat, np.array(earlier or [0], dtype=np.int64), True)
        rest = (method_id("tarotclub"), 8.0, policies, 4, np.uint64(6), np.arange(n), True, flags)
        over_rows(auction.bid_deals, n, *args, int(Contract.PRISE), *rest, prise, weights, int(Contract.GARDE), garde,
                  None)
        over_rows(auction.bid_deals, n, *args, int(Contract.GARDE), *rest, alone, weights, -1,
                  np.empty((0, auction.BID_SIZE), dtype=np.int64), None)
        assert np.array_equal(garde, alone)
        taken = (prise[:, auction.B_TAKER] == seat) & (garde[:, auction.B_TAKER] == seat)
        ends["both taken"] += int(taken.sum())
        ends["otherwise"] += int((~taken).sum())
    assert ends["otherwise"] > 0
    assert ends["both taken"] > 0 or max(earlier or [0]) >= Contract.PRISE    # after a Prise, Prise is a pass
