"""Cutting the camera's stream of ball positions into shots (still, moving, still again).

``ShotCutter.feed(t, seen)`` takes each frame's positions (ball -> (x, y), or missing) and
returns a ``ShotTrack`` when a shot has ended: some ball moved ``START_MOVE`` from where it
lay in two frames running, and then every ball has kept within ``STILL_SPREAD`` for
``HOLD`` seconds. The track holds every frame of the shot from a few frames before the
strike to the end of that still spell, and where each ball came to rest (the median of the
still spell, which averages the sensor noise away).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

XY = tuple[float, float]

START_MOVE = 0.005  # m from its resting place, in two frames running: a ball moves
STILL_SPREAD = 0.003  # m: a ball whose positions over HOLD spread less is still
HOLD = 0.35  # s of stillness that ends a shot
PRE_ROLL = 8  # frames kept from before the shot
GONE = 1.0  # s unseen: a ball has left the table (or is covered) and does not hold up the rest
MAX_SHOT = 60.0  # s: a shot longer than this is cut


@dataclass
class ShotTrack:
    """The frames of one shot: times (n,), and per ball an (n, 2) array (NaN where unseen)."""

    times: np.ndarray
    tracks: dict[str, np.ndarray]
    #: the time the last ball came to rest (the start of the still spell)
    rest_t: float
    rest: dict[str, XY]
    #: the time of the frame that ended it (rest_t + HOLD): the delay to the positions
    done_t: float


class ShotCutter:
    """Streams frames in, shots out; ``balls`` names every ball the camera looks for."""

    def __init__(self, balls: tuple[str, ...], hold: float = HOLD) -> None:
        self.balls, self.hold = balls, hold
        self._recent: deque[tuple[float, dict[str, XY]]] = deque(maxlen=PRE_ROLL)
        self._lying: dict[str, deque[XY]] = {b: deque(maxlen=15) for b in balls}
        self._frames: list[tuple[float, dict[str, XY]]] = []
        self._moving_since: dict[str, int] = {}
        self.in_shot = False

    def resting(self) -> dict[str, XY]:
        """Where the balls lie now (between shots), as far as seen."""
        out: dict[str, XY] = {}
        for b, seen in self._lying.items():
            if seen:
                arr = np.array(seen)
                out[b] = (float(np.median(arr[:, 0])), float(np.median(arr[:, 1])))
        return out

    def feed(self, t: float, seen: dict[str, XY]) -> ShotTrack | None:
        if not self.in_shot:
            return self._idle(t, seen)
        self._frames.append((t, seen))
        return self._check_end(t)

    def _idle(self, t: float, seen: dict[str, XY]) -> ShotTrack | None:
        lying = self.resting()
        moved = False
        for b, xy in seen.items():
            ref = lying.get(b)
            if ref is not None and np.hypot(xy[0] - ref[0], xy[1] - ref[1]) > START_MOVE:
                self._moving_since[b] = self._moving_since.get(b, 0) + 1
                moved = moved or self._moving_since[b] >= 2
            else:
                self._moving_since.pop(b, None)
                self._lying[b].append(xy)
        if moved:
            self.in_shot = True
            self._frames = [*self._recent, (t, seen)]
            self._recent.clear()
            self._moving_since.clear()
            return None
        self._recent.append((t, seen))
        return None

    def _check_end(self, t: float) -> ShotTrack | None:
        start = self._frames[0][0]
        window = []
        for ft, s in reversed(self._frames):
            if ft < t - self.hold:
                break
            window.append((ft, s))
        window.reverse()
        if t - start < self.hold * 2 or len(window) < 3:
            return None
        still = True
        rest: dict[str, XY] = {}
        for b in self.balls:
            pts = np.array([s[b] for _, s in window if b in s])
            if len(pts) < max(2, len(window) // 3):
                last = next((ft for ft, s in reversed(self._frames) if b in s), start - GONE)
                if t - last < GONE:
                    still = False  # covered for a moment, or moving too fast to be seen
                continue
            if np.ptp(pts[:, 0]) > STILL_SPREAD or np.ptp(pts[:, 1]) > STILL_SPREAD:
                still = False
                break
            rest[b] = (float(np.median(pts[:, 0])), float(np.median(pts[:, 1])))
        if not still and t - start < MAX_SHOT:
            return None
        times = np.array([ft for ft, _ in self._frames])
        tracks = {
            b: np.array([s.get(b, (np.nan, np.nan)) for _, s in self._frames], dtype=float)
            for b in self.balls
        }
        shot = ShotTrack(times=times, tracks=tracks, rest_t=window[0][0], rest=rest, done_t=t)
        self.in_shot = False
        self._frames = []
        for b in self.balls:
            self._lying[b].clear()
            if b in rest:
                self._lying[b].append(rest[b])
        return shot
