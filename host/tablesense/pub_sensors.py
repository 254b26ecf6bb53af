"""The pub's side of a table whose sensors are out: the link's state, the events the referee
enters by hand, the board's replay merged with them, the questions where they disagree.

``tablesense.by_hand`` decides (pure); ``SensorsOut`` (a part of ``Pub``) acts: it keeps
each table's link state from the link's statuses (``link_status``: silent past the
heartbeat's limit or the port gone is *out*, its HELLO is *back*), logs a sensor event
entered on the panel like a sensor's (``enter_by_hand``: stamped with the table's clock,
marked ``"by_hand": true``), passes each event the board reports through the merge
(``_from_board``), checks the out period ``check_s`` seconds after the board is back
(``_check``), and corrects the match log when the referee answers (``answer_sensors``: void
records and the lines after the change written again, docs/events.md).

The questions live in the pub's memory: a host restarted before they are answered keeps
the hand record as it stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from . import by_hand
from .by_hand import Disagreement, Merge, Sensed, Verdict, sensed
from .corrections import voided_range
from .errors import BadEvent, IllegalCall, TablesenseError
from .events import Call, Event, parse_event
from .pub_table import TICKER, SensorQuestion, Step, Table, call_time
from .store import effective_lines
from .undo_walk import Walk

#: the link's statuses that mean the board is not heard (docs/reliability.md)
OUT = frozenset({"disconnected", "reconnecting", "no_hello"})
#: statuses that mean frames of the board are lost for good
LOST = frozenset({"lost", "restarted", "board_reset"})
#: the open questions a table keeps (the oldest go first: a flood of them is no use to anyone)
KEPT_QUESTIONS = 32


class SensorsOut:
    """``Pub``'s methods for a table whose sensors are out (``Pub`` inherits them)."""

    #: seconds after the board is back until its record of the out period is checked
    check_s: float = by_hand.CHECK_S

    # what ``Pub`` provides
    tables: dict[str, Table]
    table: Callable[[str], Table]
    _changed: Callable[[Table], None]
    _prepare: Callable[[Table, Event, str], Step | None]
    _prepare_void: Callable[[Table, int, int], Step]
    _append: Callable[[Step], Any]
    _apply: Callable[[Table, Step], None]
    _retrying: Callable[[Table, Callable[[], Any]], Any]
    _written_again: Callable[[Table], Any]
    store: Any

    # --- the link ------------------------------------------------------------------------
    def link_status(self, table_id: str, status: Any) -> None:
        """A status of the table's link (``tablesense.link.LinkStatus``): the TV and the panel
        follow the board's being heard or not; the merge learns of lost frames."""
        tab = self.table(table_id)
        sensors = tab.sensors
        kind = getattr(status, "kind", None)
        if kind in OUT and sensors.link != "out":
            _clock_runs(tab)
            sensors.link, sensors.since = "out", time.time()
            sensors.merge = sensors.merge.went_out()
            if sensors.timer is not None:
                sensors.timer.cancel()
                sensors.timer = None
            self._changed(tab)
        elif kind == "hello" and sensors.link != "up":
            sensors.link, sensors.since = "up", None
            sensors.merge = sensors.merge.came_back(tab.table_time())
            if sensors.merge.back:
                self._schedule_check(tab)
            self._changed(tab)
        elif kind in LOST:
            sensors.merge = sensors.merge.frames_lost()

    def _clock_from(self, tab: Table, checkpoint: Any) -> None:
        """A checkpoint of the link (a quiet point) carries the device's time as the translator
        has it, which may be ahead of the last event's: a ``rest`` is reported up to a heartbeat
        after its time. The table's clock (``Table.table_time``) takes it, never going back."""
        t = getattr(checkpoint, "now_us", 0) / 1e6
        if t > tab.table_time():
            tab.clock = (t, time.monotonic())

    def sensors_snapshot(self, tab: Table) -> dict[str, Any]:
        """What the screens show of the table's sensors (``Pub.snapshot``'s ``sensors``)."""
        s = tab.sensors
        return {"link": s.link, "since": s.since, "checking": s.merge.checking,
                "questions": [q.to_dict() for q in s.questions]}

    def _schedule_check(self, tab: Table) -> None:
        sensors = tab.sensors
        if sensors.timer is not None:
            sensors.timer.cancel()
        loop = asyncio.get_running_loop()
        sensors.timer = loop.call_later(self.check_s, self._check_due, tab)

    def _check_due(self, tab: Table) -> None:
        tab.sensors.timer = None
        tab.sensors.task = asyncio.get_running_loop().create_task(self._check(tab), name=f"check {tab.id}")

    async def _check(self, tab: Table) -> None:
        """The board has been back ``check_s``: what is left of the out period is asked."""
        async with tab.lock:
            sensors = tab.sensors
            if not sensors.merge.back:
                return
            sensors.merge, rest = sensors.merge.closing_rest()
            if rest is not None and _in_shot(tab):
                await self._closing(tab, rest)
            sensors.merge, outcome = sensors.merge.check()
            for d in outcome.asked:
                sensors.asked += 1
                sensors.questions.append(SensorQuestion(f"s{sensors.asked}", d, _epoch(tab, 0.0)))
            del sensors.questions[:-KEPT_QUESTIONS]
            if outcome.entered:
                note = {"type": "sensors", "entered": outcome.entered, "same": outcome.same,
                        "asked": len(outcome.asked), "lost": outcome.lost, "at": time.time()}
                tab.ticker.append(note)
                text = (f"sensors back: {outcome.same} of {outcome.entered} events entered by hand "
                        f"confirmed by the board, {len(outcome.asked)} asked"
                        + (" (frames of the board lost: a hand entry it did not report stands)"
                           if outcome.lost else ""))
                await self._sensors_incident(tab, text)
            self._changed(tab)

    async def _closing(self, tab: Table, rest: Sensed) -> None:
        """The board's rest after everything of the out period closes the shot the referee left
        open: applied, stamped no earlier than the log's last line."""
        obj = dict(rest.event)
        obj["t"] = max(float(obj["t"]), _last_line_t(tab))
        event = parse_event(obj)
        await self._log_step(tab, lambda: self._prepare(tab, event, "table"))
        tab.sensors.merge = tab.sensors.merge.applied(rest)

    # --- the board's events ----------------------------------------------------------------
    def _from_board(self, tab: Table, event: Event) -> list[Event]:
        """The events to log for one the board reports: none (entered by hand already, or held
        for the check), itself, or the closing rest of an out period first."""
        if event.type not in by_hand.MATCHED:  # a contact, a strike: the hand enters none
            return [event]
        sensors = tab.sensors
        sensors.arrivals += 1
        s = sensed(event.to_dict(), sensors.arrivals)
        if s is None:
            return [event]
        merge, verdict, _ = sensors.merge.from_board(s)
        out: list[Event] = []
        if verdict is Verdict.APPLY and merge.checking and _in_shot(tab):
            merge, rest = merge.closing_rest()  # a live event after the period: close the shot first
            if rest is not None:
                obj = dict(rest.event)
                obj["t"] = max(float(obj["t"]), _last_line_t(tab))
                out.append(parse_event(obj))
                merge = merge.applied(rest)
        sensors.merge = merge
        if verdict is Verdict.APPLY:
            out.append(event)
        return out

    # --- the referee's hand ----------------------------------------------------------------
    async def enter_by_hand(self, table_id: str, obj: Mapping[str, Any]) -> None:
        """A sensor event the referee enters on the panel (``{"type": "goal", "goal": "B",
        "ball": "p1"}``): checked against the game, stamped with the table's clock, marked
        ``"by_hand": true``, logged and applied as a sensor's. Refused (``IllegalCall``) when
        the rules refuse it or the board reported the same event already."""
        tab = self.table(table_id)
        if tab.match is None:
            raise IllegalCall("no match is running on this table: start one first")
        try:
            body = by_hand.hand_event(tab.match.game, obj)
        except ValueError as exc:
            raise BadEvent(str(exc)) from None
        async with tab.lock:
            _clock_runs(tab)
            event = parse_event({"t": call_time(tab), **body, "by_hand": True})
            step = self._prepare(tab, event, "referee")  # the rules refuse it: nothing logged
            if step is None:
                return
            s = sensed(event.to_dict(), step.row[2])
            sensors = tab.sensors
            before = sensors.merge
            merge, verdict, twin = before.by_hand(s) if s is not None else (before, Verdict.APPLY, None)
            if verdict is Verdict.DOUBLE:
                sensors.merge = merge
                at = time.strftime("%H:%M:%S", time.localtime(_epoch(tab, twin.t))) if twin else "?"
                raise IllegalCall(f"the board reported this {event.type} already (at {at}): it counts once")
            sensors.merge = merge
            try:
                await self._append(step)
            except BaseException:
                sensors.merge = before
                raise
            self._apply(tab, step)

    async def answer_sensors(self, table_id: str, question: str, answer: Any) -> None:
        """The referee's answer to a question about the two records: the match log corrected
        (the hand entry taken out, the board's event put in at its time) as the answer says."""
        tab = self.table(table_id)
        async with tab.lock:
            sensors = tab.sensors
            q = next((x for x in sensors.questions if x.id == question), None)
            if q is None:
                raise IllegalCall(f"no open question {str(question)[:20]!r} about the sensors")
            try:
                remove, insert = q.disagreement.correction(answer)
            except ValueError as exc:
                raise IllegalCall(str(exc)) from None
            moved = await self._correct(tab, remove, insert)
            sensors.questions.remove(q)
            for other in sensors.questions:  # hand entries written again have new line numbers
                hand = other.disagreement.hand
                if hand is not None and hand.ref in moved:
                    new = Sensed(hand.t, hand.kind, hand.place, hand.what, moved[hand.ref], hand.event)
                    other.disagreement = Disagreement(other.disagreement.kind, new, other.disagreement.board)
            d = q.disagreement
            what = json.dumps({"question": q.id, "kind": d.kind, "answer": answer,
                               "hand": dict(d.hand.event) if d.hand else None,
                               "board": dict(d.board.event) if d.board else None}, ensure_ascii=False)
            await self._sensors_incident(tab, f"the referee answered about the sensors: {what}")
            self._changed(tab)

    async def _correct(self, tab: Table, remove: tuple[int, ...],
                       insert: tuple[Mapping[str, Any], ...]) -> dict[int, int]:
        """Take the lines ``remove`` out of the match and put ``insert`` in at their time
        (``by_hand.rewrite``); returns the new number of each line written again."""
        if (not remove and not insert) or tab.match is None:
            return {}
        logged = effective_lines(tab.log)[1:]
        lines = [(ev.seq, json.loads(ev.line)) for ev in logged]
        sources = {ev.seq: ev.source for ev in logged}
        plan = by_hand.rewrite(lines, remove, insert, _undone(tab.match.game, logged))
        clock = tab.clock
        for first, last in plan.voids:
            await self._log_step(tab, lambda first=first, last=last: self._prepare_void(tab, first, last))
        moved: dict[int, int] = {}
        for old, obj in plan.lines:
            source = sources.get(old, "table") if old is not None else "table"
            try:
                event = parse_event(dict(obj))
            except BadEvent:
                continue
            logged = await self._log_step(tab, lambda e=event, src=source: self._prepare(tab, e, src))
            if logged and old is not None:
                moved[old] = tab.seq
        tab.clock = clock  # lines written again are old: the table's clock is where it was
        tab.ticker.clear()
        for ev in effective_lines(tab.log)[-TICKER:]:
            with contextlib.suppress(json.JSONDecodeError):
                tab.ticker.append({**json.loads(ev.line), "seq": ev.seq, "source": ev.source, "at": ev.at})
        return moved

    async def _log_step(self, tab: Table, make: Callable[[], Step | None]) -> bool:
        """Prepare, log and apply one step, waiting while the match log refuses writes; True
        when it was logged (a line the rules now refuse is said on the ticker and left out)."""
        done = False

        async def write() -> None:
            nonlocal done
            step = make()
            if step is None:
                return
            await self._append(step)
            self._apply(tab, step)
            done = True

        await self._retrying(tab, write)
        return done

    async def _sensors_incident(self, tab: Table, text: str) -> None:
        writer = getattr(self, "writer", None)
        store = self.store
        with contextlib.suppress(TablesenseError):
            if writer is None:
                store.incident(tab.id, "sensors", text)
            else:  # the table's lock held: the shown events the log refused go first
                await self._written_again(tab)
                await writer.incident(tab.id, "sensors", text)

    def _sensors_step(self, tab: Table, step: Step) -> None:
        """A step about to be applied: an ``undo`` or a void takes hand entries back, and the
        merge no longer compares them (``Merge.forget``)."""
        event = step.event
        if event is None:  # a void record
            rng = voided_range(step.row[3])
            if rng is not None:
                first, last = rng
                tab.sensors.merge = tab.sensors.merge.forget(lambda ref: first <= ref <= last)
        elif isinstance(event, Call) and event.call == "undo":
            unit = tab.walk.last()  # what this undo takes back: its lines and all after them
            if unit is not None and unit.seq:
                since = unit.seq
                tab.sensors.merge = tab.sensors.merge.forget(lambda ref: ref >= since)

    def _sensors_resume(self, tab: Table) -> None:
        """A host (re)started with a table whose log ends in events entered by hand (after the
        board's last): the board was out when the host went down. They are the hand record of
        an out period again, so that the board's replay (from the checkpoint before them) is
        merged with them, not logged beside them."""
        entered: list[Sensed] = []
        for ev in reversed(effective_lines(tab.log)[1:] if tab.match is not None else []):
            if ev.source == "table":
                break
            with contextlib.suppress(json.JSONDecodeError):
                obj = json.loads(ev.line)
                s = sensed(obj, ev.seq) if isinstance(obj, dict) and obj.get("by_hand") is True else None
                if s is not None:
                    entered.append(s)
        merge = Merge().went_out() if entered else Merge()
        for s in reversed(entered):
            merge, _, _ = merge.by_hand(s)
        if merge.period is not None:
            tab.sensors.merge = merge

    def _sensors_new_match(self, tab: Table) -> None:
        """A new match: the old one's questions and entries go."""
        sensors = tab.sensors
        sensors.merge = sensors.merge.new_match()
        sensors.questions.clear()
        sensors.asked = 0


def _clock_runs(tab: Table) -> None:
    """The table's clock runs on from its last event even when no sensor event came since the
    host started (``Table.clock`` not tied to the host's clock yet): hand entries are stamped
    seconds apart, as they were tapped, not all at the last event's time."""
    t, mono = tab.clock
    if mono == 0.0:
        tab.clock = (t, time.monotonic())


def _undone(game: str, logged: list[Any]) -> dict[int, int]:
    """Each ``undo`` of a match's effective lines (after its set-up) and the first line of
    what it took back, as the undo walk follows them."""
    walk = Walk(game)
    out: dict[int, int] = {}
    for ev in logged:
        if '"undo"' in ev.line and _is_undo(ev.line):
            unit = walk.last()
            if unit is not None and unit.seq:
                out[ev.seq] = unit.seq
        walk.feed(ev.line, ev.seq)
    return out


def _is_undo(line: str) -> bool:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(obj, dict) and obj.get("type") == "call" and obj.get("call") == "undo"


def _in_shot(tab: Table) -> bool:
    state = tab.replay.state
    return bool(getattr(state, "in_shot", False)) and not getattr(state, "finished", False)


def _epoch(tab: Table, t: float) -> float:
    """The host's time (epoch) of table time ``t``, by the table's clock now."""
    return time.time() - (tab.table_time() - t)


def _last_line_t(tab: Table) -> float:
    for ev in reversed(tab.log):
        with contextlib.suppress(json.JSONDecodeError, KeyError, TypeError, ValueError):
            return float(json.loads(ev.line)["t"])
    return 0.0


