"""Text -> JSON -> text gives the same record, on generated deals (complete, stopped anywhere, partial)."""

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.game import Phase
from analyzer.records import Record, parse_any, parse_records
from analyzer.records.build import record_of_game
from analyzer.rules import Rules
from tests.support.randomplay import new_random_game, step

VARIANTS = [(), ("petit-au-bout=flat",), ("poignee-values=20-40-60", "misere=on"), ("chelem=petit-chelem",)]


@st.composite
def records(draw):
    """A deal played at random through the reference engine, stopped after a random number of actions,
    with some hands maybe left out (the record must stay valid: hands go only when a seat's is kept)."""
    players = draw(st.sampled_from([3, 4, 5]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    rules = Rules.from_options(players, draw(st.sampled_from(VARIANTS)))
    game = new_random_game(rng, rules)
    stop = draw(st.integers(0, 120))
    for _ in range(stop):
        if game.phase is Phase.DONE:
            break
        step(game, rng)
    tags = draw(st.dictionaries(st.sampled_from(["Event", "Site", "Date", "Seat1", "Table"]),
                                st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12), max_size=3))
    rec = record_of_game(game, tags=tags)
    if draw(st.booleans()) and rec.tricks:
        keep = draw(st.integers(0, players - 1))
        rec = copy.deepcopy(rec)
        rec.hands = {keep: rec.hands[keep]}
        rec.result = None
    return rec


@settings(max_examples=150, deadline=None)
@given(records())
def test_text_json_text_round_trip(rec):
    text = rec.to_text()
    from_text = parse_records(text)[0].check()
    assert from_text == rec
    obj = json.loads(json.dumps(from_text.to_json()))
    from_json = Record.from_json(obj).check()
    assert from_json == rec
    assert from_json.to_text() == text


@settings(max_examples=25, deadline=None)
@given(st.lists(records(), min_size=1, max_size=4))
def test_files_of_several_records_round_trip(recs):
    text = "\n".join(r.to_text() for r in recs)
    assert parse_any(text) == recs
    assert parse_any(json.dumps([r.to_json() for r in recs])) == recs
