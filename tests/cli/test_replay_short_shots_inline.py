"""The replay's loop finds where a shot of one or two events comes to rest itself (the rest on
the next line or the one after), and a longer shot's rest with ``_shot_end``: whichever of a
shot's events runs the table's clock back before the last rest, and whichever of its lines is
not ASCII, the replay names the same lines with the same errors and ends in the same state as
its lines one at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablesense.commands import replay as command
from tablesense.replay import Replay, effective_lines

SETUPS = {
    "golf": {"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    "kegle": {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}},
    "carom": {"type": "setup", "game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"},
              "targets": {"p1": 50, "p2": 50}},
}
#: a shot's events in each game
SHOT = {
    "golf": [{"type": "cushion", "cushion": 1, "ball": None}, {"type": "cushion", "cushion": 2, "ball": None},
             {"type": "goal", "goal": "B", "ball": "p1"}],
    "kegle": [{"type": "cushion", "cushion": 2, "ball": "red"},
              {"type": "contact", "balls": ["red", "white"]},
              {"type": "pin", "pin": 3, "state": "down"}],
    "carom": [{"type": "cushion", "cushion": 1, "ball": "white"},
              {"type": "contact", "balls": ["white", "red"]},
              {"type": "contact", "balls": ["white", "yellow"]}],
}


def _log(game: str, size: int, back: int | None, odd: int | None) -> list[str]:
    """A match of three shots of ``size`` events: in the second, event ``back`` (if any) comes
    before the first shot's rest, and event ``odd`` (if any) carries a note that is not ASCII."""
    lines = [json.dumps({"t": 0.0, **SETUPS[game]})]
    t = 1.0
    for shot in range(3):
        for k in range(size):
            event: dict[str, Any] = {"t": t, **SHOT[game][k]}
            if shot == 1 and k == back:
                event["t"] = 1.5  # before the first shot's rest (t 1.0 + size)
            if shot == 1 and k == odd:
                event["note"] = "bänd"
            lines.append(json.dumps(event, ensure_ascii=False))
            t += 1.0
        lines.append(json.dumps({"t": t, "type": "rest"}))
        t += 1.0
    return lines


def _seen(rep: Replay) -> tuple[Any, ...]:
    return json.dumps(rep.to_json(), sort_keys=True, default=repr), rep.events


#: each shot size with every event of it run back or not ASCII (or none)
CASES = [(size, back, odd) for size in (1, 2, 3) for back in (None, *range(size))
         for odd in (None, *range(min(size, 2)))]


@pytest.mark.parametrize("game", sorted(SETUPS))
@pytest.mark.parametrize(("size", "back", "odd"), CASES)
def test_a_short_shot_with_its_clock_back_or_a_line_not_ascii_ends_as_its_lines_one_at_a_time(
        game: str, size: int, back: int | None, odd: int | None) -> None:
    lines = _log(game, size, back, odd)
    whole = Replay(history=10**6).feed_counted(effective_lines(lines), guard=True)
    one = Replay(history=10**6)
    for _ in command._events(one, iter(effective_lines(lines)), lambda err: None):
        pass
    assert _seen(whole) == _seen(one)
    if back is not None:
        assert [e.line for e in whole.errors] == [2 + (size + 1) + back], "the clock's run back named once"
