"""What the sensors of a real table report about a simulated shot.

Two outputs from the same ``Happening`` list of ``tablesense.sim.physics``:

- ``table_events(...)``: the table events of docs/events.md directly (fast tests, the
  ``--direct`` demo). Without full information only what the table's sensors can see is
  reported (the channels of its profile: goals with their colour, pockets with colour,
  pins, cushions without ball, rest without positions); with ``full_info`` every cushion
  carries its ball and ``contact``, ``strike`` and ``rest.positions`` are added.
- ``pin_edges(...)``: timed input lines for the firmware's virtual HAL (firmware/
  hal_virtual.py), one JSON object each: ``{"t_us", "ch", "level"}`` for a change of the
  channel's logical state (1 = active: beam broken, pin down; 0 = idle; the HAL turns it
  into the electrical level of the channel's ``active`` setting), ``{"t_us", "ch", "colour"}`` for the
  colour-sensor reading (the profile's READING value, 1-based) set just before the beam
  breaks, and ``{"t_us", "ch", "pulses"}`` for a burst counted by a pulse counter. Beam
  breaks last as long as the ball takes to cross the beam (diameter / speed), tilt
  switches chatter for a few 0.1-2 ms edges, piezos ring into a burst of pulses that
  grows with the impact, and the bed motion sensor pulses while any ball moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..events import Contact, Cushion, Event, Goal, OffTable, Pin, Pocket, Rest, Strike
from .physics import Happening
from .tables import TableSpec, owner

#: a piezo does not fire below this impact speed into the cushion (m/s)
PIEZO_MIN_SPEED = 0.04
#: the bed sensor sends a burst this often while balls move (s)
MOTION_PERIOD = 0.05
#: slowest speed through a goal or pocket beam (a ball falling in drops at least this fast)
MIN_BEAM_SPEED = 0.35


@dataclass(frozen=True, slots=True)
class SensorSet:
    """Which kinds of sensor the table has, and on which channel each sits."""

    kinds: frozenset[str]
    channels: dict[tuple[str, Any], int]  # (kind, index) -> channel number
    active: dict[int, int]  # channel -> active level
    colours: tuple[str, ...] = ()

    def channel(self, kind: str, index: Any) -> int | None:
        return self.channels.get((kind, index))

    def colour_value(self, ball: str | None) -> int:
        """The colour sensor's READING value for ``ball`` (0 = unknown)."""
        if ball is None:
            return 0
        name = owner(ball)
        return self.colours.index(name) + 1 if name in self.colours else 0


def sensor_set(game: str, profile: Any = None) -> SensorSet:
    """The sensors of the table profile ``profile`` (an id, a path or a loaded profile).

    Uses ``tablesense.table.profile.load_profile``; the default profile is the game's.
    """
    from ..table.profile import load_profile

    prof = profile if profile is not None and not isinstance(profile, str) else load_profile(profile or game)
    channels: dict[tuple[str, Any], int] = {}
    active: dict[int, int] = {}
    for c in prof.channels:
        channels[(c.kind, c.index)] = c.ch
        active[c.ch] = c.active
    return SensorSet(kinds=frozenset(c.kind for c in prof.channels), channels=channels,
                     active=active, colours=tuple(prof.colours))


# --- table events --------------------------------------------------------------------------------


def table_events(happenings: Iterable[Happening], sensors: SensorSet | None = None,
                 full_info: bool = True) -> list[Event]:
    """The table events a shot produces (see the module doc for what each mode reports)."""
    kinds = sensors.kinds if sensors is not None else frozenset({"goal", "pocket", "pin", "cushion"})
    out: list[Event] = []
    for h in happenings:
        t = round(h.t, 6)
        ball = owner(h.ball) if h.ball is not None else None
        if h.kind == "strike" and full_info:
            out.append(Strike(t=t, ball=ball))
        elif h.kind == "contact" and full_info and h.ball and h.other:
            out.append(Contact(t=t, balls=(owner(h.ball), owner(h.other))))
        elif h.kind == "cushion" and (full_info or ("cushion" in kinds and h.speed >= PIEZO_MIN_SPEED)):
            out.append(Cushion(t=t, cushion=int(h.where or 0), ball=ball if full_info else None))
        elif h.kind == "goal":
            out.append(Goal(t=t, goal=str(h.where), ball=ball))
        elif h.kind == "pocket":
            out.append(Pocket(t=t, pocket=int(h.where or 0), ball=ball))
        elif h.kind == "pin" and (full_info or "pin" in kinds):
            out.append(Pin(t=t, pin=int(h.where or 0), state="down"))
        elif h.kind == "off_table":
            out.append(OffTable(t=t, ball=ball if full_info else None))
        elif h.kind == "rest":
            positions = None
            if full_info and h.positions is not None:
                positions = _positions(h.positions)
            out.append(Rest(t=t, positions=positions))
    return out


def _positions(positions: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """Ball positions as docs/events.md has them: golf players' balls as lists of [x, y]."""
    out: dict[str, Any] = {}
    for name, (x, y) in positions.items():
        key = owner(name)
        xy = [round(x, 4), round(y, 4)]
        if key != name:  # several alike balls (golf p1.1..p1.5, kegle white.1/2): a list
            out.setdefault(key, []).append(xy)
        else:
            out[key] = xy
    return out


def pins_up_events(t: float, pins: Iterable[int]) -> list[Event]:
    """Pins set up again by the referee after the shot."""
    return [Pin(t=round(t, 6), pin=n, state="up") for n in sorted(pins)]


# --- pin edges for the firmware's virtual HAL ---------------------------------------------------


def pin_edges(happenings: Iterable[Happening], spec: TableSpec, sensors: SensorSet,
              rng: random.Random | None = None) -> list[dict[str, Any]]:
    """Timed HAL input lines for one shot, sorted by time (see the module doc)."""
    rng = rng or random.Random(0)
    lines: list[dict[str, Any]] = []
    hs = list(happenings)
    for h in hs:
        us = round(h.t * 1e6)
        if h.kind in ("goal", "pocket"):
            ch = sensors.channel(h.kind, h.where)
            if ch is None:
                continue
            value = sensors.colour_value(h.ball)
            if value:
                lines.append({"t_us": us, "ch": ch, "colour": value})
            crossing = 2 * spec.ball_radius / max(h.speed, MIN_BEAM_SPEED)
            lines.append({"t_us": us, "ch": ch, "level": 1})
            lines.append({"t_us": us + max(round(crossing * 1e6), 1), "ch": ch, "level": 0})
        elif h.kind == "pin":
            ch = sensors.channel("pin", h.where)
            if ch is not None:
                lines.extend(tilt_chatter(us, ch, 1, rng))
        elif h.kind == "cushion" and h.speed >= PIEZO_MIN_SPEED:
            ch = sensors.channel("cushion", h.where)
            if ch is not None:
                lines.append({"t_us": us, "ch": ch, "pulses": piezo_pulses(h.speed, rng)})
    motion = sensors.channel("motion", 0)
    if motion is not None and hs:
        start, end = hs[0].t, hs[-1].t
        t = start
        while t <= end:
            lines.append({"t_us": round(t * 1e6), "ch": motion, "pulses": 1 + rng.randrange(3)})
            t = round(t + MOTION_PERIOD, 6)
    lines.sort(key=lambda line: line["t_us"])
    return lines


def tilt_chatter(t_us: int, ch: int, level: int, rng: random.Random) -> list[dict[str, Any]]:
    """A tilt switch going to ``level`` (1 down, 0 up) at ``t_us``: a few bounces 0.1-2 ms
    apart, then steady."""
    out = [{"t_us": t_us, "ch": ch, "level": level}]
    t = t_us
    for _ in range(rng.randint(1, 3)):
        t += rng.randint(100, 2000)
        out.append({"t_us": t, "ch": ch, "level": 1 - level})
        t += rng.randint(100, 2000)
        out.append({"t_us": t, "ch": ch, "level": level})
    return out


def piezo_pulses(speed: float, rng: random.Random) -> int:
    """Pulses a piezo's one-shot gives for an impact: more ringing the harder the hit."""
    return max(1, min(40, int(speed * 8) + rng.randint(1, 3)))


def pins_up_edges(t: float, pins: Iterable[int], sensors: SensorSet,
                  rng: random.Random | None = None) -> list[dict[str, Any]]:
    """The tilt switches of the pins set up again at ``t``: back to idle, with chatter."""
    rng = rng or random.Random(0)
    out: list[dict[str, Any]] = []
    for n in sorted(pins):
        ch = sensors.channel("pin", n)
        if ch is not None:
            out.extend(tilt_chatter(round(t * 1e6), ch, 0, rng))
    out.sort(key=lambda line: line["t_us"])
    return out
