"""The evidence of one carom shot, read from its events (pure functions, no state).

A shot (``ShotRecord``) is the events from its first sensor event to its ``rest`` (the
referee's calls during it among them, in stream order) and the calls made after its
rest. ``read_shot`` boils the sensor events and the ``carom`` and ``foul`` calls down
to ``ShotFacts``: what the contacts say about the carom, how many cushions the cue ball
touched and when, which balls jumped, whether the wrong ball was struck.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from ...events import Call, Contact, Cushion, Event, OffTable, Strike
from ..shot_engine import ShotRecord


class ShotFacts(msgspec.Struct, frozen=True, gc=False):
    """What the sensors and calls of one shot establish."""

    contacts: int = 0
    #: the cue ball touched both other balls (contacts present)
    both_touched: bool = False
    #: the first ball the cue ball touched, if contacts say so
    first_object: str | None = None
    #: cue-ball cushions before the first / the second object ball (contacts present)
    cushions_before_first: int = 0
    cushions_before_third: int = 0
    #: every cushion event of the shot, and those before the last contact
    cushions: int = 0
    cushions_before_last_contact: int = 0
    #: every cushion event names its ball (so the cue ball's cushions are known)
    cushions_known: bool = True
    jumped: tuple[str | None, ...] = ()
    struck: str | None = None
    carom_called: float | None = None
    #: a ``wrong-ball`` foul was called before any ``carom`` call of the shot
    wrong_ball_called_first: bool = False
    fouls: tuple[tuple[str, float], ...] = ()
    #: the referee made a ``note`` call during the shot
    notes: bool = False

    @property
    def full_information(self) -> bool:
        return self.contacts > 0

    def evidence(self, decided_by: str) -> Evidence:
        return Evidence(self.cushions, self.cushions_before_last_contact, self.contacts, decided_by)


class Evidence(msgspec.Struct, frozen=True, gc=False):
    """What the last shot was decided on, as the state shows it (``evidence``)."""

    cushions: int
    cushions_before_last_contact: int
    contacts: int
    #: ``contacts``, ``referee`` or ``none``
    decided_by: str

    def to_dict(self) -> dict[str, Any]:
        return msgspec.structs.asdict(self)


def _time(ev: Event) -> float:
    return ev.t


def read_shot(shot: ShotRecord, cue: str) -> ShotFacts:
    """Facts of a shot whose cue ball is ``cue`` (its calls name fouls by canonical id)."""
    events = shot.events + shot.calls if shot.calls else shot.events
    if not events:
        return NO_FACTS
    return read_events(events, cue)


#: the facts of a shot with no events (a rest alone): nothing seen, nothing called
NO_FACTS = ShotFacts()


def cushion_facts(n: int, known: bool) -> ShotFacts:
    """``read_events`` of a shot of ``n`` cushion events and nothing else (one at least; ``known``:
    each names its ball): what the cushion sensors alone see, whatever their balls and order.
    Kept once made (an immutable value): most recorded shots are such."""
    key = n if known else -n
    facts = _CUSHIONS.get(key)
    if facts is None:
        facts = ShotFacts(0, False, None, 0, 0, n, n, known)
        if len(_CUSHIONS) < 256:
            _CUSHIONS[key] = facts
    return facts


#: ``cushion_facts`` made so far, by the number of cushions (negative: not every one names its ball)
_CUSHIONS: dict[int, ShotFacts] = {}


def read_events(events: tuple[Event, ...], cue: str) -> ShotFacts:
    """``read_shot`` of a shot's events and calls, one at least (``events``)."""
    contacts = 0
    touched: list[str] = []
    cue_cushions = 0
    before_first = before_third = 0
    cushions = 0
    before_last_contact = 0
    known = True
    jumped: list[str | None] = []
    struck: str | None = None
    called: float | None = None
    fouls: list[tuple[str, float]] = []
    wrong_first = False
    notes = False
    # events are applied in file order, but ``t`` orders the events inside one shot (EVENTS.md):
    # sensors read by different channels may be logged out of order
    last = -math.inf
    for ev in events:
        t = ev.t
        if t < last:
            return read_events(tuple(sorted(events, key=_time)), cue)
        last = t
        kind = type(ev)
        if kind is Cushion:
            cushions += 1
            ball = ev.ball
            if ball is None:
                known = False
            elif ball == cue:
                cue_cushions += 1
        elif kind is Contact:
            contacts += 1
            before_last_contact = cushions
            balls = ev.balls
            if cue in balls:
                hit = balls[1] if balls[0] == cue else balls[0]
                if hit != cue and hit not in touched:
                    touched.append(hit)
                    if len(touched) == 1:
                        before_first = cue_cushions
                    elif len(touched) == 2:
                        before_third = cue_cushions
        elif kind is Strike:
            if struck is None:
                struck = ev.ball
        elif kind is OffTable:
            jumped.append(ev.ball)
        elif kind is Call:
            if ev.call == "carom":
                called = t
            elif ev.call == "foul" and ev.foul is not None:
                fouls.append((ev.foul, t))
                if ev.foul == "wrong-ball" and called is None:
                    wrong_first = True
            elif ev.call == "note":
                notes = True
    if contacts == 0:
        before_last_contact = cushions
    # positionally, in ``ShotFacts``' order (cheaper than naming each of its fourteen fields)
    return ShotFacts(contacts, len(touched) >= 2, touched[0] if touched else None, before_first, before_third,
                     cushions, before_last_contact, known, tuple(jumped) if jumped else (), struck, called,
                     wrong_first, tuple(fouls) if fouls else (), notes)
