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


def report_page(reports: list[DealReport], records=None, labels: list[str] | None = None, title: str = "replay board",
                before: str = "", css: str = "", script: str = "") -> str:
    """The whole page for ``reports`` (``records`` is accepted for the callers that pass it): the deals
    listed as ``labels`` (default "Deal N"), ``before`` (HTML) above the board, ``css`` and ``script``
    added to the page's own."""
    from analyzer.coach.cards import EXACT_TRICKS
    thresholds = ", ".join(f"{name} from {points:g} contract points" for name, points in reversed(THRESHOLDS))
    labels = labels or [f"Deal {r.index + 1}" for r in reports]
    deals = "".join(f'<option value="{i}">{html.escape(label)}</option>' for i, label in enumerate(labels))
    body = BODY.format(deals=deals, thresholds=html.escape(thresholds), exact=EXACT_TRICKS)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>tarot-analyzer: {html.escape(title)}</title>\n"
            f"<style>\n{_asset('board.css')}{css}</style>\n</head><body>\n{before}{body}"
            f"<script type=\"application/json\" id=\"analysis\">{_script_json(page_data(reports))}</script>\n"
            f"<script>\n{_asset('board.js')}{script}</script>\n</body></html>\n")


# ---- one player across deals (``analyze --player``) -------------------------------------------------

def _num(x: float | None, digits: int = 1) -> str:
    return "&mdash;" if x is None else f"{x:.{digits}f}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0f}%"


def _deal_label(deal) -> str:
    return f"{deal.source} #{deal.number}"


def _best(choices: list[str]) -> str:
    return choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + " or " + choices[-1]


def player_section(report) -> str:
    """The player's figures as HTML (``analyzer.coach.player_report.PlayerReport``): the totals, the
    losses by phase, the named errors, the worst decisions and every deal, each linked to the board."""
    from analyzer.coach.player_report import PHASE_LABELS
    e = html.escape
    r = report
    n = len(r.deals)
    left = []
    if r.not_seated:
        left.append(f"{r.not_seated} without {e(r.player)}")
    if r.hand_unknown:
        left.append(f"{r.hand_unknown} whose record does not give {e(r.player)}&rsquo;s hand")
    skipped = f" ({n + r.not_seated + r.hand_unknown} in the input; left out: {', '.join(left)})" if left else ""
    counts = ", ".join(_verdict_count(v, r.verdicts[v]) for v in ("blunder", "mistake", "inaccuracy"))
    out = [f'<header class="top"><h1>tarot-analyzer &middot; {e(r.player)} across {n} deal{"s" if n != 1 else ""}'
           '</h1></header>\n<section class="player" id="player">',
           f'<p class="lead">{n} deal{"s" if n != 1 else ""} analysed{skipped}; {r.judged} decisions judged, '
           f'{r.flagged} flagged ({counts}).</p>',
           '<div class="figures">'
           f'<div class="figure"><b id="accuracy">{_pct(r.accuracy)}</b><span>accuracy</span></div>'
           f'<div class="figure"><b id="lost">{_num(r.lost)}</b><span>contract points lost</span></div>'
           f'<div class="figure"><b>{_num(r.lost_per_deal)}</b><span>lost per deal</span></div>'
           f'<div class="figure"><b>{r.flagged}</b><span>flagged decisions</span></div></div>']
    rows = "".join(f'<tr><td>{e(PHASE_LABELS[p.phase])}</td><td class="num">{p.judged}</td>'
                   f'<td class="num">{p.flagged}</td><td class="num">{_num(p.lost)}</td>'
                   f'<td class="bar"><span style="width:{_width(p.lost, r.lost)}%"></span></td></tr>'
                   for p in r.phases)
    out.append('<div class="columns"><div><h2>Contract points lost by phase</h2><table id="phases">'
               '<tr><th>phase</th><th class="num">judged</th><th class="num">flagged</th><th class="num">lost</th>'
               f'<th></th></tr>{rows}</table></div>')
    if r.errors:
        rows = "".join(f'<tr><td>{e(_label(x.reason))}</td><td class="num">{x.count}</td>'
                       f'<td class="num">{_num(x.lost)}</td></tr>' for x in r.errors)
        extra = (f'<p class="small">{r.unnamed} flagged decision{"s" if r.unnamed != 1 else ""} with no named '
                 'fact: the loss alone flags it.</p>' if r.unnamed else "")
        out.append('<div><h2>Most frequent errors</h2><table id="errors"><tr><th>the fact</th>'
                   f'<th class="num">times</th><th class="num">lost</th></tr>{rows}</table>{extra}</div></div>')
    else:
        out.append('<div><h2>Most frequent errors</h2><p class="small">No flagged decision.</p></div></div>')
    if r.worst:
        rows = []
        for k, w in enumerate(r.worst, start=1):
            d = w.decision
            where = d.phase if d.phase != "card" else f"trick {d.trick}"
            rows.append(f'<tr><td class="num">{k}</td><td><a class="goto" href="{w.link}">{e(_deal_label(w))}'
                        f'</a></td><td>{where}</td><td><b>{e(d.played)}</b></td><td>{e(_best(d.best_group))}</td>'
                        f'<td class="num">{d.loss.mean:.1f} &plusmn; {d.loss.se:.1f}</td>'
                        f'<td><span class="verdict {d.verdict}">{d.verdict}</span></td>'
                        f'<td>{e("; ".join(_label(x) for x in d.reasons))}</td></tr>')
        out.append('<h2>Worst decisions</h2><p class="small">A click opens the replay board below at that '
                   'moment, from the player&rsquo;s seat.</p><div class="scroll"><table id="worst"><tr><th class="num">#'
                   '</th><th>deal</th><th>when</th><th>played</th><th>best</th><th class="num">lost</th>'
                   f'<th>verdict</th><th>facts</th></tr>{"".join(rows)}</table></div>')
    rows = "".join(f'<tr><td><a class="goto" href="{d.link}">{e(_deal_label(d))}</a></td><td class="num">{d.seat + 1}'
                   f'</td><td>{e(d.contract or "all passed")}</td><td>{e(d.role)}</td>'
                   f'<td class="num">{"&mdash;" if d.score is None else f"{d.score:+.0f}"}</td>'
                   f'<td class="num">{d.judged}</td><td class="num">{d.flagged}</td><td class="num">{_num(d.lost)}</td>'
                   f'<td class="num">{_pct(d.accuracy)}</td><td class="bar"><span style="width:'
                   f'{0 if d.accuracy is None else round(d.accuracy)}%"></span></td></tr>' for d in r.deals)
    out.append('<h2>Every deal</h2><div class="scroll deals"><table id="deals"><tr><th>deal</th><th class="num">seat'
               '</th><th>contract</th><th>role</th><th class="num">score</th><th class="num">judged</th>'
               '<th class="num">flagged</th><th class="num">lost</th><th class="num">accuracy</th><th></th></tr>'
               f'{rows}</table></div>')
    out.append('<p class="small">Losses in contract points (the seat&rsquo;s own score divided by its share and the '
               'contract&rsquo;s multiplier), summed over the judged decisions; accuracy = 100 &times; '
               'exp(&minus;mean loss per judged decision / 5), over every judged decision of the deals for the '
               'total. docs/coaching.md says how each figure is computed.</p></section>\n')
    return "".join(out)


def _label(reason: str) -> str:
    from analyzer.coach.reasons import LABELS
    return LABELS[reason]


def _verdict_count(verdict: str, n: int) -> str:
    plural = "inaccuracies" if verdict == "inaccuracy" else verdict + "s"
    return f"{n} {verdict if n == 1 else plural}"


def _width(part: float, whole: float) -> int:
    return 0 if whole <= 0 else max(0, min(100, round(100 * part / whole)))


def player_page(report, reports: list[DealReport]) -> str:
    """One self-contained page for a player across deals: the player's figures, then the replay board of
    every deal it sat in (``reports``, in the report's order), the worst decisions and the deals linked to
    the board's steps."""
    labels = [f"{d.deal}. {_deal_label(d)} (seat {d.seat + 1})" for d in report.deals]
    return report_page(reports, labels=labels, title=f"{report.player} across deals", before=player_section(report),
                       css=_asset("player.css"), script=_asset("player.js"))
