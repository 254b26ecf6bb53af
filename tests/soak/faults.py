"""The fault plan: what goes wrong, where and when, drawn from the seed before the season
starts (so a seed repeats a run's faults: the same kinds, targets, moments and lengths;
how the system's timing meets them still varies with the machine's load).

Kinds (``KINDS``), each at a rate per minute of play (``Rates``):

- ``host_kill``: SIGKILL of a pub's ``tablesense run`` (its whole process group), started
  again after 0-3 s (systemd's ``Restart=always``), now and then twice in a row;
- ``league_kill``: SIGKILL of ``tablesense league serve``, started again after 0-3 s;
- ``broker_kill``: Mosquitto stopped (SIGTERM, its clean stop) or killed (SIGKILL: the
  broker machine losing power), started again after 0.2-3 s;
- ``cut``: a table's cable cut for 0.05-6 s (log-uniform: mostly short), ``hard`` (the port
  goes away) or ``silent`` (no byte crosses); a cut also falls in the middle of the
  table's practice bursts, at rates up to the link's limit (``driver``);
- ``reboot``: a table's board reboots at any moment (down 0-0.5 s); one time in three it
  goes on rebooting 0.05-2 s after each boot, two to four times;
- ``disk_full``: a pub's (or the league's) disk filled to a few KB free, or none, for
  2-12 s, then freed;
- ``cpu``: both cores busy (two spinning processes) for 2-10 s;
- ``web``: a burst of hostile web clients at a pub: bad requests, hundreds of idle
  sockets, WebSockets, TV-code guessing (``hostile``);
- ``league_web``: bad requests at the league page;
- ``mqtt_junk``: junk on a pub's matches topic (``hostile.junk_messages``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

KINDS = ("host_kill", "league_kill", "broker_kill", "cut", "reboot", "disk_full", "cpu", "web", "league_web",
         "mqtt_junk")


@dataclass
class Rates:
    """Faults per minute of play, per kind (over all targets)."""

    host_kill: float = 3.0
    league_kill: float = 1.0
    broker_kill: float = 0.7
    cut: float = 10.0
    reboot: float = 4.0
    disk_full: float = 1.5
    cpu: float = 1.0
    web: float = 2.0
    league_web: float = 0.5
    mqtt_junk: float = 0.6

    def of(self, kind: str) -> float:
        return float(getattr(self, kind))


@dataclass
class Fault:
    at: float  # seconds after play starts
    kind: str
    target: str
    params: dict[str, Any] = field(default_factory=dict)
    started: float | None = None  # wall times
    ended: float | None = None
    recovered: bool | None = None
    note: str = ""

    def __str__(self) -> str:
        ps = ", ".join(f"{k}={_fmt(v)}" for k, v in self.params.items())
        return f"{self.at:7.2f}s {self.kind:<11} {self.target:<8} {ps}"


def _fmt(v: Any) -> str:
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def _log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def plan(seed: int, seconds: float, pubs: list[str], tables: list[str], rates: Rates,
         every_kind: bool = False, warmup: float = 3.0, cooldown: float = 6.0) -> list[Fault]:
    """The faults of a season of ``seconds`` of play, from ``seed``. ``every_kind``: at
    least one of each kind (a short run)."""
    rng = random.Random(f"faults-{seed}")
    span = max(1.0, seconds - warmup - cooldown)
    out: list[Fault] = []
    for kind in KINDS:
        n = _poisson(rng, rates.of(kind) * seconds / 60.0)
        if every_kind and n == 0 and rates.of(kind) > 0:
            n = 1
        for _ in range(n):
            at = warmup + rng.uniform(0, span)
            out.append(_fault(rng, kind, at, pubs, tables))
    out.sort(key=lambda f: f.at)
    return out


def _poisson(rng: random.Random, mean: float) -> int:
    if mean <= 0:
        return 0
    k, p, limit = 0, 1.0, math.exp(-mean) if mean < 500 else 0.0
    if limit == 0.0:
        return max(0, round(rng.gauss(mean, math.sqrt(mean))))
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def _fault(rng: random.Random, kind: str, at: float, pubs: list[str], tables: list[str]) -> Fault:
    if kind == "host_kill":
        return Fault(at, kind, rng.choice(pubs), {"down": rng.choice([0.0, 0.3, 1.0, rng.uniform(0, 3)]),
                                                  "twice": rng.random() < 0.2})
    if kind == "league_kill":
        return Fault(at, kind, "league", {"down": rng.uniform(0, 3)})
    if kind == "broker_kill":
        return Fault(at, kind, "broker", {"signal": rng.choice(["SIGKILL", "SIGTERM"]),
                                          "down": rng.uniform(0.2, 3)})
    if kind == "cut":
        return Fault(at, kind, rng.choice(tables), {"seconds": _log_uniform(rng, 0.05, 6.0),
                                                    "mode": rng.choice(["hard", "silent"])})
    if kind == "reboot":
        flaps = [rng.uniform(0.05, 2.0) for _ in range(rng.randint(2, 4))] if rng.random() < 0.33 else []
        return Fault(at, kind, rng.choice(tables), {"down": rng.uniform(0, 0.5), "again_after": flaps})
    if kind == "disk_full":
        return Fault(at, kind, rng.choice([*pubs, "league"]), {"leave": rng.choice([0, 4096, 65536]),
                                                               "seconds": rng.uniform(2, 12)})
    if kind == "cpu":
        return Fault(at, kind, "cores", {"seconds": rng.uniform(2, 10)})
    if kind == "web":
        what = rng.choice(["bad_requests", "idle_sockets", "websockets", "tv_guesses"])
        n = {"bad_requests": rng.randint(1, 3), "idle_sockets": rng.randint(50, 400),
             "websockets": rng.randint(20, 300), "tv_guesses": rng.randint(20, 400)}[what]
        return Fault(at, kind, rng.choice(pubs), {"what": what, "n": n, "hold": rng.uniform(1, 8)})
    if kind == "league_web":
        return Fault(at, kind, "league", {})
    if kind == "mqtt_junk":
        return Fault(at, kind, rng.choice(pubs), {"messages": rng.randint(2, 6)})
    raise ValueError(kind)
