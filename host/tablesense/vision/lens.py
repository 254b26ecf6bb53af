"""The camera model: where a point of the table appears in the image, and back.

A pinhole camera with OpenCV's radial lens model (``k1``, ``k2``) and a pose above the
table. World coordinates are docs/events.md's bed frame in metres (``x`` along the long
side from the head cushion, ``y`` across) with ``z`` up from the cloth. A ball's centre lies
``z = r`` above the cloth, so ``bed_from_image(uv, z=r)`` gives a ball's position without
the parallax of a point seen off the camera's axis (17 mm at the long cushion from 2.5 m).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import TablesenseError


class BadCalibration(TablesenseError, ValueError):
    """A calibration file that cannot be read, or a picture that gives no calibration."""


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics (pixels), lens distortion and pose (world to camera: ``rvec``, ``tvec``)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...]
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]

    # computed once a model (read only: a model does not change)
    @cached_property
    def K(self) -> np.ndarray:
        return _frozen(np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]]))

    @cached_property
    def D(self) -> np.ndarray:
        return _frozen(np.array(self.dist, dtype=float))

    @cached_property
    def R(self) -> np.ndarray:
        rot, _ = cv2.Rodrigues(np.array(self.rvec, dtype=float))
        return _frozen(rot)

    @cached_property
    def centre(self) -> np.ndarray:
        """The camera's position in the world (metres)."""
        return _frozen(-self.R.T @ np.array(self.tvec, dtype=float))

    def project(self, xyz: np.ndarray) -> np.ndarray:
        """World points (N x 3) to pixels (N x 2), lens distortion included."""
        pts = np.asarray(xyz, dtype=float).reshape(-1, 1, 3)
        uv, _ = cv2.projectPoints(pts, np.array(self.rvec, float), np.array(self.tvec, float), self.K, self.D)
        return uv.reshape(-1, 2)

    def rays(self, uv: np.ndarray) -> np.ndarray:
        """Unit-free ray directions in the world (N x 3) through pixels ``uv`` (N x 2)."""
        pts = np.asarray(uv, dtype=float).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(
            pts, self.K, self.D, None, None, None, (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-9)
        )
        n = norm.reshape(-1, 2)
        d_cam = np.column_stack([n, np.ones(len(n))])
        return d_cam @ self.R  # R^T d for each row

    def bed_from_image(self, uv: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Pixels (N x 2) to bed points (N x 2) on the plane ``z`` metres above the cloth."""
        d = self.rays(uv)
        c = self.centre
        s = (z - c[2]) / d[:, 2]
        return c[:2] + d[:, :2] * s[:, None]

    def metres_per_pixel(self, xy: tuple[float, float], z: float = 0.0) -> float:
        """Roughly how many metres one pixel spans at bed point ``xy``."""
        uv = self.project(np.array([[xy[0], xy[1], z], [xy[0] + 0.01, xy[1], z]]))
        return 0.01 / float(np.linalg.norm(uv[1] - uv[0]))

    # --- files ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "fx": self.fx,
            "fy": self.fy,
            "cx": self.cx,
            "cy": self.cy,
            "dist": list(self.dist),
            "rvec": list(self.rvec),
            "tvec": list(self.tvec),
        }

    @classmethod
    def from_dict(cls, raw: Any) -> CameraModel:
        try:
            return cls(
                width=int(raw["width"]),
                height=int(raw["height"]),
                fx=float(raw["fx"]),
                fy=float(raw["fy"]),
                cx=float(raw["cx"]),
                cy=float(raw["cy"]),
                dist=tuple(float(v) for v in raw["dist"]),
                rvec=tuple(float(v) for v in raw["rvec"]),  # type: ignore[arg-type]
                tvec=tuple(float(v) for v in raw["tvec"]),
            )  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError) as exc:
            raise BadCalibration(f"not a camera model: {exc}") from None


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def overhead(
    width: int,
    height: int,
    length: float,
    bed_width: float,
    camera_height: float = 2.5,
    fill: float = 0.86,
    k1: float = 0.0,
    k2: float = 0.0,
    tilt: float = 0.0,
    yaw: float = 0.0,
    offset: tuple[float, float] = (0.0, 0.0),
) -> CameraModel:
    """A camera ``camera_height`` metres above the cloth over the bed's centre (plus ``offset``),
    its image's long side along the table, the bed ``fill`` of the image's width; ``tilt``
    (degrees, about the table's width) and ``yaw`` (degrees, about the vertical) turn it."""
    f = fill * width * camera_height / length
    # camera axes in the world: x along the table, y = -world y (image down), z down
    base = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    ty, tt = math.radians(yaw), math.radians(tilt)
    rz = np.array([[math.cos(ty), -math.sin(ty), 0.0], [math.sin(ty), math.cos(ty), 0.0], [0.0, 0.0, 1.0]])
    rx = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(tt), -math.sin(tt)], [0.0, math.sin(tt), math.cos(tt)]])
    rot = rx @ base @ rz.T  # world -> camera
    centre = np.array([length / 2 + offset[0], bed_width / 2 + offset[1], camera_height])
    tvec = -rot @ centre
    rvec, _ = cv2.Rodrigues(rot)
    return CameraModel(
        width=width,
        height=height,
        fx=f,
        fy=f,
        cx=width / 2,
        cy=height / 2,
        dist=(k1, k2, 0.0, 0.0, 0.0),
        rvec=tuple(float(v) for v in rvec.ravel()),  # type: ignore[arg-type]
        tvec=tuple(float(v) for v in tvec.ravel()),
    )  # type: ignore[arg-type]


def save_model(path: str | Path, model: CameraModel, extra: dict[str, Any] | None = None) -> None:
    data = {"camera": model.to_dict(), **(extra or {})}
    Path(path).write_text(json.dumps(data, indent=2) + "\n")


def load_model(path: str | Path) -> tuple[CameraModel, dict[str, Any]]:
    """A calibration file written by ``tablesense camera calibrate``: the model and the rest."""
    try:
        raw = json.loads(Path(path).read_text())
    except OSError as exc:
        raise BadCalibration(f"cannot read calibration {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise BadCalibration(f"calibration {path} is not JSON: {exc}") from None
    if not isinstance(raw, dict) or "camera" not in raw:
        raise BadCalibration(f"calibration {path} has no 'camera' model")
    return CameraModel.from_dict(raw["camera"]), {k: v for k, v in raw.items() if k != "camera"}
