"""A golf match played (every undo kept: ``Replay()``, ``ShotEngine.play``) takes its first shot
after the set-up at once (``GolfEngine.whole_played`` of the state ``new_state`` gave): the state
after it is the one ``play`` of each of its events gives, links and all (its base the set-up's
state, the shot's events and rest since it, the undo back to that state), for every first shot
of the recorded golf matches, each logged as recorded and with an undo after every rest; and a
replay ends where it ends with the step turned off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from paths import MATCHES

from tablesense.replay import Replay
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.shot_engine import ShotEngine

LOGS = sorted((MATCHES / "golf").glob("*.jsonl"))


def _with_undos(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        out.append(line)
        try:
            obj = json.loads(line)
        except ValueError:  # a bad line of the log: kept as it is
            continue
        if isinstance(obj, dict) and obj.get("type") == "rest" and isinstance(obj.get("t"), (int, float)):
            out.append(json.dumps({"t": obj["t"] + 0.01, "type": "call", "call": "undo"}))
    return out


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_first_shot_played_at_once_is_the_state_its_events_played_one_by_one_give(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    seen: list[tuple[Any, Any]] = []
    mine = GolfEngine.whole_played

    def watched(self: GolfEngine, state: Any, events: Any, rest: Any) -> Any:
        new = mine(self, state, events, rest)
        if new is not None and state.base is None:
            played = state
            for event in [*events, rest]:
                played = ShotEngine.play(self, played, event)
            seen.append((new, played))
        return new

    for logged in (lines, _with_undos(lines)):
        monkeypatch.setattr(GolfEngine, "whole_played", watched)
        quick = json.dumps(Replay().feed_lines(logged).to_json(), sort_keys=True, default=repr)
        monkeypatch.setattr(GolfEngine, "whole_played", ShotEngine.whole_played)
        assert json.dumps(Replay().feed_lines(logged).to_json(), sort_keys=True, default=repr) == quick
    for new, played in seen:
        assert msgspec.structs.replace(new, since=()) == msgspec.structs.replace(played, since=())
        assert list(new.since) == list(played.since)
        assert new.base is played.base and new.checkpoint is played.checkpoint
        assert list(new.rulings) == list(played.rulings)
