"""``tablesense camera film``: a simulated camera's video of a carom rally, to try the camera
without a table.

Writes into ``--out``: ``table.png`` (a still picture of the table, for ``camera calibrate``),
``shots.avi`` (MJPG, 60 frames/s, every shot of the rally one after the other) and
``truth.jsonl`` (what the simulator's physics did, as table events on the video's clock:
what ``camera watch`` should find). The simulated camera is 2.5 m above the cloth.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HEIGHT = 2.5  # m: the simulated camera's lens above the cloth (SimCamera's default pose)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the directory to write into (made if missing)")
    p.add_argument("--shots", type=int, default=4, metavar="N", help="shots in the rally (default 4)")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="the same seed films the same rally")
    p.add_argument("--discipline", choices=("libre", "driebanden"), default="libre",
                   help="what the simulated players play for (default libre)")


def run(args: argparse.Namespace) -> int:
    import cv2

    from ..sim.camera import SimCamera
    from ..sim.camera_rally import carom_rally
    from ..sim.tables import table_spec

    if not 1 <= args.shots <= 200:
        raise ValueError(f"--shots {args.shots}: say 1 to 200")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    camera = SimCamera(table_spec("carom"), seed=args.seed)
    video = out / "shots.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), camera.fps,
                             (camera.model.width, camera.model.height))
    if not writer.isOpened():
        raise OSError(f"cannot write the video {video}")
    frames = 0
    try:
        with (out / "truth.jsonl").open("w", encoding="utf-8") as truth:
            for i, (side, film) in enumerate(carom_rally(args.shots, args.seed, args.discipline, camera)):
                if i == 0:  # the picture to calibrate from: nobody at the table yet
                    camera.cue = False
                    cv2.imwrite(str(out / "table.png"), camera.render(film, float(film.times[0])))
                    camera.cue = True
                for _t, frame in film.frames():
                    writer.write(frame)
                    frames += 1
                for event in film.truth.events:
                    truth.write(json.dumps({**event.to_dict(), "shot": i + 1, "player": side}) + "\n")
    finally:
        writer.release()
    seconds = frames / camera.fps
    cal, picture = out / "camera.json", out / "table.png"
    print(f"wrote {picture}, {video} ({args.shots} shots, {seconds:.0f} s) and {out / 'truth.jsonl'}")
    print(f"  try: tablesense camera calibrate --camera {picture} --profile carom --height {HEIGHT} "
          f"--calibration {cal}")
    print(f"       tablesense camera watch --camera {video} --profile carom --calibration {cal}")
    return 0
