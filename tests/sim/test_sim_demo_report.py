"""The demo's last line names the players once: the engines' score line says ``p1``/``p2`` beside
the names ("Jan (p2) at the table"), which the demo puts in words ("Jan at the table", never
"Jan (Jan)")."""

from __future__ import annotations

import json

import pytest

from tablesense.commands.demo import _report
from tablesense.replay import Replay

PLAYERS = {"p1": "Gerda", "p2": "Jan"}


def test_the_demos_last_line_says_who_is_at_the_table_once(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [{"t": 0, "type": "setup", "game": "golf", "players": PLAYERS},
             {"t": 1.0, "type": "cushion", "cushion": 2, "ball": None}, {"t": 2.0, "type": "rest"}]
    replay = Replay().feed_lines([json.dumps(e) for e in lines])
    _report(replay, [], PLAYERS)
    said = capsys.readouterr().err
    assert "balls left Gerda 5, Jan 5" in said
    assert "Jan at the table" in said and "(Jan)" not in said and "p2" not in said
