"""Whatever the order of what the board and the host do, every frame a board boot wrote is
logged once or said lost by its seqs, and nothing logged is said lost.

Pure logic on ``link/sequence.py``, against a model of the firmware's link (firmware/link.py):
frames are kept as they are recorded and written through a send cursor, control frames go
first, status frames report the last frame written, ``!replay S`` moves the cursor back (its
frames flagged REPLAY), answers "not sent yet (next is M)" for an S past the next seq, and
nothing when S is the next one or still behind the cursor. Hypothesis draws the order of:
frames recorded and written, frames and status frames dropped on the wire, heartbeats, the
board reading the host's commands late (a ``!replay``, a ``!ping``, a ``!hello``), the host's
reading what is on the wire, time passing (the host's retries), and up to two reboots (the
commands on the line read by the new boot, or lost with what a booting board never reads).

The model's transport is the gate's (link/plausible.py) in short: a new boot's HELLO or
heartbeat shows the reset (``restart``) before the host reads on, and a new boot's record is
held until it does; a new boot's PONG or ERROR is read as the boot the host is on (the gate
passes them unchecked). Before a reset the old boot writes what it kept (the firmware writes
within milliseconds of recording; a replay under way moves on as fast) and its last heartbeat,
which reports the last of them, reaches the host: what a board writes after the last status
frame the host hears is beyond what any host can know (the restart's open range, "from seq N
of its previous boot on", speaks for it when the old boot was writing or the line was out).
The open range counts here only for seqs past everything the host was told of that boot.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.link.frame import SEQ_MOD
from tablesense.link.sequence import Sequencer, Step


class Rec(NamedTuple):
    seq: int
    boot: int
    replay: bool


class Status(NamedTuple):
    kind: str  # hello | beat | pong
    seq: int  # the last frame written (0xFFFFFF: none)
    boot: int
    born: float  # host time the boot began (its uptime is now - born)


class Err(NamedTuple):
    code: int
    text: str
    boot: int


Item = Rec | Status | Err


@dataclass
class Board:
    """The firmware's link, as far as seqs go (firmware/link.py: record, flush, replay)."""

    boot: int = 0
    born: float = 0.0
    next: int = 0  # the next seq to assign
    send: int = 0  # the next kept frame to write
    mark: int = -1  # frames before it are written again: flagged REPLAY
    sent: int = -1  # the last frame written
    commands: deque[str] = field(default_factory=deque)  # the host's, not read yet
    wire: deque[Item] = field(default_factory=deque)  # to the host, not read yet
    written: dict[int, set[int]] = field(default_factory=dict)  # boot: seqs written at least once

    def put(self, item: Item, dropped: bool) -> None:
        if not dropped:
            self.wire.append(item)

    def status(self, kind: str, dropped: bool) -> None:
        self.put(Status(kind, self.sent % SEQ_MOD, self.boot, self.born), dropped)

    def flush(self, dropped: list[bool]) -> None:
        for lost in dropped:
            if self.send >= self.next:
                return
            s = self.send
            self.put(Rec(s, self.boot, s < self.mark), lost)
            self.written.setdefault(self.boot, set()).add(s)
            self.sent, self.send = s, s + 1

    def read(self, dropped: bool) -> None:
        line = self.commands.popleft()
        if line == "!ping":
            self.status("pong", dropped)
        elif line == "!hello":
            self.status("hello", dropped)
        else:
            s = int(line.split()[1])
            if s > self.next:
                self.put(Err(2, f"replay {s}: not sent yet (next is {self.next})", self.boot), dropped)
            elif s < self.next and self.next - s > self.next - self.send:  # not all behind the cursor
                self.send, self.mark = s, self.next

    def reboot(self, now: float, last: list[bool], hello_dropped: bool, commands_lost: bool) -> None:
        """The board resets: the old boot writes what it kept (``last``: which of them the
        wire drops) and its last heartbeat, which reaches the host (see the module's doc)."""
        self.flush(last)
        self.status("beat", False)
        self.boot += 1
        self.born, self.next, self.send, self.mark, self.sent = now, 0, 0, -1, -1
        if commands_lost:
            self.commands.clear()
        self.status("hello", hello_dropped)


@dataclass
class Host:
    """The sequencer and what the transport does with its steps."""

    board: Board
    seq: Sequencer = field(default_factory=lambda: Sequencer(expected=0))
    boot: int = 0  # the boot the host reads
    logged: list[tuple[int, int]] = field(default_factory=list)
    closed: dict[int, set[int]] = field(default_factory=dict)  # boot: seqs said lost by a range
    open_from: dict[int, int] = field(default_factory=dict)  # boot: "from seq N on is lost"
    known: dict[int, int] = field(default_factory=dict)  # boot: the newest seq the host was told of
    said: list[str] = field(default_factory=list)

    def take(self, step: Step) -> None:
        self.logged += [(f.boot, f.seq) for f in step.frames]
        for n in step.notes:
            self.said.append(f"{n.kind}: {n.text}")
            if n.kind == "lost" and "to" in n.data:
                self.closed.setdefault(self.boot, set()).update(range(n.data["from"], n.data["to"] + 1))
            elif n.kind == "lost":
                self.open_from[self.boot] = min(n.data["from"], self.open_from.get(self.boot, SEQ_MOD))
        self.board.commands.extend(f"!replay {s}" for s in step.replay)
        if step.ask:
            self.board.commands.append("!ping")
        if step.hello:
            self.board.commands.append("!hello")

    def receive(self, item: Item, now: float) -> None:
        told = item.seq if isinstance(item, (Rec, Status)) and item.seq != SEQ_MOD - 1 else -1
        self.known[item.boot] = max(self.known.get(item.boot, -1), told)
        self.said.append(f"  <- {item} at {now:.2f}")
        shows_reset = isinstance(item, Rec) or (isinstance(item, Status) and item.kind != "pong")
        if item.boot > self.boot and shows_reset:
            assert isinstance(item, (Rec, Status))
            self.take(self.seq.restart(now, now - self.board_born(item)))
            self.boot = item.boot
        if isinstance(item, Rec):
            self.take(self.seq.accept(item, now))
        elif isinstance(item, Status):
            self.take(self.seq.reported(item.seq, now, pong=item.kind == "pong"))
        else:
            self.take(self.seq.device_error(item.code, item.text, now))

    def board_born(self, item: Rec | Status) -> float:
        return item.born if isinstance(item, Status) else self.board.born


ACTIONS = ("record", "flush", "beat", "read", "deliver", "wait", "reboot")


def run(data: st.DataObject, n_actions: int) -> Host:
    board = Board()
    host = Host(board)
    now = 0.0
    drop = st.booleans()
    reboots = 0
    for _ in range(n_actions):
        action = data.draw(st.sampled_from(ACTIONS))
        if action == "record":
            board.next += data.draw(st.integers(1, 6))
        elif action == "flush":
            board.flush(data.draw(st.lists(drop, min_size=1, max_size=6)))
        elif action == "beat":
            board.status("beat", data.draw(drop))
        elif action == "read" and board.commands:
            board.read(data.draw(drop))
        elif action == "deliver":
            for _ in range(data.draw(st.integers(1, 8))):
                if board.wire:
                    host.receive(board.wire.popleft(), now)
        elif action == "wait":
            now += data.draw(st.sampled_from([0.05, 0.6, 1.2, 2.5]))
        elif action == "reboot" and reboots < 2:
            reboots += 1
            n = board.next - board.send
            last = data.draw(st.lists(drop, min_size=n, max_size=n))
            board.reboot(now, last, data.draw(drop), data.draw(drop))
        now += 0.01
        host.take(host.seq.poll(now))
    settle(host, now)
    return host


def settle(host: Host, now: float) -> None:
    """A whole line from here on: the board reads every command, writes everything, sends a
    heartbeat a second; the host reads it all, until nothing is missing."""
    board = host.board
    for _ in range(60):
        while board.commands:
            board.read(False)
        board.flush([False] * (board.next - board.send))
        board.status("beat", False)
        while board.wire:
            host.receive(board.wire.popleft(), now)
            now += 0.001
        now += 1.0
        host.take(host.seq.poll(now))
        if not board.commands and not board.wire and not host.seq.waiting and host.boot == board.boot:
            return
    raise AssertionError("the link did not settle:\n" + "\n".join(host.said))


def check(host: Host) -> None:
    said = "\n".join(host.said)
    assert len(set(host.logged)) == len(host.logged), f"logged twice: {host.logged}\n{said}"
    logged = set(host.logged)
    for boot, written in host.board.written.items():
        closed = host.closed.get(boot, set())
        open_from = host.open_from.get(boot, SEQ_MOD)
        known = host.known.get(boot, -1)
        for s in sorted(written):
            where = f"boot {boot} seq {s}"
            if (boot, s) in logged:
                assert s not in closed and s < open_from, f"{where} logged and said lost\n{said}"
            elif s <= known:  # the host was told of it: said lost by its seq
                assert s in closed, f"{where} neither logged nor said lost (the host knew of it)\n{said}"
            else:
                assert s in closed or s >= open_from, f"{where} neither logged nor said lost\n{said}"
    for boot, s in logged:
        written = host.board.written.get(boot, set())
        assert s in written, f"boot {boot} seq {s} logged but never written\n{said}"


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n_actions=st.integers(5, 60))
def test_every_frame_of_every_boot_is_logged_once_or_said_lost_whatever_the_order(
    data: st.DataObject, n_actions: int
) -> None:
    check(run(data, n_actions))
