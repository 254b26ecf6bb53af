"""A whole log's replay takes a shot, its table events and the rest after them, at once
(``ShotEngine.whole``): from any state of any recorded match, with any events and rest, the
state it makes is the one ``apply`` of each in turn makes, or it makes none (and the
replay applies them one at a time); where ``apply`` refuses one of them, it makes none or
raises too. A replay of logs made of such shots (matches of several games, clocks running
back, bad lines) ends where its events applied one at a time do."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_shot_gather import AROUND, EVENTS, SETUPS, _same

from tablesense.commands import replay as command
from tablesense.events import Event, Rest, parse_event
from tablesense.replay import Replay, effective_lines

LOGS = sorted(MATCHES.glob("*/*.jsonl"))
RESTS: list[dict[str, Any]] = [{}, {"positions": {"p1": [0.5, 0.4], "p2": [[0.3, 0.2]]}},
                               {"positions": {"red": [0.5, 0.25]}}]
#: how far after the state's last event the shot's event comes: within a settle window and after it
GAPS = (0.05, 3.0)


def _states(path: Path) -> list[Any]:
    """The states between shots of a recorded match, replayed one event at a time."""
    rep = Replay(history=10**6)
    out = []
    for n, text in effective_lines(path.read_text(encoding="utf-8").splitlines()):
        rep.feed_line(text, n)
        if rep.state is not None and not rep.state.in_shot:
            out.append((rep.engine, rep.state))
    return out[:: max(1, len(out) // 40)]  # some forty of them a match


def _apply_each(engine: Any, state: Any, events: tuple[Event, ...], rest: Rest) -> Any:
    try:
        for event in (*events, rest):
            state = engine.apply(state, event)
    except Exception as exc:
        return exc
    return state


def _shots(raws: list[dict[str, Any]]) -> list[tuple[dict[str, Any], ...]]:
    """Shots of one, two and three of the game's events: each event alone, and each with
    the ones after it."""
    n = len(raws)
    return [*((r,) for r in raws), *((raws[i], raws[(i + 3) % n]) for i in range(n)),
            *((raws[i], raws[(i + 1) % n], raws[(i + 2) % n]) for i in range(n))]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_shot_taken_at_once_ends_where_apply_of_each_event_does(path: Path) -> None:
    taken = 0
    for (engine, state), gap in itertools.product(_states(path), GAPS):
        t = max(r.t for r in state.rulings) if len(state.rulings) else 0.0
        t = max(t, state.cut.last_t or 0.0) + gap
        for raws, more in itertools.product(_shots(EVENTS[engine.game]), RESTS):
            try:
                events = tuple(parse_event({"t": round(t + 0.01 * i, 3), **raw})
                               for i, raw in enumerate(raws))
            except Exception:
                continue  # a line the replay refuses before any engine sees it
            rest = parse_event({"t": round(t + 1.0, 3), "type": "rest", **more})
            expected = _apply_each(engine, state, events, rest)  # type: ignore[arg-type]
            try:
                got = engine.whole(state, events, rest)
            except Exception:
                assert isinstance(expected, Exception)
                continue
            if got is None:
                continue
            taken += 1
            assert got == expected
    assert taken > 0


@st.composite
def short_shots(draw: Any) -> list[str]:
    """Matches of several games one after another, their shots mostly one event and a rest;
    the clock now and then running back, calls and lines that are no event between."""
    lines: list[str] = []
    t = 0.0
    for _ in range(draw(st.integers(1, 4))):
        game = draw(st.sampled_from(sorted(SETUPS)))
        lines.append(json.dumps({"t": t, **SETUPS[game]}))
        for _ in range(draw(st.integers(1, 30))):
            t += draw(st.sampled_from([0.05, 1.0, 1.0, 3.0, -2.0]))
            for _ in range(draw(st.sampled_from([1, 1, 1, 0, 2]))):
                lines.append(json.dumps({"t": round(max(t, 0.0), 3), **draw(st.sampled_from(EVENTS[game]))}))
            t += draw(st.sampled_from([0.02, 1.0]))
            lines.append(json.dumps({"t": round(max(t, 0.0), 3), "type": "rest",
                                     **draw(st.sampled_from(RESTS))}))
            if draw(st.integers(0, 5)) == 0:
                lines.append(draw(st.sampled_from([json.dumps({"t": round(t, 3), **a}) for a in AROUND]
                                                  + ["not json", ""])))
        t += 10.0
    return lines


@settings(max_examples=150, deadline=None)
@given(short_shots())
def test_a_log_of_short_shots_ends_where_its_events_one_at_a_time_do(lines: list[str]) -> None:
    _same(lines)


#: lines that are not ASCII: kept (a name, a note of the table), and not UTF-8 (a byte read as a
#: surrogate), each refused with its column
NOT_ASCII = ['{{"t": {t}, "type": "cushion", "cushion": 2, "note": "bänd"}}',
             '{{"t": {t}, "type": "rest", "note": "ø"}}',
             '{{"t": {t}, "type": "cushion", "cushion": 1, "note": "\udcff"}}',
             '{{"t": {t}, "type": "rest", "x": "\udce9"}}',
             '{{"t": {t}, "type": "call", "call": "foul", "foul": "tête"}}']


def _one_line_at_a_time(lines: list[str]) -> Replay:
    """Each line through ``tablesense replay``'s own line-by-line path (its readable account)."""
    rep = Replay(history=10**6)
    for _ in command._events(rep, iter(effective_lines(lines)), lambda err: None):
        pass
    return rep


@settings(max_examples=100, deadline=None)
@given(short_shots(), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(NOT_ASCII)), max_size=6))
def test_a_log_with_lines_not_ascii_ends_where_its_lines_one_at_a_time_do(
        lines: list[str], odd: list[tuple[int, str]]) -> None:
    # ``tablesense replay --json`` tests each line for UTF-8 only in a batch that is not all ASCII
    # (``Replay._feed_counted``): with and without such lines among the shots, the state and the
    # errors are those of each line read one at a time
    lines = list(lines)
    for at, text in odd:
        i = at % (len(lines) + 1)
        t = json.loads(lines[i - 1])["t"] if 0 < i <= len(lines) and lines[i - 1].startswith("{") else 1.0
        lines.insert(i, text.format(t=t))
    got = Replay(history=10**6).feed_counted(effective_lines(lines), guard=True)
    want = _one_line_at_a_time(lines)
    assert (got.to_json(), got.events) == (want.to_json(), want.events)


_CUT_EVENTS = st.one_of(
    st.just({"type": "rest"}), st.just({"type": "strike"}), st.just({"type": "off_table"}),
    st.just({"type": "contact", "balls": ["white", "red"]}),
    st.builds(lambda c: {"type": "cushion", "cushion": c}, st.integers(1, 4)),
    st.builds(lambda g: {"type": "goal", "goal": g}, st.sampled_from("AB")),
    st.builds(lambda p: {"type": "pocket", "pocket": p}, st.integers(1, 6)),
    st.builds(lambda p, s: {"type": "pin", "pin": p, "state": s}, st.integers(1, 5),
              st.sampled_from(["up", "down"])),
    st.builds(lambda c: {"type": "call", "call": c}, st.sampled_from(["carom", "undo", "void"])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.2, 0.7, 1.5, 4.0]), _CUT_EVENTS), max_size=40),
       st.sampled_from(["golf", "kegle", "carom"]), st.booleans(), st.sampled_from([None, 0.5]))
def test_the_shot_cut_of_parsed_events_is_the_cut_of_the_logs_objects(
        steps: list[tuple[float, dict[str, Any]]], game: str, strike: bool, window: float | None) -> None:
    # ``Cutter.feed`` takes a parsed event's common cases inline: each role and cutter is the one
    # its general way (``_feed_object``, a log's JSON object) gives
    from tablesense.shots import Cutter

    by_object = by_event = Cutter(strike_sensor=strike, window=window, game=game)
    t = 0.0
    for dt, obj in steps:
        t += dt
        line = {"t": round(t, 6), **obj}
        role, by_object = by_object.feed(line)
        same_role, by_event = by_event.feed(parse_event(line))
        assert (same_role, by_event) == (role, by_object), line


_SHOT_EVENTS = _CUT_EVENTS.filter(lambda obj: obj["type"] not in ("rest", "call"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.2, 0.7, 1.5, 4.0]), _CUT_EVENTS), max_size=30),
       _SHOT_EVENTS, st.sampled_from([0.0, 0.3, 2.0]), st.sampled_from([0.0, 1.0]),
       st.sampled_from(["golf", "kegle", "carom"]), st.booleans(), st.sampled_from([None, 0.5]))
def test_a_whole_shots_cut_is_its_opening_and_its_rest_fed_in_turn(
        steps: list[tuple[float, dict[str, Any]]], first: dict[str, Any], gap: float, length: float,
        game: str, strike: bool, window: float | None) -> None:
    # ``shot_engine.shot_cut`` makes the cutter after a whole shot as one record: from any cutter
    # (a match's events fed in turn), the one ``Cutter.feed`` of its first event and then its rest
    # gives, or None where the first event opens no shot
    from tablesense.rules.shot_engine import shot_cut
    from tablesense.shots import R_OPEN, Cutter

    cut = Cutter(strike_sensor=strike, window=window, game=game)
    t = 0.0
    for dt, obj in steps:
        t += dt
        cut = cut.feed(parse_event({"t": round(t, 6), **obj}))[1]
    opening = parse_event({"t": round(t + gap, 6), **first})
    rest = parse_event({"t": round(t + gap + length, 6), "type": "rest"})
    assert isinstance(rest, Rest)
    role, opened = cut.feed(opening)
    want = opened.feed(rest)[1] if role is R_OPEN else None
    assert shot_cut(cut, opening, rest) == want
