"""One line per checked record (``tarot-analyzer record check``): who took what, how it went, the scores."""

from __future__ import annotations

from analyzer import cards as C
from analyzer.game import Phase
from analyzer.records.record import UNKNOWN_CARD, Record


def record_summary(rec: Record) -> dict:
    """The checked record's outcome as a plain dict (seats 1-based)."""
    rp = rec.replay
    engine = rp.game
    out: dict = {"players": rec.players, "taker": None, "contract": None, "called": None, "partner": None,
                 "made": None, "by": None, "scores": None, "outcome": None, "stops": _stops(engine),
                 "known_seats": [s + 1 for s in rec.known_seats]}
    if engine.taker is not None:
        out["taker"], out["contract"] = engine.taker + 1, engine.contract.token
    if rec.call == UNKNOWN_CARD:
        out["called"] = "?"
    elif engine.called_card is not None:
        out["called"] = C.TOKENS[engine.called_card]
        if engine.partner_known:
            out["partner"] = None if engine.partner is None else engine.partner + 1
    if engine.phase is Phase.DONE and engine.taker is None:
        out["outcome"] = "goulash" if rec.rules.all_pass == "goulash" else "thrown-in"
    if rp.result is not None:
        out["outcome"] = rp.result.get("outcome", "played")
        out["made"], out["by"] = rp.result.get("made"), rp.result.get("by")
        out["scores"] = rp.result["scores"]
    return out


def _stops(engine) -> str | None:
    """Where an unfinished record stops (None when the deal is over)."""
    if engine.phase is Phase.DONE:
        return None if engine.counted or engine.taker is None else "end of play (the scores are unknown)"
    if engine.phase is Phase.BIDDING:
        return f"auction, after {len(engine.bids)} bids"
    if engine.phase is Phase.CALL:
        return "after the auction"
    if engine.phase is Phase.DISCARD:
        return "before the discard"
    if engine.phase is Phase.DECLARE:
        return "before the declarations"
    trick = len(engine.tricks) + 1
    return f"trick {trick}, after {len(engine.current)} cards" if engine.current else f"before trick {trick}"


def _signed(v) -> str:
    return "0" if v == 0 else f"{v:+g}"


def summary_line(summary: dict) -> str:
    parts = [f"{summary['players']} players"]
    if summary["taker"] is None:
        parts.append({"thrown-in": "everybody passed (thrown in)", "goulash": "everybody passed (Goulash)",
                      "annulled": "annulled (a petit sec)"}.get(summary["outcome"], "no taker yet"))
    else:
        taker = f"seat {summary['taker']} {summary['contract']}"
        if summary["called"]:
            partner = summary["partner"]
            taker += f" calling {summary['called']} (" + ("alone" if partner is None and summary["scores"] else
                                                          f"partner seat {partner}" if partner else "partner unknown") + ")"
        parts.append(taker)
    if summary["made"] is not None:
        parts.append(f"{'made' if summary['made'] else 'lost'} by {summary['by']}")
    if summary["scores"] is not None:
        parts.append("scores " + " ".join(_signed(s) for s in summary["scores"]))
    if summary["stops"]:
        parts.append(f"stops: {summary['stops']}")
    if not summary["known_seats"]:
        parts.append("no hand known")
    elif len(summary["known_seats"]) < summary["players"]:
        parts.append("known hands: seat " + ", ".join(map(str, summary["known_seats"])))
    return "; ".join(parts)
