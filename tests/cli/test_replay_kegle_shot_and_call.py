"""A keglebillard shot and the referee's ``carom``, ``foul`` or ``undo`` on the line after its rest,
taken by a replay in one step (``KegleEngine.whole_called``, ``Replay._feed_chunk``), leave the same
match as the shot and the call taken apart: the same states (their links to older states left out),
errors, rulings and events counted after every recorded keglebillard match, logged each way
test_replay_fast_paths.py logs it (the clock now and then back among them) and with the call undone
once or twice right after it (the undo goes back to the state after the rest, made again from the
``Redo`` the step keeps, then to the state before the shot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paths import MATCHES
from test_replay_shot_and_call import logged, replayed

from tablesense.rules.kegle.engine import KegleEngine


def _json_lines(path: Path) -> bool:
    """Every line of the log is JSON (``logged`` reads each; the logs of bad lines are not)."""
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                json.loads(line)
    except ValueError:
        return False
    return True


LOGS = [path for path in sorted((MATCHES / "kegle").glob("*.jsonl")) if _json_lines(path)]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_kegle_shot_and_its_call_in_one_step_leave_the_match_they_leave_apart(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    fast = {way: replayed(log) for way, log in logged(lines)}
    monkeypatch.setattr(KegleEngine, "takes_called", False)
    for way, log in logged(lines):
        assert replayed(log) == fast[way], f"{way}: the shot and its call in one step end elsewhere"


def test_the_recorded_kegle_matches_take_shots_and_their_calls_in_one_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    step = KegleEngine.whole_called

    def counted(self: KegleEngine, state: Any, events: Any, rest: Any, call: Any) -> Any:
        new = step(self, state, events, rest, call)
        if new is not None:
            taken.append(call.call)
        return new

    monkeypatch.setattr(KegleEngine, "whole_called", counted)
    for path in LOGS:
        for _, log in logged(path.read_text(encoding="utf-8").splitlines()):
            replayed(log)
    assert {"carom", "foul", "undo"} <= set(taken)
