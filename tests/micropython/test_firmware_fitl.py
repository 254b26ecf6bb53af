"""Firmware in the loop: the real firmware under MicroPython on a pty, read by pyserial
and the host's frame decoder exactly as a board on /dev/ttyUSB0 would be."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
import serial
from paths import ROOT

from tablesense.link.frame import (
    F_ACTIVE,
    F_HWCAP,
    F_LATE,
    F_REPLAY,
    ErrorFrame,
    EventFrame,
    HelloFrame,
    PongFrame,
    ReadingFrame,
    StreamDecoder,
)
from tablesense.sim.fitl import FirmwareError, FirmwareProcess, round_robin_edges, start_firmware

pytestmark = pytest.mark.micropython


def goal_board(tmp_path: Path, mode: str) -> Path:
    chans = [
        {
            "ch": i,
            "name": f"goal_{g}",
            "kind": "goal",
            "index": g,
            "gpio": 32 + i,
            "pull": "up",
            "active": 0,
            "mode": mode,
            "debounce_us": 0,
            "colour": True,
        }
        for i, g in enumerate("AB")
    ]
    cfg = {
        "profile": "goals",
        "version": 1,
        "scan_ms": 20,
        "heartbeat_ms": 1000,
        "colours": ["p1", "p2"],
        "channels": chans,
    }
    path = tmp_path / "goals.json"
    path.write_text(json.dumps(cfg))
    return path


class Port:
    """The host side: pyserial on the pty, decoded with the link's StreamDecoder."""

    def __init__(self, fw: FirmwareProcess) -> None:
        self.ser = serial.serial_for_url(fw.port, timeout=0.05)
        self.dec = StreamDecoder()
        self.frames: list = []

    def send(self, line: str) -> None:
        self.ser.write(line.encode() + b"\n")

    def until(self, pred, timeout: float = 5.0) -> list:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.frames += self.dec.feed(self.ser.read(4096))
            if pred(self.frames):
                return self.frames
        raise AssertionError(f"timed out; got {self.frames[-5:]}")

    def close(self) -> None:
        self.ser.close()


def hello_uptime(port: Port) -> int:
    port.send("!hello")
    hello = port.until(lambda fs: any(isinstance(f, HelloFrame) for f in fs))
    return next(f for f in reversed(hello) if isinstance(f, HelloFrame)).uptime_us


@pytest.mark.parametrize("mode", ["capture", "irq"])
def test_two_goal_drops_200_us_apart_arrive_in_order(tmp_path: Path, mode: str) -> None:
    with start_firmware(goal_board(tmp_path, mode), realtime=False) as fw:
        port = Port(fw)
        t0 = hello_uptime(port) + 100_000
        fw.send_edges(
            [
                {"t_us": t0, "ch": 1, "level": 1},  # goal B's beam breaks first
                {"t_us": t0 + 200, "ch": 0, "level": 1},  # goal A's 200 us later
                {"t_us": t0 + 500, "ch": 1, "colour": 1},
                {"t_us": t0 + 500, "ch": 0, "colour": 2},
                {"t_us": t0 + 30_000, "ch": 1, "level": 0},
                {"t_us": t0 + 30_000, "ch": 0, "level": 0},
            ]
        )
        frames = port.until(lambda fs: sum(isinstance(f, EventFrame) for f in fs) >= 4)
        port.close()
    ev = [f for f in frames if isinstance(f, EventFrame)]
    assert [(f.channel, f.flags & F_ACTIVE) for f in ev[:2]] == [(1, 1), (0, 1)]
    dt = ev[1].t_us - ev[0].t_us
    if mode == "capture":
        assert all(f.flags & F_HWCAP for f in ev)
        assert (ev[0].t_us, dt) == (t0, 200), "capture stamps are the edges' own times"
    else:
        assert 0 < dt <= 200 and ev[0].t_us > t0, "soft IRQ: FIFO order, stamped after the delay"
    readings = {f.channel: f.value for f in frames if isinstance(f, ReadingFrame)}
    assert readings == {1: 1, 0: 2}


def test_flood_beyond_the_scheduler_queue_is_never_silent(tmp_path: Path) -> None:
    board = json.loads((ROOT / "firmware" / "boards" / "kegle.json").read_text())
    for c in board["channels"]:
        c["mode"] = "irq"  # 16 beams on soft IRQs
    path = tmp_path / "k16.json"
    path.write_text(json.dumps(board))
    with start_firmware(path, realtime=False) as fw:
        port = Port(fw)
        t0 = hello_uptime(port) + 100_000
        fw.send_edges([{"t_us": t0 + i, "ch": i, "level": 1} for i in range(16)])  # 16 edges in 16 us
        frames = port.until(lambda fs: sum(isinstance(f, EventFrame) for f in fs) >= 16)
        port.send("!hello")
        frames = port.until(lambda fs: sum(isinstance(f, HelloFrame) for f in fs) >= 2)
        port.close()
    ev = [f for f in frames if isinstance(f, EventFrame)]
    assert sorted(f.channel for f in ev) == list(range(16))
    late = [f for f in ev if f.flags & F_LATE]
    assert len(late) == 8, "the 8 edges beyond the queue come back LATE"
    hello = [f for f in frames if isinstance(f, HelloFrame)][-1]
    assert (hello.sched_drops, hello.late, hello.levels) == (8, 8, 0xFFFF)


def test_bad_input_gets_errors_and_the_firmware_goes_on(tmp_path: Path) -> None:
    bad_board = tmp_path / "bad.json"
    bad_board.write_text('{"profile": "x", "channels": [{"ch": 0}]}')
    with start_firmware(bad_board, realtime=False) as fw:
        port = Port(fw)
        port.send("!bogus")
        port.send("!ping 7")
        port.send("!profile nosuch")
        fw.send_edges([{"t_us": 5, "ch": 0, "level": 1}])
        with open(fw.edges_path, "a") as f:
            f.write("this is not json\n")
        frames = port.until(
            lambda fs: (
                any(isinstance(f, PongFrame) for f in fs) and sum(isinstance(f, ErrorFrame) for f in fs) >= 2
            )
        )
        port.send("!ping 8")
        frames = port.until(lambda fs: sum(isinstance(f, PongFrame) for f in fs) >= 2)
        time.sleep(0.2)
        assert fw.alive()
        port.close()
        log = fw.stderr_text()
    texts = [f.text for f in frames if isinstance(f, ErrorFrame)]
    assert "unknown command: !bogus" in texts
    assert any(t.startswith("profile nosuch: cannot read") for t in texts), texts
    assert "feed: bad line ignored" in log


def test_sigint_stops_the_firmware(tmp_path: Path) -> None:
    """Ctrl-C stays enabled (mpremote interrupts the board with it); on the unix port it
    arrives as SIGINT and ends the firmware instead of being swallowed."""
    fw = start_firmware(goal_board(tmp_path, "irq"))
    try:
        port = Port(fw)
        hello_uptime(port)
        fw.proc.send_signal(signal.SIGINT)
        assert fw.proc.wait(5) != 0
        port.close()
        log = fw.stderr_text()
    finally:
        fw.stop()
    assert "KeyboardInterrupt" in log


def test_missing_board_or_firmware_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FirmwareError, match="board config not found"):
        start_firmware(tmp_path / "nope.json")
    with pytest.raises(FirmwareError, match="firmware not found"):
        start_firmware(goal_board(tmp_path, "irq"), firmware_dir=tmp_path)


def test_pulled_cable_loses_nothing_after_a_replay(tmp_path: Path) -> None:
    """The host closes the port mid-stream and reopens it: what the firmware wrote meanwhile
    is gone (pyserial flushes the port on open), and `!replay` from the last seq seen
    brings every frame back, in order, flagged REPLAY."""
    board = json.loads((ROOT / "firmware" / "boards" / "kegle.json").read_text())
    for c in board["channels"]:
        c["mode"] = "irq"
        c["colour"] = False  # EVENT frames only: seq i is edge i
    board.pop("colour", None)  # (and no colour sensors to set up)
    path = tmp_path / "k16.json"
    path.write_text(json.dumps(board))
    n = 1500
    with start_firmware(path, realtime=False) as fw:
        port = Port(fw)
        t0 = hello_uptime(port) + 100_000
        edges = round_robin_edges(n, t0, 100)
        fw.send_edges(edges)
        port.until(lambda fs: sum(isinstance(f, EventFrame) for f in fs) >= 300)
        before = [f for f in port.frames if isinstance(f, EventFrame)]
        port.close()  # the cable is pulled ...
        time.sleep(0.3)
        again = Port(fw)  # ... and put back
        again.send(f"!replay {before[-1].seq + 1}")
        again.until(lambda fs: any(isinstance(f, EventFrame) and f.seq == n - 1 for f in fs), timeout=10)
        again.close()
    after = [f for f in again.frames if isinstance(f, EventFrame)]
    by_seq = {f.seq: f for f in before + after}
    assert sorted(by_seq) == list(range(n)), "every seq once the duplicates are dropped"
    assert [(by_seq[i].channel, by_seq[i].flags & F_ACTIVE) for i in range(n)] == [
        (e["ch"], e["level"]) for e in edges
    ]
    assert any(f.flags & F_REPLAY for f in after)


def test_realtime_feed_is_played_at_its_own_time(tmp_path: Path) -> None:
    with start_firmware(goal_board(tmp_path, "irq"), sched_us=30) as fw:  # realtime by default
        port = Port(fw)
        t = hello_uptime(port) + 600_000
        fw.send_edges([{"t_us": t, "ch": 0, "level": 1}])
        sent = time.monotonic()
        frames = port.until(lambda fs: any(isinstance(f, EventFrame) for f in fs))
        waited = time.monotonic() - sent
        port.close()
    ev = next(f for f in frames if isinstance(f, EventFrame))
    assert 0.3 < waited < 3.0, "the edge waits for its time on the virtual clock"
    assert ev.t_us == t + 30, "stamped at its time plus the scheduling delay"


def test_a_reset_board_says_how_far_the_boot_before_got_and_a_power_on_does_not(tmp_path: Path) -> None:
    """The simulator's board keeps RTC memory as the ESP32 does (firmware 0.5): the firmware
    killed (a reset, nothing of it cleaned up) and started again on the same RTC file says the
    killed boot's tag and last seq in its HELLO; started on none (a power-on) it says neither."""
    board, rtc = goal_board(tmp_path, "irq"), tmp_path / "board.rtc"
    with start_firmware(board, realtime=False, rtc=rtc) as fw:
        port = Port(fw)
        t0 = hello_uptime(port) + 50_000
        fw.send_edges([{"t_us": t0 + 10_000 * i, "ch": 0, "level": (i + 1) % 2} for i in range(6)])
        port.until(lambda fs: sum(isinstance(f, EventFrame) for f in fs) >= 6)
        time.sleep(0.2)  # the goals' colour readings too
        port.send("!hello")  # its seq: the last frame written, all of them sent by now
        frames = port.until(lambda fs: sum(isinstance(f, HelloFrame) for f in fs) >= 3)
        first, last = next(f for f in frames if isinstance(f, HelloFrame)), frames[-1]
        assert isinstance(last, HelloFrame) and last.seq >= 5, frames
        fw.proc.send_signal(signal.SIGKILL)
        fw.proc.wait(10)
        port.close()
    assert (first.prev_tag, first.prev_seq) == (None, None), first  # the first power-on
    with start_firmware(board, realtime=False, rtc=rtc, reset_cause=2) as fw:
        port = Port(fw)
        port.send("!hello")
        hello = next(f for f in port.until(lambda fs: any(isinstance(f, HelloFrame) for f in fs))
                     if isinstance(f, HelloFrame))
        port.close()
    assert (hello.prev_tag, hello.prev_seq, hello.reset_cause) == (first.boot_tag, last.seq, 2), hello
    assert hello.boot_tag != first.boot_tag
    with start_firmware(board, realtime=False) as fw:  # no RTC file: a power-on
        port = Port(fw)
        port.send("!hello")
        hello = next(f for f in port.until(lambda fs: any(isinstance(f, HelloFrame) for f in fs))
                     if isinstance(f, HelloFrame))
        port.close()
    assert (hello.prev_tag, hello.prev_seq) == (None, None), hello
