"""What a carom set-up shares with every other one: the names it may use read without their
key when written as the table writes them (``names.setup_name``, held to the key's answer by
hypothesis), and the starting position's balls worked out once per bed and breaker
(``resolve.outlay``), which no match changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import parse_event
from tablesense.replay import Replay
from tablesense.rules import find_engine
from tablesense.rules.carom.geometry import TABLES, opening_positions
from tablesense.rules.carom.names import (
    PROFILE_NAMES,
    ROUNDING_NAMES,
    SCHEME_NAMES,
    _index,
    setup_name,
)
from tablesense.rules.carom.resolve import outlay
from tablesense.vocabulary import key

NAME_TABLES = (PROFILE_NAMES, SCHEME_NAMES, ROUNDING_NAMES)
WRITTEN = sorted({n for table in NAME_TABLES for c, others in table.items() for n in (c, *others)})


def _loosely(name: str, upper: list[bool], pad: str) -> str:
    cased = "".join(ch.upper() if up else ch for ch, up in zip(name, upper * len(name), strict=False))
    return pad + cased + pad


names = st.one_of(
    st.sampled_from(WRITTEN),
    st.builds(_loosely, st.sampled_from(WRITTEN), st.lists(st.booleans(), min_size=1, max_size=4),
              st.sampled_from(["", " ", "_", "."])),
    st.text(max_size=12),
    st.integers(-5, 500), st.floats(allow_nan=False), st.none(), st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(NAME_TABLES), names)
def test_a_set_up_name_means_what_its_key_means_however_it_is_written(table: dict, name: object) -> None:
    assert setup_name(table, name) == _index(table)[1].get(key(str(name)))


#: the breaker, his ball and the other white
SIDES = (("p1", "yellow", "white"), ("p2", "white", "yellow"))


def test_every_match_starts_from_the_same_outlay_and_none_changes_it() -> None:
    engine = find_engine("carom")
    fresh = {(bed, breaker): {ball: [round(x, 4), round(y, 4)] for ball, (x, y) in
                              opening_positions(TABLES[bed], "rechts", cue=cue, other=other).items()}
             for bed in TABLES for breaker, cue, other in SIDES}
    lines = [
        '{"t": 0, "type": "setup", "game": "carom", "discipline": "driebanden", "profile": "liemers", '
        '"players": {"p1": "A", "p2": "B"}, "targets": {"p1": 2, "p2": 2}, "table": "2.10"}',
        '{"t": 1, "type": "call", "call": "start", "player": "p2"}',
        '{"t": 2, "type": "strike", "ball": "white"}', '{"t": 3, "type": "off_table", "ball": "red"}',
        '{"t": 4, "type": "rest", "positions": {"yellow": [0.5, 0.5], "white": [1.0, 0.5]}}',
        '{"t": 5, "type": "call", "call": "frozen", "choice": "spot"}',
        '{"t": 6, "type": "cushion", "cushion": 1}', '{"t": 7, "type": "rest"}',
        '{"t": 8, "type": "call", "call": "carom"}',
    ]
    for n in range(1, len(lines) + 1):
        Replay().feed_lines(lines[:n])
    two = [engine.new_state(parse_event({"t": 0, "type": "setup", "game": "carom", "table": bed,
                                         "players": {"p1": "A", "p2": "B"}}))
           for bed in ("2.10", "2.10")]
    assert two[0] == two[1] and two[0].m.positions == fresh[("2.10", "p1")]
    for (bed, breaker), spots in fresh.items():
        assert outlay(TABLES[bed], breaker) == spots
