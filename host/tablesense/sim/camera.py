"""A simulated overhead camera: video frames of the simulator's own shots, with the truth.

``SimCamera(spec, model)`` films a ``Table``: ``film(table, shot, t0)`` plays the shot with
the physics of ``tablesense.sim.physics`` (its ``on_step`` hook records every step) and
returns a ``ShotFilm``: the frames as BGR images (rendered lazily, one at a time, so a long
shot costs no memory) and the ground truth (positions per frame, the physics' ball-ball and
cushion contacts with their times, the rest positions, the table events a full-information
source would give).

What the picture has, so the tracker meets what a pub camera sees:

- perspective and lens distortion from the ``CameraModel`` (``tablesense.vision.lens``);
  balls are drawn where their centre (``r`` above the cloth) projects, so a ball off the
  camera's axis shows the parallax of a real one;
- uneven light: two lamps over the table, darker corners, a vignette, ball shading with a
  highlight and a soft shadow;
- sensor noise (Gaussian, a bank of noise frames cycled) and motion blur (each ball is
  averaged over the exposure);
- the cue stick and the player's arm and bridge hand, over the table before and just
  after the strike, covering parts of the cloth and of balls;
- keglebillard's five pins, white: a standing pin is a lit head disc with a glint over its
  darker turned side; a pin the physics topples (a ``pin`` happening) lies on the cloth from
  then on, along the way the ball that knocked it (or the pin that fell on it) came.

The silhouette of a ball is drawn as a disc around its projected centre (the true ellipse's
centre differs by under 0.2 px at 2.5 m); the cushion noses are at ``NOSE_HEIGHT``, the
wooden rail at ``RAIL_HEIGHT`` with diamonds, as calibration expects them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..events import Event
from ..rules.kegle import geometry as kegle_geo
from ..vision.lens import CameraModel, overhead
from ..vision.table_dress import CUSHION_WIDTH, NOSE_HEIGHT, RAIL_HEIGHT, RAIL_WIDTH, diamonds
from .physics import Happening, Shot, Table
from .sensors import table_events
from .tables import XY, TableSpec

#: BGR colours of the dressing and the balls (a blue carom cloth)
CLOTH = (150, 95, 25)
CUSHION = (120, 75, 20)
WOOD = (30, 60, 105)
FLOOR = (35, 35, 40)
DIAMOND = (225, 230, 235)
BALL_BGR = {
    "white": (228, 232, 235),
    "yellow": (30, 190, 235),
    "red": (35, 35, 200),
    "p1": (35, 35, 200),
    "p2": (30, 190, 235),
}
#: golf's dressing: metal pegs (a darker side, a lit top) and the goal holes with their rim
PEG_SIDE = (150, 150, 148)
PEG_TOP = (205, 205, 200)
GOAL_HOLE = (12, 12, 14)
GOAL_RIM = (70, 70, 72)
#: the share of the picture's width a golf bed fills (the rails and their diamonds all in view)
GOLF_FILL = 0.66
#: golf pegs stand this high above the cloth (rules.golf.geometry.PEG_HEIGHT)
PEG_HEIGHT = 0.040
#: kegle pins stand this high (rules.kegle.geometry.PIN_HEIGHT)
PIN_HEIGHT_KEGLE = kegle_geo.PIN_HEIGHT
#: keglebillard's pins: turned skittles painted white (the seed rules give no colour; white,
#: as on most bodega tables, is the camera's hard case: a pin's top is a small white disc)
PIN_SIDE = (178, 186, 190)
PIN_TOP = (222, 228, 232)
PIN_GLINT = (246, 248, 250)
#: a pin's waist is this far up its height, and this wide against its head
PIN_WAIST = (0.55, 0.9)
CUE_WOOD = (120, 175, 205)
SLEEVE = (60, 55, 50)
SKIN = (120, 150, 200)


def _owner(ball: str) -> str:
    return ball.split(".", 1)[0]


def _lit(bgr: tuple[int, int, int], light: float) -> tuple[int, int, int]:
    b, g, r = (int(min(255.0, c * light)) for c in bgr)
    return b, g, r


def _fallen(film: ShotFilm, spec: TableSpec) -> dict[int, tuple[float, XY]]:
    """The pins the physics toppled: when, and which way each lies (away from the ball that
    knocked it, or from the pin that fell on it, or out from the centre)."""
    out: dict[int, tuple[float, XY]] = {}
    centre = (spec.length / 2, spec.width / 2)
    for h in film.truth.happenings:
        if h.kind != "pin" or not isinstance(h.where, int) or h.where in out:
            continue
        px, py = spec.pins[h.where]
        down = [spec.pins[n] for n in out]
        came = film.position(h.ball, h.t) if h.ball and h.speed > 0 else None
        if came is None and down:
            came = min(down, key=lambda xy: math.dist(xy, (px, py)))
        if came is None or math.dist(came, (px, py)) < 1e-6:
            came = centre if math.dist(centre, (px, py)) > 1e-6 else (px - 1.0, py)
        d = math.dist(came, (px, py))
        out[h.where] = (h.t, ((px - came[0]) / d, (py - came[1]) / d))
    return out


@dataclass
class ShotTruth:
    """What physically happened in a filmed shot."""

    happenings: list[Happening]
    #: (time, ball, other) of every ball-ball contact
    contacts: list[tuple[float, str, str]] = field(default_factory=list)
    #: (time, ball, cushion) of every cushion contact
    cushions: list[tuple[float, str, int]] = field(default_factory=list)
    rest: dict[str, XY] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)


@dataclass
class ShotFilm:
    """A filmed shot: ``frames()`` yields (time, BGR image); ``positions`` the truth per frame."""

    camera: SimCamera
    times: np.ndarray
    #: ball -> (frame times of the samples, x, y) from the physics steps
    paths: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]
    truth: ShotTruth
    strike: tuple[str, float, XY, float]  # ball, time, where it lay, direction in degrees
    #: pin number -> (when it fell, the unit way it lies along) for the pins the shot topples
    pins_down: dict[int, tuple[float, XY]] = field(default_factory=dict)

    def position(self, ball: str, t: float) -> XY | None:
        path = self.paths.get(ball)
        if path is None or t > path[0][-1] + 1e-9:
            return None
        ts, xs, ys = path
        return float(np.interp(t, ts, xs)), float(np.interp(t, ts, ys))

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        for k, t in enumerate(self.times):
            yield float(t), self.camera.render(self, float(t), k)


class SimCamera:
    """Renders a table seen by ``model`` at ``fps`` frames per second."""

    def __init__(
        self,
        spec: TableSpec,
        model: CameraModel | None = None,
        fps: float = 60.0,
        exposure: float = 1 / 120,
        noise: float = 3.0,
        seed: int = 0,
        cue: bool = True,
    ) -> None:
        self.spec = spec
        # a golf bed is half as wide as long: at carom's 0.8 the long rails leave a 16:9 picture
        fill = GOLF_FILL if spec.goals else 0.8
        self.model = model or overhead(
            1280, 720, spec.length, spec.width, fill=fill, k1=-0.1, tilt=2.0, yaw=1.0, offset=(0.03, -0.02)
        )
        self.fps, self.exposure, self.cue = fps, exposure, cue
        self.rng = np.random.default_rng(seed)
        self.background, self.light_map = self._background()
        self._noise = [self._noise_pair(noise) for _ in range(6)] if noise > 0 else []
        self._ball_px = self._ball_radius_px()
        self._pins_up = self._standing_pins() if spec.pins else None

    # --- the still picture ---------------------------------------------------------------
    def _plane(self, z: float) -> np.ndarray:
        m = self.model
        u, v = np.meshgrid(np.arange(m.width, dtype=np.float64), np.arange(m.height, dtype=np.float64))
        uv = np.column_stack([u.ravel(), v.ravel()])
        return m.bed_from_image(uv, z).reshape(m.height, m.width, 2)

    def light(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Brightness (0..1.1) of the light on the table at bed points: two lamps, dark corners."""
        L, W = self.spec.length, self.spec.width
        out = np.full(np.shape(x), 0.45)
        for lx in (L * 0.3, L * 0.72):
            out = out + 0.6 * np.exp(-((x - lx) ** 2 + (y - W * 0.55) ** 2) / (2 * 0.75**2))
        return np.clip(out, 0.0, 1.1)

    def _background(self) -> tuple[np.ndarray, np.ndarray]:
        spec, m = self.spec, self.model
        L, W = spec.length, spec.width
        bed = self._plane(0.0)
        nose = self._plane(NOSE_HEIGHT)
        rail = self._plane(RAIL_HEIGHT)
        img = np.empty((m.height, m.width, 3), np.float64)
        img[:] = FLOOR
        nx, ny = nose[..., 0], nose[..., 1]
        on_bed = (nx >= 0) & (nx <= L) & (ny >= 0) & (ny <= W)
        rx, ry = rail[..., 0], rail[..., 1]
        c = CUSHION_WIDTH
        in_cushion = ~on_bed & (rx >= -c) & (rx <= L + c) & (ry >= -c) & (ry <= W + c)
        w = c + RAIL_WIDTH
        in_rail = ~on_bed & ~in_cushion & (rx >= -w) & (rx <= L + w) & (ry >= -w) & (ry <= W + w)
        img[on_bed] = CLOTH
        img[in_cushion] = CUSHION
        img[in_rail] = WOOD
        # diamonds: small white discs on the rail top
        for dx, dy in diamonds(L, W):
            close = in_rail & ((rx - dx) ** 2 + (ry - dy) ** 2 < 0.009**2)
            img[close] = DIAMOND
        self._dress_golf(img)
        light = self.light(bed[..., 0], bed[..., 1])
        u, v = np.meshgrid(np.arange(m.width), np.arange(m.height))
        vignette = 1.0 - 0.25 * (((u - m.cx) / m.width) ** 2 + ((v - m.cy) / m.height) ** 2) * 2
        light = light * vignette
        img *= light[..., None]
        return np.clip(img, 0, 255).astype(np.uint8), light.astype(np.float32)

    def _dress_golf(self, img: np.ndarray) -> None:
        """Golf's goals (a dark hole in a metal rim) and pegs (metal cylinders): nothing on
        a table without them, so carom's picture is unchanged."""
        spec = self.spec
        for gx, gy in spec.goals.values():
            self._disc(img, (gx, gy), spec.goal_radius + 0.004, 0.0, GOAL_RIM)
            self._disc(img, (gx, gy), spec.goal_radius, 0.0, GOAL_HOLE)
        for px, py in spec.pegs:
            rim = [
                (px + spec.peg_radius * math.cos(a), py + spec.peg_radius * math.sin(a), z)
                for a in np.linspace(0.0, 2 * math.pi, 24, endpoint=False)
                for z in (0.0, PEG_HEIGHT)
            ]
            uv = self.model.project(np.array(rim))
            hull = cv2.convexHull(np.round(uv * 16).astype(np.int32))
            cv2.fillConvexPoly(img, hull, PEG_SIDE, lineType=cv2.LINE_AA, shift=4)
            self._disc(img, (px, py), spec.peg_radius, PEG_HEIGHT, PEG_TOP)

    def _disc(self, img: np.ndarray, centre: XY, radius: float, z: float, bgr: tuple[int, int, int]) -> None:
        """A flat disc ``z`` above the cloth, as the camera sees it."""
        cx, cy = centre
        ring = [
            (cx + radius * math.cos(a), cy + radius * math.sin(a), z) for a in np.linspace(0, 2 * math.pi, 48)
        ]
        uv = self.model.project(np.array(ring))
        cv2.fillConvexPoly(img, np.round(uv * 16).astype(np.int32), bgr, lineType=cv2.LINE_AA, shift=4)

    def _noise_pair(self, sigma: float) -> tuple[np.ndarray, np.ndarray]:
        n = self.rng.normal(0.0, sigma, (self.model.height, self.model.width, 3))
        return np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)

    def _ball_radius_px(self) -> float:
        r = self.spec.ball_radius
        c = (self.spec.length / 2, self.spec.width / 2)
        return r / self.model.metres_per_pixel(c, r)

    def _standing_pins(self) -> dict[int, tuple[slice, slice, np.ndarray]]:
        """Pin number -> (rows, columns, the lit picture of the standing pin there)."""
        spec, h = self.spec, PIN_HEIGHT_KEGLE
        img = np.empty((self.model.height, self.model.width, 3), np.float64)
        out: dict[int, tuple[slice, slice, np.ndarray]] = {}
        for number, (px, py) in spec.pins.items():
            img[:] = self.background
            head, base = spec.pin_radius, spec.pin_radius * 0.7
            waist_z, waist_r = h * PIN_WAIST[0], head * PIN_WAIST[1]
            rim = [
                (px + rr * math.cos(a), py + rr * math.sin(a), z)
                for a in np.linspace(0.0, 2 * math.pi, 24, endpoint=False)
                for z, rr in ((0.0, base), (waist_z, waist_r), (h, head))
            ]
            uv = self.model.project(np.array(rim))
            lit = float(self.light(np.array(px), np.array(py)))
            hull = cv2.convexHull(np.round(uv * 16).astype(np.int32))
            cv2.fillConvexPoly(img, hull, _lit(PIN_SIDE, lit), lineType=cv2.LINE_AA, shift=4)
            self._disc(img, (px, py), head, h, _lit(PIN_TOP, lit))
            # the glint: the lamps are over the middle of the table, the head's top catches them
            self._disc(img, (px - head * 0.3, py - head * 0.3), head * 0.4, h, _lit(PIN_GLINT, lit))
            u0, v0 = np.floor(uv.min(axis=0)).astype(int) - 2
            u1, v1 = np.ceil(uv.max(axis=0)).astype(int) + 3
            rows, cols = slice(max(v0, 0), v1), slice(max(u0, 0), u1)
            out[number] = (rows, cols, np.clip(img[rows, cols], 0, 255).astype(np.uint8))
        return out

    def _draw_pins(self, img: np.ndarray, film: ShotFilm, t: float) -> None:
        """Standing pins as they stand; a pin toppled before ``t`` lying on the cloth."""
        assert self._pins_up is not None
        for number, (rows, cols, patch) in self._pins_up.items():
            if number not in film.pins_down or film.pins_down[number][0] > t:
                img[rows, cols] = patch
        for number, (when, (dx, dy)) in film.pins_down.items():
            if when <= t:
                self._lying_pin(img, self.spec.pins[number], (dx, dy))

    def _lying_pin(self, img: np.ndarray, spot: XY, way: XY) -> None:
        """A pin on its side: its foot by its spot, its head a pin's height along ``way``."""
        head = self.spec.pin_radius
        foot = spot
        top = (spot[0] + way[0] * PIN_HEIGHT_KEGLE, spot[1] + way[1] * PIN_HEIGHT_KEGLE)
        lit = float(self.light(np.array(spot[0]), np.array(spot[1])))
        self._poly(img, [(foot, head * 0.7), (top, head * 0.9)], head, _lit(PIN_SIDE, lit))
        self._disc(img, top, head, head, _lit(PIN_TOP, lit))

    # --- filming a shot ------------------------------------------------------------------
    def film(
        self, table: Table, shot: Shot, t0: float = 0.0, lead: float = 1.0, tail: float = 0.8
    ) -> ShotFilm:
        """Play ``shot`` on ``table`` from ``t0`` and film it from ``lead`` s before the strike to
        ``tail`` s after rest."""
        before = table.positions()
        samples: dict[str, tuple[list[float], list[float], list[float]]] = {
            b: ([t0 - lead - 1.0, t0], [xy[0], xy[0]], [xy[1], xy[1]]) for b, xy in before.items()
        }

        def step(t: float, pos: dict[str, XY]) -> None:
            for b, (x, y) in pos.items():
                s = samples[b]
                s[0].append(t)
                s[1].append(x)
                s[2].append(y)

        happenings = table.shoot(shot, t0=t0, on_step=step)
        t_end = happenings[-1].t
        rest = dict(happenings[-1].positions or {})
        for b, (ts, xs, ys) in samples.items():
            if b in rest:
                ts.append(t_end + tail + 1.0)
                xs.append(rest[b][0])
                ys.append(rest[b][1])
        paths = {b: (np.array(ts), np.array(xs), np.array(ys)) for b, (ts, xs, ys) in samples.items()}
        n = math.floor((t_end + tail - (t0 - lead)) * self.fps) + 1
        times = np.round(t0 - lead + np.arange(n) / self.fps, 6)
        truth = ShotTruth(
            happenings=happenings,
            rest={_owner(b): xy for b, xy in rest.items()},
            events=table_events(happenings, None, full_info=True),
        )
        for h in happenings:
            if h.kind == "contact" and h.ball and h.other:
                truth.contacts.append((h.t, _owner(h.ball), _owner(h.other)))
            elif h.kind == "cushion" and h.ball:
                truth.cushions.append((h.t, _owner(h.ball), int(h.where or 0)))
        film = ShotFilm(self, times, paths, truth, (shot.ball, t0, before[shot.ball], shot.direction))
        film.pins_down = _fallen(film, self.spec)
        return film

    # --- one frame -----------------------------------------------------------------------
    def render(self, film: ShotFilm, t: float, k: int = 0) -> np.ndarray:
        img = self.background.copy()
        subs = 1
        for ball in film.paths:
            a, b = film.position(ball, t - self.exposure / 2), film.position(ball, t + self.exposure / 2)
            if a is not None and b is not None:
                px = math.dist(a, b) / self.model.metres_per_pixel(a)
                subs = max(subs, min(10, int(px / 1.5) + 1))
        if self._pins_up is not None:
            self._draw_pins(img, film, t)
        for ball in film.paths:
            self._draw_ball(img, film, ball, t, subs)
        if self.cue:
            self._draw_cue(img, film, t)
        if self._noise:
            plus, minus = self._noise[k % len(self._noise)]
            cv2.add(img, plus, dst=img)
            cv2.subtract(img, minus, dst=img)
        return img

    def _draw_ball(self, img: np.ndarray, film: ShotFilm, ball: str, t: float, subs: int) -> None:
        m, r = self.model, self.spec.ball_radius
        times = [t + self.exposure * ((i + 0.5) / subs - 0.5) for i in range(subs)]
        where = [film.position(ball, s) for s in times]
        pts = [p for p in where if p is not None]
        if not pts:
            return
        uv = m.project(np.array([[x, y, r] for x, y in pts]))
        rho = self._ball_px
        u0, v0 = np.floor(uv.min(axis=0) - rho - 3).astype(int)
        u1, v1 = np.ceil(uv.max(axis=0) + rho + 3).astype(int)
        u0, v0, u1, v1 = max(u0, 0), max(v0, 0), min(u1, m.width), min(v1, m.height)
        if u1 <= u0 or v1 <= v0:
            return
        uu, vv = np.meshgrid(np.arange(u0, u1, dtype=np.float64), np.arange(v0, v1, dtype=np.float64))
        base = np.array(BALL_BGR.get(_owner(ball), (200, 200, 200)), np.float64)
        lit = float(
            self.light_map[min(max(int(uv[0][1]), 0), m.height - 1), min(max(int(uv[0][0]), 0), m.width - 1)]
        )
        cover = np.zeros(uu.shape)
        colour = np.zeros(uu.shape + (3,))
        shadow = np.zeros(uu.shape)
        for cu, cv in uv:
            d = np.hypot(uu - cu, vv - cv)
            cov = np.clip(rho + 0.5 - d, 0.0, 1.0)
            rim = np.sqrt(np.clip(1.0 - (d / rho) ** 2, 0.0, 1.0))
            spot = np.exp(
                -((uu - cu + 0.3 * rho) ** 2 + (vv - cv + 0.3 * rho) ** 2) / (2 * (0.18 * rho) ** 2)
            )
            shade = (0.5 + 0.5 * rim) * lit
            col = base[None, None, :] * shade[..., None] + 160.0 * spot[..., None] * lit
            colour += cov[..., None] * np.clip(col, 0, 255)
            cover += cov
            ds = np.hypot(uu - cu - 0.35 * rho, vv - cv - 0.35 * rho)
            shadow += np.clip(1.15 * rho - ds, 0.0, 1.0) * 0.3
        n = len(uv)
        cover /= n
        shadow = np.clip(shadow / n, 0.0, 0.3) * (1.0 - cover)
        patch = img[v0:v1, u0:u1].astype(np.float64)
        patch *= (1.0 - cover - shadow)[..., None]
        patch += colour / n
        img[v0:v1, u0:u1] = np.clip(patch, 0, 255).astype(np.uint8)

    def _draw_cue(self, img: np.ndarray, film: ShotFilm, t: float) -> None:
        """The cue, the bridge hand and the arm, from ``lead`` s before the strike to 0.25 s after."""
        _ball, t_strike, (bx, by), direction = film.strike
        dt = t - t_strike
        if not -0.9 <= dt <= 0.25:
            return
        r = self.spec.ball_radius
        if dt < 0:  # two practice strokes, then the stroke
            gap = 0.02 + 0.06 * (0.5 - 0.5 * math.cos(2 * math.pi * dt / 0.45)) * min(1.0, -dt / 0.3)
        else:  # follow through and pull back
            gap = -0.08 * math.sin(math.pi * min(dt / 0.25, 1.0))
        a = math.radians(direction)
        ux, uy = math.cos(a), math.sin(a)
        tip = (bx - ux * (r + gap), by - uy * (r + gap))
        butt = (tip[0] - ux * 1.45, tip[1] - uy * 1.45)
        z = 0.045
        self._poly(img, [(tip, 0.006), (butt, 0.015)], z, CUE_WOOD)
        # the bridge hand lies on the cloth 20 cm behind the tip, the arm reaches out sideways
        bridge = (tip[0] - ux * 0.22, tip[1] - uy * 0.22)
        self._poly(
            img,
            [
                ((bridge[0] - ux * 0.05, bridge[1] - uy * 0.05), 0.045),
                ((bridge[0] + ux * 0.02, bridge[1] + uy * 0.02), 0.04),
            ],
            0.03,
            SKIN,
        )
        side = 1.0 if (uy * -1 + ux * 0) >= 0 else -1.0
        px, py = -uy * side, ux * side
        elbow = (bridge[0] - ux * 0.25 + px * 0.35, bridge[1] - uy * 0.25 + py * 0.35)
        shoulder = (elbow[0] - ux * 0.2 + px * 0.4, elbow[1] - uy * 0.2 + py * 0.4)
        self._poly(img, [(bridge, 0.035), (elbow, 0.05)], 0.15, SLEEVE)
        self._poly(img, [(elbow, 0.05), (shoulder, 0.07)], 0.3, SLEEVE)
        hand = (butt[0] + ux * 0.3, butt[1] + uy * 0.3)
        self._poly(
            img,
            [
                ((hand[0] - ux * 0.04, hand[1] - uy * 0.04), 0.03),
                ((hand[0] + ux * 0.04, hand[1] + uy * 0.04), 0.03),
            ],
            0.1,
            SKIN,
        )

    def _poly(
        self, img: np.ndarray, ends: list[tuple[XY, float]], z: float, bgr: tuple[int, int, int]
    ) -> None:
        """A tapered band between two points (each with a half width) ``z`` above the cloth."""
        (a, wa), (b, wb) = ends
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        px, py = -dy / n, dx / n
        corners = [
            (a[0] + px * wa, a[1] + py * wa),
            (b[0] + px * wb, b[1] + py * wb),
            (b[0] - px * wb, b[1] - py * wb),
            (a[0] - px * wa, a[1] - py * wa),
        ]
        uv = self.model.project(np.array([[x, y, z] for x, y in corners]))
        if not np.all(np.isfinite(uv)) or np.abs(uv).max() > 1e5:
            return
        cv2.fillConvexPoly(img, np.round(uv * 16).astype(np.int32), bgr, lineType=cv2.LINE_AA, shift=4)
