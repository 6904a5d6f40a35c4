"""What a user reads: no nan and no "1 deals" in tables, an annulled deal said so, each bench figure
once, help lines that fit a terminal, and README examples whose files an earlier command creates."""

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.support.hands import FFT_HAND

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_bench_on_one_thread_shows_each_figure_once(monkeypatch):
    import cli.bench
    figures = {"first_call_s": 1.5, "pimc_deal_s": 0.2, "deals_per_s_1_thread": 1000,
               "random_playouts_per_s_1_thread": 500, "heuristic_playouts_per_s_1_thread": 100,
               "deals_per_s": 1000, "random_playouts_per_s": 500, "heuristic_playouts_per_s": 100, "threads": 1,
               "cpu_count": 2}
    monkeypatch.setattr(cli.bench, "run_bench", lambda jobs, quick: dict(figures))
    result = run("bench", "--jobs", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    labels = [line[:62].strip() for line in lines]
    assert len(labels) == len(set(labels)), result.output
    assert len(lines) == len(figures) - 3 and not any("1 thread" in line for line in lines)
    assert not any(label == "cpu_count" for label in labels)


def test_bench_on_two_threads_shows_both(monkeypatch):
    import cli.bench
    figures = {"deals_per_s_1_thread": 1000, "deals_per_s": 1900, "threads": 2}
    monkeypatch.setattr(cli.bench, "run_bench", lambda jobs, quick: dict(figures))
    lines = run("bench").output.splitlines()
    assert len(lines) == 3 and "1 thread" in lines[0] and "1,900" in lines[1]


def test_match_help_fits_a_terminal():
    result = run("match", "-h")
    assert result.exit_code == 0
    longest = max(result.output.splitlines(), key=len)
    assert len(longest) <= 80, longest
    assert "pimc-fixed" in result.output                      # every policy still named


def test_match_of_one_deal_shows_no_nan(monkeypatch):
    import cli.match
    from analyzer.quality.match import MatchResult
    nan = float("nan")
    one = MatchResult("heuristic", "random", 4, 12.0, nan, (nan, nan), 1, 0, {})
    monkeypatch.setattr(cli.match, "run_match", lambda *args: one)
    result = run("match", "--a", "heuristic", "--b", "random", "--deals", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert "nan" not in result.output and "1 deals" not in result.output
    assert "1 deal played" in result.output and "+12.0" in result.output
    none = MatchResult("heuristic", "random", 4, nan, nan, (nan, nan), 0, 1, {})
    monkeypatch.setattr(cli.match, "run_match", lambda *args: none)
    result = run("match", "--a", "heuristic", "--b", "random", "--deals", "1", "--quiet")
    assert "nan" not in result.output and "0 deals played (1 skipped" in result.output


def test_compare_play_table_of_one_deal_shows_no_nan(capsys):
    from analyzer.quality.compare_play import Group
    from cli.compare_play import _table
    nan = float("nan")

    class One:
        players, deals, play, skipped, worlds, eval_worlds, seconds = 4, 1, "heuristic", 0, 8, 16, 0.5

        def totals(self):
            return [Group("taker", "all decisions", 10, 1, 3.0, nan, 3.0, nan)]

        def groups(self, by):
            return [Group("taker", "card: trump/suit", 1, 1, 3.0, nan, 3.0, nan),
                    Group("taker", "card: suit/suit", 0, 0, nan, nan, 0.0, nan)]

    _table(One(), "situation", 15)
    out = capsys.readouterr().out
    assert "nan" not in out and "1 deals" not in out and "1 deal played" in out


def test_summarize_of_one_row_groups_shows_no_nan(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("oudlers,garde_made,garde_score\n1,True,50\n2,False,-60\n2,True,70\n", encoding="utf-8")
    for fmt in ("table", "csv"):
        result = run("summarize", path, "--by", "oudlers", "--format", fmt)
        assert result.exit_code == 0, result.output
        assert "nan" not in result.output.lower(), result.output


def test_readme_summarizes_a_file_an_earlier_command_writes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [shlex.split(line) for line in readme.splitlines() if line.startswith("tarot-analyzer ")]
    written = set()
    for argv in commands:
        if argv[1] == "summarize":
            assert argv[2] in written, f"README: summarize {argv[2]}, which no earlier command writes"
        written.update(argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--out")
    assert any(argv[1] == "summarize" for argv in commands)


def test_an_annulled_result_is_not_no_taker_yet():
    from analyzer.records.summary import summary_line
    row = {"players": 4, "taker": None, "contract": None, "called": None, "partner": None, "made": None, "by": None,
           "scores": [0, 0, 0, 0], "outcome": "annulled", "stops": None, "known_seats": [1, 2, 3, 4]}
    assert "annulled" in summary_line(row) and "no taker yet" not in summary_line(row)
    assert summary_line(row).endswith("scores 0 0 0 0")


HAND = FFT_HAND
FIVE = "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"


@pytest.mark.kernels
def test_advice_tables_of_one_deal_show_no_nan():
    """One deal has no standard error: a dash, and "1 deal" in the header."""
    for args in (["odds", HAND], ["bid", HAND], ["chelem", HAND],
                 ["call", FIVE, "--players", "5"]):
        result = run(*args, "--policy", "heuristic", "--deals", "1", "--quiet")
        assert result.exit_code == 0, (args, result.output)
        assert "nan" not in result.output and "1 deals" not in result.output, result.output
        assert "1 deal (" in result.output and "–" in result.output, result.output
