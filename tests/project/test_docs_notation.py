"""docs/notation.md and the parser agree both ways: every spelling the page shows is read as the card it
names, and every spelling the parser accepts is on the page."""

import re
from pathlib import Path

import pytest

from analyzer import cards as C
from analyzer import notation
from analyzer.hand import Hand

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
EXAMPLE = "21 19 15 12 8 5 1 EX KS QS 7S KH 3H CD 9D 2D KC 4C"
RANKS = {"1 … 10": None, "Jack (valet)": C.JACK, "Knight (cavalier)": C.KNIGHT, "Queen (dame)": C.QUEEN,
         "King (roi)": C.KING}
SUITS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def _table_rows(first_header: str) -> dict[str, list[list[str]]]:
    """Rows of the table whose first header cell is ``first_header``: first cell -> backticked tokens per cell."""
    lines = PAGE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = [re.findall(r"`([^`]+)`", c) for c in cells[1:]]
    return rows


def test_every_example_hand_on_the_page_is_the_example():
    blocks = re.findall(r"```text\n(.*?)```", PAGE, flags=re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(lines) >= 4
    for line in lines:
        assert str(Hand.parse(line, players=4)) == EXAMPLE, line


def test_rank_table_matches_the_parser():
    rows = _table_rows("rank")
    assert set(rows) == set(RANKS)
    documented = set()
    for name, (letters, aliases) in rows.items():
        if RANKS[name] is None:
            assert letters == ["1", "10"]
            continue
        for token in letters + aliases:
            assert notation.parse_card(token + "S") == C.suit_card(0, RANKS[name]), token
            documented.add(token)
    assert set(notation._RANKS) - {str(n) for n in range(1, 11)} == documented


def test_suit_table_matches_the_parser():
    rows = _table_rows("suit")
    assert set(rows) == set(SUITS)
    documented = set()
    for name, (letters, symbols) in rows.items():
        for token in letters + symbols:
            assert notation.parse_card("K" + token) == C.suit_card(SUITS[name], C.KING), token
            documented.add(token)
    assert set(notation._SUITS) == documented


def test_excuse_row_matches_the_parser():
    printed, also = _table_rows("card")["the Excuse"]
    assert printed == ["EX"]
    for token in printed + also:
        assert notation.parse_card(token) == C.EXCUSE
    assert set(printed + also) == notation._EXCUSE_TOKENS


@pytest.mark.parametrize("token", ["T1", "T21", "1T", "21T", "07", "T07"])
def test_trump_spellings_on_the_page_are_read(token):
    assert f"`{token}`" in PAGE
    assert notation.parse_card(token) == C.trump(int(token.strip("T")))


def test_the_page_is_linked_from_the_readme_and_the_help():
    root = Path(__file__).resolve().parents[2]
    assert "docs/notation.md" in (root / "README.md").read_text(encoding="utf-8")
    from click.testing import CliRunner

    from cli.main import main
    assert "docs/notation.md" in CliRunner().invoke(main, ["--help"]).output
