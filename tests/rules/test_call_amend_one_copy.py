"""A referee's call about the last shot (the engine's ``call`` gives ``AMEND``) is resolved with what
an undo goes back to put in the same copy (``ShotEngine._call``, the base's ``amend``): every state
of every recorded golf and carom match, the lines applied one at a time, played (every undo kept)
and applied, with undos after the calls, is the one the general way gives (``amend``, then the
checkpoint put in a copy of its state), links and all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paths import MATCHES
from test_replay_played_shot_and_call import shape

from tablesense.replay import Replay, effective_lines
from tablesense.rules.carom.engine import CaromEngine
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.shot_engine import ShotEngine

LOGS = sorted(MATCHES.glob("golf/*.jsonl")) + sorted(MATCHES.glob("carom/*.jsonl"))


def _with_undos(lines: list[str]) -> list[str]:
    out: list[str] = []
    for k, line in enumerate(lines):
        out.append(line)
        if k % 2 and '"call"' in line and '"undo"' not in line:
            t = json.loads(line).get("t", 0)
            out.append(json.dumps({"t": t, "type": "call", "call": "undo"}))
    return out


def _states(lines: list[str], history: int | None) -> list[Any]:
    rep = Replay(history=history)
    out = []
    for n, text in effective_lines(lines):
        rep.feed_line(text, n)
        out.append((shape(rep.state, {}), len(rep.errors)))
    return out


@pytest.mark.parametrize("history", [None, 10**6])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_call_amending_its_shot_leaves_the_state_the_general_way_leaves(
        path: Path, history: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    logs = [lines, _with_undos(lines)]
    fast = [_states(log, history) for log in logs]

    def general(self: Any, state: Any, call: Any) -> Any:  # the base's, but not it: the general way
        return ShotEngine.amend(self, state, call)

    monkeypatch.setattr(GolfEngine, "amend", general, raising=False)
    monkeypatch.setattr(CaromEngine, "amend", general, raising=False)
    for log, want in zip(logs, fast, strict=True):
        assert _states(log, history) == want
