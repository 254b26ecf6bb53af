"""What a club writes on its score sheet, from the match state as it goes: pure, no I/O.

The match state holds the score now; the sheet needs it inning by inning (carom: the
run of each inning, the "schrijver's" sheet), series by series (keglebillard) and frame
by frame (golf). ``Tally`` keeps those as the match is replayed (or played): it is shown
the state after every event (``see``) and writes down, per player, the running total at
the end of each inning or series and, per golf frame, how it ended. An undo or a voided
shot hands it an earlier state again: what lies beyond that state is forgotten and
written anew, so the figures always belong to the match as it stands.

``figures_of_log(lines)`` replays a whole log (its void records applied) into
``Figures``; the TV can keep a ``Tally`` beside a live table and call ``figures(state)``.

- carom (``CaromFigures``): per player every inning with its run and the total after
  it, the equalising inning (nastoot, 003 Art. 9) marked, tonight's moyenne (caroms per
  inning), the registered one of the set-up, the high run, the target and the share of
  it made, the match points;
- keglebillard (``KegleFigures``): per player every series with its points and the total
  after it, the highest series, the average per series, the distance;
- golf (``GolfFigures``): every frame's winner, the balls each side had left when it
  ended and its turns; frames won, best of 3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import TablesenseError
from ..events import Setup, parse_line
from ..replay import LineError, Replay, effective_lines
from ..rules.base import player_names
from ..rules.golf.resolve import FRAMES_TO_WIN

SIDES = ("p1", "p2")


# --- what the sheet shows ------------------------------------------------------------------

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


@dataclass(frozen=True, slots=True)
class Figures:
    """A match's figures for its score sheet."""

    game: str
    names: Mapping[str, str]
    finished: bool
    winner: str | None
    golf: GolfFigures | None = None
    kegle: KegleFigures | None = None
    carom: CaromFigures | None = None
    errors: tuple[LineError, ...] = ()


# --- keeping them as the match goes ---------------------------------------------------------

class Tally:
    """The running totals at the end of each inning (carom), series (keglebillard) and
    frame (golf), kept from the states of a match shown to it one after another."""

    def __init__(self, setup: Setup | None = None) -> None:
        #: per player: inning (or series) number -> the player's total at its end
        self.ends: dict[str, dict[int, int]] = {p: {0: 0} for p in SIDES}
        #: golf: frame number -> how it ended
        self.frames: dict[int, Frame] = {}
        #: the match's set-up (the registered moyennes are in it, not in the state)
        self.setup = setup

    def start(self, setup: Setup) -> None:
        """A new match: nothing kept from the one before."""
        self.ends = {p: {0: 0} for p in SIDES}
        self.frames = {}
        self.setup = setup

    def see(self, state: Any) -> None:
        """Note the state after an event (a new one, or an earlier one again after an undo)."""
        if state.game == "carom":
            m = state.m
            playing = state.at_table if not state.finished else None
            for i, p in enumerate(SIDES):
                made = m.caroms[i] - (m.run if p == playing else 0)  # the inning in play is not over
                self._note(p, m.innings[i], made)
        elif state.game == "kegle":
            sc = state.score
            for i, p in enumerate(SIDES):
                self._note(p, sc.series[i], sc.points[i])
        elif state.game == "golf":
            self._see_golf(state)

    def _note(self, player: str, number: int, total: int) -> None:
        ends = self.ends[player]
        for later in [n for n in ends if n > number]:  # undone: gone from the match
            del ends[later]
        if number > 0:
            ends[number] = total

    def _see_golf(self, state: Any) -> None:
        done = len(state.frame_winners)
        for later in [n for n in self.frames if n > done]:
            del self.frames[later]
        before = state.before
        if done == 0 or before is None or len(before.frame_winners) != done - 1 or state.in_shot:
            return
        winner = state.frame_winners[-1]  # this shot decided frame ``done``
        if state.finished:
            left = tuple(state.balls_left)  # the last frame: the state keeps its balls
        else:
            left = _balls_after(before.balls_left, state.rulings[len(before.rulings):])
        self.frames[done] = Frame(done, winner, (left[0], left[1]), before.frame_units + 1)

    def figures(self, state: Any, errors: Iterable[LineError] = ()) -> Figures:
        """The figures of the match whose latest state is ``state``."""
        names = player_names(state)
        out = Figures(state.game, names, state.finished, state.winner, errors=tuple(errors))
        if state.game == "carom":
            return replace(out, carom=self._carom(state, names))
        if state.game == "kegle":
            return replace(out, kegle=self._kegle(state, names))
        if state.game == "golf":
            return replace(out, golf=self._golf(state))
        return out

    def _carom(self, state: Any, names: Mapping[str, str]) -> CaromFigures:
        m = state.m
        second = "p2" if m.breaker == "p1" else "p1"
        equalising = second if m.nastoot else None
        moyennes = (self.setup.moyennes if self.setup is not None else None) or {}
        players = []
        for i, p in enumerate(SIDES):
            ends = self.ends[p]
            playing = state.at_table == p and not state.finished
            last = m.innings[i] + (1 if playing else 0)  # the equalising inning is the last one
            innings = [Inning(n, ends[n] - ends[n - 1], ends[n], equalising == p and n == last)
                       for n in range(1, m.innings[i] + 1) if n in ends and n - 1 in ends]
            if playing:  # the inning in play
                innings.append(Inning(last, m.run, m.caroms[i], equalising == p, playing=True))
            registered = moyennes.get(p)
            players.append(CaromPlayer(
                p, names.get(p, p), tuple(innings), m.caroms[i], m.targets[i], m.high_run[i],
                round(m.caroms[i] / m.innings[i], 3) if m.innings[i] else 0.0,
                float(registered) if registered is not None else None,
                m.points[i] if m.points is not None else None))
        return CaromFigures(m.discipline, m.profile.name, m.breaker, (players[0], players[1]), equalising)

    def _kegle(self, state: Any, names: Mapping[str, str]) -> KegleFigures:
        sc = state.score
        players = []
        for i, p in enumerate(SIDES):
            ends = self.ends[p]
            count = sc.series[i]
            series = tuple(Series(n, ends[n] - ends[n - 1], ends[n],
                                  playing=n == count and state.at_table == p and not state.finished
                                  and sc.shots > 0)
                           for n in range(1, count + 1) if n in ends and n - 1 in ends)
            players.append(KeglePlayer(p, names.get(p, p), series, sc.points[i], sc.distance[i],
                                       max((s.points for s in series), default=0),
                                       round(sc.points[i] / count, 2) if count else 0.0))
        return KegleFigures(sc.first, (players[0], players[1]))

    def _golf(self, state: Any) -> GolfFigures:
        frames = [self.frames[n] for n in sorted(self.frames)]
        if not state.finished:  # the frame in play, as it stands
            frames.append(Frame(state.frame, None, (state.balls_left[0], state.balls_left[1]),
                                state.frame_units))
        return GolfFigures(tuple(frames), (state.frames_won[0], state.frames_won[1]), 2 * FRAMES_TO_WIN - 1,
                           bool(state.duo))


def _balls_after(left: tuple[int, int], rulings: Iterable[Any]) -> tuple[int, int]:
    """The balls each side had left after the shot that decided a frame, from the balls
    before it and the shot's rulings (the state itself starts the next frame): a goal of
    one's own ball, an opponent's ball in a goal, an opponent's ball off the table each
    take one (``rules.golf.resolve``, step 3)."""
    bl = [left[0], left[1]]
    for r in rulings:
        if r.rule in ("golf.goal", "golf.goal.opponent-ball") and r.player in SIDES:
            bl[SIDES.index(r.player)] -= 1
        elif r.rule == "golf.off-table.opponent" and r.player in SIDES:
            bl[1 - SIDES.index(r.player)] -= 1
    return (max(bl[0], 0), max(bl[1], 0))


# --- a whole log ------------------------------------------------------------------------------

class NoMatch(TablesenseError):
    """The log holds no match (no set-up event)."""


def figures_of_log(lines: Iterable[str]) -> Figures:
    """The figures of the (last) match of a JSONL log, its void records applied; a bad line
    is kept in ``errors`` and the rest still counts."""
    rep = Replay()
    tally = Tally()
    for n, text in effective_lines(lines):
        try:
            event = parse_line(text)
            state = rep.apply(event)
        except TablesenseError as exc:
            rep.errors.append(LineError(n, str(exc), text.strip()))
            continue
        if isinstance(event, Setup):
            tally.start(event)
        tally.see(state)
    if rep.state is None:
        raise NoMatch("no match in it (no setup event)")
    return tally.figures(rep.state, rep.errors)
