"""This machine's address on the local network: where a phone reaches the web app.

``lan_address()`` asks the kernel which source address it would use to reach a
private-network address (a UDP socket's ``connect`` sends nothing); None when the
machine has no network but loopback.
"""

from __future__ import annotations

import ipaddress
import socket

#: addresses of the private ranges, never contacted: only the route to them is looked up
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def lan_address() -> str | None:
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                addr = str(s.getsockname()[0])
        except OSError:
            continue
        ip = ipaddress.ip_address(addr)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            return addr
    return None
