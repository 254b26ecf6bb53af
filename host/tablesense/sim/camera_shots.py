"""Carom shots for the simulated camera: random layouts, played by the simulator's player.

``carom_shots(n, seed)`` yields ``(film, discipline)`` pairs: the balls laid out at random
(a third of them near a cushion or in a corner, where zones and thin cushion-first shots
are), the shot chosen by ``players.CaromPlayer`` for libre or driebanden, filmed by one
``SimCamera``. The same seed gives the same shots.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from .camera import ShotFilm, SimCamera
from .physics import Table
from .players import CaromPlayer
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
