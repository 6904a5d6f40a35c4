"""Every rule table typed twice, once for the reference engine (``analyzer/rules.py``,
``analyzer/cards.py``, ``analyzer/scoring.py``) and once for the Numba kernels (``kernels/playout.py``,
``kernels/declarations.py``, ``kernels/heuristic.py``), must hold the same values: contract multipliers,
targets, hand and chien sizes, poignée thresholds and bonuses, card points, petit au bout and chelem
values.  The kernels' scoring formula is checked against the reference's over every summary kind."""

from __future__ import annotations

import itertools

import pytest

from analyzer import cards as C
from analyzer.rules import (CHIEN_SIZE, HAND_SIZE, POIGNEE_THRESHOLDS, TARGET_HALF_POINTS, Contract, PoigneeLevel,
                            Rules)
from analyzer.scoring import Chelem, DealSummary, Side, chelem_score, score_deal
from analyzer.simulate import CHELEM_CODES
from kernels import declarations as KD
from kernels import heuristic as KH
from kernels import playout as K


def test_contract_ids_and_multipliers():
    assert (K.PRISE, K.GARDE, K.GARDE_SANS, K.GARDE_CONTRE) == tuple(int(c) for c in Contract)
    assert [int(K.MULTIPLIER[c]) for c in Contract] == [c.multiplier for c in Contract]
    assert K.MULTIPLIER[0] == 0 and len(K.MULTIPLIER) == len(Contract) + 1


def test_targets():
    assert [int(t) for t in K.TARGET_HP] == list(TARGET_HALF_POINTS)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sizes_and_poignee_thresholds(players):
    rules = Rules(players=players)
    assert (K.HAND_SIZE[players], K.CHIEN_SIZE[players]) == (rules.hand_size, rules.chien_size)
    assert (HAND_SIZE[players], CHIEN_SIZE[players]) == (rules.hand_size, rules.chien_size)
    assert tuple(int(n) for n in KD.POIGNEE_THRESHOLDS[players - 3]) == POIGNEE_THRESHOLDS[players]
    assert players * rules.hand_size + rules.chien_size == C.N_CARDS
    assert set(K.HAND_SIZE.nonzero()[0]) == set(HAND_SIZE) == set(K.CHIEN_SIZE.nonzero()[0])


@pytest.mark.parametrize("values", ["20-30-40", "20-40-60"])
def test_poignee_bonuses(values):
    rules = Rules(poignee_values=values)
    row = 0 if values == "20-30-40" else 1
    assert [int(b) for b in K.POIGNEE_BONUS[row]] == [rules.poignee_bonus(level) for level in PoigneeLevel]


def test_card_points_and_ids():
    assert [int(h) for h in KH.HALF_POINTS] == list(C.HALF_POINTS)
    assert (KH.FIRST_TRUMP_ID, KH.PETIT_ID, KH.TWENTY_ONE_ID, KH.EXCUSE_ID) == \
        (C.FIRST_TRUMP, C.PETIT, C.TWENTY_ONE, C.EXCUSE)


def test_chelem_codes_and_values():
    """The kernels' chelem codes name every outcome once, and each code is worth what the reference
    gives it (the contract's total apart from the chelem, from a deal made by 0)."""
    named = [c for c in CHELEM_CODES.values() if c is not None]
    assert len(named) == len(set(named)) == len(Chelem) and CHELEM_CODES[0] is None
    rules = Rules(chelem="petit-chelem")
    base = int(K.contract_total(1, 102, 1, 0, 0, 0, 0)[0])
    for code, chelem in CHELEM_CODES.items():
        assert int(K.contract_total(1, 102, 1, 0, code, 0, 0)[0]) - base == chelem_score(chelem, rules)


@pytest.mark.parametrize("pab_flat", [0, 1])
def test_kernel_contract_total_is_the_reference_score(pab_flat):
    """Every contract, oudler count, count (3-player halves included), petit au bout, chelem and
    poignée total: the kernels' ``contract_total`` is ``score_deal``'s total."""
    rules = Rules(players=3, chelem="petit-chelem", petit_au_bout="flat" if pab_flat else "multiplied")
    pab_sides = {0: None, 1: Side.TAKER, -1: Side.DEFENCE}
    poignees = {0: (), 20: ((Side.TAKER, PoigneeLevel.SIMPLE),), 70: ((Side.TAKER, PoigneeLevel.DOUBLE),
                                                                       (Side.DEFENCE, PoigneeLevel.TRIPLE))}
    for contract, oudlers, pab, code, poignee in itertools.product(Contract, range(4), pab_sides, CHELEM_CODES,
                                                                   poignees):
        for hp in range(0, 183, 7):
            summary = DealSummary(contract, oudlers, hp, pab_sides[pab], poignees[poignee], CHELEM_CODES[code])
            ref = score_deal(summary, rules)
            total, made = K.contract_total(int(contract), hp, oudlers, pab, code, poignee, pab_flat)
            assert (int(total), bool(made)) == (ref.total, ref.made), (summary, total, ref.total)
