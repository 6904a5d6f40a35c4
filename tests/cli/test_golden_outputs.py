"""The commands' outputs, byte for byte: a fixed list of commands covering every advice command and analyze
(3, 4 and 5 players; the heuristic, the default mixed model and pimc; with and without earlier bids;
table, CSV and JSON), each output's sha256.  All 30 stayed the same when the advice analyses moved onto
the simulation core (``analyzer.simulation``) and when the kernels were compiled once per argument types;
nine changed with the Excuse correction (the Excuse stays with its side even when that side has no other
card: the odds, bid, call and poignee entries whose hashes differ from 1c991dc's), checked by running the
list with the old settlement, which left them all unchanged; the three analyze entries changed when a
card's loss became the smaller of the plain and the held-out loss (``analyzer.coach.verdicts``; the same
verdicts, the losses of cards equal to the best mostly 0), and again when the report said how it read the
bids (``auction_read``, the table's first line; every other figure the same), and when a note on few
effective worlds said of how many drawn (the judge draws more where few fit the auction).  The test runs the heuristic's, seconds once
the kernels are compiled; ``python -m tests.cli.test_golden_outputs`` checks them all (minutes).  An
intended change of an output changes its hash here, in the same commit."""

import hashlib
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.support.hands import FFT_HAND

pytestmark = pytest.mark.kernels      # runs Numba kernels (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]

H4 = FFT_HAND
MID = "20 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D"
WEAK = "7 4 2 QS 9S 5S 3S 10H 6H 2H JD 8D 5D 1D 9C 7C 4C 2C"
H3 = "21 20 19 18 15 12 8 5 1 EX KS QS 7S 10S 9S KH 3H CD 9D 2D KC 4C 3C 2C"
FIVE = "20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"
SURE = "21 20 19 17 15 12 10 9 8 5 1 KS QS KH QH KD KC CD"
MONSTER = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 1 EX KS KH"
DH = "21 19 17 15 12 9 7 4 EX 2S KS QS 9S 5S KH 8H 4H 3H"
q = shlex.quote

# (sha256 of the output, the command; every command also gets --quiet)
GOLDEN = [
    ("f33df37cec570ec50e79fcbba1ea50c9c73d2d711bc41956afe3c846a91ee59f",
     f"odds {q(H4)} --policy heuristic --deals 2000 --format json"),
    ("b9a8768f55a8b3dc3cd7fc0133984cb82304b6caa23074a5d7b24fa92da846e1",
     f"odds {q(H4)} --policy heuristic --precision 0.03"),
    ("1725ca2e4da88a6cbf7218a3ec6b581e957275628909df176aae7873e68df8d6",
     f"odds {q(H4)} --policy heuristic --deals 1000 --format csv"),
    ("ddc28a711e04a6bd3cd820dba60b596c80d67c8b0932677a5740206702e5382d",
     f"odds {q(MID)} --seat 3 --bids pass,prise --policy heuristic --precision 0.03 --format json"),
    ("ed6078e39d01c8b7f15bd04646ca61c28e7e5e66359da8398692a87acfc685af",
     f"odds {q(H4)} --precision 0.05 --format json"),
    ("be114001f66168bfaf6989dbb11255af37e91f3f89572b4b7bef3ae25cba5f7c",
     f"odds {q(MID)} --seat 3 --bids pass,prise --precision 0.05"),
    ("99cbe8811cb9975dbdf842eb41d22b1722f15463b150044edcc75bd2f2402796",
     f"odds {q(H4)} --deals 100 --format json"),
    ("bae30e99e81fc316e7fa30286403185a4854162d173886348f528cef9eddc484",
     f"odds {q(H3)} --players 3 --seat 2 --bids pass --precision 0.05 --format json"),
    ("53feec67bfc69dc7c014388c413e97a21fd1462a1c30e75f8f671572abba35ef",
     f"odds {q(FIVE)} --players 5 --precision 0.05"),
    ("6cee335a88d88fd25ff94e38e7a30815c83d7b143cb50e148ae5607688083ff1",
     f"odds {q(H4)} --policy pimc --worlds 4 --deals 20 --format json"),
    ("469daf573b7bcbf3a07510f995a3c57a5da1b4064fb3b92065561586b3a7a05d",
     f"bid {q(WEAK)} --seat 2 --bids pass --policy heuristic --precision 0.03 --format json"),
    ("a8a56bf96cfa704e636ff4e7280eb989070acc08c75e5fb88bdc8aa2ea89ca00",
     f"bid {q(WEAK)} --seat 2 --bids pass --no-auction-conditioning --policy heuristic --deals 1000 --format csv"),
    ("3c0d809a6791a8661dbb7d40bf1aaba0087b2e494c6f84326619e47408dd0754",
     f"bid {q(MID)} --seat 3 --bids pass,prise --precision 0.05"),
    ("a3e7ded65922fea4c430e6f7cb496f8f709e02043ab66b5ea9d36d0e2c23e4e5",
     f"bid {q(H4)} --precision 0.05 --format json"),
    ("5b6d619e1695bda548148e15cdc49dfe3a579494f310f9be50623ff690d91f32",
     f"bid {q(H3)} --players 3 --seat 2 --bids pass --precision 0.05 --format json"),
    ("d49da6718f9f6ac4ea21e5cda19fec55492ec1193b39c869b7948f055f3790d5",
     f"bid {q(FIVE)} --players 5 --precision 0.05"),
    ("8ae981571b2b795a62281c8e2cb382e1055683b1f8141e8078f780432386e1da",
     f"call {q(FIVE)} --players 5 --policy heuristic --precision 0.03 --format json"),
    ("711d340ab41dc71ba64af153c8368ebee0f24b6bd77d4d3aef68ccd01d5f9592",
     f"call {q(FIVE)} --players 5 --precision 0.08"),
    ("ac2492b72f23aeb2decc2ca7cc3d4b0d531c2e7df1903a0eda2af65cc86c1106",
     f"call {q(FIVE)} --players 5 --deals 100 --format csv"),
    ("c88b0754bab05343b23d4684d3d9a47e2f53820745dcaa24e9e271cfd298937f",
     f"poignee {q(SURE)} --policy heuristic --precision 0.02 --format json"),
    ("1f4f5f381618a93b2e19626345165aee810300dd30ebf07020e2c1be09efc590",
     f"poignee {q(SURE)} --precision 0.05"),
    ("ab450174c37c4f6d4e478911f8cfc0061fbec4713e09f9fb50a1a595842537cb",
     f"chelem {q(MONSTER)} --policy heuristic --deals 500 --format json"),
    ("708ad58cb49a40883bfa41ebd24bccd969267059a9199297fff51ec5fdb76b05",
     f"chelem {q(MONSTER)} --deals 100"),
    ("05a3fe4ab473b5eb2edc39541812dacef6fcd78bf3017271ef208d6f48083a73",
     f"chelem {q(MONSTER)} --precision 0.1 --format json"),
    ("10d486de5ffa3b8ede8309dab8d09ce9d62d68bcbcd79285ae8fbf10a92006c0",
     f"discard {q(DH)} --chien 'CD 6D 2D 7C 3C KC' --policy heuristic --deals 200 --format json"),
    ("ed0970180bb4c44d1fc0671410a3c5ba65372faf7c1bf142ce1b9b2e8416f7bd",
     f"discard {q(DH)} --chien 'CD 6D 2D 7C 3C KC' --deals 200"),
    ("d2972c10c0761fec96ad79f9a9579c6bc3beb9b13d2242b6854620cf70e96adb",
     f"discard {q(FIVE)} --players 5 --chien 'CD 6D 3C' --deals 300 --format json"),
    ("ded6047dc060550c6673c9e706906e155e8ed09710d8866d5a23edf4509484d5",
     f"discard {q(DH)} --chien 'CD 6D 2D 7C 3C KC' --policy heuristic --deals 300 --format csv"),
    ("689e195ef08cd72f56d9adec443aac9732d02655abe3ef04e96499fe91963314",
     "analyze data/records/four-players.txt --policy heuristic --deals 20 --format json"),
    ("93cf8c0599cf1364d0f0558bc8f08c4ab3850669ae4834d29aea273dc8cc67da",
     "analyze data/records/four-players.txt --policy heuristic --deals 20"),
    ("ad53f06202662958b7ba747935a498e34349fa01aa0168fefbc6a5c24b43a171",
     "analyze data/records/four-players.txt --seat 1 --format json"),
]
CHEAP = [(digest, command) for digest, command in GOLDEN if "--policy heuristic" in command]


def output_digest(command: str) -> str:
    result = CliRunner().invoke(main, shlex.split(command) + ["--quiet"])
    assert result.exit_code == 0, result.output
    return hashlib.sha256(result.stdout.encode()).hexdigest()


@pytest.mark.parametrize("digest, command", CHEAP, ids=[command for _, command in CHEAP])
def test_the_heuristic_s_outputs_are_unchanged(digest, command, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert output_digest(command) == digest


if __name__ == "__main__":      # every command, the mixed model's too
    import os
    os.chdir(ROOT)
    changed = [command for digest, command in GOLDEN if output_digest(command) != digest]
    for command in changed:
        print("changed:", command)
    print(f"{len(GOLDEN) - len(changed)} of {len(GOLDEN)} outputs unchanged")
    sys.exit(1 if changed else 0)
