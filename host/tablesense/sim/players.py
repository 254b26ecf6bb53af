"""Simple simulated players: they look at the table, try a few shots in their head, play one.

A player is seeded and reproducible. For the ball and the goal of the game it draws a
handful of candidate shots (direct aims, ghost-ball aims, a few random banks), plays each
on a copy of the table (the physics is fast enough for that), scores the outcome with the
game's idea of a good shot, and plays the best one with its own execution error (a bit
of direction and speed), so the shot actually played differs from the plan as at a real
table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

from .. import games
from ..rules.golf.geometry import ATTACKS, DEFENDS
from .physics import Happening, Shot, Table
from .tables import XY, TableSpec, owner

CAROM_BALL = {"p1": "yellow", "p2": "white"}
#: seconds of each trial shot the player imagines (what counts has happened by then)
LOOKAHEAD = 5.0


@dataclass(frozen=True, slots=True)
class Plan:
    """What the player is about to do, and what it expects."""

    shot: Shot
    score: float


def angle_to(a: XY, b: XY) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def ghost_aim(cue: XY, obj: XY, target: XY, radius: float) -> float:
    """Direction for ``cue`` so that ``obj`` runs towards ``target`` (the ghost-ball aim)."""
    d = math.hypot(target[0] - obj[0], target[1] - obj[1]) or 1.0
    ghost = (obj[0] - 2 * radius * (target[0] - obj[0]) / d, obj[1] - 2 * radius * (target[1] - obj[1]) / d)
    return angle_to(cue, ghost)


def reach_speed(distance: float, margin: float = 1.35) -> float:
    """A speed that carries a ball ``distance`` metres on the cloth, with some to spare."""
    return min(6.0, math.sqrt(2 * 0.25 * max(distance, 0.05)) * margin + 0.25)


def carom_made(happenings: Iterable[Happening], cue: str, discipline: str = "libre") -> bool:
    """Did the cue ball hit both other balls, with the cushions the discipline asks for
    (bandstoten: one, driebanden: three) before the second one?"""
    hit: set[str] = set()
    cushions = 0
    need = {"libre": 0, "bandstoten": 1, "driebanden": 3}.get(discipline, 0)
    for h in happenings:
        if h.kind == "cushion" and h.ball == cue:
            cushions += 1
        elif h.kind == "contact" and cue in (h.ball, h.other):
            other = h.other if h.ball == cue else h.ball
            if other is not None and other not in hit:
                hit.add(other)
                if len(hit) == 2:
                    return cushions >= need
        elif h.kind == "off_table":
            return False
    return False


def carambole_made(happenings: Iterable[Happening]) -> bool:
    """Keglebillard: the red hit both white balls."""
    hit = {h.other if h.ball == "red" else h.ball for h in happenings
           if h.kind == "contact" and "red" in (h.ball, h.other)}
    return len({b for b in hit if b and b.startswith("white")}) == 2


class Player:
    """A seeded player for one game; ``plan(table, side)`` picks the shot to play."""

    candidates = 10

    def __init__(self, spec: TableSpec, seed: int = 0, skill: float = 0.7, discipline: str = "libre") -> None:
        self.spec = spec
        self.rng = random.Random(seed)
        self.skill = skill
        self.discipline = discipline

    # --- per game -------------------------------------------------------------------------
    def options(self, table: Table, side: str) -> list[Shot]:
        raise NotImplementedError

    def score(self, happenings: list[Happening], side: str, before: dict[str, XY]) -> float:
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------
    def plan(self, table: Table, side: str) -> Plan:
        before = table.positions()
        best: Plan | None = None
        for shot in self.options(table, side):
            trial = Table(self.spec, before)
            outcome = trial.shoot(shot, max_time=LOOKAHEAD)
            value = self.score(outcome, side, before) + self.rng.random() * 0.01
            if best is None or value > best.score:
                best = Plan(shot, value)
        assert best is not None
        return best

    def execute(self, plan: Plan) -> Shot:
        """The shot as the arm plays it: the plan plus the player's execution error."""
        s = plan.shot
        spread = 1.6 * (1.0 - self.skill) + 0.15
        direction = (s.direction + self.rng.gauss(0.0, spread)) % 360.0
        speed = min(8.0, max(0.1, s.speed * (1.0 + self.rng.gauss(0.0, 0.04 * (1.5 - self.skill)))))
        return Shot(s.ball, round(direction, 3), round(speed, 3), s.follow, s.curve)

    def _random_shots(self, ball: str, n: int, lo: float, hi: float) -> list[Shot]:
        return [Shot(ball, round(self.rng.uniform(0, 360), 2), round(self.rng.uniform(lo, hi), 2))
                for _ in range(n)]


class GolfPlayer(Player):
    """Plays own balls at the goal attacked; prefers a clear line, avoids its own goal."""

    def options(self, table: Table, side: str) -> list[Shot]:
        goal = self.spec.goals[ATTACKS[side]]
        mine = [b for b in table.balls if owner(b) == side]
        pos = table.positions()
        mine.sort(key=lambda b: math.dist(pos[b], goal))
        shots: list[Shot] = []
        for ball in mine[:3]:
            d = math.dist(pos[ball], goal)
            direct = angle_to(pos[ball], goal)
            for off in (0.0, -5.0, 5.0):
                shots.append(Shot(ball, round(direct + off, 2), round(reach_speed(d), 2)))
        if mine:
            shots += self._random_shots(mine[0], 1, 1.0, 3.0)
        return shots

    def score(self, happenings: list[Happening], side: str, before: dict[str, XY]) -> float:
        value = 0.0
        attack, defend = ATTACKS[side], DEFENDS[side]
        for h in happenings:
            if h.kind == "goal" and h.ball is not None:
                mine = owner(h.ball) == side
                if mine and h.where == attack:
                    value += 10
                elif mine and h.where == defend:
                    value -= 8
                else:
                    value -= 3
            elif h.kind == "off_table":
                value -= 6
        rest = happenings[-1].positions or {}
        goal = self.spec.goals[attack]
        for ball, xy in rest.items():
            if owner(ball) == side:
                value -= 0.3 * math.dist(xy, goal)
        return value


class KeglePlayer(Player):
    """Plays the red onto a white so the white runs into the pins, or for a carambole."""

    def options(self, table: Table, side: str) -> list[Shot]:
        pos = table.positions()
        if "red" not in pos:
            return []
        red = pos["red"]
        pins = self.spec.pins.get(1, (self.spec.length / 2, self.spec.width / 2))
        shots: list[Shot] = []
        for white in (b for b in pos if b.startswith("white")):
            aim = ghost_aim(red, pos[white], pins, self.spec.ball_radius)
            d = math.dist(red, pos[white]) + math.dist(pos[white], pins)
            for off in (0.0, -2.0, 2.0):
                shots.append(Shot("red", round(aim + off, 2), round(reach_speed(d, 1.8), 2)))
            shots.append(Shot("red", round(angle_to(red, pos[white]), 2), round(reach_speed(d, 1.5), 2)))
        shots += self._random_shots("red", 3, 1.0, 3.0)
        return shots

    def score(self, happenings: list[Happening], side: str, before: dict[str, XY]) -> float:
        value = 4.0 if carambole_made(happenings) else 0.0
        for h in happenings:
            if h.kind == "pin":
                value += 2 if h.ball and h.ball.startswith("white") else -10
            elif h.kind == "pocket":
                value -= 10 if h.ball == "red" else 3
            elif h.kind == "off_table":
                value -= 10
        return value


class CaromPlayer(Player):
    """Plays its own ball (p1 yellow, p2 white) for a carom of the discipline."""

    candidates = 14

    def options(self, table: Table, side: str) -> list[Shot]:
        cue = CAROM_BALL[side]
        pos = table.positions()
        if cue not in pos:
            return []
        lo, hi = (2.5, 5.0) if self.discipline == "driebanden" else (1.5, 3.5)
        shots: list[Shot] = []
        r = self.spec.ball_radius
        for obj in (b for b in pos if b != cue):
            direct = angle_to(pos[cue], pos[obj])
            d = math.dist(pos[cue], pos[obj])
            # hit fractions from thin on one side to thin on the other
            for frac in (-0.7, -0.35, 0.0, 0.35, 0.7):
                off = math.degrees(math.asin(max(-1.0, min(1.0, frac * 2 * r / max(d, 2 * r)))))
                shots.append(Shot(cue, round(direct + off, 2), round(self.rng.uniform(lo, hi), 2)))
        shots += self._random_shots(cue, 2, lo, hi)
        return shots

    def score(self, happenings: list[Happening], side: str, before: dict[str, XY]) -> float:
        cue = CAROM_BALL[side]
        value = 10.0 if carom_made(happenings, cue, self.discipline) else 0.0
        touched = {h.other if h.ball == cue else h.ball for h in happenings
                   if h.kind == "contact" and cue in (h.ball, h.other)}
        value += len(touched)
        value -= 10 * sum(1 for h in happenings if h.kind == "off_table")
        return value


def player_for(game: str, spec: TableSpec, seed: int, skill: float = 0.7,
               discipline: str = "libre") -> Player:
    """The game's player (``sim/<game>/play.py``'s)."""
    own = games.part(game, "play", room="sim")
    if own is None:
        raise KeyError(game)
    chosen: Player = own.player(spec, seed, skill, discipline)
    return chosen
