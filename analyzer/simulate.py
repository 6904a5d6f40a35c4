"""Playing deals out with the kernels, from Python: batches to a DataFrame, and positions of a
reference ``Game`` turned into kernel state.

Policies are named: ``random`` (uniform among legal cards) and ``heuristic``.  Results carry each
seat's score, the taker side's points and oudlers, petit au bout, the chelem outcome and whether the
contract was made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analyzer import cards as C
from analyzer.game import MISERE_KINDS, Game, Outcome, Phase
from analyzer.rules import Contract, Rules
from analyzer.scoring import Chelem, Side
from analyzer.simulation.policies import FAST_POLICY_IDS
from analyzer.simulation.threads import over_rows
from kernels import playout as K
from kernels.batch import play_batch

if TYPE_CHECKING:
    import pandas as pd

# The policies that play without search, by name (a view of ``analyzer.simulation.policies.POLICIES``).
POLICIES = FAST_POLICY_IDS
CHELEM_CODES = {0: None, 1: Chelem.ANNOUNCED_MADE, 2: Chelem.MADE, 3: Chelem.ANNOUNCED_FAILED, 4: Chelem.DEFENCE,
                5: Chelem.PETIT_ANNOUNCED_MADE, 6: Chelem.PETIT_ANNOUNCED_FAILED}
PAB_SIDES = {0: None, 1: Side.TAKER, -1: Side.DEFENCE}


def policy_id(name: str) -> int:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (expected one of: {', '.join(POLICIES)})") from None


def rules_flags(rules: Rules) -> np.ndarray:
    """The rule variants as the kernels take them: one int64 array indexed by ``kernels.playout.F_*``."""
    flags = np.zeros(K.FLAGS_SIZE, dtype=np.int64)
    flags[K.F_PAB_FLAT] = rules.petit_au_bout == "flat"
    flags[K.F_POIGNEE_VALUES] = rules.poignee_values == "20-40-60"
    flags[K.F_PETIT_SEC_PLAY] = rules.petit_sec == "play"
    flags[K.F_GOULASH] = rules.all_pass == "goulash"
    flags[K.F_MISERE] = rules.misere == "on"
    flags[K.F_PETIT_CHELEM] = rules.chelem == "petit-chelem"
    return flags


def play_deals(places: np.ndarray, takers, contracts, rules: Rules, policy: str | np.ndarray = "heuristic",
               seed: int = 0, offset: int = 0, declare: bool = True, trace: bool = False):
    """Play the deals of ``places`` (n × 78: each card's place, seat 0…P-1 or P for the chien).

    ``takers``/``contracts``: one per deal or one for all; a taker of -1 plays a Goulash (variant
    all-pass=goulash), whose scores may end in .5.  ``policy``: a name for every seat, or an (n, P)
    array of policy ids.  Returns a DataFrame (and the (n, tricks × P) array of cards played when
    ``trace``)."""
    places = np.ascontiguousarray(places, dtype=np.int8)
    n = places.shape[0]
    players = rules.players
    takers = np.broadcast_to(np.asarray(takers, dtype=np.int64), (n,)).copy()
    contracts = np.broadcast_to(np.asarray([int(c) for c in np.atleast_1d(contracts)], dtype=np.int64), (n,)).copy()
    if isinstance(policy, str):
        policies = np.full((n, players), policy_id(policy), dtype=np.int64)
    else:
        policies = np.ascontiguousarray(policy, dtype=np.int64)
    results = np.zeros((n, K.RESULT_SIZE), dtype=np.int64)
    traces = np.full((n, rules.hand_size * players if trace else 0), -1, dtype=np.int16)
    goulash = takers < 0
    if goulash.any() and rules.all_pass != "goulash":
        raise ValueError("a deal without a taker is played only under the variant all-pass=goulash")
    over_rows(play_batch, n, places, players, takers, contracts, policies, np.uint64(seed), offset, declare,
              rules_flags(rules), results, traces)
    frame = results_frame(results, players)
    if goulash.any():
        for s in range(players):
            frame[f"score_{s + 1}"] = np.where(goulash, results[:, s] / 2, results[:, s])
    frame.insert(0, "taker", takers)
    frame.insert(1, "contract", ["goulash" if g else Contract(int(c)).token for c, g in zip(contracts, goulash)])
    return (frame, traces) if trace else frame


def results_frame(results: np.ndarray, players: int) -> pd.DataFrame:
    """The kernels' result rows as a DataFrame."""
    import pandas as pd     # here, not at the top: every command imports this module, few need pandas
    data = {f"score_{s + 1}": results[:, s] for s in range(players)}
    data["taker_points"] = results[:, K.R_TAKER_HP] / 2
    data["oudlers"] = results[:, K.R_OUDLERS]
    data["petit_au_bout"] = pd.Categorical.from_codes(results[:, K.R_PAB] + 1, ["defence", "none", "taker"])
    data["chelem"] = [CHELEM_CODES[int(c)].value if CHELEM_CODES[int(c)] else "none" for c in results[:, K.R_CHELEM]]
    data["made"] = results[:, K.R_MADE].astype(bool)
    data["contract_points"] = results[:, K.R_TOTAL]
    return pd.DataFrame(data)


def state_from_game(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kernel state (hs, ht, st) of a reference game in its play phase (a contract or a Goulash), with
    its misères declared and every card played so far."""
    if game.phase not in (Phase.PLAY, Phase.DONE) or (game.taker is None and game.outcome is not Outcome.GOULASH):
        raise ValueError("a kernel state is made of a game being played, with a taker or as a Goulash")
    players = game.rules.players
    hs = np.zeros(players + 1, dtype=np.uint64)
    ht = np.zeros(players + 1, dtype=np.uint64)
    for s, hand in enumerate(game.deal.hands):
        hs[s], ht[s] = np.uint64(hand.suit_bits), np.uint64(hand.trump_bits)
    hs[players], ht[players] = np.uint64(game.deal.chien.suit_bits), np.uint64(game.deal.chien.trump_bits)
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    flags = rules_flags(game.rules)
    if game.outcome is Outcome.GOULASH:
        K.start_goulash(hs, ht, st, players, np.zeros_like(flags))
    else:
        shown = np.zeros(players, dtype=np.uint64)
        for p in game.poignees:
            shown[p.seat] = np.uint64(p.shown >> C.FIRST_TRUMP)
        chelem = {None: 0, "chelem": 1, "petit-chelem": 2}[game.chelem_announced]
        K.start_play(hs, ht, st, players, game.taker, int(game.contract),
                     -1 if game.called_card is None else game.called_card, chelem,
                     np.uint64(game.discard & C.SUIT_BITS), np.uint64(game.discard >> C.FIRST_TRUMP), shown, flags)
    for seat, kind in game.miseres:
        K.declare_misere(st, players, seat, MISERE_KINDS.index(kind))
    for trick in game.tricks:
        for card in trick.cards:
            K.play_card(hs, ht, st, card)
    for _, card in game.current:
        K.play_card(hs, ht, st, card)
    return hs, ht, st
