"""Generated command lines (valid and invalid tokens, options and numbers) through the real entry point
(score, summarize, the advice commands, match, compare-bidding and batch, with tiny sizes): every run ends
with exit 0 (strict JSON when JSON is asked for), or with exit 1/2 and one line on stderr, never a
traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import cards as C
from analyzer.rules import HAND_SIZE
from cli.main import main
import pytest

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ADVICE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JUNK = st.sampled_from(["", " ", "x", "-1", "nan", "inf", "1e400", "4_0", "\u0664\u0665", "🂡", "--", "é", "0x10",
                        "\udcff", "9" * 30, "a" * 300]) | st.text(max_size=6)
CONTRACTS = st.sampled_from(["prise", "garde", "garde-sans", "garde-contre", "Garde", "GARDE_SANS", "petite",
                             "garde contre", "guard", "gard"]) | JUNK
SIDES = st.sampled_from(["taker", "defence", "defense", "Taker", "attack", "nobody"]) | JUNK
LEVELS = st.sampled_from(["simple", "double", "triple", "Double", "quadruple"]) | JUNK
CHELEMS = st.sampled_from(["made", "announced-made", "announced-failed", "defence", "petit-announced-made",
                           "petit-announced-failed", "MADE", "maybe"]) | JUNK
VARIANTS = st.sampled_from(["petit-au-bout=flat", "poignee-values=20-40-60", "chelem=petit-chelem", "misere=on",
                            "all-pass=goulash", "petit-sec=play", "colour=red", "chelem", "=", "chelem=grand"])
PLAYERS = st.sampled_from(["3", "4", "5"]) | st.sampled_from(["2", "6", "four"])
FORMATS = st.sampled_from(["table", "json", "csv", "xml"])


def half_points_text(hp: int) -> str:
    return f"{hp / 2:g}"


POINTS = st.integers(0, 182).map(half_points_text) | st.integers(-3, 200).map(str) | JUNK


def _not_json(constant: str):
    raise AssertionError(f"{constant} in a JSON output")


def assert_clean(result, args: list[str]) -> None:
    """Exit 0 (with strict JSON when asked for JSON), or exit 1/2 with exactly one line on stderr; never an
    exception that escaped."""
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{type(result.exception).__name__}: {result.exception}"
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        if "json" in args and args[args.index("json") - 1] == "--format":
            json.loads(result.stdout, parse_constant=_not_json)
        return
    assert result.exit_code in (1, 2), result.exit_code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(("Error:", "Aborted!")), lines[0]


def invoke(args: list[str]):
    return CliRunner().invoke(main, args)


def option(name: str, values) -> st.SearchStrategy[list[str]]:
    """``[name, value]`` or nothing."""
    return st.one_of(st.just([]), values.map(lambda v: [name, v]))


@st.composite
def score_args(draw) -> list[str]:
    args = ["score"]
    args += draw(option("--players", PLAYERS))
    args += draw(option("--contract", CONTRACTS))
    args += draw(option("--oudlers", st.integers(-1, 4).map(str) | JUNK))
    args += draw(option("--points", POINTS))
    args += draw(option("--petit-au-bout", SIDES))
    for _ in range(draw(st.integers(0, 3))):
        args += ["--poignee", f"{draw(SIDES)}:{draw(LEVELS)}" if draw(st.booleans()) else draw(JUNK)]
    args += draw(option("--chelem", CHELEMS))
    if draw(st.booleans()):
        args.append("--alone")
    for _ in range(draw(st.integers(0, 2))):
        args += ["--variant", draw(VARIANTS)]
    args += draw(option("--format", FORMATS))
    return args


@st.composite
def plausible_score_args(draw) -> list[str]:
    """Only well-formed options: the summary's contradictions, not its spelling, are under test."""
    players = draw(st.sampled_from(["3", "4", "5"]))
    args = ["score", "--players", players, "--contract", draw(st.sampled_from(["prise", "garde", "garde-sans",
                                                                                 "garde-contre"])),
            "--oudlers", str(draw(st.integers(0, 3))), "--points", half_points_text(draw(st.integers(0, 182)))]
    args += draw(option("--petit-au-bout", st.sampled_from(["taker", "defence"])))
    for _ in range(draw(st.integers(0, 3))):
        args += ["--poignee", f"{draw(st.sampled_from(['taker', 'defence']))}:"
                              f"{draw(st.sampled_from(['simple', 'double', 'triple']))}"]
    args += draw(option("--chelem", st.sampled_from(["made", "announced-made", "announced-failed", "defence"])))
    if players == "5" and draw(st.booleans()):
        args.append("--alone")
    return args + ["--format", draw(st.sampled_from(["table", "json"]))]


@FAST
@given(score_args())
def test_score_never_ends_in_a_traceback(args):
    assert_clean(invoke(args), args)


@FAST
@given(plausible_score_args())
def test_score_accepts_or_names_the_contradiction(args):
    result = invoke(args)
    assert_clean(result, args)
    if result.exit_code:
        assert "impossible" in result.stderr or "whole" in result.stderr, result.stderr
    elif "json" in args and "--chelem" in args:
        # what an accepted chelem says about the contract: every trick to the taker's side wins it,
        # every trick to the defence loses it
        chelem, made = args[args.index("--chelem") + 1], json.loads(result.stdout)["made"]
        if chelem in ("made", "announced-made"):
            assert made
        elif chelem == "defence":
            assert not made


CSV_COLUMNS = ["oudlers", "trumps", "prise_made", "prise_score", "garde_made", "garde_score", "colour"]
CELLS = st.sampled_from(["0", "1", "2", "3", "True", "False", "true", "", "30", "-60.5", "abc", "nan", "inf",
                         "1e5", '"q"', "é"])


@st.composite
def batch_file(draw) -> tuple[str, bytes]:
    """(file name, content): a small CSV with valid and invalid columns and cells, sometimes cut short,
    sometimes named .CSV, .parquet or .txt."""
    columns = draw(st.lists(st.sampled_from(CSV_COLUMNS), min_size=1, max_size=6, unique=True))
    rows = draw(st.lists(st.lists(CELLS, min_size=len(columns), max_size=len(columns)), max_size=5))
    text = ",".join(columns) + "\n" + "".join(",".join(r) + "\n" for r in rows)
    data = text.encode("utf-8")
    if draw(st.booleans()) and len(data) > 2:
        data = data[:draw(st.integers(1, len(data) - 1))]
    name = "batch" + draw(st.sampled_from([".csv", ".csv", ".CSV", ".parquet", ".txt"]))
    return name, data


@FAST
@given(batch_file(), st.lists(st.sampled_from(CSV_COLUMNS + ["contract", "n", ""]), max_size=3),
       option("--contract", CONTRACTS), option("--format", FORMATS))
def test_summarize_never_ends_in_a_traceback(file, by, contract, fmt):
    name, data = file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        args = ["summarize", str(path), "--by", ",".join(by)] + contract + fmt
        assert_clean(invoke(args), args)


def mostly(valid, invalid) -> st.SearchStrategy:
    """``valid`` nine times in ten: enough runs get past the checks to reach the simulation."""
    return st.sampled_from(range(10)).flatmap(lambda k: invalid if k == 9 else valid)


@st.composite
def hand_text(draw, players: str) -> str:
    """A hand of the right size for the player count, or sometimes a broken one (wrong size, a
    duplicate, a bad token)."""
    size = HAND_SIZE.get(int(players), 18) if players.isdigit() else 18
    cards = list(draw(st.permutations(C.TOKENS))[:size + draw(mostly(st.just(0), st.sampled_from([-3, -1, 1])))])
    if cards and draw(st.integers(0, 9)) == 0:
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(["22", "ZS", "EX", "1", "K♠", "KS"]))
    return " ".join(cards)


@st.composite
def advice_args(draw) -> list[str]:
    command = draw(st.sampled_from(["odds", "bid", "poignee", "chelem", "call", "discard"]))
    players = draw(mostly(st.just("5") if command == "call" else st.sampled_from(["3", "4", "5"]), PLAYERS))
    hand = draw(hand_text(players))
    count = int(players) if players in ("3", "4", "5") else 4
    seat = draw(mostly(st.integers(1, count), st.integers(0, 6)))
    args = [command, hand, "--players", players, "--seat", str(seat)]
    deals = draw(st.integers(10, 12) if command == "discard" else st.integers(1, 3))
    args += ["--deals", str(deals), "--seed", str(draw(st.integers(0, 5)))]
    args += ["--policy", draw(mostly(st.sampled_from(["heuristic", "random"]), st.just("genius")))]
    if command == "bid":
        bids = st.lists(st.sampled_from(["pass", "pass", "prise", "garde", "Garde", "garde-sans"]),
                        min_size=max(seat - 1, 0), max_size=max(seat - 1, 0))
        args += ["--bids", ",".join(draw(mostly(bids, st.lists(st.sampled_from(["x", "pass", ""]), max_size=5))))]
    if command in ("poignee", "chelem", "call", "discard"):
        valid = st.sampled_from(["prise", "garde"] if command == "discard" else ["prise", "garde", "garde-sans"])
        args += ["--contract", draw(mostly(valid, CONTRACTS))]
    if command == "discard":
        chien_size = 3 if players == "5" else 6
        chien = [c for c in draw(st.permutations(C.TOKENS)) if c not in hand.split()]
        args += ["--chien", " ".join(chien[:draw(mostly(st.just(chien_size), st.integers(0, 7)))])]
    else:
        args.append("--quiet")
    if draw(st.integers(0, 3)) == 0:
        args += ["--variant", draw(VARIANTS)]
    return args + ["--format", draw(mostly(st.sampled_from(["table", "json", "csv"]), FORMATS))]


@ADVICE
@given(advice_args())
def test_advice_commands_never_end_in_a_traceback(args):
    assert_clean(invoke(args), args)


@st.composite
def run_args(draw) -> list[str]:
    """match and compare-bidding with tiny sizes, and batch into a file name of any case."""
    command = draw(st.sampled_from(["match", "compare-bidding", "batch"]))
    players = draw(mostly(st.sampled_from(["3", "4", "5"]), PLAYERS))
    args = [command, "--players", players, "--seed", str(draw(st.integers(0, 5)))]
    if command == "match":
        policies = mostly(st.sampled_from(["heuristic", "random"]), st.sampled_from(["pimc", "genius"]))
        deals = draw(mostly(st.sampled_from(["1", "2"]), JUNK))
        args += ["--a", draw(policies), "--b", draw(policies), "--deals", deals, "--worlds", "1", "--rollouts", "1"]
    elif command == "compare-bidding":
        args += ["--hands", draw(mostly(st.just("1"), JUNK)), "--deals", draw(mostly(st.just("10"), JUNK))]
    else:
        args += ["--deals", draw(mostly(st.sampled_from(["1", "3"]), JUNK)), "--quiet",
                 "--chunk-size", draw(mostly(st.sampled_from(["1", "2", "5"]), JUNK)),
                 "--contracts", draw(mostly(st.sampled_from(["garde", "Prise,garde_sans"]), CONTRACTS))]
        if draw(st.integers(0, 4)) == 0:
            args += ["--scheduler", draw(st.sampled_from(["http:" "//h:1", "tcp://h", "tcp://[::1", "h:x"]))]
    if command != "batch":
        args += ["--format", draw(mostly(st.sampled_from(["table", "json"]), FORMATS))]
    return args


@ADVICE
@given(run_args(), st.sampled_from(["out.csv", "OUT.CSV", "out.Parquet", "out.txt"]))
def test_run_commands_never_end_in_a_traceback(args, name):
    with tempfile.TemporaryDirectory() as folder:
        if args[0] == "batch":
            args = args + ["--out", str(Path(folder) / name)]
        assert_clean(invoke(args), args)
