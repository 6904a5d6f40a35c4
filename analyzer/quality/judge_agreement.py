"""How far two analyses of the same deals agree, card by card: the judge under test (for instance the
default, mixed) against a stronger one (``analyze --policy pimc`` with more worlds), both read from the
JSON that ``analyze`` writes (docs/coaching.md, "The mixed judge against deep search").

A card decision counts when both judged it.  The best choices agree when the tested judge's best is the
reference's best or one the reference values within one standard error of it.  A flag is a verdict; a
false flag is one the reference does not give (it finds the card within noise of the best, or too
little lost for a verdict); a missed one, the reverse.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from analyzer.errors import TarotError


@dataclass(frozen=True)
class Agreement:
    """The counts of two analyses' card decisions compared (``compare``)."""
    cards: int                  # card decisions judged by both
    same_best: int              # the tested best is the reference's, or within one se of it there
    flagged: int                # verdicts of the tested judge
    reference_flagged: int      # verdicts of the reference
    common: int                 # decisions both flag
    false_flags: int            # flagged by the tested judge only
    missed: int                 # flagged by the reference only
    searched: int               # decisions the tested judge valued by the search (``judged_by``)

    def share(self, count: int, of: int | None = None) -> float:
        total = self.cards if of is None else of
        return count / total if total else float("nan")


def card_decisions(path: str) -> dict[tuple, dict]:
    """The judged card decisions of an ``analyze`` JSON file, keyed by (deal, seat, trick, card)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        deals = data["deals"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise TarotError(f"{path}: not the JSON of tarot-analyzer analyze ({exc})") from None
    out = {}
    for deal in deals:
        for d in deal.get("decisions", []):
            if d.get("phase") == "card" and d.get("judged"):
                out[(deal["index"], d["seat"], d["trick"], d["played"])] = d
    return out


def _within_one_se(choice: str, reference: dict) -> bool:
    """Whether the reference values ``choice`` as its best or within one standard error of it."""
    for alt in reference["alternatives"]:
        if alt["choice"] == choice:
            return alt["vs_best"] >= 0 or alt["vs_best"] + (alt["vs_best_se"] or 0.0) >= 0
    return False


def compare(tested: dict[tuple, dict], reference: dict[tuple, dict]) -> Agreement:
    """The agreement of two analyses' card decisions (``card_decisions``), on those both judged."""
    keys = sorted(set(tested) & set(reference))
    if not keys:
        raise TarotError("the two analyses have no judged card decision in common (the same deals and seats?)")
    counts: Counter[str] = Counter()
    for key in keys:
        a, b = tested[key], reference[key]
        counts["same_best"] += a["best"] in b["best_group"] or _within_one_se(a["best"], b)
        fa, fb = a["verdict"] is not None, b["verdict"] is not None
        counts["flagged"] += fa
        counts["reference_flagged"] += fb
        counts["common"] += fa and fb
        counts["false_flags"] += fa and not fb
        counts["missed"] += fb and not fa
        counts["searched"] += a.get("judged_by") not in (None, "heuristic", "solver")
    return Agreement(len(keys), counts["same_best"], counts["flagged"], counts["reference_flagged"],
                     counts["common"], counts["false_flags"], counts["missed"], counts["searched"])
