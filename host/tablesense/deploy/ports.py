"""Serial ports: which exist, their stable /dev/serial/by-id names, and a clear 'not found'."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from serial.tools import list_ports

from ..errors import TablesenseError

BY_ID = Path("/dev/serial/by-id")


class PortError(TablesenseError):
    """The serial port named by the user is not there."""


@dataclass(frozen=True)
class PortInfo:
    device: str  # /dev/ttyUSB0
    by_id: str | None  # /dev/serial/by-id/usb-Silicon_Labs_CP2102..._0001-if00-port0
    description: str
    vid: int | None = None
    pid: int | None = None
    serial: str | None = None

    @property
    def stable(self) -> str:
        return self.by_id or self.device


def by_id_links(directory: Path = BY_ID) -> dict[str, str]:
    """Real device path -> its /dev/serial/by-id link (udev makes them for USB serial adapters)."""
    out: dict[str, str] = {}
    if directory.is_dir():
        for link in sorted(directory.iterdir()):
            out[os.path.realpath(link)] = str(link)
    return out


def list_serial_ports(directory: Path = BY_ID) -> list[PortInfo]:
    links = by_id_links(directory)
    ports = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        desc = p.description if p.description and p.description != "n/a" else ""
        if p.vid is not None:
            desc = f"{desc} [{p.vid:04x}:{p.pid or 0:04x}]".strip()
        ports.append(PortInfo(p.device, links.get(os.path.realpath(p.device)), desc, p.vid, p.pid,
                              p.serial_number))
    return ports


def is_url(port: str) -> bool:
    return "://" in port


def check_port(port: str) -> None:
    """PortError naming the ports that do exist when ``port`` is not a device or URL."""
    if is_url(port) or os.path.exists(port):
        return
    seen = list_serial_ports()
    if seen:
        listing = "; ".join(f"{p.stable} ({p.description})" if p.description else p.stable for p in seen)
        raise PortError(f"serial port {port} not found. Ports seen: {listing}")
    raise PortError(f"serial port {port} not found, and no serial ports are connected: "
                    "plug the board in with a data USB cable (see docs/installation.md)")
