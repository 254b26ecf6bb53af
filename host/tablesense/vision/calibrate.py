"""Calibration from one picture of the table: the lens and where the camera hangs.

The cloth (bed and cushion tops, one colour) ends at the wooden rail: that outline is a
rectangle ``CUSHION_WIDTH`` outside the bed at ``RAIL_HEIGHT`` above the cloth. Its four
sides are straight on the table, so the lens's radial distortion ``k1`` is the one that
makes them straight again in the image; their corners, with the camera's height above the
cloth (measured with a tape: it sets the focal length, to which a camera looking straight
down is otherwise blind), give the camera's pose (``cv2.solvePnP``). Balls on the table do
no harm (the outline's holes are filled); the arm over the rail does (take the picture with
the table clear of people).

The diamonds then refine the pose: each is looked for as a small dot brighter than the wood
near where the first fit puts it; the pose is solved again from the diamonds found, those
far off it dropped (a glint, a hand), then the lens's ``k1`` with the pose (the focal
length kept). The result is kept only when at least ``MIN_DIAMONDS`` were found and they
lie closer to it than to the first fit (on the simulator the bed's mapping goes from about
1.1 mm RMS to under 0.2 mm: bench/camera_calibrate.py).

``check_picture`` draws the result over the picture to check by eye: the bed's outline at
the cushion noses, the rail edge, the diamonds, a 50 cm grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .lens import BadCalibration, CameraModel
from .table_dress import CUSHION_WIDTH, NOSE_HEIGHT, RAIL_HEIGHT, diamonds

DEFAULT_HEIGHT = 2.5  # m of the lens above the cloth, when not measured
MIN_DIAMONDS = 8  # diamonds found for them to refine the pose


@dataclass(frozen=True)
class Calibration:
    model: CameraModel
    #: the cloth's hue band (OpenCV hue 0..180): what is not of it is a ball, a cue or an arm
    cloth_hue: tuple[int, int]
    #: mean distance (pixels) of the outline's points from the fitted sides, after the lens
    residual_px: float
    #: diamonds that refined the pose (0: the corners' pose kept), and their mean distance
    #: (pixels) from where the model puts them
    diamonds: int = 0
    diamond_px: float = 0.0


def cloth_hue(hsv: np.ndarray) -> tuple[int, int]:
    """The hue band of the cloth: the commonest hue of the saturated middle of the picture."""
    h, w = hsv.shape[:2]
    mid = hsv[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4].reshape(-1, 3)
    sat = mid[mid[:, 1] > 80]
    if len(sat) < 0.2 * len(mid):
        raise BadCalibration("no coloured cloth in the middle of the picture: is the camera over the table?")
    hist = np.bincount(sat[:, 0], minlength=180)
    peak = int(np.argmax(hist))
    return max(peak - 12, 0), min(peak + 12, 180)


def cloth_outline(frame: np.ndarray, hue: tuple[int, int]) -> np.ndarray:
    """The outline (N x 2 pixels, in order) of the largest cloth-coloured region, holes filled."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, (hue[0], 80, 30), (hue[1], 255, 255))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise BadCalibration("no cloth found in the picture")
    best = max(contours, key=cv2.contourArea)
    if cv2.contourArea(best) < 0.15 * frame.shape[0] * frame.shape[1]:
        raise BadCalibration(
            "the cloth covers too little of the picture: mount the camera so the table fills most of it"
        )
    return best.reshape(-1, 2).astype(np.float64)


def _sides(outline: np.ndarray) -> list[np.ndarray]:
    """The outline cut into its four sides (top-left corner first, clockwise in the image),
    a few percent trimmed at each corner."""
    s, d = outline.sum(axis=1), outline[:, 0] - outline[:, 1]
    corners = [int(np.argmin(s)), int(np.argmax(d)), int(np.argmax(s)), int(np.argmin(d))]
    n = len(outline)
    if (corners[1] - corners[0]) % n > (corners[3] - corners[0]) % n:  # the contour runs anticlockwise
        outline = outline[::-1]
        corners = [n - 1 - k for k in corners]
    out = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        idx = np.arange(a, b if b > a else b + n) % n
        trim = max(len(idx) // 20, 2)
        out.append(outline[idx[trim:-trim]])
    if any(len(side) < 10 for side in out):
        raise BadCalibration("the cloth's outline is not a four-sided table")
    return out


def _line(points: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Total least squares: unit normal n and offset c with n.p = c; the RMS residual."""
    mean = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mean, full_matrices=False)
    normal = vt[1]
    res = (points - mean) @ normal
    return normal, float(normal @ mean), float(np.sqrt(np.mean(res**2)))


def _undistort(points: np.ndarray, f: float, cx: float, cy: float, k1: float) -> np.ndarray:
    K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    n = cv2.undistortPoints(points.reshape(-1, 1, 2), K, np.array([k1, 0, 0, 0, 0.0]))
    return n.reshape(-1, 2)


def _straightest_k1(sides: list[np.ndarray], f: float, cx: float, cy: float) -> tuple[float, float]:
    """The k1 (of -0.5..0.3) whose undistortion makes the four sides straightest; its residual in px."""

    def cost(k1: float) -> float:
        return sum(_line(_undistort(side, f, cx, cy, k1))[2] for side in sides) * f / 4

    grid = np.linspace(-0.5, 0.3, 33)
    best = min(grid, key=cost)
    lo, hi = best - 0.025, best + 0.025
    for _ in range(30):  # golden-section refinement
        a, b = lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo)
        if cost(a) < cost(b):
            hi = b
        else:
            lo = a
    k1 = (lo + hi) / 2
    return float(k1), cost(k1)


def _corners(sides: list[np.ndarray], f: float, cx: float, cy: float, k1: float) -> np.ndarray:
    """The four corners (ideal pinhole pixels) where the straightened sides meet."""
    lines = [_line(_undistort(side, f, cx, cy, k1)) for side in sides]
    out = []
    for (n1, c1, _), (n2, c2, _) in zip(lines[-1:] + lines[:-1], lines):
        x, y = np.linalg.solve(np.array([n1, n2]), np.array([c1, c2]))
        out.append((x * f + cx, y * f + cy))
    return np.array(out)


def find_diamonds(
    frame: np.ndarray, model: CameraModel, length: float, width: float, reach: int = 10
) -> tuple[np.ndarray, np.ndarray]:
    """The diamonds seen near where ``model`` puts them: world points (N x 3), pixels (N x 2).
    A diamond is the largest dot within ``reach`` pixels brighter than the wood round it (half
    way from the wood's to the brightest), wholly inside."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)  # the value channel: the brightest of B, G, R
    world = np.array([[x, y, RAIL_HEIGHT] for x, y in diamonds(length, width)])
    obj, img = [], []
    side = 2 * reach + 1
    for xyz, (u, v) in zip(world, model.project(world)):
        u0, v0 = round(float(u)) - reach, round(float(v)) - reach
        if u0 < 0 or v0 < 0 or u0 + side > frame.shape[1] or v0 + side > frame.shape[0]:
            continue
        val = hsv[v0 : v0 + side, u0 : u0 + side, 2].astype(np.int16)
        mid, top = int(np.median(val)), int(val.max())
        if top - mid < 40:  # nothing stands out of the wood
            continue
        dot = (val >= (mid + top) // 2).astype(np.uint8)
        n, _labels, stats, cents = cv2.connectedComponentsWithStats(dot, connectivity=8)
        if n < 2:
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        x, y, w, h, area = (stats[k, i] for i in range(5))
        if area < 6 or x == 0 or y == 0 or x + w >= side or y + h >= side:
            continue
        obj.append(xyz)
        img.append((cents[k][0] + u0, cents[k][1] + v0))
    return np.array(obj).reshape(-1, 3), np.array(img).reshape(-1, 2)


def _by_diamonds(
    frame: np.ndarray, model: CameraModel, length: float, width: float
) -> tuple[CameraModel, int, float]:
    """The pose and ``k1`` solved again from the diamonds (the focal length kept), if they fit
    them better; with how many and their mean distance from the model kept (pixels)."""
    obj, pts = find_diamonds(frame, model, length, width)
    if len(obj) < MIN_DIAMONDS:
        return model, 0, 0.0
    before = float(np.linalg.norm(model.project(obj) - pts, axis=1).mean())
    ideal = cv2.undistortPoints(pts.reshape(-1, 1, 2), model.K, model.D, P=model.K)
    new = model
    keep = np.ones(len(obj), bool)
    for _ in range(2):  # solve, drop the diamonds far off (a glint, a hand on the rail), solve again
        rvec = np.array(model.rvec, dtype=float).reshape(3, 1)
        tvec = np.array(model.tvec, dtype=float).reshape(3, 1)
        ok, rvec, tvec = cv2.solvePnP(obj[keep], ideal[keep], model.K, None, rvec, tvec,
                                      useExtrinsicGuess=True, flags=cv2.SOLVEPNP_ITERATIVE)
        if not ok:
            return model, 0, before
        new = replace(
            model,
            rvec=tuple(float(v) for v in rvec.ravel()),  # type: ignore[arg-type]
            tvec=tuple(float(v) for v in tvec.ravel()),  # type: ignore[arg-type]
        )
        off = np.linalg.norm(new.project(obj) - pts, axis=1)
        keep = off <= max(3.0 * float(np.median(off)), 1.0)
        if keep.sum() < MIN_DIAMONDS:
            return model, 0, before
    # then the lens's k1 with the pose (the focal length kept: the measured height sets it):
    # the diamonds ring the picture, where the distortion is largest
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_FOCAL_LENGTH
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2
             | cv2.CALIB_FIX_K3)
    _rms, _K, dist, rvecs, tvecs = cv2.calibrateCamera(
        [obj[keep].astype(np.float32)], [pts[keep].astype(np.float32).reshape(-1, 1, 2)],
        (model.width, model.height), model.K.copy(), np.array([new.D], dtype=np.float64), flags=flags,
        rvecs=None, tvecs=None,
    )
    k1 = float(dist.ravel()[0])
    if -0.6 <= k1 <= 0.4:
        lens = replace(
            new,
            dist=(k1, 0.0, 0.0, 0.0, 0.0),
            rvec=tuple(float(v) for v in rvecs[0].ravel()),  # type: ignore[arg-type]
            tvec=tuple(float(v) for v in tvecs[0].ravel()),  # type: ignore[arg-type]
        )
        off_lens = np.linalg.norm(lens.project(obj[keep]) - pts[keep], axis=1)
        if off_lens.mean() < off[keep].mean():
            new, off = lens, np.linalg.norm(lens.project(obj) - pts, axis=1)
    used = off[keep]
    if float(used.mean()) >= float(np.linalg.norm(model.project(obj[keep]) - pts[keep], axis=1).mean()):
        return model, 0, before
    return new, int(keep.sum()), float(used.mean())


def calibrate(
    frame: np.ndarray,
    length: float,
    width: float,
    camera_height: float = DEFAULT_HEIGHT,
    head: str = "left",
    use_diamonds: bool = True,
) -> Calibration:
    """The camera model from a picture of the table (``head``: the head cushion's side of the
    picture, ``left`` or ``right``), its lens ``camera_height`` metres above the cloth; the
    diamonds refine the pose unless ``use_diamonds`` is False."""
    if head not in ("left", "right"):
        raise BadCalibration(f"--head must be left or right, not {head!r}")
    if not 0.5 <= camera_height <= 6.0:
        raise BadCalibration(f"the camera height must be 0.5..6 m above the cloth, not {camera_height}")
    h, w = frame.shape[:2]
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    hue = cloth_hue(hsv)
    sides = _sides(cloth_outline(frame, hue))
    c = CUSHION_WIDTH
    # corners: image top-left, top-right, bottom-right, bottom-left; the image's x runs along the
    # table, its y across; with the head on the left the image's bottom is the y = 0 side
    x0, x1, y0, y1 = -c, length + c, -c, width + c
    world = [(x0, y1), (x1, y1), (x1, y0), (x0, y0)]
    if head == "right":
        world = [(x1, y0), (x0, y0), (x0, y1), (x1, y1)]
    obj = np.array([[x, y, RAIL_HEIGHT] for x, y in world])
    f, cx, cy = float(w), w / 2, h / 2
    rvec = tvec = None
    k1 = residual = 0.0
    for _ in range(6):
        k1, residual = _straightest_k1(sides, f, cx, cy)
        img = _corners(sides, f, cx, cy, k1)
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
        ok, rvec, tvec = cv2.solvePnP(obj, img.reshape(-1, 1, 2), K, None, flags=cv2.SOLVEPNP_ITERATIVE)
        if not ok:
            raise BadCalibration("the table's corners give no camera pose")
        rot, _ = cv2.Rodrigues(rvec)
        centre = -rot.T @ tvec.ravel()
        above = float(centre[2]) - RAIL_HEIGHT
        if above <= 0:
            raise BadCalibration("the table's corners put the camera below the table: check --head")
        target = camera_height - RAIL_HEIGHT
        if abs(above - target) < 1e-4:
            break
        # a camera looking down: the distance it solves for scales with the focal length
        # (k1 is in units of the focal length: keep the pixel distortion as found)
        k1_px = k1 / f**2
        f *= target / above
        k1 = k1_px * f**2
    assert rvec is not None and tvec is not None
    model = CameraModel(
        width=w,
        height=h,
        fx=f,
        fy=f,
        cx=cx,
        cy=cy,
        dist=(k1, 0.0, 0.0, 0.0, 0.0),
        rvec=tuple(float(v) for v in rvec.ravel()),  # type: ignore[arg-type]
        tvec=tuple(float(v) for v in tvec.ravel()),
    )  # type: ignore[arg-type]
    found, px = 0, 0.0
    if use_diamonds:
        model, found, px = _by_diamonds(frame, model, length, width)
    return Calibration(model=model, cloth_hue=hue, residual_px=residual, diamonds=found, diamond_px=px)


def check_picture(frame: np.ndarray, model: CameraModel, length: float, width: float) -> np.ndarray:
    """The picture with the calibration drawn over it: bed outline (green), rail edge (yellow),
    diamonds (red circles), a 50 cm grid on the cloth (thin white)."""
    out = frame.copy()

    def poly(
        points: list[tuple[float, float]],
        z: float,
        bgr: tuple[int, int, int],
        thick: int = 1,
        closed: bool = True,
    ) -> None:
        uv = model.project(np.array([[x, y, z] for x, y in points]))
        cv2.polylines(out, [np.round(uv * 4).astype(np.int32)], closed, bgr, thick, cv2.LINE_AA, shift=2)

    def rect(x0: float, y0: float, x1: float, y1: float, n: int = 40) -> list[tuple[float, float]]:
        return (
            [(x0 + (x1 - x0) * i / n, y0) for i in range(n)]
            + [(x1, y0 + (y1 - y0) * i / n) for i in range(n)]
            + [(x1 - (x1 - x0) * i / n, y1) for i in range(n)]
            + [(x0, y1 - (y1 - y0) * i / n) for i in range(n)]
        )

    for k in range(1, math.ceil(length / 0.5)):
        poly([(k * 0.5, y * width / 20) for y in range(21)], 0.0, (230, 230, 230), closed=False)
    for k in range(1, math.ceil(width / 0.5)):
        poly([(x * length / 40, k * 0.5) for x in range(41)], 0.0, (230, 230, 230), closed=False)
    poly(rect(0, 0, length, width), NOSE_HEIGHT, (0, 220, 0), 2)
    c = CUSHION_WIDTH
    poly(rect(-c, -c, length + c, width + c), RAIL_HEIGHT, (0, 220, 255), 1)
    for x, y in diamonds(length, width):
        ((u, v),) = model.project(np.array([[x, y, RAIL_HEIGHT]]))
        cv2.circle(out, (round(u), round(v)), 6, (0, 0, 255), 1, cv2.LINE_AA)
    ((u, v),) = model.project(np.array([[0.0, 0.0, NOSE_HEIGHT]]))
    cv2.putText(
        out, "x=0 y=0", (int(u) + 6, int(v) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 220, 0), 1, cv2.LINE_AA
    )
    return out
