"""A carom shot and the referee's plain ``carom`` called on the line after its rest, taken by a
replay in one step (``ShotEngine.whole_called``, ``Replay._feed_chunk``), leave the same match as
the shot and the call taken apart: the same states, errors and rulings after every recorded carom
match, logged each way test_replay_fast_paths.py logs it (the clock now and then back among them)
and with the call undone once or twice right after it (the undo goes back to the state after the
rest, made again from the ``Redo`` the step keeps, then to the state before the shot)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from paths import MATCHES
from test_replay_fast_paths import ways

from tablesense.replay import Replay, history_for
from tablesense.rules.carom.engine import CaromEngine

LOGS = sorted((MATCHES / "carom").glob("*.jsonl"))
#: a state's links to older states: what an undo goes back to may be kept another way
LINKS = {"checkpoint": None, "before": None}


def undone(lines: list[str], times: int) -> list[str]:
    """The log with ``times`` undos after every third referee's call (``carom`` among them)."""
    out: list[str] = []
    calls = 0
    for line in lines:
        out.append(line)
        obj = json.loads(line) if line.strip() else None
        if isinstance(obj, dict) and obj.get("type") == "call" and obj.get("call") != "undo":
            calls += 1
            if calls % 3 == 0:
                out += [json.dumps({"t": obj["t"], "type": "call", "call": "undo"})] * times
    return out


def logged(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    yield from ways(lines)
    yield "an undo after every third call", undone(lines, 1)
    yield "two undos after every third call", undone(lines, 2)


def replayed(lines: list[str]) -> tuple[Any, ...]:
    rep = Replay(history=history_for(sum('"undo"' in line for line in lines)))
    rep.feed_lines(lines)
    state = rep.state
    bare = None if state is None else msgspec.structs.replace(state, **LINKS)  # type: ignore[type-var]
    return bare, rep.errors, rep.to_json(), rep.events


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_shot_and_its_carom_call_in_one_step_leave_the_match_they_leave_apart(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    fast = {way: replayed(log) for way, log in logged(lines)}
    monkeypatch.setattr(CaromEngine, "takes_called", False)
    for way, log in logged(lines):
        assert replayed(log) == fast[way], f"{way}: the shot and its call in one step end elsewhere"


def test_the_recorded_carom_matches_take_shots_and_their_calls_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    taken = []
    step = CaromEngine.whole_called

    def counted(self: CaromEngine, *args: Any) -> Any:
        new = step(self, *args)
        taken.append(new is not None)
        return new

    monkeypatch.setattr(CaromEngine, "whole_called", counted)
    for path in LOGS:
        for _, log in logged(path.read_text(encoding="utf-8").splitlines()):
            replayed(log)
    assert sum(taken) > 100


def test_a_log_of_matches_of_several_games_takes_the_step_in_its_carom_matches_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = [sorted((MATCHES / game).glob("*.jsonl")) for game in ("golf", "carom", "kegle")]
    lines = [line for logs in zip(*games) for path in logs
             for line in path.read_text(encoding="utf-8").splitlines()]
    fast = replayed(lines)
    monkeypatch.setattr(CaromEngine, "takes_called", False)
    assert replayed(lines) == fast
