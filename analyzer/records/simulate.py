"""Simulated whole deals written as records (``tarot-analyzer play``).

``kernels/records.py`` deals, bids by the bidding model, makes the taker's and the seats' choices
before the first card and plays every card by the chosen policy, keeping each action.  Each deal is
then replayed through the reference engine (``analyzer.game.Game``): the engine checks every kernel
action and scores the deal, and the record is what the engine went through.  A deal everybody passes
is recorded with its auction only (it is thrown in), or played out as a Goulash under that variant;
under ``misere=on`` every seat declares the misères it holds, as in the kernels.
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from analyzer import cards as C
from analyzer.baselines import method_id
from analyzer.game import MISERE_KINDS, Game, Phase, misere_allowed
from analyzer.hand import Deal
from analyzer.records.build import record_of_game
from analyzer.records.record import BIDDING_TAG, Record
from analyzer.rules import Contract, Rules
from analyzer.runs import CHUNK, PIMC_CHUNK, PIMC_WORLDS, POLICY_IDS, search_arg, threads
from analyzer.simulate import rules_flags
from analyzer.simulation.policies import play_choices
from analyzer.simulation.threads import over_rows
from kernels import records as K

PLAY_POLICIES = tuple(play_choices())     # the policies that play a whole known deal


def simulate_records(players: int, deals: int, seed: int = 0, policy: str = "heuristic", bidding: str = "tarotclub",
                     worlds: int = PIMC_WORLDS, jobs: int | None = None, rules: Rules | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     names: list[str] | None = None) -> Iterator[Record]:
    """``deals`` simulated deals as records, in order (deal ``i`` from the stream ``(seed, i)``).
    ``names``: one per seat, written as the ``SeatN`` tags (``seat_names``)."""
    if policy not in PLAY_POLICIES:
        raise ValueError(f"unknown policy {policy!r} (expected one of: {', '.join(PLAY_POLICIES)})")
    method = method_id(bidding)
    rules = rules or Rules(players=players)
    chunk = PIMC_CHUNK if policy == "pimc" else CHUNK
    tags = {"Event": f"simulated by tarot-analyzer play ({policy} play, {bidding} bidding)", "Seed": str(seed),
            BIDDING_TAG: bidding}
    done = 0
    while done < deals:
        n = min(chunk, deals - done)
        places = np.empty((n, C.N_CARDS), dtype=np.int8)
        bids = np.zeros((n, players), dtype=np.int64)
        start = np.zeros((n, K.START_SIZE), dtype=np.int64)
        trace = np.full((n, rules.tricks * players), -1, dtype=np.int16)
        with threads(jobs):
            over_rows(K.record_batch, n, players, method, POLICY_IDS[policy], worlds, rules_flags(rules),
                      np.uint64(seed), done, places, bids, start, trace,
                      search_arg([POLICY_IDS[policy]]))
        for i in range(n):
            game = replay_kernel_deal(rules, places[i], bids[i], start[i], trace[i])
            yield record_of_game(game, tags=tags | {"Deal": str(done + i + 1)} | seat_names(names, done + i))
        done += n
        if progress:
            progress(done, deals)


def seat_names(names: list[str] | None, deal: int) -> dict[str, str]:
    """The ``SeatN`` tags of the 0-based ``deal`` of a session of ``names`` (the seats of the first deal,
    seat 1 first): the deal passes to the right after each deal, so seat 1 of a deal is dealer of the
    next and every name moves one seat down (seat ``s`` of deal ``k`` is ``names[(s + k) % P]``)."""
    if not names:
        return {}
    return {f"Seat{s + 1}": names[(s + deal) % len(names)] for s in range(len(names))}


def replay_kernel_deal(rules: Rules, places, bids, start, trace) -> Game:
    """The reference game of one kernel deal (``IllegalActionError`` if the kernel broke a rule)."""
    P = rules.players
    game = Game.new(Deal.from_places(places, P), rules)
    for b in bids:
        game.bid(Contract(int(b)) if b else None)
    if game.phase is Phase.DONE:
        return game
    if game.phase is Phase.CALL:
        game.call(int(start[K.S_CALLED]))
    if game.phase is Phase.DISCARD:
        game.make_discard(int(start[K.S_DISCARD_S]) | int(start[K.S_DISCARD_T]) << C.FIRST_TRUMP)
    if not game.chelem_decided:                 # a Goulash has no chelem
        game.announce_chelem((None, "chelem", "petit-chelem")[int(start[K.S_CHELEM])])
    while game.phase is Phase.DECLARE:
        hand = game.hands[game.to_act]
        miseres = tuple(k for k in MISERE_KINDS if misere_allowed(hand, k)) if rules.misere == "on" else ()
        game.declare(poignee=int(start[K.S_POIGNEE + game.to_act]) << C.FIRST_TRUMP, miseres=miseres)
    for card in trace:
        if card >= 0:
            game.play(int(card))
    return game
