"""``tablesense camera``: the overhead camera of a table.

    tablesense camera calibrate --camera /dev/video0 --profile carom [--height 2.5] [--head left]
    tablesense camera watch --camera FILE.mp4 --profile carom      # the events a recording makes
    tablesense camera film --out DIR [--shots 4]                   # a simulated table's video to try

``calibrate`` takes one picture of the table with the balls on it (clear of people), finds
the lens and the camera's pose from the cloth's outline, refines the pose from the diamonds,
learns each ball's colour as this camera sees it (its white balance) and writes ``camera-PROFILE.json``
and ``camera-PROFILE.png`` (the picture with the bed outline, rail, diamonds and a 50 cm grid
drawn over it: check it by eye). ``tablesense run --camera DEVICE`` reads that file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXAMPLES = """
tablesense camera calibrate --camera /dev/video0 --profile carom --height 2.45
tablesense camera watch --camera shot.mp4 --profile carom
tablesense camera film --out rally --shots 4
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", title="actions")

    def action(name: str, text: str, example: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                              epilog=f"example:\n  {example}",
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    cal = action("calibrate", "find the lens, the camera's pose and the balls' colours from a picture "
                 "of the table with the balls on it",
                 "tablesense camera calibrate --camera /dev/video0 --profile carom --height 2.45")
    watch = action("watch", "print the table events a camera or a recording makes (JSONL)",
                   "tablesense camera watch --camera shot.mp4 --profile carom")
    film = action("film", "film a simulated carom rally: a picture to calibrate from, its video and what "
                  "happened (no table needed)", "tablesense camera film --out rally --shots 4")
    from . import camera_film

    camera_film.add_arguments(film)
    for q in (cal, watch):
        q.add_argument(
            "--camera",
            required=True,
            metavar="DEVICE",
            help="/dev/video0 (or 0), an rtsp:// stream, or a picture/video file",
        )
        q.add_argument(
            "--profile", required=True, metavar="ID", help="the table's profile (golf, kegle, carom)"
        )
        q.add_argument(
            "--calibration",
            default=None,
            metavar="FILE",
            help="the calibration file (default camera-PROFILE.json)",
        )
    cal.add_argument(
        "--height",
        type=float,
        default=2.5,
        metavar="M",
        help="the lens's height above the cloth in metres, measured (default 2.5)",
    )
    cal.add_argument(
        "--head",
        choices=("left", "right"),
        default="left",
        help="the side of the picture the head cushion is on (default left)",
    )
    cal.add_argument("--size", default="match", help="carom bed: match, 2.30, 2.10, 1.90 (default match)")
    cal.add_argument(
        "--colour",
        action="append",
        default=[],
        metavar="PLAYER=COLOUR",
        help="golf: a player's ball colour for the camera (p1=red, p2=yellow; repeat)",
    )


def run(args: argparse.Namespace) -> int:
    if args.action is None:
        print("tablesense camera: say calibrate, watch or film (tablesense camera --help)", file=sys.stderr)
        return 2
    from ..command_line.extras import needs

    film = ("pymunk",) if args.action == "film" else ()  # the rally is filmed off the simulator's physics
    missing = needs(f"tablesense camera {args.action}", "cv2", "numpy", *film)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    from ..errors import TablesenseError

    try:
        if args.action == "film":
            from . import camera_film

            return camera_film.run(args)
        return _calibrate(args) if args.action == "calibrate" else _watch(args)
    except TablesenseError as exc:
        print(f"tablesense camera {args.action}: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"tablesense camera {args.action}: {exc}", file=sys.stderr)
        return 2


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from ..sim.tables import table_spec
    from ..table.profile import load_profile
    from ..vision.calibrate import calibrate, check_picture
    from ..vision.colour_fit import fit_colours
    from ..vision.colours import chosen_colours, colours_for, colours_to_json
    from ..vision.lens import save_model
    from ..vision.live import calibration_path
    from ..vision.source import read_frame

    profile = load_profile(args.profile)
    spec = table_spec(profile.game, args.size)
    golf = dict(c.split("=", 1) for c in args.colour if "=" in c) or None
    wanted = colours_for(profile.game, golf)  # a bad colour is said before the picture is taken
    frame = (
        read_frame(args.camera)
        if Path(args.camera).suffix.lower() not in (".png", ".jpg", ".jpeg")
        else cv2.imread(args.camera)
    )
    if frame is None:
        print(f"tablesense camera calibrate: cannot read the picture {args.camera}", file=sys.stderr)
        return 2
    cal = calibrate(frame, spec.length, spec.width, camera_height=args.height, head=args.head)
    out = calibration_path(profile.id, args.calibration)
    learnt, missing = fit_colours(
        frame, cal.model, spec.length, spec.width, spec.ball_radius, wanted, cal.cloth_hue
    )
    extra = {
        "game": profile.game,
        "profile": profile.id,
        "length": spec.length,
        "width": spec.width,
        "ball_radius": spec.ball_radius,
        "cloth_hue": list(cal.cloth_hue),
        "head": args.head,
        "camera_height": args.height,
        "residual_px": round(cal.residual_px, 3),
        "diamonds": cal.diamonds,
        # the ball colours as this camera sees them; one not found keeps its default
        "colours": colours_to_json(tuple(c for c in learnt if c.name not in missing)),
    }
    if golf:
        extra["golf_colours"] = golf
    save_model(out, cal.model, extra)
    picture = out.with_suffix(".png")
    cv2.imwrite(str(picture), check_picture(frame, cal.model, spec.length, spec.width))
    mm = 1000 * cal.model.metres_per_pixel((spec.length / 2, spec.width / 2))
    print(
        f"calibration written to {out}; check {picture} by eye (green: the cushion noses, yellow: the rail, "
        f"red circles: the diamonds)"
    )
    print(
        f"  lens k1 {cal.model.dist[0]:+.3f}, focal {cal.model.fx:.0f} px, {mm:.2f} mm per pixel, sides "
        f"straight to {cal.residual_px:.2f} px"
    )
    if cal.diamonds:
        print(f"  {cal.diamonds} diamonds refined the pose (each within {cal.diamond_px:.2f} px on average)")
    else:
        print("  the diamonds did not refine the pose (too few found): the cloth's corners give it")
    seen = [c.name for c in learnt if c.name not in missing]
    if seen:
        print(f"  ball colours learnt from the picture: {', '.join(seen)}")
    chosen = chosen_colours(profile.game, golf)
    for name in missing:
        label = f"{name} ({chosen[name]})" if name in chosen else name
        print(
            f"tablesense camera calibrate: warning: no {label} ball found in the picture: its default "
            "colour is kept (put the balls on the table and calibrate again)",
            file=sys.stderr,
        )
    return 0


def _watch(args: argparse.Namespace) -> int:
    from ..table.profile import load_profile
    from ..vision.live import calibration_path, load_watcher
    from ..vision.source import watch_file

    profile = load_profile(args.profile)
    watcher = load_watcher(calibration_path(profile.id, args.calibration))
    for event in watch_file(args.camera, watcher):
        print(json.dumps(event.to_dict()), flush=True)
    return 0
