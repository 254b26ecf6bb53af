"""Builders for carom tests: shots as table events, replayed through the real ``Replay``.

No tests here; the test_carom_* modules import these helpers.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.replaying import rules  # noqa: F401 (the carom tests import it from here)

from tablesense.replay import Replay

CUE = {"p1": "yellow", "p2": "white"}
OBJECTS = {"p1": ("red", "white"), "p2": ("red", "yellow")}


def setup(discipline: str = "libre", profile: str | None = "club", targets: dict[str, int] | None = None,
          **extra: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline,
                          "players": {"p1": "Ann", "p2": "Bob"}}
    if profile is not None:
        ev["profile"] = profile
    if targets is not None:
        ev["targets"] = targets
    ev.update(extra)
    return ev


class Table:
    """Writes the events of a match shot by shot, keeping the clock."""

    def __init__(self, first: dict[str, Any]) -> None:
        self.events: list[dict[str, Any]] = [first]
        self.t = 0.0

    def _ev(self, kind: str, **fields: Any) -> None:
        self.t = round(self.t + 0.25, 6)
        self.events.append({"t": self.t, "type": kind, **fields})

    def carom(self, player: str, cushions: int = 0, first: str = "red",
              positions: dict[str, Any] | None = None, cushions_before_first: int = 0) -> Table:
        """A full-information carom shot: ``cushions`` cue-ball cushions before the third ball."""
        cue = CUE[player]
        second = next(b for b in OBJECTS[player] if b != first)
        self._ev("strike", ball=cue)
        for k in range(cushions_before_first):
            self._ev("cushion", cushion=k % 4 + 1, ball=cue)
        self._ev("contact", balls=[cue, first])
        for k in range(cushions - cushions_before_first):
            self._ev("cushion", cushion=(k + 1) % 4 + 1, ball=cue)
        self._ev("contact", balls=[cue, second])
        return self.rest(positions)

    def miss(self, player: str, positions: dict[str, Any] | None = None) -> Table:
        """A full-information shot that touches one ball only."""
        cue = CUE[player]
        self._ev("strike", ball=cue)
        self._ev("contact", balls=[cue, "red"])
        self._ev("cushion", cushion=2, ball=cue)
        return self.rest(positions)

    def piezo(self, cushions: int = 2, called: bool = False) -> Table:
        """A shot seen by the cushion piezos only; ``called``: the referee calls a carom after rest."""
        for k in range(cushions):
            self._ev("cushion", cushion=k % 4 + 1, ball=None)
        self.rest()
        if called:
            self.call("carom")
        return self

    def run(self, n: int) -> Table:
        """``n`` piezo shots each counted by the referee."""
        for _ in range(n):
            self.piezo(called=True)
        return self

    def rest(self, positions: dict[str, Any] | None = None) -> Table:
        if positions is None:
            self._ev("rest")
        else:
            self._ev("rest", positions=positions)
        return self

    def call(self, call: str, **fields: Any) -> Table:
        self._ev("call", call=call, **fields)
        return self

    def raw(self, kind: str, **fields: Any) -> Table:
        self._ev(kind, **fields)
        return self

    def lines(self) -> list[str]:
        return [json.dumps(e) for e in self.events]

    def replay(self) -> Replay:
        return Replay().feed_lines(self.lines())

    def state(self, errors: bool = False) -> dict[str, Any]:
        rep = self.replay()
        out = rep.to_json()
        if not errors:
            assert not rep.errors, [str(e) for e in rep.errors]
        return out


def errors(state: dict[str, Any]) -> list[str]:
    return [e["error"] for e in state.get("errors", [])]
