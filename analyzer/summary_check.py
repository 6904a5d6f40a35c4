"""Which deal summaries a real deal can produce, and why a given one cannot.

``score`` takes a summary (contract, oudlers, points, petit au bout, poignées, chelem) rather than a
played deal, so it must refuse the summaries no deal ends with: ``why_impossible`` names the first
contradiction it finds.  The card counts are exact: a side's pile is the cards of the tricks it won,
plus the discard or the chien when they count for it (docs/rules.md, "Chien and discard"),
adjusted by the Excuse's exchange (arithmetic: 4 to the Excuse's side, 0.5 to its trick's winners, even
when that side has no other card); every card is worth an odd number of half-points, so a pile of ``n`` cards counts
``n`` modulo 2 (hence whole counts at 4 players).  Every check is a necessary condition, so a summary
refused is one no deal ends with (every summary of deals played by the reference engine passes, see
tests/game/test_summary_check.py); the few finer limits of play it does not model (which trick the Excuse
can be played in, say) only make it accept a little more.
"""

from __future__ import annotations

from functools import lru_cache

from analyzer.errors import RulesError
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.scoring import Chelem, DealSummary, Side

OUDLER_HALF_POINTS = 9
EXCUSE_KEPT_HALF_POINTS = 8          # the Excuse kept through the exchange counts 4 to its side
EXCHANGE_HALF_POINTS = 1             # and 0.5 to the winners of its trick
TRUMPS_AND_EXCUSE = 22               # what poignées can show between them
# The 75 other cards by value in half-points: 4 Kings, 4 Queens, 4 Knights, 4 Jacks and 59 cards of 0.5.
KING_HALF_POINTS = 9
_OTHER_HONOURS = ((7, 4), (5, 4), (3, 4))
LOW_CARDS = 59
NON_OUDLERS = 75


@lru_cache(maxsize=None)
def _no_king_sums(cards: int) -> frozenset[int]:
    """Half-point totals of ``cards`` cards taken among the non-oudler cards other than Kings."""
    sums = set()
    for queens in range(5):
        for knights in range(5):
            for jacks in range(5):
                low = cards - queens - knights - jacks
                if 0 <= low <= LOW_CARDS:
                    sums.add(7 * queens + 5 * knights + 3 * jacks + low)
    return frozenset(sums)


@lru_cache(maxsize=None)
def _non_oudler_sums(cards: int, kings_at_most: int) -> frozenset[int]:
    """Half-point totals of ``cards`` non-oudler cards holding at most ``kings_at_most`` Kings."""
    sums: set[int] = set()
    for kings in range(min(4, kings_at_most, cards) + 1):
        sums.update(KING_HALF_POINTS * kings + s for s in _no_king_sums(cards - kings))
    return frozenset(sums)


def _pile_counts(cards: int, free: int, oudlers: int) -> frozenset[int]:
    """Totals of a pile of ``cards`` cards holding exactly ``oudlers`` oudlers, where only ``free`` of the
    cards may be Kings or oudlers (the others are discarded cards)."""
    if oudlers > free or not 0 <= cards - oudlers <= NON_OUDLERS:
        return frozenset()
    rest = _non_oudler_sums(cards - oudlers, free - oudlers)
    return frozenset(OUDLER_HALF_POINTS * oudlers + s for s in rest)


@lru_cache(maxsize=None)
def taker_counts(players: int, contract: Contract, oudlers: int, tricks: tuple[int, ...],
                 petit_au_bout: Side | None) -> frozenset[int]:
    """Every half-point count the taker's side can end with, holding ``oudlers`` oudlers, having won a
    number of tricks in ``tricks``, with the Petit au bout to ``petit_au_bout``."""
    rules = Rules(players=players)
    chien = rules.chien_size
    counts: set[int] = set()
    for won in tricks:
        lost = rules.tricks - won
        if petit_au_bout is Side.TAKER and (won == 0 or oudlers == 0):
            continue
        if petit_au_bout is Side.DEFENCE and (lost == 0 or oudlers == 3):
            continue
        cards = won * players + (chien if contract.chien_to_taker else 0)
        discarded = chien if contract.chien_shown else 0     # no King and no oudler among them
        counts |= _pile_counts(cards, cards - discarded, oudlers)
        # The exchange is arithmetic, even for a side with no other card (docs/rules.md, "Play").  The
        # side's Excuse, played in a trick the defence won, kept: it counts 4 on top of the side's cards.
        petit_too = oudlers >= 2 if petit_au_bout is Side.TAKER else True
        if oudlers >= 1 and lost >= 1 and petit_too:
            counts |= {EXCUSE_KEPT_HALF_POINTS + s for s in _pile_counts(cards, cards - discarded, oudlers - 1)}
        # The defence's Excuse, played in a trick the side won, kept by the defence: the side counts its
        # other cards and 0.5 (this reaches past a pile of real cards only when the side took all the rest).
        if oudlers <= 2 and won >= 1:
            counts |= {EXCHANGE_HALF_POINTS + s for s in _pile_counts(cards - 1, cards - 1 - discarded, oudlers)}
    return frozenset(counts)


def _tricks_for(chelem: Chelem | None, rules: Rules) -> tuple[tuple[int, ...], str]:
    """Tricks the taker's side can have won given the chelem outcome, and how to say it."""
    n = rules.tricks
    if chelem in (Chelem.MADE, Chelem.ANNOUNCED_MADE):
        return (n,), f"the taker's side took every trick (--chelem {chelem.value})"
    if chelem is Chelem.DEFENCE:
        return (0,), "the defence took every trick (--chelem defence)"
    if chelem is Chelem.ANNOUNCED_FAILED:
        return tuple(range(n)), "the defence took a trick (--chelem announced-failed)"
    if chelem is Chelem.PETIT_ANNOUNCED_MADE:
        return (n - 1, n), f"the taker's side took all tricks but one at least (--chelem {chelem.value})"
    if chelem is Chelem.PETIT_ANNOUNCED_FAILED:
        return tuple(range(n - 1)), f"the defence took two tricks at least (--chelem {chelem.value})"
    return tuple(range(1, n)), "each side took a trick (no --chelem)"


def _points(half_points: int) -> str:
    return f"{half_points / 2:g}"


def _describe(counts: frozenset[int], players: int, asked: int) -> str:
    """A set of half-point counts in words: 'exactly 91', 'from 15 to 91', 'from 3 to 91 except 90'."""
    low, high = min(counts), max(counts)
    if low == high:
        return f"exactly {_points(low)}"
    step = 2 if players == 4 else 1
    gaps = [h for h in range(low, high + 1, step) if h not in counts]
    text = f"from {_points(low)} to {_points(high)}"
    if gaps and len(gaps) <= 3:
        text += " except " + ", ".join(_points(h) for h in gaps)
    elif low < asked < high:
        text += f", and never exactly {_points(asked)}"
    return text


def _point_words(half_points: int) -> str:
    return f"{_points(half_points)} point" + ("" if half_points == 2 else "s")


def _oudler_words(n: int) -> str:
    return f"{n} oudler" + ("" if n == 1 else "s")


def _poignee_contradiction(summary: DealSummary, rules: Rules) -> str | None:
    taker_seats = 2 if rules.players == 5 and not summary.alone else 1
    seats = {Side.TAKER: taker_seats, Side.DEFENCE: rules.players - taker_seats}
    for side, room in seats.items():
        shown = sum(1 for s, _ in summary.poignees if s is side)
        if shown > room:
            return (f"{shown} poignées shown by the {side.value} side, which has {room} player(s) "
                    f"(one poignée per player)")
    shown_trumps = sum(rules.poignee_thresholds[level] for _, level in summary.poignees)
    if shown_trumps > TRUMPS_AND_EXCUSE:
        levels = " + ".join(f"{PoigneeLevel(level).name.lower()} ({rules.poignee_thresholds[level]})"
                            for _, level in summary.poignees)
        return (f"the poignées shown add up to {shown_trumps} trumps ({levels}) at {rules.players} players, "
                f"but there are only {TRUMPS_AND_EXCUSE} (21 trumps and the Excuse)")
    return None


def why_impossible(summary: DealSummary, rules: Rules) -> str | None:
    """Why no deal under ``rules`` ends with ``summary`` (one line), or None when one can."""
    poignee = _poignee_contradiction(summary, rules)
    if poignee:
        return poignee
    pab, chelem, oudlers = summary.petit_au_bout, summary.chelem, summary.oudlers
    if pab is Side.TAKER and oudlers == 0:
        return "--petit-au-bout taker needs the Petit on the taker's side, but it holds 0 oudlers"
    if pab is Side.DEFENCE and oudlers == 3:
        return "--petit-au-bout defence needs the Petit on the defence's side, but the taker's side holds all 3 oudlers"
    if chelem in (Chelem.MADE, Chelem.ANNOUNCED_MADE) and pab is Side.DEFENCE:
        return f"--chelem {chelem.value} and --petit-au-bout defence: the defence took no trick"
    if chelem is Chelem.DEFENCE and pab is Side.TAKER:
        return "--chelem defence and --petit-au-bout taker: the taker's side took no trick"
    players, contract, hp = rules.players, summary.contract, summary.half_points
    where = _where(summary, rules)
    if hp % 2 and not rules.half_point_rule:
        return f"{_point_words(hp)} is impossible at 4 players: the taker's count is always whole"
    every = taker_counts(players, contract, oudlers, tuple(range(rules.tricks + 1)), None)
    if not every:
        return f"the taker's side cannot end with {_oudler_words(oudlers)} {where}"
    if hp not in every:
        return (f"{_point_words(hp)} with {_oudler_words(oudlers)} is impossible {where}: "
                f"the taker's side then counts {_describe(every, players, hp)}")
    tricks, meaning = _tricks_for(chelem, rules)
    with_chelem = taker_counts(players, contract, oudlers, tricks, None)
    if hp not in with_chelem:
        return _chelem_contradiction(summary, rules, tricks, meaning, with_chelem)
    if pab is not None and hp not in taker_counts(players, contract, oudlers, tricks, pab):
        return (f"--petit-au-bout {pab.value} is impossible with {_point_words(hp)} and "
                f"{_oudler_words(oudlers)} {where} when {meaning}")
    return None


def _chelem_contradiction(summary: DealSummary, rules: Rules, tricks: tuple[int, ...], meaning: str,
                          counts: frozenset[int]) -> str:
    players, contract, hp, oudlers = rules.players, summary.contract, summary.half_points, summary.oudlers
    if not counts:
        possible = [o for o in range(4) if taker_counts(players, contract, o, tricks, None)]
        held = " or ".join(str(o) for o in possible)
        return f"when {meaning}, the taker's side holds {held} oudlers {_where(summary, rules)}, not {oudlers}"
    advice = ""
    if summary.chelem is None:
        n = rules.tricks
        if hp in taker_counts(players, contract, oudlers, (n,), None):
            advice = " (did it take every trick? give --chelem made or announced-made)"
        elif hp in taker_counts(players, contract, oudlers, (0,), None):
            advice = " (did the defence take every trick? give --chelem defence or announced-failed)"
    return (f"{_point_words(hp)} with {_oudler_words(oudlers)} is impossible {_where(summary, rules)} when "
            f"{meaning}: the taker's side then counts {_describe(counts, players, hp)}{advice}")


def _where(summary: DealSummary, rules: Rules) -> str:
    return f"in a {summary.contract.token} at {rules.players} players"


def check_summary(summary: DealSummary, rules: Rules) -> None:
    """Raise ``RulesError`` naming the contradiction when no deal ends with ``summary``."""
    why = why_impossible(summary, rules)
    if why is not None:
        raise RulesError(f"impossible deal: {why}")
