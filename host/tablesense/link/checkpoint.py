"""Where a table's link stands, so that a host killed mid-match resumes without a loss
or a double.

A **checkpoint** is taken at a quiet point of the translator: every frame fed so far
has given all its events (no goal waits for its colour, nothing is held for reordering,
the last activity has had its ``rest``). It names the next device seq wanted and the
translator's clock. The pub saves it in the match log after the events before it are
committed (one queue, in order). A restarted host asks the board to replay from that
seq; the events those frames make again, up to where the log had got, are already in
the log and are skipped (``Dedupe``): the log's lines of the table's own events after
the checkpoint, compared line for line. A board that rebooted while the host was down
(its HELLO's uptime is below the checkpoint's) no longer holds the frames of its
previous boot: they are reported lost, and the new boot is read from its start, its
table times going on after the latest the log holds (``logged_us``). So is one whose boot
began after the checkpoint's by the host's raw clock (``boot_s``, link/hostclock.py), also
where its uptime and frame count are past the checkpoint's.

A reboot the host sees is a checkpoint too (seq 0 of the new boot), also while a shot
rolls: the old boot's held events are released at the reboot, and the shot's last
activity is kept (``activity_us``) for the ``rest`` still to come. If that rest is the last
line logged after the checkpoint (``logged_rest``) and the board rebooted again while the
host was down, the restarted host does not make it again (the pub skips nothing then:
none of the old boot's frames comes again; the season soak, seed 9455).
"""

from __future__ import annotations

import json
import math
from collections import Counter, deque
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..errors import TablesenseError

SEQ_MOD = 1 << 24


#: the table events a shot's activity makes (translate.py): a ``rest`` ends it
SENSED = frozenset({"pin", "cushion", "goal", "pocket"})

class CheckpointError(TablesenseError):
    """A saved checkpoint that cannot be read (another version, a damaged row)."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    seq: int  # the next device seq wanted: the board replays from here
    uptime_us: int  # the device time reached, raw: a HELLO below it means the board rebooted
    offset_us: int  # the translator's offset (the board rebooted earlier in the match)
    now_us: int  # the translator's device time (offset applied)
    # the latest table time of the events logged after the checkpoint (before a crash), not
    # saved: the pub reads it from the log. A board that rebooted while the host was down
    # goes on after it, not after ``now_us`` (table time never goes back in the log)
    logged_us: int = field(default=0, compare=False)
    # the last of those lines is a ``rest`` (not saved either): the shot ``activity_us`` kept
    # had its rest logged; a board that rebooted while the host was down does not make it again
    logged_rest: bool = field(default=False, compare=False)
    # the latest table time of the sensor events logged after the checkpoint's last ``rest``
    # (not saved either; -1: none): a shot logged with no rest yet. A board that rebooted while
    # the host was down replays none of it: its rest comes at the quiet time after this
    logged_activity_us: int = field(default=-1, compare=False)
    # the latest table time of the sensor events logged after the checkpoint that a frame
    # stamped (not saved either; -1: none): a ``late`` one, a pin a HELLO's levels made or the
    # level scan timed, is left out. A boot going on has a frame from the checkpoint's seq on
    # stamped at it (less the offset), which it replays; a board without a boot tag that
    # replays none there booted again while the host was down (plausible.py, ``Replayed``)
    logged_stamped_us: int = field(default=-1, compare=False)
    # a checkpoint taken at a reboot while a shot rolls: the old boot's last activity (device
    # time with the offset), its ``rest`` still to come; -1: the table was quiet
    activity_us: int = -1
    # when the board's boot began, on the host's raw monotonic clock (never before its true
    # start), when the checkpoint was taken, and the machine boot both were read in
    # (link/hostclock.py): a restarted host on the same machine boot tells a later boot by them
    boot_s: float | None = field(default=None, compare=False)
    at_s: float = field(default=0.0, compare=False)
    machine: str = field(default="", compare=False)
    # the boot tag of the boot the checkpoint's frames are of (firmware 0.4; None: not said,
    # or not known yet at a reboot's checkpoint): a restarted host knows that boot going on,
    # or a later one, by it, whatever the seq, the uptime and the host's clock say
    boot_tag: int | None = field(default=None, compare=False)

    def to_json(self) -> str:
        saved = asdict(self)
        del saved["logged_us"], saved["logged_rest"], saved["logged_activity_us"], saved["logged_stamped_us"]
        if self.activity_us < 0:
            del saved["activity_us"]
        if self.boot_s is None or not self.machine:
            for k in ("boot_s", "at_s", "machine"):
                del saved[k]
        if self.boot_tag is None:
            del saved["boot_tag"]
        return json.dumps(saved, separators=(",", ":"))

    def boot_began(self, machine: str) -> tuple[float, float] | None:
        """(``boot_s``, ``at_s``) if read on the machine boot ``machine`` (else None: a
        machine restarted since has another raw clock)."""
        if self.boot_s is None or not self.machine or self.machine != machine:
            return None
        return self.boot_s, self.at_s

    def after_lines(self, lines: list[str]) -> Checkpoint:
        """This checkpoint with ``logged_us``, ``logged_rest``, ``logged_activity_us`` and
        ``logged_stamped_us`` from the table's event lines logged after it."""
        latest, rest, activity, stamped = 0, False, -1, -1
        for line in lines:
            try:
                obj = json.loads(line)
                t = obj.get("t")
            except (ValueError, AttributeError):
                continue
            rest = obj.get("type") == "rest"
            if rest:
                activity = -1
            if isinstance(t, (int, float)) and not isinstance(t, bool) and 0 <= t < 1e12:
                latest = max(latest, round(t * 1e6))
                if obj.get("type") in SENSED:
                    activity = max(activity, round(t * 1e6))
                    if obj.get("late") is not True:
                        stamped = max(stamped, round(t * 1e6))
        return replace(self, logged_us=latest, logged_rest=rest, logged_activity_us=activity,
                       logged_stamped_us=stamped)

    @classmethod
    def from_json(cls, text: str) -> Checkpoint:
        try:
            d: dict[str, Any] = json.loads(text)
            cp = cls(**{k: int(d[k]) for k in ("seq", "uptime_us", "offset_us", "now_us")},
                     activity_us=int(d.get("activity_us", -1)))
            if "boot_s" in d:  # a checkpoint saved before these were kept has none
                boot_s, at_s = float(d["boot_s"]), float(d["at_s"])
                if not (math.isfinite(boot_s) and math.isfinite(at_s)):
                    raise ValueError("a host time that is not a number")
                cp = replace(cp, boot_s=boot_s, at_s=at_s, machine=str(d["machine"]))
            if "boot_tag" in d:  # a checkpoint of firmware before 0.4, or saved before, has none
                tag = d["boot_tag"]
                if not isinstance(tag, int) or isinstance(tag, bool) or not 0 <= tag <= 0xFFFFFFFF:
                    raise ValueError(f"a boot tag that is no u32: {tag!r}")
                cp = replace(cp, boot_tag=tag)
        except (ValueError, TypeError, KeyError) as exc:
            why = f"the saved link checkpoint cannot be read ({exc}): {text[:80]!r}"
            raise CheckpointError(why) from None
        if not 0 <= cp.seq < SEQ_MOD or min(cp.uptime_us, cp.offset_us, cp.now_us) < 0 or cp.activity_us < -1:
            raise CheckpointError(f"the saved link checkpoint is out of range: {text[:80]!r}")
        return cp


class Dedupe:
    """The table's own event lines logged after the checkpoint: an event made again from
    the replayed frames that matches one of them (line for line) is already in the log.

    Given with their rows (``rows``), it also says where a checkpoint taken during the
    replay stands in the log (``row``): after the latest logged line the replay has made
    again, not after the log's last row. A checkpoint saved after the log's last row while
    the replay was still behind it named an older seq than the events logged before it:
    the next restarted host replayed from there, found none of them after the row, and
    logged them again (a kegle match killed 17 times: 225 events for 186)."""

    def __init__(self, lines: list[str], rows: list[int] | None = None, row: int = 0) -> None:
        self._left: Counter[str] = Counter(lines)
        self._rows: dict[str, deque[int]] = {}
        for line, r in zip(lines, rows or ()):
            self._rows.setdefault(line, deque()).append(r)
        self._row = row  # the checkpoint's row: nothing of the replay made again yet

    def seen(self, line: str) -> bool:
        """True (and counted off) if ``line`` is one of those already logged."""
        if self._left[line] > 0:
            self._left[line] -= 1
            rows = self._rows.get(line)
            if rows:
                self._row = max(self._row, rows.popleft())
            return True
        return False

    @property
    def pending(self) -> int:
        return sum(self._left.values())

    @property
    def row(self) -> int:
        """The log row a checkpoint taken now stands after, while lines are ``pending``:
        the latest of those made again (the lines after it are still to come)."""
        return self._row
