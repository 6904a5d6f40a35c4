"""The coaching report as one self-contained HTML page: a section per deal with the hands, the
auction, every trick as a row of cards with the judged decisions' verdicts, a chart of the contract's
chances decision after decision (matplotlib, embedded as SVG), and the summary per seat.

Nothing is fetched from the network: the style sheet and the charts are inside the page.
"""

from __future__ import annotations

import html
import io

from analyzer import cards as C
from analyzer.coach.deal import DealReport
from analyzer.coach.verdicts import THRESHOLDS, Decision
from analyzer.notation import sort_key

COLOURS = {"blunder": "#c0392b", "mistake": "#e67e22", "inaccuracy": "#d4ac0d"}
RED_SUITS = (1, 2)                      # hearts, diamonds

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px;
       color: #222; background: #fafafa; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0; }
td, th { padding: .25em .6em; border-bottom: 1px solid #e3e3e3; text-align: left; vertical-align: top; }
th { background: #eee; }
.card { display: inline-block; min-width: 2.2em; padding: .1em .3em; margin: 0 .1em; border: 1px solid #bbb;
        border-radius: 4px; background: #fff; text-align: center; font-weight: 600; }
.red { color: #c0392b; } .trump { color: #1f4e9a; }
.taker { font-weight: 700; }
.verdict { font-size: .85em; padding: .05em .4em; border-radius: 3px; color: #fff; }
.blunder { background: #c0392b; } .mistake { background: #e67e22; } .inaccuracy { background: #d4ac0d; }
.card.blunder, .card.mistake, .card.inaccuracy { color: #fff; }
.note { color: #666; font-size: .9em; }
.legend span { margin-right: 1.2em; }
"""


def card_html(card: int, verdict: str | None = None) -> str:
    token = C.TOKENS[card]
    suit = C.suit_of(card)
    cls = ["card"]
    if verdict:
        cls.append(verdict)
    elif suit in RED_SUITS:
        cls.append("red")
    elif suit == 4:
        cls.append("trump")
    if suit < C.N_SUITS:
        token = token[:-1] + C.SUIT_SYMBOLS[suit]
    return f'<span class="{" ".join(cls)}">{html.escape(token)}</span>'


def cards_html(mask: int) -> str:
    return " ".join(card_html(c) for c in sorted(C.cards_of(mask), key=sort_key)) if mask else "—"


def chances_chart(report: DealReport) -> str:
    """An SVG line chart of the contract's chance of being made after each judged decision (as the
    deciding seat saw it), flagged decisions marked by verdict."""
    import matplotlib           # here, not at the top: half a second at every command's start otherwise
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [(i, d) for i, d in enumerate(d for d in report.decisions if d.judged)
              if d.made_option is not None and d.made_option.made is not None]
    fig, ax = plt.subplots(figsize=(10, 3.2), dpi=100)
    if points:
        xs = [i + 1 for i, _ in points]
        ys = [100 * d.made_option.made.p for _, d in points]
        ax.plot(xs, ys, color="#1f4e9a", linewidth=1.6, marker="o", markersize=3, label="after the choice made")
        for (i, d), y in zip(points, ys):
            if d.verdict:
                ax.scatter([i + 1], [y], s=70, color=COLOURS[d.verdict], zorder=3, edgecolor="black")
                ax.annotate(f"{d.seat + 1}: {d.played}", (i + 1, y), textcoords="offset points", xytext=(0, 8),
                            ha="center", fontsize=8)
    ax.set_ylim(-3, 103)
    ax.set_ylabel("contract made (%)")
    ax.set_xlabel("judged decision")
    ax.grid(alpha=0.3)
    for name, colour in COLOURS.items():
        ax.scatter([], [], color=colour, edgecolor="black", label=name)
    ax.legend(loc="lower left", fontsize=8, ncol=4, frameon=False)
    fig.tight_layout()
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "tarot-analyzer", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg"):]


def _decision_lookup(report: DealReport) -> dict[tuple[int, int, str], Decision]:
    return {(d.trick, d.seat, d.played): d for d in report.decisions if d.phase == "card"}


def deal_section(report: DealReport, record) -> str:
    game = record.game
    players = record.players
    taker = game.taker
    out = [f"<h2>Deal {report.index + 1}</h2>"]
    contract = game.contract.token if game.contract else "none (all passed)"
    called = f", calling {C.TOKENS[game.called_card]}" if game.called_card is not None else ""
    who = f"seat {taker + 1} takes {contract}{called}" if taker is not None else contract
    out.append(f"<p>{players} players; {html.escape(who)}. Judged with {html.escape(report.policy)} play, "
               f"{report.worlds} worlds per card.</p>")
    out.append("<table><tr><th>seat</th><th>hand as dealt</th><th>bid</th></tr>")
    bids = list(game.bids) + [None] * (players - len(game.bids))
    for s in range(players):
        cls = ' class="taker"' if s == taker else ""
        bid = "pass" if bids[s] is None else bids[s].token
        out.append(f"<tr><td{cls}>{s + 1}</td><td>{cards_html(record.dealt[s])}</td><td>{bid}</td></tr>")
    out.append(f"<tr><td>chien</td><td>{cards_html(record.dealt_chien or 0)}</td><td></td></tr></table>")
    before = [d for d in report.decisions if d.phase != "card"]
    if before:
        out.append("<h3>Before the play</h3><table><tr><th>seat</th><th>decision</th><th>made</th><th>best</th>"
                   "<th>points lost</th><th>verdict</th></tr>")
        for d in before:
            out.append(_decision_row(d, d.phase))
        out.append("</table>")
    lookup = _decision_lookup(report)
    out.append("<h3>The play</h3><table><tr><th>trick</th><th>cards (leader first)</th>"
               "<th>judged decisions</th></tr>")
    for t, trick in enumerate(game.tricks, start=1):
        cells, notes = [], []
        for seat, card in zip(trick.seats, trick.cards):
            d = lookup.get((t, seat, C.TOKENS[card]))
            verdict = d.verdict if d else None
            cls = ' class="taker"' if seat == taker else ""
            cells.append(f"<span{cls}>{seat + 1}:</span>{card_html(card, verdict)}")
            if d and d.verdict:
                notes.append(f'<span class="verdict {d.verdict}">{d.verdict}</span> seat {seat + 1} played '
                             f"{html.escape(d.played)}, best {html.escape(d.best.choice)} "
                             f"(−{d.loss.mean:.0f} ± {d.loss.se:.0f})")
        out.append(f"<tr><td>{t}</td><td>{' '.join(cells)}</td><td>{'<br>'.join(notes)}</td></tr>")
    out.append("</table>")
    out.append("<h3>The contract's chances, decision after decision</h3>")
    out.append(chances_chart(report))
    out.append("<h3>Summary</h3><table><tr><th>seat</th><th>judged</th><th>points lost</th><th>inaccuracies</th>"
               "<th>mistakes</th><th>blunders</th><th>accuracy</th></tr>")
    for seat, s in report.summary().items():
        acc = "—" if s.accuracy is None else f"{s.accuracy:.0f}%"
        out.append(f"<tr><td>{seat + 1}</td><td>{s.judged}</td><td>{s.points_lost:.1f}</td>"
                   f"<td>{s.verdicts['inaccuracy']}</td><td>{s.verdicts['mistake']}</td>"
                   f"<td>{s.verdicts['blunder']}</td><td>{acc}</td></tr>")
    out.append("</table>")
    return "\n".join(out)


def _decision_row(d: Decision, label: str) -> str:
    if not d.judged:
        return (f"<tr><td>{d.seat + 1}</td><td>{label}</td><td>{html.escape(d.played)}</td><td></td><td></td>"
                f'<td class="note">{html.escape(d.note)}</td></tr>')
    verdict = f'<span class="verdict {d.verdict}">{d.verdict}</span>' if d.verdict else ""
    return (f"<tr><td>{d.seat + 1}</td><td>{label}</td><td>{html.escape(d.played)}</td>"
            f"<td>{html.escape(d.best.choice)}</td><td>{d.loss.mean:.1f} ± {d.loss.se:.1f}</td><td>{verdict}</td></tr>")


def report_page(reports: list[DealReport], records) -> str:
    """The whole page for the deals of one file."""
    thresholds = ", ".join(f"{name} from {points:g} points" for name, points in reversed(THRESHOLDS))
    body = [f"<h1>Coaching report: {len(reports)} deal{'s' if len(reports) != 1 else ''}</h1>",
            "<p class=\"legend\">A decision is flagged when the points it lost (the best alternative's expected "
            f"score minus the choice made's, on the same worlds) exceed twice their standard error: {thresholds}. "
            "Scores are the deciding seat's own.</p>"]
    body += [deal_section(r, records[r.index]) for r in reports]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>tarot-analyzer: coaching report</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
