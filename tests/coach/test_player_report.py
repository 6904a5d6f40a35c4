"""One player across deals (analyzer.coach.player_report): the figures from constructed reports, exact;
where the player sits and what is skipped; the board's addresses of its decisions."""

import dataclasses
import math
from pathlib import Path

import pytest

from analyzer.coach.deal import DealReport
from analyzer.coach.many_deals import InputDeal, deal_seed, load_deals, record_paths, InputError
from analyzer.coach.player_report import (PlayerError, anchor, board_step, player_report, seat_of,
                                          seat_player)
from analyzer.coach.verdicts import Decision, Option
from analyzer.records import load_records
from analyzer.stats import Mean

DATA = Path(__file__).resolve().parents[2] / "data" / "records"
FOUR = load_records(DATA / "four-players.txt")[0]         # Ana seat 1 (garde taker, +258), Bruno seat 2


def judged(phase, trick, played, loss_score, se=0.0, scale=6.0, reasons=(), best="best"):
    """A judged decision whose choice made loses ``loss_score`` of the seat's own score (± ``se``)."""
    n = 400
    options = [Option(best, Mean(100.0, 1.0, n), None, Mean(0.0, 0.0, n))]
    if played != best:
        options.append(Option(played, Mean(100.0 - loss_score, 1.0, n), None, Mean(-loss_score, se, n)))
    else:
        options.append(Option("other", Mean(50.0, 1.0, n), None, Mean(-50.0, 1.0, n)))
    return Decision(0, phase, trick, played, options, scale=scale, reasons=tuple(reasons))


def deal(position, number, record=FOUR, source="four-players.txt"):
    return InputDeal(position, source, number, record.check())


@pytest.fixture(scope="module")
def report():
    first = [judged("bid", None, "garde", 0.0, best="garde"),
             judged("discard", None, "5H QD JD 8D 4D 1D", 12.0, se=2.0),      # 2.0 lost: under the inaccuracy
             judged("card", 1, "KH", 30.0, se=2.0, reasons=["honour_given"]),     # 5.0: an inaccuracy made a mistake
             judged("card", 2, "1", 120.0, se=6.0, reasons=["petit_captured", "outcome_turned"]),   # 20.0: blunder
             judged("card", 3, "1C", 7.2, se=6.0),                            # 1.2 within noise: not flagged
             Decision(0, "card", 4, "7", note="forced")]                      # not judged
    second = [judged("card", 1, "KH", 96.0, se=6.0, reasons=["honour_given"])]   # 16.0: blunder
    reports = [DealReport(0, 4, first, "heuristic", 400), DealReport(1, 4, second, "heuristic", 400)]
    return player_report("Ana", [(deal(0, 1), 0, reports[0]), (deal(1, 2), 0, reports[1])], not_seated=3,
                         hand_unknown=1)


def test_totals_are_sums_over_the_judged_decisions_of_every_deal(report):
    assert len(report.deals) == 2 and report.not_seated == 3 and report.hand_unknown == 1
    assert report.judged == 6 and report.flagged == 3
    assert report.verdicts == {"inaccuracy": 0, "mistake": 1, "blunder": 2}
    assert report.lost == pytest.approx(2.0 + 5.0 + 20.0 + 1.2 + 16.0)
    assert report.lost_per_deal == pytest.approx(44.2 / 2)
    # accuracy on the six judged decisions pooled, not the mean of the deals' accuracies
    assert report.accuracy == pytest.approx(100 * math.exp(-44.2 / 6 / 5))


def test_each_deal_has_its_own_accuracy_and_context(report):
    one, two = report.deals
    assert (one.judged, one.flagged, two.judged, two.flagged) == (5, 2, 1, 1)
    assert one.lost == pytest.approx(28.2) and two.lost == pytest.approx(16.0)
    assert one.accuracy == pytest.approx(100 * math.exp(-28.2 / 5 / 5))
    assert two.accuracy == pytest.approx(100 * math.exp(-16.0 / 5))
    assert (one.contract, one.role, one.score, one.seat) == ("garde", "taker", 258.0, 0)
    assert (one.link, two.link) == ("#d1-t0-c0-s1", "#d2-t0-c0-s1")


def test_losses_by_phase_gather_the_declarations(report):
    by = {p.phase: (p.judged, p.flagged, round(p.lost, 9)) for p in report.phases}
    assert list(by) == ["bid", "call", "discard", "poignee_chelem", "card"]
    assert by == {"bid": (1, 0, 0.0), "call": (0, 0, 0.0), "discard": (1, 0, 2.0), "poignee_chelem": (0, 0, 0.0),
                  "card": (4, 3, 42.2)}
    assert sum(p.lost for p in report.phases) == pytest.approx(report.lost)


def test_named_errors_most_frequent_first_ties_by_loss_then_by_the_list(report):
    assert [(e.reason, e.count, round(e.lost, 9)) for e in report.errors] == [
        ("honour_given", 2, 21.0), ("petit_captured", 1, 20.0), ("outcome_turned", 1, 20.0)]
    assert report.unnamed == 0


def test_worst_decisions_by_loss_with_the_board_s_address(report):
    worst = [(w.decision.played, round(w.decision.loss.mean, 9), w.deal, w.link) for w in report.worst]
    assert worst == [("1", 20.0, 1, "#d1-t2-c4-s1"), ("KH", 16.0, 2, "#d2-t1-c1-s1"), ("KH", 5.0, 1, "#d1-t1-c1-s1")]
    assert [w.decision.verdict for w in report.worst] == ["blunder", "blunder", "mistake"]
    short = player_report("Ana", [(deal(0, 1), 0, DealReport(0, 4, [judged("card", 1, "KH", 96.0, se=6.0)],
                                                             "heuristic", 400))], worst=0)
    assert short.worst == [] and short.flagged == 1 and short.unnamed == 1


def test_the_summary_object_is_plain_data(report):
    d = report.as_dict()
    assert d["player"] == "Ana" and d["deals"] == 2 and d["not_seated"] == 3 and d["judged"] == 6
    assert [x["phase"] for x in d["by_phase"]] == ["bid", "call", "discard", "poignee_chelem", "card"]
    assert d["worst"][0]["link"] == "#d1-t2-c4-s1" and d["worst"][0]["reason_labels"]
    assert [x["deal"] for x in d["per_deal"]] == [1, 2]


def test_board_steps_and_addresses():
    # trick 2 of four-players.txt is "2: KS 9S CS 1": seat 1's 1 is the 8th card, trick 2, its 4th
    one = Decision(0, "card", 2, "1")
    assert board_step(one, FOUR, 4) == 8 and anchor(3, 8, 4, 1) == "#d3-t2-c4-s1"
    assert board_step(Decision(0, "bid", None, "garde"), FOUR, 4) == 0 and anchor(1, 0, 4) == "#d1-t0-c0"
    assert anchor(2, 5, 4) == "#d2-t2-c1" and anchor(2, 4, 4) == "#d2-t1-c4" and anchor(1, 6, 5) == "#d1-t2-c1"


# ---- where the player sits ---------------------------------------------------------------------------

def named(record, **seats):
    tags = {k: v for k, v in record.tags.items() if not k.startswith("Seat")}
    tags |= {f"Seat{s[4:]}": name for s, name in seats.items()}
    return dataclasses.replace(record, tags=tags)


def test_the_seat_is_the_one_whose_name_tag_is_the_player():
    deals = [deal(0, 1, named(FOUR, seat1="Ana", seat2="Bruno")), deal(1, 2, named(FOUR, seat3="Ana")),
             deal(2, 3, named(FOUR, seat2="Bruno")), deal(3, 4, named(FOUR)),
             deal(4, 5, named(FOUR, seat4=" ana "))]                       # spaces and letter case aside
    seating = seat_player(deals, "Ana")
    assert [(d.number, s) for d, s in seating.seated] == [(1, 0), (2, 2), (5, 3)]
    assert (seating.not_seated, seating.hand_unknown, seating.name) == (2, 0, "Ana")
    assert seat_player(deals, "BRUNO").name == "Bruno"


def test_a_seat_whose_hand_the_record_does_not_give_is_skipped_and_counted():
    one_seat = load_records(DATA / "one-seat.txt")[0]              # only Bruno's hand (seat 2)
    deals = [deal(0, 1, named(one_seat, seat1="Ana", seat2="Bruno")), deal(1, 2, named(FOUR, seat1="Ana"))]
    seating = seat_player(deals, "Ana")
    assert [d.number for d, _ in seating.seated] == [2] and seating.hand_unknown == 1
    with pytest.raises(PlayerError, match="no record of them gives the player's hand"):
        seat_player(deals[:1], "Ana")


def test_a_name_no_deal_seats_is_an_error_naming_it_and_the_names_there():
    deals = [deal(0, 1, named(FOUR, seat1="Ana", seat2="Bruno"))]
    with pytest.raises(PlayerError, match=r"--player 'Zoé': no deal of the input seats this player \(names there: "
                                          r"Ana, Bruno\)"):
        seat_player(deals, "Zoé")
    with pytest.raises(PlayerError, match="no record names its seats"):
        seat_player([deal(0, 1, named(FOUR))], "Ana")
    with pytest.raises(PlayerError, match="seats 1 and 3"):
        seat_of(deal(0, 1, named(FOUR, seat1="Ana", seat3="ana")), "Ana")


# ---- many files ----------------------------------------------------------------------------------------

def test_a_folder_is_its_record_files_in_name_order(tmp_path):
    text = (DATA / "four-players.txt").read_text(encoding="utf-8")
    for name in ("b.txt", "a.TXT", "c.json.bak", ".hidden.txt", "notes.md"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "sub.txt").mkdir()
    assert [Path(p).name for p in record_paths([str(tmp_path)])] == ["a.TXT", "b.txt"]
    deals = load_deals([str(tmp_path), str(DATA / "three-players.txt")])
    assert [(d.position, d.source, d.number) for d in deals] == [(0, "a.TXT", 1), (1, "b.txt", 1),
                                                                 (2, "three-players.txt", 1)]
    with pytest.raises(InputError, match="no record file"):
        record_paths([str(tmp_path / "sub.txt")])
    with pytest.raises(InputError, match="missing.txt: no such file or folder"):
        record_paths([str(tmp_path / "missing.txt")])


def test_a_deal_s_seed_depends_on_its_place_and_the_run_s_seed_only():
    assert deal_seed(7, 0) == 7                      # a file of one deal: the report it always had
    seeds = {deal_seed(7, k) for k in range(1000)} | {deal_seed(8, k) for k in range(1000)}
    assert len(seeds) == 2000 and all(0 <= s < 2**63 for s in seeds)
    assert deal_seed(2**63 - 1, 5) == (2**63 - 1 + 5 * 0x632BE59BD9B4E019) % 2**63
