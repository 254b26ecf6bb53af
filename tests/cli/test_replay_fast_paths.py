"""A whole log's replay ends where it ends with its fast paths turned off (a shot taken at
once, ``ShotEngine.whole``; keglebillard's plain shot in one pass, ``verdict.plain_shot``; carom's
call after a rest amending its shot in one step, ``amend.called_carom``, and with the shot
itself, ``ShotEngine.whole_called``; golf's foul after a
rest and the spot after it amending their shot in one step, a foul standing alone,
``amend.called_foul``, ``called_spot``, ``stood_alone``), for every recorded match logged each
way a table logs it: as recorded, without a strike sensor, an undo after a rest or while the
balls roll, two undos in a row, the referee's calls made while the balls roll, rests without
positions, the clock now and then running back.
tests/rules/test_shot_whole.py and tests/rules/kegle/test_kegle_plain_shot.py hold each fast
path to the general one shot by shot; this holds whole matches to it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paths import MATCHES

from tablesense.replay import Replay, history_for
from tablesense.rules.carom import amend
from tablesense.rules.golf import amend as golf_amend
from tablesense.rules.kegle import verdict
from tablesense.rules.shot_engine import ShotEngine

LOGS = sorted(MATCHES.glob("*/*.jsonl"))


def _objs(lines: list[str]) -> list[Any]:
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append(None)
    return out


def _kind(obj: Any) -> Any:
    return obj.get("type") if isinstance(obj, dict) else None


def _undo(t: float) -> str:
    return json.dumps({"t": round(t, 6), "type": "call", "call": "undo"})


def ways(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """The log as recorded, and as a table would log the same match another way."""
    objs = _objs(lines)
    yield "as recorded", lines
    yield "no strike sensor", [line for line, o in zip(lines, objs) if _kind(o) != "strike"]
    after_rest: list[str] = []
    twice: list[str] = []
    rolling: list[str] = []
    rests = shots = 0
    in_shot = False
    for line, o in zip(lines, objs):
        after_rest.append(line)
        twice.append(line)
        rolling.append(line)
        kind = _kind(o)
        if kind == "rest":
            in_shot = False
            rests += 1
            if rests % 3 == 0:
                after_rest.append(_undo(o["t"] + 0.01))
            if rests % 5 == 0:
                twice += [_undo(o["t"] + 0.01)] * 2
        elif kind not in (None, "call", "setup") and not in_shot:
            in_shot = True
            shots += 1
            if shots % 4 == 0:
                rolling.append(_undo(o["t"] + 0.001))
    yield "an undo after every third rest", after_rest
    yield "two undos after every fifth rest", twice
    yield "an undo while the balls roll, every fourth shot", rolling
    called: list[tuple[str, Any]] = []  # each call after a rest made before that rest
    for line, o in zip(lines, objs):
        if _kind(o) == "call" and o.get("call") != "undo":
            at = next((i for i in range(len(called) - 1, -1, -1)
                       if _kind(called[i][1]) in ("rest", "setup", "call")), None)
            if at is not None and _kind(called[at][1]) == "rest":
                moved = {**o, "t": called[at][1]["t"] - 0.001}
                called.insert(at, (json.dumps(moved), moved))
                continue
        called.append((line, o))
    yield "calls while the balls roll", [line for line, _ in called]
    yield "rests without positions", [
        json.dumps({k: v for k, v in o.items() if k != "positions"}) if _kind(o) == "rest" else line
        for line, o in zip(lines, objs)]
    yield "the clock back now and then", [
        json.dumps({**o, "t": max(0, o["t"] - 5)})
        if k % 7 == 0 and _kind(o) not in (None, "setup") and isinstance(o.get("t"), (int, float)) else line
        for k, (line, o) in enumerate(zip(lines, objs))]


def _replayed(lines: list[str]) -> str:
    rep = Replay(history=history_for(sum('"undo"' in line for line in lines)))
    rep.feed_lines(lines)
    return json.dumps(rep.to_json(), sort_keys=True, default=repr)


def _engines() -> list[type[ShotEngine[Any]]]:
    found, todo = [], [ShotEngine]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_replay_ends_where_it_ends_without_its_fast_paths_however_the_match_was_logged(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    fast = {way: _replayed(logged) for way, logged in ways(lines)}
    assert hasattr(verdict, "plain_shot"), "the plain keglebillard shot moved: turn it off here too"
    monkeypatch.setattr(verdict, "plain_shot", lambda before, shot: None)
    monkeypatch.setattr(amend, "called_carom", lambda state, call: None)
    monkeypatch.setattr(golf_amend, "called_foul", lambda state, call: None)
    monkeypatch.setattr(golf_amend, "called_spot", lambda state, call: None)
    monkeypatch.setattr(golf_amend, "stood_alone", lambda before, unit: None)
    assert hasattr(ShotEngine, "takes_whole"), "a shot at once is asked otherwise now: turn it off here too"
    assert hasattr(ShotEngine, "takes_called"), "a shot and its call at once is asked otherwise now"
    assert hasattr(ShotEngine, "takes_held"), "a pin set up between shots at once is asked otherwise now"
    for cls in _engines():
        monkeypatch.setattr(cls, "takes_whole", False)
        monkeypatch.setattr(cls, "takes_called", False)
        monkeypatch.setattr(cls, "takes_held", False)
    for way, logged in ways(lines):
        assert _replayed(logged) == fast[way], f"{way}: the fast paths end elsewhere"
