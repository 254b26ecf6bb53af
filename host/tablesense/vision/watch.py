"""One table's camera, frame by frame: balls found, shots cut, each shot read as events.

``TableWatcher.feed(t, frame)`` returns the events of a shot (strike, contacts, cushions,
rest with positions) on the frame that ends it, else an empty list. Pure of I/O: the frame
comes from ``tablesense.vision.source`` (a camera, a stream, a file) or from the simulator.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ..events import Event
from .camera_shot import CameraShot
from .colours import BallColour, colours_for
from .detect import BallFinder
from .follow import BallFollower
from .lens import CameraModel
from .shot_events import ShotReader
from .track import ShotCutter, ShotTrack

#: a sighting covering less than this of a ball, found by colour alone, is a ball half hidden
PARTIAL = 0.7


def alike_names(
    found: list[tuple[float, float]], names: list[str], lying: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """Alike balls found -> their names: the naming with the least sum of squared distances to
    where each name's ball lay, so a frame names its balls as the last did whichever order the
    finder gave them in (a greedy nearest-first naming swapped two still balls frame to frame,
    and the shot never came to rest)."""
    found = found[: len(names)]
    unknown = 1e6  # m^2: a name not seen lying yet takes a ball only when no known name is left
    cost = [
        [(x - p[0]) ** 2 + (y - p[1]) ** 2 if (p := lying.get(n)) else unknown for n in names]
        for x, y in found
    ]
    best: tuple[int, ...] = tuple(range(len(found)))
    least = math.inf
    for perm in itertools.permutations(range(len(names)), len(found)):
        c = sum(row[j] for row, j in zip(cost, perm))
        if c < least - 1e-9:  # a tie keeps the first (the finder's order, as before)
            best, least = perm, c
    return {names[j]: xy for xy, j in zip(found, best)}


@dataclass
class TableWatcher:
    model: CameraModel
    length: float
    width: float
    ball_radius: float
    game: str = "carom"
    colours: tuple[BallColour, ...] = ()
    cloth_hue: tuple[int, int] = (95, 125)
    #: which cushion number each side has (``cushion_hits.cushion_numbers``); carom's by default
    cushions: dict[str, int] | None = None
    last: CameraShot | None = field(default=None, init=False)
    last_track: ShotTrack | None = field(default=None, init=False)
    #: alike balls -> where each was last seen: a moving ball is named by where it just was, not
    #: by where it lay before the shot (a white run up the table came as near the other white's
    #: place as its own, the names swapped frame to frame and the contacts were lost)
    seen_last: dict[str, tuple[float, float]] = field(default_factory=dict, init=False)

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
        self.seen_last = {}
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
            # balls that look alike (kegle whites, golf players' balls): named by where the balls
            # of that colour lay
            lying = {**self.cutter.resting(), **self.seen_last} if lying is None else lying
            named = alike_names(found, [f"{colour.name}.{i}" for i in range(1, colour.count + 1)], lying)
            self.seen_last.update(named)
            out.update(named)
        return out

    def feed(self, t: float, frame: np.ndarray) -> list[Event]:
        shot = self.cutter.feed(t, self.sightings(frame, t))
        if shot is None:
            return []
        self.last_track = shot
        self.last = self.reader.read(shot)
        return self.last.events
