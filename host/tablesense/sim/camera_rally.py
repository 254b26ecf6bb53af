"""A carom rally filmed end to end: one table, shot after shot from where the balls stopped.

``carom_rally(n, seed)`` plays ``n`` shots of two simulated players (p1 yellow, p2 white;
the player stays at the table while making caroms) from the balls' starting positions, and
films each with one ``SimCamera``; each film starts on the frame after the previous one's
last, so the frames of all shots are one continuous video (``tablesense camera film``
writes it). Unlike ``camera_shots.carom_shots`` (a fresh random lay-out per shot, for
measuring), nothing jumps between shots, as on a real table.
"""

from __future__ import annotations

from collections.abc import Iterator

from .camera import ShotFilm, SimCamera
from .physics import Table
from .players import CAROM_BALL, CaromPlayer, carom_made
from .tables import table_spec

LEAD = 1.0  # s filmed before each strike (the player addresses the ball)


def carom_rally(
    n: int, seed: int = 0, discipline: str = "libre", camera: SimCamera | None = None
) -> Iterator[tuple[str, ShotFilm]]:
    """``(side, film)`` of each shot, the films' frames contiguous from t = 0."""
    spec = table_spec("carom")
    camera = camera or SimCamera(spec, seed=seed)
    table = Table(spec, dict(spec.start))
    players = {side: CaromPlayer(spec, seed=seed * 31 + i, skill=0.75, discipline=discipline)
               for i, side in enumerate(("p1", "p2"))}
    side, frames = "p1", 0
    for _ in range(n):
        t0 = frames / camera.fps + LEAD
        player = players[side]
        film = camera.film(table, player.execute(player.plan(table, side)), t0=t0, lead=LEAD)
        yield side, film
        if not carom_made(film.truth.happenings, CAROM_BALL[side], discipline):
            side = "p2" if side == "p1" else "p1"
        frames += len(film.times)
