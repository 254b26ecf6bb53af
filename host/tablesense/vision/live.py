"""A table's feed with its camera: what ``tablesense run --camera DEVICE`` wires in.

``load_watcher(path)`` builds the ``TableWatcher`` a calibration file describes (written by
``tablesense camera calibrate``); ``with_camera(feed, device, path)`` turns a table's feed
factory (``feed(resume)`` -> async items, see commands/run.py) into one whose shots carry
the camera's contacts, ball-named cushions and rest positions (``merge.merged``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import games
from ..sim.tables import table_spec
from .colours import UnknownColour, colours_for, with_learnt
from .cushion_hits import cushion_numbers
from .lens import BadCalibration, load_model
from .merge import merged
from .source import camera_shots, open_capture
from .watch import TableWatcher


def calibration_path(profile: str, given: str | None = None) -> Path:
    return Path(given) if given else Path(f"camera-{Path(profile).stem}.json")


def load_watcher(path: str | Path) -> TableWatcher:
    model, extra = load_model(path)
    try:
        game = str(extra["game"])
        length, width, r = float(extra["length"]), float(extra["width"]), float(extra["ball_radius"])
        hue = tuple(int(v) for v in extra.get("cloth_hue", (95, 125)))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadCalibration(f"calibration {path}: missing or bad {exc}") from None
    colours = colours_for(game, extra.get("golf_colours"))
    try:
        colours = with_learnt(colours, extra.get("colours"))  # learnt at calibration, if it was
    except UnknownColour as exc:
        raise BadCalibration(f"calibration {path}: {exc}") from None
    known = games.find(game)
    sides: dict[str, int] | None = None  # the bed's four sides, numbered as carom numbers them
    if known is not None and known.name == game:
        # the table's own numbers; a game whose cushions are no straight sides (golf): none said
        sides = cushion_numbers(table_spec(game).cushions) if known.camera_cushions else {}
    return TableWatcher(model, length, width, r, game=game, colours=colours, cloth_hue=hue,  # type: ignore[arg-type]
                        cushions=sides)


def with_camera(feed: Any, device: str, path: str | Path) -> Any:
    """The feed factory with the camera merged in; a bad calibration or camera is said now."""
    load_watcher(path)
    cap, _ = open_capture(device)
    cap.release()

    def camera_feed(resume: Any) -> Any:
        return merged(feed(resume), camera_shots(device, load_watcher(path)))

    return camera_feed


def cameras_for(
    sources: dict[str, Any], tables: list[tuple[str, str | None, str | None]], cameras: list[str]
) -> dict[str, Any]:
    """``run``'s sources with ``--camera`` devices wired in, one per linked table by position
    (each reads ``camera-PROFILE.json``); raises ValueError for more cameras than tables."""
    linked = [(tid, prof) for tid, port, prof in tables if port is not None and prof is not None]
    if len(cameras) > len(linked):
        raise ValueError(f"{len(cameras)} --camera for {len(linked)} --port: one camera per table at most")
    out = dict(sources)
    for (tid, prof), device in zip(linked, cameras):
        out[tid] = with_camera(sources[tid], device, calibration_path(prof))
    return out
