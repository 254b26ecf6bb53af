"""Table events: the host-level vocabulary of docs/events.md as small frozen records.

Every event has ``t`` (seconds on the table's clock) and ``type``. ``parse_event``
turns one decoded JSON object into a record and rejects anything malformed with a
``BadEvent`` that says what is wrong; ``Event.to_dict`` gives the JSON object back.
Unknown extra keys are kept in ``extra`` so that logs written by newer releases
replay on older ones without losing data. What comes in is checked at this edge with
``tablesense.log_checks``: times and numbers finite and in range, players' names
non-empty, without control characters and of a sane length, anything quoted back cut
short.
"""

# No ``from __future__ import annotations`` here: msgspec reads the events' annotations to
# build the decoders at import, and annotations kept as strings are compiled and evaluated
# then, at every start-up (~5M instructions of a replay's ~230M, docs/performance.md).

import json
import re
from collections.abc import Mapping, Sequence
from itertools import repeat
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from . import games
from .errors import BadEvent
from .log_checks import MAX_T, MAX_TEAM, check_int, check_players, check_time, is_number, short

PLAYERS = ("p1", "p2")
GOLF_GOALS = ("A", "B")
PIN_STATES = ("down", "up")
DISCIPLINES = ("libre", "bandstoten", "driebanden")
#: the balls each game's events name, as its package declares them
BALLS = {g.name: g.balls for g in games.every()}
ALL_BALLS = frozenset(b for balls in BALLS.values() for b in balls)

#: the largest figure a set-up may give: caroms to make (``targets``) or points (``distance``);
#: far beyond any match (a match that never ends, for a benchmark, sets 10^9), far below
#: what would upset the arithmetic of the engines
MAX_COUNT = 10**9
#: the largest moyenne (caroms per inning)
MAX_MOYENNE = 10_000.0
#: the largest replacement spot number a call may name
MAX_SPOT = 99


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})


class Event(msgspec.Struct, frozen=True, kw_only=True, gc=False, tag_field="type",
            forbid_unknown_fields=True, omit_defaults=True):
    """Base of all table events (a frozen msgspec Struct: a log line decodes straight into
    one, ``parse_line``; a time out of range fails that decode, and the line goes the long
    way, which names what is wrong).

    Encoded (a played shot's events packed for undo, ``shot_engine.Trace.seal``), a field at
    its default is left out and decodes back to it: above all ``extra``, which no encoder
    takes as it is (a read-only mapping) and which would otherwise call the encoder's hook
    once an event."""

    t: Annotated[float, msgspec.Meta(ge=0.0, le=MAX_T)]
    #: keys this release does not know, kept (their JSON name is one no log uses)
    extra: Mapping[str, Any] = msgspec.field(default=_NO_EXTRA, name="~extra~")

    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "type": self.type}
        for name in self.__struct_fields__:
            if name in ("t", "extra"):
                continue
            value = getattr(self, name)
            if value is not None or name in _NULLABLE_KEPT:
                out[name] = value
        out.update(self.extra)
        return out


_NULLABLE_KEPT = {"ball"}

Player = Literal["p1", "p2"]
Ball = Literal["p1", "p2", "red", "white", "yellow"]


class Setup(Event, frozen=True, kw_only=True, tag="setup"):
    game: str = "golf"
    players: dict[str, Any] = msgspec.field(default_factory=dict)
    format: str | None = None
    discipline: str | None = None
    profile: str | None = None
    targets: dict[str, int] | None = None
    moyennes: dict[str, float] | None = None
    distance: int | None = None

    type: ClassVar[str] = "setup"


class Goal(Event, frozen=True, kw_only=True, tag="goal"):
    goal: Literal["A", "B"]
    ball: Ball | None = None

    type: ClassVar[str] = "goal"


class Pocket(Event, frozen=True, kw_only=True, tag="pocket"):
    pocket: Annotated[int, msgspec.Meta(ge=1, le=6)]
    ball: Ball | None = None

    type: ClassVar[str] = "pocket"


class Pin(Event, frozen=True, kw_only=True, tag="pin"):
    pin: Annotated[int, msgspec.Meta(ge=1, le=5)]
    state: Literal["down", "up"]

    type: ClassVar[str] = "pin"


class Cushion(Event, frozen=True, kw_only=True, tag="cushion"):
    cushion: Annotated[int, msgspec.Meta(ge=1, le=4)]
    ball: Ball | None = None

    type: ClassVar[str] = "cushion"


class OffTable(Event, frozen=True, kw_only=True, tag="off_table"):
    ball: Ball | None = None

    type: ClassVar[str] = "off_table"


class Rest(Event, frozen=True, kw_only=True, tag="rest"):
    positions: dict[str, Any] | None = None

    type: ClassVar[str] = "rest"


class Contact(Event, frozen=True, kw_only=True, tag="contact"):
    #: two balls (a decode of any other number fails: the line goes the long way)
    balls: Annotated[tuple[Ball, ...], msgspec.Meta(min_length=2, max_length=2)]

    type: ClassVar[str] = "contact"

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        out["balls"] = list(self.balls)
        return out


class Strike(Event, frozen=True, kw_only=True, tag="strike"):
    ball: Ball | None = None

    type: ClassVar[str] = "strike"


class Call(Event, frozen=True, kw_only=True, tag="call"):
    """A referee call. ``call`` names it; the other fields depend on the call."""

    call: str
    player: str | None = None
    foul: str | None = None
    ball: str | None = None
    spot: int | None = None
    question: str | None = None
    answer: Any = None

    type: ClassVar[str] = "call"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "type": "call", "call": self.call}
        for name in ("player", "foul", "ball", "spot", "question"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.question is not None or self.answer is not None:
            out["answer"] = self.answer
        out.update(self.extra)
        return out


# --- parsing -------------------------------------------------------------------

_KNOWN_CALLS = {
    "start": ("player",),
    "carom": (),
    "foul": ("foul",),
    "spot": ("spot",),
    "answer": ("question", "answer"),
    "undo": (),
}


def _req(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in obj:
        raise BadEvent(f"{what} event needs '{key}'")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        raise BadEvent(f"{what} event: '{key}' must be {_kind_name(kind)}, not {_short(value)}")
    return value


def _opt(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = obj.get(key)
    if value is None:
        return None
    return _req(obj, key, kind, what)


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", dict: "an object",
             list: "a list", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in _as_tuple(kind))


def _ball(obj: dict[str, Any], what: str) -> str | None:
    ball = _opt(obj, "ball", str, what)
    if ball is not None and ball not in ALL_BALLS:
        ball = ball.strip().lower()  # "P1", "Red " written by hand
    if ball is not None and ball not in ALL_BALLS:
        raise BadEvent(f"{what} event: unknown ball {_short(ball)} (balls: {', '.join(sorted(ALL_BALLS))})")
    return ball


_KNOWN_KEYS: dict[tuple[str, ...], frozenset[str]] = {}


def _extra(obj: dict[str, Any], known: tuple[str, ...]) -> Mapping[str, Any]:
    keys = _KNOWN_KEYS.get(known)
    if keys is None:
        keys = _KNOWN_KEYS[known] = frozenset((*known, "t", "type"))
    if obj.keys() <= keys:  # the common case: nothing extra (a C-speed set test)
        return _NO_EXTRA
    extra = {k: v for k, v in obj.items() if k not in keys}
    for key, value in extra.items():
        if not _all_finite(value):
            raise BadEvent(f"'{short(key)[1:-1]}': NaN and Infinity are no numbers a log may hold")
    return extra


def _all_finite(value: Any) -> bool:
    """No NaN or infinity anywhere in ``value`` (kept and written back, it would not be JSON)."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, float):
            if v - v != 0.0:
                return False
        elif isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return True


def parse_event(obj: Any) -> Event:
    """Turn one decoded JSON object into a table event, or raise ``BadEvent``."""
    if not isinstance(obj, dict):
        raise BadEvent(f"an event is a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise BadEvent("event has no 'type'")
    t = obj.get("t")
    if type(t) is not float or not 0.0 <= t <= MAX_T:  # anything but a time in range: named in words
        t = check_time(t, f"{_short(kind)[1:-1]} event")
    parser = _PARSERS.get(kind)
    if parser is None:
        raise BadEvent(f"unknown event type {_short(kind)} (known: {', '.join(sorted(_PARSERS))})")
    return parser(obj, t)


def _short(value: Any) -> str:
    """``repr(value)``, cut to 80 characters (``log_checks.short``)."""
    return short(value)


_DISCIPLINE_ALIASES = {
    "straightrail": "libre", "vrijspel": "libre", "free": "libre",
    "bandstoot": "bandstoten", "cushion": "bandstoten", "onecushion": "bandstoten",
    "driebanden": "driebanden", "threecushion": "driebanden", "3banden": "driebanden",
    "3cushion": "driebanden",
}


def _parse_setup(obj: dict[str, Any], t: float) -> Setup:
    named = _req(obj, "game", str, "setup")
    found = games.find(named)  # its id or an alias its package declares
    if found is None:
        known = ", ".join(games.names())
        raise BadEvent(f"setup: unknown game {_short(named.strip().lower())} (games: {known})")
    game = found.name
    players = _players(_req(obj, "players", dict, "setup"))
    discipline = _opt(obj, "discipline", str, "setup")
    if discipline is not None:
        key = discipline.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
        discipline = _DISCIPLINE_ALIASES.get(key, key)
    if discipline is not None and discipline not in DISCIPLINES:
        raise BadEvent(f"setup: unknown discipline {_short(discipline)} ({', '.join(DISCIPLINES)})")
    targets = _opt(obj, "targets", dict, "setup")
    if targets is not None:
        for p, v in targets.items():
            if p not in PLAYERS or isinstance(v, bool) or not isinstance(v, int) or not 0 < v <= MAX_COUNT:
                raise BadEvent(f"setup: targets must map p1/p2 to whole numbers from 1 to {MAX_COUNT}, "
                               f"not {_short(targets)}")
    moyennes = _opt(obj, "moyennes", dict, "setup")
    if moyennes is not None:
        for p, v in moyennes.items():
            if p not in PLAYERS or not is_number(v) or not 0 <= v <= MAX_MOYENNE:
                raise BadEvent(f"setup: moyennes must map p1/p2 to numbers from 0 to {MAX_MOYENNE:g}, "
                               f"not {_short(moyennes)}")
    distance = _opt(obj, "distance", int, "setup")
    if distance is not None:
        check_int(distance, 1, MAX_COUNT, "setup: distance")
    known = ("game", "players", "format", "discipline", "profile", "targets", "moyennes", "distance")
    return Setup(
        t=t, game=game, players=dict(players), format=_opt(obj, "format", str, "setup"),
        discipline=discipline, profile=_opt(obj, "profile", str, "setup"),
        targets=dict(targets) if targets else None,
        moyennes={k: float(v) for k, v in moyennes.items()} if moyennes else None,
        distance=distance, extra=_extra(obj, known),
    )


#: players' names ``check_players`` has found good (the same few names set up match after match)
_GOOD_NAMES: set[str] = set()
_GOOD_NAMES_MAX = 4096


def _players(players: dict[str, Any]) -> dict[str, Any]:
    """``check_players(players)``: two names already found good are not checked again."""
    if len(players) == 2:
        p1, p2 = players.get("p1"), players.get("p2")
        if type(p1) is str and type(p2) is str and p1 in _GOOD_NAMES and p2 in _GOOD_NAMES:
            return {"p1": p1, "p2": p2}
    checked = check_players(players)
    if len(_GOOD_NAMES) < _GOOD_NAMES_MAX:
        for v in checked.values():
            if type(v) is str:
                _GOOD_NAMES.add(v)
            elif type(v) is list:  # a team: each of its names passed ``check_name``
                _GOOD_NAMES.update(n for n in v if type(n) is str)
    return checked


def _good_side(names: Any) -> bool:
    """A side's names as ``check_players`` has found good before: a name, or a team of 1 to
    ``MAX_TEAM`` such names."""
    if type(names) is str:
        return names in _GOOD_NAMES
    return (type(names) is list and 1 <= len(names) <= MAX_TEAM
            and all(type(n) is str and n in _GOOD_NAMES for n in names))


def _parse_goal(obj: dict[str, Any], t: float) -> Goal:
    goal = _req(obj, "goal", str, "goal").strip().upper()
    if goal not in GOLF_GOALS:
        raise BadEvent(f"goal event: goal must be 'A' or 'B', not {_short(goal)}")
    return Goal(t=t, goal=goal, ball=_ball(obj, "goal"), extra=_extra(obj, ("goal", "ball")))


def _parse_pocket(obj: dict[str, Any], t: float) -> Pocket:
    pocket = _req(obj, "pocket", int, "pocket")
    if not 1 <= pocket <= 6:
        raise BadEvent(f"pocket event: pocket must be 1..6, not {_short(pocket)}")
    return Pocket(t=t, pocket=pocket, ball=_ball(obj, "pocket"), extra=_extra(obj, ("pocket", "ball")))


def _parse_pin(obj: dict[str, Any], t: float) -> Pin:
    pin = _req(obj, "pin", int, "pin")
    if not 1 <= pin <= 5:
        raise BadEvent(f"pin event: pin must be 1..5, not {_short(pin)}")
    state = _req(obj, "state", str, "pin")
    if state not in PIN_STATES:
        raise BadEvent(f"pin event: state must be 'down' or 'up', not {_short(state)}")
    return Pin(t=t, pin=pin, state=state, extra=_extra(obj, ("pin", "state")))


def _parse_cushion(obj: dict[str, Any], t: float) -> Cushion:
    cushion = _req(obj, "cushion", int, "cushion")
    if not 1 <= cushion <= 4:
        raise BadEvent(f"cushion event: cushion must be 1..4, not {_short(cushion)}")
    return Cushion(t=t, cushion=cushion, ball=_ball(obj, "cushion"), extra=_extra(obj, ("cushion", "ball")))


def _parse_off_table(obj: dict[str, Any], t: float) -> OffTable:
    return OffTable(t=t, ball=_ball(obj, "off_table"), extra=_extra(obj, ("ball",)))


def _parse_rest(obj: dict[str, Any], t: float) -> Rest:
    positions = _opt(obj, "positions", dict, "rest")
    if positions is not None:
        _check_positions(positions)
    return Rest(t=t, positions=positions, extra=_extra(obj, ("positions",)))


def _check_positions(positions: dict[str, Any]) -> None:
    for ball, xy in positions.items():
        if type(xy) is list:  # the common [x, y] of floats, or a path of them, checked inline
            if len(xy) == 2:
                x, y = xy
                if type(x) is float and type(y) is float and x - x == 0.0 and y - y == 0.0:  # finite
                    continue
            for point in xy:
                if type(point) is not list or len(point) != 2:
                    break
                x, y = point
                if type(x) is not float or type(y) is not float or x - x != 0.0 or y - y != 0.0:
                    break
            else:
                continue
        ok = _is_xy(xy) or (isinstance(xy, list) and all(_is_xy(p) for p in xy))
        if not ok:
            raise BadEvent(
                f"rest event: position of {_short(ball)} must be [x, y] in metres, not {_short(xy)}"
            )


def _is_xy(p: Any) -> bool:
    return (
        isinstance(p, list) and len(p) == 2
        and all(is_number(v) for v in p)
    )


def _parse_contact(obj: dict[str, Any], t: float) -> Contact:
    balls = _req(obj, "balls", list, "contact")
    if len(balls) != 2 or not all(isinstance(b, str) and b in ALL_BALLS for b in balls):
        raise BadEvent(f"contact event: 'balls' must name two balls, not {_short(balls)}")
    return Contact(t=t, balls=tuple(balls), extra=_extra(obj, ("balls",)))


def _parse_strike(obj: dict[str, Any], t: float) -> Strike:
    return Strike(t=t, ball=_ball(obj, "strike"), extra=_extra(obj, ("ball",)))


def _parse_call(obj: dict[str, Any], t: float) -> Call:
    call = _req(obj, "call", str, "call")
    for key in _KNOWN_CALLS.get(call, ()):
        if key not in obj:
            raise BadEvent(f"call {_short(call)} needs '{key}'")
    player = _opt(obj, "player", str, "call")
    if player is not None and player not in PLAYERS:
        raise BadEvent(f"call {_short(call)}: player must be p1 or p2, not {_short(player)}")
    spot = _opt(obj, "spot", int, "call")
    if spot is not None:
        check_int(spot, 1, MAX_SPOT, f"call {_short(call)}: spot")
    known = ("call", "player", "foul", "ball", "spot", "question", "answer")
    return Call(
        t=t, call=call, player=player, foul=_opt(obj, "foul", str, "call"),
        ball=_opt(obj, "ball", str, "call"), spot=spot,
        question=_opt(obj, "question", str, "call"), answer=obj.get("answer"),
        extra=_extra(obj, known),
    )


_PARSERS = {
    "setup": _parse_setup,
    "goal": _parse_goal,
    "pocket": _parse_pocket,
    "pin": _parse_pin,
    "cushion": _parse_cushion,
    "off_table": _parse_off_table,
    "rest": _parse_rest,
    "contact": _parse_contact,
    "strike": _parse_strike,
    "call": _parse_call,
}

SENSOR_TYPES = frozenset({"goal", "pocket", "pin", "cushion", "off_table", "contact", "strike"})


def parse_line(line: str | bytes) -> Event:
    """Parse one JSON Lines record. Whatever is wrong with it is a ``BadEvent`` that says
    what: not JSON, a number too long to read, nesting too deep, a wrong field.

    An event written as a log writes it (canonical names, no unknown keys; a set-up naming
    its game by its id and players already found good) is decoded and checked in one pass
    by msgspec; anything else (a set-up with a new name, a call with an answer, a ball written
    "Red", an unknown key to keep, a line with a fault to name) goes the way of
    ``parse_event``, which says what is wrong in our words. Both give the same event."""
    try:
        event = _FAST.decode(line)
    except _FAST_ERRORS:
        return _pin_named(line)
    kind = type(event)
    if kind is _SetupLine:
        return _setup_of(event) or _parse_slow(line)  # type: ignore[arg-type]
    t = event.t
    if (not 0.0 <= t <= MAX_T or event.extra is not _NO_EXTRA
            or (kind is Contact and len(event.balls) != 2)  # type: ignore[attr-defined]
            or (kind is Call and not _plain_call(event))):  # type: ignore[arg-type]
        return _parse_slow(line)  # not finite, out of range, ...: said there in our words
    if kind is Rest and event.positions is not None:  # type: ignore[attr-defined]
        _check_positions(event.positions)  # type: ignore[attr-defined]
    return event


class _PinLine(msgspec.Struct, frozen=True, tag_field="type", tag="pin", forbid_unknown_fields=True):
    """A pin event naming the ball that moved it (``ball``: a key kept in ``extra``, as keglebillard's
    tables write it; a string or null), decoded in one pass (``_pin_named``): every other key and
    value as ``Pin``'s."""

    t: Annotated[float, msgspec.Meta(ge=0.0, le=MAX_T)]
    pin: Annotated[int, msgspec.Meta(ge=1, le=5)]
    state: Literal["down", "up"]
    ball: str | None


class _CallKept(msgspec.Struct, frozen=True, tag_field="type", tag="call", forbid_unknown_fields=True):
    """A call naming a player or none and one key to keep, a string (``member``: golf's ``start`` of
    a duo naming who plays; ``choice``: carom's ``frozen`` with the shooter's choice), decoded in one
    pass (``_pin_named``): the ``Call`` that ``_parse_call`` makes of it, the key in ``extra``."""

    t: Annotated[float, msgspec.Meta(ge=0.0, le=MAX_T)]
    call: str
    player: str | None = None
    member: str | msgspec.UnsetType = msgspec.UNSET
    choice: str | msgspec.UnsetType = msgspec.UNSET


#: the lines the one-pass decode refuses that ``_pin_named`` takes in one pass as well (made when
#: first needed: a log of none, most of them, never builds it)
_NAMED: Any = None
_UNSET = msgspec.UNSET


def _pin_named(line: str | bytes) -> Event:
    """``parse_line`` of a line the one-pass decode refused: a pin naming its ball by a string
    (``_PinLine``) made the ``Pin`` that ``_parse_pin`` makes of it (the ball kept in ``extra``), and a
    call keeping one string (``_CallKept``) the ``Call`` that ``_parse_call`` makes of it, in one pass
    (``_named``); any other line the long way (``_parse_slow``)."""
    return _named(line) or _parse_slow(line)


def _named(line: str | bytes) -> Event | None:
    """``_pin_named`` of a line the one-pass decode refuses, where it takes one pass; else None."""
    global _NAMED
    if _NAMED is None:
        _NAMED = msgspec.json.Decoder(_PinLine | _CallKept)
    try:
        named = _NAMED.decode(line)
    except Exception:  # (text with surrogates too: a batch's line, not yet said not UTF-8)
        return None
    if type(named) is _PinLine:
        return Pin(t=named.t, pin=named.pin, state=named.state, extra={"ball": named.ball})
    call, player, member, choice = named.call, named.player, named.member, named.choice  # type: ignore[union-attr]
    need = _KNOWN_CALLS.get(call)
    if ((member is _UNSET) is (choice is _UNSET)  # neither kept, or both (in the order the line has them)
            or (player is not None and player not in PLAYERS)
            or (need and (need != ("player",) or player is None))):  # (a "player": null is there)
        return None  # the long way: said there in our words, or kept as ever
    return Call(t=named.t, call=call, player=player,
                extra={"member": member} if choice is _UNSET else {"choice": choice})


#: the games by their own ids (a set-up naming one as it is: no alias to look up)
_GAME_IDS = frozenset(g.name for g in games.every() if games.find(g.name) is g)


class _SetupLine(msgspec.Struct, frozen=True, tag_field="type", tag="setup", forbid_unknown_fields=True):
    """A set-up line as a match log writes it, decoded in one pass (``parse_line``,
    ``parse_lines``): its time, game (by its id), discipline (by its id) and figures checked by the
    decode as ``_parse_setup`` checks them, the players' names by ``_setup_of``; a key it does not
    know (one to keep in ``extra``), a game or a discipline by another name, a figure out of range
    fails the decode, and the line goes the long way (which names what is wrong, or normalises)."""

    t: Annotated[float, msgspec.Meta(ge=0.0, le=MAX_T)]
    game: Literal[tuple(sorted(_GAME_IDS))]  # type: ignore[valid-type]
    players: dict[str, Any]
    format: str | None = None
    discipline: Literal["libre", "bandstoten", "driebanden"] | None = None
    profile: str | None = None
    targets: dict[Literal["p1", "p2"], Annotated[int, msgspec.Meta(gt=0, le=MAX_COUNT)]] | None = None
    moyennes: dict[Literal["p1", "p2"], Annotated[float, msgspec.Meta(ge=0.0, le=MAX_MOYENNE)]] | None = None
    distance: Annotated[int, msgspec.Meta(ge=1, le=MAX_COUNT)] | None = None


if DISCIPLINES != ("libre", "bandstoten", "driebanden"):  # pragma: no cover (``_SetupLine`` names them)
    raise ImportError("events.DISCIPLINES differs from _SetupLine's")


def _setup_of(line: _SetupLine) -> Setup | None:
    """The ``Setup`` that ``_parse_setup`` makes of a set-up decoded in one pass, when its players
    are plain (names already found good: nothing to name in words; the rest the decode has
    checked, ``_SetupLine``); None for any other, which goes the long way (and gets its event or
    its error there). The moyennes are floats as decoded (``_parse_setup``'s ``float`` of each)."""
    players = line.players
    p1, p2 = players.get("p1"), players.get("p2")
    if type(p1) is str and type(p2) is str and len(players) == 2:  # (``_good_side`` of a name, inline)
        if p1 not in _GOOD_NAMES or p2 not in _GOOD_NAMES:
            return None
    elif len(players) != 2 or not (_good_side(p1) and _good_side(p2)):
        return None
    return Setup(t=line.t, game=line.game, players={"p1": p1, "p2": p2}, format=line.format,
                 discipline=line.discipline, profile=line.profile, targets=line.targets or None,
                 moyennes=line.moyennes or None, distance=line.distance)


#: the events as a log writes them, decoded and checked in one pass (``parse_line``; a batch's
#: lines, ``parse_lines``): the sensor
#: events and calls, a set-up as ``_SetupLine`` (made a ``Setup`` by ``_setup_of``, or the long way)
_FAST = msgspec.json.Decoder(Goal | Pocket | Pin | Cushion | OffTable | Rest | Contact | Strike | Call
                             | _SetupLine)
_FAST_ERRORS = (msgspec.ValidationError, msgspec.DecodeError)
#: where a batch's decode failed (compiled by ``re``'s cache when first used: a log of good lines never)
_AT_ITEM = r" - at `\$\[(\d+)\]"


def parse_lines(texts: Sequence[str]) -> list[Event | None]:
    """``parse_line`` of many lines in a few msgspec calls: for each line its event, or None
    where the line must go through ``parse_line`` alone (a set-up, a call with an answer, a
    line with a fault or with keys to keep: there it gets its event or its error as ever).
    An event given here is the one ``parse_line`` gives for the line; nothing is raised.

    The lines are decoded together (``Decoder.decode_lines`` over them joined by newlines)
    only when every line starts with ``{`` and ends with ``}``: then no JSON value can run
    from one line into the next (after a ``}`` that leaves a value open only ``,``, ``:`` or a
    closing bracket may come, and a newline cannot stand inside a string), each line holds
    one value or more (a newline inside a line may part two), and as many values as lines
    means one value a line. A batch that fails is decoded again up to the
    line that failed (msgspec names its index), that line is left to ``parse_line``, and the
    rest goes on as a batch of its own: each cut out of the text already joined and checked
    (``_batch``), not joined and counted again."""
    return parse_batch(texts)[0]


def parse_batch(texts: Sequence[str], cut: bool = False) -> tuple[list[Event | None], str]:
    """``parse_lines`` of ``texts``, and each line's kind as a letter (``kind_codes`` of what it
    gives: "s" a sensor event, "r" a rest, "x" anything else or a line left to ``parse_line``),
    found in the same pass as the decode's own look at the kinds (no second Python step a line).
    ``cut``: the lines were cut at newlines (``str.split``: none of them holds one), so they are
    not counted again."""
    size = len(texts)
    if not size:
        return [], ""
    # lines read from a file keep their "\n" (``Replay.feed_lines``), the command's do not; with
    # as many newlines as line breaks (none inside a line), each break is one "}\n{" between a
    # line's last character and the next one's first (two C passes, no Python step a line; one
    # where the lines were cut at newlines)
    kept = not cut and texts[0].endswith("\n")
    joined = "".join(texts).rstrip("\n") if kept else "\n".join(texts)
    if not (joined.startswith("{") and joined.endswith("}")
            and (cut or _one_line_each(texts, joined, kept, size)) and joined.count("}\n{") == size - 1):
        return _one_by_one(texts), "x" * size  # a line ending in "\r" or spaces, a blank, a newline in a line
    out: list[Event | None] = []
    codes = _batch(joined, texts, kept, out)
    return out, kind_codes(out) if codes is None else codes


def _one_line_each(texts: Sequence[str], joined: str, kept: bool, size: int) -> bool:
    """Whether ``joined`` (``texts`` joined, ``kept``: each keeping its newline) holds a newline only
    between two lines: lines joined by newlines, none of them holding one (one ``memchr`` over the
    lines put together, a copy: a count of ``joined``'s newlines looks at every character, ~8
    instructions a character); lines keeping theirs, as many newlines as line breaks (counted)."""
    if kept:
        return joined.count("\n") == size - 1
    return "\n" not in "".join(texts)


def kind_codes(parsed: Sequence[Event | None]) -> str:
    """Each decoded line's kind as a letter: "s" a sensor event (``SENSOR_KINDS``), "r" a rest,
    "x" anything else (a call, a set-up, None: a line left to ``parse_line``)."""
    return "".join(map(_CODE_OF.get, map(type, parsed), repeat("x")))


def _batch(joined: str, part: Sequence[str], kept: bool, out: list[Event | None], ahead: bool = True,
           ) -> str | None:
    """``parse_lines`` of ``part``, its lines already ``joined`` by single newlines and found to
    be one value a line (``kept``: each line keeps its "\n"), onto ``out``. A line that fails
    the decode is cut out of ``joined`` by the lengths of the lines before it: those lines are
    decoded again (the decode gave nothing for them), the rest go on. Lines holding a text that
    such a line held before (``_REFUSED``; ``ahead``: looked for) are held out of the batch's first
    decode (``_held_out``) and given their events after it (``_give_held``); where that decode fails
    all the same, each is cut out before the decode, which then needs no second go at the lines
    before it. Returns the kinds' letters
    (``kind_codes``) of what it put on ``out`` where it found them in passing (a batch decoded
    whole, with no escape in it), else None."""
    whole = True
    held: list[int] = []  # the lines held out of the decode (``_held_out``), given their events at the end
    while True:
        decoded: list[Any] | None = None
        if ahead and _REFUSED:
            first = -1
            for needle in _REFUSED:
                at = joined.find(needle)
                if at >= 0 and (first < 0 or at < first):
                    first = at
            if first >= 0 and whole:  # the batch's first go: every such line held out of one decode
                text, lines = _held_out(joined, first, None if kept else part)
                decoded = _decoded(text, len(part))
                if decoded is not None:
                    joined, held = text, lines
            if first >= 0 and decoded is None:  # a line like one refused before: taken as ``parse_line``
                whole = False                   # takes that one, the lines before it decoded apart
                bad = joined.count("\n", 0, first)
                at = sum(map(len, part[:bad])) + (0 if kept else bad)
                if bad:
                    _batch(joined[:at - 1], part[:bad], kept, out, False)  # (no such text before it)
                line = part[bad]
                out.append(_named(line) if _PIN in line else None)  # (``_PIN``)
                part = part[bad + 1:]
                if not part:
                    return None
                joined = joined[at + len(line) + (0 if kept else 1):]
                continue
        try:
            if decoded is None:
                decoded = _FAST.decode_lines(joined)
        except msgspec.ValidationError as exc:
            whole = False
            message = str(exc)
            found = re.search(_AT_ITEM, message)
            bad = int(found.group(1)) if found else -1
            if not 0 <= bad < len(part):
                out.extend([None] * len(part))
                return None
            # where the line starts in ``joined``: the lines before it and a newline each
            at = sum(map(len, part[:bad])) + (0 if kept else bad)
            if bad:
                _batch(joined[:at - 1], part[:bad], kept, out, False)  # decoded before it, so again
            line = part[bad]
            out.append(_named(line) if _PIN in line else None)  # (``_PIN``)
            _learn(message, line)
            part = part[bad + 1:]
            if not part:
                return None
            joined = joined[at + len(line) + (0 if kept else 1):]
            continue
        except Exception:  # malformed JSON, a number too long, text that is not UTF-8: one by one
            out.extend(_one_by_one(part))
            return None
        if len(decoded) != len(part):
            out.extend([None] * len(part))
            return None
        # ``_checked`` of each where it may not be the event as decoded: the decode has checked
        # every time's range and every contact's two balls; with no escape in the batch (``\\``)
        # its keys are as written: no key to keep (``extra``) and no rest's positions to check
        # unless their names are there. A batch of sensor events only is taken as it is
        plain = "\\" not in joined and ("~" not in joined or "~extra~" not in joined)  # (``memchr`` first)
        if not plain:
            checked = [e if type(e) in _AS_DECODED and e.extra is _NO_EXTRA else _checked(e) for e in decoded]
            if held:
                _give_held(checked, part, held)
            out.extend(checked)
            return None
        # each one's kind as a letter (``_LETTER``: "c" a call, "u" a set-up, else as ``kind_codes``):
        # the lines to look at found in it by ``str.find`` (C), not a Python step a line
        letters = "".join(map(_LETTER.__getitem__, map(type, decoded)))
        named = joined.find('"positions"')
        if named >= 0 \
                and ((_PATHS and joined.find("[[", named) >= 0) or not _plain_positions(decoded, letters)):
            # a batch naming positions, not all of them points (after a batch with a path, one that
            # may hold one: ``_PATHS``, not asked again; ``[[`` looked for from the first positions
            # named, where a path starts, not over the lines before them): its rests found by their letter,
            # and those with positions checked (``_checked`` of a rest, inline: the decode has
            # checked its time, and the batch has no key to keep)
            at = letters.find("r")
            while at >= 0:
                positions = decoded[at].positions  # type: ignore[union-attr]
                if positions is not None:
                    try:
                        _check_positions(positions)
                    except BadEvent:
                        decoded[at] = None  # ``parse_line`` says what is wrong, in its place
                        whole = False  # (its letter is no longer "r")
                at = letters.find("r", at + 1)
        if "c" in letters:
            # a batch of sensor events and rests with the odd call or set-up: only those looked
            # at, found by their letter (no Python step for the others)
            at = letters.find("c")
            while at >= 0:
                e = decoded[at]
                if e.call in _BARE_CALLS and e.player is None and e.spot is None:  # type: ignore[union-attr]
                    pass  # (``_plain_call`` of a call that needs nothing, inline)
                elif not _plain_call(e):  # type: ignore[arg-type]
                    decoded[at] = _checked(e)
                at = letters.find("c", at + 1)
            letters = letters.replace("c", "x")
        if "u" in letters:
            at = letters.find("u")
            while at >= 0:
                decoded[at] = _setup_of(decoded[at])  # type: ignore[arg-type]  (``_checked`` of a set-up)
                at = letters.find("u", at + 1)
            letters = letters.replace("u", "x")
        if held:
            letters = _give_held(decoded, part, held, letters)
        out.extend(decoded)
        return letters if whole else None


#: the line a line held out of a batch's decode stands as (``_held_out``): a rest naming nothing, which
#: nothing in ``_batch`` looks at twice; its place is given the held line's event (``_give_held``)
_HELD = '{"t": 0.0, "type": "rest"}'


def _held_out(joined: str, first: int, part: Sequence[str] | None = None) -> tuple[str, list[int]]:
    """``joined`` with each line holding a text of ``_REFUSED`` (the first at ``first``) put as
    ``_HELD``, and those lines' indexes: the batch decoded in one go, not cut at each such line and
    its parts decoded apart (a second decode of the lines before it, and their letters lost).

    ``part``: the lines ``joined`` joins by newlines, none holding one; each held line's index is
    then where its text stands in ``part`` after the one held before it (a line written the same
    between them would hold the text too, and be held first), not the newlines before it counted
    (a count looks at every character, ~8 instructions each)."""
    found = []
    for needle in _REFUSED:
        at = joined.find(needle, first)
        while at >= 0:
            found.append(at)
            at = joined.find(needle, at + 1)
    found.sort()
    pieces: list[str] = []
    lines: list[int] = []
    line = end = 0  # the last line held, and where it ends (its newline)
    for at in found:
        if at < end:  # (in the line held last)
            continue
        if part is None:
            line += joined.count("\n", end, at)
        start = joined.rfind("\n", end, at) + 1
        pieces.append(joined[end:start])
        pieces.append(_HELD)
        end = joined.find("\n", at)
        if end < 0:
            end = len(joined)
        if part is not None:
            line = part.index(joined[start:end], line + 1 if lines else 0)
        lines.append(line)
    pieces.append(joined[end:])
    return "".join(pieces), lines


def _decoded(text: str, size: int) -> list[Any] | None:
    """``_FAST.decode_lines(text)`` where it gives ``size`` values, else None (the batch is then
    decoded the way that says which line fails)."""
    try:
        decoded = _FAST.decode_lines(text)
    except Exception:
        return None
    return decoded if len(decoded) == size else None


def _give_held(decoded: list[Any], part: Sequence[str], held: list[int], letters: str = "") -> str:
    """Each line ``held`` out of a batch's decode given, in ``decoded``, what ``parse_line`` takes
    of it in one pass (``_named``; None: it goes the long way), and its letter in ``letters``."""
    for at in held:
        line = part[at]
        decoded[at] = event = _named(line) if _PIN in line else None  # (``_PIN``)
        if letters:
            letters = f"{letters[:at]}{_CODE_OF.get(type(event), 'x')}{letters[at + 1:]}"
    return letters


def _plain_positions(decoded: list[Any], letters: str) -> bool:
    """Whether every rest of a batch's decode (found by its letter, "r") names no positions or each
    ball's as a point, ``[x, y]`` of numbers within a double's range (not ``bool``): one ``msgspec``
    call over all of them (``_POINTS``) where ``_check_positions`` takes a call a rest. Each such
    position passes ``_check_positions``. False: one of them is some other (a path, a wrong value),
    and each rest is checked by ``_check_positions``, which says which."""
    found = []
    at = letters.find("r")
    while at >= 0:
        positions = decoded[at].positions
        if positions:
            found.append(positions)
        at = letters.find("r", at + 1)
    try:
        _convert(found, _POINTS)
    except msgspec.ValidationError:
        global _PATHS
        _PATHS = True
        return False
    return True


_convert = msgspec.convert
#: whether a batch's positions were found not all points before (``_plain_positions``: a path, most
#: likely, as keglebillard's tables write the white's): from then on a batch holding ``[[`` (a path's
#: start, as the tables write it) is checked the long way at once, without the call first
_PATHS = False
#: a batch's rests' positions as points (``_plain_positions``): an int is taken for a float (a
#: number ``_check_positions`` takes too), a ``bool``, another length, a number past a double's
#: range refused
_POINTS = list[dict[str, tuple[float, float]]]


#: texts of lines a batch's decode refused for a key it does not know (keglebillard's pins naming
#: their ball, golf's ``start`` naming a member, carom's ``frozen`` with a choice), the newest first
#: (``_learn``): a batch cuts a line holding one out before its decode (``_batch``), not after a
#: decode that failed there and a second one of the lines before it. Where a line holding one
#: would have decoded, it is only left to ``parse_line``, which gives it the same event.
_REFUSED: tuple[str, ...] = ()
#: a line a batch's decode refuses that is a pin naming its ball gets its event there (``_named``),
#: not None (``parse_line``): its shot may then be taken at once; a call keeping a string is left to
#: ``parse_line`` (the engines' steps for a shot and its call refuse those: taken at once, they would
#: be tried twice). A line holding this text is tried (any other gets None, which is always right)
_PIN = '"pin"'
#: the most such texts looked for (each one more ``str.find`` over every batch)
REFUSED_MAX = 4
#: the longest such text
REFUSED_LONGEST = 48
#: a refusal for a key the decode does not know, and the key (compiled by ``re``'s cache when first
#: used, as ``_AT_ITEM``)
_UNKNOWN = r"Object contains unknown field `([A-Za-z_]+)`"


def _learn(message: str, line: str) -> None:
    """Keep the text of ``line`` by which the batch decode will know its like (``_REFUSED``) where
    ``message`` refused it for a key it does not know: the value before that key and the key
    (``"down", "ball"``), as the line writes them."""
    global _REFUSED
    found = re.match(_UNKNOWN, message)
    if found is None:
        return
    key = f', "{found.group(1)}"'
    end = line.find(key)
    start = line.rfind('": ', 0, end) + 3
    if end < 0 or start < 3:
        return
    needle = line[start:end + len(key)]
    if "\n" not in needle and len(needle) <= REFUSED_LONGEST and needle not in _REFUSED:
        _REFUSED = (needle, *_REFUSED[:REFUSED_MAX - 1])


#: what ``parse_lines`` gives as decoded where it has nothing to keep (``_checked``): the events
#: that are fields only (their time in range, a contact's two balls: checked by the decode);
#: a rest, too, where no positions are named in the batch
_AS_DECODED = frozenset({Goal, Pocket, Pin, Cushion, OffTable, Strike, Contact})
#: the calls that need no field (``_KNOWN_CALLS``): as decoded where they name no player and no spot
_BARE_CALLS = frozenset(name for name, need in _KNOWN_CALLS.items() if not need)
#: the sensor events: what a shot takes as one more of its own (``rules.shot_engine.SHOT_KINDS``)
SENSOR_KINDS = _AS_DECODED
#: ``kind_codes``' letter of each kind (any other: "x")
_CODE_OF: dict[type, str] = {**dict.fromkeys(SENSOR_KINDS, "s"), Rest: "r"}
#: ``_batch``'s letter of each kind the decode gives: ``kind_codes``' letter, "c" a call, "u" a set-up
_LETTER: dict[type, str] = {**_CODE_OF, Call: "c", _SetupLine: "u"}


def _one_by_one(texts: Sequence[str]) -> list[Event | None]:
    """Each line left to ``parse_line`` (a batch that cannot be decoded as one)."""
    return [None] * len(texts)


def _checked(event: Any) -> Event | None:
    """What ``parse_line`` checks after its one-pass decode, for a line decoded in a batch:
    the event, or None where ``parse_line`` would take the line the long way (or refuse it)."""
    kind = type(event)
    if kind is _SetupLine:
        return _setup_of(event)
    t = event.t
    if (not 0.0 <= t <= MAX_T or event.extra is not _NO_EXTRA
            or (kind is Contact and len(event.balls) != 2)
            or (kind is Call and not _plain_call(event))):
        return None
    if kind is Rest and event.positions is not None:
        try:
            _check_positions(event.positions)
        except BadEvent:
            return None  # ``parse_line`` says what is wrong, in its place
    return event  # type: ignore[no-any-return]


def _plain_call(call: Call) -> bool:
    """A call the one-pass decode may give as it is: what ``_parse_call`` would check is fine
    (an ``answer`` of text or ``true``/``false`` to a question, as the logs write them: any other
    goes the long way, which alone tells a missing answer from ``null``)."""
    name = call.call
    if name == "answer":
        answer = call.answer
        if call.question is None or (answer.__class__ is not str and answer.__class__ is not bool):
            return False
    if call.player is not None and call.player not in PLAYERS:
        return False
    if call.spot is not None and not 1 <= call.spot <= MAX_SPOT:
        return False
    need = _KNOWN_CALLS.get(name)
    if need:
        for key in need:  # (a loop, not a list comprehension: no frame of its own on 3.11)
            if getattr(call, key) is None:
                return False
    return True


def _parse_slow(line: str | bytes) -> Event:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadEvent(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise BadEvent("not an event: nested too deeply") from None
    except ValueError as exc:  # an integer of more than sys.get_int_max_str_digits() digits
        raise BadEvent(f"not an event: {_first_line(exc)}") from None
    try:
        return parse_event(obj)
    except BadEvent:
        raise
    except (ValueError, OverflowError, RecursionError) as exc:  # float() of a 4,000-digit integer
        raise BadEvent(f"not an event: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def dump_event(event: Event) -> str:
    """One JSON Lines record for ``event``."""
    return json.dumps(event.to_dict(), separators=(", ", ": "))
