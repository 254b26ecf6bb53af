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

Everything is read from the state as it stands, so an undo or a voided shot (the state
replayed without it) is never on the sheet. ``figures_of_log(lines)`` replays a whole log
(its void records applied) into ``Figures``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import TablesenseError
from .events import Setup, parse_line
from .replay import LineError, Replay, effective_lines
from .rules.base import player_names
from .rules.golf.resolve import FRAMES_TO_WIN

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
    """A match's figures: the score sheet's, and the screens' (``for_screens``)."""

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
    carom = _carom(state, names, moyennes or {}) if game == "carom" else None
    kegle = _kegle(state, names) if game == "kegle" else None
    golf = _golf(state) if game == "golf" else None
    return Figures(game, names, state.finished, state.winner, golf, kegle, carom, tuple(errors))


def _carom(state: Any, names: Mapping[str, str], moyennes: Mapping[str, Any]) -> CaromFigures:
    m = state.m
    second = "p2" if m.breaker == "p1" else "p1"
    equalising = second if m.nastoot else None
    players = []
    for i, p in enumerate(SIDES):
        playing = state.at_table == p and not state.finished
        last = m.innings[i] + (1 if playing else 0)  # the equalising inning is the last one
        innings, total = [], 0
        for n, run in enumerate(m.runs[i], start=1):
            total += run
            innings.append(Inning(n, run, total, equalising == p and n == last))
        if playing:  # the inning in play
            innings.append(Inning(last, m.run, m.caroms[i], equalising == p, playing=True))
        registered = moyennes.get(p)
        players.append(CaromPlayer(
            p, names.get(p, p), tuple(innings), m.caroms[i], m.targets[i], m.high_run[i],
            round(m.caroms[i] / m.innings[i], 3) if m.innings[i] else 0.0,
            float(registered) if isinstance(registered, (int, float)) and not isinstance(registered, bool)
            else None,
            m.points[i] if m.points is not None else None,
            m.timeouts - m.timeouts_used[i] if m.shot_clock else None))
    return CaromFigures(m.discipline, m.profile.name, m.breaker, (players[0], players[1]), equalising,
                        m.innings_limit, m.shot_clock, bool(state.finished))


def _kegle(state: Any, names: Mapping[str, str]) -> KegleFigures:
    sc = state.score
    players = []
    for i, p in enumerate(SIDES):
        starts = sc.series_starts[i]  # the player's points as each of his series began
        ends = (*starts[1:], sc.points[i]) if starts else ()
        playing = state.at_table == p and not state.finished and sc.shots > 0
        series = tuple(Series(n, max(0, b - a), b, playing=playing and n == len(starts))
                       for n, (a, b) in enumerate(zip(starts, ends, strict=True), start=1))
        count = len(series)
        players.append(KeglePlayer(p, names.get(p, p), series, sc.points[i], sc.distance[i],
                                   max((s.points for s in series), default=0),
                                   round(sc.points[i] / count, 2) if count else 0.0))
    return KegleFigures(sc.first, (players[0], players[1]))


def _golf(state: Any) -> GolfFigures:
    frames = [Frame(n, winner, (left1, left2), turns)
              for n, (winner, (left1, left2, turns)) in enumerate(
                  zip(state.frame_winners, state.frame_ends, strict=True), start=1)]
    if not state.finished:  # the frame in play, as it stands
        frames.append(Frame(state.frame, None, (state.balls_left[0], state.balls_left[1]), state.frame_units))
    return GolfFigures(tuple(frames), (state.frames_won[0], state.frames_won[1]), 2 * FRAMES_TO_WIN - 1,
                       bool(state.duo), state.frame)


# --- what the screens read --------------------------------------------------------------------

def for_screens(fig: Figures | None) -> dict[str, Any]:
    """The figures as the screens' JSON (``view.club``: tv.js, overview.js, ref.js); {} for none."""
    if fig is None:
        return {}
    if fig.carom is not None:
        return _carom_json(fig.carom)
    if fig.kegle is not None:
        return {"game": "kegle", "players": {p.player: {
            "points": p.points, "distance": p.distance, "remaining": p.remaining,
            "series": [s.points for s in p.series], "highest": p.highest,
            "average": round(p.points / len(p.series), 1) if p.series else 0.0,
        } for p in fig.kegle.players}}
    if fig.golf is not None:
        g = fig.golf
        return {"game": "golf", "best_of": g.best_of, "frames_to_win": g.frames_to_win, "frame": g.frame,
                "frames_won": dict(zip(SIDES, g.frames_won, strict=True))}
    return {}


def _carom_json(c: CaromFigures) -> dict[str, Any]:
    players = {}
    for p in c.players:
        runs = list(p.runs)
        players[p.player] = {
            "caroms": p.caroms, "target": p.target, "remaining": p.remaining,
            "innings": p.innings_played, "runs": runs, "last": runs[-LAST_INNINGS:],
            "high_run": p.high_run, "run": p.run, "average": p.moyenne, "moyenne": p.registered,
            "percent": math.floor(p.caroms * 100 / p.target) if p.target else None,
        }
    timeouts = ({p.player: p.timeouts_left for p in c.players} if c.shot_clock else None)
    return {
        "game": "carom", "discipline": c.discipline, "players": players,
        "innings_limit": c.innings_limit, "inning": c.inning, "innings_left": c.innings_left,
        "innings_played": max(p.innings_played for p in c.players),
        "nastoot": c.equalising, "shot_clock": c.shot_clock, "timeouts_left": timeouts,
    }


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
