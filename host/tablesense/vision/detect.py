"""Finding the balls in one frame by colour, and where their centres lie on the bed.

Two passes per frame, so 1280x720 stays cheap on one core:

1. at half size, each ball colour's mask (``colours.BallColour``) inside the bed, opened to
   drop thin things (the cue, a diamond's glint), cut into blobs; a blob of about a ball's
   area and roughly round is a candidate;
2. at full size, around each candidate, the ball's silhouette against the cloth (every
   pixel not of the cloth's hue; a shadow keeps the cloth's hue, a highlight is inside the
   silhouette) gives the centroid to a fraction of a pixel. Where something joins a still
   ball's silhouette (a golf peg, a goal's hole, another ball, the arm), the ball is the
   circle of about its radius fitted to the part of the silhouette's border that lies on
   one (the peg's, hole's or other ball's part dropped); where too little of the border is
   the ball's, or a blurred ball's silhouette merges, the colour mask's centroid stands in.

The centroid goes through the lens model to the plane of ball centres (``z = r``).

``find`` searches the whole bed; ``find_near`` only windows around given points, finding
there exactly what ``find`` would (``follow.BallFollower`` chooses the windows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .colours import BallColour
from .lens import CameraModel

SCALE = 2  # the first pass works at 1/SCALE of the frame's size
#: half-size pixels from a window's side within which a blob may be cut by it
EDGE = 3
#: a blob of at most this area over a ball's is a ball at rest or slow (not a blurred streak)
STILL = 1.3
#: pixels a still ball's silhouette may reach past its radius before something else joins it
SLACK = 1.5
#: pixels a silhouette's border pixels' centres lie inside the ball's edge (measured on the
#: simulated camera: 0.3-0.45 by colour and light)
BORDER = 0.35
#: the share of a ball's border (in 10 degree steps) from which its own radius is fitted
WHOLE = 0.8


#: a ball seen, not yet placed on the bed: its centroid (pixels), area over a ball's, outline
_Seen = tuple[float, float, float, bool]


@dataclass(frozen=True, slots=True)
class _Blob:
    """A candidate of the first pass: its area over a ball's, its centroid (full-size pixels)."""

    area: float
    cu: float
    cv: float


@dataclass(frozen=True, slots=True)
class Sighting:
    """One ball found: its bed position (metres), image centroid (pixels), and how sure."""

    x: float
    y: float
    u: float
    v: float
    #: the blob's area over a ball's: about 1 for a still ball, more for a blurred one
    area: float
    #: the silhouette gave the centroid (True) or only the colour mask (False)
    outline: bool = True


class BallFinder:
    """Finds ``colours`` on a bed ``length`` x ``width`` seen by ``model``."""

    def __init__(
        self,
        model: CameraModel,
        length: float,
        width: float,
        ball_radius: float,
        colours: tuple[BallColour, ...],
        cloth_hue: tuple[int, int] = (95, 125),
        cloth_min_sat: int = 90,
    ) -> None:
        self.model, self.r = model, ball_radius
        self.length, self.width = length, width
        self.colours = colours
        self.cloth_hue, self.cloth_min_sat = cloth_hue, cloth_min_sat
        centre = (length / 2, width / 2)
        self.rho = ball_radius / model.metres_per_pixel(centre, ball_radius)  # ball radius, px
        self.area = math.pi * self.rho**2
        self.mask = self._bed_mask()
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))

    def _bed_mask(self) -> np.ndarray:
        """Where ball pixels can be, at half size: the bed outline at ball-top height, 3 px out."""
        L, W, m = self.length, self.width, self.model
        n = 40
        edge = (
            [(L * i / n, 0.0) for i in range(n)]
            + [(L, W * i / n) for i in range(n)]
            + [(L - L * i / n, W) for i in range(n)]
            + [(0.0, W - W * i / n) for i in range(n)]
        )
        uv = m.project(np.array([[x, y, 2 * self.r] for x, y in edge])) / SCALE
        mask = np.zeros((m.height // SCALE, m.width // SCALE), np.uint8)
        cv2.fillPoly(mask, [np.round(uv).astype(np.int32)], 255)
        return cv2.dilate(mask, np.ones((7, 7), np.uint8))

    @staticmethod
    def colour_mask(hsv: np.ndarray, colour: BallColour) -> np.ndarray:
        out: np.ndarray | None = None
        for lo, hi in colour.hues:
            m = cv2.inRange(hsv, (lo, colour.min_sat, colour.min_val), (hi, colour.max_sat, 255))
            out = m if out is None else cv2.bitwise_or(out, m)
        assert out is not None
        return out

    def find(
        self, frame: np.ndarray, only: tuple[str, ...] | None = None
    ) -> dict[str, list[Sighting]]:
        """Ball colour name -> the balls of that colour found on the whole bed (at most its
        ``count``), best first; ``only``: just those colours."""
        small = cv2.resize(
            frame, (frame.shape[1] // SCALE, frame.shape[0] // SCALE), interpolation=cv2.INTER_AREA
        )
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
        out: dict[str, list[_Seen]] = {}
        for colour in self.colours:
            if only is not None and colour.name not in only:
                continue
            blobs = self._blobs(hsv, colour, 0, 0, self.mask)
            assert blobs is not None  # nothing is cut on the whole bed
            out[colour.name] = self._best(frame, colour, blobs)
        return self._placed(out)  # type: ignore[return-value]

    def find_near(
        self, frame: np.ndarray, windows: dict[str, list[tuple[float, float, float]]]
    ) -> dict[str, list[Sighting] | None]:
        """Like ``find``, looking only within the windows given for each colour (centre ``u``,
        ``v`` and half size, full-size pixels). A colour whose windows cut a blob (the ball may
        lie partly outside them) is ``None``: search the whole bed for it. What a window finds
        is exactly what ``find`` finds there."""
        H, W = frame.shape[:2]
        out: dict[str, list[_Seen] | None] = {}
        for colour in self.colours:
            boxes = windows.get(colour.name)
            if not boxes:
                continue
            blobs: list[_Blob] = []
            for cu, cv, half in boxes:
                # corners on even pixels, so the half-size crop is the whole frame's half size cut
                u0 = max(int(cu - half) // SCALE * SCALE, 0)
                v0 = max(int(cv - half) // SCALE * SCALE, 0)
                u1 = min(int(cu + half + SCALE) // SCALE * SCALE, W // SCALE * SCALE)
                v1 = min(int(cv + half + SCALE) // SCALE * SCALE, H // SCALE * SCALE)
                if u1 - u0 < 4 * SCALE or v1 - v0 < 4 * SCALE:
                    blobs = []
                    break
                crop = frame[v0:v1, u0:u1]
                small = cv2.resize(
                    crop, ((u1 - u0) // SCALE, (v1 - v0) // SCALE), interpolation=cv2.INTER_AREA
                )
                hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
                su, sv = u0 // SCALE, v0 // SCALE
                bed = self.mask[sv : sv + hsv.shape[0], su : su + hsv.shape[1]]
                cut = (u0 > 0, v0 > 0, u1 < W // SCALE * SCALE, v1 < H // SCALE * SCALE)
                found = self._blobs(hsv, colour, su, sv, bed, cut)
                if found is None:
                    break
                for b in found:
                    if all(abs(b.cu - o.cu) > 0.5 or abs(b.cv - o.cv) > 0.5 for o in blobs):
                        blobs.append(b)
            else:
                out[colour.name] = self._best(frame, colour, blobs)
                continue
            out[colour.name] = None
        return self._placed(out)

    def _placed(self, seen: dict[str, list[_Seen] | None]) -> dict[str, list[Sighting] | None]:
        """The balls seen, each placed on the bed (one lens computation for them all)."""
        flat = [s for got in seen.values() if got for s in got]
        if not flat:
            return {name: None if got is None else [] for name, got in seen.items()}
        bed = self.model.bed_from_image(np.array([(u, v) for u, v, _a, _o in flat]), self.r)
        places = iter(bed.tolist())
        out: dict[str, list[Sighting] | None] = {}
        for name, got in seen.items():
            if got is None:
                out[name] = None
                continue
            out[name] = []
            for u, v, area, outline in got:
                x, y = next(places)
                out[name].append(Sighting(x, y, u, v, area, outline))  # type: ignore[union-attr]
        return out

    def _blobs(
        self,
        hsv: np.ndarray,
        colour: BallColour,
        su: int,
        sv: int,
        bed: np.ndarray,
        cut: tuple[bool, bool, bool, bool] = (False, False, False, False),
    ) -> list[_Blob] | None:
        """The ball-like blobs of ``colour`` in a half-size HSV region whose corner is (``su``,
        ``sv``) in the half-size frame; None if one comes within ``EDGE`` of a side that is
        ``cut`` (left, top, right, bottom: a side inside the frame)."""
        mask = cv2.bitwise_and(self.colour_mask(hsv, colour), bed)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)
        contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        small_area = self.area / SCALE**2
        h_all, w_all = mask.shape
        out: list[_Blob] = []
        for k, contour in enumerate(contours):
            if tree[0][k][3] != -1:  # a hole's border, not a blob's
                continue
            x, y, w, h = cv2.boundingRect(contour)
            if (
                (cut[0] and x < EDGE)
                or (cut[1] and y < EDGE)
                or (cut[2] and x + w > w_all - EDGE)
                or (cut[3] and y + h > h_all - EDGE)
            ):
                return None
            if w * h < 0.3 * small_area or min(w, h) < 0.9 * self.rho / SCALE:
                continue  # too small however it is filled
            # the blob's own pixels: the component of its border's first point, in its box
            _n, labels, stats, cents = cv2.connectedComponentsWithStats(
                mask[y : y + h, x : x + w], connectivity=8
            )
            px, py = contour[0][0]
            pick = labels[py - y, px - x]
            area = stats[pick, cv2.CC_STAT_AREA] / small_area
            if not 0.3 <= area <= 3.5:
                continue
            if area / max(w * h / small_area, 1e-9) < 0.35:  # a sliver, not a disc
                continue
            cu, cv = (cents[pick] + (x + su, y + sv) + 0.5) * SCALE - 0.5
            out.append(_Blob(float(area), float(cu), float(cv)))
        return out

    def _best(self, frame: np.ndarray, colour: BallColour, blobs: list[_Blob]) -> list[_Seen]:
        found: list[tuple[float, float, float, _Seen]] = []
        for b in blobs:
            s = self._refine(frame, colour, b.cu, b.cv, b.area)
            if s is not None:  # nearest a ball's area first; alike balls left to right
                found.append((abs(math.log(max(b.area, 1e-3))), b.cu, b.cv, s))
        found.sort(key=lambda p: p[:3])
        return [p[3] for p in found[: colour.count]]

    def _refine(
        self, frame: np.ndarray, colour: BallColour, cu: float, cv: float, area: float
    ) -> _Seen | None:
        reach = int(self.rho * (1.0 + max(area, 1.0)) + 6)
        u0, v0 = max(int(cu) - reach, 0), max(int(cv) - reach, 0)
        u1, v1 = min(int(cu) + reach + 1, frame.shape[1]), min(int(cv) + reach + 1, frame.shape[0])
        hsv = cv2.cvtColor(frame[v0:v1, u0:u1], cv2.COLOR_BGR2HSV)
        cloth = cv2.inRange(hsv, (self.cloth_hue[0], self.cloth_min_sat, 0), (self.cloth_hue[1], 255, 255))
        ball = cv2.bitwise_not(cloth)
        ball = cv2.morphologyEx(ball, cv2.MORPH_OPEN, self._kernel)
        _n, labels, stats, cents = cv2.connectedComponentsWithStats(ball, connectivity=8)
        lu, lv = round(cu) - u0, round(cv) - v0
        pick = labels[min(max(lv, 0), labels.shape[0] - 1), min(max(lu, 0), labels.shape[1] - 1)]
        outline = False
        if pick > 0:
            a = stats[pick, cv2.CC_STAT_AREA] / self.area
            x, y, w, h = (
                stats[pick, k]
                for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT)
            )
            inside = x > 0 and y > 0 and x + w < labels.shape[1] and y + h < labels.shape[0]
            still = area <= STILL
            if inside and 0.6 <= a <= max(1.5, 1.35 * area) and not (still and self._touched(w, h, a)):
                fu, fv = cents[pick]
                outline = True
            elif still:  # a peg, a goal's hole or another ball joins the silhouette
                fit = self._ball_arc(labels[y : y + h, x : x + w] == pick, cu - u0 - x, cv - v0 - y)
                if fit is not None:
                    fu, fv = fit[0] + x, fit[1] + y
                    outline = True
        if not outline:
            mask = self.colour_mask(hsv, colour)
            mom = cv2.moments(mask, binaryImage=True)
            if mom["m00"] < 0.25 * self.area:
                return None
            fu, fv = mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]
        return float(fu) + u0, float(fv) + v0, area, outline

    def _touched(self, w: int, h: int, a: float) -> bool:
        """A still ball's silhouette (box ``w`` x ``h``, area ``a`` over a ball's) that something
        else joins: wider or taller than the ball, or larger."""
        side = 2 * self.rho + 1 + 2 * SLACK
        return w > side or h > side or a > 1.12

    def _ball_arc(self, blob: np.ndarray, cu: float, cv: float) -> tuple[float, float] | None:
        """The centre of the ball in a silhouette ``blob`` that something else joins, from the
        part of its border that lies on a circle of about the ball's radius: a circle fitted to
        the border, the points off it (the peg's, the hole's, the other ball's) dropped in
        turn; (``cu``, ``cv``) is where the colour mask put the ball. Where less than
        ``WHOLE`` of the ball's border is left (a ball half over a goal's hole), the circle
        keeps the ball's known radius. None if too little of the border is the ball's."""
        contours, _ = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return None
        pts = np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float64)
        centre = np.array([cu, cv])
        known = self.rho - BORDER
        radius = known
        keep = np.zeros(len(pts), bool)
        for tol in (3.0, 2.0, 1.2, 1.0):
            d = np.hypot(*(pts - centre).T)
            keep = np.abs(d - radius) < tol
            if keep.sum() < 0.4 * 2 * math.pi * self.rho:
                return None
            centre, radius = _circle(pts[keep])
            if not 0.8 * self.rho < radius < 1.2 * self.rho:
                return None
        seen = np.arctan2(*(pts[keep] - centre).T[::-1])
        if len(np.unique(np.floor((seen + math.pi) / (2 * math.pi) * 36))) < WHOLE * 36:
            centre = _circle_of(pts[keep], centre, known)
        return float(centre[0]), float(centre[1])


def _circle(pts: np.ndarray) -> tuple[np.ndarray, float]:
    """The least-squares circle (centre, radius) through points (N x 2), algebraic (Kasa)."""
    mean = pts.mean(axis=0)
    x, y = (pts - mean).T
    z = x * x + y * y
    sxx, sxy, syy = float(x @ x), float(x @ y), float(y @ y)
    sxz, syz = float(x @ z), float(y @ z)
    det = sxx * syy - sxy * sxy
    if det <= 1e-12:
        return mean, 0.0
    cx = (syy * sxz - sxy * syz) / det / 2
    cy = (sxx * syz - sxy * sxz) / det / 2
    return mean + (cx, cy), math.sqrt(max(float(z.mean()) + cx * cx + cy * cy, 0.0))


def _circle_of(pts: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """The centre of the circle of ``radius`` nearest points (N x 2), from ``centre`` on
    (Gauss-Newton on the points' distances to it)."""
    for _ in range(4):
        qx, qy = (pts - centre).T
        d = np.maximum(np.hypot(qx, qy), 1e-9)
        jx, jy, e = qx / d, qy / d, d - radius  # the distances' gradient, their misses
        a, b, c = float(jx @ jx), float(jx @ jy), float(jy @ jy)
        det = a * c - b * b
        if det <= 1e-12:
            break
        gx, gy = float(jx @ e), float(jy @ e)
        centre = centre + ((c * gx - b * gy) / det, (a * gy - b * gx) / det)
    return centre
