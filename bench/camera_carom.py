"""The overhead camera over simulated carom shots: positions, contacts, caroms, speed.

    PYTHONPATH=host python bench/camera_carom.py [--shots 200] [--seed 1] [--cache DIR] [--verbose]

Each shot is laid out at random, played by the simulator's carom player (libre and
driebanden in turn), filmed by the simulated camera (1280x720, 60 fps, lens, lamps, noise,
blur, cue and arm) and read by the vision source. The physics' own events are the truth.
Printed beside each aim: position error at rest, contacts found and false, shots left to
the referee, caroms decided as from the truth (of the shots decided, and of all shots),
driebanden cushion counts, zones (entree) decided as from the true positions, the same with
cushion piezos (the truth's cushion hits without their ball, merged as live play merges
them), frames per second on one core beside an anchor measured in the same run, and the
delay from a shot's rest to its positions.

``--cache DIR`` keeps each filmed shot (the camera's track of it and the truth) in DIR; a
run finding a shot there reads its track again with the current ``ShotReader`` instead of
filming it, so a change to the reader is measured over 200 shots in seconds.
"""

from __future__ import annotations

import argparse
import math
import pickle
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from camera_anchor import blur_hsv_seconds

from tablesense.events import Contact, Cushion, Event, Rest, Setup, Strike, parse_event
from tablesense.rules import find_engine
from tablesense.rules.carom.shot import read_shot
from tablesense.rules.shot_engine import ShotRecord
from tablesense.sim.camera import ShotTruth
from tablesense.sim.camera_shots import carom_shots
from tablesense.sim.tables import table_spec
from tablesense.vision.merge import merge_shot
from tablesense.vision.shot_events import ShotReader
from tablesense.vision.track import ShotTrack
from tablesense.vision.watch import TableWatcher

MATCH_T = 0.05  # s: a camera contact this close to a true one of the same pair is that contact


def merged_truth_contacts(events: list[Event]) -> list[tuple[float, frozenset[str]]]:
    """The physics' contacts, a pair's repeats within 30 ms counted once."""
    out: list[tuple[float, frozenset[str]]] = []
    for e in events:
        if isinstance(e, Contact):
            pair = frozenset(e.balls)
            if out and any(p == pair and e.t - t < 0.03 for t, p in out[-3:]):
                continue
            out.append((e.t, pair))
    return out


def decide(events: list[Event], discipline: str, before: dict[str, Any]) -> dict[str, Any]:
    """The carom engine's reading of one shot played by p1 (yellow) from positions ``before``."""
    engine = find_engine("carom")
    state = engine.new_state(
        Setup(
            t=0.0,
            game="carom",
            players={"p1": "A", "p2": "B"},
            discipline=discipline,
            targets={"p1": 50, "p2": 50},
        )
    )
    t0 = events[0].t - 1.0
    state = engine.apply(state, Rest(t=t0, positions={b: [x, y] for b, (x, y) in before.items()}))
    for e in events:
        state = engine.apply(state, e)
    js = engine.to_json(state)
    return {
        "carom": js["caroms"]["p1"] == 1,
        "zone": js.get("zone"),
        "entree": js.get("entree"),
        "decided_by": (js.get("evidence") or {}).get("decided_by"),
    }


@dataclass
class FilmedShot:
    """What filming and watching one shot gave: the camera's track of it and the physics' truth
    (cached by ``--cache``: reading the track again takes milliseconds, filming it seconds)."""

    discipline: str
    truth: ShotTruth
    #: where the balls lay half a second before the strike
    before: dict[str, tuple[float, float]]
    #: the shot the camera cut (None: it saw no shot)
    track: ShotTrack | None
    done_t: float | None
    rest_truth: float
    #: the true positions at the track's frame times (to study a shot beside the camera's)
    true_xy: dict[str, np.ndarray]
    frames: int
    watch_s: float

    def __getstate__(self) -> dict[str, Any]:  # events are frozen Structs: pickled as their dicts
        state = dict(self.__dict__)
        state["truth"] = replace(self.truth, events=[e.to_dict() for e in self.truth.events])
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        truth = state["truth"]
        state["truth"] = replace(truth, events=[parse_event(e) for e in truth.events])
        self.__dict__.update(state)


def film_shot(film: Any, discipline: str, watcher: TableWatcher) -> FilmedShot:
    """Render, detect and cut one simulated shot."""
    watcher.reset()
    done_t = None
    track = None
    frames, watch_s = 0, 0.0
    for t, img in film.frames():
        t1 = time.perf_counter()
        out = watcher.feed(t, img)
        watch_s += time.perf_counter() - t1
        frames += 1
        if out and done_t is None:
            done_t, track = t, watcher.last_track
    before = {b: film.position(b, film.strike[1] - 0.5) for b in film.paths}
    true_xy: dict[str, np.ndarray] = {}
    if track is not None:
        for b in film.paths:
            pts = [film.position(b, float(t)) or (math.nan, math.nan) for t in track.times]
            true_xy[b.split(".", 1)[0]] = np.array(pts, dtype=float)
    return FilmedShot(
        discipline=discipline,
        truth=film.truth,
        before={b: xy for b, xy in before.items() if xy is not None},
        track=track,
        done_t=done_t,
        rest_truth=film.truth.happenings[-1].t,
        true_xy=true_xy,
        frames=frames,
        watch_s=watch_s,
    )


def shot_records(n: int, seed: int, cache: Path | None) -> Iterator[FilmedShot]:
    """The ``n`` shots of ``seed``: from the cache where filmed before, else filmed (and cached)."""
    films = None
    made = 0  # shots drawn from the generator (it must be drawn in order)
    watcher: TableWatcher | None = None
    for i in range(n):
        path = cache / f"seed{seed}-{i:04d}.pkl" if cache is not None else None
        if path is not None and path.exists():
            with path.open("rb") as f:
                yield pickle.load(f)
            continue
        if films is None:
            films = carom_shots(n, seed=seed)
        while True:
            film, discipline = next(films)
            made += 1
            if made > i:
                break
        if watcher is None:
            spec = film.camera.spec
            watcher = TableWatcher(film.camera.model, spec.length, spec.width, spec.ball_radius)
        rec = film_shot(film, discipline, watcher)
        if path is not None:  # written whole, then named: a run stopped midway leaves no half file
            part = path.with_suffix(".part")
            part.write_bytes(pickle.dumps(rec))
            part.replace(path)
        yield rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="print each shot that went wrong")
    ap.add_argument(
        "--cache",
        type=Path,
        help="directory to keep each shot's camera track and truth in (a shot found there is read "
        "again with the current reader in milliseconds instead of filmed; frames per second are "
        "then those measured when it was filmed)",
    )
    args = ap.parse_args(argv)
    if args.shots < 1:
        print("camera_carom: --shots must be 1 or more", file=sys.stderr)
        return 2
    if args.cache is not None:
        try:
            args.cache.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"camera_carom: --cache {args.cache}: {e.strerror}", file=sys.stderr)
            return 2
    cv2.setNumThreads(1)
    errs: list[float] = []
    found = total = false = emitted = unsaid = 0
    doubt_shots = 0
    same = decided = 0
    cushion_same = cushion_n = 0
    zone_same = zone_n = 0
    p_referee = p_decided = p_same = p_cushion_n = p_cushion_same = 0
    delays: list[float] = []
    watch_s = 0.0
    frames = 0
    spec = table_spec("carom")
    reader = ShotReader(spec.length, spec.width, spec.ball_radius, game="carom")
    for i, rec in enumerate(shot_records(args.shots, args.seed, args.cache)):
        frames += rec.frames
        watch_s += rec.watch_s
        discipline, truth, before = rec.discipline, rec.truth, rec.before
        cam_shot = reader.read(rec.track) if rec.track is not None else None
        got = cam_shot.events if cam_shot is not None else []
        done_t = rec.done_t
        rest_truth = rec.rest_truth
        if not got or cam_shot is None:
            doubt_shots += 1
            if args.verbose:
                print(f"shot {i}: no shot seen")
            continue
        delays.append((done_t or rest_truth) - rest_truth)
        rest = next(e for e in got if isinstance(e, Rest))
        for b, xy in (rest.positions or {}).items():
            if b in truth.rest:
                errs.append(math.dist(xy, truth.rest[b]))
        sure = cam_shot.sure
        t_truth = decide(truth.events, discipline, before)
        t_cam = decide(got, discipline, before)
        # a shot the camera leaves to the referee: the physics' events decide it, the camera's do not
        # (a clean miss has no contact either way: the engine scores it no carom from both)
        referee = t_truth["decided_by"] == "contacts" and t_cam["decided_by"] != "contacts"
        if referee:
            doubt_shots += 1
            if args.verbose:
                print(
                    f"shot {i} ({discipline}): left to the referee: {cam_shot.doubts}; truth cushions "
                    f"{[(round(t, 3), b, n) for t, b, n in truth.cushions]} contacts {truth.contacts}"
                )
        if sure:
            tc = merged_truth_contacts(truth.events)
            cc = [(e.t, frozenset(e.balls)) for e in got if isinstance(e, Contact)]
            used: set[int] = set()
            for t, pair in tc:
                total += 1
                hit = next(
                    (
                        j
                        for j, (t2, p2) in enumerate(cc)
                        if j not in used and p2 == pair and abs(t2 - t) < MATCH_T
                    ),
                    None,
                )
                if hit is not None:
                    used.add(hit)
                    found += 1
                elif any(frozenset((a, b)) == pair and abs(t2 - t) < MATCH_T for t2, a, b in cam_shot.unsaid):
                    unsaid += 1
            emitted += len(cc)
            false += len(cc) - len(used)
        if not referee:
            decided += 1
            same += t_cam["carom"] == t_truth["carom"]
            if discipline == "driebanden":
                ft = read_shot(ShotRecord(events=tuple(truth.events)), "yellow")
                fc = read_shot(ShotRecord(events=tuple(got)), "yellow")
                cushion_n += 1
                ok = (ft.cushions_before_third, ft.both_touched) == (
                    fc.cushions_before_third,
                    fc.both_touched,
                )
                cushion_same += ok
                if args.verbose and not ok:
                    print(
                        f"shot {i}: cushions truth {[(round(t, 3), b, n) for t, b, n in truth.cushions]} "
                        "camera "
                        f"{[(e.t, e.ball, e.cushion) for e in got if isinstance(e, Cushion)]}"
                    )
        # the same shot on a table with cushion piezos: their hits (time and cushion, no ball, as
        # docs/events.md has a sensor's ``cushion``) merged with the camera's events as live play does
        sensor: list[Event] = [Cushion(t=round(t, 6), cushion=n) for t, _b, n in truth.cushions]
        merged = merge_shot([*sensor, Rest(t=rest_truth)], got, maybe=cam_shot.maybe_cushions)
        t_piezo = decide(merged, discipline, before)
        if t_truth["decided_by"] == "contacts" and t_piezo["decided_by"] != "contacts":
            p_referee += 1
            if args.verbose:
                print(f"shot {i} ({discipline}): with piezos, left to the referee")
        else:
            p_decided += 1
            p_same += t_piezo["carom"] == t_truth["carom"]
            if args.verbose and t_piezo["carom"] != t_truth["carom"]:
                print(f"shot {i} ({discipline}): with piezos WRONG CAROM: {t_piezo['carom']}")
            if discipline == "driebanden":
                ft = read_shot(ShotRecord(events=tuple(truth.events)), "yellow")
                fp = read_shot(ShotRecord(events=tuple(merged)), "yellow")
                p_cushion_n += 1
                p_cushion_same += (ft.cushions_before_third, ft.both_touched) == (
                    fp.cushions_before_third,
                    fp.both_touched,
                )
        if args.verbose and not referee and t_cam["carom"] != t_truth["carom"]:
            print(f"shot {i} ({discipline}): WRONG CAROM: camera {t_cam['carom']}, truth {t_truth['carom']}")
        if args.verbose and cam_shot.notes:
            print(f"shot {i} ({discipline}): said its clear contacts, unclear: {cam_shot.notes}")
        if (
            sure
            and args.verbose
            and (len(used) != len(tc) or len(cc) != len(used) or t_cam["carom"] != t_truth["carom"])
        ):
            print(
                f"shot {i} ({discipline}): truth {[(round(t, 3), sorted(p)) for t, p in tc]} "
                f"camera {[(round(t, 3), sorted(p)) for t, p in cc]} "
                f"carom {t_truth['carom']}/{t_cam['carom']}"
            )
        if discipline == "libre":
            t_zone = decide(truth.events, discipline, before)
            c_zone = decide(
                [e for e in got if isinstance(e, (Strike, Cushion, Contact))] + [rest]
                if sure
                else [*truth.events[:-1], rest],
                discipline,
                before,
            )
            zone_n += 1
            zone_same += (t_zone["zone"], t_zone["entree"]) == (c_zone["zone"], c_zone["entree"])
    anchor = blur_hsv_seconds()
    n = args.shots
    rms = 1000 * math.sqrt(sum(e * e for e in errs) / len(errs)) if errs else float("nan")
    fps = frames / watch_s if watch_s else float("nan")
    pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
    print(f"camera over {n} simulated carom shots (seed {args.seed}), {frames} frames at 1280x720, 60 fps")
    print(
        f"  position error at rest      {rms:6.2f} mm RMS (max {1000 * max(errs, default=0):.1f} mm)"
        "   aim < 5 mm"
    )
    print(f"  contacts found              {pct(found, total):6.2f} % ({found}/{total})            aim 99 %")
    print(f"    of those missed, seen but unclear and left unsaid (could not change a carom): {unsaid}")
    print(
        f"  contacts false              {pct(false, emitted):6.2f} % ({false}/{emitted})            aim < 1 %"
    )
    print(
        f"  shots left to the referee   {pct(doubt_shots, n):6.2f} % ({doubt_shots}/{n})"
        "  (the engine asks, as today)"
    )
    print(
        f"  caroms decided as physics   {pct(same, decided):6.2f} % ({same}/{decided} decided shots)"
        "  aim 99.5 %"
    )
    print(
        f"    over all shots            {pct(same, n):6.2f} % ({same}/{n}: a shot left to the referee "
        "is not decided by the camera)"
    )
    print(
        f"  driebanden cushion counts   {pct(cushion_same, cushion_n):6.2f} % exact"
        f" ({cushion_same}/{cushion_n})  "
        "aim 100 %"
    )
    print(
        f"  entree/dedans as true pos.  {pct(zone_same, zone_n):6.2f} % ({zone_same}/{zone_n} libre shots)  "
        "aim 100 %"
    )
    print("  with cushion piezos (the physics' cushion hits, time and cushion only, merged by time):")
    print(f"    shots left to the referee {pct(p_referee, n):6.2f} % ({p_referee}/{n})")
    print(
        f"    caroms decided as physics {pct(p_same, p_decided):6.2f} % ({p_same}/{p_decided} decided shots),"
        f" {pct(p_same, n):.2f} % of all shots  aim 99.5 %"
    )
    print(
        f"    driebanden cushion counts {pct(p_cushion_same, p_cushion_n):6.2f} % exact"
        f" ({p_cushion_same}/{p_cushion_n})  aim 100 %"
    )
    print(
        f"  frames per second, 1 core   {fps:6.1f} fps  "
        f"(anchor: blur+HSV of one frame {1000 * anchor:.2f} ms "
        f"= {1 / anchor:.0f}/s)  aim >= 120 (2 x 60 fps)"
    )
    if delays:
        print(
            f"  rest to positions           {1000 * statistics.median(delays):6.0f} ms median, "
            f"{1000 * max(delays):.0f} ms max"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
