"""A board that recovers by itself, seen from the host: the firmware under MicroPython's unix
port as an ESP32 (tests/virtual_board.py), its reset and its watchdog modelled by the virtual
HAL (firmware/hal_virtual.py, class Board: machine.reset() and a watchdog that fires end the
process with a code the supervisor boots the firmware again on, with the reset cause the
ESP32 would report; the boot ROM's text is written at every start).

A crash (an exception the firmware did not expect, put in by the feed) or a stall past the
watchdog restarts the board; its first HELLO says why, with the crash's one-line summary;
the crash file on its flash is bounded and rotated; Ctrl-C is not a crash; between the boot
ROM's text and the next reset nothing but frames reaches the line; the pub logs the restart
once, and `tablesense doctor` shows it."""

from __future__ import annotations

import asyncio
import json
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from virtual_board import VirtualBoard, firmware_files

from tablesense.cli import main
from tablesense.deploy.hello import ask_hello
from tablesense.deploy.run import mpremote_path
from tablesense.link import LinkStatus
from tablesense.link.frame import Frame, HelloFrame, StreamDecoder
from tablesense.link.transport import open_port
from tablesense.table.profile import load_profile

HOST_MARCH = {"x86_64": "x64", "amd64": "x64", "i686": "x86"}.get(platform.machine().lower())
pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(HOST_MARCH is None, reason="mpy-cross cannot emit native code for this host"),
]


def flashed(folder: Path, profile: str = "golf") -> Path:
    folder.mkdir()
    default = load_profile(profile)
    others = [load_profile(p) for p in ("golf", "kegle", "carom") if p != profile]
    firmware_files(folder, [default, *others], default, HOST_MARCH or "x64")
    return folder


class Line:
    """The host's end of the board's serial line, open across the board's resets."""

    def __init__(self, port: str) -> None:
        self.ser = open_port(port)
        self.dec = StreamDecoder()
        self.frames: list[Frame] = []

    def until(self, pred: Any, timeout: float = 20.0) -> list[Frame]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.frames += self.dec.feed(self.ser.read(4096))
            if pred(self.frames):
                return self.frames
        raise AssertionError(f"timed out; got {self.frames[-4:]}, text {self.dec.texts[-4:]}")

    def hellos(self) -> list[HelloFrame]:
        return [f for f in self.frames if isinstance(f, HelloFrame)]

    def next_hello(self, timeout: float = 20.0) -> HelloFrame:
        n = len(self.hellos())
        self.until(lambda fs: sum(isinstance(f, HelloFrame) for f in fs) > n, timeout)
        return self.hellos()[n]

    def close(self) -> None:
        self.ser.close()


@pytest.mark.parametrize("fault", ["OSError", "ValueError", "MemoryError"])
def test_a_crash_restarts_the_board_and_its_hello_says_why(tmp_path: Path, fault: str) -> None:
    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder, power=False) as board:
        line = Line(board.port)
        try:
            board.power_on()
            first = line.next_hello()  # sent at boot, unasked
            assert (first.reset_cause, first.crash) == (1, "")
            board.send_edges([{"t_us": first.uptime_us + 200_000, "fault": fault}])
            again = line.next_hello()
        finally:
            line.close()
    assert board.boots == [("firmware", 1), ("firmware", 2)]
    assert again.reset_cause == 2 and again.reset_text == "hard reset"
    assert again.crash.startswith("#1 crash at 0.") or again.crash.startswith("#1 crash at 1.")
    assert f": {fault}" in again.crash and "(hal_virtual.py line " in again.crash, again.crash
    assert line.dec.bad == 0  # the boot ROM's text is text, not a bad frame
    assert sum("rst:0x1 (POWERON_RESET)" in t for t in line.dec.texts) == 1
    assert sum("rst:0xc (SW_CPU_RESET)" in t for t in line.dec.texts) == 1
    text = (folder / "crash.txt").read_text()
    assert text.splitlines()[1] == again.crash and "Traceback" in text
    assert len(text) <= 1024 and not (folder / "crash.new").exists()


def test_crashes_keep_two_files_on_the_flash_and_number_the_crashes(tmp_path: Path) -> None:
    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder, power=False) as board:
        line = Line(board.port)
        try:
            board.power_on()
            h = line.next_hello()
            crashes = []
            for _ in range(3):  # each boot lives a minute (its clock moved on): not a run of quick crashes
                t = h.uptime_us + 60_000_000
                board.send_edges([{"clock_us": t}, {"t_us": t + 100_000, "fault": "RuntimeError"}])
                h = line.next_hello()
                crashes.append(h.crash)
        finally:
            line.close()
    assert [c.split(" ")[:4] for c in crashes] == [[f"#{n}", "crash", "at", "60.1"] for n in (1, 2, 3)]
    assert sorted(p.name for p in folder.glob("crash*t*")) == ["crash.1.txt", "crash.txt"]
    assert (folder / "crash.1.txt").read_text().splitlines()[1] == crashes[1]


def test_a_stalled_main_loop_is_reset_by_the_watchdog(tmp_path: Path) -> None:
    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder, power=False) as board:
        line = Line(board.port)
        try:
            board.power_on()
            h = line.next_hello()
            board.send_edges([{"t_us": h.uptime_us + 100_000, "hang_us": 6_000_000}])  # stuck in C code
            again = line.next_hello()
        finally:
            line.close()
    assert board.boots == [("firmware", 1), ("firmware", 3)]
    assert (again.reset_cause, again.reset_text) == (3, "watchdog")
    assert again.crash == "#1 watchdog: the main loop stopped for over 5 s"
    assert any("task_wdt: Task watchdog got triggered" in t for t in line.dec.texts)  # the panic's line


def test_nothing_but_frames_between_the_boot_rom_and_the_next_reset(tmp_path: Path) -> None:
    """Keglebillard's pulse counters sit on input-only pins, where ESP-IDF's driver logs an
    error line at every boot and every `!profile` unless the firmware turns its log off."""
    folder = flashed(tmp_path / "board", "kegle")
    with VirtualBoard(folder, power=False) as board:
        line = Line(board.port)
        try:
            board.power_on()
            line.next_hello()
            rom = list(line.dec.texts)
            line.ser.write(b"!profile carom\n")  # carom's counters: GPIO34-39 as well
            line.next_hello()
            line.ser.write(b"!profile kegle\n")
            line.next_hello()
            line.until(lambda fs: sum(type(f).__name__ == "HeartbeatFrame" for f in fs) >= 2)
        finally:
            line.close()
    assert rom and rom[0].startswith("ets ") and rom[-1].startswith("entry 0x")
    assert line.dec.texts == rom, "text after the boot ROM's: " + repr(line.dec.texts[len(rom):])
    assert line.dec.bad == 0


def test_ctrl_c_stops_the_firmware_for_the_repl_and_is_no_crash(tmp_path: Path) -> None:
    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder) as board:
        ask_hello(board.port, timeout=15)
        mpremote = mpremote_path()
        r = subprocess.run([mpremote, "connect", board.port, "resume", "exec", "print(6 * 7)"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stdout.strip() == "42", r.stderr
        assert board.boots == [("firmware", 1), ("repl", 1)]
        subprocess.run([mpremote, "connect", board.port, "resume", "reset"], capture_output=True, timeout=60)
        hello = ask_hello(board.port, timeout=15)
    assert (hello.reset_cause, hello.crash) == (2, "")  # a reset asked for: nothing to report
    assert not list(folder.glob("crash*t*")) and not (folder / "crash.new").exists()


def test_doctor_shows_how_the_board_restarted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder) as board:
        h = ask_hello(board.port, timeout=15)
        board.send_edges([{"t_us": h.uptime_us + 300_000, "fault": "OSError"}])
        board.wait_boots(2)
        code = main(["doctor", "--serial", board.port, "--profile", "golf", "--seconds", "0.5", "--json"])
        out = json.loads(capsys.readouterr().out)
        main(["doctor", "--serial", board.port, "--profile", "golf", "--seconds", "0.5"])
        text = capsys.readouterr().out
    assert code == 0 or out["findings"]
    assert out["reset"] == "hard reset"
    assert out["crash"].startswith("#1 crash at ") and "OSError: [Errno 5] EIO" in out["crash"]
    assert "board: started by a hard reset; it restarted by itself: #1 crash at " in text


def test_the_link_says_a_board_restart_at_each_hello_of_that_boot(tmp_path: Path) -> None:
    from tablesense.link import table_items

    folder = flashed(tmp_path / "board")
    with VirtualBoard(folder) as board:
        h = ask_hello(board.port, timeout=15)
        board.send_edges([{"t_us": h.uptime_us + 300_000, "fault": "ValueError"}])
        board.wait_boots(2)

        async def statuses() -> list[LinkStatus]:
            got: list[LinkStatus] = []

            async def read() -> None:
                async for item in table_items(board.port, "golf"):
                    if isinstance(item, LinkStatus):
                        got.append(item)
                        if item.kind == "board_reset":
                            return

            await asyncio.wait_for(read(), 20)
            return got

        got = asyncio.run(statuses())
    (reset,) = [s for s in got if s.kind == "board_reset"]
    assert reset.text.startswith("the board restarted by itself (hard reset): #1 crash at ")
    assert reset.data["reset_cause"] == 2


def test_the_pub_logs_a_board_restart_once_across_its_hellos_and_its_own_restart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tablesense.pub import Pub
    from tablesense.store import Store, Writer

    db = tmp_path / "pub.db"
    text = "the board restarted by itself (watchdog): #4 watchdog: the main loop stopped for over 5 s"
    other = "the board restarted by itself (hard reset): #5 crash at 3.1 s: OSError: [Errno 5] EIO"

    async def life(items: list[Any]) -> None:
        store, writer = Store(str(db)), Writer(str(db))
        pub = Pub(store, ["1"], writer=writer)

        async def gen(_cp: Any) -> Any:
            for it in items:
                yield it

        try:
            await pub.feed("1", gen)
        finally:
            writer.close()
            store.close()

    said = LinkStatus("board_reset", text)
    asyncio.run(life([said, said, said]))  # the HELLOs of one boot, reconnects included
    asyncio.run(life([said, LinkStatus("board_reset", other)]))  # the host restarted; then a new crash
    assert capsys.readouterr().err.count(text) == 1
    store = Store(str(db))
    try:
        assert [(k, t) for _, k, t in store.incidents("1")] == [("board_reset", text), ("board_reset", other)]
    finally:
        store.close()
