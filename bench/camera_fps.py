"""Camera frames per second on one core, balls moving, and the positions it costs nothing.

    PYTHONPATH=host python bench/camera_fps.py [--shots 20] [--seed 3] [--white-balance warm]

Simulated carom shots (libre and driebanden, 1280x720 at 60 fps, lens, lamps, noise, blur,
cue and arm) are read twice, frame by frame, by two watchers: the one ``tablesense run``
uses (balls followed in windows, the whole bed searched every 12 frames or when a ball is
missing) and one that searches the whole bed every frame. Both are timed on the same
frames in the same run, beside an anchor (a blur and HSV conversion of one full frame) timed
in bursts between the frames, so a loaded machine slows all three alike. Printed: frames per second
of each (aim: 120, twice a 60 fps camera), the share of frames that searched the whole bed,
the position error at rest of each against the physics (aim under 5 mm RMS) and the
largest difference between their positions (the windows must change nothing).

``--white-balance warm`` (or ``cool``) tints every frame as a camera with another white
balance would, and both watchers use the colours learnt from the first frame (the balls on
the table, as ``tablesense camera calibrate`` learns them); a third watcher with the
default colours shows what the learning saves (how many balls at rest it still finds).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import cv2
import numpy as np

from tablesense.events import Rest
from tablesense.sim.camera_shots import carom_shots
from tablesense.vision.calibrate import cloth_hue
from tablesense.vision.colour_fit import fit_colours
from tablesense.vision.colours import colours_for
from tablesense.vision.watch import TableWatcher

AIM_FPS = 120.0
#: B, G, R gains of a camera's white balance against the simulator's
BALANCE = {"neutral": (1.0, 1.0, 1.0), "warm": (0.72, 0.95, 1.12), "cool": (1.15, 1.0, 0.8)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=20)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--white-balance", choices=tuple(BALANCE), default="neutral")
    args = ap.parse_args(argv)
    if args.shots < 1:
        print("camera_fps: --shots must be 1 or more", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    fast = whole = plain = None
    gain = np.array(BALANCE[args.white_balance], np.float32)
    tinted = args.white_balance != "neutral"
    plain_found = plain_total = 0
    learnt_note = ""
    spent = {"fast": 0.0, "whole": 0.0, "anchor": 0.0}
    frames = anchors = 0
    errs: dict[str, list[float]] = {"fast": [], "whole": []}
    apart = 0.0  # m: the largest difference between the two watchers' sightings
    blank = np.zeros((720, 1280, 3), np.uint8)
    blank[:] = (150, 95, 25)
    for film, _discipline in carom_shots(args.shots, seed=args.seed):
        if fast is None or whole is None:
            cam, spec = film.camera, film.camera.spec
            dims = (cam.model, spec.length, spec.width, spec.ball_radius)
            colours, hue = colours_for("carom"), (95, 125)
            if tinted:  # calibrate on the first picture: the balls lie still, no one at the table
                _t, picture = next(film.frames())
                picture = np.clip(picture * gain, 0, 255).astype(np.uint8)
                hue = cloth_hue(cv2.cvtColor(picture, cv2.COLOR_BGR2HSV))
                colours, missing = fit_colours(picture, *dims, colours, hue)
                gone = ", ".join(missing) or "none"
                learnt_note = f"colours learnt from the first picture (not found: {gone})"
                plain = TableWatcher(*dims, cloth_hue=hue)
            fast = TableWatcher(*dims, colours=colours, cloth_hue=hue)
            whole = TableWatcher(*dims, colours=colours, cloth_hue=hue)
            whole.follower.every = 1
        watchers = [("fast", fast), ("whole", whole)] + ([("plain", plain)] if plain is not None else [])
        for _name, w in watchers:
            w.reset()
        rests: dict[str, Rest] = {}
        for t, img in film.frames():
            if tinted:
                img = np.clip(img * gain, 0, 255).astype(np.uint8)
            for name, w in watchers:
                t1 = time.perf_counter()
                out = w.feed(t, img)
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - t1
                rest = next((e for e in out if isinstance(e, Rest)), None)
                if rest is not None and name not in rests:
                    rests[name] = rest
            frames += 1
            if frames % 200 == 0:  # bursts of 20 (warm, as bench/camera_carom.py's 200 at its end)
                t1 = time.perf_counter()
                for _ in range(20):
                    cv2.cvtColor(cv2.GaussianBlur(blank, (5, 5), 0), cv2.COLOR_BGR2HSV)
                spent["anchor"] += time.perf_counter() - t1
                anchors += 20
            a, b = fast.follower.last_found, whole.follower.last_found
            for colour in a.keys() | b.keys():
                pa, pb = a.get(colour, []), b.get(colour, [])
                if len(pa) != len(pb):
                    apart = math.inf
                for sa, sb in zip(pa, pb):
                    apart = max(apart, math.dist((sa.x, sa.y), (sb.x, sb.y)))
        for name, rest in rests.items():
            if name == "plain":
                plain_found += sum(b in (rest.positions or {}) for b in film.truth.rest)
                continue
            for ball, xy in (rest.positions or {}).items():
                if ball in film.truth.rest:
                    errs[name].append(math.dist(xy, film.truth.rest[ball]))
        plain_total += len(film.truth.rest) if plain is not None else 0
    assert fast is not None
    anchor = spent["anchor"] / max(anchors, 1)
    fps = {k: frames / spent[k] for k in ("fast", "whole")}

    def rms(e: list[float]) -> str:
        if not e:
            return "   n/a"
        return f"{1000 * math.sqrt(sum(x * x for x in e) / len(e)):6.2f} mm RMS (max {1000 * max(e):.1f} mm)"

    share = 100.0 * fast.follower.whole / max(fast.follower.frames, 1)
    print(f"camera frames per second over {args.shots} simulated carom shots (seed {args.seed}), "
          f"{frames} frames at 1280x720, one core, {args.white_balance} white balance")
    if learnt_note:
        print(f"  {learnt_note}")
    print(f"  anchor: blur+HSV of one frame {1000 * anchor:.2f} ms = {1 / anchor:.0f}/s "
          "(timed between the frames)")
    print(f"  followed in windows   {fps['fast']:7.1f} fps  ({fps['fast'] * anchor:.2f} x anchor's rate)  "
          f"aim >= {AIM_FPS:.0f} (2 x 60 fps)")
    print(f"  whole bed each frame  {fps['whole']:7.1f} fps  ({fps['whole'] * anchor:.2f} x anchor's rate)")
    print(f"  frames searching the whole bed (some colour)  {share:5.1f} %")
    print(f"  position error at rest, followed   {rms(errs['fast'])}   aim < 5 mm")
    print(f"  position error at rest, whole bed  {rms(errs['whole'])}")
    print(f"  largest difference between the two, every frame  {1000 * apart:.6f} mm   aim 0")
    if plain is not None:
        print(f"  balls at rest found with the default colours instead  {plain_found}/{plain_total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
