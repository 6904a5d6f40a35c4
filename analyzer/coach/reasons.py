"""Why a flagged decision is flagged: the facts that make it, as fixed identifiers (``LABELS`` gives
each one's wording), computed from the play and the values, never written by hand.

A card's facts compare the actual play (the record's game, from the decision's trick on) with the
better line (the best alternative played on the real layout, finished as the board's "show me how"
line is: ``analyzer.coach.board.finish_line``): the Petit captured, the Excuse lost in the last
trick, petit au bout lost or missed, a chelem missed, the deal's outcome turned, in the actual play
and not in the better line; an honour given to the other side's trick and a partner overtaken by the
card played itself.  Without a better line (a record with unknown hands) the facts of the actual
play alone are given.  The decisions before the play are named by their alternatives: a bid too low
or too high, a void not made by the discard, a chelem or a poignée not announced.
"""

from __future__ import annotations

from analyzer import cards as C
from analyzer.errors import RulesError
from analyzer.game import Game, Phase, Trick
from analyzer.notation import parse_mask
from analyzer.rules import Contract

LABELS = {
    "petit_captured": "Petit captured by the other side",
    "excuse_lost": "Excuse lost in the last trick",
    "honour_given": "honour given to the other side's trick",
    "partner_overtaken": "partner's winning card overtaken with a trump",
    "petit_au_bout_lost": "petit au bout lost to the other side",
    "petit_au_bout_missed": "petit au bout missed",
    "chelem_missed": "chelem missed",
    "outcome_turned": "the contract turned against the seat's side",
    "void_not_made": "void not made by the discard",
    "fewer_points_aside": "fewer points put aside",
    "bid_too_low": "bid too low",
    "bid_too_high": "bid too high",
    "passed_a_taking_hand": "passed a hand worth taking",
    "took_a_passing_hand": "took a hand worth passing",
    "other_king_better": "another card was the better call",
    "chelem_not_announced": "chelem not announced",
    "chelem_announced_in_vain": "chelem announced in vain",
    "poignee_not_shown": "poignée not shown",
    "poignee_shown_in_vain": "poignée shown in vain",
}

# Facts that make a flagged decision at least a mistake, whatever its loss.
SERIOUS = frozenset({"petit_captured", "excuse_lost", "honour_given", "petit_au_bout_lost", "outcome_turned"})

HONOURS = frozenset([C.TWENTY_ONE] + [C.suit_card(s, r) for s in range(C.N_SUITS)
                                        for r in (C.KING, C.QUEEN, C.KNIGHT)])


def _same_side(game: Game, a: int, b: int) -> bool:
    return game.side(a) == game.side(b)


def _tricks(game: Game) -> list[Trick]:
    return list(game.tricks)


def petit_captured(game: Game, seat: int, first: int) -> bool:
    """The Petit, played by the seat's side from trick ``first`` (0-based) on, won by the other side."""
    for t in _tricks(game)[first:]:
        if C.PETIT in t.cards:
            return _same_side(game, seat, t.seat_of(C.PETIT)) and not _same_side(game, seat, t.winner)
    return False


def excuse_lost(game: Game, seat: int, first: int) -> bool:
    """The Excuse, played by the seat's side in the last trick, won by the other side."""
    tricks = _tricks(game)
    if len(tricks) < game.rules.tricks or len(tricks) - 1 < first:
        return False
    last = tricks[-1]
    return (C.EXCUSE in last.cards and _same_side(game, seat, last.seat_of(C.EXCUSE))
            and not _same_side(game, seat, last.winner))


def _played(game: Game, seat: int, index: int) -> tuple[Trick, int] | None:
    tricks = _tricks(game)
    if index >= len(tricks) or seat not in tricks[index].seats:
        return None
    t = tricks[index]
    return t, t.cards[t.seats.index(seat)]


def honour_given(game: Game, seat: int, index: int) -> bool:
    """The seat's card of trick ``index`` (0-based) is a King, a Queen, a Knight or the 21 and the
    trick went to the other side."""
    found = _played(game, seat, index)
    return found is not None and found[1] in HONOURS and not _same_side(game, seat, found[0].winner)


def _beats(card: int, best: int, lead_suit: int) -> bool:
    if card == C.EXCUSE:
        return False
    if C.is_trump(card):
        return not C.is_trump(best) or card > best
    return not C.is_trump(best) and C.suit_of(card) == lead_suit == C.suit_of(best) and card > best


def winner_so_far(cards: list[int], seats: list[int]) -> int | None:
    """The seat winning a trick's first cards (None before any card but the Excuse)."""
    best = None
    lead_suit = None
    for card, seat in zip(cards, seats):
        if card == C.EXCUSE:
            continue
        if lead_suit is None:
            lead_suit = C.suit_of(card)
            best = (card, seat)
        elif _beats(card, best[0], lead_suit):
            best = (card, seat)
    return None if best is None else best[1]


def partner_overtaken(game: Game, seat: int, index: int) -> bool:
    """In trick ``index``, a partner of the seat was winning and the seat took the trick from it with a trump."""
    found = _played(game, seat, index)
    if found is None:
        return False
    t, card = found
    k = t.seats.index(seat)
    before = winner_so_far(list(t.cards[:k]), list(t.seats[:k]))
    return (before is not None and before != seat and _same_side(game, seat, before) and C.is_trump(card)
            and winner_so_far(list(t.cards[:k + 1]), list(t.seats[:k + 1])) == seat)


def _done(game: Game | None) -> bool:
    return game is not None and game.phase is Phase.DONE and game.counted and game.taker is not None


def petit_au_bout(game: Game):
    """The side that won petit au bout (None: nobody, or the deal is not over)."""
    return game.result().petit_au_bout if _done(game) else None


def whole_chelem(game: Game, seat: int) -> bool:
    """The seat's side won every trick (a last trick it led with the Excuse counts as won)."""
    if not _done(game) or len(game.tricks) != game.rules.tricks:
        return False
    *rest, last = game.tricks
    return (all(_same_side(game, seat, t.winner) for t in rest)
            and (_same_side(game, seat, last.winner) or last.cards[0] == C.EXCUSE and _same_side(game, seat, last.leader)))


def good_outcome(game: Game, seat: int) -> bool | None:
    """Whether the deal ended the seat's side's way: the contract made for the taker's side, lost for the defence."""
    if not _done(game):
        return None
    made = game.result().seat_scores[game.taker] > 0
    return made if _same_side(game, seat, game.taker) else not made


def card_reasons(seat: int, index: int, actual: Game, line: Game | None) -> list[str]:
    """The facts of a card played by ``seat`` to trick ``index`` (0-based): ``actual`` is the game as
    played (finished or not), ``line`` the better line finished on the real layout (None: unknown)."""
    out = []

    def worse(fact) -> bool:                # in the actual play and not in the better line
        return bool(fact(actual)) and (line is None or not fact(line))

    if worse(lambda g: petit_captured(g, seat, index)):
        out.append("petit_captured")
    if worse(lambda g: excuse_lost(g, seat, index)):
        out.append("excuse_lost")
    if worse(lambda g: honour_given(g, seat, index)):
        out.append("honour_given")
    if worse(lambda g: partner_overtaken(g, seat, index)):
        out.append("partner_overtaken")
    own = actual.side(seat)
    if line is not None and _done(actual):
        pab_a, pab_b = petit_au_bout(actual), petit_au_bout(line)
        if pab_a is not None and pab_a.value != own.value and (pab_b is None or pab_b.value == own.value):
            out.append("petit_au_bout_lost")
        if pab_b is not None and pab_b.value == own.value and (pab_a is None or pab_a.value != own.value):
            out.append("petit_au_bout_missed")
        if whole_chelem(line, seat) and not whole_chelem(actual, seat):
            out.append("chelem_missed")
        if good_outcome(line, seat) and good_outcome(actual, seat) is False:
            out.append("outcome_turned")
    return out


def _contract(token: str) -> Contract | None:
    try:
        return Contract.parse(token)
    except RulesError:
        return None                                   # pass


def bid_reasons(played: str, best: str) -> list[str]:
    chelem = best.endswith(" + chelem")
    made, better = _contract(played), _contract(best.removesuffix(" + chelem"))
    if chelem:
        return (["passed_a_taking_hand"] if made is None else []) + ["chelem_not_announced"]
    if made is None and better is not None:
        return ["passed_a_taking_hand"]
    if made is not None and better is None:
        return ["took_a_passing_hand"]
    if made is not None and better is not None and made != better:
        return ["bid_too_low" if made < better else "bid_too_high"]
    return []


def voids(hand: int) -> int:
    """The plain suits the hand holds no card of."""
    return sum(1 for s in range(C.N_SUITS) if not any(hand >> C.suit_card(s, r) & 1 for r in range(1, 15)))


def discard_reasons(hand_and_chien: int, played: str, best: str) -> list[str]:
    """A discard against the best one: fewer voids left in the hand, fewer card points put aside."""
    made, better = parse_mask(played), parse_mask(best)
    out = []
    if voids(hand_and_chien & ~better) > voids(hand_and_chien & ~made):
        out.append("void_not_made")
    if C.mask_half_points(better) > C.mask_half_points(made):
        out.append("fewer_points_aside")
    return out


def choice_reasons(phase: str, played: str, best: str) -> list[str]:
    """The King call, the chelem announcement and the poignée: which way the better choice went."""
    if phase == "call":
        return ["other_king_better"]
    if phase == "chelem":
        return ["chelem_announced_in_vain" if played == "announce" else "chelem_not_announced"]
    if phase == "poignee":
        return ["poignee_shown_in_vain" if best == "no poignée" else "poignee_not_shown"]
    return []
