"""What the replay board shows beside the judged decisions: the table and the play as they happened,
the contract's chance card after card from two viewpoints, "show me how" lines for the flagged cards,
and each seat's luck and skill (docs/coaching.md says how each figure is computed).

Everything here is computed from the record and the decisions already judged, on the real layout
only when every hand is known; nothing is filled in where a figure is not computed (None).
"""

from __future__ import annotations

import copy

import numpy as np

from analyzer import cards as C
from analyzer.coach.cards import EXACT_TRICKS, cards_out
from analyzer.coach.equivalence import card_classes
from analyzer.errors import TarotError
from analyzer.game import Game, Phase
from analyzer.notation import sort_key
from analyzer.runs import MIXED, POLICY_IDS, Settings
from analyzer.simulate import state_from_game
from analyzer.solve import solve
from kernels.deals import stream_state
from kernels.playout import RESULT_SIZE

LINE_SEED = 0x5EED_11E5      # mixed into the run's seed for the playouts of the lines and the curve


def _tokens(mask: int | None) -> list[str] | None:
    if mask is None:
        return None
    return [C.TOKENS[c] for c in sorted(C.cards_of(mask), key=sort_key)]


def _side(game: Game, seat: int) -> str:
    """"taker" (the taker and its partner) or "defence"."""
    return "taker" if seat in (game.taker, game.partner) else "defence"


def known_partner(record, game: Game) -> int | None:
    """The called partner as the record tells it (None when nobody is called or it is not known): on
    a stand-in layout, only a known hand holding the called card or that card played tell it."""
    if game.called_card is None or record.replay.complete:
        return game.partner
    for t in game.tricks:
        if game.called_card in t.cards:
            return t.seat_of(game.called_card)
    for seat, card in game.current:
        if card == game.called_card:
            return seat
    return next((s for s, h in enumerate(record.dealt) if h is not None and h >> game.called_card & 1), None)


def table_data(record, game: Game) -> dict:
    """The table as dealt and the play, trick by trick: the hands the record gives (None where unknown),
    the chien and the discard where known, the auction, the call, the declarations; each trick's
    leader, cards, seats and winner, with the running card points and oudlers of each side."""
    rec = record
    taker, partner = game.taker, known_partner(record, game)
    # The sides' running count needs the sides: not given while a stand-in layout alone names the partner.
    counted = game.called_card is None or partner is not None
    tricks, points, oudlers = [], {"taker": 0, "defence": 0}, {"taker": 0, "defence": 0}
    for t in game.tricks:
        won = _side(game, t.winner)
        for seat, card in zip(t.seats, t.cards):
            side = _side(game, seat) if card == C.EXCUSE else won      # the Excuse stays with its side
            points[side] += C.HALF_POINTS[card]
            oudlers[side] += C.is_oudler(card)
        tricks.append({"leader": t.leader + 1, "seats": [s + 1 for s in t.seats], "cards": [C.TOKENS[c] for c in t.cards],
                       "winner": t.winner + 1, "points": {k: v / 2 for k, v in points.items()} if counted else None,
                       "oudlers": dict(oudlers) if counted else None})
    if game.current:                    # a trick the record stops in: its cards so far, no winner yet
        tricks.append({"leader": game.current[0][0] + 1, "seats": [p + 1 for p, _ in game.current],
                       "cards": [C.TOKENS[c] for _, c in game.current], "winner": None,
                       "points": {k: v / 2 for k, v in points.items()} if counted else None,
                       "oudlers": dict(oudlers) if counted else None})
    bids = [b.token if b is not None else "pass" for b in game.bids]
    # Each seat's cards at the start of the play: what it played and what it still holds (known seats).
    in_play = [None if rec.dealt[s] is None else
               C.mask_of(c for t in game.tricks for c, p in zip(t.cards, t.seats) if p == s)
               | C.mask_of(c for p, c in game.current if p == s) | game.hands[s] for s in range(rec.players)]
    result = None
    if game.phase is Phase.DONE and record.replay.complete:
        r = game.result()
        result = {"scores": list(r.seat_scores), "taker_points": None if r.taker_half_points is None else
                  r.taker_half_points / 2, "taker_oudlers": r.taker_oudlers, "made": r.seat_scores[taker] > 0
                  if taker is not None else None}
    return {
        "players": rec.players,
        "names": {str(s + 1): rec.tags.get(f"Seat{s + 1}") for s in range(rec.players) if rec.tags.get(f"Seat{s + 1}")},
        "hands": [_tokens(h) for h in rec.dealt],
        "hands_in_play": [_tokens(h) for h in in_play],
        "chien": _tokens(rec.dealt_chien),
        "discard": _tokens(game.discard) if game.discard and (record.discard is not None or record.replay.complete)
        else None,
        "auction": bids,
        "taker": None if taker is None else taker + 1,
        "partner": None if partner is None or partner == taker else partner + 1,
        "partner_known": counted,
        "contract": None if game.contract is None else game.contract.token,
        "called": None if game.called_card is None else C.TOKENS[game.called_card],
        "chelem": game.chelem_announced,
        "poignees": [{"seat": p.seat + 1, "cards": _tokens(p.shown)} for p in game.poignees],
        "miseres": [{"seat": s + 1, "kind": k} for s, k in game.miseres],
        "tricks": tricks,
        "result": result,
    }


def card_number(game: Game, trick: int, seat: int) -> int | None:
    """The 0-based number, in play order, of the card ``seat`` played to ``trick`` (1-based)."""
    if trick == len(game.tricks) + 1:
        seats = [p for p, _ in game.current]
    elif 1 <= trick <= len(game.tricks):
        seats = list(game.tricks[trick - 1].seats)
    else:
        return None
    if seat not in seats:
        return None
    return (trick - 1) * game.rules.players + seats.index(seat)


def knowledge_curve(decisions, game: Game) -> dict[str, list]:
    """Per seat, [card number, the contract's chance after that card] at each of its judged cards: the
    chance of the choice made, on the worlds dealt from what the seat knew (its judged estimate)."""
    out: dict[str, list] = {}
    for d in decisions:
        if d.phase != "card" or not d.judged or d.made_option is None or d.made_option.made is None:
            continue
        k = card_number(game, d.trick, d.seat)
        if k is not None:
            out.setdefault(str(d.seat + 1), []).append([k, d.made_option.made.p])
    return out


# ---- the real layout: playouts and the solver ---------------------------------------------------------

def _exact(game: Game) -> bool:
    return game.rules.tricks - len(game.tricks) <= EXACT_TRICKS


def _finish(game: Game, settings: Settings, seed: int) -> tuple[Game, str]:
    """``game`` (a copy, changed) played to its end on the real layout: by the endgame solver (both sides
    perfect, every hand seen) when within reach, else by the policy from the stream ``seed``."""
    if game.phase is not Phase.PLAY:
        return game, "over"
    if _exact(game):
        for card in solve(game).line:
            game.play(card)
        if game.phase is Phase.DONE:
            return game, "solver"
        raise TarotError("the endgame solver's line stops before the end of the deal")
    s = settings.for_contract(game.contract, game.rules.players)
    hs, ht, st = state_from_game(game)
    policies = np.full(game.rules.players, POLICY_IDS[s.policy], dtype=np.int64)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    trace = np.full(C.N_CARDS, -1, dtype=np.int16)
    state = np.uint64(stream_state(np.uint64(seed), 0))
    # One compiled entry whatever the policy (it plays the heuristic's finish without the search): the
    # hindsight curve's finishes, run for every complete record, compile what a flagged card's line needs.
    from kernels.pimc import play_to_end
    play_to_end(hs, ht, st, policies, np.int64(s.worlds), state, result, trace)
    for card in trace:
        if card < 0:
            break
        game.play(int(card))
    if game.phase is not Phase.DONE:
        raise TarotError("the playout did not finish the deal")
    return game, s.policy


def _made(game: Game) -> bool:
    return game.result().seat_scores[game.taker] > 0


def hindsight_curve(start: Game, cards: list[int], settings: Settings, seed: int) -> list[float | None]:
    """After each of ``cards`` (the cards played, from ``start``, the game before the first card),
    1.0 when the contract is made with every hand known from there (the solver within reach, else the
    policy), 0.0 when not."""
    out: list[float | None] = []
    game = copy.deepcopy(start)
    for k, card in enumerate(cards):
        game.play(card)
        if game.phase is Phase.DONE:
            out.append(1.0 if _made(game) else 0.0)
        else:
            done, _ = _finish(copy.deepcopy(game), settings, seed + k)
            out.append(1.0 if _made(done) else 0.0)
    return out


def finish_line(before: Game, card: int, settings: Settings, seed: int) -> tuple[Game, str]:
    """``card`` played in ``before`` (the real layout, unchanged) and the deal finished by the strongest
    play at hand (``_finish``): the finished game and what finished it."""
    game = copy.deepcopy(before)
    game.play(card)
    return _finish(game, settings, seed)


def line_seed(settings: Settings, i: int) -> int:
    """The stream of the line of the ``i``-th decision of a report."""
    return (settings.seed * 0x9E3779B97F4A7C15 + LINE_SEED) % 2**63 + 1000 + i


def line_for(before: Game, card: int, settings: Settings, seed: int,
             finished: tuple[Game, str] | None = None) -> dict:
    """"Show me how": ``card`` played in ``before`` (the real layout), the deal then finished by the
    strongest play at hand (``finished``, when already played); its tricks from the decision's trick
    on, and the final scores."""
    first = len(before.tricks)
    game, by = finished or finish_line(before, card, settings, seed)
    tricks = [{"leader": t.leader + 1, "seats": [s + 1 for s in t.seats], "cards": [C.TOKENS[c] for c in t.cards],
               "winner": t.winner + 1} for t in game.tricks[first:]]
    r = game.result()
    return {"finished_by": by, "tricks": tricks, "scores": list(r.seat_scores),
            "taker_points": None if r.taker_half_points is None else r.taker_half_points / 2,
            "made": _made(game)}


def board_extras(original, record, report_decisions, positions: dict, settings: Settings,
                 finished: dict | None = None) -> dict:
    """The board's figures for ``original`` (a record; ``record`` is the same, completed by a stand-in
    layout when some hands are unknown): ``positions`` maps each flagged card decision's place in
    ``report_decisions`` to the game it was made in; ``finished``, the lines already played
    (``finish_line``) by place."""
    complete = original.replay.complete
    game = record.game
    out = {"table": table_data(original, game), "curve": {"cards": sum(len(t.cards) for t in game.tricks) + len(game.current),
                                                         "knowledge": knowledge_curve(report_decisions, game),
                                                         "hindsight": None},
           "lines": []}
    out["steps"] = [0 if d.phase != "card" else (lambda k: None if k is None else k + 1)(card_number(game, d.trick, d.seat))
                    for d in report_decisions]
    out["classes"] = {str(i): option_classes(positions[i], d) for i, d in enumerate(report_decisions) if i in positions}
    if not complete or game.taker is None:
        return out
    seed = (settings.seed * 0x9E3779B97F4A7C15 + LINE_SEED) % 2**63
    first_card = next((d.index for d in record.decisions() if d.phase == "card"), None)
    if first_card is not None:
        cards = [c for t in game.tricks for c in t.cards] + [c for _, c in game.current]
        quick = settings.with_(policy="heuristic") if settings.policy == MIXED else settings     # a finish per card
        out["curve"]["hindsight"] = hindsight_curve(record.position(first_card), cards, quick, seed)
    for i, d in enumerate(report_decisions):
        if d.phase != "card" or not d.verdict or i not in positions:
            continue
        before = positions[i]
        line = line_for(before, C.TOKENS.index(d.best.choice), settings, line_seed(settings, i),
                        (finished or {}).get(i))
        actual = [{"leader": t.leader + 1, "seats": [s + 1 for s in t.seats], "cards": [C.TOKENS[c] for c in t.cards],
                   "winner": t.winner + 1} for t in game.tricks[len(before.tricks):]]
        if game.current:
            actual.append({"leader": game.current[0][0] + 1, "seats": [p + 1 for p, _ in game.current],
                           "cards": [C.TOKENS[c] for _, c in game.current], "winner": None})
        over = game.phase is Phase.DONE             # a record may stop before the end: no actual score then
        r = game.result() if over else None
        out["lines"].append({"decision": i, "seat": d.seat + 1, "trick": d.trick, "played": d.played,
                             "card": d.best.choice, "line": line,
                             "actual": {"tricks": actual, "scores": list(r.seat_scores) if over else None,
                                        "taker_points": None if not over or r.taker_half_points is None else
                                        r.taker_half_points / 2, "made": _made(game) if over else None}})
    return out


def option_classes(game: Game, decision) -> dict[str, list[str]]:
    """Each alternative of a judged card decision with the equivalent cards it stands for (valued once)."""
    legal = game.legal_cards()
    out = {}
    for cls in card_classes(legal, cards_out(game, game.to_act)):
        tokens = [C.TOKENS[c] for c in cls]
        for o in decision.options:
            if o.choice in tokens:
                out[o.choice] = tokens
    return out


def luck_and_skill(record, report_decisions, summary: dict) -> dict:
    """Per judged seat: the expected score from its hand as dealt (the best bid's value at its bid, from
    what it knew then), the actual score, the points its own decisions lost, and the rest (luck: the
    cards and the others' play) = actual − expected + lost."""
    out = {}
    scores = None
    if record.replay.complete and record.game.phase is Phase.DONE:
        scores = record.game.result().seat_scores
    for seat, s in summary.items():
        bid = next((d for d in report_decisions if d.seat == seat and d.phase == "bid"), None)
        expected = bid.best.score.mean if bid is not None and bid.judged else None
        actual = None if scores is None else float(scores[seat])
        rest = None if expected is None or actual is None else actual - expected + s.points_lost
        out[str(seat + 1)] = {"expected": expected, "expected_se": None if expected is None else bid.best.score.se,
                              "actual": actual, "own_decisions": -s.points_lost, "rest": rest}
    return out
