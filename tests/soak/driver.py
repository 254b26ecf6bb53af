"""A table through a season evening: matches of the simulator's players, one after the
other, their shots fed to the board and the referee's calls sent from his phone; between
two matches, now and then, a burst of practice on the table (no match running: the pub
logs the events all the same), at rates up to what the link carries.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tablesense.table.profile import TableProfile

from .board import Board
from .faults import Fault
from .referee import Referee
from .script import Script, Step, match_script
from .tables import QUIET_MS, TableSpec

#: frames a second one channel can make: a pulse counter or a polled pin is read every
#: 20 ms scan; a beam on a pin IRQ with its colour read 24 ms after the edge
CHANNEL_RATE = {"cushion": 50, "motion": 50, "pin": 20, "pocket": 30, "goal": 30}
#: what the link carries: 115200 baud, 16 bytes a frame (docs/protocol.md): about 720/s
LINK_LIMIT = 620


@dataclass
class Play:
    """How the tables play: the pace of a shot (times real time), the players' thinking,
    the match lengths, the practice bursts."""

    pace: float = 4.0
    think: tuple[float, float] = (0.2, 0.8)
    carom_targets: tuple[int, ...] = (1, 2, 2, 3)
    kegle_distance: tuple[int, ...] = (4, 6)
    burst_chance: float = 0.5
    burst_seconds: tuple[float, float] = (1.0, 4.0)
    burst_cut_chance: float = 0.6
    rest_wait: float = 10.0
    #: after the play time, to finish the matches being played: none is needed since a pub
    #: sends a result only when it is final (a match cut off is unfinished in its log and
    #: not in the league); kept to play longer evenings out
    finish_seconds: float = 0.0


@dataclass
class TableFigures:
    matches_started: int = 0
    matches_finished_sim: int = 0
    shots: int = 0
    edges: int = 0
    bursts: int = 0
    burst_edges: int = 0
    burst_rate_max: float = 0.0
    rests_not_shown: int = 0
    calls: Counter[str] = field(default_factory=Counter)


class TableDriver:
    def __init__(self, spec: TableSpec, profile: TableProfile, board: Board, referee: Referee, seed: int,
                 play: Play) -> None:
        self.spec, self.profile, self.board, self.referee = spec, profile, board, referee
        self.rng = random.Random(f"{seed}-{spec.name}")
        self.seed = seed
        self.play = play
        self.fig = TableFigures()
        self.stop_at = float("inf")  # monotonic: no match starts after it
        #: monotonic: when the evening started (no shot starts ``finish_seconds`` after
        #: ``stop_at``)
        self.started = time.monotonic()
        self.cuts: list[Fault] = []  # the cable cuts made during practice bursts

    def _opts(self) -> dict[str, Any]:
        if self.spec.game == "carom":
            return {"targets": self.rng.choice(self.play.carom_targets), "discipline": "libre"}
        if self.spec.game == "kegle":
            return {"distance": self.rng.choice(self.play.kegle_distance)}
        return {}

    def playing(self) -> bool:
        return time.monotonic() < self.stop_at

    def finishing(self) -> bool:
        return time.monotonic() < self.stop_at + self.play.finish_seconds

    async def run(self) -> None:
        n = 0
        while self.playing():
            n += 1
            seed = self.rng.randrange(1 << 30)
            script: Script = await asyncio.to_thread(match_script, self.spec.game, seed, self.profile,
                                                     **self._opts())
            await self._match(script)
            if self.playing() and self.rng.random() < self.play.burst_chance:
                await self._burst()

    async def _match(self, script: Script) -> None:
        self.fig.matches_started += 1
        done_all = True
        for step in script.steps:
            if step.kind in ("shot", "pins_up") and not self.finishing():
                done_all = False
                break
            if step.kind in ("setup", "call"):
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
                outcome = await self.referee.send(step.kind, step.body)
                self.fig.calls[f"{step.kind} {outcome}"] += 1
            else:
                await asyncio.sleep(self.rng.uniform(*self.play.think))
                await self._shot(step)
        if done_all and script.finished:
            self.fig.matches_finished_sim += 1

    async def _shot(self, step: Step) -> None:
        if step.kind == "shot":
            self.fig.shots += 1
        if not step.edges:
            return
        start = time.monotonic() + 0.1
        edges = [(start + e["t_us"] / 1e6 / self.play.pace, {k: v for k, v in e.items() if k != "t_us"})
                 for e in step.edges]
        self.fig.edges += len(edges)
        await self._play(edges)

    async def _play(self, edges: list[tuple[float, dict[str, Any]]], cut_at: float | None = None,
                    rate: float = 0.0) -> None:
        """Feed the edges, cut the cable ``cut_at`` seconds in (None: no cut), wait for the rest."""
        self.board.feed(edges)
        last = edges[-1][0]
        if cut_at is not None:
            await asyncio.sleep(cut_at)
            length = math.exp(self.rng.uniform(math.log(0.05), math.log(3.0)))
            mode = self.rng.choice(["hard", "silent"])
            cut = Fault(time.monotonic() - self.started, "cut", self.spec.name,
                        {"seconds": length, "mode": mode, "burst frames/s": round(rate)}, started=time.time())
            self.cuts.append(cut)
            self.board.cut(length, mode)
            await asyncio.sleep(length)
            cut.ended = time.time()
            cut.recovered = True  # unless an event broke meanwhile (season._attribute)
        await asyncio.sleep(max(0.0, last - time.monotonic()) + QUIET_MS[self.spec.game] / 1000 + 0.1)
        since = time.time() - (time.monotonic() - last)
        if not await self.referee.wait_rest(since, self.play.rest_wait):
            self.fig.rests_not_shown += 1

    async def _burst(self) -> None:
        """Practice between matches: every sensor of the table, at a rate up to the link's."""
        chans = [c for c in self.profile.channels if c.kind in CHANNEL_RATE]
        top = min(LINK_LIMIT, sum(CHANNEL_RATE[c.kind] for c in chans))
        rate = self.rng.uniform(0.2, 1.0) * top
        seconds = self.rng.uniform(*self.play.burst_seconds)
        share = rate / sum(CHANNEL_RATE[c.kind] for c in chans)
        start = time.monotonic() + 0.1
        edges: list[tuple[float, dict[str, Any]]] = []
        for c in chans:
            per = CHANNEL_RATE[c.kind] * share  # frames a second on this channel
            if per <= 0:
                continue
            t = self.rng.uniform(0, 1 / per)
            while t < seconds:
                at = start + t
                if c.kind in ("cushion", "motion"):
                    edges.append((at, {"ch": c.ch, "pulses": self.rng.randint(1, 6)}))
                    t += 1 / per
                elif c.kind == "pin":
                    edges.append((at, {"ch": c.ch, "level": 1}))
                    edges.append((at + 0.5 / per, {"ch": c.ch, "level": 0}))
                    t += 2 / per
                else:  # a ball through a beam, its colour read (two edges and a reading)
                    colour = self.rng.randint(0, len(self.profile.colours)) if c.colour else 0
                    if colour:
                        edges.append((at - 0.001, {"ch": c.ch, "colour": colour}))
                    edges.append((at, {"ch": c.ch, "level": 1}))
                    edges.append((at + 0.008, {"ch": c.ch, "level": 0}))
                    if colour:
                        edges.append((at + 0.009, {"ch": c.ch, "colour": 0}))
                    t += 3 / per
        edges.sort(key=lambda x: x[0])
        if not edges:
            return
        self.fig.bursts += 1
        self.fig.burst_edges += len(edges)
        self.fig.burst_rate_max = max(self.fig.burst_rate_max, rate)
        cut = self.rng.random() < self.play.burst_cut_chance
        cut_at = self.rng.uniform(0.1, 0.8) * seconds + 0.1 if cut else None
        await self._play(edges, cut_at, rate)
