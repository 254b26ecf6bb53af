"""What a carom set-up shares with every other one: the names it may use read without their
key when written as the table writes them (``names.setup_name``, held to the key's answer by
hypothesis), and the starting position's balls worked out once per bed and breaker
(``resolve.outlay``), which no match changes; and the score before the first shot, made once
for the matches set up alike (``engine._FIRST``), the score each set-up makes alone, whatever
set-up came before it (held by hypothesis)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import IllegalCall
from tablesense.events import Setup, parse_event
from tablesense.replay import Replay
from tablesense.rules import find_engine
from tablesense.rules.carom import engine as carom_engine
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


#: what a set-up's keys may hold: values its readers tell apart though Python's ``==`` does not
#: (true, 1 and 1.0), and nothing
value = st.sampled_from([None, True, False, 0, 1, 1.0, 2, 2.5, 25, 30, 30.0, -1, float("nan"), "", "2.10",
                         "match", "half-up", "down", "belgian", "de Bruijn", "liemers", [1], (1,)])
extra = st.dictionaries(st.sampled_from(["innings_limit", "shot_clock", "timeouts", "multiplier", "minimum",
                                         "rounding", "points", "scheme", "table", "competition"]), value,
                        max_size=3)
setups = st.builds(
    lambda prof, disc, targets, moyennes, more: Setup(t=0.0, game="carom", players={"p1": "A", "p2": "B"},
                                                      profile=prof, discipline=disc, targets=targets,
                                                      moyennes=moyennes, extra=more),
    st.sampled_from([None, "club", "kampioen", "liemers"]), st.sampled_from([None, "libre", "driebanden"]),
    st.one_of(st.none(), st.fixed_dictionaries({"p1": st.sampled_from([20, 30]),
                                                "p2": st.sampled_from([20, 1])})),
    st.one_of(st.none(), st.fixed_dictionaries({"p1": st.sampled_from([1.0, 1.5])})), extra)


def _alone(setup: Setup) -> Any:
    """The score before the first shot as ``setup`` makes it alone (never kept), or why it is refused."""
    try:
        return repr(carom_engine._first_match(setup))
    except IllegalCall as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(st.lists(setups, min_size=1, max_size=6))
def test_a_set_up_starts_from_the_score_it_makes_alone_whatever_was_set_up_before(each: list[Setup]) -> None:
    engine = find_engine("carom")
    carom_engine._FIRST.clear()
    for setup in each * 2:  # each set-up twice: the second time from what the first kept
        try:
            made = repr(engine.new_state(setup).m)
        except IllegalCall as exc:
            made = str(exc)
        assert made == _alone(setup)  # repr tells true from 1 and 1.0, as the replay's JSON does


def test_matches_set_up_alike_share_their_first_score() -> None:
    engine = find_engine("carom")
    line = ('{"t": %s, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"}, '
            '"targets": {"p1": 30, "p2": 25}, "innings_limit": 40}')
    first, second = (engine.new_state(parse_event(json.loads(line % t))) for t in (0, 99))
    assert first.m is second.m and first.m.targets == (30, 25) and first.m.innings_limit == 40


def _first_state_alone(setup: Setup) -> Any:
    """The state before the first shot as ``setup`` makes it alone, the way it was made before the
    states were kept (the countdown's ruling of a target within reach at ``setup.t``), as JSON."""
    try:
        state = msgspec.structs.replace(carom_engine._START, players=tuple(setup.players.items()),
                                        m=carom_engine._first_match(setup))
    except IllegalCall as exc:
        return str(exc)
    return find_engine("carom").to_json(carom_engine._first_countdown(state, setup.t))


first_setups = st.builds(
    lambda t, players, prof, disc, targets, more: Setup(t=t, game="carom", players=players, profile=prof,
                                                        discipline=disc, targets=targets, extra=more),
    st.sampled_from([0.0, 5.5, 1e6]),
    st.sampled_from([{"p1": "A", "p2": "B"}, {"p1": "B", "p2": "A"}, {"p1": "Ann", "p2": "Bob"}]),
    st.sampled_from([None, "club", "kampioen", "liemers"]),
    st.sampled_from([None, "libre", "bandstoten", "driebanden"]),
    st.one_of(st.none(), st.fixed_dictionaries({"p1": st.sampled_from([1, 3, 5, 20]),
                                                "p2": st.sampled_from([2, 4, 30])})),
    extra)


@settings(max_examples=300, deadline=None)
@given(st.lists(first_setups, min_size=1, max_size=6))
def test_a_set_up_starts_from_the_state_it_makes_alone_its_players_and_countdown_too(
        each: list[Setup]) -> None:
    engine = find_engine("carom")
    carom_engine._FIRST.clear()
    for setup in each * 2:  # each set-up twice: the second time from what the first kept
        try:
            made = engine.to_json(engine.new_state(setup))
        except IllegalCall as exc:
            made = str(exc)
        assert made == _first_state_alone(setup)


def test_a_countdown_before_the_first_shot_is_ruled_at_each_set_up_s_own_time() -> None:
    engine = find_engine("carom")
    line = ('{"t": %s, "type": "setup", "game": "carom", "profile": "liemers", "discipline": "driebanden", '
            '"players": {"p1": "A", "p2": "B"}, "targets": {"p1": 2, "p2": 2}}')
    first, second = (engine.new_state(parse_event(json.loads(line % t))) for t in (0, 99))
    assert [r.t for r in first.rulings] == [0] and [r.t for r in second.rulings] == [99]
    assert first.m is second.m and first.rulings[0].rule == second.rulings[0].rule == "carom.countdown"
