"""The games a table referees, each declared by its own package and found here.

A game is one place: ``rules/<game>/`` holds its engine, state, fouls, table and names,
and ``rules/<game>/game.py`` declares what the rest of the house asks about it (in the
manner of python-chess's variants, which carry their own aliases and settings): the
names a set-up may use for it, its quiet time, its turn clock, which field of the state
names its rule variant, the sensor events a referee may enter by hand. What a game draws
(the TV's plan, golf's replacement spots) is a piece of its package that ``part`` finds.
Outside a game's package, code asks ``get(game)`` or ``part(game, ...)`` instead of
branching on the game's name.

Adding a game is adding its package with a ``game.py``; this module finds it. The
declarations are data only (a ``game.py`` imports nothing of the house but this module),
so asking a game never imports an engine.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType
from typing import Any

from .frozen import Frozen


class UnknownGame(ValueError):
    """A game no package declares; the message lists the games there are."""


#: a game's fields in their order (its constructor's, its ``repr``'s)
_FIELDS = ("name", "order", "aliases", "quiet_s", "turn_clock", "shot_clock", "variant", "variant_default",
           "by_hand", "table_sizes", "played_to", "tv", "balls", "card_colours", "title", "camera_balls",
           "camera_colours_chosen", "camera_cushions")


class Game(Frozen):
    """A game's declaration: frozen data, compared, hashed and shown field by field as a frozen
    dataclass is (``replace`` gives a copy with changes); ``Frozen`` rather than ``@dataclass``
    for the start-up of ``tablesense replay`` (frozen.py)."""

    __slots__ = _FIELDS
    _fields = _FIELDS

    #: the id a ``setup`` event names (docs/events.md)
    name: str
    #: where it stands in every list of games (the command line's choices, the pages)
    order: int
    #: other names a set-up may give it, lower case (``"keglebillard"``, ``"bumper pool"``)
    aliases: tuple[str, ...]
    #: seconds without a sensor event after which the table reports ``rest``: the table
    #: profile's ``rest_quiet_ms`` (hardware/profiles/<game>.toml; a test keeps them equal)
    quiet_s: float
    #: seconds a turn may take, counted from the rest; None: no turn clock
    turn_clock: int | None
    #: a set-up's ``shot_clock`` (whole seconds) sets the turn clock of that match
    shot_clock: bool
    #: the field of the state naming the match's rule variant, which picks the panel's fouls
    variant: str
    #: the default of that field when the state has none
    variant_default: str | None
    #: the sensor events a referee may enter by hand while the sensors are out (web/sensors.py)
    by_hand: tuple[str, ...]
    #: the set-up's ``table`` picks the bed (a match table or a smaller one)
    table_sizes: bool
    #: the set-up's field a match is played to: ``"targets"`` (caroms each), ``"distance"``
    #: (points to reach); None: the game's own length (golf: best of three frames)
    played_to: str | None
    #: the state's fields the TV shows beside its own drawing of the game (web/view.py,
    #: ``view.extras``): a field per player (``{"p1": ..., "p2": ...}``) as a line on each
    #: player's card, a plain value in the middle. Any other field stays off the TV: a new
    #: field of an engine reaches the screen when its game declares it here, never by chance.
    tv: tuple[str, ...]
    #: the balls its events name (``ball``): golf's are its players' own, ``p1`` and ``p2``
    balls: tuple[str, ...]
    #: the colour of the ball each player plays, for the TV's player cards and plan
    #: (``(("p1", "red"), ...)``); none: both play the same ball (keglebillard's red)
    card_colours: tuple[tuple[str, str], ...]
    #: its name in an English sentence ("golf billiards")
    title: str
    #: the balls a camera looks for: (name, colour, how many share it); the colour is one of
    #: ``vision.colours.NAMED``, a ball named for a side (``p1``) is that player's set
    camera_balls: tuple[tuple[str, str, int], ...]
    #: the players' sets take the colours the match chooses (a profile's or ``--ball p1=blue``)
    camera_colours_chosen: bool
    #: the camera names the cushion a ball hits by the bed's four straight sides (the table's
    #: cushion numbers); False: the cushions are no such sides, and none are named
    camera_cushions: bool

    def __init__(self, name: str, order: int, aliases: tuple[str, ...] = (), quiet_s: float = 1.5,
                 turn_clock: int | None = None, shot_clock: bool = False, variant: str = "format",
                 variant_default: str | None = "single", by_hand: tuple[str, ...] = (),
                 table_sizes: bool = False, played_to: str | None = None, tv: tuple[str, ...] = (),
                 balls: tuple[str, ...] = (), card_colours: tuple[tuple[str, str], ...] = (),
                 title: str = "", camera_balls: tuple[tuple[str, str, int], ...] = (),
                 camera_colours_chosen: bool = False, camera_cushions: bool = True) -> None:
        given = locals()
        for field in _FIELDS:
            object.__setattr__(self, field, given[field])

    def replace(self, **changes: Any) -> Game:
        """A copy with ``changes`` (``dataclasses.replace``'s)."""
        return Game(**{**{field: getattr(self, field) for field in _FIELDS}, **changes})

    @property
    def settle_s(self) -> float:
        """The settle window: half the quiet time. A drop or a pin falling sooner than this
        after the rest settles the shot before; later, it may open the next shot."""
        return self.quiet_s / 2


@cache
def _declared() -> tuple[Game, ...]:
    """The games that the packages under ``rules/`` declare (``rules/<game>/game.py``). The
    folder is listed, not imported here (the engines' package reads this module); a package is
    a folder with an ``__init__.py``, as ``pkgutil`` finds them (without its imports)."""
    rules = f"{__package__}.rules"
    folder = os.path.join(os.path.dirname(__file__), "rules")
    found: list[Game] = []
    for name in sorted(os.listdir(folder)):
        if "." in name or not os.path.isfile(os.path.join(folder, name, "__init__.py")):
            continue
        module = importlib.import_module(f"{rules}.{name}.game")
        game: Game = module.GAME
        if game.name != name:
            raise RuntimeError(f"rules/{name}/game.py declares the game {game.name!r}")
        found.append(game)
    return tuple(sorted(found, key=lambda g: g.order))


@cache
def _by_name() -> dict[str, Game]:
    out = {g.name: g for g in _declared()}
    for g in _declared():
        for alias in g.aliases:
            out.setdefault(alias, g)
    return out


def every() -> tuple[Game, ...]:
    """Every game, in its declared order."""
    return _declared()


def names() -> tuple[str, ...]:
    """The ids of every game, in order: ``("golf", "kegle", "carom")``."""
    return tuple(g.name for g in _declared())


def either() -> str:
    """The games as a sentence says them: ``"golf, kegle or carom"``."""
    *first, last = names()
    return f"{', '.join(first)} or {last}" if first else last


def played_to(field: str) -> tuple[str, ...]:
    """The games whose set-up's ``field`` says how long a match is (``"targets"``: carom)."""
    return tuple(g.name for g in _declared() if g.played_to == field)


def find(name: str | None) -> Game | None:
    """The game called ``name`` (its id or an alias, case and outer spaces aside); None if none is."""
    if not isinstance(name, str):
        return None
    return _by_name().get(name.strip().lower())


def get(name: str | None) -> Game:
    """The game called ``name``; ``UnknownGame`` (one line, the games listed) if none is."""
    game = find(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r} (games: {', '.join(names())})")
    return game


def part(name: str | None, what: str, room: str = "rules") -> ModuleType | None:
    """A piece of the game's package the rest of the house draws on by name
    (``rules/<game>/<what>.py``: ``plan``, the TV's drawing of the bed; ``spots``, golf's
    replacement spots; ``league``, its competitions; ``figures``, its score sheet); None when
    the game is unknown or has no such piece. A room whose parts need an extra the rules do
    not (the simulator's physics) keeps its games' parts in ``<room>/<game>/<what>.py``
    (``room="sim"``)."""
    game = find(name)
    if game is None:
        return None
    return _part(room, game.name, what)


@cache
def _part(room: str, name: str, what: str) -> ModuleType | None:
    where = f"tablesense.{room}.{name}.{what}"
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as exc:
        if exc.name != where:
            raise
        return None


__all__ = ["Game", "UnknownGame", "either", "every", "find", "get", "names", "part", "played_to"]
