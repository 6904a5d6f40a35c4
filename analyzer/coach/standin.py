"""A stand-in layout for a record that only one seat's hand is known in (what a player remembers).

Judging a seat's decisions needs only what that seat knew: the worlds its alternatives are played on
are dealt from its knowledge alone.  The engine, though, replays complete deals, so the unknown cards
are dealt once, at random among the layouts the seat could not tell from the real one at the end of
the record (its knowledge then: the cards each seat played, the voids they showed, the chien when
shown, the poignées), and the record is completed with them.  Its positions are then the positions
the seat saw; what the other hands hold is never used to judge it, and no hindsight is given.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from analyzer import cards as C
from analyzer.errors import TarotError
from analyzer.game import Phase
from analyzer.knowledge import seat_view
from analyzer.records import Record, RecordError
from analyzer.sampling import sample_deals
from kernels.deals import stream_state
from kernels.worlds import prepare, sample_world

TRIES = 200             # layouts drawn until one replays (a petit sec, say, would annul the deal)


def stand_in(record: Record, seat: int, seed: int) -> Record:
    """``record`` completed with unknown hands dealt from what ``seat`` knew at its end."""
    if record.replay.complete:
        return record
    if seat not in record.known_seats:
        known = ", ".join(str(s + 1) for s in record.known_seats)
        raise TarotError(f"seat {seat + 1}'s hand is not in the record: it can be analysed from seat(s) {known} only")
    last_error = None
    for attempt in range(TRIES):
        hands, chien, discard = _layout(record, seat, seed, attempt)
        completed = dataclasses.replace(record, hands=hands, chien=chien,
                                        discard=record.discard if record.discard is not None else discard,
                                        result=None)
        try:
            return completed.check()
        except RecordError as exc:
            last_error = exc
    raise TarotError(f"no layout of the unknown hands replays the record ({last_error})")


def _layout(record: Record, seat: int, seed: int, attempt: int) -> tuple[dict[int, int], int, int | None]:
    """(every hand as dealt, the chien as dealt, the discard) of one random completion, the hands
    the record gives kept."""
    rep = record.replay
    table = rep.game
    P = record.players
    if table.phase not in (Phase.PLAY, Phase.DONE) or table.taker is None:
        fixed = {s: h for s, h in enumerate(rep.dealt) if h is not None}
        if rep.chien is not None:
            fixed["chien"] = rep.chien
        places = sample_deals(P, 1, seed + attempt, fixed=fixed)[0]
        hands = {s: C.mask_of(c for c in range(C.N_CARDS) if places[c] == s) for s in range(P)}
        return hands, C.mask_of(c for c in range(C.N_CARDS) if places[c] == P), None
    view = seat_view(table, seat)
    allowed = np.array(view.allowed_places(), dtype=np.int64)
    for other, hand in enumerate(rep.dealt):            # the other hands the record gives stay theirs
        if hand is not None and other != seat:
            for card in C.cards_of(hand & ~table.cards_played(other)):
                allowed[card] = 1 << other
    room = np.array(view.sizes, dtype=np.int64)
    fixed, constrained, last, _, left, strides, counts, start = prepare(allowed, room)
    if counts[start] == 0:
        raise TarotError(f"what seat {seat + 1} saw leaves no possible layout of the other hands")
    place = np.empty(C.N_CARDS, dtype=np.int64)
    sample_world(allowed, fixed, constrained, last, strides, left, counts, start,
                 np.uint64(stream_state(np.uint64(seed), attempt)), place)
    held = [C.mask_of(c for c in range(C.N_CARDS) if place[c] == p) for p in range(P + 1)]
    aside = held[P]
    hands = {s: table.cards_played(s) | held[s] for s in range(P)}
    if table.contract.chien_shown:
        if rep.chien is None:
            raise TarotError("the record does not give the chien: the taker's hand as dealt cannot be rebuilt")
        chien = rep.chien
        hands[table.taker] = (hands[table.taker] | aside) & ~chien
        return hands, chien, aside
    return hands, aside, None
