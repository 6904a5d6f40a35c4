"""The kernels against the reference engine: same legal cards, trick winners, counts and scores.

Whole deals are played by the kernels (random and heuristic play); each is replayed card by card
through ``analyzer.game.Game`` with the same choices, while a second kernel state follows along:
at every position the legal cards must be the same, at every trick the winner, and at the end the
taker's points, oudlers, petit au bout, chelem and every seat's score.
"""

import random

import numpy as np
import pandas as pd
import pytest

from analyzer import cards as C
from analyzer.game import Game
from analyzer.rules import Contract, Rules
from analyzer.scoring import Side
from analyzer.simulate import CHELEM_CODES, PAB_SIDES, play_deals, state_from_game
from kernels import playout as K
from kernels.declarations import announce_chelem, call_card, poignee_to_show
from kernels.discard import heuristic_discard
from tests.randomplay import random_deal


def kernel_choices(deal, rules, taker, contract):
    """The simulated seats' pre-play choices, as the kernels make them."""
    players = rules.players
    hand = deal.hands[taker].mask
    called = call_card(np.uint64(hand & C.SUIT_BITS)) if players == 5 else None
    discard = None
    if contract.chien_shown:
        both = hand | deal.chien.mask
        s, t = heuristic_discard(np.uint64(both & C.SUIT_BITS), np.uint64(both >> C.FIRST_TRUMP), rules.chien_size)
        discard = int(s) | int(t) << C.FIRST_TRUMP
        hand = both & ~discard
    poignees = {}
    for seat in range(players):
        cards = hand if seat == taker else deal.hands[seat].mask
        level, shown = poignee_to_show(np.uint64(cards >> C.FIRST_TRUMP), players)
        if level >= 0:
            poignees[seat] = int(shown) << C.FIRST_TRUMP
    chelem = [False, "chelem", "petit-chelem"][announce_chelem(np.uint64(hand & C.SUIT_BITS),
                                                               np.uint64(hand >> C.FIRST_TRUMP),
                                                               rules.chelem == "petit-chelem")]
    return dict(called_card=called, discard=discard, chelem=chelem, poignees=poignees)


def words_to_mask(s, t):
    return int(s) | int(t) << C.FIRST_TRUMP


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_kernel_games_replay_identically(players, policy):
    rng = random.Random(100 * players + len(policy))
    rules = Rules(players=players)
    n = 160
    deals = []
    while len(deals) < n:
        d = random_deal(rng, players)
        if d.petit_sec_seat() is None:
            deals.append(d)
    places = np.array([d.places() for d in deals], dtype=np.int8)
    takers = np.array([rng.randrange(players) for _ in range(n)])
    contracts = [Contract(rng.randint(1, 4)) for _ in range(n)]
    frame, traces = play_deals(places, takers, np.array([int(c) for c in contracts]), rules, policy,
                               seed=players, trace=True)
    positions = 0
    for i, deal in enumerate(deals):
        taker, contract = int(takers[i]), contracts[i]
        game = Game.for_play(deal, rules, taker, contract, **kernel_choices(deal, rules, taker, contract))
        hs, ht, st = state_from_game(game)
        for card in traces[i]:
            card = int(card)
            legal_ref = game.legal_cards()
            seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
            assert seat == game.to_act
            assert words_to_mask(*K.legal_words(hs[seat], ht[seat], st)) == legal_ref
            assert legal_ref >> card & 1, f"deal {i}: the kernel played {C.TOKENS[card]}, illegal"
            tricks_before = len(game.tricks)
            game.play(card)
            K.play_card(hs, ht, st, card)
            positions += 1
            if len(game.tricks) > tricks_before:
                assert st[K.LAST_WINNER] == game.tricks[-1].winner
                # trick points won by the taker's side so far (the Excuse is settled at the end)
                won = sum(C.mask_half_points(C.mask_of(c for c in t.cards if c != C.EXCUSE))
                          for t in game.tricks if game.side(t.winner) is Side.TAKER)
                assert st[K.TAKER_HP] == won
        ref = game.result()
        row = frame.iloc[i]
        assert [int(row[f"score_{s + 1}"]) for s in range(players)] == ref.seat_scores, f"deal {i}"
        assert row["taker_points"] * 2 == ref.taker_half_points
        assert row["oudlers"] == ref.taker_oudlers
        assert PAB_SIDES[{"taker": 1, "defence": -1, "none": 0}[row["petit_au_bout"]]] == ref.petit_au_bout
        assert CHELEM_CODES[[k for k, v in CHELEM_CODES.items() if (v.value if v else "none") == row["chelem"]][0]] \
            == ref.chelem
        assert bool(row["made"]) == ref.score.made
    assert positions == n * rules.tricks * players


def test_playouts_are_the_same_whatever_the_threads():
    import numba
    rng = random.Random(8)
    places = np.array([random_deal(rng, 4).places() for _ in range(400)], dtype=np.int8)
    rules = Rules(players=4)
    numba.set_num_threads(1)
    try:
        one = play_deals(places, 0, int(Contract.GARDE), rules, "random", seed=3)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    two = play_deals(places, 0, int(Contract.GARDE), rules, "random", seed=3)
    halves = [play_deals(places[a:a + 200], 0, int(Contract.GARDE), rules, "random", seed=3, offset=a)
              for a in (0, 200)]
    assert one.equals(two)
    assert one.equals(pd.concat(halves, ignore_index=True))
