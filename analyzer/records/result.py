"""The ``Result`` of a record: the outcome as the players wrote it down, and the check against the play.

Written as fields separated by ``;``, e.g. ``taker 2; contract garde; made by 4; points 45;
oudlers 2; scores -58 +174 -58 -58``.  Fields (any subset; each one given is checked):

* ``taker N``, ``partner N`` (or ``partner none``: 5 players, the taker alone), ``contract TOKEN``;
* ``made by N`` or ``lost by N`` (the margin after the half-point rule);
* ``points X`` (the taker's side's card points, may end in .5), ``oudlers N``;
* ``petit-au-bout taker|defence``, ``chelem OUTCOME`` (announced-made, made, announced-failed, defence, …);
* ``scores A B …`` (one per seat, from seat 1);
* a bare ``thrown-in`` (everybody passed), ``annulled`` (a petit sec) or ``goulash``.

In JSON the same fields form an object: ``{"taker": 2, "contract": "garde", "made": true, "by": 4,
"points": 45, "oudlers": 2, "scores": [-58, 174, -58, -58]}`` (``partner`` null for none,
``outcome`` for the bare words).
"""

from __future__ import annotations

import math
import re

from analyzer.errors import TarotError
from analyzer.records.record import RecordError
from analyzer.rules import Contract
from analyzer.scoring import Chelem, Side

OUTCOMES = ("thrown-in", "annulled", "goulash")
FIELD_ORDER = ("outcome", "taker", "partner", "contract", "made", "by", "points", "oudlers", "petit-au-bout",
               "chelem", "scores")


_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")                     # ASCII digits: no full-width, no 1_000
_NUMBER = re.compile(r"[+-]?[0-9]{1,9}(?:\.[0-9]{1,9})?")


def _integer(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _number(text: str) -> int | float:
    """A count of points or a score: a finite number written in digits, whole or ending in .5."""
    if not _NUMBER.fullmatch(text):
        raise ValueError(text)
    value = float(text)
    if not math.isfinite(value) or value * 2 != int(value * 2):
        raise ValueError(text)
    return int(value) if value == int(value) else value


def parse_result(value: str, players: int, line: int | None = None, source: str = "") -> dict:
    """The fields of a ``Result`` tag (``RecordError`` naming the bad field)."""
    out: dict = {}
    for part in [p.strip() for p in value.split(";") if p.strip()]:
        words = part.split()
        key = words[0].lower()
        try:
            if key in OUTCOMES and len(words) == 1:
                out["outcome"] = key
            elif key in ("made", "lost") and len(words) == 3 and words[1].lower() == "by":
                out["made"], out["by"] = key == "made", _integer(words[2])
                if out["by"] < 0:
                    raise ValueError(part)
            elif key in ("taker", "oudlers") and len(words) == 2:
                out[key] = _integer(words[1])
            elif key == "partner" and len(words) == 2:
                out[key] = None if words[1].lower() == "none" else _integer(words[1])
            elif key == "contract" and len(words) == 2:
                out[key] = Contract.parse(words[1]).token
            elif key == "points" and len(words) == 2:
                out[key] = _number(words[1])
            elif key == "petit-au-bout" and len(words) == 2:
                out[key] = Side.parse(words[1]).value
            elif key == "chelem" and len(words) == 2:
                out[key] = Chelem.parse(words[1]).value
            elif key == "scores" and len(words) == players + 1:
                out[key] = [_number(w) for w in words[1:]]
            else:
                raise ValueError(part)
        except (ValueError, TarotError):
            raise RecordError("unreadable Result field (expected e.g. 'taker 2; made by 4; points 45; oudlers 2; "
                              f"scores' with {players} scores)", line, part, source) from None
    for key in ("taker", "partner"):
        if out.get(key) is not None and not 1 <= out[key] <= players:
            raise RecordError(f"Result: no seat {out[key]} at {players} players", line, f"{key} {out[key]}", source)
    return out


def _signed(v: int | float) -> str:
    return "0" if v == 0 else f"{v:+g}"


def format_result(result: dict) -> str:
    parts = []
    for key in FIELD_ORDER:
        if key not in result:
            continue
        v = result[key]
        if key == "outcome":
            parts.append(v)
        elif key == "made":
            parts.append(f"{'made' if v else 'lost'} by {result.get('by', 0)}")
        elif key == "by":
            continue
        elif key == "partner":
            parts.append(f"partner {'none' if v is None else v}")
        elif key == "scores":
            parts.append("scores " + " ".join(_signed(s) for s in v))
        else:
            parts.append(f"{key} {v:g}" if isinstance(v, float) else f"{key} {v}")
    return "; ".join(parts)


_JSON_TYPES = {"outcome": (str,), "taker": (int,), "partner": (int, type(None)), "contract": (str,), "made": (bool,),
               "by": (int,), "points": (int, float), "oudlers": (int,), "petit-au-bout": (str,), "chelem": (str,),
               "scores": (list,)}


def result_from_json(obj: dict, players: int, source: str = "") -> dict:
    """The result fields of a JSON record (checked like the text form; each field of its JSON type)."""
    if not isinstance(obj, dict):
        raise RecordError("result must be an object", None, str(obj), source)
    unknown = set(obj) - set(FIELD_ORDER)
    if unknown:
        raise RecordError(f"unknown result field (known: {', '.join(FIELD_ORDER)})", None, sorted(unknown)[0], source)
    if ("made" in obj) != ("by" in obj):
        raise RecordError("result: 'made' and 'by' go together", None, "made", source)
    for key, value in obj.items():
        types = _JSON_TYPES[key]
        wrong = not isinstance(value, types) or (isinstance(value, bool) and bool not in types)
        if key == "scores" and not wrong:
            wrong = not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        if not wrong and isinstance(value, float) and not math.isfinite(value):
            wrong = True
        if not wrong and isinstance(value, str) and (";" in value or not value.strip()):
            wrong = True
        if wrong:
            expected = "a list of numbers" if key == "scores" else " or ".join(_TYPE_NAMES[t] for t in types)
            raise RecordError(f"result field {key!r} holds {value!r:.40}, not {expected}", None, key, source)
    text = format_result({k: obj[k] for k in FIELD_ORDER if k in obj})
    return parse_result(text, players, None, source)


_TYPE_NAMES = {str: "a string", int: "a whole number", float: "a number", bool: "true or false", list: "a list",
               type(None): "null"}


def computed_result(game) -> dict:
    """Every result field of a finished reference game."""
    r = game.result()
    scores = [int(s) if float(s) == int(s) else float(s) for s in r.seat_scores]
    if r.outcome.value != "played":
        return {"outcome": r.outcome.value, "scores": scores}
    out = {"taker": r.taker + 1}
    if game.rules.players == 5:
        out["partner"] = None if r.partner is None else r.partner + 1
    points = r.taker_half_points / 2
    out.update({"contract": r.contract.token, "made": r.score.made, "by": abs(r.score.margin),
                "points": int(points) if points == int(points) else points, "oudlers": r.taker_oudlers})
    if r.petit_au_bout is not None:
        out["petit-au-bout"] = r.petit_au_bout.value
    if r.chelem is not None:
        out["chelem"] = r.chelem.value
    out["scores"] = scores
    return out


def result_differences(given: dict, computed: dict) -> list[str]:
    """One phrase per field written differently from the computed result."""
    out = []
    for key in FIELD_ORDER:
        if key not in given or key == "by":
            continue
        mine = computed.get(key)
        if key == "made":
            if given["made"] != computed.get("made") or given["by"] != computed.get("by"):
                out.append(f"written '{format_result({'made': given['made'], 'by': given['by']})}', "
                           f"computed '{format_result({'made': computed.get('made'), 'by': computed.get('by')})}'")
            continue
        if given[key] != mine:
            shown = format_result({key: mine}) if key in computed else f"no {key}"
            out.append(f"written '{format_result({key: given[key]})}', computed '{shown}'")
    return out
