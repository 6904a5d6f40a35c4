"""Duplicate matches: a policy against itself gains exactly nothing; the heuristic beats random play."""

import json

from click.testing import CliRunner

from analyzer.quality.match import run_match
from cli.main import main


def test_a_policy_against_itself_is_exactly_even():
    r = run_match("heuristic", "heuristic", 200, players=4, seed=3)
    assert r.mean_diff == 0 and r.se == 0
    assert r.deals + r.skipped == 200


def test_heuristic_beats_random_at_every_player_count():
    for players in (3, 4, 5):
        r = run_match("heuristic", "random", 300, players=players, seed=players)
        assert r.ci95[0] > 0, r


def test_same_seed_same_result_whatever_the_threads():
    assert run_match("heuristic", "random", 200, seed=5, jobs=1) == run_match("heuristic", "random", 200, seed=5, jobs=2)


def test_cli_json_keys_and_bad_policy():
    runner = CliRunner()
    result = runner.invoke(main, ["match", "--a", "pimc", "--b", "heuristic", "--deals", "4", "--worlds", "2",
                                  "--seed", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"mean_diff", "se", "ci95", "deals", "skipped"} <= data.keys()
    bad = runner.invoke(main, ["match", "--a", "genius", "--b", "random"])
    assert bad.exit_code != 0 and "genius" in bad.output and "Traceback" not in bad.output


def test_chunking_never_changes_the_deals(monkeypatch):
    whole = run_match("heuristic", "random", 40, seed=9, jobs=1)
    monkeypatch.setattr("analyzer.quality.match.CHUNK", 7)
    calls = []
    cut = run_match("heuristic", "random", 40, seed=9, jobs=1, progress=lambda done, total: calls.append((done, total)))
    assert cut == whole
    assert calls == [(min(d, 40), 40) for d in range(7, 47, 7)]


def test_cli_quiet_json_has_only_json_on_stdout():
    result = CliRunner().invoke(main, ["match", "--a", "random", "--b", "random", "--deals", "20", "--quiet",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deals"] + json.loads(result.stdout)["skipped"] == 20
