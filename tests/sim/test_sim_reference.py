"""The simulator's output is pinned: a fixed set of shots on each table gives the stored happenings.

``tests/sim_reference/outputs.json`` holds, for every shot below (hand-picked ones and seeded
random ones on the golf, keglebillard and carom tables, plus one short simulated match per
game), everything the rest of the project takes from the physics: the happenings (times,
balls, cushions, pegs, pins, speeds, rest positions), the table events in both sensor modes,
the firmware HAL edges, the kinetic-energy trace and the balls' positions the ``on_step``
hook hands the simulated camera at every physics step (long lists as a hash, a sample kept to
show where they part). It was written by the simulator before it was made faster,
so a change of speed that changes what a shot produces fails here.

Tolerance: none. The integration (pymunk's steps of 1..32 ms ticks, the rolling resistance
every 20 ms) is the one the reference was made with, and the same inputs through the same
Chipmunk build give the same bits, so every value must be equal. A deliberate change of the
physics writes a new reference (``python tests/sim/test_sim_reference.py --write``) and says why
in docs/simulator.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tablesense.events import dump_event
from tablesense.sim.match import MatchSim
from tablesense.sim.physics import Shot, Table
from tablesense.sim.sensors import pin_edges, sensor_set, table_events
from tablesense.sim.tables import table_spec

REFERENCE = Path(__file__).resolve().parents[1] / "sim_reference" / "outputs.json"
TRACE_EVERY = 10  # keep every 10th kinetic-energy sample (and the last)
STEP_EVERY = 100  # keep the positions of every 100th physics step (and the last) to show a difference


def _aim(frm: tuple[float, float], to: tuple[float, float]) -> float:
    return round(math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0])), 3)


def _random_shots(game: str, seed: int, n: int) -> list[dict[str, Any]]:
    """``n`` shots with seeded random ball, direction, speed and spin (played in a row)."""
    rng = random.Random(seed)
    balls = list(table_spec(game).ball_names)
    shots = []
    for _ in range(n):
        shots.append({"ball": rng.choice(balls), "direction": round(rng.uniform(0, 360), 3),
                      "speed": round(rng.choice([rng.uniform(0.15, 1.0), rng.uniform(1.0, 4.0),
                                                 rng.uniform(4.0, 7.5)]), 3),
                      "follow": round(rng.choice([0.0, rng.uniform(-1, 1)]), 3),
                      "curve": round(rng.choice([0.0, 0.0, rng.uniform(-3, 3)]), 3)})
    return shots


def cases() -> dict[str, dict[str, Any]]:
    """Case name -> table (game, size, positions or None for the start) and shots in a row."""
    golf, kegle = table_spec("golf"), table_spec("kegle")
    gw = golf.width
    red0 = kegle.start["red"]
    out: dict[str, dict[str, Any]] = {
        "golf start, five shots in a row": {
            "game": "golf", "shots": [
                {"ball": "p1.1", "direction": 0.0, "speed": 3.0},
                {"ball": "p2.1", "direction": 180.0, "speed": 2.5, "curve": 1.5},
                {"ball": "p1.3", "direction": 30.0, "speed": 4.0, "follow": 0.5},
                {"ball": "p2.4", "direction": 200.0, "speed": 1.2, "follow": -0.8},
                {"ball": "p1.5", "direction": -45.0, "speed": 5.5}]},
        "golf straight into goal B": {
            "game": "golf", "positions": {"p1.1": (1.30, gw / 2)},
            "shots": [{"ball": "p1.1", "direction": 0.0, "speed": 1.5, "t0": 10.0}]},
        "golf into the pegs of the cross": {
            "game": "golf", "positions": {"p1.1": (0.5, gw / 2)},
            "shots": [{"ball": "p1.1", "direction": 0.0, "speed": 1.0}]},
        "golf hard into a cushion jumps": {
            "game": "golf", "positions": {"p1.2": (0.6, 0.3)},
            "shots": [{"ball": "p1.2", "direction": 90.0, "speed": 9.0}]},
        "golf a slow roll": {
            "game": "golf", "shots": [{"ball": "p2.2", "direction": 10.0, "speed": 0.3}]},
        "golf look-ahead, cut at 5 s": {
            "game": "golf", "shots": [{"ball": "p1.1", "direction": 5.0, "speed": 4.5, "max_time": 5.0}]},
        "kegle red into the pins": {
            "game": "kegle", "shots": [
                {"ball": "red", "direction": _aim(red0, kegle.pins[1]), "speed": 2.5},
                {"ball": "white.1", "direction": 0.0, "speed": 3.0, "pins_up": True},
                {"ball": "white.2", "direction": 170.0, "speed": 1.8, "follow": 0.7}]},
        "kegle hard into a cushion jumps": {
            "game": "kegle", "positions": {"red": (0.8, 0.3)},
            "shots": [{"ball": "red", "direction": 270.0, "speed": 8.0}]},
        "kegle white with side spin": {
            "game": "kegle", "shots": [{"ball": "white.1", "direction": 15.0, "speed": 2.0, "curve": -2.5}]},
        "carom three cushions (the bench shot)": {
            "game": "carom", "positions": {"yellow": (1.0, 0.3), "white": (0.5, 1.0), "red": (2.0, 0.4)},
            "shots": [{"ball": "yellow", "direction": 20.0, "speed": 3.0}]},
        "carom three cushions at 5 m/s": {
            "game": "carom", "positions": {"yellow": (1.0, 0.3), "red": (2.0, 1.2), "white": (0.5, 1.0)},
            "shots": [{"ball": "yellow", "direction": 20.0, "speed": 5.0, "t0": 100.0}]},
        "carom straight through red, follow then draw": {
            "game": "carom", "positions": {"yellow": (0.7, 0.71), "red": (1.2, 0.71), "white": (0.5, 1.0)},
            "shots": [{"ball": "yellow", "direction": 0.0, "speed": 3.0, "follow": 1.0},
                      {"ball": "white", "direction": -30.0, "speed": 2.0, "follow": -1.0}]},
        "carom off the table": {
            "game": "carom", "positions": {"yellow": (1.0, 0.71)},
            "shots": [{"ball": "yellow", "direction": 0.0, "speed": 9.0}]},
        "carom massé on the 1.90 table": {
            "game": "carom", "size": "1.90",
            "shots": [{"ball": "yellow", "direction": 80.0, "speed": 3.5, "curve": 4.0},
                      {"ball": "white", "direction": 250.0, "speed": 6.0, "curve": -1.0, "follow": 0.3}]},
    }
    for game, seed in (("golf", 11), ("kegle", 12), ("carom", 13)):
        out[f"{game} seeded random shots in a row"] = {"game": game, "shots": _random_shots(game, seed, 14),
                                                       "random": True}
    return out


MATCHES: dict[str, dict[str, Any]] = {
    "golf match, seed 1": {"game": "golf", "seed": 1},
    "kegle match to 10, seed 1": {"game": "kegle", "seed": 1, "distance": 10},
    "carom match to 3, seed 1": {"game": "carom", "seed": 1, "targets": 3},
}


def _r(x: float, places: int) -> float:
    return round(float(x), places)


def _digest(values: list[Any]) -> dict[str, Any]:
    """A long list kept as its length, its first items and a hash of all of it."""
    text = json.dumps(values, sort_keys=True)
    return {"n": len(values), "first": values[:5], "sha256": hashlib.sha256(text.encode()).hexdigest()}


def play_case(case: dict[str, Any]) -> list[dict[str, Any]]:
    """What each shot of ``case`` produces (plain JSON values)."""
    spec = table_spec(case["game"], case.get("size", "match"))
    sensors = sensor_set(case["game"])
    positions = case.get("positions")
    table = Table(spec, dict(positions) if positions is not None else None)
    t0, out = 0.0, []
    for i, s in enumerate(case["shots"]):
        if s.get("pins_up"):
            table.pins_up()
        if s["ball"] not in table.balls:  # a random shot's ball has left the table: spotted again
            table.place(s["ball"], spec.start[s["ball"]])
        shot = Shot(s["ball"], s["direction"], s["speed"], s.get("follow", 0.0), s.get("curve", 0.0))
        t0 = s.get("t0", t0)
        trace: list[tuple[float, float]] = []
        steps: list[tuple[float, dict[str, tuple[float, float]]]] = []
        happenings = table.shoot(shot, t0=t0, max_time=s.get("max_time", 60.0), trace=trace,
                                 on_step=lambda t, p, steps=steps: steps.append((t, p)))
        times = ",".join(f"{t:.6f}" for t, _ in steps)
        where = [[t, {k: [_r(x, 6), _r(y, 6)] for k, (x, y) in p.items()}] for t, p in steps]
        out.append({
            "shot": shot.to_dict(),
            "happenings": [[h.t, h.kind, h.ball, h.other, h.where, h.speed,
                            {k: list(v) for k, v in h.positions.items()} if h.positions else None]
                           for h in happenings],
            "events": [dump_event(e) for e in table_events(happenings, sensors, full_info=True)],
            "sensor_events": [dump_event(e) for e in table_events(happenings, sensors, full_info=False)],
            "edges": _digest(pin_edges(happenings, spec, sensors, random.Random(i))),
            "trace": {"n": len(trace),
                      "sample": [[t, _r(e, 9)] for t, e in trace[::TRACE_EVERY] + trace[-1:]]},
            "steps": {"n": len(steps), "times_sha256": hashlib.sha256(times.encode()).hexdigest(),
                      "positions_sha256": _digest(where)["sha256"],
                      "sample": where[::STEP_EVERY] + where[-1:]},
            "pins_down": sorted(table.pins_down),
        })
        t0 = happenings[-1].t + 1.0
    return out


def play_match_case(case: dict[str, Any]) -> dict[str, Any]:
    opts = {k: v for k, v in case.items() if k not in ("game", "seed")}
    sim = MatchSim(case["game"], seed=case["seed"], opts=opts, want_edges=True)
    events = [dump_event(e) for e in sim.events()]
    return {"events": events, "edges": _digest(sim.edges)}


def produce() -> dict[str, Any]:
    return json.loads(json.dumps({
        "shots": {name: {"case": case, "out": play_case(case)} for name, case in cases().items()},
        "matches": {name: {"case": case, "out": play_match_case(case)} for name, case in MATCHES.items()},
    }))


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text())


def _first_difference(want: Any, got: Any, where: str = "") -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for key in want.keys() | got.keys():
            if want.get(key) != got.get(key):
                return _first_difference(want.get(key), got.get(key), f"{where}.{key}")
    if isinstance(want, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
        if len(want) != len(got):
            return f"{where}: {len(want)} items in the reference, {len(got)} now"
    return f"{where}: reference {want!r}, now {got!r}"


@pytest.mark.parametrize("name", list(cases()))
def test_every_shot_gives_the_stored_happenings_events_edges_and_camera_positions(reference, name):
    case = cases()[name]
    stored = reference["shots"][name]
    assert json.loads(json.dumps(case)) == stored["case"], "the case changed: write a new reference"
    got = json.loads(json.dumps(play_case(case)))
    assert got == stored["out"], _first_difference(stored["out"], got, name)


@pytest.mark.parametrize("name", list(MATCHES))
def test_a_simulated_match_gives_the_stored_events_and_firmware_edges(reference, name):
    stored = reference["matches"][name]
    got = json.loads(json.dumps(play_match_case(MATCHES[name])))
    assert got == stored["out"], _first_difference(stored["out"], got, name)


def test_the_reference_covers_what_the_tables_can_do(reference):
    """The stored shots are not a quiet corner: every kind of happening is in them."""
    kinds: dict[str, set[str]] = {"golf": set(), "kegle": set(), "carom": set()}
    for entry in reference["shots"].values():
        for shot in entry["out"]:
            kinds[entry["case"]["game"]].update(h[1] for h in shot["happenings"])
    assert {"strike", "contact", "cushion", "peg", "goal", "off_table", "rest"} <= kinds["golf"]
    assert {"strike", "contact", "cushion", "pocket", "pin", "off_table", "rest"} <= kinds["kegle"]
    assert {"strike", "contact", "cushion", "off_table", "rest"} <= kinds["carom"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/sim/test_sim_reference.py --write  (writes a new reference)")
    REFERENCE.parent.mkdir(exist_ok=True)
    REFERENCE.write_text(json.dumps(produce(), indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {REFERENCE} ({REFERENCE.stat().st_size} bytes)")
