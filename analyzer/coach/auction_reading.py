"""How the judge reads a record's auction: by which bidding model, and with what error on its count.

Each world a decision is judged on counts by the chance that the other seats bid as recorded given its
hands (``analyzer.advice.auction``).  Players at a real table bid off any model: their bids are read by
``bid``'s model with ``bid``'s error (``BID_NOISE`` points).  A record whose ``Bidding`` tag names one of
the bidding models was bid by that model exactly (``play`` writes the tag): its bids are read by that
model without error, as its seats meant them.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.advice.auction import BID_NOISE

BIDDING = "tarotclub"   # the bidding model a player's auction is read by (``bid``'s default)


@dataclass(frozen=True)
class AuctionReading:
    """The bidding model the recorded bids are read by, and the error in points on its count."""

    bidding: str = BIDDING
    noise: float = BID_NOISE

    def words(self) -> str:
        """E.g. "tarotclub exactly", "tarotclub ± 8 points"."""
        return f"{self.bidding} exactly" if self.noise == 0 else f"{self.bidding} ± {self.noise:g} points"


def reading_of(record, noise: float | None = None) -> AuctionReading:
    """How ``record``'s auction is read: by the model its ``Bidding`` tag names
    (``Record.bidding_model``) without error, else by ``BIDDING`` with ``BID_NOISE`` points; ``noise``,
    when given, is the error whatever the tag says."""
    if record.bidding_model is not None:
        return AuctionReading(record.bidding_model, 0.0 if noise is None else noise)
    return AuctionReading(BIDDING, BID_NOISE if noise is None else noise)


def readings_words(records, noise: float | None = None) -> str:
    """How the auctions of ``records`` are read, in words: "tarotclub exactly", or with several
    readings each with its count ("tarotclub exactly (3 deals), tarotclub ± 8 points (1 deal)")."""
    counts: dict[AuctionReading, int] = {}
    for rec in records:
        reading = reading_of(rec, noise)
        counts[reading] = counts.get(reading, 0) + 1
    if len(counts) == 1:
        return next(iter(counts)).words()
    return ", ".join(f"{r.words()} ({n} deal{'s' if n != 1 else ''})" for r, n in counts.items())
