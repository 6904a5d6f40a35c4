"""A record of a reference ``Game``, at whatever point it stands (the writer's side of the replay)."""

from __future__ import annotations

from analyzer.game import Game, Phase
from analyzer.records.record import Record
from analyzer.records.result import computed_result


def record_of_game(game: Game, tags: dict[str, str] | None = None, variants: dict[str, str] | None = None,
                   result: bool = True) -> Record:
    """Everything ``game`` has been through, as a record (with its computed ``Result`` when the deal
    is over and ``result``).  ``variants``: the rule variants to write (default: those differing
    from FFT)."""
    rules = game.rules
    if variants is None:
        defaults = type(rules)(players=rules.players).describe()
        variants = {k: v for k, v in rules.describe().items() if k != "players" and defaults[k] != v}
    rec = Record(players=rules.players, variants=dict(variants), tags=dict(tags or {}),
                 hands={s: h.mask for s, h in enumerate(game.deal.hands)}, chien=game.deal.chien.mask)
    if game.phase is Phase.DONE and not game.bids:
        return rec                                      # annulled before the bidding
    rec.auction = [b.token if b is not None else "pass" for b in game.bids]
    rec.call = game.called_card
    if game.contract is not None and game.contract.chien_shown and game.phase not in (Phase.CALL, Phase.DISCARD):
        rec.discard = game.discard
    rec.chelem = game.chelem_announced
    rec.poignees = [(p.seat, p.shown) for p in game.poignees]
    rec.miseres = list(game.miseres)
    if game.phase in (Phase.PLAY, Phase.DONE) and game.taker is not None or game.tricks:
        rec.tricks = [list(t.cards) for t in game.tricks]
        if game.current:
            rec.tricks.append([c for _, c in game.current])
    if result and game.phase is Phase.DONE:
        rec.result = computed_result(game)
    return rec
