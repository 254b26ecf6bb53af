"""The serial line to a board: its rate, and modem lines that never reset an ESP32.

**The rate.** ``BAUD`` is the one figure every command uses for the link (flash's HELLO
check, monitor, run, doctor); ``--baud`` (and a profile's ``baud``, once profiles carry
one) override it, through ``link_baud()``. ``REPL_BAUD`` is the rate mpremote's command
line talks at (fixed in mpremote), the rate the board's REPL starts at; flash copies files
at that rate whatever the link runs at.

**The modem lines.** An ESP32 DevKitC (and most ESP32 boards with a USB-UART bridge)
wires DTR and RTS to EN and IO0 through two NPN transistors, the circuit esptool uses to
reset the chip into its bootloader:

    DTR asserted, RTS not   ->  IO0 low  (EN high)   harmless while EN stays high
    RTS asserted, DTR not   ->  EN low   (reset)     the state to avoid
    both, or neither        ->  EN high, IO0 high    the board runs

On Linux, opening a tty asserts DTR and RTS together (the kernel raises both before
pyserial can touch them; both asserted is harmless). pyserial then writes DTR first, RTS
second: if it was told to clear them (``dtr = rts = False`` before ``open()``, as on
Windows), the state between its two writes is RTS asserted, DTR not: EN low, the board
resets on every open. So on POSIX the port is opened with both left asserted, as esptool
and mpremote do there; on Windows, whose open sets the lines at once without asserting
them first, both are cleared before ``open()`` (esptool's rule). Native-USB boards (the
ESP32-S3's TinyUSB CDC) need DTR asserted anyway: MicroPython treats DTR as "a host is
listening" and otherwise lets its output overwrite itself.

Closing lowers RTS first and DTR second (as mpremote's ``close()`` does): both asserted,
then DTR alone (IO0 low, EN still high), then neither; the kernel's hang-up on close
(HUPCL) finds them already low. No step passes through RTS-without-DTR.

**The one reset.** ``hard_reset`` is esptool's ``HardReset`` (esptool/reset.py): DTR
low, so that IO0 is high when the chip comes out of reset and it boots its firmware, not
the ROM's download mode; RTS asserted for 0.1 s (EN low: the chip held in reset), then
released (each RTS write followed by a DTR write of the same state, esptool's work-around
for Windows' usbser.sys). Half a second later, the chip running, the lines go back to
both asserted, DTR first (IO0 low with EN high is harmless once it has booted). The link
uses it for a board silent past the heartbeat's limit, once per silence (transport.py);
nothing else resets a board, and opening a port never does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time

import serial
import serial.rfc2217

#: The link's baud rate, unless ``--baud`` (or the profile) says otherwise.
BAUD = 115200
#: The REPL's rate: mpremote's command line (flash's copy steps) always talks at this.
REPL_BAUD = 115200


def link_baud(cli: int | None = None, profile: object | None = None) -> int:
    """The rate to open the link at: ``--baud`` if given, else the profile's ``baud`` (a
    ``TableProfile``, when it carries one), else ``BAUD``. ValueError for a rate below 1."""
    for rate in (cli, getattr(profile, "baud", None)):
        if rate is not None:
            if not isinstance(rate, int) or rate <= 0:
                raise ValueError(f"the baud rate must be a positive whole number, not {rate!r}")
            return rate
    return BAUD


def baud(text: str) -> int:
    """``--baud``'s type: a positive whole number (argparse names the option when it is not)."""
    rate = int(text)
    if rate <= 0:
        raise ValueError(text)
    return rate


def lower_lines(ser: serial.SerialBase) -> None:
    """Deassert RTS, then DTR (never RTS alone: that holds EN low). Ports without modem lines
    (a pty, ``socket://``) refuse the ioctl; that is fine."""
    for line in ("rts", "dtr"):
        with contextlib.suppress(OSError, ValueError, serial.SerialException):
            setattr(ser, line, False)


class QuietSerial(serial.Serial):
    """A local serial port whose ``close()`` lowers RTS before DTR (see the module text)."""

    def close(self) -> None:
        if self.is_open:
            lower_lines(self)
        super().close()


def prepare_lines(ser: serial.SerialBase) -> None:
    """Set the line states ``open()`` will write: both asserted on POSIX, both clear on Windows."""
    quiet_open = os.name == "nt"
    ser.dtr = not quiet_open
    ser.rts = not quiet_open


#: how long the reset holds EN low, and how long after it the lines go back to both asserted
RESET_PULSE_S = 0.1
RESET_SETTLE_S = 0.5


def has_modem_lines(ser: serial.SerialBase) -> bool:
    """A port whose DTR and RTS reach a board: a local serial device, or RFC 2217 over the
    network (as esptool's ``rfc2217://``). ``socket://`` and ``loop://`` carry bytes only."""
    return isinstance(ser, (serial.Serial, serial.rfc2217.Serial))


def hard_reset(ser: serial.SerialBase) -> bool:
    """Reset the board as esptool's ``HardReset`` does (the module text); False, and nothing
    done, if the port has no modem lines (a pty refuses the ioctl: ENOTTY, as esptool
    notes). Blocking for about 0.6 s: call it from a thread."""
    if not has_modem_lines(ser):
        return False
    try:
        ser.dtr = False  # IO0 high when EN rises: the firmware boots, not the download mode
        ser.rts = True  # with DTR low: EN low, the chip held in reset
        ser.dtr = ser.dtr
        time.sleep(RESET_PULSE_S)
        ser.rts = False  # EN high: it boots
        ser.dtr = ser.dtr
    except (OSError, serial.SerialException) as exc:
        code = getattr(exc, "errno", None)
        if code in (errno.ENOTTY, errno.EINVAL) or "Inappropriate ioctl" in str(exc):
            return False
        raise
    time.sleep(RESET_SETTLE_S)
    if os.name != "nt":  # back as open left them (prepare_lines): DTR first, never RTS alone
        with contextlib.suppress(OSError, ValueError, serial.SerialException):
            ser.dtr = True
            ser.rts = True
    return True
