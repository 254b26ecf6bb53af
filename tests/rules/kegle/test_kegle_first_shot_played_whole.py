"""A keglebillard match played (every undo kept: ``Replay()``, ``ShotEngine.play``) takes its first
shot after the set-up at once (``KegleEngine.whole_played`` of the state ``new_state`` gave), and
with the referee's call after its rest in one step (``whole_called_played``: the recorded matches'
answer "which ball fell in pocket N?" among them): the state after it is the one ``play`` of each of
its events (and of the call) gives, links and all (its base the set-up's state, the shot's lines
since it, the undo back to the state before the shot, or after the rest), over made-up first shots
(hypothesis) and every recorded keglebillard match; a replay ends where it ends with the steps
turned off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_kegle_plain_shot import shot as shots
from test_kegle_whole_shot_and_call import called

from tablesense.errors import TablesenseError
from tablesense.events import Call, Event, Rest, parse_event
from tablesense.replay import Replay
from tablesense.rules.kegle.engine import KegleEngine
from tablesense.rules.shot_engine import SHOT_KINDS, Redo, ShotEngine

ENGINE = KegleEngine()
LOGS = sorted((MATCHES / "kegle").glob("*.jsonl"))


def _played(state: Any, lines: list[Event]) -> Any:
    for event in lines:
        state = ShotEngine.play(ENGINE, state, event)
    return state


def _same(quick: Any, slow: Any) -> None:
    """``quick`` is ``slow`` but for being another copy: fields, rulings, the events since the base
    as a list, the base itself, and what an undo goes back to."""
    assert msgspec.structs.replace(quick, since=(), checkpoint=None) == \
        msgspec.structs.replace(slow, since=(), checkpoint=None)
    assert list(quick.since) == list(slow.since)
    assert quick.base is slow.base
    assert list(quick.rulings) == list(slow.rulings)
    back, want = quick.checkpoint, slow.checkpoint
    if type(want) is Redo:
        assert type(back) is Redo and back.base is want.base and back.applied == want.applied
        assert list(back.events) == list(want.events)
        again, was = ENGINE.redo(back), ENGINE.redo(want)  # (the state after the rest, played again)
        assert msgspec.structs.replace(again, since=(), checkpoint=None) == \
            msgspec.structs.replace(was, since=(), checkpoint=None)
        assert list(again.since) == list(was.since)
    else:
        assert back is want


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shots, st.one_of(st.none(), called), st.integers(4, 100), st.booleans())
def test_a_first_shot_and_its_call_at_once_are_what_playing_them_one_by_one_gives(
        first: Any, call_obj: dict[str, Any] | None, distance: int, strikes: bool) -> None:
    struck, ball_struck, events, shuffled, where, _calls, _put_up = first
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": distance}))
    objs: list[dict[str, Any]] = []
    if strikes and struck:
        objs.append({"type": "strike", "ball": ball_struck})
    objs.extend(events)
    times = [0.1 * (i + 1) for i in range(len(objs))]
    if shuffled and len(times) > 1:
        times[0], times[1] = times[1], times[0]
    t = (times[-1] if times else 0.0) + 0.1
    table = [parse_event({"t": round(x, 3), **o}) for x, o in zip(times, objs, strict=True)]
    rest = parse_event({"t": round(t, 3), "type": "rest", **({"positions": where} if where else {})})
    assert type(rest) is Rest
    if not table or any(type(e) not in SHOT_KINDS for e in table):
        return
    try:
        if call_obj is None:
            quick = ENGINE.whole_played(state, table, rest)
            lines: list[Event] = [*table, rest]
        else:
            call = parse_event({"t": round(t + 0.05, 3), "type": "call", **call_obj})
            assert type(call) is Call
            quick = ENGINE.whole_called_played(state, table, rest, call)
            lines = [*table, rest, call]
    except TablesenseError:
        return  # (``play`` refuses it too: the replay's slow way says why)
    if quick is None:
        return
    _same(quick, _played(state, lines))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([1, 2, 3, 4, 5]), max_size=3), st.integers(1, 6), st.booleans(),
       st.sampled_from(["red", "white"]), st.sampled_from(["q1", "q1", "q1", "q2"]),
       st.sampled_from([True, False, "red", "white", "Red", "WHITE", "maybe", 3, None]), st.booleans())
def test_a_first_shot_with_a_pocket_naming_no_ball_and_the_answer_after_it_are_what_play_gives(
        pins: list[int], pocket: int, late: bool, ball: str, question: str, answer: Any,
        strikes: bool) -> None:
    """The recorded matches' answers: a ball in a pocket naming none asks "which ball?" (q1), and
    the referee's answer on the line after the rest, the pocket's line logged last with the
    earliest time or in its place; a strike first on a table that reports them."""
    state = ENGINE.new_state(parse_event({"t": 0, "type": "setup", "game": "kegle",
                                          "players": {"p1": "A", "p2": "B"}, "distance": 100}))
    objs: list[dict[str, Any]] = [{"type": "strike", "ball": ball}] if strikes else []
    objs.append({"type": "cushion", "cushion": 2, "ball": "red" if ball == "white" else "white"})
    objs.extend({"type": "pin", "pin": p, "state": "down"} for p in dict.fromkeys(pins))
    times = [1.0 + i for i in range(len(objs))]
    hole = {"type": "pocket", "pocket": pocket, "ball": None}
    if late:
        objs.append(hole)
        times.append(0.5)
    else:
        objs.insert(1, hole)
        times.append(float(len(objs)))
    table = [parse_event({"t": x, **o}) for x, o in zip(times, objs, strict=True)]
    rest = parse_event({"t": 20.0, "type": "rest"})
    call = parse_event({"t": 21.0, "type": "call", "call": "answer", "question": question, "answer": answer})
    assert type(rest) is Rest and type(call) is Call
    try:
        quick = ENGINE.whole_called_played(state, table, rest, call)
    except TablesenseError:
        return
    if quick is not None:
        _same(quick, _played(state, [*table, rest, call]))


def _with_undos(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        out.append(line)
        try:
            obj = json.loads(line)
        except ValueError:  # a bad line of the log: kept as it is
            continue
        if isinstance(obj, dict) and obj.get("type") == "call" and isinstance(obj.get("t"), (int, float)):
            out.append(json.dumps({"t": obj["t"] + 0.01, "type": "call", "call": "undo"}))
    return out


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_first_shot_and_its_call_played_at_once_are_what_play_gives(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    seen: list[tuple[Any, Any]] = []
    whole, with_call = KegleEngine.whole_played, KegleEngine.whole_called_played

    def watched(self: KegleEngine, state: Any, events: Any, rest: Any) -> Any:
        new = whole(self, state, events, rest)
        if new is not None and state.base is None:
            seen.append((new, _played(state, [*events, rest])))
        return new

    def watched_call(self: KegleEngine, state: Any, events: Any, rest: Any, call: Any) -> Any:
        new = with_call(self, state, events, rest, call)
        if new is not None and state.base is None:
            seen.append((new, _played(state, [*events, rest, call])))
        return new

    for logged in (lines, _with_undos(lines)):
        monkeypatch.setattr(KegleEngine, "whole_played", watched)
        monkeypatch.setattr(KegleEngine, "whole_called_played", watched_call)
        quick = json.dumps(Replay().feed_lines(logged).to_json(), sort_keys=True, default=repr)
        monkeypatch.setattr(KegleEngine, "whole_played", ShotEngine.whole_played)
        monkeypatch.setattr(KegleEngine, "whole_called_played", ShotEngine.whole_called_played)
        assert json.dumps(Replay().feed_lines(logged).to_json(), sort_keys=True, default=repr) == quick
    for new, played in seen:
        _same(new, played)
