"""Sensor events entered by hand while a table's board is silent, and the board's own record
merged with them when it is back: nothing doubled, every disagreement asked.

Pure: no I/O, no clock of its own. The pub (``pub.py``) tells a ``Merge`` what happens on
the link (``went_out``, ``came_back``, ``frames_lost``), hands it each sensor event entered
by hand (``by_hand``) and each the board reports (``from_board``), acts on the verdicts, and
``check``s the out period once the board has been back a while (``CHECK_S``): what is left
over on either side is a ``Disagreement`` the referee is asked about.

Two records of one out period:

- the **hand record**: what the referee entered on the panel while the board was silent
  (stamped when tapped: seconds after the ball dropped), logged and applied at once so that
  play goes on;
- the **board's record**: the frames the board kept (2048) and replays when it is heard
  again (stamped when the edge came).

An event of one *matches* an event of the other when they are the same kind on the same
goal, pocket, pin or cushion with the same ball or state, and the hand's time is at most
``EARLY_S`` before the board's and at most ``LATE_S`` after it. Each event is matched once:
to the earliest event of the other record its window allows (for windows of one width this
greedy matching is a largest one). A board event that matches a hand entry is not logged
(the hand entry stands for it); a hand entry of an event the board has reported already is
refused (``DOUBLE``).

A board event of the out period that matches nothing is held (``HOLD``) until the check: the
referee may still tap it (he taps seconds late), and the board's replay may still bring the
hand entry's twin. At the check, goals, pockets and pins left on both sides are asked about:
the same kind at nearly the same time is one question ("which was it?", ``other``), the rest
one question each (``board``: the board saw it, nobody entered it; ``hand``: entered, the
board did not see it, asked only when the board's record is whole). Rests and cushions are
never asked: the referee's rests made the shots while the sensors were out, and the board's
are dropped, all but one: a rest the board saw after everything else of the period closes the
shot the referee left open (``closing_rest``).

A period in which the referee entered nothing is no merge at all: the board's replay is
applied as it comes, as without this module.

``rewrite`` plans a correction of the match log for an answer: the hand entries taken out
and the board's events put in at their time, by void records (docs/events.md) and the lines
after the first change written again, so that the log keeps everything and replays to the
corrected match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from . import games


def hand_types(game: str) -> tuple[str, ...]:
    """The sensor events the referee panel offers for ``game`` (docs/referee.md, "When the
    sensors are out"): what its engine needs to go on, as its package declares them
    (``Game.by_hand``), and the rest."""
    found = games.find(game)
    return (*found.by_hand, "rest") if found is not None else ()


def hand_balls(game: str) -> tuple[str, ...]:
    """The balls a goal or a pocket entered by hand may name: the game's own."""
    found = games.find(game)
    return found.balls if found is not None else ()


#: what a hand entry of each type must say, and the values it may take per game
GOALS = ("A", "B")
PINS = (1, 2, 3, 4, 5)
POCKETS = (1, 2, 3, 4, 5, 6)
CUSHIONS = (1, 2, 3, 4)
#: the kinds the referee is asked about where the two records disagree (they score)
ASKED = frozenset({"goal", "pocket", "pin"})
#: every kind matched between the two records (a double is never logged)
MATCHED = ASKED | {"rest", "cushion"}
#: seconds a hand entry may come before the board's stamp of the same event: the host's
#: estimate of the table's clock, which the hand entry is stamped with, runs from the last
#: event heard, and a ``rest`` is heard up to a heartbeat (1 s) after its time
EARLY_S = 2.0
#: seconds a hand entry may come after the board's stamp: a referee who watches the shot
#: to its end taps its goals and pins when the balls stop (a golf shot rolls up to ~10 s),
#: below the ~20 s at least between one shot's events and the next's
LATE_S = 15.0
#: seconds after the board is heard again until the out period is checked: its replay (at
#: most 2048 frames at 115200 baud, under 3 s) is in, and so are the referee's last taps of
#: what happened just before
CHECK_S = 8.0


class Verdict(Enum):
    APPLY = "apply"  # log and apply it
    DROP = "drop"  # a board event entered by hand already: not logged
    HOLD = "hold"  # a board event of the out period: decided at the check
    DOUBLE = "double"  # a hand entry of an event the board reported: refused


@dataclass(frozen=True, slots=True, eq=False)
class Sensed:
    """One sensor event as the merge compares it."""

    t: float
    kind: str
    place: int | str | None  # goal A/B, pocket, pin or cushion number; None for a rest
    what: str | None  # the ball (goal, pocket), the state (pin); None otherwise
    ref: int = 0  # a hand entry: its line in the match log; a board event: its arrival number
    event: Mapping[str, Any] = field(default_factory=dict)  # the event as logged (docs/events.md)

    @property
    def key(self) -> tuple[str, int | str | None, str | None]:
        return (self.kind, self.place, self.what)


def sensed(event: Mapping[str, Any], ref: int = 0) -> Sensed | None:
    """``event`` (a table event as a JSON object) as the merge compares it; None for an event
    the merge leaves alone (a call, a contact, a strike)."""
    kind = event.get("type")
    t = event.get("t")
    if not isinstance(t, (int, float)) or isinstance(t, bool):
        return None
    if kind == "goal":
        return Sensed(float(t), kind, event.get("goal"), event.get("ball"), ref, event)
    if kind == "pocket":
        return Sensed(float(t), kind, event.get("pocket"), event.get("ball"), ref, event)
    if kind == "pin":
        return Sensed(float(t), kind, event.get("pin"), event.get("state"), ref, event)
    if kind == "cushion":  # a piezo cannot tell the ball: the cushion alone says it
        return Sensed(float(t), kind, event.get("cushion"), None, ref, event)
    if kind == "rest":
        return Sensed(float(t), kind, None, None, ref, event)
    return None


def matches(hand: Sensed, board: Sensed) -> bool:
    """Whether a hand entry and a board event are one event on the table."""
    return hand.key == board.key and board.t - EARLY_S <= hand.t <= board.t + LATE_S


def near(hand: Sensed, board: Sensed) -> bool:
    """The same kind of event, near enough in time to be one seen two ways."""
    return hand.kind == board.kind and board.t - EARLY_S <= hand.t <= board.t + LATE_S


def _first(candidates: Iterable[Sensed]) -> Sensed | None:
    best = None
    for c in candidates:
        if best is None or c.t < best.t:
            best = c
    return best


def _without(items: tuple[Sensed, ...], item: Sensed) -> tuple[Sensed, ...]:
    return tuple(x for x in items if x is not item)


@dataclass(frozen=True, slots=True)
class Period:
    """The time a board was silent, until it has been checked."""

    hand: tuple[Sensed, ...] = ()  # entered by hand, not matched yet
    held: tuple[Sensed, ...] = ()  # the board's events of the period, not matched yet
    applied: tuple[Sensed, ...] = ()  # the board's events applied since it went silent
    entered: int = 0  # hand entries of the period, matched or not
    same: int = 0  # board events found entered by hand already
    lost: bool = False  # frames of the period lost for good: a hand entry cannot be checked
    back_t: float | None = None  # the table's time when the board was heard again
    last: Sensed | None = None  # the board's latest event of the period (matched or held)
    #: hand entries of an event like one the board reported just before it went silent
    echoes: tuple[tuple[Sensed, Sensed], ...] = ()
    #: hand entries and the board's events they stand for (the board's not logged)
    pairs: tuple[tuple[Sensed, Sensed], ...] = ()


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Where the two records disagree: ``board`` (the board saw it, nobody entered it),
    ``hand`` (entered by hand, the board did not see it; with ``board`` when the board reported
    the like just before it went silent: the same one entered again, or another?) or
    ``other`` (both saw something of that kind then, not the same thing)."""

    kind: str
    hand: Sensed | None = None
    board: Sensed | None = None

    @property
    def t(self) -> float:
        return min(s.t for s in (self.hand, self.board) if s is not None)

    @property
    def options(self) -> tuple[Any, ...]:
        """The answers: ``board``: add it or not; ``hand``: keep it or not; ``other``: the
        hand's, the board's, or both happened."""
        return ("hand", "board", "both") if self.kind == "other" else (True, False)

    def correction(self, answer: Any) -> tuple[tuple[int, ...], tuple[Mapping[str, Any], ...]]:
        """What the answer changes: the hand entries' log lines to take out, the board's
        events to put in. Raises ValueError for an answer that is not an option."""
        if answer not in self.options or isinstance(answer, bool) != (self.kind != "other"):
            raise ValueError(f"the answer is one of {list(self.options)}, not {answer!r}")
        board = (self.board.event,) if self.board is not None else ()
        hand = (self.hand.ref,) if self.hand is not None else ()
        if self.kind == "board":
            return (), board if answer else ()
        if self.kind == "hand":
            return () if answer else hand, ()
        if answer == "hand":
            return (), ()
        if answer == "board":
            return hand, board
        return (), board


@dataclass(frozen=True, slots=True)
class Outcome:
    """The check of an out period."""

    asked: tuple[Disagreement, ...] = ()
    entered: int = 0  # hand entries of the period
    same: int = 0  # of them, confirmed by the board
    dropped: int = 0  # the board's rests and cushions of the period, which the hand record stands for
    lost: bool = False


@dataclass(frozen=True, slots=True)
class Merge:
    """A table's two records, as far as they are still to be compared."""

    out: bool = False  # the board is silent now
    period: Period | None = None
    #: hand entries while the board talks (the referee's choice), for a board event after them
    pending: tuple[Sensed, ...] = ()
    #: board events applied lately, for a hand entry after them
    seen: tuple[Sensed, ...] = ()
    #: the latest time of a hand entry and of a board event: what is too old to match goes
    hand_t: float = 0.0
    board_t: float = 0.0

    # --- the link ------------------------------------------------------------------------
    def went_out(self) -> Merge:
        """The board is silent (past the heartbeat's limit) or its port is gone."""
        period = self.period or Period()
        return replace(self, out=True, period=replace(period, back_t=None))

    def came_back(self, t: float) -> Merge:
        """The board is heard again at table time ``t`` (its HELLO); what it replays with a
        time up to ``t`` is of the out period."""
        if self.period is None:
            return replace(self, out=False)
        return replace(self, out=False, period=replace(self.period, back_t=t))

    def frames_lost(self) -> Merge:
        """Frames of the period are lost for good (the board restarted, its replay ran out):
        a hand entry the board did not report may have happened all the same."""
        if self.period is None:
            return self
        return replace(self, period=replace(self.period, lost=True))

    def new_match(self) -> Merge:
        """A new match starts: the old one's entries are no longer compared."""
        period = Period(back_t=self.period.back_t) if self.period is not None and self.out else None
        return Merge(out=self.out, period=period, hand_t=self.hand_t, board_t=self.board_t)

    @property
    def back(self) -> bool:
        """The board is back and the out period waits for its check (a tap of what happened
        just before may still come)."""
        return self.period is not None and not self.out

    @property
    def checking(self) -> bool:
        """The board is back and its record is to be compared with entries made by hand."""
        return self.back and self.period is not None and self.period.entered > 0

    # --- events ------------------------------------------------------------------------------
    def by_hand(self, s: Sensed) -> tuple[Merge, Verdict, Sensed | None]:
        """A sensor event entered by hand: ``DOUBLE`` (with the board's event) when the board
        reported it already while it talked, else ``APPLY`` (with the board's held event it
        stands for, if any).

        While the board is out, an entry like an event it reported just before is no double
        for sure: another goal may have dropped meanwhile. It is applied (play goes on) and,
        if the board's replay does not bring it, asked about at the check."""
        m = self._tick(hand=s.t)
        p = m.period
        if p is None:
            twin = _first(b for b in m.seen if matches(s, b))
            if twin is not None:
                return replace(m, seen=_without(m.seen, twin)), Verdict.DOUBLE, twin
            return replace(m, pending=(*m.pending, s)), Verdict.APPLY, None
        twin = _first(b for b in (*p.applied, *p.held) if matches(s, b))
        if twin is not None and any(b is twin for b in p.applied):  # reported since the board is back
            return replace(m, period=replace(p, applied=_without(p.applied, twin))), Verdict.DOUBLE, twin
        if twin is not None:  # held: the hand entry stands for it
            p = replace(p, held=_without(p.held, twin), entered=p.entered + 1, same=p.same + 1,
                        pairs=(*p.pairs, (s, twin)))
            return replace(m, period=p), Verdict.APPLY, twin
        echo = _first(b for b in m.seen if matches(s, b))
        if echo is not None:
            m = replace(m, seen=_without(m.seen, echo))
            p = replace(p, echoes=(*p.echoes, (s, echo)))
        p = replace(p, hand=(*p.hand, s), entered=p.entered + 1)
        return replace(m, period=p), Verdict.APPLY, None

    def from_board(self, s: Sensed) -> tuple[Merge, Verdict, Sensed | None]:
        """A sensor event the board reports: ``DROP`` (with the hand entry) when it was entered
        by hand, ``HOLD`` when it belongs to an out period the referee entered events in, else
        ``APPLY``."""
        m = self._tick(board=s.t)
        p = m.period
        twin = _first(h for h in (*m.pending, *(p.hand if p is not None else ())) if matches(h, s))
        if twin is not None and any(h is twin for h in m.pending):
            return replace(m, pending=_without(m.pending, twin)), Verdict.DROP, twin
        if p is not None:
            last = s if p.last is None or s.t >= p.last.t else p.last
            if twin is not None:
                p = replace(p, hand=_without(p.hand, twin), same=p.same + 1, last=last,
                            pairs=(*p.pairs, (twin, s)))
                return replace(m, period=p), Verdict.DROP, twin
            if p.entered and (p.back_t is None or s.t <= p.back_t):
                return replace(m, period=replace(p, held=(*p.held, s), last=last)), Verdict.HOLD, None
            if s.kind in MATCHED:
                p = replace(p, applied=(*p.applied, s))
            return replace(m, period=replace(p, last=last)), Verdict.APPLY, None
        if s.kind in MATCHED:
            m = replace(m, seen=(*m.seen, s))
        return m, Verdict.APPLY, None

    def forget(self, gone: Callable[[int], bool]) -> Merge:
        """Hand entries taken back (an undo, a void: ``gone(ref)`` of their log lines) are no
        longer compared; a board event one of them stood for is held again, to be asked."""
        pending = tuple(h for h in self.pending if not gone(h.ref))
        p = self.period
        if p is not None:
            back = tuple(b for h, b in p.pairs if gone(h.ref))
            p = replace(p, hand=tuple(h for h in p.hand if not gone(h.ref)),
                        echoes=tuple((h, b) for h, b in p.echoes if not gone(h.ref)),
                        pairs=tuple((h, b) for h, b in p.pairs if not gone(h.ref)),
                        held=(*p.held, *back), same=p.same - len(back))
        return replace(self, pending=pending, period=p)

    def applied(self, s: Sensed) -> Merge:
        """A board event applied outside ``from_board`` (the rest that closes a shot)."""
        m = self._tick(board=s.t)
        if m.period is not None:
            return replace(m, period=replace(m.period, applied=(*m.period.applied, s)))
        return replace(m, seen=(*m.seen, s))

    def closing_rest(self) -> tuple[Merge, Sensed | None]:
        """The board's rest after everything else it held of the period, taken out of what it
        holds: it closes the shot the referee left open when the board came back (the pub
        applies it only then). None when the last event held is no rest."""
        p = self.period
        last = p.last if p is not None else None
        if p is None or last is None or last.kind != "rest" or not any(h is last for h in p.held):
            return self, None
        return replace(self, period=replace(p, held=_without(p.held, last))), last

    def check(self) -> tuple[Merge, Outcome]:
        """Compare what is left of the out period's two records; the period is over."""
        p = self.period
        if p is None:
            return self, Outcome()
        hand = sorted((h for h in p.hand if h.kind in ASKED), key=lambda x: x.t)
        board = sorted((b for b in p.held if b.kind in ASKED), key=lambda x: x.t)
        asked: list[Disagreement] = []
        for b in board:
            other = _first(h for h in hand if near(h, b) and h.place == b.place) \
                or _first(h for h in hand if near(h, b))
            if other is not None:
                hand.remove(other)
                asked.append(Disagreement("other", other, b))
            else:
                asked.append(Disagreement("board", None, b))
        echoes = dict((id(h), b) for h, b in p.echoes)
        if not p.lost:
            asked += [Disagreement("hand", h, echoes.get(id(h))) for h in hand]
        asked.sort(key=lambda d: d.t)
        dropped = sum(1 for b in p.held if b.kind not in ASKED)
        out = Outcome(tuple(asked), p.entered, p.same, dropped, p.lost)
        return replace(self, period=None, seen=(*self.seen, *p.applied)), out

    def _tick(self, hand: float = 0.0, board: float = 0.0) -> Merge:
        """The records move on: what can no longer match is forgotten. A hand entry is stamped
        with the table's clock when it is tapped, so the next one is no earlier than the last
        (nor than the board's last event, less the clock's lag): a board event ``LATE_S``
        before that matches none. The board's events come in time order: a hand entry
        ``EARLY_S`` and ``LATE_S`` before the board's last will match none of its next."""
        hand_t, board_t = max(self.hand_t, hand), max(self.board_t, board)
        if hand_t == self.hand_t and board_t == self.board_t:
            return self
        seen, pending = self.seen, self.pending
        old = max(hand_t, board_t - EARLY_S) - LATE_S - 1.0
        if seen and min(b.t for b in seen) < old:
            seen = tuple(b for b in seen if b.t >= old)
        old = board_t - LATE_S - EARLY_S - 1.0
        if pending and pending[0].t < old:
            pending = tuple(h for h in pending if h.t >= old)
        return replace(self, hand_t=hand_t, board_t=board_t, seen=seen, pending=pending)


# --- the correction of the match log --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Rewrite:
    """A correction of a match log: void records (first, last) to write, then the lines to
    write again after them, each with the line it was (None: a board event put in)."""

    voids: tuple[tuple[int, int], ...] = ()
    lines: tuple[tuple[int | None, Mapping[str, Any]], ...] = ()


def rewrite(lines: Sequence[tuple[int, Mapping[str, Any]]], remove: Iterable[int] = (),
            insert: Iterable[Mapping[str, Any]] = (), undone: Mapping[int, int] | None = None) -> Rewrite:
    """The correction that takes the lines ``remove`` (their numbers) out of a match and puts
    the events ``insert`` in at their time.

    ``lines``: the match's effective lines after its set-up, ``(number, event)``, in log order,
    the last line of the log last. An event goes in after the last line whose time is not
    later than its own (a line of the same time stays before it), unless an ``undo`` after
    that place takes it back (``undone``: each undo's line -> the first line of what it took
    back): then it goes in after that undo, stamped no earlier than the line before it (the
    referee took that shot back; what the board saw in it comes in as the match now stands).
    Lines before the first place an event goes in are taken out by a void record each; from
    that place on, everything is voided at once and written again, the new events among them."""
    gone = set(remove)
    new = sorted(insert, key=lambda e: float(e["t"]))
    if not new:
        return Rewrite(voids=tuple((n, n) for n, _ in lines if n in gone))
    times = [float(ev["t"]) for _, ev in lines]
    todo: list[tuple[int, int, Mapping[str, Any]]] = []
    for k, e in enumerate(new):
        at = _past_undos(lines, _place(times, float(e["t"])), undone or {})
        if at and float(e["t"]) < times[at - 1]:
            e = {**e, "t": times[at - 1]}
        todo.append((at, k, e))
    todo.sort()
    first = todo[0][0]
    if first == len(lines):  # every line is earlier: the events go at the end
        voids = tuple((n, n) for n, _ in lines if n in gone)
        return Rewrite(voids=voids, lines=tuple((None, e) for _, _, e in todo))
    voids = [(n, n) for n, _ in lines[:first] if n in gone]
    voids.append((lines[first][0], lines[-1][0]))
    out: list[tuple[int | None, Mapping[str, Any]]] = []
    k = 0
    for i in range(first, len(lines)):
        while k < len(todo) and todo[k][0] == i:
            out.append((None, todo[k][2]))
            k += 1
        n, ev = lines[i]
        if n not in gone:
            out.append((n, ev))
    out += [(None, e) for _, _, e in todo[k:]]
    return Rewrite(voids=tuple(voids), lines=tuple(out))


def _past_undos(lines: Sequence[tuple[int, Mapping[str, Any]]], at: int, undone: Mapping[int, int]) -> int:
    """``at``, or the place after the last undo that takes back what lies at ``at``."""
    if not undone or at >= len(lines):
        return at
    here = lines[at][0]  # the line the event would go in before
    for i in range(len(lines) - 1, at - 1, -1):
        first = undone.get(lines[i][0])
        if first is not None and first <= here:
            return i + 1
    return at


def _place(times: Sequence[float], t: float) -> int:
    """The index an event of time ``t`` goes in at: after the last line not later than it."""
    for i in range(len(times) - 1, -1, -1):
        if times[i] <= t:
            return i + 1
    return 0


# --- what the referee may enter -------------------------------------------------------------

def hand_event(game: str, obj: Mapping[str, Any]) -> dict[str, Any]:
    """The sensor event a panel's button sends, checked against what ``game`` offers:
    ``{"type": "goal", "goal": "B", "ball": "p1"}`` and the like (no ``t``: the pub stamps
    it). Raises ValueError with the reason."""
    kind = obj.get("type")
    offered = hand_types(game)
    if kind not in offered:
        raise ValueError(f"a {game} table's events entered by hand are {', '.join(offered)}, not {kind!r}")
    known = {"type"} | {"goal": {"goal", "ball"}, "pocket": {"pocket", "ball"}, "pin": {"pin", "state"},
                        "cushion": {"cushion"}, "rest": set()}[str(kind)]
    extra = sorted(set(obj) - known)
    if extra:
        raise ValueError(f"a {kind} entered by hand has no {', '.join(map(repr, extra))}")
    out: dict[str, Any] = {"type": kind}
    if kind == "goal":
        out["goal"] = _one(obj, "goal", GOALS, kind)
        out["ball"] = _one(obj, "ball", hand_balls(game), kind)
    elif kind == "pocket":
        out["pocket"] = _one(obj, "pocket", POCKETS, kind)
        out["ball"] = _one(obj, "ball", hand_balls(game), kind)
    elif kind == "pin":
        out["pin"] = _one(obj, "pin", PINS, kind)
        out["state"] = _one(obj, "state", ("down", "up"), kind)
    elif kind == "cushion":
        out["cushion"] = _one(obj, "cushion", CUSHIONS, kind)
        out["ball"] = None
    return out


def _one(obj: Mapping[str, Any], key: str, allowed: Sequence[Any], kind: str) -> Any:
    value = obj.get(key)
    if isinstance(value, bool) or value not in allowed:
        raise ValueError(f"a {kind} entered by hand needs {key!r}: one of {', '.join(map(str, allowed))}")
    return value
