"""The facts that name a flagged decision, from constructed positions: each found when it holds and
not when it does not; equal alternatives grouped; the unit of the losses."""

import dataclasses

from analyzer import cards as C
from analyzer.coach import reasons as R
from analyzer.coach.deal import accuracy
from analyzer.coach.verdicts import Decision, Option, bid_scale, contract_scale
from analyzer.game import Game, Phase
from analyzer.hand import Deal, Hand
from analyzer.notation import parse_mask
from analyzer.rules import Contract, Rules
from analyzer.stats import Mean

HANDS = (
    "1S 2S 3S 16 17 18 19 20 21 EX KH QH CH JH 10H 9H 8H 7H",       # seat 1, the taker, leads
    "KS QS CS JS 10S 9S 1H 2H 3H 4H 5H 6H 1D 2D 3D 4D 5D 6D",
    "4S 5S 6S 7S 8S 7D 8D 9D 10D JD CD QD KD 1C 2C 3C 4C 5C",
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 6C 7C 8C",
)
CHIEN = "9C 10C JC CC QC KC"


def game() -> Game:
    deal = Deal(tuple(Hand.parse(h) for h in HANDS), Hand.parse(CHIEN))
    return Game.for_play(deal, Rules(players=4), 0, Contract.GARDE_SANS)


def play(g: Game, text: str) -> Game:
    for token in text.split():
        g.play(parse_mask(token).bit_length() - 1)
    return g


def test_partner_overtaken_only_by_the_seat_that_took_its_partners_trick_with_a_trump():
    g = play(game(), "1S KS 4S 5")                  # seat 2's King wins until seat 4 trumps
    assert R.partner_overtaken(g, 3, 0)
    assert not R.partner_overtaken(g, 2, 0) and not R.partner_overtaken(g, 1, 0)
    assert R.winner_so_far([C.suit_card(0, 2), C.suit_card(0, 13)], [0, 1]) == 1


def test_the_petit_captured_when_the_other_side_wins_it_and_not_when_its_side_does():
    g = play(game(), "1S KS 4S 1")                  # seat 4 trumps with the Petit and wins
    assert not R.petit_captured(g, 3, 0)
    g = play(game(), "1S KS 4S 5 1 16 1H 1C")       # seat 4 leads the Petit into the 16
    assert R.petit_captured(g, 3, 0) and R.petit_captured(g, 1, 1)        # the whole defence lost it
    assert not R.petit_captured(g, 0, 0)
    assert not R.petit_captured(g, 3, 2)                                  # not from a later trick on


def test_an_honour_given_to_the_other_sides_trick_and_not_one_kept_in_its_own():
    g = play(game(), "1S KS 4S 5 1 16 1H 1C 17 QS 2C 2")   # seat 2 throws the QS on the taker's 17
    assert R.honour_given(g, 1, 2)
    assert not R.honour_given(g, 2, 2)                      # a small club
    assert not R.honour_given(g, 1, 0)                      # its KS went to its partner's trick


def test_the_excuse_lost_in_the_last_trick_only_when_the_other_side_wins_it():
    g = game()
    while g.phase is Phase.PLAY:
        legal = list(C.cards_of(g.legal_cards()))
        keep = [c for c in legal if c != C.EXCUSE]
        g.play(keep[0] if keep else legal[0])
    last = g.tricks[-1]
    assert C.EXCUSE in last.cards and last.seat_of(C.EXCUSE) == 0
    assert R.excuse_lost(g, 0, 0) == (g.side(last.winner) != g.side(0))
    assert not R.excuse_lost(g, 1, 0)                       # not the defence's Excuse
    assert R.good_outcome(g, 0) is not None and R.good_outcome(g, 0) != R.good_outcome(g, 1)


def test_a_card_fact_counts_only_when_the_better_line_avoids_it():
    g = play(game(), "1S KS 4S 5 1 16 1H 1C")
    assert "petit_captured" in R.card_reasons(3, 1, g, None)
    assert R.card_reasons(3, 1, g, g) == []                 # the better line lost it too
    kept = play(game(), "1S KS 4S 5 2 16 1H 1C")
    assert "petit_captured" in R.card_reasons(3, 1, g, kept)


def test_the_reasons_before_the_play():
    assert R.bid_reasons("pass", "garde") == ["passed_a_taking_hand"]
    assert R.bid_reasons("prise", "garde") == ["bid_too_low"]
    assert R.bid_reasons("garde-sans", "prise") == ["bid_too_high"]
    assert R.bid_reasons("garde", "pass") == ["took_a_passing_hand"]
    assert R.bid_reasons("garde-sans", "garde-sans + chelem") == ["chelem_not_announced"]
    hand = parse_mask("1C 2C 5D 6D 7D 8D 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H")
    assert R.discard_reasons(hand, "5D 6D 7D 8D 3S 4S", "1C 2C 5D 6D 7D 8D") == ["void_not_made"]
    assert R.discard_reasons(hand, "1C 2C 5D 6D 7D 8D", "5D 6D 7D 8D 3S 4S") == []
    assert R.choice_reasons("chelem", "do not announce", "announce") == ["chelem_not_announced"]
    assert set(R.LABELS) >= {"petit_captured", "excuse_lost", "honour_given", "partner_overtaken",
                              "petit_au_bout_lost", "petit_au_bout_missed", "chelem_missed", "void_not_made"}


def _decision(values: list[tuple[str, float, float]], played: str) -> Decision:
    """Options (choice, mean, standard error of the difference to the best)."""
    best = max(v for _, v, _ in values)
    options = [Option(c, Mean(v, 1.0, 400), None, Mean(v - best, se, 400)) for c, v, se in values]
    return Decision(1, "card", 3, played, sorted(options, key=lambda o: -o.score.mean))


def test_equal_alternatives_are_grouped_and_a_choice_among_them_is_never_flagged():
    d = _decision([("13", 10.0, 0.0), ("11", 10.0, 0.0), ("4", 9.0, 0.6), ("1", -90.0, 2.0)], "4")
    assert d.best_group == ["13", "11", "4"]                 # 4 is 1.0 below, within 2 × 0.6
    assert d.verdict is None and d.as_dict()["best_group"] == ["13", "11", "4"]
    far = _decision([("13", 10.0, 0.0), ("4", 9.0, 0.4), ("1", -90.0, 2.0)], "1")
    assert far.best_group == ["13"] and far.verdict == "blunder"


def test_losses_in_contract_points_whatever_the_seat_and_the_contract():
    assert contract_scale(4, Contract.PRISE, 0, 0, None) == 3                # the taker's share at 4
    assert contract_scale(4, Contract.GARDE, 2, 0, None) == 2                # a defender in a Garde
    assert contract_scale(5, Contract.GARDE_SANS, 3, 0, 3) == 4              # the partner: share 1 × 4
    assert contract_scale(5, Contract.PRISE, 0, 0, None, alone=True) == 4    # alone: the taker's four shares
    d = _decision([("2", 30.0, 0.0), ("1", -30.0, 1.0)], "1")
    taker = dataclasses.replace(d, scale=6.0)                               # the taker of a Garde at 4
    assert taker.loss_score.mean == 60.0 and taker.loss.mean == 10.0
    bid = [Option("garde", Mean(60.0, 1.0, 9), None, Mean(0.0, 0.0, 9)), Option("pass", Mean(0.0, 1.0, 9), None,
                                                                                  Mean(-60.0, 1.0, 9))]
    assert bid_scale(4, bid, "pass") == 6 and bid_scale(4, bid, "garde") == 6
    assert bid_scale(4, [Option("garde-sans + chelem", Mean(0.0, 1.0, 9), None, Mean(0.0, 0.0, 9))], "pass") == 12


def test_one_blunder_among_twenty_good_cards_takes_the_accuracy_clearly_down():
    def card(loss: float) -> Decision:
        return _decision([("2", 10.0, 0.0), ("1", 10.0 - loss, 0.5)], "1" if loss else "2")

    good = [card(0.5) for _ in range(20)]
    clean = accuracy(good + [card(0.0)])
    erring = accuracy(good + [card(20.0)])               # a blunder: 20 contract points
    assert clean > 85 and clean - erring >= 10
    assert accuracy([card(0.0)] * 5) == 100 and accuracy([]) is None
    assert accuracy(good + [card(5.0)]) > erring         # an inaccuracy moves it less


def _finished(keep_petit: bool) -> Game:
    """The constructed deal played out: each seat its highest legal card, but seat 4 keeps the Petit
    to the last trick (``keep_petit``) or plays it at the first chance."""
    g = game()
    while g.phase is Phase.PLAY:
        legal = sorted(C.cards_of(g.legal_cards()))
        if g.to_act == 3 and C.PETIT in legal:
            if not keep_petit:
                g.play(C.PETIT)
                continue
            if len(legal) > 1:
                legal.remove(C.PETIT)
        g.play(legal[-1])
    return g


def test_petit_au_bout_lost_and_missed_against_the_better_line():
    kept, spent = _finished(True), _finished(False)
    assert R.petit_au_bout(kept).value == "defence" and R.petit_au_bout(spent) is None
    assert "petit_au_bout_lost" in R.card_reasons(0, 0, kept, spent)       # the taker's side let it through
    assert "petit_au_bout_missed" in R.card_reasons(3, 0, spent, kept)     # the defence could have had it
    assert "petit_au_bout_lost" not in R.card_reasons(3, 0, kept, spent)
    assert "petit_au_bout_missed" not in R.card_reasons(0, 0, spent, kept)
    turned = [s for s in range(4) if "outcome_turned" in R.card_reasons(s, 0, kept, spent)]
    assert turned == ([] if R.good_outcome(kept, 0) == R.good_outcome(spent, 0) else
                      [s for s in range(4) if R.good_outcome(spent, s) and not R.good_outcome(kept, s)])


CHELEM_HANDS = (
    "5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 KS",
    "1 2 3 4 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH KH",
    "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS 1D 2D 3D 4D 5D",
    "6D 7D 8D 9D 10D JD CD QD KD 1C 2C 3C 4C 5C 6C 7C 8C 9C",
)


def _chelem_deal(king_first: bool) -> Game:
    """Seat 1 takes a Garde sans with seventeen trumps and the KS: trumps drawn first, it takes every
    trick; the KS led first, seat 2 trumps it."""
    deal = Deal(tuple(Hand.parse(h) for h in CHELEM_HANDS), Hand.parse("10C JC CC QC KC EX"))
    g = Game.for_play(deal, Rules(players=4), 0, Contract.GARDE_SANS)
    if king_first:
        g.play(C.suit_card(0, C.KING))
    while g.phase is Phase.PLAY:
        g.play(max(C.cards_of(g.legal_cards())))
    return g


def test_a_chelem_missed_only_by_the_side_that_could_have_made_it():
    made, missed = _chelem_deal(False), _chelem_deal(True)
    assert R.whole_chelem(made, 0) and not R.whole_chelem(missed, 0) and not R.whole_chelem(made, 1)
    assert "chelem_missed" in R.card_reasons(0, 0, missed, made)
    assert "chelem_missed" not in R.card_reasons(0, 0, made, missed)
    assert "chelem_missed" not in R.card_reasons(1, 0, missed, made)
