"""A shot's tracks read as table events: strike, ball-ball contacts, cushion contacts, rest.

Pure functions on a ``ShotTrack`` (``tablesense.vision.track``), no image in sight; each
part of the reading is a module of its own:

- strike: the first ball to move, when it is clearly first (``vision.strike``);
- cushion contact: a ball's distance to a cushion's nose falls to zero and turns back
  (``vision.cushion_hits``);
- ball-ball contact: two tracks come within a ball's diameter and the balls exchange
  momentum along the line of their centres (``vision.ball_contacts``);
- a ball hidden for a while where another passed (``vision.hidden``);
- rest: the still positions (``vision.camera_shot``).

Where the evidence is not clear either way (a thin touch too slight to move the ball, a
ball hidden by the arm where another passed, a cushion of the cue ball within a frame of its
contact with a ball) the reader says nothing: no contacts at all for the shot (a shot with
contacts is taken as the whole truth by the carom engine) and, for an unclear cushion, a
cushion without its ball. The engines then ask the referee, as without a camera. Which doubts
count is the game's (``vision.weigh``): in a game played to caroms only a doubt that could
change the carom does.
"""

from __future__ import annotations

import numpy as np

from ..events import Contact, Cushion, Event, Rest, Strike
from .ball_contacts import ContactReader
from .camera_shot import CameraShot, owner, positions
from .cushion_hits import CushionReader
from .hidden import HiddenBalls, pockets
from .motion import fill_gaps
from .strike import strike
from .track import ShotTrack
from .weigh import weigh_for

__all__ = ["CameraShot", "ShotReader"]


class ShotReader:
    """Reads shots on a bed ``length`` x ``width`` with balls of radius ``r``."""

    def __init__(
        self,
        length: float,
        width: float,
        r: float,
        cushion_numbers: dict[str, int] | None = None,
        game: str | None = None,
    ):
        self.length, self.width, self.r = length, width, r
        self.game = game
        # carom numbering (rules.carom.geometry): 1 head x=0, 2 y=width, 3 foot x=length, 4 y=0
        self.numbers = {"x0": 1, "yW": 2, "xL": 3, "y0": 4} if cushion_numbers is None else cushion_numbers
        self.cushions = CushionReader(length, width, r, self.numbers)
        self.contacts = ContactReader(r)
        #: the pockets of the game's table: a ball gone into one is not hidden (the pocket sensor
        #: says it), and raises no doubt
        self.pockets = pockets(game, length, width)
        self.hidden = HiddenBalls(r, self.pockets)
        #: which doubts cancel the contacts (``vision.weigh``): the game's
        self.weigh = weigh_for(game)

    def read(self, shot: ShotTrack) -> CameraShot:
        times = shot.times
        doubts: list[str] = []
        tracks: dict[str, np.ndarray] = {}
        gaps: dict[str, list[tuple[int, int]]] = {}
        for b, p in shot.tracks.items():
            if np.isnan(p[:, 0]).all():
                continue
            tracks[b], gaps[b] = fill_gaps(times, p)
        struck, moves = strike(times, tracks)
        cushions: list[tuple[float, str, int]] = []
        unclear_cushion: list[tuple[float, str, int]] = []
        for b, p in tracks.items():
            if moves.get(b) is None:
                continue
            start = int(np.searchsorted(times, moves[b]))  # type: ignore[arg-type]
            found = self.cushions.hits(times, p, start) + self.cushions.struck_off(times, p, start)
            clear_hits = [(t, number) for t, number, clear in found if clear]
            for t, number, clear in found:
                if clear:
                    cushions.append((t, b, number))
                elif not any(n == number and abs(tc - t) < 0.04 for tc, n in clear_hits):
                    unclear_cushion.append((t, b, number))
        cushions.sort()
        # a ball's velocity is not measured across any cushion hit of it, clear or not
        contacts, unclear = self.contacts.contacts(times, tracks, moves, sorted(cushions + unclear_cushion))
        for b, spans in gaps.items():
            for a, e in spans:
                if self.hidden.matters(times, tracks, b, a, e):
                    doubts.append(
                        f"{b} hidden {times[a]:.3f}..{times[e - 1]:.3f} while another ball was near"
                    )
        cues = [struck] if struck is not None else list(tracks)
        notes, unsaid, maybe = self.weigh(contacts, unclear, cushions, unclear_cushion, cues, doubts)
        events: list[Event] = []
        if struck is not None:
            events.append(Strike(t=round(float(moves[struck] or times[0]), 6), ball=owner(struck)))
        if not doubts:
            events += [Contact(t=round(t, 6), balls=(owner(a), owner(b))) for t, a, b in contacts]
        events += [Cushion(t=round(t, 6), cushion=n, ball=owner(b)) for t, b, n in cushions]
        # an unclear cushion is said without its ball (the engine then leaves cushion counts to the
        # referee)
        events += [Cushion(t=round(t, 6), cushion=n, ball=None) for t, _b, n in unclear_cushion]
        events.sort(key=lambda e: e.t)
        events.append(Rest(t=round(float(shot.rest_t), 6), positions=positions(shot.rest) or None))
        return CameraShot(events, doubts, notes, unsaid, [(t, owner(b), n) for t, b, n in maybe])
