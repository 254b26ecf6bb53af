"""The firmware on a real ESP32: ``make test-board PORT=/dev/ttyUSB0 [PROFILE=golf] [BAUD=N]``.

Flash the board first (``make flash PORT=... PROFILE=...``). In order, against the board:
its MicroPython (mpremote's raw REPL) is one the firmware supports; after a soft reset the
firmware answers HELLO with the firmware built here, the profile asked for, the chip the
profile names and the MicroPython the REPL reported; every channel goes through the doctor
(a guided pass when a person is at the terminal: fire each sensor when asked; otherwise a
short watch, and the silent channels are reported); ``!replay`` returns the frames seen
live, the same seq, channel and time, flagged REPLAY, while heartbeats keep coming; and
closing and reopening the port does not reset the board (uptime keeps growing, seq is kept);
nothing but frames on the line while it runs (ESP-IDF's log off), the boot ROM's text at a
reset counted as text; the watchdog fed (the board outlives its timeout) and, when the loop
stalls, resetting the board with cause 3 and a watchdog record; a crash written to the crash
file on the board's flash, then machine.reset(), and the next HELLO's reset cause and crash
text. The last two reset the board on purpose, so they run last.
docs/firmware.md ("On a real board") says what this checks that the unix port cannot.

Without a board at the port the module skips itself with one line (make exits 0).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time

import pytest

from tablesense.deploy.build import firmware_version
from tablesense.deploy.doctor import Doctor
from tablesense.deploy.hello import ask_hello, describe, wait_hello
from tablesense.deploy.ports import PortError, check_port
from tablesense.deploy.run import board_micropython, mpremote_path
from tablesense.deploy.versions import BoardPython, expected_chip, parse_version, refusal
from tablesense.link.frame import (
    F_REPLAY,
    REPLAYABLE,
    EventFrame,
    Frame,
    HeartbeatFrame,
    HelloFrame,
    StreamDecoder,
)
from tablesense.link.lines import link_baud
from tablesense.link.transport import open_port
from tablesense.table.profile import TableProfile, load_profile

PORT = os.environ.get("TABLESENSE_BOARD_PORT", "/dev/ttyUSB0")
PROFILE = os.environ.get("TABLESENSE_BOARD_PROFILE", "golf")
_baud = os.environ.get("TABLESENSE_BOARD_BAUD")
BAUD = link_baud(int(_baud) if _baud else None, load_profile(PROFILE))


try:
    check_port(PORT)
except PortError as exc:  # one line; the conftest makes the run exit 0
    pytest.skip(f"no board attached: {exc}", allow_module_level=True)

#: Seconds per channel in the guided pass (a person at the terminal), or of the unattended watch.
GUIDED_S = float(os.environ.get("TABLESENSE_BOARD_GUIDED_S", "10"))
WATCH_S = float(os.environ.get("TABLESENSE_BOARD_WATCH_S", "3"))

#: Replayable frames seen live in the doctor pass, for the replay check.
LIVE: list[Frame] = []


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@pytest.fixture(scope="module")
def profile() -> TableProfile:
    return load_profile(PROFILE)


@pytest.fixture(scope="module")
def board_python() -> BoardPython:
    """The MicroPython on the board, from its REPL; then the firmware started again (Ctrl-D at
    the friendly REPL: a soft reboot runs main.py)."""
    board = board_micropython(PORT)
    with open_port(PORT, BAUD) as ser:
        ser.write(b"\r\x02\x04")
    return board


@pytest.fixture(scope="module")
def hello(board_python: BoardPython) -> HelloFrame:
    h = ask_hello(PORT, timeout=15, baudrate=BAUD)
    say(f"{PORT}: {describe(h)}")
    return h


def test_micropython_on_the_board_is_supported(board_python: BoardPython) -> None:
    say(f"{PORT}: MicroPython {board_python.text} on {board_python.chip} ({board_python.machine})")
    assert refusal(board_python) is None, refusal(board_python)


def test_hello_names_the_firmware_profile_chip_and_micropython(
        hello: HelloFrame, board_python: BoardPython, profile: TableProfile) -> None:
    assert hello.fw_version == firmware_version(), "the board runs another firmware: make flash first"
    assert hello.profile_id == PROFILE, f"the board is on {hello.profile_id}: make flash PROFILE={PROFILE}"
    assert hello.n_channels == len(profile.channels)
    assert hello.mp_version, "the firmware does not report its MicroPython (firmware before 0.2?)"
    assert parse_version(hello.mp_version)[0] == board_python.version
    assert hello.chip == board_python.chip
    assert hello.chip == expected_chip(profile.module), f"profile {PROFILE} is for an {profile.module}"


def _frames(ser, dec: StreamDecoder, seconds: float) -> list[Frame]:  # type: ignore[no-untyped-def]
    out: list[Frame] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = ser.read(512)
        if data:
            out.extend(dec.feed(data))
    return out


def test_every_channel_through_the_doctor(hello: HelloFrame, profile: TableProfile) -> None:
    doc = Doctor(profile)
    guided = os.isatty(0) and GUIDED_S > 0
    with open_port(PORT, BAUD) as ser:
        dec = StreamDecoder()
        doc.feed(wait_hello(ser, dec, "!hello", 8))
        if guided:
            say(f"guided pass: fire each sensor when asked ({GUIDED_S:g} s each)")
        for ch, w in doc.watch.items() if guided else [(None, None)]:
            if w is not None:
                say(f"  fire ch {ch} {w.channel.name} ({w.channel.kind}, GPIO{w.channel.gpio}) now ...")
            end = time.monotonic() + (GUIDED_S if guided else WATCH_S)
            while time.monotonic() < end and (w is None or not w.fired):
                for f in _frames(ser, dec, 0.1):
                    doc.feed(f)
                    if isinstance(f, REPLAYABLE):
                        LIVE.append(f)
            if w is not None:
                say(f"    {'fired' if w.fired else 'NOT fired'}")
    for line in doc.render():
        say(line)
    findings = doc.findings()
    for f in findings:
        say(f"  {f.problem}: ch {f.ch} {f.text}")
    bad = [f.text for f in findings if f.problem in ("stuck", "noisy")]
    assert not bad, "; ".join(bad)
    if guided:
        silent = [f.name for f in findings if f.problem == "silent"]
        assert not silent, f"did not fire when asked: {', '.join(silent)}"


def test_replay_returns_the_frames_seen_live_while_heartbeats_go_on(hello: HelloFrame) -> None:
    if not LIVE:
        pytest.skip("no sensor fired in the doctor pass: nothing kept to replay (fire one and run again)")
    first = LIVE[0].seq
    with open_port(PORT, BAUD) as ser:
        dec = StreamDecoder()
        ser.write(f"!replay {first}\n".encode("ascii"))
        t0 = time.monotonic()
        seconds = 1.5 + len(LIVE) * 16 * 10 / BAUD * 2  # twice the wire time, plus a heartbeat
        frames = _frames(ser, dec, seconds)
    replayed = [f for f in frames if isinstance(f, REPLAYABLE) and
                (not isinstance(f, EventFrame) or f.flags & F_REPLAY)]
    beats = [f for f in frames if isinstance(f, HeartbeatFrame)]
    say(f"replay of {len(LIVE)} frames from seq {first}: {len(replayed)} back within "
        f"{time.monotonic() - t0:.1f} s, {len(beats)} heartbeats meanwhile")

    def key(f: Frame) -> tuple[object, ...]:
        return (type(f).__name__, f.seq, f.channel, f.t_us)  # type: ignore[union-attr]

    assert [key(f) for f in replayed[: len(LIVE)]] == [key(f) for f in LIVE]
    assert beats, "no heartbeat during the replay: the main loop stalled"


def test_closing_and_reopening_the_port_does_not_reset_the_board(hello: HelloFrame) -> None:
    hellos = [ask_hello(PORT, timeout=8, baudrate=BAUD)]
    for _ in range(3):
        time.sleep(1.0)
        hellos.append(ask_hello(PORT, timeout=8, baudrate=BAUD))
    ups = [h.uptime_us / 1e6 for h in hellos]
    say("uptime across reopenings: " + ", ".join(f"{u:.1f} s" for u in ups))
    for a, b in itertools.pairwise(hellos):
        assert b.uptime_us > a.uptime_us + 800_000, "uptime went back: opening the port reset the board"
        assert b.seq == a.seq or (b.seq - a.seq) % (1 << 24) < 1 << 23, "seq went back: the board restarted"


def _mpremote(*args: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([mpremote_path(), "connect", PORT, *args], capture_output=True, text=True,
                          timeout=timeout)


def _boot(ser, dec: StreamDecoder, timeout: float = 15.0) -> HelloFrame:  # type: ignore[no-untyped-def]
    """The first HELLO after a reset (the firmware sends one at boot; asked for too)."""
    return wait_hello(ser, dec, "!hello", timeout)


def test_nothing_but_frames_on_the_line_and_the_watchdog_fed(hello: HelloFrame) -> None:
    """ESP-IDF's log is off: a `!profile` (which makes the pulse counters again, whose
    driver logs on GPIO34-39) and a few seconds of running put no text on the line; the
    board outlives its 5 s watchdog, so the main loop feeds it."""
    with open_port(PORT, BAUD) as ser:
        dec = StreamDecoder()
        first = wait_hello(ser, dec, "!hello", 8)
        wait_hello(ser, dec, f"!profile {PROFILE}", 8)
        _frames(ser, dec, 7.0)
        last = wait_hello(ser, dec, "!hello", 8)
    say(f"{dec.frames} frames, {dec.text_bytes} bytes of text, {dec.bad} bad; "
        f"up {first.uptime_us / 1e6:.1f} s -> {last.uptime_us / 1e6:.1f} s")
    assert dec.text_lines == 0, f"text between frames: {dec.texts[-3:]}"
    assert dec.bad == 0, [str(e) for e in dec.errors[-3:]]
    assert last.uptime_us - first.uptime_us > 6_000_000, "the board reset within the watchdog's 5 s"
    assert last.reset_cause == first.reset_cause


def test_a_stalled_loop_is_reset_by_the_watchdog_and_the_next_hello_says_so(hello: HelloFrame) -> None:
    """A loop that stops feeding it (here the REPL, asleep) is reset by the task watchdog;
    the firmware boots again by itself and reports cause 3 and its watchdog record."""
    r = _mpremote("exec", "--no-follow", "import machine, time\nmachine.WDT(timeout=2000)\ntime.sleep(30)")
    assert r.returncode == 0, r.stderr
    with open_port(PORT, BAUD) as ser:
        dec = StreamDecoder()
        time.sleep(4)
        after = _boot(ser, dec)
    say(f"after the stall: reset {after.reset_text!r}, {after.crash!r}; {dec.text_lines} lines of boot text")
    assert after.reset_cause == 3, "not reset by the watchdog"
    assert "watchdog: the main loop stopped" in after.crash
    assert dec.bad == 0


def test_a_crash_is_written_to_the_flash_and_the_board_restarts_and_says_it(hello: HelloFrame) -> None:
    """recover.run on the board with a main loop that raises: the crash file on the board's
    flash (at most 1 KB, rotated), machine.reset(), and the next boot's HELLO says cause 2
    and the crash; the firmware runs again by itself."""
    code = ("import recover, link\n"
            "def boom(hal, boot):\n raise ValueError('make test-board: a crash on purpose')\n"
            "link.main = boom\n"
            "from hal_esp32 import Hal\n"
            "recover.run(Hal())\n")
    r = _mpremote("exec", "--no-follow", code)
    assert r.returncode == 0, r.stderr
    with open_port(PORT, BAUD) as ser:
        dec = StreamDecoder()
        time.sleep(3)
        after = _boot(ser, dec)
    say(f"after the crash: reset {after.reset_text!r}, {after.crash!r}")
    assert after.reset_cause == 2
    assert "ValueError: make test-board: a crash on purpose" in after.crash
    assert after.fw_version == firmware_version()
    listing = _mpremote("fs", "ls", ":/").stdout
    _mpremote("reset")  # reading the flash stopped the firmware
    sizes = {}
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].startswith("crash."):
            sizes[parts[1]] = int(parts[0])
    say(f"crash files on the flash: {sizes}")
    assert "crash.txt" in sizes and "crash.new" not in sizes
    assert all(n <= 1024 for n in sizes.values())
    ask_hello(PORT, timeout=15, baudrate=BAUD)
