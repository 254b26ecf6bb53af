"""A match of the simulator's players as the soak plays it at a table: the referee's
steps (the set-up, his calls) and the table's (each shot's pin edges for the firmware).

``match_script`` plays a whole match in memory first (``tablesense.sim.match.MatchSim``
with the firmware's edges, its referee bot deciding the calls from what it saw), as
``tablesense demo`` does through ``sim/firmware_feed.py``; the soak then plays the steps
against the real system at its own pace. The players' thinking time is the soak's, and
the shots can be played faster than real time (``pace``): the edges' times are divided by
it, so a carom shot that rolls 6 s plays in 1.5 s at pace 4 (the profiles' quiet time
before ``rest`` is cut to match, ``tables.quick_profile``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tablesense.events import Call, Pin, Rest, Setup
from tablesense.sim.match import MatchSim
from tablesense.table.profile import TableProfile


@dataclass
class Step:
    kind: str  # setup | call | shot | pins_up
    body: dict[str, Any] = field(default_factory=dict)  # setup / call: what the panel sends
    edges: list[dict[str, Any]] = field(default_factory=list)  # shot / pins_up: t_us from the first


@dataclass
class Script:
    game: str
    seed: int
    steps: list[Step]
    finished: bool
    shots: int

    @property
    def calls(self) -> int:
        return sum(1 for s in self.steps if s.kind == "call")


def _body(ev: Setup | Call) -> dict[str, Any]:
    d = ev.to_dict()
    d.pop("t", None)
    d.pop("type", None)
    return d


def _relative(edges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    edges = sorted(edges, key=lambda e: e["t_us"])
    t0 = edges[0]["t_us"]
    return [{**e, "t_us": e["t_us"] - t0} for e in edges]


def match_script(game: str, seed: int, profile: TableProfile, **opts: Any) -> Script:
    """The steps of one simulated match (``opts``: targets, distance, discipline ...)."""
    sim = MatchSim(game, seed=seed, full_info=False, opts=dict(opts, profile=profile), want_edges=True)
    steps: list[Step] = []
    in_shot = False

    def take() -> list[dict[str, Any]]:
        edges = list(sim.edges)
        sim.edges.clear()
        return edges

    for ev in sim.events():
        if isinstance(ev, (Setup, Call)):
            steps.append(Step("setup" if isinstance(ev, Setup) else "call", _body(ev)))
            continue
        if isinstance(ev, Pin) and ev.state == "up" and not in_shot:
            edges = take()
            if edges:
                steps.append(Step("pins_up", edges=_relative(edges)))
            continue
        if not in_shot:
            in_shot = True
            edges = take()
            steps.append(Step("shot", edges=_relative(edges) if edges else []))
        if isinstance(ev, Rest):
            in_shot = False
    finished = bool(sim.replay.state is not None and sim.replay.state.finished)
    return Script(game, seed, steps, finished, sim.shots)
