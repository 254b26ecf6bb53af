"""What a club counts: the figures of its paper score sheet, from the engine's state. Pure, no I/O.

``figures(state, moyennes)`` gives typed records, read by the printable score sheet
(``tablesense sheet``, the pub's ``/sheet/<id>``: ``tablesense.sheet``) and, through
``for_screens``, by the TV, the overview and the referee panel (``web/view.py``). Numbers
only: the pages put the words of the table's language to them.

- carom (``CaromFigures``): per player every inning with its run and the total after it
  (the engine's ``runs``, one per inning ended, and the run of the inning in play), the
  equalising inning (nastoot, 003 Art. 9) marked, tonight's moyenne (caroms per inning),
  the registered one of the set-up, the high run, the target and the share of it made, the
  match points; the innings limit and the inning in play, the shot clock and the time-outs
  left;
- keglebillard (``KegleFigures``): per player every series with its points and the total
  after it (the engine's ``series_starts``: each player's points as each of his series
  began), the highest series, the average per series, the distance;
- golf (``GolfFigures``): every frame's winner, the balls each side had left when it ended
  and its turns (the engine's ``frame_ends``), the frame in play as it stands; frames won,
  best of 3.

Each game's reading is its package's ``figures.py`` (``rules/<game>/figures.py``: ``read``
the state into the record in the ``Figures`` field named for the game, ``screens`` it as
JSON), found by ``games.part``; this module holds the records.

Everything is read from the state as it stands, so an undo or a voided shot (the state
replayed without it) is never on the sheet. ``figures_of_log(lines)`` replays a whole log
(its void records applied) into ``Figures``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import games
from .errors import TablesenseError
from .events import Setup, parse_line
from .replay import LineError, Replay, effective_lines
from .rules.base import player_names

SIDES = ("p1", "p2")
#: how many innings (series) the TV lists: what club scoreboards show between shots
LAST_INNINGS = 5


# --- the records ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Inning:
    """One carom inning of a player: its caroms (the run) and the player's total after it."""

    number: int
    run: int
    total: int
    equalising: bool = False  # the equalising inning (nastoot)
    playing: bool = False  # the player is still at the table in it


@dataclass(frozen=True, slots=True)
class CaromPlayer:
    player: str
    name: str
    innings: tuple[Inning, ...]
    caroms: int
    target: int
    high_run: int
    moyenne: float  # tonight's: caroms per inning played
    registered: float | None  # the moyenne the set-up gave (the player's registered one)
    match_points: int | None
    timeouts_left: int | None = None  # with a shot clock: the time-outs the player may still take

    @property
    def innings_played(self) -> int:
        return sum(1 for i in self.innings if not i.playing)

    @property
    def runs(self) -> tuple[int, ...]:
        """The run of each inning ended, oldest first."""
        return tuple(i.run for i in self.innings if not i.playing)

    @property
    def run(self) -> int | None:
        """The run of the inning in play (None: the player is not at the table)."""
        return next((i.run for i in self.innings if i.playing), None)

    @property
    def remaining(self) -> int:
        return max(0, self.target - self.caroms)

    @property
    def percent(self) -> float:
        """The share of the target made, in per cent."""
        return 100.0 * self.caroms / self.target if self.target else 0.0


@dataclass(frozen=True, slots=True)
class CaromFigures:
    discipline: str
    profile: str
    breaker: str
    players: tuple[CaromPlayer, CaromPlayer]
    equalising: str | None  # who has (or had) the equalising inning
    innings_limit: int | None = None
    shot_clock: int | None = None  # seconds a shot (driebanden competitions)
    finished: bool = False

    @property
    def second(self) -> str:
        return "p2" if self.breaker == "p1" else "p1"

    @property
    def inning(self) -> int:
        """The inning in play (of the limit): the second player's innings so far, plus the one under way."""
        n = self.players[SIDES.index(self.second)].innings_played + (0 if self.finished else 1)
        return min(n, self.innings_limit) if self.innings_limit else n

    @property
    def innings_left(self) -> int | None:
        if not self.innings_limit:
            return None
        return max(0, self.innings_limit - self.players[SIDES.index(self.second)].innings_played)


@dataclass(frozen=True, slots=True)
class Series:
    """One keglebillard series of a player: its points and the player's total after it."""

    number: int
    points: int
    total: int
    playing: bool = False


@dataclass(frozen=True, slots=True)
class KeglePlayer:
    player: str
    name: str
    series: tuple[Series, ...]
    points: int
    distance: int
    highest: int
    average: float  # points per series

    @property
    def remaining(self) -> int:
        return max(0, self.distance - self.points)


@dataclass(frozen=True, slots=True)
class KegleFigures:
    first: str
    players: tuple[KeglePlayer, KeglePlayer]


@dataclass(frozen=True, slots=True)
class Frame:
    """One golf frame: who won it (None: in play), the balls each side had left when it
    ended (or has now), and its turns (shots and calls that stood on their own)."""

    number: int
    winner: str | None
    balls_left: tuple[int, int]
    turns: int


@dataclass(frozen=True, slots=True)
class GolfFigures:
    frames: tuple[Frame, ...]
    frames_won: tuple[int, int]
    best_of: int
    duo: bool
    frame: int  # the frame in play (the last one, once the match is over)

    @property
    def frames_to_win(self) -> int:
        return self.best_of // 2 + 1


@dataclass(frozen=True, slots=True)
class Figures:
    """A match's figures: the score sheet's, and the screens' (``for_screens``). The game's own
    record is in the field named for the game (its ``figures.py`` reads it)."""

    game: str
    names: Mapping[str, str]
    finished: bool
    winner: str | None
    golf: GolfFigures | None = None
    kegle: KegleFigures | None = None
    carom: CaromFigures | None = None
    errors: tuple[LineError, ...] = ()


# --- from the engine's state ------------------------------------------------------------------

def figures(state: Any, moyennes: Mapping[str, Any] | None = None,
            errors: Iterable[LineError] = ()) -> Figures:
    """The figures of the match whose state (the engine's, as shown: ``engine.live``) is
    ``state``; ``moyennes``: the set-up's registered moyennes (not in the state)."""
    names = player_names(state)
    game = state.game
    own = games.part(game, "figures")  # rules/<game>/figures.py: the game's record, in its field
    counted = {game: own.read(state, names, moyennes or {})} if own is not None else {}
    return Figures(game, names, state.finished, state.winner, errors=tuple(errors), **counted)


# --- what the screens read --------------------------------------------------------------------

def for_screens(fig: Figures | None) -> dict[str, Any]:
    """The figures as the screens' JSON (``view.club``: tv.js, overview.js, ref.js); {} for none."""
    if fig is None:
        return {}
    own = games.part(fig.game, "figures")
    record = getattr(fig, fig.game, None)  # the record in the field named for its game
    if own is None or record is None:
        return {}
    screens: dict[str, Any] = own.screens(record)
    return screens


# --- a whole log ------------------------------------------------------------------------------

class NoMatch(TablesenseError):
    """The log holds no match (no set-up event)."""


def figures_of_log(lines: Iterable[str]) -> Figures:
    """The figures of the (last) match of a JSONL log, its void records applied; a bad line
    is kept in ``errors`` and the rest still counts."""
    rep = Replay()
    setup: Setup | None = None
    for n, text in effective_lines(lines):
        try:
            event = parse_line(text)
            rep.apply(event)
        except TablesenseError as exc:
            rep.errors.append(LineError(n, str(exc), text.strip()))
            continue
        if isinstance(event, Setup):
            setup = event
    if rep.state is None:
        raise NoMatch("no match in it (no setup event)")
    return figures(rep.state, setup.moyennes if setup is not None else None, rep.errors)
