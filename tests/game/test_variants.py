"""Rule variants reach the reference engine, the kernels and the commands (docs/rules.md, "Variants")."""

import json
import random

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer import cards as C
from analyzer.game import Game, Outcome, Phase
from analyzer.hand import Hand
from analyzer.records.simulate import simulate_records
from analyzer.rules import Contract, Rules
from analyzer.sampling import sample_deals
from analyzer.simulate import POLICIES, play_deals
from analyzer.simulation.bridge import simulate_contract
from cli.main import main
from tests.support.randomplay import new_random_game

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)


def goulash_game(rng: random.Random, rules: Rules) -> Game:
    """A deal that everybody passes, played at random to the end as a Goulash."""
    game = new_random_game(rng, rules)
    while game.phase is Phase.BIDDING:
        game.bid(None)
    while game.phase is Phase.DECLARE:
        game.declare()
    while game.phase is Phase.PLAY:
        game.play(rng.choice(list(C.cards_of(game.legal_cards()))))
    return game


def test_goulash_excuse_stays_with_an_owner_who_wins_no_trick():
    """Played before the last trick by a seat that then wins nothing, the Excuse stays with its owner
    (4 points to it, 0.5 to the winners of its trick), not with the winners."""
    rules = Rules(players=4, all_pass="goulash")
    rng = random.Random(5)
    found = 0
    for _ in range(3000):
        game = goulash_game(rng, rules)
        assert game.outcome is Outcome.GOULASH
        trick = next((t for t in game.tricks if C.EXCUSE in t.cards), None)
        if trick is None:                     # in the chien
            continue
        owner = trick.seat_of(C.EXCUSE)
        if trick is game.tricks[-1] or any(t.winner == owner for t in game.tricks):
            continue
        found += 1
        taken = game.result().half_points_taken
        assert taken[owner] == 8
        assert sum(taken) == 182 - game.deal.chien.half_points
        if found == 5:
            break
    assert found == 5


# --- the commands ---------------------------------------------------------------------------------

PETIT_SEC = "1 KS QS 7S 5S 3S KH 3H 2H CD 9D 2D KC 4C 3C 2C 6H 7H"
PETIT_SEC_5 = "1 KS QS 7S 5S 3S KH 3H 2H CD 9D 2D KC 4C 3C"
NO_TRUMP = "KS QS 7S 5S 3S KH QH 3H 2H CD 9D 2D KC QC 4C 3C 2C 6H"
ONE_LOSER = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 EX QS"
WEAK = "2 5 9 KS 7S 5S 3S 3H 2H 9D 2D 4C 3C 2C 6H 7H 8H 10H"


def run(*args):
    return CliRunner().invoke(main, [*args])


def json_of(*args):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("args", [
    ["odds", PETIT_SEC], ["bid", PETIT_SEC], ["chelem", PETIT_SEC], ["poignee", PETIT_SEC],
    ["call", PETIT_SEC_5, "--players", "5"], ["discard", PETIT_SEC, "--chien", "8S 9S 10S 4H 5H 8H"],
])
def test_a_petit_sec_hand_is_annulled_in_one_line(args):
    result = run(*args, "--deals", "20", "--quiet") if args[0] != "discard" else run(*args, "--deals", "20")
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "annulled" in lines[0] and "--variant petit-sec=play" in lines[0], result.output


def test_petit_sec_play_analyses_a_petit_sec_hand_and_deals_petit_sec_hands():
    data = json_of("odds", PETIT_SEC, "--deals", "20", "--quiet", "--variant", "petit-sec=play")
    assert data["deals"] == 20 and data["variants"]["petit-sec"] == "play"
    rules = Rules(petit_sec="play")
    rows = simulate_contract(Hand.parse(WEAK), 0, Contract.PRISE, rules, "random", 20000, seed=1)
    fft = simulate_contract(Hand.parse(WEAK), 0, Contract.PRISE, Rules(), "random", 20000, seed=1)
    assert not np.array_equal(rows, fft)          # some deals differ: those with a petit sec elsewhere


def test_the_chelem_command_offers_a_petit_chelem_and_simulated_takers_announce_it():
    # the choices offered do not depend on the deals, and the announcement changes the score of every deal
    # at garde sans: 20 deals show both
    default = json_of("chelem", ONE_LOSER, "--deals", "20", "--quiet")
    assert [a["choice"] for a in default["alternatives"]].count("announce a petit chelem") == 0
    petit = json_of("chelem", ONE_LOSER, "--deals", "20", "--quiet", "--variant", "chelem=petit-chelem")
    assert "announce a petit chelem" in [a["choice"] for a in petit["alternatives"]]
    odds_fft = json_of("odds", ONE_LOSER, "--deals", "20", "--quiet")
    odds_petit = json_of("odds", ONE_LOSER, "--deals", "20", "--quiet", "--variant", "chelem=petit-chelem")
    by_fft = {c["contract"]: c for c in odds_fft["contracts"]}
    by_petit = {c["contract"]: c for c in odds_petit["contracts"]}
    # garde sans: no discard, so the simulated taker holds the one-loser hand and announces +300 / -150
    assert by_petit["garde-sans"]["expected_score"] != by_fft["garde-sans"]["expected_score"]


def test_misere_on_pays_the_declarer_in_the_simulations():
    # heuristic play: the search plays the declared hand differently (fewer points for the declarer)
    off = json_of("odds", NO_TRUMP, "--deals", "300", "--quiet", "--policy", "heuristic")
    on = json_of("odds", NO_TRUMP, "--deals", "300", "--quiet", "--variant", "misere=on", "--policy", "heuristic")
    for a, b in zip(off["contracts"][2:], on["contracts"][2:]):
        # without the chien (garde sans, contre) the hand declares its trump misère (+10 from each of 3
        # seats) on every deal; the others rarely hold one (-10 each); what the misère tells the others
        # changes the play a little (with the chien, the misère is judged after the discard)
        assert 20 < b["expected_score"] - a["expected_score"] < 40, (a["contract"], a, b)


def test_goulash_values_pass_by_the_goulash_played_out():
    # a redeal's pass scores 0 on every deal, a Goulash's varies: 40 deals show both
    bids = ("--seat", "4", "--bids", "pass,pass,pass", "--deals", "40", "--quiet", "--no-auction-conditioning")
    redeal = {o["bid"]: o for o in json_of("bid", WEAK, *bids)["options"]}
    assert redeal["pass"]["expected_score"] == 0 and redeal["pass"]["se"] == 0
    goulash = {o["bid"]: o for o in json_of("bid", WEAK, *bids, "--variant", "all-pass=goulash")["options"]}
    assert goulash["pass"]["se"] > 0 and goulash["pass"]["expected_score"] != 0
    assert goulash["prise"] == redeal["prise"]           # a taker: the Goulash does not come into it


@pytest.mark.parametrize("args", [
    ["odds", WEAK, "--deals", "20", "--quiet"],
    ["bid", WEAK, "--deals", "20", "--quiet"],
    ["chelem", WEAK, "--deals", "20", "--quiet"],
    ["poignee", ONE_LOSER, "--deals", "20", "--quiet"],
    ["call", "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C", "--players", "5", "--deals", "20", "--quiet"],
    ["discard", WEAK, "--chien", "KD 9S 10S 4H 5H 9H", "--deals", "20"],
    ["score", "--contract", "garde", "--oudlers", "2", "--points", "45"],
    ["match", "--a", "random", "--b", "heuristic", "--deals", "4"],
    ["compare-bidding", "--hands", "1", "--deals", "10"],
])
def test_every_json_output_states_its_variants(args):
    data = json_of(*args, "--variant", "petit-au-bout=flat")
    assert data["variants"] == {**Rules().variants(), "petit-au-bout": "flat"}


def test_batch_takes_variants_and_resumes_only_with_the_same(tmp_path):
    out = tmp_path / "b.csv"
    assert run("batch", "--deals", "300", "--out", str(out), "--policy", "random", "--quiet").exit_code == 0
    flat = tmp_path / "flat.csv"
    result = run("batch", "--deals", "300", "--out", str(flat), "--policy", "random", "--quiet",
                 "--variant", "petit-au-bout=flat")
    assert result.exit_code == 0, result.output
    fft, pab = pd.read_csv(out), pd.read_csv(flat)
    assert not fft["garde_contre_score"].equals(pab["garde_contre_score"])
    assert fft["hand"].equals(pab["hand"])
    (tmp_path / "c.csv.parts").mkdir()
    (tmp_path / "c.csv.parts" / "settings.json").write_text(json.dumps(
        {"players": 4, "deals": 300, "seed": 0, "policy": "random", "takers": "first",
         "contracts": ["prise", "garde", "garde-sans", "garde-contre"], "format": ".csv",
         "variants": Rules().variants()}))
    result = run("batch", "--deals", "300", "--out", str(tmp_path / "c.csv"), "--policy", "random", "--quiet",
                 "--resume", "--variant", "petit-au-bout=flat")
    assert result.exit_code != 0 and "other settings" in result.output


def test_score_scores_a_goulash_and_misères():
    data = json_of("score", "--goulash", "20,30,25,13", "--variant", "all-pass=goulash", "--variant", "misere=on",
                   "--misere", "2")
    # 88 points taken (a 6-card chien of 3 points counts for nobody): seat i scores 88 - 4 x its points
    assert data["scores"] == [8 - 10, -32 + 30, -12 - 10, 36 - 10]
    assert data["misere"] == [-10, 30, -10, -10]
    five = json_of("score", "--players", "5", "--goulash", "20,30,10,12.5,5", "--variant", "all-pass=goulash")
    assert five["scores"] == [-22.5, -72.5, 27.5, 15, 52.5] and sum(five["scores"]) == 0
    made = json_of("score", "--contract", "garde", "--oudlers", "2", "--points", "45", "--variant", "misere=on",
                   "--misere", "3", "--misere", "3")
    assert made["taker"] == 174 and made["misere"] == [-20, -20, 60, -20]


@pytest.mark.parametrize("args, words", [
    (["--goulash", "20,30,25,13"], "all-pass=goulash"),
    (["--goulash", "20,30,25,14", "--variant", "all-pass=goulash"], "add up to 89"),
    (["--goulash", "20,30,25", "--variant", "all-pass=goulash"], "each of the 4 seats"),
    (["--goulash", "20,30,25,13", "--contract", "garde", "--variant", "all-pass=goulash"], "--contract"),
    (["--contract", "garde", "--oudlers", "2", "--points", "45", "--misere", "2"], "misere=on"),
    (["--contract", "garde", "--oudlers", "2", "--points", "45", "--misere", "5", "--variant", "misere=on"],
     "seat 5"),
    (["--contract", "garde", "--oudlers", "2", "--points", "45", "--variant", "misere=on"] + ["--misere", "1"] * 3,
     "two kinds"),
    (["--oudlers", "2", "--points", "45"], "--contract"),
])
def test_score_refuses_an_impossible_goulash_or_misère_in_one_line(args, words):
    result = run("score", *args)
    assert result.exit_code != 0
    assert len(result.output.strip().splitlines()) == 1 and words in result.output, result.output


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_heuristic_plays_a_goulash_to_take_few_points(players):
    """In a Goulash every point taken is paid: against random seats, one heuristic seat does much
    better than a random one on the same deals and streams (measured: +16 to +17 per deal, se < 0.8)."""
    rules = Rules(players=players, all_pass="goulash")
    places = sample_deals(players, 2000, seed=3)
    policies = np.full((2000, players), POLICIES["random"])
    base = play_deals(places, -1, 0, rules, policies, seed=1)
    policies[:, 0] = POLICIES["heuristic"]
    gain = play_deals(places, -1, 0, rules, policies, seed=1)["score_1"] - base["score_1"]
    assert gain.mean() - 4 * gain.std() / np.sqrt(len(gain)) > 8


def test_simulated_records_play_goulash_deals_and_declare_misères():
    """``play`` under the variants: every kernel deal replays through the reference engine (which
    checks each action), all-pass deals are played as Goulash and misères are declared."""
    rules = Rules(players=4, all_pass="goulash", misere="on")
    records = list(simulate_records(4, 300, 1, rules=rules))
    goulash = [r for r in records if r.to_text().count('Result "goulash')]
    assert len(goulash) >= 3 and all("[Play]" in r.to_text() for r in goulash)
    assert sum(bool(r.miseres) for r in records) >= 1
    assert all(r.variants == {"all-pass": "goulash", "misere": "on"} for r in records)
