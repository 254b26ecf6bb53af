"""The overhead camera over simulated golf shots: positions at rest and the rules decided from them.

    PYTHONPATH=host python bench/camera_golf.py [--shots 100] [--seed 1] [--verbose]

Each shot starts from ten balls laid out at random, many where a golf position rule is a
close call (a ball's footprint just on or just off a zone line, a triangle's side, the
reach of a replacement spot), is played by the simulator's golf player (p1 and p2 in
turn), filmed by the simulated camera (1280x720, 60 fps, lens, lamps, noise, blur, cue and
arm, the goals and pegs) and read by the vision source (``TableWatcher(game="golf")``).

The rules of ``rules/golf/positions.py`` are decided twice, from the physics' positions
before and after the shot and from the camera's (where it saw the balls lie before the
player leaned over the table, and its ``rest.positions``): each ball's zone, zone left
(``zone_left``), defensive triangle kept, attacking triangle broken, each replacement
spot free or covered, and each side's fall-back spot (``free_spot``). Printed
beside each aim: position error at rest (apart: the balls within 20 mm of a peg or a goal,
whose silhouette the peg or hole joins), balls seen at rest, each rule decided the same,
the shots with no positions (left to the referee), false shots cut before the strike,
frames per second on one core beside an anchor measured in the same run, and the delay
from a shot's rest to its positions.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
from camera_anchor import blur_hsv_seconds

from tablesense.events import Rest
from tablesense.rules.golf import geometry as geo
from tablesense.rules.golf.positions import (
    attacking_triangle_broken,
    defensive_triangle_kept,
    free_spot,
    spot_taken,
    zone_left,
)
from tablesense.rules.golf.state import Positions
from tablesense.sim.camera import ShotFilm
from tablesense.sim.camera_shots import golf_shots
from tablesense.vision.watch import TableWatcher

XY = tuple[float, float]
#: a ball at rest this close (m) to where a rule changes its mind is a close call
CLOSE = 0.002
#: a ball whose edge is this close (m) to a peg or a goal's hole lies by the table's dressing
#: (a peg's top, 40 mm up, leans out in the picture towards the ball's)
DRESSED = 0.02
#: seconds before the strike the simulated cue and arm come over the table (sim.camera)
CUE_IN = 0.9


def by_side(balls: dict[str, XY]) -> Positions:
    """Ball name (``p1.3``) -> position, as the rules take them: p1's points, p2's points."""
    p1 = tuple(xy for b, xy in sorted(balls.items()) if b.split(".")[0] == "p1")
    p2 = tuple(xy for b, xy in sorted(balls.items()) if b.split(".")[0] == "p2")
    return p1, p2


def from_rest(rest: Rest) -> Positions:
    pos = rest.positions or {}
    return tuple(tuple(xy) for xy in pos.get("p1", [])), tuple(tuple(xy) for xy in pos.get("p2", []))  # type: ignore[return-value]


def matched(camera: tuple[XY, ...], truth: tuple[XY, ...]) -> list[tuple[XY, XY]]:
    """The camera's alike balls paired with the true ones (camera, truth), the least sum of squares."""
    if not camera or not truth:
        return []
    flip = len(camera) > len(truth)
    small, large = (truth, camera) if flip else (camera, truth)
    best: list[tuple[XY, XY]] = []
    least = math.inf
    for perm in itertools.permutations(range(len(large)), len(small)):
        pairs = [(small[i], large[j]) for i, j in enumerate(perm)]
        sq = sum(math.dist(a, b) ** 2 for a, b in pairs)
        if sq < least:
            best, least = pairs, sq
    return [(b, a) for a, b in best] if flip else best


def dressed(p: XY) -> bool:
    """A ball whose edge lies within ``DRESSED`` of a peg's or of a goal's hole."""
    r = geo.BALL_RADIUS
    if any(math.dist(p, (q.x, q.y)) < q.radius + r + DRESSED for q in geo.PEGS):
        return True
    return any(math.dist(p, g) < geo.GOAL_RADIUS + r + DRESSED for g in geo.GOALS.values())


def by(p: XY) -> str:
    """How far a ball lies from the nearest peg (mm between edges) and goal (its centre past the hole)."""
    r = geo.BALL_RADIUS
    peg = min(math.dist(p, (q.x, q.y)) - q.radius - r for q in geo.PEGS)
    goal = min(math.dist(p, g) - geo.GOAL_RADIUS for g in geo.GOALS.values())
    return f"{1000 * peg:.0f} mm from a peg, its centre {1000 * goal:.0f} mm outside a goal"


def place(p: XY, owner: str) -> object:
    """What zone play compares (rules.golf.positions): the zone, the lines the ball lies on, or
    the owner's large defensive triangle (no zone for its own balls)."""
    if geo.in_triangle(p, geo.DEFENDS[owner], "large"):
        return "defensive-triangle"
    z = geo.zone_of(p)
    return z if z is not None else geo.zone_lines_of(p)


def close_calls(points: Positions) -> int:
    """Balls lying within ``CLOSE`` of a rule's edge: a zone line, a triangle's side, a spot's reach."""
    r = geo.BALL_RADIUS
    n = 0
    spots = [xy for by_n in geo.REPLACEMENT_SPOTS.values() for xy in by_n.values()]
    for x, y in points[0] + points[1]:
        near = any(abs(abs(x - b) - r) < CLOSE for b in geo.ZONE_X[1:-1])
        near = near or any(abs(abs(y - b) - r) < CLOSE for b in geo.ZONE_Y[1:-1])
        near = near or any(abs(math.dist((x, y), s) - geo.BALL_DIAMETER) < CLOSE for s in spots)
        for goal, size in itertools.product("AB", ("large", "small")):
            inside_near = geo.in_triangle((x, y), goal, size)
            moved = [(x + dx, y + dy) for dx, dy in ((CLOSE, 0), (-CLOSE, 0), (0, CLOSE), (0, -CLOSE))]
            near = near or any(geo.in_triangle(p, goal, size) != inside_near for p in moved)
        n += near
    return n


RULES: dict[str, Callable[[Positions, Positions, str], object]] = {
    "zone left (zone_left)": zone_left,
    "defensive triangle kept": defensive_triangle_kept,
    "attacking triangle broken": attacking_triangle_broken,
    # each of the ten replacement spots covered by a ball or free, and the fall-back a side
    # gets when its spots 1-3 are all covered
    "replacement spots free": lambda _b, after, _s: tuple(
        not spot_taken(o, n, after) for o in ("p1", "p2") for n in range(1, 6)
    ),
    "fall-back spot (free_spot)": lambda _b, after, _s: (free_spot("p1", after), free_spot("p2", after)),
}
#: what "the rule said yes" is, for the count of shots where it did (from the true positions)
SAID: dict[str, Callable[[object], bool]] = {
    "replacement spots free": lambda v: not all(v),  # type: ignore[call-overload]
    "fall-back spot (free_spot)": lambda v: any(x is not None for x in v),  # type: ignore[attr-defined]
}


@dataclass
class Read:
    """What the camera made of one filmed shot."""

    rest: Rest | None = None
    before: dict[str, XY] = field(default_factory=dict)
    done_t: float | None = None
    false_cuts: int = 0


def watch(watcher: TableWatcher, film: ShotFilm, clock: list[float]) -> Read:
    """Feed the film's frames; the last shot cut after the strike is the shot. Its lay-out is where
    the tracker saw the balls lie before the player leaned over the table (``CUE_IN`` before the
    strike; in play the lay-out is the previous shot's rest)."""
    watcher.reset()
    out = Read()
    strike_t = film.strike[1]
    for t, img in film.frames():
        t1 = time.perf_counter()
        events = watcher.feed(t, img)
        clock[0] += time.perf_counter() - t1
        clock[1] += 1
        if t < strike_t - CUE_IN:
            out.before = watcher.cutter.resting()
        if events:
            rest = next(e for e in events if isinstance(e, Rest))
            if rest.t < strike_t:
                out.false_cuts += 1  # cut and ended before the ball was struck
            else:
                out.rest, out.done_t = rest, t
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="print each shot where a rule went another way")
    args = ap.parse_args(argv)
    if args.shots < 1:
        print("camera_golf: --shots must be 1 or more", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    errs: list[float] = []
    by_dressing: list[float] = []  # balls whose edge is within DRESSED of a peg or a goal
    seen = lying = phantoms = same_place = 0
    no_positions = false_cut_shots = 0
    same = dict.fromkeys(RULES, 0)
    decided = 0
    close = 0
    true_yes = dict.fromkeys(RULES, 0)
    delays: list[float] = []
    goal_delays: list[float] = []  # shots where a ball went into a goal
    clock = [0.0, 0]
    watcher: TableWatcher | None = None
    for i, (film, shooter) in enumerate(golf_shots(args.shots, seed=args.seed)):
        cam = film.camera
        if watcher is None:
            spec = cam.spec
            watcher = TableWatcher(
                cam.model, spec.length, spec.width, spec.ball_radius, game="golf", cushions={}
            )
        got = watch(watcher, film, clock)
        false_cut_shots += got.false_cuts > 0
        truth_rest = film.truth.happenings[-1]
        t_before = by_side({b: xy for b in film.paths if (xy := film.position(b, film.strike[1] - 0.5))})
        t_after = by_side(dict(truth_rest.positions or {}))
        close += close_calls(t_after)
        if got.rest is None or not got.rest.positions:
            no_positions += 1
            if args.verbose:
                print(f"shot {i} ({shooter}): no positions")
            continue
        dropped = any(h.kind == "goal" for h in film.truth.happenings)
        (goal_delays if dropped else delays).append((got.done_t or truth_rest.t) - truth_rest.t)
        c_after = from_rest(got.rest)
        c_before = by_side(got.before)
        for side, owner in enumerate(("p1", "p2")):
            pairs = matched(c_after[side], t_after[side])
            for c, t in pairs:
                (by_dressing if dressed(t) else errs).append(math.dist(c, t))
                if args.verbose and math.dist(c, t) > 0.003:
                    print(f"shot {i}: {owner} ball at {t} seen {1000 * math.dist(c, t):.1f} mm off, {by(t)}")
            lying += len(t_after[side])
            seen += len(pairs)
            phantoms += max(0, len(c_after[side]) - len(t_after[side]))
            for c, t in pairs:
                same_place += place(c, owner) == place(t, owner)
                if args.verbose and place(c, owner) != place(t, owner):
                    print(
                        f"shot {i}: {owner} ball at {t}: truth {place(t, owner)}, "
                        f"camera {place(c, owner)} at {c}"
                    )
        decided += 1
        for name, rule in RULES.items():
            want, have = rule(t_before, t_after, shooter), rule(c_before, c_after, shooter)
            same[name] += want == have
            true_yes[name] += SAID.get(name, bool)(want)
            if args.verbose and want != have:
                print(f"shot {i} ({shooter}): {name}: truth {want}, camera {have}")
    anchor = blur_hsv_seconds()
    n = args.shots
    rms_of = lambda es: 1000 * math.sqrt(sum(e * e for e in es) / len(es)) if es else float("nan")  # noqa: E731
    rms, rms_dressed = rms_of(errs), rms_of(by_dressing)
    everything = errs + by_dressing
    fps = clock[1] / clock[0] if clock[0] else float("nan")
    pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
    print(f"camera over {n} simulated golf shots (seed {args.seed}), {clock[1]} frames at 1280x720, 60 fps")
    print(
        f"  position error at rest          {rms_of(everything):6.2f} mm RMS "
        f"(max {1000 * max(everything, default=0):.1f} mm, {len(everything)} balls)   aim < 5 mm"
    )
    print(
        f"    clear of pegs and goals       {rms:6.2f} mm RMS (max {1000 * max(errs, default=0):.1f} mm, "
        f"{len(errs)} balls)"
    )
    print(
        f"    within 20 mm of a peg or goal {rms_dressed:6.2f} mm RMS "
        f"(max {1000 * max(by_dressing, default=0):.1f} mm, {len(by_dressing)} balls)"
    )
    print(
        f"  balls seen at rest              {pct(seen, lying):6.2f} % ({seen}/{lying}; {phantoms} seen"
        " that were not there)   aim 100 %"
    )
    print(
        f"  each ball's zone/line/triangle  {pct(same_place, seen):6.2f} % as from its true position"
        f" ({same_place}/{seen})   aim all"
    )
    print(f"  close calls at rest             {close} balls within {1000 * CLOSE:.0f} mm of a rule's edge")
    for name in RULES:
        print(
            f"  {name:<31} {pct(same[name], decided):6.2f} % as from the true positions "
            f"({same[name]}/{decided}; said in {true_yes[name]})   aim all"
        )
    print(
        f"  shots with no positions         {pct(no_positions, n):6.2f} % ({no_positions}/{n})"
        "  (left to the referee)   aim 0"
    )
    print(
        f"  shots cut before the strike     {pct(false_cut_shots, n):6.2f} % ({false_cut_shots}/{n})"
        "  (a false shot: its rest passes the turn)   aim 0"
    )
    print(
        f"  frames per second, 1 core       {fps:6.1f} fps  "
        f"(anchor: blur+HSV of one frame {1000 * anchor:.2f} ms "
        f"= {1 / anchor:.0f}/s)  aim >= 120 (2 x 60 fps)"
    )
    for label, ds in (("rest to positions, no goal", delays), ("rest to positions, a goal", goal_delays)):
        if ds:
            print(
                f"  {label:<31} {1000 * statistics.median(ds):6.0f} ms median, {1000 * max(ds):.0f} ms max"
                f" ({len(ds)} shots)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
