"""A whole simulated match: players shoot, the table answers, a referee bot calls.

``play_match(game, seed)`` returns every table event of a match that plays itself, setup
first; ``simulated_match(...)`` yields the same events paced in real time (scaled by
``speed``; ``speed=0`` is as fast as possible). Each event is fed to the real rule engine
through ``tablesense.replay.Replay``, whose state decides who is at the table, which balls
are left and when the match is over, exactly as on the scoreboard.

The referee bot does what the engines need from a person: the ``start`` call, a ``carom``
call after a shot whose carom the sensors cannot see (when not in full-information mode),
answers to the engine's questions (from what the simulator knows happened, else the
first option), and the placing of balls the rules put back on the table (replacement
spots, the red in the kitchen, a white on its spot, the outlay after a jump).
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..errors import TablesenseError
from ..events import Call, Event, Setup
from ..replay import LineError, Replay
from .physics import Happening, Table
from .players import Player, player_for
from .sensors import SensorSet, pin_edges, pins_up_edges, pins_up_events, sensor_set, table_events
from .tables import XY, TableSpec, owner, table_spec

NAMES = ("Ann", "Bob", "Cor", "Dirk", "Els", "Frits", "Gerda", "Hans", "Inge", "Jan")
#: seconds a player takes between the balls coming to rest and the next stroke
THINK = (3.0, 9.0)
#: how long after rest the referee's call comes
CALL_DELAY = 0.8
MAX_SHOTS = 600


class SimError(TablesenseError, ValueError):
    """A match the simulator cannot play (bad game or option)."""


@dataclass
class MatchSim:
    """One self-playing match. Iterate ``events()`` to play it."""

    game: str
    seed: int = 0
    full_info: bool = True
    opts: dict[str, Any] = field(default_factory=dict)
    edges: list[dict[str, Any]] = field(default_factory=list)
    #: collect HAL pin edges of every shot into ``edges`` (firmware in the loop)
    want_edges: bool = False

    def __post_init__(self) -> None:
        game = games.find(self.game)
        if game is None or game.name != self.game:
            raise SimError(f"unknown game {self.game!r} (games: {', '.join(games.names())})")
        self.rng = random.Random(self.seed)
        #: the game as the simulator plays it: ``sim/<game>/play.py``
        self.part: Any = games.part(self.game, "play", room="sim")
        self.setup = self._setup()
        size = str(self.setup.extra.get("table", "match")) if game.table_sizes else "match"
        self.spec: TableSpec = table_spec(self.game, size)
        self.table = Table(self.spec)
        discipline = self.setup.discipline or "libre"
        self.players: dict[str, Player] = {
            p: player_for(self.game, self.spec, seed=self.seed * 7919 + i, skill=self.rng.uniform(0.55, 0.9),
                          discipline=discipline)
            for i, p in enumerate(("p1", "p2"))
        }
        self.sensors: SensorSet = sensor_set(self.game, self.opts.get("profile"))
        self.replay = Replay()
        self.t = 0.0
        self.shots = 0
        self.log: list[Event] = []
        #: the ``frame()`` the table was last set for (golf: a new frame sets the balls again)
        self.frame_seen: Any = None
        self._edge_rng = random.Random(self.seed + 1)
        #: positions before the last shot and what happened in it (the referee saw it)
        self.last_shot: tuple[dict[str, XY], list[Happening]] = ({}, [])

    # --- set-up ---------------------------------------------------------------------------
    def _setup(self) -> Setup:
        names = self.rng.sample(NAMES, 2)
        players = {"p1": names[0], "p2": names[1]}
        return self.part.setup(players, self.opts)

    # --- the feed -------------------------------------------------------------------------
    def _emit(self, event: Event) -> Event:
        try:
            self.replay.apply(event)
        except TablesenseError as exc:  # the engine refused it: keep the log, note why
            self.replay.errors.append(LineError(len(self.log) + 1, str(exc)))
        self.log.append(event)
        return event

    def state_json(self) -> dict[str, Any]:
        return self.replay.to_json()

    def events(self) -> Iterator[Event]:
        """Play the match; yields each event after the engine has seen it."""
        yield self._emit(self.setup)
        first = self.rng.choice(("p1", "p2"))
        self.t = 1.0
        yield self._emit(Call(t=self.t, call="start", player=first))
        self.frame_seen = self.frame()
        max_shots = int(self.opts.get("max_shots", MAX_SHOTS))
        while self.shots < max_shots:
            state = self.state_json()
            if state.get("finished"):
                return
            yield from self._answer_questions(state)
            state = self.state_json()
            side = state.get("at_table") or "p1"
            self._reconcile(state)
            player = self.players[side]
            plan = player.plan(self.table, side)
            shot = player.execute(plan)
            self.t = round(self.t + self.rng.uniform(*THINK), 3)
            before = self.table.positions()
            happenings = self.table.shoot(shot, t0=self.t)
            self.last_shot = (before, happenings)
            self.shots += 1
            if self.want_edges:
                self.edges.extend(pin_edges(happenings, self.spec, self.sensors, self._edge_rng))
            for event in table_events(happenings, self.sensors, self.full_info):
                yield self._emit(event)
            self.t = happenings[-1].t
            yield from self._after_rest(happenings, side, shot.ball)

    def _after_rest(self, happenings: list[Happening], side: str, cue: str) -> Iterator[Event]:
        if not self.full_info:
            if self.part.called(happenings, side, self.setup.discipline or "libre"):
                self.t = round(self.t + CALL_DELAY, 3)
                yield self._emit(Call(t=self.t, call="carom"))
        if self.table.pins_down:
            self.t = round(self.t + 1.5, 3)
            down = sorted(self.table.pins_down)
            if self.want_edges:
                self.edges.extend(pins_up_edges(self.t, down, self.sensors, self._edge_rng))
            over = bool(self.replay.state is not None and self.replay.state.finished)
            if ("pin" in self.sensors.kinds or self.full_info) and not over:
                for event in pins_up_events(self.t, down):
                    yield self._emit(event)
            self.table.pins_up()

    def _answer_questions(self, state: dict[str, Any]) -> Iterator[Event]:
        for _ in range(8):
            questions = state.get("questions") or []
            if not questions:
                return
            q = questions[0]
            self.t = round(self.t + CALL_DELAY, 3)
            yield self._emit(Call(t=self.t, call="answer", question=q["id"], answer=self.answer(q)))
            state = self.state_json()

    def answer(self, q: dict[str, Any]) -> Any:
        """The referee's answer to an engine's question: what the simulator saw happen when
        the question is about it, else "no" when that is an option, else the first option."""
        options = q.get("options") or [True, False]
        truth = self._truth(q)
        if truth is not None and truth in options:
            return truth
        return False if False in options else options[0]

    def _truth(self, q: dict[str, Any]) -> Any:
        before, happenings = self.last_shot
        t = q.get("t")

        def at(kind: str, where: Any = None) -> Happening | None:
            for h in happenings:
                if h.kind == kind and (where is None or h.where == where) and (
                        t is None or abs(h.t - float(t)) < 0.002):
                    return h
            return None

        rule = str(q.get("rule", ""))
        if rule == "golf.zone.leave":
            return self._zone_left(before, happenings, q.get("player"))
        if "goal" in q:
            h = at("goal", q["goal"])
            return owner(h.ball) if h is not None and h.ball else None
        if "pocket" in q:
            h = at("pocket", q["pocket"])
            return owner(h.ball) if h is not None and h.ball else None
        if "left the table" in str(q.get("text", "")):
            h = at("off_table")
            return owner(h.ball) if h is not None and h.ball else None
        return None

    def _zone_left(self, before: dict[str, XY], happenings: list[Happening], player: Any) -> bool:
        """Golf zone play: did a ball leave its zone (or end in the large attacking triangle)?"""
        from ..rules.golf import geometry as geo

        after = happenings[-1].positions if happenings else None
        if not after:
            return True
        for ball, xy in before.items():
            if ball not in after or geo.zone_of(xy) != geo.zone_of(after[ball]):
                return True
        if player in geo.ATTACKS:
            goal = geo.ATTACKS[player]
            return any(owner(b) == player and geo.in_triangle(xy, goal, "large") for b, xy in after.items())
        return False

    # --- the referee's hands: balls back on the table ------------------------------------------
    def frame(self) -> Any:
        """Which frame is played and the frames won: a new one means the balls start again."""
        s = self.state_json()
        return s.get("frame"), tuple(sorted((s.get("frames_won") or {}).items()))

    def _reconcile(self, state: dict[str, Any]) -> None:
        self.part.reconcile(self, state)

    def free_spot(self, wanted: list[XY]) -> XY:
        """The first wanted spot no ball covers, else the nearest free point around it."""
        pos = list(self.table.positions().values())
        clear = 2 * self.spec.ball_radius + 0.002
        for xy in wanted:
            if all(math.dist(xy, p) >= clear for p in pos):
                return xy
        x0, y0 = wanted[0]
        for ring in range(1, 40):
            for k in range(12):
                a = 2 * math.pi * k / 12
                xy = (x0 + ring * 0.02 * math.cos(a), y0 + ring * 0.02 * math.sin(a))
                if self.spec.on_bed(xy, margin=-0.005) and all(math.dist(xy, p) >= clear for p in pos):
                    return xy
        return wanted[0]


def play_match(game: str, seed: int = 0, full_info: bool = True, **opts: Any) -> list[Event]:
    """A whole simulated match as a list of table events (setup first)."""
    sim = MatchSim(game, seed=seed, full_info=full_info, opts=opts)
    return list(sim.events())


async def simulated_match(game: str, seed: int = 0, speed: float = 1.0, full_info: bool = True,
                          **opts: Any) -> AsyncIterator[Event]:
    """The events of a simulated match as they happen: paced by their ``t`` divided by
    ``speed`` (``speed=0``: as fast as possible, still yielding to the event loop)."""
    if speed < 0:
        raise SimError(f"speed must be 0 (as fast as possible) or more, not {speed}")
    sim = MatchSim(game, seed=seed, full_info=full_info, opts=opts)
    start = time.monotonic()
    feed = sim.events()
    while True:
        # the physics and the players' look-ahead run off the event loop
        event = await asyncio.to_thread(next, feed, None)
        if event is None:
            return
        if speed > 0:
            delay = start + event.t / speed - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
        yield event


