"""Finding the balls in one frame by colour, and where their centres lie on the bed.

Two passes per frame, so 1280x720 stays cheap on one core:

1. at half size, each ball colour's mask (``colours.BallColour``) inside the bed, opened to
   drop thin things (the cue, a diamond's glint), cut into blobs; a blob of about a ball's
   area and roughly round is a candidate;
2. at full size, around each candidate, the ball's silhouette against the cloth (every
   pixel not of the cloth's hue; a shadow keeps the cloth's hue, a highlight is inside the
   silhouette) gives the centroid to a fraction of a pixel; where the silhouette merges
   with another ball or the arm, the colour mask's centroid stands in.

The centroid goes through the lens model to the plane of ball centres (``z = r``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .colours import BallColour
from .lens import CameraModel

SCALE = 2  # the first pass works at 1/SCALE of the frame's size


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

    def find(self, frame: np.ndarray) -> dict[str, list[Sighting]]:
        """Ball colour name -> the balls of that colour found (at most its ``count``), best first."""
        small = cv2.resize(
            frame, (frame.shape[1] // SCALE, frame.shape[0] // SCALE), interpolation=cv2.INTER_AREA
        )
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
        small_area = self.area / SCALE**2
        out: dict[str, list[Sighting]] = {}
        for colour in self.colours:
            mask = cv2.bitwise_and(self.colour_mask(hsv, colour), self.mask)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)
            n, _labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
            found: list[tuple[float, Sighting]] = []
            for i in range(1, n):
                area = stats[i, cv2.CC_STAT_AREA] / small_area
                w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
                if not 0.3 <= area <= 3.5 or min(w, h) < 0.9 * self.rho / SCALE:
                    continue
                if area / max(w * h / small_area, 1e-9) < 0.35:  # a sliver, not a disc
                    continue
                cu, cv = (cents[i] + 0.5) * SCALE - 0.5
                s = self._refine(frame, colour, float(cu), float(cv), area)
                if s is not None:
                    found.append((abs(math.log(max(area, 1e-3))), s))
            found.sort(key=lambda p: p[0])
            out[colour.name] = [s for _, s in found[: colour.count]]
        return out

    def _refine(
        self, frame: np.ndarray, colour: BallColour, cu: float, cv: float, area: float
    ) -> Sighting | None:
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
            if inside and 0.6 <= a <= max(1.5, 1.35 * area):
                fu, fv = cents[pick]
                outline = True
        if not outline:
            mask = self.colour_mask(hsv, colour)
            mom = cv2.moments(mask, binaryImage=True)
            if mom["m00"] < 0.25 * self.area:
                return None
            fu, fv = mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]
        u, v = float(fu) + u0, float(fv) + v0
        ((x_bed, y_bed),) = self.model.bed_from_image(np.array([[u, v]]), self.r)
        return Sighting(float(x_bed), float(y_bed), u, v, area, outline)
