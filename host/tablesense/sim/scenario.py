"""Scenario files: a table situation replayed exactly, as shots or as sensor edges.

JSON Lines (docs/simulator.md has the full description). The first line is the header::

    {"scenario": "three cushions", "game": "carom", "table": "match", "full_info": true,
     "positions": {"yellow": [1.0, 0.3], "red": [2.0, 1.2], "white": [0.5, 1.0]},
     "setup": {"players": {"p1": "Ann", "p2": "Bob"}, "discipline": "driebanden"}}

then one step a line, each one of:

- ``{"shot": {"ball": "yellow", "direction": 20, "speed": 5.0, "follow": 0.5, "curve": 0}}``
  plays a shot on the simulated table (``"after": 3.0`` seconds after the previous rest,
  default 2);
- ``{"place": {"red": [1.4, 0.7]}}`` puts balls where they are wanted; ``{"remove": ["red"]}``;
  ``{"pins_up": true}`` sets the kegle pins up again;
- a table event of docs/events.md (it has a ``"type"``), e.g. a referee call, passed on;
- a firmware HAL line (it has ``"t_us"`` and ``"ch"``), kept for the firmware in the loop.

``load(path)`` reads and checks a file; a malformed line raises ``ScenarioError`` naming
the file and line. ``Scenario.play()`` returns the table events (setup first when the
header has one) and the HAL edges.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import games
from ..errors import BadEvent
from ..events import Event, Setup, parse_event
from .physics import BadShot, Shot, Table
from .sensors import pin_edges, pins_up_edges, pins_up_events, sensor_set, table_events
from .tables import UnknownTable, table_spec

DEFAULT_GAP = 2.0
_SHOT_KEYS = {"ball", "direction", "speed", "follow", "curve"}


class ScenarioError(BadEvent):
    """A scenario file that cannot be played; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Step:
    line: int
    kind: str  # shot | place | remove | pins_up | event | edge
    data: Any
    after: float = DEFAULT_GAP


@dataclass(frozen=True, slots=True)
class ScenarioRun:
    events: list[Event]
    edges: list[dict[str, Any]]


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    table: str = "match"
    full_info: bool = True
    positions: dict[str, tuple[float, float]] | None = None
    setup: Setup | None = None
    steps: tuple[Step, ...] = field(default_factory=tuple)
    source: str = "<scenario>"

    def play(self, seed: int = 0) -> ScenarioRun:
        """Play the scenario on a fresh table: the table events and the HAL edges."""
        spec = table_spec(self.game, self.table)
        sensors = sensor_set(self.game)
        rng = random.Random(seed)
        try:
            table = Table(spec, self.positions)
        except BadShot as exc:
            raise ScenarioError(f"{self.source} line 1: {exc}") from None
        events: list[Event] = [self.setup] if self.setup is not None else []
        edges: list[dict[str, Any]] = []
        t = 0.0
        for step in self.steps:
            where = f"{self.source} line {step.line}"
            try:
                if step.kind == "shot":
                    t = round(t + step.after, 6)
                    happenings = table.shoot(step.data, t0=t)
                    events.extend(table_events(happenings, sensors, self.full_info))
                    edges.extend(pin_edges(happenings, spec, sensors, rng))
                    t = happenings[-1].t
                elif step.kind == "place":
                    for ball, xy in step.data.items():
                        table.place(ball, xy)
                elif step.kind == "remove":
                    for ball in step.data:
                        table.remove(ball)
                elif step.kind == "pins_up":
                    down = sorted(table.pins_down)
                    t = round(t + 1.0, 6)
                    events.extend(pins_up_events(t, down))
                    edges.extend(pins_up_edges(t, down, sensors, rng))
                    table.pins_up()
                elif step.kind == "event":
                    events.append(step.data)
                    t = max(t, step.data.t)
                else:
                    edges.append(step.data)
            except BadShot as exc:
                raise ScenarioError(f"{where}: {exc}") from None
        return ScenarioRun(events, edges)


def load(path: str | Path) -> Scenario:
    """Read a scenario file (see the module doc); ``ScenarioError`` names a bad line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{p}: not a text file") from None
    return loads(text, source=str(p))


def loads(text: str, source: str = "<scenario>") -> Scenario:
    header: dict[str, Any] | None = None
    header_line = 0
    steps: list[Step] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{source} line {n}"
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"{where}: not JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(obj, dict):
            raise ScenarioError(f"{where}: each line is a JSON object, not {type(obj).__name__}")
        if header is None:
            header, header_line = obj, n
            continue
        steps.append(_step(obj, n, where))
    if header is None:
        raise ScenarioError(f"{source}: empty scenario (the first line is the header with \"game\")")
    return _scenario(header, header_line, steps, source)


def _scenario(h: dict[str, Any], line: int, steps: list[Step], source: str) -> Scenario:
    where = f"{source} line {line}"
    game = h.get("game")
    if not isinstance(game, str) or game not in games.names():
        raise ScenarioError(f"{where}: the header needs \"game\": {games.either()} (not {game!r})")
    table = str(h.get("table", "match"))
    try:
        spec = table_spec(game, table)
    except UnknownTable as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    positions = None
    if "positions" in h:
        positions = _positions(h["positions"], where)
        unknown = sorted(set(positions) - set(spec.ball_names))
        if unknown:
            raise ScenarioError(f"{where}: no ball {unknown[0]!r} on a {game} table "
                                f"(balls: {', '.join(spec.ball_names)})")
    setup = None
    if "setup" in h:
        if not isinstance(h["setup"], dict):
            raise ScenarioError(f"{where}: \"setup\" is an object of setup event fields")
        try:
            ev = parse_event({"t": 0, "type": "setup", "game": game, **h["setup"]})
        except BadEvent as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        assert isinstance(ev, Setup)
        setup = ev
    full_info = h.get("full_info", True)
    if not isinstance(full_info, bool):
        raise ScenarioError(f"{where}: \"full_info\" is true or false")
    for step in steps:
        if step.kind == "shot" and step.data.ball not in spec.ball_names:
            raise ScenarioError(f"{source} line {step.line}: no ball {step.data.ball!r} on a {game} table "
                                f"(balls: {', '.join(spec.ball_names)})")
    return Scenario(name=str(h.get("scenario", Path(source).stem)), game=game, table=table,
                    full_info=full_info, positions=positions, setup=setup, steps=tuple(steps), source=source)


def _positions(raw: Any, where: str) -> dict[str, tuple[float, float]]:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: positions map ball names to [x, y] in metres")
    out: dict[str, tuple[float, float]] = {}
    for ball, xy in raw.items():
        if not (isinstance(xy, list) and len(xy) == 2 and all(_number(v) for v in xy)):
            raise ScenarioError(f"{where}: position of {ball!r} must be [x, y] in metres, not {xy!r}")
        out[str(ball)] = (float(xy[0]), float(xy[1]))
    return out


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _step(obj: dict[str, Any], n: int, where: str) -> Step:
    if "shot" in obj:
        s = obj["shot"]
        if not isinstance(s, dict):
            raise ScenarioError(f"{where}: \"shot\" is an object with ball, direction, speed")
        missing = [k for k in ("ball", "direction", "speed") if k not in s]
        if missing:
            raise ScenarioError(f"{where}: shot needs {', '.join(repr(k) for k in missing)}")
        extra = sorted(set(s) - _SHOT_KEYS)
        if extra:
            known = ", ".join(sorted(_SHOT_KEYS))
            raise ScenarioError(f"{where}: unknown shot field {extra[0]!r} (fields: {known})")
        for k in ("direction", "speed", "follow", "curve"):
            if k in s and not _number(s[k]):
                raise ScenarioError(f"{where}: shot {k} must be a number, not {s[k]!r}")
        after = obj.get("after", DEFAULT_GAP)
        if not _number(after) or after < 0:
            raise ScenarioError(f"{where}: \"after\" is seconds >= 0, not {after!r}")
        try:
            shot = Shot(str(s["ball"]), float(s["direction"]), float(s["speed"]),
                        float(s.get("follow", 0.0)), float(s.get("curve", 0.0)))
        except BadShot as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        return Step(n, "shot", shot, float(after))
    if "place" in obj:
        return Step(n, "place", _positions(obj["place"], where))
    if "remove" in obj:
        balls = obj["remove"]
        if not (isinstance(balls, list) and all(isinstance(b, str) for b in balls)):
            raise ScenarioError(f"{where}: \"remove\" is a list of ball names")
        return Step(n, "remove", tuple(balls))
    if obj.get("pins_up") is True:
        return Step(n, "pins_up", None)
    if "type" in obj:
        try:
            return Step(n, "event", parse_event(obj))
        except BadEvent as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    if "t_us" in obj and "ch" in obj:
        ok = isinstance(obj["t_us"], int) and isinstance(obj["ch"], int) and obj["t_us"] >= 0 and (
            "level" in obj or "pulses" in obj or "colour" in obj)
        if not ok:
            raise ScenarioError(f"{where}: an edge is {{\"t_us\": int, \"ch\": int, and \"level\", "
                                f"\"pulses\" or \"colour\"}}, not {json.dumps(obj)}")
        return Step(n, "edge", dict(obj))
    raise ScenarioError(f"{where}: unknown step (a step has \"shot\", \"place\", \"remove\", "
                        f"\"pins_up\", an event \"type\" or an edge \"t_us\"/\"ch\")")
