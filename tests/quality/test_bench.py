"""bench prints the figures the kernels issue asks for (values are not judged: machines are noisy)."""

import json

from click.testing import CliRunner

from cli.main import main


def test_bench_reports_every_figure():
    result = CliRunner().invoke(main, ["bench", "--quick", "--jobs", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    for key in ("deals_per_s", "random_playouts_per_s", "heuristic_playouts_per_s", "threads", "first_call_s",
                "pimc_deal_s", "pimc_uniform_deal_s", "endgame_ms_5_tricks", "endgame_ms_6_tricks"):
        assert figures[key] > 0
    assert "pimc_plays_deal_s" not in figures       # a yardstick's search, compiled by the full bench only
    assert figures["threads"] == 1
