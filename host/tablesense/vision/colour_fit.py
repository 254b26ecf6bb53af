"""Ball colours learnt from the calibration picture, so a camera's own white balance is met.

The picture has the balls on the table. Each ball colour is looked for with wide ranges
around its default (``wide``). The inner part of each ball found (the rim mixes with the cloth)
gives the colour's hue, saturation and value spread, and from it the learnt range:

- each ball found goes to the colour nearest it that has room for it (its ``count``);
- the hue band centred on the ball's median hue, at least as wide as the default's;
- the least saturation 30 below most of the ball's (the ball is darker and duller in the
  corners), never above the default's; the white's most saturation above its own (a warm
  or cold white balance tints the white ball), never below the default's;
- the least value well below the ball's, never above the default's;
- and where the tinted white ball would fall in a coloured ball's hue band, the white's
  most and the colour's least saturation meet half way between the two balls' pixels.

A colour not seen in the picture keeps its default (``fit_colours`` says which).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .colours import BallColour
from .detect import BallFinder
from .lens import CameraModel

#: hue (OpenCV 0..180) the wide search adds each side of a default band
WIDE_HUE = 12


def is_grey(colour: BallColour) -> bool:
    """A colour told by its lack of saturation (the white), not by its hue."""
    return any(hi - lo >= 180 for lo, hi in colour.hues)


def wide(colour: BallColour, extra: int) -> BallColour:
    """The range the calibration searches for ``colour`` with (``extra`` more balls allowed,
    since a wide range also finds other colours' balls)."""
    count = colour.count + extra
    if is_grey(colour):
        return replace(colour, max_sat=min(colour.max_sat + 90, 255), min_val=colour.min_val * 6 // 10,
                       count=count)
    hues = tuple((max(lo - WIDE_HUE, 0), min(hi + WIDE_HUE, 180)) for lo, hi in colour.hues)
    return replace(colour, hues=hues, min_sat=colour.min_sat // 2, min_val=colour.min_val * 6 // 10,
                   count=count)


@dataclass(frozen=True)
class _Ball:
    """One ball's inner pixels (N x 3 HSV) and where it lies (pixels)."""

    u: float
    v: float
    hsv: np.ndarray


def _span(colour: BallColour) -> tuple[float, float]:
    """The default hue bands as one interval, red's 0..8 and 168..180 as -12..8."""
    bands = colour.hues
    starts = [hi for lo, hi in bands if lo == 0]
    ends = [lo for lo, hi in bands if hi == 180 and lo > 0]
    if len(bands) == 2 and starts and ends:
        return ends[0] - 180.0, float(starts[0])
    return float(min(lo for lo, _ in bands)), float(max(hi for _, hi in bands))


def _centre(colour: BallColour) -> float:
    lo, hi = _span(colour)
    return (lo + hi) / 2


def _unwrap(hue: np.ndarray, centre: float) -> np.ndarray:
    """Hues as offsets from ``centre`` in -90..90 (so red's 178 and 2 are close)."""
    return (hue.astype(np.float64) - centre + 90.0) % 180.0 - 90.0


def _band(colour: BallColour) -> tuple[float, float]:
    """The default hue band as offsets from its centre."""
    lo, hi = _span(colour)
    return lo - (lo + hi) / 2, hi - (lo + hi) / 2


def _cost(colour: BallColour, hsv: np.ndarray) -> float:
    """How far a ball's pixels lie from ``colour``'s default range (0: inside it)."""
    s = float(np.median(hsv[:, 1]))
    if is_grey(colour):
        return max(0.0, s - colour.max_sat)
    strong = hsv[hsv[:, 1] >= s / 2]
    h = float(np.median(_unwrap(strong[:, 0], _centre(colour))))
    lo, hi = _band(colour)
    return 3.0 * max(0.0, lo - h, h - hi) + max(0.0, colour.min_sat - s)


def _hues(lo: float, hi: float, centre: float) -> tuple[tuple[int, int], ...]:
    """The band ``centre + lo .. centre + hi`` as OpenCV hue bands, split where it wraps."""
    a, b = int(np.floor(centre + lo)), int(np.ceil(centre + hi))
    if a < 0:
        return ((0, b), (180 + a, 180))
    if b > 180:
        return ((0, b - 180), (a, 180))
    return ((a, b),)


def _learnt(colour: BallColour, hsv: np.ndarray) -> BallColour:
    s_lo, s_hi = np.percentile(hsv[:, 1], [10, 95])
    v_lo = float(np.percentile(hsv[:, 2], 5))
    min_val = max(min(colour.min_val, round(0.45 * v_lo)), 25)
    if is_grey(colour):
        return replace(colour, max_sat=min(max(colour.max_sat, round(s_hi + 25)), 200), min_val=min_val)
    strong = hsv[hsv[:, 1] >= np.median(hsv[:, 1]) / 2]
    centre = _centre(colour)
    off = _unwrap(strong[:, 0], centre)
    mid = float(np.median(off))
    lo, hi = _band(colour)
    half = max((hi - lo) / 2, (np.percentile(off, 95) - np.percentile(off, 5)) / 2 + 5)
    min_sat = max(min(colour.min_sat, round(s_lo - 30)), 40)
    return replace(colour, hues=_hues(mid - half, mid + half, centre), min_sat=min_sat, min_val=min_val)


def _in_band(colour: BallColour, hue: np.ndarray) -> np.ndarray:
    return np.any([(hue >= lo) & (hue <= hi) for lo, hi in colour.hues], axis=0)


def fit_colours(
    frame: np.ndarray,
    model: CameraModel,
    length: float,
    width: float,
    ball_radius: float,
    colours: tuple[BallColour, ...],
    cloth_hue: tuple[int, int],
) -> tuple[tuple[BallColour, ...], list[str]]:
    """The colours learnt from a picture of the table with the balls on it, and the names of
    those no ball was found for (kept at their default)."""
    extra = len(colours)
    finder = BallFinder(model, length, width, ball_radius, tuple(wide(c, extra) for c in colours),
                        cloth_hue=cloth_hue)
    hsv_all = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    inner = 0.7 * finder.rho
    balls: list[_Ball] = []
    claims: list[list[str]] = []
    for name, seen in finder.find(frame).items():
        for s in seen:
            if not s.outline:
                continue
            at = next((i for i, b in enumerate(balls) if np.hypot(b.u - s.u, b.v - s.v) < finder.rho), None)
            if at is None:
                u0, v0 = max(int(s.u - inner), 0), max(int(s.v - inner), 0)
                patch = hsv_all[v0 : int(s.v + inner) + 2, u0 : int(s.u + inner) + 2]
                vv, uu = np.mgrid[v0 : v0 + patch.shape[0], u0 : u0 + patch.shape[1]]
                near = (uu - s.u) ** 2 + (vv - s.v) ** 2 <= inner**2
                balls.append(_Ball(s.u, s.v, patch[near]))
                claims.append([name])
            else:
                claims[at].append(name)
    # each ball to the colour nearest it that still has room (a tinted white may be nearer the
    # yellow than the white, but the yellow ball is nearer still)
    by_name = {c.name: c for c in colours}
    pairs = sorted(
        (_cost(by_name[n], ball.hsv), i, n)
        for i, (ball, names) in enumerate(zip(balls, claims))
        if len(ball.hsv) >= 10
        for n in set(names)
    )
    mine: dict[str, list[_Ball]] = {c.name: [] for c in colours}
    taken: set[int] = set()
    for _c, i, n in pairs:
        if i not in taken and len(mine[n]) < by_name[n].count:
            taken.add(i)
            mine[n].append(balls[i])
    learnt: dict[str, BallColour] = {}
    pixels: dict[str, np.ndarray] = {}
    for c in colours:
        got = mine[c.name]
        if got:
            pixels[c.name] = np.concatenate([b.hsv for b in got])
            learnt[c.name] = _learnt(c, pixels[c.name])
    # a tinted white inside a coloured ball's hue band: saturation alone tells them apart
    for g in [n for n in learnt if is_grey(learnt[n])]:
        grey_hsv = pixels[g]
        for n in [n for n in learnt if not is_grey(learnt[n])]:
            c = learnt[n]
            tinted = float(np.mean(_in_band(c, grey_hsv[:, 0])))
            if tinted < 0.5 or learnt[g].max_sat < c.min_sat:
                continue
            cut = round((np.percentile(grey_hsv[:, 1], 95) + np.percentile(pixels[n][:, 1], 10)) / 2)
            learnt[g] = replace(learnt[g], max_sat=int(cut) - 1)
            learnt[n] = replace(c, min_sat=int(cut))
    missing = [c.name for c in colours if c.name not in learnt]
    return tuple(learnt.get(c.name, c) for c in colours), missing
