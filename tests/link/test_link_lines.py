"""Opening, reopening and closing the port never resets an ESP32: the modem-line states the
host produces, run through the DevKitC auto-reset circuit.

The one stand-in here: a pty has no modem lines (its TIOCMBIS/TIOCMBIC ioctls fail), so
``LineRecorder`` -- a ``serial.Serial`` subclass on a real pty -- records each
``_update_dtr_state``/``_update_rts_state`` write, the kernel's assertion of both lines
when a tty is opened (Linux raises DTR and RTS on open before pyserial can touch them) and
its hang-up on close (HUPCL lowers both). Everything else is the real code: ``open_port``,
``Link`` and its reconnect, flash's HELLO check and doctor against the real firmware under
MicroPython's unix port, mpremote's serial transport against the unix port's REPL.
"""

from __future__ import annotations

import asyncio
import os
import tty
from collections.abc import Iterator

import pytest
import serial

from tablesense.link import Link, LinkStatus, lines
from tablesense.link.lines import BAUD, QuietSerial, link_baud
from tablesense.link.transport import open_port


class Lines:
    """DTR and RTS as the board's bridge drives them; ``states`` is every state in order."""

    def __init__(self) -> None:
        self.dtr = False
        self.rts = False  # a closed port: the last close's hang-up lowered both
        self.states: list[tuple[str, bool, bool]] = [("closed", False, False)]

    def set(self, why: str, dtr: bool | None = None, rts: bool | None = None) -> None:
        self.dtr = self.dtr if dtr is None else dtr
        self.rts = self.rts if rts is None else rts
        self.states.append((why, self.dtr, self.rts))


def recorder(base: type[serial.Serial], wire: Lines) -> type[serial.Serial]:
    """``base`` with its modem-line writes recorded on ``wire`` (the stand-in for the lines)."""

    class LineRecorder(base):  # type: ignore[valid-type,misc]
        _opening = False

        def open(self) -> None:
            self._opening = True
            super().open()

        def _reconfigure_port(self, force_update: bool = False) -> None:
            if self._opening:  # called right after os.open(): the kernel has raised DTR and RTS
                self._opening = False
                wire.set("kernel: open asserts both", dtr=True, rts=True)
            super()._reconfigure_port(force_update)

        def _update_dtr_state(self) -> None:
            wire.set(f"dtr={self._dtr_state}", dtr=self._dtr_state)

        def _update_rts_state(self) -> None:
            wire.set(f"rts={self._rts_state}", rts=self._rts_state)

        def close(self) -> None:
            was_open = self.is_open
            super().close()
            if was_open:
                wire.set("kernel: hang-up on close lowers both", dtr=False, rts=False)

    return LineRecorder


def devkitc(dtr: bool, rts: bool) -> tuple[bool, bool]:
    """(EN, IO0) levels of the ESP32 DevKitC auto-reset circuit (two NPNs): EN is pulled low
    only with RTS asserted and DTR not; IO0 only with DTR asserted and RTS not."""
    return (not (rts and not dtr), not (dtr and not rts))


def resets(states: list[tuple[str, bool, bool]]) -> list[str]:
    """Every step where the board would reset (EN low) or boot into the bootloader (EN rising
    while IO0 is low)."""
    out = []
    en_before = True
    for why, dtr, rts in states:
        en, io0 = devkitc(dtr, rts)
        if not en:
            out.append(f"EN low after {why!r} (DTR={dtr}, RTS={rts})")
        elif not en_before and not io0:
            out.append(f"EN rises with IO0 low after {why!r}: download mode")
        en_before = en
    return out


@pytest.fixture
def pty() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Lines:
    w = Lines()
    monkeypatch.setattr(lines, "QuietSerial", recorder(QuietSerial, w))
    return w


def test_the_truth_table_catches_the_reset_an_open_used_to_cause(pty: str) -> None:
    """The old open (DTR and RTS cleared before ``open()``): pyserial clears DTR, then RTS;
    between the two the board sits in reset. The check must see it."""
    w = Lines()
    ser = recorder(serial.Serial, w)(None, baudrate=BAUD, timeout=0.05)
    ser.port = pty
    ser.dtr = False
    ser.rts = False
    ser.open()
    ser.close()
    assert resets(w.states) == ["EN low after 'dtr=False' (DTR=False, RTS=True)"]


def test_open_and_close_never_reset_the_board(pty: str, wire: Lines) -> None:
    ser = open_port(pty)
    assert ser.dtr and ser.rts  # left asserted while open, as esptool and mpremote leave them
    ser.close()
    assert [why for why, *_ in wire.states] == [
        "closed", "kernel: open asserts both", "dtr=True", "rts=True",
        "rts=False", "dtr=False", "kernel: hang-up on close lowers both",
    ]
    assert resets(wire.states) == []


def test_open_close_open_close_keeps_the_board_running(pty: str, wire: Lines) -> None:
    for _ in range(3):
        with open_port(pty):
            pass
    assert resets(wire.states) == []
    assert len([s for s in wire.states if s[0] == "kernel: open asserts both"]) == 3


async def test_link_connect_reconnect_and_close_never_reset_the_board(pty: str, wire: Lines) -> None:
    link = Link(pty, silence_timeout=None, backoff=(0.01, 0.05))
    seen: list[str] = []

    async def run() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                seen.append(item.kind)
                if item.kind == "connected":
                    link.interrupt("test: cable out", hold=0.05)
                elif item.kind == "reconnected":
                    link.close()

    await asyncio.wait_for(run(), 10)
    assert seen == ["connected", "disconnected", "reconnected"]
    assert len([s for s in wire.states if s[0] == "kernel: open asserts both"]) == 2
    assert resets(wire.states) == []


def test_the_hard_reset_pulses_en_once_and_boots_the_firmware(pty: str, wire: Lines) -> None:
    """``lines.hard_reset`` (esptool's HardReset, the link's answer to a silent board): EN
    low once, for 0.1 s, released with IO0 high (the firmware boots, not the ROM's download
    mode), the lines back to both asserted after it; then a close that resets nothing."""
    ser = open_port(pty)
    opened = len(wire.states)
    assert lines.hard_reset(ser)
    assert (wire.dtr, wire.rts) == (True, True)  # back as the open left them
    ser.close()
    during = wire.states[opened - 1 :]
    en = [devkitc(dtr, rts)[0] for _, dtr, rts in during]
    falls = [during[i][0] for i in range(1, len(en)) if en[i - 1] and not en[i]]
    assert falls == ["dtr=False"], during  # EN goes low once: DTR dropped with RTS asserted
    rise = next(i for i in range(1, len(en)) if not en[i - 1] and en[i])
    assert during[rise][0] == "rts=False" and devkitc(*during[rise][1:])[1], during  # IO0 high
    assert not [r for r in resets(during[rise:]) if "EN low" in r or "download" in r], during


def test_a_port_without_modem_lines_is_not_reset(pty: str) -> None:
    """A pty refuses the ioctl (ENOTTY), ``socket://`` has no lines: nothing is done."""
    ser = open_port(pty)
    try:
        assert lines.hard_reset(ser) is False
    finally:
        ser.close()
    assert lines.hard_reset(serial.serial_for_url("loop://")) is False


def test_links_open_function_is_the_one_checked() -> None:
    """Link, flash's HELLO check and doctor call ``transport.open_port``: no other way in."""
    import inspect

    from tablesense.commands import doctor
    from tablesense.deploy import hello
    from tablesense.link import transport

    assert hello.open_port is transport.open_port and doctor.open_port is transport.open_port
    assert "open_port, self.url, self.baudrate" in inspect.getsource(transport.Link._connect)


@pytest.mark.micropython
def test_flash_hello_check_and_doctor_never_reset_the_board(tmp_path, wire: Lines, capsys) -> None:  # type: ignore[no-untyped-def]
    from tablesense.cli import main
    from tablesense.deploy.hello import ask_hello
    from tablesense.sim import fitl
    from tablesense.table.profile import board_config_json, load_profile

    board = tmp_path / "golf.json"
    board.write_text(board_config_json(load_profile("golf")))
    with fitl.start_firmware(str(board), realtime=True) as fw:
        assert ask_hello(fw.port, timeout=10).profile_id == "golf"
        checked = len(wire.states)
        code = main(["doctor", "--port", fw.port, "--profile", "golf", "--seconds", "0.3", "--json"])
        assert code == 0  # silent sensors (nobody fires them) are named, not an error
    assert '"profile": "golf"' in capsys.readouterr().out
    assert checked > 1 and len(wire.states) > checked  # both went through the recorded open
    assert resets(wire.states) == []


@pytest.mark.micropython
def test_mpremotes_version_probe_never_resets_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """flash's version check uses mpremote's serial transport (pyserial's defaults on open,
    RTS before DTR on close): the same truth table, against the unix port's real REPL."""
    import subprocess

    from tablesense.deploy.run import board_micropython
    from tablesense.sim.fitl import find_micropython

    w = Lines()
    monkeypatch.setattr(serial, "Serial", recorder(serial.Serial, w))
    master, slave = os.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen([find_micropython()], stdin=master, stdout=master, stderr=master,
                            start_new_session=True)
    os.close(master)
    try:
        board = board_micropython(os.ttyname(slave), soft_reset=False)
    finally:
        proc.kill()
        proc.wait()
        os.close(slave)
    assert board.chip == "unix"
    assert "kernel: open asserts both" in [why for why, *_ in w.states]
    assert resets(w.states) == []


def test_one_baud_rate_overridden_by_the_command_line_then_the_profile() -> None:
    class Profile:
        baud = 921600

    assert BAUD == 115200
    assert link_baud() == BAUD
    assert link_baud(None, Profile()) == 921600
    assert link_baud(230400, Profile()) == 230400
    assert link_baud(None, object()) == BAUD  # a profile without a baud of its own
    with pytest.raises(ValueError):
        link_baud(0)


@pytest.mark.parametrize("cmd", [["monitor", "/dev/null"], ["run", "--port", "/dev/null"],
                                 ["flash", "--port", "/dev/null"]])
def test_every_command_takes_baud_and_refuses_nonsense(cmd: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    from tablesense.cli import main

    with pytest.raises(SystemExit) as exc:
        main([*cmd, "--baud", "fast"])
    assert exc.value.code == 2
    assert "--baud: invalid baud value: 'fast'" in capsys.readouterr().err


def test_a_missing_port_is_one_line_naming_it_and_the_ports_seen(capsys) -> None:  # type: ignore[no-untyped-def]
    from tablesense.cli import main
    from tablesense.pipeline import table_feeds

    assert main(["monitor", "--serial", "/dev/ttyUSB97", "--duration", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "serial port /dev/ttyUSB97 not found" in err
    assert "Ports seen:" in err or "no serial ports are connected" in err
    sources = table_feeds([("1", "/dev/ttyUSB97", "golf")])  # the pub service warns and waits for it
    err = capsys.readouterr().err.strip()
    assert err.startswith("table 1: serial port /dev/ttyUSB97 not found") and err.endswith("waiting for it")
    for feed in sources.values():  # each a factory the pub calls with the table's checkpoint
        asyncio.run(feed(None).aclose())  # type: ignore[misc]
