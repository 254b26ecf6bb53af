"""Which balls a camera looks for on each table, and what colour each is (OpenCV HSV).

OpenCV's HSV: hue 0..180, saturation and value 0..255. A colour is one or more hue bands
with the least saturation and value a pixel of it has (``max_sat`` for the white: a white
ball is the one unsaturated bright thing on the cloth). ``count`` balls share a colour
(keglebillard's two whites, a golf player's five balls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import games
from ..errors import TablesenseError


class UnknownColour(TablesenseError, ValueError):
    """A ball colour the camera has no range for."""


@dataclass(frozen=True, slots=True)
class BallColour:
    name: str
    hues: tuple[tuple[int, int], ...]
    min_sat: int = 0
    max_sat: int = 255
    min_val: int = 0
    count: int = 1


WHITE = BallColour("white", ((0, 180),), min_sat=0, max_sat=70, min_val=110)
YELLOW = BallColour("yellow", ((17, 38),), min_sat=130, min_val=90)
RED = BallColour("red", ((0, 8), (168, 180)), min_sat=140, min_val=60)
BLUE = BallColour("blue", ((100, 125),), min_sat=130, min_val=40)
GREEN = BallColour("green", ((45, 85),), min_sat=110, min_val=40)
BLACK = BallColour("black", ((0, 180),), min_sat=0, max_sat=255, min_val=0)
#: named colours a profile (or ``--ball p1=red``) may give a golf player's balls
NAMED = {c.name: c for c in (WHITE, YELLOW, RED, BLUE, GREEN)}


def colours_for(game: str, golf_colours: dict[str, str] | None = None) -> tuple[BallColour, ...]:
    """The balls of ``game`` as the camera sees them (the game's ``camera_balls``); where the
    match chooses the players' colours (golf), ``golf_colours`` gives them
    (``{"p1": "red", "p2": "yellow"}`` by default)."""
    found = games.find(game)
    if found is None or found.name != game or not found.camera_balls:
        raise UnknownColour(f"no camera colours for game {game!r} (games: {', '.join(games.names())})")
    picked = chosen_colours(game, golf_colours) or {name: colour for name, colour, _ in found.camera_balls}
    out = []
    for name, _, count in found.camera_balls:
        colour = NAMED.get(picked[name])
        if colour is None:
            raise UnknownColour(f"{game} {name}: no camera colour {picked[name]!r} "
                                f"(colours: {', '.join(NAMED)})")
        out.append(_renamed(colour, name, count))
    if found.camera_colours_chosen and len(set(picked.values())) < len(picked):
        raise UnknownColour(f"{game}: the two players' balls need two different colours for the camera")
    return tuple(out)


def chosen_colours(game: str, chosen: dict[str, str] | None = None) -> dict[str, str]:
    """Each player's set -> its colour, for a game whose match chooses them (golf: ``chosen``
    over the defaults); {} for any other."""
    found = games.find(game)
    if found is None or not found.camera_colours_chosen:
        return {}
    defaults = {name: colour for name, colour, _ in found.camera_balls}
    return {**defaults, **{k: v for k, v in (chosen or {}).items() if k in defaults}}


def _renamed(colour: BallColour, name: str, count: int) -> BallColour:
    return BallColour(name, colour.hues, colour.min_sat, colour.max_sat, colour.min_val, count)


def colours_to_json(colours: tuple[BallColour, ...]) -> dict[str, dict[str, Any]]:
    """The ranges of ``colours`` as the calibration file keeps them (by ball colour name)."""
    return {
        c.name: {"hues": [list(h) for h in c.hues], "min_sat": c.min_sat, "max_sat": c.max_sat,
                 "min_val": c.min_val}
        for c in colours
    }


def with_learnt(colours: tuple[BallColour, ...], raw: Any) -> tuple[BallColour, ...]:
    """``colours`` with the ranges a calibration file learnt (``colours_to_json``); a colour the
    file does not have (an older file, a ball not on the table) keeps its default."""
    if raw is None:
        return colours
    if not isinstance(raw, dict):
        raise UnknownColour("the calibration's 'colours' is not a table of ball colours")
    out = []
    for c in colours:
        got = raw.get(c.name)
        if got is None:
            out.append(c)
            continue
        try:
            hues = tuple((int(lo), int(hi)) for lo, hi in got["hues"])
            sat = (int(got["min_sat"]), int(got["max_sat"]))
            val = int(got["min_val"])
        except (KeyError, TypeError, ValueError) as exc:
            raise UnknownColour(f"the calibration's colour {c.name!r} is not a range: {exc}") from None
        if (
            not hues
            or any(not 0 <= lo <= hi <= 180 for lo, hi in hues)
            or not 0 <= sat[0] <= sat[1] <= 255
            or not 0 <= val <= 255
        ):
            raise UnknownColour(f"the calibration's colour {c.name!r} is out of OpenCV's HSV ranges")
        out.append(BallColour(c.name, hues, sat[0], sat[1], val, c.count))
    return tuple(out)
