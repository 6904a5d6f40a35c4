"""``tarot-analyzer bench``: the kernels' speed on this machine."""

from __future__ import annotations

import click

from analyzer.bench import run_bench
from cli.options import echo_json, format_option
from cli.progress import compile_notice

LABELS = {
    "deals_per_s": "deals / s (4 players, one hand fixed, petit sec excluded)",
    "random_playouts_per_s": "random playouts / s (4 players, deal included, scored)",
    "heuristic_playouts_per_s": "heuristic playouts / s (4 players, deal included, scored)",
    "pimc_deal_s": "one 4-player deal, every seat on PIMC (s)",
    "pimc_uniform_deal_s": "the same, PIMC without the endgame solver (s)",
    "pimc_plays_deal_s": "the same, worlds resampled by the cards played (s)",
    "endgame_ms_5_tricks": "exact endgame, 4 players, 5 tricks left, median (ms)",
    "endgame_ms_6_tricks": "exact endgame, 4 players, 6 tricks left, median (ms)",
    "endgame_ms_7_tricks": "exact endgame, 4 players, 7 tricks left, median (ms)",
    "endgame_ms_8_tricks": "exact endgame, 4 players, 8 tricks left, median (ms)",
    "first_call_s": "first call in a fresh process (s)",
    "threads": "threads",
    "cpu_count": "processor cores",
}


@click.command()
@click.option("--jobs", type=click.IntRange(1, None), help="Threads (default: all available).")
@click.option("--quick", is_flag=True, help="Small sizes: a smoke test, not a measurement.")
@format_option("table", "json")
def bench(jobs, quick, fmt) -> None:
    """Throughput of the deal sampler and the playout kernels, and the first-call time."""
    with compile_notice():
        figures = run_bench(jobs, quick)
    if fmt == "json":
        echo_json(figures)
        return
    for line in table_lines(figures):
        click.echo(line)


def table_lines(figures: dict) -> list[str]:
    """One line per figure.  On one thread the one-thread throughputs are the throughputs: each is shown
    once (the JSON keeps both keys)."""
    lines = []
    for key, value in figures.items():
        if key.endswith("_1_thread") and figures.get("threads") == 1:
            continue
        base = key.removesuffix("_1_thread")
        label = LABELS.get(base, key)
        if key.endswith("_1_thread"):
            label += ", 1 thread"
        lines.append(f"{label:<62} {value:>12,}" if isinstance(value, int) else f"{label:<62} {value:>12}")
    return lines
