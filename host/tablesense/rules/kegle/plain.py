"""The keglebillard shot decided in one pass: ``plain_shot(before, shot)``.

Nearly every shot of a match is decided here: its events read once, in ``t`` order (a line out
of order: read again sorted, as ``shot.read_shot`` does), keeping the sums the decision needs
(pins, cushions, red-white contacts, pockets, balls off the table, a white struck, what a pin
event says toppled it, pins rocking back up); the faults the sensors show and the referee
calls (``verdict.find_faults``' order), the pins and the carambole scored (``kegle.pin``,
``kegle.carambole``; a ``carom`` call counts it too), the "N remaining" announcement
(``kegle.announce.remaining``), the series going on or ending (``kegle.series``,
``kegle.distance``), the pins a ball keeps off their spot at the rest (``kegle.pin-blocked``),
a ball in a hole (``holes``: the question "which ball?" and its answers, a white's spot) and
what a fault costs (new outlay, red in hand). The next score is made in one call, its fields
in order (``_SCORE_FIELDS``). Where a series ends in a way that decides more (the match over,
the last series, the break) it asks ``series.series_over``, as the general decision does.

It answers None, and ``verdict.settle`` decides the general way (``verdict.settle_general``:
the shot's facts read by ``shot.read_shot``, every named check of ``checks`` asked, the score
copied three to five times), only for a shot with a pin down or excused before it
(``kegle.fault.pins-not-up``, ``kegle.pin-blocked``), a late settle, or contacts naming their
white. Where it answers, its state is the one ``verdict.settle_general`` gives
(tests/rules/kegle/test_kegle_plain_shot.py holds the two to it over made-up matches: pins,
holes and their answers, balls off the table, a strike sensor or none, fouls and other calls,
positions, undo). ``common_shot`` is ``plain_shot``'s decision of the most common shot (no pocket;
a ``carom``, ``foul`` or ``undo`` called after its rest or no call) written out for
``KegleEngine.whole``, with the state before the shot, in one function
(tests/rules/kegle/test_kegle_common_shot.py and test_kegle_common_shot_called.py hold it to the
longer way).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import count, permutations
from operator import attrgetter, itemgetter
from typing import Any

import msgspec

from ...events import Call, Contact, Cushion, Event, OffTable, Pin, Pocket, Rest, Strike
from ...shots import _NO_PINS, _OPEN, _SETTLING_PHASE, Cutter
from ..records import Ruling
from ..ruling_log import RulingLog, Trail
from ..shot_engine import Redo, ShotEngine, ShotRecord, Trace, shot_cut
from . import geometry as geo
from .checks import ANNOUNCE_UNDER, CARAMBOLE_POINTS, PIN_POINTS
from .fouls import BY_ID, JUMPED_BALL, NO_CUSHION, PIN_BY_CUE, RED_IN_HOLE, RED_TOPPLES_PIN, THREE_REDS, TOUCH
from .holes import answers, ask_pockets, white_spot
from .series import Verdict, series_over
from .shot import toppler
from .state import _PIN, NO_PINS, KegleState, LastShot, Score, pinset

replace = msgspec.structs.replace

_RED_THEN_WHITE = ("red", "white")
_WHITE_THEN_RED = ("white", "red")
_RED_WHITE = frozenset(_RED_THEN_WHITE)
_BALL_NAMES = _RED_WHITE  # the balls of a keglebillard table
_NEVER = float("-inf")
_ANY_BALL = frozenset({None, "red", "white"})  # what a ball sensor may name
_RED_OR_NONE = frozenset({None, "red"})  # what a strike of the red names
#: what a pin event may name as its toppler (``pin``: another pin; seed 8.1; ``KegleEngine.check``)
_TOPPLERS = (None, "red", "white", "pin", "cue")
_ANNOUNCE = "kegle.announce.remaining:announce"
_DISTANCE = (("kegle.distance:announce", ()),)
_CARAMBOLE = (("points", CARAMBOLE_POINTS),)
#: the announcements ``series.series_over`` adds (``Verdict.announce`` of a key alone)
_LAST_SERIES = ("kegle.last-series:announce", ())
_BREAK = ("kegle.break:announce", ())
#: the order of ``Score``'s fields that ``plain_shot`` writes them in
_SCORE_FIELDS = ("distance", "first", "points", "series", "series_starts", "run", "shots", "no_pin_shots",
                 "no_cushion", "pins_down", "blocked", "blocked_red", "pin_ups", "cushions_seen", "outlay",
                 "red_in_hand", "last_series", "announced", "break_taken", "break_due", "announcements",
                 "last")
if Score.__struct_fields__ != _SCORE_FIELDS:
    raise ImportError("rules/kegle/state.py's Score changed its fields: write them in plain_shot too")
#: the pins down after a shot, by the order they fell in: the shared set of each (``state.pinset``)
_DOWN = {order: pinset(frozenset(order)) for k in range(1, 6) for order in permutations(range(1, 6), k)}


#: a shot's facts as ``_read_any`` reads them: the pins toppled, the cushions, the carambole, the
#: faults the sensors show, the pockets naming no ball (with their index) and each pocket's ball
_Read = tuple[list[int], int, bool, list[str], "list[tuple[int, Pocket]] | tuple[()]",
              "list[tuple[int, str | None]] | tuple[()]"]


def _plus(values: Trail | tuple[int, ...], value: int) -> Trail:
    """``Trail.plus``, without its class method's lookups (a new series each few shots); a player's
    first series (``values`` empty) starts from one shared ``Trail`` of its points (``_FIRST_STARTS``:
    a ``Trail`` is never changed, and a short match's first shot of each player makes one)."""
    if type(values) is Trail:
        return Trail((value,), values)
    if values:
        return Trail((*values, value))
    first = _FIRST_STARTS.get(value)
    if first is None:
        first = Trail((value,))
        if len(_FIRST_STARTS) < 64:
            _FIRST_STARTS[value] = first
    return first


#: a player's points as his first series began -> the one ``Trail`` of them (at most 64 kept: 0
#: nearly always)
_FIRST_STARTS: dict[int, Trail] = {}


def common_facts(events: Sequence[Event]) -> tuple[list[int], int, bool, list[str]] | tuple[()] | None:
    """The facts of a common shot, read in one pass: the pins it toppled (in the order they fell),
    its cushions, the carambole (two red-white contacts), the faults its sensors show (the red
    toppling a pin before it touched a white, in a shot with contacts: seed 8.1). A shot common
    but for its pockets, a ball off the table, a white struck, pins naming what toppled them,
    falling twice or rocking: ``()``, its facts ``_read_any``'s to read; such a shot with its lines
    out of ``t`` order: ``LATE`` (``_uncommon`` says which). None for any other shot: a strike after
    the first event, a contact naming its white, a ball no keglebillard table has
    (``KegleEngine.check``'s refusals: ``KegleEngine.whole`` takes this pass for its check)."""
    toppled: list[int] = []
    cushions = red_white = 0
    contacts = early = False
    last = _NEVER
    for e in events:
        if last > (last := e.t):
            return _uncommon(events)  # a line out of order
        kind = type(e)
        if kind is Cushion:
            if e.ball not in _ANY_BALL:  # type: ignore[attr-defined]
                return None
            cushions += 1
        elif kind is Pin:
            pin = e.pin  # type: ignore[attr-defined]
            if e.extra or e.state != "down" or pin in toppled:  # type: ignore[attr-defined]
                return _uncommon(events)  # (a pin naming its toppler, rocking, or falling twice)
            toppled.append(pin)
            if not red_white:
                early = True  # before the red touched a white: the red's, where contacts tell (8.1)
        elif kind is Contact:
            if e.extra:
                return None
            balls = e.balls  # type: ignore[attr-defined]
            if balls == _RED_THEN_WHITE or balls == _WHITE_THEN_RED:
                red_white += 1
            elif not _BALL_NAMES.issuperset(balls):
                return None
            elif frozenset(balls) == _RED_WHITE:
                red_white += 1
            contacts = True
        elif kind is Strike:
            if e.ball not in _RED_OR_NONE or e is not events[0]:  # type: ignore[attr-defined]
                return _uncommon(events)  # (a white struck: ``_read_any``'s; a strike later: refused there)
        elif kind is Pocket:
            return _uncommon(events)
        else:
            return _uncommon(events)  # (a ball off the table)
    return toppled, cushions, red_white >= 2, [RED_TOPPLES_PIN] if early and contacts else []


class _Late(tuple):  # type: ignore[type-arg]
    """``LATE``'s type: an empty tuple told apart from ``()`` by its identity."""

    __slots__ = ()


#: ``common_facts`` of a shot ``_uncommon`` takes whose lines are out of ``t`` order (the recorded
#: matches' pocket or off-table line, logged after later ones): falsy as ``()``, its facts
#: ``_read_any``'s to read (in ``t`` order); ``KegleEngine.whole`` takes it in its one pass only
#: where the base's ``_before_shot`` takes nothing out of it (no strike sensor, no pins held)
LATE: tuple[()] = _Late()  # type: ignore[assignment]


def _uncommon(events: Sequence[Event]) -> tuple[()] | None:
    """``common_facts`` of a shot the other two passes refuse but ``_read_any`` reads and the base's
    ``whole`` takes as it is (its ``check`` of each event passes and its ``_before_shot`` takes nothing
    out): ``()`` where each event is a ball sensor naming red, white or none (a ball off the table
    among them), a pin naming a toppler ``KegleEngine.check`` knows, falling twice or rocking back up
    after the first event, a contact of red and white naming no white, a strike first (on the white
    too), not pins alone (``_by_hand`` may take those); such a shot with its lines out of ``t`` order:
    ``LATE``, but with a strike, a pin rising or falling twice (where ``_before_shot`` may find the
    shot's start elsewhere); None for any other (the base's way: it refuses, or reads the shot
    otherwise)."""
    first = events[0]
    toppled: list[int] = []
    last = _NEVER
    late = again = False
    for e in events:
        if last > (last := e.t):
            late = True
        kind = type(e)
        if kind is Cushion or kind is Pocket or kind is OffTable:
            if e.ball not in _ANY_BALL:  # type: ignore[attr-defined]
                return None
        elif kind is Pin:
            if e.extra and toppler(e) not in _TOPPLERS:  # type: ignore[arg-type]
                return None  # (``check`` refuses it)
            if e.state == "down":  # type: ignore[attr-defined]
                if e.pin in toppled:  # type: ignore[attr-defined]
                    again = True
                else:
                    toppled.append(e.pin)  # type: ignore[attr-defined]
            elif e is first:
                return None  # (a pin set up opens no shot)
            else:
                again = True
        elif kind is Contact:
            if e.extra or not _BALL_NAMES.issuperset(e.balls):  # type: ignore[attr-defined]
                return None
        elif kind is Strike:
            if e.ball not in _ANY_BALL or e is not first:  # type: ignore[attr-defined]
                return None
        else:
            return None
    if type(first) is Pin and all(type(e) is Pin for e in events):
        return None  # (pins alone: perhaps the pin referee's hands, ``_by_hand``)
    if late:
        return None if again or type(first) is Strike else LATE
    return ()


#: ``_read_any``'s sort of a shot's lines out of order: (time, index, event) -> each part
_TIME = attrgetter("t")
_INDEX = itemgetter(1)
_EVENT = itemgetter(2)
#: ``holes.answers`` of a shot with no answer among its calls, or no pocket naming no ball
_NONE_ANSWERED: dict[int, str] = {}


def _read_any(before: KegleState, shot: ShotRecord, late: bool = False) -> _Read | None:
    """The facts of any shot, read in one pass (in ``t`` order: a line out of order, read again
    sorted, as ``shot.read_shot`` does): the pins toppled and left down, the cushions, the
    carambole, the faults its sensors show (``verdict.find_faults``' order), and its pockets
    (which ball fell: the pocket event's, or the referee's answer, ``holes.answers``; those
    naming none, to ask about); None for a contact naming its white (the general way). ``late``:
    its lines are known to be out of order (``common_facts``' ``LATE``): sorted before the one pass."""
    events = shot.events
    if late:  # (``in_time_order``: a stable sort by time, the stream order breaking ties)
        events = sorted(events, key=_TIME)
    while True:
        toppled: list[int] = []
        cushions = red_white = 0
        contacts = wrong_ball = jumped = False
        holed: list[Pocket] | None = None  # the pocket events, in ``t`` order
        early: list[int] | None = None  # pins that fell before the red touched a white, naming no toppler
        by_red: list[int] | None = None  # pins a pin event says the red toppled
        by_cue: list[int] | None = None  # ... the cue (a bridge, clothes, a body part)
        stood: set[int] | None = None  # pins that fell and stand again on their spot (8.2)
        last = _NEVER
        for e in events:
            t = e.t
            if t < last:
                break  # a line out of order: read again in ``t`` order
            last = t
            kind = type(e)
            if kind is Pin:
                pin = e.pin  # type: ignore[attr-defined]
                if e.state == "down":  # type: ignore[attr-defined]
                    if pin not in toppled:
                        toppled.append(pin)
                        who = toppler(e) if e.extra else None  # type: ignore[arg-type]
                        if who is None:
                            if red_white == 0:
                                early = [pin] if early is None else [*early, pin]
                        elif who == "red":
                            by_red = [pin] if by_red is None else [*by_red, pin]
                        elif who == "cue":
                            by_cue = [pin] if by_cue is None else [*by_cue, pin]
                    elif stood is not None:
                        stood.discard(pin)
                elif pin in toppled:
                    stood = {pin} if stood is None else stood | {pin}
            elif kind is Cushion:
                cushions += 1
            elif kind is Contact:
                if e.extra:
                    return None  # a named white (``white``): the general way
                contacts = True
                balls = e.balls  # type: ignore[attr-defined]
                if balls == _RED_THEN_WHITE or balls == _WHITE_THEN_RED or frozenset(balls) == _RED_WHITE:
                    red_white += 1
            elif kind is Strike:
                if e.ball == "white":  # type: ignore[attr-defined]
                    wrong_ball = True
            elif kind is Pocket:
                holed = [e] if holed is None else [*holed, e]  # type: ignore[list-item]
            else:  # OffTable
                jumped = True
        else:
            break
        events = sorted(shot.events, key=_TIME)  # (``in_time_order``, as above)
        late = True
    if stood:
        toppled = [pin for pin in toppled if pin not in stood]
    if early is not None and contacts:  # the red toppled them (8.1): the contacts are known
        by_red = early if by_red is None else [*by_red, *early]
    if by_red is not None:
        by_red = [pin for pin in toppled if pin in by_red]
    unknown: list[tuple[int, Pocket]] | tuple[()] = ()
    pocketed: list[tuple[int, str | None]] | tuple[()] = ()
    red_fell = False
    if holed is not None:  # which ball fell: the pocket event's, or the referee's answer (``holes.answers``)
        unknown = []  # (``holes.unknown_pockets``, its loop here: stream order)
        for e in holed:
            if e.ball is None:
                unknown = [(k, e) for k, e in enumerate(shot.events) if type(e) is Pocket and e.ball is None]
                break
        answered = answers(before, unknown, shot.calls) if unknown and shot.calls else _NONE_ANSWERED
        if answered:  # each pocket by its line's index (``t`` order, the stream's breaking ties)
            pocketed = []
            events = shot.events
            order = sorted(zip(map(_TIME, events), count(), events)) if late else None
            for k, e in (enumerate(events) if order is None else zip(map(_INDEX, order), map(_EVENT, order))):
                if type(e) is Pocket:
                    ball = answered.get(k) if e.ball is None else e.ball  # type: ignore[attr-defined]
                    pocketed.append((e.pocket, ball))  # type: ignore[attr-defined]
                    if ball == "red":
                        red_fell = True
        else:  # no answer: each pocket's own ball, in ``t`` order
            pocketed = [(e.pocket, e.ball) for e in holed]
            for e in holed:
                if e.ball == "red":
                    red_fell = True
                    break
    # the faults the sensors show, in ``verdict.find_faults``' order
    faults: list[str] = []
    if jumped:
        faults.append(JUMPED_BALL)
    if red_fell:
        faults.append(RED_IN_HOLE)
    if by_red:
        faults.append(RED_TOPPLES_PIN)
    if by_cue:
        faults.append(PIN_BY_CUE)
    if wrong_ball:
        faults.append(TOUCH)
    return toppled, cushions, red_white >= 2, faults, unknown, pocketed


def _blocked(positions: Mapping[str, Any], toppled: Sequence[int], t: float,
             rulings: list[Ruling]) -> tuple[frozenset[int], frozenset[int]]:
    """The pins balls at rest on ``positions`` keep off their spots (8.3,
    ``verdict.blocked_by_balls``), and those of them the red ball keeps off, as ``pinset``s;
    a ``kegle.pin-blocked`` ruling for each onto ``rulings``."""
    found, by_red_ball = geo.blocked_pins(positions, sorted(toppled))
    if not found:
        return NO_PINS, NO_PINS
    rulings.extend([Ruling(t, "kegle.pin-blocked", None, (("pin", pin),)) for pin in found])
    return pinset(frozenset(found)), pinset(frozenset(by_red_ball))


def _faults_ruled(faults: Sequence[str], t: float, p: str, opp: str,
                  rulings: list[Ruling]) -> tuple[str | None, str | None]:
    """Each fault of a shot ruled against its player, then what they cost: the outlay and the red
    in hand for the opponent, each ruled once (``verdict.end_series``); gives (outlay,
    red_in_hand), the opponent or None."""
    outlay = red_in_hand = None
    for f in faults:
        rulings.append(Ruling(t, f, p))
        cost = BY_ID[f].then
        if cost.outlay:
            outlay = opp
        if cost.red_in_hand:
            red_in_hand = opp
    if outlay is not None:
        rulings.append(Ruling(t, "kegle.outlay", opp))
    if red_in_hand is not None:
        rulings.append(Ruling(t, "kegle.red-in-hand", opp))
    return outlay, red_in_hand


def plain_shot(before: KegleState, shot: ShotRecord,
               stage: tuple[KegleState, ShotRecord, Cutter, KegleState] | None = None,
               facts: tuple[list[int], int, bool, list[str]] | tuple[()] | None = None) -> KegleState | None:
    """The state after the complete ``shot`` played from ``before`` when the shot is plain (see
    the module), else None (pure). ``stage``: the shot stage's fields of the state after it
    (``before``, ``shot``, ``cut``, ``checkpoint``; not in a shot) put in the same copy
    (``KegleEngine.staged``); None: ``before``'s. ``facts``: the shot's ``common_facts``, where
    the caller read them (``KegleEngine.whole``; ``()``: a shot with pockets, read by ``_read_any``)."""
    rest = shot.rest
    if rest is None or shot.late:
        return None
    b = before.score
    if (b.pins_down or b.blocked) and b.pin_ups and shot.events:
        return None  # a pin down or excused before the shot (pins-not-up, 8.3): the general way
    if facts is None:
        facts = common_facts(shot.events)
    if facts:
        toppled, cushions, carambole, faults = facts
        holes = None
    else:
        read = _read_any(before, shot, facts is LATE)
        if read is None:
            return None
        toppled, cushions, carambole, faults, unknown, pocketed = read
        holes = (unknown, pocketed) if pocketed else None
    n = len(toppled)
    p = shot.player or before.at_table or "p1"
    t = rest.t
    rulings: list[Ruling] = []
    blocked = blocked_red = NO_PINS
    if n and (where := rest.positions) and not geo.away_from_pins(where):  # 8.3: a pin a ball keeps off its
        # spot (``verdict.blocked_by_balls``; balls all far from the pins keep none off: no call for them)
        blocked, blocked_red = _blocked(rest.positions, toppled, t, rulings)
    # the referee's calls the decision reads (``verdict.find_faults``): the carambole, the fouls;
    # the others act before it (``hands``, ``replay``) or after it (``KegleEngine.resolve``)
    calls = shot.calls
    if calls:
        for c in calls:
            if c.call == "carom":
                carambole = True
            elif c.call == "foul" and c.foul in BY_ID and c.foul not in faults:
                faults.append(c.foul)  # type: ignore[arg-type]
    # the faults of shots in a row (checks.no_cushion_twice, checks.three_reds)
    if n:
        if cushions == 0 and b.no_cushion >= 1 and b.cushions_seen and NO_CUSHION not in faults:
            faults.append(NO_CUSHION)
    elif b.no_pin_shots >= 2 and THREE_REDS not in faults:
        faults.append(THREE_REDS)
    if p == "p1":
        i, opp = 0, "p2"
    else:
        i, opp = 1, "p1"
    # the series as the shot opens it (``verdict.opened``)
    series, starts = b.series, b.series_starts
    if b.shots == 0:
        run = shots = 0
        if i == 0:
            series = (series[0] + 1, series[1])
            starts = (_plus(starts[0], b.points[0]), starts[1])
        else:
            series = (series[0], series[1] + 1)
            starts = (starts[0], _plus(starts[1], b.points[1]))
    else:
        run, shots = b.run, b.shots
    pins = tuple(toppled)
    announced = b.announced
    announcements: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    outlay = red_in_hand = None
    scores = b.points
    if faults:  # the faulty shot scores nothing; the series is over (``verdict.end_series``)
        outlay, red_in_hand = _faults_ruled(faults, t, p, opp, rulings)
        lastshot = LastShot(p, pins, carambole, cushions, 0, tuple(faults))
        points = missing = total = 0
    else:  # what it scores (checks.shot_points) and says (``verdict.score_shot``)
        if n:
            points = PIN_POINTS * n
            rulings.append(Ruling(t, "kegle.pin", p, (("pins", toppled), ("points", points))))
            if carambole:
                points += CARAMBOLE_POINTS
                rulings.append(Ruling(t, "kegle.carambole", p, _CARAMBOLE))
        elif carambole:
            points = CARAMBOLE_POINTS
            rulings.append(Ruling(t, "kegle.carambole", p, _CARAMBOLE))
        else:
            points = 0
        total = scores[i] + points
        missing = b.distance[i] - total
        if 0 < missing <= ANNOUNCE_UNDER and not announced[i]:  # checks.announces_remaining
            said = (("remaining", missing),)
            rulings.append(Ruling(t, "kegle.announce.remaining", p, said))
            announcements = ((_ANNOUNCE, said),)
            announced = (True, announced[1]) if i == 0 else (announced[0], True)
        if points:
            run += points
            scores = (total, scores[1]) if i == 0 else (scores[0], total)
        lastshot = LastShot(p, pins, carambole, cushions, points, ())
    if points and missing > 0:  # the series goes on (checks.series_goes_on, not checks.distance_reached)
        at_table = p
        shots += 1
        if n:
            no_pin_shots = 0
            no_cushion = 0 if cushions else b.no_cushion + 1
        else:
            no_pin_shots, no_cushion = b.no_pin_shots + 1, 0
        over = False
    else:  # the series is over (``series.end_series``)
        if points:  # checks.distance_reached
            rulings.append(Ruling(t, "kegle.distance", p, (("points", total),)))
            announcements = _DISTANCE
        elif not faults:
            rulings.append(Ruling(t, "kegle.series", p, (("run", run),)))
        at_table = opp
        shots = no_pin_shots = no_cushion = 0
        # what the end decides (``series.series_over``): the match over, the last series, the break
        reached = (scores[0] >= b.distance[0], scores[1] >= b.distance[1])
        over = ((p != b.first and series[0] == series[1] and (reached[0] or reached[1]))
                or (p == b.first and reached[i] and not b.last_series)
                or (not b.break_taken and 2 * scores[i] >= b.distance[i]))
    # the next score made whole, its fields in order (``_SCORE_FIELDS``): one call, where a
    # ``replace`` of 17 fields by name costs several times as much
    score = Score(
        b.distance, b.first, scores, series, starts, run, shots, no_pin_shots, no_cushion,
        (_DOWN.get(pins) or pinset(frozenset(pins))) if n else NO_PINS, blocked, blocked_red, b.pin_ups,
        b.cushions_seen or cushions > 0, outlay, red_in_hand, b.last_series, announced, b.break_taken, False,
        announcements, lastshot,
    )
    if over:
        v = Verdict(score, at_table, rulings)
        series_over(v, t, p)
        score, at_table = v.score, v.at_table
    if holes is not None:  # 9.1, 9.3: a white in a hole goes back on its spot
        for pocket, ball in holes[1]:
            if ball == "white":
                rulings.append(Ruling(t, "kegle.white-in-hole", p,
                                      (("pocket", pocket), *white_spot(rest.positions or {}).items())))
    log = before.rulings  # ``+`` of a ``RulingLog``, without its frame and the tuple it makes
    log = RulingLog(rulings, log) if type(log) is RulingLog else log + tuple(rulings)
    if stage is None:
        state = replace(before, score=score, rulings=log, at_table=at_table, questions=())
    else:
        state = replace(before, score=score, rulings=log, at_table=at_table, questions=(), before=stage[0],
                        shot=stage[1], cut=stage[2], in_shot=False, checkpoint=stage[3])
    if over and v.finished:  # the rule that ended it is the last one ruled (kegle.same-series, ...)
        state = ShotEngine.end(state, v.winner, rulings[-1].rule)
    if holes is not None and holes[0]:
        return ask_pockets(state, holes[0], calls, p)
    return state


#: ``common_shot`` is taken (off: ``KegleEngine.whole`` reads and decides every shot the longer way;
#: tests/rules/kegle/test_kegle_common_shot.py holds the two equal)
QUICK = True


def common_shot(state: KegleState, events: Sequence[Event], rest: Rest,
                facts: tuple[list[int], int, bool, list[str]], call: Call | None = None,
                played: tuple[Any, Trace, int] | None = None) -> KegleState | None:
    """``KegleEngine.whole``'s state for its most common shot, decided in one function from its
    ``common_facts`` (``facts``: not a shot with pockets): a match going on between shots (not the
    first shot, or one with no pin set up), the pins set up before it all held and put up before
    its strike (a shot opened by a pin falling only while the pin referee sets none up: his hands
    the longer way), a shot scoring or a faulty one (the faults its sensors show, of the shots before
    it in a row: no cushion, three reds, or the referee's foul). Its state is ``whole``'s:
    ``plain_shot``'s decision of ``whole``'s shot from ``whole``'s state before it. None for any
    other shot (``whole`` then decides it its longer way), before any record is made.

    ``call``: ``KegleEngine.whole_called``'s call after the rest (canonical): a ``carom`` or a
    ``foul`` decided with the shot (the shot's record with the call, what an undo of the call goes
    back to a ``Redo`` of ``state`` and the shot's lines), or an ``undo`` of it (``state``), as
    ``KegleEngine._called`` makes them; None for any other call.

    ``played``: ``KegleEngine.whole_played``'s step (no call), the state's base, its events since it
    and their count with the shot's events and rest: the state ``ShotEngine.whole_played`` gives,
    ``play``'s links (the shot's lines added to the events since the base, the undo a ``Redo`` of
    ``state`` from it) in the same copy."""
    toppled, cushions, carambole, faults = facts
    if state.in_shot or state.ended is not None or type(rest) is not Rest:
        return None
    if call is not None:
        if state.shot is None and (state.sealed or state.after is not None):
            return None  # (``KegleEngine._called``: ``amend`` would apply the incidents since the rest again)
        kind = call.call
        if kind == "carom":
            if carambole:
                call = None  # the carambole the contacts counted already: the call confirms it
            else:
                carambole = True
        elif kind == "foul":
            foul = call.foul
            if foul not in BY_ID:
                return None
            if foul not in faults:
                faults = [*faults, foul]  # type: ignore[list-item]  (facts' list is the caller's)
        elif kind != "undo":
            return None
    first = events[0]
    held = state.held
    shot_before = state.shot
    was = state.cut
    if held:
        if shot_before is None or type(first) is not Strike:
            return None  # (``release``, or held pins joining the shot: ``whole``'s other ways)
        at = first.t
        for e in held:
            if type(e) is not Pin or e.state != "up" or e.t >= at:  # type: ignore[attr-defined]
                return None
    elif type(first) is Pin and was.incident_open:
        return None  # (a pin first while the pin referee sets pins up: perhaps his, ``not_a_shot``)
    n = len(toppled)
    if n == len(events) and was.incident_open:
        return None  # pins alone while the pin referee sets them up: perhaps his hands (``_by_hand``)
    # the score before the shot (``whole``: the held pins put up) and what ``plain_shot`` decides
    b = state.score
    if held:  # (``state.pins_up`` inline: a pin left down or excused refuses the shot, so no set is made)
        down, blocked = b.pins_down, b.blocked
        if (down and down.difference(map(_PIN, held))) or (blocked and blocked.difference(map(_PIN, held))):
            return None  # a pin down or excused before the shot (pins-not-up, 8.3)
        if b.pin_ups and not blocked:
            if down:
                b = replace(b, pins_down=NO_PINS)
        else:
            b = replace(b, pins_down=NO_PINS if down else down, blocked=NO_PINS if blocked else blocked,
                        pin_ups=True)
    elif (b.pins_down or b.blocked) and b.pin_ups:
        return None  # a pin down or excused before the shot (pins-not-up, 8.3)
    # the faults of shots in a row (checks.no_cushion_twice, checks.three_reds)
    if n:
        if cushions == 0 and b.no_cushion >= 1 and b.cushions_seen and NO_CUSHION not in faults:
            faults = [*faults, NO_CUSHION]
    elif b.no_pin_shots >= 2 and THREE_REDS not in faults:
        faults = [*faults, THREE_REDS]
    p = state.at_table or "p1"
    if p == "p1":
        i, opp = 0, "p2"
    else:
        i, opp = 1, "p1"
    scores = b.points
    if faults:
        points = total = missing = 0  # the faulty shot scores nothing (``verdict.end_series``)
    else:
        if n:
            points = PIN_POINTS * n + CARAMBOLE_POINTS if carambole else PIN_POINTS * n
        else:
            points = CARAMBOLE_POINTS if carambole else 0
        total = scores[i] + points
        missing = b.distance[i] - total
    opens = b.shots == 0
    series = b.series
    if opens:
        series = (series[0] + 1, series[1]) if i == 0 else (series[0], series[1] + 1)
        run = shots = 0
    else:
        run, shots = b.run, b.shots
    if points:
        run += points
        scores = (total, scores[1]) if i == 0 else (scores[0], total)
    goes_on = points and missing > 0
    # the cutter after the shot (``shot_cut``'s common case, inline: the first event a rolling ball's,
    # a cushion, a contact or a strike, which opens a shot and settles none; a rest at a float time;
    # a pin first: ``shot_cut``, where it may settle the last shot or open none)
    t = rest.t
    if was.phase != _OPEN and type(t) is float and type(first) is not Pin:
        cut = Cutter(was.strike_sensor, was.window, was.game, was.shot + 1, _SETTLING_PHASE, t, False, False,
                     _NO_PINS, was.strikes or type(first) is Strike)
    else:
        cut = shot_cut(was, first, rest)  # type: ignore[assignment]
        if cut is None:
            return None
    # the records: the state before the shot (``whole``'s close of the last one), the shot, its rulings
    if held:
        before = replace(state, score=b, held=(), questions=(), after=None, sealed=False)
    elif shot_before is not None and (state.questions or state.after is not None or state.sealed):
        before = replace(state, questions=(), after=None, sealed=False)
    else:
        before = state
    if call is None:
        shot = ShotRecord(before.at_table, tuple(events), rest)
        checkpoint: Any = state
    elif call.call == "undo":
        return state  # the shot's undo point (``KegleEngine._called``)
    else:
        shot = ShotRecord(before.at_table, tuple(events), rest, (), (call,))
        checkpoint = Redo(state, (*shot.events, rest), True)
    rulings: list[Ruling] = []
    blocked = blocked_red = NO_PINS
    if n and (where := rest.positions) and not geo.away_from_pins(where):  # 8.3: a pin a ball keeps off its
        # spot (``verdict.blocked_by_balls``; balls all far from the pins keep none off: no call for them)
        blocked, blocked_red = _blocked(rest.positions, toppled, t, rulings)
    pins = tuple(toppled)
    announced = b.announced
    announcements: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    outlay = red_in_hand = None
    if faults:
        outlay, red_in_hand = _faults_ruled(faults, t, p, opp, rulings)
        last = LastShot(p, pins, carambole, cushions, 0, tuple(faults))
    else:
        if n:
            rulings.append(Ruling(t, "kegle.pin", p, (("pins", toppled), ("points", PIN_POINTS * n))))
            if carambole:
                rulings.append(Ruling(t, "kegle.carambole", p, _CARAMBOLE))
        elif carambole:
            rulings.append(Ruling(t, "kegle.carambole", p, _CARAMBOLE))
        if 0 < missing <= ANNOUNCE_UNDER and not announced[i]:  # checks.announces_remaining
            said = (("remaining", missing),)
            rulings.append(Ruling(t, "kegle.announce.remaining", p, said))
            announcements = ((_ANNOUNCE, said),)
            announced = (True, announced[1]) if i == 0 else (announced[0], True)
        last = LastShot(p, pins, carambole, cushions, points, ())
    last_series, break_taken, break_due = b.last_series, b.break_taken, False
    winner = None
    if goes_on:
        at_table = p
        shots += 1
        if n:
            no_pin_shots = 0
            no_cushion = 0 if cushions else b.no_cushion + 1
        else:
            no_pin_shots, no_cushion = b.no_pin_shots + 1, 0
    else:
        if points:
            rulings.append(Ruling(t, "kegle.distance", p, (("points", total),)))
            announcements = _DISTANCE
        elif not faults:
            rulings.append(Ruling(t, "kegle.series", p, (("run", run),)))
        at_table = opp
        shots = no_pin_shots = no_cushion = 0
        # what the end decides (``series.series_over``, inline: no ``Verdict``, no copies of the
        # score): the match over (7.4, 7.6), the opponent's last series (7.5), the break (4.1, 4.2)
        reached1, reached2 = scores[0] >= b.distance[0], scores[1] >= b.distance[1]
        if p != b.first and series[0] == series[1] and (reached1 or reached2):  # (``same_series_over``)
            at_table = p
            if reached1 and reached2:
                winner = "draw"
                rulings.append(Ruling(t, "kegle.draw"))
            else:
                winner = "p1" if reached1 else "p2"
                rulings.append(Ruling(t, "kegle.same-series", winner, (("series", series[0]),)))
        else:
            if p == b.first and (reached1 if i == 0 else reached2) and not last_series:  # (last_series_due)
                rulings.append(Ruling(t, "kegle.last-series", opp))
                last_series, outlay, red_in_hand = True, opp, None
                announcements = (*announcements, _LAST_SERIES)
            if not break_taken and 2 * scores[i] >= b.distance[i]:  # (``checks.break_due``)
                rulings.append(Ruling(t, "kegle.break", p))
                break_taken = break_due = True
                announcements = (*announcements, _BREAK)
    starts = b.series_starts
    if opens:  # (``_plus``, its two common cases inline: a series after the first, a first from 0 points)
        values, value = starts[i], b.points[i]
        if type(values) is Trail:
            begun = Trail((value,), values)
        elif values or (begun := _FIRST_STARTS.get(value)) is None:  # type: ignore[assignment]
            begun = _plus(values, value)
        starts = (begun, starts[1]) if i == 0 else (starts[0], begun)
    score = Score(
        b.distance, b.first, scores, series, starts, run, shots, no_pin_shots, no_cushion,
        (_DOWN.get(pins) or pinset(frozenset(pins))) if n else NO_PINS, blocked, blocked_red, b.pin_ups,
        b.cushions_seen or cushions > 0, outlay, red_in_hand, last_series, announced, break_taken, break_due,
        announcements, last,
    )
    log = before.rulings
    log = RulingLog(rulings, log) if type(log) is RulingLog else log + tuple(rulings)
    if played is None:
        new = replace(before, score=score, rulings=log, at_table=at_table, questions=(), before=before,
                      shot=shot, cut=cut, in_shot=False, checkpoint=checkpoint)
    else:  # (``ShotEngine.whole_played``'s links: ``Trace.plus`` of each event and the rest, inline)
        base, since, count = played
        seg, n = since._seg, since._n
        items = seg[0]
        if items is not None and len(items) == n:
            items.extend(events)
            items.append(rest)
            grown = Trace(seg, count)
        else:
            grown = Trace([[*since, *events, rest], None], count)
        new = replace(before, score=score, rulings=log, at_table=at_table, questions=(), before=before,
                      shot=shot, cut=cut, in_shot=False, checkpoint=Redo(base, since), base=base, since=grown)
    if winner is not None:  # the rule that ended it is the last one ruled (kegle.same-series, kegle.draw)
        return ShotEngine.end(new, winner, rulings[-1].rule)
    return new
