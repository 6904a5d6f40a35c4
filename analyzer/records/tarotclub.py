"""Importing a deal played in TarotClub (its played-deal JSON log, version 3) as a record.

The log holds ``deal_info`` (``number_of_players``; ``taker`` and ``first_trick_lead`` as places
South, East, North, West, Fifth, listed anti-clockwise, the order of play; ``contract``: Pass, Take,
Guard, Guard without, Guard against; ``slam``; ``dog``, the chien; ``attack_handle`` and
``defense_handle``, the poignées shown, empty when none) and ``tricks``, each a string of cards in
play order from the trick's leader.  Cards are ``NN-S``: suit cards ``01-S`` … ``14-S`` (11 Jack,
12 Knight, 13 Queen, 14 King; suits S H D C), trumps ``01-T`` … ``21-T``, the Excuse ``00-T``.

Seat 1 is the ``first_trick_lead`` place (the first to speak and to lead).  What the log does not
hold is inferred where the deal determines it: the hands (from the play and the chien), the seat
that showed the defence's poignée (the one that played those trumps: a poignée's cards stay in the hand and are all played), the bids after the taker's
(passes); the bids before it are written ``?``; the 5-player called card is inferred when the taker's
hand and the first lead leave a single legal call, and otherwise left out.  Each inference or gap is
returned as a note.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer import cards as C
from analyzer.game import legal_calls
from analyzer.records.jsonform import load_json, not_utf8
from analyzer.records.record import UNKNOWN_BID, UNKNOWN_CARD, Record, RecordError
from analyzer.records.replay import played_by, determine_places

PLACES = ("south", "east", "north", "west", "fifth")
CONTRACTS = {"take": "prise", "guard": "garde", "guard without": "garde-sans", "guard against": "garde-contre",
             "pass": None}
_CARD = re.compile(r"^([0-9]{1,2})-([SHDCT])$", re.I)        # ASCII digits only


def tarotclub_card(token: str, source: str = "") -> int:
    m = _CARD.match(token.strip())
    if not m:
        raise RecordError("not a TarotClub card (NN-S: 01-S … 14-C, 00-T the Excuse, 01-T … 21-T)", None, token,
                          source)
    n, suit = int(m.group(1)), m.group(2).upper()
    if suit == "T":
        if n == 0:
            return C.EXCUSE
        if 1 <= n <= 21:
            return C.trump(n)
    elif 1 <= n <= 14:
        return C.suit_card("SHDC".index(suit), n)
    raise RecordError("no such TarotClub card", None, token, source)


def tarotclub_cards(text, source: str = "", key: str = "cards") -> list[int]:
    if not isinstance(text, str):
        raise RecordError(f"{key}: expected a string of cards (NN-S;NN-S;…), not {type(text).__name__}", None, key,
                          source)
    return [tarotclub_card(t, source) for t in re.split(r"[;,\s]+", text.strip()) if t]


def _place(value: str, players: int, what: str, source: str) -> int:
    key = str(value).strip().lower()
    if key not in PLACES[:players]:
        raise RecordError(f"{what}: not a place at {players} players (expected one of: "
                          f"{', '.join(p.capitalize() for p in PLACES[:players])})", None, str(value), source)
    return PLACES.index(key)


def load_tarotclub(path: str | Path) -> tuple[Record, list[str]]:
    """The record of a TarotClub log file, and notes on what was inferred or left out."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror}", source=source) from None
    except UnicodeDecodeError as exc:
        raise not_utf8(raw, exc, source, "a TarotClub log is UTF-8 JSON") from None
    return tarotclub_record(load_json(text, source), source)


def tarotclub_record(data: dict, source: str = "") -> tuple[Record, list[str]]:
    if not isinstance(data, dict) or "deal_info" not in data:
        raise RecordError("not a TarotClub deal log (no deal_info)", None, "deal_info", source)
    if data.get("version", 3) != 3:
        raise RecordError("only version 3 of TarotClub's deal log is read", None, str(data.get("version")), source)
    info = data["deal_info"]
    if not isinstance(info, dict):
        raise RecordError("deal_info: expected an object", None, "deal_info", source)
    try:
        players = info["number_of_players"]
        if isinstance(players, bool) or players not in (3, 4, 5, "3", "4", "5"):
            raise RecordError("number_of_players: expected 3, 4 or 5", None, str(players)[:20], source)
        players = int(players)
        first = _place(info["first_trick_lead"], players, "first_trick_lead", source)
        contract_key = str(info["contract"]).strip().lower()
        if contract_key not in CONTRACTS:
            raise RecordError(f"unknown contract (expected one of: {', '.join(c.title() for c in CONTRACTS)})",
                              None, str(info["contract"]), source)
        taker_place = _place(info["taker"], players, "taker", source) if CONTRACTS[contract_key] else None
    except RecordError:
        raise
    except KeyError as exc:
        raise RecordError("deal_info lacks this key", None, str(exc.args[0]), source) from None
    except (TypeError, ValueError) as exc:
        raise RecordError(f"malformed deal_info ({exc})", None, "deal_info", source) from None
    seat_of = {(first + k) % players: k for k in range(players)}
    notes = [f"imported from TarotClub: seat 1 is {PLACES[first].capitalize()} (the first to lead), then "
             + ", ".join(PLACES[(first + k) % players].capitalize() for k in range(1, players))]
    rec = Record(players=players, tags={"Event": "imported from TarotClub"})
    for k in range(players):
        rec.tags[f"Seat{k + 1}"] = PLACES[(first + k) % players].capitalize()
    contract = CONTRACTS[contract_key]
    if contract is None:
        rec.auction = ["pass"] * players
        return rec, notes
    taker = seat_of[taker_place]
    rec.auction = [UNKNOWN_BID] * taker + [contract] + ["pass"] * (players - taker - 1)
    if taker:
        before = "seat 1" if taker == 1 else f"seats 1-{taker}"
        notes.append(f"TarotClub records only the taker's bid: the bids before it ({before}) are written ?")
    if info.get("dog"):
        rec.chien = C.mask_of(tarotclub_cards(info["dog"], source, "dog"))
    slam = info.get("slam", False)
    if slam not in (None, True, False) or isinstance(slam, (int, float)) and not isinstance(slam, bool):
        raise RecordError(f"slam: expected true or false, not {json.dumps(slam)[:20]}", None, "slam", source)
    if slam:
        rec.chelem = "chelem"
    tricks = data.get("tricks")
    if tricks is None:
        tricks = []                                  # no trick recorded (null as when the key is left out)
    if not isinstance(tricks, list):
        raise RecordError("tricks: expected a list of tricks (each a string of cards)", None, "tricks", source)
    rec.tricks = [tarotclub_cards(t, source, f"trick {i + 1}") for i, t in enumerate(tricks)
                  if not isinstance(t, str) or t.strip()]
    dealt, _, _ = determine_places(rec, rec.rules)
    played = played_by(rec, rec.rules) or [0] * players
    for key, who in (("attack_handle", "taker's side"), ("defense_handle", "defence")):
        shown = C.mask_of(tarotclub_cards(info.get(key) or "", source, key))
        if shown:
            holder = next((s for s in range(players) if shown & ~played[s] == 0), None)
            if holder is None:
                raise RecordError(f"the {who}'s poignée was not played by one seat", None, info.get(key), source)
            rec.poignees.append((holder, shown))
    if players == 5:
        _infer_call(rec, dealt, taker, notes)
    return rec, notes


def _infer_call(rec: Record, dealt: list[int | None], taker: int, notes: list[str]) -> None:
    """The called card when the taker's hand and the first lead leave a single legal call."""
    hand = dealt[taker]
    if hand is None:
        rec.call = UNKNOWN_CARD
        notes.append("TarotClub does not record the called card, and the taker's hand is unknown: written ?")
        return
    candidates = legal_calls(hand)
    if rec.tricks:
        lead = rec.tricks[0][0]
        leader_hand = dealt[taker if rec.chelem else 0]
        if C.is_suit_card(lead) and leader_hand is not None and leader_hand & ~C.suit_mask(C.suit_of(lead)):
            candidates = [c for c in candidates if C.suit_of(c) != C.suit_of(lead) or c == lead]
    if len(candidates) == 1:
        rec.call = candidates[0]
        notes.append(f"TarotClub does not record the called card: {C.TOKENS[rec.call]} is the only legal call "
                     "with this hand and first lead")
    else:
        rec.call = UNKNOWN_CARD
        notes.append("TarotClub does not record the called card, and the deal does not determine it (one of "
                     f"{' '.join(C.TOKENS[c] for c in candidates)}): written ?, so the partner and the scores "
                     "stay unknown")
