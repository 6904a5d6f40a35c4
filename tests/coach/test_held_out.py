"""The held-out loss of a card (``analyzer.coach.cards.held_out_picks``): the best card picked on one half of
the worlds and valued on the other, so that its luck on the worlds that picked it does not count against
the card played; and the loss shown, and its verdict, the smaller of the two (numpy only: nothing
compiled)."""

import numpy as np

from analyzer import cards as C
from analyzer.coach.cards import controlled_options, held_out_picks, weighted_options
from analyzer.coach.verdicts import Decision, Option
from analyzer.stats import Mean, Proportion
from tests.coach.test_mixed_judge import CARDS, values

SIX = [C.trump(t) for t in (21, 17, 12, 8, 4, 2)]


def equal_cards(rng, worlds=300, shift=None):
    """Six cards worth the same but for ``shift``, each world's values a common part and noise per card."""
    shift = np.zeros(len(SIX)) if shift is None else shift
    scores = np.round(rng.normal(0.0, 80.0, size=(worlds, 1)) + rng.normal(0.0, 20.0, size=(worlds, len(SIX)))
                      + shift).astype(np.int64)
    return scores, (scores > 0).astype(np.int64), rng.uniform(0.3, 1.0, worlds)


def played_loss(options, card):
    return -next(o for o in options if o.choice == C.TOKENS[card]).vs_best.mean


def test_the_best_of_equal_cards_looks_better_on_the_worlds_that_picked_it_but_not_on_the_others():
    rng = np.random.default_rng(12)
    losses, held = [], []
    for _ in range(300):
        scores, made, weights = equal_cards(rng)
        options, _, out = weighted_options(SIX, SIX[0], scores, made, weights)
        losses.append(played_loss(options, SIX[0]))
        held.append(out.mean)
    losses, held = np.array(losses), np.array(held)
    assert losses.min() >= 0 and losses.mean() > 10 * losses.std() / np.sqrt(len(losses))   # inflated
    assert abs(held.mean()) < 3 * held.std() / np.sqrt(len(held))                          # not inflated


def test_a_clearly_worse_card_keeps_its_loss():
    rng = np.random.default_rng(3)
    scores, made, weights = equal_cards(rng, shift=np.array([-40.0, 0, 0, 0, 0, 0]))
    options, _, held = weighted_options(SIX, SIX[0], scores, made, weights)
    loss = played_loss(options, SIX[0])
    assert abs(held.mean - 40.0) < 3 * held.se and abs(loss - held.mean) < 3 * held.se


def test_each_world_s_pick_comes_from_the_other_half():
    scores = np.array([[0, 9], [5, 0], [0, 9], [5, 0]])     # even worlds prefer card 1, odd ones card 0
    assert list(held_out_picks(scores, np.ones(4), 0)) == [0, 1, 0, 1]
    assert list(held_out_picks(scores[:1], np.ones(1), 0)) == [0]           # one world: no other half


def test_the_searched_held_out_loss_is_not_inflated_either():
    rng = np.random.default_rng(5)
    losses, held = [], []
    for _ in range(200):
        screen, searched = values(rng, 400, np.zeros(3), 30.0)
        options, out = controlled_options(CARDS, CARDS[0], searched, screen, 64)
        losses.append(played_loss(options, CARDS[0]))
        held.append(out.mean)
    losses, held = np.array(losses), np.array(held)
    assert losses.mean() > 5 * losses.std() / np.sqrt(len(losses))
    assert abs(held.mean()) < 3 * held.std() / np.sqrt(len(held))


def decision(loss: float, held: float | None) -> Decision:
    """A card decision whose card played loses ``loss`` contract points (se 1) to the best, its held-out
    loss ``held``."""
    best = Option("21", Mean(10.0, 1.0, 400), Proportion(0.5, 400), Mean(0.0, 0.0, 400))
    played = Option("2", Mean(10.0 - loss, 1.0, 400), Proportion(0.5, 400), Mean(-loss, 1.0, 400))
    return Decision(1, "card", 3, "2", [best, played], held_out=None if held is None else Mean(held, 1.0, 400))


def test_the_loss_and_its_verdict_are_the_smaller_of_the_two():
    assert decision(20.0, None).verdict == "blunder"
    assert decision(20.0, 3.0).verdict is None                  # the best's lead was its luck
    assert decision(20.0, 12.0).verdict == "mistake"
    assert decision(6.0, 30.0).verdict == "inaccuracy"          # never above the plain loss
    shown = decision(20.0, 3.0).as_dict()
    assert (shown["loss"], shown["plain_loss"], shown["held_out_loss"]) == (3.0, 20.0, 3.0)
    assert decision(20.0, -4.0).loss.mean == 0.0                # the card played did better held out
    assert decision(6.0, 30.0).loss.mean == 6.0
