"""One table as the pub runs it (``Table``): its match, its log, its clock, its sensors, who
follows it; and what the pub's two halves share about it (``pub.Pub``, ``pub_sensors.SensorsOut``):
a change checked and ready (``Step``), the time a referee's call carries, the ticker's length.

Below both halves, so neither imports the other for these (it was a circle: pub_sensors
asked pub for the table and pub was made of pub_sensors).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .by_hand import Disagreement, Merge
from .events import Event
from .games import names as games_names
from .replay import Replay
from .store import LoggedEvent, MatchRow
from .undo_walk import Walk

#: the last events a table's ticker shows
TICKER = 12


@dataclass(slots=True)
class SensorQuestion:
    """A disagreement of the two records put to the referee."""

    id: str
    disagreement: Disagreement
    at: float  # the host's time (epoch) of the table's time 0: an event's is ``at + t``

    def to_dict(self) -> dict[str, Any]:
        d = self.disagreement
        out: dict[str, Any] = {"id": self.id, "kind": d.kind, "t": d.t, "options": list(d.options),
                               "hand": None, "board": None}
        for side, s in (("hand", d.hand), ("board", d.board)):
            if s is not None:
                out[side] = dict(s.event)
                out[f"{side}_at"] = self.at + s.t
        return out


@dataclass(slots=True)
class TableSensors:
    """A table's sensors as the pub knows them."""

    link: str | None = None  # "out", "up"; None: no link, or not heard of yet
    since: float | None = None  # host time (epoch) the board went silent
    merge: Merge = field(default_factory=Merge)
    questions: list[SensorQuestion] = field(default_factory=list)
    asked: int = 0  # questions asked in this match (their ids: s1, s2, ...)
    arrivals: int = 0  # board events seen (their numbers in the merge)
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """A change checked and ready: the log row, the event (None: a void), the state it makes."""

    row: tuple[str, int | None, int, str, str, float]  # table, match, seq, line, source, at
    event: Event | None
    state: Any


@dataclass(slots=True)
class Table:
    """One table as the pub runs it: its match, its log and who listens to it."""

    id: str
    token: str
    lang: str = "en"
    match: MatchRow | None = None
    log: list[LoggedEvent] = field(default_factory=list)
    replay: Replay = field(default_factory=Replay)
    seq: int = 0
    ticker: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=TICKER))
    version: int = 0
    clock: tuple[float, float] = (0.0, 0.0)  # (table time, host monotonic) of the last sensor event
    rest_at: float | None = None  # host epoch of the last rest: the turn clock starts there
    #: host epoch since when the turn clock stands still: the referee has a question to answer
    #: or a replacement spot to choose (the player cannot be over time meanwhile)
    paused_at: float | None = None
    #: the games this table is set up for (its profile's); all of them when not known
    games: tuple[str, ...] = field(default_factory=games_names)
    #: what the next ``undo`` takes back (``tablesense.undo_walk``), kept up with the log
    walk: Walk = field(default_factory=Walk)
    #: the board heard or not, sensor events entered by hand, the merge (``pub_sensors``)
    sensors: TableSensors = field(default_factory=TableSensors)
    #: the tasks whose item (an event, a checkpoint, a loss) of this table waits for a match
    #: log that refuses writes: a referee's change waits behind them (``web.server``)
    waiting: set[asyncio.Task[Any]] = field(default_factory=set)
    #: the table's events shown before their commit, oldest first, each with its commit's future
    #: (``Pub._show``), until the match log has them
    shown: list[tuple[Step, asyncio.Future[None]]] = field(default_factory=list)
    #: the log refused one of them: they are written again before anything else of the table
    refused: bool = False
    listeners: set[asyncio.Event] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: its snapshot without ``now`` at one version (``Pub.snapshot_body``), and that snapshot
    #: encoded, by cut of its rulings (None: every one)
    snap: tuple[int, dict[str, Any]] = (-1, {})
    bodies: dict[int | None, tuple[int, bytes]] = field(default_factory=dict)

    def table_time(self) -> float:
        """The table's clock now, estimated from its last event (for referee calls)."""
        t, mono = self.clock
        if mono == 0.0:
            return round(t, 6)
        return round(t + (time.monotonic() - mono), 6)


def call_time(tab: Table) -> float:
    """The table time a referee call made now carries: the table's clock, never before its
    last event."""
    return max(tab.table_time(), _last_t(tab))


def _last_t(tab: Table) -> float:
    for entry in reversed(tab.ticker):
        t = entry.get("t")
        if isinstance(t, (int, float)):
            return float(t)
    return 0.0
