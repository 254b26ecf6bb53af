"""What the camera says of one shot (``CameraShot``), in the names docs/events.md gives the balls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..events import Event


@dataclass
class CameraShot:
    """What the camera says of one shot, and what it did not dare to say."""

    events: list[Event]
    #: why the shot's contacts were not said (empty: they were)
    doubts: list[str] = field(default_factory=list)
    #: what was unclear but could not change the carom (the clear contacts were said)
    notes: list[str] = field(default_factory=list)
    #: the unclear touches (t, ball, ball) left unsaid beside the clear contacts
    unsaid: list[tuple[float, str, str]] = field(default_factory=list)
    #: every cushion hit the camera was unsure of (t, the ball by that cushion then, cushion): said
    #: without its ball or not at all; a cushion sensor's hit there names its ball (``merge_shot``)
    maybe_cushions: list[tuple[float, str, int]] = field(default_factory=list)

    @property
    def sure(self) -> bool:
        return not self.doubts


def owner(ball: str) -> str:
    """The event name of a tracked ball: alike balls ``white.2``, ``p1.3`` are ``white``, ``p1``."""
    return ball.split(".", 1)[0]


def positions(rest: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """``rest.positions`` as docs/events.md has them: alike balls as a list of [x, y]."""
    out: dict[str, Any] = {}
    for ball, (x, y) in sorted(rest.items()):
        xy = [round(x, 4), round(y, 4)]
        if owner(ball) != ball:
            out.setdefault(owner(ball), []).append(xy)
        else:
            out[ball] = xy
    return out

