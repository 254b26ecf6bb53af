"""Carom and golf shots for the simulated camera: random layouts, played by the simulator's players.

``carom_shots(n, seed)`` yields ``(film, discipline)`` pairs: the balls laid out at random
(a third of them near a cushion or in a corner, where zones and thin cushion-first shots
are), the shot chosen by ``players.CaromPlayer`` for libre or driebanden, filmed by one
``SimCamera``. The same seed gives the same shots.

``golf_shots(n, seed)`` yields ``(film, shooter)`` pairs on the golf table: ten balls laid
out where golf's position rules are close calls (a ball's footprint just on or just off a
zone line, a triangle's side, a replacement spot's reach; a ball a few millimetres from a
peg or over a goal's edge; in every fifth lay-out three balls on a side's replacement spots
1-3; the rest anywhere clear of the pegs and goals), p1 and p2 in
turn playing the shot ``players.GolfPlayer`` chooses; every third shot is a touch at a
fraction of the chosen pace (as in zone play, where a ball need only leave its zone).

``kegle_shots(n, seed)`` yields ``(film, kind)`` pairs on the keglebillard table, the five
pins standing: the red and the two whites laid out as after a shot (a third of the lay-outs
with a white a few centimetres from the pins, where a white sits by a white-looking pin),
the red played as ``players.KeglePlayer`` chooses (a white into the pins, or a carambole);
``kind`` says what the physics made of it: ``pins``, ``carambole``, ``both`` or ``none``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import replace

from ..rules.golf import geometry as golf_geo
from .camera import ShotFilm, SimCamera
from .physics import Table
from .players import CaromPlayer, GolfPlayer, KeglePlayer, carambole_made
from .tables import XY, TableSpec, table_spec


def carom_layout(rng: random.Random, spec: TableSpec) -> dict[str, XY]:
    """Three balls on the bed, not touching; some by the cushions or in a corner."""
    r = spec.ball_radius
    out: dict[str, XY] = {}
    for ball in ("yellow", "white", "red"):
        for _ in range(200):
            if rng.random() < 0.3:
                corner = rng.choice(
                    [(0.0, 0.0), (spec.length, 0.0), (0.0, spec.width), (spec.length, spec.width)]
                )
                x = abs(corner[0] - rng.uniform(r + 0.002, 0.25))
                y = abs(corner[1] - rng.uniform(r + 0.002, 0.25))
            else:
                x, y = (
                    rng.uniform(r + 0.002, spec.length - r - 0.002),
                    rng.uniform(r + 0.002, spec.width - r - 0.002),
                )
            if all(math.dist((x, y), xy) > 2 * r + 0.004 for xy in out.values()):
                out[ball] = (x, y)
                break
    return out


def carom_shots(
    n: int,
    seed: int = 0,
    camera: SimCamera | None = None,
    disciplines: tuple[str, ...] = ("libre", "driebanden"),
) -> Iterator[tuple[ShotFilm, str]]:
    spec = table_spec("carom")
    camera = camera or SimCamera(spec, seed=seed)
    rng = random.Random(seed)
    players = {
        d: CaromPlayer(spec, seed=seed * 31 + i, skill=0.75, discipline=d) for i, d in enumerate(disciplines)
    }
    t = 10.0
    for i in range(n):
        discipline = disciplines[i % len(disciplines)]
        table = Table(spec, carom_layout(rng, spec))
        shot = players[discipline].execute(players[discipline].plan(table, "p1"))
        film = camera.film(table, shot, t0=t)
        t = float(film.times[-1]) + 3.0
        yield film, discipline


#: seconds a golf shot is filmed past its rest
GOLF_TAIL = 1.5
#: how far either side of a rule's edge a close-call golf ball is laid (m)
CLOSE = 0.006


def _near_zone_line(rng: random.Random, spec: TableSpec) -> XY:
    """A ball whose footprint just touches, or just misses, an inner zone line."""
    r = spec.ball_radius
    off = rng.choice((-1, 1)) * (r + rng.uniform(-CLOSE, CLOSE))
    if rng.random() < 0.6:
        return rng.choice(golf_geo.ZONE_X[1:-1]) + off, rng.uniform(0.0, spec.width)
    return rng.uniform(0.0, spec.length), rng.choice(golf_geo.ZONE_Y[1:-1]) + off


def _near_triangle(rng: random.Random, spec: TableSpec) -> XY:
    """A ball just inside or just outside a side of a large or small triangle."""
    goal, size = rng.choice("AB"), rng.choice(("large", "small"))
    (ax, ay), (bx, by), apex = golf_geo.triangle(goal, size)
    base = (ax, ay) if rng.random() < 0.5 else (bx, by)
    k = rng.uniform(0.1, 0.95)
    px, py = base[0] + k * (apex[0] - base[0]), base[1] + k * (apex[1] - base[1])
    dx, dy = apex[0] - base[0], apex[1] - base[1]
    n = math.hypot(dx, dy)
    nx, ny = -dy / n, dx / n  # a normal to the side, turned outwards
    cx, cy = (ax + bx + apex[0]) / 3, (ay + by + apex[1]) / 3
    if (px - cx) * nx + (py - cy) * ny < 0:
        nx, ny = -nx, -ny
    d = spec.ball_radius + rng.uniform(-CLOSE, CLOSE)
    return px + nx * d, py + ny * d


def _near_spot(rng: random.Random, spec: TableSpec) -> XY:
    """A ball about a ball's diameter from a replacement spot: it covers the spot, or just not."""
    sx, sy = rng.choice(list(spec.spots.values()))
    a = rng.uniform(0.0, 2 * math.pi)
    d = 2 * spec.ball_radius + rng.uniform(-CLOSE, CLOSE)
    return sx + d * math.cos(a), sy + d * math.sin(a)


def _anywhere(rng: random.Random, spec: TableSpec) -> XY:
    return rng.uniform(0.0, spec.length), rng.uniform(0.0, spec.width)


def _in_small_triangle(rng: random.Random, spec: TableSpec) -> XY:
    """A ball inside a small triangle (where a defender's ball makes the attacking triangle's rule)."""
    (ax, ay), (bx, by), (cx, cy) = golf_geo.triangle(rng.choice("AB"), "small")
    u, v = rng.random(), rng.random()
    if u + v > 1:
        u, v = 1 - u, 1 - v
    return ax + u * (bx - ax) + v * (cx - ax), ay + u * (by - ay) + v * (cy - ay)


def _by_peg_or_goal(rng: random.Random, spec: TableSpec) -> XY:
    """A ball a few millimetres clear of a peg (where replacement spots are), or over a goal's edge."""
    a = rng.uniform(0.0, 2 * math.pi)
    if rng.random() < 0.75:
        px, py = rng.choice(spec.pegs)
        d = spec.peg_radius + spec.ball_radius + rng.uniform(0.0005, 0.006)
    else:
        px, py = rng.choice(list(spec.goals.values()))
        d = spec.goal_radius + rng.uniform(0.006, 0.03)
    return px + d * math.cos(a), py + d * math.sin(a)


_GOLF_PLACES: tuple[tuple[float, Callable[[random.Random, TableSpec], XY]], ...] = (
    (0.3, _near_zone_line),
    (0.2, _near_triangle),
    (0.08, _in_small_triangle),
    (0.12, _near_spot),
    (0.08, _by_peg_or_goal),
    (0.22, _anywhere),
)


def _clear(spec: TableSpec, xy: XY, out: dict[str, XY]) -> bool:
    """On the bed, clear of the pegs, the goals' holes and the other balls."""
    r = spec.ball_radius
    if not spec.on_bed(xy, margin=-0.002):
        return False
    if any(math.dist(xy, p) < spec.peg_radius + r + 0.002 for p in spec.pegs):
        return False
    if any(math.dist(xy, g) < spec.goal_radius + 0.005 for g in spec.goals.values()):
        return False
    return all(math.dist(xy, o) > 2 * r + 0.004 for o in out.values())


def _spot_crowd(rng: random.Random, spec: TableSpec, side: str) -> list[Callable[[], XY]]:
    """Three balls on ``side``'s replacement spots 1-3: two well on, one about at the edge of
    covering its spot (so the fall-back to spot 4 or 5 is a close call)."""
    edge = rng.randrange(3)

    def by(n: int) -> Callable[[], XY]:
        sx, sy = spec.spots[f"{side}.{n}"]

        def at() -> XY:
            d = (
                2 * spec.ball_radius + rng.uniform(-CLOSE, CLOSE)
                if n - 1 == edge
                else rng.uniform(0.004, 0.045)
            )
            a = rng.uniform(0.0, 2 * math.pi)
            return sx + d * math.cos(a), sy + d * math.sin(a)

        return at

    return [by(n) for n in (1, 2, 3)]


def golf_layout(rng: random.Random, spec: TableSpec, crowd: str | None = None) -> dict[str, XY]:
    """Ten golf balls (``p1.1`` .. ``p2.5``), many of them close calls of the position rules;
    ``crowd`` (p1 or p2): three of them on that side's replacement spots 1-3."""
    out: dict[str, XY] = {}
    weights = [w for w, _ in _GOLF_PLACES]
    first = _spot_crowd(rng, spec, crowd) if crowd else []
    for k, ball in enumerate(spec.ball_names):
        for _ in range(500):
            if k < len(first):
                xy = first[k]()
            else:
                (place,) = rng.choices([f for _, f in _GOLF_PLACES], weights)
                xy = place(rng, spec)
            if _clear(spec, xy, out):
                out[ball] = xy
                break
    return out


def golf_shots(n: int, seed: int = 0, camera: SimCamera | None = None) -> Iterator[tuple[ShotFilm, str]]:
    spec = table_spec("golf")
    camera = camera or SimCamera(spec, seed=seed)
    rng = random.Random(seed)
    player = GolfPlayer(spec, seed=seed * 31 + 7, skill=0.75)
    t = 10.0
    for i in range(n):
        shooter = ("p1", "p2")[i % 2]
        crowd = rng.choice(("p1", "p2")) if i % 5 == 4 else None
        table = Table(spec, golf_layout(rng, spec, crowd))
        shot = player.execute(player.plan(table, shooter))
        if i % 3 == 2:
            # a touch as in zone play: the player's line at a fraction of its pace, so the ball
            # played stops on the cloth, often in or by the zone it left
            shot = replace(shot, speed=round(shot.speed * rng.uniform(0.08, 0.35), 3))
        # filmed 1.5 s past the rest: a ball gone into a goal looks to the tracker like one
        # covered, and holds up the rest for track.GONE (1 s) after it was last seen
        film = camera.film(table, shot, t0=t, tail=GOLF_TAIL)
        t = float(film.times[-1]) + 3.0
        yield film, shooter


#: seconds a kegle shot is filmed past its rest (a ball into a pocket holds the rest up for
#: track.GONE, as a golf ball into a goal does)
KEGLE_TAIL = 1.5


def _kegle_clear(spec: TableSpec, xy: XY, out: dict[str, XY]) -> bool:
    """On the bed, off the pocket mouths, clear of the pins and the other balls."""
    r = spec.ball_radius
    if not spec.on_bed(xy, margin=-0.002):
        return False
    if any(math.dist(xy, p) < spec.pocket_radius + r for p in spec.pockets.values()):
        return False
    if any(math.dist(xy, p) < spec.pin_radius + r + 0.004 for p in spec.pins.values()):
        return False
    return all(math.dist(xy, o) > 2 * r + 0.004 for o in out.values())


def kegle_layout(rng: random.Random, spec: TableSpec, by_pins: bool = False) -> dict[str, XY]:
    """The red and two whites anywhere clear; ``by_pins``: the first white 1-6 cm from a pin."""
    out: dict[str, XY] = {}
    for ball in ("white.1", "white.2", "red"):
        for _ in range(500):
            if by_pins and ball == "white.1":
                px, py = rng.choice(list(spec.pins.values()))
                a = rng.uniform(0.0, 2 * math.pi)
                d = spec.pin_radius + spec.ball_radius + rng.uniform(0.01, 0.06)
                xy = px + d * math.cos(a), py + d * math.sin(a)
            else:
                xy = _anywhere(rng, spec)
            if _kegle_clear(spec, xy, out):
                out[ball] = xy
                break
    return out


def kegle_kind(film: ShotFilm) -> str:
    """What the shot made: ``pins`` (a pin fell), ``carambole``, ``both`` or ``none``."""
    pins = any(h.kind == "pin" for h in film.truth.happenings)
    carambole = carambole_made(film.truth.happenings)
    return {(True, True): "both", (True, False): "pins", (False, True): "carambole"}.get(
        (pins, carambole), "none"
    )


def kegle_shots(n: int, seed: int = 0, camera: SimCamera | None = None) -> Iterator[tuple[ShotFilm, str]]:
    spec = table_spec("kegle")
    camera = camera or SimCamera(spec, seed=seed)
    rng = random.Random(seed)
    player = KeglePlayer(spec, seed=seed * 31 + 11, skill=0.75)
    t = 10.0
    for i in range(n):
        table = Table(spec, kegle_layout(rng, spec, by_pins=i % 3 == 1))
        shot = player.execute(player.plan(table, "p1"))
        film = camera.film(table, shot, t0=t, tail=KEGLE_TAIL)
        t = float(film.times[-1]) + 3.0
        yield film, kegle_kind(film)
