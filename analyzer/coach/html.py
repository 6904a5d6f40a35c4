"""The coaching report as one self-contained HTML page: a replay board to step through each deal card
by card, with the judged alternatives of every decision, "show me how" lines for the flagged cards,
the contract's chance card after card from a chosen viewpoint, and luck and skill per seat.

The page is one file: the analysis embedded as JSON data, the style sheet and a small script
(``analyzer/coach/assets``) inside it; nothing is fetched from the network, and the same analysis
gives the same bytes (no date, no path).
"""

from __future__ import annotations

import html
import json
from importlib import resources

from analyzer.coach.deal import DealReport
from analyzer.coach.verdicts import THRESHOLDS

BODY = """<header><h1>tarot-analyzer &middot; replay board</h1>
<select id="deal" aria-label="deal">{deals}</select>
<span class="meta" id="meta"></span></header>
<main>
<section class="panel board">
<div class="controls">
<button id="first" type="button" title="the deal before the first card (Home)">start</button>
<button id="prev-trick" type="button" title="previous trick (&uarr; or shift+&larr;)">&#x25C0;&#x25C0;</button>
<button id="prev" type="button" title="previous card (&larr;)">&#x25C0;</button>
<button id="next" type="button" title="next card (&rarr;)">&#x25B6;</button>
<button id="next-trick" type="button" title="next trick (&darr; or shift+&rarr;)">&#x25B6;&#x25B6;</button>
<button id="last" type="button" title="the end (End)">end</button>
<button id="prev-flag" type="button" title="previous flagged decision (p)">&#x2691; prev</button>
<button id="next-flag" type="button" title="next flagged decision (n)">next &#x2691;</button>
<select id="view" aria-label="seat view"></select>
<span class="where" id="where"></span>
</div>
<div class="felt" id="felt"></div>
<div class="history" id="history" aria-label="tricks: who won each"></div>
<p class="kbd">Keys: &larr; &rarr; card, &uarr; &darr; trick, n / p flagged decision. The address holds the step: copy it to share this moment.</p>
</section>
<section class="panel" id="decision"></section>
<section class="panel curvebox">
<div class="controls"><b id="curve-name"></b><select id="curve-view" aria-label="curve viewpoint"></select></div>
<svg id="curve" viewBox="0 0 720 210" role="img" aria-label="the contract's chance card after card"></svg>
<p class="legend">Each point: the chance that the contract is made after that card, as the viewpoint judged it
(a seat's knowledge: at its judged cards only, gaps elsewhere; every hand known: made or not, the rest
played by the endgame solver within {exact} tricks of the end, else by the policy). Dashed marks:
flagged decisions (<span class="verdict inaccuracy">inaccuracy</span> <span class="verdict mistake">mistake</span>
<span class="verdict blunder">blunder</span>). Click to go to a card.</p>
</section>
<section class="panel luckbox"><h2>Luck and skill</h2><div id="luck" class="scroll"></div>
<p class="legend">Expected: the seat's score as its hand promised at its bid (the best bid's value from what it
knew then); own decisions: the points its judged decisions lost; the rest: the cards and the others' play
(actual &minus; expected + points lost).</p></section>
</main>
<footer>A decision is flagged when the points it lost (the best alternative's expected score minus the
choice made's, on the same worlds) exceed twice their standard error: {thresholds}. Losses are in contract
points (the seat's own score divided by its share and the contract's multiplier); alternatives' values are the
deciding seat's own scores. docs/coaching.md says how each figure is computed.</footer>
"""


def _asset(name: str) -> str:
    return resources.files("analyzer.coach").joinpath("assets", name).read_text(encoding="utf-8")


def page_data(reports: list[DealReport]) -> dict:
    """What the page's script reads: every deal's analysis (``analyze --format json``'s) and the thresholds."""
    return {"deals": [r.as_dict() for r in reports], "thresholds": {name: points for name, points in THRESHOLDS}}


def _script_json(data: dict) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def report_page(reports: list[DealReport], records=None) -> str:
    """The whole page for the deals of one file (``records`` is accepted for the callers that pass it)."""
    from analyzer.coach.cards import EXACT_TRICKS
    thresholds = ", ".join(f"{name} from {points:g} contract points" for name, points in reversed(THRESHOLDS))
    deals = "".join(f'<option value="{i}">Deal {r.index + 1}</option>' for i, r in enumerate(reports))
    body = BODY.format(deals=deals, thresholds=html.escape(thresholds), exact=EXACT_TRICKS)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>tarot-analyzer: replay board</title>\n"
            f"<style>\n{_asset('board.css')}</style>\n</head><body>\n{body}"
            f"<script type=\"application/json\" id=\"analysis\">{_script_json(page_data(reports))}</script>\n"
            f"<script>\n{_asset('board.js')}</script>\n</body></html>\n")
