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
from analyzer.game import Game, Outcome, Phase, lowest_poignee
from analyzer.rules import Contract, Rules
from analyzer.scoring import Side
from analyzer.simulate import CHELEM_CODES, PAB_SIDES, play_deals, state_from_game
from kernels import playout as K
from kernels.declarations import announce_chelem, call_card, poignee_to_show
from kernels.discard import heuristic_discard
from tests.support.crafted import defence_chelem_game, fft_chelem_game, play_scripted
from tests.support.randomplay import held_miseres, misere_deal, new_random_game, random_deal, step



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
    miseres = {}
    if rules.misere == "on":
        for seat in range(players):
            kinds = held_miseres(hand if seat == taker else deal.hands[seat].mask)
            if kinds:
                miseres[seat] = kinds
    return dict(called_card=called, discard=discard, chelem=chelem, poignees=poignees, miseres=miseres)


def words_to_mask(s, t):
    return int(s) | int(t) << C.FIRST_TRUMP


def replay(game, trace, hs, ht, st, players, where):
    """Replay the kernel's cards through the reference game and a kernel state side by side: same
    seat to play, same legal cards, same trick winners and trick points; returns the positions seen."""
    positions = 0
    for card in trace:
        card = int(card)
        legal_ref = game.legal_cards()
        seat = (st[K.LEADER] + st[K.TRICK_LEN]) % players
        assert seat == game.to_act
        assert words_to_mask(*K.legal_words(hs[seat], ht[seat], st)) == legal_ref
        assert legal_ref >> card & 1, f"{where}: the kernel played {C.TOKENS[card]}, illegal"
        tricks_before = len(game.tricks)
        game.play(card)
        K.play_card(hs, ht, st, card)
        positions += 1
        if len(game.tricks) > tricks_before:
            assert st[K.LAST_WINNER] == game.tricks[-1].winner
            if game.taker is not None:
                # trick points won by the taker's side so far (the Excuse is settled at the end)
                won = sum(C.mask_half_points(C.mask_of(c for c in t.cards if c != C.EXCUSE))
                          for t in game.tricks if game.side(t.winner) is Side.TAKER)
                assert st[K.TAKER_HP] == won
    return positions


def playable_deals(rng, players, n, miseres=False):
    """Random deals without a petit sec; with ``miseres``, one in four has a seat holding two misères."""
    deals = []
    while len(deals) < n:
        d = misere_deal(rng, players) if miseres and len(deals) % 4 == 0 else random_deal(rng, players)
        if d.petit_sec_seat() is None:
            deals.append(d)
    return deals


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("variants", [{}, {"misere": "on", "chelem": "petit-chelem", "petit_au_bout": "flat",
                                           "poignee_values": "20-40-60"}], ids=["fft", "variants"])
def test_kernel_games_replay_identically(players, policy, variants):
    rng = random.Random(100 * players + len(policy) + len(variants))
    rules = Rules(players=players, **variants)
    n = 160
    deals = playable_deals(rng, players, n, miseres=rules.misere == "on")
    places = np.array([d.places() for d in deals], dtype=np.int8)
    takers = np.array([rng.randrange(players) for _ in range(n)])
    contracts = [Contract(rng.randint(1, 4)) for _ in range(n)]
    frame, traces = play_deals(places, takers, np.array([int(c) for c in contracts]), rules, policy,
                               seed=players, trace=True)
    positions = 0
    declared = 0
    for i, deal in enumerate(deals):
        taker, contract = int(takers[i]), contracts[i]
        game = Game.for_play(deal, rules, taker, contract, **kernel_choices(deal, rules, taker, contract))
        declared += len(game.miseres)
        hs, ht, st = state_from_game(game)
        positions += replay(game, traces[i], hs, ht, st, players, f"deal {i}")
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
    assert (declared > 0) == (rules.misere == "on")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_goulash_games_replay_identically(players, policy):
    """Everybody passed under all-pass=goulash (misères on): the kernels' Goulash against the reference."""
    rng = random.Random(7 * players + len(policy))
    rules = Rules(players=players, all_pass="goulash", misere="on")
    n = 120
    deals = playable_deals(rng, players, n, miseres=True)
    places = np.array([d.places() for d in deals], dtype=np.int8)
    frame, traces = play_deals(places, -1, 0, rules, policy, seed=players, trace=True)
    positions = 0
    declared = 0
    for i, deal in enumerate(deals):
        game = Game.new(deal, rules)
        for _ in range(players):
            game.bid(None)
        while game.phase is Phase.DECLARE:
            game.declare(miseres=held_miseres(game.hands[game.to_act]))
        declared += len(game.miseres)
        hs, ht, st = state_from_game(game)
        positions += replay(game, traces[i], hs, ht, st, players, f"deal {i}")
        ref = game.result()
        assert ref.outcome is Outcome.GOULASH
        assert [frame.iloc[i][f"score_{s + 1}"] for s in range(players)] == ref.seat_scores, f"deal {i}"
    assert positions == n * rules.tricks * players
    assert declared > 0


def random_declarations(game, rng):
    """The declarations of a random game under the variants: any chelem the rules allow, any misère held."""
    if not game.chelem_decided:
        kinds = [None, "chelem"] + (["petit-chelem"] if game.rules.chelem == "petit-chelem" else [])
        game.announce_chelem(rng.choice(kinds) if rng.random() < 0.3 else None)
        return
    levels = game.poignee_options()
    shown = lowest_poignee(game.hands[game.to_act], rng.choice(levels), game.rules) if levels else 0
    miseres = tuple(k for k in held_miseres(game.hands[game.to_act]) if rng.random() < 0.8)
    game.declare(poignee=shown, miseres=miseres if game.rules.misere == "on" else ())


@pytest.mark.parametrize("players", [3, 4, 5])
def test_kernel_count_matches_reference_on_random_games_under_variants(players):
    """Random legal games (announced chelems and petit chelems, misères, poignées, Goulash deals)
    counted by the kernels from the same cards: every seat's score as the reference's."""
    rng = random.Random(players)
    seen = {"goulash": 0, "petit-chelem": 0, "misere": 0}
    for k in range(400):
        rules = Rules(players=players, misere="on", chelem="petit-chelem", all_pass="goulash",
                      petit_au_bout=("multiplied", "flat")[k % 2], poignee_values=("20-30-40", "20-40-60")[k % 3 > 0])
        game = Game.new(misere_deal(rng, players), rules) if k % 3 == 0 else new_random_game(rng, rules)
        while game.phase is not Phase.DONE:
            if game.phase is Phase.BIDDING and rng.random() < 0.6:
                game.bid(None)                           # many all-pass deals
            elif game.phase is Phase.DECLARE:
                random_declarations(game, rng)
            else:
                step(game, rng)
        ref = game.result()
        if ref.outcome in (Outcome.THROWN_IN, Outcome.ANNULLED):
            continue
        seen["goulash"] += ref.outcome is Outcome.GOULASH
        seen["petit-chelem"] += game.chelem_announced == "petit-chelem"
        seen["misere"] += bool(game.miseres)
        hs, ht, st = state_from_game(game)
        result = np.zeros(K.RESULT_SIZE, dtype=np.int64)
        K.finish(hs, ht, st, result)
        scale = 2 if ref.outcome is Outcome.GOULASH else 1
        assert list(result[:players]) == [scale * x for x in ref.seat_scores], f"game {k}"
    assert min(seen.values()) >= 10, seen


@pytest.mark.parametrize("make,count", [(fft_chelem_game, (174, 2, 1746)), (defence_chelem_game, (8, 1, -2076))],
                         ids=["fft-chelem", "garde-contre-defence-chelem"])
def test_kernel_count_keeps_the_excuse_with_a_side_that_has_no_card(make, count):
    """The Excuse played early by a side that then takes no trick and has no card aside stays with
    it, 4 points against 0.5 (docs/rules.md, "Play"): the FFT's chelem example (the taker counts 87
    with 2 oudlers) and a Garde contre taker taking no trick (4 points, 1 oudler); kernels as reference."""
    game = play_scripted(make())
    ref = game.result()
    assert (ref.taker_half_points, ref.taker_oudlers, ref.seat_scores[game.taker]) == count
    hs, ht, st = state_from_game(game)
    result = np.zeros(K.RESULT_SIZE, dtype=np.int64)
    K.finish(hs, ht, st, result)
    assert list(result[:4]) == ref.seat_scores
    assert (result[K.R_TAKER_HP], result[K.R_OUDLERS]) == (ref.taker_half_points, ref.taker_oudlers)


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
