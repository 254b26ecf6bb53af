"""Following the balls from frame to frame, so most frames look at a few small windows only.

Once every ball is found, each ball's next position is predicted from its last two (last
position + velocity x time since), and the finder looks only in a window around it, grown
with the ball's speed. The whole bed is searched again for a colour when a window cuts a
blob (the ball may lie partly outside it), when a window finds fewer balls than the last
whole search did, when a colour has balls missing, and every ``every`` frames regardless
(a ball put back by hand, a ball that came out from under the arm).

A window finds exactly what the whole search finds there (``BallFinder.find_near``), so the
positions are the same; only where nothing can be is no longer looked at.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .detect import BallFinder, Sighting


@dataclass(slots=True)
class _Seen:
    t: float
    u: float
    v: float
    du: float = 0.0  # pixels a second
    dv: float = 0.0


@dataclass
class BallFollower:
    finder: BallFinder
    #: the whole bed is searched at least every this many frames
    every: int = 12
    #: frames since the last whole search, and whole searches made (for the benchmark)
    since: int = field(default=0, init=False)
    whole: int = field(default=0, init=False)
    frames: int = field(default=0, init=False)
    #: what the last frame found
    last_found: dict[str, list[Sighting]] = field(default_factory=dict, init=False)
    _seen: dict[str, list[_Seen]] = field(default_factory=dict, init=False)
    #: how many balls of each colour the last whole search found
    _expected: dict[str, int] = field(default_factory=dict, init=False)

    def reset(self) -> None:
        self._seen, self._expected, self.since = {}, {}, 0

    def find(self, t: float, frame: np.ndarray) -> dict[str, list[Sighting]]:
        """Ball colour name -> the balls of that colour found, best first (``BallFinder.find``)."""
        self.frames += 1
        colours = self.finder.colours
        if not self._expected or self.since + 1 >= self.every:
            found = self.finder.find(frame)
            self._after_whole(found)
        else:
            windows = {
                c.name: [self._window(s, t) for s in self._seen.get(c.name, [])]
                for c in colours
                if self._expected.get(c.name, 0) == c.count
            }
            near = self.finder.find_near(frame, windows)
            again = tuple(
                c.name
                for c in colours
                if near.get(c.name) is None or len(near[c.name] or []) < self._expected[c.name]
            )
            found = {name: got for name, got in near.items() if got is not None}
            if again:
                whole = self.finder.find(frame, only=again)
                found.update(whole)
                self.whole += 1
                for name, got in whole.items():
                    self._expected[name] = len(got)
            self.since += 1
        self._remember(t, found)
        self.last_found = found
        return found

    def _after_whole(self, found: dict[str, list[Sighting]]) -> None:
        self.whole += 1
        self.since = 0
        self._expected = {name: len(got) for name, got in found.items()}

    def _window(self, s: _Seen, t: float) -> tuple[float, float, float]:
        dt = max(t - s.t, 0.0)
        rho = self.finder.rho
        step = math.hypot(s.du, s.dv) * dt
        return s.u + s.du * dt, s.v + s.dv * dt, 3.0 * rho + 12.0 + 1.5 * step

    def _remember(self, t: float, found: dict[str, list[Sighting]]) -> None:
        seen: dict[str, list[_Seen]] = {}
        for name, got in found.items():
            before = self._seen.get(name, [])
            now = []
            for s in got:
                last = min(before, key=lambda p: (p.u - s.u) ** 2 + (p.v - s.v) ** 2, default=None)
                if last is None or t <= last.t:
                    now.append(_Seen(t, s.u, s.v))
                else:
                    dt = t - last.t
                    now.append(_Seen(t, s.u, s.v, (s.u - last.u) / dt, (s.v - last.v) / dt))
            seen[name] = now
        self._seen = seen
