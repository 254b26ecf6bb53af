"""``replay --json`` writes each distinct ruling's JSON (but its time) once (``ruling_json``);
every ruling must come out exactly as the general path writes it
(``json.JSONEncoder(ensure_ascii=False).encode(ruling.to_dict(names, lang))``), in every
language, for every game's rulings, parameters holding lists, and parameters that are equal
as dict keys but written differently (``1``, ``1.0``, ``True``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import TESTS

from tablesense.commands import replay as replay_command
from tablesense.commands.replay import ruling_json
from tablesense.replay import Replay
from tablesense.rules import Ruling
from tablesense.rules.base import player_names
from tablesense.texts import LANGS

LOGS = sorted((TESTS / "matches").glob("*/*.jsonl"))
GENERAL = json.JSONEncoder(ensure_ascii=False).encode


def _replayed(log: Path) -> Replay:
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    return Replay().feed_lines(lines)


REPLAYS = {log: _replayed(log) for log in LOGS}
RULES = sorted({r.rule for rep in REPLAYS.values() if rep.state is not None for r in rep.state.rulings})


@pytest.mark.parametrize("lang", LANGS)
def test_every_recorded_ruling_is_written_as_the_general_path_writes_it(lang: str) -> None:
    games, with_lists = set(), 0
    for log, rep in REPLAYS.items():
        if rep.state is None:
            continue
        names = player_names(rep.state)
        encode = ruling_json(names, lang)
        for r in rep.state.rulings:
            assert encode(r) == GENERAL(r.to_dict(names, lang)), f"{log.name}: {r}"
            games.add(log.parent.name)
            with_lists += any(isinstance(v, list) for _, v in r.data)
    assert games == {"golf", "kegle", "carom"}
    assert with_lists > 0  # keglebillard's pins: the check saw parameters holding lists


SCALARS = (st.integers(-5, 5) | st.booleans() | st.none() | st.sampled_from([1.0, 0.5, math.nan, math.inf])
           | st.sampled_from(["p1", "p2", "white", "red", "push", "own words", "é"]))
VALUES = SCALARS | st.lists(SCALARS, max_size=3)
KEYS = st.sampled_from(["pins", "points", "ball", "balls", "foul", "what", "text", "player", "t", "made",
                       "member"])
RULINGS = st.builds(
    Ruling,
    t=st.floats(0, 1e6) | st.sampled_from([math.nan, math.inf, 3]),
    rule=st.sampled_from(RULES),
    player=st.sampled_from([None, "p1", "p2"]),
    data=st.lists(st.tuples(KEYS, VALUES), max_size=3, unique_by=lambda kv: kv[0]).map(tuple),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rulings=st.lists(RULINGS, min_size=1, max_size=30), lang=st.sampled_from(LANGS),
       kept=st.sampled_from([2, replay_command.RULINGS_KEPT]))
def test_any_run_of_rulings_is_written_as_the_general_path_writes_it(
        rulings: list[Ruling], lang: str, kept: int, monkeypatch: pytest.MonkeyPatch) -> None:
    names = {"p1": "Ann", "p2": "Bo & Cy"}
    with monkeypatch.context() as m:
        m.setattr(replay_command, "RULINGS_KEPT", kept)  # a small store: cleared and filled again
        encode = ruling_json(names, lang)
        for r in rulings + rulings:  # the second time from the store
            assert encode(r) == GENERAL(r.to_dict(names, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_parameters_equal_as_keys_but_written_differently_are_written_each_their_own_way(lang: str) -> None:
    names = {"p1": "Ann", "p2": "Bo"}
    encode = ruling_json(names, lang)
    for value in (1, True, 1.0, [1], [True], (1,)):
        r = Ruling(2.5, "kegle.pin", "p1", (("pins", value), ("points", value)))
        assert encode(r) == GENERAL(r.to_dict(names, lang))


class _Word(str):
    """A parameter ``marshal`` cannot write (a subclass of ``str``)."""


@pytest.mark.parametrize("lang", LANGS)
def test_a_parameter_marshal_cannot_write_is_written_as_the_general_path_writes_it(lang: str) -> None:
    encode = ruling_json({}, lang)
    for _ in range(2):
        r = Ruling(1.25, "kegle.pin", "p2", (("pins", [_Word("3")]), ("ball", _Word("white"))))
        assert encode(r) == GENERAL(r.to_dict({}, lang))


INT_KEYS = st.sampled_from(["made", "cushions", "run", "left", "points", "pins", "member", "player", "t",
                            "text", "what", "rule", 'q"{0}', "a}b"])
INT_RULINGS = st.builds(
    Ruling,
    t=st.floats(0, 1e6) | st.sampled_from([math.nan, math.inf, 3]),
    rule=st.sampled_from([*RULES, "carom.carom", "no.such.rule", 'r"{0}}']),
    player=st.sampled_from([None, "p1", "p2", 'p"{x}']),
    data=st.lists(st.tuples(INT_KEYS, st.integers(-3, 10**15) | st.sampled_from([True, 1.0])), max_size=3,
                  unique_by=lambda kv: kv[0]).map(tuple),
)
ODD_NAMES = ({"p1": "Ann", "p2": "Bo & Cy"}, {"p1": 'A"n{0}\\', "p2": "Bø }{ Cy\n"}, {})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rulings=st.lists(INT_RULINGS, min_size=1, max_size=30), lang=st.sampled_from([*LANGS, "xx"]),
       names=st.sampled_from(ODD_NAMES), kept=st.sampled_from([2, replay_command.RULINGS_KEPT]))
def test_rulings_of_int_parameters_are_written_as_the_general_path_writes_them(
        rulings: list[Ruling], lang: str, names: dict[str, str], kept: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(replay_command, "RULINGS_KEPT", kept)
        encode = ruling_json(names, lang)
        for r in rulings + rulings:
            assert encode(r) == GENERAL(r.to_dict(names, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_carom_run_of_new_totals_is_written_as_the_general_path_writes_it(lang: str) -> None:
    names = {"p1": "Ann", "p2": "Bo"}
    encode = ruling_json(names, lang)
    for made in range(1, 300):  # each total new: written from its shape's format string
        player = "p1" if made % 3 else "p2"
        r = Ruling(made * 2.5, "carom.carom", player, (("made", made), ("cushions", made % 4)))
        assert encode(r) == GENERAL(r.to_dict(names, lang))
