"""The systemd unit that starts ``tablesense run`` at boot and restarts it after a crash.

``render_unit`` is pure text; ``stable_port`` maps /dev/ttyUSB0 to its /dev/serial/by-id
name (the ttyUSB number changes with the order the boards are found in).
"""

from __future__ import annotations

import os
import shlex
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .ports import BY_ID, PortInfo, by_id_links

UNIT_NAME = "tablesense.service"


@dataclass(frozen=True)
class UnitOptions:
    executable: str  # the tablesense script in the virtualenv
    ports: tuple[str, ...]
    profiles: tuple[str, ...]
    db: str
    user_unit: bool
    user: str | None = None  # system units run as this user (in the dialout group)
    host: str = "0.0.0.0"
    http_port: int = 8080
    lang: str = "en"
    docs: str = "docs/installation.md"


def unit_path(user_unit: bool, home: Path | None = None) -> Path:
    if user_unit:
        return (home or Path.home()) / ".config" / "systemd" / "user" / UNIT_NAME
    return Path("/etc/systemd/system") / UNIT_NAME


def stable_port(port: str, directory: Path = BY_ID) -> tuple[str, str | None]:
    """(the port to put in the unit, a warning or None)."""
    if "://" in port or port.startswith(str(directory)) or "/by-path/" in port:
        return port, None
    link = by_id_links(directory).get(os.path.realpath(port))
    if link:
        return link, None
    return port, (f"{port} has no /dev/serial/by-id name: its number may change at the next boot "
                  "(see docs/installation.md, udev rule)")


def duplicate_ids(ports: list[PortInfo]) -> list[str]:
    """by-id names that more than one board shares (cheap USB bridges all report serial 0001)."""
    counts = Counter(p.by_id for p in ports if p.by_id)
    return [name for name, n in counts.items() if n > 1]


def exec_start(o: UnitOptions) -> str:
    argv = [o.executable, "run"]
    for port in o.ports:
        argv += ["--serial", port]
    for prof in o.profiles:
        argv += ["--profile", prof]
    http = f"[{o.host}]:{o.http_port}" if ":" in o.host else f"{o.host}:{o.http_port}"
    argv += ["--http", http, "--db", o.db, "--lang", o.lang, "--wait"]  # --wait: a board plugged in later
    return " ".join(shlex.quote(a) for a in argv)


def render_unit(o: UnitOptions) -> str:
    lines = [
        "# tablesense: written by `tablesense install-service`; see " + o.docs,
        "[Unit]",
        "Description=tablesense: billiards table referee, match log and scoreboard",
        "After=network-online.target",
        "Wants=network-online.target",
        "# keep restarting however often it fails (a board unplugged and plugged back in)",
        "StartLimitIntervalSec=0",
        "",
        "[Service]",
        "Type=simple",
    ]
    if not o.user_unit and o.user:
        lines += [f"User={o.user}", "SupplementaryGroups=dialout"]
    lines += [
        f"WorkingDirectory={Path(o.db).parent}",
        "Environment=PYTHONUNBUFFERED=1",
        f"ExecStart={exec_start(o)}",
        "Restart=always",
        "RestartSec=3",
        "",
        "[Install]",
        f"WantedBy={'default.target' if o.user_unit else 'multi-user.target'}",
    ]
    return "\n".join(lines) + "\n"


def enable_commands(user_unit: bool, user: str | None = None) -> list[list[str]]:
    ctl = ["systemctl", "--user"] if user_unit else ["systemctl"]
    cmds = [[*ctl, "daemon-reload"], [*ctl, "enable", "--now", UNIT_NAME]]
    if user_unit and user:
        cmds.insert(0, ["loginctl", "enable-linger", user])  # start at boot, without a login
    return cmds


UDEV_RULE = """\
# /etc/udev/rules.d/99-tablesense.rules -- a fixed name per table's board, whatever USB port it is in.
# Find idVendor, idProduct and serial with `tablesense install-service --list-ports` or
# `udevadm info --query=property --name=/dev/ttyUSB0`. Then: sudo udevadm control --reload; replug.
# CP2102 bridge (ESP32-DevKitC): 10c4:ea60; CH340: 1a86:7523; CH9102: 1a86:55d4.
SUBSYSTEM=="tty", ATTRS{idVendor}=="10c4", ATTRS{idProduct}=="ea60", ATTRS{serial}=="0001", \\
  SYMLINK+="tablesense-table1", GROUP="dialout", MODE="0660"
# Two boards with the same serial (cheap bridges all say 0001): tell them apart by the USB socket.
# KERNELS is the socket's path from `udevadm info --attribute-walk --name=/dev/ttyUSB1`.
SUBSYSTEM=="tty", KERNELS=="1-1.3", SYMLINK+="tablesense-table2", GROUP="dialout", MODE="0660"
"""


def udev_line(vid: int | None, pid: int | None, serial: str | None, name: str) -> str:
    """A udev rule giving the board with this USB id the fixed name /dev/<name>."""
    parts = ['SUBSYSTEM=="tty"']
    if vid is not None and pid is not None:
        parts += [f'ATTRS{{idVendor}}=="{vid:04x}"', f'ATTRS{{idProduct}}=="{pid:04x}"']
    if serial:
        parts.append(f'ATTRS{{serial}}=="{serial}"')
    parts += [f'SYMLINK+="{name}"', 'GROUP="dialout"', 'MODE="0660"']
    return ", ".join(parts)


def example_unit() -> str:
    """The documented example (hardware/systemd/tablesense.service): a Pi with one golf table."""
    return render_unit(UnitOptions(
        executable="/home/pi/tablesense/.venv/bin/tablesense",
        ports=("/dev/serial/by-id/usb-Silicon_Labs_CP2102N_USB_to_UART_Bridge_Controller_"
               "6a3e4f1b2c9aeb11a4f0b1c2d3e4f5a6-if00-port0",),
        profiles=("golf",),
        db="/var/lib/tablesense/tablesense.db",
        user_unit=False,
        user="pi",
        docs="docs/installation.md",
    ))
