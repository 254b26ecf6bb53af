"""The soak's invariants: each a plain function over what the run left behind (the pubs'
match logs, the boards' record of every frame they wrote, the referee's acknowledged
calls, every HTTP answer, every process's stderr, the league's database) that returns
what broke, one line per break (an empty list: it holds).

The sensor events are checked against the truth of the board's own frames, not against
the host's translation of them: each frame the board wrote (``board.Boot.frames``, read
off the wire by the relay also while the cable was cut) makes at most one sensor event
(an ACTIVE edge of a goal or pocket beam with the colour read after it, a pin's edge, a
cushion's pulses; the motion sensor only keeps the table awake), as docs/events.md and
``link/translate.py`` define them. An event the board wrote must be in the pub's log
once, in order, or inside a range the pub said lost (``incidents``) for a board that no
longer held it.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablesense.table.profile import TableProfile

from .board import BOARD_KEEPS, Boot

COLOUR_WAIT_US = 50_000  # link/translate.py: a colour read later than this names no ball
#: frames short of the board's store a lost range must be, to count as still held: the
#: board's progress is sampled from the frames it wrote, the pub's time from its clock
HELD_MARGIN = 64


# --- reading what the run left ------------------------------------------------------------

@dataclass(frozen=True)
class Logged:
    row: int
    match_id: int | None
    obj: dict[str, Any]
    at: float

    @property
    def type(self) -> str:
        return str(self.obj.get("type"))


def _open(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)


def sensor_events(db: Path, table: str) -> list[Logged]:
    """The table's own events in the pub's log, in the order they were written."""
    con = _open(db)
    try:
        rows = con.execute("SELECT id, match_id, line, at FROM events WHERE table_id=? AND source='table' "
                           "ORDER BY id", (table,)).fetchall()
    finally:
        con.close()
    return [Logged(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]


def incidents(db: Path, table: str) -> list[tuple[float, str]]:
    con = _open(db)
    try:
        rows = con.execute("SELECT at, text FROM incidents WHERE table_id=? AND kind='lost' ORDER BY id",
                           (table,)).fetchall()
    finally:
        con.close()
    return [(float(a), str(t)) for a, t in rows]


# --- what the board wrote -------------------------------------------------------------------

@dataclass(frozen=True)
class Expected:
    boot: int
    seq: int
    t_us: int
    key: tuple[Any, ...]
    wall: float


def expected_events(boots: list[Boot], profile: TableProfile) -> list[Expected]:
    """The sensor events the board's frames make, boot after boot, each in device-time order."""
    chans = {c.ch: c for c in profile.channels}
    out: list[Expected] = []
    for b in boots:
        frames = [b.frames[s] for s in sorted(b.frames)]
        mine: list[Expected] = []
        for i, f in enumerate(frames):
            c = chans.get(f.ch)
            if c is None:
                continue
            key: tuple[Any, ...] | None = None
            if f.kind == "event" and c.kind in ("goal", "pocket") and f.value & 1:
                ball = None
                if c.colour:
                    for g in frames[i + 1:]:
                        if g.ch != f.ch:
                            continue
                        if g.kind == "reading":
                            if g.t_us - f.t_us <= COLOUR_WAIT_US:
                                ball = profile.colour_of(g.value)
                            break
                        if g.kind == "event" and g.value & 1:
                            break
                key = (c.kind, str(c.index) if c.kind == "goal" else int(c.index), ball)
            elif f.kind == "event" and c.kind == "pin":
                key = ("pin", int(c.index), "down" if f.value & 1 else "up")
            elif f.kind == "count" and c.kind == "cushion" and f.value:
                key = ("cushion", int(c.index))
            if key is not None:
                mine.append(Expected(b.number, f.seq, f.t_us, key, f.wall))
        mine.sort(key=lambda e: (e.t_us, e.seq))
        out += mine
    return out


def logged_key(obj: dict[str, Any]) -> tuple[Any, ...] | None:
    kind = obj.get("type")
    if kind == "goal":
        return ("goal", str(obj.get("goal")), obj.get("ball"))
    if kind == "pocket":
        return ("pocket", obj.get("pocket"), obj.get("ball"))
    if kind == "pin":
        return ("pin", obj.get("pin"), obj.get("state"))
    if kind == "cushion":
        return ("cushion", obj.get("cushion"))
    return None


# --- what the pub said it lost ---------------------------------------------------------------

_RANGE = re.compile(r"lost (\d+) frames \(seq (\d+)\.\.(\d+)\): (.*)")
_SINCE = re.compile(r"from seq (\d+) of its previous boot on is lost")  # (an open range)


@dataclass
class LostRange:
    at: float
    text: str
    boot: int
    first: int
    last: int | None  # None: to the end of the boot (and every boot after it up to ``upto``)
    upto: int  # boots before this one, after ``boot``, count as lost whole

    def covers(self, e: Expected) -> bool:
        if e.boot == self.boot:
            return e.seq >= self.first and (self.last is None or e.seq <= self.last)
        return self.last is None and self.boot < e.boot < self.upto


def lost_ranges(said: list[tuple[float, str]], boots: list[Boot], host_stops: list[float] | None = None
                ) -> tuple[list[LostRange], list[str]]:
    """The pub's ``lost`` incidents as seq ranges of the boot they are about; and the
    incidents that cannot be placed. ``host_stops``: when the pub's host was killed or
    stopped (a board that rebooted "while the host was down" rebooted after the last of them)."""
    out: list[LostRange] = []
    odd: list[str] = []
    stops = sorted(host_stops or ())
    for at, text in said:
        current = next((b for b in reversed(boots) if b.started <= at), None)
        if current is None:
            odd.append(f"{text} (said before the board was on)")
            continue
        m = _RANGE.search(text)
        if m:
            first, last, why = int(m.group(2)), int(m.group(3)), m.group(4)
            restarted = "restart" in why
            candidates = [b for b in reversed(boots) if b.started <= at + 1.0]
            if restarted:
                candidates = [b for b in candidates if b.number < current.number] or candidates
            top = next((b for b in candidates if _top(b, at) >= last), candidates[0])
            out.append(LostRange(at, text, top.number, first, last, top.number + 1))
            continue
        m = _SINCE.search(text)
        if m:
            first = int(m.group(1))
            down = [t for t in stops if t <= at] if "while the host was down" in text else []
            # (else the line was out when the board restarted: the boot before the new one)
            # the boot on when the host last went down, or before it: the newest the relay had passed
            # on to a host up to seq first - 1 by then (killed twice, the host's checkpoint can be of
            # the boot before a short one that never got that far: seed 51207, zaal-2; a boot begun
            # just before the kill had written nothing by it, whatever it wrote after: seed 9137, hoek-2)
            then = next((b for b in reversed(boots) if down and b.started <= down[-1]
                         and b.heard_seq(min(at, down[-1])) >= first - 1), None)
            if then is None or then.number >= current.number:
                # the boot the host last heard: the newest before the one now on that the relay had
                # passed on to a host up to seq first - 1 (a board rebooted twice within one cut has
                # a boot between, unheard, whose seqs may or may not have got that far: seed 26662, a
                # short one; seed 9811, kroeg-1, one of 30 frames: it is lost whole, as the boots after)
                before = [b for b in reversed(boots) if b.number < current.number]
                then = next((b for b in before if b.heard_seq(at) >= first - 1), None) \
                    or next((b for b in before if _top(b, at) >= first - 1), None) \
                    or next(iter(before), current)
            out.append(LostRange(at, text, then.number, first, None, current.number))
            continue
        odd.append(text)
    return out, odd


def _top(b: Boot, at: float) -> int:
    return b.top_seq(at if b.ended is None else min(at, b.ended + 5.0))


# --- aligning the log with the board's frames ------------------------------------------------

#: the most differences the exact alignment works through before it falls back to difflib
MAX_DIFFERENCES = 4000


def matched_pairs(a: list[Any], b: list[Any]) -> list[tuple[int, int]]:
    """Index pairs (i, j) with ``a[i] == b[j]`` of a longest common subsequence of ``a`` and
    ``b`` (Myers' O(ND) difference algorithm: the fewest events missing and extra). The
    keys repeat (a cushion hit after a cushion hit), where difflib's longest-block-first
    pairing can mismatch a whole run for one doubled event. Beyond ``MAX_DIFFERENCES``
    differences, difflib's pairing."""
    n, m = len(a), len(b)
    v: dict[int, int] = {1: 0}
    trace: list[dict[int, int]] = []
    for d in range(min(n + m, MAX_DIFFERENCES) + 1):
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[k - 1] < v[k + 1]):
                x = v[k + 1]
            else:
                x = v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return _backtrack(trace, n, m)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(i + t, j + t) for i, j, size in sm.get_matching_blocks() for t in range(size)]


def _backtrack(trace: list[dict[int, int]], n: int, m: int) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        v = trace[d]
        k = x - y
        prev_k = k + 1 if k == -d or (k != d and v[k - 1] < v[k + 1]) else k - 1
        prev_x = v[prev_k]
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:
            x -= 1
            y -= 1
            pairs.append((x, y))
        x, y = prev_x, prev_y
    pairs.reverse()
    return pairs


#: how far a logged time may be from the board's stamp plus the boot's offset (µs): the log
#: keeps table times to the microsecond
TIME_SLACK_US = 2
#: how many of the board's events either side of its key-only partner a logged event votes over
OFFSET_WINDOW = 64
#: a frame is logged after the relay read it (the host gets it from the relay): seconds of
#: clock slack allowed between the two
CAUSE_SLACK_S = 0.05
#: how long after the board wrote a frame its event may be logged (a replay after a cut, a
#: host killed and started again, a log that refuses writes, a pub behind on a loaded machine:
#: 30 s in make test's season at load 20): a logged event also votes over the board's events
#: of its key written this long before it, whatever the key-only pairing
LOG_DELAY_S = 60.0


def _us(g: Logged) -> int:
    return round(float(g.obj.get("t", 0.0)) * 1e6)


def boot_offsets(want: list[Expected], logged: list[Logged]) -> dict[int, tuple[int, float]]:
    """Per boot, what the log adds to the board's stamps (µs), and the weight of the logged
    events that voted for it: the pub's table time goes on across reboots of the board
    (link/translate.py), by one offset per boot. Each logged event votes for the offsets to
    the board's events of its key written up to ``LOG_DELAY_S`` before it was logged, and
    to those near the one its key alone pairs it with; the more the nearer in wall time it
    was logged to when the board wrote it. Per boot, the offset with the most votes is the
    boot's (the stamps are microseconds: a wrong offset gathers votes only by chance).

    The wall-time votes anchor a boot of a few events: the key-only pairing ignores time,
    and a range said lost before it (a hundred events of the boot before, gone in a reboot)
    can pair its events with others of their key far back in the board's list, out of
    ``OFFSET_WINDOW``; the boot then had only a stray vote, a wrong offset, and its events,
    logged once at the right time, were taken for lost and for made up (make test's season,
    seed 11: a practice burst cut, the board rebooted before replaying it, then a boot of
    three cushion hits)."""
    votes: dict[int, dict[int, float]] = {}
    keys = [logged_key(g.obj) for g in logged]
    near: dict[int, set[int]] = {j: set() for j in range(len(logged))}  # logged -> board events it votes over
    for i, j in matched_pairs([e.key for e in want], keys):
        near[j].update(range(max(0, i - OFFSET_WINDOW), min(len(want), i + OFFSET_WINDOW + 1)))
    by_key: dict[tuple[Any, ...], list[tuple[float, int]]] = {}
    for i, e in enumerate(want):
        by_key.setdefault(e.key, []).append((e.wall, i))
    for written in by_key.values():
        written.sort()
    for j, g in enumerate(logged):
        written = by_key.get(keys[j], []) if keys[j] is not None else []
        lo = bisect.bisect_left(written, (g.at - LOG_DELAY_S, -1))
        hi = bisect.bisect_right(written, (g.at + CAUSE_SLACK_S, len(want)))
        near[j].update(i for _, i in written[lo:hi])
        t = _us(g)
        for i in near[j]:
            e = want[i]
            if e.key == keys[j] and g.at >= e.wall - CAUSE_SLACK_S:  # not logged before it was written
                per = votes.setdefault(e.boot, {})
                per[t - e.t_us] = per.get(t - e.t_us, 0.0) + 1.0 / (1.0 + abs(g.at - e.wall))
    return {boot: max(per.items(), key=lambda kv: kv[1]) for boot, per in votes.items()}


def timed_pairs(want: list[Expected], logged: list[Logged]) -> tuple[list[tuple[int, int]], list[int]]:
    """The board's events paired with the logged ones by key and time: a logged event is
    the board's event of its key whose stamp plus its boot's offset is its table time, and
    that was written before it was logged (of the boot with the most support, should two
    explain it), so that an event doubled next
    to another of the same key, or lost next to its twin, is told apart. Returns the pairs
    in order, and for each logged event the board's event it is (-1 and below: none)."""
    off = boot_offsets(want, logged)
    support = {boot: votes for boot, (_, votes) in off.items()}
    index: dict[tuple[Any, ...], list[tuple[int, int]]] = {}  # (key, table time) -> [(boot, i)]
    for i, e in enumerate(want):
        if e.boot in off:
            index.setdefault((e.key, e.t_us + off[e.boot][0]), []).append((e.boot, i))
    whose: list[int] = []
    taken: set[int] = set()
    for g in logged:
        key, t = logged_key(g.obj), _us(g)
        found = [c for d in range(-TIME_SLACK_US, TIME_SLACK_US + 1) for c in index.get((key, t + d), ())
                 if g.at >= want[c[1]].wall - CAUSE_SLACK_S]
        found.sort(key=lambda c: (-support[c[0]], c[1]))
        # the board's events of one key at one stamp (a scan that saw a pocket twice, seed 7710):
        # each logged one is the next of them not taken yet; all taken, it is one logged again
        free = [c for c in found if c[1] not in taken]
        pick = free[0] if free and (not found or support[free[0][0]] == support[found[0][0]]) else \
            (found[0] if found else None)
        if pick is not None:
            taken.add(pick[1])
        whose.append(pick[1] if pick is not None else -1 - len(whose))  # -1, -2 ...: the board wrote none
    return matched_pairs(list(range(len(want))), whose), whose


# --- the invariants ----------------------------------------------------------------------------

@dataclass
class SensorFigures:
    expected: int = 0
    logged: int = 0
    matched: int = 0
    said_lost: int = 0
    silently_lost: int = 0
    doubled: int = 0
    invented: int = 0
    resync: int = 0
    lost_said_held: int = 0
    out_of_order: int = 0
    doubled_shifted: int = 0  # of the invented: the logged ones again, at another time
    #: wall times of the frames behind each break (to find the fault that caused it)
    break_times: list[float] = field(default_factory=list)


def check_sensor_events(name: str, logged: list[Logged], boots: list[Boot], profile: TableProfile,
                        said: list[tuple[float, str]], figures: SensorFigures | None = None,
                        host_stops: list[float] | None = None) -> list[str]:
    """Every sensor event the board wrote is in the pub's log exactly once and in order, or
    inside a range said lost; and a range is said lost only where the board no longer held it."""
    fig = figures if figures is not None else SensorFigures()
    broken: list[str] = []
    want = expected_events(boots, profile)
    got = [(g, logged_key(g.obj)) for g in logged]
    got = [(g, k) for g, k in got if k is not None]
    ranges, odd = lost_ranges(said, boots, host_stops)
    fig.expected += len(want)
    fig.logged += len(got)
    for text in odd:
        broken.append(f"{name}: a 'lost' incident that names no range of frames: {text[:160]}")
    # only then: no range said lost that the board still held
    by_number = {b.number: b for b in boots}
    for r in ranges:
        b = by_number.get(r.boot)
        if b is None or r.last is None:
            continue
        held = _top(b, r.at) - r.first < BOARD_KEEPS - HELD_MARGIN
        if b.alive_at(r.at - 2.0) and b.alive_at(r.at) and held:
            fig.lost_said_held += 1
            fig.break_times.append(r.at)
            broken.append(f"{name}: said lost while the board still held them (boot {b.number}, its newest "
                          f"seq then {_top(b, r.at)}, keeps {BOARD_KEEPS}): {r.text[:160]}")
    pairs, whose = timed_pairs(want, [g for g, _ in got])
    fig.matched += len(pairs)
    paired_want = {i for i, _ in pairs}
    paired_got = {j for _, j in pairs}
    # an event in the log once, but not where the board's order puts it
    moved = {j: whose[j] for j in range(len(got)) if j not in paired_got and whose[j] >= 0
             and whose[j] not in paired_want}
    fig.out_of_order += len(moved)
    moved_want = set(moved.values())
    missing = [e for i, e in enumerate(want) if i not in paired_want and i not in moved_want]
    extra = [x for j, x in enumerate(got) if j not in paired_got and j not in moved]
    if moved:
        first = got[min(moved)][0]
        broken.append(f"{name}: {len(moved)} sensor event(s) logged once but out of the board's "
                      f"(device-time) order; first: {first.obj} (row {first.row})")
        fig.break_times += [got[j][0].at for j in moved]
    logged_at = {(k, _us(got[j][0])) for _, j in pairs for k in [got[j][1]]}
    silent: list[Expected] = []
    for e in missing:
        if any(r.covers(e) for r in ranges):
            fig.said_lost += 1
        else:
            silent.append(e)
    fig.silently_lost += len(silent)
    fig.break_times += [e.wall for e in silent]
    if silent:
        runs = _runs(silent)
        broken.append(f"{name}: {len(silent)} sensor event(s) the board wrote are not in the log and were "
                      f"not said lost: " + "; ".join(runs[:6]) + (" ..." if len(runs) > 6 else ""))
    def again(g: Logged, k: tuple[Any, ...]) -> bool:  # the same event as one logged: same key, same time
        t = _us(g)
        return any((k, t + d) in logged_at for d in range(-TIME_SLACK_US, TIME_SLACK_US + 1))

    resync = [(g, k) for g, k in extra if k[0] == "pin" and g.obj.get("late") and ranges]
    doubled = [(g, k) for g, k in extra if (g, k) not in resync and again(g, k)]
    invented = [(g, k) for g, k in extra if (g, k) not in doubled and (g, k) not in resync]
    fig.doubled += len(doubled)
    fig.resync += len(resync)
    fig.invented += len(invented)
    fig.break_times += [g.at for g, _ in doubled + invented]
    if doubled:
        broken.append(f"{name}: {len(doubled)} sensor event(s) in the log once too often: "
                      + ", ".join(f"{k} at t={g.obj.get('t')} (row {g.row})" for g, k in doubled[:5]))
    if invented:
        broken.append(f"{name}: {len(invented)} sensor event(s) in the log at a time the board never wrote "
                      f"them (logged twice at two times, or made up): "
                      + ", ".join(f"{g.obj} (row {g.row})" for g, _ in invented[:5]))
    shifted = _shifted_doubles(invented, logged_at)
    if shifted:
        shift, n = shifted
        fig.doubled_shifted += n
        broken.append(f"{name}: {n} of them logged twice, the second time {shift / 1e6:+.6f} s off the first "
                      f"(the same events made again with another clock)")
    return broken


def _shifted_doubles(extra: list[tuple[Logged, tuple[Any, ...]]], logged_at: set[tuple[Any, int]]
                     ) -> tuple[int, int] | None:
    """Extra logged events that are the logged ones again, shifted by one time: (the shift in
    µs, how many), for the shift that explains the most of them (None: none explains two)."""
    shifts: dict[int, int] = {}
    at_key: dict[tuple[Any, ...], list[int]] = {}
    for k, t in logged_at:
        at_key.setdefault(k, []).append(t)
    for g, k in extra[:400]:
        t = _us(g)
        for t0 in at_key.get(k, ()):
            if abs(t - t0) < 600_000_000:
                shifts[t - t0] = shifts.get(t - t0, 0) + 1
    if not shifts:
        return None
    shift, _ = max(shifts.items(), key=lambda kv: kv[1])
    n = sum(1 for g, k in extra if (k, _us(g) - shift) in logged_at)
    return (shift, n) if n >= 2 else None


def _runs(events: list[Expected]) -> list[str]:
    """Missing events as runs: 'boot 2 seq 100..130 (12 events, written 12:00:01.2)'."""
    events = sorted(events, key=lambda e: (e.boot, e.seq))
    out: list[str] = []
    start = prev = events[0]
    n = 1
    for e in events[1:]:
        if e.boot == prev.boot and e.seq - prev.seq < 40:
            prev, n = e, n + 1
            continue
        out.append(_run(start, prev, n))
        start = prev = e
        n = 1
    out.append(_run(start, prev, n))
    return out


def _run(a: Expected, b: Expected, n: int) -> str:
    import time as _time

    when = _time.strftime("%H:%M:%S", _time.localtime(a.wall)) + f".{int(a.wall * 10) % 10}"
    return f"boot {a.boot} seq {a.seq}..{b.seq} ({n} events, written {when})"


def check_times_in_order(name: str, logged: list[Logged]) -> list[str]:
    """The table's sensor events in the log go forward in table time."""
    back = [(a, b) for a, b in itertools.pairwise(logged) if float(b.obj["t"]) < float(a.obj["t"])]
    if not back:
        return []
    a, b = back[0]
    return [f"{name}: table time goes back {len(back)} time(s) in the log; first: row {b.row} t={b.obj['t']} "
            f"after row {a.row} t={a.obj['t']}"]


def activity_clusters(boots: list[Boot], profile: TableProfile) -> list[tuple[int, int, int, bool]]:
    """The board's shots as its frames tell them: per boot, runs of activity (every edge, every
    count of pulses) with less than the profile's quiet time between two frames; (boot,
    first seq, last seq, ends the boot)."""
    quiet = profile.rest_quiet_ms * 1000
    known = {c.ch for c in profile.channels}
    out: list[tuple[int, int, int, bool]] = []
    for b in boots:
        act = sorted((f.t_us, f.seq) for f in b.frames.values()
                     if f.ch in known and (f.kind == "event" or (f.kind == "count" and f.value)))
        start = 0
        for i in range(1, len(act) + 1):
            if i == len(act) or act[i][0] - act[i - 1][0] >= quiet:
                seqs = [s for _, s in act[start:i]]
                out.append((b.number, min(seqs), max(seqs), i == len(act)))
                start = i
    return out


def align(want: list[Expected], logged: list[Logged]) -> dict[int, int]:
    """Which logged event (index into ``logged``) is which expected one (index into ``want``),
    by key and time (``timed_pairs``), as the first invariant pairs them. Not by key alone: a
    range said lost slides a key-only pairing, which then gives a shot's events to rows of a
    later shot (kroeg-2, seed 4141: boot 5's shot at rows 254-255, rest at 256, paired with
    row 553, a cushion hit in the middle of another shot, and called a shot with no rest)."""
    keyed = [j for j, g in enumerate(logged) if logged_key(g.obj) is not None]
    pairs, _ = timed_pairs(want, [logged[j] for j in keyed])
    return {i: keyed[j] for i, j in pairs}


def check_shots_ended(name: str, logged: list[Logged], boots: list[Boot], profile: TableProfile) -> list[str]:
    """Every shot is ended by its rest: the last sensor event of each of the board's shots
    (a run of activity followed by the quiet time) that is in the log has a rest after it
    before the next shot's events; and the log ends with a rest. (A shot cut short by a
    reboot of the board may go on in the next boot: it needs no rest of its own.)"""
    broken: list[str] = []
    want = expected_events(boots, profile)
    pairs = align(want, logged)
    index = {(e.boot, e.seq): i for i, e in enumerate(want)}
    last_boot = boots[-1].number if boots else 0
    unended = []
    for boot, first, last, ends_boot in activity_clusters(boots, profile):
        if ends_boot and boot != last_boot:
            continue
        mine = [index[(boot, s)] for s in range(first, last + 1) if (boot, s) in index]
        seen = [pairs[i] for i in mine if i in pairs]
        if not seen:
            continue
        j = max(seen)
        nxt = logged[j + 1].type if j + 1 < len(logged) else None
        if nxt != "rest":
            unended.append((boot, first, last, logged[j]))
    if unended:
        boot, first, last, g = unended[0]
        broken.append(f"{name}: {len(unended)} shot(s) with no rest after their last event in the log; "
                      f"first: boot {boot} seq {first}..{last}, its last event {g.obj} (row {g.row})")
    # a rest ends a shot: it comes the quiet time after the shot's last activity, so two rests
    # closer than half of it have no shot between them
    rests = [g for g in logged if g.type == "rest"]
    half = profile.rest_quiet_ms / 2000
    close = [(a, b) for a, b in itertools.pairwise(rests)
             if 0 <= float(b.obj["t"]) - float(a.obj["t"]) < half]
    if close:
        a, b = close[0]
        broken.append(f"{name}: {len(close)} rest(s) less than {half:g} s after the rest before them, "
                      f"with no shot between; first: row {b.row} t={b.obj['t']} after row {a.row} "
                      f"t={a.obj['t']}")
    return broken


# --- the referee ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ack:
    """A referee request the pub acknowledged (HTTP 200)."""

    table: str
    kind: str  # setup | call
    body: dict[str, Any]
    match: int | None  # the match id the pub answered (setup)
    at: float


def referee_lines(db: Path, table: str) -> list[tuple[int | None, dict[str, Any]]]:
    con = _open(db)
    try:
        rows = con.execute("SELECT match_id, line FROM events WHERE table_id=? AND source='referee' "
                           "ORDER BY id", (table,)).fetchall()
    finally:
        con.close()
    return [(m, json.loads(line)) for m, line in rows]


def check_acknowledged_calls(name: str, acks: list[Ack], lines: list[tuple[int | None, dict[str, Any]]]
                             ) -> list[str]:
    """Every referee request the pub answered with 200 is in its log, in the order made."""
    def same(ack: Ack, obj: dict[str, Any]) -> bool:
        if obj.get("type") != ack.kind:
            return False
        return all(obj.get(k) == v for k, v in ack.body.items())

    broken: list[str] = []
    i = 0
    for ack in acks:
        j = i
        while j < len(lines) and not same(ack, lines[j][1]):
            j += 1
        if j == len(lines):
            broken.append(f"{name}: an acknowledged {ack.kind} is not in the log (after the "
                          f"{i}th referee line): {ack.body}")
            continue
        if ack.kind == "setup" and ack.match is not None and lines[j][0] != ack.match:
            broken.append(f"{name}: the set-up acknowledged as match {ack.match} is logged as match "
                          f"{lines[j][0]}")
        i = j + 1
    return broken


# --- the league --------------------------------------------------------------------------------

def carom_logs(db: Path) -> list[tuple[str, list[str]]]:
    """(match id as the league names it, effective lines) of every carom match in a pub's log,
    finished or not (whether it finished is for its log to say, when replayed)."""
    from tablesense.store import Store, effective_lines

    store = Store(str(db))
    try:
        rows = store.db.execute("SELECT id, table_id, started FROM matches WHERE game='carom' "
                                "ORDER BY id").fetchall()
        out = []
        for mid, table, started in rows:
            lines = [e.line for e in effective_lines(store.events(mid))]
            out.append((f"{table}:{round(started * 1000)}", lines))
        return out
    finally:
        store.close()


def direct_standings(league_db: Path, competition: str, pub_dbs: dict[str, Path]) -> tuple[list[dict], int]:
    """The standings computed directly from the pubs' logs with the league's own code: every
    carom match of every pub's log replayed (``result_from_lines``; those it finds finished
    count), ``standings`` over the league's players. Returns the rows and how many matches
    went in."""
    from tablesense.league import LeagueStore, NotACompetitionMatch, result_from_lines, standings

    with LeagueStore(str(league_db)) as store:
        players = store.players(store.competition(competition))
    members = {p.name for p in players}
    results = []
    for pub, db in sorted(pub_dbs.items()):
        for mid, lines in carom_logs(db):
            try:
                r = result_from_lines(lines, source=f"{pub}:{mid}")
            except NotACompetitionMatch:
                continue
            if r.p1 in members and r.p2 in members and r.p1 != r.p2:
                results.append(r)
    return [r.to_dict() for r in standings(players, results)], len(results)


def league_standings(league_db: Path, competition: str) -> tuple[list[dict], int]:
    """The league's own standings of the competition, as ``league standings`` shows them."""
    from tablesense.league import LeagueStore, standings

    with LeagueStore(str(league_db)) as store:
        comp = store.competition(competition)
        results = store.results(comp)
        return [r.to_dict() for r in standings(store.players(comp), results)], len(results)


def check_league(league_db: Path, competition: str, pub_dbs: dict[str, Path]) -> list[str]:
    """The league's standings are those computed directly from the pubs' match logs."""
    want, n_want = direct_standings(league_db, competition, pub_dbs)
    got, n_got = league_standings(league_db, competition)
    if want == got:
        return []
    diff = []
    wmap = {r["name"]: r for r in want}
    for r in got:
        w = wmap.get(r["name"])
        if w != r:
            diff.append(f"{r['name']}: league {_short(r)} vs logs {_short(w) if w else None}")
    return [f"the league's standings ({n_got} results) differ from the pubs' logs "
            f"({n_want} finished matches): "
            + "; ".join(diff[:6])]


def _short(r: dict[str, Any]) -> str:
    return (f"played {r.get('played')} points {r.get('points')} caroms {r.get('caroms')} "
            f"innings {r.get('innings')}")


# --- answers and stderr -------------------------------------------------------------------------

def check_no_5xx(answers: Iterable[tuple[str, str, int]]) -> list[str]:
    """No web server answered 5xx: (server, request, status) of every answer the soak got."""
    bad = [(s, r, c) for s, r, c in answers if c >= 500]
    if not bad:
        return []
    by: dict[tuple[str, int], list[str]] = {}
    for s, r, c in bad:
        by.setdefault((s, c), []).append(r)
    return [f"{s} answered {c} {len(rs)} time(s), e.g. {rs[0][:120]}" for (s, c), rs in sorted(by.items())]


def check_no_traceback(stderrs: dict[str, str]) -> list[str]:
    """No process wrote a Python traceback (or a MicroPython one) on stderr."""
    out = []
    for name, text in sorted(stderrs.items()):
        n = text.count("Traceback (most recent call last)")
        if not n:
            continue
        lines = text[text.find("Traceback (most recent call last)"):].splitlines()[1:80]
        last = next((x for x in lines if x and not x.startswith(" ")), "?")
        out.append(f"{name}: {n} traceback(s) on stderr; the first: {last[:200]}")
    return out
