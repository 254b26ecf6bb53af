"""One table's camera, frame by frame: balls found, shots cut, each shot read as events.

``TableWatcher.feed(t, frame)`` returns the events of a shot (strike, contacts, cushions,
rest with positions) on the frame that ends it, else an empty list. Pure of I/O: the frame
comes from ``tablesense.vision.source`` (a camera, a stream, a file) or from the simulator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..events import Event
from .colours import BallColour, colours_for
from .detect import BallFinder
from .follow import BallFollower
from .lens import CameraModel
from .shot_events import CameraShot, ShotReader
from .track import ShotCutter, ShotTrack

#: a sighting covering less than this of a ball, found by colour alone, is a ball half hidden
PARTIAL = 0.7


@dataclass
class TableWatcher:
    model: CameraModel
    length: float
    width: float
    ball_radius: float
    game: str = "carom"
    colours: tuple[BallColour, ...] = ()
    cloth_hue: tuple[int, int] = (95, 125)
    #: which cushion number each side has (``shot_events.cushion_numbers``); carom's by default
    cushions: dict[str, int] | None = None
    last: CameraShot | None = field(default=None, init=False)
    last_track: ShotTrack | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.colours = self.colours or colours_for(self.game)
        self.finder = BallFinder(
            self.model, self.length, self.width, self.ball_radius, self.colours, cloth_hue=self.cloth_hue
        )
        self.follower = BallFollower(self.finder)
        names = tuple(
            c.name if c.count == 1 else f"{c.name}.{i}" for c in self.colours for i in range(1, c.count + 1)
        )
        self.names = names
        self.cutter = ShotCutter(names)
        self.reader = ShotReader(self.length, self.width, self.ball_radius, self.cushions, self.game)

    def reset(self) -> None:
        """Forget where the balls lay (they were put elsewhere by hand)."""
        self.cutter = ShotCutter(self.names)
        self.follower.reset()
        self.last = self.last_track = None

    def sightings(self, frame: np.ndarray, t: float | None = None) -> dict[str, tuple[float, float]]:
        """Ball -> bed position in this frame (half-hidden balls left out); given the frame's
        time ``t``, the balls are followed from the frames before (``follow.BallFollower``)."""
        found_all = self.finder.find(frame) if t is None else self.follower.find(t, frame)
        out: dict[str, tuple[float, float]] = {}
        lying: dict[str, tuple[float, float]] | None = None
        for colour in self.colours:
            found = [(s.x, s.y) for s in found_all[colour.name] if s.outline or s.area >= PARTIAL]
            if colour.count == 1:
                if found:
                    out[colour.name] = found[0]
                continue
            # balls that look alike (kegle whites, golf players' balls): each to the nearest of
            # where the balls of that colour lay, greedily
            lying = self.cutter.resting() if lying is None else lying
            free = [f"{colour.name}.{i}" for i in range(1, colour.count + 1)]
            for xy in found:
                if not free:
                    break
                best = min(free, key=lambda n: float(np.hypot(*np.subtract(lying.get(n, (1e3, 1e3)), xy))))
                free.remove(best)
                out[best] = xy
        return out

    def feed(self, t: float, frame: np.ndarray) -> list[Event]:
        shot = self.cutter.feed(t, self.sightings(frame, t))
        if shot is None:
            return []
        self.last_track = shot
        self.last = self.reader.read(shot)
        return self.last.events
