"""A set-up line as a log writes it is decoded in one pass (``events._setup_of``), alone
(``parse_line``) or in a batch (``parse_lines``); every other set-up goes the long way
(``parse_event``). Whichever way a set-up goes, its event (or its error) must be the one
``parse_event`` gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import BadEvent
from tablesense.events import Setup, parse_event, parse_line, parse_lines

NAMES = ["Ann", "Bob", "Cor", "Dirk", "", " Ann", "A\u0007n", "x" * 200, 7, None, True]
VALUES = [None, True, 0, 1, 3, 10, 10**9, 10**9 + 1, -1, 2.0, 0.5, 1e308, "10", [], {}]


def _slow(line: str) -> object:
    try:
        return parse_event(json.loads(line))
    except BadEvent as exc:
        return ("error", str(exc))


def _alone(line: str) -> object:
    try:
        return parse_line(line)
    except BadEvent as exc:
        return ("error", str(exc))


def _batched(line: str) -> object:
    found = parse_lines([line, '{"t": 1.0, "type": "rest"}'])[0]
    return _alone(line) if found is None else found


def _same(line: str) -> None:
    slow = _slow(line)
    for way in (_alone, _batched):
        got = way(line)
        assert got == slow, (way.__name__, line)
        if isinstance(got, Setup):
            assert type(got.t) is float
            assert json.dumps(got.to_dict()) == json.dumps(slow.to_dict())  # type: ignore[attr-defined]
            assert list(got.players) == list(slow.players)  # type: ignore[attr-defined]


EDGES = [
    '{"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p2": "Bob", "p1": "Ann"}}',
    '{"t": 0, "type": "setup", "game": "Golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golfbiljart", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]},'
    ' "format": "duo"}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": [], "p2": ["Bob"]}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": ["A", "B", "C", "D", "E"], "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob", "p3": "Cor"}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}, "note": 1}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}, "~extra~": 1}',
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 100}',
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 1.0}',
    '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": true}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "discipline": "Lib"}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"},'
    ' "discipline": "3-banden"}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "targets": {}}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "moyennes": {}}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"},'
    ' "moyennes": {"p1": 1, "p2": 0.5}, "profile": "club"}',
    '{"t": 0, "type": "setup", "game": "carom", "players": {"p1": "Ann", "p2": "Bob"}, "targets": {"p3": 1}}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}, "game": "kegle"}',
    '{"t": 1e400, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": -1, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": true, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "players": {"p1": "Ann", "p2": "Bob"}}',
    '{"t": 0, "type": "setup", "game": "golf"}',
    '{"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}, "format": 3}',
]


def test_each_odd_set_up_gives_what_parse_event_gives() -> None:
    for line in EDGES:
        _same(line)


def _setups() -> st.SearchStrategy[str]:
    side = st.one_of(st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=5))
    figures = st.one_of(st.sampled_from(VALUES),
                        st.dictionaries(st.sampled_from(["p1", "p2", "p3"]), st.sampled_from(VALUES),
                                        max_size=3))
    fields = st.fixed_dictionaries(
        {"t": st.sampled_from([0, 0.0, 12.5, -3, 1e12, True])},
        optional={
            "game": st.sampled_from(["golf", "kegle", "carom", "Carom", "pool", 3]),
            "players": st.one_of(
                st.fixed_dictionaries({"p1": side, "p2": side}),
                st.dictionaries(st.sampled_from(["p1", "p2", "p3"]), side, max_size=3)),
            "format": st.sampled_from([None, "duo", "single", 3]),
            "discipline": st.sampled_from([None, "libre", "driebanden", "Bandstoten", "3cushion", "pool", 1]),
            "profile": st.sampled_from([None, "club", "liemers", 2]),
            "targets": figures,
            "moyennes": figures,
            "distance": st.sampled_from(VALUES),
            "note": st.just("kept"),
        })
    return fields.map(lambda obj: json.dumps({"type": "setup", **obj}))


@settings(max_examples=400, deadline=None)
@given(_setups())
def test_any_set_up_line_gives_what_parse_event_gives(line: str) -> None:
    _same(line)
