"""The physics of one table on pymunk: balls rolling, cushions, pegs, goals, pockets, pins.

A ``Table`` holds the balls where they lie. ``Table.shoot(shot, t0)`` plays one shot to rest
and returns what physically happened, in time order, as ``Happening`` records (strike,
ball-ball contact, cushion hit, peg hit, goal or pocket drop, pin toppled, ball off the
table, rest with positions). ``tablesense.sim.sensors`` turns these into what the sensors
of the real table would report.

Model (documented in docs/simulator.md): a 2-D top view; balls are discs of the real size
and mass; the cloth takes speed off with a constant rolling-resistance deceleration plus a
small linear damping; cushions and ball-ball collisions are restitution collisions with no
friction (spin transfer is not modelled); follow/draw is an impulse along the original line
after the first ball contact, side/massé a lateral acceleration until the first contact.
Time advances on a fixed 1 ms tick; each physics step is 1, 2, 4, ... 32 ticks, as many as
keep the fastest ball's travel per step under ``MAX_TRAVEL`` (12 mm, a fifth of a ball). The same
table and shot always give the same happenings (tests/sim/test_sim_reference.py holds them to the
bit; docs/simulator.md, "Speed", says where the time of a shot goes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pymunk
from pymunk._chipmunk import lib as _cp  # Chipmunk's C API, under pymunk's Python one

from ..errors import TablesenseError
from .tables import XY, TableSpec

TICK = 0.001
ROLLING_DECEL = 0.16  # m/s^2: cloth rolling resistance (a ball at 2 m/s runs ~10 m)
DAMPING = 0.93  # fraction of speed kept per second on top of rolling resistance
STOP_SPEED = 0.008  # m/s: slower than this and a ball is at rest
JUMP_SPEED = 6.0  # m/s into a cushion: the ball leaves the table
PIN_TOPPLE_SPEED = 0.03  # m/s of approach that topples a pin
PIN_DECEL = 3.0  # m/s^2: a pin sliding on its base
MAX_SHOT_TIME = 60.0
MAX_TRAVEL = 0.012  # m: the fastest ball moves at most this far in one physics step
CURVE_TIME = 1.5  # s: side spin has worn off by then
ROLL_EVERY = 0.02  # s of simulated time between rolling-resistance updates

_BALL, _CUSHION, _PEG, _GOAL, _POCKET, _PIN = 1, 2, 3, 4, 5, 6


def _ticks(vmax: float) -> int:
    """Ticks in the next step: the fastest ball moves at most ``MAX_TRAVEL`` (1..32 ticks)."""
    ticks = 32
    while ticks > 1 and vmax * ticks * TICK > MAX_TRAVEL:
        ticks //= 2
    return ticks


def _pymunk_idle(space: pymunk.Space) -> bool:
    """Whether pymunk's ``Space.step`` would do nothing around Chipmunk's ``cpSpaceStep``.

    Its wrapper checks bodies added since the last step, and after the step adds and removes
    what collision callbacks queued and runs post-step callbacks. A table's callbacks queue
    nothing (balls and pins are taken off between steps), so once the new bodies have been
    through one ordinary step the wrapper is bookkeeping only, and ``Table.shoot`` calls
    ``cpSpaceStep`` itself, with the space locked as pymunk locks it: the same steps in less
    than half the time.
    """
    return _DIRECT and not (space._bodies_to_check or space._add_later or space._remove_later
                            or space._post_step_callbacks)


#: this pymunk keeps its step's bookkeeping where ``_pymunk_idle`` looks (pymunk 7); another
#: release that does not is stepped through ``Space.step`` only
_DIRECT = all(hasattr(pymunk.Space(), name) for name in (
    "_space", "_locked", "_bodies_to_check", "_add_later", "_remove_later", "_post_step_callbacks",
    "_removed_shapes"))


class BadShot(TablesenseError, ValueError):
    """A shot that cannot be played on this table."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One stroke: which ball, where to (degrees, 0 = +x, counter-clockwise), how fast (m/s).

    ``follow`` (-1 draw .. +1 follow) and ``curve`` (lateral acceleration in m/s^2, positive
    to the left of the line, until the first contact) approximate spin.
    """

    ball: str
    direction: float
    speed: float
    follow: float = 0.0
    curve: float = 0.0

    def __post_init__(self) -> None:
        if not (isinstance(self.speed, (int, float)) and math.isfinite(self.speed) and 0 < self.speed <= 12):
            raise BadShot(f"shot speed must be between 0 and 12 m/s, not {self.speed!r}")
        if not (isinstance(self.direction, (int, float)) and math.isfinite(self.direction)):
            raise BadShot(f"shot direction must be a number of degrees, not {self.direction!r}")
        if not -1.0 <= self.follow <= 1.0:
            raise BadShot(f"shot follow must be between -1 (draw) and 1 (follow), not {self.follow!r}")
        if not -5.0 <= self.curve <= 5.0:
            raise BadShot(f"shot curve must be between -5 and 5 m/s², not {self.curve!r}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ball": self.ball, "direction": self.direction, "speed": self.speed}
        if self.follow:
            out["follow"] = self.follow
        if self.curve:
            out["curve"] = self.curve
        return out


@dataclass(frozen=True, slots=True)
class Happening:
    """Something physical during a shot. ``where`` is the cushion, goal, pocket or pin."""

    t: float
    kind: str  # strike | contact | cushion | peg | goal | pocket | pin | off_table | rest
    ball: str | None = None
    other: str | None = None
    where: int | str | None = None
    speed: float = 0.0
    positions: dict[str, XY] | None = field(default=None, compare=False)


class Table:
    """The balls on one table, and the physics that moves them."""

    def __init__(self, spec: TableSpec, positions: dict[str, XY] | None = None) -> None:
        self.spec = spec
        self.space = pymunk.Space()
        self.space.damping = DAMPING
        self._bodies: dict[str, pymunk.Body] = {}
        self._shape_name: dict[pymunk.Shape, Any] = {}
        self._pin_bodies: dict[int, pymunk.Body] = {}
        self.pins_down: set[int] = set()
        self._build_static()
        for name, xy in (positions if positions is not None else spec.start).items():
            self.place(name, xy)
        self.pins_up()
        self._register_handlers()
        self._log: list[Happening] = []
        self._t0, self._ticks_done = 0.0, 0
        self._pending_remove: list[str] = []
        self._pin_remove: dict[int, float] = {}
        self._cue: str | None = None
        self._cue_touched = False
        self._follow_kick: tuple[float, float] | None = None
        self._pin_by: dict[int, str | None] = {}
        self._escaped: list[str] = []
        self._moving: set[str] = set()
        self._rolls = 0

    # --- building -------------------------------------------------------------------------
    def _build_static(self) -> None:
        spec, static = self.spec, self.space.static_body
        gap = spec.pocket_radius
        for number, (a, b) in spec.cushion_segments().items():
            for seg_a, seg_b in self._cut_for_pockets(a, b, gap):
                seg = pymunk.Segment(static, seg_a, seg_b, 0.0)
                seg.elasticity = spec.cushion_restitution
                seg.friction = 0.0
                seg.collision_type = _CUSHION
                self.space.add(seg)
                self._shape_name[seg] = number
        for i, xy in enumerate(spec.pegs, start=1):
            peg = pymunk.Circle(static, spec.peg_radius, xy)
            peg.elasticity = 0.8
            peg.collision_type = _PEG
            self.space.add(peg)
            self._shape_name[peg] = i
        for goal, xy in spec.goals.items():
            self._add_hole(static, spec.goal_radius - spec.ball_radius, xy, _GOAL, goal)
        for number, xy in spec.pockets.items():
            self._add_hole(static, spec.pocket_radius - spec.ball_radius, xy, _POCKET, number)

    def _add_hole(self, static: pymunk.Body, radius: float, xy: XY, kind: int, name: Any) -> None:
        """A sensor circle: a ball whose centre enters it has dropped (goal mouth or pocket)."""
        hole = pymunk.Circle(static, max(radius, 0.001), xy)
        hole.sensor = True
        hole.collision_type = kind
        self.space.add(hole)
        self._shape_name[hole] = name

    def _cut_for_pockets(self, a: XY, b: XY, gap: float) -> list[tuple[XY, XY]]:
        """The cushion line from a to b with the pocket mouths left open."""
        (ax, ay), (bx, by) = a, b
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        cuts: list[tuple[float, float]] = []
        for px, py in self.spec.pockets.values():
            s = (px - ax) * ux + (py - ay) * uy
            off = abs((px - ax) * uy - (py - ay) * ux)
            if -gap <= s <= length + gap and off < gap:
                cuts.append((s - gap, s + gap))
        pieces, start = [], 0.0
        for lo, hi in sorted(cuts):
            if lo > start:
                pieces.append((start, lo))
            start = max(start, hi)
        if start < length:
            pieces.append((start, length))
        return [((ax + ux * s0, ay + uy * s0), (ax + ux * s1, ay + uy * s1)) for s0, s1 in pieces]

    def place(self, ball: str, xy: XY) -> None:
        """Put ``ball`` at rest at ``xy`` (adding it to the table if it was off)."""
        if not self.spec.on_bed(xy, margin=0.001):
            raise BadShot(f"ball {ball!r} cannot be placed at {list(xy)}: not on the bed")
        r = self.spec.ball_radius
        xy = (min(max(xy[0], r), self.spec.length - r), min(max(xy[1], r), self.spec.width - r))
        body = self._bodies.get(ball)
        if body is None:
            spec = self.spec
            body = pymunk.Body(spec.ball_mass, pymunk.moment_for_circle(spec.ball_mass, 0, spec.ball_radius))
            shape = pymunk.Circle(body, spec.ball_radius)
            shape.elasticity = math.sqrt(spec.ball_restitution)
            shape.friction = 0.0
            shape.collision_type = _BALL
            self._shape_name[shape] = ball
            self._bodies[ball] = body
            self.space.add(body, shape)
        body.position = xy
        body.velocity = (0.0, 0.0)
        body.angular_velocity = 0.0

    def remove(self, ball: str) -> None:
        """Take ``ball`` off the table (into a goal or pocket, or off the table)."""
        body = self._bodies.pop(ball, None)
        if body is None:
            return
        for shape in list(body.shapes):
            self._shape_name.pop(shape, None)
            self.space.remove(shape)
        self.space.remove(body)

    def pins_up(self) -> None:
        """Set all pins up on their spots again."""
        for number in list(self._pin_bodies):
            self._remove_pin(number)
        for number, xy in self.spec.pins.items():
            body = pymunk.Body(self.spec.pin_mass, pymunk.moment_for_circle(self.spec.pin_mass, 0,
                                                                            self.spec.pin_radius))
            body.position = xy
            shape = pymunk.Circle(body, self.spec.pin_radius)
            shape.elasticity = 0.5
            shape.collision_type = _PIN
            self.space.add(body, shape)
            self._shape_name[shape] = number
            self._pin_bodies[number] = body
        self.pins_down = set()

    def _remove_pin(self, number: int) -> None:
        body = self._pin_bodies.pop(number, None)
        if body is not None:
            for shape in list(body.shapes):
                self._shape_name.pop(shape, None)
                self.space.remove(shape)
            self.space.remove(body)

    # --- state ----------------------------------------------------------------------------
    @property
    def balls(self) -> tuple[str, ...]:
        return tuple(self._bodies)

    def positions(self) -> dict[str, XY]:
        return {name: (round(b.position.x, 4), round(b.position.y, 4)) for name, b in self._bodies.items()}

    def _xy(self) -> dict[str, XY]:
        """Every ball's position, unrounded (what the camera films)."""
        get = _cp.cpBodyGetPosition
        out = {}
        for name, body in self._bodies.items():
            p = get(body._body)
            out[name] = (p.x, p.y)
        return out

    def kinetic_energy(self) -> float:
        return sum(0.5 * b.mass * b.velocity.length_squared for b in self._bodies.values())

    # --- collisions -----------------------------------------------------------------------
    def _register_handlers(self) -> None:
        on = self.space.on_collision
        on(_BALL, _BALL, begin=self._ball_ball)
        on(_BALL, _CUSHION, begin=self._ball_cushion)
        on(_BALL, _PEG, begin=self._ball_peg)
        on(_BALL, _GOAL, begin=self._ball_hole)
        on(_BALL, _POCKET, begin=self._ball_hole)
        on(_BALL, _PIN, begin=self._ball_pin)
        on(_PIN, _PIN, begin=self._pin_pin)
        on(_PIN, _CUSHION, begin=self._ignore)
        on(_PIN, _POCKET, begin=self._ignore)

    def _names(self, arbiter: pymunk.Arbiter) -> tuple[Any, Any]:
        a, b = arbiter.shapes
        return self._shape_name.get(a), self._shape_name.get(b)

    @staticmethod
    def _ignore(arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        arbiter.process_collision = False

    def _ball_ball(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        a, b = self._names(arbiter)
        if a is None or b is None:
            return
        va, vb = self._bodies[a].velocity, self._bodies[b].velocity
        if vb.length > va.length:
            a, b, va, vb = b, a, vb, va
        if self._cue in (a, b) and not self._cue_touched:
            self._cue_touched = True
            cue_v = va if a == self._cue else vb
            self._follow_kick = (cue_v.x, cue_v.y)
        self._moving.update((a, b))
        self._log.append(Happening(self._now, "contact", a, b, speed=round((va - vb).length, 4)))

    def _ball_cushion(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        ball, number = self._names(arbiter)
        if ball is None:
            return
        body = self._bodies[ball]
        n = arbiter.normal
        normal_speed = abs(body.velocity.dot(n))
        if ball == self._cue:
            self._cue_touched = True
        if normal_speed > JUMP_SPEED:
            arbiter.process_collision = False
            self._log.append(Happening(self._now, "off_table", ball, speed=round(normal_speed, 4)))
            self._pending_remove.append(ball)
            return
        self._log.append(Happening(self._now, "cushion", ball, where=number, speed=round(normal_speed, 4)))

    def _ball_peg(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        ball, number = self._names(arbiter)
        if ball is None:
            return
        if ball == self._cue:
            self._cue_touched = True
        self._log.append(Happening(self._now, "peg", ball, where=number,
                                   speed=round(self._bodies[ball].velocity.length, 4)))

    def _ball_hole(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        ball, where = self._names(arbiter)
        if ball is None or ball in self._pending_remove:
            return
        kind = "goal" if isinstance(where, str) else "pocket"
        self._log.append(Happening(self._now, kind, ball, where=where,
                                   speed=round(max(self._bodies[ball].velocity.length, 0.05), 4)))
        self._pending_remove.append(ball)

    def _topple(self, number: int, by: str | None, speed: float) -> None:
        if number in self.pins_down:
            return
        self.pins_down.add(number)
        self._log.append(Happening(self._now, "pin", by, where=number, speed=round(speed, 4)))
        self._pin_remove[number] = self._now + 0.04  # lies down after knocking its neighbours

    def _ball_pin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        ball, number = self._names(arbiter)
        if ball is None or number is None:
            return
        body = self._bodies[ball]
        speed = body.velocity.length
        self._moving.add(ball)
        self._pin_by.setdefault(number, ball)
        if speed >= PIN_TOPPLE_SPEED:
            self._pin_by[number] = ball
            self._topple(number, ball, speed)

    def _pin_pin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        a, b = self._names(arbiter)
        if a is None or b is None:
            return
        if a in self.pins_down and b not in self.pins_down:
            self._pin_by[b] = self._pin_by.get(a)
            self._topple(b, self._pin_by.get(a), 0.0)
        elif b in self.pins_down and a not in self.pins_down:
            self._pin_by[a] = self._pin_by.get(b)
            self._topple(a, self._pin_by.get(b), 0.0)

    # --- the shot -------------------------------------------------------------------------
    @property
    def _now(self) -> float:
        """The shot's clock: ``t0`` plus the ticks stepped so far, to the microsecond."""
        ticks = self._ticks_done
        return round(self._t0 + ticks * TICK, 6) if ticks else self._t0

    def shoot(self, shot: Shot, t0: float = 0.0, max_time: float = MAX_SHOT_TIME,
              trace: list[tuple[float, float]] | None = None,
              on_step: Callable[[float, dict[str, XY]], None] | None = None) -> list[Happening]:
        """Play ``shot`` until every ball is at rest; the happenings, times from ``t0``.

        ``trace``, when given, receives (time, kinetic energy of the balls) at every
        rolling-resistance update; ``on_step``, when given, is called after every physics
        step with the time and the balls' positions (the simulated camera films them).
        """
        if shot.ball not in self._bodies:
            have = ", ".join(self._bodies) or "none"
            raise BadShot(f"ball {shot.ball!r} is not on the table (on the table: {have})")
        self._log = [Happening(t0, "strike", shot.ball, speed=shot.speed)]
        self._t0, self._ticks_done = t0, 0
        self._pending_remove = []
        self._pin_remove = {}
        self._pin_by = {}
        self._rolls = 0
        self._cue, self._cue_touched, self._follow_kick = shot.ball, False, None
        rad = math.radians(shot.direction)
        ux, uy = math.cos(rad), math.sin(rad)
        cue = self._bodies[shot.ball]
        cue.velocity = (shot.speed * ux, shot.speed * uy)
        self._moving = {shot.ball}
        # The loop: a rolling-resistance update at the start, then every ROLL_EVERY of
        # simulated time (every step once the fastest ball is slower than 5 cm/s); between
        # two updates each step is as long as the last update chose.
        space = self.space
        cp_step, handle = _cp.cpSpaceStep, space._space if _DIRECT else None
        idle = _pymunk_idle(space)
        ticks_done = since_ticks = ticks = 0
        dt = 0.0
        vmax = shot.speed
        while ticks_done * TICK < max_time:
            if ticks == 0 or since_ticks * TICK >= ROLL_EVERY or vmax < 0.05:
                vmax = self._roll(shot, since_ticks * TICK)
                since_ticks = 0
                if trace is not None:
                    trace.append((self._now, self.kinetic_energy()))
                if self._escaped:
                    self._after_step(shot)
                if vmax == 0.0 and not self._pin_moving():
                    break
                ticks = _ticks(vmax)
                dt = ticks * TICK
            if idle:
                space._locked = True
                try:
                    cp_step(handle, dt)
                finally:
                    space._locked = False
                if space._removed_shapes:  # kept alive by pymunk until a step has ended
                    space._removed_shapes.clear()
            else:
                space.step(dt)
                idle = _pymunk_idle(space)
            ticks_done += ticks
            since_ticks += ticks
            self._ticks_done = ticks_done
            if on_step is not None:
                on_step(self._now, self._xy())
                idle = _pymunk_idle(space)  # the hook may have added something
            if self._follow_kick is not None or self._pending_remove or self._pin_remove:
                self._after_step(shot)
        r = 0.1 * self.spec.ball_radius
        for name, body in list(self._bodies.items()):
            body.velocity = (0.0, 0.0)
            x, y = body.position
            if not (r <= x <= self.spec.length - r and r <= y <= self.spec.width - r):
                self._escaped.append(name)
        if self._escaped:
            self._after_step(shot)
        for body in self._pin_bodies.values():
            body.velocity = (0.0, 0.0)
        for number in list(self._pin_remove):
            self._remove_pin(number)
        self._log.append(Happening(self._now, "rest", positions=self.positions()))
        return self._log

    def _roll(self, shot: Shot, dt: float) -> float:
        """Rolling resistance and side spin over the last step of ``dt``; the fastest ball's speed."""
        vmax = 0.0
        step = ROLLING_DECEL * dt
        self._rolls += 1
        check_bed = self._rolls % 4 == 0
        lo, hi_x, hi_y = 0.1 * self.spec.ball_radius, self.spec.length, self.spec.width
        curving = bool(shot.curve) and not self._cue_touched and self._now - self._t0 < CURVE_TIME
        get_v, set_v = _cp.cpBodyGetVelocity, _cp.cpBodySetVelocity
        for name in sorted(self._moving):
            body = self._bodies.get(name)
            if body is None:
                self._moving.discard(name)
                continue
            v = get_v(body._body)
            vx, vy = v.x, v.y
            speed = math.hypot(vx, vy)
            if speed < STOP_SPEED:
                set_v(body._body, (0.0, 0.0))
                _cp.cpBodySetAngularVelocity(body._body, 0.0)
                self._moving.discard(name)
                continue
            if curving and name == self._cue:
                # side spin: the line of travel turns (left for a positive curve); speed unchanged
                angle = max(-0.5, min(0.5, shot.curve * dt / speed))
                c, s = math.cos(angle), math.sin(angle)
                vx, vy = vx * c - vy * s, vx * s + vy * c
            scale = max(speed - step, 0.0) / speed
            set_v(body._body, (vx * scale, vy * scale))
            vmax = max(vmax, speed)
            if check_bed:
                p = _cp.cpBodyGetPosition(body._body)
                if not (lo <= p.x <= hi_x - lo and lo <= p.y <= hi_y - lo):
                    self._escaped.append(name)
        for body in self._pin_bodies.values():
            # a pushed pin scrapes over the cloth on its base: it stops within a few mm
            v = get_v(body._body)
            vx, vy = v.x, v.y
            speed = math.hypot(vx, vy)
            if speed > 0.0:
                scale = max(speed - PIN_DECEL * dt, 0.0) / speed
                set_v(body._body, (vx * scale, vy * scale))
        return vmax

    def _pin_moving(self) -> bool:
        return any(b.velocity.length > STOP_SPEED for b in self._pin_bodies.values())

    def _after_step(self, shot: Shot) -> None:
        if self._follow_kick is not None:
            vx, vy = self._follow_kick
            self._follow_kick = None
            body = self._bodies.get(shot.ball)
            if body is not None and shot.follow:
                k = 0.45 * shot.follow
                body.velocity = (body.velocity.x + vx * k, body.velocity.y + vy * k)
        for ball in self._pending_remove:
            self.remove(ball)
        self._pending_remove = []
        for number, when in list(self._pin_remove.items()):
            if self._now >= when:
                del self._pin_remove[number]
                self._remove_pin(number)
        for name in self._escaped:
            if name in self._bodies:
                body = self._bodies[name]
                speed = round(body.velocity.length, 4)
                self._log.append(Happening(self._now, "off_table", name, speed=speed))
                self.remove(name)
        self._escaped = []
