"""A player's first series starts from one shared record of his points (``plain._plus``,
``_FIRST_STARTS``): the score sheet's series by series reads the same as when each match made
its own, after a match long enough that its starts are packed (``ruling_log.PACK_EVERY``: the
shared record among the packed ones) and in the short matches after it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablesense.replay import Replay
from tablesense.rules.kegle import plain
from tablesense.rules.ruling_log import PACK_EVERY


class _NeverKept(dict[int, Any]):
    """A table that keeps nothing: every first series makes its own record (the way before)."""

    def __setitem__(self, key: int, value: Any) -> None:
        return None


def _log(series: int) -> list[str]:
    """A match of ``series`` series a player (a pin, set up again, then a miss ending the series),
    then three short matches; the clock runs on."""
    lines: list[dict[str, Any]] = []
    t = 0.0

    def at(event: dict[str, Any]) -> None:
        nonlocal t
        t += 1.0
        lines.append({"t": t, **event})

    setup = {"type": "setup", "game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 100_000}
    at(setup)
    for _ in range(2 * series):
        at({"type": "cushion", "cushion": 1, "ball": "red"})
        at({"type": "pin", "pin": 3, "state": "down"})
        at({"type": "rest"})
        at({"type": "pin", "pin": 3, "state": "up"})
        at({"type": "cushion", "cushion": 2, "ball": "red"})
        at({"type": "rest"})
    for _ in range(3):
        at({**setup, "distance": 4})
        for _ in range(2):
            at({"type": "cushion", "cushion": 1, "ball": "red"})
            at({"type": "rest"})
    return [json.dumps(x) for x in lines]


def _sheets(lines: list[str]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each line's score sheet (both players' points as each series began), read whole."""
    rep = Replay()
    out = []
    for n, line in enumerate(lines, start=1):
        rep.feed_line(line, n)
        starts = rep.state.score.series_starts  # type: ignore[union-attr]
        out.append((tuple(starts[0]), tuple(starts[1])))
    assert not rep.errors
    return out


def test_score_sheets_read_as_when_each_match_made_its_own_first_series(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _log(PACK_EVERY + 20)
    shared = _sheets(lines)
    monkeypatch.setattr(plain, "_FIRST_STARTS", _NeverKept())
    assert _sheets(lines) == shared
    long_match = shared[-16]  # the long match's last line (three matches of five lines after it)
    assert long_match[0][:3] == (0, 2, 4) and len(long_match[0]) == PACK_EVERY + 20
    assert shared[-1] == ((0,), (0,))  # the last short match: a miss each
